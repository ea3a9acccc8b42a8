/*
 * What the players' files share (player.c: the spec, random and mcts:N;
 * engine.c and engine_solve.c: the engine): the player itself and its
 * generator, so that every kind draws from one stream and stays
 * deterministic for a seed.
 */
#ifndef KIFU_ENGINE_PLAYER_IMPL_H
#define KIFU_ENGINE_PLAYER_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/player.h"

enum player_kind { PLAYER_RANDOM, PLAYER_MCTS, PLAYER_ENGINE };

struct node;   /* mcts:N's tree node (player.c) */
struct engine; /* the engine's search (engine.c) */

struct kifu_player {
	const struct kifu_game *game;
	char *spec;
	int kind;           /* enum player_kind */
	long playouts;      /* N of mcts:N, iterations of engine:N */
	uint64_t rng[4];    /* xoshiro256** state */
	kifu_move *moves;   /* room for game->max_moves */
	void *scratch;      /* one state, walked down the tree and played out */
	void *probe;        /* one state, for trying a move (decisive_first) */
	double *rewards;    /* one per side, of the current iteration */
	struct node *nodes; /* the search tree of the current move */
	uint32_t nnodes, cap;
	uint32_t *path;     /* node indexes from the root to the current leaf */
	size_t path_cap;
	int analysing;      /* kifu_player_analyse: look for decisive moves at expansion */
	uint32_t force;     /* root child every iteration goes through, or NO_FORCE */
	int summing;        /* analysis: add each iteration's rewards to sum */
	double sum[KIFU_GAME_SIDES_MAX]; /* per side, while summing */
	struct engine *engine; /* the engine's own search state (PLAYER_ENGINE) */
};

/* Uniform in [0, n), n >= 1, from the generator state s (xoshiro256**). */
size_t kifu_player_rng_below_(uint64_t *s, size_t n);

/*
 * The search trees' memory, one for the player's MCTS and the engine's:
 * room for n more elements of elem bytes in *v (used of *cap in use),
 * grown from 4096 by doubling up to max: 1 when there is room, 0 when max
 * forbids it, KIFU_ENOMEM. And idx at path[depth], the path grown
 * (doubling from 256) as it deepens: 0 or KIFU_ENOMEM.
 */
int kifu_player_pool_reserve_(void **v, uint32_t *cap, size_t used, size_t n, size_t max,
			      size_t elem);
int kifu_player_path_push_(uint32_t **path, size_t *cap, size_t depth, uint32_t idx);

/*
 * An analysis's fresh value of the engine's choice (root child best):
 * fresh(&out->best, p, state, best, visits), the rewards of every side
 * summed over its iterations into out->value as means.
 */
typedef int (*kifu_player_fresh_fn)(struct kifu_player_value *v, struct kifu_player *p,
				    const void *state, uint32_t i, long visits);
int kifu_player_fresh_sum_(struct kifu_player_analysis *out, struct kifu_player *p,
			   const void *state, uint32_t best, long visits, kifu_player_fresh_fn fresh);

/* While summing: the iteration's rewards (p->rewards) added to p->sum. */
void kifu_player_sum_(struct kifu_player *p);

/* The engine (engine.c): made with the player, freed with it. */
int kifu_engine_new_(struct kifu_player *p);
void kifu_engine_free_(struct engine *e);
int kifu_engine_choose_(kifu_move *out, struct kifu_player *p, const void *state,
			struct kifu_error *err);
int kifu_engine_analyse_(struct kifu_player_analysis *out, struct kifu_player *p,
			 const void *state, kifu_move played, long min_visits,
			 struct kifu_error *err);

#endif
