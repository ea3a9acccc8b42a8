/*
 * The built-in players of include/kifu/player.h: a uniformly random player
 * and UCT Monte Carlo tree search. They see games only through struct
 * kifu_game (legal_moves, apply, outcome, side_to_move), so they play every
 * registered game. The search keeps its tree in one pool of small nodes
 * addressed by index (so the pool can grow with realloc), children of a
 * node side by side, and resets the pool after each move: no allocation
 * happens per node or per playout.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/player_impl.h"
#include "kifu/player.h"
#include "util/hash.h"

/* The node has its children listed (a terminal node has none). */
#define NODE_EXPANDED 0x1
/* Analysis: the node's first child wins at once for the side to move there. */
#define NODE_DECIDED 0x2

/* No root child forced (see kifu_player_analyse). */
#define NO_FORCE UINT32_MAX

struct node {
	kifu_move move;   /* the move from the parent to this node */
	double reward;    /* sum over visits of the reward of `mover` */
	uint32_t visits;
	uint32_t first;   /* index of the first child, when expanded */
	uint32_t count;   /* number of children */
	uint8_t mover;    /* the side that played `move` */
	uint8_t flags;    /* NODE_* */
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna): fast, and good in the low bits too. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/*
 * Uniform in [0, n), n >= 1. Values below 2^64 mod n are rejected so that
 * every result is equally likely (a plain modulo would favour small ones).
 */
static size_t rng_below(uint64_t *s, size_t n)
{
	uint64_t bound = (uint64_t)n;
	uint64_t threshold = (0 - bound) % bound;
	uint64_t x;

	do
		x = rng_next(s);
	while (x < threshold);
	return (size_t)(x % bound);
}

size_t kifu_player_rng_below_(uint64_t *s, size_t n)
{
	return rng_below(s, n);
}

/* Digits only (strtol would also take signs and white space); -1 when not 1..max. */
static long parse_count(const char *digits)
{
	long n = 0;

	if (!*digits)
		return -1;
	for (; *digits; digits++) {
		if (*digits < '0' || *digits > '9' || n > KIFU_PLAYER_MAX_PLAYOUTS)
			return -1;
		n = n * 10 + (*digits - '0');
	}
	return n < 1 || n > KIFU_PLAYER_MAX_PLAYOUTS ? -1 : n;
}

static int parse_spec(struct kifu_player *p, const char *spec, struct kifu_error *err)
{
	long n;

	if (!strcmp(spec, "random")) {
		p->kind = PLAYER_RANDOM;
		return 0;
	}
	if (!strncmp(spec, "engine", 6) && (spec[6] == '\0' || spec[6] == ':')) {
		p->kind = PLAYER_ENGINE;
		p->playouts = KIFU_PLAYER_ENGINE_ITERATIONS;
		if (spec[6] == '\0')
			return 0;
		n = parse_count(spec + 7);
		if (n < 0)
			return kifu_error_set(err, KIFU_EPARSE,
					      "engine iteration count must be a whole number from 1 to "
					      "%ld: '%s'", KIFU_PLAYER_MAX_PLAYOUTS, spec);
		p->playouts = n;
		return 0;
	}
	if (strncmp(spec, "mcts", 4) || (spec[4] != '\0' && spec[4] != ':'))
		return kifu_error_set(err, KIFU_EPARSE, "unknown player '%s'", spec);
	if (spec[4] == '\0' || spec[5] == '\0')
		return kifu_error_set(err, KIFU_EPARSE, "mcts needs a playout count: '%s'", spec);
	n = parse_count(spec + 5);
	if (n < 0)
		return kifu_error_set(err, KIFU_EPARSE,
				      "mcts playout count must be a whole number from 1 to %ld: '%s'",
				      KIFU_PLAYER_MAX_PLAYOUTS, spec);
	p->kind = PLAYER_MCTS;
	p->playouts = n;
	return 0;
}

