/*
 * Tests of kifu-analyse --store (lib/engine/analyse_store.c, schema 6) and of the
 * players columns it feeds (analysed_moves, mean_loss, mistakes), on a tiny
 * database whose figures are worked out by hand below: reviews are built
 * here with chosen losses (not by the engine), stored, replaced by a
 * second analysis with the same settings, kept beside one with other
 * settings, and read back through kifu-stats players.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/analyse.h"
#include "store/db.h"
#include "kifu/record.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "helpers.h"

#define EPS 1e-9

/*
 *  id  players (white, black)  moves
 *   1  Ann, Bob                d4 f6 e5 c3
 *   2  Bob, Cat                e5 f6 d4
 *   3  Ann, Cat                d4 f6          (never analysed)
 *   4  Dan, Eve                d4 e7          (analysed; Dan and Eve have no other game)
 */
static const char games_text[] =
	"game: splay-schmidt\nresult: white\ntermination: resignation\n"
	"players: {white: Ann, black: Bob}\nmoves: [d4, f6, e5, c3]\n---\n"
	"game: splay-schmidt\nresult: black\ntermination: resignation\n"
	"players: {white: Bob, black: Cat}\nmoves: [e5, f6, d4]\n---\n"
	"game: splay-schmidt\nresult: draw\ntermination: agreement\n"
	"players: {white: Ann, black: Cat}\nmoves: [d4, f6]\n---\n"
	"game: splay-schmidt\nplayers: {white: Dan, black: Eve}\nmoves: [d4, e7]\n";

struct fixture {
	struct kifu_store *st;
	struct kifu_replay rp[4];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_error err;
	int n = 0;

	kifu_error_clear(&err);
	if (!fx || th_tmpdb_setup(state) < 0)
		return -1;
	fx->st = th_store_open(th_dbpath);
	assert_int_equal(kifu_reader_open_mem(&r, games_text, strlen(games_text), "t", &err), 0);
	while (kifu_reader_next(&rec, &diags, r, &err) > 0) {
		int64_t id;

		fx->rp[n] = (struct kifu_replay)KIFU_REPLAY_INIT;
		assert_int_equal(kifu_record_validate(&fx->rp[n], &diags, rec, KIFU_VALIDATE_TEXT,
						      &err), 0);
		assert_int_equal(diags.errors, 0);
		assert_int_equal(kifu_store_game_add(&id, fx->st, rec, &fx->rp[n], NULL, &err), 1);
		assert_int_equal(id, n + 1);
		kifu_record_free(rec);
		kifu_diags_reset(&diags);
		n++;
	}
	assert_int_equal(n, 4);
	kifu_diags_release(&diags);
	kifu_reader_free(r);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int i;

	kifu_store_free(fx->st);
	for (i = 0; i < 4; i++)
		kifu_replay_release(&fx->rp[i]);
	free(fx);
	return th_tmpdb_teardown(state);
}

/*
 * Stores a review of stored game id (1-based, replay rp) whose plies lose
 * loss[0..] (best_score 0.6, played_score 0.6 - loss; the engine's move
 * is the move played when the loss is 0, else "a1", a text only).
 */
static void store(struct fixture *fx, int id, const double *loss, long playouts, uint64_t seed)
{
	const struct kifu_replay *rp = &fx->rp[id - 1];
	struct kifu_ply_review rv[8];
	char best[8 * KIFU_MOVE_TEXT_MAX];
	struct kifu_analyse_opts o = { .playouts = playouts, .seed = seed };
	struct kifu_error err;
	size_t i;

	assert_true(rp->nplies <= 8);
	memset(rv, 0, sizeof(rv));
	for (i = 0; i < rp->nplies; i++) {
		rv[i].ply = i + 1;
		rv[i].side = (int)(i % 2); /* white moves first in splay-schmidt */
		rv[i].move = rp->moves[i];
		rv[i].expected = 0.5;
		rv[i].best_score = 0.6;
		rv[i].played_score = 0.6 - loss[i];
		rv[i].loss = loss[i];
		rv[i].mark = kifu_analyse_mark(loss[i]);
		snprintf(best + i * KIFU_MOVE_TEXT_MAX, KIFU_MOVE_TEXT_MAX, "%s",
			 loss[i] > 0 ? "a1" : kifu_replay_text(rp, i + 1));
	}
	kifu_error_clear(&err);
	if (kifu_analyse_store(fx->st, id, rv, rp->nplies, rp->canonical, best, &o, &err) < 0)
		fail_msg("store: %s", err.message);
}

static long long query(struct fixture *fx, const char *sql)
{
	long long v;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_db_query_int_(&v, fx->st, sql, &err) < 0)
		fail_msg("%s: %s", sql, err.message);
	return v;
}

static struct kifu_report *players(struct fixture *fx, const struct kifu_filter *f)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_stats_report(&rep, fx->st, KIFU_STATS_PLAYERS, f, &opt, &err) < 0)
		fail_msg("players: %s", err.message);
	return rep;
}

