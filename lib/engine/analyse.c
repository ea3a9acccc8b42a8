/*
 * The engine review of include/kifu/analyse.h: every position of a game
 * analysed by a searching player (kifu_player_analyse), spread over threads
 * that take plies from a shared counter. Each ply's result depends only on
 * its position, the options and its own seed, and lands in its own slot, so
 * the order in which threads finish never shows.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include "engine/calibrate.h"
#include "kifu/analyse.h"
#include "kifu/player.h"
#include "util/hash.h"

/* More threads than this are never useful on one game. */
#define MAX_THREADS 256

/*
 * Scores are ratios of whole numbers, so a loss meant to be 0.10 may come
 * out as 0.0999999...: losses within EPS of a threshold reach it.
 */
#define EPS 1e-9

int kifu_analyse_mark(double loss)
{
	if (loss >= KIFU_ANALYSE_BLUNDER - EPS)
		return KIFU_REVIEW_BLUNDER;
	if (loss >= KIFU_ANALYSE_MISTAKE - EPS)
		return KIFU_REVIEW_MISTAKE;
	if (loss >= KIFU_ANALYSE_DUBIOUS - EPS)
		return KIFU_REVIEW_DUBIOUS;
	return KIFU_REVIEW_NONE;
}

const char *kifu_analyse_mark_text(int mark)
{
	static const char *const text[] = { NULL, "?!", "?", "??" };

	return mark > 0 && mark <= KIFU_REVIEW_BLUNDER ? text[mark] : NULL;
}

uint64_t kifu_analyse_ply_seed(uint64_t seed, size_t ply)
{
	/* splitmix64 of the pair, so that neighbouring plies get unrelated streams */
	return kifu_hash_mix64_(seed ^ ((uint64_t)ply * KIFU_HASH_GOLDEN));
}

int kifu_analyse_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int kifu_analyse_spec(char *out, const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	const char *spec = o->engine ? o->engine : KIFU_ANALYSE_ENGINE;
	long n = o->playouts > 0 ? o->playouts : KIFU_ANALYSE_PLAYOUTS;

	if (!strcmp(spec, "engine") && n == KIFU_ANALYSE_PLAYOUTS)
		strcpy(out, "engine"); /* the default budget, work bound included */
	else if (!strcmp(spec, "engine"))
		snprintf(out, KIFU_ANALYSE_SPEC_MAX, "engine:%ld", n);
	else if ((!strncmp(spec, "engine:", 7) || !strncmp(spec, "mcts:", 5)) &&
		 strlen(spec) < KIFU_ANALYSE_SPEC_MAX)
		strcpy(out, spec);
	else
		return kifu_error_set(err, KIFU_EPARSE, "cannot review with '%s': engine, engine:N "
				      "or mcts:N", spec);
	return 0;
}

long kifu_analyse_spec_count(const char *spec)
{
	const char *colon = strchr(spec, ':');

	return colon ? strtol(colon + 1, NULL, 10) : KIFU_PLAYER_ENGINE_ITERATIONS;
}

/* The reviewing player of o; *min_visits gets the iterations each valued move gets at least. */
static int new_engine(struct kifu_player **out, long *min_visits, const struct kifu_game *g,
		      const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	char spec[KIFU_ANALYSE_SPEC_MAX];
	int ret;

	*out = NULL;
	ret = kifu_analyse_spec(spec, o, err);
	if (ret == 0)
		ret = kifu_player_new(out, g, spec, o->seed, err);
	if (ret == 0)
		*min_visits = o->min_visits > 0 ? o->min_visits : kifu_player_playouts(*out) / 4;
	return ret;
}

/*
 * A position's analysis: the engine's search of it, or its result where
 * the game is over; and every side's value there on the review's scale
 * (position_scale).
 */
struct pos_value {
	struct kifu_player_analysis a;
	int over;
	int mover;                         /* the side to move (the game not over) */
	double raw;                        /* the mover's value before the map */
	double v[KIFU_GAME_SIDES_MAX];     /* every side's value, on the review's scale */
};

/*
 * Analyses the position state on engine p, its generator seeded with seed
 * (kifu_player_analyse: the engine's choice and the move played, each with
 * N/4 more iterations forced through it; played KIFU_PLAYER_NO_MOVE to
 * value the position alone): every side's value under the engine's
 * choice; or the result where the game is over.
 */
