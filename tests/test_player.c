/*
 * Tests of the built-in players over every registered game and variant:
 * specs are parsed or rejected with the documented messages, the same seed
 * gives the same game and another seed another, random play stays legal to
 * the end, and Monte Carlo tree search beats random play. No game is named,
 * so a new game is covered by being listed in the registry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/game.h"
#include "kifu/player.h"

/* Random games per variant in the legality test. */
#define LEGAL_GAMES 20
/* Games of the cap used everywhere here: none of ours comes near it. */
#define MAX_PLIES 3000
/* Plies compared by the determinism test (a prefix is enough). */
#define SAME_PLIES 60

/*
 * The strength test: MATCH_GAMES games of mcts:MATCH_PLAYOUTS against
 * random per variant, where mcts wins some 95% of games. The sanitizer
 * build (-O1, every access checked) runs several times slower, so it
 * searches less; mcts must still win most games there.
 */
#define MATCH_GAMES 6
#if defined(__SANITIZE_ADDRESS__)
#define MATCH_PLAYOUTS "mcts:60"
#else
#define MATCH_PLAYOUTS "mcts:100"
#endif

struct game_log {
	kifu_move moves[MAX_PLIES];
	int plies;
	struct kifu_outcome outcome;
};

/* Whether m is among the legal moves of state. */
static int is_legal(const struct kifu_game *g, const void *state, kifu_move m, kifu_move *buf)
{
	size_t n = g->legal_moves(state, buf), i;

	for (i = 0; i < n; i++)
		if (buf[i] == m)
			return 1;
	return 0;
}

/*
 * Plays one game of g/variant in which side j is played by
 * specs[(round + j) % nspecs] with seed seed * 64 + j, for at most
 * max_plies plies, checking that every move chosen is legal. Fills log and
 * returns the index in specs of the winner's player, or -1 (draw, or cut).
 */
static int play(struct game_log *log, const struct kifu_game *g, int variant,
		const char *const *specs, int nspecs, int round, uint64_t seed, int max_plies)
{
	struct kifu_player *players[8] = { NULL };
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	kifu_move *buf = malloc(sizeof(*buf) * g->max_moves);
	int j, winner = -1;

	assert_non_null(buf);
	assert_true(g->nsides <= 8);
	kifu_error_clear(&err);
	assert_int_equal(kifu_pos_new(&pos, g, variant, 0, &err), 0);
	for (j = 0; j < g->nsides; j++)
		assert_int_equal(kifu_player_new(&players[j], g, specs[(round + j) % nspecs],
						 seed * 64 + (uint64_t)j, &err), 0);
	log->plies = 0;
	for (;;) {
		kifu_move m;

		g->outcome(pos->state, &log->outcome);
		if (log->outcome.status != KIFU_ONGOING || log->plies >= max_plies)
			break;
		assert_int_equal(kifu_player_choose(&m, players[g->side_to_move(pos->state)],
						    pos->state, &err), 0);
		if (!is_legal(g, pos->state, m, buf))
			fail_msg("%s/%s ply %d: illegal move chosen", g->name,
				 g->variants[variant], log->plies + 1);
		g->apply(pos->state, m);
		log->moves[log->plies++] = m;
	}
	if (log->outcome.status == KIFU_WIN)
		winner = (round + log->outcome.winner) % nspecs;
	for (j = 0; j < g->nsides; j++)
		kifu_player_free(players[j]);
	kifu_pos_free(pos);
	free(buf);
	return winner;
}

static void expect_bad_spec(const char *spec, const char *message)
{
	struct kifu_player *p = (struct kifu_player *)&p; /* must be reset to NULL */
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_player_new(&p, kifu_games[0], spec, 1, &err), KIFU_EPARSE);
	assert_null(p);
	assert_int_equal(err.code, KIFU_EPARSE);
	assert_string_equal(err.message, message);
}

