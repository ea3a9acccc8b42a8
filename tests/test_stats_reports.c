/*
 * Unit tests of the statistics (lib/stats/) on the small database of
 * tests/helpers.c (th_stats_games: twelve games of four games, worked out
 * by hand in its comments): the reports one by one, summary, lengths,
 * openings (transpositions, a position reached twice) and players. Each report is checked three times: building the precomputed
 * tables, reading them, and computing from the games (KIFU_STATS_NO_CACHE),
 * so that both ways are held to the same figures.
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
#include <cmocka.h>

#include "kifu/estimate.h"
#include "kifu/record.h"
#include "kifu/search.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "helpers.h"
#include "stats/stats_impl.h"
#include "kifu/buf.h"

#define EPS 1e-9

static void assert_no_score(const struct kifu_report *rep, long row)
{
	th_assert_type(rep, row, "first_mover_score", KIFU_CELL_NULL);
	th_assert_type(rep, row, "ci_low", KIFU_CELL_NULL);
	th_assert_type(rep, row, "ci_high", KIFU_CELL_NULL);
}


/*
 * The shortest text of a real (kifu_report_real_text_ with prec -1)
 * against its definition tried one decimal after the other: the fewest
 * decimals that read back as v, on the reals reports write (shares,
 * scores, means, dates' fractions) and on random bit patterns.
 */
static void shortest_by_tries(char *out, size_t size, double v)
{
	int prec;

	if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e15))
		for (prec = 0; prec <= 20; prec++) {
			snprintf(out, size, "%.*f", prec, v);
			if (strtod(out, NULL) == v)
				return;
		}
	snprintf(out, size, "%.17g", v);
}

static void check_shortest(double v)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	char want[400];

	shortest_by_tries(want, sizeof(want), v);
	kifu_report_real_text_(&b, v, -1);
	assert_false(b.failed);
	if (strcmp(b.data, want) != 0)
		fail_msg("%.17g: '%s', not '%s'", v, b.data, want);
	kifu_buf_release(&b);
}

static void test_real_shortest(void **state)
{
	unsigned long long x = 88172645463325252ULL;
	long n, d;
	int k, i;

	(void)state;
	for (n = 0; n <= 300; n++)
		for (d = 1; d <= 200; d++) {
			check_shortest((double)n / (double)d);
			check_shortest(-(double)n / (double)d);
			check_shortest((double)n / (double)d + 1 / 3.0);
		}
	for (k = -1100; k <= 1100; k++) {
		check_shortest(ldexp(1, k));
		check_shortest(nextafter(ldexp(1, k), 0));
		check_shortest(nextafter(ldexp(1, k), 1e300));
	}
	for (k = -20; k <= 20; k++)
		for (i = 1; i < 10; i++) {
			double p = (double)i * pow(10, k);

			check_shortest(p);
			check_shortest(nextafter(p, 0));
			check_shortest(nextafter(p, 1e300));
		}
	for (i = 0; i < 200000; i++) {
		double v;

		/* xorshift: bit patterns in the range of plain text and out of it */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i % 2) {
			memcpy(&v, &x, sizeof(v));
			if (!isfinite(v))
				continue;
		} else {
			v = (double)(x >> 11) / 9007199254740992.0 * pow(10, (int)(x % 23) - 5);
		}
		check_shortest(v);
	}
}

/* A report's csv guards its cells as INTEROP.md has it, numbers included: -0.5 is '-0.5. */
static void test_csv_guarded(void **state)
{
	struct kifu_report *rep = NULL;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	long r;

	(void)state;
	assert_int_equal(kifu_report_new_(&rep, "t"), 0);
	kifu_report_add_col_(rep, "player", 0, 0);
	kifu_report_add_col_(rep, "score", 0, 3);
	kifu_report_add_col_(rep, "n", 0, 0);
	r = kifu_report_add_row_(rep);
	kifu_report_set_text_(rep, r, 0, "=HYPERLINK(\"x\")");
	kifu_report_set_real_(rep, r, 1, -0.5);
	kifu_report_set_int_(rep, r, 2, -3);
	r = kifu_report_add_row_(rep);
	kifu_report_set_text_(rep, r, 0, "Ann");
	kifu_report_set_real_(rep, r, 1, 0.25);
	kifu_report_set_int_(rep, r, 2, 7);
	assert_false(kifu_report_failed_(rep));
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_CSV, &err), 0);
	assert_string_equal(b.data, "player,score,n\r\n"
				    "\"'=HYPERLINK(\"\"x\"\")\",'-0.5,'-3\r\n"
				    "Ann,0.25,7\r\n");
	kifu_buf_release(&b);
	kifu_report_free(rep);
}

