/*
 * Built-in players: programs that choose moves for a side, through the game
 * interface only, so that every game (and any game added later) can be
 * played by them. A player is made from a SPEC string:
 *
 *   random    a legal move chosen uniformly at random;
 *   mcts:N    Monte Carlo tree search (UCT) with N playouts per move;
 *   engine:N  kifu's strongest player: MCTS-Solver with evaluation cut-offs
 *             and progressive bias, N iterations per move (`engine` alone:
 *             KIFU_PLAYER_ENGINE_ITERATIONS). lib/engine/engine.c says how
 *             it searches.
 *
 * MCTS, precisely: each move builds a fresh tree from the current position
 * in a node pool that is reset after the move. One iteration selects from
 * the root by UCB1, score(child) = mean + C * sqrt(ln(parent visits) /
 * child visits) with C = sqrt(2) (KIFU_PLAYER_UCT_C) on rewards in [0, 1],
 * unvisited children first (in an order shuffled at expansion). A leaf
 * visited before is expanded with all its legal moves at once; the
 * iteration then plays uniformly random moves from the new child to the end
 * of the game, or for at most KIFU_PLAYER_PLAYOUT_PLIES plies. Every side
 * gets its own reward: 1 to the winner and 0 to the others, 1/nsides to
 * every side for a draw (0.5 each in a two-player game), and a playout cut
 * by the ply cap scores as a draw. Each node keeps the reward of the side
 * that moved into it (the side to move at its parent), and selection at a
 * node maximises that side's reward, so games of three or four players are
 * searched each from the point of view of the side to move. The move
 * played is the root child with most visits (ties: the better mean, then
 * the shuffled order). A position with a single legal move, or with a move
 * that wins at once for the side to move (the first such in the shuffled
 * order), is answered without search. When the pool reaches
 * KIFU_PLAYER_MAX_NODES nodes the tree stops growing and iterations play
 * out from where they stop.
 *
 * Players are deterministic: they use their own generator (xoshiro256**
 * seeded by splitmix64 from the seed given), never rand(), so the same seed
 * and the same positions give the same moves.
 */
#ifndef KIFU_PLAYER_H
#define KIFU_PLAYER_H

#include <stdint.h>

#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/record.h"

/* The exploration constant of UCB1 (sqrt(2)). */
#define KIFU_PLAYER_UCT_C 1.41421356237309504880

/* Longest random playout, in plies from the node it starts at. */
#define KIFU_PLAYER_PLAYOUT_PLIES 1000

/* Most tree nodes one move's search may hold (32 bytes each). */
#define KIFU_PLAYER_MAX_NODES (1u << 21)

/*
 * Iterations of `engine` without a count: chosen so that a move costs no
 * more CPU than mcts:1000's (bench/engine.sh measures both).
 */
#define KIFU_PLAYER_ENGINE_ITERATIONS 1000L

/*
 * Work of `engine` without a count: it also stops once its search has
 * tried (at expansion) and played (in playouts) this many moves, which
 * bounds a move's cost where positions have about a thousand moves.
 */
#define KIFU_PLAYER_ENGINE_WORK 32000L

/* Largest N accepted in `mcts:N` and `engine:N`. */
#define KIFU_PLAYER_MAX_PLAYOUTS 100000000L

/* A player made by kifu_player_new (a record's `players` entry is struct kifu_record_player). */
struct kifu_player;

/*
 * Makes a player of game g from spec ("random", "mcts:N", "engine",
 * "engine:N") with generator
 * seed `seed`. *out belongs to the caller (kifu_player_free). Returns 0,
 * KIFU_EPARSE for a bad spec ("unknown player 'foo'", "mcts needs a
 * playout count: 'mcts:'") or KIFU_ENOMEM.
 */
int kifu_player_new(struct kifu_player **out, const struct kifu_game *g, const char *spec,
		    uint64_t seed, struct kifu_error *err);

/* Frees p (NULL is accepted). */
void kifu_player_free(struct kifu_player *p);

/* The spec p was made from, as given. */
const char *kifu_player_spec(const struct kifu_player *p);

/*
 * Chooses a move for the side to move in state (a position of p's game) and
 * stores it in *out; state is not changed. Returns 0, KIFU_EILLEGAL when
 * the game is over there (no legal move), or KIFU_ENOMEM.
 */
int kifu_player_choose(kifu_move *out, struct kifu_player *p, const void *state,
		       struct kifu_error *err);

