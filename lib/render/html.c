/*
 * The HTML helpers of the library's pages (render/html.h): the replay page
 * (lib/render/render.c), the engine review on it (lib/render/render_review.c)
 * and the opening explorer (lib/render/explorer.c) escape their text and
 * script strings here, and put their many board pictures in the compact
 * form their scripts expand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/error.h"
#include "render/html.h"
#include "util/hash.h"
#include "util/text_impl.h"

/*
 * Appends s as a single-quoted JavaScript string literal for a <script>
 * element ("</" and "<!" broken up, so that the HTML parser never ends the
 * script early). Single quotes, because the pictures are full of double
 * ones and hold none of their own.
 */
void kifu_render_js_string_(struct kifu_buf *b, const char *s)
{
	const char *p;

	kifu_buf_putc(b, '\'');
	for (p = s; *p; p++) {
		if (*p == '<' && (p[1] == '/' || p[1] == '!'))
			kifu_buf_puts(b, "\\x3c");
		else if (*p == '\'' || *p == '\\')
			kifu_buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			kifu_buf_puts(b, "\\n");
		else if ((unsigned char)*p < 0x20)
			kifu_buf_printf(b, "\\u%04x", (unsigned char)*p);
		else
			kifu_buf_putc(b, *p);
	}
	kifu_buf_putc(b, '\'');
}

/*
 * s escaped for HTML; with unseen, the characters that would reorder or hide
 * text (bidirectional controls, C1 controls: kifu_text_unseen_) shown as
 * \uNNNN, as a terminal shows them (kifu_buf_escaped).
 */
static void html_escape(struct kifu_buf *b, const char *s, int unseen)
{
	unsigned cp;
	size_t n;

	for (; *s; s++) {
		if (unseen && (n = kifu_text_unseen_(s, &cp)) > 0) {
			kifu_buf_printf(b, "\\u%04x", cp);
			s += n - 1;
			continue;
		}
		switch (*s) {
		case '&': kifu_buf_puts(b, "&amp;"); break;
		case '<': kifu_buf_puts(b, "&lt;"); break;
		case '>': kifu_buf_puts(b, "&gt;"); break;
		case '"': kifu_buf_puts(b, "&quot;"); break;
		case '\'': kifu_buf_puts(b, "&#39;"); break;
		default: kifu_buf_putc(b, *s); break;
		}
	}
}

void kifu_render_html_text_(struct kifu_buf *b, const char *s)
{
	html_escape(b, s, 1);
}

/* A form sends its fields back: their characters as they are (in a field they reorder nothing else). */
void kifu_render_html_value_(struct kifu_buf *b, const char *s)
{
	html_escape(b, s, 0);
}

/* ---- many pictures in a page ---- */

static size_t common_prefix(char **s, size_t n)
{
	size_t len = strlen(s[0]), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && s[i][k] == s[0][k]; k++)
			;
		len = k;
	}
	/* Cut at a tag boundary, so that no ply's part starts inside a tag. */
	while (len > 0 && s[0][len - 1] != '>')
		len--;
	return len;
}

static size_t common_suffix(char **s, size_t n, size_t prefix)
{
	size_t len = strlen(s[0]) - prefix, i, k;

	for (i = 1; i < n; i++) {
		size_t a = strlen(s[0]), c = strlen(s[i]);
		size_t max = c - prefix < len ? c - prefix : len;

		for (k = 0; k < max && s[i][c - 1 - k] == s[0][a - 1 - k]; k++)
			;
		len = k;
	}
	while (len > 0 && s[0][strlen(s[0]) - len] != '<')
		len--;
	return len;
}

/* A set of distinct lines, each with its number in order of first appearance. */
struct lines {
	const char **v;      /* by number; pointers into the pictures */
	size_t *len;
	size_t n, cap;
	size_t *slot;        /* open addressing: 1 + number, 0 empty */
	size_t nslots;
};

static uint64_t line_hash(const char *s, size_t n)
{
	return kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, s, n);
}

static int lines_grow(struct lines *l)
{
	size_t cap = l->cap ? l->cap * 2 : 256, i;
	const char **v = realloc(l->v, cap * sizeof(*v));
	size_t *len, *slot;

	if (!v)
		return KIFU_ENOMEM;
	l->v = v;
	len = realloc(l->len, cap * sizeof(*len));
	if (!len)
		return KIFU_ENOMEM;
	l->len = len;
	slot = calloc(cap * 2, sizeof(*slot));
	if (!slot)
		return KIFU_ENOMEM;
	free(l->slot);
	l->slot = slot;
	l->nslots = cap * 2;
	l->cap = cap;
	for (i = 0; i < l->n; i++) {
		size_t k = line_hash(l->v[i], l->len[i]) % l->nslots;

		while (l->slot[k])
			k = (k + 1) % l->nslots;
		l->slot[k] = i + 1;
	}
	return 0;
}

/* The number of line s (n bytes), added when new; -1 when out of memory. */
static long lines_add(struct lines *l, const char *s, size_t n)
{
	size_t k;

	if (l->n == l->cap && lines_grow(l) < 0)
		return -1;
	for (k = line_hash(s, n) % l->nslots; l->slot[k]; k = (k + 1) % l->nslots) {
		size_t i = l->slot[k] - 1;

		if (l->len[i] == n && !memcmp(l->v[i], s, n))
			return (long)i;
	}
	l->v[l->n] = s;
	l->len[l->n] = n;
	l->slot[k] = ++l->n;
	return (long)(l->n - 1);
}

static void lines_release(struct lines *l)
{
	free(l->v);
	free(l->len);
	free(l->slot);
}

/* Appends bytes s..s+n as a JavaScript string. */
static void js_string_n(struct kifu_buf *b, const char *s, size_t n)
{
	char *copy = malloc(n + 1);

	if (!copy) {
		b->failed = 1;
		return;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	kifu_render_js_string_(b, copy);
	free(copy);
}

int kifu_render_pictures_(struct kifu_buf *b, char **svg, size_t n)
{
	struct lines l = { NULL, NULL, 0, 0, NULL, 0 };
	size_t pre = common_prefix(svg, n), suf = common_suffix(svg, n, pre), i, j;
	int ret = KIFU_ENOMEM;

	kifu_buf_puts(b, "var PRE = ");
	js_string_n(b, svg[0], pre);
	kifu_buf_puts(b, ";\nvar SUF = ");
	kifu_render_js_string_(b, svg[0] + strlen(svg[0]) - suf);
	kifu_buf_puts(b, ";\nvar PLY = [");
	for (i = 0; i < n; i++) {
		const char *p = svg[i] + pre, *end = svg[i] + strlen(svg[i]) - suf;

		kifu_buf_puts(b, i ? ",\n[" : "\n[");
		for (j = 0;; j++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			long k = lines_add(&l, p, len);

			if (k < 0)
				goto out;
			kifu_buf_printf(b, j ? ",%ld" : "%ld", k);
			if (!nl)
				break;
			p = nl + 1;
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_puts(b, "];\nvar LINES = [");
	for (i = 0; i < l.n; i++) {
		kifu_buf_puts(b, i ? ",\n" : "\n");
		js_string_n(b, l.v[i], l.len[i]);
	}
	kifu_buf_puts(b, "];\n");
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	lines_release(&l);
	return ret;
}