/* ---- summary ---- */

static void test_wilson_formula(void **state)
{
	double low, high;

	(void)state;
	/* The helper against values worked out once: 2.5 of 4, 0 of 1, 1 of 1. */
	th_wilson(&low, &high, 2.5, 4);
	assert_true(fabs(low - 0.219426520) < 1e-6 && fabs(high - 0.908100771) < 1e-6);
	th_wilson(&low, &high, 0, 1);
	assert_true(fabs(low - 0) < 1e-9 && fabs(high - 0.793450686) < 1e-6);
	th_wilson(&low, &high, 1, 1);
	assert_true(fabs(low - 0.206549314) < 1e-6 && fabs(high - 1) < 1e-9);
}

static void test_summary(void **state)
{
	struct kifu_store *st = *state;
	int m;

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, th_stats_modes[m]);
		long r;

		/* One row per game and variant played, in the registry's order. */
		assert_int_equal(kifu_report_nrows(rep), 4);
		assert_string_equal(th_tval(rep, 0, "game"), "splay-schmidt");
		assert_string_equal(th_tval(rep, 1, "game"), "splay-kisenwether");
		assert_string_equal(th_tval(rep, 2, "game"), "splinter-quad");
		assert_string_equal(th_tval(rep, 3, "game"), "glaisher");

		/*
		 * splay-schmidt: S1..S5, 5 games; white won S1 and S5, black S2,
		 * S3 drawn, S4 unfinished: 4 finished. draw_rate 1/4. White moves
		 * first: (2 + 1/2) / 4 = 0.625, Wilson of 2.5 over 4 =
		 * [0.219427, 0.908101]. Plies 4, 3, 2, 2, 2: mean 13/5 = 2.6,
		 * median (the 3rd of 2 2 2 3 4) 2.
		 */
		r = 0;
		assert_string_equal(th_tval(rep, r, "variant"), "standard");
		assert_int_equal(th_ival(rep, r, "games"), 5);
		assert_int_equal(th_ival(rep, r, "wins_white"), 2);
		assert_int_equal(th_ival(rep, r, "wins_black"), 1);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		assert_true(fabs(th_rval(rep, r, "draw_rate") - 0.25) < EPS);
		th_assert_score(rep, r, 2.5, 4);
		assert_true(fabs(th_rval(rep, r, "first_mover_score") - 0.625) < EPS);
		assert_true(fabs(th_rval(rep, r, "mean_plies") - 2.6) < EPS);
		assert_true(fabs(th_rval(rep, r, "median_plies") - 2) < EPS);
		/* Columns of the other games do not apply. */
		th_assert_type(rep, r, "wins_red", KIFU_CELL_ABSENT);

		/*
		 * splay-kisenwether: K1 black won, K2 drawn, K3 unfinished: 2
		 * finished, draw_rate 1/2, white (first) scores (0 + 1/2) / 2 =
		 * 0.25, Wilson of 0.5 over 2 = [0.026677, 0.802133]. Plies 5, 1,
		 * 5: mean 11/3, median 5.
		 */
		r = 1;
		assert_int_equal(th_ival(rep, r, "games"), 3);
		assert_int_equal(th_ival(rep, r, "wins_white"), 0);
		assert_int_equal(th_ival(rep, r, "wins_black"), 1);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		assert_true(fabs(th_rval(rep, r, "draw_rate") - 0.5) < EPS);
		th_assert_score(rep, r, 0.5, 2);
		assert_true(fabs(th_rval(rep, r, "mean_plies") - 11.0 / 3) < EPS);
		assert_true(fabs(th_rval(rep, r, "median_plies") - 5) < EPS);

		/*
		 * splinter-quad: Q1 red, Q2 draw, Q3 green; all 3 finished,
		 * draw_rate 1/3. The first mover is red in Q1 (won) and Q2
		 * (drawn: 1/4 of a point among four sides) and green in Q3 (won):
		 * (2 + 1/4) / 3 = 0.75, Wilson of 2.25 over 3 = [0.256093,
		 * 0.963159]. Plies 4, 4, 2: mean 10/3, median 4.
		 */
		r = 2;
		assert_int_equal(th_ival(rep, r, "games"), 3);
		assert_int_equal(th_ival(rep, r, "wins_red"), 1);
		assert_int_equal(th_ival(rep, r, "wins_blue"), 0);
		assert_int_equal(th_ival(rep, r, "wins_green"), 1);
		assert_int_equal(th_ival(rep, r, "wins_yellow"), 0);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 0);
		assert_true(fabs(th_rval(rep, r, "draw_rate") - 1.0 / 3) < EPS);
		th_assert_score(rep, r, 2.25, 3);
		assert_true(fabs(th_rval(rep, r, "mean_plies") - 10.0 / 3) < EPS);
		assert_true(fabs(th_rval(rep, r, "median_plies") - 4) < EPS);
		th_assert_type(rep, r, "wins_white", KIFU_CELL_ABSENT);

		/* glaisher: one unfinished game of 1 ply: nothing finished, so nulls. */
		r = 3;
		assert_int_equal(th_ival(rep, r, "games"), 1);
		assert_int_equal(th_ival(rep, r, "wins_red"), 0);
		assert_int_equal(th_ival(rep, r, "wins_yellow"), 0);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		th_assert_type(rep, r, "draw_rate", KIFU_CELL_NULL);
		assert_no_score(rep, r);
		assert_true(fabs(th_rval(rep, r, "mean_plies") - 1) < EPS);
		assert_true(fabs(th_rval(rep, r, "median_plies") - 1) < EPS);
		kifu_report_free(rep);
	}
}

