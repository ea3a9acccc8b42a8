/*
 * What the store keeps for board symmetries and the tree (schema 5): the
 * canonical hash of every ply (game_moves.canon, with its index
 * positions_canon), the counts of the moves played from the positions of
 * the first plies (tree_moves) and the narrow listing row of each game
 * (game_listing). A game is replayed once more as it is stored, to map
 * each position by every symmetry; its contributions to tree_moves wait
 * in memory, summed, and are written at the commit (in bulk mode when
 * many have gathered, and at the end), so that a popular position costs
 * one row update per transaction rather than one per game. stats_state
 * 'tree' says up to which game they are counted; a reader that finds it
 * behind (a bulk load killed half-way, a change by hand) counts the games
 * since from game_moves (kifu_store_tree_update_), which is also how the
 * migration fills a database of an older version.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kifu/game.h"
#include "store_impl.h"

/* Plies whose positions tree_moves counts (0 .. TREE_DEPTH); deeper ones are read from the index. */
#define TREE_DEPTH 4
/* Summed contributions held in bulk mode before they are written. */
#define HELD_MAX (1u << 18)
/* Games read at a time when counting from game_moves. */
#define FILL_CHUNK 2048

/* Result classes: side 0..3 won, a draw, unfinished. */
#define RES_DRAW 4
#define RES_UNFINISHED 5

#define STR_(x) #x
#define STR(x) STR_(x)

/* One (game, variant, symmetric, hash, move) of tree_moves, with its counts. */
struct agg_entry {
	const struct kifu_game *g;
	int variant;
	int symmetric;
	int64_t hash;
	size_t move;         /* offset of the move text in the table's strings */
	int64_t n[6];        /* games per result class */
	int64_t plies;
};

struct agg {
	struct agg_entry *v; /* open addressing; g == NULL is empty */
	size_t n, cap;
	struct kifu_buf strings;
};

struct store_symm {
	struct agg tx, held;
	int tracking;        /* -1 unknown, 0 tree_moves is behind (not kept), 1 kept */
	int64_t last_id;     /* the last game counted in tx (or held) */
	int64_t held_last;   /* the last game counted in held */
	int64_t tx_min, tx_max; /* games added in the transaction */
	unsigned char *states; /* two positions of the largest state seen */
	size_t state_cap;
	struct kifu_buf canon, players;
};

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

static void agg_clear(struct agg *a)
{
	if (a->cap)
		memset(a->v, 0, a->cap * sizeof(*a->v));
	a->n = 0;
	kifu_buf_reset(&a->strings);
}

static void agg_release(struct agg *a)
{
	free(a->v);
	kifu_buf_release(&a->strings);
	memset(a, 0, sizeof(*a));
}

static uint64_t agg_key(const struct kifu_game *g, int variant, int symmetric, int64_t hash,
			const char *move)
{
	uint64_t h = (uint64_t)hash * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)g ^
		     (uint64_t)(variant * 2 + symmetric) << 56;

	while (*move)
		h = (h ^ (unsigned char)*move++) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static int agg_grow(struct agg *a)
{
	size_t cap = a->cap ? a->cap * 2 : 1024, i;
	struct agg_entry *v = calloc(cap, sizeof(*v));

	if (!v)
		return KIFU_ENOMEM;
	for (i = 0; i < a->cap; i++) {
		const struct agg_entry *e = &a->v[i];
		size_t k;

		if (!e->g)
			continue;
		k = agg_key(e->g, e->variant, e->symmetric, e->hash, a->strings.data + e->move) &
		    (cap - 1);
		while (v[k].g)
			k = (k + 1) & (cap - 1);
		v[k] = *e;
	}
	free(a->v);
	a->v = v;
	a->cap = cap;
	return 0;
}

