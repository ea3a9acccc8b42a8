/*
 * Fits the games' evaluation weights (lib/games/eval.h) to game outcomes:
 * plays self-play games of every game and variant with kifu's own players,
 * takes the features of every position before the end, and fits one
 * weight vector per weight set by logistic regression (the softmax over
 * the sides still in the game, with a draw's share split; each game's
 * positions weigh 1 in all, since they share one result, and an L2 penalty
 * (--l2, default 0.1) on the weights keeps few games from overfitting;
 * Newton's method). One game in four is held out (every fourth
 * round of nsides games, so that each side starts as often): the log-loss on
 * those games is printed beside the uniform baseline's (1/nsides each), per
 * variant, beside that of the weights now in the game's file, then the
 * fitted weights as C to paste there, and the evaluation's CPU cost per
 * call (over 4,096 positions of random games).
 *
 *   make fit-eval                      the defaults below, niced
 *   build/default/bench/fit-eval [--games N>=16] [--players SPEC,...] [--seed S]
 *                                [--only GAME] [--max-plies N] [--l2 X]
 *
 * N games (default 300) per variant are played by copies of one player,
 * one SPEC of the comma-separated list (default mcts:40,random: the
 * searching players' positions, and the wilder ones that a search's
 * random plies reach) in turn by blocks of four rounds, each player seeded
 * from --seed, the variant, the game and the seat, so a run is
 * reproducible (and --only picks the same games); where the game lets the
 * record choose, the first side rotates.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/eval.h"
#include "kifu/game.h"
#include "kifu/player.h"

#define NF KIFU_EVAL_FEATURES_MAX
#define NS KIFU_EVAL_SIDES_MAX

/* One position: its features, the sides still in, the final scores, and where it came from. */
struct row {
	double f[NS * NF];
	double t[NS];
	double wt;     /* 1 / the game's positions: each game weighs as one observation */
	unsigned alive;
	int set, variant, held;
	int kind;      /* which of the player specs played the game */
};

/* The L2 penalty on the weights (--l2). */
static double l2 = 0.1;

struct rows {
	struct row *r;
	size_t n, cap;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* The model's probabilities of row r with weights w. */
static void predict(const struct kifu_game_eval_ *m, const double *w, const struct row *r,
		    double *p)
{
	kifu_game_eval_softmax_(p, m->game->nsides, m->nfeatures, w, r->f, r->alive);
}

static double row_loss(int nsides, const struct row *r, const double *p)
{
	double l = 0;
	int s;

	for (s = 0; s < nsides; s++)
		if (r->t[s] > 0)
			l -= r->t[s] * log(p[s] > 1e-12 ? p[s] : 1e-12);
	return l;
}

/* Mean log-loss over the rows held out (held 1) or not, of a variant and a kind (-1: any). */
static double mean_loss(const struct kifu_game_eval_ *m, const double *w, const struct rows *rs,
			int held, int variant, int kind, int uniform, size_t *count)
{
	double sum = 0, p[NS];
	size_t i, n = 0;
	int s;

	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];

		if (r->held != held || r->variant != variant || (kind >= 0 && r->kind != kind))
			continue;
		if (uniform)
			for (s = 0; s < m->game->nsides; s++)
				p[s] = 1.0 / m->game->nsides;
		else
			predict(m, w + (size_t)r->set * (size_t)m->nfeatures, r, p);
		sum += row_loss(m->game->nsides, r, p);
		n++;
	}
	*count = n;
	return n ? sum / (double)n : 0;
}

/* Solves a x = b (n x n, row-major; a and b are overwritten) by Gaussian elimination. */
static void solve(double *a, double *b, double *x, int n)
{
	int i, j, k;

	for (k = 0; k < n; k++) {
		int piv = k;

		for (i = k + 1; i < n; i++)
			if (fabs(a[i * n + k]) > fabs(a[piv * n + k]))
				piv = i;
		for (j = 0; j < n; j++) {
			double t = a[k * n + j];

			a[k * n + j] = a[piv * n + j];
			a[piv * n + j] = t;
		}
		{
			double t = b[k];

			b[k] = b[piv];
			b[piv] = t;
		}
		for (i = k + 1; i < n; i++) {
			double q = a[k * n + k] ? a[i * n + k] / a[k * n + k] : 0;

			for (j = k; j < n; j++)
				a[i * n + j] -= q * a[k * n + j];
			b[i] -= q * b[k];
		}
	}
	for (i = n - 1; i >= 0; i--) {
		double v = b[i];

		for (j = i + 1; j < n; j++)
			v -= a[i * n + j] * x[j];
		x[i] = a[i * n + i] ? v / a[i * n + i] : 0;
	}
}

