/*
 * Private to the statistics (lib/stats/): building a struct
 * kifu_report row by row, and the report's string storage; the context
 * and helpers of stats_common.c that the reports in stats_outcomes.c,
 * stats_openings.c, stats_players.c and stats_tree.c share; and the report
 * kinds that stats.c dispatches to.
 */
#ifndef KIFU_STATS_IMPL_H
#define KIFU_STATS_IMPL_H

#include <stddef.h>

#include <stdint.h>

#include "kifu/game.h"
#include "kifu/stats.h"
#include "store/store_sql.h" /* the statement layer and the filters' SQL */
#include "util/arena.h"
#include "util/hash.h"


struct kifu_report_column_ {
	char *name;
	unsigned flags;  /* KIFU_COLUMN_* */
	int prec;        /* digits after the point of a real in a text table */
};

struct kifu_report_row_ {
	struct kifu_cell *cells;
	size_t n;
};

/* A field of the report itself (json: beside "rows"): what a tree's position is. */
#define REPORT_MAX_HEAD 8
struct kifu_report_head_ {
	const char *name;
	struct kifu_cell cell; /* INT or TEXT */
};

struct kifu_report {
	char name[16];
	struct kifu_report_head_ head[REPORT_MAX_HEAD];
	size_t nhead;
	const char *note; /* the table's text when there are no rows */
	struct kifu_report_column_ *cols;
	size_t ncols, cap_cols;
	size_t next_col;  /* the column after the one kifu_report_add_col_ last gave */
	long *col_slots;  /* the columns by name: index + 1 (0: free), open addressing */
	size_t nslots;    /* a power of two, over twice ncols (0: none yet) */
	struct kifu_report_row_ *rows;
	size_t nrows, cap_rows;
	struct kifu_arena_block *strings; /* util/arena.h */
	int failed;      /* an allocation failed while building */
};

int kifu_report_new_(struct kifu_report **out, const char *name);

/*
 * The index of the column named name, added at the end when new (so that
 * the columns are the union of the rows' columns in order of first
 * appearance); -1 when out of memory.
 */
long kifu_report_add_col_(struct kifu_report *rep, const char *name, unsigned flags, int prec);

/*
 * A real as a text table shows it: prec digits after the point (the
 * column's), or with prec < 0 the shortest text that reads back as v.
 */
void kifu_report_real_text_(struct kifu_buf *out, double v, int prec);

/* Appends a row whose cells are all absent; returns its index or -1. */
long kifu_report_add_row_(struct kifu_report *rep);

/*
 * Setters of one cell of a row (col as kifu_report_add_col_ returned, -1 ignored).
 * A real that is not finite is stored as null. Text and lists are copied.
 * A failure marks the report failed (kifu_report_failed_ says so).
 */
void kifu_report_set_int_(struct kifu_report *rep, long row, long col, long long v);
void kifu_report_set_real_(struct kifu_report *rep, long row, long col, double v);
void kifu_report_set_null_(struct kifu_report *rep, long row, long col);
void kifu_report_set_text_(struct kifu_report *rep, long row, long col, const char *s);
/* A list from a string of items separated by sep. */
void kifu_report_set_list_(struct kifu_report *rep, long row, long col, const char *s, char sep);

int kifu_report_failed_(const struct kifu_report *rep);

/*
 * Fields of the report itself, written in json at the top level of the
 * object before "rows" (name is a string constant; text is copied), and
 * the line a table shows instead of an empty one.
 */
void kifu_report_head_int_(struct kifu_report *rep, const char *name, long long v);
void kifu_report_head_text_(struct kifu_report *rep, const char *name, const char *s);
void kifu_report_note_(struct kifu_report *rep, const char *s);

/*
 * The text table's layout (stats_report.c), for other views of a report
 * that show the same columns (the explorer page): a shown column is the
 * report's column col, with column pair shown beside it as LOW-HIGH (or
 * -1), under head.
 */
