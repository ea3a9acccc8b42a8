/*
 * Unit tests of the statistics and search (lib/stats/, lib/stats/search.c) on a
 * small database built by hand: twelve games of four games (splay-schmidt,
 * splay-kisenwether, the four-player splinter-quad and glaisher), with
 * wins, draws, an unfinished game, games without a date or without
 * players, a chosen first side, players on different sides, transposing
 * move orders and a position reached twice. Every figure expected below is
 * worked out by hand in the comments. Each report is checked three times:
 * building the precomputed tables, reading them, and computing from the
 * games (KIFU_STATS_NO_CACHE), so that both ways are held to the same
 * figures. Then the filters one by one, tables kept up to date as games
 * come and go, the text forms (CSV quoting, JSON shape) and the charts,
 * and search by position.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "kifu/diag.h"
#include "kifu/estimate.h"
#include "kifu/explorer.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "kifu/search.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "stats/stats_impl.h"
#include "store/store_impl.h" /* the SQLite connection of test_busy_database */

/*
 * The games, ids 1..12 in this order. S = splay-schmidt (white moves
 * first), K = splay-kisenwether (white first), Q = splinter-quad (red
 * first unless `first`), G = glaisher.
 *
 *  id game plies result            players (turn order)        date        event
 *   1 S1   4   white (resignation) Ann, Bob                    2024-03-10  Club
 *   2 S2   3   black (resignation) Bob, Cat                    2024-05     Open
 *   3 S3   2   draw (agreement)    Ann, Cat                    2024        Club
 *   4 S4   2   unfinished          Cat, Ann                    2024-06-15  -
 *   5 S5   2   white (timeout)     Dan, Bob                    2024-01-20  Open
 *   6 K1   5   black (resignation) Ann, Dan                    2024-02-01  Open
 *   7 K2   1   draw (agreement)    Bob, Ann                    2024-04-01  Club
 *   8 K3   5   unfinished          Cat, Bob                    2024-08-01  Open
 *   9 Q1   4   red (resignation)   Ann, Bob, Cat, Dan          2024-07-01  Club
 *  10 Q2   4   draw (agreement)    Dan, Cat, Bob, Ann          -           Club
 *  11 Q3   2   green (resignation) Ann, Bob, Cat, (no yellow)  2022-01-01  Open  first: green
 *  12 G1   1   unfinished          (none)                      -           -
 *
 * S1 d4 f6 e5 and S2 e5 f6 d4 transpose. K1 goes c6-c5 c3-c4 c5-c6 c4-c3
 * c6-c5: back to the start at ply 4 and to the position after c6-c5 again
 * at ply 5; K3 d6-d5 c3-c4 d5-d6 c4-c3 c6-c5 reaches that position first
 * at ply 5, and K1's after 3 plies at ply 3.
 */
static const char games_text[] =
	"---\ngame: splay-schmidt\nevent: Club\ndate: 2024-03-10\n"
	"players: {white: Ann, black: Bob}\nmoves: [d4, f6, e5, c3]\n"
	"result: white\ntermination: resignation\n"
	"---\ngame: splay-schmidt\nevent: Open\ndate: 2024-05\n"
	"players: {white: Bob, black: Cat}\nmoves: [e5, f6, d4]\n"
	"result: black\ntermination: resignation\n"
	"---\ngame: splay-schmidt\nevent: Club\ndate: '2024'\n"
	"players: {white: Ann, black: Cat}\nmoves: [d4, f6]\n"
	"result: draw\ntermination: agreement\n"
	"---\ngame: splay-schmidt\ndate: 2024-06-15\n"
	"players: {white: Cat, black: Ann}\nmoves: [d4, e7]\n"
	"---\ngame: splay-schmidt\nevent: Open\ndate: 2024-01-20\n"
	"players: {white: Dan, black: Bob}\nmoves: [e5, e7]\n"
	"result: white\ntermination: timeout\n"
	"---\ngame: splay-kisenwether\nevent: Open\ndate: 2024-02-01\n"
	"players: {white: Ann, black: Dan}\nmoves: [c6-c5, c3-c4, c5-c6, c4-c3, c6-c5]\n"
	"result: black\ntermination: resignation\n"
	"---\ngame: splay-kisenwether\nevent: Club\ndate: 2024-04-01\n"
	"players: {white: Bob, black: Ann}\nmoves: [c6-c5]\n"
	"result: draw\ntermination: agreement\n"
	"---\ngame: splay-kisenwether\nevent: Open\ndate: 2024-08-01\n"
	"players: {white: Cat, black: Bob}\nmoves: [d6-d5, c3-c4, d5-d6, c4-c3, c6-c5]\n"
	"---\ngame: splinter-quad\nevent: Club\ndate: 2024-07-01\n"
	"players: {red: Ann, blue: Bob, green: Cat, yellow: Dan}\n"
	"moves: [c3-c2, c4-b4, h4-i4, h3-i3]\nresult: red\ntermination: resignation\n"
	"---\ngame: splinter-quad\nevent: Club\n"
	"players: {red: Dan, blue: Cat, green: Bob, yellow: Ann}\n"
	"moves: [c3-c2, c4-b4, h4-i4, h5-i5]\nresult: draw\ntermination: agreement\n"
	"---\ngame: splinter-quad\nevent: Open\ndate: 2022-01-01\n"
	"players: {red: Ann, blue: Bob, green: Cat}\nfirst: green\n"
	"moves: [h4-i4, h3-i3]\nresult: green\ntermination: resignation\n"
	"---\ngame: glaisher\nmoves: ['f8>nw 3+2+1 g6']\n";

#define EPS 1e-9
#define Z 1.959963984540054

/* ---- helpers ---- */

static char tmpdir[256];
static char dbpath[300];

static void add_games(struct kifu_store *st, const char *text)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_error err;
	int ret;

	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&r, text, strlen(text), "test", &err), 0);
	while ((ret = kifu_reader_next(&rec, &diags, r, &err)) > 0) {
		assert_int_equal(kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT |
						      KIFU_VALIDATE_NO_CLOCK, &err), 0);
		if (diags.errors)
			fail_msg("record %d not valid: %s", rec->number, diags.v[0].message);
		if (kifu_store_game_add(NULL, st, rec, &rp, NULL, &err) != 1)
			fail_msg("game_add: %s", err.message);
		kifu_record_free(rec);
		kifu_diags_reset(&diags);
	}
	assert_int_equal(ret, 0);
	kifu_diags_release(&diags);
	kifu_replay_release(&rp);
	kifu_reader_free(r);
}

static struct kifu_store *open_db(void)
{
	struct kifu_store *st = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_store_open(&st, dbpath, 0, &err) < 0)
		fail_msg("open: %s", err.message);
	return st;
}

static int setup(void **state)
{
	struct kifu_store *st;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/kifu-test-stats.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(dbpath, sizeof(dbpath), "%s/t.db", tmpdir);
	st = open_db();
	add_games(st, games_text);
	*state = st;
	return 0;
}

static int teardown(void **state)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char p[320];
	size_t i;

	kifu_store_free(*state);
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s%s", dbpath, suffixes[i]);
		unlink(p);
	}
	rmdir(tmpdir);
	return 0;
}

static void exec_sql(struct kifu_store *st, const char *sql)
{
	if (kifu_db_exec(st, sql) < 0)
		fail_msg("%s: %s", sql, kifu_db_errmsg(st));
}

/* Each report is checked building the tables, reading them, and from the games. */
static const unsigned modes[] = { 0, 0, KIFU_STATS_NO_CACHE };
#define NMODES 3

static struct kifu_report *run(struct kifu_store *st, int kind, const struct kifu_filter *f,
			       int depth, long min_games, int by_position, unsigned flags)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	opt.depth = depth;
	opt.min_games = min_games;
	opt.by_position = by_position;
	opt.flags = flags;
	kifu_error_clear(&err);
	if (kifu_stats_report(&rep, st, kind, f, &opt, &err) < 0)
		fail_msg("report: %s", err.message);
	assert_string_equal(kifu_report_name(rep), kifu_stats_kind_name(kind));
	return rep;
}

static const struct kifu_cell *cell(const struct kifu_report *rep, long row, const char *col)
{
	long c = kifu_report_find_col(rep, col);

	if (c < 0)
		fail_msg("no column '%s'", col);
	return kifu_report_cell(rep, (size_t)row, (size_t)c);
}

static long long ival(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = cell(rep, row, col);

	if (c->type != KIFU_CELL_INT)
		fail_msg("row %ld, '%s': not an integer (type %d)", row, col, c->type);
	return c->i;
}

static double rval(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = cell(rep, row, col);

	if (c->type != KIFU_CELL_REAL)
		fail_msg("row %ld, '%s': not a real (type %d)", row, col, c->type);
	return c->r;
}

static const char *tval(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = cell(rep, row, col);

	if (c->type != KIFU_CELL_TEXT)
		fail_msg("row %ld, '%s': not text (type %d)", row, col, c->type);
	return c->text;
}

static void assert_type(const struct kifu_report *rep, long row, const char *col, int type)
{
	if (cell(rep, row, col)->type != type)
		fail_msg("row %ld, '%s': type %d, expected %d", row, col, cell(rep, row, col)->type,
			 type);
}

