/*
 * The position index of the store (schema 4's table positions_hash: each
 * game once per position it reached, with the first ply). Written row by
 * row it would cost a random B-tree write per position, most of an
 * import's time; so its entries wait in memory and are written sorted:
 * at each commit in the ordinary mode, and once at the end of a bulk load,
 * where they are spooled to a temporary file in sorted runs (memory stays
 * flat) and merged into the table, which meanwhile waits under another
 * name. When the spool cannot be trusted to hold every game added since
 * the table was set aside (a crash, another writer, a full temporary
 * disk), the missing entries are taken again from game_moves instead,
 * with one sort by SQLite: slower, never wrong.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

/* Entries held in memory in bulk mode before a sorted run goes to the spool (16 bytes each). */
#define SPOOL_ENTRIES (1u << 20)
/* Entries read from each run at a time while merging. */
#define MERGE_CHUNK 2048

/* The index's definition, as schema/004-packed.sql has it. */
#define CREATE_SQL                                                                     \
	"CREATE TABLE \"positions_hash\" (hash INTEGER NOT NULL, game_id INTEGER NOT NULL, " \
	"ply INTEGER NOT NULL, PRIMARY KEY (hash, game_id)) WITHOUT ROWID"

/*
 * Renames a table without rewriting the triggers that name it (the legacy
 * way): those of game_moves keep naming positions_hash, which exists again
 * whichever way the bulk load ends.
 */
#define RENAME(from, to)                                                          \
	"PRAGMA legacy_alter_table = ON; ALTER TABLE " from " RENAME TO " to ";" \
	"PRAGMA legacy_alter_table = OFF"

/* The name the index waits under during a bulk load. */
#define DEFERRED_NAME "positions_hash_deferred"

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

static int cmp_entry(const void *x, const void *y)
{
	const struct kifu_store_posidx_entry_ *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->game_ply > b->game_ply) - (a->game_ply < b->game_ply);
}

int kifu_store_posidx_queue_(struct kifu_store *st, int64_t id, const struct kifu_replay *rp,
			     struct kifu_error *err)
{
	size_t ply, need = st->npend + rp->nplies + 1;

	if (id <= 0 || id >= (INT64_C(1) << (62 - POSIDX_PLY_BITS)) ||
	    rp->nplies >= (1u << POSIDX_PLY_BITS)) {
		/* Out of the packed range: the slow path will index it. */
		st->spool_bad = 1;
		return 0;
	}
	if (need > st->cappend) {
		size_t cap = st->cappend ? st->cappend : 4096;
		struct kifu_store_posidx_entry_ *p;

		while (cap < need)
			cap *= 2;
		p = realloc(st->pend, cap * sizeof(*p));
		if (!p)
			return nomem(err);
		st->pend = p;
		st->cappend = cap;
	}
	for (ply = 0; ply <= rp->nplies; ply++)
		st->pend[st->npend++] = (struct kifu_store_posidx_entry_){
			(int64_t)rp->hashes[ply], id << POSIDX_PLY_BITS | (int64_t)ply
		};
	st->tx_games++;
	return 0;
}

/*
 * Sorts v[0..n) by hash as SQLite orders signed integers, keeping the
 * order of equal hashes: entries are queued by game and ply, so this is
 * the order of the index. An LSD radix sort, 16 bits a pass, through tmp
 * (n entries): a tenth of qsort's time on a million entries. Returns
 * KIFU_ENOMEM when tmp cannot be had.
 */