/* Adds n games of result class res and total length plies to the entry of the key. */
static int agg_add(struct agg *a, const struct kifu_game *g, int variant, int symmetric,
		   int64_t hash, const char *move, const int64_t *n, int64_t plies)
{
	struct agg_entry *e;
	size_t k;
	int r;

	if ((a->n + 1) * 2 > a->cap && agg_grow(a) < 0)
		return KIFU_ENOMEM;
	for (k = agg_key(g, variant, symmetric, hash, move) & (a->cap - 1); a->v[k].g;
	     k = (k + 1) & (a->cap - 1)) {
		e = &a->v[k];
		if (e->g == g && e->variant == variant && e->symmetric == symmetric &&
		    e->hash == hash && !strcmp(a->strings.data + e->move, move))
			goto found;
	}
	e = &a->v[k];
	memset(e, 0, sizeof(*e));
	e->g = g;
	e->variant = variant;
	e->symmetric = symmetric;
	e->hash = hash;
	e->move = a->strings.len;
	kifu_buf_add(&a->strings, move, strlen(move) + 1);
	if (a->strings.failed)
		return KIFU_ENOMEM;
	a->n++;
found:
	for (r = 0; r < 6; r++)
		e->n[r] += n[r];
	e->plies += plies;
	return 0;
}

static int agg_merge(struct agg *into, const struct agg *from)
{
	size_t i;

	for (i = 0; i < from->cap; i++) {
		const struct agg_entry *e = &from->v[i];

		if (e->g && agg_add(into, e->g, e->variant, e->symmetric, e->hash,
				    from->strings.data + e->move, e->n, e->plies) < 0)
			return KIFU_ENOMEM;
	}
	return 0;
}

static struct store_symm *symm_of(struct kifu_store *st)
{
	if (!st->symm)
		st->symm = calloc(1, sizeof(*st->symm));
	if (st->symm && !st->symm->tracking && !st->symm->last_id)
		st->symm->tracking = -1;
	return st->symm;
}

void kifu_store_symm_release_(struct kifu_store *st)
{
	struct store_symm *sy = st->symm;

	if (!sy)
		return;
	agg_release(&sy->tx);
	agg_release(&sy->held);
	free(sy->states);
	kifu_buf_release(&sy->canon);
	kifu_buf_release(&sy->players);
	free(sy);
	st->symm = NULL;
}

/* Room for two positions of g. */
static int symm_states(struct store_symm *sy, const struct kifu_game *g)
{
	if (sy->state_cap < g->state_size) {
		unsigned char *p = malloc(2 * g->state_size + sizeof(max_align_t));

		if (!p)
			return KIFU_ENOMEM;
		free(sy->states);
		sy->states = p;
		sy->state_cap = g->state_size;
	}
	return 0;
}

static void put_int64(struct kifu_buf *b, int64_t v)
{
	kifu_buf_printf(b, "%lld", (long long)v);
}

/* One game to count: its moves as values (import) or as text (stored games). */
struct symm_game {
	const struct kifu_game *g;
	int variant, first, res;
	size_t nplies;
	const kifu_move *moves;  /* or NULL: */
	json_t *texts;           /* a JSON array of canonical move texts */
	const struct kifu_replay *rp; /* for the texts of moves (import) */
};

/*
 * Replays game x: the canonical hash of every ply into sy->canon (a JSON
 * array) when want_canon, and its contributions to tree_moves into a when
 * a is not NULL. KIFU_EILLEGAL when a stored move does not replay.
 */