/* An even count: the median is the mean of the two middle lengths. */
static void test_summary_even_median(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt", .since = "2024-01-15" };
	int m;

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_SUMMARY, &f, 2, 1, 0, th_stats_modes[m]);

		/*
		 * From 2024-01-15: S1 (03-10), S2 (05-01), S4 (06-15), S5
		 * (01-20); not S3 ('2024' = 2024-01-01). Plies 4, 3, 2, 2:
		 * median (2 + 3) / 2 = 2.5, mean 11/4. White won S1, S5, black
		 * S2, S4 unfinished: (2 + 0) / 3, Wilson of 2 over 3 =
		 * [0.207660, 0.938508]; draw_rate 0 / 3.
		 */
		assert_int_equal(kifu_report_nrows(rep), 1);
		assert_int_equal(th_ival(rep, 0, "games"), 4);
		assert_true(fabs(th_rval(rep, 0, "median_plies") - 2.5) < EPS);
		assert_true(fabs(th_rval(rep, 0, "mean_plies") - 2.75) < EPS);
		assert_int_equal(th_ival(rep, 0, "wins_white"), 2);
		assert_int_equal(th_ival(rep, 0, "unfinished"), 1);
		assert_true(fabs(th_rval(rep, 0, "draw_rate")) < EPS);
		th_assert_score(rep, 0, 2, 3);
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

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_LENGTHS, NULL, 2, 1, 0, th_stats_modes[m]);

		assert_int_equal(kifu_report_nrows(rep), 8);
		assert_int_equal(kifu_report_ncols(rep), 4);
		for (i = 0; i < 8; i++) {
			assert_string_equal(th_tval(rep, (long)i, "game"), want[i].game);
			assert_string_equal(th_tval(rep, (long)i, "variant"), "standard");
			assert_int_equal(th_ival(rep, (long)i, "plies"), want[i].plies);
			assert_int_equal(th_ival(rep, (long)i, "games"), want[i].games);
		}
		kifu_report_free(rep);
	}
}

/* ---- openings ---- */

