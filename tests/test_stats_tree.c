/*
 * Unit tests of the tree of moves from a position (lib/stats/stats_tree.c)
 * on the small database of tests/helpers.c (th_stats_games): counts and
 * scores of every move, transpositions, four players, and refusals.
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

#include "kifu/stats.h"
#include "kifu/store.h"
#include "helpers.h"

#define EPS 1e-9

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

	assert_string_equal(th_tval(rep, row, "move"), move);
	assert_int_equal(th_ival(rep, row, "games"), games);
	assert_int_equal(th_ival(rep, row, win_col), wins);
	assert_int_equal(th_ival(rep, row, "draws"), draws);
	assert_int_equal(th_ival(rep, row, "unfinished"), unfinished);
	assert_true(fabs(th_rval(rep, row, "mean_plies") - mean_plies) < EPS);
	if (finished == 0) {
		th_assert_type(rep, row, "mover_score", KIFU_CELL_NULL);
		th_assert_type(rep, row, "ci_low", KIFU_CELL_NULL);
		return;
	}
	assert_true(fabs(th_rval(rep, row, "mover_score") - points / finished) < EPS);
	th_wilson(&low, &high, points, finished);
	assert_true(fabs(th_rval(rep, row, "ci_low") - low) < EPS);
	assert_true(fabs(th_rval(rep, row, "ci_high") - high) < EPS);
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
	assert_int_equal(th_ival(rep, 0, "wins_black"), 0);
	tree_row(rep, 1, "e5", 2, "wins_black", 1, 0, 0, 1.0, 2.5);
	assert_string_equal(th_tval(rep, 0, "to_move"), "white");
	assert_int_equal(strlen(th_tval(rep, 0, "hash")), 16);
	assert_true(kifu_report_col_flags(rep, (size_t)kifu_report_find_col(rep, "hash")) &
		    KIFU_COLUMN_JSON_ONLY);
	kifu_report_free(rep);
	/* --min-games 3: d4 only; 4: nothing, the header still there. */
	rep = tree(st, "splay-schmidt", "", 3);
	assert_int_equal(kifu_report_nrows(rep), 1);
	assert_string_equal(th_tval(rep, 0, "move"), "d4");
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
	assert_string_equal(th_tval(rep, 0, "to_move"), "black");
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
	assert_string_equal(th_tval(rep, 0, "to_move"), "black");
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
	assert_int_equal(th_ival(rep, 0, "wins_yellow"), 0);
	kifu_report_free(rep);
	/* Green to move after c3-c2 c4-b4: both h4-i4; green 0 + 1/4 of 2. */
	rep = tree(st, "splinter-quad", "c3-c2,c4-b4", 1);
	tree_row(rep, 0, "h4-i4", 2, "wins_green", 0, 1, 0, 0.25, 4);
	assert_string_equal(th_tval(rep, 0, "to_move"), "green");
	kifu_report_free(rep);
	/* Yellow to move: one game each, ties in byte order; yellow 0 and 1/4. */
	rep = tree(st, "splinter-quad", "c3-c2,c4-b4,h4-i4", 1);
	assert_int_equal(kifu_report_nrows(rep), 2);
	tree_row(rep, 0, "h3-i3", 1, "wins_red", 1, 0, 0, 0, 4);
	tree_row(rep, 1, "h5-i5", 1, "wins_red", 0, 1, 0, 0.25, 4);
	assert_string_equal(th_tval(rep, 0, "to_move"), "yellow");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tree, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_tree_transpositions, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_tree_four_players, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_tree_errors, th_stats_setup,
						th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
