/*
 * kifu-analyse --store: an engine review kept in the game database (schema
 * 6, analysis_runs and analysis_plies; schema/README.md). A run is one
 * game reviewed with one set of engine settings (engine, playouts, seed);
 * storing the same game with the same settings again replaces that run,
 * in one transaction, so a review is never half old and half new. All SQL
 * goes through the statement layer (kifu/db.h) and is the same on every
 * backend.
 */
#include <stdint.h>
#include <string.h>

#include "kifu/analyse.h"
#include <sqlite3.h>

#include "kifu/game.h"
#include "kifu/store.h"
#include "store_impl.h"

/* The engine every run names: the MCTS player of kifu-play (kifu/player.h). */
#define ENGINE "mcts"

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

/* Binds the run's key (game, engine, playouts, seed) to ?1..?4 of s. */
static void bind_key(sqlite3_stmt *s, int64_t game_id, const struct kifu_analyse_opts *o)
{
	sqlite3_bind_int64(s, 1, game_id);
	sqlite3_bind_text(s, 2, ENGINE, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, o->playouts > 0 ? o->playouts : KIFU_ANALYSE_PLAYOUTS);
	/* the 64 bits read as signed, as the hashes are */
	sqlite3_bind_int64(s, 4, (int64_t)o->seed);
}

/* Runs sql once with the run's key bound; 0 or the store's error in err. */
static int run_keyed(struct kifu_store *st, const char *sql, int64_t game_id,
		     const struct kifu_analyse_opts *o, const char *what, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	int ret = (sqlite3_prepare_v2(kifu_store_db(st), sql, -1, &s, NULL) == SQLITE_OK ? 0 : kifu_store_fail_(st, "cannot prepare", err));

	if (ret == 0) {
		bind_key(s, game_id, o);
		if (sqlite3_step(s) != SQLITE_DONE)
			ret = kifu_store_fail_(st, what, err);
	}
	sqlite3_finalize(s);
	return ret;
}

int kifu_analyse_store(struct kifu_store *st, int64_t game_id, const struct kifu_ply_review *rv,
		       size_t n, const char *moves, const char *best,
		       const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	int64_t run = 0;
	size_t i;
	int ret, rc;

	ret = kifu_store_begin(st, err);
	if (ret < 0)
		return ret;
	ret = run_keyed(st, delete_plies, game_id, o, "cannot replace an analysis", err);
	if (ret == 0)
		ret = run_keyed(st, delete_run, game_id, o, "cannot replace an analysis", err);
	if (ret == 0)
		ret = (sqlite3_prepare_v2(kifu_store_db(st), insert_run, -1, &s, NULL) == SQLITE_OK ? 0 : kifu_store_fail_(st, "cannot prepare", err));
	if (ret < 0)
		goto out;
	bind_key(s, game_id, o);
	sqlite3_bind_int64(s, 5, (int64_t)n);
	if (sqlite3_step(s) != SQLITE_DONE) {
		/* a game id that is not stored breaks the foreign key */
		ret = kifu_store_fail_(st, "cannot store the analysis", err);
		goto out;
	}
	sqlite3_finalize(s);
	s = NULL;
	/* the run's id, found by its key: portable, unlike last-insert-id calls */
	ret = (sqlite3_prepare_v2(kifu_store_db(st), select_run, -1, &s, NULL) == SQLITE_OK ? 0 : kifu_store_fail_(st, "cannot prepare", err));
	if (ret < 0)
		goto out;
	bind_key(s, game_id, o);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		ret = kifu_store_fail_(st, "cannot store the analysis", err);
		goto out;
	}
	run = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	s = NULL;
	ret = (sqlite3_prepare_v2(kifu_store_db(st), insert_ply, -1, &s, NULL) == SQLITE_OK ? 0 : kifu_store_fail_(st, "cannot prepare", err));
	for (i = 0; ret == 0 && i < n; i++) {
		const struct kifu_ply_review *p = &rv[i];
		const char *mark = kifu_analyse_mark_text(p->mark);

		sqlite3_bind_int64(s, 1, run);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)p->ply);
		sqlite3_bind_int(s, 3, p->side);
		sqlite3_bind_text(s, 4, moves + i * KIFU_MOVE_TEXT_MAX, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 5, best + i * KIFU_MOVE_TEXT_MAX, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(s, 6, p->expected);
		sqlite3_bind_double(s, 7, p->best_score);
		sqlite3_bind_double(s, 8, p->played_score);
		sqlite3_bind_double(s, 9, p->loss);
		if (mark)
			sqlite3_bind_text(s, 10, mark, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(s, 10);
		if (sqlite3_step(s) != SQLITE_DONE)
			ret = kifu_store_fail_(st, "cannot store the analysis", err);
		sqlite3_reset(s);
	}
out:
	sqlite3_finalize(s);
	if (ret == 0)
		ret = kifu_store_commit(st, err);
	else
		kifu_store_rollback(st);
	return ret;
}
