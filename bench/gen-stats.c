/*
 * Generates the record stream of the statistics benchmark (bench/stats.sh):
 * N games of legal play through the engines, cycling through every game and
 * variant of the registry like bench/gen-games.c, but shaped like a real
 * archive where that matters to statistics. gen-games draws every move
 * uniformly, so that hardly two games share four plies; players of real
 * games follow a few popular openings, so here the first OPENING plies pick
 * the r-th most "popular" legal move with probability halving at each rank
 * (popularity being a fixed pseudo-random order of the moves of each
 * position, so that transpositions get the same preferences). Lengths run
 * from 20 to 100 plies; a game the rules did not end by then is resigned
 * (the winner drawn by hidden player strengths, with an edge for the first
 * mover), agreed drawn, abandoned or left unfinished. 5000 players, dates
 * over 25 years (some partial, some missing), a few events, and a chosen
 * first side in a fifth of the games that allow one. Written through the
 * library's record writer, one YAML stream, streamed.
 * Usage: gen-stats FILE N [SEED]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/record_write.h"

#define PLAYERS 5000
#define OPENING 12      /* plies played from the popular moves */
#define MIN_PLIES 20
#define MAX_PLIES 100

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double strength[PLAYERS]; /* hidden Elo offsets */

struct ranked {
	uint64_t key;
	kifu_move m;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The move of an opening ply: rank r with probability 2^-(r+1) (the last rank takes the rest). */
static kifu_move popular_move(const struct kifu_game *g, const void *state, kifu_move *moves,
			      size_t n, struct ranked *rank)
{
	uint64_t h = g->hash(state);
	size_t i, r = 0;

	for (i = 0; i < n; i++) {
		rank[i].key = mix64(h ^ mix64(moves[i] + 0x632be59bd9b4e019ULL));
		rank[i].m = moves[i];
	}
	qsort(rank, n, sizeof(*rank), cmp_ranked);
	while (r + 1 < n && (next() & 1))
		r++;
	return rank[r].m;
}

/* The winner of a resigned game: by strengths, the first mover 35 Elo stronger. */
static int resign_winner(const struct kifu_game *g, const int *ids, int first)
{
	double w[8], sum = 0, u;
	int s;

	for (s = 0; s < g->nsides; s++) {
		w[s] = pow(10, (strength[ids[s]] + (s == first ? 35 : 0)) / 400);
		sum += w[s];
	}
	u = uniform() * sum;
	for (s = 0; s < g->nsides - 1; s++) {
		if (u < w[s])
			return s;
		u -= w[s];
	}
	return g->nsides - 1;
}

static int write_game(FILE *out, struct kifu_buf *buf, const struct kifu_game *g, int v,
		      kifu_move *moves, struct ranked *rank)
{
	static const char *const events[] = { "Spring Open", "Club Championship",
					      "Online Arena", "Summer Invitational" };
	struct kifu_error err;
	struct kifu_record *rec;
	struct kifu_pos *pos;
	struct kifu_outcome oc;
	char text[KIFU_MOVE_TEXT_MAX], date[16], name[32];
	int p, s, ids[8], first = 0;
	int plies = MIN_PLIES + (int)(next() % (MAX_PLIES - MIN_PLIES + 1));
	long day = (long)(next() % (25 * 365));
	unsigned dkind = (unsigned)(next() % 100);

	kifu_error_clear(&err);
	if ((g->flags & KIFU_GAME_CHOOSE_FIRST) && next() % 5 == 0)
		first = 1 + (int)(next() % (uint64_t)(g->nsides - 1));
	if (kifu_record_new(&rec, &err) < 0 || kifu_pos_new(&pos, g, v, first, &err) < 0)
		return -1;
	kifu_record_set(rec, KIFU_KEY_GAME, g->name, &err);
	if (v)
		kifu_record_set(rec, KIFU_KEY_VARIANT, g->variants[v], &err);
	kifu_record_set(rec, KIFU_KEY_EVENT, events[next() % 4], &err);
	if (dkind >= 2) {
		if (dkind < 5)
			snprintf(date, sizeof(date), "%04ld", 2000 + day / 365);
		else if (dkind < 10)
			snprintf(date, sizeof(date), "%04ld-%02ld", 2000 + day / 365,
				 day % 365 / 31 % 12 + 1);
		else
			snprintf(date, sizeof(date), "%04ld-%02ld-%02ld", 2000 + day / 365,
				 day % 365 / 31 % 12 + 1, day % 28 + 1);
		kifu_record_set(rec, KIFU_KEY_DATE, date, &err);
	}
	for (s = 0; s < g->nsides; s++) {
		int t, again;

		do {
			ids[s] = (int)(next() % PLAYERS);
			for (again = 0, t = 0; t < s; t++)
				again |= ids[t] == ids[s];
		} while (again);
		snprintf(name, sizeof(name), "Player %04d", ids[s]);
		kifu_record_set_player(rec, g->sides[s], name, 0, 0, &err);
	}
	if (first)
		kifu_record_set(rec, KIFU_KEY_FIRST, g->sides[first], &err);
	for (p = 0; p < plies; p++) {
		size_t n;
		kifu_move m;

		g->outcome(pos->state, &oc);
		if (oc.status != KIFU_ONGOING)
			break;
		n = g->legal_moves(pos->state, moves);
		if (n == 0)
			break;
		m = p < OPENING ? popular_move(g, pos->state, moves, n, rank) : moves[next() % n];
		g->format_move(pos->state, m, text);
		kifu_record_add_turn(rec, text, NULL, NULL, &err);
		g->apply(pos->state, m);
	}
	g->outcome(pos->state, &oc);
	if (oc.status == KIFU_WIN) {
		kifu_record_set(rec, KIFU_KEY_RESULT, g->sides[oc.winner], &err);
	} else if (oc.status == KIFU_DRAW) {
		kifu_record_set(rec, KIFU_KEY_RESULT, "draw", &err);
	} else {
		unsigned k = (unsigned)(next() % 100);

		if (k < 70) {
			kifu_record_set(rec, KIFU_KEY_RESULT, g->sides[resign_winner(g, ids, first)],
					&err);
			kifu_record_set(rec, KIFU_KEY_TERMINATION, k < 65 ? "resignation" : "timeout",
					&err);
		} else if (k < 82) {
			kifu_record_set(rec, KIFU_KEY_RESULT, "draw", &err);
			kifu_record_set(rec, KIFU_KEY_TERMINATION, "agreement", &err);
		} else if (k < 85) {
			kifu_record_set(rec, KIFU_KEY_RESULT, "unfinished", &err);
			kifu_record_set(rec, KIFU_KEY_TERMINATION, "abandoned", &err);
		}
	}
	kifu_buf_reset(buf);
	if (kifu_record_write(buf, rec, NULL, &err) < 0)
		return -1;
	fwrite(buf->data, 1, buf->len, out);
	kifu_record_free(rec);
	kifu_pos_free(pos);
	return 0;
}

int main(int argc, char **argv)
{
	struct { const struct kifu_game *g; int v; } pairs[32];
	long games = argc > 2 ? atol(argv[2]) : 100000, i;
	int npairs = 0, k, v;
	size_t max_moves = 0;
	struct kifu_buf buf = KIFU_BUF_INIT;
	struct ranked *rank;
	kifu_move *moves;
	FILE *out;

	if (argc < 2) {
		fprintf(stderr, "usage: gen-stats FILE N [SEED]\n");
		return 2;
	}
	if (argc > 3)
		rng ^= strtoull(argv[3], NULL, 10) * 0xbf58476d1ce4e5b9ULL;
	for (k = 0; k < PLAYERS; k++) {
		/* About normal, sd 150: the sum of four uniforms. */
		strength[k] = (uniform() + uniform() + uniform() + uniform() - 2) * 260;
	}
	for (k = 0; kifu_games[k]; k++) {
		for (v = 0; kifu_games[k]->variants[v] && npairs < 32; v++) {
			pairs[npairs].g = kifu_games[k];
			pairs[npairs++].v = v;
		}
		if (kifu_games[k]->max_moves > max_moves)
			max_moves = kifu_games[k]->max_moves;
	}
	moves = malloc(max_moves * sizeof(*moves));
	rank = malloc(max_moves * sizeof(*rank));
	out = fopen(argv[1], "w");
	if (!moves || !rank || !out) {
		perror(argv[1]);
		return 3;
	}
	for (i = 0; i < games; i++)
		if (write_game(out, &buf, pairs[i % npairs].g, pairs[i % npairs].v, moves, rank) < 0)
			return 3;
	kifu_buf_release(&buf);
	free(moves);
	free(rank);
	return fclose(out) ? 3 : 0;
}