static void test_specs(void **unused)
{
	static const char *const good[] = { "random", "mcts:1", "mcts:200", "mcts:100000000",
					    "engine", "engine:1", "engine:6400" };
	struct kifu_error err;
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct kifu_player *p = NULL;

		kifu_error_clear(&err);
		assert_int_equal(kifu_player_new(&p, kifu_games[0], good[i], 7, &err), 0);
		assert_non_null(p);
		assert_string_equal(kifu_player_spec(p), good[i]);
		kifu_player_free(p);
	}
	kifu_player_free(NULL);

	expect_bad_spec("foo", "unknown player 'foo'");
	expect_bad_spec("", "unknown player ''");
	expect_bad_spec("randomx", "unknown player 'randomx'");
	expect_bad_spec("Random", "unknown player 'Random'");
	expect_bad_spec("mctsx:5", "unknown player 'mctsx:5'");
	expect_bad_spec("mcts:", "mcts needs a playout count: 'mcts:'");
	expect_bad_spec("mcts", "mcts needs a playout count: 'mcts'");
	expect_bad_spec("mcts:0",
			"mcts playout count must be a whole number from 1 to 100000000: 'mcts:0'");
	expect_bad_spec("mcts:-5",
			"mcts playout count must be a whole number from 1 to 100000000: 'mcts:-5'");
	expect_bad_spec("mcts:+5",
			"mcts playout count must be a whole number from 1 to 100000000: 'mcts:+5'");
	expect_bad_spec("mcts: 5",
			"mcts playout count must be a whole number from 1 to 100000000: 'mcts: 5'");
	expect_bad_spec("mcts:12x",
			"mcts playout count must be a whole number from 1 to 100000000: 'mcts:12x'");
	expect_bad_spec("mcts:100000001",
			"mcts playout count must be a whole number from 1 to 100000000: "
			"'mcts:100000001'");
	expect_bad_spec("enginex", "unknown player 'enginex'");
	expect_bad_spec("engine:", "engine iteration count must be a whole number from 1 to "
			"100000000: 'engine:'");
	expect_bad_spec("engine:0", "engine iteration count must be a whole number from 1 to "
			"100000000: 'engine:0'");
	expect_bad_spec("engine:5x", "engine iteration count must be a whole number from 1 to "
			"100000000: 'engine:5x'");
	expect_bad_spec("mcts:99999999999999999999999",
			"mcts playout count must be a whole number from 1 to 100000000: "
			"'mcts:99999999999999999999999'");
}

/* Same seed, same moves; another seed, other moves somewhere. */
static void test_determinism(void **unused)
{
	static const char *const specs[] = { "mcts:20", "random" };
	static const char *const engine_specs[] = { "engine:20", "random" };
	static struct game_log a, b, c;
	const struct kifu_game *const *g;

	(void)unused;
	for (g = kifu_games; *g; g++) {
		int v;

		for (v = 0; (*g)->variants[v]; v++) {
			int round;

			/* rounds 0, 1: mcts:20; 2, 3: the engine, deterministic too */
			for (round = 0; round < 4; round++) {
				const char *const *sp = round < 2 ? specs : engine_specs;

				play(&a, *g, v, sp, 2, round, 11, SAME_PLIES);
				play(&b, *g, v, sp, 2, round, 11, SAME_PLIES);
				play(&c, *g, v, sp, 2, round, 12, SAME_PLIES);
				assert_int_equal(a.plies, b.plies);
				if (memcmp(a.moves, b.moves, sizeof(a.moves[0]) * (size_t)a.plies))
					fail_msg("%s/%s: same seed, different games", (*g)->name,
						 (*g)->variants[v]);
				if (a.plies == c.plies &&
				    !memcmp(a.moves, c.moves, sizeof(a.moves[0]) * (size_t)a.plies))
					fail_msg("%s/%s: seeds 11 and 12 gave the same game",
						 (*g)->name, (*g)->variants[v]);
			}
		}
	}
}

/*
 * Random games run to the rules' end with legal moves only (play() checks
 * each), a finished position leaves no move to choose, and a playout
 * leaves the position it starts from alone.
 */