static int symm_replay(struct store_symm *sy, struct agg *a, const struct symm_game *x,
		       int want_canon, struct kifu_error *err)
{
	const struct kifu_game *g = x->g;
	uint64_t plain[TREE_DEPTH + 1], canon[TREE_DEPTH + 1];
	int64_t n[6] = { 0, 0, 0, 0, 0, 0 };
	void *state, *mapped;
	size_t ply, k;
	int ret;

	if (symm_states(sy, g) < 0)
		return nomem(err);
	state = sy->states;
	mapped = sy->states + ((g->state_size + sizeof(max_align_t) - 1) / sizeof(max_align_t)) *
				      sizeof(max_align_t);
	ret = g->init(state, x->variant, x->first, err);
	if (ret < 0)
		return ret;
	n[x->res] = 1;
	kifu_buf_reset(&sy->canon);
	kifu_buf_putc(&sy->canon, '[');
	for (ply = 0; ply <= x->nplies; ply++) {
		uint64_t h = g->hash(state), c;
		int sym = 0;
		kifu_move m = 0;
		char text[KIFU_MOVE_TEXT_MAX];

		if (kifu_game_canonical_hash(&c, &sym, g, state) < 0)
			return nomem(err);
		if (want_canon) {
			if (ply)
				kifu_buf_putc(&sy->canon, ',');
			put_int64(&sy->canon, (int64_t)c);
		}
		if (ply == x->nplies)
			break;
		if (x->moves) {
			m = x->moves[ply];
		} else {
			json_t *t = json_array_get(x->texts, ply);
			struct kifu_error why;

			if (!json_is_string(t) ||
			    g->parse_move(state, json_string_value(t), &m, &why) < 0)
				return kifu_error_set(err, KIFU_EILLEGAL, "ply %zu: %s", ply + 1,
						      json_is_string(t) ? why.message : "not a move");
		}
		if (a && ply <= TREE_DEPTH) {
			int seen_plain = 0, seen_canon = 0;

			plain[ply] = h;
			canon[ply] = c;
			for (k = 0; k < ply; k++) {
				seen_plain |= plain[k] == h;
				seen_canon |= canon[k] == c;
			}
			if (!seen_plain) {
				g->format_move(state, m, text);
				if (agg_add(a, g, x->variant, 0, (int64_t)h, text, n,
					    (int64_t)x->nplies) < 0)
					return nomem(err);
			}
			if (!seen_canon) {
				kifu_move cm = sym ? g->map_move(state, m, sym) : m;

				if (sym)
					g->map_state(mapped, state, sym);
				g->format_move(sym ? mapped : state, cm, text);
				if (agg_add(a, g, x->variant, 1, (int64_t)c, text, n,
					    (int64_t)x->nplies) < 0)
					return nomem(err);
			}
		}
		g->apply(state, m);
	}
	kifu_buf_putc(&sy->canon, ']');
	return sy->canon.failed ? nomem(err) : 0;
}

static int result_class(const struct kifu_game *g, const char *result)
{
	int side = result ? kifu_game_side_index(g, result) : -1;

	if (side >= 0 && side < 4)
		return side;
	return result && !strcmp(result, "draw") ? RES_DRAW : RES_UNFINISHED;
}

/* Writes the summed contributions of a into tree_moves. */
static int agg_write(struct kifu_store *st, struct agg *a, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int ret = 0, r;

	if (!a->n)
		return 0;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO tree_moves(game, variant, symmetric, hash, move, games, "
			       "w0, w1, w2, w3, draws, unfinished, plies) VALUES (?1, ?2, ?3, ?4, ?5, "
			       "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) ON CONFLICT(symmetric, hash, game, "
			       "variant, move) DO UPDATE SET games = tree_moves.games + excluded.games, "
			       "w0 = tree_moves.w0 + excluded.w0, w1 = tree_moves.w1 + excluded.w1, "
			       "w2 = tree_moves.w2 + excluded.w2, w3 = tree_moves.w3 + excluded.w3, "
			       "draws = tree_moves.draws + excluded.draws, "
			       "unfinished = tree_moves.unfinished + excluded.unfinished, "
			       "plies = tree_moves.plies + excluded.plies", -1, &s, NULL) != SQLITE_OK)
		return kifu_store_fail_(st, "cannot count the tree", err);
	for (i = 0; i < a->cap && ret == 0; i++) {
		const struct agg_entry *e = &a->v[i];
		int64_t games = 0;

		if (!e->g)
			continue;
		for (r = 0; r < 6; r++)
			games += e->n[r];
		sqlite3_bind_text(s, 1, e->g->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, e->g->variants[e->variant], -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 3, e->symmetric);
		sqlite3_bind_int64(s, 4, e->hash);
		sqlite3_bind_text(s, 5, a->strings.data + e->move, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 6, games);
		for (r = 0; r < 6; r++)
			sqlite3_bind_int64(s, 7 + r, e->n[r]);
		sqlite3_bind_int64(s, 13, e->plies);
		ret = kifu_store_step_(st, s, "cannot count the tree", err);
	}
	sqlite3_finalize(s);
	if (ret == 0)
		agg_clear(a);
	return ret;
}