/* The row of game and variant (and line when not NULL); fails when missing. */
static long row_of(const struct kifu_report *rep, const char *game, const char *line)
{
	size_t r;

	for (r = 0; r < kifu_report_nrows(rep); r++)
		if (!strcmp(tval(rep, (long)r, "game"), game) &&
		    (!line || !strcmp(tval(rep, (long)r, "line"), line)))
			return (long)r;
	fail_msg("no row for %s %s", game, line ? line : "");
	return -1;
}

static int has_row(const struct kifu_report *rep, const char *game, const char *line)
{
	size_t r;

	for (r = 0; r < kifu_report_nrows(rep); r++)
		if (!strcmp(tval(rep, (long)r, "game"), game) &&
		    (!line || !strcmp(tval(rep, (long)r, "line"), line)))
			return 1;
	return 0;
}

/* The Wilson score interval, written out independently of lib/estimate.c. */
static void wilson(double *low, double *high, double points, double n)
{
	double p = points / n, z2 = Z * Z, d = 1 + z2 / n;
	double centre = (p + z2 / (2 * n)) / d;
	double half = Z / d * sqrt(p * (1 - p) / n + z2 / (4 * n * n));

	*low = centre - half < 0 ? 0 : centre - half;
	*high = centre + half > 1 ? 1 : centre + half;
}

/* first_mover_score, ci_low and ci_high of row: points over finished games. */
static void assert_score(const struct kifu_report *rep, long row, double points, double finished)
{
	double low, high;

	wilson(&low, &high, points, finished);
	assert_true(fabs(rval(rep, row, "first_mover_score") - points / finished) < EPS);
	assert_true(fabs(rval(rep, row, "ci_low") - low) < 1e-6);
	assert_true(fabs(rval(rep, row, "ci_high") - high) < 1e-6);
}

static void assert_no_score(const struct kifu_report *rep, long row)
{
	assert_type(rep, row, "first_mover_score", KIFU_CELL_NULL);
	assert_type(rep, row, "ci_low", KIFU_CELL_NULL);
	assert_type(rep, row, "ci_high", KIFU_CELL_NULL);
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ---- summary ---- */

static void test_wilson_formula(void **state)
{
	double low, high;

	(void)state;
	/* The helper against values worked out once: 2.5 of 4, 0 of 1, 1 of 1. */
	wilson(&low, &high, 2.5, 4);
	assert_true(fabs(low - 0.219426520) < 1e-6 && fabs(high - 0.908100771) < 1e-6);
	wilson(&low, &high, 0, 1);
	assert_true(fabs(low - 0) < 1e-9 && fabs(high - 0.793450686) < 1e-6);
	wilson(&low, &high, 1, 1);
	assert_true(fabs(low - 0.206549314) < 1e-6 && fabs(high - 1) < 1e-9);
}

static void test_summary(void **state)
{
	struct kifu_store *st = *state;
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, modes[m]);
		long r;

		/* One row per game and variant played, in the registry's order. */
		assert_int_equal(kifu_report_nrows(rep), 4);
		assert_string_equal(tval(rep, 0, "game"), "splay-schmidt");
		assert_string_equal(tval(rep, 1, "game"), "splay-kisenwether");
		assert_string_equal(tval(rep, 2, "game"), "splinter-quad");
		assert_string_equal(tval(rep, 3, "game"), "glaisher");

		/*
		 * splay-schmidt: S1..S5, 5 games; white won S1 and S5, black S2,
		 * S3 drawn, S4 unfinished: 4 finished. draw_rate 1/4. White moves
		 * first: (2 + 1/2) / 4 = 0.625, Wilson of 2.5 over 4 =
		 * [0.219427, 0.908101]. Plies 4, 3, 2, 2, 2: mean 13/5 = 2.6,
		 * median (the 3rd of 2 2 2 3 4) 2.
		 */
		r = 0;
		assert_string_equal(tval(rep, r, "variant"), "standard");
		assert_int_equal(ival(rep, r, "games"), 5);
		assert_int_equal(ival(rep, r, "wins_white"), 2);
		assert_int_equal(ival(rep, r, "wins_black"), 1);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_true(fabs(rval(rep, r, "draw_rate") - 0.25) < EPS);
		assert_score(rep, r, 2.5, 4);
		assert_true(fabs(rval(rep, r, "first_mover_score") - 0.625) < EPS);
		assert_true(fabs(rval(rep, r, "mean_plies") - 2.6) < EPS);
		assert_true(fabs(rval(rep, r, "median_plies") - 2) < EPS);
		/* Columns of the other games do not apply. */
		assert_type(rep, r, "wins_red", KIFU_CELL_ABSENT);

		/*
		 * splay-kisenwether: K1 black won, K2 drawn, K3 unfinished: 2
		 * finished, draw_rate 1/2, white (first) scores (0 + 1/2) / 2 =
		 * 0.25, Wilson of 0.5 over 2 = [0.026677, 0.802133]. Plies 5, 1,
		 * 5: mean 11/3, median 5.
		 */
		r = 1;
		assert_int_equal(ival(rep, r, "games"), 3);
		assert_int_equal(ival(rep, r, "wins_white"), 0);
		assert_int_equal(ival(rep, r, "wins_black"), 1);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_true(fabs(rval(rep, r, "draw_rate") - 0.5) < EPS);
		assert_score(rep, r, 0.5, 2);
		assert_true(fabs(rval(rep, r, "mean_plies") - 11.0 / 3) < EPS);
		assert_true(fabs(rval(rep, r, "median_plies") - 5) < EPS);

		/*
		 * splinter-quad: Q1 red, Q2 draw, Q3 green; all 3 finished,
		 * draw_rate 1/3. The first mover is red in Q1 (won) and Q2
		 * (drawn: 1/4 of a point among four sides) and green in Q3 (won):
		 * (2 + 1/4) / 3 = 0.75, Wilson of 2.25 over 3 = [0.256093,
		 * 0.963159]. Plies 4, 4, 2: mean 10/3, median 4.
		 */
		r = 2;
		assert_int_equal(ival(rep, r, "games"), 3);
		assert_int_equal(ival(rep, r, "wins_red"), 1);
		assert_int_equal(ival(rep, r, "wins_blue"), 0);
		assert_int_equal(ival(rep, r, "wins_green"), 1);
		assert_int_equal(ival(rep, r, "wins_yellow"), 0);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 0);
		assert_true(fabs(rval(rep, r, "draw_rate") - 1.0 / 3) < EPS);
		assert_score(rep, r, 2.25, 3);
		assert_true(fabs(rval(rep, r, "mean_plies") - 10.0 / 3) < EPS);
		assert_true(fabs(rval(rep, r, "median_plies") - 4) < EPS);
		assert_type(rep, r, "wins_white", KIFU_CELL_ABSENT);

		/* glaisher: one unfinished game of 1 ply: nothing finished, so nulls. */
		r = 3;
		assert_int_equal(ival(rep, r, "games"), 1);
		assert_int_equal(ival(rep, r, "wins_red"), 0);
		assert_int_equal(ival(rep, r, "wins_yellow"), 0);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_type(rep, r, "draw_rate", KIFU_CELL_NULL);
		assert_no_score(rep, r);
		assert_true(fabs(rval(rep, r, "mean_plies") - 1) < EPS);
		assert_true(fabs(rval(rep, r, "median_plies") - 1) < EPS);
		kifu_report_free(rep);
	}
}

/* An even count: the median is the mean of the two middle lengths. */
static void test_summary_even_median(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt", .since = "2024-01-15" };
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_SUMMARY, &f, 2, 1, 0, modes[m]);

		/*
		 * From 2024-01-15: S1 (03-10), S2 (05-01), S4 (06-15), S5
		 * (01-20); not S3 ('2024' = 2024-01-01). Plies 4, 3, 2, 2:
		 * median (2 + 3) / 2 = 2.5, mean 11/4. White won S1, S5, black
		 * S2, S4 unfinished: (2 + 0) / 3, Wilson of 2 over 3 =
		 * [0.207660, 0.938508]; draw_rate 0 / 3.
		 */
		assert_int_equal(kifu_report_nrows(rep), 1);
		assert_int_equal(ival(rep, 0, "games"), 4);
		assert_true(fabs(rval(rep, 0, "median_plies") - 2.5) < EPS);
		assert_true(fabs(rval(rep, 0, "mean_plies") - 2.75) < EPS);
		assert_int_equal(ival(rep, 0, "wins_white"), 2);
		assert_int_equal(ival(rep, 0, "unfinished"), 1);
		assert_true(fabs(rval(rep, 0, "draw_rate")) < EPS);
		assert_score(rep, 0, 2, 3);
		kifu_report_free(rep);
	}
}

/* ---- lengths ---- */