static int sort_entries(struct kifu_store_posidx_entry_ *v, size_t n)
{
	struct kifu_store_posidx_entry_ *tmp, *from = v, *to;
	size_t *count, i;
	int pass;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(65536 * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return KIFU_ENOMEM;
	}
	to = tmp;
	for (pass = 0; pass < 4; pass++) {
		int shift = 16 * pass;
		size_t sum = 0;

		memset(count, 0, 65536 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[((uint64_t)from[i].hash ^ (UINT64_C(1) << 63)) >> shift & 0xffff]++;
		for (i = 0; i < 65536; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[((uint64_t)from[i].hash ^ (UINT64_C(1) << 63)) >> shift & 0xffff]++] =
				from[i];
		from = to;
		to = to == tmp ? v : tmp;
	}
	/* Four passes: the result is back in v. */
	free(tmp);
	free(count);
	return 0;
}

/* Writes entries (sorted, the first of equal (hash, game) kept) into positions_hash. */
struct writer {
	struct kifu_store *st;
	struct kifu_stmt *multi, *one;
	struct kifu_store_posidx_entry_ batch[MULTI_ROWS];
	int n;
	struct kifu_store_posidx_entry_ last;
	int any;
};

static int writer_flush(struct writer *w, struct kifu_error *err)
{
	int r, ret = 0;

	if (w->n == MULTI_ROWS) {
		for (r = 0; r < MULTI_ROWS; r++) {
			kifu_db_bind_int64_(w->multi, 3 * r + 1, w->batch[r].hash);
			kifu_db_bind_int64_(w->multi, 3 * r + 2, w->batch[r].game_ply >> POSIDX_PLY_BITS);
			kifu_db_bind_int64_(w->multi, 3 * r + 3,
					   w->batch[r].game_ply & ((1 << POSIDX_PLY_BITS) - 1));
		}
		ret = kifu_store_step_(w->st, w->multi, "cannot index a position", err);
	} else {
		for (r = 0; r < w->n && ret == 0; r++) {
			kifu_db_bind_int64_(w->one, 1, w->batch[r].hash);
			kifu_db_bind_int64_(w->one, 2, w->batch[r].game_ply >> POSIDX_PLY_BITS);
			kifu_db_bind_int64_(w->one, 3, w->batch[r].game_ply & ((1 << POSIDX_PLY_BITS) - 1));
			ret = kifu_store_step_(w->st, w->one, "cannot index a position", err);
		}
	}
	w->n = 0;
	return ret;
}

static int writer_put(struct writer *w, const struct kifu_store_posidx_entry_ *e,
		      struct kifu_error *err)
{
	if (w->any && e->hash == w->last.hash &&
	    e->game_ply >> POSIDX_PLY_BITS == w->last.game_ply >> POSIDX_PLY_BITS)
		return 0;
	w->last = *e;
	w->any = 1;
	w->batch[w->n++] = *e;
	return w->n == MULTI_ROWS ? writer_flush(w, err) : 0;
}

static int writer_init(struct writer *w, struct kifu_store *st, struct kifu_error *err)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	w->multi = kifu_store_stmt_(st, ST_POSIDX_INSERT_N, err);
	w->one = w->multi ? kifu_store_stmt_(st, ST_POSIDX_INSERT, err) : NULL;
	return w->one ? 0 : err ? err->code : KIFU_EDB;
}

/* Writes pend[0..n) sorted into positions_hash. */
static int write_sorted(struct kifu_store *st, size_t n, struct kifu_error *err)
{
	struct writer w;
	size_t i;
	int ret;

	if (sort_entries(st->pend, n) < 0)
		return nomem(err);
	ret = writer_init(&w, st, err);
	for (i = 0; i < n && ret == 0; i++)
		ret = writer_put(&w, &st->pend[i], err);
	return ret == 0 ? writer_flush(&w, err) : ret;
}

/* Sorts pend[0..committed) into a run of the spool; on failure the spool is marked bad. */
static void spool_run(struct kifu_store *st)
{
	long long *runs;
	size_t n = st->committed;

	if (!st->spool_bad && !st->spool)
		st->spool = tmpfile();
	runs = st->spool_bad || !st->spool ? NULL
		: realloc(st->runs, (st->nruns + 1) * sizeof(*st->runs));
	if (runs)
		st->runs = runs;
	if (!runs) {
		st->spool_bad = 1;
	} else if (sort_entries(st->pend, n) < 0) {
		st->spool_bad = 1;
	} else {
		if (fwrite(st->pend, sizeof(*st->pend), n, st->spool) != n)
			st->spool_bad = 1;
		else
			st->runs[st->nruns++] = (long long)n;
	}
	memmove(st->pend, st->pend + n, (st->npend - n) * sizeof(*st->pend));
	st->npend -= n;
	st->committed = 0;
}

