/*
 * Tests of the engine's solver (lib/engine/engine.c) in every game and
 * variant, on positions found here by brute force over the game interface
 * (a plain exhaustive search, independent of the engine), never written by
 * hand:
 *   - forced wins in 1, 2 and 3 moves of the side to move (in splinter-quad,
 *     whose other three sides move between two of its moves, in 1 and 2):
 *     the position lies near the end of a seeded random game, the side to
 *     move wins against any defence within that many of its moves and not
 *     within fewer. The engine must play a win in 1 and prove it; it must
 *     keep the forced win (or play a slower win it proved) in at least 3 of
 *     4 positions with a win in 2 and 2 of 3 with a win in 3 (the printed
 *     tally says which it missed); what its analysis proves must be true (a
 *     proven win is one, and no shorter than the brute force allows);
 *   - positions where every move loses (each one ends the game for another
 *     side or lets the next mover win at once): the analysis proves every
 *     move lost, so the move played there is not marked, and the engine
 *     still plays a legal move.
 * Where the analysis proves its choice won within 6 plies, its principal
 * line (kifu-analyse --annotate's) is the proof: that many legal moves,
 * the last of which ends the game with the side to move the winner.
 * Each brute-force search has a node budget; a position it cannot settle
 * within it is passed over for the next.
 *
 * Finding the positions takes minutes (glaisher advanced's wins in 3 are
 * rare and costly to settle), so where they are is kept in
 * tests/data/engine/positions (FIXTURE): the random game and the ply of
 * each. The test replays the seeded random games and checks every position
 * with the brute force again (a win in exactly k, every move losing), so a
 * fixture the code no longer matches fails; `test_engine --regenerate FILE`
 * searches again as described above and writes it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/player.h"
#include "helpers.h"
/* Wins in k moves the engine kept, of those tried (test_solver's tally). */
static int kept[4], tried[4];

/* Deepest brute-force search, in plies. */
#define MAX_DEPTH 12
/* Nodes one brute-force question may visit before it gives up. */
#define NODE_BUDGET 3000000L
/* Random games tried per variant to find the positions. */
#define MAX_GAMES 60
/* Positions before the end of each game looked at. */
#define TAIL 10
/* Longest random game. */
#define MAX_PLIES 3000
/* The engine's budget in these positions. */
#define ENGINE_SPEC "engine:5000"
/* Where the positions are: made by find_positions (--regenerate). */
#define FIXTURE KIFU_SOURCE_DIR "/tests/data/engine/positions"

/*
 * The brute-force search's memory: a state and a move list per depth. With
 * `order` set, the move that last decided a position at a depth (a win
 * found, or a defence that holds) is tried first at that depth in the
 * next: the answer is the same, reached in far fewer nodes (the positions'
 * check; the search for them keeps the plain order, so that it finds the
 * same positions with the same budget).
 */
struct brute {
	const struct kifu_game *g;
	unsigned char *states;  /* MAX_DEPTH + 1 states */
	kifu_move *moves;       /* MAX_DEPTH + 1 lists of max_moves */
	long nodes;
	int order;
	kifu_move decided[MAX_DEPTH + 1];
};

static void brute_init(struct brute *b, const struct kifu_game *g)
{
	memset(b, 0, sizeof(*b));
	b->g = g;
	b->states = malloc(g->state_size * (MAX_DEPTH + 1));
	b->moves = malloc(sizeof(*b->moves) * g->max_moves * (MAX_DEPTH + 1));
	assert_non_null(b->states);
	assert_non_null(b->moves);
}

static void brute_free(struct brute *b)
{
	free(b->states);
	free(b->moves);
}

/*
 * Whether side `me` wins from the state at depth d within `plies` plies
 * against any play of the other sides: 1 yes, 0 no, -1 out of budget.
 */
static int forced(struct brute *b, int d, int me, int plies)
{
	const struct kifu_game *g = b->g;
	const unsigned char *state = b->states + (size_t)d * g->state_size;
	unsigned char *child = b->states + (size_t)(d + 1) * g->state_size;
	kifu_move *moves = b->moves + (size_t)d * g->max_moves;
	struct kifu_outcome oc;
	size_t n, i;
	int mine, unknown = 0;

	g->outcome(state, &oc);
	if (oc.status != KIFU_ONGOING)
		return oc.status == KIFU_WIN && oc.winner == me;
	if (plies == 0)
		return 0;
	if (++b->nodes > NODE_BUDGET)
		return -1;
	mine = g->side_to_move(state) == me;
	n = g->legal_moves(state, moves);
	if (b->order)
		for (i = 1; i < n; i++)
			if (moves[i] == b->decided[d]) {
				moves[i] = moves[0];
				moves[0] = b->decided[d];
				break;
			}
	for (i = 0; i < n; i++) {
		int r;

		memcpy(child, state, g->state_size);
		g->apply(child, moves[i]);
		r = forced(b, d + 1, me, plies - 1);
		if (r < 0) {
			unknown = 1;
		} else if ((mine && r == 1) || (!mine && r == 0)) {
			b->decided[d] = moves[i];
			return r;
		}
	}
	return unknown ? -1 : !mine;
}

