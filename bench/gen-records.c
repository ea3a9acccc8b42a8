/*
 * Generates the record file of the validation benchmark: N games (default
 * 20000) of real legal play, about 60 plies each, cycling through every
 * game and variant of the registry. Moves are drawn uniformly from
 * legal_moves() with a fixed seed; a game the rules end early is written
 * with its result, the others as unfinished. Written through the library's
 * own writer, so the file is canonical format 1.
 * Usage: gen-records FILE [GAMES] [PLIES]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/record_write.h"

static uint64_t state = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "Aiko Tanaka", "Bruno Keller", "Chen Wei", "Dana Novak",
					     "Elif Yilmaz", "Farid Haddad", "Greta Lindqvist",
					     "Hugo Moreau" };
	long games = argc > 2 ? atol(argv[2]) : 20000, i;
	int plies_max = argc > 3 ? atoi(argv[3]) : 60;
	struct { const struct kifu_game *g; int v; } pairs[32];
	int npairs = 0, k;
	FILE *out;
	struct kifu_buf buf = KIFU_BUF_INIT;
	struct kifu_error err;

	if (argc < 2) {
		fprintf(stderr, "usage: gen-records FILE [GAMES] [PLIES]\n");
		return 2;
	}
	for (k = 0; kifu_games[k]; k++) {
		int v;

		for (v = 0; kifu_games[k]->variants[v] && npairs < 32; v++) {
			pairs[npairs].g = kifu_games[k];
			pairs[npairs++].v = v;
		}
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 3;
	}
	kifu_error_clear(&err);
	for (i = 0; i < games; i++) {
		const struct kifu_game *g = pairs[i % npairs].g;
		int v = pairs[i % npairs].v, p, s;
		struct kifu_record *rec;
		struct kifu_pos *pos;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		struct kifu_outcome oc;
		char text[KIFU_MOVE_TEXT_MAX], date[16];

		if (!moves || kifu_record_new(&rec, &err) < 0 || kifu_pos_new(&pos, g, v, 0, &err) < 0)
			return 3;
		snprintf(date, sizeof(date), "20%02d-%02d-%02d", (int)(i % 25), (int)(i % 12) + 1,
			 (int)(i % 28) + 1);
		kifu_record_set(rec, KIFU_KEY_GAME, g->name, &err);
		kifu_record_set(rec, KIFU_KEY_VARIANT, g->variants[v], &err);
		kifu_record_set(rec, KIFU_KEY_EVENT, "Benchmark Open", &err);
		kifu_record_set(rec, KIFU_KEY_SITE, "online", &err);
		kifu_record_set(rec, KIFU_KEY_DATE, date, &err);
		for (s = 0; s < g->nsides; s++)
			kifu_record_set_player(rec, g->sides[s], names[(i + s) % 8], s == 0, 1500 + i % 700,
					       &err);
		for (p = 0; p < plies_max; p++) {
			size_t n;

			g->outcome(pos->state, &oc);
			if (oc.status != KIFU_ONGOING)
				break;
			n = g->legal_moves(pos->state, moves);
			if (n == 0)
				break;
			{
				kifu_move m = moves[next() % n];

				g->format_move(pos->state, m, text);
				kifu_record_add_turn(rec, text, p == 10 ? "a sharp move" : NULL,
						     p % 7 == 3 ? "12.5" : NULL, &err);
				g->apply(pos->state, m);
			}
		}
		g->outcome(pos->state, &oc);
		if (oc.status == KIFU_WIN)
			kifu_record_set(rec, KIFU_KEY_RESULT, g->sides[oc.winner], &err);
		else if (oc.status == KIFU_DRAW)
			kifu_record_set(rec, KIFU_KEY_RESULT, "draw", &err);
		kifu_buf_reset(&buf);
		if (kifu_record_write(&buf, rec, NULL, &err) < 0)
			return 3;
		fwrite(buf.data, 1, buf.len, out);
		kifu_record_free(rec);
		kifu_pos_free(pos);
		free(moves);
	}
	kifu_buf_release(&buf);
	return fclose(out) ? 3 : 0;
}