int kifu_store_posidx_commit_(struct kifu_store *st, struct kifu_error *err)
{
	int found, ret;

	if (st->bulk) {
		/* Kept until the end of the bulk load; a full buffer goes to the spool. */
		st->committed = st->npend;
		st->spooled_games += st->tx_games;
		st->tx_games = 0;
		if (st->committed >= (st->spool_max ? st->spool_max : SPOOL_ENTRIES))
			spool_run(st);
		return 0;
	}
	st->tx_games = 0;
	if (!st->npend)
		return 0;
	/* Set aside by a bulk load (of another run, maybe): it will index these games. */
	ret = kifu_db_has_(&found, st, "positions_hash", err);
	if (ret == 0 && found)
		ret = write_sorted(st, st->npend, err);
	st->npend = 0;
	return ret;
}

void kifu_store_posidx_rollback_(struct kifu_store *st)
{
	st->npend = st->bulk ? st->committed : 0;
	st->tx_games = 0;
}

static void spool_clear(struct kifu_store *st)
{
	if (st->spool)
		fclose(st->spool);
	st->spool = NULL;
	free(st->runs);
	st->runs = NULL;
	st->nruns = 0;
	st->npend = st->committed = 0;
	st->spooled_games = st->tx_games = 0;
	st->spool_bad = 0;
}

void kifu_store_posidx_release_(struct kifu_store *st)
{
	spool_clear(st);
	free(st->pend);
	st->pend = NULL;
	st->cappend = 0;
}

/*
 * Sets the index aside for a bulk load (inside its transaction): renamed,
 * so that nothing writes it row by row, with the last game id it covers.
 */
int kifu_store_posidx_defer_(struct kifu_store *st, struct kifu_error *err)
{
	int found, ret;

	spool_clear(st);
	ret = kifu_db_has_(&found, st, "positions_hash", err);
	if (ret < 0 || !found)
		return ret;
	ret = kifu_store_exec_(st,
			       "INSERT OR REPLACE INTO deferred_indexes(name, last_id) "
			       "SELECT 'positions_hash', ifnull(max(id), 0) FROM games",
			       "cannot defer the indexes", err);
	if (ret == 0)
		ret = kifu_store_exec_(st, "DROP TABLE IF EXISTS " DEFERRED_NAME,
				       "cannot defer the indexes", err);
	if (ret == 0)
		ret = kifu_store_exec_(st, RENAME("positions_hash", DEFERRED_NAME),
				       "cannot defer the indexes", err);
	return ret;
}

/* One sorted run of the spool being merged. */
struct cursor {
	struct kifu_store_posidx_entry_ buf[MERGE_CHUNK];
	size_t n, i;
	long long left;      /* entries of the run not yet read into buf */
	long offset;         /* where they are in the spool */
};

static int cursor_fill(struct cursor *c, FILE *f)
{
	size_t want = c->left < MERGE_CHUNK ? (size_t)c->left : MERGE_CHUNK;

	c->i = 0;
	c->n = 0;
	if (!want)
		return 0;
	if (fseek(f, c->offset, SEEK_SET) != 0 || fread(c->buf, sizeof(c->buf[0]), want, f) != want)
		return -1;
	c->n = want;
	c->left -= (long long)want;
	c->offset += (long)(want * sizeof(c->buf[0]));
	return 0;
}

/* Restores the heap order of heap[0..n) below at (by each run's head entry). */
static void heap_down(size_t *heap, size_t n, size_t at, const struct cursor *cur)
{
	for (;;) {
		size_t l = 2 * at + 1, m = at, t;

		if (l < n && cmp_entry(&cur[heap[l]].buf[cur[heap[l]].i],
				       &cur[heap[m]].buf[cur[heap[m]].i]) < 0)
			m = l;
		if (l + 1 < n && cmp_entry(&cur[heap[l + 1]].buf[cur[heap[l + 1]].i],
					   &cur[heap[m]].buf[cur[heap[m]].i]) < 0)
			m = l + 1;
		if (m == at)
			return;
		t = heap[at];
		heap[at] = heap[m];
		heap[m] = t;
		at = m;
	}
}

