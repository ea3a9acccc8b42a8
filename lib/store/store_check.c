/*
 * The store's half of the integrity check (store_check.h, for
 * kifu_stats_check): one stored game at a time, its record loaded back
 * (moves, lines, headers) and replayed through its rules engine, then
 * everything the store keeps of it compared with that replay: the row's
 * plies and duplicate key, the stored hashes, and each position's entry in
 * the position index (and in the canonical index where a backend keeps
 * one as a table), read by the same SQL the searches read it with. Only
 * the statement layer and the store's own readers are used, so the check
 * holds on every backend and survives a change of layout: what it asks is
 * what the store answers, not how it keeps it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/pattern.h"
#include "store/store_check.h"
#include "store/store_impl.h"

/* A position of the game and the first ply reaching it. */
struct first {
	uint64_t hash;
	size_t ply;
};

struct kifu_store_check_ {
	struct kifu_store *st;
	kifu_store_check_fn_ fn;
	void *ctx;
	struct kifu_record *rec;
	struct kifu_replay rp;
	struct kifu_diags diags;
	int replayed;            /* rp is the last game's, replayed as stored */
	int incomplete;          /* some game did not replay: no totals */
	struct kifu_stmt *row, *hashes, *index, *canon, *cells;
	uint64_t *h;
	size_t nh, caph;
	struct first *f;
	size_t capf;
	long long positions, canon_positions;
	struct kifu_buf msg;
};

/* err's message without "database 'PATH' is damaged: ", to fn. */
static int found(struct kifu_store_check_ *ck, const char *check, int64_t id,
		 const struct kifu_error *why)
{
	const char *m = why->message, *cut = strstr(m, "' is damaged: ");

	if (!strncmp(m, "database '", 10) && cut)
		m = cut + strlen("' is damaged: ");
	return ck->fn(ck->ctx, check, id, m);
}

static int foundf(struct kifu_store_check_ *ck, const char *check, int64_t id, const char *fmt,
		  ...) __attribute__((format(printf, 4, 5)));
static int foundf(struct kifu_store_check_ *ck, const char *check, int64_t id, const char *fmt,
		  ...)
{
	struct kifu_error why;
	va_list ap;

	va_start(ap, fmt);
	kifu_error_setv(&why, KIFU_EDB, fmt, ap);
	va_end(ap);
	return found(ck, check, id, &why);
}

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

int kifu_store_check_open_(struct kifu_store_check_ **out, struct kifu_store *st,
			   kifu_store_check_fn_ fn, void *ctx, struct kifu_error *err)
{
	struct kifu_store_check_ *ck;
	struct kifu_buf sql = KIFU_BUF_INIT;
	int ret, have = 0;

	*out = NULL;
	ck = calloc(1, sizeof(*ck));
	if (!ck)
		return nomem(err);
	ck->st = st;
	ck->fn = fn;
	ck->ctx = ctx;
	ck->rp = (struct kifu_replay)KIFU_REPLAY_INIT;
	ret = kifu_db_prepare_(&ck->row, st, "SELECT plies, content_hash FROM games WHERE id = ?1",
			       err);
	if (ret == 0 && st->version >= 4) {
		kifu_buf_printf(&sql, "SELECT hashes, %s FROM %s WHERE game_id = ?1",
				st->version >= 7 ? "canon" : "NULL", kifu_db_game_data_(st));
		ret = sql.failed ? nomem(err) : kifu_db_prepare_(&ck->hashes, st, sql.data, err);
	}
	/* An index set aside by an interrupted bulk load is rebuilt by the next write. */
	if (ret == 0 && st->version >= 4)
		ret = kifu_db_has_(&have, st, "positions_hash", err);
	if (ret == 0 && have) {
		kifu_buf_reset(&sql);
		kifu_buf_puts(&sql, "SELECT h.ply FROM ");
		kifu_store_reach_sql_(&sql, st, 0, 1);
		kifu_buf_puts(&sql, " h WHERE h.hash = ?1 AND h.game_id = ?2");
		ret = sql.failed ? nomem(err) : kifu_db_prepare_(&ck->index, st, sql.data, err);
	}
	/* A canonical index of its own (else the plain one answers at every orientation). */
	if (ret == 0 && have && st->version >= 5 && kifu_store_canon_indexed_(st)) {
		kifu_buf_reset(&sql);
		kifu_buf_puts(&sql, "SELECT h.ply FROM ");
		kifu_store_reach_sql_(&sql, st, 1, 1);
		kifu_buf_puts(&sql, " h WHERE h.hash = ?1 AND h.game_id = ?2");
		ret = sql.failed ? nomem(err) : kifu_db_prepare_(&ck->canon, st, sql.data, err);
	}
	/* Pattern search's summaries (schema 8). */
	if (ret == 0 && st->version >= 8)
		ret = kifu_db_prepare_(&ck->cells, st, "SELECT cells FROM game_cells WHERE "
				       "game_id = ?1", err);
	kifu_buf_release(&sql);
	if (ret < 0) {
		kifu_store_check_free_(ck);
		return ret;
	}
	*out = ck;
	return 0;
}