static void test_lengths(void **state)
{
	/* Per game: the lengths and how many games have each, in order. */
	static const struct { const char *game; long plies, games; } want[] = {
		{ "splay-schmidt", 2, 3 },     /* S3, S4, S5 */
		{ "splay-schmidt", 3, 1 },     /* S2 */
		{ "splay-schmidt", 4, 1 },     /* S1 */
		{ "splay-kisenwether", 1, 1 }, /* K2 */
		{ "splay-kisenwether", 5, 2 }, /* K1, K3 */
		{ "splinter-quad", 2, 1 },     /* Q3 */
		{ "splinter-quad", 4, 2 },     /* Q1, Q2 */
		{ "glaisher", 1, 1 },          /* G1 */
	};
	struct kifu_store *st = *state;
	size_t i;
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_LENGTHS, NULL, 2, 1, 0, modes[m]);

		assert_int_equal(kifu_report_nrows(rep), 8);
		assert_int_equal(kifu_report_ncols(rep), 4);
		for (i = 0; i < 8; i++) {
			assert_string_equal(tval(rep, (long)i, "game"), want[i].game);
			assert_string_equal(tval(rep, (long)i, "variant"), "standard");
			assert_int_equal(ival(rep, (long)i, "plies"), want[i].plies);
			assert_int_equal(ival(rep, (long)i, "games"), want[i].games);
		}
		kifu_report_free(rep);
	}
}

/* ---- openings ---- */

static void test_openings(void **state)
{
	struct kifu_store *st = *state;
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, modes[m]);
		const struct kifu_cell *c;
		long r;

		/*
		 * Depth 2, every game: schmidt d4, e5, d4 f6, d4 e7, e5 e7,
		 * e5 f6; kisenwether c6-c5, d6-d5, c6-c5 c3-c4, d6-d5 c3-c4;
		 * quad c3-c2, h4-i4, c3-c2 c4-b4, h4-i4 h3-i3; glaisher one
		 * line of one ply: 15 rows.
		 */
		assert_int_equal(kifu_report_nrows(rep), 15);
		/* Order: game, plies, games (most first), line. */
		assert_string_equal(tval(rep, 0, "line"), "d4");
		assert_string_equal(tval(rep, 1, "line"), "e5");
		assert_string_equal(tval(rep, 2, "line"), "d4 f6");
		assert_string_equal(tval(rep, 3, "line"), "d4 e7");
		assert_string_equal(tval(rep, 4, "line"), "e5 e7");
		assert_string_equal(tval(rep, 5, "line"), "e5 f6");
		assert_string_equal(tval(rep, 6, "game"), "splay-kisenwether");

		/* d4: S1 (white won), S3 (draw), S4 (unfinished): (1 + 1/2) / 2. */
		r = row_of(rep, "splay-schmidt", "d4");
		assert_int_equal(ival(rep, r, "plies"), 1);
		assert_int_equal(ival(rep, r, "games"), 3);
		assert_int_equal(ival(rep, r, "wins_white"), 1);
		assert_int_equal(ival(rep, r, "wins_black"), 0);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_score(rep, r, 1.5, 2);
		/* e5: S2 (black), S5 (white): 1 / 2. */
		r = row_of(rep, "splay-schmidt", "e5");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_int_equal(ival(rep, r, "wins_white"), 1);
		assert_int_equal(ival(rep, r, "wins_black"), 1);
		assert_score(rep, r, 1, 2);
		/* d4 f6: S1, S3: (1 + 1/2) / 2. */
		r = row_of(rep, "splay-schmidt", "d4 f6");
		assert_int_equal(ival(rep, r, "plies"), 2);
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_score(rep, r, 1.5, 2);
		/* d4 e7: S4 only, unfinished: no score. */
		r = row_of(rep, "splay-schmidt", "d4 e7");
		assert_int_equal(ival(rep, r, "games"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_no_score(rep, r);
		/* e5 f6: S2, black won: 0 of 1; e5 e7: S5, white won: 1 of 1. */
		assert_score(rep, row_of(rep, "splay-schmidt", "e5 f6"), 0, 1);
		assert_score(rep, row_of(rep, "splay-schmidt", "e5 e7"), 1, 1);

		/* c6-c5: K1 (black won), K2 (draw): white (0 + 1/2) / 2. */
		r = row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_int_equal(ival(rep, r, "wins_black"), 1);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_score(rep, r, 0.5, 2);
		assert_no_score(rep, row_of(rep, "splay-kisenwether", "d6-d5"));

		/*
		 * c3-c2: Q1 (red, first, won) and Q2 (drawn): (1 + 1/4) / 2 =
		 * 0.625, Wilson of 1.25 over 2 = [0.141690, 0.943905].
		 */
		r = row_of(rep, "splinter-quad", "c3-c2 c4-b4");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_int_equal(ival(rep, r, "wins_red"), 1);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_score(rep, r, 1.25, 2);
		/* h4-i4: Q3, green moved first and won: 1 of 1. */
		r = row_of(rep, "splinter-quad", "h4-i4");
		assert_int_equal(ival(rep, r, "wins_green"), 1);
		assert_score(rep, r, 1, 1);

		/* A glaisher move holds spaces: the line is ambiguous, the list is not. */
		r = row_of(rep, "glaisher", "f8>nw 3+2+1 g6");
		c = cell(rep, r, "moves");
		assert_int_equal(c->type, KIFU_CELL_LIST);
		assert_int_equal(c->count, 1);
		assert_string_equal(c->text, "f8>nw 3+2+1 g6");
		c = cell(rep, row_of(rep, "splay-schmidt", "d4 f6"), "moves");
		assert_int_equal(c->type, KIFU_CELL_LIST);
		assert_int_equal(c->count, 2);
		assert_string_equal(c->text, "d4");
		assert_string_equal(c->text + 3, "f6");
		assert_true(kifu_report_col_flags(rep, (size_t)kifu_report_find_col(rep, "moves")) &
			    KIFU_COLUMN_JSON_ONLY);
		kifu_report_free(rep);
	}
}

static void test_openings_min_games(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt" };
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_OPENINGS, &f, 2, 2, 0, modes[m]);

		/* At least 2 games: d4 (3), e5 (2), d4 f6 (2). */
		assert_int_equal(kifu_report_nrows(rep), 3);
		assert_string_equal(tval(rep, 0, "line"), "d4");
		assert_string_equal(tval(rep, 1, "line"), "e5");
		assert_string_equal(tval(rep, 2, "line"), "d4 f6");
		kifu_report_free(rep);
	}
}

static void test_transpositions(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt" };
	struct kifu_error err;
	uint64_t hash;
	char hex[17];
	int m;

	kifu_error_clear(&err);
	assert_int_equal(kifu_search_position(&hash, kifu_game_find("splay-schmidt"), 0,
					      "e5,f6,d4", &err), 0);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)hash);
	for (m = 0; m < NMODES; m++) {
		struct kifu_report *lines = run(st, KIFU_STATS_OPENINGS, &f, 3, 1, 0, modes[m]);
		struct kifu_report *pos = run(st, KIFU_STATS_OPENINGS, &f, 3, 1, 1, modes[m]);
		long r;

		/* By line: d4 f6 e5 (S1) and e5 f6 d4 (S2) are two rows of one game each. */
		r = row_of(lines, "splay-schmidt", "d4 f6 e5");
		assert_int_equal(ival(lines, r, "games"), 1);
		r = row_of(lines, "splay-schmidt", "e5 f6 d4");
		assert_int_equal(ival(lines, r, "games"), 1);
		assert_int_equal(kifu_report_nrows(lines), 8);
		assert_int_equal(kifu_report_find_col(lines, "hash"), -1);

		/*
		 * By position: one row of 2 games (S1 white won, S2 black won:
		 * 1 / 2), labelled by the first of the two equally common lines
		 * in byte order, with the position's hash.
		 */
		assert_int_equal(kifu_report_nrows(pos), 7);
		assert_false(has_row(pos, "splay-schmidt", "e5 f6 d4"));
		r = row_of(pos, "splay-schmidt", "d4 f6 e5");
		assert_int_equal(ival(pos, r, "plies"), 3);
		assert_int_equal(ival(pos, r, "games"), 2);
		assert_int_equal(ival(pos, r, "wins_white"), 1);
		assert_int_equal(ival(pos, r, "wins_black"), 1);
		assert_score(pos, r, 1, 2);
		assert_string_equal(tval(pos, r, "hash"), hex);
		kifu_report_free(lines);
		kifu_report_free(pos);
	}
}

/* A game that passes a position twice counts once in its row. */
static void test_position_counted_once(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-kisenwether" };
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_OPENINGS, &f, 5, 1, 1, modes[m]);
		long r;

		/*
		 * After c6-c5: K1 at plies 1 and 5 (once), K2 at ply 1, K3 at
		 * ply 5: 3 games (K1 black won, K2 drawn, K3 unfinished), label
		 * c6-c5 (2 games got there first by it, 1 by K3's line).
		 */
		r = row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(ival(rep, r, "plies"), 1);
		assert_int_equal(ival(rep, r, "games"), 3);
		assert_int_equal(ival(rep, r, "wins_black"), 1);
		assert_int_equal(ival(rep, r, "draws"), 1);
		assert_int_equal(ival(rep, r, "unfinished"), 1);
		assert_score(rep, r, 0.5, 2);
		/*
		 * After 3 plies K1 and K3 stand in the same position (the white
		 * stone went back; the black one is on c4); after 4 both are back
		 * at the start. Labels: the first line in byte order.
		 */
		r = row_of(rep, "splay-kisenwether", "c6-c5 c3-c4 c5-c6");
		assert_int_equal(ival(rep, r, "games"), 2);
		r = row_of(rep, "splay-kisenwether", "c6-c5 c3-c4 c5-c6 c4-c3");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_false(has_row(rep, "splay-kisenwether", "d6-d5 c3-c4 d5-d6"));
		/* Rows: c6-c5, d6-d5, c6-c5 c3-c4, d6-d5 c3-c4, the two above. */
		assert_int_equal(kifu_report_nrows(rep), 6);
		kifu_report_free(rep);

		/* By line every line is its own row: 5 + 5 + 1 lines, K1's 5-ply line included. */
		rep = run(st, KIFU_STATS_OPENINGS, &f, 5, 1, 0, modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 10);
		r = row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_int_equal(ival(rep, row_of(rep, "splay-kisenwether",
						  "c6-c5 c3-c4 c5-c6 c4-c3 c6-c5"), "games"), 1);
		kifu_report_free(rep);
	}
}