static int value_position(struct pos_value *out, struct kifu_player *p, long min_visits,
			  const struct kifu_game *g, const void *state, kifu_move played,
			  uint64_t seed, struct kifu_error *err)
{
	struct kifu_outcome oc;
	int s;

	memset(out, 0, sizeof(*out));
	g->outcome(state, &oc);
	if (oc.status != KIFU_ONGOING) {
		out->over = 1;
		for (s = 0; s < g->nsides; s++)
			out->a.value[s] = oc.status == KIFU_WIN ? (s == oc.winner) : 1.0 / g->nsides;
		return 0;
	}
	out->mover = g->side_to_move(state);
	kifu_player_seed(p, seed);
	return kifu_player_analyse(&out->a, p, state, played, min_visits, err);
}

/*
 * The scale a review's scores are given on: the calibration map of the
 * game and variant (calibrate.c) for the default engine, the engine's raw
 * values for any other spec (the map is fitted for the default alone).
 */
struct scale {
	const struct kifu_game *g;
	int variant;
	int on;
};

/*
 * A mover's raw value on the review's scale, in [0, 1]: a mean of rewards
 * that are all 1 may sum to a rounding past it, which readers of a stored
 * review take for damage.
 */
static double scaled(const struct scale *sc, double raw)
{
	raw = raw < 0 ? 0 : raw > 1 ? 1 : raw;
	return sc->on ? kifu_analyse_calibrate_(sc->g, sc->variant, raw) : raw;
}

/*
 * pv's values on the review's scale: the mover's value is its best move's
 * (the mean of the iterations forced through the engine's choice, or what
 * the solver proved), mapped by the calibration; the other sides share the
 * rest as the search shares it. An ended game: its result.
 */
static void position_scale(struct pos_value *pv, const struct scale *sc)
{
	const struct kifu_game *g = sc->g;
	double rest = 0, mine;
	int s;

	if (pv->over) {
		for (s = 0; s < g->nsides; s++)
			pv->v[s] = pv->a.value[s];
		return;
	}
	pv->raw = pv->a.value[pv->mover];
	mine = scaled(sc, pv->raw);
	for (s = 0; s < g->nsides; s++)
		if (s != pv->mover)
			rest += pv->a.value[s];
	for (s = 0; s < g->nsides; s++)
		pv->v[s] = s == pv->mover ? mine :
			   rest > 0 ? (1 - mine) * pv->a.value[s] / rest :
			   (1 - mine) / (g->nsides - 1);
}

/*
 * What every way of valuing a ply fills alike: the ply, its mover and move,
 * the engine's choice and its principal line, the position's values (the
 * mover's is `expected` and the engine's choice's score: a position is
 * worth its best move).
 */
static void ply_start(struct kifu_ply_review *out, const struct kifu_game *g, kifu_move played,
		      size_t ply, const struct pos_value *before)
{
	const struct kifu_player_analysis *a = &before->a;

	memset(out, 0, sizeof(*out));
	out->ply = ply;
	out->side = before->mover;
	out->move = played;
	out->best = a->best.move;
	out->raw = before->raw;
	memcpy(out->value, before->v, sizeof(out->value));
	out->expected = before->v[before->mover];
	out->best_score = out->expected;
	out->best_visits = a->best.visits;
	out->best_proof = a->best.proof;
	out->best_plies = a->best.plies;
	out->nline = a->nline < KIFU_ANALYSE_LINE_MAX ? a->nline : KIFU_ANALYSE_LINE_MAX;
	memcpy(out->line, a->line, sizeof(*out->line) * (size_t)out->nline);
	(void)g;
}

/*
 * The review of ply `ply`, `played` from the position before (its search
 * with the move: before), with every value from that one search
 * (KIFU_ANALYSE_VALUES_TREE): the engine's choice and the move played each
 * valued by the N/4 iterations forced through it, on the review's scale;
 * the position is worth the better of the two (a position is worth its
 * best move), so loss = expected - played_score, and the engine's own move
 * played loses 0. Both moves' values come from one tree, with the same
 * depth of search below them, so what they share of the search's errors
 * does not show in the loss.
 */