void kifu_store_check_free_(struct kifu_store_check_ *ck)
{
	if (!ck)
		return;
	kifu_db_finalize_(ck->row);
	kifu_db_finalize_(ck->hashes);
	kifu_db_finalize_(ck->index);
	kifu_db_finalize_(ck->canon);
	kifu_db_finalize_(ck->cells);
	kifu_record_free(ck->rec);
	kifu_replay_release(&ck->rp);
	kifu_diags_release(&ck->diags);
	kifu_buf_release(&ck->msg);
	free(ck->h);
	free(ck->f);
	free(ck);
}

static int cmp_first(const void *a, const void *b)
{
	const struct first *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->ply > y->ply) - (x->ply < y->ply);
}

/* The distinct positions of h[0..n) with their first ply, into ck->f: their count. */
static long firsts(struct kifu_store_check_ *ck, const uint64_t *h, size_t n)
{
	size_t i, k = 0;

	if (n > ck->capf) {
		struct first *f = realloc(ck->f, n * sizeof(*f));

		if (!f)
			return KIFU_ENOMEM;
		ck->f = f;
		ck->capf = n;
	}
	for (i = 0; i < n; i++) {
		ck->f[i].hash = h[i];
		ck->f[i].ply = i;
	}
	qsort(ck->f, n, sizeof(*ck->f), cmp_first);
	for (i = 0; i < n; i++)
		if (k == 0 || ck->f[k - 1].hash != ck->f[i].hash)
			ck->f[k++] = ck->f[i];
	return (long)k;
}

/* Each distinct position of h[0..n) found in index s (plain or canonical) for game id. */
static int check_index(struct kifu_store_check_ *ck, struct kifu_stmt *s, const char *check,
		       int64_t id, const uint64_t *h, size_t n, long long *entries,
		       struct kifu_error *err)
{
	struct kifu_error why;
	long long ply;
	long k, i;
	int rc, ret = 0;

	k = firsts(ck, h, n);
	if (k < 0)
		return nomem(err);
	*entries += k;
	for (i = 0; i < k && ret == 0; i++) {
		kifu_db_bind_int64_(s, 1, (int64_t)ck->f[i].hash);
		kifu_db_bind_int64_(s, 2, id);
		rc = kifu_db_step_(s);
		if (rc == KIFU_DB_DONE) {
			ret = foundf(ck, check, id, "%s misses game %lld at position %016" PRIx64
				     " (ply %zu)", check, (long long)id, ck->f[i].hash,
				     ck->f[i].ply);
		} else if (rc == KIFU_DB_ROW) {
			kifu_error_clear(&why);
			if (kifu_db_column_whole_(&ply, s, 0, 0, KIFU_DB_PLIES_MAX, &why, "%s: ply "
						  "of game %lld at position %016" PRIx64, check,
						  (long long)id, ck->f[i].hash) < 0)
				ret = found(ck, check, id, &why);
			else if ((size_t)ply != ck->f[i].ply)
				ret = foundf(ck, check, id, "%s has game %lld reach position %016"
					     PRIx64 " first at ply %lld, not %zu", check,
					     (long long)id, ck->f[i].hash, ply, ck->f[i].ply);
		} else {
			ret = kifu_store_fail_(ck->st, "cannot read the position index", err);
		}
		kifu_db_reset_(s);
	}
	return ret;
}

