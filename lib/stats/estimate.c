/*
 * The estimators of kifu-stats. Wilson's interval is the usual closed form.
 * Ratings maximise the Bradley-Terry likelihood of all games at once, plus
 * one virtual draw per player against an opponent rated at the players'
 * mean; that likelihood does not change when every rating moves by the same
 * amount, so the mean is then set to 1500. With gamma = 10^(R / 400) and
 * s_i = gamma_i / (gamma_i + 1) the expected score of the virtual draw, its
 * equations are: actual score - expected score = 1/2 - mean(s) for every
 * player (virtual draw included on both sides). Hunter's MM step for
 * Bradley-Terry, gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j), solves
 * them when W_i is the actual score less that constant; the gammas are
 * rescaled to geometric mean 1 after every step.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/estimate.h"
#include "util/bt.h"

int kifu_estimate_wilson(double *low, double *high, double score, double n)
{
	const double z = KIFU_WILSON_Z, z2 = z * z;
	double p, denom, centre, half;

	if (!(n > 0) || score < 0 || score > n)
		return KIFU_ERANGE;
	p = score / n;
	denom = 1 + z2 / n;
	centre = (p + z2 / (2 * n)) / denom;
	half = z / denom * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	*low = centre - half < 0 ? 0 : centre - half;
	*high = centre + half > 1 ? 1 : centre + half;
	return 0;
}

int kifu_estimate_ratings(double *ratings, size_t nplayers, const struct kifu_pairing *pairings,
			  size_t npairings, struct kifu_error *err)
{
	struct kifu_bt_pair *pairs = NULL;
	double *score = NULL;
	size_t npairs = 0, k;
	int ret = KIFU_ENOMEM;

	if (nplayers == 0)
		return 0;
	pairs = malloc(sizeof(*pairs) * (npairings ? npairings : 1));
	score = calloc(nplayers, sizeof(*score));
	if (!pairs || !score) {
		kifu_error_set(err, KIFU_ENOMEM, "ratings: out of memory");
		goto out;
	}
	for (k = 0; k < npairings; k++) {
		const struct kifu_pairing *p = &pairings[k];

		if (p->a >= nplayers || p->b >= nplayers || p->a == p->b) {
			ret = kifu_error_set(err, KIFU_ERANGE, "ratings: pairing %zu names no pair of players", k + 1);
			goto out;
		}
		score[p->a] += p->score_a;
		score[p->b] += 1 - p->score_a;
		pairs[npairs].a = (uint32_t)(p->a < p->b ? p->a : p->b);
		pairs[npairs].b = (uint32_t)(p->a < p->b ? p->b : p->a);
		pairs[npairs].games = 1;
		npairs++;
	}
	ret = kifu_bt_fit_(ratings, nplayers, score, pairs, npairs, err);
out:
	free(pairs);
	free(score);
	return ret;
}
