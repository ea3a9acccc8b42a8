/*
 * Private to the library's HTML pages (render.c's replay, explorer.c's
 * tree, render_review.c's engine review on the replay), defined in
 * lib/render/html.c: escaping for HTML text and script strings, and the
 * compact form of many board pictures in a page.
 */
#ifndef KIFU_RENDER_HTML_H
#define KIFU_RENDER_HTML_H

#include <stddef.h>

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

#endif
