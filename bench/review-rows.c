/*
 * Every ply of some games reviewed, one row each, for the scripts that
 * measure the review (bench/review-sums.py, bench/calibrate.py): reads
 * format-1 records (one or more files, each any number of games), reviews
 * each finished or unfinished game whole with kifu_analyse_game at the
 * default settings (the engine, seed --seed, one thread), and prints a
 * tab-separated row per ply:
 *
 *   file game ply side nsides player raw expected best_score played_score
 *   loss mark v0 v1 v2 v3 r0 r1 r2 r3 own
 *
 * raw is the mover's value before the calibration map, v0..v3 every side's
 * value before the move (the review's value[]), r0..r3 every side's final
 * score in the game (1 won, 0 lost, a draw's share; "nan" for an
 * unfinished game), player the mover's name in the record, own 1 where the
 * move played is the engine's choice. After each
 * game a line "#cpu FILE GAME PLIES SECONDS": the review's CPU time.
 *
 *   build/default/bench/review-rows [--seed S] [--playouts N] FILE...
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kifu/analyse.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/replay.h"

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *player_of(const struct kifu_record *rec, const char *side)
{
	size_t p;

	for (p = 0; p < rec->nplayers; p++)
		if (rec->players[p].side && !strcmp(rec->players[p].side, side) && rec->players[p].name)
			return rec->players[p].name;
	return "?";
}

static int review_file(const char *path, const struct kifu_analyse_opts *o)
{
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_diags d = KIFU_DIAGS_INIT;
	struct kifu_error err;
	size_t game = 0;
	int ret;

	if (kifu_reader_open_file(&r, path, &err) < 0) {
		fprintf(stderr, "%s: %s\n", path, err.message);
		return 1;
	}
	while ((ret = kifu_reader_next(&rec, &d, r, &err)) > 0) {
		struct kifu_replay rp = KIFU_REPLAY_INIT;
		struct kifu_ply_review *rv = NULL;
		double res[KIFU_GAME_SIDES_MAX], t0;
		const char *result;
		size_t i;
		int s;

		if (kifu_record_validate(&rp, &d, rec, KIFU_VALIDATE_TEXT, &err) < 0 || d.errors ||
		    !rp.game) {
			fprintf(stderr, "%s: game %zu does not validate\n", path, game);
			goto next;
		}
		result = kifu_record_result(rec);
		for (s = 0; s < rp.game->nsides; s++)
			res[s] = !strcmp(result, "unfinished") ? NAN :
				 !strcmp(result, "draw") ? 1.0 / rp.game->nsides :
				 !strcmp(result, rp.game->sides[s]);
		for (; s < KIFU_GAME_SIDES_MAX; s++)
			res[s] = 0;
		t0 = cpu();
		if (kifu_analyse_game(&rv, rp.game, rp.variant, rp.first, rp.moves, rp.nplies, o,
				      &err) < 0) {
			fprintf(stderr, "%s: game %zu: %s\n", path, game, err.message);
			goto next;
		}
		for (i = 0; i < rp.nplies; i++) {
			const struct kifu_ply_review *p = &rv[i];

			printf("%s\t%zu\t%zu\t%d\t%d\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%d", path, game,
			       p->ply, p->side, rp.game->nsides,
			       player_of(rec, rp.game->sides[p->side]), p->raw, p->expected,
			       p->best_score, p->played_score, p->loss, p->mark);
			for (s = 0; s < KIFU_GAME_SIDES_MAX; s++)
				printf("\t%.6f", s < rp.game->nsides ? p->value[s] : 0.0);
			for (s = 0; s < KIFU_GAME_SIDES_MAX; s++)
				printf("\t%g", res[s]);
			printf("\t%d\n", p->move == p->best);
		}
		printf("#cpu\t%s\t%zu\t%zu\t%.4f\n", path, game, rp.nplies, cpu() - t0);
		fflush(stdout);
		kifu_analyse_game_free(rv);
next:
		kifu_replay_release(&rp);
		kifu_record_free(rec);
		kifu_diags_release(&d);
		d = (struct kifu_diags)KIFU_DIAGS_INIT;
		game++;
	}
	kifu_reader_free(r);
	return ret < 0;
}

int main(int argc, char **argv)
{
	struct kifu_analyse_opts o = { .seed = 7, .threads = 1 };
	int i, fail = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			o.seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--playouts") && i + 1 < argc)
			o.playouts = strtol(argv[++i], NULL, 10);
		else
			fail |= review_file(argv[i], &o);
	}
	return fail;
}