/*
 * Deeper than the precomputed tables keep, lines are read from the moves:
 * no game here is longer than 5 plies, so depth 40 must give what depth 6
 * gives from the tables.
 */
static void test_openings_deep(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_buf ta = KIFU_BUF_INIT, tb = KIFU_BUF_INIT;
	struct kifu_error err;
	int by_position;

	for (by_position = 0; by_position < 2; by_position++) {
		struct kifu_report *a = run(st, KIFU_STATS_OPENINGS, NULL, 6, 1, by_position, 0);
		struct kifu_report *b = run(st, KIFU_STATS_OPENINGS, NULL, 40, 1, by_position, 0);

		kifu_buf_reset(&ta);
		kifu_buf_reset(&tb);
		assert_int_equal(kifu_report_write(&ta, a, KIFU_REPORT_JSON, &err), 0);
		assert_int_equal(kifu_report_write(&tb, b, KIFU_REPORT_JSON, &err), 0);
		assert_string_equal(ta.data, tb.data);
		assert_true(has_row(b, "splay-kisenwether", "c6-c5 c3-c4 c5-c6 c4-c3"));
		assert_int_equal(has_row(b, "splay-kisenwether", "d6-d5 c3-c4 d5-d6 c4-c3"),
				 !by_position);
		kifu_report_free(a);
		kifu_report_free(b);
	}
	kifu_buf_release(&ta);
	kifu_buf_release(&tb);
}

/* ---- players ---- */

static void test_players(void **state)
{
	struct kifu_store *st = *state;
	/*
	 * The finished games whose sides all name a player, as pairings
	 * (0 Ann, 1 Bob, 2 Cat, 3 Dan; score of the first): S1 Ann beat Bob;
	 * S2 Cat beat Bob; S3 Ann drew Cat; S5 Dan beat Bob; K1 Dan beat Ann;
	 * K2 Bob drew Ann; Q1 Ann (red) won: beat Bob, Cat and Dan; Q2 drawn:
	 * every pair of Dan, Cat, Bob, Ann draws. Q3 has no yellow player and
	 * G1 no players: left out. S4 and K3 are unfinished.
	 */
	static const struct kifu_pairing pairings[] = {
		{ 0, 1, 1 }, { 2, 1, 1 }, { 0, 2, 0.5 }, { 3, 1, 1 }, { 3, 0, 1 }, { 1, 0, 0.5 },
		{ 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 1 },
		{ 3, 2, 0.5 }, { 3, 1, 0.5 }, { 3, 0, 0.5 }, { 2, 1, 0.5 }, { 2, 0, 0.5 },
		{ 1, 0, 0.5 },
	};
	/*
	 * Ann: S1 win, S3 draw, S4 unfinished, K1 loss, K2 draw, Q1 win, Q2
	 * draw: 7 games, 2 wins, 3 draws, 1 loss, 1 unfinished; score (2 +
	 * 1/2 + 1/2 + 1/4) / 6 = 3.25 / 6.
	 * Bob: S1, S2, S5 losses, K2 draw, K3 unfinished, Q1 loss, Q2 draw:
	 * 7, 0, 2, 4, 1; (0.5 + 0.25) / 6.
	 * Cat: S2 win, S3 draw, S4 and K3 unfinished, Q1 loss, Q2 draw: 6, 1,
	 * 2, 1, 2; (1 + 0.5 + 0.25) / 4.
	 * Dan: S5 win, K1 win, Q1 loss, Q2 draw: 4, 2, 1, 1, 0; 2.25 / 4.
	 */
	static const struct { const char *name; long games, wins, draws, losses, unfinished;
			      double score; } want[] = {
		{ "Ann", 7, 2, 3, 1, 1, 3.25 / 6 }, { "Bob", 7, 0, 2, 4, 1, 0.75 / 6 },
		{ "Cat", 6, 1, 2, 1, 2, 1.75 / 4 }, { "Dan", 4, 2, 1, 1, 0, 2.25 / 4 },
	};
	double ratings[4], sum;
	struct kifu_error err;
	int m, i;

	kifu_error_clear(&err);
	assert_int_equal(kifu_estimate_ratings(ratings, 4, pairings,
					       sizeof(pairings) / sizeof(pairings[0]), &err), 0);
	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, modes[m]);
		double prev = 1e9;
		size_t r;

		assert_int_equal(kifu_report_nrows(rep), 4);
		sum = 0;
		for (r = 0; r < 4; r++) {
			const char *name = tval(rep, (long)r, "player");
			double rating = rval(rep, (long)r, "rating");

			for (i = 0; i < 4 && strcmp(want[i].name, name); i++)
				;
			assert_true(i < 4);
			assert_int_equal(ival(rep, (long)r, "games"), want[i].games);
			assert_int_equal(ival(rep, (long)r, "wins"), want[i].wins);
			assert_int_equal(ival(rep, (long)r, "draws"), want[i].draws);
			assert_int_equal(ival(rep, (long)r, "losses"), want[i].losses);
			assert_int_equal(ival(rep, (long)r, "unfinished"), want[i].unfinished);
			assert_true(fabs(rval(rep, (long)r, "score") - want[i].score) < EPS);
			/* The fit of exactly those pairings; best first. */
			assert_true(fabs(rating - ratings[i]) < 1e-6);
			assert_true(rating <= prev);
			prev = rating;
			sum += rating;
		}
		/* Properties: the mean is 1500; Bob, who lost most, is last. */
		assert_true(fabs(sum / 4 - 1500) < 1e-6);
		assert_string_equal(tval(rep, 3, "player"), "Bob");
		kifu_report_free(rep);
	}
}

/*
 * A known value: --game splay-kisenwether --event Open leaves K1 (Dan beat
 * Ann) and K3 (unfinished, Cat and Bob). By symmetry Dan = 1500 + d and
 * Ann = 1500 - d, and Dan's expected score equals his actual one, virtual
 * draw included: 1 / (1 + 10^(-2d/400)) + 1 / (1 + 10^(-d/400)) = 1.5;
 * d = 131.384..., found here by bisection. Cat and Bob have no finished
 * game: no rating, no score, listed last.
 */
static void test_players_known_value(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-kisenwether", .event = "Open" };
	double lo = 0, hi = 1000, d = 0;
	int i, m;

	for (i = 0; i < 200; i++) {
		d = (lo + hi) / 2;
		if (1 / (1 + pow(10, -2 * d / 400)) + 1 / (1 + pow(10, -d / 400)) > 1.5)
			hi = d;
		else
			lo = d;
	}
	assert_true(fabs(d - 131.384089) < 1e-5);
	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep = run(st, KIFU_STATS_PLAYERS, &f, 2, 1, 0, modes[m]);

		assert_int_equal(kifu_report_nrows(rep), 4);
		assert_string_equal(tval(rep, 0, "player"), "Dan");
		assert_true(fabs(rval(rep, 0, "rating") - (1500 + d)) < 1e-6);
		assert_true(fabs(rval(rep, 0, "score") - 1) < EPS);
		assert_string_equal(tval(rep, 1, "player"), "Ann");
		assert_true(fabs(rval(rep, 1, "rating") - (1500 - d)) < 1e-6);
		assert_string_equal(tval(rep, 2, "player"), "Bob");
		assert_string_equal(tval(rep, 3, "player"), "Cat");
		assert_type(rep, 2, "rating", KIFU_CELL_NULL);
		assert_type(rep, 3, "score", KIFU_CELL_NULL);
		assert_int_equal(ival(rep, 3, "unfinished"), 1);
		kifu_report_free(rep);
	}
}

/* ---- filters ---- */

/* The games column of a game's summary row, 0 without a row. */
static long games_of(const struct kifu_report *rep, const char *game)
{
	return has_row(rep, game, NULL) ? (long)ival(rep, row_of(rep, game, NULL), "games") : 0;
}

/* Games of each game in a summary (0 when it has no row). */
static void summary_games(struct kifu_store *st, const struct kifu_filter *f, unsigned flags,
			  long *s, long *k, long *q, long *g)
{
	struct kifu_report *rep = run(st, KIFU_STATS_SUMMARY, f, 2, 1, 0, flags);

	*s = games_of(rep, "splay-schmidt");
	*k = games_of(rep, "splay-kisenwether");
	*q = games_of(rep, "splinter-quad");
	*g = games_of(rep, "glaisher");
	kifu_report_free(rep);
}

