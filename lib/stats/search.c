/*
 * Finding stored games (include/kifu/search.h). A position is found
 * through the position index positions_hash (schema 4: each game once per
 * position it reached, with the first ply; older schemas: an index on
 * every row of positions, read with a GROUP BY), joined to the games the
 * filter selects and sorted newest first; so a search costs about the
 * number of games found, whatever the size of the database. The position
 * itself is replayed through the engine, so that it is the hash the store
 * kept for the same position, whatever the move order that led there.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kifu/search.h"
#include "stats/stats_impl.h"

struct kifu_search_result {
	struct kifu_search_hit *v;
	size_t n, cap;
	struct kifu_search_player *players;
	size_t nplayers, cap_players;
	size_t *first_player;  /* per hit, while building: its first entry in players */
	struct kifu_arena_block *strings;
};

void kifu_search_result_free(struct kifu_search_result *res)
{
	if (!res)
		return;
	free(res->v);
	free(res->players);
	free(res->first_player);
	kifu_arena_release_(&res->strings);
	free(res);
}

size_t kifu_search_count(const struct kifu_search_result *res)
{
	return res->n;
}

const struct kifu_search_hit *kifu_search_hit(const struct kifu_search_result *res, size_t i)
{
	return i < res->n ? &res->v[i] : NULL;
}

