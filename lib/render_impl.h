/*
 * What the renderers of kifu/render.h share between their files: escaping
 * for HTML, and the engine review's parts of the replay page
 * (lib/render_review.c) that lib/render.c's page puts in place.
 */
#ifndef KIFU_RENDER_IMPL_H
#define KIFU_RENDER_IMPL_H

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/render.h"

/* Appends s escaped for HTML text and attribute values. */
void render_html_text(struct kifu_buf *b, const char *s);

/* The review's CSS rules (appended to the page's style sheet). */
extern const char kifu_render_review_style[];

/*
 * The chart of each side's expected score per ply, with its heading and
 * legend: an inline SVG whose columns (data-ply) open that ply.
 */
void kifu_render_review_chart(struct kifu_buf *b, const struct kifu_record *rec,
			      const struct kifu_replay *rp, const struct kifu_render_review *rv);

/* The mark of ply (1-based) in the move list, with the engine's move and both scores; nothing when unmarked. */
void kifu_render_review_mark(struct kifu_buf *b, const struct kifu_render_review *rv, size_t ply);

#endif
