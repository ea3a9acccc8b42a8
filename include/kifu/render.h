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

#endif
