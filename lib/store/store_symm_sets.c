/*
 * The two open-addressing hash tables of store_symm.c: contributions to
 * tree_moves summed by (game, variant, kind, hash, move), and the tracked
 * positions by (game, variant, kind, hash); and the sums written into
 * tree_moves. Keys hold a game by its registry pointer: both live only
 * while a store is open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/store_symm_impl.h"
#include "util/hash.h"

void kifu_store_agg_clear_(struct kifu_store_agg_ *a)
{
	if (a->cap)
		memset(a->v, 0, a->cap * sizeof(*a->v));
	a->n = 0;
	kifu_buf_reset(&a->strings);
}

void kifu_store_agg_release_(struct kifu_store_agg_ *a)
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

	h = kifu_hash_fnv1a_(h, move, strlen(move));
	return h ^ (h >> 29);
}

static int agg_grow(struct kifu_store_agg_ *a)
{
	size_t cap = a->cap ? a->cap * 2 : 1024, i;
	struct kifu_store_agg_entry_ *v = calloc(cap, sizeof(*v));

	if (!v)
		return KIFU_ENOMEM;
	for (i = 0; i < a->cap; i++) {
		const struct kifu_store_agg_entry_ *e = &a->v[i];
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
/* Keeps in dst the earlier (later: the later) of itself and v, "" being none. */
static void seen_keep(char *dst, const char *v, int later)
{
	if (!v || !*v)
		return;
	if (!*dst || (later ? strcmp(v, dst) > 0 : strcmp(v, dst) < 0))
		snprintf(dst, TREE_SEEN_MAX, "%s", v);
}

int kifu_store_agg_add_(struct kifu_store_agg_ *a, const struct kifu_game *g, int variant,
			int symmetric, int64_t hash, const char *move, const int64_t *n,
			int64_t plies, const char *first, const char *last)
{
	struct kifu_store_agg_entry_ *e;
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
	seen_keep(e->first, first, 0);
	seen_keep(e->last, last, 1);
	return 0;
}

int kifu_store_agg_merge_(struct kifu_store_agg_ *into, const struct kifu_store_agg_ *from)
{
	size_t i;

	for (i = 0; i < from->cap; i++) {
		const struct kifu_store_agg_entry_ *e = &from->v[i];

		if (e->g && kifu_store_agg_add_(into, e->g, e->variant, e->symmetric, e->hash,
				    from->strings.data + e->move, e->n, e->plies, e->first,
				    e->last) < 0)
			return KIFU_ENOMEM;
	}
	return 0;
}

static size_t tkey_slot(const struct kifu_game *g, int variant, int symmetric, int64_t hash,
			size_t cap)
{
	uint64_t h = (uint64_t)hash * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)g ^
		     (uint64_t)(variant * 2 + symmetric) << 56;

	return (size_t)(h ^ (h >> 31)) & (cap - 1);
}

/* The slot of the key, or of where it would go; NULL when out of memory. */
struct kifu_store_tkey_ *kifu_store_tset_find_(struct kifu_store_tset_ *t,
					       const struct kifu_game *g, int variant,
					       int symmetric, int64_t hash)
{
	size_t k;

	if ((t->n + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096, i;
		struct kifu_store_tkey_ *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (i = 0; i < t->cap; i++) {
			if (!t->v[i].g)
				continue;
			k = tkey_slot(t->v[i].g, t->v[i].variant, t->v[i].symmetric, t->v[i].hash, cap);
			while (v[k].g)
				k = (k + 1) & (cap - 1);
			v[k] = t->v[i];
		}
		free(t->v);
		t->v = v;
		t->cap = cap;
	}
	for (k = tkey_slot(g, variant, symmetric, hash, t->cap); t->v[k].g;
	     k = (k + 1) & (t->cap - 1))
		if (t->v[k].g == g && t->v[k].variant == variant &&
		    t->v[k].symmetric == symmetric && t->v[k].hash == hash)
			break;
	return &t->v[k];
}

void kifu_store_tset_clear_(struct kifu_store_tset_ *t)
{
	if (t->cap)
		memset(t->v, 0, t->cap * sizeof(*t->v));
	t->n = 0;
	t->loaded = 0;
}

/* Sets the tracked positions of one state to another. */
void kifu_store_tset_move_(struct kifu_store_tset_ *t, int from, int to)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->v[i].g && t->v[i].state == from)
			t->v[i].state = to;
}

/*
 * The upsert of tree counts; from schema 8 with the dates (store_impl.h).
 * (An older schema is written by its migrations only: schema 5's counts
 * the tree before schema 8 adds the dates.)
 */
static const char tree_upsert[] =
	"INSERT INTO tree_moves(game, variant, \"symmetric\", hash, move, games, w0, w1, w2, w3, "
	"draws, unfinished, plies) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
	KIFU_TREE_UPSERT_;
static const char tree_upsert_dated[] = KIFU_TREE_UPSERT_DATED_;

int kifu_store_agg_write_(struct kifu_store *st, struct kifu_store_agg_ *a, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret = 0, r;

	if (!a->n)
		return 0;
	if (kifu_db_prepare_(&s, st, st->version >= 8 ? tree_upsert_dated : tree_upsert, err) < 0)
		return kifu_store_fail_(st, "cannot count the tree", err);
	for (i = 0; i < a->cap && ret == 0; i++) {
		const struct kifu_store_agg_entry_ *e = &a->v[i];
		int64_t games = 0;

		if (!e->g)
			continue;
		for (r = 0; r < 6; r++)
			games += e->n[r];
		kifu_db_bind_text_static_(s, 1, e->g->name, -1);
		kifu_db_bind_text_static_(s, 2, e->g->variants[e->variant], -1);
		kifu_db_bind_int_(s, 3, e->symmetric);
		kifu_db_bind_int64_(s, 4, e->hash);
		kifu_db_bind_text_static_(s, 5, a->strings.data + e->move, -1);
		kifu_db_bind_int64_(s, 6, games);
		for (r = 0; r < 6; r++)
			kifu_db_bind_int64_(s, 7 + r, e->n[r]);
		kifu_db_bind_int64_(s, 13, e->plies);
		if (st->version < 8)
			;
		else if (e->first[0])
			kifu_db_bind_text_static_(s, 14, e->first, -1);
		else
			kifu_db_bind_null_(s, 14);
		if (st->version < 8)
			;
		else if (e->last[0])
			kifu_db_bind_text_static_(s, 15, e->last, -1);
		else
			kifu_db_bind_null_(s, 15);
		ret = kifu_store_step_(st, s, "cannot count the tree", err);
	}
	kifu_db_finalize_(s);
	if (ret == 0)
		kifu_store_agg_clear_(a);
	return ret;
}
