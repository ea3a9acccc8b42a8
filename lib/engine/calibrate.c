/*
 * The calibration of the default review (`engine`, 1000 iterations): a
 * move's raw value for the side to move (the mean of the iterations forced
 * through it) reads high for whoever moves, since below that move the other
 * side's exploration is averaged in; and by how much depends on the game.
 * Each two-sided game and variant has Platt's map, expected = 1 / (1 +
 * e^-(a logit(raw) + b)), fitted by bench/calibrate.py on engine self-play
 * games (bench/calibrate.sh; bench/README.md: the games' seeds and the
 * held-out errors): a by the games' outcomes, b so that the scale is one
 * (over default reviews of self-play games, the mover's drop in value
 * across its move less the loss charged is 0 on average, "b: N reviewed";
 * where no such reviews were at hand, the engine's own moves lose nothing
 * on average, "b: own moves"). splinter-quad has none: a map of the
 * mover's share alone would move it against the other sides' shares.
 */
#include <math.h>
#include <string.h>

#include "engine/calibrate.h"

struct platt {
	const char *game, *variant;
	double a, b;
};

/* bench/calibrate.py's fit: game, variant, a, b; the self-play games it was fitted on. */
static const struct platt maps[] = {
	{ "glaisher", "advanced", 2.5000, -0.1597 }, /* 30 games; b: 10 reviewed */
	{ "glaisher", "standard", 1.9598, -0.3144 }, /* 30 games; b: 10 reviewed */
	{ "splay-kisenwether", "standard", 1.0465, -0.1932 }, /* 50 games; b: 10 reviewed */
	{ "splay-schmidt", "standard", 1.6934, -0.1647 }, /* 40 games; b: 30 reviewed */
	{ "splinter", "knockout", 0.5000, -0.0656 }, /* 30 games; b: 10 reviewed */
	{ "splinter", "survival", 0.5000, 0.0176 }, /* 60 games; b: own moves */
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