/* forced() from state itself (copied in at depth 0), with a fresh budget. */
static int forced_from(struct brute *b, const void *state, int me, int plies)
{
	memcpy(b->states, state, b->g->state_size);
	b->nodes = 0;
	return forced(b, 0, me, plies);
}

/* Plies within which a side wins in k of its own moves: the others move between them. */
static int plies_of(const struct kifu_game *g, int k)
{
	return (k - 1) * g->nsides + 1;
}

/* Whether m, played in state, loses at once: another side wins by it or by the next move. */
static int loses_at_once(struct brute *b, const void *state, kifu_move m)
{
	const struct kifu_game *g = b->g;
	unsigned char *a = b->states + g->state_size;
	int me = g->side_to_move(state), next, r;
	struct kifu_outcome oc;

	memcpy(a, state, g->state_size);
	g->apply(a, m);
	g->outcome(a, &oc);
	if (oc.status != KIFU_ONGOING)
		return oc.status == KIFU_WIN && oc.winner != me;
	next = g->side_to_move(a);
	if (next == me)
		return 0;
	b->nodes = 0;
	r = forced(b, 1, next, 1);
	return r == 1;
}

/* Whether every move of state loses at once. */
static int all_lose(struct brute *b, const void *state)
{
	const struct kifu_game *g = b->g;
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	size_t n, i;
	int all = 1;

	assert_non_null(moves);
	n = g->legal_moves(state, moves);
	for (i = 0; i < n && all; i++)
		all = loses_at_once(b, state, moves[i]);
	free(moves);
	return n > 0 && all;
}

/*
 * The positions of one variant: a win in k moves for k = 1..3, and an
 * all-lose one; each with the random game (from 0) and the ply it is at.
 */
struct found {
	unsigned char *win[4];  /* [k], NULL when none was found */
	unsigned char *lost;
	int win_game[4], win_ply[4], lost_game, lost_ply;
};

static void *copy_state(const struct kifu_game *g, const void *state)
{
	void *s = malloc(g->state_size);

	assert_non_null(s);
	memcpy(s, state, g->state_size);
	return s;
}

/* The largest k a variant is tested with (forced wins over three opponents cost more). */
static int max_k(const struct kifu_game *g)
{
	return g->nsides == 2 ? 3 : 2;
}

/*
 * The next seeded random game of g/variant into hist (its states, from the
 * start); returns its plies. The games of a variant follow each other from
 * one generator: game n is the one played after games 0..n-1.
 */
static int random_game(unsigned char *hist, kifu_move *moves, struct th_rng *rng,
		       const struct kifu_game *g, int variant)
{
	struct kifu_error err;
	int plies = 0;

	assert_int_equal(g->init(hist, variant, 0, &err), 0);
	for (;;) {
		size_t n = g->legal_moves(hist + (size_t)plies * g->state_size, moves);

		if (!n || plies == MAX_PLIES)
			break;
		memcpy(hist + (size_t)(plies + 1) * g->state_size, hist + (size_t)plies * g->state_size,
		       g->state_size);
		g->apply(hist + (size_t)(plies + 1) * g->state_size, moves[th_rng_below(rng, n)]);
		plies++;
	}
	return plies;
}

/* The first seed of a variant's random games. */
static struct th_rng rng_of(int variant)
{
	struct th_rng rng = { 0x5eed + (uint64_t)variant };

	return rng;
}

/*
 * The k of the forced win of the side to move in s: the least k (up to
 * max_k) within which it wins; 0 when it wins within none, or when a search
 * within fewer ran out of budget.
 */
static int exact_win(struct brute *b, const void *s)
{
	const struct kifu_game *g = b->g;
	int me = g->side_to_move(s), k;

	for (k = 1; k <= max_k(g); k++) {
		int r = forced_from(b, s, me, plies_of(g, k));

		if (r < 0)
			return 0;
		if (r == 1)
			return k;
	}
	return 0;
}

