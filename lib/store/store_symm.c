/*
 * What the store keeps for board symmetries and the tree (schema 5): the
 * canonical hash of every ply (game_canon.canon, with its index
 * positions_canon), the counts of the moves played from the positions of
 * the first plies (tree_moves) and the narrow listing row of each game
 * (game_listing). A game is replayed once more as it is stored, to map
 * each position by every symmetry; its contributions to tree_moves wait
 * in memory, summed, and are written at the commit (in bulk mode when
 * many have gathered, and at the end), so that a popular position costs
 * one row update per transaction rather than one per game. stats_state
 * 'tree' says up to which game they are counted; a reader that finds it
 * behind (a bulk load killed half-way, a change by hand) counts the games
 * since from game_moves (kifu_store_tree_update, store_tree.c), which is
 * also how the migration fills a database of an older version. The store
 * reaches this file through the hooks of kifu_store_symm_derived_ (a
 * derived table, store_impl.h), at each game, commit, rollback, bulk load
 * and close.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kifu/game.h"
#include "kifu/date.h"
#include "store/store_impl.h"
#include "store/store_symm_impl.h"

/* Summed contributions held in bulk mode before they are written. */
#define HELD_MAX (1u << 18)
/* Games read at a time when counting from game_moves. */
#define FILL_CHUNK 2048

#define STR_(x) #x
#define STR(x) STR_(x)

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

/* Reads the positions tree_moves tracks, once per store (again after another writer). */
static int tset_load(struct kifu_store *st, struct kifu_store_tset_ *t, struct kifu_error *err)
{
	const struct kifu_game *g = NULL;
	struct kifu_stmt *s = NULL;
	int rc, ret = 0;

	if (t->loaded)
		return 0;
	kifu_store_tset_clear_(t);
	if (kifu_db_prepare_(&s, st, "SELECT DISTINCT game, variant, \"symmetric\", hash FROM "
				       "tree_moves", err) < 0)
		return kifu_store_fail_(st, "cannot count the tree", err);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *game = kifu_db_column_text_(s, 0);
		const char *variant = kifu_db_column_text_(s, 1);
		struct kifu_store_tkey_ *k;
		int v;

		if (!g || !game || strcmp(g->name, game) != 0)
			g = game ? kifu_game_find(game) : NULL;
		v = g && variant ? kifu_game_variant_index(g, variant) : -1;
		if (v < 0)
			continue;
		k = kifu_store_tset_find_(t, g, v, kifu_db_column_int_(s, 2),
					  kifu_db_column_int64_(s, 3));
		if (!k) {
			ret = nomem(err);
			break;
		}
		if (!k->g) {
			t->n++;
			k->g = g;
			k->variant = v;
			k->symmetric = kifu_db_column_int_(s, 2);
			k->hash = kifu_db_column_int64_(s, 3);
		}
		k->state = T_OLD;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot count the tree", err);
	kifu_db_finalize_(s);
	t->loaded = ret == 0;
	return ret;
}

static struct kifu_store_symm_ *symm_of(struct kifu_store *st)
{
	if (!st->symm)
		st->symm = calloc(1, sizeof(*st->symm));
	if (st->symm && !st->symm->tracking && !st->symm->last_id)
		st->symm->tracking = -1;
	return st->symm;
}

static void symm_release(struct kifu_store *st)
{
	struct kifu_store_symm_ *sy = st->symm;

	if (!sy)
		return;
	kifu_store_agg_release_(&sy->tx);
	kifu_store_agg_release_(&sy->held);
	free(sy->tracked.v);
	free(sy->plain);
	free(sy->canonh);
	free(sy->states);
	free(sy->opool);
	kifu_buf_release(&sy->canon);
	kifu_buf_release(&sy->players);
	free(sy);
	st->symm = NULL;
}

/* Sets stats_state 'tree' to last_id (the row made when missing). */
static int tree_state_set(struct kifu_store *st, int64_t last_id, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret;

	if (kifu_db_prepare_(&s, st, "INSERT INTO stats_state(name, last_id, depth) VALUES ('tree', ?1, ?2) "
				       "ON CONFLICT(name) DO UPDATE SET last_id = excluded.last_id, "
				       "depth = excluded.depth", err) < 0)
		return kifu_store_fail_(st, "cannot count the tree", err);
	kifu_db_bind_int64_(s, 1, last_id);
	kifu_db_bind_int_(s, 2, TREE_DEPTH);
	ret = kifu_store_step_(st, s, "cannot count the tree", err);
	kifu_db_finalize_(s);
	if (ret == 0 && st->symm)
		st->symm->known_last = last_id;
	return ret;
}

/*
 * Whether tree_moves counts every game before game id: stats_state 'tree'
 * is the last game before it (and of this kifu's depth).
 */
static int tree_current(int *yes, struct kifu_store *st, int64_t id, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int rc;

	*yes = 0;
	if (kifu_db_prepare_(&s, st, "SELECT s.last_id = (SELECT coalesce(max(id), 0) FROM games "
				       "WHERE id < ?1) AND s.depth = ?2, s.last_id FROM stats_state s "
				       "WHERE s.name = 'tree'", err) < 0)
		return kifu_store_fail_(st, "cannot count the tree", err);
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_int_(s, 2, TREE_DEPTH);
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW)
		*yes = kifu_db_column_int_(s, 0) == 1;
	/* Another writer counted games since the tracked positions were read: read them again. */
	if (rc == KIFU_DB_ROW && st->symm && st->symm->known_last != kifu_db_column_int64_(s, 1)) {
		st->symm->tracked.loaded = 0;
		st->symm->known_last = kifu_db_column_int64_(s, 1);
	}
	kifu_db_finalize_(s);
	return rc == KIFU_DB_ROW || rc == KIFU_DB_DONE ? 0
		: kifu_store_fail_(st, "cannot count the tree", err);
}