/* The penalised loss (sum, not mean) of the training rows of a set. */
static double train_objective(const struct kifu_game_eval_ *m, const double *w,
			      const struct rows *rs, int set)
{
	double sum = 0, p[NS];
	size_t i;
	int j;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].set == set && !rs->r[i].held) {
			predict(m, w, &rs->r[i], p);
			sum += rs->r[i].wt * row_loss(m->game->nsides, &rs->r[i], p);
		}
	for (j = 0; j < m->nfeatures; j++)
		sum += 0.5 * l2 * w[j] * w[j];
	return sum;
}

/* Newton's method on the training rows of one weight set, from w = 0. */
static void fit_set(const struct kifu_game_eval_ *m, const struct rows *rs, int set, double *w)
{
	int nf = m->nfeatures, ns = m->game->nsides, it, j, k, s;
	double obj;

	memset(w, 0, sizeof(*w) * (size_t)nf);
	obj = train_objective(m, w, rs, set);
	for (it = 0; it < 50; it++) {
		double h[NF * NF], g[NF], step[NF], trial[NF], p[NS], t = 1, next;
		size_t i;

		for (j = 0; j < nf; j++) {
			g[j] = -l2 * w[j];
			for (k = 0; k < nf; k++)
				h[j * nf + k] = j == k ? l2 : 0;
		}
		for (i = 0; i < rs->n; i++) {
			const struct row *r = &rs->r[i];
			double mu[NF] = { 0 };

			if (r->set != set || r->held)
				continue;
			predict(m, w, r, p);
			for (s = 0; s < ns; s++)
				for (j = 0; j < nf; j++) {
					g[j] += r->wt * (r->t[s] - p[s]) * r->f[s * nf + j];
					mu[j] += p[s] * r->f[s * nf + j];
				}
			for (s = 0; s < ns; s++) {
				const double *f = r->f + s * nf;

				if (p[s] == 0)
					continue;
				for (j = 0; j < nf; j++)
					for (k = 0; k < nf; k++)
						h[j * nf + k] += r->wt * p[s] * f[j] * f[k];
			}
			for (j = 0; j < nf; j++)
				for (k = 0; k < nf; k++)
					h[j * nf + k] -= r->wt * mu[j] * mu[k];
		}
		solve(h, g, step, nf);
		/* damped: halve the step until the objective does not grow */
		for (;;) {
			for (j = 0; j < nf; j++)
				trial[j] = w[j] + t * step[j];
			next = train_objective(m, trial, rs, set);
			if (next <= obj || t < 1e-6)
				break;
			t /= 2;
		}
		if (next > obj)
			break;
		memcpy(w, trial, sizeof(*w) * (size_t)nf);
		if (obj - next < 1e-9 * (1 + obj)) {
			obj = next;
			break;
		}
		obj = next;
	}
}

static int push_row(struct rows *rs, const struct row *r)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 4096;
		struct row *p = realloc(rs->r, cap * sizeof(*p));

		if (!p)
			return -1;
		rs->r = p;
		rs->cap = cap;
	}
	rs->r[rs->n++] = *r;
	return 0;
}

