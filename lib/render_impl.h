/*
 * Private to the library's HTML pages (render.c's replay, explorer.c's
 * tree): escaping for HTML text and script strings, and the compact form
 * of many board pictures in a page.
 */
#ifndef KIFU_RENDER_IMPL_H
#define KIFU_RENDER_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"

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

#endif
