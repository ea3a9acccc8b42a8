/*
 * Statistics over the stored games (kifu-stats): reports as data, rows of
 * typed cells under named columns, computed from the store with the
 * filters of store.h, and writers that turn a report into an aligned text
 * table, CSV, JSON or an SVG chart in a caller's buffer. Nothing here
 * prints.
 *
 * Typical use:
 *
 *     struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
 *     struct kifu_report *rep;
 *     struct kifu_buf out = KIFU_BUF_INIT;
 *
 *     kifu_stats_report(&rep, st, KIFU_STATS_SUMMARY, &filter, &opt, &err);
 *     kifu_report_write(&out, rep, KIFU_REPORT_CSV, &err);
 *     ... write out.data ...
 *     kifu_report_free(rep);
 *
 * Definitions (the same words as kifu-stats --help and its man page):
 * - a finished game is one whose result is not `unfinished`;
 * - a side's score is (wins + draws / number of sides) / finished games;
 * - the first mover is the side to move at the start (the record's
 *   `first`, else the game's default); first_mover_score is its score,
 *   ci_low and ci_high the 95% Wilson interval on it over the finished
 *   games; draw_rate = draws / finished games; both are null without a
 *   finished game;
 * - mean and median plies are over all games, unfinished included (the
 *   median of an even count is the mean of the two middle values);
 * - openings: one row per distinct line of 1..depth plies (canonical moves
 *   joined by single spaces) played in at least min_games games, per game
 *   and variant; by_position keys the rows by the position reached after
 *   the line (the stored position hash): lines that transpose are one row,
 *   labelled with the line most of its games took to get there first, and
 *   a game counts once per row;
 * - players: per player, over the games whose every side names a player
 *   and no player holds two sides: games, wins, draws, losses, score, and
 *   an Elo-scale rating (kifu_estimate_ratings) over the finished games, a
 *   four-player game counting as its winner beating each other player and
 *   a drawn one as a draw between every pair;
 * - lengths: the number of games of each length in plies, per game and
 *   variant;
 * - tree (needs f->game, and f->variant where the game has several): the
 *   moves played from the position after opt->after in the games that
 *   reach it at any ply by any move order (the position index), each game
 *   once, with the move it played there the first time; a game that ends
 *   there has no row. Per move: games, wins_<side>, draws, unfinished,
 *   mover_score (the score of the side to move there, as a side's score)
 *   with its Wilson interval, mean_plies of the whole games; in json only,
 *   the position's hash (16 hex digits) and to_move.
 *
 * Precomputed tables (schema/003-stats.sql) keep summary, lengths,
 * openings and players fast on millions of games. They are brought up to
 * date when a report needs them and games were added since (only the new
 * games are read, except for players, whose ratings are global); filters
 * other than game, variant and (for summary and lengths) termination are
 * computed from the games themselves.
 */
#ifndef KIFU_STATS_H
#define KIFU_STATS_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/store.h"

/* ---- Reports as data ---- */

enum kifu_cell_type {
	KIFU_CELL_ABSENT = 0, /* the column does not apply to this row (csv: empty; json: left out) */
	KIFU_CELL_NULL,       /* it applies but has no value (a score with no finished game) */
	KIFU_CELL_INT,
	KIFU_CELL_REAL,
	KIFU_CELL_TEXT,
	KIFU_CELL_LIST        /* a list of strings (json: an array) */
};

struct kifu_cell {
	int type;             /* enum kifu_cell_type */
	long long i;          /* KIFU_CELL_INT */
	double r;             /* KIFU_CELL_REAL */
	const char *text;     /* TEXT: the string; LIST: count strings, each NUL-terminated, end to end */
	size_t count;         /* LIST: how many strings */
};

/* The column appears in json only (openings' `moves`). */
#define KIFU_COLUMN_JSON_ONLY 0x1
/* A date column the table shows as its year (the tree's first_date and last_date). */
#define KIFU_COLUMN_TABLE_YEAR 0x2

struct kifu_report;

void kifu_report_free(struct kifu_report *rep);

/* Getters; strings and cells are borrowed from the report. */
const char *kifu_report_name(const struct kifu_report *rep);   /* "summary", ... */
size_t kifu_report_ncols(const struct kifu_report *rep);
const char *kifu_report_col(const struct kifu_report *rep, size_t col);
unsigned kifu_report_col_flags(const struct kifu_report *rep, size_t col);
/* The index of the column named name, or -1. */
long kifu_report_find_col(const struct kifu_report *rep, const char *name);
size_t kifu_report_nrows(const struct kifu_report *rep);
/* Never NULL: a cell out of range is KIFU_CELL_ABSENT. */
const struct kifu_cell *kifu_report_cell(const struct kifu_report *rep, size_t row, size_t col);