static int by_id(const void *a, const void *b)
{
	const struct kifu_search_hit *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int by_plies(const void *a, const void *b)
{
	const struct kifu_search_hit *x = a, *y = b;

	return x->plies != y->plies ? (x->plies > y->plies) - (x->plies < y->plies) : by_id(a, b);
}

static int by_game(const void *a, const void *b)
{
	const struct kifu_search_hit *x = a, *y = b;
	int c = strcmp(x->game, y->game);

	return c ? c : (c = strcmp(x->variant, y->variant)) ? c : by_id(a, b);
}

int kifu_search_result_sort(struct kifu_search_result *res, const char *key, int desc)
{
	int (*cmp)(const void *, const void *) = !strcmp(key, "id") ? by_id
		: !strcmp(key, "plies") ? by_plies : !strcmp(key, "game") ? by_game : NULL;
	size_t i;

	if (!strcmp(key, "date")) {
		/* the search's own order is newest first */
		if (!desc)
			for (i = 0; i < res->n / 2; i++) {
				struct kifu_search_hit t = res->v[i];

				res->v[i] = res->v[res->n - 1 - i];
				res->v[res->n - 1 - i] = t;
			}
		return 0;
	}
	if (!cmp)
		return KIFU_EPARSE;
	qsort(res->v, res->n, sizeof(*res->v), cmp);
	if (desc)
		for (i = 0; i < res->n / 2; i++) {
			struct kifu_search_hit t = res->v[i];

			res->v[i] = res->v[res->n - 1 - i];
			res->v[res->n - 1 - i] = t;
		}
	return 0;
}

/*
 * The position after moves: its hash (canonical 1: the canonical one; 2:
 * those of its orientations, hash[k] by symmetry k, *n of them) and side
 * to move.
 */
static int position_after(uint64_t *hash, int *to_move, const struct kifu_game *g, int variant,
			  const char *moves, int canonical, int *n, struct kifu_error *err)
{
	struct kifu_pos *pos = NULL;
	int ret;

	ret = kifu_pos_new(&pos, g, variant, 0, err);
	if (ret == 0)
		ret = kifu_pos_play_list(pos, moves, err);
	if (ret == 0) {
		*hash = g->hash(pos->state);
		if (canonical == 1 && kifu_game_canonical_hash(hash, NULL, g, pos->state) < 0)
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		if (canonical == 2 && (*n = kifu_store_orient_hashes_(hash, g, pos->state)) < 0)
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		if (to_move)
			*to_move = g->side_to_move(pos->state);
	}
	kifu_pos_free(pos);
	return ret;
}

int kifu_search_position_side_(uint64_t *hash, int *to_move, const struct kifu_game *g, int variant,
			       const char *moves, struct kifu_error *err)
{
	return position_after(hash, to_move, g, variant, moves, 0, NULL, err);
}

int kifu_search_position(uint64_t *hash, const struct kifu_game *g, int variant,
			 const char *moves, struct kifu_error *err)
{
	return kifu_search_position_side_(hash, NULL, g, variant, moves, err);
}

int kifu_search_position_canonical(uint64_t *hash, const struct kifu_game *g, int variant,
				   const char *moves, struct kifu_error *err)
{
	return position_after(hash, NULL, g, variant, moves, 1, NULL, err);
}

int kifu_search_position_orientations(uint64_t *out, int *n, const struct kifu_game *g,
				      int variant, const char *moves, struct kifu_error *err)
{
	*n = 0;
	return position_after(out, NULL, g, variant, moves, 2, n, err);
}

/* A copy of column i's text in the result's arena; NULL for SQL NULL or out of memory. */
static const char *keep_text(struct kifu_search_result *res, struct kifu_stmt *s, int i,
			     int *failed)
{
	const char *t = kifu_db_column_text_(s, i);
	const char *copy;

	if (!t)
		return NULL;
	copy = kifu_arena_strndup_(&res->strings, t, kifu_db_column_bytes_(s, i));
	if (!copy)
		*failed = 1;
	return copy;
}

int kifu_search_fail_db_(struct kifu_store *st, const char *what, struct kifu_error *err)
{
	return kifu_db_fail_(st, what, err);
}

/* Player names by id: a search meets the same few players again and again. */
struct name_cache {
	int64_t *ids;
	const char **names;
	size_t n, cap;       /* cap: a power of two, 0 until first use */
	struct kifu_stmt *lookup;
};

static void name_cache_release(struct name_cache *nc)
{
	free(nc->ids);
	free(nc->names);
	kifu_db_finalize_(nc->lookup);
}

static size_t id_slot(int64_t id, size_t cap)
{
	uint64_t z = (uint64_t)id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(z ^ (z >> 29)) & (cap - 1);
}

/* The name of player id (in res's arena); NULL with *ret set on failure. */
static const char *player_name(struct kifu_search_result *res, struct name_cache *nc,
			       struct kifu_store *st, int64_t id, int *ret, struct kifu_error *err)
{
	size_t k;
	const char *name = NULL;
	int rc;

	if ((nc->n + 1) * 2 > nc->cap) {
		size_t cap = nc->cap ? nc->cap * 2 : 1024, i;
		int64_t *ids = malloc(cap * sizeof(*ids));
		const char **names = calloc(cap, sizeof(*names));

		if (!ids || !names) {
			free(ids);
			free(names);
			*ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			return NULL;
		}
		for (i = 0; i < nc->cap; i++) {
			if (!nc->names[i])
				continue;
			k = id_slot(nc->ids[i], cap);
			while (names[k])
				k = (k + 1) & (cap - 1);
			ids[k] = nc->ids[i];
			names[k] = nc->names[i];
		}
		free(nc->ids);
		free(nc->names);
		nc->ids = ids;
		nc->names = names;
		nc->cap = cap;
	}
	for (k = id_slot(id, nc->cap); nc->names[k]; k = (k + 1) & (nc->cap - 1))
		if (nc->ids[k] == id)
			return nc->names[k];
	if (!nc->lookup) {
		*ret = kifu_db_prepare_(&nc->lookup, st, "SELECT name FROM players WHERE id = ?1", err);
		if (*ret < 0)
			return NULL;
	}
	kifu_db_bind_int64_(nc->lookup, 1, id);
	rc = kifu_db_step_(nc->lookup);
	if (rc == KIFU_DB_ROW) {
		int failed = 0;

		name = keep_text(res, nc->lookup, 0, &failed);
		if (failed || !name)
			*ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	} else {
		*ret = kifu_search_fail_db_(st, "cannot read players", err);
	}
	kifu_db_reset_(nc->lookup);
	if (!name)
		return NULL;
	nc->ids[k] = id;
	nc->names[k] = name;
	nc->n++;
	return name;
}

/*
 * The game of row s as the last hit: columns 0 to 6 (id, game, variant,
 * date, result, plies, ply or NULL), its date's first day in column
 * i_first; what it shows is checked (a length, a ply, a date no import
 * writes is damage, not a row).
 */
static int add_hit(struct kifu_search_result *res, struct kifu_stmt *s, int i_first,
		   struct kifu_error *err)
{
	struct kifu_search_hit *h;
	long long id = kifu_db_column_int64_(s, 0), plies, ply = -1;
	int failed = 0, ret;

	ret = kifu_db_column_whole_(&plies, s, 5, 0, KIFU_DB_PLIES_MAX, err, "games.plies of game "
				    "%lld", id);
	if (ret == 0 && !kifu_db_column_is_null_(s, 6))
		ret = kifu_db_column_whole_(&ply, s, 6, 0, plies, err, "the ply at which game %lld "
					    "reached the position", id);
	if (ret == 0)
		ret = kifu_db_column_date_(s, 3, i_first, err, "games.date of game %lld", id);
	if (ret < 0)
		return ret;

	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 64;
		struct kifu_search_hit *v = realloc(res->v, cap * sizeof(*v));
		size_t *fp = realloc(res->first_player, cap * sizeof(*fp));

		if (v)
			res->v = v;
		if (fp)
			res->first_player = fp;
		if (!v || !fp)
			return KIFU_ENOMEM;
		res->cap = cap;
	}
	h = &res->v[res->n];
	memset(h, 0, sizeof(*h));
	h->id = kifu_db_column_int64_(s, 0);
	h->game = keep_text(res, s, 1, &failed);
	h->variant = keep_text(res, s, 2, &failed);
	h->date = keep_text(res, s, 3, &failed);
	h->result = keep_text(res, s, 4, &failed);
	h->plies = (long)plies;
	h->ply = (long)ply;
	if (failed || !h->game || !h->variant || !h->result)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	res->first_player[res->n++] = res->nplayers;
	return 0;
}

