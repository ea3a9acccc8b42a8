/*
 * The generic part of the games' evaluations (games/eval.h): a linear score
 * per side turned into expected scores by a softmax over the sides that can
 * still win. The features and their weights are each game's own.
 */
#include <math.h>

#include "games/eval.h"

void kifu_game_eval_softmax_(double *out, int nsides, int nfeatures, const double *w,
			     const double *f, unsigned alive)
{
	double z[KIFU_EVAL_SIDES_MAX], top = -HUGE_VAL, sum = 0;
	int s, j;

	for (s = 0; s < nsides; s++) {
		z[s] = 0;
		for (j = 0; j < nfeatures; j++)
			z[s] += w[j] * f[s * nfeatures + j];
		if ((alive >> s & 1) && z[s] > top)
			top = z[s];
	}
	if (top == -HUGE_VAL) {
		for (s = 0; s < nsides; s++)
			out[s] = 1.0 / nsides;
		return;
	}
	for (s = 0; s < nsides; s++) {
		out[s] = (alive >> s & 1) ? exp(z[s] - top) : 0.0;
		sum += out[s];
	}
	for (s = 0; s < nsides; s++)
		out[s] /= sum;
}

void kifu_game_eval_run_(const struct kifu_game_eval_ *m, const void *state, double *out)
{
	double f[KIFU_EVAL_SIDES_MAX * KIFU_EVAL_FEATURES_MAX];
	unsigned alive = (1u << m->game->nsides) - 1;
	int set = m->features(state, f, &alive);

	kifu_game_eval_softmax_(out, m->game->nsides, m->nfeatures,
				m->weights + (size_t)set * (size_t)m->nfeatures, f, alive);
}
