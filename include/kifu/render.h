/*
 * Renderers of replayed games, for programs that show or publish games
 * (kifu-export, kifu-analyse): JSON with every ply's move, hash and
 * figures; text diagrams; an SVG picture of one position; a self-contained
 * HTML page that replays the game with no network access. Each takes a
 * valid record and its replay made with KIFU_VALIDATE_TEXT, appends to a
 * kifu_buf, and returns 0 or KIFU_ENOMEM. The record formats themselves
 * (yaml, apgr, pgn, csv) are written through kifu/format.h.
 */
#ifndef KIFU_RENDER_H
#define KIFU_RENDER_H

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/replay.h"

/* One JSON object: headers, players, moves, result, termination, and a `plies` array. */
int kifu_render_json(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp);

/*
 * A text header (label first: "game 2 of FILE") and a board diagram after
 * every ply, or only after ply `ply` when it is 0 or more. Meant for a
 * terminal: control characters of the label and the record are escaped.
 */
int kifu_render_text(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const char *label, long ply);

/* A standalone SVG document of the position after ply (0: the start). */
int kifu_render_svg(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply);

/* One HTML page replaying the game, opened at ply `start` (-1: the end). */
int kifu_render_html(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, long start);

struct kifu_ply_review; /* kifu/analyse.h */

/* An engine review of a replayed game, shown on its replay page. */
struct kifu_render_review {
	const struct kifu_ply_review *plies; /* one per ply of the replay, in order */
	const char *best;    /* the engine's move of ply i (0-based) at best + i * KIFU_MOVE_TEXT_MAX */
	const char *engine;  /* what reviewed, for the chart's caption ("mcts:1000, seed 1") */
};

/*
 * The replay page of kifu_render_html with the review (NULL: none): a
 * chart of each side's expected score per ply, whose plies open that ply,
 * and each marked move's mark (?!, ?, ??) in the move list.
 */
int kifu_render_html_review(struct kifu_buf *b, const struct kifu_record *rec,
			    const struct kifu_replay *rp, long start,
			    const struct kifu_render_review *review);

#endif