/* Looks for the positions near the ends of seeded random games of g/variant (--regenerate). */
static void find_positions(struct found *f, const struct kifu_game *g, int variant)
{
	struct brute b;
	unsigned char *hist = malloc(g->state_size * (MAX_PLIES + 1));
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	struct th_rng rng = rng_of(variant);
	int game, k;

	memset(f, 0, sizeof(*f));
	brute_init(&b, g);
	assert_non_null(hist);
	assert_non_null(moves);
	for (game = 0; game < MAX_GAMES; game++) {
		int plies, p, done = f->lost != NULL;

		for (k = 1; k <= max_k(g); k++)
			done &= f->win[k] != NULL;
		if (done)
			break;
		plies = random_game(hist, moves, &rng, g, variant);
		for (p = plies - 1; p >= 0 && p >= plies - TAIL; p--) {
			const unsigned char *s = hist + (size_t)p * g->state_size;
			int exact = exact_win(&b, s);

			if (exact && !f->win[exact]) {
				f->win[exact] = copy_state(g, s);
				f->win_game[exact] = game;
				f->win_ply[exact] = p;
			}
			if (!exact && !f->lost && all_lose(&b, s)) {
				f->lost = copy_state(g, s);
				f->lost_game = game;
				f->lost_ply = p;
			}
		}
	}
	brute_free(&b);
	free(hist);
	free(moves);
}

/*
 * The positions of g/variant from FIXTURE: the random games replayed, each
 * position checked with the brute force (what find_positions found there).
 * A missing or stale line fails, saying how to rebuild the file.
 */
static void load_positions(struct found *f, const struct kifu_game *g, int variant,
			   const char *name)
{
	FILE *in = fopen(FIXTURE, "r");
	char line[256], gname[64], vname[64], what[16];
	int want_game[5], want_ply[5], last = -1, game, w, k;
	unsigned char *hist = malloc(g->state_size * (MAX_PLIES + 1));
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	struct th_rng rng = rng_of(variant);
	struct brute b;

	if (!in)
		fail_msg("cannot read '%s': %s", FIXTURE, strerror(errno));
	assert_non_null(hist);
	assert_non_null(moves);
	memset(f, 0, sizeof(*f));
	/* [1..3] the wins in k, [4] the all-lose position; -1 when absent */
	for (w = 0; w <= 4; w++)
		want_game[w] = want_ply[w] = -1;
	while (fgets(line, sizeof(line), in)) {
		int gm, pl;

		if (line[0] == '#' || sscanf(line, "%63s %63s %15s %d %d", gname, vname, what, &gm,
					     &pl) != 5)
			continue;
		if (strcmp(gname, g->name) || strcmp(vname, g->variants[variant]))
			continue;
		if (!strcmp(what, "lost"))
			w = 4;
		else if (sscanf(what, "win%d", &w) != 1 || w < 1 || w > 3)
			fail_msg("%s: '%s' in '%s'", name, what, FIXTURE);
		want_game[w] = gm;
		want_ply[w] = pl;
		if (gm > last)
			last = gm;
	}
	fclose(in);
	brute_init(&b, g);
	b.order = 1;
	for (game = 0; game <= last; game++) {
		int plies = random_game(hist, moves, &rng, g, variant);

		for (w = 1; w <= 4; w++) {
			const unsigned char *s;

			if (want_game[w] != game)
				continue;
			if (want_ply[w] < 0 || want_ply[w] >= plies)
				fail_msg("%s: random game %d has no ply %d: '%s' is stale (rebuild it: "
					 "test_engine --regenerate FILE)", name, game, want_ply[w], FIXTURE);
			s = hist + (size_t)want_ply[w] * g->state_size;
			if (w < 4 && exact_win(&b, s) != w)
				fail_msg("%s: random game %d, ply %d is not a forced win in %d: '%s' is "
					 "stale (rebuild it: test_engine --regenerate FILE)", name, game,
					 want_ply[w], w, FIXTURE);
			/* (every move losing at once, the side to move has no forced win) */
			if (w == 4 && !all_lose(&b, s))
				fail_msg("%s: random game %d, ply %d is not one where every move loses: "
					 "'%s' is stale (rebuild it: test_engine --regenerate FILE)", name,
					 game, want_ply[w], FIXTURE);
			if (w < 4)
				f->win[w] = copy_state(g, s);
			else
				f->lost = copy_state(g, s);
		}
	}
	for (k = 1; k <= max_k(g); k++)
		if (!f->win[k])
			fail_msg("%s: no position with a forced win in %d in '%s'", name, k, FIXTURE);
	if (!f->lost)
		fail_msg("%s: no position where every move loses in '%s'", name, FIXTURE);
	brute_free(&b);
	free(hist);
	free(moves);
}

