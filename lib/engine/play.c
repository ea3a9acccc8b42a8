/*
 * Whole games between built-in players, as kifu-play writes them: seats
 * rotating from game to game, every player's seed derived from the series'
 * seed and the game's and seat's numbers alone (so any game of a series can
 * be played again on its own), and the game written as a record with its
 * players, round, seed tag, result and termination.
 */
#include <stdio.h>
#include <time.h>

#include "kifu/game.h"
#include "kifu/player.h"
#include "kifu/record.h"
#include "util/hash.h"

/* Most sides a game may have here. */
#define MAX_SIDES 16

/* This thread's CPU time in seconds (0 where the clock is missing). */
static double thread_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64's finaliser over a and b: independent seeds from (S, i, j). */
static uint64_t mix(uint64_t a, uint64_t b)
{
	return kifu_hash_mix64_(a + KIFU_HASH_GOLDEN * (b + 1));
}

/* The record's head: game, variant, event, round, date, the seed tag, first. */
static int put_head(struct kifu_record *rec, const struct kifu_game *g, int variant, int first,
		    long i, uint64_t seed, const struct kifu_play_head *head, struct kifu_error *err)
{
	char text[32];

	snprintf(text, sizeof(text), "%ld", i + 1);
	if (kifu_record_set(rec, KIFU_KEY_GAME, g->name, err) < 0 ||
	    kifu_record_set(rec, KIFU_KEY_VARIANT, g->variants[variant], err) < 0 ||
	    kifu_record_set(rec, KIFU_KEY_EVENT, head && head->event ? head->event : "kifu-play",
			    err) < 0 ||
	    kifu_record_set(rec, KIFU_KEY_ROUND, text, err) < 0 ||
	    (head && head->date && kifu_record_set(rec, KIFU_KEY_DATE, head->date, err) < 0))
		return err->code;
	/* With the same options, the seed and the round replay the game. */
	snprintf(text, sizeof(text), "%llu", (unsigned long long)seed);
	if (kifu_record_add_tag(rec, "seed", text, KIFU_SCALAR_INT, err) < 0)
		return err->code;
	if ((g->flags & KIFU_GAME_CHOOSE_FIRST) &&
	    kifu_record_set(rec, KIFU_KEY_FIRST, g->sides[first], err) < 0)
		return err->code;
	return 0;
}

int kifu_play_game(struct kifu_record **out, struct kifu_outcome *outcome,
		   const struct kifu_game *g, int variant, int first,
		   const char *const *specs, int nspecs, long i, uint64_t seed, long max_plies,
		   void (*progress)(void *ctx, int ply), void *ctx, double *cpu, long *nmoves,
		   const struct kifu_play_head *head, struct kifu_error *err)
{
	struct kifu_player *bots[MAX_SIDES] = { NULL };
	struct kifu_record *rec = NULL;
	struct kifu_pos *pos = NULL;
	uint64_t game_seed = mix(seed, (uint64_t)i);
	char text[KIFU_MOVE_TEXT_MAX], name[256];
	int j, plies = 0, ret;

	*out = NULL;
	if (nspecs < 1 || g->nsides > MAX_SIDES)
		return kifu_error_set(err, KIFU_ERANGE, "no players for '%s'", g->name);
	if ((ret = kifu_record_new(&rec, err)) < 0 ||
	    (ret = kifu_pos_new(&pos, g, variant, first, err)) < 0 ||
	    (ret = put_head(rec, g, variant, first, i, seed, head, err)) < 0)
		goto out;
	for (j = 0; j < g->nsides; j++) {
		int k = (int)((i + j) % nspecs), n = nspecs == 1 ? j : k;

		/* one SPEC for every side: each side its own player, by its index (random #2) */
		snprintf(name, sizeof(name), "%s #%d", specs[k], n + 1);
		if ((ret = kifu_record_set_player(rec, g->sides[j], head && head->names ?
						  head->names[n] : name, 0, 0, err)) < 0 ||
		    (ret = kifu_player_new(&bots[j], g, specs[k], mix(game_seed, (uint64_t)j),
					   err)) < 0)
			goto out;
	}
	for (;;) {
		kifu_move m;
		double t0;
		int side;

		g->outcome(pos->state, outcome);
		if (outcome->status != KIFU_ONGOING || plies >= max_plies)
			break;
		if (progress)
			progress(ctx, plies);
		side = g->side_to_move(pos->state);
		t0 = cpu ? thread_cpu() : 0;
		if ((ret = kifu_player_choose(&m, bots[side], pos->state, err)) < 0)
			goto out;
		if (cpu)
			cpu[side] += thread_cpu() - t0;
		if (nmoves)
			nmoves[side]++;
		g->format_move(pos->state, m, text);
		if ((ret = kifu_record_add_turn(rec, text, NULL, NULL, err)) < 0)
			goto out;
		g->apply(pos->state, m);
		plies++;
	}
	/* A game the cap cut short is written unfinished, with no termination. */
	if ((ret = kifu_record_set(rec, KIFU_KEY_RESULT,
				   outcome->status == KIFU_WIN ? g->sides[outcome->winner] :
				   outcome->status == KIFU_DRAW ? "draw" : "unfinished", err)) < 0 ||
	    (outcome->status != KIFU_ONGOING &&
	     (ret = kifu_record_set(rec, KIFU_KEY_TERMINATION, "rules", err)) < 0))
		goto out;
	*out = rec;
	rec = NULL;
out:
	for (j = 0; j < g->nsides && j < MAX_SIDES; j++)
		kifu_player_free(bots[j]);
	kifu_record_free(rec);
	kifu_pos_free(pos);
	return ret;
}