/*
 * The canonical hashes stored with the game (column 1 of ck->hashes, from
 * schema 7; NULL: none kept) are its replay's: the symmetric tree and
 * openings read them.
 */
static int check_canon(struct kifu_store_check_ *ck, int64_t id, long long plies,
		       struct kifu_error *err)
{
	struct kifu_error why;
	size_t p;
	int ret;

	if (kifu_db_column_is_null_(ck->hashes, 1) || ck->rp.ncanon != ck->rp.nplies + 1)
		return 0;
	kifu_error_clear(&why);
	ret = kifu_store_column_hashes_(&ck->h, &ck->nh, &ck->caph, ck->hashes, 1);
	if (ret == KIFU_ENOMEM)
		return nomem(err);
	if (ret < 0 || (long long)ck->nh != plies + 1)
		return foundf(ck, "hashes", id, "the canonical hashes of game %lld do not read as "
			      "one a position", (long long)id);
	for (p = 0; p < ck->nh; p++)
		if (ck->h[p] != ck->rp.canon[p])
			return foundf(ck, "hashes", id, "the stored canonical hash of game %lld at "
				      "ply %zu is %016" PRIx64 ", its replay's %016" PRIx64,
				      (long long)id, p, ck->h[p], ck->rp.canon[p]);
	return 0;
}

/*
 * The game's pattern summary (game_cells) is the one its replay makes:
 * kifu-search --pattern replays only the games whose summary may hold a
 * pattern, so a missing or wrong one hides games from it.
 */
static int check_cells(struct kifu_store_check_ *ck, int64_t id, struct kifu_error *err)
{
	unsigned char packed[KIFU_GAME_SIDES_MAX * (KIFU_CELLS_MAX / 8)];
	const struct kifu_game *g = ck->rp.game;
	size_t len;
	int rc, ret = 0;

	if (!g || !g->ncells || ck->rp.variant < 0 || ck->rp.cells_plies != ck->rp.nplies + 1 ||
	    !ck->rp.state)
		return 0;
	kifu_pattern_summary_pack(packed, g, g->ncells(ck->rp.state), ck->rp.cells);
	len = KIFU_PATTERN_PACKED_SIZE(g, g->ncells(ck->rp.state));
	kifu_db_bind_int64_(ck->cells, 1, id);
	rc = kifu_db_step_(ck->cells);
	if (rc == KIFU_DB_DONE)
		ret = foundf(ck, "pattern summary", id, "game %lld has no pattern summary "
			     "(game_cells)", (long long)id);
	else if (rc != KIFU_DB_ROW)
		ret = kifu_store_fail_(ck->st, "cannot read the pattern summaries", err);
	else if (kifu_db_column_bytes_(ck->cells, 0) != len ||
		 memcmp(kifu_db_column_blob_(ck->cells, 0), packed, len))
		ret = foundf(ck, "pattern summary", id, "the pattern summary of game %lld "
			     "(game_cells) is not its replay's", (long long)id);
	kifu_db_reset_(ck->cells);
	return ret;
}

/*
 * kifu_store_game_validate with the canonical hashes kept as well: a
 * first error of the game's replay is damage, to fn (1 returned then).
 */
