/*
 * kifu-analyse --store: an engine review kept in the game database (schema
 * 6, analysis_runs and analysis_plies; schema/README.md). A run is one
 * game reviewed with one set of engine settings (engine: the reviewing
 * player's spec, "engine:1000" or "mcts:1000"; playouts: its count; seed);
 * storing the same game with the same settings again replaces that run,
 * in one transaction, so a review is never half old and half new. All SQL
 * goes through the statement layer (store/db.h) and is the same on every
 * backend.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/player.h"
#include "kifu/store.h"
#include "store/db.h"

static const char *const delete_plies =
	"DELETE FROM analysis_plies WHERE run_id IN (SELECT id FROM analysis_runs "
	"WHERE game_id = ?1 AND engine = ?2 AND playouts = ?3 AND seed = ?4)";
static const char *const delete_run =
	"DELETE FROM analysis_runs WHERE game_id = ?1 AND engine = ?2 AND playouts = ?3 "
	"AND seed = ?4";
static const char *const insert_run =
	"INSERT INTO analysis_runs(game_id, engine, playouts, seed, plies) "
	"VALUES (?1, ?2, ?3, ?4, ?5)";
static const char *const select_run =
	"SELECT id FROM analysis_runs WHERE game_id = ?1 AND engine = ?2 AND playouts = ?3 "
	"AND seed = ?4";
static const char *const insert_ply =
	"INSERT INTO analysis_plies(run_id, ply, side_index, move, best, expected, best_score, "
	"played_score, loss, mark) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

/* Binds the run's key (game, engine spec, its count, seed) to ?1..?4 of s. */
static void bind_key(struct kifu_stmt *s, int64_t game_id, const char *spec,
		     const struct kifu_analyse_opts *o)
{
	kifu_db_bind_int64_(s, 1, game_id);
	kifu_db_bind_text_(s, 2, spec, -1);
	kifu_db_bind_int64_(s, 3, kifu_analyse_spec_count(spec));
	/* the 64 bits read as signed, as the hashes are */
	kifu_db_bind_int64_(s, 4, (int64_t)o->seed);
}

/* Runs sql once with the run's key bound; 0 or the store's error in err. */
static int run_keyed(struct kifu_store *st, const char *sql, int64_t game_id, const char *spec,
		     const struct kifu_analyse_opts *o, const char *what, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret = kifu_db_prepare_(&s, st, sql, err);

	if (ret == 0) {
		bind_key(s, game_id, spec, o);
		if (kifu_db_step_(s) < 0)
			ret = kifu_db_fail_(st, what, err);
	}
	kifu_db_finalize_(s);
	return ret;
}

int kifu_analyse_store(struct kifu_store *st, int64_t game_id, const struct kifu_ply_review *rv,
		       size_t n, const char *moves, const char *best,
		       const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	char spec[KIFU_ANALYSE_SPEC_MAX];
	int64_t run = 0;
	size_t i;
	int ret, rc;

	ret = kifu_analyse_spec(spec, o, err);
	if (ret < 0)
		return ret;
	ret = kifu_store_begin(st, err);
	if (ret < 0)
		return ret;
	ret = run_keyed(st, delete_plies, game_id, spec, o, "cannot replace an analysis", err);
	if (ret == 0)
		ret = run_keyed(st, delete_run, game_id, spec, o, "cannot replace an analysis", err);
	if (ret == 0)
		ret = kifu_db_prepare_(&s, st, insert_run, err);
	if (ret < 0)
		goto out;
	bind_key(s, game_id, spec, o);
	kifu_db_bind_int64_(s, 5, (int64_t)n);
	if (kifu_db_step_(s) < 0) {
		/* a game id that is not stored breaks the foreign key */
		ret = kifu_db_fail_(st, "cannot store the analysis", err);
		goto out;
	}
	kifu_db_finalize_(s);
	s = NULL;
	/* the run's id, found by its key: portable, unlike last-insert-id calls */
	ret = kifu_db_prepare_(&s, st, select_run, err);
	if (ret < 0)
		goto out;
	bind_key(s, game_id, spec, o);
	rc = kifu_db_step_(s);
	if (rc != KIFU_DB_ROW) {
		ret = kifu_db_fail_(st, "cannot store the analysis", err);
		goto out;
	}
	run = kifu_db_column_int64_(s, 0);
	kifu_db_finalize_(s);
	s = NULL;
	ret = kifu_db_prepare_(&s, st, insert_ply, err);
	for (i = 0; ret == 0 && i < n; i++) {
		const struct kifu_ply_review *p = &rv[i];
		const char *mark = kifu_analyse_mark_text(p->mark);

		kifu_db_bind_int64_(s, 1, run);
		kifu_db_bind_int64_(s, 2, (int64_t)p->ply);
		kifu_db_bind_int_(s, 3, p->side);
		kifu_db_bind_text_(s, 4, moves + i * KIFU_MOVE_TEXT_MAX, -1);
		kifu_db_bind_text_(s, 5, best + i * KIFU_MOVE_TEXT_MAX, -1);
		kifu_db_bind_double_(s, 6, p->expected);
		kifu_db_bind_double_(s, 7, p->best_score);
		kifu_db_bind_double_(s, 8, p->played_score);
		kifu_db_bind_double_(s, 9, p->loss);
		if (mark)
			kifu_db_bind_text_static_(s, 10, mark, -1);
		else
			kifu_db_bind_null_(s, 10);
		if (kifu_db_step_(s) < 0)
			ret = kifu_db_fail_(st, "cannot store the analysis", err);
		kifu_db_reset_(s);
	}
out:
	kifu_db_finalize_(s);
	if (ret == 0)
		ret = kifu_store_commit(st, err);
	else
		kifu_store_rollback(st);
	return ret;
}

