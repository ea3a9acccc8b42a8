/*
 * Generates the record stream of the import benchmark: N games of real
 * legal play (moves drawn uniformly from legal_moves() with a fixed seed,
 * about PLIES plies each, fewer when the rules end a game first), cycling
 * through every game and variant of the registry, each with two (or four)
 * players drawn from a pool of 5000 names and a date drawn from 25 years,
 * so that the games are distinct as kifu-import's duplicate key sees them.
 * Written through the library's record writer: canonical format 1, one
 * YAML stream, streamed (memory does not grow with N).
 * With GAME (a game's name, or GAME:VARIANT), only that game's variants.
 * Usage: gen-games FILE N [PLIES] [SEED] [GAME[:VARIANT]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/record_write.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int write_game(FILE *out, struct kifu_buf *buf, const struct kifu_game *g, int v,
		      int plies_max, kifu_move *moves)
{
	static const char *const events[] = { "Spring Open", "Club Championship",
					      "Online Arena", "Summer Invitational" };
	struct kifu_error err;
	struct kifu_record *rec;
	struct kifu_pos *pos;
	struct kifu_outcome oc;
	char text[KIFU_MOVE_TEXT_MAX], date[16], name[32];
	int p, s, ids[8], plies = plies_max - 5 + (int)(next() % 11);
	long day = (long)(next() % (25 * 365));

	kifu_error_clear(&err);
	if (kifu_record_new(&rec, &err) < 0 || kifu_pos_new(&pos, g, v, 0, &err) < 0)
		return -1;
	snprintf(date, sizeof(date), "%04ld-%02ld-%02ld", 2000 + day / 365, day % 365 / 31 % 12 + 1,
		 day % 28 + 1);
	kifu_record_set(rec, KIFU_KEY_GAME, g->name, &err);
	kifu_record_set(rec, KIFU_KEY_VARIANT, g->variants[v], &err);
	kifu_record_set(rec, KIFU_KEY_EVENT, events[next() % 4], &err);
	kifu_record_set(rec, KIFU_KEY_DATE, date, &err);
	for (s = 0; s < g->nsides; s++) {
		int t, again;

		/* Distinct players within a game (one listed twice draws a warning). */
		do {
			ids[s] = (int)(next() % 5000);
			for (again = 0, t = 0; t < s; t++)
				again |= ids[t] == ids[s];
		} while (again);
		snprintf(name, sizeof(name), "Player %04d", ids[s]);
		kifu_record_set_player(rec, g->sides[s], name, s == 0, 1200 + (long)(next() % 1200),
				       &err);
	}
	for (p = 0; p < plies; p++) {
		size_t n;
		kifu_move m;

		g->outcome(pos->state, &oc);
		if (oc.status != KIFU_ONGOING)
			break;
		n = g->legal_moves(pos->state, moves);
		if (n == 0)
			break;
		m = moves[next() % n];
		g->format_move(pos->state, m, text);
		kifu_record_add_turn(rec, text, p == 12 ? "the critical moment" : NULL,
				     p % 9 == 4 ? "31.5" : NULL, &err);
		g->apply(pos->state, m);
	}
	g->outcome(pos->state, &oc);
	if (oc.status == KIFU_WIN)
		kifu_record_set(rec, KIFU_KEY_RESULT, g->sides[oc.winner], &err);
	else if (oc.status == KIFU_DRAW)
		kifu_record_set(rec, KIFU_KEY_RESULT, "draw", &err);
	kifu_buf_reset(buf);
	if (kifu_record_write(buf, rec, NULL, &err) < 0)
		return -1;
	fwrite(buf->data, 1, buf->len, out);
	kifu_record_free(rec);
	kifu_pos_free(pos);
	return 0;
}

/* Whether variant v of g is the one "GAME" or "GAME:VARIANT" names. */
static int wanted(const char *spec, const struct kifu_game *g, int v)
{
	size_t n = strlen(g->name);

	if (strncmp(spec, g->name, n) != 0)
		return 0;
	return spec[n] == '\0' || (spec[n] == ':' && !strcmp(spec + n + 1, g->variants[v]));
}

int main(int argc, char **argv)
{
	struct { const struct kifu_game *g; int v; } pairs[32];
	long games = argc > 2 ? atol(argv[2]) : 100000, i;
	int plies = argc > 3 ? atoi(argv[3]) : 60, npairs = 0, k, v;
	size_t max_moves = 0;
	struct kifu_buf buf = KIFU_BUF_INIT;
	kifu_move *moves;
	FILE *out;

	if (argc < 2) {
		fprintf(stderr, "usage: gen-games FILE N [PLIES] [SEED] [GAME[:VARIANT]]\n");
		return 2;
	}
	if (argc > 4)
		rng ^= strtoull(argv[4], NULL, 10) * 0xbf58476d1ce4e5b9ULL;
	for (k = 0; kifu_games[k]; k++) {
		for (v = 0; kifu_games[k]->variants[v] && npairs < 32; v++) {
			if (argc > 5 && !wanted(argv[5], kifu_games[k], v))
				continue;
			pairs[npairs].g = kifu_games[k];
			pairs[npairs++].v = v;
		}
		if (kifu_games[k]->max_moves > max_moves)
			max_moves = kifu_games[k]->max_moves;
	}
	if (!npairs) {
		fprintf(stderr, "gen-games: no game or variant '%s'\n", argv[5]);
		return 2;
	}
	moves = malloc(max_moves * sizeof(*moves));
	out = fopen(argv[1], "w");
	if (!moves || !out) {
		perror(argv[1]);
		return 3;
	}
	for (i = 0; i < games; i++)
		if (write_game(out, &buf, pairs[i % npairs].g, pairs[i % npairs].v, plies, moves) < 0)
			return 3;
	kifu_buf_release(&buf);
	free(moves);
	return fclose(out) ? 3 : 0;
}