static void test_random_legal(void **unused)
{
	static const char *const specs[] = { "random" };
	static struct game_log log;
	const struct kifu_game *const *g;

	(void)unused;
	for (g = kifu_games; *g; g++) {
		int v;

		for (v = 0; (*g)->variants[v]; v++) {
			int i, ended = 0;

			for (i = 0; i < LEGAL_GAMES; i++) {
				play(&log, *g, v, specs, 1, i, 100 + (uint64_t)i, MAX_PLIES);
				ended += log.outcome.status != KIFU_ONGOING;
			}
			/* Every game of ours ends well within MAX_PLIES. */
			if (ended != LEGAL_GAMES)
				fail_msg("%s/%s: %d of %d random games did not end", (*g)->name,
					 (*g)->variants[v], LEGAL_GAMES - ended, LEGAL_GAMES);
		}
	}
}

static void test_ended_and_playout(void **unused)
{
	static const char *const specs[] = { "random" };
	static struct game_log log;
	const struct kifu_game *const *g;

	(void)unused;
	for (g = kifu_games; *g; g++) {
		struct kifu_player *p = NULL;
		struct kifu_pos *pos = NULL, *copy = NULL;
		struct kifu_outcome oc;
		struct kifu_error err;
		kifu_move m = 1;
		int i, plies;

		kifu_error_clear(&err);
		assert_int_equal(kifu_pos_new(&pos, *g, 0, 0, &err), 0);
		assert_int_equal(kifu_pos_new(&copy, *g, 0, 0, &err), 0);
		assert_int_equal(kifu_player_new(&p, *g, "mcts:10", 5, &err), 0);

		/* A playout changes nothing and respects its cap. */
		kifu_pos_copy(copy, pos);
		assert_int_equal(kifu_player_playout(&oc, &plies, p, pos->state, 3), 0);
		assert_int_equal(plies, 3);
		assert_int_equal(oc.status, KIFU_ONGOING);
		assert_memory_equal(pos->state, copy->state, (*g)->state_size);
		assert_int_equal(kifu_player_playout(&oc, &plies, p, pos->state, MAX_PLIES), 0);
		assert_true(plies > 3 && plies < MAX_PLIES);
		assert_int_not_equal(oc.status, KIFU_ONGOING);
		assert_memory_equal(pos->state, copy->state, (*g)->state_size);

		/* Replay a finished random game and ask for one more move. */
		play(&log, *g, 0, specs, 1, 0, 3, MAX_PLIES);
		assert_int_not_equal(log.outcome.status, KIFU_ONGOING);
		for (i = 0; i < log.plies; i++)
			(*g)->apply(pos->state, log.moves[i]);
		assert_int_equal(kifu_player_choose(&m, p, pos->state, &err), KIFU_EILLEGAL);
		assert_int_equal(m, 0);
		assert_non_null(strstr(err.message, "the game is over"));

		kifu_player_free(p);
		kifu_pos_free(pos);
		kifu_pos_free(copy);
	}
}

/*
 * MCTS against random play, seats rotating so that it plays every side:
 * against one random player in two-player games, against one per other
 * side in games of more. It must win most games of every variant.
 */
static void test_mcts_beats_random(void **unused)
{
	static const char *const specs[] = { MATCH_PLAYOUTS, "random", "random", "random",
					     "random", "random", "random", "random" };
	static struct game_log log;
	const struct kifu_game *const *g;

	(void)unused;
	for (g = kifu_games; *g; g++) {
		int v;

		for (v = 0; (*g)->variants[v]; v++) {
			int i, wins = 0;

			for (i = 0; i < MATCH_GAMES; i++)
				wins += play(&log, *g, v, specs, (*g)->nsides, i,
					     1000 + (uint64_t)i, MAX_PLIES) == 0;
			print_message("%s/%s: %s won %d of %d against random\n", (*g)->name,
				      (*g)->variants[v], MATCH_PLAYOUTS, wins, MATCH_GAMES);
			if (2 * wins <= MATCH_GAMES)
				fail_msg("%s/%s: %s won only %d of %d games against random",
					 (*g)->name, (*g)->variants[v], MATCH_PLAYOUTS, wins,
					 MATCH_GAMES);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_random_legal),
		cmocka_unit_test(test_ended_and_playout),
		cmocka_unit_test(test_mcts_beats_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