static void test_filters(void **state)
{
	/* Games per game (schmidt, kisenwether, quad, glaisher) each filter keeps. */
	static const struct { struct kifu_filter f; long s, k, q, g; } cases[] = {
		{ { .game = "splinter-quad" }, 0, 0, 3, 0 },
		{ { .variant = "standard" }, 5, 3, 3, 1 },
		{ { .variant = "advanced" }, 0, 0, 0, 0 },
		{ { .game = "glaisher", .variant = "standard" }, 0, 0, 0, 1 },
		/* Cat: S2, S3, S4; K3; Q1, Q2, Q3. */
		{ { .player = "Cat" }, 3, 1, 3, 0 },
		{ { .player = "Nobody" }, 0, 0, 0, 0 },
		/* Club: S1, S3; K2; Q1, Q2. */
		{ { .event = "Club" }, 2, 1, 2, 0 },
		/*
		 * From 2024-04 (= 2024-04-01): S2 (05-01), S4; K2 (04-01, the
		 * first day counts), K3; Q1. Q2 and G1 have no date.
		 */
		{ { .since = "2024-04" }, 2, 2, 1, 0 },
		/* Until 2024 (= 2024-01-01): S3 ('2024' is 2024-01-01); Q3 (2022). */
		{ { .until = "2024" }, 1, 0, 1, 0 },
		{ { .since = "2024-02-01", .until = "2024-04-01" }, 1, 2, 0, 0 },
		/* Resignation: S1, S2; K1; Q1, Q3. */
		{ { .termination = "resignation" }, 2, 1, 2, 0 },
		{ { .termination = "agreement" }, 1, 1, 1, 0 },
		{ { .termination = "timeout" }, 1, 0, 0, 0 },
		/* Unfinished games have no termination: an empty one selects nothing. */
		{ { .termination = "" }, 0, 0, 0, 0 },
		{ { .player = "Ann", .event = "Club", .termination = "agreement" }, 1, 1, 1, 0 },
	};
	struct kifu_store *st = *state;
	size_t i;
	int m;

	for (m = 0; m < NMODES; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			long s, k, q, g;

			summary_games(st, &cases[i].f, modes[m], &s, &k, &q, &g);
			if (s != cases[i].s || k != cases[i].k || q != cases[i].q || g != cases[i].g)
				fail_msg("filter case %zu (mode %d): %ld %ld %ld %ld, "
					 "expected %ld %ld %ld %ld", i, m, s, k, q, g, cases[i].s,
					 cases[i].k, cases[i].q, cases[i].g);
		}
	}
}

/* Filters reach every report, not only the summary. */
static void test_filters_other_reports(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter by_event = { .event = "Open" };
	struct kifu_filter by_term = { .termination = "resignation", .game = "splay-schmidt" };
	struct kifu_filter by_player = { .player = "Dan" };
	int m;

	for (m = 0; m < NMODES; m++) {
		struct kifu_report *rep;
		long r;

		/* Open schmidt games: S2 (e5 f6 d4, black) and S5 (e5 e7, white). */
		rep = run(st, KIFU_STATS_OPENINGS, &by_event, 1, 1, 0, modes[m]);
		r = row_of(rep, "splay-schmidt", "e5");
		assert_int_equal(ival(rep, r, "games"), 2);
		assert_false(has_row(rep, "splay-schmidt", "d4"));
		kifu_report_free(rep);
		/* Resigned schmidt games: S1 (4 plies), S2 (3). */
		rep = run(st, KIFU_STATS_LENGTHS, &by_term, 2, 1, 0, modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 2);
		assert_int_equal(ival(rep, 0, "plies"), 3);
		assert_int_equal(ival(rep, 1, "plies"), 4);
		kifu_report_free(rep);
		/*
		 * Dan's games: S5, K1, Q1, Q2; their players: Ann (K1 loss, Q1
		 * win, Q2 draw), Bob (S5, Q1 losses, Q2 draw), Cat (Q1 loss, Q2
		 * draw), Dan (S5, K1 wins, Q1 loss, Q2 draw).
		 */
		rep = run(st, KIFU_STATS_PLAYERS, &by_player, 2, 1, 0, modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 4);
		for (r = 0; r < 4; r++) {
			if (!strcmp(tval(rep, r, "player"), "Dan")) {
				assert_int_equal(ival(rep, r, "games"), 4);
				assert_int_equal(ival(rep, r, "wins"), 2);
			} else if (!strcmp(tval(rep, r, "player"), "Bob")) {
				assert_int_equal(ival(rep, r, "games"), 3);
				assert_int_equal(ival(rep, r, "losses"), 2);
			}
		}
		kifu_report_free(rep);
	}
}

static void test_bad_options(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_filter f = { .since = "2024-13" };
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_SUMMARY, &f, NULL, &err),
			 KIFU_EPARSE);
	assert_null(rep);
	assert_non_null(strstr(err.message, "'2024-13'"));
	opt.depth = 0;
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, NULL, &opt, &err),
			 KIFU_ERANGE);
	assert_int_equal(kifu_stats_report(&rep, st, 42, NULL, NULL, &err), KIFU_ERANGE);
	assert_int_equal(kifu_stats_kind_find("openings"), KIFU_STATS_OPENINGS);
	assert_int_equal(kifu_stats_kind_find("opening"), -1);
}

/* ---- the precomputed tables follow the games ---- */

static long long q_int(struct kifu_store *st, const char *sql)
{
	struct kifu_stmt *s;
	struct kifu_error err;
	long long v = -1;

	if (kifu_db_prepare(&s, st, sql, &err) < 0)
		fail_msg("%s: %s", sql, err.message);
	if (kifu_db_step(s) == KIFU_DB_ROW)
		v = kifu_db_column_int64(s, 0);
	kifu_db_finalize(s);
	return v;
}

static void test_tables_follow_games(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;
	struct kifu_error err;
	long r;

	/* kifu_stats_refresh fills the three tables up to game 12, as reports would. */
	kifu_error_clear(&err);
	assert_int_equal(q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	assert_int_equal(kifu_stats_refresh(st, &err), 0);
	assert_int_equal(q_int(st, "SELECT count(*) FROM stats_state WHERE last_id = 12 AND "
				   "name <> 'tree'"), 3);
	/* d4 at 1 ply is S1, S3, S4: one table row holds them. */
	assert_int_equal(q_int(st, "SELECT sum(games) FROM stats_lines WHERE line = 'd4'"), 3);
	/* Imports fire no trigger: the tables wait for the next report. */
	add_games(st, "game: splay-schmidt\nplayers: {white: Dan, black: Ann}\n"
		      "moves: [d4, f6, c3]\nresult: black\ntermination: resignation\n");
	assert_int_equal(q_int(st, "SELECT sum(games) FROM stats_lines WHERE line = 'd4'"), 3);

	/* Game 13: schmidt now 6 games, black 2 wins; d4 4 games. */
	rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(ival(rep, 0, "games"), 6);
	assert_int_equal(ival(rep, 0, "wins_black"), 2);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, 0);
	r = row_of(rep, "splay-schmidt", "d4");
	assert_int_equal(ival(rep, r, "games"), 4);
	assert_int_equal(ival(rep, r, "wins_black"), 1);
	assert_int_equal(ival(rep, row_of(rep, "splay-schmidt", "d4 f6"), "games"), 3);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, 0);
	r = 0;
	while (strcmp(tval(rep, r, "player"), "Dan"))
		r++;
	assert_int_equal(ival(rep, r, "games"), 5);
	assert_int_equal(ival(rep, r, "losses"), 2);
	kifu_report_free(rep);
	assert_int_equal(q_int(st, "SELECT count(*) FROM stats_state WHERE last_id = 13 AND "
				   "name <> 'tree'"), 3);

	/* Deleting games forgets the tables' state: they are rebuilt without them. */
	exec_sql(st, "DELETE FROM games WHERE id IN (1, 13)");
	assert_int_equal(q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	rep = run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, 0);
	r = row_of(rep, "splay-schmidt", "d4");
	assert_int_equal(ival(rep, r, "games"), 2);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(ival(rep, 0, "games"), 4);
	assert_int_equal(ival(rep, 0, "wins_white"), 1);
	kifu_report_free(rep);
	/* A changed result too. */
	exec_sql(st, "UPDATE games SET result = 'white', winner = 0, termination = 'resignation' "
		     "WHERE id = 2");
	rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(ival(rep, 0, "wins_white"), 2);
	assert_int_equal(ival(rep, 0, "wins_black"), 0);
	kifu_report_free(rep);
}

/*
 * A database another writer holds: the tables cannot be brought up to
 * date, so the report is computed from the games, with the same figures.
 */
