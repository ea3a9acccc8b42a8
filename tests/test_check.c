/*
 * Unit tests of the integrity check (kifu/check.h, kifu_stats_check) on
 * the statistics' twelve games (helpers.c): a whole database has no
 * problem and every game checked; a sample checks as many games as asked,
 * the same ones for the same seed; each damage (made in SQL on the SQLite
 * file, as a hand or a broken copy would) comes to the callback with its
 * kind, the game it concerns and a message naming it; the callback's
 * non-zero return stops the check. tests/cli/check.sh and pg-check.sh
 * check the same through kifu-check on both backends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/check.h"
#include "kifu/store.h"
#include "helpers.h"

/* What the callback saw: the problems, one a line ("CHECK|ID|MESSAGE"). */
struct seen {
	char text[16384];
	int n, stop_after;
};

static int say(void *ctx, const char *check, int64_t id, const char *message)
{
	struct seen *s = ctx;
	size_t len = strlen(s->text);

	snprintf(s->text + len, sizeof(s->text) - len, "%s|%lld|%s\n", check, (long long)id,
		 message);
	s->n++;
	return s->stop_after && s->n >= s->stop_after ? 42 : 0;
}

static struct kifu_check_summary run(struct kifu_store *st, struct seen *s, long sample,
				     uint64_t seed)
{
	struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
	struct kifu_check_summary sum;
	struct kifu_error err;

	kifu_error_clear(&err);
	opt.sample = sample;
	opt.seed = seed;
	opt.trees = -1;
	if (kifu_stats_check(&sum, st, &opt, say, s, &err) != 0)
		fail_msg("kifu_stats_check: %s", err.message);
	assert_int_equal(sum.problems, s->n);
	return sum;
}

static void test_whole(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_check_summary sum, a, b;
	struct seen s = { "", 0, 0 };
	struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
	struct kifu_error err;

	sum = run(st, &s, 0, 0);
	assert_string_equal(s.text, "");
	assert_int_equal(sum.games, 12);
	assert_int_equal(sum.checked, 12);
	assert_int_equal(sum.tables, 6);
	assert_true(sum.positions > 12 && sum.trees > 1);
	/* A sample: as many games as asked, the same for the same seed; no table recounted. */
	a = run(st, &s, 3, 7);
	b = run(st, &s, 3, 7);
	assert_int_equal(a.checked, 3);
	assert_int_equal(a.tables, 0);
	assert_int_equal(a.positions, b.positions);
	assert_int_equal(a.trees, b.trees);
	assert_int_equal(run(st, &s, 50, 7).checked, 12);
	assert_string_equal(s.text, "");
	opt.sample = -1;
	assert_int_equal(kifu_stats_check(&sum, st, &opt, say, &s, &err), KIFU_ERANGE);
}

/* Each damage of damages[] on a fresh copy of the twelve games, named as expected. */
static const struct {
	const char *sql;
	const char *check;
	long long id;
	const char *says;
} damages[] = {
	{ "UPDATE games SET plies = plies + 1 WHERE id = 1", "game", 1, "game 1 " },
	{ "DELETE FROM positions_hash WHERE game_id = 2 AND ply = 1", "position index", 2,
	  "position index misses game 2 at position " },
	{ "INSERT INTO positions_hash(hash, game_id, ply) VALUES (99, 3, 1)", "position index", -1,
	  "position index holds " },
	{ "UPDATE stats_outcomes SET games = games + 1 WHERE result = 'white'", "sums", -1,
	  "the summary's kept sums (stats_outcomes) differ from their recount" },
	{ "UPDATE stats_lines SET w0 = w0 + 1, draws = draws - 1 WHERE plies = 1 AND draws > 0",
	  "sums", -1, "the openings' kept sums (stats_lines) differ from their recount" },
	{ "UPDATE tree_moves SET plies = plies + 5 WHERE \"symmetric\" = 0", "tree", -1,
	  "the tree's kept counts of " },
	{ "DELETE FROM game_cells WHERE game_id = 4", "pattern summary", 4,
	  "game 4 has no pattern summary" },
};

static void test_damage(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
		struct seen s = { "", 0, 0 };
		struct kifu_store *st;
		char want[512];
		void *fresh = NULL;

		assert_int_equal(th_stats_setup(&fresh), 0);
		st = fresh;
		th_exec(st, damages[i].sql);
		run(st, &s, 0, 0);
		snprintf(want, sizeof(want), "%s|%lld|%s", damages[i].check, damages[i].id,
			 damages[i].says);
		if (s.n == 0 || !strstr(s.text, want))
			fail_msg("%s: wanted '%s', got:\n%s", damages[i].sql, want, s.text);
		th_stats_teardown(&fresh);
	}
}

/* The callback's non-zero return stops the check and is its return. */
static void test_stop(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
	struct kifu_check_summary sum;
	struct seen s = { "", 0, 1 };
	struct kifu_error err;

	th_exec(st, "DELETE FROM positions_hash WHERE ply = 1");
	kifu_error_clear(&err);
	assert_int_equal(kifu_stats_check(&sum, st, &opt, say, &s, &err), 42);
	assert_int_equal(s.n, 1);
	assert_int_equal(sum.problems, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_whole, th_stats_setup, th_stats_teardown),
		cmocka_unit_test(test_damage),
		cmocka_unit_test_setup_teardown(test_stop, th_stats_setup, th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