static int replay(struct kifu_store_check_ *ck, int64_t id, struct kifu_error *err)
{
	const char *msg;
	size_t i;
	int ret;

	kifu_diags_reset(&ck->diags);
	ret = kifu_record_validate(&ck->rp, &ck->diags, ck->rec,
				   KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK | KIFU_VALIDATE_CELLS |
				   KIFU_VALIDATE_CANON, err);
	if (ret < 0)
		return ret;
	for (i = 0; i < ck->diags.n; i++) {
		if (ck->diags.v[i].severity != KIFU_DIAG_ERROR)
			continue;
		/* "game K, ply P: ...": K counts games in a file; the database's is its id */
		msg = ck->diags.v[i].message ? ck->diags.v[i].message : "";
		if (!strncmp(msg, "game ", 5) && msg[5] >= '0' && msg[5] <= '9') {
			msg += 5 + strspn(msg + 5, "0123456789");
			msg += *msg == ',' || *msg == ':' ? 1 : 0;
			msg += *msg == ' ' ? 1 : 0;
		}
		ret = foundf(ck, "game", id, "game %lld does not replay as stored: %s",
			     (long long)id, msg);
		return ret ? ret : 1;
	}
	if (ck->diags.errors || !ck->rp.complete) {
		ret = foundf(ck, "game", id, "game %lld does not replay as stored", (long long)id);
		return ret ? ret : 1;
	}
	return 0;
}

int kifu_store_check_game_(struct kifu_store_check_ *ck, int64_t id, struct kifu_error *err)
{
	struct kifu_store *st = ck->st;
	struct kifu_error why;
	long long plies = 0, damaged = st->damaged;
	int64_t key = 0;
	size_t p;
	int rc, ret, before = ck->incomplete;

	ck->replayed = 0;
	kifu_db_bind_int64_(ck->row, 1, id);
	rc = kifu_db_step_(ck->row);
	kifu_error_clear(&why);
	if (rc == KIFU_DB_ROW) {
		key = kifu_db_column_int64_(ck->row, 1);
		ret = kifu_db_column_whole_(&plies, ck->row, 0, 0, KIFU_DB_PLIES_MAX, &why,
					    "games.plies of game %lld", (long long)id);
	} else {
		ret = rc == KIFU_DB_DONE ? KIFU_ENOTFOUND
					 : kifu_store_fail_(st, "cannot read the games", err);
	}
	kifu_db_reset_(ck->row);
	if (ret == KIFU_ENOTFOUND)
		return 0; /* deleted since it was listed */
	if (ret < 0 && st->damaged == damaged)
		return ret;
	/* The index's totals mean nothing unless every game replays as stored. */
	ck->incomplete = 1;
	if (ret < 0)
		return found(ck, "game", id, &why);
	/* Its record as every reader loads it: headers, moves, comments, lines. */
	kifu_record_free(ck->rec);
	ck->rec = NULL;
	ret = kifu_store_game_load(&ck->rec, st, id, &why);
	if (ret < 0)
		return st->damaged != damaged ? found(ck, "game", id, &why)
		       : ret == KIFU_ENOTFOUND ? 0 : (*err = why, ret);
	ret = replay(ck, id, err);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	if ((long long)ck->rp.nplies != plies)
		return foundf(ck, "game", id, "game %lld replays in %zu plies, not the %lld of "
			      "games.plies", (long long)id, ck->rp.nplies, plies);
	if ((int64_t)kifu_store_game_key(ck->rec, &ck->rp) != key)
		return foundf(ck, "game", id, "game %lld as stored is not the game its duplicate "
			      "key (games.content_hash) was made from", (long long)id);
	ck->incomplete = before;
	ck->replayed = 1;
	/* The hashes the readers take the game's positions from. */
	if (ck->hashes) {
		kifu_db_bind_int64_(ck->hashes, 1, id);
		rc = kifu_db_step_(ck->hashes);
		if (rc == KIFU_DB_ROW) {
			kifu_error_clear(&why);
			ret = kifu_store_game_hashes_(&ck->h, &ck->nh, &ck->caph, ck->hashes, 0, id,
						      plies, &why);
			if (ret < 0 && st->damaged != damaged)
				ret = found(ck, "hashes", id, &why);
			else if (ret < 0)
				*err = why;
			for (p = 0; ret == 0 && p < ck->nh; p++)
				if (ck->h[p] != ck->rp.hashes[p])
					ret = foundf(ck, "hashes", id, "the stored hash of game "
						     "%lld at ply %zu is %016" PRIx64 ", its "
						     "replay's %016" PRIx64, (long long)id, p,
						     ck->h[p], ck->rp.hashes[p]);
			if (ret == 0)
				ret = check_canon(ck, id, plies, err);
		} else if (rc == KIFU_DB_DONE) {
			ret = foundf(ck, "hashes", id, "game %lld has no stored hashes",
				     (long long)id);
		} else {
			ret = kifu_store_fail_(st, "cannot read the games", err);
		}
		kifu_db_reset_(ck->hashes);
		if (ret != 0)
			return ret;
	}
	if (ck->cells)
		ret = check_cells(ck, id, err);
	if (ret == 0 && ck->index)
		ret = check_index(ck, ck->index, "position index", id, ck->rp.hashes,
				  ck->rp.nplies + 1, &ck->positions, err);
	if (ret == 0 && ck->canon && ck->rp.ncanon == ck->rp.nplies + 1)
		ret = check_index(ck, ck->canon, "canonical index", id, ck->rp.canon,
				  ck->rp.ncanon, &ck->canon_positions, err);
	return ret;
}

