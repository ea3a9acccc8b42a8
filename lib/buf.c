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

static int buf_grow(struct kifu_buf *b, size_t extra)
{
	size_t want, cap;
	char *p;

	if (b->failed)
		return KIFU_ENOMEM;
	if (extra > SIZE_MAX - b->len - 1)
		goto fail;
	want = b->len + extra + 1;
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

int kifu_buf_add(struct kifu_buf *b, const char *s, size_t n)
{
	if (buf_grow(b, n) < 0)
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

int kifu_buf_putc(struct kifu_buf *b, char c)
{
	return kifu_buf_add(b, &c, 1);
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
		b->failed = 1;
		return KIFU_ENOMEM;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
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