/* Sets stats_state 'tree' to last_id (the row made when missing). */
static int tree_state_set(struct kifu_store *st, int64_t last_id, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	int ret;

	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO stats_state(name, last_id, depth) "
				       "VALUES ('tree', ?1, ?2)", -1, &s, NULL) != SQLITE_OK)
		return kifu_store_fail_(st, "cannot count the tree", err);
	sqlite3_bind_int64(s, 1, last_id);
	sqlite3_bind_int(s, 2, TREE_DEPTH);
	ret = kifu_store_step_(st, s, "cannot count the tree", err);
	sqlite3_finalize(s);
	return ret;
}

/*
 * Whether tree_moves counts every game before game id: stats_state 'tree'
 * is the last game before it (and of this kifu's depth).
 */
static int tree_current(int *yes, struct kifu_store *st, int64_t id, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	*yes = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT s.last_id = (SELECT ifnull(max(id), 0) FROM games "
				       "WHERE id < ?1) AND s.depth = ?2 FROM stats_state s "
				       "WHERE s.name = 'tree'", -1, &s, NULL) != SQLITE_OK)
		return kifu_store_fail_(st, "cannot count the tree", err);
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int(s, 2, TREE_DEPTH);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*yes = sqlite3_column_int(s, 0) == 1;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
		: kifu_store_fail_(st, "cannot count the tree", err);
}

/* The listing row of game id: players as a JSON object side -> name, in turn order. */
static int insert_listing(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			  const struct kifu_replay *rp, struct kifu_buf *players,
			  struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	sqlite3_stmt *s;
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
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, players->data, (int)players->len, SQLITE_STATIC);
	return kifu_store_step_(st, s, "cannot store a game", err);
}

int kifu_store_symm_game_(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			  const struct kifu_replay *rp, struct kifu_error *err)
{
	struct store_symm *sy = symm_of(st);
	struct symm_game x;
	int ret;

	if (!sy)
		return nomem(err);
	if (sy->tracking < 0) {
		ret = tree_current(&sy->tracking, st, id, err);
		if (ret < 0)
			return ret;
	}
	memset(&x, 0, sizeof(x));
	x.g = rp->game;
	x.variant = rp->variant >= 0 ? rp->variant : 0;
	x.first = rp->first >= 0 ? rp->first : 0;
	x.res = result_class(rp->game, rec->result ? rec->result : "unfinished");
	x.nplies = rp->nplies;
	x.moves = rp->moves;
	x.rp = rp;
	ret = symm_replay(sy, sy->tracking == 1 ? &sy->tx : NULL, &x, 1, err);
	if (ret < 0)
		return ret;
	if (sy->tracking == 1)
		sy->last_id = id;
	if (!sy->tx_min || id < sy->tx_min)
		sy->tx_min = id;
	if (id > sy->tx_max)
		sy->tx_max = id;
	return insert_listing(st, id, rec, rp, &sy->players, err);
}

const struct kifu_buf *kifu_store_symm_canon_(struct kifu_store *st)
{
	return &st->symm->canon;
}

/* Indexes the canonical hashes of games first..last from game_moves.canon. */
static int canon_index(struct kifu_store *st, int64_t first, int64_t last, struct kifu_error *err)
{
	sqlite3_stmt *s = NULL;
	int ret;

	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO positions_canon(hash, game_id, ply) "
				       "SELECT j.value, m.game_id, j.key FROM game_moves m, "
				       "json_each(m.canon) j WHERE m.game_id BETWEEN ?1 AND ?2 "
				       "ORDER BY 1, 2, 3", -1, &s, NULL) != SQLITE_OK)
		return kifu_store_fail_(st, "cannot index the canonical positions", err);
	sqlite3_bind_int64(s, 1, first);
	sqlite3_bind_int64(s, 2, last);
	ret = kifu_store_step_(st, s, "cannot index the canonical positions", err);
	sqlite3_finalize(s);
	return ret;
}

/* Writes what held counts, and says so in stats_state. */
static int held_write(struct kifu_store *st, struct store_symm *sy, struct kifu_error *err)
{
	int ret = agg_write(st, &sy->held, err);

	if (ret == 0 && sy->held_last)
		ret = tree_state_set(st, sy->held_last, err);
	if (ret == 0)
		sy->held_last = 0;
	return ret;
}