int kifu_player_new(struct kifu_player **out, const struct kifu_game *g, const char *spec,
		    uint64_t seed, struct kifu_error *err)
{
	struct kifu_player *p;
	int i, ret;

	*out = NULL;
	if (g->nsides < 1 || g->nsides > UINT8_MAX)
		return kifu_error_set(err, KIFU_ERANGE, "players cannot play '%s': %d sides",
				      g->name, g->nsides);
	p = calloc(1, sizeof(*p));
	if (!p)
		return kifu_error_set(err, KIFU_ENOMEM, "player '%s': out of memory", spec);
	p->game = g;
	ret = parse_spec(p, spec, err);
	if (ret < 0)
		goto out;
	p->spec = malloc(strlen(spec) + 1);
	p->moves = malloc(sizeof(*p->moves) * (g->max_moves ? g->max_moves : 1));
	p->scratch = malloc(g->state_size ? g->state_size : 1);
	p->probe = malloc(g->state_size ? g->state_size : 1);
	p->rewards = malloc(sizeof(*p->rewards) * (size_t)g->nsides);
	if (!p->spec || !p->moves || !p->scratch || !p->probe || !p->rewards) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "player '%s': out of memory", spec);
		goto out;
	}
	strcpy(p->spec, spec);
	p->force = NO_FORCE;
	if (p->kind == PLAYER_ENGINE && kifu_engine_new_(p) < 0) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "player '%s': out of memory", spec);
		goto out;
	}
	for (i = 0; i < 4; i++)
		p->rng[i] = kifu_hash_splitmix64_(&seed);
out:
	if (ret < 0)
		kifu_player_free(p);
	else
		*out = p;
	return ret;
}

void kifu_player_free(struct kifu_player *p)
{
	if (!p)
		return;
	free(p->spec);
	free(p->moves);
	free(p->scratch);
	free(p->probe);
	free(p->rewards);
	free(p->nodes);
	free(p->path);
	kifu_engine_free_(p->engine);
	free(p);
}

const char *kifu_player_spec(const struct kifu_player *p)
{
	return p->spec;
}

/* Random moves from state (changed in place) to the end or the cap. */
static int playout(struct kifu_player *p, void *state, int max_plies, struct kifu_outcome *oc)
{
	const struct kifu_game *g = p->game;
	int plies;

	for (plies = 0; plies < max_plies; plies++) {
		size_t n = g->legal_moves(state, p->moves);

		if (!n)
			break;
		g->apply(state, p->moves[rng_below(p->rng, n)]);
	}
	g->outcome(state, oc);
	return plies;
}

int kifu_player_playout(struct kifu_outcome *outcome, int *plies, struct kifu_player *p,
			const void *state, int max_plies)
{
	memcpy(p->scratch, state, p->game->state_size);
	*plies = playout(p, p->scratch, max_plies, outcome);
	return 0;
}

/* Every side's reward for an outcome: see player.h. */
static void score(double *rewards, const struct kifu_outcome *oc, int nsides)
{
	int i;

	if (oc->status == KIFU_WIN && oc->winner >= 0 && oc->winner < nsides) {
		for (i = 0; i < nsides; i++)
			rewards[i] = i == oc->winner ? 1.0 : 0.0;
		return;
	}
	/* A draw, or a playout the cap cut short. */
	for (i = 0; i < nsides; i++)
		rewards[i] = 1.0 / nsides;
}

int kifu_player_pool_reserve_(void **v, uint32_t *cap, size_t used, size_t n, size_t max,
			      size_t elem)
{
	size_t want = used + n, c = *cap;
	void *grown;

	if (want > max)
		return 0;
	if (want <= c)
		return 1;
	if (c < 4096)
		c = 4096;
	while (c < want)
		c *= 2;
	if (c > max)
		c = max;
	grown = realloc(*v, elem * c);
	if (!grown)
		return KIFU_ENOMEM;
	*v = grown;
	*cap = (uint32_t)c;
	return 1;
}

