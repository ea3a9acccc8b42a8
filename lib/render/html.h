/*
 * Private to the library's HTML pages (render.c's replay, explorer.c's
 * tree, render_review.c's engine review on the replay), defined in
 * lib/render/html.c: escaping for HTML text and script strings, and the
 * compact form of many board pictures in a page.
 */
#ifndef KIFU_RENDER_HTML_H
#define KIFU_RENDER_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"

/*
 * Appends s escaped for HTML text and attribute values, the characters that
 * would reorder or hide text shown as \uNNNN (as on a terminal).
 */
void kifu_render_html_text_(struct kifu_buf *b, const char *s);

/* Appends s escaped for an attribute a form sends back: its characters as they are. */
void kifu_render_html_value_(struct kifu_buf *b, const char *s);

/* Appends s as a single-quoted JavaScript string literal safe inside a <script> element. */
void kifu_render_js_string_(struct kifu_buf *b, const char *s);

/*
 * Appends the script variables PRE, SUF, PLY and LINES: n pictures
 * (svg[0..n-1], n >= 1) compacted, picture i being
 * PRE + PLY[i].map(k => LINES[k]).join("\n") + SUF. Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_render_pictures_(struct kifu_buf *b, char **svg, size_t n);

/*
 * The replay's pictures as changes (lib/render/render_page.c): every
 * distinct line of the pictures numbered once, a picture being the list of
 * its lines' numbers, and each picture sent as the splices that make it
 * from its parent's (the position before its move): a few numbers a
 * position, whatever the number of positions.
 */
struct kifu_render_ids_ {
	uint32_t *v;
	size_t n, cap;
};

int kifu_render_ids_push_(struct kifu_render_ids_ *ids, uint32_t id);
/* dst (its own list, kept) made a copy of src. 0 or KIFU_ENOMEM. */
int kifu_render_ids_copy_(struct kifu_render_ids_ *dst, const struct kifu_render_ids_ *src);

struct kifu_render_pics_;

int kifu_render_pics_new_(struct kifu_render_pics_ **out);
void kifu_render_pics_free_(struct kifu_render_pics_ *p);
/* The numbers of svg's lines (split at each newline, the new ones numbered) into ids. 0 or KIFU_ENOMEM. */
int kifu_render_pics_ids_(struct kifu_render_pics_ *p, struct kifu_render_ids_ *ids,
			  const char *svg);
/*
 * Appends the splices that make list to from list from, as a JavaScript
 * array [at, deleted, inserted, ...the inserted numbers, ...] (at counted in
 * the list as the splices before it left it). 0 or KIFU_ENOMEM.
 */
int kifu_render_pics_diff_(struct kifu_buf *b, struct kifu_render_pics_ *p,
			   const struct kifu_render_ids_ *from, const struct kifu_render_ids_ *to);
/* Appends "var LINES = [...];": the numbered lines as JavaScript strings. */
void kifu_render_pics_lines_(struct kifu_buf *b, const struct kifu_render_pics_ *p);

#endif