/* Adds the side of columns 7 (name) and 8 (player id) of s to the last hit. */
static int add_player(struct kifu_search_result *res, struct name_cache *nc, struct kifu_store *st,
		      struct kifu_stmt *s, struct kifu_error *err)
{
	struct kifu_search_player *p;
	const char *side, *name;
	int failed = 0, ret = 0;

	if (res->nplayers == res->cap_players) {
		size_t cap = res->cap_players ? res->cap_players * 2 : 128;
		struct kifu_search_player *v = realloc(res->players, cap * sizeof(*v));

		if (!v)
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		res->players = v;
		res->cap_players = cap;
	}
	/* Side names are the registry's few: keep one copy of each run of them. */
	side = keep_text(res, s, 7, &failed);
	if (failed || !side)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	name = player_name(res, nc, st, kifu_db_column_int64_(s, 8), &ret, err);
	if (!name)
		return ret;
	p = &res->players[res->nplayers++];
	p->side = side;
	p->name = name;
	res->v[res->n - 1].nplayers++;
	return 0;
}

/*
 * Whether the database has schema 4's position index (each game once per
 * position, with its first ply). Older schemas index every row of
 * positions; during a bulk load the index waits to be rebuilt, and the
 * view positions answers, slowly.
 */
int kifu_search_position_index_(struct kifu_store *st)
{
	int found = 0;

	if (kifu_store_version(st) < 4)
		return 0;
	if (kifu_db_has_(&found, st, "positions_hash", NULL) < 0)
		return 0;
	return found;
}

/*
 * The players of the listing row (schema 5's game_listing: a JSON object
 * side -> name in turn order) added to the last hit. Text from the
 * database: what is not such an object adds nobody.
 */
static int add_players_json(struct kifu_search_result *res, const char *text, size_t len,
			    struct kifu_error *err)
{
	json_t *o = text ? json_loadb(text, len, JSON_DECODE_ANY, NULL) : NULL;
	const char *side;
	json_t *name;
	int ret = 0;

	if (!json_is_object(o)) {
		json_decref(o);
		return 0;
	}
	json_object_foreach(o, side, name) {
		struct kifu_search_player *p;

		if (!json_is_string(name))
			continue;
		if (res->nplayers == res->cap_players) {
			size_t cap = res->cap_players ? res->cap_players * 2 : 128;
			struct kifu_search_player *v = realloc(res->players, cap * sizeof(*v));

			if (!v) {
				ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
				break;
			}
			res->players = v;
			res->cap_players = cap;
		}
		p = &res->players[res->nplayers];
		p->side = kifu_arena_strndup_(&res->strings, side, strlen(side));
		p->name = kifu_arena_strndup_(&res->strings, json_string_value(name),
					json_string_length(name));
		if (!p->side || !p->name) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			break;
		}
		res->nplayers++;
		res->v[res->n - 1].nplayers++;
	}
	json_decref(o);
	return ret;
}

