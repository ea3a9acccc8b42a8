/*
 * The engine, kifu's strongest player (`engine`, `engine:N`): Monte Carlo
 * tree search with a solver (MCTS-Solver, Winands, Björnsson and Saito
 * 2008), evaluation cut-offs and progressive bias, through the game
 * interface alone.
 *
 * One iteration walks from the root by the selection rule below, grows the
 * tree by one node (a leaf is expanded on its second visit, as mcts:N
 * does), values the leaf and backs that value up, each node keeping the
 * reward of the side that moved into it (so three- and four-sided games
 * are searched from each mover's own point of view).
 *
 *   - Expansion lists every legal move and plays each once: a move that
 *     ends the game is a solved child at once (its result known), and in
 *     a game with an evaluation each child gets its prior, the mover's
 *     share of kifu_game_evaluate there.
 *   - The solver: a node is solved when its side to move has a solved child
 *     it wins (then it wins, in the fewest plies), or when every child is
 *     solved (a draw if one is a draw, else in a two-sided game the other
 *     side wins, in the most plies; with more sides only when every child
 *     has the same winner). Proofs travel up the path after each iteration;
 *     a solved node below the root is not searched further, its result is
 *     backed up as the iteration's value; a child proven lost for the side
 *     to move is never selected while another is open.
 *   - The leaf value: in a game with an evaluation, a random playout of at
 *     most ENGINE_CUT plies and kifu_game_evaluate where it stops; without
 *     one (uniform values would say nothing) a random playout to the end,
 *     scored as mcts:N scores it.
 *   - Selection: UCB1 on the mean, where the prior counts as ENGINE_PB
 *     virtual visits (progressive bias: it fades as real visits come), so
 *     that in glaisher, with about a thousand moves, the good-looking ones
 *     are tried first instead of each once in random order.
 *   - The budget: engine:N runs N iterations; `engine` runs
 *     KIFU_PLAYER_ENGINE_ITERATIONS but stops early once it has tried and
 *     played KIFU_PLAYER_ENGINE_WORK moves (expansion probes and playout
 *     plies), so that a game with a thousand moves a position (glaisher)
 *     costs no more per move than mcts:1000 does. Both are counts, not
 *     clocks: the same seed gives the same move on any machine.
 *   - The move played: a proven win at once (the shortest); else the most
 *     visited move that is not proven lost (ties: the better mean); when
 *     every move is proven lost, the one that loses slowest.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/player_impl.h"
#include "kifu/player.h"

/* UCB1's exploration constant on the engine's rewards in [0, 1] (measured: 0.3 beat 0.7 and 1.4). */
#define ENGINE_C 0.3
/* Virtual visits the prior is worth in a child's mean (measured: 10 beat 3). */
#define ENGINE_PB 10.0
/* Random plies before the evaluation scores a leaf. */
#define ENGINE_CUT 4
/* Most nodes one move's tree may hold (40 bytes each). */
#define ENGINE_MAX_NODES (1u << 21)
/* Longest playout to the end in a game without an evaluation (as mcts:N). */
#define ENGINE_PLAYOUT_PLIES KIFU_PLAYER_PLAYOUT_PLIES

#define NODE_EXPANDED 0x1
#define NODE_SOLVED 0x2

#define NO_FORCE UINT32_MAX

struct enode {
	kifu_move move;   /* the move from the parent */
	double reward;    /* sum over visits of the reward of `mover` */
	uint32_t visits;
	uint32_t first;   /* first child, when expanded */
	uint32_t count;   /* children */
	float prior;      /* mover's evaluation after the move (games with evaluate) */
	uint16_t plies;   /* solved: plies from here to the end under best play */
	uint8_t mover;    /* the side that played `move` */
	uint8_t flags;    /* NODE_* */
	int8_t winner;    /* solved: the winning side, or -1 for a draw */
};

struct engine {
	struct enode *nodes;
	uint32_t nnodes, cap;
	uint32_t *path;
	size_t path_cap;
	void *probe;       /* a state for trying each move at expansion */
	double *values;    /* nsides, for kifu_game_evaluate */
	uint32_t force;    /* root child every iteration goes through, or NO_FORCE */
	int has_eval;      /* the game has its own evaluation */
	long work;         /* moves tried at expansion and played out, this search */
	long work_cap;     /* the default budget's limit on work per move; 0: none */
};

