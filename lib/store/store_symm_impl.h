/*
 * Private to store_symm.c and store_symm_sets.c: the two hash tables the
 * tree counts are kept in while an import runs (summed contributions to
 * tree_moves, and the positions tree_moves tracks).
 */
#ifndef KIFU_STORE_SYMM_IMPL_H
#define KIFU_STORE_SYMM_IMPL_H

#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/game.h"

/* One (game, variant, symmetric, hash, move) of tree_moves, with its counts. */
struct kifu_store_agg_entry_ {
	const struct kifu_game *g;
	int variant;
	int symmetric;
	int64_t hash;
	size_t move;         /* offset of the move text in the table's strings */
	int64_t n[6];        /* games per result class */
	int64_t plies;
};

struct kifu_store_agg_ {
	struct kifu_store_agg_entry_ *v; /* open addressing; g == NULL is empty */
	size_t n, cap;
	struct kifu_buf strings;
};

/*
 * The positions tree_moves tracks (those some game reached by ply
 * TREE_DEPTH, with a next move), by game, variant, kind and hash: OLD ones
 * are in the table, and a game reaching one later in the game is counted
 * there too; NEW ones were first reached in this transaction (NEW_TX) or
 * since the last write (NEW_HELD): the games that reached them later in
 * the game are read from the position index once it holds them
 * (backfill). A DEAD slot was rolled back.
 */
enum { T_DEAD, T_OLD, T_NEW_TX, T_NEW_HELD };

struct kifu_store_tkey_ {
	const struct kifu_game *g;  /* NULL: empty slot */
	int variant, symmetric, state;
	int64_t hash;
	int64_t origin_id;          /* NEW: a game that reached it, and at which ply */
	int origin_ply;
};

struct kifu_store_tset_ {
	struct kifu_store_tkey_ *v;
	size_t n, cap;
	int loaded;                 /* the OLD ones were read from tree_moves */
};

void kifu_store_agg_clear_(struct kifu_store_agg_ *a);
void kifu_store_agg_release_(struct kifu_store_agg_ *a);
/* Adds n (games per result class) and plies to the entry of the key, made when new; KIFU_ENOMEM. */
int kifu_store_agg_add_(struct kifu_store_agg_ *a, const struct kifu_game *g, int variant,
			int symmetric, int64_t hash, const char *move, const int64_t *n,
			int64_t plies);
int kifu_store_agg_merge_(struct kifu_store_agg_ *into, const struct kifu_store_agg_ *from);

/* The slot of the key (g NULL when absent: fill it in), NULL when out of memory. */
struct kifu_store_tkey_ *kifu_store_tset_find_(struct kifu_store_tset_ *t,
					       const struct kifu_game *g, int variant,
					       int symmetric, int64_t hash);
void kifu_store_tset_clear_(struct kifu_store_tset_ *t);
/* Sets the tracked positions of state from to state to. */
void kifu_store_tset_move_(struct kifu_store_tset_ *t, int from, int to);

#endif
