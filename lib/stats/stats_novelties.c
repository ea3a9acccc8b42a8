/*
 * The novelties report (kifu-stats novelties): for each dated game the
 * filter lists, oldest first, the first ply p at which no game of the same
 * game and variant with a strictly earlier date (first days compared, as
 * --since does) reached the position before ply p and played the same move
 * from it, a game's move from a position being the one it played the first
 * time it reached it (as the tree counts); with the number of earlier games
 * that reached that position. The earlier games are always every stored
 * game of the variant, whatever the filter.
 *
 * A position's earlier games come from the position index, which holds
 * each game once per position with the first ply it reached it: one read
 * per position gives every game's date and its move from there, kept in a
 * cache so that the many games that share an opening read it once. The
 * cost is about the games reaching the positions the listed games pass
 * through before their novelty, not the listed games times the database.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stats/stats_impl.h"
#include "store/store_impl.h"
#include "util/hash.h"

#define DATE_LEN 11 /* YYYY-MM-DD and its NUL */

/* What the games reaching one position played there, and when. */
struct reach {
	uint64_t hash;
	char (*dates)[DATE_LEN]; /* every dated game reaching it, sorted */
	size_t ndates;
	struct first_play {
		char *move;
		char date[DATE_LEN]; /* the earliest game that played it from here */
	} *plays;
	size_t nplays;
};

/* The positions read so far, found by hash through an open-addressing table. */
struct cache {
	struct reach *v;
	size_t n, cap;
	size_t *slot;  /* 1 + an index into v, 0 for an empty slot */
	size_t nslots; /* a power of two, at least twice n */
};

static size_t slot_of(uint64_t hash, size_t nslots)
{
	return (size_t)(kifu_hash_mix64_(hash) & (nslots - 1));
}

/* Room for one more position in v and in the table (rebuilt twice as large). */
static int cache_grow(struct cache *c)
{
	size_t i, k;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct reach *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	if (2 * (c->n + 1) > c->nslots) {
		size_t nslots = c->nslots ? 2 * c->nslots : 256;
		size_t *slot = calloc(nslots, sizeof(*slot));

		if (!slot)
			return KIFU_ENOMEM;
		for (i = 0; i < c->n; i++) {
			for (k = slot_of(c->v[i].hash, nslots); slot[k]; k = (k + 1) & (nslots - 1))
				;
			slot[k] = i + 1;
		}
		free(c->slot);
		c->slot = slot;
		c->nslots = nslots;
	}
	return 0;
}

