/*
 * Engine review of games (kifu-analyse): for each ply, from the position
 * before the move, a built-in searching player (kifu/player.h,
 * kifu_player_analyse: `engine` by default, or any engine:N or mcts:N)
 * values its own choice and the move played, each by N/4 iterations forced
 * through it, as expected scores in [0, 1] for the mover (a four-player
 * game: that side's share), mapped by the calibration fitted on engine
 * self-play (the default engine only; lib/engine/calibrate.c). The
 * position is worth its best move: expected = the better of the two
 * scores, loss = expected - played_score = max(0, best_score -
 * played_score), and a loss of at least 0.10 / 0.20 / 0.35 marks the move
 * ?! / ? / ??. The engine's solver also proves moves won or lost: a move
 * proven lost where a move not proven lost existed is ?? whatever its loss.
 *
 * Positions are analysed in parallel, each with its own generator seeded
 * from the seed and the ply alone (kifu_analyse_ply_seed), so the same seed
 * gives the same review whatever the number of threads.
 */
#ifndef KIFU_ANALYSE_H
#define KIFU_ANALYSE_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/render.h"

/*
 * Iterations per position by default: the engine's default budget
 * (KIFU_PLAYER_ENGINE_ITERATIONS). Its speed per game is in bench/README.md
 * (bench/engine.sh).
 */
#define KIFU_ANALYSE_PLAYOUTS 1000L

/* The player that reviews by default. */
#define KIFU_ANALYSE_ENGINE "engine"

/* Longest engine spec a review names ("engine:100000000"). */
#define KIFU_ANALYSE_SPEC_MAX 32

/* Longest principal line a ply's review keeps (the engine's move and 5 more plies). */
#define KIFU_ANALYSE_LINE_MAX 6

/* The marks' thresholds on loss. */
#define KIFU_ANALYSE_DUBIOUS 0.10
#define KIFU_ANALYSE_MISTAKE 0.20
#define KIFU_ANALYSE_BLUNDER 0.35

enum kifu_review_mark {
	KIFU_REVIEW_NONE = 0,
	KIFU_REVIEW_DUBIOUS,  /* ?! */
	KIFU_REVIEW_MISTAKE,  /* ? */
	KIFU_REVIEW_BLUNDER   /* ?? */
};

/*
 * How a review values the moves (bench/README.md, "What the review tells apart",
 * has both measured):
 *   - TREE (the default): in the search of the position before the move,
 *     the engine's choice and the move played each get N/4 more iterations
 *     forced through them, and their scores are those iterations' means;
 *     the position is worth the better one;
 *   - POSITIONS: as lichess evaluates every position, the position after
 *     the move played (the game's next position) and the one after the
 *     engine's choice (when not played) each get their own search at the
 *     same budget, and each move is worth the mover's value there; the
 *     position is worth its own search's value.
 * The engine's own move played loses 0.
 */
enum kifu_analyse_values {
	KIFU_ANALYSE_VALUES_TREE = 0,
	KIFU_ANALYSE_VALUES_POSITIONS
};

struct kifu_analyse_opts {
	/*
	 * The reviewing player: "engine", "engine:N" or "mcts:N"; NULL:
	 * KIFU_ANALYSE_ENGINE. A spec without a count takes `playouts`.
	 */
	const char *engine;
	long playouts;    /* iterations per position for a spec without a count; 0: KIFU_ANALYSE_PLAYOUTS */
	long min_visits;  /* iterations the played move gets at least; 0: playouts / 4 */
	int threads;      /* 0: the number of cores */
	uint64_t seed;
	int values;       /* enum kifu_analyse_values: how moves are valued (0: the default) */
	int variant;      /* kifu_analyse_position: the position's variant (its calibration map) */
};