enum kifu_report_format {
	KIFU_REPORT_TABLE = 0, /* aligned columns for a terminal; null as "-" */
	KIFU_REPORT_CSV,       /* a header row, RFC 4180 quoting, CRLF line ends */
	KIFU_REPORT_JSON       /* {"report": NAME, "rows": [{column: value, ...}, ...]} */
};

/* Appends rep in format to out. Returns 0, KIFU_ERANGE (format) or KIFU_ENOMEM. */
int kifu_report_write(struct kifu_buf *out, const struct kifu_report *rep, int format,
		      struct kifu_error *err);

/*
 * Appends a standalone SVG chart of rep (a report of kifu_stats_report):
 * summary, outcome bars per game and variant; openings, win/draw/loss bars
 * of the first mover per line with the Wilson interval; lengths, a
 * histogram per game and variant; players, rating bars. Long reports are
 * charted by their largest rows (the chart says so). Returns 0,
 * KIFU_ERANGE (a report it cannot chart) or KIFU_ENOMEM.
 */
int kifu_report_svg(struct kifu_buf *out, const struct kifu_report *rep, struct kifu_error *err);

/* ---- The statistics ---- */

enum kifu_stats_kind {
	KIFU_STATS_SUMMARY = 0,
	KIFU_STATS_OPENINGS,
	KIFU_STATS_PLAYERS,
	KIFU_STATS_LENGTHS,
	KIFU_STATS_TREE,
	KIFU_STATS_NOVELTIES,
	KIFU_STATS_BALANCE,
	KIFU_STATS_KINDS
};

/* "summary", "openings", "players", "lengths", "tree", "novelties", "balance"; NULL out of range. */
const char *kifu_stats_kind_name(int kind);
/* The kind named name, or -1. */
int kifu_stats_kind_find(const char *name);

/* Compute from the games only: neither read nor bring up to date the precomputed tables. */
#define KIFU_STATS_NO_CACHE 0x1

struct kifu_stats_options {
	int depth;         /* openings: lines of 1..depth plies (>= 1) */
	long min_games;    /* openings, tree: rows with at least this many games */
	int by_position;   /* openings: group lines by the position they reach */
	unsigned flags;    /* KIFU_STATS_* */
	const char *after; /* tree: the position after these moves (as kifu-perft --after; NULL: the start) */
	int symmetric;     /* openings --by-position, tree: positions equal under a board symmetry are one */
	long newest;       /* openings: only the newest N games f selects (as kifu_store_game_each orders them); 0: all */
	int by_variant;    /* players: a row per player, game and variant, each rated over those games */
	const char *name_part; /* players: only those whose name holds it, without regard to case */
};

#define KIFU_STATS_OPTIONS_INIT { 2, 1, 0, 0, NULL, 0, 0, 0, NULL }

/*
 * Computes report kind over the games f selects (f may be NULL: every
 * game) with opt (NULL: the defaults). *out belongs to the caller
 * (kifu_report_free). Rows come per game and variant in the registry's
 * order; openings by plies, then games (most first), then line; players
 * by rating (best first; players without a finished game last), then
 * name; lengths by plies; tree by games (most first), then move text
 * in byte order. Returns 0, KIFU_ERANGE (a bad option; tree: no game,
 * or no variant of a game that has several), KIFU_EPARSE or
 * KIFU_EILLEGAL (tree: a bad move in opt->after, "ply P: ..."),
 * KIFU_EPARSE (a bad date in f), KIFU_EDB or KIFU_ENOMEM.
 */
int kifu_stats_report(struct kifu_report **out, struct kifu_store *st, int kind,
		      const struct kifu_filter *f, const struct kifu_stats_options *opt,
		      struct kifu_error *err);

/*
 * One stored game's novelty, as the novelties report gives it for that
 * game: the first ply whose move no game of the same game and variant with
 * a strictly earlier date had played from the position it was played in
 * (see kifu-stats novelties). has_novelty is 0 when the game has no date,
 * never left known moves, or the database has no position index.
 */
struct kifu_novelty {
	int has_novelty;
	long ply;                      /* 1 .. the game's plies */
	char move[KIFU_MOVE_TEXT_MAX]; /* the move played at ply, as stored */
	long earlier;                  /* the earlier games reaching the position; -1: not asked */
};