static int cmp_date(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void reach_release(struct reach *r)
{
	size_t i;

	for (i = 0; i < r->nplays; i++)
		free(r->plays[i].move);
	free(r->plays);
	free(r->dates);
}

static void cache_release(struct cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		reach_release(&c->v[i]);
	free(c->v);
	free(c->slot);
}

/* Records that a game of date played move (NULL: it ended there) from r's position. */
static int reach_add(struct reach *r, size_t *cap_dates, size_t *cap_plays, const char *date,
		     const char *move)
{
	size_t i;

	if (r->ndates == *cap_dates) {
		size_t cap = *cap_dates ? 2 * *cap_dates : 16;
		char (*d)[DATE_LEN] = realloc(r->dates, cap * sizeof(*d));

		if (!d)
			return KIFU_ENOMEM;
		r->dates = d;
		*cap_dates = cap;
	}
	snprintf(r->dates[r->ndates++], DATE_LEN, "%s", date);
	if (!move)
		return 0;
	for (i = 0; i < r->nplays; i++) {
		if (!strcmp(r->plays[i].move, move)) {
			if (strcmp(date, r->plays[i].date) < 0)
				snprintf(r->plays[i].date, DATE_LEN, "%s", date);
			return 0;
		}
	}
	if (r->nplays == *cap_plays) {
		size_t cap = *cap_plays ? 2 * *cap_plays : 8;
		struct first_play *p = realloc(r->plays, cap * sizeof(*p));

		if (!p)
			return KIFU_ENOMEM;
		r->plays = p;
		*cap_plays = cap;
	}
	r->plays[r->nplays].move = strdup(move);
	if (!r->plays[r->nplays].move)
		return KIFU_ENOMEM;
	snprintf(r->plays[r->nplays++].date, DATE_LEN, "%s", date);
	return 0;
}

/* The statement reading every dated game of the variant that reached ?1. */
static int reach_prepare(struct kifu_stmt **out, struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	int ret;

	kifu_buf_printf(&sql, "SELECT g.date_first, ");
	kifu_db_json_at_(&sql, st, "m.moves", "h.ply");
	kifu_buf_printf(&sql, " FROM positions_hash h CROSS JOIN games g CROSS JOIN %s m "
			"WHERE h.hash = ?1 AND g.id = h.game_id AND m.game_id = h.game_id AND "
			"g.game = ?2 AND g.variant = ?3 AND g.date_first IS NOT NULL",
			kifu_db_game_data_(st));
	if (sql.failed)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	else if (kifu_db_prepare_(out, st, sql.data, err) < 0)
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
	else
		ret = 0;
	kifu_buf_release(&sql);
	return ret;
}

/* The position's entry, read from the index the first time it is asked for. */
static struct reach *reach_get(struct cache *c, struct kifu_stmt *s, struct kifu_store *st,
			       uint64_t hash, struct kifu_error *err)
{
	struct reach *r;
	size_t k, cap_dates = 0, cap_plays = 0;
	int rc;

	for (k = c->nslots ? slot_of(hash, c->nslots) : 0; c->nslots && c->slot[k];
	     k = (k + 1) & (c->nslots - 1))
		if (c->v[c->slot[k] - 1].hash == hash)
			return &c->v[c->slot[k] - 1];
	if (cache_grow(c) < 0) {
		kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		return NULL;
	}
	for (k = slot_of(hash, c->nslots); c->slot[k]; k = (k + 1) & (c->nslots - 1))
		;
	c->slot[k] = c->n + 1;
	r = &c->v[c->n++];
	memset(r, 0, sizeof(*r));
	r->hash = hash;
	kifu_db_bind_int64_(s, 1, (int64_t)hash);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *date = kifu_db_column_text_(s, 0);

		if (date && reach_add(r, &cap_dates, &cap_plays, date,
				      kifu_db_column_text_(s, 1)) < 0) {
			kifu_db_reset_(s);
			kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			return NULL;
		}
	}
	kifu_db_reset_(s);
	if (rc != KIFU_DB_DONE) {
		kifu_search_fail_db_(st, "cannot find novelties", err);
		return NULL;
	}
	qsort(r->dates, r->ndates, sizeof(*r->dates), cmp_date);
	return r;
}

/* Earlier games: the dates of r before date. */
static long earlier_than(const struct reach *r, const char *date)
{
	size_t lo = 0, hi = r->ndates;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(r->dates[mid], date) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo;
}

/* Whether an earlier game played move from r's position. */
static int known(const struct reach *r, const char *move, const char *date)
{
	size_t i;

	for (i = 0; i < r->nplays; i++)
		if (!strcmp(r->plays[i].move, move))
			return strcmp(r->plays[i].date, date) < 0;
	return 0;
}

/* "name - name" in turn order, ? for a side without a player (as kifu-search lists them). */
static int players_text(struct kifu_buf *out, struct kifu_stmt *s, const struct kifu_game *g,
			int64_t id)
{
	const char *names[KIFU_GAME_SIDES_MAX] = { NULL };
	char *kept[KIFU_GAME_SIDES_MAX] = { NULL };
	int rc, i;

	kifu_buf_reset(out);
	kifu_db_bind_int64_(s, 1, id);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int k = kifu_game_side_index(g, kifu_db_column_text_(s, 0));
		const char *name = kifu_db_column_text_(s, 1);

		if (k >= 0 && k < KIFU_GAME_SIDES_MAX && name && !kept[k])
			names[k] = kept[k] = strdup(name);
	}
	kifu_db_reset_(s);
	for (i = 0; i < g->nsides && i < KIFU_GAME_SIDES_MAX; i++) {
		kifu_buf_puts(out, i ? " - " : "");
		kifu_buf_puts(out, names[i] ? names[i] : "?");
		free(kept[i]);
	}
	return rc == KIFU_DB_DONE ? 0 : KIFU_EDB;
}

static const char *const novelties_columns[] = { "id", "date", "players", "ply", "move",
						 "earlier", NULL };