/* Plays one self-play game and adds its positions: 1 if it finished, 0 if cut, -1 on error. */
static int play_one(const struct kifu_game_eval_ *m, int variant, long i, const char *spec,
		    int kind, uint64_t seed, long max_plies, struct rows *rs, int held)
{
	const struct kifu_game *g = m->game;
	struct kifu_player *pl[NS] = { NULL };
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	struct kifu_outcome oc;
	size_t first_row = rs->n, k;
	int first = (g->flags & KIFU_GAME_CHOOSE_FIRST) ? (int)(i % g->nsides) : 0;
	int s, ret = -1;
	long ply;

	kifu_error_clear(&err);
	if (kifu_pos_new(&pos, g, variant, first, &err) < 0)
		goto out;
	for (s = 0; s < g->nsides; s++)
		if (kifu_player_new(&pl[s], g, spec, mix(seed ^ mix((uint64_t)variant << 40 ^
								    (uint64_t)i << 8 ^ (uint64_t)s)),
				    &err) < 0)
			goto out;
	for (ply = 0;; ply++) {
		struct row r;
		kifu_move mv;

		g->outcome(pos->state, &oc);
		if (oc.status != KIFU_ONGOING || ply >= max_plies)
			break;
		memset(&r, 0, sizeof(r));
		r.alive = (1u << g->nsides) - 1;
		r.set = m->features(pos->state, r.f, &r.alive);
		r.variant = variant;
		r.held = held;
		r.kind = kind;
		if (push_row(rs, &r) < 0)
			goto out;
		if (kifu_player_choose(&mv, pl[g->side_to_move(pos->state)], pos->state, &err) < 0)
			goto out;
		g->apply(pos->state, mv);
	}
	if (oc.status == KIFU_ONGOING) {
		rs->n = first_row; /* unfinished: no outcome to learn from */
		ret = 0;
		goto out;
	}
	for (k = first_row; k < rs->n; k++) {
		rs->r[k].wt = 1.0 / (double)(rs->n - first_row);
		for (s = 0; s < g->nsides; s++)
			rs->r[k].t[s] = oc.status == KIFU_WIN ? (s == oc.winner) :
					(rs->r[k].alive >> s & 1) ? 1.0 / __builtin_popcount(rs->r[k].alive) : 0;
	}
	ret = 1;
out:
	if (ret < 0)
		fprintf(stderr, "fit-eval: %s: %s\n", g->name, err.message);
	for (s = 0; s < NS; s++)
		kifu_player_free(pl[s]);
	kifu_pos_free(pos);
	return ret;
}

/* The evaluation's mean CPU cost per call, in ns, over 4,096 positions of random games. */
static double time_eval(const struct kifu_game *g, int variant, uint64_t seed)
{
	struct kifu_pos *pos = NULL;
	struct kifu_player *p = NULL;
	struct kifu_error err;
	unsigned char *states = NULL;
	double t0, t, sink = 0, out[NS];
	int n = 0, rep, k;

	if (kifu_pos_new(&pos, g, variant, 0, &err) < 0 ||
	    kifu_player_new(&p, g, "random", seed, &err) < 0 || !(states = malloc(g->state_size * 4096)))
		goto out;
	/* positions of random games, every one until 4096 are collected */
	while (n < 4096) {
		struct kifu_outcome oc;
		kifu_move mv;

		g->outcome(pos->state, &oc);
		if (oc.status != KIFU_ONGOING) {
			g->init(pos->state, variant, 0, &err);
			continue;
		}
		memcpy(states + g->state_size * (size_t)n++, pos->state, g->state_size);
		kifu_player_choose(&mv, p, pos->state, &err);
		g->apply(pos->state, mv);
	}
	t0 = now();
	for (rep = 0; rep < 50; rep++)
		for (k = 0; k < n; k++) {
			g->evaluate(states + g->state_size * (size_t)k, out);
			sink += out[0];
		}
	t = now() - t0;
	free(states);
	kifu_pos_free(pos);
	kifu_player_free(p);
	return sink >= 0 ? t / (50.0 * n) * 1e9 : 0;
out:
	free(states);
	kifu_pos_free(pos);
	kifu_player_free(p);
	return -1;
}

