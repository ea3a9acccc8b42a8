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

/*
 * A set of distinct lines, each with its number in order of first
 * appearance, kept here (each NUL-terminated in text): the pictures they
 * came from are gone when the lines are written.
 */
struct lines {
	struct kifu_buf text;
	size_t *off, *len;   /* by number */
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
	size_t *off = realloc(l->off, cap * sizeof(*off)), *len, *slot;

	if (!off)
		return KIFU_ENOMEM;
	l->off = off;
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
		size_t k = line_hash(l->text.data + l->off[i], l->len[i]) % l->nslots;

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

		if (l->len[i] == n && !memcmp(l->text.data + l->off[i], s, n))
			return (long)i;
	}
	l->off[l->n] = l->text.len;
	l->len[l->n] = n;
	kifu_buf_add(&l->text, s, n);
	kifu_buf_putc(&l->text, '\0');
	if (l->text.failed)
		return -1;
	l->slot[k] = ++l->n;
	return (long)(l->n - 1);
}

static void lines_release(struct lines *l)
{
	kifu_buf_release(&l->text);
	free(l->off);
	free(l->len);
	free(l->slot);
}

/* Appends "var LINES = [...];": every line as a JavaScript string. */
static void lines_put(struct kifu_buf *b, const struct lines *l)
{
	size_t i;

	kifu_buf_puts(b, "var LINES = [");
	for (i = 0; i < l->n; i++) {
		kifu_buf_puts(b, i ? ",\n" : "\n");
		kifu_render_js_string_(b, l->text.data + l->off[i]);
	}
	kifu_buf_puts(b, "];\n");
}