int kifu_player_path_push_(uint32_t **path, size_t *cap, size_t depth, uint32_t idx)
{
	if (depth >= *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		uint32_t *grown = realloc(*path, sizeof(*grown) * c);

		if (!grown)
			return KIFU_ENOMEM;
		*path = grown;
		*cap = c;
	}
	(*path)[depth] = idx;
	return 0;
}

/* Room for n more nodes, up to KIFU_PLAYER_MAX_NODES (kifu_player_pool_reserve_'s answers). */
static int reserve_nodes(struct kifu_player *p, size_t n)
{
	void *v = p->nodes;
	int ret = kifu_player_pool_reserve_(&v, &p->cap, p->nnodes, n, KIFU_PLAYER_MAX_NODES,
					    sizeof(*p->nodes));

	p->nodes = v;
	return ret;
}

static int push_path(struct kifu_player *p, size_t depth, uint32_t idx)
{
	return kifu_player_path_push_(&p->path, &p->path_cap, depth, idx);
}

/*
 * Analysis: when one of the n moves in p->moves wins at once for the side
 * to move in state, moves it to the front and marks the node NODE_DECIDED,
 * so that selection always takes it. Without this a search misses a
 * winning reply among hundreds (glaisher) and values a move that allows it
 * by random playouts, which is the very mistake a review must catch.
 */
static void decisive_first(struct kifu_player *p, const void *state, size_t n, uint8_t *flags)
{
	const struct kifu_game *g = p->game;
	int me = g->side_to_move(state);
	size_t i;

	for (i = 0; i < n; i++) {
		struct kifu_outcome oc;

		memcpy(p->probe, state, g->state_size);
		g->apply(p->probe, p->moves[i]);
		g->outcome(p->probe, &oc);
		if (oc.status == KIFU_WIN && oc.winner == me) {
			kifu_move t = p->moves[0];

			p->moves[0] = p->moves[i];
			p->moves[i] = t;
			*flags |= NODE_DECIDED;
			return;
		}
	}
}

/*
 * Lists the legal moves of state as the children of node idx, in a random
 * order (so that unvisited children are tried in random order). Returns 1
 * when expanded, 0 when the pool is full, KIFU_ENOMEM.
 */
static int expand(struct kifu_player *p, uint32_t idx, const void *state)
{
	const struct kifu_game *g = p->game;
	size_t n = g->legal_moves(state, p->moves), i;
	uint8_t mover = (uint8_t)g->side_to_move(state);
	struct node *child;
	int ret;

	ret = reserve_nodes(p, n);
	if (ret <= 0)
		return ret;
	for (i = n; i > 1; i--) {
		size_t j = rng_below(p->rng, i);
		kifu_move t = p->moves[i - 1];

		p->moves[i - 1] = p->moves[j];
		p->moves[j] = t;
	}
	if (p->analysing)
		decisive_first(p, state, n, &p->nodes[idx].flags);
	p->nodes[idx].first = p->nnodes;
	p->nodes[idx].count = (uint32_t)n;
	p->nodes[idx].flags |= NODE_EXPANDED;
	child = p->nodes + p->nnodes;
	for (i = 0; i < n; i++, child++) {
		child->move = p->moves[i];
		child->reward = 0;
		child->visits = 0;
		child->first = 0;
		child->count = 0;
		child->mover = mover;
		child->flags = 0;
	}
	p->nnodes += (uint32_t)n;
	return 1;
}

/* UCB1 over the children of an expanded node; unvisited children first. */
static uint32_t select_child(const struct kifu_player *p, const struct node *parent)
{
	const struct node *c = p->nodes + parent->first;
	double log_n, best_score = -1;
	uint32_t i, best = 0;

	if (parent->flags & NODE_DECIDED)
		return parent->first;
	log_n = log((double)parent->visits);

	for (i = 0; i < parent->count; i++) {
		double s;

		if (!c[i].visits)
			return parent->first + i;
		s = c[i].reward / c[i].visits +
		    KIFU_PLAYER_UCT_C * sqrt(log_n / c[i].visits);
		if (s > best_score) {
			best_score = s;
			best = i;
		}
	}
	return parent->first + best;
}

