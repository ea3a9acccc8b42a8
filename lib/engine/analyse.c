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

/* One ply on engine p (its generator reseeded for the ply). */
static int review(struct kifu_ply_review *out, struct kifu_player *p, long min_visits,
		  const struct kifu_game *g, const void *state, kifu_move played, size_t ply,
		  const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct kifu_player_analysis a;
	int ret;

	memset(out, 0, sizeof(*out));
	kifu_player_seed(p, kifu_analyse_ply_seed(o->seed, ply));
	ret = kifu_player_analyse(&a, p, state, played, min_visits, err);
	if (ret < 0)
		return ret;
	out->ply = ply;
	out->side = g->side_to_move(state);
	out->move = played;
	out->best = a.best.move;
	out->expected = a.expected;
	out->best_score = a.best.score;
	/* the best move analysed is the move played: one value, whatever the forcing added */
	out->played_score = played == a.best.move ? a.best.score : a.played.score;
	out->loss = out->best_score > out->played_score ? out->best_score - out->played_score : 0;
	out->mark = kifu_analyse_mark(out->loss);
	out->best_visits = a.best.visits;
	out->played_visits = a.played.visits;
	out->best_proof = a.best.proof;
	out->best_plies = a.best.plies;
	if (played == a.best.move) {
		out->played_proof = a.best.proof;
		out->played_plies = a.best.plies;
	} else {
		out->played_proof = a.played.proof;
		out->played_plies = a.played.plies;
	}
	/* proven lost where the engine's choice is not: a blunder, whatever the samples say */
	if (out->played_proof == KIFU_PROOF_LOSS && out->best_proof != KIFU_PROOF_LOSS)
		out->mark = KIFU_REVIEW_BLUNDER;
	return 0;
}

int kifu_analyse_position(struct kifu_ply_review *out, const struct kifu_game *g,
			  const void *state, kifu_move played, size_t ply,
			  const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct kifu_player *p = NULL;
	long min_visits = 0;
	int ret;

	ret = new_engine(&p, &min_visits, g, o, err);
	if (ret == 0)
		ret = review(out, p, min_visits, g, state, played, ply, o, err);
	kifu_player_free(p);
	return ret;
}

/* The work of kifu_analyse_game, shared by its threads. */
struct job {
	const struct kifu_game *g;
	const struct kifu_analyse_opts *o;
	const unsigned char *states;   /* n positions: the one before each ply */
	const kifu_move *moves;
	size_t n;
	struct kifu_ply_review *out;
	atomic_size_t next;            /* the next ply index to take */
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
		w->ret = review(&j->out[i], p, min_visits, j->g, j->states + i * j->g->state_size, j->moves[i],
				i + 1, j->o, &w->err);
	}
	if (w->ret < 0)
		atomic_store(&j->stop, 1);
	kifu_player_free(p);
	return 0;
}

int kifu_analyse_game(struct kifu_ply_review **out, const struct kifu_game *g, int variant,
		      int first, const kifu_move *moves, size_t n,
		      const struct kifu_analyse_opts *o, struct kifu_error *err)
{
	struct job j;
	struct worker *w = NULL;
	unsigned char *states = NULL;
	struct kifu_ply_review *rev = NULL;
	int nthreads = o->threads > 0 ? o->threads : kifu_analyse_cores(), started = 0, t, ret;
	size_t i;

	*out = NULL;
	if (!n)
		return 0;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	if ((size_t)nthreads > n)
		nthreads = (int)n;
	states = malloc(g->state_size * n);
	rev = calloc(n, sizeof(*rev));
	w = calloc((size_t)nthreads, sizeof(*w));
	if (!states || !rev || !w) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "analysis: out of memory");
		goto out;
	}
	ret = g->init(states, variant, first, err);
	if (ret < 0)
		goto out;
	for (i = 1; i < n; i++) {
		memcpy(states + i * g->state_size, states + (i - 1) * g->state_size, g->state_size);
		g->apply(states + i * g->state_size, moves[i - 1]);
	}
	j.g = g;
	j.o = o;
	j.states = states;
	j.moves = moves;
	j.n = n;
	j.out = rev;
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
	ret = 0;
	for (t = 0; t < started; t++)
		if (w[t].ret < 0) {
			ret = w[t].ret;
			*err = w[t].err;
			break;
		}
out:
	if (ret == 0) {
		*out = rev;
		rev = NULL;
	}
	free(rev);
	free(states);
	free(w);
	return ret;
}

void kifu_analyse_game_free(struct kifu_ply_review *rv)
{
	free(rv);
}
