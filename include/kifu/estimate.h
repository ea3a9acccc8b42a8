/*
 * Estimators behind kifu's statistics: the Wilson score interval of a
 * proportion, and Elo-scale ratings fitted by maximum likelihood
 * (Bradley-Terry, draws as half a win) over all games at once.
 */
#ifndef KIFU_ESTIMATE_H
#define KIFU_ESTIMATE_H

#include <stddef.h>

#include "kifu/error.h"

/* z of a two-sided 95% interval. */
#define KIFU_WILSON_Z 1.959963984540054

/*
 * The Wilson score interval (95%) of a proportion `score` observed over n
 * trials (score may be fractional: draws count as part of a win). Returns
 * 0, or KIFU_ERANGE when n <= 0 or score is outside [0, n].
 */
int kifu_estimate_wilson(double *low, double *high, double score, double n);

/* One pairing's outcome between players a and b: score_a 1, 0.5 or 0. */
struct kifu_pairing {
	size_t a, b;
	double score_a;
};

/*
 * Ratings of nplayers players (indexes 0..nplayers-1) from pairings, by
 * maximum likelihood under Bradley-Terry on the Elo scale (P(a beats b) =
 * 1 / (1 + 10^((Rb - Ra) / 400))), draws counting half a win to each side.
 * Each player also gets one virtual draw against a player rated at the
 * mean, so that a player who won or lost every game has a finite rating,
 * and the ratings are put on a scale whose mean is 1500. The result does
 * not depend on the order of the pairings. ratings has room for nplayers.
 * Returns 0, KIFU_ENOMEM, or KIFU_ERANGE for an index out of range.
 */
int kifu_estimate_ratings(double *ratings, size_t nplayers, const struct kifu_pairing *pairings,
			  size_t npairings, struct kifu_error *err);

#endif