int kifu_render_ids_push_(struct kifu_render_ids_ *ids, uint32_t id)
{
	if (ids->n == ids->cap) {
		size_t cap = ids->cap ? ids->cap * 2 : 64;
		uint32_t *v = realloc(ids->v, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		ids->v = v;
		ids->cap = cap;
	}
	ids->v[ids->n++] = id;
	return 0;
}

int kifu_render_ids_copy_(struct kifu_render_ids_ *dst, const struct kifu_render_ids_ *src)
{
	size_t i;

	dst->n = 0;
	for (i = 0; i < src->n; i++)
		if (kifu_render_ids_push_(dst, src->v[i]) < 0)
			return KIFU_ENOMEM;
	return 0;
}

/* The numbers of svg's lines (len bytes split at each newline) into ids. 0 or KIFU_ENOMEM. */
static int lines_of(struct lines *l, struct kifu_render_ids_ *ids, const char *svg, size_t len)
{
	const char *p = svg, *end = svg + len;

	ids->n = 0;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		long k = lines_add(l, p, nl ? (size_t)(nl - p) : (size_t)(end - p));

		if (k < 0 || kifu_render_ids_push_(ids, (uint32_t)k) < 0)
			return KIFU_ENOMEM;
		if (!nl)
			return 0;
		p = nl + 1;
	}
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
	struct lines l;
	struct kifu_render_ids_ ids = { NULL, 0, 0 };
	size_t pre = common_prefix(svg, n), suf = common_suffix(svg, n, pre), i, j;
	int ret = KIFU_ENOMEM;

	memset(&l, 0, sizeof(l));
	kifu_buf_puts(b, "var PRE = ");
	js_string_n(b, svg[0], pre);
	kifu_buf_puts(b, ";\nvar SUF = ");
	kifu_render_js_string_(b, svg[0] + strlen(svg[0]) - suf);
	kifu_buf_puts(b, ";\nvar PLY = [");
	for (i = 0; i < n; i++) {
		if (lines_of(&l, &ids, svg[i] + pre, strlen(svg[i]) - pre - suf) < 0)
			goto out;
		kifu_buf_puts(b, i ? ",\n[" : "\n[");
		for (j = 0; j < ids.n; j++) {
			if (j)
				kifu_buf_putc(b, ',');
			kifu_buf_int(b, ids.v[j]);
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_puts(b, "];\n");
	lines_put(b, &l);
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	lines_release(&l);
	free(ids.v);
	return ret;
}

/* ---- a replay's pictures, each as the change from its parent's ---- */

/*
 * Myers' difference of two lists of line numbers, as the script's splices:
 * each [at, deleted, inserted, ...the numbers inserted], at counted in the
 * list as the splices before it left it. Pictures of neighbouring
 * positions share most lines, in the same order: a handful of edits. Past
 * EDITS_MAX edits, the whole middle is replaced at once.
 */
#define EDITS_MAX 200

struct kifu_render_pics_ {
	struct lines l;
	int *trace;          /* (EDITS_MAX + 1) rows of the furthest x on each diagonal */
	size_t *edits;       /* the edits found, as 2 * x + (1: inserted) ... */
	size_t *at_y;        /* ... at y */
};

int kifu_render_pics_new_(struct kifu_render_pics_ **out)
{
	struct kifu_render_pics_ *p = calloc(1, sizeof(*p));

	if (p) {
		p->trace = malloc((size_t)(EDITS_MAX + 1) * (2 * EDITS_MAX + 3) * sizeof(*p->trace));
		p->edits = malloc(EDITS_MAX * sizeof(*p->edits));
		p->at_y = malloc(EDITS_MAX * sizeof(*p->at_y));
	}
	if (!p || !p->trace || !p->edits || !p->at_y) {
		kifu_render_pics_free_(p);
		return KIFU_ENOMEM;
	}
	*out = p;
	return 0;
}

void kifu_render_pics_free_(struct kifu_render_pics_ *p)
{
	if (!p)
		return;
	lines_release(&p->l);
	free(p->trace);
	free(p->edits);
	free(p->at_y);
	free(p);
}

int kifu_render_pics_ids_(struct kifu_render_pics_ *p, struct kifu_render_ids_ *ids,
			  const char *svg)
{
	return lines_of(&p->l, ids, svg, strlen(svg));
}

void kifu_render_pics_lines_(struct kifu_buf *b, const struct kifu_render_pics_ *p)
{
	lines_put(b, &p->l);
}

static void splice(struct kifu_buf *b, int *first, size_t at, size_t del, const uint32_t *ins,
		   size_t nins)
{
	size_t i;

	if (!*first)
		kifu_buf_putc(b, ',');
	*first = 0;
	kifu_buf_int(b, (long long)at);
	kifu_buf_putc(b, ',');
	kifu_buf_int(b, (long long)del);
	kifu_buf_putc(b, ',');
	kifu_buf_int(b, (long long)nins);
	for (i = 0; i < nins; i++) {
		kifu_buf_putc(b, ',');
		kifu_buf_int(b, ins[i]);
	}
}

/* The edit script from a (n) to c (m), both past their common ends; -1: more than EDITS_MAX edits. */
static int edits_of(struct kifu_render_pics_ *p, const uint32_t *a, long n, const uint32_t *c,
		    long m)
{
	const long w = 2 * EDITS_MAX + 3, off = EDITS_MAX + 1;
	int *v, *prev;
	long d, k, x, y, found = -1;
	int ne = 0;

	for (d = 0; d <= EDITS_MAX && found < 0; d++) {
		v = p->trace + d * w;
		prev = d ? v - w : NULL;
		for (k = -d; k <= d; k += 2) {
			if (d == 0)
				x = 0;
			else if (k == -d || (k != d && prev[off + k - 1] < prev[off + k + 1]))
				x = prev[off + k + 1];
			else
				x = prev[off + k - 1] + 1;
			y = x - k;
			while (x < n && y < m && a[x] == c[y])
				x++, y++;
			v[off + k] = (int)x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
	}
	if (found < 0)
		return -1;
	/* back from the end: each step one edit, found in reverse */
	x = n;
	y = m;
	for (d = found; d > 0; d--) {
		long pk, px;

		prev = p->trace + (d - 1) * w;
		k = x - y;
		if (k == -d || (k != d && prev[off + k - 1] < prev[off + k + 1]))
			pk = k + 1;   /* came down: c[py] inserted */
		else
			pk = k - 1;   /* came right: a[px] deleted */
		px = prev[off + pk];
		p->edits[ne] = (size_t)(2 * px + (pk == k + 1));
		p->at_y[ne] = (size_t)(px - pk);
		ne++;
		x = px;
		y = px - pk;
	}
	return ne;
}

int kifu_render_pics_diff_(struct kifu_buf *b, struct kifu_render_pics_ *p,
			   const struct kifu_render_ids_ *from, const struct kifu_render_ids_ *to)
{
	size_t pre = 0, suf = 0, n, m;
	int ne, i, first = 1;

	while (pre < from->n && pre < to->n && from->v[pre] == to->v[pre])
		pre++;
	while (suf < from->n - pre && suf < to->n - pre &&
	       from->v[from->n - 1 - suf] == to->v[to->n - 1 - suf])
		suf++;
	n = from->n - pre - suf;
	m = to->n - pre - suf;
	kifu_buf_putc(b, '[');
	ne = n && m ? edits_of(p, from->v + pre, (long)n, to->v + pre, (long)m) : -1;
	if (ne < 0) {
		if (n || m)
			splice(b, &first, pre, n, to->v + pre, m);
	} else {
		/* forward: runs of edits that touch make one splice each */
		for (i = ne - 1; i >= 0;) {
			size_t x0 = p->edits[i] / 2, y0 = p->at_y[i], x = x0, y = y0;

			for (; i >= 0 && p->edits[i] / 2 == x && p->at_y[i] == y; i--) {
				if (p->edits[i] & 1)
					y++;
				else
					x++;
			}
			splice(b, &first, pre + y0, x - x0, to->v + pre + y0, y - y0);
		}
	}
	kifu_buf_putc(b, ']');
	return b->failed ? KIFU_ENOMEM : 0;
}
