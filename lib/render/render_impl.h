/*
 * Private to the library's HTML pages (render.c's replay, explorer.c's
 * tree, render_review.c's engine review on the replay): escaping for HTML
 * text and script strings, the compact form of many board pictures in a
 * page, and the review's parts of the replay page that render.c puts in
 * place.
 */
#ifndef KIFU_RENDER_IMPL_H
#define KIFU_RENDER_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"

/* Appends s escaped for HTML text and attribute values. */
void render_html_text(struct kifu_buf *b, const char *s);

/* Appends s as a single-quoted JavaScript string literal safe inside a <script> element. */
void render_js_string(struct kifu_buf *b, const char *s);

/*
 * Appends the script variables PRE, SUF, PLY and LINES: n pictures
 * (svg[0..n-1], n >= 1) compacted, picture i being
 * PRE + PLY[i].map(k => LINES[k]).join("\n") + SUF. Returns 0 or
 * KIFU_ENOMEM.
 */
int render_pictures(struct kifu_buf *b, char **svg, size_t n);

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
