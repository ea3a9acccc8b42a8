/*
 * The balance's sums (schema 12's stats_balance) counted from the stored
 * games, for the games the table lacks: each game read with its players'
 * names (in id order, as kifu-stats balance reads them), its level told
 * and its legal moves summed over its stored moves replayed, then added
 * up with store_sums.c's functions, as the store counts the games it
 * writes (store_kept.c): what the balance report's refresh adds, the games
 * its table lacks (a database written before schema 12, a state
 * forgotten, games another writer left behind).
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "store/store_impl.h"

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

/* One game as read: its row, its sides' player names (NULL: none), its moves. */
struct reading {
	int64_t id;
	const struct kifu_game *g;
	int variant, first, res, ok;
	long plies;
	char *names[KIFU_SUMS_MAX_SIDES];
	struct kifu_buf moves;
	int has_moves;
};

/* The replay's count: the legal moves before each of the game's plies. */
struct legal_count {
	const struct kifu_game *g;
	long plies;
	size_t last;       /* the last ply replayed */
	uint64_t legal;
	kifu_move *buf;
};

static int count_legal(void *ctx, const void *state, size_t ply)
{
	struct legal_count *lc = ctx;

	lc->last = ply;
	if ((long)ply < lc->plies)
		lc->legal += kifu_store_sums_legal_at_(lc->g, state, lc->buf);
	return 0;
}

static void reading_clear(struct reading *r)
{
	int i;

	for (i = 0; i < KIFU_SUMS_MAX_SIDES; i++) {
		free(r->names[i]);
		r->names[i] = NULL;
	}
}

/* Scratch room for a position of g and its moves (held across games). */
struct scratch {
	void *state;
	size_t state_cap;
	kifu_move *buf;
	size_t buf_cap;
};

static int scratch_for(struct scratch *sc, const struct kifu_game *g)
{
	if (g->state_size > sc->state_cap) {
		void *p = realloc(sc->state, g->state_size);

		if (!p)
			return KIFU_ENOMEM;
		sc->state = p;
		sc->state_cap = g->state_size;
	}
	if (!g->count_moves && g->max_moves > sc->buf_cap) {
		kifu_move *p = realloc(sc->buf, g->max_moves * sizeof(*p));

		if (!p)
			return KIFU_ENOMEM;
		sc->buf = p;
		sc->buf_cap = g->max_moves;
	}
	return 0;
}

/* Counts the game read into a: left out as kifu-stats balance leaves it out, else at its level. */
static int reading_count(struct kifu_store_sums_ *a, struct kifu_store *st, struct scratch *sc,
			 const struct reading *r, struct kifu_error *err)
{
	struct kifu_store_sums_game_ x;
	struct legal_count lc;
	struct kifu_error why;
	const struct kifu_game *g = r->g;
	int ret;

	if (!r->ok || !g || r->variant < 0 || r->res == KIFU_SUMS_UNKNOWN || r->first < 0)
		return 0;
	memset(&x, 0, sizeof(x));
	x.level = kifu_store_sums_level_(&x.spec, &x.spec_len, (const char *const *)r->names,
					 g->nsides < KIFU_SUMS_MAX_SIDES ? g->nsides
									 : KIFU_SUMS_MAX_SIDES, 1);
	if (x.level == KIFU_SUMS_LEVEL_OUT)
		return 0;
	if (scratch_for(sc, g) < 0)
		return nomem(err);
	memset(&lc, 0, sizeof(lc));
	lc.g = g;
	lc.plies = r->plies;
	lc.buf = sc->buf;
	kifu_error_clear(&why);
	ret = g->init(sc->state, r->variant, r->first, &why);
	if (ret == 0)
		ret = kifu_store_replay_stored_(g, sc->state, r->has_moves ? r->moves.data : NULL,
						count_legal, &lc);
	if (ret < 0 || (long)lc.last != r->plies)
		return kifu_db_damaged_(st, err, "game %lld does not replay as stored as its %ld "
					"plies", (long long)r->id, r->plies);
	x.g = g;
	x.variant = r->variant;
	x.first = r->first;
	x.result = r->res >= 0 ? g->sides[r->res] : r->res == KIFU_SUMS_DRAW ? "draw" : "unfinished";
	x.plies = r->plies;
	x.legal = lc.legal;
	return kifu_store_sums_add_(a, &x, 1u << KIFU_SUMS_BALANCE) < 0 ? nomem(err) : 0;
}

int kifu_store_balance_count_(struct kifu_store *st, int64_t after, int64_t upto,
			      struct kifu_error *err)
{
	struct kifu_store_sums_ *a = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	struct scratch sc;
	struct reading r;
	int ret = 0, rc;