int kifu_engine_new_(struct kifu_player *p)
{
	const struct kifu_game *g = p->game;
	struct engine *e = calloc(1, sizeof(*e));

	if (!e)
		return KIFU_ENOMEM;
	p->engine = e;
	e->probe = malloc(g->state_size ? g->state_size : 1);
	e->values = malloc(sizeof(*e->values) * (size_t)g->nsides);
	e->force = NO_FORCE;
	e->has_eval = g->evaluate != NULL;
	/* `engine` without a count also stops at a work budget (see player.h) */
	e->work_cap = strchr(p->spec, ':') ? 0 : KIFU_PLAYER_ENGINE_WORK;
	return e->probe && e->values ? 0 : KIFU_ENOMEM;
}

void kifu_engine_free_(struct engine *e)
{
	if (!e)
		return;
	free(e->nodes);
	free(e->path);
	free(e->probe);
	free(e->values);
	free(e);
}

/* Room for n more nodes: 1, 0 when the cap forbids it, or KIFU_ENOMEM. */
static int reserve(struct engine *e, size_t n)
{
	void *v = e->nodes;
	int ret = kifu_player_pool_reserve_(&v, &e->cap, e->nnodes, n, ENGINE_MAX_NODES,
					    sizeof(*e->nodes));

	e->nodes = v;
	return ret;
}

static int push_path(struct engine *e, size_t depth, uint32_t idx)
{
	return kifu_player_path_push_(&e->path, &e->path_cap, depth, idx);
}

/* Every side's reward when `winner` wins (-1: a draw, shared). */
static void result_rewards(double *rewards, int winner, int nsides)
{
	int i;

	for (i = 0; i < nsides; i++)
		rewards[i] = winner < 0 ? 1.0 / nsides : i == winner ? 1.0 : 0.0;
}

static void set_solved(struct enode *n, int winner, unsigned plies)
{
	n->flags |= NODE_SOLVED;
	n->winner = (int8_t)winner;
	n->plies = (uint16_t)(plies > UINT16_MAX ? UINT16_MAX : plies);
}

/*
 * Tries to solve expanded node idx from its children (the rules at the top
 * of the file). Returns 1 when it is solved.
 */
static int try_solve(struct engine *e, uint32_t idx, int nsides)
{
	struct enode *node = e->nodes + idx;
	const struct enode *c = e->nodes + node->first;
	unsigned win = UINT_MAX, draw = UINT_MAX, loss = 0;
	int s, open = 0, same = -2;
	uint32_t i;

	if (node->flags & NODE_SOLVED)
		return 1;
	if (!(node->flags & NODE_EXPANDED) || !node->count)
		return 0;
	s = c[0].mover;
	for (i = 0; i < node->count; i++) {
		if (!(c[i].flags & NODE_SOLVED)) {
			open = 1;
			continue;
		}
		if (c[i].winner == s) {
			if (c[i].plies < win)
				win = c[i].plies;
		} else if (c[i].winner < 0) {
			if (c[i].plies < draw)
				draw = c[i].plies;
		} else {
			if (c[i].plies >= loss)
				loss = c[i].plies;
			same = same == -2 || same == c[i].winner ? c[i].winner : -1;
		}
	}
	if (win != UINT_MAX) {
		set_solved(node, s, win + 1);
		return 1;
	}
	if (open)
		return 0;
	if (draw != UINT_MAX)
		set_solved(node, -1, draw + 1);
	else if (nsides == 2 || same >= 0)
		set_solved(node, c[0].winner, loss + 1);
	else
		return 0;
	return 1;
}

/*
 * Lists the legal moves of state as node idx's children in a shuffled
 * order, each tried once: ended games solved, priors evaluated. Returns 1,
 * 0 when the pool is full, or KIFU_ENOMEM.
 */
static int expand(struct kifu_player *p, uint32_t idx, const void *state)
{
	const struct kifu_game *g = p->game;
	struct engine *e = p->engine;
	size_t n = g->legal_moves(state, p->moves), i;
	uint8_t mover = (uint8_t)g->side_to_move(state);
	struct enode *child;
	int ret = reserve(e, n);

	if (ret <= 0)
		return ret;
	for (i = n; i > 1; i--) {
		size_t j = kifu_player_rng_below_(p->rng, i);
		kifu_move t = p->moves[i - 1];

		p->moves[i - 1] = p->moves[j];
		p->moves[j] = t;
	}
	e->nodes[idx].first = e->nnodes;
	e->nodes[idx].count = (uint32_t)n;
	e->nodes[idx].flags |= NODE_EXPANDED;
	child = e->nodes + e->nnodes;
	for (i = 0; i < n; i++, child++) {
		struct kifu_outcome oc;

		memset(child, 0, sizeof(*child));
		child->move = p->moves[i];
		child->mover = mover;
		child->prior = 0.5f;
		memcpy(e->probe, state, g->state_size);
		g->apply(e->probe, child->move);
		e->work++;
		g->outcome(e->probe, &oc);
		if (oc.status != KIFU_ONGOING) {
			int w = oc.status == KIFU_WIN ? oc.winner : -1;

			set_solved(child, w, 0);
			child->prior = w == mover ? 1.0f : w < 0 ? (float)(1.0 / g->nsides) : 0.0f;
		} else if (e->has_eval) {
			kifu_game_evaluate(g, e->probe, e->values);
			child->prior = (float)e->values[mover];
		}
	}
	e->nnodes += (uint32_t)n;
	try_solve(e, idx, g->nsides);
	return 1;
}