static void combine_tree(struct kifu_ply_review *out, const struct scale *sc, kifu_move played,
			 size_t ply, const struct pos_value *before)
{
	const struct kifu_player_analysis *a = &before->a;
	const struct kifu_game *g = sc->g;
	double rest = 0;
	int s;

	ply_start(out, g, played, ply, before);
	out->best_score = scaled(sc, a->best.score);
	out->played_score = played == a->best.move ? out->best_score : scaled(sc, a->played.score);
	out->expected = out->best_score > out->played_score ? out->best_score : out->played_score;
	out->loss = out->expected - out->played_score;
	out->mark = kifu_analyse_mark(out->loss);
	out->played_visits = a->played.visits;
	if (played == a->best.move) {
		out->played_proof = a->best.proof;
		out->played_plies = a->best.plies;
	} else {
		out->played_proof = a->played.proof;
		out->played_plies = a->played.plies;
	}
	/* every side's value: the mover's expected, the others the rest as the position's */
	for (s = 0; s < g->nsides; s++)
		if (s != out->side)
			rest += before->v[s];
	for (s = 0; s < g->nsides; s++)
		out->value[s] = s == out->side ? out->expected :
				rest > 0 ? (1 - out->expected) * before->v[s] / rest :
				(1 - out->expected) / (g->nsides - 1);
	/* proven lost where the engine's choice is not: a blunder, whatever the samples say */
	if (out->played_proof == KIFU_PROOF_LOSS && out->best_proof != KIFU_PROOF_LOSS)
		out->mark = KIFU_REVIEW_BLUNDER;
}

/* What a proven (or ended) value v for side says: won, lost or drawn. */
static int proof_of(double v)
{
	return v >= 1 - EPS ? KIFU_PROOF_WIN : v <= EPS ? KIFU_PROOF_LOSS : KIFU_PROOF_DRAW;
}

/* The seed of the search of the position after the engine's choice at ply (1-based). */
static uint64_t best_seed(uint64_t seed, size_t ply)
{
	return kifu_analyse_ply_seed(seed, ply) ^ KIFU_HASH_GOLDEN;
}

/*
 * The mover's value of the position after a move (after: its search, or
 * its result, on the review's scale), with what it proves: *proof and
 * *plies (the move included).
 */
static double after_value(int *proof, int *plies, const struct pos_value *after, int side)
{
	double v = after->v[side];

	*proof = KIFU_PROOF_NONE;
	*plies = 0;
	if (after->over) {
		*proof = proof_of(v);
		*plies = 1;
	} else if (after->a.best.proof != KIFU_PROOF_NONE) {
		*proof = proof_of(after->a.value[side]);
		*plies = after->a.best.plies + 1;
	}
	return v;
}

/*
 * The review of ply `ply`, `played` from the position before (its search:
 * before), as lichess evaluates every position (KIFU_ANALYSE_VALUES_POSITIONS):
 * the move played is worth the mover's value in the position after it
 * (after_played: the game's next position, its own search), the engine's
 * choice the mover's value after it (after_best, when it was not played),
 * each on the review's scale. The engine's own move played loses 0: it is
 * the position's best, one move with one value. Proofs as the searches
 * found them.
 */
static void combine(struct kifu_ply_review *out, const struct kifu_game *g, kifu_move played,
		    size_t ply, const struct pos_value *before, const struct pos_value *after_played,
		    const struct pos_value *after_best)
{
	const struct kifu_player_analysis *a = &before->a;
	int proof, plies;
	double v;

	ply_start(out, g, played, ply, before);
	if (played == a->best.move) {
		out->played_score = out->best_score;
		out->played_visits = a->best.visits;
		out->played_proof = a->best.proof;
		out->played_plies = a->best.plies;
	} else {
		if (after_best) {
			v = after_value(&proof, &plies, after_best, out->side);
			out->best_score = v;
			out->best_visits = after_best->a.best.visits;
			if (proof != KIFU_PROOF_NONE) {
				out->best_proof = proof;
				out->best_plies = plies;
			}
		}
		out->played_score = after_value(&out->played_proof, &out->played_plies, after_played,
						 out->side);
		out->played_visits = after_played->over ? 0 : after_played->a.best.visits;
	}
	out->loss = out->best_score > out->played_score ? out->best_score - out->played_score : 0;
	out->mark = kifu_analyse_mark(out->loss);
	/* proven lost where the engine's choice is not: a blunder, whatever the samples say */
	if (out->played_proof == KIFU_PROOF_LOSS && out->best_proof != KIFU_PROOF_LOSS)
		out->mark = KIFU_REVIEW_BLUNDER;
}

