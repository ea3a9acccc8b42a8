/*
 * Private to store_symm.c, store_symm_replay.c and store_symm_sets.c: the
 * two hash tables the tree counts are kept in while an import runs
 * (summed contributions to tree_moves, and the positions tree_moves
 * tracks), the state the store keeps for them (st->symm), and replaying a
 * game to map its positions by every symmetry.
 */
#ifndef KIFU_STORE_SYMM_IMPL_H
#define KIFU_STORE_SYMM_IMPL_H

#include <stdint.h>

#include <jansson.h>

#include "kifu/buf.h"
#include "kifu/game.h"
#include "kifu/record.h"

/* Plies whose positions tree_moves counts (0 .. TREE_DEPTH); deeper ones are read from the index. */
#define TREE_DEPTH 4
/* Result classes: side 0..3 won, a draw, unfinished. */
#define RES_DRAW 4
#define RES_UNFINISHED 5

/* One (game, variant, symmetric, hash, move) of tree_moves, with its counts. */
/*
 * A game's date as the tree keeps it (tree_moves.first_seen, last_seen):
 * its first day, a space, and the date as written ("2020-01-01 2020"), so
 * that the earliest and the latest of several are their min and max as
 * text, in SQL as in C, and the written form comes back with them.
 */
#define TREE_SEEN_MAX 32

struct kifu_store_agg_entry_ {
	const struct kifu_game *g;
	int variant;
	int symmetric;
	int64_t hash;
	size_t move;         /* offset of the move text in the table's strings */
	int64_t n[6];        /* games per result class */
	int64_t plies;
	char first[TREE_SEEN_MAX], last[TREE_SEEN_MAX]; /* "" when no game had a date */
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
	/*
	 * NEW and symmetric: where the hashes of its orientations wait in
	 * sy->opool (KIFU_GAME_SYMMETRIES_MAX from opool + orient_at, its
	 * game's nsymmetries of them), for the backfill's plain index
	 * lookups; -1: none (read by replaying the origin game).
	 */
	long orient_at;
};

struct kifu_store_tset_ {
	struct kifu_store_tkey_ *v;
	size_t n, cap;
	int loaded;                 /* the OLD ones were read from tree_moves */
};

void kifu_store_agg_clear_(struct kifu_store_agg_ *a);
void kifu_store_agg_release_(struct kifu_store_agg_ *a);
/*
 * Adds n (games per result class) and plies to the entry of the key, made
 * when new, and the dates first and last (TREE_SEEN_MAX form, NULL or ""
 * for none) to its earliest and latest; KIFU_ENOMEM.
 */
int kifu_store_agg_add_(struct kifu_store_agg_ *a, const struct kifu_game *g, int variant,
			int symmetric, int64_t hash, const char *move, const int64_t *n,
			int64_t plies, const char *first, const char *last);
int kifu_store_agg_merge_(struct kifu_store_agg_ *into, const struct kifu_store_agg_ *from);
/* Writes a's sums into tree_moves (adding to the rows there) and clears a; KIFU_E* or 0. */
int kifu_store_agg_write_(struct kifu_store *st, struct kifu_store_agg_ *a, struct kifu_error *err);

/* The slot of the key (g NULL when absent: fill it in), NULL when out of memory. */
struct kifu_store_tkey_ *kifu_store_tset_find_(struct kifu_store_tset_ *t,
					       const struct kifu_game *g, int variant,
					       int symmetric, int64_t hash);
void kifu_store_tset_clear_(struct kifu_store_tset_ *t);
/* Sets the tracked positions of state from to state to. */
void kifu_store_tset_move_(struct kifu_store_tset_ *t, int from, int to);

/* What a store keeps for the symmetries and the tree (st->symm, made on first use). */
struct kifu_store_symm_ {
	struct kifu_store_agg_ tx, held;
	struct kifu_store_tset_ tracked;
	uint64_t *plain, *canonh;   /* one game's hashes, for first arrivals */
	uint64_t *opool;            /* orientations of NEW symmetric keys (orient_at) */
	size_t on, ocap;            /* opool's entries used, allocated (in keys) */
	size_t hcap;
	int tracking;        /* -1 unknown, 0 tree_moves is behind (not kept), 1 kept */
	int64_t last_id;     /* the last game counted in tx (or held) */
	int64_t held_last;   /* the last game counted in held */
	int64_t known_last;  /* stats_state 'tree' when tracked was read or last written */
	int64_t tx_min, tx_max; /* games added in the transaction */
	unsigned char *states; /* two positions of the largest state seen */
	size_t state_cap;
	struct kifu_buf canon, players;
};

/* One game to count: its moves as values (import) or as text (stored games). */
struct kifu_store_symm_game_ {
	const struct kifu_game *g;
	int variant, first, res;
	size_t nplies;
	const kifu_move *moves;  /* or NULL: */
	json_t *texts;           /* a JSON array of canonical move texts */
	const uint64_t *hashes;  /* with texts: the stored plain hashes, ply 0..nhashes - 1 */
	size_t nhashes;
	const struct kifu_replay *rp; /* for the texts of moves (import) */
	char seen[TREE_SEEN_MAX];     /* its date (TREE_SEEN_MAX form), "" when none */
	int seen_end;                 /* schema 8: count it where it ends (move "") */
};

/* The game's date (written, and its first day) as x->seen; "" when none or not a date. */
void kifu_store_symm_seen_(struct kifu_store_symm_game_ *x, const char *date,
			   const char *first_day);

/*
 * Replays game x (store_symm_replay.c): the canonical hash of every ply
 * into sy->canonh[0..plies] (whole when it returns 0), and its contributions to
 * tree_moves into a when a is not NULL. KIFU_EILLEGAL when a stored move
 * does not replay.
 */
int kifu_store_symm_replay_(struct kifu_store_symm_ *sy, struct kifu_store_agg_ *a,
			    const struct kifu_store_symm_game_ *x, int64_t id, int want_canon,
			    struct kifu_error *err);

/* The result class of a game of g (0..3: that side won, RES_DRAW, RES_UNFINISHED). */
int kifu_store_symm_result_(const struct kifu_game *g, const char *result);

#endif
