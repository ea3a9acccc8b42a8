/*
 * A growable, always NUL-terminated text buffer. An allocation failure is
 * remembered, so that a long run of appends needs one check at the end.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "util/text_impl.h"

static int buf_grow(struct kifu_buf *b, size_t extra)
{
	size_t want, cap;
	char *p;

	if (b->failed)
		return KIFU_ENOMEM;
	if (extra > SIZE_MAX - b->len - 1)
		goto fail;
	want = b->len + extra + 1;
	if (b->max && want > b->max + 1) {
		b->failed = KIFU_BUF_FULL;
		return KIFU_ENOMEM;
	}
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap > SIZE_MAX / 2 ? want : cap * 2;
	p = realloc(b->data, cap);
	if (!p)
		goto fail;
	b->data = p;
	b->cap = cap;
	return 0;
fail:
	b->failed = 1;
	return KIFU_ENOMEM;
}

/* Whether n more bytes (and the NUL) fit as it is: the common case, without buf_grow. */
static int fits(const struct kifu_buf *b, size_t n)
{
	return !b->failed && n < b->cap - b->len && (!b->max || b->len + n <= b->max);
}

int kifu_buf_add(struct kifu_buf *b, const char *s, size_t n)
{
	if (!fits(b, n) && buf_grow(b, n) < 0)
		return KIFU_ENOMEM;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int kifu_buf_puts(struct kifu_buf *b, const char *s)
{
	return kifu_buf_add(b, s, strlen(s));
}

int kifu_buf_reserve(struct kifu_buf *b, size_t n)
{
	return fits(b, n) ? 0 : buf_grow(b, n);
}

int kifu_buf_putc(struct kifu_buf *b, char c)
{
	if (!fits(b, 1))
		return kifu_buf_add(b, &c, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
	return 0;
}

int kifu_buf_int(struct kifu_buf *b, long long v)
{
	char text[KIFU_TEXT_INT_SIZE];

	return kifu_buf_add(b, text, kifu_text_int_(text, v));
}

int kifu_buf_printf(struct kifu_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return KIFU_ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_grow(b, (size_t)n) < 0) {
		if (!b->failed)
			b->failed = 1;
		return KIFU_ENOMEM;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

int kifu_buf_escaped(struct kifu_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	size_t n;

	for (; *p; p++) {
		/* a run of what is shown as it is (printable ASCII), in one copy */
		const unsigned char *run = p;

		while (*p >= 0x20 && *p < 0x7f)
			p++;
		if (p != run)
			kifu_buf_add(b, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p == '\n')
			kifu_buf_puts(b, "\\n");
		else if (*p == '\t')
			kifu_buf_puts(b, "\\t");
		else if (*p == '\r')
			kifu_buf_puts(b, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			kifu_buf_printf(b, "\\x%02x", *p);
		else if ((n = kifu_text_unseen_((const char *)p, &cp)) > 0) {
			/* also the bidirectional controls, which reorder what follows */
			kifu_buf_printf(b, "\\u%04x", cp);
			p += n - 1;
		} else
			kifu_buf_putc(b, (char)*p);
	}
	return b->failed ? KIFU_ENOMEM : 0;
}

int kifu_buf_json_string(struct kifu_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	kifu_buf_putc(b, '"');
	while (*p) {
		unsigned char c;
		const unsigned char *run = p;
		int n, i;
		unsigned unseen;
		size_t k;

		/* a run of printable ASCII but the quote and the backslash, in one copy */
		while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
			p++;
		if (p != run)
			kifu_buf_add(b, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		c = *p;
		n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			: (c & 0xf8) == 0xf0 ? 4 : 0;

		if (c == '"' || c == '\\') {
			kifu_buf_putc(b, '\\');
			kifu_buf_putc(b, (char)c);
		} else if (c == '\n') {
			kifu_buf_puts(b, "\\n");
		} else if (c == '\t') {
			kifu_buf_puts(b, "\\t");
		} else if (c == '\r') {
			kifu_buf_puts(b, "\\r");
		} else if (c < 0x20 || c == 0x7f) {
			kifu_buf_printf(b, "\\u%04x", c);
		} else if ((k = kifu_text_unseen_((const char *)p, &unseen)) > 0) {
			/* the same text, seen as escapes where a raw view shows it (a browser's) */
			kifu_buf_printf(b, "\\u%04x", unseen);
			p += k;
			continue;
		} else if (n == 1) {
			kifu_buf_putc(b, (char)c);
		} else {
			unsigned long cp = n == 2 ? c & 0x1fu : n == 3 ? c & 0x0fu : c & 0x07u;

			for (i = 1; n && i < n; i++) {
				if ((p[i] & 0xc0) != 0x80)
					n = 0;
				else
					cp = cp << 6 | (p[i] & 0x3f);
			}
			if (n && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
				  (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
				  (cp >= 0xd800 && cp <= 0xdfff)))
				n = 0;
			if (!n) {
				kifu_buf_puts(b, "\\ufffd");
				p++;
				continue;
			}
			kifu_buf_add(b, (const char *)p, (size_t)n);
			p += n;
			continue;
		}
		p++;
	}
	kifu_buf_putc(b, '"');
	return b->failed ? KIFU_ENOMEM : 0;
}

void kifu_buf_reset(struct kifu_buf *b)
{
	b->len = 0;
	b->failed = 0;
	if (b->data)
		b->data[0] = '\0';
}

void kifu_buf_release(struct kifu_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

char *kifu_buf_detach(struct kifu_buf *b)
{
	char *p;

	if (b->failed) {
		kifu_buf_release(b);
		return NULL;
	}
	if (!b->data && buf_grow(b, 0) < 0)
		return NULL;
	b->data[b->len] = '\0';
	p = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void kifu_buf_detached_free(char *data)
{
	free(data);
}

int kifu_buf_csv_guarded(int c)
{
	return c && strchr(KIFU_CSV_GUARDED, c) != NULL;
}

void kifu_buf_url_part(struct kifu_buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~')
			kifu_buf_putc(b, (char)c);
		else
			kifu_buf_printf(b, "%%%02X", c);
	}
}

int kifu_buf_csv_field(struct kifu_buf *b, const char *s)
{
	size_t n = strlen(s);
	int guard = kifu_buf_csv_guarded((unsigned char)s[0]);

	if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		/* a spreadsheet would run it as a formula: INTEROP.md csv */
		if (guard)
			kifu_buf_putc(b, '\'');
		return kifu_buf_add(b, s, n);
	}
	kifu_buf_putc(b, '"');
	if (guard)
		kifu_buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '"')
			kifu_buf_putc(b, '"');
		kifu_buf_putc(b, *s);
	}
	return kifu_buf_putc(b, '"');
}