static void test_openings(void **state)
{
	struct kifu_store *st = *state;
	int m;

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, th_stats_modes[m]);
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
		assert_string_equal(th_tval(rep, 0, "line"), "d4");
		assert_string_equal(th_tval(rep, 1, "line"), "e5");
		assert_string_equal(th_tval(rep, 2, "line"), "d4 f6");
		assert_string_equal(th_tval(rep, 3, "line"), "d4 e7");
		assert_string_equal(th_tval(rep, 4, "line"), "e5 e7");
		assert_string_equal(th_tval(rep, 5, "line"), "e5 f6");
		assert_string_equal(th_tval(rep, 6, "game"), "splay-kisenwether");

		/* d4: S1 (white won), S3 (draw), S4 (unfinished): (1 + 1/2) / 2. */
		r = th_row_of(rep, "splay-schmidt", "d4");
		assert_int_equal(th_ival(rep, r, "plies"), 1);
		assert_int_equal(th_ival(rep, r, "games"), 3);
		assert_int_equal(th_ival(rep, r, "wins_white"), 1);
		assert_int_equal(th_ival(rep, r, "wins_black"), 0);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		th_assert_score(rep, r, 1.5, 2);
		/* e5: S2 (black), S5 (white): 1 / 2. */
		r = th_row_of(rep, "splay-schmidt", "e5");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_int_equal(th_ival(rep, r, "wins_white"), 1);
		assert_int_equal(th_ival(rep, r, "wins_black"), 1);
		th_assert_score(rep, r, 1, 2);
		/* d4 f6: S1, S3: (1 + 1/2) / 2. */
		r = th_row_of(rep, "splay-schmidt", "d4 f6");
		assert_int_equal(th_ival(rep, r, "plies"), 2);
		assert_int_equal(th_ival(rep, r, "games"), 2);
		th_assert_score(rep, r, 1.5, 2);
		/* d4 e7: S4 only, unfinished: no score. */
		r = th_row_of(rep, "splay-schmidt", "d4 e7");
		assert_int_equal(th_ival(rep, r, "games"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		assert_no_score(rep, r);
		/* e5 f6: S2, black won: 0 of 1; e5 e7: S5, white won: 1 of 1. */
		th_assert_score(rep, th_row_of(rep, "splay-schmidt", "e5 f6"), 0, 1);
		th_assert_score(rep, th_row_of(rep, "splay-schmidt", "e5 e7"), 1, 1);

		/* c6-c5: K1 (black won), K2 (draw): white (0 + 1/2) / 2. */
		r = th_row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_int_equal(th_ival(rep, r, "wins_black"), 1);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		th_assert_score(rep, r, 0.5, 2);
		assert_no_score(rep, th_row_of(rep, "splay-kisenwether", "d6-d5"));

		/*
		 * c3-c2: Q1 (red, first, won) and Q2 (drawn): (1 + 1/4) / 2 =
		 * 0.625, Wilson of 1.25 over 2 = [0.141690, 0.943905].
		 */
		r = th_row_of(rep, "splinter-quad", "c3-c2 c4-b4");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_int_equal(th_ival(rep, r, "wins_red"), 1);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		th_assert_score(rep, r, 1.25, 2);
		/* h4-i4: Q3, green moved first and won: 1 of 1. */
		r = th_row_of(rep, "splinter-quad", "h4-i4");
		assert_int_equal(th_ival(rep, r, "wins_green"), 1);
		th_assert_score(rep, r, 1, 1);

		/* A glaisher move holds spaces: the line is ambiguous, the list is not. */
		r = th_row_of(rep, "glaisher", "f8>nw 3+2+1 g6");
		c = th_cell(rep, r, "moves");
		assert_int_equal(c->type, KIFU_CELL_LIST);
		assert_int_equal(c->count, 1);
		assert_string_equal(c->text, "f8>nw 3+2+1 g6");
		c = th_cell(rep, th_row_of(rep, "splay-schmidt", "d4 f6"), "moves");
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

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 2, 2, 0, th_stats_modes[m]);

		/* At least 2 games: d4 (3), e5 (2), d4 f6 (2). */
		assert_int_equal(kifu_report_nrows(rep), 3);
		assert_string_equal(th_tval(rep, 0, "line"), "d4");
		assert_string_equal(th_tval(rep, 1, "line"), "e5");
		assert_string_equal(th_tval(rep, 2, "line"), "d4 f6");
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
	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *lines = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 3, 1, 0, th_stats_modes[m]);
		struct kifu_report *pos = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 3, 1, 1, th_stats_modes[m]);
		long r;

		/* By line: d4 f6 e5 (S1) and e5 f6 d4 (S2) are two rows of one game each. */
		r = th_row_of(lines, "splay-schmidt", "d4 f6 e5");
		assert_int_equal(th_ival(lines, r, "games"), 1);
		r = th_row_of(lines, "splay-schmidt", "e5 f6 d4");
		assert_int_equal(th_ival(lines, r, "games"), 1);
		assert_int_equal(kifu_report_nrows(lines), 8);
		assert_int_equal(kifu_report_find_col(lines, "hash"), -1);

		/*
		 * By position: one row of 2 games (S1 white won, S2 black won:
		 * 1 / 2), labelled by the first of the two equally common lines
		 * in byte order, with the position's hash.
		 */
		assert_int_equal(kifu_report_nrows(pos), 7);
		assert_false(th_has_row(pos, "splay-schmidt", "e5 f6 d4"));
		r = th_row_of(pos, "splay-schmidt", "d4 f6 e5");
		assert_int_equal(th_ival(pos, r, "plies"), 3);
		assert_int_equal(th_ival(pos, r, "games"), 2);
		assert_int_equal(th_ival(pos, r, "wins_white"), 1);
		assert_int_equal(th_ival(pos, r, "wins_black"), 1);
		th_assert_score(pos, r, 1, 2);
		assert_string_equal(th_tval(pos, r, "hash"), hex);
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

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 5, 1, 1, th_stats_modes[m]);
		long r;

		/*
		 * After c6-c5: K1 at plies 1 and 5 (once), K2 at ply 1, K3 at
		 * ply 5: 3 games (K1 black won, K2 drawn, K3 unfinished), label
		 * c6-c5 (2 games got there first by it, 1 by K3's line).
		 */
		r = th_row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(th_ival(rep, r, "plies"), 1);
		assert_int_equal(th_ival(rep, r, "games"), 3);
		assert_int_equal(th_ival(rep, r, "wins_black"), 1);
		assert_int_equal(th_ival(rep, r, "draws"), 1);
		assert_int_equal(th_ival(rep, r, "unfinished"), 1);
		th_assert_score(rep, r, 0.5, 2);
		/*
		 * After 3 plies K1 and K3 stand in the same position (the white
		 * stone went back; the black one is on c4); after 4 both are back
		 * at the start. Labels: the first line in byte order.
		 */
		r = th_row_of(rep, "splay-kisenwether", "c6-c5 c3-c4 c5-c6");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		r = th_row_of(rep, "splay-kisenwether", "c6-c5 c3-c4 c5-c6 c4-c3");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_false(th_has_row(rep, "splay-kisenwether", "d6-d5 c3-c4 d5-d6"));
		/* Rows: c6-c5, d6-d5, c6-c5 c3-c4, d6-d5 c3-c4, the two above. */
		assert_int_equal(kifu_report_nrows(rep), 6);
		kifu_report_free(rep);

		/* By line every line is its own row: 5 + 5 + 1 lines, K1's 5-ply line included. */
		rep = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 5, 1, 0, th_stats_modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 10);
		r = th_row_of(rep, "splay-kisenwether", "c6-c5");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_int_equal(th_ival(rep, th_row_of(rep, "splay-kisenwether",
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
		struct kifu_report *a = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 6, 1, by_position, 0);
		struct kifu_report *b = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 40, 1, by_position, 0);

		kifu_buf_reset(&ta);
		kifu_buf_reset(&tb);
		assert_int_equal(kifu_report_write(&ta, a, KIFU_REPORT_JSON, &err), 0);
		assert_int_equal(kifu_report_write(&tb, b, KIFU_REPORT_JSON, &err), 0);
		assert_string_equal(ta.data, tb.data);
		assert_true(th_has_row(b, "splay-kisenwether", "c6-c5 c3-c4 c5-c6 c4-c3"));
		assert_int_equal(th_has_row(b, "splay-kisenwether", "d6-d5 c3-c4 d5-d6 c4-c3"),
				 !by_position);
		kifu_report_free(a);
		kifu_report_free(b);
	}
	kifu_buf_release(&ta);
	kifu_buf_release(&tb);
}

