/*
 * Unit tests of search by position (lib/stats/search.c) on the small
 * database of tests/helpers.c (th_stats_games): the games that reach a
 * position, with filters and in order, and refused moves.
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
#include <sqlite3.h>

#include "kifu/search.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "helpers.h"

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

/*
 * The players of a listing row as search reads them: the plain JSON the
 * store writes without jansson, any other form (spaces, escapes, a side
 * said twice, a value that is no name, no object at all) as jansson reads
 * it; each the same players either way.
 */
static void test_listing_players(void **state)
{
	static const struct {
		const char *json;
		int n;
		const char *side[2], *name[2];
	} cases[] = {
		{ "{\"white\":\"Bob\",\"black\":\"Cat\"}", 2, { "white", "black" }, { "Bob", "Cat" } },
		{ "{\"black\":\"Cat\",\"white\":\"Bob\"}", 2, { "black", "white" }, { "Cat", "Bob" } },
		{ "{\"white\": \"B o\", \"black\":\"Cat\"}", 2, { "white", "black" }, { "B o", "Cat" } },
		{ "{\"white\":\"A\\\"B\"}", 1, { "white" }, { "A\"B" } },
		{ "{\"white\":\"X\",\"white\":\"Y\"}", 1, { "white" }, { "Y" } },
		{ "{\"white\":1,\"black\":\"Cat\"}", 1, { "black" }, { "Cat" } },
		{ "{\"white\":\"Zo\xc3\xab\"}", 1, { "white" }, { "Zo\xc3\xab" } },
		{ "{\"\":\"\"}", 1, { "" }, { "" } },
		{ "{}", 0, { NULL }, { NULL } },
		{ "[1]", 0, { NULL }, { NULL } },
		{ "{\"white\":\"A\",}", 0, { NULL }, { NULL } },
		{ "{\"white\":\"A\"}x", 0, { NULL }, { NULL } },
		{ "{\"white\":\"A\"", 0, { NULL }, { NULL } },
		{ "{\"white\"}", 0, { NULL }, { NULL } },
	};
	struct kifu_store *st = *state;
	char sql[256];
	size_t i;
	int k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kifu_search_result *res;
		const struct kifu_search_hit *h;
		char *q;

		q = sqlite3_mprintf("UPDATE game_listing SET players = %Q WHERE id = 2", cases[i].json);
		snprintf(sql, sizeof(sql), "%s", q);
		sqlite3_free(q);
		th_exec(st, sql);
		res = search(st, "splay-schmidt", "d4,f6,e5", NULL);
		assert_int_equal(kifu_search_count(res), 2);
		h = kifu_search_hit(res, 0);
		assert_int_equal(h->id, 2);
		if (h->nplayers != (size_t)cases[i].n)
			fail_msg("%s: %zu players", cases[i].json, h->nplayers);
		for (k = 0; k < cases[i].n; k++) {
			assert_string_equal(h->players[k].side, cases[i].side[k]);
			assert_string_equal(h->players[k].name, cases[i].name[k]);
		}
		/* the other hit keeps its own */
		assert_int_equal(kifu_search_hit(res, 1)->nplayers, 2);
		kifu_search_result_free(res);
	}
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

/*
 * A page of a search is that part of the whole list, on the listing table
 * (no filter) and on the games themselves (an event filter, which the
 * listing does not cover), pages of every size up to past the end.
 */
static void test_search_pages(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter none = { 0 }, club = { .event = "Club" };
	const struct kifu_filter *filters[] = { &none, &club };
	struct kifu_error err;
	size_t k, size, from, i;

	kifu_error_clear(&err);
	for (k = 0; k < 2; k++) {
		struct kifu_search_result *all = search(st, NULL, NULL, filters[k]);
		size_t n = kifu_search_count(all);

		assert_true(n >= 5);
		for (size = 1; size <= n + 1; size++)
			for (from = 0; from <= n; from += size) {
				struct kifu_search_result *page = NULL;

				assert_int_equal(kifu_search_games_page(&page, st, filters[k], NULL, 0, NULL, 0,
									from, size, &err), 0);
				assert_int_equal(kifu_search_count(page),
						 n - from < size ? n - from : size);
				for (i = 0; i < kifu_search_count(page); i++) {
					const struct kifu_search_hit *a = kifu_search_hit(all, from + i),
								     *b = kifu_search_hit(page, i);

					assert_int_equal(b->id, a->id);
					assert_int_equal(b->nplayers, a->nplayers);
					if (a->nplayers)
						assert_string_equal(b->players[a->nplayers - 1].name,
								    a->players[a->nplayers - 1].name);
				}
				kifu_search_result_free(page);
			}
		kifu_search_result_free(all);
	}
}