/* One selection, expansion, playout and back-up from the root state. */
static int iterate(struct kifu_player *p, const void *root)
{
	const struct kifu_game *g = p->game;
	struct kifu_outcome oc;
	uint32_t idx = 0;
	size_t depth = 0, i;
	int ret;

	memcpy(p->scratch, root, g->state_size);
	ret = push_path(p, depth++, 0);
	for (;;) {
		struct node *node = p->nodes + idx;

		if (ret < 0)
			return ret;
		if (!(node->flags & NODE_EXPANDED)) {
			/* A leaf: grown on its second visit, so that the tree
			 * only spends nodes where playouts keep coming back. */
			if (node->visits == 0 && idx != 0)
				break;
			ret = expand(p, idx, p->scratch);
			if (ret < 0)
				return ret;
			if (ret == 0)
				break; /* the pool is full: play out from here */
			node = p->nodes + idx; /* the pool may have moved */
		}
		if (node->count == 0)
			break; /* the game is over here */
		if (idx == 0 && p->force != NO_FORCE)
			idx = p->nodes[0].first + p->force;
		else
			idx = select_child(p, node);
		g->apply(p->scratch, p->nodes[idx].move);
		ret = push_path(p, depth++, idx);
	}
	playout(p, p->scratch, KIFU_PLAYER_PLAYOUT_PLIES, &oc);
	score(p->rewards, &oc, g->nsides);
	for (i = 0; i < depth; i++) {
		struct node *node = p->nodes + p->path[i];

		node->visits++;
		node->reward += p->rewards[node->mover];
	}
	if (p->summing)
		kifu_player_sum_(p);
	return 0;
}

/* n iterations from the root state. */
static int search(struct kifu_player *p, const void *state, long n)
{
	long i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i++)
		ret = iterate(p, state);
	return ret;
}

/*
 * The child (0-based among its children) of expanded node idx with most
 * visits; ties go to the better mean, then the first.
 */
static uint32_t most_visited(const struct kifu_player *p, uint32_t idx)
{
	const struct node *node = p->nodes + idx, *c = p->nodes + node->first;
	uint32_t i, best = 0;

	for (i = 1; i < node->count; i++) {
		if (c[i].visits > c[best].visits ||
		    (c[i].visits == c[best].visits && c[i].visits &&
		     c[i].reward / c[i].visits > c[best].reward / c[best].visits))
			best = i;
	}
	return best;
}

/* The root child with most visits (most_visited). */
static kifu_move best_move(const struct kifu_player *p)
{
	return p->nodes[p->nodes[0].first + most_visited(p, 0)].move;
}

/*
 * out's principal line from root child best: below it, each node's most
 * visited child (its decisive first child where it has one) while that
 * child was visited (player.h).
 */
static void principal_line(struct kifu_player_analysis *out, const struct kifu_player *p,
			   uint32_t best)
{
	uint32_t idx = p->nodes[0].first + best;

	out->line[0] = p->nodes[idx].move;
	out->nline = 1;
	while (out->nline < KIFU_PLAYER_LINE_MAX) {
		const struct node *node = p->nodes + idx;

		if (!(node->flags & NODE_EXPANDED) || !node->count)
			break;
		idx = node->first + (node->flags & NODE_DECIDED ? 0 : most_visited(p, idx));
		if (!p->nodes[idx].visits)
			break;
		out->line[out->nline++] = p->nodes[idx].move;
	}
}

