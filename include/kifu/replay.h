/*
 * Validating a game record and replaying its moves through the rules
 * engine: the replay keeps the canonical moves, the position hash after
 * each ply, the outcome and the figures, which the store, the exporters and
 * the writers use. Caller-owned and reusable, one per thread.
 */
#ifndef KIFU_REPLAY_H
#define KIFU_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/record.h"

/*
 * The replay of a record: the game, the canonical moves, the position hash
 * after each ply (hashes[0] is the start position), the final outcome and
 * figures. Caller-owned and reusable: start with KIFU_REPLAY_INIT, release
 * with kifu_replay_release.
 */
struct kifu_replay {
	const struct kifu_game *game; /* NULL when the game is unknown */
	int variant;                  /* index, -1 when unknown */
	int first;                    /* index of the side that moved first, -1 when unknown */
	int complete;                 /* every move was replayed */
	size_t nplies;                /* moves replayed */
	kifu_move *moves;             /* nplies canonical moves */
	uint64_t *hashes;             /* nplies + 1 hashes */
	char *canonical;              /* with KIFU_VALIDATE_TEXT: nplies texts, KIFU_MOVE_TEXT_MAX apart */
	struct kifu_outcome outcome;  /* of the last position replayed */
	int nfigures;
	struct kifu_figure figures[KIFU_FIGURES_MAX];
	void *state;                  /* the last position replayed (game->state_size bytes) */
	/*
	 * With KIFU_VALIDATE_TEXT, format 2's canonical texts (read them with
	 * kifu_replay_xtext): every move of a line and every eval's best, in
	 * the order of a walk of the main line where each turn gives its own
	 * move (in a line), then its eval's best, then its lines in order.
	 */
	char *xtext;
	size_t nx;
	/*
	 * With KIFU_VALIDATE_CANON: the canonical hash of every position
	 * replayed (kifu_game_canonical_hash, ply 0..nplies) and the symmetry
	 * that maps the position onto it, ncanon entries (nplies + 1; 0
	 * without the flag). kifu-import asks for them in the pipeline's
	 * reading thread, so that the store, in the writing one, does not
	 * compute them again.
	 */
	uint64_t *canon;
	unsigned char *syms;
	size_t ncanon;
	/*
	 * With KIFU_VALIDATE_CELLS, for a game with cells (its ncells): the
	 * cells each side's pieces stood on at some ply replayed, as
	 * kifu_pattern_summary_moves (kifu/pattern.h) sums them over the
	 * positions 0..nplies, when cells_plies == nplies + 1 (0 without the flag).
	 */
	uint64_t cells[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
	size_t cells_plies;
	/*
	 * With KIFU_VALIDATE_BRANCHING: the legal moves of the side to move
	 * summed over the positions before each move replayed (a position
	 * whose only move is pass counts 1), as kifu-stats balance sums them,
	 * over legal_plies positions (nplies; 0 without the flag). kifu-import
	 * asks for it in its reading thread, as for the canonical hashes.
	 */
	uint64_t legal;
	size_t legal_plies;
	/* Private. */
	size_t cap_;
	size_t state_cap_;
	size_t capx_;
	kifu_move *legal_buf_;  /* KIFU_VALIDATE_BRANCHING for a game without count_moves */
	size_t legal_cap_;
};

#define KIFU_REPLAY_INIT { .variant = -1, .first = -1, .outcome = { KIFU_ONGOING, -1 } }

void kifu_replay_release(struct kifu_replay *rp);

/* Canonical text of ply p (1-based) when the replay kept texts, else NULL. */
const char *kifu_replay_text(const struct kifu_replay *rp, size_t ply);

/*
 * The canonical text of the i-th (0-based) move of format 2's lines and
 * evals in the walk order above, or NULL (no texts kept, the replay is not
 * complete, or past the end): writers then use the text as written.
 */
const char *kifu_replay_xtext(const struct kifu_replay *rp, size_t i);

/* Keep the canonical text of every move in the replay. */
#define KIFU_VALIDATE_TEXT 0x1
/* Do not warn about dates in the future (results that do not depend on the day). */
#define KIFU_VALIDATE_NO_CLOCK 0x2
/* Keep the canonical hash and symmetry of every position (canon, syms). */
#define KIFU_VALIDATE_CANON 0x4
/* Sum the cells each side stood on (cells). */
#define KIFU_VALIDATE_CELLS 0x8
/* Sum the legal moves before each move (legal, legal_plies). */
#define KIFU_VALIDATE_BRANCHING 0x10

/*
 * Checks rec against every rule of RECORDS.md that the reader has not
 * already checked (format, game, variant, date, players, first, moves
 * replayed through the engine, result and termination against the replay),
 * appends what it finds to diags, and puts the diagnostics of this game
 * (from the first one numbered rec->number on) into document order. rp
 * (may be NULL) receives the replay. Returns 0 (valid or not: the record is
 * valid when no error diagnostic of its game was added) or KIFU_ENOMEM.
 */
int kifu_record_validate(struct kifu_replay *rp, struct kifu_diags *diags,
			 const struct kifu_record *rec, unsigned flags, struct kifu_error *err);

#endif