static void test_busy_database(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;
	sqlite3 *other;

	assert_int_equal(sqlite3_open(dbpath, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	/* The SQLite backend's connection (a white-box test): give up at once. */
	sqlite3_busy_timeout((sqlite3 *)st->conn, 0);
	rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(ival(rep, 0, "games"), 5);
	assert_score(rep, 0, 2.5, 4);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_OPENINGS, NULL, 3, 1, 1, 0);
	assert_int_equal(ival(rep, row_of(rep, "splay-schmidt", "d4 f6 e5"), "games"), 2);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, 0);
	assert_int_equal(kifu_report_nrows(rep), 4);
	kifu_report_free(rep);
	/* Nothing was kept. */
	assert_int_equal(q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
}

/* ---- text forms ---- */

static void test_csv_json_table(void **state)
{
	struct kifu_filter one = { .game = "splay-schmidt" };
	struct kifu_store *st = *state;
	struct kifu_report *rep = run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	const char *glaisher;

	/* CSV: the union of the columns in order of first appearance. */
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_CSV, &err), 0);
	assert_true(starts_with(b.data,
				"game,variant,games,wins_white,wins_black,draws,unfinished,draw_rate,"
				"first_mover_score,ci_low,ci_high,mean_plies,median_plies,wins_red,"
				"wins_blue,wins_green,wins_yellow\r\n"
				"splay-schmidt,standard,5,2,1,1,1,0.25,0.625,"));
	/* glaisher: nulls and columns that do not apply are empty. */
	glaisher = strstr(b.data, "glaisher,standard,1,,,0,1,,,,,1,1,0,,,0\r\n");
	assert_non_null(glaisher);
	kifu_buf_reset(&b);
	/* JSON: absent keys left out, nulls written, numbers as numbers. */
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_JSON, &err), 0);
	assert_non_null(strstr(b.data, "\"report\": \"summary\""));
	assert_non_null(strstr(b.data, "{\"game\": \"glaisher\", \"variant\": \"standard\", "
				       "\"games\": 1, \"draws\": 0, \"unfinished\": 1, "
				       "\"draw_rate\": null, \"first_mover_score\": null, "
				       "\"ci_low\": null, \"ci_high\": null, \"mean_plies\": 1, "
				       "\"median_plies\": 1, \"wins_red\": 0, \"wins_yellow\": 0}"));
	assert_null(strstr(b.data, "\"wins_white\": null"));
	kifu_buf_reset(&b);
	/*
	 * Table: a header, aligned columns, - for null; each side's wins right
	 * after games, headed by the side; ci_low-ci_high as one column.
	 */
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_TABLE, &err), 0);
	assert_true(starts_with(b.data, "game               variant   games  white  black  red  blue  "
					"green  yellow  draws  unf  drawn  fm_score       95% ci  mean  "
					"median\n"));
	assert_non_null(strstr(b.data, "\nsplay-schmidt      standard      5      2      1            "
				       "                    1    1  0.250     0.625  0.219-0.908   2.6"
				       "     2.0\n"));
	assert_non_null(strstr(b.data, "\nglaisher           standard      1                  0      "
				       "              0      0    1      -         -            -   1.0"
				       "     1.0\n"));
	kifu_buf_reset(&b);
	kifu_report_free(rep);
	/* One game: said once above the table, not in a column. */
	rep = run(st, KIFU_STATS_SUMMARY, &one, 2, 1, 0, 0);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_TABLE, &err), 0);
	assert_true(starts_with(b.data, "game: splay-schmidt, variant: standard\n"
					"games  white  black  draws  unf  drawn  fm_score       95% ci"));
	kifu_buf_release(&b);
	kifu_report_free(rep);
	assert_int_equal(kifu_report_write(&b, rep = run(st, KIFU_STATS_LENGTHS, NULL, 2, 1, 0, 0),
					   99, &err), KIFU_ERANGE);
	kifu_report_free(rep);
}

/* RFC 4180 quoting and JSON escapes, on a report made by hand. */
static void test_quoting(void **state)
{
	struct kifu_report *rep;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	long row;

	(void)state;
	assert_int_equal(kifu_report_new_(&rep, "players"), 0);
	row = kifu_report_add_row_(rep);
	kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "player", 0, 0),
			      "Doe, \"J\"\nJr");
	kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "score", 0, 3), 0.1);
	kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "rating", 0, 1), NAN);
	row = kifu_report_add_row_(rep);
	kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "player", 0, 0), "plain");
	kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0), 3);
	assert_false(kifu_report_failed_(rep));
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_CSV, &err), 0);
	assert_string_equal(b.data, "player,score,rating,games\r\n"
				    "\"Doe, \"\"J\"\"\nJr\",0.1,,\r\n"
				    "plain,,,3\r\n");
	kifu_buf_reset(&b);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_JSON, &err), 0);
	assert_string_equal(b.data, "{\n  \"report\": \"players\",\n  \"rows\": [\n"
				    "    {\"player\": \"Doe, \\\"J\\\"\\nJr\", \"score\": 0.1, "
				    "\"rating\": null},\n"
				    "    {\"player\": \"plain\", \"games\": 3}\n  ]\n}\n");
	kifu_buf_reset(&b);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_TABLE, &err), 0);
	/*
	 * Numbers right-aligned (reals to the column's decimals), text left,
	 * - for null, nothing for absent, no blanks at the ends of lines.
	 */
	{
		char want[128];

		/* The newline of the name is shown escaped: a table is for a terminal. */
		assert_true(starts_with(b.data, "player        score  rating  games\n"));
		assert_true(starts_with(strchr(b.data, '\n') + 1, "Doe, \"J\"\\nJr  0.100  -\n"));
		snprintf(want, sizeof(want), "\n%-12s  %5s  %-6s  %5s\n", "plain", "", "", "3");
		assert_non_null(strstr(b.data, want));
	}
	kifu_buf_release(&b);
	kifu_report_free(rep);
}

static void test_svg(void **state)
{
	struct kifu_store *st = *state;
	static const int kinds[] = { KIFU_STATS_SUMMARY, KIFU_STATS_OPENINGS, KIFU_STATS_PLAYERS,
				     KIFU_STATS_LENGTHS };
	static const char *const expect[] = { "splay-schmidt standard", "d4 f6",
					      "Ann", "splinter-quad standard: 3 games" };
	struct kifu_error err;
	size_t i;

	for (i = 0; i < 4; i++) {
		struct kifu_report *rep = run(st, kinds[i], NULL, 2, 1, 0, 0);
		struct kifu_buf b = KIFU_BUF_INIT;

		assert_int_equal(kifu_report_svg(&b, rep, &err), 0);
		assert_true(!strncmp(b.data, "<?xml", 5));
		assert_non_null(strstr(b.data, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
		assert_string_equal(b.data + b.len - 7, "</svg>\n");
		if (!strstr(b.data, expect[i]))
			fail_msg("chart %zu lacks '%s'", i, expect[i]);
		kifu_buf_release(&b);
		kifu_report_free(rep);
	}
}

/* A selection of no game: a header that says what would be there, an empty chart. */
static void test_empty_reports(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "glaisher", .variant = "advanced" };
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	struct kifu_report *rep;

	rep = run(st, KIFU_STATS_SUMMARY, &f, 2, 1, 0, 0);
	assert_int_equal(kifu_report_nrows(rep), 0);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_CSV, &err), 0);
	assert_string_equal(b.data, "game,variant,games,wins_red,wins_yellow,draws,unfinished,"
				    "draw_rate,first_mover_score,ci_low,ci_high,mean_plies,"
				    "median_plies\r\n");
	kifu_buf_reset(&b);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_JSON, &err), 0);
	assert_string_equal(b.data, "{\n  \"report\": \"summary\",\n  \"rows\": []\n}\n");
	kifu_buf_reset(&b);
	assert_int_equal(kifu_report_svg(&b, rep, &err), 0);
	assert_non_null(strstr(b.data, "no games match"));
	kifu_buf_release(&b);
	kifu_report_free(rep);
	rep = run(st, KIFU_STATS_OPENINGS, &f, 2, 1, 1, 0);
	assert_true(kifu_report_find_col(rep, "hash") > kifu_report_find_col(rep, "ci_high"));
	assert_true(kifu_report_col_flags(rep, (size_t)kifu_report_find_col(rep, "moves")) &
		    KIFU_COLUMN_JSON_ONLY);
	kifu_report_free(rep);
}

/* ---- search ---- */

static struct kifu_search_result *search(struct kifu_store *st, const char *game,
					 const char *moves, const struct kifu_filter *extra)
{
	struct kifu_search_result *res = NULL;
	struct kifu_filter f = { 0 };
	const struct kifu_game *g = game ? kifu_game_find(game) : NULL;
	struct kifu_error err;
	uint64_t hash;

	if (extra)
		f = *extra;
	kifu_error_clear(&err);
	if (moves) {
		f.game = game;
		f.variant = g->variants[0];
		assert_int_equal(kifu_search_position(&hash, g, 0, moves, &err), 0);
	}
	if (kifu_search_games(&res, st, &f, moves ? &hash : NULL, &err) < 0)
		fail_msg("search: %s", err.message);
	return res;
}

