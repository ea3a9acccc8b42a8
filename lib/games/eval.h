/*
 * Internal header of the games' evaluations (not installed): each game that
 * has an evaluation describes it as one `const struct kifu_game_eval_`, its
 * features per side and their fitted weights, and its kifu_game.evaluate
 * calls kifu_game_eval_run_() with it. The model is the same for every
 * game: side s scores z_s = w . f_s (one weight vector shared by the sides,
 * so a position and its colours swapped value alike) and the expected
 * scores are the softmax of the z_s over the sides still able to win
 * (for two sides, the logistic of z_0 - z_1). The fitting tool
 * (bench/fit-eval.c) reads the same table: it computes the features of
 * self-play positions and fits the weights by logistic regression.
 */
#ifndef KIFU_GAMES_EVAL_H
#define KIFU_GAMES_EVAL_H

#include "kifu/game.h"

#define KIFU_EVAL_FEATURES_MAX 12
#define KIFU_EVAL_SIDES_MAX 4

struct kifu_game_eval_ {
	const struct kifu_game *game;
	int nfeatures;
	const char *const *names;      /* nfeatures short names, for the fitting tool */
	/*
	 * Writes side s's features to f[s * nfeatures + j] for every side and
	 * returns the weight set the position uses (its variant, where the
	 * variants differ); *alive gets a bit per side that can still win (the
	 * others are valued 0).
	 */
	int (*features)(const void *state, double *f, unsigned *alive);
	int nweights;                  /* weight sets */
	const double *weights;         /* nweights x nfeatures */
};

/* Every game's evaluation model, NULL-terminated (registry.c). */
extern const struct kifu_game_eval_ *const kifu_game_evals_[];

/*
 * The softmax of the sides' linear scores: out[s] = exp(w . f_s) / sum over
 * the alive sides, 0 for the others (uniform over all when none is alive).
 */
void kifu_game_eval_softmax_(double *out, int nsides, int nfeatures, const double *w,
			     const double *f, unsigned alive);

/* kifu_game.evaluate through model m: its features, then the softmax with their weight set. */
void kifu_game_eval_run_(const struct kifu_game_eval_ *m, const void *state, double *out);

#endif