/* The next entry of the table set aside, in its order; 0 at its end. */
static int aside_next(struct kifu_store_posidx_entry_ *e, struct kifu_stmt *s, int *rc)
{
	if (!s || *rc != KIFU_DB_ROW)
		return 0;
	*rc = kifu_db_step_(s);
	if (*rc != KIFU_DB_ROW)
		return 0;
	e->hash = kifu_db_column_int64_(s, 0);
	e->game_ply = kifu_db_column_int64_(s, 1) << POSIDX_PLY_BITS | kifu_db_column_int64_(s, 2);
	return 1;
}

/*
 * Merges the spooled runs and the entries in memory into positions_hash,
 * together with the rows of aside (a statement reading the table set
 * aside in its order; NULL when the entries go into it in place). Into an
 * empty table every entry is an append, the cheapest write a B-tree has.
 */
static int merge_spool(struct kifu_store *st, struct kifu_stmt *aside, struct kifu_error *err)
{
	struct cursor *cur = NULL;
	struct kifu_store_posidx_entry_ old;
	struct writer w;
	size_t *heap = NULL, nheap = 0, k, i = 0, n = st->nruns;
	long offset = 0;
	int ret, rc = KIFU_DB_ROW, has_old;

	ret = writer_init(&w, st, err);
	if (ret < 0)
		return ret;
	has_old = aside_next(&old, aside, &rc);
	if (sort_entries(st->pend, st->committed) < 0)
		return nomem(err);
	if (n) {
		cur = calloc(n, sizeof(*cur));
		heap = calloc(n, sizeof(*heap));
		if (!cur || !heap) {
			free(cur);
			free(heap);
			return nomem(err);
		}
	}
	for (k = 0; k < n; k++) {
		cur[k].left = st->runs[k];
		cur[k].offset = offset;
		offset += (long)(st->runs[k] * (long long)sizeof(struct kifu_store_posidx_entry_));
		if (cursor_fill(&cur[k], st->spool) < 0)
			goto io_error;
	}
	/* The runs' heads in a heap; the entries in memory and the old ones are one stream each. */
	for (k = 0; k < n; k++)
		if (cur[k].n)
			heap[nheap++] = k;
	for (k = nheap / 2; k-- > 0;)
		heap_down(heap, nheap, k, cur);
	for (;;) {
		const struct kifu_store_posidx_entry_ *best =
			i < st->committed ? &st->pend[i] : NULL;
		int from_heap = 0;

		if (nheap && (!best || cmp_entry(&cur[heap[0]].buf[cur[heap[0]].i], best) < 0)) {
			best = &cur[heap[0]].buf[cur[heap[0]].i];
			from_heap = 1;
		}
		if (has_old && (!best || cmp_entry(&old, best) <= 0)) {
			ret = writer_put(&w, &old, err);
			if (ret < 0)
				goto out;
			has_old = aside_next(&old, aside, &rc);
			continue;
		}
		if (!best)
			break;
		ret = writer_put(&w, best, err);
		if (ret < 0)
			goto out;
		if (!from_heap) {
			i++;
			continue;
		}
		k = heap[0];
		if (++cur[k].i == cur[k].n) {
			if (cursor_fill(&cur[k], st->spool) < 0)
				goto io_error;
			if (!cur[k].n)
				heap[0] = heap[--nheap];
		}
		heap_down(heap, nheap, 0, cur);
	}
	ret = writer_flush(&w, err);
	if (ret == 0 && aside && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot rebuild the indexes", err);
	goto out;
io_error:
	kifu_error_at(err, st->path, 0, 0);
	ret = kifu_error_set(err, KIFU_EIO, "database '%s': cannot read back the position index "
				      "spooled to a temporary file", st->path);
out:
	free(cur);
	free(heap);
	return ret;
}

/*
 * Puts the index back after a bulk load (inside its transaction): the
 * table set aside, with the spooled entries merged in; entries of games
 * the spool does not hold (added since by a run that did not spool them)
 * are taken again from game_moves. With no table set aside (an interrupted
 * migration or bulk load of an older kifu), the whole index is rebuilt.
 */
int kifu_store_posidx_restore_(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	long long last_id = 0, later = 0;
	int wanted = 0, aside, ret;

	ret = kifu_db_prepare_(&s, st,
			      "SELECT ifnull(d.last_id, 0), (SELECT count(*) FROM games "
			      "WHERE id > ifnull(d.last_id, 0)) FROM deferred_indexes d "
			      "WHERE d.name = 'positions_hash'", err);
	if (ret < 0)
		goto out;
	if (kifu_db_step_(s) == KIFU_DB_ROW) {
		wanted = 1;
		last_id = kifu_db_column_int64_(s, 0);
		later = kifu_db_column_int64_(s, 1);
	}
	kifu_db_finalize_(s);
	s = NULL;
	ret = 0;
	if (!wanted)
		goto out;
	ret = kifu_db_has_(&aside, st, DEFERRED_NAME, err);
	if (ret < 0)
		goto out;
	if (aside && st->bulk && !st->spool_bad && later == st->spooled_games &&
	    last_id <= 4 * later) {
		/*
		 * The spool holds every game since: the index is written anew,
		 * the old entries and the spool merged, all appends.
		 */
		ret = kifu_store_exec_(st, "DROP TABLE IF EXISTS positions_hash;" CREATE_SQL,
				       "cannot rebuild the indexes", err);
		if (ret == 0)
			ret = kifu_db_prepare_(&s, st, "SELECT hash, game_id, ply FROM " DEFERRED_NAME
					      " ORDER BY hash, game_id", err);
		if (ret == 0)
			ret = merge_spool(st, s, err);
		kifu_db_finalize_(s);
		s = NULL;
		if (ret == 0)
			ret = kifu_store_exec_(st, "DROP TABLE " DEFERRED_NAME,
					       "cannot rebuild the indexes", err);
		goto out;
	}
	if (aside)
		ret = kifu_store_exec_(st, "DROP TABLE IF EXISTS positions_hash;"
				       RENAME(DEFERRED_NAME, "positions_hash"),
				       "cannot rebuild the indexes", err);
	if (ret == 0 && !aside) {
		last_id = 0;
		ret = kifu_store_exec_(st, "DROP TABLE IF EXISTS positions_hash;" CREATE_SQL,
				       "cannot rebuild the indexes", err);
	}
	if (ret < 0)
		goto out;
	if (aside && st->bulk && !st->spool_bad && later == st->spooled_games) {
		/* A large database: the new entries go into it in place, in order. */
		ret = merge_spool(st, NULL, err);
		goto out;
	}
	/* Schema 7: the hashes are a BLOB, exploded by kifu_hashes (backends/sqlite_fn.c). */
	ret = kifu_db_prepare_(&s, st, st->version >= 7
			      ? "INSERT OR IGNORE INTO positions_hash(hash, game_id, ply) "
				"SELECT j.value, m.game_id, j.key FROM game_data m, kifu_hashes(m.hashes) j "
				"WHERE m.game_id > ?1 ORDER BY 1, 2, 3"
			      : "INSERT OR IGNORE INTO positions_hash(hash, game_id, ply) "
				"SELECT j.value, m.game_id, j.key FROM game_moves m, json_each(m.hashes) j "
				"WHERE m.game_id > ?1 ORDER BY 1, 2, 3", err);
	if (ret < 0)
		goto out;
	kifu_db_bind_int64_(s, 1, last_id);
	ret = kifu_store_step_(st, s, "cannot rebuild the indexes", err);
out:
	kifu_db_finalize_(s);
	if (ret == 0)
		spool_clear(st);
	return ret;
}
