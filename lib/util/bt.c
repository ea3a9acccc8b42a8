/*
 * The rating fit of kifu-stats (util/bt.h): Hunter's MM iteration for the
 * Bradley-Terry model with one virtual draw per player, as lib/stats/
 * estimate.c describes it. Here, below the store, so that the store can
 * fit the ratings from the sums it keeps at the end of an import, and the
 * reports from the same sums or from the games, with the same arithmetic.
 */
#include <math.h>
#include <stdlib.h>

#include "util/bt.h"

#define MAX_ITERATIONS 100000
#define TOLERANCE 1e-12

static int cmp_pair(const void *x, const void *y)
{
	const struct kifu_bt_pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return 0;
}

int kifu_bt_fit_(double *ratings, size_t nplayers, double *score, struct kifu_bt_pair *pairs,
		 size_t npairs, struct kifu_error *err)
{
	double *gamma = NULL, *denom = NULL;
	size_t i, k;
	int ret = KIFU_ENOMEM, iter;

	if (nplayers == 0)
		return 0;
	if (nplayers > KIFU_BT_MAX_PLAYERS)
		return kifu_error_set(err, KIFU_ERANGE, "ratings: %zu players are too many", nplayers);
	gamma = malloc(sizeof(*gamma) * nplayers);
	denom = malloc(sizeof(*denom) * nplayers);
	if (!gamma || !denom) {
		kifu_error_set(err, KIFU_ENOMEM, "ratings: out of memory");
		goto out;
	}
	qsort(pairs, npairs, sizeof(*pairs), cmp_pair);
	for (i = 0, k = 0; k < npairs; k++) {
		if (i > 0 && !cmp_pair(&pairs[i - 1], &pairs[k]))
			pairs[i - 1].games += pairs[k].games;
		else
			pairs[i++] = pairs[k];
	}
	npairs = i;
	for (i = 0; i < nplayers; i++) {
		score[i] += 0.5; /* the virtual draw */
		gamma[i] = 1;
	}
	for (iter = 0; iter < MAX_ITERATIONS; iter++) {
		double logsum = 0, change = 0, scale, shift = 0;

		for (i = 0; i < nplayers; i++) {
			denom[i] = 1 / (gamma[i] + 1); /* the virtual opponent, gamma 1 */
			shift += gamma[i] * denom[i];
		}
		shift = 0.5 - shift / (double)nplayers;
		for (k = 0; k < npairs; k++) {
			double d = pairs[k].games / (gamma[pairs[k].a] + gamma[pairs[k].b]);

			denom[pairs[k].a] += d;
			denom[pairs[k].b] += d;
		}
		for (i = 0; i < nplayers; i++) {
			/* score >= 1/2 (the virtual draw) and |shift| < 1/2: g stays positive */
			double g = (score[i] - shift) / denom[i];

			change = fmax(change, fabs(log(g / gamma[i])));
			gamma[i] = g;
			logsum += log(g);
		}
		scale = exp(-logsum / (double)nplayers);
		for (i = 0; i < nplayers; i++)
			gamma[i] *= scale;
		if (change < TOLERANCE)
			break;
	}
	for (i = 0; i < nplayers; i++)
		ratings[i] = 1500 + 400 * log10(gamma[i]);
	ret = 0;
out:
	free(gamma);
	free(denom);
	return ret;
}