/*
 * add_players_json for the form SQLite's json_group_object writes,
 * {"side":"name",...} with no space, no escape and printable ASCII only,
 * without building a JSON tree (at 18,000 games jansson was a quarter of a
 * search): 1 when it was that form (the players added), 0 to leave it to
 * jansson (anything else: other characters, a repeated side, more sides).
 */
static int add_players_plain(struct kifu_search_result *res, const char *text, size_t len,
			     int *ret, struct kifu_error *err)
{
	const char *at[2 * MAX_SIDES], *p = text, *end = text + len;
	size_t n[2 * MAX_SIDES], k, j;
	int nstr = 0;

	if (!text || len < 2 || *p++ != '{' || end[-1] != '}')
		return 0;
	end--;
	while (p < end) {
		/* "key":"value" then ',' or the end */
		for (k = 0; k < 2; k++) {
			const char *q;

			if (nstr == 2 * MAX_SIDES || p >= end || *p != '"')
				return 0;
			for (q = ++p; q < end && *q != '"'; q++)
				if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f || *q == '\\')
					return 0;
			if (q >= end)
				return 0;
			at[nstr] = p;
			n[nstr++] = (size_t)(q - p);
			p = q + 1;
			if (k == 0 && (p >= end || *p++ != ':'))
				return 0;
		}
		if (p < end && (*p++ != ',' || p == end))
			return 0;
	}
	/* a side said twice is jansson's to settle (its last name, in the first place) */
	for (k = 0; k < (size_t)nstr; k += 2)
		for (j = 0; j < k; j += 2)
			if (n[j] == n[k] && !memcmp(at[j], at[k], n[k]))
				return 0;
	for (k = 0; k < (size_t)nstr; k += 2) {
		struct kifu_search_player *pl;

		if (res->nplayers == res->cap_players) {
			size_t cap = res->cap_players ? res->cap_players * 2 : 128;
			struct kifu_search_player *v = realloc(res->players, cap * sizeof(*v));

			if (!v) {
				*ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
				return 1;
			}
			res->players = v;
			res->cap_players = cap;
		}
		pl = &res->players[res->nplayers];
		pl->side = kifu_arena_strndup_(&res->strings, at[k], n[k]);
		pl->name = kifu_arena_strndup_(&res->strings, at[k + 1], n[k + 1]);
		if (!pl->side || !pl->name) {
			*ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			return 1;
		}
		res->nplayers++;
		res->v[res->n - 1].nplayers++;
	}
	*ret = 0;
	return 1;
}

/* Whether the listing table answers for f (its columns cover the filter). */
static int listing_usable(struct kifu_store *st, const struct kifu_filter *f)
{
	return kifu_store_version(st) >= 5 && (!f || (!f->event && !f->termination));
}

/*
 * Whether a page of the games at position hash (the first `want` of them,
 * newest first) comes cheaper from the date index games_date read
 * backwards, which is the listing's order (undated games last, ties by
 * id), than from the position index: at a common position most of the
 * newest games reached it, and the walk down the dates stops after a few
 * hundred, where the position index reads and sorts every game that
 * reached it (100,000 and more at a start of 1,000,000 games). The walk
 * is about want * games / games at the position rows long: taken when
 * that is less than half the games at the position, which a count of
 * the index's rows tells, stopped at that many. Only on the plain
 * position index (positions_hash) and with a filter of game and variant:
 * a player, an event, a termination or dates would make the walk long.
 */