/* Also count the novelty's earlier games (a read of every game reaching that position). */
#define KIFU_NOVELTY_EARLIER 0x1

/*
 * Fills *out for the stored game id (flags: KIFU_NOVELTY_*). Reads the
 * tree counts where they answer (tree_moves, schema 8) and the position
 * index elsewhere. Returns 0, KIFU_ENOTFOUND (no such game), KIFU_EDB or
 * KIFU_ENOMEM.
 */
int kifu_stats_novelty(struct kifu_novelty *out, struct kifu_store *st, int64_t id,
		       unsigned flags, struct kifu_error *err);

/*
 * The same for many games (kifu-export's, a page's list): statements and
 * the tree's positions kept from one game to the next (at most 65,536
 * positions). *out belongs to the caller (kifu_stats_novelty_close, which
 * takes NULL); st must stay open meanwhile. find returns as
 * kifu_stats_novelty.
 */
struct kifu_novelty_finder;
int kifu_stats_novelty_open(struct kifu_novelty_finder **out, struct kifu_store *st,
			    struct kifu_error *err);
int kifu_stats_novelty_find(struct kifu_novelty *out, struct kifu_novelty_finder *nf,
			    int64_t id, unsigned flags, struct kifu_error *err);
void kifu_stats_novelty_close(struct kifu_novelty_finder *nf);

/*
 * Brings the precomputed tables up to date with the stored games (the
 * reports do it themselves when they need to; this is for tools that want
 * it done ahead, e.g. right after an import). Returns 0 or a negative
 * KIFU_E* code.
 */
int kifu_stats_refresh(struct kifu_store *st, struct kifu_error *err);

/* ---- Checking what a user asks (lib/stats/params.c) ---- */

/*
 * The checks the tools make of their options and kifu-serve of its
 * parameters, with the same messages: each returns 0 or KIFU_EPARSE with
 * the message in err ("unknown game 'x' (did you mean 'y'?)").
 */
struct kifu_game; /* kifu/game.h */

/* "unknown game 'NAME' (did you mean 'N'?)", else with the list of the known games. */
int kifu_stats_unknown_game(struct kifu_error *err, const char *name);
/* "unknown variant 'NAME' of 'G' (...)": of g, or of any game when g is NULL. */
int kifu_stats_unknown_variant(struct kifu_error *err, const char *name,
			       const struct kifu_game *g);
/* "summary, openings, ... or novelties": the reports' names, in out (cut at size). */
void kifu_stats_report_names(char *out, size_t size);
/* "unknown report 'NAME' (did you mean 'R'?)", else with the list of the reports. */
int kifu_stats_unknown_report(struct kifu_error *err, const char *name);
/* The game called name and the index of its variant (NULL: the default one). */
int kifu_stats_resolve_game(const struct kifu_game **game, int *variant_index, const char *name,
			    const char *variant, struct kifu_error *err);
/*
 * Filters that would select nothing by mistake: an unknown game, variant
 * or termination, or a date that is not one ("--since: ...").
 */
int kifu_stats_check_filter(const struct kifu_filter *f, struct kifu_error *err);
/*
 * The stored player a user means by name (--player NAME, /player/NAME):
 * the player called exactly name; where none is, the one whose name equals
 * it without regard to case (ASCII, Latin, Greek and Cyrillic letters; the
 * first in byte order if several are); where none is either,
 * KIFU_ENOTFOUND with "no player 'NAME'" and up to three nearest stored
 * names ("(did you mean 'Ann Lee'?)": edit distance over the case-folded
 * names, or names the typed one is a part of, from a bounded set SQL
 * narrows). *out is the stored spelling, the caller's to free().
 */
int kifu_stats_find_player(char **out, struct kifu_store *st, const char *name,
			   struct kifu_error *err);
/*
 * f->player as kifu_stats_find_player finds it: f->player then points at
 * *spelling (the caller's to free(), after f's last use); nothing without
 * a player filter (*spelling NULL).
 */
int kifu_stats_match_player(char **spelling, struct kifu_filter *f, struct kifu_store *st,
			    struct kifu_error *err);
/* Whether text is a whole number from min to max in decimal digits alone: 0 with *v set, else -1. */
int kifu_stats_whole_number(long *v, const char *text, long min, long max);
/* "OPT expects a whole number of MIN or more, not 'TEXT'" unless text is one (*v then). */
int kifu_stats_parse_count(long *v, const char *opt, const char *text, long min,
			   struct kifu_error *err);

#endif
