/*
 * The store's transactions (include/kifu/store.h): their kinds (a writer's
 * batch, a refresh of the statistics, a report's snapshot, one game's),
 * each begun and ended with the backend's own SQL, and the writes that
 * run in a transaction of their own and again when the backend says a
 * retry may succeed (PostgreSQL's serialization failures and deadlocks):
 * see schema/README.md, "PostgreSQL", for why each game is one there.
 */
#include <stdint.h>
#include <time.h>

#include "store/store_impl.h"
#include "util/hash.h"

int kifu_store_begin_tx(struct kifu_store *st, int kind, struct kifu_error *err)
{
	static const char *const names[] = { "begin", "begin_refresh", "begin_read", "begin_game" };
	const char *sql;
	int ret;

	if (st->in_tx) {
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_ERROR, "database '%s': a transaction is already open",
				      st->path);
	}
	if (kind < KIFU_TX_WRITE || kind > KIFU_TX_GAME)
		kind = KIFU_TX_WRITE;
	st->tx_kind = kind;
	/*
	 * A batch of a game_tx backend begins with its first statement, if
	 * any: most hold games only, each in a transaction of its own.
	 */
	if (kind == KIFU_TX_WRITE && st->be->game_tx) {
		st->in_tx = 1;
		st->tx_pending = 1;
		return 0;
	}
	/* A backend without its own kind of transaction begins a writer's. */
	sql = kifu_db_sql_(st, names[kind]);
	if (!sql)
		sql = kifu_db_sql_(st, "begin");
	ret = kifu_store_exec_(st, sql, "cannot start a transaction", err);
	if (ret < 0) {
		/* BEGIN may have run, and what followed it (a lock) not. */
		if (st->be->in_transaction(st))
			kifu_db_exec_(st, kifu_db_sql_(st, "rollback"));
		return ret;
	}
	st->in_tx = 1;
	return 0;
}

int kifu_store_begin(struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_begin_tx(st, KIFU_TX_WRITE, err);
}

int kifu_store_tx_kind(const struct kifu_store *st)
{
	return st->in_tx ? st->tx_kind : -1;
}

/*
 * Commits; batch: the end of a caller's batch, which a backend may end its
 * own way ("commit_batch": PostgreSQL waits for the disk there only).
 */
static int tx_commit(struct kifu_store *st, int batch, struct kifu_error *err)
{
	const char *sql = batch ? kifu_db_sql_(st, "commit_batch") : NULL;
	const struct kifu_store_derived_ *const *d;
	int ret;

	if (!st->in_tx)
		return 0;
	if (st->tx_pending) {
		/* Nothing was written in it; the end of a batch still waits for the disk. */
		if (!batch || !sql) {
			st->tx_pending = 0;
			st->in_tx = 0;
			st->writes_committed += st->writes_open;
			st->writes_open = 0;
			return 0;
		}
		if (kifu_db_begin_pending_(st) < 0)
			return kifu_store_fail_(st, "cannot commit", err);
	}
	ret = st->be->posidx_commit(st, err);
	for (d = kifu_store_derived_; *d && ret == 0; d++)
		if ((*d)->commit)
			ret = (*d)->commit(st, err);
	if (ret == 0)
		ret = kifu_store_exec_(st, sql ? sql : kifu_db_sql_(st, "commit"), "cannot commit", err);
	if (ret == 0) {
		st->in_tx = 0;
		st->writes_committed += st->writes_open;
		st->writes_open = 0;
	}
	return ret;
}

int kifu_store_commit(struct kifu_store *st, struct kifu_error *err)
{
	return tx_commit(st, st->tx_kind == KIFU_TX_WRITE, err);
}

void kifu_store_rollback(struct kifu_store *st)
{
	const struct kifu_store_derived_ *const *d;

	/* Ids cached during the transaction may be gone with it. */
	kifu_store_players_clear_(st);
	st->be->posidx_rollback(st);
	for (d = kifu_store_derived_; *d; d++)
		if ((*d)->rollback)
			(*d)->rollback(st);
	st->tx_pending = 0;
	st->writes_open = 0;
	if (st->conn && st->be->in_transaction(st))
		kifu_db_exec_(st, kifu_db_sql_(st, "rollback"));
	st->in_tx = 0;
}

long long kifu_store_writes_committed(const struct kifu_store *st)
{
	return st->writes_committed;
}

int kifu_store_in_transaction(const struct kifu_store *st)
{
	return st->in_tx;
}

/*
 * Wraps a write in a transaction of its own when the caller has none open;
 * *own = 1 then. A backend with game_tx also ends the caller's writer
 * transaction here (*own = 2): the write gets its own, which can be run
 * again, and the caller's goes on after it (own_end).
 */
int kifu_store_own_begin_(int *own, struct kifu_store *st, struct kifu_error *err)
{
	int ret;

	if (st->be->game_tx && (!st->in_tx || st->tx_kind == KIFU_TX_WRITE)) {
		int join = st->in_tx && st->be->batch_join ? st->be->batch_join(st, err) : KIFU_JOIN_OWN;

		if (join == KIFU_JOIN_FRESH) {
			/* The batch so far is committed (durably: it may be long), and the write begins the next. */
			ret = tx_commit(st, 1, err);
			if (ret < 0)
				return ret;
			ret = kifu_store_begin(st, err);
			join = ret < 0 ? ret : st->be->batch_join(st, err);
		}
		if (join < 0)
			return join;
		if (join == KIFU_JOIN_BATCH) {
			*own = 0;
			return 0;
		}
		*own = st->in_tx ? 2 : 1;
		ret = *own == 2 ? tx_commit(st, 0, err) : 0;
		return ret < 0 ? ret : kifu_store_begin_tx(st, KIFU_TX_GAME, err);
	}
	*own = !st->in_tx;
	return *own ? kifu_store_begin(st, err) : 0;
}