/*
 * A root move that wins at once, if any. With a thousand moves to choose
 * from (glaisher) and a few hundred playouts, the search would try a
 * winning move once at best and could well pass it by; checking every move
 * costs one apply each, little next to the playouts.
 */
static int winning_move(kifu_move *out, struct kifu_player *p, const void *state)
{
	const struct kifu_game *g = p->game;
	const struct node *c = p->nodes + p->nodes[0].first;
	int me = g->side_to_move(state);
	uint32_t i;

	for (i = 0; i < p->nodes[0].count; i++) {
		struct kifu_outcome oc;

		memcpy(p->scratch, state, g->state_size);
		g->apply(p->scratch, c[i].move);
		g->outcome(p->scratch, &oc);
		if (oc.status == KIFU_WIN && oc.winner == me) {
			*out = c[i].move;
			return 1;
		}
	}
	return 0;
}

/* A fresh tree: the root, expanded from state. Returns expand()'s answer. */
static int new_tree(struct kifu_player *p, const void *state)
{
	int ret;

	p->nnodes = 0;
	ret = reserve_nodes(p, 1);
	if (ret < 0)
		return ret;
	p->nodes[0].move = 0;
	p->nodes[0].reward = 0;
	p->nodes[0].visits = 0;
	p->nodes[0].first = 0;
	p->nodes[0].count = 0;
	p->nodes[0].mover = 0;
	p->nodes[0].flags = 0;
	p->nnodes = 1;
	return expand(p, 0, state);
}

static int mcts_choose(kifu_move *out, struct kifu_player *p, const void *state,
		       struct kifu_error *err)
{
	int ret;

	ret = new_tree(p, state);
	if (ret < 0)
		goto out;
	if (ret == 0) {
		/* More moves than the pool holds: no search is possible. */
		size_t n = p->game->legal_moves(state, p->moves);

		*out = p->moves[rng_below(p->rng, n)];
		ret = 0;
		goto out;
	}
	if (p->nodes[0].count == 1) {
		*out = p->nodes[p->nodes[0].first].move;
		ret = 0;
		goto out;
	}
	if (winning_move(out, p, state)) {
		ret = 0;
		goto out;
	}
	ret = search(p, state, p->playouts);
	if (ret < 0)
		goto out;
	*out = best_move(p);
	ret = 0;
out:
	if (ret == KIFU_ENOMEM)
		kifu_error_set(err, ret, "player '%s': out of memory", p->spec);
	p->nnodes = 0; /* the tree lives for one move */
	return ret;
}

int kifu_player_choose(kifu_move *out, struct kifu_player *p, const void *state,
		       struct kifu_error *err)
{
	size_t n;

	*out = 0;
	/* Both players need a move: an ended game is the caller's mistake. */
	n = p->game->legal_moves(state, p->moves);
	if (!n)
		return kifu_error_set(err, KIFU_EILLEGAL,
				      "player '%s': no legal move, the game is over", p->spec);
	if (p->kind == PLAYER_RANDOM) {
		*out = p->moves[rng_below(p->rng, n)];
		return 0;
	}
	if (p->kind == PLAYER_ENGINE)
		return kifu_engine_choose_(out, p, state, err);
	return mcts_choose(out, p, state, err);
}

void kifu_player_seed(struct kifu_player *p, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		p->rng[i] = kifu_hash_splitmix64_(&seed);
}


/*
 * `visits` more iterations through root child i; v gets their mean reward
 * alone, free of the luck that made the search prefer (or neglect) i.
 */
static int fresh_value(struct kifu_player_value *v, struct kifu_player *p, const void *state,
		       uint32_t i, long visits)
{
	const struct node *c = p->nodes + p->nodes[0].first + i;
	double reward0 = c->reward;
	uint32_t visits0 = c->visits;
	int ret;

	p->force = i;
	ret = search(p, state, visits);
	p->force = NO_FORCE;
	c = p->nodes + p->nodes[0].first + i; /* the pool may have moved */
	v->move = c->move;
	v->visits = c->visits - visits0;
	v->score = v->visits ? (c->reward - reward0) / v->visits : 0;
	return ret;
}