static int listing_by_date(int *yes, struct kifu_store *st, const struct kifu_filter *f,
			   uint64_t hash, size_t want, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	long long games = 0;
	double need;
	int ret;

	*yes = 0;
	if (f && (f->player || f->event || f->since || f->until || f->termination || f->level))
		return 0;
	ret = kifu_db_query_int_(&games, st, "SELECT coalesce(max(id), 0) FROM games", err);
	if (ret < 0)
		return ret;
	/* at positions * positions > 2 * want * games */
	need = floor(sqrt(2.0 * (double)want * (double)games)) + 1;
	if (need > (double)games)
		return 0;
	if (kifu_db_prepare_(&s, st, "SELECT count(*) FROM (SELECT 1 FROM positions_hash "
			     "WHERE hash = ?1 LIMIT ?2) AS h", err) < 0)
		return kifu_search_fail_db_(st, "cannot search games", err);
	kifu_db_bind_int64_(s, 1, (int64_t)hash);
	kifu_db_bind_int64_(s, 2, (int64_t)need);
	if (kifu_db_step_(s) != KIFU_DB_ROW)
		ret = kifu_search_fail_db_(st, "cannot search games", err);
	else
		*yes = (double)kifu_db_column_int64_(s, 0) >= need;
	kifu_db_finalize_(s);
	return ret;
}

/* A hit's place in the listing's order: its first day (YYYYMMDD, -1 for none) and id. */
struct listing_key {
	long day;
	int64_t id;
	size_t hit;
};

/* Newest first, undated last, ties by id, newest (highest) first: the listing's ORDER BY. */
static int cmp_listing(const void *a, const void *b)
{
	const struct listing_key *x = a, *y = b;

	if (x->day != y->day)
		return x->day > y->day ? -1 : 1;
	return (x->id < y->id) - (x->id > y->id);
}

/* The first day of column i (checked by add_hit: NULL or YYYY-MM-DD) as YYYYMMDD, or -1. */
static long listing_day(struct kifu_stmt *s, int i)
{
	const char *t = kifu_db_column_text_(s, i);
	long v = 0;
	int k;

	if (!t)
		return -1;
	for (k = 0; k < 10; k++)
		if (t[k] >= '0' && t[k] <= '9')
			v = v * 10 + (t[k] - '0');
	return v;
}

/* Puts the hits (and their first players) in the order of keys, sorted. */
static int listing_sort(struct kifu_search_result *res, struct listing_key *keys)
{
	struct kifu_search_hit *v = malloc((res->n ? res->n : 1) * sizeof(*v));
	size_t *fp = malloc((res->n ? res->n : 1) * sizeof(*fp)), i;

	if (!v || !fp) {
		free(v);
		free(fp);
		return KIFU_ENOMEM;
	}
	qsort(keys, res->n, sizeof(*keys), cmp_listing);
	for (i = 0; i < res->n; i++) {
		v[i] = res->v[keys[i].hit];
		fp[i] = res->first_player[keys[i].hit];
	}
	memcpy(res->v, v, res->n * sizeof(*v));
	memcpy(res->first_player, fp, res->n * sizeof(*fp));
	free(v);
	free(fp);
	return 0;
}

/*
 * Schema 5: one narrow row per game (game_listing) instead of a game and
 * its sides; the listing has the columns of games the filter reads (but
 * event and termination), under the same alias.
 */
