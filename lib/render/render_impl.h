/*
 * Private to the replay page (lib/render/render.c): the review's parts of
 * the page (lib/render/render_review.c) that render.c puts in place.
 */
#ifndef KIFU_RENDER_IMPL_H
#define KIFU_RENDER_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"

/* The review's CSS rules (appended to the page's style sheet). */
extern const char kifu_render_review_style_[];

/*
 * The chart of each side's expected score per ply, with its heading and
 * legend: an inline SVG whose columns (data-ply) open that ply.
 */
void kifu_render_review_chart_(struct kifu_buf *b, const struct kifu_record *rec,
			       const struct kifu_replay *rp, const struct kifu_render_review *rv);

/* The mark of ply (1-based) in the move list, with the engine's move and both scores; nothing when unmarked. */
void kifu_render_review_mark_(struct kifu_buf *b, const struct kifu_render_review *rv, size_t ply);

#endif