/*
 * a's principal line from state, where a proves its choice won in
 * a.best.plies <= KIFU_PLAYER_LINE_MAX plies: it plays the proof out, legal
 * move by legal move, to the win of the side to move, and stops there.
 */
static void check_proof_line(const struct kifu_game *g, const char *name, const void *state,
			     const struct kifu_player_analysis *a)
{
	unsigned char *s = copy_state(g, state);
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	int me = g->side_to_move(state), k;
	struct kifu_outcome oc;
	size_t n, i;

	assert_non_null(moves);
	assert_true(a->nline >= 1 && a->line[0] == a->best.move);
	if (a->nline != a->best.plies)
		fail_msg("%s: a win proven in %d plies, a line of %d", name, a->best.plies, a->nline);
	for (k = 0; k < a->nline; k++) {
		g->outcome(s, &oc);
		assert_int_equal(oc.status, KIFU_ONGOING);
		n = g->legal_moves(s, moves);
		for (i = 0; i < n && moves[i] != a->line[k]; i++)
			;
		if (i == n)
			fail_msg("%s: move %d of the line is not legal", name, k + 1);
		g->apply(s, a->line[k]);
	}
	g->outcome(s, &oc);
	if (oc.status != KIFU_WIN || oc.winner != me)
		fail_msg("%s: the proof's line does not end in the win", name);
	free(moves);
	free(s);
}

/* The engine on a forced win in k moves: it keeps the win, and its proofs are true. */
static void check_win(const struct kifu_game *g, const char *name, const void *state, int k)
{
	struct kifu_player *p;
	struct kifu_player_analysis a;
	struct kifu_error err;
	struct brute b;
	kifu_move m;
	int me = g->side_to_move(state), seed;

	brute_init(&b, g);
	for (seed = 1; seed <= 2; seed++) {
		unsigned char *after;

		assert_int_equal(kifu_player_new(&p, g, ENGINE_SPEC, (uint64_t)seed, &err), 0);
		assert_int_equal(kifu_player_choose(&m, p, state, &err), 0);
		/*
		 * The move keeps a forced win within the plies left; or it is a
		 * slower win the solver proved (a proven win is played at once,
		 * even when a shorter one is not proven yet), which the brute
		 * force confirms.
		 */
		assert_int_equal(kifu_player_analyse(&a, p, state, m, 100, &err), 0);
		after = copy_state(g, state);
		g->apply(after, m);
		if (forced_from(&b, after, me, plies_of(g, k) - 1) != 1 &&
		    (a.played.proof != KIFU_PROOF_WIN ||
		     forced_from(&b, after, me, a.played.plies - 1) != 1)) {
			if (k == 1)
				fail_msg("%s: win in 1, seed %d: the engine's move does not win", name,
					 seed);
			print_message("%s: win in %d, seed %d: the engine's move gives the win away\n",
				      name, k, seed);
		} else {
			kept[k]++;
		}
		tried[k]++;
		free(after);
		/* the analysis: the best move's proof, when it has one, is true and not too short */
		if (k == 1 && a.best.proof != KIFU_PROOF_WIN)
			fail_msg("%s: win in 1 not proven (seed %d)", name, seed);
		if (a.best.proof == KIFU_PROOF_LOSS)
			fail_msg("%s: win in %d proven lost (seed %d)", name, k, seed);
		if (a.best.proof == KIFU_PROOF_WIN) {
			assert_true(a.best.score == 1);
			/* no win within plies_of(k - 1) exists, so no proof is that short */
			if (k > 1 && a.best.plies <= plies_of(g, k - 1))
				fail_msg("%s: win in %d proven in %d plies", name, k, a.best.plies);
			after = copy_state(g, state);
			g->apply(after, a.best.move);
			if (a.best.plies <= plies_of(g, 3) &&
			    forced_from(&b, after, me, a.best.plies - 1) == 0)
				fail_msg("%s: win in %d: a proof in %d plies that is false", name, k,
					 a.best.plies);
			free(after);
			if (a.best.plies <= KIFU_PLAYER_LINE_MAX)
				check_proof_line(g, name, state, &a);
		}
		print_message("%s: win in %d kept (seed %d), proven in %d plies (0: not proven)\n",
			      name, k, seed, a.best.proof == KIFU_PROOF_WIN ? a.best.plies : 0);
		kifu_player_free(p);
	}
	brute_free(&b);
}