/* Ends what own_begin started; returns ret, or the commit's error. */
int kifu_store_own_end_(int own, int ret, struct kifu_store *st, struct kifu_error *err)
{
	int c = 0;

	if (!own)
		return ret;
	if (ret < 0) {
		kifu_store_rollback(st);
	} else {
		/* A write on its own ends as a batch would (durably); one of a batch, with it. */
		c = tx_commit(st, own == 1, err);
		if (c < 0)
			kifu_store_rollback(st);
	}
	if (ret >= 0 && c < 0)
		ret = c;
	/* The caller's transaction goes on (its error, if any, is the one to report). */
	if (own == 2 && kifu_store_begin(st, ret < 0 ? NULL : err) < 0 && ret >= 0)
		ret = err ? err->code : KIFU_EDB;
	return ret;
}

/* Tries a write this many times when the backend says running it again may succeed. */
#define WRITE_ATTEMPTS 1000

/* A pause before trying again, growing with the attempts, random so that writers drift apart. */
static void retry_pause(unsigned attempt)
{
	static uint64_t state;
	struct timespec ts;
	long ms;

	/* splitmix64 steps, seeded by the time and the stack's place. */
	if (!state)
		state = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&ts;
	state = kifu_hash_mix64_(state + KIFU_HASH_GOLDEN);
	ms = 1 + (long)(state % (uint64_t)(attempt < 20 ? 5 * (attempt + 1) : 100));
	ts.tv_sec = 0;
	ts.tv_nsec = ms * 1000000L;
	nanosleep(&ts, NULL);
}

/*
 * Ends the savepoint of a write inside a caller's batch: released when the
 * write succeeded (the write read the answers to the rows it sent without
 * waiting, on PostgreSQL; the release is sent without waiting too, and
 * answered with the next statement);
 * rolled back to when it failed on its values (kifu_db_record_error_), so
 * that the batch goes on without it (KIFU_EINVALID, err saying why).
 */
static int savepoint_end(struct kifu_store *st, int ret, struct kifu_error *err)
{
	if (ret >= 0) {
		if (kifu_db_exec_nowait_(st, "RELEASE SAVEPOINT kifu_write", 0) == 0)
			return ret;
		ret = kifu_store_fail_(st, "cannot store a game", err);
	}
	if (ret != KIFU_EINVALID && !kifu_db_record_error_(st))
		return ret;
	/* Too late: rows kept in memory for the commit would outlive the write. */
	if (st->write_kept)
		return ret == KIFU_EINVALID ? KIFU_EDB : ret;
	if (kifu_db_exec_(st, "ROLLBACK TO SAVEPOINT kifu_write") < 0 ||
	    kifu_db_exec_(st, "RELEASE SAVEPOINT kifu_write") < 0)
		return ret == KIFU_EINVALID ? KIFU_EDB : ret;
	/* Ids cached by the write may be gone with it. */
	kifu_store_players_clear_(st);
	if (err)
		err->code = KIFU_EINVALID;
	return KIFU_EINVALID;
}

/*
 * Runs fn(st, arg, err) in a transaction of its own (own_begin), again
 * after a failure the backend calls retryable (PostgreSQL's serialization
 * failures and deadlocks: nothing of the attempt stays). Inside a caller's
 * batch, under a savepoint. A write that fails on its values (too long for
 * an index, say) leaves nothing, and the caller's batch goes on: it
 * returns KIFU_EINVALID then.
 */
int kifu_store_run_write_(struct kifu_store *st,
			  int (*fn)(struct kifu_store *, void *, struct kifu_error *), void *arg,
			  struct kifu_error *err)
{
	unsigned attempt;
	int own, ret, again, sp, invalid;

	for (attempt = 1;; attempt++) {
		ret = kifu_store_own_begin_(&own, st, err);
		if (ret < 0)
			return ret;
		sp = !own && st->in_tx;
		st->write_kept = 0;
		if (sp && kifu_db_exec_nowait_(st, "SAVEPOINT kifu_write", 0) < 0)
			return kifu_store_fail_(st, "cannot start a write", err);
		ret = fn(st, arg, err);
		if (sp)
			ret = savepoint_end(st, ret, err);
		/* Committed with the transaction it is in (its own, or the batch's), lost with it. */
		if (ret >= 0)
			st->writes_open++;
		again = ret < 0 && own && kifu_db_retryable_(st);
		invalid = ret == KIFU_EINVALID || (ret < 0 && own && kifu_db_record_error_(st));
		ret = kifu_store_own_end_(own, ret, st, err);
		/* Rolled back alone: the record's values failed, not the database. */
		if (ret < 0 && invalid && !(own == 2 && !st->in_tx)) {
			if (err)
				err->code = KIFU_EINVALID;
			return KIFU_EINVALID;
		}
		if (ret >= 0 || !(again || (own && kifu_db_retryable_(st))) || attempt >= WRITE_ATTEMPTS)
			return ret;
		kifu_error_clear(err);
		retry_pause(attempt);
	}
}