int kifu_player_analyse(struct kifu_player_analysis *out, struct kifu_player *p,
			const void *state, kifu_move played, long min_visits,
			struct kifu_error *err)
{
	const struct node *c;
	double reward = 0;
	uint64_t visits = 0;
	uint32_t i, pi = UINT32_MAX, best = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (p->kind == PLAYER_ENGINE)
		return kifu_engine_analyse_(out, p, state, played, min_visits, err);
	if (p->kind != PLAYER_MCTS)
		return kifu_error_set(err, KIFU_EILLEGAL, "player '%s' cannot analyse: it does not search",
				      p->spec);
	if (!p->game->legal_moves(state, p->moves))
		return kifu_error_set(err, KIFU_EILLEGAL,
				      "player '%s': no legal move, the game is over", p->spec);
	p->analysing = 1;
	ret = new_tree(p, state);
	if (ret == 0)
		ret = kifu_error_set(err, KIFU_ERANGE, "player '%s': more moves than the search holds",
				     p->spec);
	if (ret < 0)
		goto out;
	c = p->nodes + p->nodes[0].first;
	for (i = 0; i < p->nodes[0].count; i++)
		if (c[i].move == played)
			pi = i;
	if (pi == UINT32_MAX && played != KIFU_PLAYER_NO_MOVE) {
		ret = kifu_error_set(err, KIFU_EILLEGAL, "player '%s': the move analysed is not legal",
				     p->spec);
		goto out;
	}
	ret = search(p, state, p->playouts);
	if (ret < 0)
		goto out;
	c = p->nodes + p->nodes[0].first; /* the pool may have moved */
	if (!(p->nodes[0].flags & NODE_DECIDED))
		best = most_visited(p, 0);
	/* the value of the position: every playout of the search, before any forcing */
	for (i = 0; i < p->nodes[0].count; i++) {
		reward += c[i].reward;
		visits += c[i].visits;
	}
	out->expected = visits ? reward / (double)visits : 0;
	/*
	 * Both moves searched as deep as asked, each through its own subtree:
	 * with more moves than iterations (glaisher), the most visited move
	 * may have one lucky visit, and the move played none.
	 */
	ret = kifu_player_fresh_sum_(out, p, state, best, min_visits, fresh_value);
	if (ret == 0 && pi == best)
		out->played = out->best;
	else if (ret == 0 && pi != UINT32_MAX)
		ret = fresh_value(&out->played, p, state, pi, min_visits);
	if (ret < 0)
		goto out;
	/* read from the tree as the forcing left it: both moves searched deepest */
	principal_line(out, p, best);
	ret = 0;
out:
	if (ret == KIFU_ENOMEM)
		kifu_error_set(err, ret, "player '%s': out of memory", p->spec);
	p->force = NO_FORCE;
	p->summing = 0;
	p->analysing = 0;
	p->nnodes = 0;
	return ret;
}

void kifu_player_sum_(struct kifu_player *p)
{
	int s;

	for (s = 0; s < p->game->nsides; s++)
		p->sum[s] += p->rewards[s];
}

int kifu_player_fresh_sum_(struct kifu_player_analysis *out, struct kifu_player *p,
			   const void *state, uint32_t best, long visits, kifu_player_fresh_fn fresh)
{
	int s, ret;

	memset(p->sum, 0, sizeof(p->sum));
	p->summing = 1;
	ret = fresh(&out->best, p, state, best, visits);
	p->summing = 0;
	for (s = 0; s < p->game->nsides; s++)
		out->value[s] = out->best.visits ? p->sum[s] / out->best.visits : 0;
	return ret;
}

long kifu_player_playouts(const struct kifu_player *p)
{
	return p->kind == PLAYER_RANDOM ? 0 : p->playouts;
}
