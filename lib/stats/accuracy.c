/*
 * Each side's accuracy over a reviewed game (include/kifu/analyse.h,
 * kifu_analyse_sides), as lichess computes a game's accuracy from its
 * engine's win percentages (CLI.md): a move's accuracy falls with its drop
 * in expected score, and a side's is the mean of two means of its moves'
 * accuracies. The volatility-weighted mean lets the moves of a sharp
 * stretch of the game (values swinging) count more than quiet ones; the
 * harmonic mean lets a few bad moves pull the figure down, as they decide
 * games. Our expected scores in [0, 1] are lichess's win percentages / 100.
 * It lives in stats/, below the engine, as kifu-stats players computes each
 * player's accuracy from stored reviews too.
 */
#include <math.h>
#include <stdlib.h>

#include "kifu/analyse.h"

double kifu_analyse_move_accuracy(double loss)
{
	double drop = 100 * (loss > 0 ? loss : 0);
	double a = 103.1668 * exp(-0.04354 * drop) - 3.1669 + 1;

	return a < 0 ? 0 : a > 100 ? 100 : a;
}

/* The population standard deviation of x[0..n). */
static double stdev(const double *x, size_t n)
{
	double mean = 0, var = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	return sqrt(var / (double)n);
}

/* Position k's value in percent (k == n: after the last ply), as kifu_analyse_sides says. */
static double position_value(const struct kifu_ply_review *rv, size_t n, size_t k, int nsides)
{
	double v = k < n ? rv[k].expected : rv[n - 1].played_score;
	int side = k < n ? rv[k].side : rv[n - 1].side;

	/* after the last ply the value is its mover's: played_score */
	if (nsides == 2 && side != 0)
		v = 1 - v;
	return 100 * v;
}

void kifu_analyse_sides(struct kifu_analyse_side *out, int nsides,
			const struct kifu_ply_review *rv, size_t n)
{
	double wsum[KIFU_GAME_SIDES_MAX] = { 0 }, wacc[KIFU_GAME_SIDES_MAX] = { 0 };
	double inv[KIFU_GAME_SIDES_MAX] = { 0 }, loss[KIFU_GAME_SIDES_MAX] = { 0 };
	int zero[KIFU_GAME_SIDES_MAX] = { 0 };
	double *values = n ? malloc(sizeof(*values) * (n + 1)) : NULL;
	size_t ws = n / 10 < 2 ? 2 : n / 10 > 8 ? 8 : n / 10, i;
	int s;

	for (s = 0; s < nsides && s < KIFU_GAME_SIDES_MAX; s++) {
		out[s].moves = 0;
		out[s].accuracy = NAN;
		out[s].mean_loss = NAN;
		out[s].inaccuracies = out[s].mistakes = out[s].blunders = 0;
	}
	for (i = 0; values && i <= n; i++)
		values[i] = position_value(rv, n, i, nsides);
	for (i = 0; i < n; i++) {
		/*
		 * Move i's window, as lichess's: the first ws positions for the
		 * first ws - 2 moves, then the ws positions ending two after
		 * the move's own (all of them in a game shorter than ws).
		 */
		size_t start = i + 2 >= ws ? i + 2 - ws : 0, len = ws;
		double a = kifu_analyse_move_accuracy(rv[i].loss), w;

		s = rv[i].side;
		if (s < 0 || s >= nsides || s >= KIFU_GAME_SIDES_MAX)
			continue;
		if (start + len > n + 1)
			len = n + 1 - start;
		w = values ? stdev(values + start, len) : 0.5;
		w = w < 0.5 ? 0.5 : w > 12 ? 12 : w;
		out[s].moves++;
		loss[s] += rv[i].loss;
		wsum[s] += w;
		wacc[s] += w * a;
		if (a > 0)
			inv[s] += 1 / a;
		else
			zero[s] = 1;
		out[s].inaccuracies += rv[i].mark == KIFU_REVIEW_DUBIOUS;
		out[s].mistakes += rv[i].mark == KIFU_REVIEW_MISTAKE;
		out[s].blunders += rv[i].mark == KIFU_REVIEW_BLUNDER;
	}
	for (s = 0; s < nsides && s < KIFU_GAME_SIDES_MAX; s++) {
		double k = (double)out[s].moves;

		if (!out[s].moves)
			continue;
		/* a move of accuracy 0 makes the harmonic mean 0 */
		out[s].accuracy = (wacc[s] / wsum[s] + (zero[s] ? 0 : k / inv[s])) / 2;
		out[s].mean_loss = loss[s] / k;
	}
	free(values);
}