/*
 * The value of leaf node idx at state (changed): a short playout and the
 * evaluation, or a whole random playout where the game has no evaluation.
 */
static void leaf_value(struct kifu_player *p, void *state, double *rewards)
{
	const struct kifu_game *g = p->game;
	struct kifu_outcome oc;
	int plies, cap = p->engine->has_eval ? ENGINE_CUT : ENGINE_PLAYOUT_PLIES;

	for (plies = 0; plies < cap; plies++) {
		size_t n = g->legal_moves(state, p->moves);

		if (!n)
			break;
		g->apply(state, p->moves[kifu_player_rng_below_(p->rng, n)]);
		p->engine->work++;
	}
	if (p->engine->has_eval) {
		kifu_game_evaluate(g, state, rewards);
		return;
	}
	g->outcome(state, &oc);
	result_rewards(rewards, oc.status == KIFU_WIN ? oc.winner : -1, g->nsides);
}

/* Whether child c is proven lost for the side that would choose it. */
static int proven_lost(const struct enode *c)
{
	return (c->flags & NODE_SOLVED) && c->winner >= 0 && c->winner != c->mover;
}

/* UCB1 with progressive bias over the open children of node idx. */
static uint32_t select_child(const struct engine *e, uint32_t idx)
{
	const struct enode *parent = e->nodes + idx, *c = e->nodes + parent->first;
	double log_n = log((double)parent->visits + 1), best_score = -1;
	uint32_t i, best = UINT32_MAX;
	int pass;

	for (pass = 0; pass < 2 && best == UINT32_MAX; pass++) {
		for (i = 0; i < parent->count; i++) {
			double q, s;

			if (pass == 0 && proven_lost(&c[i]))
				continue;
			if (c[i].flags & NODE_SOLVED && c[i].winner == c[i].mover)
				return parent->first + i;
			if (e->has_eval) {
				q = (c[i].reward + c[i].prior * ENGINE_PB) / (c[i].visits + ENGINE_PB);
				s = q + ENGINE_C * sqrt(log_n / (c[i].visits + 1));
			} else {
				if (!c[i].visits)
					return parent->first + i;
				s = c[i].reward / c[i].visits +
				    KIFU_PLAYER_UCT_C * sqrt(log_n / c[i].visits);
			}
			if (s > best_score) {
				best_score = s;
				best = i;
			}
		}
	}
	return parent->first + best;
}

/* One selection, expansion, evaluation, back-up and proof from the root. */
static int iterate(struct kifu_player *p, const void *root)
{
	const struct kifu_game *g = p->game;
	struct engine *e = p->engine;
	uint32_t idx = 0;
	size_t depth = 0, i;
	int ret;

	memcpy(p->scratch, root, g->state_size);
	ret = push_path(e, depth++, 0);
	for (;;) {
		struct enode *node = e->nodes + idx;

		if (ret < 0)
			return ret;
		if (idx != 0 && (node->flags & NODE_SOLVED)) {
			result_rewards(p->rewards, node->winner, g->nsides);
			break;
		}
		if (!(node->flags & NODE_EXPANDED)) {
			if (node->visits == 0 && idx != 0) {
				leaf_value(p, p->scratch, p->rewards);
				break;
			}
			ret = expand(p, idx, p->scratch);
			if (ret < 0)
				return ret;
			node = e->nodes + idx; /* the pool may have moved */
			if (ret == 0 || node->count == 0) {
				leaf_value(p, p->scratch, p->rewards);
				break;
			}
			continue; /* solved at expansion, or select among the new children */
		}
		if (idx == 0 && e->force != NO_FORCE)
			idx = node->first + e->force;
		else
			idx = select_child(e, idx);
		g->apply(p->scratch, e->nodes[idx].move);
		ret = push_path(e, depth++, idx);
	}
	for (i = 0; i < depth; i++) {
		struct enode *node = e->nodes + e->path[i];

		node->visits++;
		node->reward += p->rewards[node->mover];
	}
	if (p->summing)
		kifu_player_sum_(p);
	/* a proof found at the end of the path may solve the nodes above it */
	for (i = depth - 1; i > 0; i--) {
		if (!(e->nodes[e->path[i]].flags & NODE_SOLVED) ||
		    !try_solve(e, e->path[i - 1], g->nsides))
			break;
	}
	return 0;
}