static int search_listing(struct kifu_search_result *res, struct kifu_store *st,
			  const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			  const uint64_t *orient, int norient, size_t offset, size_t limit,
			  struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	struct listing_key *keys = NULL;
	size_t cap_keys = 0;
	int ret, rc, by_date = 0, sort_here;

	if (hash && limit && !symmetric) {
		ret = listing_by_date(&by_date, st, f, *hash, offset + limit, err);
		if (ret < 0)
			goto out;
	}
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.date, g.result, g.plies, ");
	if (by_date) {
		/* CROSS JOIN: the dates in order, then each game's row in the index and the listing */
		kifu_buf_puts(&sql, "h.ply, g.players, g.date_first FROM games d CROSS JOIN "
			      "positions_hash h CROSS JOIN game_listing g WHERE h.hash = ?1 AND "
			      "h.game_id = d.id AND g.id = d.id AND ");
	} else if (hash) {
		kifu_buf_puts(&sql, "h.ply, g.players, g.date_first FROM (SELECT game_id, ply FROM ");
		/* Without the orientations, a canonical hash is looked up in the view (slowly). */
		if (symmetric && !orient)
			kifu_buf_puts(&sql, "positions_canon");
		else
			kifu_store_reach_sql_(&sql, st, symmetric, 1);
		kifu_buf_puts(&sql, " WHERE hash = ?1) AS h CROSS JOIN game_listing g WHERE "
			      "g.id = h.game_id AND ");
	} else
		kifu_buf_puts(&sql, "NULL, g.players, g.date_first FROM game_listing g WHERE ");
	ret = kifu_filter_sql_(&sql, f, "g", hash ? 2 : 1, err);
	if (ret < 0)
		goto out;
	/*
	 * (the same order: game_listing's dates are the games', kept so by its
	 * triggers). A whole search (not a page) is sorted here, on keys of two
	 * integers: SQLite's sorter took longer than the rest of the search.
	 */
	sort_here = !by_date && !limit;
	if (!sort_here)
		kifu_buf_puts(&sql, by_date ? " ORDER BY d.date_first DESC NULLS LAST, d.id DESC"
			      : " ORDER BY g.date_first DESC NULLS LAST, g.id DESC");
	if (limit)
		kifu_buf_printf(&sql, " LIMIT %zu OFFSET %zu", limit, offset);
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&s, st, sql.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot search games", err);
		goto out;
	}
	if (hash)
		kifu_db_bind_int64_(s, 1, (int64_t)*hash);
	if (hash && orient)
		kifu_store_reach_bind_(s, st, symmetric, orient, norient);
	ret = kifu_filter_bind_(s, hash ? 2 : 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		ret = add_hit(res, s, 8, err);
		if (ret < 0)
			goto out;
		if (sort_here) {
			if (res->n > cap_keys) {
				size_t cap = cap_keys ? cap_keys * 2 : 256;
				struct listing_key *k = realloc(keys, cap * sizeof(*k));

				if (!k) {
					ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
					goto out;
				}
				keys = k;
				cap_keys = cap;
			}
			keys[res->n - 1].day = listing_day(s, 8);
			keys[res->n - 1].id = res->v[res->n - 1].id;
			keys[res->n - 1].hit = res->n - 1;
		}
		if (!add_players_plain(res, kifu_db_column_text_(s, 7),
				       kifu_db_column_bytes_(s, 7), &ret, err))
			ret = add_players_json(res, kifu_db_column_text_(s, 7),
					       kifu_db_column_bytes_(s, 7), err);
		if (ret < 0)
			goto out;
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot search games", err);
	else if (sort_here && res->n && listing_sort(res, keys) < 0)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
out:
	free(keys);
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

static int search_games(struct kifu_search_result **out, struct kifu_store *st,
			const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			const uint64_t *orient, int norient, size_t offset, size_t limit,
			struct kifu_error *err);

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int kifu_search_games_among_(struct kifu_search_result **out, struct kifu_store *st,
			     const struct kifu_filter *f, const int64_t *ids, const long *plies,
			     size_t n, struct kifu_error *err)
{
	struct kifu_search_result *res;
	size_t i, kept = 0;
	int ret = search_games(&res, st, f, NULL, 0, NULL, 0, 0, 0, err);

	*out = NULL;
	if (ret < 0)
		return ret;
	/* Each hit's players stay where they are: only the hits move. */
	for (i = 0; i < res->n; i++) {
		const int64_t *k = n ? bsearch(&res->v[i].id, ids, n, sizeof(*ids), cmp_id) : NULL;

		if (!k)
			continue;
		res->v[kept] = res->v[i];
		res->v[kept++].ply = plies[k - ids];
	}
	res->n = kept;
	*out = res;
	return 0;
}

int kifu_search_games(struct kifu_search_result **out, struct kifu_store *st,
		      const struct kifu_filter *f, const uint64_t *hash, struct kifu_error *err)
{
	return kifu_search_games_symmetric(out, st, f, hash, 0, err);
}


int kifu_search_games_symmetric(struct kifu_search_result **out, struct kifu_store *st,
				const struct kifu_filter *f, const uint64_t *hash, int symmetric,
				struct kifu_error *err)
{
	return search_games(out, st, f, hash, symmetric, NULL, 0, 0, 0, err);
}

int kifu_search_games_oriented(struct kifu_search_result **out, struct kifu_store *st,
			       const struct kifu_filter *f, const uint64_t *hash,
			       const uint64_t *orient, int n, struct kifu_error *err)
{
	return search_games(out, st, f, hash, 1, orient, n, 0, 0, err);
}

int kifu_search_games_page(struct kifu_search_result **out, struct kifu_store *st,
			   const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			   const uint64_t *orient, int norient, size_t offset, size_t limit,
			   struct kifu_error *err)
{
	return search_games(out, st, f, hash, symmetric, orient, norient, offset, limit, err);
}

static int search_games(struct kifu_search_result **out, struct kifu_store *st,
			const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			const uint64_t *orient, int norient, size_t offset, size_t limit,
			struct kifu_error *err)
{
	struct kifu_search_result *res = calloc(1, sizeof(*res));
	struct name_cache nc = { NULL, NULL, 0, 0, NULL };
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int64_t last = 0;
	size_t i, seen = 0;
	int ret, rc, first = hash ? 2 : 1, snapshot = 0, started = 0, skipping = 0;

	*out = NULL;
	if (!res)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	/* The games and their players' names from one snapshot, while writers go on. */
	if (!kifu_store_in_transaction(st)) {
		ret = kifu_store_begin_tx(st, KIFU_TX_READ, err);
		if (ret < 0) {
			kifu_search_result_free(res);
			return ret;
		}
		snapshot = 1;
	}
	if (symmetric && kifu_store_version(st) < 5) {
		kifu_error_at(err, kifu_store_path(st), 0, 0);
		ret = kifu_error_set(err, KIFU_EDB, "database '%s': --symmetric needs schema "
				     "version 5 (kifu-import upgrades it)", kifu_store_path(st));
		goto out;
	}
	/* the index follows the hashes: one per position, or a game would be missed silently */
	if (hash) {
		ret = kifu_store_packed_check_(st, err);
		if (ret < 0)
			goto out;
	}
	if (listing_usable(st, f)) {
		ret = search_listing(res, st, f, hash, symmetric, orient, norient, offset, limit,
				     err);
		goto done;
	}
	/*
	 * One statement: each game with its sides (one row per side, none for
	 * a game without players). With a position, the GROUP BY runs on the
	 * index positions(hash), which holds (hash, game_id, ply) in order, so
	 * each game's first ply comes without a sort; CROSS JOIN keeps SQLite
	 * from scanning that index the other way round.
	 */
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.date, g.result, g.plies, ");
	if (hash)
		kifu_buf_printf(&sql, "h.ply, s.side, s.player_id, g.date_first FROM (%s) AS h "
				      "CROSS JOIN games g "
				      "LEFT JOIN sides s ON s.game_id = g.id WHERE g.id = h.game_id AND ",
				kifu_search_position_index_(st)
				? "SELECT game_id, ply FROM positions_hash WHERE hash = ?1"
				: "SELECT game_id, min(ply) AS ply FROM positions WHERE hash = ?1 "
				  "GROUP BY game_id");
	else
		kifu_buf_puts(&sql, "NULL, s.side, s.player_id, g.date_first FROM games g "
				    "LEFT JOIN sides s ON s.game_id = g.id WHERE ");
	ret = kifu_filter_sql_(&sql, f, "g", first, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " ORDER BY g.date_first DESC NULLS LAST, g.id DESC, s.side_index");
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	ret = kifu_db_prepare_(&s, st, sql.data, err);
	if (ret < 0)
		goto out;
	if (hash)
		kifu_db_bind_int64_(s, 1, (int64_t)*hash);
	ret = kifu_filter_bind_(s, first, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);

		if (!started || id != last) {
			started = 1;
			last = id;
			/* A page: the games before it are passed over, those after it not read. */
			skipping = limit && seen++ < offset;
			if (!skipping && limit && res->n == limit)
				break;
			if (!skipping && (ret = add_hit(res, s, 9, err)) < 0)
				goto out;
		}
		if (skipping)
			continue;
		if (!kifu_db_column_is_null_(s, 8)) {
			ret = add_player(res, &nc, st, s, err);
			if (ret < 0)
				goto out;
		}
	}
	if (rc != KIFU_DB_DONE && rc != KIFU_DB_ROW) {
		ret = kifu_search_fail_db_(st, "cannot search games", err);
		goto out;
	}
done:
	/* The players array stopped moving: point each hit at its part. */
	for (i = 0; ret == 0 && i < res->n; i++)
		res->v[i].players = res->players ? res->players + res->first_player[i] : NULL;
out:
	kifu_db_finalize_(s);
	name_cache_release(&nc);
	kifu_buf_release(&sql);
	if (snapshot)
		kifu_store_rollback(st); /* read only: nothing to keep */
	if (ret < 0) {
		kifu_search_result_free(res);
		return ret;
	}
	*out = res;
	return 0;
}