static const struct kifu_cell *cell_of(const struct kifu_report *rep, const char *player,
				       const char *col)
{
	long c = kifu_report_find_col(rep, col), p = kifu_report_find_col(rep, "player");
	size_t r;

	if (c < 0 || p < 0)
		fail_msg("no column '%s'", col);
	for (r = 0; r < kifu_report_nrows(rep); r++)
		if (!strcmp(kifu_report_cell(rep, r, (size_t)p)->text, player))
			return kifu_report_cell(rep, r, (size_t)c);
	fail_msg("no player '%s'", player);
	return NULL;
}

/* The three columns of player: moves (-1: all three null), mean loss, mistakes. */
static void assert_analysed(const struct kifu_report *rep, const char *player, long long moves,
			    double mean, long long mistakes)
{
	const struct kifu_cell *m = cell_of(rep, player, "analysed_moves");
	const struct kifu_cell *l = cell_of(rep, player, "mean_loss");
	const struct kifu_cell *k = cell_of(rep, player, "mistakes");

	if (moves < 0) {
		assert_int_equal(m->type, KIFU_CELL_NULL);
		assert_int_equal(l->type, KIFU_CELL_NULL);
		assert_int_equal(k->type, KIFU_CELL_NULL);
		return;
	}
	assert_int_equal(m->type, KIFU_CELL_INT);
	assert_int_equal(k->type, KIFU_CELL_INT);
	assert_int_equal(l->type, KIFU_CELL_REAL);
	if (m->i != moves || k->i != mistakes || fabs(l->r - mean) > EPS)
		fail_msg("%s: %lld moves, mean loss %.6f, %lld mistakes; expected %lld, %.6f, %lld",
			 player, m->i, l->r, k->i, moves, mean, mistakes);
}

static void test_no_analysis_no_columns(void **state)
{
	struct fixture *fx = *state;
	struct kifu_report *rep = players(fx, NULL);

	/* nothing analysed yet: the report is as before */
	assert_true(kifu_report_find_col(rep, "analysed_moves") < 0);
	assert_true(kifu_report_find_col(rep, "mean_loss") < 0);
	assert_true(kifu_report_find_col(rep, "mistakes") < 0);
	kifu_report_free(rep);
}

static void test_store_and_players(void **state)
{
	struct fixture *fx = *state;
	/* game 1: Ann 0.00, Bob 0.25 (?), Ann 0.10 (?!), Bob 0.40 (a blunder) */
	static const double g1[] = { 0.00, 0.25, 0.10, 0.40 };
	/* game 1 again with fewer playouts: kept, but the run with most playouts counts */
	static const double g1_weak[] = { 0.90, 0.90, 0.90, 0.90 };
	/* game 2 first: to be replaced by g2 (same settings) */
	static const double g2_old[] = { 0.50, 0.50, 0.50 };
	/* game 2: Bob 0.05, Cat 0.20 (?), Bob 0.00 */
	static const double g2[] = { 0.05, 0.20, 0.00 };
	/* game 4: Dan 0.15 (?!), Eve 0.35 (a blunder) */
	static const double g4[] = { 0.15, 0.35 };
	struct kifu_report *rep;
	struct kifu_filter only_g2 = { .player = "Cat" };

	store(fx, 1, g1, 1000, 1);
	store(fx, 1, g1_weak, 100, 1);
	store(fx, 2, g2_old, 1000, 7);
	store(fx, 2, g2, 1000, 7);
	store(fx, 4, g4, 1000, UINT64_MAX); /* a seed of 2^64 - 1 is stored as -1 */

	/* the rows: three runs of game 1 and 2 (one replaced), plies of each */
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_runs"), 4);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_plies"), 4 + 4 + 3 + 2);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_runs WHERE game_id = 2 AND "
			     "engine = 'engine' AND playouts = 1000 AND seed = 7 AND plies = 3"), 1);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_runs WHERE seed = -1"), 1);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_plies p JOIN analysis_runs r "
			     "ON r.id = p.run_id WHERE r.game_id = 2 AND p.loss = 0.5"), 0);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_plies p JOIN analysis_runs r "
			     "ON r.id = p.run_id WHERE r.game_id = 1 AND r.playouts = 1000 AND "
			     "p.ply = 4 AND p.side_index = 1 AND p.move = 'c3' AND p.best = 'a1' "
			     "AND p.mark = '?\?' AND p.played_score > 0.19 AND p.played_score < 0.21"),
			 1);
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_plies p JOIN analysis_runs r "
			     "ON r.id = p.run_id WHERE r.game_id = 1 AND r.playouts = 1000 AND "
			     "p.ply = 1 AND p.mark IS NULL AND p.best = 'd4'"), 1);

	/*
	 * By hand: Ann: game 1 plies 1, 3: 2 moves, (0 + 0.10) / 2 = 0.05, no
	 * mistake. Bob: game 1 plies 2, 4 and game 2 plies 1, 3: 4 moves,
	 * (0.25 + 0.40 + 0.05 + 0) / 4 = 0.175, 2 mistakes. Cat: game 2 ply
	 * 2: 1 move, 0.20, 1 mistake (exactly at the threshold). Dan: 0.15,
	 * no mistake. Eve: 0.35, 1 mistake.
	 */
	rep = players(fx, NULL);
	assert_analysed(rep, "Ann", 2, 0.05, 0);
	assert_analysed(rep, "Bob", 4, 0.175, 2);
	assert_analysed(rep, "Cat", 1, 0.20, 1);
	assert_analysed(rep, "Dan", 1, 0.15, 0);
	assert_analysed(rep, "Eve", 1, 0.35, 1);
	kifu_report_free(rep);

	/* filters apply: Cat's games are 2 and 3, of which 2 was analysed */
	rep = players(fx, &only_g2);
	assert_analysed(rep, "Bob", 2, 0.025, 0);
	assert_analysed(rep, "Cat", 1, 0.20, 1);
	assert_analysed(rep, "Ann", -1, 0, 0);
	kifu_report_free(rep);

	/* a game deleted takes its analyses with it */
	{
		struct kifu_error err;

		kifu_error_clear(&err);
		assert_int_equal(kifu_db_exec_(fx->st, "DELETE FROM games WHERE id = 4"), 0);
		assert_int_equal(query(fx, "SELECT count(*) FROM analysis_runs"), 3);
		assert_int_equal(query(fx, "SELECT count(*) FROM analysis_plies"), 11);
	}
}

