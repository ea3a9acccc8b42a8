/*
 * Benchmark of the players' inner loop: random playouts per second from the
 * start position of every game and variant, through the same function the
 * search uses (kifu_player_playout, with the search's ply cap). Built and
 * run by bench/players.sh; prints one table row per game and variant.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kifu/game.h"
#include "kifu/player.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench(const struct kifu_game *g, int variant, double seconds)
{
	struct kifu_player *p = NULL;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	long count = 0, plies = 0, capped = 0;
	double t0, elapsed;
	int ret = 1;

	kifu_error_clear(&err);
	if (kifu_pos_new(&pos, g, variant, 0, &err) < 0 ||
	    kifu_player_new(&p, g, "random", 1, &err) < 0) {
		fprintf(stderr, "players: error: %s\n", err.message);
		goto out;
	}
	t0 = now();
	do {
		struct kifu_outcome oc;
		int i, n;

		/* Check the clock every few playouts only. */
		for (i = 0; i < 16; i++) {
			kifu_player_playout(&oc, &n, p, pos->state, KIFU_PLAYER_PLAYOUT_PLIES);
			count++;
			plies += n;
			capped += oc.status == KIFU_ONGOING;
		}
		elapsed = now() - t0;
	} while (elapsed < seconds);
	printf("%-18s %-10s %12.0f %12.1f %10.0f %8.1f%%\n", g->name, g->variants[variant],
	       count / elapsed, (double)plies / count, plies / elapsed,
	       100.0 * capped / count);
	fflush(stdout);
	ret = 0;
out:
	kifu_player_free(p);
	kifu_pos_free(pos);
	return ret;
}

int main(int argc, char **argv)
{
	const struct kifu_game *const *g;
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	int ret = 0;

	if (seconds <= 0)
		seconds = 2.0;
	printf("%-18s %-10s %12s %12s %10s %9s\n", "game", "variant", "playouts/s",
	       "plies/playout", "plies/s", "capped");
	for (g = kifu_games; *g; g++) {
		int v;

		for (v = 0; (*g)->variants[v]; v++)
			ret |= bench(*g, v, seconds);
	}
	return ret;
}