/* The review of one ply. */
struct kifu_ply_review {
	size_t ply;           /* 1-based */
	int side;             /* the mover */
	kifu_move move;       /* played */
	kifu_move best;       /* the engine's choice */
	double expected;      /* the mover's expected score before the move (the position's value) */
	double best_score;
	double played_score;
	double loss;
	/*
	 * Every side's expected score before the move (the first nsides):
	 * the mover's is `expected`, the others share the rest as the search
	 * shares it. raw: the mover's value before the calibration map (what
	 * bench/calibrate.py fits the map on).
	 */
	double value[KIFU_GAME_SIDES_MAX];
	double raw;
	int mark;             /* enum kifu_review_mark */
	uint32_t best_visits, played_visits;
	int best_proof, played_proof;  /* enum kifu_proof (player.h): what the solver proved */
	int best_plies, played_plies;  /* proven: plies to the end, the move included */
	/*
	 * The engine's principal line from the position before the move
	 * (line[0] == best; kifu_player_analysis's line), nline moves; 0 in a
	 * review read back from the database.
	 */
	kifu_move line[KIFU_ANALYSE_LINE_MAX];
	int nline;
};

/* One side's figures over a reviewed game (kifu_analyse_sides). */
struct kifu_analyse_side {
	size_t moves;          /* its reviewed moves */
	double accuracy;       /* 0-100 (below); NAN without a move */
	double mean_loss;      /* NAN without a move */
	int inaccuracies, mistakes, blunders; /* ?!, ?, ?? */
};

/*
 * A move's accuracy, 0-100, from its loss (CLI.md, lichess's accuracy from
 * win-percentage drops with the drop = 100 x loss): 103.1668 e^(-0.04354
 * drop) - 3.1669 + 1, clamped to [0, 100].
 */
double kifu_analyse_move_accuracy(double loss);

/*
 * Each side's figures (out: nsides of them; lib/stats/accuracy.c) over the n plies rv of one
 * game of nsides sides: its accuracy as lichess computes a game's (the mean
 * of the volatility-weighted mean and the harmonic mean of its moves'
 * accuracies; the window clamp(n / 10, 2, 8) positions, each move's
 * weight the standard deviation of the positions' values in its window,
 * in percent, clamped to [0.5, 12]), its marks and its mean loss. The
 * positions' values: the first side's expected score (two sides; the
 * mover's in a game of more) before each ply, then after the last ply.
 */
void kifu_analyse_sides(struct kifu_analyse_side *out, int nsides,
			const struct kifu_ply_review *rv, size_t n);

/* The mark a loss earns. */
int kifu_analyse_mark(double loss);

/* "?!", "?", "??", or NULL for none. */
const char *kifu_analyse_mark_text(int mark);

/* The generator seed of ply (1-based) for an analysis seeded with seed. */
uint64_t kifu_analyse_ply_seed(uint64_t seed, size_t ply);

/*
 * The spec of the player o reviews with, into out (KIFU_ANALYSE_SPEC_MAX
 * bytes): "engine" (the default budget), or with its count written out
 * ("engine:300" for --playouts 300, "mcts:1000").
 * Returns 0, or KIFU_EPARSE for a spec that is not engine, engine:N or
 * mcts:N (err says why).
 */
int kifu_analyse_spec(char *out, const struct kifu_analyse_opts *o, struct kifu_error *err);

/* The iterations of a spec of kifu_analyse_spec ("engine": its default count). */
long kifu_analyse_spec_count(const char *spec);

/* The number of cores online (at least 1): the default thread count. */
int kifu_analyse_cores(void);

/*
 * Reviews the position state (of game g, not over, variant o->variant)
 * where `played` was played as ply `ply` (1-based; it picks the seed) on
 * one thread.
 * Returns 0, KIFU_EILLEGAL (played not legal there, or the game is over)
 * or KIFU_ENOMEM.
 */
/*
 * Reviews the n plies `moves` (canonical, legal) played from state (of
 * game g, variant variant), the first of them ply `ply` (1-based), into
 * out (n of them), on o's threads: as kifu_analyse_game reviews those
 * plies of a game (the same seeds: the same reviews). Returns as
 * kifu_analyse_position.
 */
int kifu_analyse_plies(struct kifu_ply_review *out, const struct kifu_game *g, int variant,
		       const void *state, const kifu_move *moves, size_t n, size_t ply,
		       const struct kifu_analyse_opts *o, struct kifu_error *err);

int kifu_analyse_position(struct kifu_ply_review *out, const struct kifu_game *g,
			  const void *state, kifu_move played, size_t ply,
			  const struct kifu_analyse_opts *o, struct kifu_error *err);

