/*
 * Unit tests of the statistics (lib/stats/) on the small database of
 * tests/helpers.c (th_stats_games: twelve games of four games, worked out
 * by hand in its comments): the filters one by one and in every
 * report, refused options, the precomputed tables kept up to date as games
 * come and go (and a busy database), and the text forms (CSV quoting,
 * JSON shape, tables) and the charts.
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
#include <sqlite3.h>

#include "kifu/record.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "stats/stats_impl.h" /* the report made by hand of test_quoting */
#include "store/store_impl.h" /* the SQLite connection of test_busy_database */
#include "helpers.h"

/* ---- filters ---- */

/* The games column of a game's summary row, 0 without a row. */
static long games_of(const struct kifu_report *rep, const char *game)
{
	return th_has_row(rep, game, NULL) ? (long)th_ival(rep, th_row_of(rep, game, NULL), "games") : 0;
}

/* Games of each game in a summary (0 when it has no row). */
static void summary_games(struct kifu_store *st, const struct kifu_filter *f, unsigned flags,
			  long *s, long *k, long *q, long *g)
{
	struct kifu_report *rep = th_stats_run(st, KIFU_STATS_SUMMARY, f, 2, 1, 0, flags);

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
		/*
		 * A partial until covers its whole period: until 2024 is every
		 * dated game (none is later); until 2024-06 (to 30 June) is
		 * S1-S5 (S4 of 06-15 too), K1, K2 and Q3, not K3 (08-01) or Q1
		 * (07-01); June alone is S4; until 2023 is Q3 (2022-01-01).
		 */
		{ { .until = "2024" }, 5, 3, 2, 0 },
		{ { .until = "2024-06" }, 5, 2, 1, 0 },
		{ { .since = "2024-06", .until = "2024-06" }, 1, 0, 0, 0 },
		{ { .until = "2023" }, 0, 0, 1, 0 },
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

	for (m = 0; m < TH_STATS_NMODES; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			long s, k, q, g;

			summary_games(st, &cases[i].f, th_stats_modes[m], &s, &k, &q, &g);
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

	for (m = 0; m < TH_STATS_NMODES; m++) {
		struct kifu_report *rep;
		long r;

		/* Open schmidt games: S2 (e5 f6 d4, black) and S5 (e5 e7, white). */
		rep = th_stats_run(st, KIFU_STATS_OPENINGS, &by_event, 1, 1, 0, th_stats_modes[m]);
		r = th_row_of(rep, "splay-schmidt", "e5");
		assert_int_equal(th_ival(rep, r, "games"), 2);
		assert_false(th_has_row(rep, "splay-schmidt", "d4"));
		kifu_report_free(rep);
		/* Resigned schmidt games: S1 (4 plies), S2 (3). */
		rep = th_stats_run(st, KIFU_STATS_LENGTHS, &by_term, 2, 1, 0, th_stats_modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 2);
		assert_int_equal(th_ival(rep, 0, "plies"), 3);
		assert_int_equal(th_ival(rep, 1, "plies"), 4);
		kifu_report_free(rep);
		/*
		 * Dan's games: S5, K1, Q1, Q2; their players: Ann (K1 loss, Q1
		 * win, Q2 draw), Bob (S5, Q1 losses, Q2 draw), Cat (Q1 loss, Q2
		 * draw), Dan (S5, K1 wins, Q1 loss, Q2 draw).
		 */
		rep = th_stats_run(st, KIFU_STATS_PLAYERS, &by_player, 2, 1, 0, th_stats_modes[m]);
		assert_int_equal(kifu_report_nrows(rep), 4);
		for (r = 0; r < 4; r++) {
			if (!strcmp(th_tval(rep, r, "player"), "Dan")) {
				assert_int_equal(th_ival(rep, r, "games"), 4);
				assert_int_equal(th_ival(rep, r, "wins"), 2);
			} else if (!strcmp(th_tval(rep, r, "player"), "Bob")) {
				assert_int_equal(th_ival(rep, r, "games"), 3);
				assert_int_equal(th_ival(rep, r, "losses"), 2);
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

static void test_tables_follow_games(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_report *rep;
	struct kifu_error err;
	long r;

	/*
	 * The import kept outcomes and lines; forgotten (as a change by hand
	 * forgets them), kifu_stats_refresh fills the three tables up to game
	 * 12 from the games, as reports would.
	 */
	th_exec(st, "DELETE FROM stats_state WHERE name <> 'tree'");
	kifu_error_clear(&err);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	assert_int_equal(kifu_stats_refresh(st, &err), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE last_id = 12 AND "
				   "name <> 'tree'"), 3);
	/* d4 at 1 ply is S1, S3, S4: one table row holds them. */
	assert_int_equal(th_q_int(st, "SELECT sum(games) FROM stats_lines WHERE line = 'd4'"), 3);
	/* An import counts its games into the tables it finds current; the ratings wait. */
	th_add_games(st, "game: splay-schmidt\nplayers: {white: Dan, black: Ann}\n"
		      "moves: [d4, f6, c3]\nresult: black\ntermination: resignation\n");
	assert_int_equal(th_q_int(st, "SELECT sum(games) FROM stats_lines WHERE line = 'd4'"), 4);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE last_id = 13"), 4);
	assert_int_equal(th_q_int(st, "SELECT depth FROM stats_state WHERE name = 'players'"), 1);

	/* Game 13: schmidt now 6 games, black 2 wins; d4 4 games. */
	rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(th_ival(rep, 0, "games"), 6);
	assert_int_equal(th_ival(rep, 0, "wins_black"), 2);
	kifu_report_free(rep);
	rep = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, 0);
	r = th_row_of(rep, "splay-schmidt", "d4");
	assert_int_equal(th_ival(rep, r, "games"), 4);
	assert_int_equal(th_ival(rep, r, "wins_black"), 1);
	assert_int_equal(th_ival(rep, th_row_of(rep, "splay-schmidt", "d4 f6"), "games"), 3);
	kifu_report_free(rep);
	rep = th_stats_run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, 0);
	r = 0;
	while (strcmp(th_tval(rep, r, "player"), "Dan"))
		r++;
	assert_int_equal(th_ival(rep, r, "games"), 5);
	assert_int_equal(th_ival(rep, r, "losses"), 2);
	kifu_report_free(rep);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE last_id = 13 AND "
				   "name <> 'tree'"), 3);

	/* Deleting games forgets the tables' state: they are rebuilt without them. */
	th_exec(st, "DELETE FROM games WHERE id IN (1, 13)");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	rep = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 2, 1, 0, 0);
	r = th_row_of(rep, "splay-schmidt", "d4");
	assert_int_equal(th_ival(rep, r, "games"), 2);
	kifu_report_free(rep);
	rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(th_ival(rep, 0, "games"), 4);
	assert_int_equal(th_ival(rep, 0, "wins_white"), 1);
	kifu_report_free(rep);
	/* A changed result too. */
	th_exec(st, "UPDATE games SET result = 'white', winner = 0, termination = 'resignation' "
		     "WHERE id = 2");
	rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(th_ival(rep, 0, "wins_white"), 2);
	assert_int_equal(th_ival(rep, 0, "wins_black"), 0);
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

	/* What the import kept forgotten: the reports would bring the tables up to date. */
	th_exec(st, "DELETE FROM stats_state WHERE name <> 'tree'");
	assert_int_equal(sqlite3_open(th_dbpath, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	/* The SQLite backend's connection (a white-box test): give up at once. */
	sqlite3_busy_timeout((sqlite3 *)st->conn, 0);
	rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	assert_int_equal(th_ival(rep, 0, "games"), 5);
	th_assert_score(rep, 0, 2.5, 4);
	kifu_report_free(rep);
	rep = th_stats_run(st, KIFU_STATS_OPENINGS, NULL, 3, 1, 1, 0);
	assert_int_equal(th_ival(rep, th_row_of(rep, "splay-schmidt", "d4 f6 e5"), "games"), 2);
	kifu_report_free(rep);
	rep = th_stats_run(st, KIFU_STATS_PLAYERS, NULL, 2, 1, 0, 0);
	assert_int_equal(kifu_report_nrows(rep), 4);
	kifu_report_free(rep);
	/* Nothing was kept. */
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE name <> 'tree'"), 0);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
}

/* ---- text forms ---- */

static void test_csv_json_table(void **state)
{
	struct kifu_filter one = { .game = "splay-schmidt" };
	struct kifu_store *st = *state;
	struct kifu_report *rep = th_stats_run(st, KIFU_STATS_SUMMARY, NULL, 2, 1, 0, 0);
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	const char *glaisher;

	/* CSV: the union of the columns in order of first appearance. */
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_CSV, &err), 0);
	assert_true(th_starts_with(b.data,
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
	assert_true(th_starts_with(b.data, "game               variant   games  white  black  red  blue  "
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
	rep = th_stats_run(st, KIFU_STATS_SUMMARY, &one, 2, 1, 0, 0);
	assert_int_equal(kifu_report_write(&b, rep, KIFU_REPORT_TABLE, &err), 0);
	assert_true(th_starts_with(b.data, "game: splay-schmidt, variant: standard\n"
					"games  white  black  draws  unf  drawn  fm_score       95% ci"));
	kifu_buf_release(&b);
	kifu_report_free(rep);
	assert_int_equal(kifu_report_write(&b, rep = th_stats_run(st, KIFU_STATS_LENGTHS, NULL, 2, 1,
									  0, 0),
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
	kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "player", 0, 0), "Doe, \"J\"\nJr");
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
		assert_true(th_starts_with(b.data, "player        score  rating  games\n"));
		assert_true(th_starts_with(strchr(b.data, '\n') + 1, "Doe, \"J\"\\nJr  0.100  -\n"));
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
		struct kifu_report *rep = th_stats_run(st, kinds[i], NULL, 2, 1, 0, 0);
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

	rep = th_stats_run(st, KIFU_STATS_SUMMARY, &f, 2, 1, 0, 0);
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
	rep = th_stats_run(st, KIFU_STATS_OPENINGS, &f, 2, 1, 1, 0);
	assert_true(kifu_report_find_col(rep, "hash") > kifu_report_find_col(rep, "ci_high"));
	assert_true(kifu_report_col_flags(rep, (size_t)kifu_report_find_col(rep, "moves")) &
		    KIFU_COLUMN_JSON_ONLY);
	kifu_report_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_filters, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_filters_other_reports, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_bad_options, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_tables_follow_games, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_busy_database, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_csv_json_table, th_stats_setup,
						th_stats_teardown),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test_setup_teardown(test_svg, th_stats_setup, th_stats_teardown),
		cmocka_unit_test_setup_teardown(test_empty_reports, th_stats_setup,
						th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