int main(int argc, char **argv)
{
	const struct kifu_game_eval_ *const *mp;
	const char *players = "mcts:40,random", *only = NULL, *spec[NS];
	char specs[256], *tok, *save = NULL;
	int nspecs = 0;
	long games = 300, max_plies = 1000;
	uint64_t seed = 1;
	int a, status = 0;

	for (a = 1; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "--games"))
			games = atol(argv[a + 1]);
		else if (!strcmp(argv[a], "--players"))
			players = argv[a + 1];
		else if (!strcmp(argv[a], "--seed"))
			seed = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--only"))
			only = argv[a + 1];
		else if (!strcmp(argv[a], "--l2"))
			l2 = atof(argv[a + 1]);
		else if (!strcmp(argv[a], "--max-plies"))
			max_plies = atol(argv[a + 1]);
		else
			break;
	}
	snprintf(specs, sizeof(specs), "%s", players);
	for (tok = strtok_r(specs, ",", &save); tok && nspecs < NS; tok = strtok_r(NULL, ",", &save))
		spec[nspecs++] = tok;
	if (a < argc || games < 16 || !nspecs) {
		fprintf(stderr, "usage: fit-eval [--games N>=16] [--players SPEC,...] [--seed S] "
				"[--only GAME] [--max-plies N] [--l2 X]\n");
		return 2;
	}
	printf("/* fit-eval --games %ld --players %s --seed %llu --l2 %g: one game in four held "
	       "out */\n", games, players, (unsigned long long)seed, l2);
	for (mp = kifu_game_evals_; *mp; mp++) {
		const struct kifu_game_eval_ *m = *mp;
		const struct kifu_game *g = m->game;
		struct rows rs = { NULL, 0, 0 };
		double w[NF * 4] = { 0 };
		int v, set, j, cut = 0;
		double t0 = now();

		if (only && strcmp(only, g->name))
			continue;
		for (v = 0; g->variants[v]; v++) {
			long i;

			for (i = 0; i < games; i++) {
				/* blocks of four rounds of nsides games per spec, the fourth round held out */
				int kind = (int)((i / (4 * g->nsides)) % nspecs);
				int r = play_one(m, v, i, spec[kind], kind, seed, max_plies, &rs,
						 (i / g->nsides) % 4 == 3);

				if (r < 0) {
					status = 1;
					break;
				}
				cut += r == 0;
			}
		}
		for (set = 0; set < m->nweights; set++)
			fit_set(m, &rs, set, w + set * m->nfeatures);
		printf("\n/* %s: %zu positions, %d games cut at %ld plies, %.0f s of CPU */\n", g->name,
		       rs.n, cut, max_plies, now() - t0);
		for (v = 0; g->variants[v]; v++) {
			size_t n1, n2;
			double fit = mean_loss(m, w, &rs, 1, v, -1, 0, &n1);
			double uni = mean_loss(m, w, &rs, 1, v, -1, 1, &n2);
			double cur = mean_loss(m, m->weights, &rs, 1, v, -1, 0, &n2);
			double trn = mean_loss(m, w, &rs, 0, v, -1, 0, &n2);
			int k;

			printf("/*   %-9s held-out log-loss %.4f (uniform %.4f, weights now in the "
			       "file %.4f; training %.4f) over %zu positions; evaluate %.0f ns a call */\n",
			       g->variants[v], fit, uni, cur, trn, n1, time_eval(g, v, seed));
			for (k = 0; nspecs > 1 && k < nspecs; k++) {
				fit = mean_loss(m, w, &rs, 1, v, k, 0, &n1);
				uni = mean_loss(m, w, &rs, 1, v, k, 1, &n2);
				printf("/*     games of %-9s held-out log-loss %.4f (uniform %.4f) over %zu "
				       "positions */\n", spec[k], fit, uni, n1);
			}
		}
		printf("/* features: ");
		for (j = 0; j < m->nfeatures; j++)
			printf("%s%s", j ? ", " : "", m->names[j]);
		printf(" */\n");
		for (set = 0; set < m->nweights; set++) {
			if (m->nweights > 1)
				printf("\t/* weight set %d */\n", set);
			printf("\t");
			for (j = 0; j < m->nfeatures; j++)
				printf("%s%.4f", j ? ", " : "", w[set * m->nfeatures + j]);
			printf(",\n");
		}
		fflush(stdout);
		free(rs.r);
	}
	return status;
}