int kifu_store_check_file_(struct kifu_store_check_ *ck, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	const char *row;
	int rc, ret = 0;

	if (!kifu_db_sql_(ck->st, "integrity_check"))
		return 0;
	ret = kifu_db_prepare_named_(&s, ck->st, "integrity_check", err);
	while (ret == 0 && (rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		row = kifu_db_column_text_(s, 0);
		if (row && strcmp(row, "ok"))
			ret = foundf(ck, "file", -1, "the database file: %s", row);
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(ck->st, "cannot check the database file", err);
	kifu_db_finalize_(s);
	return ret;
}

const struct kifu_replay *kifu_store_check_replay_(const struct kifu_store_check_ *ck)
{
	return ck->replayed ? &ck->rp : NULL;
}

long long kifu_store_check_positions_(const struct kifu_store_check_ *ck)
{
	return ck->positions;
}

/* The entries of index table (libkifu's own name) against the games' want. */
static int total(struct kifu_store_check_ *ck, const char *table, const char *check,
		 long long want, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	long long n = 0;
	int ret;

	kifu_buf_printf(&sql, "SELECT count(*) FROM %s", table);
	ret = sql.failed ? nomem(err) : kifu_store_query_int_(&n, ck->st, sql.data, err);
	kifu_buf_release(&sql);
	if (ret == 0 && n != want)
		ret = foundf(ck, check, -1, "%s holds %lld entries, the stored games reach %lld "
			     "positions", check, n, want);
	return ret;
}

int kifu_store_check_totals_(struct kifu_store_check_ *ck, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	int ret = 0;

	if (ck->incomplete)
		return 0;
	if (ck->index) {
		kifu_store_reach_sql_(&sql, ck->st, 0, 1);
		ret = sql.failed ? nomem(err) : total(ck, sql.data, "position index", ck->positions,
						      err);
	}
	if (ret == 0 && ck->canon) {
		kifu_buf_reset(&sql);
		kifu_store_reach_sql_(&sql, ck->st, 1, 1);
		ret = sql.failed ? nomem(err) : total(ck, sql.data, "canonical index",
						      ck->canon_positions, err);
	}
	kifu_buf_release(&sql);
	return ret;
}