/* ---- players ---- */

/*
 * The player's side (kifu_filter.player_side) and the newest games only
 * (kifu_stats_options.newest), which kifu-serve's player page uses. The
 * schmidt games S1..S5, newest first: S4 (2024-06-15, Cat-Ann, d4),
 * S2 (2024-05, e5), S1 (2024-03-10, Ann-Bob, d4), S5 (2024-01-20, e5),
 * S3 (2024: its first day, 2024-01-01; Ann-Cat, d4).
 */
static void test_player_side_and_newest(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt", .player = "Ann", .player_side = "white" };
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep;
	struct kifu_error err;
	int64_t *ids = NULL;
	size_t n = 0;

	kifu_error_clear(&err);
	/* Ann as white: S1 and S3; as black: S4; without a player the side is ignored. */
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 3);
	kifu_store_game_ids_free(ids);
	f.player_side = "black";
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 4);
	kifu_store_game_ids_free(ids);
	f.player = NULL;
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), 0);
	assert_int_equal(n, 5);
	kifu_store_game_ids_free(ids);
	/* And in a report: Ann as white played d4 twice (S1 won, S3 drawn). */
	f.player = "Ann";
	f.player_side = "white";
	rep = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 1, 1, 0, 0);
	assert_int_equal(kifu_report_nrows(rep), 1);
	assert_int_equal(th_ival(rep, th_row_of(rep, "splay-schmidt", "d4"), "games"), 2);
	assert_int_equal(th_ival(rep, 0, "wins_white"), 1);
	assert_int_equal(th_ival(rep, 0, "draws"), 1);
	kifu_report_free(rep);

	/* The two newest schmidt games: S4 (d4) and S2 (e5); of all five d4 has 3, e5 2. */
	f.player = NULL;
	f.player_side = NULL;
	opt.depth = 1;
	opt.newest = 2;
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, &err), 0);
	assert_int_equal(kifu_report_nrows(rep), 2);
	assert_int_equal(th_ival(rep, th_row_of(rep, "splay-schmidt", "d4"), "games"), 1);
	assert_int_equal(th_ival(rep, th_row_of(rep, "splay-schmidt", "e5"), "games"), 1);
	kifu_report_free(rep);
	/* Ann's two newest: S4 and S1, both d4; her three as any side: S4, S1, S3. */
	f.player = "Ann";
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, &err), 0);
	assert_int_equal(kifu_report_nrows(rep), 1);
	assert_int_equal(th_ival(rep, 0, "games"), 2);
	kifu_report_free(rep);
	opt.newest = 10;
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, &err), 0);
	assert_int_equal(th_ival(rep, 0, "games"), 3);
	kifu_report_free(rep);
	/* Another report, or a negative count: a bad option. */
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_SUMMARY, &f, &opt, &err), KIFU_ERANGE);
	opt.newest = -1;
	assert_int_equal(kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, &err), KIFU_ERANGE);
}

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
	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, th_stats_modes[m]);
		double prev = 1e9;
		size_t r;

		assert_int_equal(kifu_report_nrows(rep), 4);
		sum = 0;
		for (r = 0; r < 4; r++) {
			const char *name = th_tval(rep, (long)r, "player");
			double rating = th_rval(rep, (long)r, "rating");

			for (i = 0; i < 4 && strcmp(want[i].name, name); i++)
				;
			assert_true(i < 4);
			assert_int_equal(th_ival(rep, (long)r, "games"), want[i].games);
			assert_int_equal(th_ival(rep, (long)r, "wins"), want[i].wins);
			assert_int_equal(th_ival(rep, (long)r, "draws"), want[i].draws);
			assert_int_equal(th_ival(rep, (long)r, "losses"), want[i].losses);
			assert_int_equal(th_ival(rep, (long)r, "unfinished"), want[i].unfinished);
			assert_true(fabs(th_rval(rep, (long)r, "score") - want[i].score) < EPS);
			/* The fit of exactly those pairings; best first. */
			assert_true(fabs(rating - ratings[i]) < 1e-6);
			assert_true(rating <= prev);
			prev = rating;
			sum += rating;
		}
		/* Properties: the mean is 1500; Bob, who lost most, is last. */
		assert_true(fabs(sum / 4 - 1500) < 1e-6);
		assert_string_equal(th_tval(rep, 3, "player"), "Bob");
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
	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep = th_stats_run(st, KIFU_STATS_PLAYERS, &f, 2, 1, 0, th_stats_modes[m]);

		assert_int_equal(kifu_report_nrows(rep), 4);
		assert_string_equal(th_tval(rep, 0, "player"), "Dan");
		assert_true(fabs(th_rval(rep, 0, "rating") - (1500 + d)) < 1e-6);
		assert_true(fabs(th_rval(rep, 0, "score") - 1) < EPS);
		assert_string_equal(th_tval(rep, 1, "player"), "Ann");
		assert_true(fabs(th_rval(rep, 1, "rating") - (1500 - d)) < 1e-6);
		assert_string_equal(th_tval(rep, 2, "player"), "Bob");
		assert_string_equal(th_tval(rep, 3, "player"), "Cat");
		th_assert_type(rep, 2, "rating", KIFU_CELL_NULL);
		th_assert_type(rep, 3, "score", KIFU_CELL_NULL);
		assert_int_equal(th_ival(rep, 3, "unfinished"), 1);
		kifu_report_free(rep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson_formula),
		cmocka_unit_test(test_real_shortest),
		cmocka_unit_test(test_csv_guarded),
		cmocka_unit_test_setup_teardown(test_summary, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_summary_even_median, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_lengths, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_openings, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_openings_min_games, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_transpositions, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_position_counted_once, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_openings_deep, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_player_side_and_newest, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_players, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_players_known_value, th_stats_setup,
						th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