/* A fresh tree: the root, expanded from state (expand()'s answer). */
static int new_tree(struct kifu_player *p, const void *state)
{
	struct engine *e = p->engine;
	int ret;

	e->nnodes = 0;
	ret = reserve(e, 1);
	if (ret < 0)
		return ret;
	memset(e->nodes, 0, sizeof(*e->nodes));
	e->nnodes = 1;
	return expand(p, 0, state);
}

/*
 * The child (0-based among its children) that the side to move at expanded
 * node idx would play (the rules at the top of the file).
 */
static uint32_t node_choice(const struct engine *e, uint32_t idx)
{
	const struct enode *node = e->nodes + idx, *c = e->nodes + node->first;
	uint32_t i, best = UINT32_MAX;
	int me = c[0].mover, all_lost = 1;

	for (i = 0; i < node->count; i++) {
		if ((c[i].flags & NODE_SOLVED) && c[i].winner == me &&
		    (best == UINT32_MAX || c[i].plies < c[best].plies))
			best = i;
		if (!proven_lost(&c[i]))
			all_lost = 0;
	}
	if (best != UINT32_MAX)
		return best;
	for (i = 0; i < node->count; i++) {
		if (all_lost) {
			if (best == UINT32_MAX || c[i].plies > c[best].plies)
				best = i;
			continue;
		}
		if (proven_lost(&c[i]))
			continue;
		if (best == UINT32_MAX || c[i].visits > c[best].visits ||
		    (c[i].visits == c[best].visits && c[i].visits &&
		     c[i].reward / c[i].visits > c[best].reward / c[best].visits))
			best = i;
	}
	return best;
}

/* The root child to play. */
static uint32_t root_choice(const struct engine *e)
{
	return node_choice(e, 0);
}

/*
 * out's principal line from root child best: below it, each node's choice
 * while the tree has one that was visited or proven (player.h). A solved
 * node's choice follows its proof (the shortest win, the slowest loss).
 */
static void principal_line(struct kifu_player_analysis *out, const struct engine *e, uint32_t best)
{
	uint32_t idx = e->nodes[0].first + best;

	out->line[0] = e->nodes[idx].move;
	out->nline = 1;
	while (out->nline < KIFU_PLAYER_LINE_MAX) {
		const struct enode *node = e->nodes + idx;

		if (!(node->flags & NODE_EXPANDED) || !node->count)
			break;
		idx = node->first + node_choice(e, idx);
		if (!e->nodes[idx].visits && !(e->nodes[idx].flags & NODE_SOLVED))
			break;
		out->line[out->nline++] = e->nodes[idx].move;
	}
}

/* Whether the root has a child proven won for its side to move. */
static int root_won(const struct engine *e)
{
	const struct enode *c = e->nodes + e->nodes[0].first;
	uint32_t i;

	for (i = 0; i < e->nodes[0].count; i++)
		if ((c[i].flags & NODE_SOLVED) && c[i].winner == c[i].mover)
			return 1;
	return 0;
}

/* n iterations, or fewer when stop_when_won and a root move is proven won. */
static int search(struct kifu_player *p, const void *state, long n, int stop_when_won)
{
	struct engine *e = p->engine;
	/* the work budget in proportion to the iterations asked (forced ones too) */
	double cap = e->work_cap ? (double)e->work_cap * (double)n / (double)p->playouts : 0;
	long i;
	int ret = 0;

	e->work = 0;
	for (i = 0; i < n && ret == 0; i++) {
		if (stop_when_won && root_won(p->engine))
			break;
		if (cap > 0 && i > 0 && (double)e->work >= cap)
			break;
		ret = iterate(p, state);
	}
	return ret;
}

int kifu_engine_choose_(kifu_move *out, struct kifu_player *p, const void *state,
			struct kifu_error *err)
{
	struct engine *e = p->engine;
	int ret = new_tree(p, state);