static void test_search_position(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter ann = { .player = "Ann" };
	struct kifu_search_result *res;
	const struct kifu_search_hit *h;

	/* d4 f6 e5: S1 by that order, S2 by e5 f6 d4; S2 (2024-05) is newer. */
	res = search(st, "splay-schmidt", "d4,f6,e5", NULL);
	assert_int_equal(kifu_search_count(res), 2);
	h = kifu_search_hit(res, 0);
	assert_int_equal(h->id, 2);
	assert_int_equal(h->ply, 3);
	assert_string_equal(h->date, "2024-05");
	assert_string_equal(h->result, "black");
	assert_int_equal(h->plies, 3);
	assert_int_equal(h->nplayers, 2);
	assert_string_equal(h->players[0].side, "white");
	assert_string_equal(h->players[0].name, "Bob");
	assert_string_equal(h->players[1].name, "Cat");
	h = kifu_search_hit(res, 1);
	assert_int_equal(h->id, 1);
	assert_int_equal(h->ply, 3);
	assert_null(kifu_search_hit(res, 2));
	kifu_search_result_free(res);

	/*
	 * After c6-c5: K3 reaches it at ply 5 only (by another order), K2 at
	 * ply 1, K1 at plies 1 and 5 (the first is given). Newest first: K3
	 * (08-01), K2 (04-01), K1 (02-01).
	 */
	res = search(st, "splay-kisenwether", "c6-c5", NULL);
	assert_int_equal(kifu_search_count(res), 3);
	assert_int_equal(kifu_search_hit(res, 0)->id, 8);
	assert_int_equal(kifu_search_hit(res, 0)->ply, 5);
	assert_int_equal(kifu_search_hit(res, 1)->id, 7);
	assert_int_equal(kifu_search_hit(res, 1)->ply, 1);
	assert_int_equal(kifu_search_hit(res, 2)->id, 6);
	assert_int_equal(kifu_search_hit(res, 2)->ply, 1);
	kifu_search_result_free(res);
	/* The start position: every kisenwether game at ply 0; with a filter, Ann's. */
	res = search(st, "splay-kisenwether", "", &ann);
	assert_int_equal(kifu_search_count(res), 2);
	assert_int_equal(kifu_search_hit(res, 0)->id, 7);
	assert_int_equal(kifu_search_hit(res, 0)->ply, 0);
	assert_int_equal(kifu_search_hit(res, 1)->id, 6);
	kifu_search_result_free(res);
	/* A position no game reached. */
	res = search(st, "splay-schmidt", "f6", NULL);
	assert_int_equal(kifu_search_count(res), 0);
	kifu_search_result_free(res);
	/* The four-player game chosen to start with green. */
	res = search(st, "splinter-quad", "c3-c2,c4-b4", NULL);
	assert_int_equal(kifu_search_count(res), 2);
	assert_int_equal(kifu_search_hit(res, 0)->id, 9);  /* dated, before the undated Q2 */
	assert_int_equal(kifu_search_hit(res, 1)->id, 10);
	assert_int_equal(kifu_search_hit(res, 0)->nplayers, 4);
	assert_string_equal(kifu_search_hit(res, 0)->players[3].side, "yellow");
	kifu_search_result_free(res);
}

static void test_search_filters_and_order(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter club = { .event = "Club" };
	static const int64_t newest_first[] = { 8, 9, 4, 2, 7, 1, 6, 5, 3, 11, 12, 10 };
	struct kifu_search_result *res;
	size_t i;

	/*
	 * Every game, newest first by first-day date then id: K3 08-01, Q1
	 * 07-01, S4 06-15, S2 05-01, K2 04-01, S1 03-10, K1 02-01, S5 01-20,
	 * S3 01-01, Q3 2022; then the undated, by id descending: G1, Q2.
	 */
	res = search(st, NULL, NULL, NULL);
	assert_int_equal(kifu_search_count(res), 12);
	for (i = 0; i < 12; i++)
		assert_int_equal(kifu_search_hit(res, i)->id, newest_first[i]);
	assert_null(kifu_search_hit(res, 11)->date);
	assert_int_equal(kifu_search_hit(res, 10)->nplayers, 0);
	assert_int_equal(kifu_search_hit(res, 10)->ply, -1);
	/* Q3 names three sides of four. */
	assert_int_equal(kifu_search_hit(res, 9)->nplayers, 3);
	kifu_search_result_free(res);
	res = search(st, NULL, NULL, &club);
	assert_int_equal(kifu_search_count(res), 5);
	assert_int_equal(kifu_search_hit(res, 0)->id, 9);
	assert_int_equal(kifu_search_hit(res, 4)->id, 10);
	kifu_search_result_free(res);
}

static void test_search_bad_moves(void **state)
{
	const struct kifu_game *g = kifu_game_find("splay-schmidt");
	struct kifu_error err;
	uint64_t hash = 0;

	(void)state;
	kifu_error_clear(&err);
	assert_int_equal(kifu_search_position(&hash, g, 0, "d4,d4", &err), KIFU_EILLEGAL);
	assert_true(!strncmp(err.message, "ply 2: illegal move 'd4'", 24));
	assert_int_equal(kifu_search_position(&hash, g, 0, "d4,zz9", &err), KIFU_EPARSE);
	assert_true(!strncmp(err.message, "ply 2: ", 7));
}

/* ---- tree ---- */

static struct kifu_report *tree(struct kifu_store *st, const char *game, const char *after,
				long min_games)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_filter f = { .game = game };
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	opt.after = after;
	opt.min_games = min_games;
	kifu_error_clear(&err);
	if (kifu_stats_report(&rep, st, KIFU_STATS_TREE, &f, &opt, &err) < 0)
		fail_msg("tree: %s", err.message);
	assert_string_equal(kifu_report_name(rep), "tree");
	return rep;
}

/* One row of a tree: its move, counts, the mover's score over finished games, mean plies. */
static void tree_row(const struct kifu_report *rep, long row, const char *move, long long games,
		     const char *win_col, long long wins, long long draws, long long unfinished,
		     double points, double mean_plies)
{
	double low, high, finished = (double)(games - unfinished);

	assert_string_equal(tval(rep, row, "move"), move);
	assert_int_equal(ival(rep, row, "games"), games);
	assert_int_equal(ival(rep, row, win_col), wins);
	assert_int_equal(ival(rep, row, "draws"), draws);
	assert_int_equal(ival(rep, row, "unfinished"), unfinished);
	assert_true(fabs(rval(rep, row, "mean_plies") - mean_plies) < EPS);
	if (finished == 0) {
		assert_type(rep, row, "mover_score", KIFU_CELL_NULL);
		assert_type(rep, row, "ci_low", KIFU_CELL_NULL);
		return;
	}
	assert_true(fabs(rval(rep, row, "mover_score") - points / finished) < EPS);
	wilson(&low, &high, points, finished);
	assert_true(fabs(rval(rep, row, "ci_low") - low) < EPS);
	assert_true(fabs(rval(rep, row, "ci_high") - high) < EPS);
}

static void test_tree(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;

	/*
	 * The schmidt start, white to move: d4 in S1 (white, 4 plies), S3
	 * (draw, 2), S4 (unfinished, 2): white scores 1 + 1/2 of 2 finished,
	 * mean 8/3; e5 in S2 (black, 3), S5 (white, 2): 1 of 2, mean 5/2.
	 */
	rep = tree(st, "splay-schmidt", NULL, 1);
	assert_int_equal(kifu_report_nrows(rep), 2);
	tree_row(rep, 0, "d4", 3, "wins_white", 1, 1, 1, 1.5, 8.0 / 3);
	assert_int_equal(ival(rep, 0, "wins_black"), 0);
	tree_row(rep, 1, "e5", 2, "wins_black", 1, 0, 0, 1.0, 2.5);
	assert_string_equal(tval(rep, 0, "to_move"), "white");
	assert_int_equal(strlen(tval(rep, 0, "hash")), 16);
	assert_true(kifu_report_col_flags(rep, (size_t)kifu_report_find_col(rep, "hash")) &
		    KIFU_COLUMN_JSON_ONLY);
	kifu_report_free(rep);
	/* --min-games 3: d4 only; 4: nothing, the header still there. */
	rep = tree(st, "splay-schmidt", "", 3);
	assert_int_equal(kifu_report_nrows(rep), 1);
	assert_string_equal(tval(rep, 0, "move"), "d4");
	kifu_report_free(rep);
	rep = tree(st, "splay-schmidt", "", 4);
	assert_int_equal(kifu_report_nrows(rep), 0);
	assert_true(kifu_report_find_col(rep, "mover_score") >= 0);
	assert_true(kifu_report_find_col(rep, "wins_black") >= 0);
	kifu_report_free(rep);
	/*
	 * d4 f6 e5 = e5 f6 d4 (black to move): S1 played c3 next (white won);
	 * S2 ends there (no next move, no row). Asked by either order.
	 */
	rep = tree(st, "splay-schmidt", "e5,f6,d4", 1);
	assert_int_equal(kifu_report_nrows(rep), 1);
	tree_row(rep, 0, "c3", 1, "wins_white", 1, 0, 0, 0.0, 4);
	assert_string_equal(tval(rep, 0, "to_move"), "black");
	kifu_report_free(rep);
	/* d4 f6: S1 went on with e5; S3 ended there. */
	rep = tree(st, "splay-schmidt", "d4,f6", 1);
	assert_int_equal(kifu_report_nrows(rep), 1);
	tree_row(rep, 0, "e5", 1, "wins_white", 1, 0, 0, 1.0, 4);
	kifu_report_free(rep);
	/* No game reached f6. */
	rep = tree(st, "splay-schmidt", "f6", 1);
	assert_int_equal(kifu_report_nrows(rep), 0);
	kifu_report_free(rep);
}