/*
 * Reviews the n plies `moves` (canonical, legal) played from the start
 * position of variant/first: *out gets n reviews (the caller frees it with
 * kifu_analyse_game_free; NULL when n is 0). Returns 0, KIFU_EILLEGAL,
 * KIFU_ERANGE or KIFU_ENOMEM (the first failure of any ply).
 */
int kifu_analyse_game(struct kifu_ply_review **out, const struct kifu_game *g, int variant,
		      int first, const kifu_move *moves, size_t n,
		      const struct kifu_analyse_opts *o, struct kifu_error *err);
void kifu_analyse_game_free(struct kifu_ply_review *rv);

/*
 * Writes the review rv of rec's nplies plies (rp: rec's complete replay)
 * into rec as format 2 (kifu-analyse --annotate, CLI.md): each ply's
 * `eval` {spec, its expected score as "%.4f", the engine's move}
 * (replacing any), a marked move's mark as its `nag` (?! ? ??, replacing
 * any; other moves keep theirs), and at each ? or ?? a line after the
 * move's lines: the ply's principal line (the engine's move alone where the
 * review has none), cut where the game ends, unless a line of the move
 * already starts with the same moves, or the game's turns, its lines
 * included, would pass KIFU_RECORD_MAX_TURNS (RECORDS.md's limit: the
 * record must read back). Comments are left as they are; rec then says
 * format 2. rp no longer matches rec's lines and evals: validate rec again
 * for a replay to write it with. Returns the number of lines left out for
 * that limit (0 mostly) or KIFU_ENOMEM.
 */
int kifu_analyse_annotate(struct kifu_record *rec, const struct kifu_replay *rp,
			  const struct kifu_ply_review *rv, const char *spec, struct kifu_error *err);

/* ---- Keeping reviews in the game database (kifu-analyse --store) ---- */

struct kifu_store; /* kifu/store.h */

/*
 * Saves the review rv of the n plies of the stored game game_id in st
 * (schema 6: one analysis_runs row for the game and the engine settings of
 * o: the spec of kifu_analyse_spec in `engine`, its count
 * (kifu_analyse_spec_count) in `playouts`,
 * the seed; and an analysis_plies row per ply).
 * moves and best hold the canonical texts of the moves played and of the
 * engine's moves, KIFU_MOVE_TEXT_MAX apart. A run of the same game and
 * settings is replaced; runs with other settings stay. One transaction:
 * on failure nothing is changed. Returns 0 or a negative KIFU_E* code
 * (KIFU_EDB for a game that is not stored).
 */
int kifu_analyse_store(struct kifu_store *st, int64_t game_id, const struct kifu_ply_review *rv,
		       size_t n, const char *moves, const char *best,
		       const struct kifu_analyse_opts *o, struct kifu_error *err);

/* A review read back from the database. */
struct kifu_analyse_stored {
	struct kifu_ply_review *plies; /* n, in order (move and best not set: best's text below) */
	char *best;                    /* the engine's move of ply i + 1 at best + i * KIFU_MOVE_TEXT_MAX */
	size_t n;                      /* 0: no review stored */
	long playouts;
	uint64_t seed;
	char engine[KIFU_ANALYSE_SPEC_MAX]; /* the spec it was made with ("mcts:40") */
	char caption[KIFU_ANALYSE_SPEC_MAX + 32]; /* "mcts:40, seed 1", as kifu-analyse's */
	struct kifu_render_review view; /* all the above as the renderers take it (n > 0) */
};

/*
 * The review kept for the stored game game_id of nplies plies: the run with
 * the most playouts, the last stored among equals (the one kifu-stats
 * players counts). out->n is 0 when there is none (or the database
 * predates schema 6). Release with kifu_analyse_stored_release. Returns 0
 * or a negative KIFU_E* code.
 */
int kifu_analyse_load(struct kifu_analyse_stored *out, struct kifu_store *st, int64_t game_id,
		      size_t nplies, struct kifu_error *err);
void kifu_analyse_stored_release(struct kifu_analyse_stored *r);

#endif
