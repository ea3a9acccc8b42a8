/*
 * Private to the statistics (lib/stats/): building a struct
 * kifu_report row by row, and the report's string storage; the context
 * and helpers of stats.c that the reports in stats_outcomes.c,
 * stats_openings.c and stats_players.c share.
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

/* A field of the report itself (json: beside "rows"): what a tree's position is. */
#define REPORT_MAX_HEAD 8
struct report_head {
	const char *name;
	struct kifu_cell cell; /* INT or TEXT */
};

struct kifu_report {
	char name[16];
	struct report_head head[REPORT_MAX_HEAD];
	size_t nhead;
	const char *note; /* the table's text when there are no rows */
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
 * Fields of the report itself, written in json at the top level of the
 * object before "rows" (name is a string constant; text is copied), and
 * the line a table shows instead of an empty one.
 */
void report_head_int(struct kifu_report *rep, const char *name, long long v);
void report_head_text(struct kifu_report *rep, const char *name, const char *s);
void report_note(struct kifu_report *rep, const char *s);

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

/* ---- The reports' core (stats.c) ---- */

/* Plies of opening lines kept in stats_lines; deeper reports read the moves. */
#define LINE_DEPTH 6
/* Sides a game may have here (stats_lines has w0..w3). */
#define MAX_SIDES 4
/* Games and variants of the registry. */
#define MAX_GV 64

/* The result of a game as the accumulators see it: a side index, or one of these. */
enum { RES_DRAW = -1, RES_UNFINISHED = -2, RES_UNKNOWN = -3 };

/* The precomputed tables: stats_outcomes, stats_lines, stats_players. */
enum { T_OUTCOMES, T_LINES, T_PLAYERS };

/* A game and variant: reports have one group of rows per pair, in registry order. */
struct gv {
	const struct kifu_game *g;
	int v;
};

struct ctx {
	struct kifu_store *st;
	struct kifu_error *err;
	struct gv gv[MAX_GV];
	int ngv;
	int last_gv;  /* the pair found last: rows come in runs of one pair */
	int read_tx;  /* the report's own snapshot (KIFU_TX_READ) is open */
	int reopen;   /* ended for a refresh: stats_write_end takes a new one */
};

/*
 * A condition on the games table (alias g): either the filter (its
 * parameters numbered from 1) or an id range (?1 < id <= ?2), for
 * bringing tables up to date. *nparams receives the parameters used.
 */
struct source {
	const struct kifu_filter *f;  /* when not ranged */
	int ranged;
	int64_t after, upto;
};

/* The index of game and variant (by name), or -1 for a pair the registry does not know. */
int stats_gv_find(struct ctx *c, const char *game, const char *variant);
/* A result as a side index or RES_*. */
int stats_classify(const struct kifu_game *g, const char *result);
/* Column i of a row as text, "" for NULL. */
const char *stats_col_text(struct kifu_stmt *s, int i);
/* The database's last error, in the store's words: "database 'PATH': what: why". */
int stats_fail_db(struct ctx *c, const char *what);
int stats_nomem(struct ctx *c);
/* Errors after which a report is computed from the games instead of the tables. */
int stats_cannot_write(struct ctx *c);
int stats_prepare(struct ctx *c, struct kifu_stmt **s, const char *sql, const char *what);
/* stats_prepare of the SQL built in sql (out of memory if building it failed), then src's parameters bound (src NULL: none). */
int stats_prepare_built(struct ctx *c, struct kifu_stmt **s, const struct kifu_buf *sql,
			const struct source *src, const char *what);

/* The condition of src on games g into sql, and its parameters. */
int stats_source_sql(struct kifu_buf *sql, const struct source *src, int *nparams,
		     struct ctx *c);
int stats_source_bind(struct kifu_stmt *s, const struct source *src, struct ctx *c);
/* The fast-path condition on a stats table (game, variant, termination), parameters from first. */
void stats_table_where(struct kifu_buf *sql, const struct kifu_filter *f, int with_termination,
		       int first, int *nparams);
void stats_table_bind(struct kifu_stmt *s, const struct kifu_filter *f, int with_termination,
		      int first);
/* Whether f only names what stats tables hold (game, variant, and termination when allowed). */
int stats_table_filter(const struct kifu_filter *f, int termination_ok);

/* Whether table t counts exactly the games stored now. */
int stats_is_fresh(struct ctx *c, int t, int *fresh);
/*
 * A refresh's write transaction: stats_write_begin returns 1 when the
 * report must be computed without the tables, 0 with *own set when it
 * began one; stats_write_end commits it, or rolls it back after ret != 0.
 */
int stats_write_begin(struct ctx *c, int *own);
int stats_write_end(struct ctx *c, int own, int ret);
/* Inside a write transaction: the range of games (*after, *upto] table t lacks. */
int stats_refresh_range(struct ctx *c, int t, int64_t *after, int64_t *upto, int incremental);
int stats_state_set(struct ctx *c, int t, int64_t upto);
/* Brings table t (outcomes or lines) up to date: 0, 1 to compute from the games, or an error. */
int stats_ensure_fresh(struct ctx *c, int t);

/* The game and variant columns of a row. */
void stats_put_game(struct kifu_report *rep, long row, const struct gv *gv);
/* Hashing of keys: splitmix64's finaliser. */
uint64_t stats_mix64(uint64_t z);

/* ---- The reports (as kifu_stats_report describes them) ---- */

/* stats_outcomes.c: summary or lengths (kind); brings stats_outcomes up to date. */
int stats_outcomes_report(struct kifu_report *rep, struct ctx *c, int kind,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt);
int stats_outcomes_refresh(struct ctx *c);
/* stats_openings.c: openings; brings stats_lines up to date. */
int stats_openings_report(struct kifu_report *rep, struct ctx *c, const struct kifu_filter *f,
			  const struct kifu_stats_options *opt);
int stats_lines_refresh(struct ctx *c);
/* stats_players.c: players; brings stats_players up to date. */
int stats_players_report(struct kifu_report *rep, struct ctx *c, const struct kifu_filter *f,
			 const struct kifu_stats_options *opt);
int stats_players_refresh(struct ctx *c);

/* Appends v as the shortest text that reads back as the same double. */
void stats_put_real(struct kifu_buf *out, double v);

/* The score columns of a row (stats.c): name (with_ci: ci_low, ci_high); null without a finished game. */
void stats_put_score(struct kifu_report *rep, long row, const char *name, int with_ci,
		     double points, long long finished);
/* Columns wins_<side>..., draws of a row of game g. */
void stats_put_wins(struct kifu_report *rep, long row, const struct kifu_game *g,
		    const long long *wins, long long draws);

/* The tree report (stats_tree.c) into rep, as kifu_stats_report describes it. */
int stats_tree_report(struct kifu_report *rep, struct ctx *c, const struct kifu_filter *f,
		      const struct kifu_stats_options *opt, struct kifu_error *err);

/*
 * search.c: the position after moves (as kifu_search_position) with the
 * index of the side to move there; whether st has schema 4's index
 * positions_hash (else the positions table or view answers).
 */
int search_position_side(uint64_t *hash, int *to_move, const struct kifu_game *g, int variant,
			 const char *moves, struct kifu_error *err);
int search_position_index(struct kifu_store *st);
/* search.c: KIFU_EDB (or KIFU_ENOMEM) with "database 'PATH': what: the database's message". */
int search_fail_db(struct kifu_store *st, const char *what, struct kifu_error *err);

#endif