int kifu_store_symm_commit_(struct kifu_store *st, struct kifu_error *err)
{
	struct store_symm *sy = st->symm;
	int ret = 0;

	if (!sy)
		return 0;
	if (sy->tx_max && !st->bulk)
		ret = canon_index(st, sy->tx_min, sy->tx_max, err);
	if (ret == 0 && agg_merge(&sy->held, &sy->tx) < 0)
		ret = nomem(err);
	if (ret == 0 && sy->tracking == 1 && sy->last_id)
		sy->held_last = sy->last_id;
	agg_clear(&sy->tx);
	sy->tx_min = sy->tx_max = 0;
	if (ret == 0 && (!st->bulk || sy->held.n >= HELD_MAX))
		ret = held_write(st, sy, err);
	if (!st->bulk)
		sy->tracking = -1; /* another writer may come between two transactions */
	return ret;
}

void kifu_store_symm_rollback_(struct kifu_store *st)
{
	struct store_symm *sy = st->symm;

	if (!sy)
		return;
	agg_clear(&sy->tx);
	sy->tx_min = sy->tx_max = 0;
	sy->last_id = sy->held_last;
	if (!st->bulk) {
		agg_clear(&sy->held);
		sy->held_last = sy->last_id = 0;
		sy->tracking = -1;
	} else {
		/* Games of the rolled back transaction were counted as the last: stop here. */
		sy->tracking = 0;
	}
}

int kifu_store_symm_defer_(struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_exec_(st, "INSERT OR REPLACE INTO deferred_indexes(name, last_id) "
			       "SELECT 'positions_canon', ifnull(max(id), 0) FROM games",
			       "cannot defer the indexes", err);
}

int kifu_store_symm_restore_(struct kifu_store *st, struct kifu_error *err)
{
	struct store_symm *sy = st->symm;
	long long last = -1, max = 0;
	int ret;

	ret = kifu_store_query_int_(&last, st, "SELECT ifnull(max(last_id), -1) FROM "
				    "deferred_indexes WHERE name = 'positions_canon'", err);
	if (ret == 0)
		ret = kifu_store_query_int_(&max, st, "SELECT ifnull(max(id), 0) FROM games", err);
	if (ret == 0 && last >= 0 && max > last)
		ret = canon_index(st, last + 1, max, err);
	if (ret == 0 && sy)
		ret = held_write(st, sy, err);
	if (sy)
		sy->tracking = -1;
	return ret;
}

/*
 * Counts the stored games with an id above from into tree_moves (and,
 * with want_canon, fills their game_moves.canon), reading game_moves a
 * chunk at a time. A game of a game this kifu does not know, or whose
 * moves do not replay, is left out (and its canon NULL).
 */
