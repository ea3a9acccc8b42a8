/*
 * Replaying a game for the store's symmetry tables (store_symm.c): each
 * position it reaches mapped by every symmetry of its game to its
 * canonical hash, and, where the tree counts track the position (the
 * first plies, or a position already counted), the move played from it
 * added to the summed contributions, plain and canonical, once per game
 * (where it first reached the position). A game comes as the move values
 * of an import or as the move texts and hashes a database stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/store_symm_impl.h"

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

/*
 * Whether the first arrival of game x at (symmetric, hash) at ply counts
 * into tree_moves: within the first plies always (the position becomes
 * tracked, NEW, when it was not), later only where it is OLD.
 */
static int tracked_counts(struct kifu_store_symm_ *sy, const struct kifu_store_symm_game_ *x,
			  int64_t id, int symmetric, uint64_t hash, size_t ply, const void *state,
			  int *oom)
{
	struct kifu_store_tkey_ *k = kifu_store_tset_find_(&sy->tracked, x->g, x->variant,
							    symmetric, (int64_t)hash);

	if (!k) {
		*oom = 1;
		return 0;
	}
	if (ply > TREE_DEPTH)
		return k->g && k->state == T_OLD;
	if (!k->g) {
		sy->tracked.n++;
		k->g = x->g;
		k->variant = x->variant;
		k->symmetric = symmetric;
		k->hash = (int64_t)hash;
	}
	if (k->state == T_DEAD) {
		k->state = T_NEW_TX;
		k->origin_id = id;
		k->origin_ply = (int)ply;
		k->orient_at = -1;
		/* The orientations now, while the position is at hand (no replay later). */
		if (symmetric && state) {
			if (sy->on == sy->ocap) {
				size_t cap = sy->ocap ? 2 * sy->ocap : 1024;
				uint64_t *p = realloc(sy->opool,
						      cap * KIFU_GAME_SYMMETRIES_MAX * sizeof(*p));

				if (!p) {
					*oom = 1;
					return 0;
				}
				sy->opool = p;
				sy->ocap = cap;
			}
			if (kifu_store_orient_hashes_(sy->opool + sy->on * KIFU_GAME_SYMMETRIES_MAX,
						      x->g, state) < 0) {
				*oom = 1;
				return 0;
			}
			k->orient_at = (long)sy->on++;
		}
	}
	return 1;
}

/* Room for two positions of g. */
static int symm_states(struct kifu_store_symm_ *sy, const struct kifu_game *g)
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

/*
 * A stored game whose move at ply `from` does not replay (a database
 * edited by hand): its plain positions from there on still count, from
 * the hashes and move texts it stored, as the position index shows them
 * (its canonical ones cannot be known). KIFU_ENOMEM or 0.
 */
static int plain_rest(struct kifu_store_symm_ *sy, struct kifu_store_agg_ *a,
		      const struct kifu_store_symm_game_ *x, int64_t id, size_t from,
		      const int64_t *n)
{
	size_t ply, k;
	int oom = 0;

	for (ply = from; ply < x->nplies && ply < x->nhashes; ply++) {
		json_t *t = json_array_get(x->texts, ply);
		int count;

		if (!json_is_string(t))
			return 0;
		sy->plain[ply] = x->hashes[ply];
		count = tracked_counts(sy, x, id, 0, sy->plain[ply], ply, NULL, &oom);
		if (oom)
			return KIFU_ENOMEM;
		for (k = 0; k < ply && count; k++)
			count = sy->plain[k] != sy->plain[ply];
		if (count && kifu_store_agg_add_(a, x->g, x->variant, 0, (int64_t)sy->plain[ply],
						 json_string_value(t), n, (int64_t)x->nplies,
						 x->seen, x->seen) < 0)
			return KIFU_ENOMEM;
	}
	return 0;
}

/*
 * From schema 8 the tree also counts the games that end at a position (a
 * row whose move is ""), so that a tree read from the counts knows how many
 * games reached its position without reading them: the game's last
 * position, where it first reached it there, plain and canonical.
 */
static int count_end(struct kifu_store_symm_ *sy, struct kifu_store_agg_ *a,
		     const struct kifu_store_symm_game_ *x, int64_t id, size_t ply, uint64_t h,
		     uint64_t c, void *state, const int64_t *n)
{
	int count_plain, count_canon, oom = 0;
	size_t k;

	count_plain = tracked_counts(sy, x, id, 0, h, ply, NULL, &oom);
	count_canon = tracked_counts(sy, x, id, 1, c, ply, state, &oom);
	if (oom)
		return KIFU_ENOMEM;
	for (k = 0; k < ply && (count_plain || count_canon); k++) {
		if (sy->plain[k] == h)
			count_plain = 0;
		if (sy->canonh[k] == c)
			count_canon = 0;
	}
	if (count_plain && kifu_store_agg_add_(a, x->g, x->variant, 0, (int64_t)h, "", n,
					       (int64_t)x->nplies, x->seen, x->seen) < 0)
		return KIFU_ENOMEM;
	if (count_canon && kifu_store_agg_add_(a, x->g, x->variant, 1, (int64_t)c, "", n,
					       (int64_t)x->nplies, x->seen, x->seen) < 0)
		return KIFU_ENOMEM;
	return 0;
}