	memset(&r, 0, sizeof(r));
	memset(&sc, 0, sizeof(sc));
	r.id = -1;
	kifu_buf_printf(&sql, "SELECT g.id, g.game, g.variant, g.first, g.result, g.plies, m.moves, "
			"s.side_index, p.name FROM games g LEFT JOIN %s m ON m.game_id = g.id "
			"LEFT JOIN sides s ON s.game_id = g.id "
			"LEFT JOIN players p ON p.id = s.player_id "
			"WHERE g.id > ?1 AND g.id <= ?2 ORDER BY g.id, s.side_index",
			kifu_db_game_data_(st));
	if (sql.failed || kifu_store_sums_new_(&a) < 0) {
		ret = nomem(err);
		goto out;
	}
	if (kifu_db_prepare_(&s, st, sql.data, err) < 0) {
		ret = kifu_store_fail_(st, "cannot count the balance", err);
		goto out;
	}
	kifu_db_bind_int64_(s, 1, after);
	kifu_db_bind_int64_(s, 2, upto);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);
		const char *name;
		int side;

		if (id != r.id) {
			if (r.id >= 0 && (ret = reading_count(a, st, &sc, &r, err)) < 0)
				break;
			reading_clear(&r);
			r.id = id;
			r.ok = 1;
			r.g = kifu_db_column_text_(s, 1) ? kifu_game_find(kifu_db_column_text_(s, 1))
							 : NULL;
			r.variant = r.first = -1;
			r.res = KIFU_SUMS_UNKNOWN;
			if (r.g) {
				const char *v = kifu_db_column_text_(s, 2);
				const char *f = kifu_db_column_text_(s, 3);

				r.variant = v ? kifu_game_variant_index(r.g, v) : -1;
				r.first = f ? kifu_game_side_index(r.g, f) : -1;
				r.res = kifu_store_sums_classify_(r.g, kifu_db_column_text_(s, 4));
			}
			{
				long long plies;

				ret = kifu_db_column_whole_(&plies, s, 5, 0, KIFU_DB_PLIES_MAX, err,
							    "games.plies of game %lld",
							    (long long)id);
				if (ret < 0)
					break;
				r.plies = (long)plies;
			}
			kifu_buf_reset(&r.moves);
			r.has_moves = !kifu_db_column_is_null_(s, 6);
			if (r.has_moves)
				kifu_buf_puts(&r.moves, kifu_db_column_text_(s, 6));
			if (r.moves.failed) {
				ret = nomem(err);
				break;
			}
		}
		if (kifu_db_column_is_null_(s, 7))
			continue; /* a game without players */
		side = kifu_db_column_int_(s, 7);
		name = kifu_db_column_text_(s, 8);
		if (side < 0 || side >= KIFU_SUMS_MAX_SIDES || r.names[side] || !name) {
			r.ok = 0;
			continue;
		}
		r.names[side] = strdup(name);
		if (!r.names[side]) {
			ret = nomem(err);
			break;
		}
	}
	if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
		ret = kifu_store_fail_(st, "cannot count the balance", err);
	if (ret == 0 && r.id >= 0)
		ret = reading_count(a, st, &sc, &r, err);
	kifu_db_finalize_(s);
	s = NULL;
	if (ret == 0)
		ret = kifu_store_sums_write_(st, a, 1u << KIFU_SUMS_BALANCE, err);
out:
	kifu_db_finalize_(s);
	reading_clear(&r);
	kifu_buf_release(&r.moves);
	kifu_buf_release(&sql);
	free(sc.state);
	free(sc.buf);
	kifu_store_sums_free_(a);
	return ret;
}


/* ---- Checking the kept sums against the games ---- */

/* A game and variant: the games stats_balance sums at its levels, and the games stored. */
struct gv_total {
	char *game, *variant;
	long long kept, stored;
};

struct gv_totals {
	struct gv_total *v;
	size_t n, cap;
};

/* The entry of game and variant (added when new), or NULL when out of memory. */
static struct gv_total *total_get(struct gv_totals *t, const char *game, const char *variant)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].game, game) && !strcmp(t->v[i].variant, variant))
			return &t->v[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct gv_total *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].game = strdup(game);
	t->v[t->n].variant = strdup(variant);
	if (!t->v[t->n].game || !t->v[t->n].variant) {
		free(t->v[t->n].game);
		free(t->v[t->n].variant);
		return NULL;
	}
	return &t->v[t->n++];
}

/*
 * The games the balance counts, per game and variant (KIFU_STORE_SPEC_PLAYER_SQL_'s
 * grammar): those with a result whose sides have no SPEC player, or a player
 * "SPEC #k" of one SPEC on each of the game's sides (kifu_store_sums_level_).
 */
