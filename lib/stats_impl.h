/*
 * Private to the statistics (lib/stats*.c): building a struct
 * kifu_report row by row, and the report's string storage.
 */
#ifndef KIFU_STATS_IMPL_H
#define KIFU_STATS_IMPL_H

#include <stddef.h>

#include <stdint.h>

#include "kifu/game.h"
#include "kifu/stats.h"

/* Strings that never move once stored: a chain of blocks. */
struct arena_block;

struct arena {
	struct arena_block *head;
};

/* A copy of s (n bytes, NUL added) that lives as long as the arena; NULL when out of memory. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_release(struct arena *a);

struct report_col {
	char *name;
	unsigned flags;  /* KIFU_COLUMN_* */
	int prec;        /* digits after the point of a real in a text table */
};

struct report_row {
	struct kifu_cell *cells;
	size_t n;
};

struct kifu_report {
	char name[16];
	struct report_col *cols;
	size_t ncols, cap_cols;
	struct report_row *rows;
	size_t nrows, cap_rows;
	struct arena strings;
	int failed;      /* an allocation failed while building */
};

int report_new(struct kifu_report **out, const char *name);

/*
 * The index of the column named name, added at the end when new (so that
 * the columns are the union of the rows' columns in order of first
 * appearance); -1 when out of memory.
 */
long report_col(struct kifu_report *rep, const char *name, unsigned flags, int prec);

/* Appends a row whose cells are all absent; returns its index or -1. */
long report_row(struct kifu_report *rep);

/*
 * Setters of one cell of a row (col as report_col returned, -1 ignored).
 * A real that is not finite is stored as null. Text and lists are copied.
 * A failure marks the report failed (report_failed says so).
 */
void report_set_int(struct kifu_report *rep, long row, long col, long long v);
void report_set_real(struct kifu_report *rep, long row, long col, double v);
void report_set_null(struct kifu_report *rep, long row, long col);
void report_set_text(struct kifu_report *rep, long row, long col, const char *s);
/* A list from a string of items separated by sep. */
void report_set_list(struct kifu_report *rep, long row, long col, const char *s, char sep);

int report_failed(const struct kifu_report *rep);

/*
 * The text table's layout (stats_report.c), for other views of a report
 * that show the same columns (the explorer page): a shown column is the
 * report's column col, with column pair shown beside it as LOW-HIGH (or
 * -1), under head.
 */
struct stats_tcol {
	size_t col;
	long pair;
	const char *head;
	size_t width;
	int numeric;
};

/*
 * Fills t (room for kifu_report_ncols(rep) entries) with the columns the
 * text table shows, in its order; drop_game, drop_variant leave those
 * columns out. Returns how many.
 */
size_t stats_table_plan(struct stats_tcol *t, const struct kifu_report *rep, int drop_game,
			int drop_variant);
/* Sets cell to the text of column t in row r as the table shows it (r < 0: the header). */
void stats_tcol_text(struct kifu_buf *cell, const struct kifu_report *rep,
		     const struct stats_tcol *t, long r);

/* Appends v as the shortest text that reads back as the same double. */
void stats_put_real(struct kifu_buf *out, double v);

/* The score columns of a row (stats.c): name (with_ci: ci_low, ci_high); null without a finished game. */
void stats_put_score(struct kifu_report *rep, long row, const char *name, int with_ci,
		     double points, long long finished);
/* Columns wins_<side>..., draws of a row of game g. */
void stats_put_wins(struct kifu_report *rep, long row, const struct kifu_game *g,
		    const long long *wins, long long draws);

/* The tree report (stats_tree.c) into rep, as kifu_stats_report describes it. */
int stats_tree_report(struct kifu_report *rep, struct kifu_store *st, const struct kifu_filter *f,
		      const struct kifu_stats_options *opt, struct kifu_error *err);

/*
 * search.c: the position after moves (as kifu_search_position) with the
 * index of the side to move there; whether st has schema 4's index
 * positions_hash (else the positions table or view answers).
 */
int search_position_side(uint64_t *hash, int *to_move, const struct kifu_game *g, int variant,
			 const char *moves, struct kifu_error *err);
int search_position_index(struct kifu_store *st);
/* search.c: KIFU_EDB (or KIFU_ENOMEM) with "database 'PATH': what: sqlite's message". */
int search_fail_db(struct kifu_store *st, const char *what, struct kifu_error *err);

#endif
