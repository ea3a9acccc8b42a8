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
 * The report (every listed game, most of the variant for a wide filter)
 * reads the variant's games once each in date order (stats_novelty_pass.c:
 * positions and moves kept in memory). One game's novelty
 * (kifu_stats_novelty, kifu-export's, the pages') walks the game instead:
 * per position on its path it reads the games reaching it from the tree
 * counts or the position index, kept in a cache so that the games of one
 * run that share an opening read it once.
 */
#include <stdlib.h>
#include <string.h>


#include "stats/stats_impl.h"
#include "store/store_impl.h"
#include "util/hash.h"
#include "util/json_list.h"

#define DATE_LEN 11 /* YYYY-MM-DD and its NUL */
#define CACHE_MAX 65536 /* positions a novelty finder keeps */

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
	int dates_read; /* dates holds every dated game, plays every move */
	int tracked;    /* plays came from tree_moves, which tracks the position */
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

/* Records that a game of date played move from r's position (the earliest date kept). */
static int reach_play(struct reach *r, size_t *cap_plays, const char *date, const char *move)
{
	size_t i;

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

/* Records that a game of date reached r's position and played move (NULL: it ended there). */
static int reach_add(struct reach *r, size_t *cap_dates, size_t *cap_plays, const char *date,
		     const char *move)
{
	if (r->ndates == *cap_dates) {
		size_t cap = *cap_dates ? 2 * *cap_dates : 16;
		char (*d)[DATE_LEN] = realloc(r->dates, cap * sizeof(*d));

		if (!d)
			return KIFU_ENOMEM;
		r->dates = d;
		*cap_dates = cap;
	}
	snprintf(r->dates[r->ndates++], DATE_LEN, "%s", date);
	return move ? reach_play(r, cap_plays, date, move) : 0;
}

/*
 * Where the earlier games' moves come from, with what was read so far: the
 * position index (every dated game of the variant reaching a position,
 * with its move from there), and for one game's novelty the tree counts
 * first, whose rows for a position they track hold each move's earliest
 * first day among the very games the index would give (tree_moves'
 * first_seen), so that the popular positions of the first plies are read
 * as a few rows; past them the index is asked whether an earlier game
 * played the move (the first such game ends the read, where the report
 * reads every game reaching the position). The number of earlier games is
 * then counted by the index at the novelty alone.
 */
struct source {
	struct kifu_store *st;
	struct kifu_stmt *reach; /* the index: ?1's dated games of the variant (?2, ?3) */
	struct kifu_stmt *tree;  /* tree_moves' rows of ?1 (NULL: the index alone) */
	struct kifu_stmt *count; /* ?1's dated games before ?4 (with tree) */
	struct kifu_stmt *played; /* one game before ?4 that played ?5 from ?1 (with tree) */
	struct cache cache;
};

/* The statements of src for game g's variant, tree_moves' with tree. */
static int source_prepare(struct source *src, const struct kifu_game *g, int variant, int tree,
			  struct kifu_error *err)
{
	struct kifu_store *st = src->st;
	struct kifu_buf sql = KIFU_BUF_INIT, played = KIFU_BUF_INIT;
	int ret = 0;

	kifu_buf_printf(&sql, "SELECT g.date_first, ");
	kifu_db_json_at_(&sql, st, "m.moves", "h.ply");
	kifu_buf_printf(&sql, " FROM positions_hash h CROSS JOIN games g CROSS JOIN %s m "
			"WHERE h.hash = ?1 AND g.id = h.game_id AND m.game_id = h.game_id AND "
			"g.game = ?2 AND g.variant = ?3 AND g.date_first IS NOT NULL",
			kifu_db_game_data_(st));
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (tree) {
		kifu_buf_printf(&played, "SELECT 1 FROM positions_hash h CROSS JOIN games g CROSS "
				"JOIN %s m WHERE h.hash = ?1 AND g.id = h.game_id AND m.game_id = "
				"h.game_id AND g.game = ?2 AND g.variant = ?3 AND g.date_first < ?4 "
				"AND ", kifu_db_game_data_(st));
		kifu_db_json_at_(&played, st, "m.moves", "h.ply");
		kifu_buf_puts(&played, " = ?5 LIMIT 1");
		if (played.failed) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (kifu_db_prepare_(&src->reach, st, sql.data, err) < 0 ||
	    (tree && kifu_db_prepare_(&src->tree, st, "SELECT move, first_seen FROM tree_moves "
				      "WHERE \"symmetric\" = 0 AND hash = ?1 AND game = ?2 AND "
				      "variant = ?3", err) < 0) ||
	    (tree && kifu_db_prepare_(&src->count, st, "SELECT count(*) FROM positions_hash h "
				      "CROSS JOIN games g WHERE h.hash = ?1 AND g.id = h.game_id AND "
				      "g.game = ?2 AND g.variant = ?3 AND g.date_first < ?4", err) < 0) ||
	    (tree && kifu_db_prepare_(&src->played, st, played.data, err) < 0)) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	kifu_db_bind_text_static_(src->reach, 2, g->name, -1);
	kifu_db_bind_text_static_(src->reach, 3, g->variants[variant], -1);
	if (tree) {
		kifu_db_bind_text_static_(src->tree, 2, g->name, -1);
		kifu_db_bind_text_static_(src->tree, 3, g->variants[variant], -1);
		kifu_db_bind_text_static_(src->count, 2, g->name, -1);
		kifu_db_bind_text_static_(src->count, 3, g->variants[variant], -1);
		kifu_db_bind_text_static_(src->played, 2, g->name, -1);
		kifu_db_bind_text_static_(src->played, 3, g->variants[variant], -1);
	}
out:
	kifu_buf_release(&sql);
	kifu_buf_release(&played);
	return ret;
}

static void source_release(struct source *src)
{
	kifu_db_finalize_(src->reach);
	kifu_db_finalize_(src->tree);
	kifu_db_finalize_(src->count);
	kifu_db_finalize_(src->played);
	cache_release(&src->cache);
}

/* Every dated game reaching r's position, from the index, into r. */
static int read_index(struct source *src, struct reach *r, struct kifu_error *err)
{
	struct kifu_stmt *s = src->reach;
	size_t cap_dates = r->ndates, cap_plays = r->nplays;
	int rc;

	kifu_db_bind_int64_(s, 1, (int64_t)r->hash);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *date = kifu_db_column_text_(s, 0);

		if (date && reach_add(r, &cap_dates, &cap_plays, date,
				      kifu_db_column_text_(s, 1)) < 0) {
			kifu_db_reset_(s);
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		}
	}
	kifu_db_reset_(s);
	if (rc != KIFU_DB_DONE)
		return kifu_search_fail_db_(src->st, "cannot find novelties", err);
	qsort(r->dates, r->ndates, sizeof(*r->dates), cmp_date);
	r->dates_read = 1;
	return 0;
}

/*
 * r's moves from tree_moves when it tracks r's position (*found), each
 * with the first day of its first_seen ("2020-01-01 2020").
 */
static int read_tree(int *found, struct source *src, struct reach *r, struct kifu_error *err)
{
	struct kifu_stmt *s = src->tree;
	size_t cap_plays = 0;
	int rc;

	*found = 0;
	kifu_db_bind_int64_(s, 1, (int64_t)r->hash);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *seen = kifu_db_column_text_(s, 1);
		char date[DATE_LEN];

		*found = 1;
		/* the row of move "" counts the games that ended there */
		if (kifu_db_column_bytes_(s, 0) == 0 || !seen)
			continue;
		snprintf(date, sizeof(date), "%.*s", (int)strcspn(seen, " "), seen);
		if (reach_play(r, &cap_plays, date, kifu_db_column_text_(s, 0)) < 0) {
			kifu_db_reset_(s);
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		}
	}
	kifu_db_reset_(s);
	if (rc != KIFU_DB_DONE)
		return kifu_search_fail_db_(src->st, "cannot find novelties", err);
	return 0;
}