/* Whether played is one of state's legal moves (not checked, apply would corrupt the state). */
static int is_legal(const struct kifu_game *g, const void *state, kifu_move played,
		    struct kifu_error *err)
{
	kifu_move *moves = malloc(sizeof(*moves) * (g->max_moves ? g->max_moves : 1));
	size_t n, i;
	int ret;

	if (!moves)
		return kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
	n = g->legal_moves(state, moves);
	for (i = 0; i < n && moves[i] != played; i++)
		;
	free(moves);
	if (!n)
		ret = kifu_error_set(err, KIFU_EILLEGAL, "analysis: no legal move, the game is over");
	else if (i == n)
		ret = kifu_error_set(err, KIFU_EILLEGAL, "analysis: the move analysed is not legal");
	else
		ret = 0;
	return ret;
}

/* Positions to search, shared by the threads of search_all. */
struct job {
	const struct kifu_game *g;
	const struct kifu_analyse_opts *o;
	const unsigned char *states;   /* n positions, side by side */
	const kifu_move *played;       /* the move of each, or NULL: none */
	const uint64_t *seeds;         /* each one's seed */
	size_t n;
	struct pos_value *out;         /* n, one per position */
	atomic_size_t next;            /* the next position index to take */
	atomic_int stop;               /* a thread failed: the others stop */
};

struct worker {
	struct job *job;
	thrd_t thread;
	int ret;
	struct kifu_error err;
};

static int work(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->job;
	struct kifu_player *p = NULL;
	long min_visits = 0;
	size_t i;

	w->ret = new_engine(&p, &min_visits, j->g, j->o, &w->err);
	while (w->ret == 0 && !atomic_load(&j->stop) &&
	       (i = atomic_fetch_add(&j->next, 1)) < j->n) {
		w->ret = value_position(&j->out[i], p, min_visits, j->g,
					j->states + i * j->g->state_size,
					j->played ? j->played[i] : KIFU_PLAYER_NO_MOVE, j->seeds[i],
					&w->err);
	}
	if (w->ret < 0)
		atomic_store(&j->stop, 1);
	kifu_player_free(p);
	return 0;
}

/*
 * Searches the n positions states (side by side) into out, each with its
 * own seed and its move played (played NULL: none), on o's threads. Each result depends on its position and seed
 * alone, so the thread count never shows. Returns 0 or the first failure.
 */
static int search_all(struct pos_value *out, const struct kifu_game *g,
		      const unsigned char *states, const kifu_move *played, const uint64_t *seeds,
		      size_t n, const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct job j;
	struct worker *w;
	int nthreads = o->threads > 0 ? o->threads : kifu_analyse_cores(), started = 0, t, ret = 0;

	if (!n)
		return 0;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	if ((size_t)nthreads > n)
		nthreads = (int)n;
	w = calloc((size_t)nthreads, sizeof(*w));
	if (!w)
		return kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
	j.g = g;
	j.o = o;
	j.states = states;
	j.played = played;
	j.seeds = seeds;
	j.n = n;
	j.out = out;
	atomic_init(&j.next, 0);
	atomic_init(&j.stop, 0);
	for (t = 0; t < nthreads; t++) {
		w[t].job = &j;
		kifu_error_clear(&w[t].err);
		/* the first worker runs on this thread */
		if (t > 0 && thrd_create(&w[t].thread, work, &w[t]) != thrd_success)
			break;
		started = t + 1;
	}
	work(&w[0]);
	for (t = 1; t < started; t++)
		thrd_join(w[t].thread, NULL);
	for (t = 0; t < started; t++)
		if (w[t].ret < 0) {
			ret = w[t].ret;
			*err = w[t].err;
			break;
		}
	free(w);
	return ret;
}

/*
 * The review of the n plies moves from states[0], moves[0] being ply
 * `ply` (1-based: the seeds) in variant: states has room for n + 1
 * positions (filled here from states[0]). KIFU_ANALYSE_VALUES_TREE: the
 * position before each ply is searched with its move. POSITIONS: every
 * position of the plies (the one before each ply, then the last), then the
 * positions after the engine's choices that were not played (unless the
 * choice is proven).
 */