static void test_tree_transpositions(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;

	/*
	 * The kisenwether start: K1 is there at plies 0 and 4 (c6-c5 both
	 * times) and counts once: c6-c5 in K1 (black, 5) and K2 (draw, 1),
	 * white 0 + 1/2 of 2, mean 3; d6-d5 in K3 (unfinished, 5): no score.
	 */
	rep = tree(st, "splay-kisenwether", "", 1);
	assert_int_equal(kifu_report_nrows(rep), 2);
	tree_row(rep, 0, "c6-c5", 2, "wins_black", 1, 1, 0, 0.5, 3);
	tree_row(rep, 1, "d6-d5", 1, "wins_black", 0, 0, 1, 0, 5);
	kifu_report_free(rep);
	/*
	 * After c6-c5 (black to move): K1 at plies 1 (then c3-c4) and 5 (its
	 * end): its first visit counts, c3-c4; K2 and K3 end there.
	 */
	rep = tree(st, "splay-kisenwether", "c6-c5", 1);
	assert_int_equal(kifu_report_nrows(rep), 1);
	tree_row(rep, 0, "c3-c4", 1, "wins_black", 1, 0, 0, 1.0, 5);
	kifu_report_free(rep);
	/*
	 * c6-c5 c3-c4 c5-c6 (K1) = d6-d5 c3-c4 d5-d6 (K3), black to move:
	 * both played c4-c3: one row of 2 games, black won K1, K3 unfinished.
	 */
	rep = tree(st, "splay-kisenwether", "d6-d5,c3-c4,d5-d6", 1);
	assert_int_equal(kifu_report_nrows(rep), 1);
	tree_row(rep, 0, "c4-c3", 2, "wins_black", 1, 0, 1, 1.0, 5);
	assert_string_equal(tval(rep, 0, "to_move"), "black");
	kifu_report_free(rep);
}

static void test_tree_four_players(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;

	/*
	 * Red to move at the start: Q1 (red won) and Q2 (draw) played c3-c2;
	 * Q3 began with green, another position. Red: 1 + 1/4 of 2.
	 */
	rep = tree(st, "splinter-quad", "", 1);
	assert_int_equal(kifu_report_nrows(rep), 1);
	tree_row(rep, 0, "c3-c2", 2, "wins_red", 1, 1, 0, 1.25, 4);
	assert_int_equal(ival(rep, 0, "wins_yellow"), 0);
	kifu_report_free(rep);
	/* Green to move after c3-c2 c4-b4: both h4-i4; green 0 + 1/4 of 2. */
	rep = tree(st, "splinter-quad", "c3-c2,c4-b4", 1);
	tree_row(rep, 0, "h4-i4", 2, "wins_green", 0, 1, 0, 0.25, 4);
	assert_string_equal(tval(rep, 0, "to_move"), "green");
	kifu_report_free(rep);
	/* Yellow to move: one game each, ties in byte order; yellow 0 and 1/4. */
	rep = tree(st, "splinter-quad", "c3-c2,c4-b4,h4-i4", 1);
	assert_int_equal(kifu_report_nrows(rep), 2);
	tree_row(rep, 0, "h3-i3", 1, "wins_red", 1, 0, 0, 0, 4);
	tree_row(rep, 1, "h5-i5", 1, "wins_red", 0, 1, 0, 0.25, 4);
	assert_string_equal(tval(rep, 0, "to_move"), "yellow");
	kifu_report_free(rep);
}

static void test_tree_errors(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_filter none = { .player = "Ann" }, glaisher = { .game = "glaisher" };
	struct kifu_filter schmidt = { .game = "splay-schmidt" };
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_TREE, &none, &opt, &err),
			 KIFU_ERANGE);
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_TREE, NULL, &opt, &err),
			 KIFU_ERANGE);
	/* glaisher has two variants. */
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_TREE, &glaisher, &opt, &err),
			 KIFU_ERANGE);
	opt.after = "d4,d4";
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_TREE, &schmidt, &opt, &err),
			 KIFU_EILLEGAL);
	opt.after = "zz9";
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_TREE, &schmidt, &opt, &err),
			 KIFU_EPARSE);
	assert_null(rep);
	assert_int_equal(kifu_stats_kind_find("tree"), KIFU_STATS_TREE);
}

/* The explorer page (lib/render/explorer.c) of the schmidt games: what it holds. */
static int explorer(struct kifu_buf *page, struct kifu_explorer_info *info, struct kifu_store *st,
		    const char *player, int depth, size_t max)
{
	struct kifu_explorer_options opt = KIFU_EXPLORER_OPTIONS_INIT;
	struct kifu_filter f;
	struct kifu_error err;
	int ret;

	memset(&f, 0, sizeof(f));
	f.game = "splay-schmidt";
	f.player = player;
	opt.depth = depth;
	opt.max_positions = max;
	kifu_error_clear(&err);
	kifu_buf_reset(page);
	ret = kifu_explorer_html(page, info, st, &f, &opt, &err);
	if (ret == 0)
		assert_non_null(strstr(page->data, "</html>"));
	return ret;
}

static void test_explorer(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_buf page = KIFU_BUF_INIT;
	struct kifu_explorer_info info;
	struct kifu_explorer_options opt = KIFU_EXPLORER_OPTIONS_INIT;
	struct kifu_filter f;
	struct kifu_error err;

	/*
	 * Depth 3: the start; d4, e5; d4 f6 (S1, S3), d4 e7 (S4), e5 f6 (S2),
	 * e5 e7 (S5); then only S1 (d4 f6 e5) and S2 (e5 f6 d4) go on, into
	 * one position: 8 positions, 7 tables (the last level has none), 8
	 * moves followed, two of them into the shared one.
	 */
	assert_int_equal(explorer(&page, &info, st, NULL, 3, 0), 0);
	assert_int_equal(info.positions, 8);
	assert_int_equal(info.tables, 7);
	assert_int_equal(info.links, 8);
	assert_int_equal(info.left_out, 0);
	assert_int_equal(info.max_depth, 3);
	/* Depth 1: the start and its two moves' positions. */
	assert_int_equal(explorer(&page, &info, st, NULL, 1, 0), 0);
	assert_int_equal(info.positions, 3);
	assert_int_equal(info.tables, 1);
	assert_int_equal(info.max_depth, 1);
	/*
	 * Room for 4: the start, d4, e5, then the level's most played move
	 * d4 f6 (2 games); d4 e7, e5 f6, e5 e7 are left out, and so is e5
	 * from d4 f6 on the next level.
	 */
	assert_int_equal(explorer(&page, &info, st, NULL, 3, 4), 0);
	assert_int_equal(info.positions, 4);
	assert_int_equal(info.left_out, 4);
	assert_int_equal(info.max_depth, 2);
	assert_non_null(strstr(page.data, "\"left_out\":4"));
	/*
	 * Room for 3 rows: the start's d4 and e5, then d4's f6 (e7 and e5's
	 * two left out), then none of d4 f6's: 4 positions, 4 rows left out.
	 */
	memset(&f, 0, sizeof(f));
	f.game = "splay-schmidt";
	opt.depth = 3;
	opt.max_rows = 3;
	kifu_error_clear(&err);
	kifu_buf_reset(&page);
	assert_int_equal(kifu_explorer_html(&page, &info, st, &f, &opt, &err), 0);
	assert_int_equal(info.positions, 4);
	assert_int_equal(info.tables, 4);
	assert_int_equal(info.rows_left_out, 4);
	assert_int_equal(info.left_out, 0);
	assert_non_null(strstr(page.data, "\"more\":2}"));
	opt = (struct kifu_explorer_options)KIFU_EXPLORER_OPTIONS_INIT;
	/* A filter is shown as text; '<' never reaches the script as markup. */
	assert_int_equal(explorer(&page, &info, st, "<b>Ann</b>", 2, 0), 0);
	assert_int_equal(info.positions, 1);
	assert_non_null(strstr(page.data, "player &lt;b&gt;Ann&lt;/b&gt;"));
	assert_non_null(strstr(page.data, "\\u003cb>Ann\\u003c/b>"));
	assert_null(strstr(page.data, "<b>Ann"));
	/* Errors: those of the tree report, and a depth below 1. */
	assert_int_equal(explorer(&page, &info, st, NULL, 0, 0), KIFU_ERANGE);
	memset(&f, 0, sizeof(f));
	kifu_error_clear(&err);
	assert_int_equal(kifu_explorer_html(&page, NULL, st, &f, &opt, &err), KIFU_ERANGE);
	f.game = "splay-schmidt";
	opt.stats.after = "d4,d4";
	assert_int_equal(kifu_explorer_html(&page, NULL, st, &f, &opt, &err), KIFU_EILLEGAL);
	kifu_buf_release(&page);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson_formula),
		cmocka_unit_test_setup_teardown(test_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_even_median, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lengths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openings_min_games, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transpositions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_position_counted_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openings_deep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_players_known_value, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filters_other_reports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tables_follow_games, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_database, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_json_table, setup, teardown),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test_setup_teardown(test_svg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_reports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_position, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_filters_and_order, setup, teardown),
		cmocka_unit_test(test_search_bad_moves),
		cmocka_unit_test_setup_teardown(test_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_transpositions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_four_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explorer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