void kifu_search_result_window(struct kifu_search_result *res, size_t offset, size_t limit)
{
	size_t n;

	if (!res)
		return;
	if (offset >= res->n) {
		res->n = 0;
		return;
	}
	n = res->n - offset;
	if (limit && n > limit)
		n = limit;
	/* (a hit's players point into res->players, which stays) */
	memmove(res->v, res->v + offset, n * sizeof(*res->v));
	res->n = n;
}

int kifu_search_json(struct kifu_buf *b, const struct kifu_search_result *res, int with_ply)
{
	size_t i, k, n = kifu_search_count(res);

	kifu_buf_puts(b, n ? "[\n" : "[]\n");
	for (i = 0; i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		kifu_buf_puts(b, "  {\"id\": ");
		kifu_buf_int(b, h->id);
		kifu_buf_puts(b, ", \"game\": ");
		kifu_buf_json_string(b, h->game);
		kifu_buf_puts(b, ", \"variant\": ");
		kifu_buf_json_string(b, h->variant);
		kifu_buf_puts(b, ", \"players\": {");
		for (k = 0; k < h->nplayers; k++) {
			kifu_buf_puts(b, k ? ", " : "");
			kifu_buf_json_string(b, h->players[k].side);
			kifu_buf_puts(b, ": ");
			kifu_buf_json_string(b, h->players[k].name);
		}
		kifu_buf_puts(b, "}, \"date\": ");
		if (h->date)
			kifu_buf_json_string(b, h->date);
		else
			kifu_buf_puts(b, "null");
		kifu_buf_puts(b, ", \"result\": ");
		kifu_buf_json_string(b, h->result);
		kifu_buf_puts(b, ", \"plies\": ");
		kifu_buf_int(b, h->plies);
		if (with_ply) {
			kifu_buf_puts(b, ", \"ply\": ");
			kifu_buf_int(b, h->ply);
		}
		kifu_buf_puts(b, i + 1 < n ? "},\n" : "}\n]\n");
	}
	return b->failed ? KIFU_ENOMEM : 0;
}

