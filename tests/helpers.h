/*
 * Helpers shared by the cmocka tests (tests/test_*.c; each test program is
 * linked with tests/helpers.c): reading files, parsing records from text,
 * temporary databases and queries on them, the cells of a report, moves
 * played by their text, and the seeded generator of the random games.
 * They fail the running test (cmocka's fail_msg) rather than return an
 * error, unless a comment says otherwise. Include it after <cmocka.h>.
 */
#ifndef KIFU_TESTS_HELPERS_H
#define KIFU_TESTS_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/stats.h"
#include "kifu/store.h"

/* The source tree, where tests/data/, examples/ and schema/ are (the Makefile gives it). */
#ifndef KIFU_SOURCE_DIR
#define KIFU_SOURCE_DIR "."
#endif

/* ---- files ---- */

/*
 * The whole file at path, NUL-terminated (its length in *len when len is
 * not NULL); NULL when it cannot be opened.
 */
char *th_read_file(const char *path, size_t *len);
/* The same, but a file that cannot be opened fails the test. */
char *th_slurp(const char *path, size_t *len);
/* A file of the source tree, by its path from the top (schema/001-initial.sql). */
char *th_source_file(const char *rel);

/* ---- records ---- */

/* The first record of text, validated (text, no clock check) into rp; fails unless it is valid. */
struct kifu_record *th_parse(const char *text, struct kifu_replay *rp);
/* Validates rec again after a change (players, date...) into rp. */
void th_revalidate(struct kifu_record *rec, struct kifu_replay *rp);
/* Adds every record of text to st, each validated: fails on any error. */
void th_add_games(struct kifu_store *st, const char *text);

/* ---- temporary databases ---- */

/*
 * A new directory /tmp/kifu-test-db.XXXXXX (th_tmpdir) where the
 * database th_dbpath (t.db, not yet made) goes: cmocka setup and teardown
 * functions; the teardown removes the database with its -wal, -shm and
 * -journal files, and the directory. *state is not used.
 */
extern char th_tmpdir[256];
extern char th_dbpath[300];
int th_tmpdb_setup(void **state);
int th_tmpdb_teardown(void **state);
/* The store at path, opened (or created); fails when it cannot be. */
struct kifu_store *th_store_open(const char *path);
/* SQL through the store's own connection. */
void th_exec(struct kifu_store *st, const char *sql);
/* The first column of the first row of the query (printf-formatted), or -999 without a row. */
long long th_q_int(struct kifu_store *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same as text ("(null)" for NULL, "(none)" without a row), until the next call. */
const char *th_q_text(struct kifu_store *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- what the store answers (the facts tests check, whatever its layout) ---- */

/*
 * kifu_stats_check of st, every game and the tree at every game's first
 * plies: fails unless every game was checked and nothing is wrong (the
 * problems are printed); returns the position index entries the games
 * make (each game once per position it reaches).
 */
long long th_check_whole(struct kifu_store *st);
/*
 * The position index's answer for hash (kifu_search_games, no filter):
 * how many games reach it; th_ply_at, the first ply game id reaches it at
 * (-1 when the index does not list the game there).
 */
long th_games_at(struct kifu_store *st, uint64_t hash);
long th_ply_at(struct kifu_store *st, uint64_t hash, int64_t id);

/* ---- reports ---- */

/*
 * The statistics' database of twelve games (th_stats_games, the table in
 * helpers.c), made at th_dbpath by th_stats_setup, whose *state is the
 * open store.
 */
extern const char th_stats_games[];
int th_stats_setup(void **state);
int th_stats_teardown(void **state);
/* Each report is checked building the tables, reading them, and from the games. */
extern const unsigned th_stats_modes[];
#define TH_STATS_NMODES 3
/* The report kind of st over filter f with these options; fails on an error. */
struct kifu_report *th_stats_run(struct kifu_store *st, int kind, const struct kifu_filter *f,
				 int depth, long min_games, int by_position, unsigned flags);
/* The Wilson score interval, written out independently of lib/stats/estimate.c. */
void th_wilson(double *low, double *high, double points, double n);
/* first_mover_score, ci_low and ci_high of row: points over finished games. */
void th_assert_score(const struct kifu_report *rep, long row, double points, double finished);

/* The cell of row in the column named col; fails when there is no such column. */
const struct kifu_cell *th_cell(const struct kifu_report *rep, long row, const char *col);
/* The value of an integer, real or text cell; fails when the cell has another type. */
long long th_ival(const struct kifu_report *rep, long row, const char *col);
double th_rval(const struct kifu_report *rep, long row, const char *col);
const char *th_tval(const struct kifu_report *rep, long row, const char *col);
void th_assert_type(const struct kifu_report *rep, long row, const char *col, int type);
/* The row of game (and line when not NULL); th_row_of fails when missing. */
long th_row_of(const struct kifu_report *rep, const char *game, const char *line);
int th_has_row(const struct kifu_report *rep, const char *game, const char *line);
int th_starts_with(const char *s, const char *prefix);

/* ---- games ---- */

/* The game named name; fails when there is none. */
const struct kifu_game *th_game(const char *name);
/*
 * A new position of game (its variant, first side) after the moves of the
 * list (in kifu_pos_play_list's form); fails when one is refused. Checks
 * the incremental hash against a full rehash.
 */
struct kifu_pos *th_play_list(const char *game, int variant, int first, const char *moves);
/* The move text in position p, parsed; fails when refused. */
kifu_move th_parse_move(const struct kifu_pos *p, const char *text);
/* Parsing the move text in p fails with code and message (kifu_error's code too). */
void th_parse_refused(const struct kifu_pos *p, const char *text, int code, const char *message);
/* Plays the move text in p and checks the incremental hash against a full rehash. */
void th_play_move(struct kifu_pos *p, const char *text);
/* The number of the figure key of p; fails when missing (th_figure_int: or not KIFU_FIG_INT). */
long th_figure(const struct kifu_pos *p, const char *key);
long th_figure_int(const struct kifu_pos *p, const char *key);
/* The number of leaf positions depth plies below p. */
uint64_t th_perft(const struct kifu_pos *p, int depth);

/* The seeded generator of the random games (splitmix64): the same seed, the same games. */
struct th_rng {
	uint64_t s;
};
uint64_t th_rng_next(struct th_rng *r);
size_t th_rng_below(struct th_rng *r, size_t n);

#endif
