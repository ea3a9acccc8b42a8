/*
 * The PostgreSQL backend's loading of games (pg.c is the rest of the
 * backend, pg_impl.h what the two share): games a caller writes back to
 * back grouped into one transaction (batch_join) that holds the games'
 * lock exclusively, and the rows of a transaction's games (its game_moves
 * and game_canon rows, their positions_canon and positions_hash entries)
 * kept as COPY rows (pg_copy.c) and sent with one COPY a table at its
 * commit, or before a statement that could read them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "store/backends/pg_copy.h"
#include "store/backends/pg_impl.h"
#include "store/store_impl.h"

/*
 * Games grouped into one transaction of the caller's batch: at most this
 * many, for at most this long (others wait for the group's lock that
 * long at most), and only while the caller writes them back to back (a
 * game that comes later than GROUP_GAP_MS after the one before is its
 * own transaction, so that a slow caller, kifu-play thinking, never holds
 * the lock between two games).
 */
#define GROUP_GAMES 2000
#define GROUP_MS 500.0
#define GROUP_GAP_MS 20.0

const struct stage kifu_pg_stages_[] = {
	{ "INSERT INTO game_moves(game_id, moves, hashes, notes) "
	  "VALUES (?1, ?2::jsonb, ?3::jsonb, ?4::jsonb)",
	  "COPY game_moves(game_id, moves, hashes, notes) FROM STDIN (FORMAT binary)", "ijjj", 0, NULL, NULL },
	{ "INSERT INTO game_canon(game_id, canon) VALUES (?1, ?2::jsonb)",
	  "COPY game_canon(game_id, canon) FROM STDIN (FORMAT binary)", "ij", 1, NULL, NULL },
	{ "INSERT INTO game_cells(game_id, cells) VALUES (?1, ?2)",
	  "COPY game_cells(game_id, cells) FROM STDIN (FORMAT binary)", "ib", 0, NULL, NULL },
	{ "INSERT INTO game_lines(game_id, lines) VALUES (?1, ?2)",
	  "COPY game_lines(game_id, lines) FROM STDIN (FORMAT binary)", "it", 0, NULL, NULL },
	/* The listing row: the game's own columns, read from its row once all are in. */
	{ "INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, "
	  "players) SELECT id, game, variant, date, date_first, result, plies, ?2 FROM games "
	  "WHERE id = ?1",
	  "COPY kifu_listing_stage(id, players) FROM STDIN (FORMAT binary)", "it", 0,
	  "CREATE TEMPORARY TABLE IF NOT EXISTS kifu_listing_stage (id BIGINT NOT NULL, "
	  "players TEXT COLLATE \"C\" NOT NULL) ON COMMIT DELETE ROWS",
	  "WITH t AS (DELETE FROM kifu_listing_stage RETURNING id, players) "
	  "INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, players) "
	  "SELECT g.id, g.game, g.variant, g.date, g.date_first, g.result, g.plies, t.players "
	  "FROM t JOIN games g ON g.id = t.id" },
	/*
	 * The tree counts (schema 8 on): summed by key first (an upsert may
	 * not meet one row twice), the earlier first and the later last date
	 * kept, as store_symm_sets.c's upsert does row by row.
	 */
	{ KIFU_TREE_UPSERT_DATED_,
	  "COPY kifu_tree_stage FROM STDIN (FORMAT binary)", "ttiitiiiiiiiitt", 0,
	  "CREATE TEMPORARY TABLE IF NOT EXISTS kifu_tree_stage (game TEXT COLLATE \"C\", "
	  "variant TEXT COLLATE \"C\", sym BIGINT, hash BIGINT, move TEXT COLLATE \"C\", "
	  "games BIGINT, w0 BIGINT, w1 BIGINT, w2 BIGINT, w3 BIGINT, draws BIGINT, "
	  "unfinished BIGINT, plies BIGINT, first_seen TEXT COLLATE \"C\", "
	  "last_seen TEXT COLLATE \"C\") ON COMMIT DELETE ROWS",
	  "WITH t AS (DELETE FROM kifu_tree_stage RETURNING *) "
	  "INSERT INTO tree_moves(game, variant, \"symmetric\", hash, move, games, w0, w1, w2, w3, "
	  "draws, unfinished, plies, first_seen, last_seen) SELECT game, variant, sym::integer, "
	  "hash, move, sum(games), sum(w0), sum(w1), sum(w2), sum(w3), sum(draws), "
	  "sum(unfinished), sum(plies), min(first_seen), max(last_seen) FROM t "
	  "GROUP BY game, variant, sym, hash, move ORDER BY sym, hash, game, variant, move "
	  KIFU_TREE_UPSERT_ ", "
	  KIFU_TREE_UPSERT_DATES_ },
};