int kifu_search_csv(struct kifu_buf *b, const struct kifu_search_result *res, int with_ply)
{
	const char *sides[16];
	size_t i, k, j, n = kifu_search_count(res), nsides = 0;

	/* one column per side, in order of first appearance (as a csv mixing games does) */
	for (i = 0; i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		for (k = 0; k < h->nplayers; k++) {
			for (j = 0; j < nsides && strcmp(sides[j], h->players[k].side); j++)
				;
			if (j == nsides && nsides < 16)
				sides[nsides++] = h->players[k].side;
		}
	}
	kifu_buf_puts(b, "id,game,variant");
	for (j = 0; j < nsides; j++) {
		kifu_buf_putc(b, ',');
		kifu_buf_csv_field(b, sides[j]);
	}
	kifu_buf_puts(b, with_ply ? ",date,result,plies,ply\r\n" : ",date,result,plies\r\n");
	for (i = 0; i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		kifu_buf_int(b, h->id);
		kifu_buf_putc(b, ',');
		kifu_buf_csv_field(b, h->game);
		kifu_buf_putc(b, ',');
		kifu_buf_csv_field(b, h->variant);
		for (j = 0; j < nsides; j++) {
			kifu_buf_putc(b, ',');
			for (k = 0; k < h->nplayers; k++)
				if (!strcmp(h->players[k].side, sides[j]))
					kifu_buf_csv_field(b, h->players[k].name);
		}
		kifu_buf_putc(b, ',');
		if (h->date)
			kifu_buf_csv_field(b, h->date);
		kifu_buf_putc(b, ',');
		kifu_buf_csv_field(b, h->result);
		kifu_buf_putc(b, ',');
		kifu_buf_int(b, h->plies);
		if (with_ply) {
			kifu_buf_putc(b, ',');
			kifu_buf_int(b, h->ply);
		}
		kifu_buf_puts(b, "\r\n");
	}
	return b->failed ? KIFU_ENOMEM : 0;
}