static int fill_from(struct kifu_store *st, int64_t from, int want_canon, struct kifu_error *err)
{
	struct store_symm *sy = symm_of(st);
	sqlite3_stmt *sel = NULL, *upd = NULL;
	int64_t last = from;
	int ret = 0, rc, any;

	if (!sy)
		return nomem(err);
	if (sqlite3_prepare_v2(st->db, "SELECT g.id, g.game, g.variant, g.first, g.result, "
				       "m.moves FROM games g JOIN game_moves m ON m.game_id = g.id "
				       "WHERE g.id > ?1 ORDER BY g.id LIMIT ?2", -1, &sel, NULL) !=
		    SQLITE_OK ||
	    (want_canon && sqlite3_prepare_v2(st->db, "UPDATE game_moves SET canon = ?2 WHERE "
						     "game_id = ?1", -1, &upd, NULL) != SQLITE_OK)) {
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
		} *c = calloc(FILL_CHUNK, sizeof(*c));
		size_t nc = 0, i;

		if (!c) {
			ret = nomem(err);
			goto out;
		}
		sqlite3_bind_int64(sel, 1, last);
		sqlite3_bind_int(sel, 2, FILL_CHUNK);
		while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
			const char *game = (const char *)sqlite3_column_text(sel, 1);
			const char *variant = (const char *)sqlite3_column_text(sel, 2);
			const char *first = (const char *)sqlite3_column_text(sel, 3);
			const char *moves = (const char *)sqlite3_column_text(sel, 5);
			struct chunk *e = &c[nc++];

			e->id = last = sqlite3_column_int64(sel, 0);
			e->g = game ? kifu_game_find(game) : NULL;
			if (!e->g)
				continue;
			e->variant = variant ? kifu_game_variant_index(e->g, variant) : -1;
			e->first = first ? kifu_game_side_index(e->g, first) : -1;
			e->res = result_class(e->g, (const char *)sqlite3_column_text(sel, 4));
			e->moves = moves ? json_loads(moves, 0, NULL) : NULL;
		}
		sqlite3_reset(sel);
		if (rc != SQLITE_DONE)
			ret = kifu_store_fail_(st, "cannot count the tree", err);
		any = nc == FILL_CHUNK;
		for (i = 0; i < nc && ret == 0; i++) {
			struct symm_game x;
			struct kifu_error why;

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
			memset(&why, 0, sizeof(why));
			if (symm_replay(sy, &sy->held, &x, want_canon, &why) < 0) {
				if (why.code == KIFU_ENOMEM)
					ret = nomem(err);
				continue;
			}
			if (want_canon) {
				sqlite3_bind_int64(upd, 1, c[i].id);
				sqlite3_bind_text(upd, 2, sy->canon.data, (int)sy->canon.len,
						  SQLITE_STATIC);
				ret = kifu_store_step_(st, upd, "cannot store the canonical hashes",
						       err);
			}
		}
		for (i = 0; i < nc; i++)
			json_decref(c[i].moves);
		free(c);
		if (ret == 0 && sy->held.n >= HELD_MAX)
			ret = agg_write(st, &sy->held, err);
	} while (ret == 0 && any);
	if (ret == 0)
		ret = agg_write(st, &sy->held, err);
	if (ret == 0) {
		long long max = 0;

		ret = kifu_store_query_int_(&max, st, "SELECT ifnull(max(id), 0) FROM games", err);
		if (ret == 0)
			ret = tree_state_set(st, max, err);
	}
out:
	if (ret < 0)
		agg_clear(&sy->held);
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return ret;
}

int kifu_store_symm_migrate_(struct kifu_store *st, struct kifu_error *err)
{
	int ret = fill_from(st, 0, 1, err);
	long long max = 0;

	if (ret == 0)
		ret = kifu_store_query_int_(&max, st, "SELECT ifnull(max(id), 0) FROM games", err);
	if (ret == 0 && max > 0)
		ret = canon_index(st, 1, max, err);
	return ret;
}

int kifu_store_tree_depth(void)
{
	return TREE_DEPTH;
}

int kifu_store_tree_update(int *ready, struct kifu_store *st, struct kifu_error *err)
{
	long long max = 0, last = -1;
	int ret, fresh = 0;

	*ready = 0;
	if (kifu_store_version(st) < 5)
		return 0;
	ret = kifu_store_query_int_(&max, st, "SELECT ifnull(max(id), 0) FROM games", err);
	if (ret == 0)
		ret = tree_current(&fresh, st, max + 1, err);
	if (ret < 0 || fresh) {
		*ready = fresh;
		return ret;
	}
	if (kifu_store_readonly(st) || st->in_tx)
		return 0;
	ret = kifu_store_query_int_(&last, st, "SELECT ifnull((SELECT last_id FROM stats_state "
				    "WHERE name = 'tree' AND depth = " STR(TREE_DEPTH) "), -1)",
				    err);
	if (ret < 0)
		return ret;
	/* Counted anew: what kifu cannot tell is behind or not is forgotten. */
	ret = kifu_store_begin(st, err);
	if (ret < 0)
		return 0;
	if (last < 0)
		ret = kifu_store_exec_(st, "DELETE FROM tree_moves", "cannot count the tree", err);
	if (ret == 0)
		ret = fill_from(st, last < 0 ? 0 : last, 0, err);
	if (ret == 0)
		ret = kifu_store_commit(st, err);
	if (ret < 0) {
		kifu_store_rollback(st);
		/* Another writer, a read-only file: the report reads the games instead. */
		return 0;
	}
	*ready = 1;
	return 0;
}