/*
 * A review read back (kifu_analyse_load): none before any is stored; then
 * the run with the most playouts, the last stored among equals, with its
 * plies as stored.
 */
static void test_load(void **state)
{
	struct fixture *fx = *state;
	static const double a[] = { 0.25, 0.4 }, b[] = { 0.12, 0 };
	const struct kifu_replay *rp = &fx->rp[2];
	struct kifu_analyse_stored r;
	struct kifu_error err;

	/* Game 3 (2 plies) is never analysed by the other tests. */
	kifu_error_clear(&err);
	assert_int_equal(kifu_analyse_load(&r, fx->st, 3, rp->nplies, &err), 0);
	assert_int_equal(r.n, 0);
	assert_null(r.plies);
	store(fx, 3, a, 500, 7);
	store(fx, 3, b, 100, 9);
	assert_int_equal(kifu_analyse_load(&r, fx->st, 3, rp->nplies, &err), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.playouts, 500);
	assert_int_equal(r.seed, 7);
	assert_int_equal(r.plies[1].ply, 2);
	assert_int_equal(r.plies[1].side, 1);
	assert_true(fabs(r.plies[0].loss - 0.25) < EPS);
	assert_true(fabs(r.plies[1].played_score - 0.2) < EPS);
	assert_int_equal(r.plies[1].mark, KIFU_REVIEW_BLUNDER);
	assert_int_equal(r.plies[0].mark, KIFU_REVIEW_MISTAKE);
	assert_string_equal(r.best, "a1");
	kifu_analyse_stored_release(&r);
	/* Equal playouts: the last stored. */
	store(fx, 3, b, 500, 8);
	assert_int_equal(kifu_analyse_load(&r, fx->st, 3, rp->nplies, &err), 0);
	assert_int_equal(r.seed, 8);
	assert_int_equal(r.plies[0].mark, KIFU_REVIEW_DUBIOUS);
	assert_int_equal(r.plies[1].mark, KIFU_REVIEW_NONE);
	assert_string_equal(r.best + KIFU_MOVE_TEXT_MAX, kifu_replay_text(rp, 2));
	kifu_analyse_stored_release(&r);
	/* A game of another length than the review's: none. */
	assert_int_equal(kifu_analyse_load(&r, fx->st, 3, rp->nplies + 1, &err), 0);
	assert_int_equal(r.n, 0);
}

static void test_store_unknown_game(void **state)
{
	struct fixture *fx = *state;
	struct kifu_ply_review rv;
	struct kifu_analyse_opts o = { .playouts = 10, .seed = 1 };
	struct kifu_error err;
	const char text[KIFU_MOVE_TEXT_MAX] = "d4";
	long long before = query(fx, "SELECT count(*) FROM analysis_runs");

	memset(&rv, 0, sizeof(rv));
	rv.ply = 1;
	kifu_error_clear(&err);
	/* no game 99: refused, and nothing of it kept */
	assert_true(kifu_analyse_store(fx->st, 99, &rv, 1, text, text, &o, &err) < 0);
	assert_true(err.message[0] != '\0');
	assert_int_equal(query(fx, "SELECT count(*) FROM analysis_runs"), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_analysis_no_columns),
		cmocka_unit_test(test_store_and_players),
		cmocka_unit_test(test_store_unknown_game),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
