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
			r.plies = (long)kifu_db_column_int64_(s, 5);
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

