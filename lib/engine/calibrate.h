/*
 * The review's calibration (calibrate.c): the map from the default engine
 * review's raw value of a position for the side to move to that side's
 * expected score, fitted per game and variant on engine self-play outcomes
 * (bench/calibrate.sh, bench/calibrate.py).
 */
#ifndef KIFU_ENGINE_CALIBRATE_H
#define KIFU_ENGINE_CALIBRATE_H

#include "kifu/game.h"

/*
 * The mover's expected score for its raw value raw (in [0, 1]) in variant
 * of g: the fitted map, the raw value itself where none is fitted. 0 and 1
 * (proofs, ended games) map to themselves.
 */
double kifu_analyse_calibrate_(const struct kifu_game *g, int variant, double raw);

#endif