/*
 * One random playout, exactly as the search plays them: from state (left
 * unchanged), uniformly random moves drawn from p's generator until the
 * game ends or max_plies moves were played. *outcome is the rules' outcome
 * at the end (status KIFU_ONGOING when the cap cut the playout) and *plies
 * the number of moves played. Returns 0 (the players' benchmark calls it).
 */
int kifu_player_playout(struct kifu_outcome *outcome, int *plies, struct kifu_player *p,
			const void *state, int max_plies);

/* Replaces p's generator state by the one seed gives (as kifu_player_new does). */
void kifu_player_seed(struct kifu_player *p, uint64_t seed);

/* What the engine's solver proved of a root move, for the side to move at the root. */
enum kifu_proof {
	KIFU_PROOF_NONE = 0, /* nothing: the score is sampled (always so for mcts:N) */
	KIFU_PROOF_WIN,      /* the move wins against any defence */
	KIFU_PROOF_LOSS,     /* another side wins against any defence */
	KIFU_PROOF_DRAW      /* the best either side can force is a draw */
};

/* Longest principal line an analysis gives (kifu-analyse --annotate writes up to 6 plies). */
#define KIFU_PLAYER_LINE_MAX 6

/* One root move of an analysis. */
struct kifu_player_value {
	kifu_move move;
	uint32_t visits;  /* iterations through it */
	double score;     /* their mean reward for the side to move at the root, in [0, 1] */
	int proof;        /* enum kifu_proof */
	int plies;        /* proven: plies to the end, this move included */
};

struct kifu_player_analysis {
	double expected;                  /* mean reward of the N iterations, for the side to move */
	struct kifu_player_value best;    /* the engine's choice and its value */
	struct kifu_player_value played;  /* the move analysed and its value */
	/*
	 * The position's value for every side (KIFU_GAME_SIDES_MAX, the first
	 * nsides used): each side's mean reward over the iterations forced
	 * through the engine's choice (value[side to move] == best.score), or
	 * the result where the solver proved the choice (1 to the winner).
	 */
	double value[KIFU_GAME_SIDES_MAX];
	/*
	 * The principal line: the engine's choice (line[0] == best.move), then
	 * at each position after it the move the search would play there
	 * (mcts:N: the most visited; the engine: its choice's rules, proofs
	 * first), as long as the tree holds one it visited or proved, at most
	 * KIFU_PLAYER_LINE_MAX moves. Legal from the position analysed; it
	 * stops where the game ends.
	 */
	kifu_move line[KIFU_PLAYER_LINE_MAX];
	int nline;
};

/* `played` of kifu_player_analyse for valuing the position alone. */
#define KIFU_PLAYER_NO_MOVE UINT64_MAX

/*
 * Analyses state for the side to move, with `played` (one of its legal
 * moves) in view. p must be an mcts:N or engine player (the engine's
 * analysis is its own search, engine.c, with the same forcing and its
 * proofs in the values). The mcts:N search is the one of
 * kifu_player_choose, with N iterations, and with these differences, all
 * for a fair value of both moves:
 *   - no shortcut: a single legal move or a winning one is searched too;
 *   - decisive moves: when a node is expanded, a move that wins at once for
 *     the side to move there is always selected (so a move that allows an
 *     immediate win is valued as the loss it is, not by random playouts);
 *     at the root this makes the winning move the choice, scored 1;
 *   - the engine's choice is the most visited root move after the N
 *     iterations (ties as in choose); then, while it, and then `played`,
 *     has fewer than min_visits iterations, iterations are forced through
 *     it (its own subtree still searched by UCB1), so that neither score
 *     rests on a few lucky visits (with more moves than iterations, as in
 *     glaisher, the most visited move may have been visited once).
 * `expected` is the mean over the N iterations, before any forcing; the
 * scores are the moves' means after it. With played KIFU_PLAYER_NO_MOVE
 * only the engine's choice is forced and out->played is left zero (the
 * position valued alone, as kifu-analyse values the position after each
 * move). Returns 0,
 * KIFU_EILLEGAL (not a searching player, the game is over, played not
 * legal), KIFU_ERANGE (more moves than the node pool holds) or KIFU_ENOMEM.
 */
int kifu_player_analyse(struct kifu_player_analysis *out, struct kifu_player *p,
			const void *state, kifu_move played, long min_visits,
			struct kifu_error *err);

