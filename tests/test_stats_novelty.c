/*
 * Unit tests of one stored game's novelty (kifu_stats_novelty,
 * lib/stats/stats_novelties.c) on the hand-checked games of
 * tests/data/novelties/games.yaml: it equals the novelties report's row
 * for every game (the report reads the position index, the one-game call
 * the tree counts first), a game without a date has none, the earlier
 * games are counted only when asked, and a missing id is KIFU_ENOTFOUND.
 */
#define _DEFAULT_SOURCE
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

static int setup(void **state)
{
	struct kifu_store *st;
	char *games;

	if (th_tmpdb_setup(state) < 0)
		return -1;
	st = th_store_open(th_dbpath);
	games = th_source_file("tests/data/novelties/games.yaml");
	th_add_games(st, games);
	free(games);
	*state = st;
	return 0;
}

static int teardown(void **state)
{
	kifu_store_free(*state);
	return th_tmpdb_teardown(state);
}

static void novelty(struct kifu_novelty *out, struct kifu_store *st, int64_t id, unsigned flags)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_stats_novelty(out, st, id, flags, &err) < 0)
		fail_msg("novelty of %lld: %s", (long long)id, err.message);
}

/* Every row of the report of game (variant) against the one-game call; returns the ids seen. */
static void same_as_report(struct kifu_store *st, const char *game, const char *variant,
			   int *seen, int nseen)
{
	struct kifu_filter f = { .game = game, .variant = variant };
	struct kifu_report *rep = th_stats_run(st, KIFU_STATS_NOVELTIES, &f, 2, 1, 0, 0);
	size_t r;

	assert_true(kifu_report_nrows(rep) > 0);
	for (r = 0; r < kifu_report_nrows(rep); r++) {
		struct kifu_novelty nov;
		long long id = th_ival(rep, (long)r, "id");

		assert_true(id > 0 && id < nseen);
		seen[id] = 1;
		novelty(&nov, st, id, KIFU_NOVELTY_EARLIER);
		if (th_cell(rep, (long)r, "ply")->type == KIFU_CELL_NULL) {
			assert_int_equal(nov.has_novelty, 0);
			continue;
		}
		assert_int_equal(nov.has_novelty, 1);
		assert_int_equal(nov.ply, th_ival(rep, (long)r, "ply"));
		assert_string_equal(nov.move, th_tval(rep, (long)r, "move"));
		assert_int_equal(nov.earlier, th_ival(rep, (long)r, "earlier"));
	}
	kifu_report_free(rep);
}

static void test_same_as_report(void **state)
{
	struct kifu_store *st = *state;
	int seen[64] = { 0 };
	long long n = th_q_int(st, "SELECT count(*) FROM games");
	int64_t id;

	same_as_report(st, "splay-schmidt", "standard", seen, 64);
	same_as_report(st, "splinter", "knockout", seen, 64);
	same_as_report(st, "splinter-quad", "standard", seen, 64);
	/* the games the report does not list have no date, and no novelty */
	for (id = 1; id <= n; id++) {
		struct kifu_novelty nov;

		if (seen[id])
			continue;
		assert_int_equal(th_q_int(st, "SELECT date IS NULL FROM games WHERE id = %lld",
					  (long long)id), 1);
		novelty(&nov, st, id, KIFU_NOVELTY_EARLIER);
		assert_int_equal(nov.has_novelty, 0);
	}
	/* the one-game calls had the tree counts, with their dates, to read */
	assert_true(th_q_int(st, "SELECT count(*) FROM tree_moves WHERE first_seen IS NOT NULL") > 0);
}

static void test_hand_checked(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_novelty nov;

	/* game 4: g6 h4 g4 transpose into game 2's position, where i7 is known; f5 is new */
	novelty(&nov, st, 4, KIFU_NOVELTY_EARLIER);
	assert_int_equal(nov.has_novelty, 1);
	assert_int_equal(nov.ply, 5);
	assert_string_equal(nov.move, "f5");
	assert_int_equal(nov.earlier, 1);
	/* asked without the earlier games: the same novelty, earlier -1 */
	novelty(&nov, st, 4, 0);
	assert_int_equal(nov.has_novelty, 1);
	assert_int_equal(nov.ply, 5);
	assert_int_equal(nov.earlier, -1);
	/* game 7 never leaves known moves */
	novelty(&nov, st, 7, KIFU_NOVELTY_EARLIER);
	assert_int_equal(nov.has_novelty, 0);
}

static void test_not_found(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_novelty nov;
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_stats_novelty(&nov, st, 999, 0, &err), KIFU_ENOTFOUND);
	assert_string_equal(err.message, "no game with id 999");
	assert_int_equal(nov.has_novelty, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_as_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hand_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_found, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