_Static_assert(sizeof(kifu_pg_stages_) / sizeof(kifu_pg_stages_[0]) == NSTAGES,
	       "NSTAGES (pg_impl.h) is the number of kifu_pg_stages_");

double kifu_pg_now_ms_(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- Games grouped per transaction ---- */

/*
 * Where the next game of the caller's batch goes (store_impl.h): games the
 * caller writes back to back share one transaction, which holds the
 * games' lock exclusively (LOCK_MERGE, which a game's own transaction
 * takes too) and the writers' lock shared: no other writer has a game
 * uncommitted meanwhile, so no insert waits on another's and no deadlock
 * can abort the group (it could not be run again: its records are gone).
 * One commit, and one disk flush, per group rather than per game.
 */
int kifu_pg_batch_join_(struct kifu_store *st, struct kifu_error *err)
{
	struct pg_conn *c = CONN(st);
	double t = kifu_pg_now_ms_(), gap = t - c->last_io;
	int ret;

	/* Writes in flight (pipeline mode) leave the transaction ACTIVE. */
	if (PQtransactionStatus(c->pg) == PQTRANS_IDLE)
		c->grouped = 0;
	if (!c->grouped && gap > GROUP_GAP_MS)
		return KIFU_JOIN_OWN;
	if (c->grouped && (gap > GROUP_GAP_MS || c->group_games >= GROUP_GAMES ||
			   t - c->group_started >= GROUP_MS))
		return gap > GROUP_GAP_MS ? KIFU_JOIN_OWN : KIFU_JOIN_FRESH;
	if (!c->grouped) {
		ret = kifu_db_exec_(st, "SELECT pg_advisory_xact_lock(" LOCK_MERGE "), "
				       "pg_advisory_xact_lock_shared(" LOCK_WRITERS ")");
		if (ret < 0)
			return kifu_db_fail_(st, "cannot start a transaction", err);
		c->grouped = 1;
		c->group_games = 0;
		c->group_started = kifu_pg_now_ms_();
		/* Under the lock: the ids of the group's new games and players taken here. */
		ret = kifu_pg_ids_group_(c);
		if (ret < 0)
			return kifu_db_fail_(st, "cannot start a transaction", err);
	}
	c->group_games++;
	return KIFU_JOIN_BATCH;
}

/* ---- Rows sent by COPY ---- */

/* Whether SQL may read what kifu_pg_stages_[] write (or its views: moves, positions). */
int kifu_pg_reads_staged_(const char *sql)
{
	return strstr(sql, "moves") || strstr(sql, "canon") || strstr(sql, "positions") ||
	       strstr(sql, "game_data") || strstr(sql, "cells") || strstr(sql, "lines") ||
	       strstr(sql, "listing") || strstr(sql, "COMMIT");
}

/* Runs sql (no rows, no parameters): 0 or the failure kept. */
static int exec_plain(struct pg_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->pg, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = kifu_pg_result_fail_(c, res);
	PQclear(res);
	return ret;
}

static int copy_send(struct pg_conn *c, const char *sql, struct kifu_pg_copy_ *w)
{
	PGresult *res;
	int ret = 0;

	if (!w->rows)
		return 0;
	res = kifu_pg_copy_send_(c->pg, sql, w);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = kifu_pg_result_fail_(c, res);
	PQclear(res);
	kifu_pg_copy_clear_(w);
	return ret;
}

/* The entries of p, sorted, with one COPY; p left empty. */
static int postings_send(struct pg_conn *c, const char *sql, struct kifu_pg_postings_ *p)
{
	struct kifu_pg_copy_ w = KIFU_PG_COPY_INIT;
	int ret;

	if (!p->n)
		return 0;
	if (kifu_pg_postings_rows_(&w, p) < 0)
		ret = kifu_pg_nomem_(c);
	else
		ret = copy_send(c, sql, &w);
	kifu_pg_copy_release_(&w);
	return ret;
}

void kifu_pg_staged_clear_(struct pg_conn *c)
{
	int i;

	for (i = 0; i < NSTAGES; i++)
		kifu_pg_copy_clear_(&c->staged[i]);
	c->canon.n = 0;
	c->nstaged = 0;
}

/* Sends the rows of kifu_pg_stages_[] (in their order: game_moves before what reads it). */
int kifu_pg_staged_send_(struct pg_conn *c)
{
	int i, ret;

	if (!c->nstaged)
		return 0;
	ret = kifu_pg_drain_(c);
	for (i = 0; i < NSTAGES && ret == 0; i++) {
		const struct stage *sg = &kifu_pg_stages_[i];

		if (!c->staged[i].rows)
			continue;
		if (sg->create)
			ret = exec_plain(c, sg->create);
		if (ret == 0)
			ret = copy_send(c, sg->copy, &c->staged[i]);
		if (ret == 0 && sg->then)
			ret = exec_plain(c, sg->then);
	}
	if (ret == 0)
		ret = postings_send(c, "COPY positions_canon(hash, game_id, ply) FROM STDIN "
				       "(FORMAT binary)", &c->canon);
	kifu_pg_staged_clear_(c);
	return ret;
}

/* Runs staged statement s: a row for its COPY (and a game_canon row's index entries). */
int kifu_pg_staged_add_(struct pg_conn *c, struct pg_stmt *s)
{
	const struct stage *sg = &kifu_pg_stages_[s->stage - 1];
	struct kifu_pg_copy_ *w = &c->staged[s->stage - 1];
	const char *values[16];
	int lengths[16], i, n = (int)strlen(sg->types);
	size_t nh;

	for (i = 0; i < n && i < s->nparams; i++) {
		values[i] = s->params[i].value;
		lengths[i] = s->params[i].len;
	}
	for (; i < n; i++)
		values[i] = NULL;
	kifu_pg_copy_params_(w, sg->types, values, lengths);
	/* Canonical hashes that do not read as numbers are left to "canon_index". */
	if (sg->canon && values[0] && values[1] &&
	    kifu_pg_json_ints_(&c->scratch, &nh, values[1], (size_t)lengths[1]) == 0 &&
	    kifu_pg_postings_add_(&c->canon, strtoll(values[0], NULL, 10), c->scratch.h, nh,
				  &c->scratch) < 0)
		return kifu_pg_nomem_(c);
	if (w->buf.failed)
		return kifu_pg_nomem_(c);
	c->nstaged++;
	c->changes = 1;
	return 0;
}

/* ---- The position index ---- */

/*
 * A game's entries: each hash once, with the first ply that reached it,
 * kept until the transaction commits (posidx_commit), when the
 * transaction's games go in with one COPY, sorted by hash. The game is new (its row
 * was just inserted, under the games' lock) and each hash comes once: no
 * entry can be there already.
 */
int kifu_pg_posidx_queue_(struct kifu_store *st, int64_t id, const struct kifu_replay *rp,
			  struct kifu_error *err)
{
	struct pg_conn *c = CONN(st);

	if (kifu_pg_postings_add_(&c->posidx, id, rp->hashes, rp->nplies + 1, &c->scratch) < 0) {
		c->posidx.n = 0;
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	}
	return 0;
}

/* At the commit: the staged rows, then the position index. */
int kifu_pg_posidx_commit_(struct kifu_store *st, struct kifu_error *err)
{
	struct pg_conn *c = CONN(st);
	int ret = kifu_pg_staged_send_(c);

	if (ret == 0 && c->posidx.n) {
		ret = kifu_pg_drain_(c);
		if (ret == 0)
			ret = postings_send(c, "COPY positions_hash(hash, game_id, ply) FROM STDIN "
					       "(FORMAT binary)", &c->posidx);
	}
	c->posidx.n = 0;
	return ret < 0 ? kifu_db_fail_(st, "cannot store the games' rows", err) : 0;
}

int kifu_pg_posidx_nothing_(struct kifu_store *st, struct kifu_error *err)
{
	(void)st;
	(void)err;
	return 0;
}

void kifu_pg_posidx_forget_(struct kifu_store *st)
{
	if (CONN(st)) {
		CONN(st)->posidx.n = 0;
		kifu_pg_staged_clear_(CONN(st));
	}
}