/* The checks the tools and kifu-serve share: their messages. */
static void test_check_filter(void **state)
{
	struct kifu_filter f = { 0 };
	struct kifu_error err;
	long v = 0;

	(void)state;
	kifu_error_clear(&err);
	assert_int_equal(kifu_stats_check_filter(&f, &err), 0);
	f.game = "glaisr";
	assert_int_equal(kifu_stats_check_filter(&f, &err), KIFU_EPARSE);
	assert_string_equal(err.message, "unknown game 'glaisr' (did you mean 'glaisher'?)");
	f.game = "glaisher";
	f.variant = "stndard";
	assert_int_equal(kifu_stats_check_filter(&f, &err), KIFU_EPARSE);
	assert_string_equal(err.message,
			    "unknown variant 'stndard' of 'glaisher' (did you mean 'standard'?)");
	f.variant = NULL;
	f.termination = "resign";
	assert_int_equal(kifu_stats_check_filter(&f, &err), KIFU_EPARSE);
	assert_true(!strncmp(err.message, "unknown termination 'resign' (", 30));
	f.termination = NULL;
	f.until = "2024-13";
	assert_int_equal(kifu_stats_check_filter(&f, &err), KIFU_EPARSE);
	assert_true(!strncmp(err.message, "--until: ", 9));
	assert_int_equal(kifu_stats_parse_count(&v, "--depth", "-1", 1, &err), KIFU_EPARSE);
	assert_string_equal(err.message, "--depth expects a whole number of 1 or more, not '-1'");
	assert_int_equal(kifu_stats_parse_count(&v, "--depth", "12", 1, &err), 0);
	assert_int_equal(v, 12);
	assert_int_equal(kifu_stats_whole_number(&v, " 3", 0, 9), -1);
	assert_int_equal(kifu_stats_whole_number(&v, "10", 0, 9), -1);
}

/*
 * Move orders (kifu_search_move_orders): S1 (2024-03-10) d4 f6 e5 and S2
 * (2024-05, newer) e5 f6 d4 reach one position at ply 3, by two orders;
 * a sample of one reads the newest, S2, and says there were more.
 */
static void test_move_orders(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_filter f = { .game = "splay-schmidt", .variant = "standard" };
	const struct kifu_game *g = kifu_game_find("splay-schmidt");
	struct kifu_search_orders *o = NULL;
	struct kifu_error err;
	uint64_t hash;

	kifu_error_clear(&err);
	assert_int_equal(kifu_search_position(&hash, g, 0, "d4,f6,e5", &err), 0);
	assert_int_equal(kifu_search_move_orders(&o, st, &f, &hash, 0, NULL, 0, 10, &err), 0);
	assert_int_equal(o->n, 2);
	assert_int_equal(o->read, 2);
	assert_false(o->more);
	/* one game each: by the moves' bytes */
	assert_string_equal(o->v[0].moves, "d4,f6,e5");
	assert_string_equal(o->v[1].moves, "e5,f6,d4");
	assert_int_equal(o->v[0].games, 1);
	assert_int_equal(o->v[1].games, 1);
	kifu_search_orders_free(o);
	assert_int_equal(kifu_search_move_orders(&o, st, &f, &hash, 0, NULL, 0, 1, &err), 0);
	assert_int_equal(o->n, 1);
	assert_int_equal(o->read, 1);
	assert_true(o->more);
	assert_string_equal(o->v[0].moves, "e5,f6,d4");
	kifu_search_orders_free(o);
	/* d4 after one ply: S1, S3 and S4, all by d4 */
	assert_int_equal(kifu_search_position(&hash, g, 0, "d4", &err), 0);
	assert_int_equal(kifu_search_move_orders(&o, st, &f, &hash, 0, NULL, 0, 10, &err), 0);
	assert_int_equal(o->n, 1);
	assert_string_equal(o->v[0].moves, "d4");
	assert_int_equal(o->v[0].games, 3);
	kifu_search_orders_free(o);
	kifu_search_orders_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_search_position, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_listing_players, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_search_filters_and_order, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test(test_search_bad_moves),
		cmocka_unit_test_setup_teardown(test_search_pages, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test(test_check_filter),
		cmocka_unit_test_setup_teardown(test_move_orders, th_stats_setup, th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