	if (ret < 0)
		goto out;
	if (ret == 0) {
		/* more moves than the pool holds: no search is possible */
		size_t n = p->game->legal_moves(state, p->moves);

		*out = p->moves[kifu_player_rng_below_(p->rng, n)];
		ret = 0;
		goto out;
	}
	if (e->nodes[0].count > 1) {
		ret = search(p, state, p->playouts, 1);
		if (ret < 0)
			goto out;
	}
	*out = e->nodes[e->nodes[0].first + root_choice(e)].move;
	ret = 0;
out:
	if (ret == KIFU_ENOMEM)
		kifu_error_set(err, ret, "player '%s': out of memory", p->spec);
	e->nnodes = 0;
	return ret;
}

/* What the solver proved of root child c, for the side to move at the root. */
static void prove(struct kifu_player_value *v, const struct enode *c)
{
	v->proof = KIFU_PROOF_NONE;
	v->plies = 0;
	if (!(c->flags & NODE_SOLVED))
		return;
	v->proof = c->winner == c->mover ? KIFU_PROOF_WIN :
		   c->winner < 0 ? KIFU_PROOF_DRAW : KIFU_PROOF_LOSS;
	v->plies = c->plies + 1;
}

/* `visits` more iterations through root child i; v gets their mean alone. */
static int fresh_value(struct kifu_player_value *v, struct kifu_player *p, const void *state,
		       uint32_t i, long visits)
{
	struct engine *e = p->engine;
	const struct enode *c = e->nodes + e->nodes[0].first + i;
	double reward0 = c->reward;
	uint32_t visits0 = c->visits;
	int ret;

	e->force = i;
	ret = search(p, state, visits, 0);
	e->force = NO_FORCE;
	c = e->nodes + e->nodes[0].first + i; /* the pool may have moved */
	v->move = c->move;
	v->visits = c->visits - visits0;
	v->score = v->visits ? (c->reward - reward0) / v->visits : 0;
	prove(v, c);
	if (v->proof == KIFU_PROOF_WIN)
		v->score = 1;
	else if (v->proof == KIFU_PROOF_LOSS)
		v->score = 0;
	return ret;
}

int kifu_engine_analyse_(struct kifu_player_analysis *out, struct kifu_player *p,
			 const void *state, kifu_move played, long min_visits,
			 struct kifu_error *err)
{
	struct engine *e = p->engine;
	const struct enode *c;
	double reward = 0;
	uint64_t visits = 0;
	uint32_t i, pi = UINT32_MAX, best;
	int ret;

	if (!p->game->legal_moves(state, p->moves))
		return kifu_error_set(err, KIFU_EILLEGAL,
				      "player '%s': no legal move, the game is over", p->spec);
	ret = new_tree(p, state);
	if (ret == 0)
		ret = kifu_error_set(err, KIFU_ERANGE, "player '%s': more moves than the search holds",
				     p->spec);
	if (ret < 0)
		goto out;
	c = e->nodes + e->nodes[0].first;
	for (i = 0; i < e->nodes[0].count; i++)
		if (c[i].move == played)
			pi = i;
	if (pi == UINT32_MAX && played != KIFU_PLAYER_NO_MOVE) {
		ret = kifu_error_set(err, KIFU_EILLEGAL, "player '%s': the move analysed is not legal",
				     p->spec);
		goto out;
	}
	ret = search(p, state, p->playouts, 0);
	if (ret < 0)
		goto out;
	best = root_choice(e);
	c = e->nodes + e->nodes[0].first;
	for (i = 0; i < e->nodes[0].count; i++) {
		reward += c[i].reward;
		visits += c[i].visits;
	}
	out->expected = visits ? reward / (double)visits : 0;
	ret = kifu_player_fresh_sum_(out, p, state, best, min_visits, fresh_value);
	/* a proven choice: the position's value is its result */
	c = e->nodes + e->nodes[0].first + best;
	if (ret == 0 && (c->flags & NODE_SOLVED))
		result_rewards(out->value, c->winner, p->game->nsides);
	if (ret == 0 && pi == best)
		out->played = out->best;
	else if (ret == 0 && pi != UINT32_MAX)
		ret = fresh_value(&out->played, p, state, pi, min_visits);
	if (ret < 0)
		goto out;
	/* read from the tree as the forcing left it: both moves searched deepest */
	principal_line(out, e, best);
	ret = 0;
out:
	if (ret == KIFU_ENOMEM)
		kifu_error_set(err, ret, "player '%s': out of memory", p->spec);
	e->force = NO_FORCE;
	e->nnodes = 0;
	return ret;
}
