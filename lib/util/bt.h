/*
 * The Bradley-Terry rating fit (private, not installed), shared by
 * kifu_estimate_ratings (lib/stats) and the players' kept sums
 * (lib/store/store_sums.c): ratings[0..nplayers) on the Elo scale (mean
 * 1500) from score[i], player i's points in its pairings (changed: the
 * virtual draw is added), and the games of each pair a < b (sorted and
 * merged here, so that pairs may repeat and come in any order: the result
 * depends only on the players' order and the sums). 0, or KIFU_ENOMEM
 * (KIFU_ERANGE past KIFU_BT_MAX_PLAYERS) with err filled.
 */
#ifndef KIFU_UTIL_BT_H
#define KIFU_UTIL_BT_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/error.h"

/* 16 bytes: the fit streams through every pair at each step. */
struct kifu_bt_pair {
	uint32_t a, b;
	double games;
};

/* Players a fit takes at most (indexes fit in 32 bits). */
#define KIFU_BT_MAX_PLAYERS UINT32_MAX

int kifu_bt_fit_(double *ratings, size_t nplayers, double *score, struct kifu_bt_pair *pairs,
		 size_t npairs, struct kifu_error *err);

#endif
