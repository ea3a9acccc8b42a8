/*
 * The figures of a series of games between built-in players (kifu-play's
 * summary): per distinct SPEC its games, wins, draws, losses, unfinished
 * games, score and CPU time per move, per side its wins, and the Elo
 * difference of two SPECs with its 95% interval, computed as cutechess-cli
 * does so that the figures can be set beside other engines' matches.
 */
#include <math.h>
#include <string.h>

#include "kifu/player.h"

/* The normal quantile of 0.975: a 95% interval is the mean +/- this many standard errors. */
#define Z95 1.959963984540054

void kifu_match_init(struct kifu_match *m, const struct kifu_game *g, const char *const *specs,
		     int nspecs)
{
	int k, j;

	memset(m, 0, sizeof(*m));
	m->nsides = g->nsides;
	/* One SPEC against itself says nothing: its seats are the players (random #1, random #2). */
	if (nspecs == 1 && g->nsides > 1) {
		m->by_seat = 1;
		m->nspecs = g->nsides > KIFU_MATCH_MAX ? KIFU_MATCH_MAX : g->nsides;
		for (k = 0; k < m->nspecs; k++)
			m->group[k] = k;
		return;
	}
	m->nspecs = nspecs > KIFU_MATCH_MAX ? KIFU_MATCH_MAX : nspecs;
	for (k = 0; k < m->nspecs; k++) {
		for (j = 0; strcmp(specs[j], specs[k]); j++)
			;
		m->group[k] = j;
	}
}

/* The player (its group) that held side j in game i. */
static int seat_player(const struct kifu_match *m, long i, int j)
{
	return m->by_seat ? j : m->group[(i + j) % m->nspecs];
}

void kifu_match_add(struct kifu_match *m, long i, const struct kifu_outcome *oc,
		    const double *cpu, const long *nmoves)
{
	int seen[KIFU_MATCH_MAX] = { 0 }, j;

	if (oc->status == KIFU_WIN) {
		m->side_wins[oc->winner]++;
		m->decided++;
	} else if (oc->status == KIFU_DRAW) {
		m->draws++;
	} else {
		m->unfinished++;
	}
	/* side j played SPEC position (i + j) mod n; a SPEC on several sides counts once a game */
	for (j = 0; j < m->nsides && j < KIFU_MATCH_MAX; j++) {
		int k = seat_player(m, i, j);
		struct kifu_match_spec *s = &m->spec[k];

		if (cpu)
			s->cpu += cpu[j];
		if (nmoves)
			s->moves += nmoves[j];
		if (seen[k])
			continue;
		seen[k] = 1;
		s->games++;
		if (oc->status == KIFU_WIN)
			s->wins += seat_player(m, i, oc->winner) == k;
		else if (oc->status == KIFU_DRAW)
			s->draws++;
		else
			s->unfinished++;
		if (oc->status == KIFU_WIN && seat_player(m, i, oc->winner) != k)
			s->losses++;
	}
}

double kifu_match_score(const struct kifu_match_spec *s, int nsides)
{
	long finished = s->games - s->unfinished;

	return finished ? (s->wins + (double)s->draws / nsides) / (double)finished : NAN;
}

int kifu_match_pair(const struct kifu_match *m, int *a, int *b)
{
	int k, n = 0;

	if (m->nsides != 2)
		return 0;
	for (k = 0; k < m->nspecs; k++) {
		if (m->group[k] != k)
			continue;
		if (n++ == 0)
			*a = k;
		else
			*b = k;
	}
	return n == 2;
}

/* The Elo difference of a score p in (0, 1) (logistic, as cutechess and BayesElo's defaults). */
static double elo(double p)
{
	return -400 * log10(1 / p - 1);
}

int kifu_match_elo(double *diff, double *margin, long w, long d, long l)
{
	double n = (double)(w + d + l), mu, dev, lo, hi;

	*diff = 0;
	*margin = NAN;
	if (n <= 0)
		return 0;
	mu = (w + d / 2.0) / n;
	*diff = mu <= 0 ? -INFINITY : mu >= 1 ? INFINITY : elo(mu);
	/* the standard error of the mean score, from the spread of the per-game results */
	dev = (w / n) * (1 - mu) * (1 - mu) + (l / n) * mu * mu + (d / n) * (0.5 - mu) * (0.5 - mu);
	dev = sqrt(dev / n);
	lo = mu - Z95 * dev;
	hi = mu + Z95 * dev;
	if (lo <= 0 || hi >= 1 || !isfinite(*diff))
		return 0;
	*margin = (elo(hi) - elo(lo)) / 2;
	return 1;
}
