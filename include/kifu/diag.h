/*
 * Diagnostics: the errors and warnings found in a file of game records,
 * each with its place (line and column), game number and ply, collected in
 * a caller-owned list that kifu-validate and the importers print in
 * document order. The record reader (kifu/reader.h) and the validator
 * (kifu/replay.h) append to it.
 */
#ifndef KIFU_DIAG_H
#define KIFU_DIAG_H

#include <stdarg.h>
#include <stddef.h>

/* A 1-based source position; line 0 when unknown. */
struct kifu_mark {
	int line;
	int col;
};

enum kifu_severity { KIFU_DIAG_ERROR = 0, KIFU_DIAG_WARNING = 1 };

struct kifu_diag {
	int line;              /* 1-based; 0 when unknown */
	int col;
	int ply;               /* 1-based ply of a move diagnostic, else 0 */
	int game;              /* K, the game number in its file */
	int severity;          /* enum kifu_severity */
	char *message;         /* the whole message: "game K, ply P: illegal move ..." */
};

/* A list of diagnostics, caller-owned and reusable (reset between games). */
struct kifu_diags {
	struct kifu_diag *v;
	size_t n, cap;
	int errors, warnings;  /* counts by severity */
	int failed;            /* an allocation failed: some diagnostics were lost */
};

#define KIFU_DIAGS_INIT { NULL, 0, 0, 0, 0, 0 }

/*
 * Appends a diagnostic; the message is prefixed with "game K: " (or
 * "game K, ply P: " when ply > 0). Control characters in the message are
 * written as escapes so that every diagnostic stays on one line.
 */
int kifu_diags_add(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same with a va_list, for readers' own diagnostic wrappers. */
int kifu_diags_addv(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		    const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));
/*
 * The same for a problem inside format 2's lines: path ("line 1, ply 8",
 * NULL or "" for none) follows "game K, ply P, " where P is the main-line
 * ply whose lines hold the problem (the diagnostic's ply).
 */
int kifu_diags_add_pathv(struct kifu_diags *d, int severity, int game, int ply, const char *path,
			 struct kifu_mark at, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));
/* Stable sort into document order (line, then column). */
void kifu_diags_sort(struct kifu_diags *d, size_t from);
void kifu_diags_reset(struct kifu_diags *d);
void kifu_diags_release(struct kifu_diags *d);

#endif