static int review_plies(struct kifu_ply_review *rev, const struct kifu_game *g, int variant,
			unsigned char *states, const kifu_move *moves, size_t n, size_t ply,
			const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	char spec[KIFU_ANALYSE_SPEC_MAX];
	struct scale sc = { g, variant, 0 };
	size_t sz = g->state_size, i, m = 0;
	struct pos_value *values = calloc(2 * n + 1, sizeof(*values));
	uint64_t *seeds = malloc(sizeof(*seeds) * (n + 1));
	unsigned char *after_best = malloc(sz * n + 1);
	size_t *at = malloc(sizeof(*at) * n); /* ply index -> its position after the choice, or n */
	int ret = 0;

	if (!values || !seeds || !after_best || !at) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
		goto out;
	}
	ret = kifu_analyse_spec(spec, o, err);
	sc.on = ret == 0 && !strcmp(spec, KIFU_ANALYSE_ENGINE);
	for (i = 1; ret == 0 && i <= n; i++) {
		ret = is_legal(g, states + (i - 1) * sz, moves[i - 1], err);
		memcpy(states + i * sz, states + (i - 1) * sz, sz);
		if (ret == 0)
			g->apply(states + i * sz, moves[i - 1]);
	}
	for (i = 0; i <= n; i++)
		seeds[i] = kifu_analyse_ply_seed(o->seed, ply + i);
	if (ret == 0 && o->values == KIFU_ANALYSE_VALUES_TREE) {
		/* each move valued in the search of the position before it */
		ret = search_all(values, g, states, moves, seeds, n, o, err);
		for (i = 0; ret == 0 && i < n; i++) {
			position_scale(&values[i], &sc);
			combine_tree(&rev[i], &sc, moves[i], ply + i, &values[i]);
		}
		goto out;
	}
	if (ret == 0)
		ret = search_all(values, g, states, NULL, seeds, n + 1, o, err);
	for (i = 0; ret == 0 && i <= n; i++)
		position_scale(&values[i], &sc);
	for (i = 0; ret == 0 && i < n; i++) {
		kifu_move best = values[i].a.best.move;

		at[i] = n;
		if (best == moves[i] || values[i].a.best.proof != KIFU_PROOF_NONE)
			continue;
		memcpy(after_best + m * sz, states + i * sz, sz);
		g->apply(after_best + m * sz, best);
		seeds[m] = best_seed(o->seed, ply + i);
		at[i] = m++;
	}
	if (ret == 0)
		ret = search_all(values + n + 1, g, after_best, NULL, seeds, m, o, err);
	for (i = 0; ret == 0 && i < m; i++)
		position_scale(&values[n + 1 + i], &sc);
	for (i = 0; ret == 0 && i < n; i++)
		combine(&rev[i], g, moves[i], ply + i, &values[i], &values[i + 1],
			at[i] < n ? &values[n + 1 + at[i]] : NULL);
out:
	free(values);
	free(seeds);
	free(after_best);
	free(at);
	return ret;
}

int kifu_analyse_plies(struct kifu_ply_review *out, const struct kifu_game *g, int variant,
		       const void *state, const kifu_move *moves, size_t n, size_t ply,
		       const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	unsigned char *states;
	int ret;

	memset(out, 0, sizeof(*out) * n);
	if (!n)
		return 0;
	states = malloc((n + 1) * (g->state_size ? g->state_size : 1));
	if (!states)
		return kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
	memcpy(states, state, g->state_size);
	ret = review_plies(out, g, variant, states, moves, n, ply, o, err);
	free(states);
	return ret;
}

int kifu_analyse_position(struct kifu_ply_review *out, const struct kifu_game *g,
			  const void *state, kifu_move played, size_t ply,
			  const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct kifu_analyse_opts one = *o;

	one.threads = 1;
	return kifu_analyse_plies(out, g, o->variant, state, &played, 1, ply, &one, err);
}

int kifu_analyse_game(struct kifu_ply_review **out, const struct kifu_game *g, int variant,
		      int first, const kifu_move *moves, size_t n,
		      const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	unsigned char *states = NULL;
	struct kifu_ply_review *rev = NULL;
	int ret;

	*out = NULL;
	if (!n)
		return 0;
	states = malloc(g->state_size * (n + 1));
	rev = calloc(n, sizeof(*rev));
	if (!states || !rev) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
		goto out;
	}
	ret = g->init(states, variant, first, err);
	if (ret == 0)
		ret = review_plies(rev, g, variant, states, moves, n, 1, o, err);
out:
	if (ret == 0) {
		*out = rev;
		rev = NULL;
	}
	free(rev);
	free(states);
	return ret;
}

void kifu_analyse_game_free(struct kifu_ply_review *rv)
{
	free(rv);
}