struct kifu_report_tcol_ {
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
size_t kifu_report_table_plan_(struct kifu_report_tcol_ *t, const struct kifu_report *rep,
			       int drop_game, int drop_variant);
/* Sets cell to the text of column t in row r as the table shows it (r < 0: the header). */
void kifu_report_tcol_text_(struct kifu_buf *cell, const struct kifu_report *rep,
			    const struct kifu_report_tcol_ *t, long r);

/* ---- What the reports share (stats_common.c) ---- */

/* Plies of opening lines kept in stats_lines; deeper reports read the moves. */
#define LINE_DEPTH KIFU_SUMS_LINE_DEPTH
/* Sides a game may have here (stats_lines has w0..w3). */
#define MAX_SIDES KIFU_SUMS_MAX_SIDES
/* Games and variants of the registry. */
#define MAX_GV 64

/* The result of a game as the accumulators see it: a side index, or one of these. */
enum { RES_DRAW = KIFU_SUMS_DRAW, RES_UNFINISHED = KIFU_SUMS_UNFINISHED,
       RES_UNKNOWN = KIFU_SUMS_UNKNOWN };

/* The precomputed tables: stats_outcomes, stats_lines, stats_players, stats_balance. */
enum { T_OUTCOMES, T_LINES, T_PLAYERS, T_BALANCE };

/* A game and variant: reports have one group of rows per pair, in registry order. */
struct kifu_stats_gv_ {
	const struct kifu_game *g;
	int v;
};

struct kifu_stats_ctx_ {
	struct kifu_store *st;
	struct kifu_error *err;
	struct kifu_stats_gv_ gv[MAX_GV];
	int ngv;
	int last_gv;  /* the pair found last: rows come in runs of one pair */
	int read_tx;  /* the report's own snapshot (KIFU_TX_READ) is open */
	int reopen;   /* ended for a refresh: kifu_stats_write_end_ takes a new one */
};

/*
 * A condition on the games table (alias g): either the filter (its
 * parameters numbered from 1) or an id range (?1 < id <= ?2), for
 * bringing tables up to date. *nparams receives the parameters used.
 */
struct kifu_stats_source_ {
	const struct kifu_filter *f;  /* when not ranged */
	int ranged;
	int64_t after, upto;
	long newest;                  /* > 0: only the newest games of f, this many */
};

/* The index of game and variant (by name), or -1 for a pair the registry does not know. */
int kifu_stats_gv_find_(struct kifu_stats_ctx_ *c, const char *game, const char *variant);
/* A result as a side index or RES_*. */
int kifu_stats_classify_(const struct kifu_game *g, const char *result);
/* Column i of a row as text, "" for NULL. */
const char *kifu_stats_col_text_(struct kifu_stmt *s, int i);
/* The database's last error, in the store's words: "database 'PATH': what: why". */
int kifu_stats_fail_db_(struct kifu_stats_ctx_ *c, const char *what);
int kifu_stats_nomem_(struct kifu_stats_ctx_ *c);
/* Errors after which a report is computed from the games instead of the tables. */
int kifu_stats_cannot_write_(struct kifu_stats_ctx_ *c);
int kifu_stats_prepare_(struct kifu_stats_ctx_ *c, struct kifu_stmt **s, const char *sql,
			const char *what);
/*
 * kifu_stats_prepare_ of the SQL built in sql (out of memory if building
 * it failed), then src's parameters bound (src NULL: none).
 */
int kifu_stats_prepare_built_(struct kifu_stats_ctx_ *c, struct kifu_stmt **s,
			      const struct kifu_buf *sql, const struct kifu_stats_source_ *src,
			      const char *what);

/* The condition of src on games g into sql, and its parameters. */
int kifu_stats_source_sql_(struct kifu_buf *sql, const struct kifu_stats_source_ *src, int *nparams,
			   struct kifu_stats_ctx_ *c);
int kifu_stats_source_bind_(struct kifu_stmt *s, const struct kifu_stats_source_ *src,
			    struct kifu_stats_ctx_ *c);
/* The fast-path condition on a stats table (game, variant, termination), parameters from first. */
void kifu_stats_table_where_(struct kifu_buf *sql, const struct kifu_filter *f,
			     int with_termination, int first, int *nparams);
void kifu_stats_table_bind_(struct kifu_stmt *s, const struct kifu_filter *f, int with_termination,
			    int first);
/* Whether f only names what stats tables hold (game, variant, and termination when allowed). */
int kifu_stats_table_filter_(const struct kifu_filter *f, int termination_ok);

/* Whether table t counts exactly the games stored now. */
int kifu_stats_is_fresh_(struct kifu_stats_ctx_ *c, int t, int *fresh);
/*
 * A refresh's write transaction: kifu_stats_write_begin_ returns 1 when the
 * report must be computed without the tables, 0 with *own set when it
 * began one; kifu_stats_write_end_ commits it, or rolls it back after ret != 0.
 */
int kifu_stats_write_begin_(struct kifu_stats_ctx_ *c, int *own);
int kifu_stats_write_end_(struct kifu_stats_ctx_ *c, int own, int ret);
/* Inside a write transaction: the range of games (*after, *upto] table t lacks. */
int kifu_stats_refresh_range_(struct kifu_stats_ctx_ *c, int t, int64_t *after, int64_t *upto,
			      int incremental);
int kifu_stats_state_set_(struct kifu_stats_ctx_ *c, int t, int64_t upto);
/*
 * Brings table t (outcomes or lines) up to date, fill adding the games
 * it lacks inside the write transaction: 0, 1 to compute from the games,
 * or an error.
 */
int kifu_stats_ensure_fresh_(struct kifu_stats_ctx_ *c, int t,
			     int (*fill)(struct kifu_stats_ctx_ *c));

/* The game and variant columns of a row. */
void kifu_stats_put_game_(struct kifu_report *rep, long row, const struct kifu_stats_gv_ *gv);
/* The score columns of a row: name (with_ci: ci_low, ci_high); null without a finished game. */
void kifu_stats_put_score_(struct kifu_report *rep, long row, const char *name, int with_ci,
			   double points, long long finished);
/* Columns wins_<side>..., draws of a row of game g. */
void kifu_stats_put_wins_(struct kifu_report *rep, long row, const struct kifu_game *g,
			  const long long *wins, long long draws);

/* ---- The report kinds (as kifu_stats_report describes them) ---- */

/*
 * A kind of report: kifu_stats_report and kifu_stats_refresh (stats.c)
 * go through the registry of these and name no report themselves.
 */
struct kifu_stats_kind_ {
	const char *name;  /* as kifu_stats_kind_name says it */
	int kind;          /* KIFU_STATS_* */
	/* Computes the report into rep; errors in c->err. */
	int (*report)(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
		      const struct kifu_filter *f, const struct kifu_stats_options *opt);
	/*
	 * Brings the table the kind reads up to date (kifu_stats_refresh):
	 * 0 or 1 as kifu_stats_ensure_fresh_, or an error; NULL for a kind
	 * without a table of its own.
	 */
	int (*refresh)(struct kifu_stats_ctx_ *c);
	/*
	 * The header of a report without rows, so that it still says what
	 * it would hold ("" stands for the wins_<side> columns of the
	 * filter's game, when one is named); position_columns follow with
	 * by_position. NULL: the report writes its header itself.
	 */
	const char *const *empty_columns;
	const char *const *position_columns;
};

/* stats_outcomes.c: summary and lengths, which read stats_outcomes (summary refreshes it). */
extern const struct kifu_stats_kind_ kifu_stats_summary_;
extern const struct kifu_stats_kind_ kifu_stats_lengths_;
/* stats_openings.c: openings, which reads stats_lines. */
extern const struct kifu_stats_kind_ kifu_stats_openings_;
/*
 * players_find.c: s case-folded (ASCII, Latin, Greek and Cyrillic letters) into
 * out, size bytes with the NUL; -1 when it does not fit.
 */
int kifu_stats_fold_(char *out, size_t size, const char *s);

/* stats_players.c: players, which reads stats_players. */
extern const struct kifu_stats_kind_ kifu_stats_players_;
/* stats_tree.c: the tree, from the position index and the store's tree counts. */
extern const struct kifu_stats_kind_ kifu_stats_tree_;
/* stats_novelties.c: each game's first move no earlier game played (the position index). */
extern const struct kifu_stats_kind_ kifu_stats_novelties_;
/*
 * stats_novelty_pass.c: the novelties of one variant's dated games read
 * one after another in (first day, id) order, each against the games read
 * before it of strictly earlier dates, from two tables in memory (what the
 * walk over the position index gives). positions: room made for that many
 * at once (a hint: the tables grow).
 */
struct kifu_novelty_pass_;
int kifu_stats_novelty_pass_open_(struct kifu_novelty_pass_ **out, size_t positions);
/* The game's novelty into *out, then its moves (a JSON array) and hashes into the tables. */
int kifu_stats_novelty_pass_game_(struct kifu_novelty *out, struct kifu_novelty_pass_ *np,
				  const char *moves, const uint64_t *hashes, size_t nhashes,
				  const char *date);
void kifu_stats_novelty_pass_free_(struct kifu_novelty_pass_ *np);
/* stats_balance.c: per game, variant and playing level: fairness, length, width, tension. */
extern const struct kifu_stats_kind_ kifu_stats_balance_;

/*
 * The game and variant a report of one game reads (the tree, novelties):
 * f's, the variant required where the game has several ("the REPORT report
 * needs a variant (--variant): 'G' has several"); KIFU_ERANGE otherwise.
 */
int kifu_stats_game_of_(const struct kifu_game **g, int *variant, const struct kifu_filter *f,
			const char *report, struct kifu_error *err);

/*
 * search.c: the position after moves (as kifu_search_position) with the
 * index of the side to move there; whether st has schema 4's index
 * positions_hash (else the positions table or view answers).
 */
int kifu_search_position_side_(uint64_t *hash, int *to_move, const struct kifu_game *g, int variant,
			       const char *moves, struct kifu_error *err);
int kifu_search_position_index_(struct kifu_store *st);
/* search.c: KIFU_EDB (or KIFU_ENOMEM) with "database 'PATH': what: the database's message". */
int kifu_search_fail_db_(struct kifu_store *st, const char *what, struct kifu_error *err);

/*
 * search.c for search_pattern.c: the games f selects newest first, kept
 * only where their id is one of ids[0..n) (sorted), each with plies[k] as
 * its ply.
 */
struct kifu_search_result;
int kifu_search_games_among_(struct kifu_search_result **out, struct kifu_store *st,
			     const struct kifu_filter *f, const int64_t *ids, const long *plies,
			     size_t n, struct kifu_error *err);

#endif