/* The position's entry, read the first time it is asked for. */
static struct reach *reach_get(struct source *src, uint64_t hash, struct kifu_error *err)
{
	struct cache *c = &src->cache;
	struct reach *r;
	size_t k;
	int found = 0;

	for (k = c->nslots ? slot_of(hash, c->nslots) : 0; c->nslots && c->slot[k];
	     k = (k + 1) & (c->nslots - 1))
		if (c->v[c->slot[k] - 1].hash == hash)
			return &c->v[c->slot[k] - 1];
	/* one game after another (a finder): the positions kept stay bounded */
	if (src->tree && c->n >= CACHE_MAX) {
		cache_release(c);
		memset(c, 0, sizeof(*c));
	}
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
	if (src->tree && read_tree(&found, src, r, err) < 0)
		return NULL;
	r->tracked = found;
	/* past the tree, one game's novelty asks the index move by move (played_before) */
	if (!found && !src->played && read_index(src, r, err) < 0)
		return NULL;
	return r;
}

/* Earlier games: the dated games reaching r's position before date. */
static int earlier_than(long *n, struct source *src, struct reach *r, const char *date,
			struct kifu_error *err)
{
	size_t lo = 0, hi = r->ndates;
	long long count = 0;
	int rc;

	if (!r->dates_read && src->count) {
		kifu_db_bind_int64_(src->count, 1, (int64_t)r->hash);
		kifu_db_bind_text_static_(src->count, 4, date, -1);
		rc = kifu_db_step_(src->count);
		if (rc == KIFU_DB_ROW)
			count = kifu_db_column_int64_(src->count, 0);
		kifu_db_reset_(src->count);
		if (rc != KIFU_DB_ROW)
			return kifu_search_fail_db_(src->st, "cannot find novelties", err);
		*n = (long)count;
		return 0;
	}
	if (!r->dates_read && read_index(src, r, err) < 0)
		return err ? err->code : KIFU_EDB;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(r->dates[mid], date) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = (long)lo;
	return 0;
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

/* Whether a game dated before date played move from r's position. */
static int played_before(int *yes, struct source *src, struct reach *r, const char *move,
			 const char *date, struct kifu_error *err)
{
	struct kifu_stmt *s = src->played;
	int rc;

	if (r->tracked || r->dates_read || !s) {
		*yes = known(r, move, date);
		return 0;
	}
	kifu_db_bind_int64_(s, 1, (int64_t)r->hash);
	kifu_db_bind_text_static_(s, 4, date, -1);
	kifu_db_bind_text_static_(s, 5, move, -1);
	rc = kifu_db_step_(s);
	kifu_db_reset_(s);
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		return kifu_search_fail_db_(src->st, "cannot find novelties", err);
	*yes = rc == KIFU_DB_ROW;
	return 0;
}

/*
 * The novelty of a game of date date_first with moves (a JSON array of
 * texts) and hashes (nhashes, ply 0 on): out->has_novelty and the rest,
 * earlier counted when asked (else -1). The one walk behind the report
 * and kifu_stats_novelty.
 */
static int novelty_walk(struct kifu_novelty *out, struct source *src, const char *moves_text,
			const uint64_t *hashes, size_t nhashes, const char *date_first,
			int want_earlier, struct kifu_error *err)
{
	struct kifu_json_list l;
	struct kifu_json_item it;
	char move[KIFU_MOVE_TEXT_MAX]; /* a stored move is canonical text: never longer */
	size_t p;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->earlier = -1;
	if (!moves_text || kifu_json_list_open_(&l, moves_text, strlen(moves_text)) < 0)
		return 0;
	for (p = 1; p < nhashes && kifu_json_list_next_(&l, &it) == 1; p++) {
		struct reach *at;
		int yes = 0;

		if (kifu_json_item_decode_(move, sizeof(move), &it) < 0)
			break;
		at = reach_get(src, hashes[p - 1], err);
		if (!at) {
			ret = err ? err->code : KIFU_ENOMEM;
			break;
		}
		ret = played_before(&yes, src, at, move, date_first, err);
		if (ret < 0)
			break;
		if (yes)
			continue;
		out->has_novelty = 1;
		out->ply = (long)p;
		memcpy(out->move, move, sizeof(out->move));
		if (want_earlier)
			ret = earlier_than(&out->earlier, src, at, date_first, err);
		break;
	}
	return ret;
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

/* A listed game's novelty into its row r (columns col[3..5]): null when it left no known move. */
static void put_novelty(struct kifu_report *rep, long r, const long *col,
			const struct kifu_novelty *nov)
{
	if (nov->has_novelty) {
		kifu_report_set_int_(rep, r, col[3], (long long)nov->ply);
		kifu_report_set_text_(rep, r, col[4], nov->move);
		kifu_report_set_int_(rep, r, col[5], nov->earlier);
	} else {
		kifu_report_set_null_(rep, r, col[3]);
		kifu_report_set_null_(rep, r, col[4]);
		kifu_report_set_null_(rep, r, col[5]);
	}
}

/* One listed game's row: its novelty, found along its own moves and hashes. */
static int novelty_row(struct kifu_report *rep, const long *col, struct source *src,
		       struct kifu_stmt *row, const char *players, struct kifu_error *err)
{
	struct kifu_novelty nov;
	uint64_t *hashes = NULL;
	size_t nhashes = 0, cap = 0;
	long r = kifu_report_add_row_(rep);
	long long id = kifu_db_column_int64_(row, 0), plies;
	int ret;

	kifu_report_set_int_(rep, r, col[0], kifu_db_column_int64_(row, 0));
	kifu_report_set_text_(rep, r, col[1], kifu_db_column_text_(row, 1));
	kifu_report_set_text_(rep, r, col[2], players);
	/* the hashes the walk follows: one a position, and the date shown a calendar date */
	ret = kifu_db_column_whole_(&plies, row, 5, 0, KIFU_DB_PLIES_MAX, err, "games.plies of "
				    "game %lld", id);
	if (ret == 0)
		ret = kifu_store_game_hashes_(&hashes, &nhashes, &cap, row, 4, id, plies, err);
	if (ret == 0)
		ret = kifu_db_column_date_(row, 1, 2, err, "games.date of game %lld", id);
	if (ret < 0)
		goto out;
	ret = novelty_walk(&nov, src, kifu_db_column_text_(row, 3), hashes, nhashes,
			   kifu_db_column_text_(row, 2), 1, err);
	if (ret < 0)
		goto out;
	put_novelty(rep, r, col, &nov);
out:
	free(hashes);
	return ret;
}

/*
 * The listed games walked one by one over the position index (few listed:
 * the positions on their paths read, not the whole variant).
 */
static int walk_report(struct kifu_report *rep, const long *col, struct kifu_store *st,
		       const struct kifu_filter *f, const struct kifu_game *g, int variant,
		       struct kifu_stmt *sides, struct kifu_buf *players, struct kifu_error *err)
{
	struct kifu_stmt *list = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct source src;
	int ret, rc;

	memset(&src, 0, sizeof(src));
	src.st = st;
	kifu_buf_printf(&sql, "SELECT g.id, g.date, g.date_first, m.moves, m.hashes, g.plies "
			"FROM games g "
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
	if (kifu_db_prepare_(&list, st, sql.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	/* The index alone: the report reads most positions' games anyway, for earlier. */
	ret = source_prepare(&src, g, variant, 0, err);
	if (ret < 0)
		goto out;
	ret = kifu_filter_bind_(list, 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(list)) == KIFU_DB_ROW) {
		if (players_text(players, sides, g, kifu_db_column_int64_(list, 0)) < 0) {
			ret = kifu_search_fail_db_(st, "cannot find novelties", err);
			goto out;
		}
		if (players->failed) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		ret = novelty_row(rep, col, &src, list, players->data, err);
		if (ret < 0)
			goto out;
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
out:
	kifu_db_finalize_(list);
	kifu_buf_release(&sql);
	source_release(&src);
	return ret;
}

/*
 * Whether f lists at most few games (the walk then reads less than the
 * pass: at 100,000 games 0.06 s instead of 0.15 for a player's games),
 * counted no further than that.
 */
static int listed_few(int *yes, struct kifu_store *st, const struct kifu_filter *f, long long few,
		      struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	int ret, rc = KIFU_DB_ROW;

	*yes = 0;
	kifu_buf_puts(&sql, "SELECT count(*) FROM (SELECT 1 FROM games g WHERE g.date_first IS NOT "
		      "NULL AND ");
	ret = kifu_filter_sql_(&sql, f, "g", 1, err);
	if (ret < 0)
		goto out;
	kifu_buf_printf(&sql, " LIMIT %lld) AS x", few + 1);
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&s, st, sql.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	ret = kifu_filter_bind_(s, 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW)
		*yes = kifu_db_column_int64_(s, 0) <= few;
	else
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/*
 * The pass: every dated game of the variant in (first day, id) order
 * (g.date_first || '' is the date, with no index to follow: the games are
 * read by one scan and sorted, not found one by one down the index of
 * dates), whether f lists it last; its moves and hashes one look-up each.
 */
struct pass_reader {
	struct kifu_stmt *games; /* id, date, date_first, (none), (none), plies, listed */
	struct kifu_stmt *data;  /* moves, hashes of ?1 */
	uint64_t *hashes;
	size_t nhashes, cap;
};

static int pass_prepare(struct pass_reader *pr, struct kifu_store *st, const struct kifu_filter *f,
			const struct kifu_game *g, int variant, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT, data = KIFU_BUF_INIT;
	int ret, n;

	kifu_buf_puts(&sql, "SELECT g.id, g.date, g.date_first, NULL, NULL, g.plies, CASE WHEN ");
	ret = n = kifu_filter_sql_(&sql, f, "g", 1, err);
	if (ret < 0)
		goto out;
	kifu_buf_printf(&sql, " THEN 1 ELSE 0 END FROM games g WHERE g.game = ?%d AND g.variant = "
			"?%d AND g.date_first || '' IS NOT NULL ORDER BY g.date_first || '', g.id",
			n + 1, n + 2);
	kifu_buf_printf(&data, "SELECT moves, hashes FROM %s WHERE game_id = ?1",
			kifu_db_game_data_(st));
	if (sql.failed || data.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&pr->games, st, sql.data, err) < 0 ||
	    kifu_db_prepare_(&pr->data, st, data.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	ret = kifu_filter_bind_(pr->games, 1, f, err);
	if (ret < 0)
		goto out;
	kifu_db_bind_text_static_(pr->games, n + 1, g->name, -1);
	kifu_db_bind_text_static_(pr->games, n + 2, g->variants[variant], -1);
	ret = 0;
out:
	kifu_buf_release(&sql);
	kifu_buf_release(&data);
	return ret;
}

/*
 * Damage for the first game of g's variant whose games.plies is below 0
 * or past KIFU_DB_PLIES_MAX (the game and the value named).
 */
static int plies_damaged(struct kifu_store *st, const struct kifu_game *g, int variant,
			 struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	long long plies;
	int ret = 0;

	if (kifu_db_prepare_(&s, st, "SELECT id, plies FROM games WHERE game = ?1 AND "
			     "variant = ?2 AND (plies < 0 OR plies > ?3) ORDER BY id LIMIT 1",
			     err) < 0)
		return kifu_search_fail_db_(st, "cannot find novelties", err);
	kifu_db_bind_text_static_(s, 1, g->name, -1);
	kifu_db_bind_text_static_(s, 2, g->variants[variant], -1);
	kifu_db_bind_int64_(s, 3, KIFU_DB_PLIES_MAX);
	if (kifu_db_step_(s) == KIFU_DB_ROW)
		ret = kifu_db_column_whole_(&plies, s, 1, 0, KIFU_DB_PLIES_MAX, err,
					    "games.plies of game %lld",
					    (long long)kifu_db_column_int64_(s, 0));
	else
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
	kifu_db_finalize_(s);
	return ret;
}

/*
 * The positions the variant's games pass through (plies + 1 a game): the
 * pass's table made that large at once, not grown and moved four or five
 * times (a scan of games, a fraction of what growing cost). A length no
 * kifu writes is damage, not a table of billions.
 */
static int pass_size(size_t *total, long long *games, struct kifu_store *st,
		     const struct kifu_game *g, int variant, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int rc, bad = 0;

	*total = 0;
	*games = 0;
	if (kifu_db_prepare_(&s, st, "SELECT count(*) + sum(plies), count(*), CASE WHEN "
			     "min(plies) < 0 OR max(plies) > ?3 THEN 1 ELSE 0 END FROM games "
			     "WHERE game = ?1 AND variant = ?2", err) < 0)
		return kifu_search_fail_db_(st, "cannot find novelties", err);
	kifu_db_bind_text_static_(s, 1, g->name, -1);
	kifu_db_bind_text_static_(s, 2, g->variants[variant], -1);
	kifu_db_bind_int64_(s, 3, KIFU_DB_PLIES_MAX);
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW && kifu_db_column_int64_(s, 0) > 0 &&
	    kifu_db_column_int64_(s, 0) < INT64_C(1) << 40)
		*total = (size_t)kifu_db_column_int64_(s, 0);
	if (rc == KIFU_DB_ROW) {
		*games = kifu_db_column_int64_(s, 1);
		bad = !kifu_db_column_is_null_(s, 2) && kifu_db_column_int64_(s, 2) != 0;
	}
	kifu_db_finalize_(s);
	if (rc != KIFU_DB_ROW)
		return kifu_search_fail_db_(st, "cannot find novelties", err);
	return bad ? plies_damaged(st, g, variant, err) : 0;
}

static void pass_release(struct pass_reader *pr)
{
	kifu_db_finalize_(pr->games);
	kifu_db_finalize_(pr->data);
	free(pr->hashes);
}

/*
 * The games row's game read into the pass (pr->data holds its moves and
 * hashes), its row added when listed, checked as novelty_row checks it.
 */
static int pass_row(struct kifu_report *rep, const long *col, struct kifu_novelty_pass_ *np,
		    struct pass_reader *pr, struct kifu_buf *players, struct kifu_store *st,
		    struct kifu_stmt *sides, const struct kifu_game *g, struct kifu_error *err)
{
	struct kifu_stmt *row = pr->games;
	struct kifu_novelty nov;
	long long id = kifu_db_column_int64_(row, 0), plies;
	long r = -1;
	int ret;

	if (!kifu_db_column_int64_(row, 6)) {
		/* an earlier game only: hashes that do not read are none the index holds */
		ret = kifu_store_column_hashes_(&pr->hashes, &pr->nhashes, &pr->cap, pr->data, 1);
		if (ret == KIFU_ENOMEM)
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		if (ret < 0)
			return 0;
	} else {
		if (players_text(players, sides, g, id) < 0)
			return kifu_search_fail_db_(st, "cannot find novelties", err);
		if (players->failed)
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		r = kifu_report_add_row_(rep);
		kifu_report_set_int_(rep, r, col[0], id);
		kifu_report_set_text_(rep, r, col[1], kifu_db_column_text_(row, 1));
		kifu_report_set_text_(rep, r, col[2], players->data);
		ret = kifu_db_column_whole_(&plies, row, 5, 0, KIFU_DB_PLIES_MAX, err,
					    "games.plies of game %lld", id);
		if (ret == 0)
			ret = kifu_store_game_hashes_(&pr->hashes, &pr->nhashes, &pr->cap, pr->data,
						      1, id, plies, err);
		if (ret == 0)
			ret = kifu_db_column_date_(row, 1, 2, err, "games.date of game %lld", id);
		if (ret < 0)
			return ret;
	}
	ret = kifu_stats_novelty_pass_game_(&nov, np, kifu_db_column_text_(pr->data, 0), pr->hashes,
					    pr->nhashes, kifu_db_column_text_(row, 2));
	if (ret < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (r < 0)
		return 0;
	put_novelty(rep, r, col, &nov);
	return 0;
}

static int novelties_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			    const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct kifu_error *err = c->err;
	struct kifu_store *st = c->st;
	struct kifu_stmt *sides = NULL;
	struct kifu_buf players = KIFU_BUF_INIT;
	struct pass_reader pr;
	struct kifu_novelty_pass_ *np = NULL;
	const struct kifu_game *g;
	long col[6];
	size_t total = 0;
	long long games;
	int ret, rc, variant, i, few = 0;

	(void)opt;
	memset(&pr, 0, sizeof(pr));
	ret = kifu_stats_game_of_(&g, &variant, f, "novelties", err);
	if (ret < 0)
		return ret;
	for (i = 0; i < 6; i++)
		col[i] = kifu_report_add_col_(rep, novelties_columns[i], 0, 0);
	if (!kifu_search_position_index_(st))
		goto out; /* a database without the index has no game to list either */
	if (kifu_db_prepare_(&sides, st, "SELECT s.side, p.name FROM sides s JOIN players p ON "
			     "p.id = s.player_id WHERE s.game_id = ?1", err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
	/* a twentieth of the variant or less listed: the walk */
	ret = pass_size(&total, &games, st, g, variant, err);
	if (ret == 0)
		ret = listed_few(&few, st, f, games / 20, err);
	if (ret == 0 && few)
		ret = walk_report(rep, col, st, f, g, variant, sides, &players, err);
	if (ret < 0 || few)
		goto done;
	ret = pass_prepare(&pr, st, f, g, variant, err);
	if (ret < 0)
		goto out;
	if (kifu_stats_novelty_pass_open_(&np, total) < 0) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	while ((rc = kifu_db_step_(pr.games)) == KIFU_DB_ROW) {
		/* a game without moves stored is in no position's games, nor listed */
		kifu_db_bind_int64_(pr.data, 1, kifu_db_column_int64_(pr.games, 0));
		rc = kifu_db_step_(pr.data);
		ret = rc == KIFU_DB_ROW ? pass_row(rep, col, np, &pr, &players, st,
							   sides, g, err) : 0;
		kifu_db_reset_(pr.data);
		if (ret < 0)
			goto out;
		if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
			break;
	}
	if (rc != KIFU_DB_DONE) {
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
		goto out;
	}
done:
	if (ret == 0 && kifu_report_failed_(rep))
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
out:
	pass_release(&pr);
	kifu_db_finalize_(sides);
	kifu_buf_release(&players);
	kifu_stats_novelty_pass_free_(np);
	return ret;
}

const struct kifu_stats_kind_ kifu_stats_novelties_ = {
	.name = "novelties",
	.kind = KIFU_STATS_NOVELTIES,
	.report = novelties_report,
};

/* Statements and positions kept from one game's novelty to the next. */
struct kifu_novelty_finder {
	struct kifu_store *st;
	struct kifu_stmt *row;      /* the game: date_first, moves, hashes, game, variant */
	int indexed;                /* the database has the position index */
	int ready;                  /* tree_moves counts every game, with dates */
	const struct kifu_game *g;  /* whose statements src holds (NULL: none yet) */
	int variant;
	struct source src;
	uint64_t *hashes;
	size_t cap;
};

void kifu_stats_novelty_close(struct kifu_novelty_finder *nf)
{
	if (!nf)
		return;
	kifu_db_finalize_(nf->row);
	source_release(&nf->src);
	free(nf->hashes);
	free(nf);
}

int kifu_stats_novelty_open(struct kifu_novelty_finder **out, struct kifu_store *st,
			    struct kifu_error *err)
{
	struct kifu_novelty_finder *nf = calloc(1, sizeof(*nf));
	struct kifu_buf sql = KIFU_BUF_INIT;
	int ret = 0;

	*out = NULL;
	if (!nf)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	nf->st = st;
	nf->src.st = st;
	nf->indexed = kifu_search_position_index_(st);
	/* The tree counts when they count every game and keep dates (schema 8). */
	if (kifu_store_version(st) >= 8)
		ret = kifu_store_tree_update(&nf->ready, st, err);
	/* Without a position index (schema 3, which has no move lists either): the game, no novelty. */
	if (nf->indexed)
		kifu_buf_printf(&sql, "SELECT g.date_first, m.moves, m.hashes, g.game, g.variant, "
				"g.plies FROM games g CROSS JOIN %s m WHERE m.game_id = g.id AND "
				"g.id = ?1",
				kifu_db_game_data_(st));
	else
		kifu_buf_puts(&sql, "SELECT NULL, NULL, NULL, g.game, g.variant, g.plies FROM games g "
			      "WHERE g.id = ?1");
	if (ret == 0 && sql.failed)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret == 0 && kifu_db_prepare_(&nf->row, st, sql.data, err) < 0)
		ret = kifu_search_fail_db_(st, "cannot find novelties", err);
	kifu_buf_release(&sql);
	if (ret < 0)
		kifu_stats_novelty_close(nf);
	else
		*out = nf;
	return ret;
}

int kifu_stats_novelty_find(struct kifu_novelty *out, struct kifu_novelty_finder *nf,
			    int64_t id, unsigned flags, struct kifu_error *err)
{
	struct kifu_stmt *row = nf->row;
	const struct kifu_game *g;
	size_t nhashes = 0;
	long long plies;
	int ret = 0, rc, variant;

	memset(out, 0, sizeof(*out));
	out->earlier = -1;
	kifu_db_bind_int64_(row, 1, id);
	rc = kifu_db_step_(row);
	if (rc == KIFU_DB_DONE) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no game with id %lld", (long long)id);
		goto out;
	}
	if (rc != KIFU_DB_ROW) {
		ret = kifu_search_fail_db_(nf->st, "cannot find novelties", err);
		goto out;
	}
	/* No date, no index, a game kifu does not know: no novelty, as the report lists none. */
	g = kifu_game_find(kifu_db_column_text_(row, 3));
	variant = g ? kifu_game_variant_index(g, kifu_db_column_text_(row, 4)) : -1;
	if (!kifu_db_column_text_(row, 0) || variant < 0 || !nf->indexed)
		goto out;
	ret = kifu_db_column_whole_(&plies, row, 5, 0, KIFU_DB_PLIES_MAX, err, "games.plies of "
				    "game %lld", (long long)id);
	if (ret == 0)
		ret = kifu_store_game_hashes_(&nf->hashes, &nhashes, &nf->cap, row, 2, id, plies,
					      err);
	if (ret < 0)
		goto out;
	if (g != nf->g || variant != nf->variant) {
		source_release(&nf->src);
		memset(&nf->src, 0, sizeof(nf->src));
		nf->src.st = nf->st;
		nf->g = NULL;
		ret = source_prepare(&nf->src, g, variant, nf->ready, err);
		if (ret < 0)
			goto out;
		nf->g = g;
		nf->variant = variant;
	}
	ret = novelty_walk(out, &nf->src, kifu_db_column_text_(row, 1), nf->hashes, nhashes,
			   kifu_db_column_text_(row, 0), flags & KIFU_NOVELTY_EARLIER, err);
out:
	kifu_db_reset_(row);
	return ret;
}

int kifu_stats_novelty(struct kifu_novelty *out, struct kifu_store *st, int64_t id,
		       unsigned flags, struct kifu_error *err)
{
	struct kifu_novelty_finder *nf;
	int ret = kifu_stats_novelty_open(&nf, st, err);

	if (ret < 0) {
		memset(out, 0, sizeof(*out));
		out->earlier = -1;
		return ret;
	}
	ret = kifu_stats_novelty_find(out, nf, id, flags, err);
	kifu_stats_novelty_close(nf);
	return ret;
}