/* The engine where every move loses: all proven lost, the move played unmarked. */
static void check_lost(const struct kifu_game *g, const char *name, const void *state)
{
	struct kifu_analyse_opts o = { .engine = ENGINE_SPEC, .seed = 1, .threads = 1 };
	struct kifu_ply_review r;
	struct kifu_player *p;
	struct kifu_error err;
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves), m;
	size_t n, i;

	assert_non_null(moves);
	assert_int_equal(kifu_player_new(&p, g, ENGINE_SPEC, 1, &err), 0);
	assert_int_equal(kifu_player_choose(&m, p, state, &err), 0);
	n = g->legal_moves(state, moves);
	for (i = 0; i < n && moves[i] != m; i++)
		;
	assert_true(i < n);
	assert_int_equal(kifu_analyse_position(&r, g, state, moves[0], 1, &o, &err), 0);
	if (r.best_proof != KIFU_PROOF_LOSS || r.played_proof != KIFU_PROOF_LOSS)
		fail_msg("%s: every move loses, proofs: best %d, played %d", name, r.best_proof,
			 r.played_proof);
	assert_int_equal(r.mark, KIFU_REVIEW_NONE);
	kifu_player_free(p);
	free(moves);
}

static void test_solver(void **unused)
{
	size_t gi;
	int k;

	(void)unused;
	for (gi = 0; kifu_games[gi]; gi++) {
		const struct kifu_game *g = kifu_games[gi];
		int v;

		for (v = 0; g->variants[v]; v++) {
			struct found f;
			char name[96];

			snprintf(name, sizeof(name), "%s %s", g->name, g->variants[v]);
			load_positions(&f, g, v, name);
			for (k = 1; k <= max_k(g); k++) {
				check_win(g, name, f.win[k], k);
				free(f.win[k]);
			}
			check_lost(g, name, f.lost);
			free(f.lost);
		}
	}
	/*
	 * Every win in 1 is played (checked above); a win in 2 or 3 needs the
	 * search to visit the winning move enough to prove it, which the
	 * evaluation's priors sometimes delay past the budget. What the engine
	 * does, measured, as lower bounds: 14 of 14 wins in 2 kept, 8 of 12 wins
	 * in 3 (it missed splinter knockout's and glaisher advanced's at both
	 * seeds; with earlier evaluation weights it also missed one win in 2).
	 */
	for (k = 2; k <= 3; k++) {
		int num = k == 2 ? 3 : 2, den = k == 2 ? 4 : 3;

		print_message("wins in %d kept: %d of %d\n", k, kept[k], tried[k]);
		if (kept[k] * den < tried[k] * num)
			fail_msg("the engine kept %d of %d wins in %d (less than %d in %d)", kept[k],
				 tried[k], k, num, den);
	}
}

/* --regenerate FILE: the search of find_positions, written as FIXTURE is read. */
static void regenerate(void **state)
{
	const char *path = *state;
	FILE *out = fopen(path, "w");
	size_t gi;
	int v, k;

	if (!out)
		fail_msg("cannot write '%s': %s", path, strerror(errno));
	fprintf(out, "# Where tests/test_engine.c's positions are, found by its brute force near\n"
		     "# the ends of seeded random games (see the test): game, variant, what\n"
		     "# (winK: the side to move wins in exactly K of its moves; lost: every move\n"
		     "# loses at once), the random game (from 0) and the ply (from 0). Made by\n"
		     "#   make build/default/tests/test_engine &&\n"
		     "#   build/default/tests/test_engine --regenerate tests/data/engine/positions\n"
		     "# (minutes); the test checks every position again.\n");
	for (gi = 0; kifu_games[gi]; gi++) {
		const struct kifu_game *g = kifu_games[gi];

		for (v = 0; g->variants[v]; v++) {
			struct found f;

			find_positions(&f, g, v);
			for (k = 1; k <= max_k(g); k++) {
				if (!f.win[k])
					fail_msg("%s %s: no position with a forced win in %d found",
						 g->name, g->variants[v], k);
				fprintf(out, "%s %s win%d %d %d\n", g->name, g->variants[v], k,
					f.win_game[k], f.win_ply[k]);
				free(f.win[k]);
			}
			if (!f.lost)
				fail_msg("%s %s: no position where every move loses found", g->name,
					 g->variants[v]);
			fprintf(out, "%s %s lost %d %d\n", g->name, g->variants[v], f.lost_game,
				f.lost_ply);
			free(f.lost);
		}
	}
	if (fclose(out) != 0)
		fail_msg("cannot write '%s': %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solver),
	};

	if (argc == 3 && !strcmp(argv[1], "--regenerate")) {
		const struct CMUnitTest regen[] = {
			cmocka_unit_test_prestate(regenerate, argv[2]),
		};

		return cmocka_run_group_tests(regen, NULL, NULL);
	}
	if (argc != 1) {
		fprintf(stderr, "usage: test_engine [--regenerate FILE]\n");
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
