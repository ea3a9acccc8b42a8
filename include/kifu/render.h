/*
 * Renderers of replayed games, for programs that show or publish games
 * (kifu-export, kifu-analyse): JSON with every ply's move, hash and
 * figures; text diagrams; an SVG picture of one position; a self-contained
 * HTML page that replays the game with no network access; an engine review
 * (kifu/analyse.h) on that page, as a table, as json or in the record's
 * comments. Each takes a valid record and its replay made with
 * KIFU_VALIDATE_TEXT, appends to a kifu_buf, and returns 0 or KIFU_ENOMEM.
 * The record formats themselves (yaml, apgr, pgn, csv) are written through
 * kifu/format.h.
 */
#ifndef KIFU_RENDER_H
#define KIFU_RENDER_H

#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/replay.h"

struct kifu_render_stored; /* below */

/*
 * One JSON object: headers, players, moves, result, termination, and a
 * `plies` array; for a stored game (stored not NULL) what the store knows
 * of it besides: `novelty_ply` (null when none) and `review`, its stored
 * review as kifu_render_review_json writes it, when there is one.
 */
int kifu_render_json(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const struct kifu_render_stored *stored);

/*
 * A text header (label first: "game 2 of FILE") and a board diagram after
 * every ply, or only after ply `ply` when it is 0 or more. Meant for a
 * terminal: control characters of the label and the record are escaped.
 */
int kifu_render_text(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const char *label, long ply);

/* A standalone SVG document of the position after ply (0: the start). */
int kifu_render_svg(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply);

/*
 * One HTML page replaying the game, opened at ply `start` (-1: the end);
 * for a stored game with a stored review, kifu_render_html_review's page;
 * a stored game's novelty is marked N in the move list.
 */
int kifu_render_html(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, long start,
		     const struct kifu_render_stored *stored);

struct kifu_ply_review; /* kifu/analyse.h */

/* An engine review of a replayed game, shown on its replay page or written on its own. */
struct kifu_render_review {
	const struct kifu_ply_review *plies; /* one per ply of the replay, in order */
	const char *best;    /* the engine's move of ply i (0-based) at best + i * KIFU_MOVE_TEXT_MAX */
	const char *engine;  /* what reviewed, for the chart's caption ("engine:1000, seed 1") */
	const char *spec;    /* the reviewing player's spec ("engine:1000"), for the table and json */
	long playouts;       /* its count, for the json */
	uint64_t seed;
};

/* What the store knows of a stored game beyond its record; NULL: a record read from a file. */
/*
 * What the store knows of a game beside its record, for the json and the
 * replay page; NULL where they take one: a record read from a file.
 */
struct kifu_render_stored {
	const struct kifu_render_review *review; /* kifu_analyse_load's (kifu/analyse.h); NULL: none */
	int has_novelty;          /* the game's novelty (kifu_stats_novelty), else none */
	long novelty_ply;
	long novelty_earlier;     /* the earlier games that reached its position; -1: not known */
	const char *novelty_move;
};

struct kifu_novelty; /* kifu/stats.h */

/* The novelty nov (kifu_stats_novelty) into *out, which points into nov; the review stays. */
void kifu_render_stored_novelty(struct kifu_render_stored *out, const struct kifu_novelty *nov);

/*
 * The engine's move of each ply of rp (plies: its review) in canonical
 * text, KIFU_MOVE_TEXT_MAX bytes apart: the `best` of kifu_render_review
 * and of kifu_analyse_store. *out is the caller's, freed with free().
 */
int kifu_render_review_moves(char **out, const struct kifu_replay *rp,
			     const struct kifu_ply_review *plies);

/*
 * The replay page of kifu_render_html with the review (NULL: none): a
 * chart of each side's expected score per ply, whose plies open that ply,
 * and each marked move's mark (?!, ?, ??) in the move list.
 */
int kifu_render_html_review(struct kifu_buf *b, const struct kifu_record *rec,
			    const struct kifu_replay *rp, long start,
			    const struct kifu_render_review *review,
			    const struct kifu_render_stored *stored);

/*
 * The record (format 1, as kifu_record_write writes it) with each marked
 * move's comment starting with its mark, the engine's move and both
 * scores ("?! best e4 0.61, played 0.48"; a move the solver proved lost
 * adds "loses by force in K plies"). The comments of rec are
 * changed while it is written and restored before this returns.
 */
int kifu_render_review_yaml(struct kifu_buf *b, struct kifu_record *rec,
			    const struct kifu_replay *rp, const struct kifu_render_review *review);

/*
 * One JSON object: the record's members as kifu-export --to json writes
 * them (from "game" to "tags"), the engine's settings ("analysis": engine
 * (the spec), playouts, seed) and a `plies` array of {ply, side, move,
 * expected, best, best_score, played_score, loss, mark, won_in, loses_in}
 * (won_in: the mover's best move proven won in that many plies; loses_in:
 * the played move proven lost in that many plies; else null). No newline
 * at the end.
 */
int kifu_render_review_json(struct kifu_buf *b, const struct kifu_record *rec,
			    const struct kifu_replay *rp, const struct kifu_render_review *review);

/*
 * A table: a heading (label first: "game 2 of FILE"), a line per ply (the
 * expected column says "won in K" or "lost in K" where the solver proved
 * it, the mark "loses by force in K plies" for a proven-lost move), and
 * in a two-sided game each side's mean loss.
 */
int kifu_render_review_text(struct kifu_buf *b, const struct kifu_replay *rp,
			    const struct kifu_render_review *review, const char *label);

#endif