/*
 * The review read back: the run with the most playouts, the last stored
 * among equals (the one kifu-stats players reads), its plies in order.
 */
static const char *const select_review =
	"SELECT r.playouts, r.seed, r.engine, p.ply, p.side_index, p.best, p.expected, p.best_score, "
	"p.played_score, p.loss, p.mark, r.plies FROM analysis_plies p JOIN analysis_runs r "
	"ON r.id = p.run_id WHERE p.run_id = " KIFU_DB_REVIEW_RUN_("?1") " ORDER BY p.ply";

int kifu_analyse_load(struct kifu_analyse_stored *out, struct kifu_store *st, int64_t game_id,
		      size_t nplies, struct kifu_error *err)
{
	static const char *const score_names[] = { "expected", "best_score", "played_score", "loss" };
	struct kifu_stmt *s = NULL;
	size_t n = 0;
	int ret, rc, found = 0, k;

	memset(out, 0, sizeof(*out));
	ret = kifu_db_has_(&found, st, "analysis_runs", err);
	if (ret < 0 || !found || nplies == 0)
		return ret;
	out->plies = calloc(nplies, sizeof(*out->plies));
	out->best = calloc(nplies, KIFU_MOVE_TEXT_MAX);
	if (!out->plies || !out->best) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	ret = kifu_db_prepare_(&s, st, select_review, err);
	if (ret < 0)
		goto out;
	kifu_db_bind_int64_(s, 1, game_id);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		struct kifu_ply_review *p;
		const char *engine, *mark = kifu_db_column_text_(s, 10), *best = kifu_db_column_text_(s, 5);

		/* A review of other plies than the game's (it cannot be, but a database is input). */
		if (n == nplies || kifu_db_column_int64_(s, 3) != (int64_t)n + 1) {
			n = 0;
			break;
		}
		/*
		 * The run as kifu-analyse --store writes it: its playouts a
		 * --playouts, its plies a game's length (a review of another
		 * length than nplies is none, as below).
		 */
		if (n == 0) {
			long long v;

			ret = kifu_db_column_whole_(&v, s, 0, 1, KIFU_PLAYER_MAX_PLAYOUTS, err,
						    "analysis_runs.playouts of game %lld",
						    (long long)game_id);
			out->playouts = (long)v;
			if (ret == 0)
				ret = kifu_db_column_whole_(&v, s, 11, 1, KIFU_DB_PLIES_MAX, err,
							    "analysis_runs.plies of game %lld",
							    (long long)game_id);
			if (ret < 0)
				break;
			if (v != (long long)nplies)
				break;
		}
		out->seed = (uint64_t)kifu_db_column_int64_(s, 1);
		engine = kifu_db_column_text_(s, 2);
		snprintf(out->engine, sizeof(out->engine), "%s", engine ? engine : "");
		p = &out->plies[n];
		p->ply = n + 1;
		p->side = kifu_db_column_int_(s, 4);
		snprintf(out->best + n * KIFU_MOVE_TEXT_MAX, KIFU_MOVE_TEXT_MAX, "%s", best ? best : "");
		/* expected scores and their differences: from 0 to 1 */
		for (k = 0; k < 4 && ret == 0; k++)
			ret = kifu_db_column_real_(k == 0 ? &p->expected : k == 1 ? &p->best_score
						   : k == 2 ? &p->played_score : &p->loss,
						   s, 6 + k, 0, 1, err, "analysis_plies.%s of game %lld, "
						   "ply %zu", score_names[k], (long long)game_id, n + 1);
		if (ret < 0)
			break;
		p->mark = !mark ? KIFU_REVIEW_NONE : !strcmp(mark, "??") ? KIFU_REVIEW_BLUNDER
			: !strcmp(mark, "?") ? KIFU_REVIEW_MISTAKE : KIFU_REVIEW_DUBIOUS;
		n++;
	}
	if (ret < 0)
		out->n = 0;
	else if (rc < 0)
		ret = kifu_db_fail_(st, "cannot read the analysis", err);
	else if (n == nplies)
		out->n = n;
	if (out->n) {
		snprintf(out->caption, sizeof(out->caption), "%s, seed %llu", out->engine,
			 (unsigned long long)out->seed);
		out->view.plies = out->plies;
		out->view.best = out->best;
		out->view.engine = out->caption;
		out->view.spec = out->engine;
		out->view.playouts = out->playouts;
		out->view.seed = out->seed;
	}
out:
	kifu_db_finalize_(s);
	if (ret < 0 || out->n == 0)
		kifu_analyse_stored_release(out);
	return ret;
}

void kifu_analyse_stored_release(struct kifu_analyse_stored *r)
{
	free(r->plies);
	free(r->best);
	memset(r, 0, sizeof(*r));
}