/* N of an mcts:N or engine:N player, 0 for random. */
long kifu_player_playouts(const struct kifu_player *p);

/* ---- Playing whole games (kifu-play) ---- */

/*
 * What kifu_play_game writes in a record's head instead of its own (each
 * NULL: its own): names[k] for "SPEC #k" (k - 1 the SPEC's position, or
 * with one SPEC the side's index, as the name it replaces), the event
 * (else "kifu-play") and the game's date (YYYY-MM-DD; else none).
 */
struct kifu_play_head {
	const char *const *names;
	const char *event;
	const char *date;
};

/*
 * Plays game i (from 0) of a series between the players specs[0..nspecs)
 * and writes it as a record into *out (the caller frees it): game i gives
 * side j the SPEC at position (i + j) mod nspecs, named "SPEC #k" (k its
 * 1-based position; with one SPEC, j + 1: each side its own player); every
 * player's seed comes from seed, i and j alone, so the same arguments give
 * the same game. At most max_plies moves are played (a game cut short is
 * unfinished). *outcome gets the final position's outcome. progress (may
 * be NULL) is called with ctx before each move. cpu and nmoves (each may
 * be NULL, else g->nsides entries) get, per side, the CPU seconds its
 * player spent choosing (this thread's clock) and its moves added. head
 * (may be NULL) replaces the names, event and date written. Returns 0 or a
 * negative KIFU_E* code (err says why).
 */
int kifu_play_game(struct kifu_record **out, struct kifu_outcome *outcome,
		   const struct kifu_game *g, int variant, int first,
		   const char *const *specs, int nspecs, long i, uint64_t seed, long max_plies,
		   void (*progress)(void *ctx, int ply), void *ctx, double *cpu, long *nmoves,
		   const struct kifu_play_head *head, struct kifu_error *err);

/* ---- A series' figures (kifu-play's summary) ---- */

/* Most SPECs (and sides) a series may have. */
#define KIFU_MATCH_MAX 16

/* One distinct SPEC's figures. */
struct kifu_match_spec {
	long games, wins, draws, losses, unfinished;
	long moves;   /* moves it chose */
	double cpu;   /* CPU seconds they took */
};

struct kifu_match {
	int nsides, nspecs;
	/*
	 * One SPEC for every side: each seat is a player of its own (kifu-play
	 * names it 'SPEC #k', k the side's 1-based index), nspecs the sides.
	 */
	int by_seat;
	int group[KIFU_MATCH_MAX];  /* SPEC position -> first position with the same text */
	struct kifu_match_spec spec[KIFU_MATCH_MAX]; /* at each group's first position */
	long side_wins[KIFU_MATCH_MAX];
	long decided, draws, unfinished;
};

/*
 * Starts the figures of a series of g between specs[0..nspecs) (as
 * kifu_play_game seats them); a single SPEC for a game of several sides
 * counts each side as a player (by_seat), as kifu_play_game names them.
 */
void kifu_match_init(struct kifu_match *m, const struct kifu_game *g, const char *const *specs,
		     int nspecs);

/*
 * Adds game i (from 0) of the series, its outcome and (each may be NULL)
 * the CPU seconds and moves per side of kifu_play_game. A SPEC seated on
 * several sides counts the game once: won when one of its sides won, lost
 * when another SPEC's side did (by_seat: each side is its own player).
 */
void kifu_match_add(struct kifu_match *m, long i, const struct kifu_outcome *oc,
		    const double *cpu, const long *nmoves);

/* Wins and a 1/nsides share of draws over finished games, in [0, 1]; NaN without any. */
double kifu_match_score(const struct kifu_match_spec *s, int nsides);

/* The two distinct SPEC positions *a < *b of a two-sided series; 0 when it has not exactly two. */
int kifu_match_pair(const struct kifu_match *m, int *a, int *b);

/*
 * The Elo difference of a player with w wins, d draws and l losses and the
 * half-width of its 95% interval, as cutechess-cli reports them (the
 * score's standard error from the per-game results, the interval's ends
 * mapped to Elo by the logistic curve, half their distance). Returns 1, or
 * 0 when no interval exists (no games, or an end at a score of 0 or 1;
 * *diff is then infinite for a score of 0 or 1, *margin NaN).
 */
int kifu_match_elo(double *diff, double *margin, long w, long d, long l);

#endif