/* One listed game's row: its novelty, found along its own moves and hashes. */
static int novelty_row(struct kifu_report *rep, const long *col, struct cache *cache,
		       struct kifu_stmt *reach, struct kifu_store *st, struct kifu_stmt *row,
		       const char *players, struct kifu_error *err)
{
	const char *date_first = kifu_db_column_text_(row, 2);
	const char *moves_text = kifu_db_column_text_(row, 3);
	uint64_t *hashes = NULL;
	size_t nhashes = 0, cap = 0, p;
	json_t *moves = moves_text ? json_loads(moves_text, 0, NULL) : NULL;
	long r = kifu_report_add_row_(rep);
	int ret = 0, found = 0;

	kifu_report_set_int_(rep, r, col[0], kifu_db_column_int64_(row, 0));
	kifu_report_set_text_(rep, r, col[1], kifu_db_column_text_(row, 1));
	kifu_report_set_text_(rep, r, col[2], players);
	if (kifu_store_column_hashes_(&hashes, &nhashes, &cap, row, 4) < 0) {
		ret = kifu_db_damaged_(st, err, "game %lld has unreadable position hashes",
				       (long long)kifu_db_column_int64_(row, 0));
		goto out;
	}
	for (p = 1; p <= json_array_size(moves) && p < nhashes && !found; p++) {
		const char *move = json_string_value(json_array_get(moves, p - 1));
		struct reach *at;

		if (!move)
			break;
		at = reach_get(cache, reach, st, hashes[p - 1], err);
		if (!at) {
			ret = err ? err->code : KIFU_ENOMEM;
			goto out;
		}
		if (known(at, move, date_first))
			continue;
		found = 1;
		kifu_report_set_int_(rep, r, col[3], (long long)p);
		kifu_report_set_text_(rep, r, col[4], move);
		kifu_report_set_int_(rep, r, col[5], earlier_than(at, date_first));
	}
	if (!found) {
		kifu_report_set_null_(rep, r, col[3]);
		kifu_report_set_null_(rep, r, col[4]);
		kifu_report_set_null_(rep, r, col[5]);
	}
out:
	json_decref(moves);
	free(hashes);
	return ret;
}

static int novelties_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			    const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct kifu_error *err = c->err;
	struct kifu_store *st = c->st;
	struct kifu_stmt *list = NULL, *reach = NULL, *sides = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT, players = KIFU_BUF_INIT;
	struct cache cache = { NULL, 0, 0, NULL, 0 };
	const struct kifu_game *g;
	long col[6];
	int ret, rc, variant, i;

	(void)opt;
	ret = kifu_stats_game_of_(&g, &variant, f, "novelties", err);
	if (ret < 0)
		return ret;
	for (i = 0; i < 6; i++)
		col[i] = kifu_report_add_col_(rep, novelties_columns[i], 0, 0);
	if (!kifu_search_position_index_(st))
		goto out; /* a database without the index has no game to list either */
	kifu_buf_printf(&sql, "SELECT g.id, g.date, g.date_first, m.moves, m.hashes FROM games g "
			"CROSS JOIN %s m WHERE m.game_id = g.id AND g.date_first IS NOT NULL AND ",
			kifu_db_game_data_(st));
	ret = kifu_filter_sql_(&sql, f, "g", 1, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " ORDER BY g.date_first, g.id");
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&list, st, sql.data, err) < 0 ||
	    kifu_db_prepare_(&sides, st, "SELECT s.side, p.name FROM sides s JOIN players p ON "
			     "p.id = s.player_id WHERE s.game_id = ?1", err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	ret = reach_prepare(&reach, st, err);
	if (ret < 0)
		goto out;
	kifu_db_bind_text_static_(reach, 2, g->name, -1);
	kifu_db_bind_text_static_(reach, 3, g->variants[variant], -1);
	ret = kifu_filter_bind_(list, 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(list)) == KIFU_DB_ROW) {
		if (players_text(&players, sides, g, kifu_db_column_int64_(list, 0)) < 0) {
			ret = kifu_search_fail_db_(st, "cannot find novelties", err);
			goto out;
		}
		if (players.failed) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		ret = novelty_row(rep, col, &cache, reach, st, list, players.data, err);
		if (ret < 0)
			goto out;
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
	else if (kifu_report_failed_(rep))
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
out:
	kifu_db_finalize_(list);
	kifu_db_finalize_(reach);
	kifu_db_finalize_(sides);
	kifu_buf_release(&sql);
	kifu_buf_release(&players);
	cache_release(&cache);
	return ret;
}

const struct kifu_stats_kind_ kifu_stats_novelties_ = {
	.name = "novelties",
	.kind = KIFU_STATS_NOVELTIES,
	.report = novelties_report,
};
