/*
 * Private helpers shared by the foreign formats of import/ (apgr, pgn, csv):
 * a byte reader over a struct kifu_source that keeps the line and column of
 * the next character and stops at the first byte that is not UTF-8 or is a
 * control character (as the YAML reader does), growable text with the size
 * limit of one scalar, and builders that put a field into a record together
 * with its source positions. Not installed.
 */
#ifndef KIFU_IMPORT_IMPL_H
#define KIFU_IMPORT_IMPL_H

#include <stddef.h>

#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/record.h"
#include "kifu/replay.h"

/* The formats themselves (kifu_format_apgr_, _pgn, _csv) are declared for the registry. */
#include "input/formats.h"
/* kifu_text_clip_: quoting input in messages. */
#include "util/text_impl.h"

/* kifu_import_getc_ results other than a byte. */
#define IMP_EOF (-1)
#define IMP_BAD (-2) /* a byte that is not UTF-8 or a control character: in->problem */
#define IMP_ERR (-3) /* the source failed: in->error, in->code */

struct kifu_import_in_ {
	const struct kifu_source *src;
	unsigned char buf[65536];
	size_t pos, len;
	int eof;
	int line, col;          /* of the next character */
	int need;               /* continuation bytes still expected */
	unsigned long cp, min;  /* the code point being decoded, its smallest valid value */
	int lead;               /* its first byte, and where that stands */
	struct kifu_mark lead_at;
	int peeked; /* a byte returned by kifu_import_peek_, not consumed yet; -10 none */
	int bom_checked;
	int pend[3], npend;      /* bytes read while looking for a byte-order mark */
	const char *problem;    /* why the input stopped (IMP_BAD) */
	long problem_value;
	struct kifu_mark problem_at;
	int code;               /* the source's error code (IMP_ERR) */
	struct kifu_error error;
	unsigned long long consumed;
};

void kifu_import_in_init_(struct kifu_import_in_ *in, const struct kifu_source *src);

/* The next byte (or IMP_EOF, IMP_BAD, IMP_ERR: those repeat on every later call). */
int kifu_import_getc_(struct kifu_import_in_ *in);
/* The next byte without consuming it. */
int kifu_import_peek_(struct kifu_import_in_ *in);
/* The position of the next character. */
struct kifu_mark kifu_import_at_(const struct kifu_import_in_ *in);

/* Appends the diagnostic of an IMP_BAD stop ("invalid input: ...") to game K. */
int kifu_import_bad_input_(struct kifu_diags *diags, int game, const struct kifu_import_in_ *in);

/* A growable text: NUL-terminated, at most KIFU_RECORD_MAX_SCALAR bytes kept. */
struct kifu_import_text_ {
	char *s;
	size_t n, cap;
	int over;   /* bytes were dropped past the limit */
	int failed; /* an allocation failed */
};

void kifu_import_text_reset_(struct kifu_import_text_ *t);
void kifu_import_text_release_(struct kifu_import_text_ *t);
void kifu_import_text_addc_(struct kifu_import_text_ *t, int c);
void kifu_import_text_add_(struct kifu_import_text_ *t, const char *s, size_t n);
/* Removes white space at both ends. */
void kifu_import_text_trim_(struct kifu_import_text_ *t);

/* ASCII case-insensitive comparisons (locale-free). */
int kifu_import_strcaseeq_(const char *a, const char *b);
int kifu_import_strncaseeq_(const char *a, const char *b, size_t n);

/*
 * Record builders: each copies its strings into the record (n bytes, or up
 * to the NUL when n is (size_t)-1), marks the key present and keeps the
 * positions. Return 0 or KIFU_ENOMEM.
 */
int kifu_import_set_(struct kifu_record *rec, int key, const char *s, size_t n,
		     struct kifu_mark key_at, struct kifu_mark value_at);
int kifu_import_player_(struct kifu_record *rec, const char *side, const char *name, int has_rating,
			long rating, struct kifu_mark at);
struct kifu_turn *kifu_import_turn_(struct kifu_record *rec, const char *move, size_t n,
				    struct kifu_mark at);
int kifu_import_turn_comment_(struct kifu_record *rec, struct kifu_turn *t, const char *s);
int kifu_import_turn_clock_(struct kifu_record *rec, struct kifu_turn *t, const char *clock);
int kifu_import_tag_(struct kifu_record *rec, const char *key, const char *value, int type,
		     struct kifu_mark at);

/* The game called name (its id, or its title case-insensitively), or NULL. */
const struct kifu_game *kifu_import_game_lookup_(const char *name);

/*
 * Whether s is a clock in decimal seconds ("598", "597.5"): digits, at most
 * one point with digits on both sides, no sign, no leading zero before
 * another digit.
 */
int kifu_import_decimal_clock_(const char *s);

/* The writers, each in its own file beside its reader. */
int kifu_apgr_write_(struct kifu_buf *out, const struct kifu_record *const *recs,
		     const struct kifu_replay *const *rps, size_t n, struct kifu_error *err);
int kifu_pgn_write_(struct kifu_buf *out, const struct kifu_record *const *recs,
		    const struct kifu_replay *const *rps, size_t n, struct kifu_error *err);

/* pgn: the longest tag name and movetext token. */
#define PGN_MAX_NAME KIFU_RECORD_MAX_SCALAR
#define PGN_MAX_TOKEN 1024

/* pgn lexing (common.c), shared by the reader and the writer: PGN white space. */
int kifu_import_pgn_space_(int c);
/* Characters that end a movetext symbol (and the end of input). */
int kifu_import_pgn_delim_(int c);
/* The record's result for a Result tag or closing token in game g (may be NULL), or NULL. */
const char *kifu_import_pgn_result_word_(const struct kifu_game *g, const char *s);
/* Whether s closes the movetext in game g: "1-0", "0-1" or a result word. */
int kifu_import_pgn_result_token_(const struct kifu_game *g, const char *s);

/*
 * The side to move before every ply of rec (sides[i] for ply i + 1), by
 * replaying rp's moves when given, else the record's texts; where the replay
 * stops, turns go round in the game's order. sides has rec->nturns entries.
 * Returns 0, or KIFU_ENOMEM.
 */
int kifu_import_sides_to_move_(int *sides, const struct kifu_record *rec, const struct kifu_game *g,
			       int variant, int first, const struct kifu_replay *rp);

#endif