/* store_symm_impl.h */
int kifu_store_symm_replay_(struct kifu_store_symm_ *sy, struct kifu_store_agg_ *a,
			    const struct kifu_store_symm_game_ *x, int64_t id, int want_canon,
			    struct kifu_error *err)
{
	const struct kifu_game *g = x->g;
	const struct kifu_replay *kept;
	int64_t n[6] = { 0, 0, 0, 0, 0, 0 };

	(void)want_canon; /* sy->canonh is filled either way */
	void *state, *mapped;
	size_t ply, k;
	int ret, oom = 0;

	if (symm_states(sy, g) < 0)
		return nomem(err);
	if (sy->hcap < x->nplies + 1) {
		size_t cap = x->nplies + 64;
		uint64_t *p = realloc(sy->plain, cap * sizeof(*p)), *c;

		if (p)
			sy->plain = p;
		c = p ? realloc(sy->canonh, cap * sizeof(*c)) : NULL;
		if (!c)
			return nomem(err);
		sy->canonh = c;
		sy->hcap = cap;
	}
	state = sy->states;
	mapped = sy->states + ((g->state_size + sizeof(max_align_t) - 1) / sizeof(max_align_t)) *
				      sizeof(max_align_t);
	ret = g->init(state, x->variant, x->first, err);
	if (ret < 0)
		return ret;
	n[x->res] = 1;
	/* The canonical hashes the import's reading thread kept (KIFU_VALIDATE_CANON), if any. */
	kept = x->rp && x->moves == x->rp->moves && x->rp->ncanon == x->nplies + 1 ? x->rp : NULL;
	for (ply = 0; ply <= x->nplies; ply++) {
		uint64_t h = g->hash(state), c;
		int sym = 0, count_plain, count_canon;
		kifu_move m = 0;
		char text[KIFU_MOVE_TEXT_MAX];

		if (kept) {
			c = kept->canon[ply];
			sym = kept->syms[ply];
		} else if (kifu_game_canonical_hash(&c, &sym, g, state) < 0)
			return nomem(err);
		sy->plain[ply] = h;
		sy->canonh[ply] = c;
		if (ply == x->nplies) {
			ret = a && x->seen_end ? count_end(sy, a, x, id, ply, h, c, state, n) : 0;
			if (ret < 0)
				return nomem(err);
			break;
		}
		if (x->moves) {
			m = x->moves[ply];
		} else {
			json_t *t = json_array_get(x->texts, ply);
			struct kifu_error why;

			if (!json_is_string(t) ||
			    g->parse_move(state, json_string_value(t), &m, &why) < 0) {
				ret = a ? plain_rest(sy, a, x, id, ply, n) : 0;
				if (ret < 0)
					return nomem(err);
				return kifu_error_set(err, KIFU_EILLEGAL, "ply %zu: %s", ply + 1,
						      json_is_string(t) ? why.message : "not a move");
			}
		}
		count_plain = a && tracked_counts(sy, x, id, 0, h, ply, NULL, &oom);
		count_canon = a && tracked_counts(sy, x, id, 1, c, ply, state, &oom);
		if (oom)
			return nomem(err);
		/* A game counts once per position: where it first reached it. */
		for (k = 0; k < ply && (count_plain || count_canon); k++) {
			if (sy->plain[k] == h)
				count_plain = 0;
			if (sy->canonh[k] == c)
				count_canon = 0;
		}
		if (count_plain) {
			g->format_move(state, m, text);
			if (kifu_store_agg_add_(a, g, x->variant, 0, (int64_t)h, text, n,
						(int64_t)x->nplies, x->seen, x->seen) < 0)
				return nomem(err);
		}
		if (count_canon) {
			kifu_move cm = sym ? g->map_move(state, m, sym) : m;

			if (sym)
				g->map_state(mapped, state, sym);
			g->format_move(sym ? mapped : state, cm, text);
			if (kifu_store_agg_add_(a, g, x->variant, 1, (int64_t)c, text, n,
						(int64_t)x->nplies, x->seen, x->seen) < 0)
				return nomem(err);
		}
		g->apply(state, m);
	}
	return 0;
}

int kifu_store_symm_result_(const struct kifu_game *g, const char *result)
{
	int side = result ? kifu_game_side_index(g, result) : -1;

	if (side >= 0 && side < 4)
		return side;
	return result && !strcmp(result, "draw") ? RES_DRAW : RES_UNFINISHED;
}

void kifu_store_symm_seen_(struct kifu_store_symm_game_ *x, const char *date,
			   const char *first_day)
{
	size_t a = first_day ? strlen(first_day) : 0, b = date ? strlen(date) : 0;

	x->seen[0] = '\0';
	if (!date || !first_day || a + b + 2 > TREE_SEEN_MAX)
		return;
	memcpy(x->seen, first_day, a);
	x->seen[a] = ' ';
	memcpy(x->seen + a + 1, date, b + 1);
}