static int counted_sql(struct kifu_buf *sql)
{
	int k;

	kifu_buf_puts(sql, "SELECT g.game, g.variant, count(*) FROM games g LEFT JOIN "
			   "(SELECT ls.game_id AS id, count(*) AS n, "
			   "min(rtrim(lp.name, " KIFU_STORE_DIGITS_SQL_ ")) AS lo, "
			   "max(rtrim(lp.name, " KIFU_STORE_DIGITS_SQL_ ")) AS hi "
			   "FROM sides ls JOIN players lp ON lp.id = ls.player_id WHERE "
			   KIFU_STORE_SPEC_PLAYER_SQL_ " GROUP BY ls.game_id) sp ON sp.id = g.id "
			   "WHERE g.result IS NOT NULL AND (sp.id IS NULL OR (sp.lo = sp.hi AND "
			   "sp.n = CASE g.game");
	for (k = 0; kifu_games[k]; k++)
		kifu_buf_printf(sql, " WHEN '%s' THEN %d", kifu_games[k]->name, kifu_games[k]->nsides);
	kifu_buf_puts(sql, " ELSE -1 END)) GROUP BY g.game, g.variant");
	return sql->failed ? KIFU_ENOMEM : 0;
}

/* Reads the rows of sql (game, variant, count) into t's stored: 0, or an error. */
static int read_stored(struct gv_totals *t, struct kifu_store *st, const char *sql,
		       struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret = 0, rc;

	if (kifu_db_prepare_(&s, st, sql, err) < 0)
		return kifu_store_fail_(st, "cannot check the statistics", err);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *game = kifu_db_column_text_(s, 0), *variant = kifu_db_column_text_(s, 1);
		struct gv_total *e;

		if (!game || !variant)
			continue; /* a game no report shows */
		e = total_get(t, game, variant);
		if (!e) {
			ret = nomem(err);
			break;
		}
		e->stored = kifu_db_column_int64_(s, 2);
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot check the statistics", err);
	kifu_db_finalize_(s);
	return ret;
}

/* Whether game and variant are ones this kifu knows (the only ones the balance counts). */
static int known(const char *game, const char *variant)
{
	const struct kifu_game *g = kifu_game_find(game);

	return g && kifu_game_variant_index(g, variant) >= 0;
}

int kifu_store_balance_check_(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct gv_totals t = { NULL, 0, 0 };
	struct kifu_stmt *s = NULL;
	int ret = 0, rc, exact = 0;
	size_t i;

	if (kifu_db_prepare_(&s, st, "SELECT game, variant, games FROM stats_balance", err) < 0) {
		ret = kifu_store_fail_(st, "cannot check the statistics", err);
		goto out;
	}
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *game = kifu_db_column_text_(s, 0), *variant = kifu_db_column_text_(s, 1);
		struct gv_total *e;
		long long v;

		if (!game || !variant || !known(game, variant))
			continue; /* a game no report shows */
		e = total_get(&t, game, variant);
		if (!e) {
			ret = nomem(err);
			break;
		}
		ret = kifu_db_column_whole_(&v, s, 2, 1, KIFU_DB_COUNT_MAX, err,
					    "stats_balance.games of %s %s", game, variant);
		if (ret == 0)
			ret = kifu_db_sum_(&e->kept, v, st, err, "stats_balance.games of %s %s", game,
					   variant);
		if (ret < 0)
			break;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot check the statistics", err);
	kifu_db_finalize_(s);
	s = NULL;
	/* The games of each game and variant (one scan), then, where some are not summed, those at a level. */
	if (ret == 0)
		ret = read_stored(&t, st, "SELECT game, variant, count(*) FROM games WHERE result IS "
				  "NOT NULL GROUP BY game, variant", err);
	for (i = 0; ret == 0 && i < t.n; i++)
		if (t.v[i].kept < t.v[i].stored && known(t.v[i].game, t.v[i].variant))
			exact = 1;
	if (ret == 0 && exact) {
		for (i = 0; i < t.n; i++)
			t.v[i].stored = 0;
		ret = counted_sql(&sql) < 0 ? nomem(err) : read_stored(&t, st, sql.data, err);
	}
	for (i = 0; ret == 0 && i < t.n; i++) {
		const struct gv_total *e = &t.v[i];

		if (!known(e->game, e->variant) || e->kept == e->stored ||
		    (!exact && e->kept < e->stored))
			continue;
		ret = kifu_db_damaged_(st, err, "stats_balance of %s %s sums %lld games, the "
				       "database holds %lld %s", e->game, e->variant, e->kept,
				       e->stored, exact ? "at a level" : "of it");
	}
out:
	kifu_db_finalize_(s);
	for (i = 0; i < t.n; i++) {
		free(t.v[i].game);
		free(t.v[i].variant);
	}
	free(t.v);
	kifu_buf_release(&sql);
	return ret;
}