/* The listing row of game id: players as a JSON object side -> name, in turn order. */
static int insert_listing(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			  const struct kifu_replay *rp, struct kifu_buf *players,
			  struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	struct kifu_stmt *s;
	size_t i;
	int side;

	kifu_buf_reset(players);
	kifu_buf_putc(players, '{');
	for (side = 0; side < g->nsides; side++) {
		const char *name = NULL;

		/* The first player of the side, as insert_sides stores it. */
		for (i = 0; i < rec->nplayers && !name; i++)
			if (rec->players[i].side && rec->players[i].name &&
			    !strcmp(rec->players[i].side, g->sides[side]))
				name = rec->players[i].name;
		if (!name)
			continue;
		if (players->len > 1)
			kifu_buf_putc(players, ',');
		kifu_buf_json_string(players, g->sides[side]);
		kifu_buf_putc(players, ':');
		kifu_buf_json_string(players, name);
	}
	kifu_buf_putc(players, '}');
	if (players->failed)
		return nomem(err);
	s = kifu_store_stmt_(st, ST_LISTING_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_text_static_(s, 2, players->data, (long)players->len);
	return kifu_store_step_(st, s, "cannot store a game", err);
}

/* The canonical hashes of game id (sy->canonh[0..plies]) into game_canon (game_data.canon). */
static int insert_canon(struct kifu_store *st, struct kifu_stmt *s, int64_t id,
			struct kifu_store_symm_ *sy, size_t plies, struct kifu_error *err)
{
	if (kifu_store_pack_hashes_(&sy->canon, st, sy->canonh, plies + 1) < 0)
		return nomem(err);
	kifu_db_bind_int64_(s, 1, id);
	kifu_store_bind_hashes_(s, 2, &sy->canon);
	return kifu_store_step_(st, s, "cannot store the canonical hashes", err);
}

static int symm_game_stored(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			    const struct kifu_replay *rp, struct kifu_error *err)
{
	struct kifu_store_symm_ *sy = symm_of(st);
	struct kifu_stmt *s;
	struct kifu_store_symm_game_ x;
	int ret;

	if (!sy)
		return nomem(err);
	if (sy->tracking < 0) {
		ret = tree_current(&sy->tracking, st, id, err);
		if (ret == 0 && sy->tracking == 1)
			ret = tset_load(st, &sy->tracked, err);
		if (ret < 0)
			return ret;
	}
	memset(&x, 0, sizeof(x));
	x.g = rp->game;
	x.variant = rp->variant >= 0 ? rp->variant : 0;
	x.first = rp->first >= 0 ? rp->first : 0;
	x.res = kifu_store_symm_result_(rp->game, rec->result ? rec->result : "unfinished");
	x.nplies = rp->nplies;
	x.moves = rp->moves;
	x.rp = rp;
	{
		char first_day[16];

		x.seen_end = st->version >= 8;
		kifu_store_symm_seen_(&x, rec->date,
				      rec->date && kifu_date_first_day(first_day, rec->date, NULL) == 0
				      ? first_day : NULL);
	}
	ret = kifu_store_symm_replay_(sy, sy->tracking == 1 ? &sy->tx : NULL, &x, id, 1, err);
	if (ret < 0)
		return ret;
	if (sy->tracking == 1)
		sy->last_id = id;
	if (!sy->tx_min || id < sy->tx_min)
		sy->tx_min = id;
	if (id > sy->tx_max)
		sy->tx_max = id;
	s = kifu_store_stmt_(st, ST_CANON_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	ret = insert_canon(st, s, id, sy, rp->nplies, err);
	return ret < 0 ? ret : insert_listing(st, id, rec, rp, &sy->players, err);
}


/*
 * Indexes the canonical hashes of games first..last from game_canon.canon:
 * the backend's query "canon_index" (?1, ?2: the first and last game id;
 * SQLite explodes the BLOBs with kifu_hashes, in the index's order), or
 * before version 7 its "canon_index_6" where it has one (json_each).
 */
static int canon_index(struct kifu_store *st, int64_t first, int64_t last, struct kifu_error *err)
{
	/* A migration through versions 5 and 6 on a backend whose version 7 reads otherwise. */
	const char *name = st->version < 7 && kifu_db_sql_(st, "canon_index_6") ? "canon_index_6"
		: "canon_index";
	struct kifu_stmt *s = NULL;
	int ret;

	/* Schema 7 on SQLite: no canonical index, the plain one answers (kifu_store_reach_sql_). */
	if (!kifu_store_canon_indexed_(st))
		return 0;
	if (kifu_db_prepare_named_(&s, st, name, err) < 0)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, first);
	kifu_db_bind_int64_(s, 2, last);
	ret = kifu_store_step_(st, s, "cannot index the canonical positions", err);
	kifu_db_finalize_(s);
	return ret;
}

/* A replay's stop at ply *ctx (kifu_store_replay_stored_ returns 1 there). */
static int at_ply(void *ctx, const void *state, size_t ply)
{
	(void)state;
	return ply == *(const size_t *)ctx;
}

/*
 * The canonical orientation C of NEW position k (canonical), replayed
 * from the game that first reached it, and C mapped by every symmetry:
 * orient[j] = map_state(C, j) (orient[0] is C), room for nsymmetries + 1
 * states of state_size apart (the last one scratch). KIFU_EILLEGAL when
 * that game does not replay.
 */
static int canon_orientations(struct kifu_store *st, const struct kifu_store_tkey_ *k,
			      unsigned char *orient, struct kifu_error *err)
{
	const struct kifu_game *g = k->g;
	unsigned char *state = orient + (size_t)g->nsymmetries * g->state_size;
	struct kifu_stmt *s = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	size_t want = (size_t)k->origin_ply;
	int ret, reached = 0, sym = 0, j;
	uint64_t c;

	kifu_buf_printf(&sql, "SELECT g.first, m.moves FROM games g JOIN %s m ON m.game_id = g.id "
			"WHERE g.id = ?1", kifu_db_game_data_(st));
	ret = sql.failed ? KIFU_ENOMEM : kifu_db_prepare_(&s, st, sql.data, err);
	kifu_buf_release(&sql);
	if (ret < 0)
		return kifu_store_fail_(st, "cannot count the tree", err);
	kifu_db_bind_int64_(s, 1, k->origin_id);
	if (kifu_db_step_(s) == KIFU_DB_ROW) {
		const char *f = kifu_db_column_text_(s, 0);
		const char *text = kifu_db_column_text_(s, 1);
		int first = f ? kifu_game_side_index(g, f) : -1;

		/* replayed up to the ply that first reached it, as the import replayed it */
		if (first >= 0 && text && g->init(state, k->variant, first, err) == 0)
			reached = kifu_store_replay_stored_(g, state, text, at_ply, &want) == 1;
	}
	kifu_db_finalize_(s);
	if (!reached)
		return KIFU_EILLEGAL;
	if (kifu_game_canonical_hash(&c, &sym, g, state) < 0)
		return nomem(err);
	g->map_state(orient, state, sym);
	for (j = 1; j < g->nsymmetries; j++)
		g->map_state(orient + (size_t)j * g->state_size, orient, j);
	return (int64_t)c == k->hash ? 0 : KIFU_EILLEGAL;
}

int kifu_store_canon_indexed_(struct kifu_store *st)
{
	return st->version < 7 || kifu_db_sql_(st, "canon_index") != NULL;
}

void kifu_store_reach_sql_(struct kifu_buf *sql, struct kifu_store *st, int symmetric,
			   int have_index)
{
	int k;

	if (!symmetric) {
		kifu_buf_puts(sql, have_index ? "positions_hash"
			      : "(SELECT hash, game_id, min(ply) AS ply FROM positions WHERE "
				"hash = ?1 GROUP BY hash, game_id)");
		return;
	}
	if (kifu_store_canon_indexed_(st)) {
		kifu_buf_puts(sql, "positions_canon");
		return;
	}
	kifu_buf_printf(sql, "(SELECT ?1 AS hash, game_id, min(ply) AS ply FROM %s WHERE hash IN (",
			have_index ? "positions_hash" : "positions");
	for (k = 0; k < KIFU_GAME_SYMMETRIES_MAX; k++)
		kifu_buf_printf(sql, "%s?%d", k ? ", " : "", REACH_PARAM + k);
	kifu_buf_puts(sql, ") GROUP BY game_id)");
}

void kifu_store_reach_bind_(struct kifu_stmt *s, struct kifu_store *st, int symmetric,
			    const uint64_t *orient, int n)
{
	int k;

	if (!symmetric || kifu_store_canon_indexed_(st) || n < 1)
		return;
	for (k = 0; k < KIFU_GAME_SYMMETRIES_MAX; k++)
		kifu_db_bind_int64_(s, REACH_PARAM + k, (int64_t)orient[k < n ? k : 0]);
}

int kifu_store_orient_hashes_(uint64_t *out, const struct kifu_game *g, const void *state)
{
	void *mapped;
	int k;

	out[0] = g->hash(state);
	if (g->nsymmetries <= 1)
		return 1;
	if (g->hash_symmetries) {
		g->hash_symmetries(out, state);
		return g->nsymmetries;
	}
	mapped = malloc(g->state_size);
	if (!mapped)
		return KIFU_ENOMEM;
	for (k = 1; k < g->nsymmetries && k < KIFU_GAME_SYMMETRIES_MAX; k++) {
		g->map_state(mapped, state, k);
		out[k] = g->hash(mapped);
	}
	free(mapped);
	return k;
}

void kifu_store_tree_scan_sql_(struct kifu_buf *sql, struct kifu_store *st, int symmetric,
			      int have_index, int next, const char *where)
{
	kifu_buf_puts(sql, "SELECT ");
	kifu_db_json_at_(sql, st, "m.moves", "h.ply");
	kifu_buf_puts(sql, ", g.result, count(*), sum(g.plies), ");
	if (symmetric)
		kifu_db_hash_at_(sql, st, "m.hashes", "h.ply");
	else
		kifu_buf_puts(sql, "NULL");
	/* 6, 7: the earliest and latest date (first day, space, as written: see TREE_SEEN_MAX). */
	kifu_buf_puts(sql, ", min(g.date_first || ' ' || g.date), max(g.date_first || ' ' || g.date)");
	/* 7: the games that end there, which have no next move (kifu_store_tree_scan_check_) */
	kifu_buf_puts(sql, ", sum(CASE WHEN h.ply >= g.plies THEN 1 ELSE 0 END)");
	/* 9, 10: the position stored after the move, and a game of the group (see store_sql.h) */
	if (next) {
		kifu_buf_puts(sql, ", ");
		kifu_db_hash_at_(sql, st, "m.hashes", "h.ply + 1");
		kifu_buf_puts(sql, ", min(g.id)");
	}
	kifu_buf_puts(sql, " FROM ");
	kifu_store_reach_sql_(sql, st, symmetric, have_index);
	kifu_buf_printf(sql, " h CROSS JOIN games g CROSS JOIN %s m WHERE "
			"h.hash = ?1 AND h.ply > ?2 AND g.id = h.game_id AND m.game_id = g.id AND "
			"%s%s GROUP BY 1, 2%s%s",
			kifu_db_game_data_(st), st->version >= 8 ? "" : "h.ply < g.plies AND ",
			where, symmetric ? ", 5" : "", next ? ", 9" : "");
}

int kifu_store_tree_scan_check_(struct kifu_stmt *s, uint64_t hash, struct kifu_error *err)
{
	const char *move = kifu_db_column_text_(s, 0);
	long long n, ended;
	int ret;

	ret = kifu_db_column_whole_(&n, s, 2, 1, KIFU_DB_COUNT_MAX, err, "the games at position "
				    "%016" PRIx64, hash);
	if (ret == 0)
		ret = kifu_db_column_whole_(&ended, s, 7, 0, n, err, "the games that end at "
					    "position %016" PRIx64, hash);
	if (ret == 0 && move && ended)
		ret = kifu_db_damaged_(s->st, err, "game_data.moves of %lld game%s at position "
				       "%016" PRIx64 " go%s past games.plies", ended,
				       ended == 1 ? "" : "s", hash, ended == 1 ? "es" : "");
	if (ret == 0 && !move && ended != n)
		ret = kifu_db_damaged_(s->st, err, "game_data.moves of %lld game%s at position "
				       "%016" PRIx64 " end%s before games.plies", n - ended,
				       n - ended == 1 ? "" : "s", hash, n - ended == 1 ? "s" : "");
	return ret;
}

/* NEW positions looked up at a time by backfill_hits (one parameter each). */
#define HITS_AT_ONCE 64

/*
 * Which NEW positions of kind the index holds at all past the first plies
 * (hit[slot] = 1), HITS_AT_ONCE a query: most never come again, and the
 * query per position that counts their moves is spared them (a round trip
 * each on a server). 0 with *done = 0 when kind has no index of its own to
 * ask (then every position is queried).
 */
static int backfill_hits(struct kifu_store *st, struct kifu_store_symm_ *sy, int kind,
			 unsigned char *hit, int *done, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *q = NULL;
	size_t slot[HITS_AT_ONCE], i = 0, n, j;
	int ret = 0, rc, p;

	*done = 0;
	if (kind && !kifu_store_canon_indexed_(st))
		return 0;
	/*
	 * One look-up of the index per position, a correlated subquery that no
	 * planner turns into a join: PostgreSQL plans "hash IN (...)" (or an
	 * EXISTS, made a semi-join) from its statistics, which a bulk load
	 * outruns (the index looks small: a sequential scan of every partition
	 * each query, 30-40 ms at 5,000 games); SQLite plans both alike.
	 */
	kifu_buf_puts(&sql, "SELECT DISTINCT v.column1 FROM (VALUES ");
	for (p = 0; p < HITS_AT_ONCE; p++)
		kifu_buf_printf(&sql, "%s(CAST(?%d AS BIGINT))", p ? ", " : "", p + 2);
	kifu_buf_printf(&sql, ") v WHERE (SELECT 1 FROM %s p WHERE p.hash = v.column1 AND "
			"p.ply > ?1 LIMIT 1) IS NOT NULL", kind ? "positions_canon" : "positions_hash");
	if (sql.failed) {
		kifu_buf_release(&sql);
		return nomem(err);
	}
	ret = kifu_db_prepare_(&q, st, sql.data, err);
	kifu_buf_release(&sql);
	if (ret < 0)
		return ret;
	while (ret == 0 && i < sy->tracked.cap) {
		for (n = 0; i < sy->tracked.cap && n < HITS_AT_ONCE; i++) {
			const struct kifu_store_tkey_ *k = &sy->tracked.v[i];

			if (k->g && k->state == T_NEW_HELD && k->symmetric == kind)
				slot[n++] = i;
		}
		if (!n)
			break;
		kifu_db_bind_int_(q, 1, TREE_DEPTH);
		for (p = 0; p < HITS_AT_ONCE; p++)
			kifu_db_bind_int64_(q, p + 2, sy->tracked.v[slot[(size_t)p < n ? (size_t)p : 0]].hash);
		while ((rc = kifu_db_step_(q)) == KIFU_DB_ROW) {
			int64_t h = kifu_db_column_int64_(q, 0);

			for (j = 0; j < n; j++)
				if (sy->tracked.v[slot[j]].hash == h)
					hit[slot[j]] = 1;
		}
		if (rc != KIFU_DB_DONE)
			ret = kifu_store_fail_(st, "cannot count the tree", err);
		kifu_db_reset_(q);
	}
	kifu_db_finalize_(q);
	*done = ret == 0;
	return ret;
}

/*
 * canon_orientations of k into *orient (grown to fit, *room its size)
 * unless done already: *have_c 1 when done, -1 when k's game does not
 * replay, 0 before. KIFU_ENOMEM or 0.
 */
static int orientations_once(int *have_c, struct kifu_store *st, const struct kifu_store_tkey_ *k,
			     unsigned char **orient, size_t *room, struct kifu_error *err)
{
	size_t need = ((size_t)k->g->nsymmetries + 1) * k->g->state_size;

	if (*have_c)
		return 0;
	if (*room < need) {
		unsigned char *p = realloc(*orient, need);

		if (!p)
			return nomem(err);
		*orient = p;
		*room = need;
	}
	*have_c = canon_orientations(st, k, *orient, err) == 0 ? 1 : -1;
	return 0;
}

/*
 * Backfill: for each NEW position, the games the position index holds
 * that reached it only after the first plies (those within were counted
 * as they came), by next move, counted into held (a canonical position's
 * moves mapped onto C: a game's orientation j of C is the one whose plain
 * hash it had); then the NEW positions are OLD.
 */
static int backfill(struct kifu_store *st, struct kifu_store_symm_ *sy, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s[2] = { NULL, NULL };
	unsigned char *orient = NULL, *hit = NULL;
	size_t i, room = 0;
	int ret = 0, rc, kind, checked[2] = { 0, 0 };

	for (i = 0; i < sy->tracked.cap; i++)
		if (sy->tracked.v[i].g && sy->tracked.v[i].state == T_NEW_HELD)
			break;
	if (i == sy->tracked.cap)
		return 0;
	hit = calloc(sy->tracked.cap, 1);
	if (!hit)
		return nomem(err);
	for (kind = 0; kind < 2 && ret == 0; kind++)
		ret = backfill_hits(st, sy, kind, hit, &checked[kind], err);
	for (kind = 0; kind < 2 && ret == 0; kind++) {
		kifu_buf_reset(&sql);
		kifu_store_tree_scan_sql_(&sql, st, kind, 1, 0, "g.game = ?3 AND g.variant = ?4");
		if (sql.failed) {
			ret = nomem(err);
			goto out;
		}
		if (kifu_db_prepare_(&s[kind], st, sql.data, err) < 0) {
			ret = err ? err->code : KIFU_EDB;
			goto out;
		}
	}
	for (i = 0; i < sy->tracked.cap && ret == 0; i++) {
		struct kifu_store_tkey_ *k = &sy->tracked.v[i];
		const struct kifu_game *g = k->g;
		struct kifu_stmt *q;
		int have_c = 0;

		if (!g || k->state != T_NEW_HELD)
			continue;
		k->state = T_OLD;
		if (checked[k->symmetric] && !hit[i])
			continue;
		q = s[k->symmetric];
		/* Without a canonical index: the orientations first, read from the plain one. */
		if (k->symmetric && !kifu_store_canon_indexed_(st)) {
			uint64_t oh[KIFU_GAME_SYMMETRIES_MAX];
			const uint64_t *o = oh;
			int j;

			if (k->orient_at >= 0 && (size_t)k->orient_at < sy->on) {
				o = sy->opool + (size_t)k->orient_at * KIFU_GAME_SYMMETRIES_MAX;
			} else {
				ret = orientations_once(&have_c, st, k, &orient, &room, err);
				if (ret < 0)
					break;
				if (have_c < 0)
					continue;
				for (j = 0; j < g->nsymmetries && j < KIFU_GAME_SYMMETRIES_MAX; j++)
					oh[j] = g->hash(orient + (size_t)j * g->state_size);
			}
			kifu_store_reach_bind_(q, st, 1, o, g->nsymmetries);
		}
		kifu_db_bind_int64_(q, 1, k->hash);
		kifu_db_bind_int_(q, 2, TREE_DEPTH);
		kifu_db_bind_text_static_(q, 3, g->name, -1);
		kifu_db_bind_text_static_(q, 4, g->variants[k->variant], -1);
		while ((rc = kifu_db_step_(q)) == KIFU_DB_ROW) {
			const char *move = kifu_db_column_text_(q, 0);
			int64_t n[6] = { 0, 0, 0, 0, 0, 0 };
			char text[KIFU_MOVE_TEXT_MAX];
			int j;

			ret = kifu_store_tree_scan_check_(q, k->hash, err);
			if (ret < 0)
				break;
			/* No next move: games that ended there (schema 8's rows of move ""). */
			if (!move)
				move = "";
			n[kifu_store_symm_result_(g, kifu_db_column_text_(q, 1))] =
				kifu_db_column_int64_(q, 2);
			if (k->symmetric && *move) {
				uint64_t ph = (uint64_t)kifu_db_column_int64_(q, 4);
				struct kifu_error why;
				kifu_move m;

				ret = orientations_once(&have_c, st, k, &orient, &room, err);
				if (ret < 0)
					break;
				if (have_c < 0)
					break;
				for (j = 0; j < g->nsymmetries; j++)
					if (g->hash(orient + (size_t)j * g->state_size) == ph)
						break;
				if (j == g->nsymmetries || strlen(move) >= sizeof(text) ||
				    g->parse_move(orient + (size_t)j * g->state_size, move, &m,
						  &why) < 0)
					continue;
				g->format_move(orient, g->map_move(orient + (size_t)j * g->state_size,
								   m, g->symmetry_inverse(j)), text);
				move = text;
			}
			if (kifu_store_agg_add_(&sy->held, g, k->variant, k->symmetric, k->hash,
						move, n, kifu_db_column_int64_(q, 3),
						kifu_db_column_text_(q, 5),
						kifu_db_column_text_(q, 6)) < 0) {
				ret = nomem(err);
				break;
			}
		}
		if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
			ret = kifu_store_fail_(st, "cannot count the tree", err);
		kifu_db_reset_(q);
	}
	/* Every NEW key read: their orientations are spent (none of a transaction waits). */
	for (i = 0; i < sy->tracked.cap; i++)
		if (sy->tracked.v[i].g && sy->tracked.v[i].state == T_NEW_TX)
			break;
	if (ret == 0 && i == sy->tracked.cap)
		sy->on = 0;
out:
	free(orient);
	free(hit);
	kifu_buf_release(&sql);
	kifu_db_finalize_(s[0]);
	kifu_db_finalize_(s[1]);
	return ret;
}

/*
 * Writes what held counts, and says so in stats_state; with the position
 * indexes complete (backfill), the NEW positions are completed first.
 */
static int held_write(struct kifu_store *st, struct kifu_store_symm_ *sy, int complete,
		      struct kifu_error *err)
{
	int ret = 0, plain = 0, canon = 0;
	size_t i;

	/* An index set aside (a bulk load, or one killed before it ended): no backfill yet. */
	if (complete)
		ret = kifu_db_has_(&plain, st, "positions_hash", err);
	if (ret == 0 && complete)
		ret = kifu_db_has_(&canon, st, "positions_canon", err);
	if (ret == 0 && plain && canon)
		ret = backfill(st, sy, err);
	if (ret == 0)
		ret = kifu_store_agg_write_(st, &sy->held, err);
	if (ret < 0)
		return ret;
	for (i = 0; i < sy->tracked.cap; i++)
		if (sy->tracked.v[i].g && sy->tracked.v[i].state == T_NEW_HELD)
			break;
	/*
	 * Counts written while some wait for their backfill are not a state
	 * to resume from: the tree is forgotten (counted again from the games
	 * if this run does not end it) until the backfill is done.
	 */
	if (i < sy->tracked.cap)
		return kifu_store_exec_(st, "DELETE FROM stats_state WHERE name = 'tree'",
					"cannot count the tree", err);
	return sy->tracking == 1 && sy->held_last ? tree_state_set(st, sy->held_last, err) : 0;
}

static int symm_commit(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_store_symm_ *sy = st->symm;
	int ret = 0;

	if (!sy)
		return 0;
	if (sy->tx_max && !st->bulk)
		ret = canon_index(st, sy->tx_min, sy->tx_max, err);
	if (ret == 0 && kifu_store_agg_merge_(&sy->held, &sy->tx) < 0)
		ret = nomem(err);
	if (ret == 0 && sy->tracking == 1 && sy->last_id)
		sy->held_last = sy->last_id;
	kifu_store_agg_clear_(&sy->tx);
	sy->tx_min = sy->tx_max = 0;
	kifu_store_tset_move_(&sy->tracked, T_NEW_TX, T_NEW_HELD);
	if (ret == 0 && (!st->bulk || sy->held.n >= HELD_MAX))
		ret = held_write(st, sy, !st->bulk, err);
	if (!st->bulk)
		sy->tracking = -1; /* another writer may come between two transactions */
	return ret;
}

static void symm_rollback(struct kifu_store *st)
{
	struct kifu_store_symm_ *sy = st->symm;

	if (!sy)
		return;
	kifu_store_agg_clear_(&sy->tx);
	sy->tx_min = sy->tx_max = 0;
	sy->last_id = sy->held_last;
	kifu_store_tset_move_(&sy->tracked, T_NEW_TX, T_DEAD);
	if (!st->bulk) {
		/* Nothing is held between transactions outside bulk mode. */
		kifu_store_tset_move_(&sy->tracked, T_NEW_HELD, T_DEAD);
		sy->on = 0;
		kifu_store_agg_clear_(&sy->held);
		sy->held_last = sy->last_id = 0;
		sy->tracking = -1;
	} else {
		/* Games of the rolled back transaction were counted as the last: stop here. */
		sy->tracking = 0;
	}
}

static int symm_defer(struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_exec_(st, "INSERT INTO deferred_indexes(name, last_id) "
			       "SELECT 'positions_canon', coalesce(max(id), 0) FROM games WHERE true "
			       "ON CONFLICT(name) DO UPDATE SET last_id = excluded.last_id",
			       "cannot defer the indexes", err);
}

static int symm_restore(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_store_symm_ *sy = st->symm;
	long long last = -1, max = 0;
	int ret;

	ret = kifu_store_query_int_(&last, st, "SELECT coalesce(max(last_id), -1) FROM "
				    "deferred_indexes WHERE name = 'positions_canon'", err);
	if (ret == 0)
		ret = kifu_store_query_int_(&max, st, "SELECT coalesce(max(id), 0) FROM games", err);
	if (ret == 0 && last >= 0 && max > last)
		ret = canon_index(st, last + 1, max, err);
	if (ret == 0 && sy)
		ret = held_write(st, sy, 1, err);
	if (sy)
		sy->tracking = -1;
	return ret;
}

/*
 * Counts the stored games with an id above from into tree_moves (and,
 * with want_canon, fills their game_canon.canon), reading game_moves a
 * chunk at a time. A game of a game this kifu does not know, or whose
 * moves do not replay, is left out (and its canon NULL).
 */
static int fill_from(struct kifu_store *st, int64_t from, int want_canon, int strict,
		     struct kifu_error *err)
{
	struct kifu_store_symm_ *sy = symm_of(st);
	struct kifu_stmt *sel = NULL, *upd = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	int64_t last = from;
	int ret = 0, rc, any;

	if (!sy)
		return nomem(err);
	ret = tset_load(st, &sy->tracked, err);
	if (ret < 0)
		return ret;
	kifu_buf_printf(&sql, "SELECT g.id, g.game, g.variant, g.first, g.result, m.moves, "
			"m.hashes, g.date, g.date_first, g.plies FROM games g JOIN %s m "
			"ON m.game_id = g.id "
			"WHERE g.id > ?1 ORDER BY g.id LIMIT ?2", kifu_db_game_data_(st));
	if (sql.failed) {
		ret = nomem(err);
		goto out;
	}
	if (kifu_db_prepare_(&sel, st, sql.data, err) < 0 ||
	    (want_canon && kifu_db_prepare_(&upd, st, "INSERT INTO game_canon(game_id, canon) "
						     "VALUES (?1, ?2)", err) < 0)) {
		ret = kifu_store_fail_(st, "cannot count the tree", err);
		goto out;
	}
	do {
		/* A chunk read whole before writing: a table is not changed under a read of it. */
		struct chunk {
			int64_t id;
			const struct kifu_game *g;
			int variant, first, res;
			json_t *moves;
			uint64_t *hashes;
			size_t nhashes;
			struct kifu_store_symm_game_ seen; /* its date, in seen.seen */
		} *c = calloc(FILL_CHUNK, sizeof(*c));
		size_t nc = 0, i;

		if (!c) {
			ret = nomem(err);
			goto out;
		}
		kifu_db_bind_int64_(sel, 1, last);
		kifu_db_bind_int_(sel, 2, FILL_CHUNK);
		while ((rc = kifu_db_step_(sel)) == KIFU_DB_ROW) {
			const char *game = kifu_db_column_text_(sel, 1);
			const char *variant = kifu_db_column_text_(sel, 2);
			const char *first = kifu_db_column_text_(sel, 3);
			const char *moves = kifu_db_column_text_(sel, 5);
			struct chunk *e = &c[nc++];

			e->id = last = kifu_db_column_int64_(sel, 0);
			e->g = game ? kifu_game_find(game) : NULL;
			if (!e->g)
				continue;
			e->variant = variant ? kifu_game_variant_index(e->g, variant) : -1;
			e->first = first ? kifu_game_side_index(e->g, first) : -1;
			e->res = kifu_store_symm_result_(e->g, kifu_db_column_text_(sel, 4));
			e->moves = moves ? json_loads(moves, 0, NULL) : NULL;
			kifu_store_symm_seen_(&e->seen, kifu_db_column_text_(sel, 7),
					      kifu_db_column_text_(sel, 8));
			/*
			 * What the counts rest on, checked: as many moves as plies,
			 * a hash per position, a calendar date (no import stores
			 * other: counting them would be a wrong answer).
			 */
			{
				size_t cap = 0;
				long long plies;

				ret = kifu_db_column_whole_(&plies, sel, 9, 0, KIFU_DB_PLIES_MAX, err,
							    "games.plies of game %lld",
							    (long long)e->id);
				if (ret == 0 && (!json_is_array(e->moves) ||
						 (long long)json_array_size(e->moves) != plies))
					ret = kifu_db_damaged_(st, err, "game_data.moves of game %lld "
							       "is not a list of its %lld moves",
							       (long long)e->id, plies);
				if (ret == 0)
					ret = kifu_store_game_hashes_(&e->hashes, &e->nhashes, &cap,
								      sel, 6, e->id, plies, err);
				if (ret == 0)
					ret = kifu_db_column_date_(sel, 7, 8, err, "games.date of "
								   "game %lld", (long long)e->id);
				if (ret < 0)
					break;
			}
		}
		kifu_db_reset_(sel);
		if (ret == 0 && rc != KIFU_DB_DONE)
			ret = kifu_store_fail_(st, "cannot count the tree", err);
		any = nc == FILL_CHUNK;
		for (i = 0; i < nc && ret == 0; i++) {
			struct kifu_store_symm_game_ x;
			struct kifu_error why;
			size_t k;

			if (!c[i].g || c[i].variant < 0 || c[i].first < 0 ||
			    !json_is_array(c[i].moves))
				continue;
			memset(&x, 0, sizeof(x));
			x.g = c[i].g;
			x.variant = c[i].variant;
			x.first = c[i].first;
			x.res = c[i].res;
			x.nplies = json_array_size(c[i].moves);
			x.texts = c[i].moves;
			x.hashes = c[i].hashes;
			x.nhashes = c[i].nhashes;
			memcpy(x.seen, c[i].seen.seen, sizeof(x.seen));
			x.seen_end = st->version >= 8;
			memset(&why, 0, sizeof(why));
			if (kifu_store_symm_replay_(sy, &sy->held, &x, c[i].id, want_canon, &why) < 0) {
				if (why.code == KIFU_ENOMEM)
					ret = nomem(err);
				else if (strict)
					ret = kifu_db_damaged_(st, err, "game_data.moves of game %lld do "
							       "not replay: %s", (long long)c[i].id,
							       why.message);
				continue;
			}
			/* a legal move in place of the stored one: the positions say so */
			for (k = 0; strict && ret == 0 && k <= x.nplies && k < x.nhashes; k++)
				if (sy->plain[k] != x.hashes[k])
					ret = kifu_db_damaged_(st, err, "game_data.moves of game %lld do "
							       "not replay as stored: ply %zu does not "
							       "reach the position game_data.hashes holds",
							       (long long)c[i].id, k);
			if (ret < 0)
				continue;
			if (want_canon) {
				ret = insert_canon(st, upd, c[i].id, sy, x.nplies, err);
			}
		}
		for (i = 0; i < nc; i++) {
			json_decref(c[i].moves);
			free(c[i].hashes);
		}
		free(c);
		if (ret == 0 && sy->held.n >= HELD_MAX)
			ret = kifu_store_agg_write_(st, &sy->held, err);
	} while (ret == 0 && any);
	kifu_store_tset_move_(&sy->tracked, T_NEW_TX, T_NEW_HELD);
	if (ret == 0) {
		long long max = 0;

		ret = kifu_store_query_int_(&max, st, "SELECT coalesce(max(id), 0) FROM games", err);
		/* The canonical index of a migration first: the backfill reads it. */
		if (ret == 0 && want_canon && max > 0)
			ret = canon_index(st, 1, max, err);
		if (ret == 0)
			ret = backfill(st, sy, err);
		if (ret == 0)
			ret = kifu_store_agg_write_(st, &sy->held, err);
		if (ret == 0)
			ret = tree_state_set(st, max, err);
	}
out:
	if (ret < 0) {
		kifu_store_agg_clear_(&sy->held);
		sy->tracked.loaded = 0;
	}
	kifu_db_finalize_(sel);
	kifu_db_finalize_(upd);
	kifu_buf_release(&sql);
	return ret;
}

int kifu_store_symm_migrate_(struct kifu_store *st, struct kifu_error *err)
{
	return fill_from(st, 0, 1, 0, err);
}

int kifu_store_tree_depth(void)
{
	return TREE_DEPTH;
}

/* Whether tree_moves counts every stored game. */
int kifu_store_symm_tree_fresh_(int *fresh, struct kifu_store *st, struct kifu_error *err)
{
	long long max = 0;
	int ret;

	*fresh = 0;
	ret = kifu_store_query_int_(&max, st, "SELECT coalesce(max(id), 0) FROM games", err);
	if (ret == 0)
		ret = tree_current(fresh, st, max + 1, err);
	return ret;
}

int kifu_store_symm_tree_last_(long long *last, struct kifu_store *st, struct kifu_error *err)
{
	*last = -1;
	return kifu_store_query_int_(last, st, "SELECT coalesce((SELECT last_id FROM stats_state "
				     "WHERE name = 'tree' AND depth = " STR(TREE_DEPTH) "), -1)",
				     err);
}

int kifu_store_packed_check_(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	long long last = -1, id, plies, n;
	int ret, rc;

	if (st->version < 7 || !kifu_db_sql_(st, "hashes_mismatch"))
		return 0;
	ret = kifu_store_symm_tree_last_(&last, st, err);
	if (ret < 0 || last >= 0)
		return ret;
	ret = kifu_db_prepare_named_(&s, st, "hashes_mismatch", err);
	if (ret < 0)
		return ret;
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW) {
		id = kifu_db_column_int64_(s, 0);
		plies = kifu_db_column_int64_(s, 1);
		n = kifu_db_column_int64_(s, 2);
		ret = n < 0 ? kifu_db_damaged_(st, err, "game_data.hashes of game %lld do not read "
					       "as position hashes", id)
			    : kifu_db_damaged_(st, err, "game_data.hashes of game %lld hold %lld "
					       "positions for its %lld plies", id, n, plies);
	} else if (rc != KIFU_DB_DONE) {
		ret = kifu_store_fail_(st, "cannot read the games", err);
	}
	kifu_db_finalize_(s);
	return ret;
}

int kifu_store_symm_tree_count_(struct kifu_store *st, long long last, int strict,
				struct kifu_error *err)
{
	int ret = 0;

	/* Counted anew: what kifu cannot tell is behind or not is forgotten. */
	if (last < 0)
		ret = kifu_store_exec_(st, "DELETE FROM tree_moves", "cannot count the tree", err);
	if (st->symm)
		st->symm->tracked.loaded = 0;
	if (ret == 0)
		ret = fill_from(st, last < 0 ? 0 : last, 0, strict, err);
	return ret;
}

const struct kifu_store_derived_ kifu_store_symm_derived_ = {
	.name = "symm",
	.game = symm_game_stored,
	.commit = symm_commit,
	.rollback = symm_rollback,
	.defer = symm_defer,
	.restore = symm_restore,
	.release = symm_release,
};
