/*
 * Edit distance and the nearest known name, for the "did you mean" hints of
 * the record reader and the tools (one implementation for both); and the one
 * UTF-8 clip, for quoting input in messages and for chart labels.
 */
#include <stdint.h>
#include <string.h>

#include "kifu/text.h"
#include "util/text_impl.h"

#define NEAR_LEN_MAX 64

size_t kifu_edit_distance(const char *a, const char *b)
{
	size_t d[NEAR_LEN_MAX + 1][NEAR_LEN_MAX + 1];
	size_t n = strlen(a), m = strlen(b), i, j;

	if (n > NEAR_LEN_MAX || m > NEAR_LEN_MAX)
		return SIZE_MAX;
	for (i = 0; i <= n; i++)
		d[i][0] = i;
	for (j = 0; j <= m; j++)
		d[0][j] = j;
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[n][m];
}

void kifu_near_init(struct kifu_near *n, const char *name)
{
	n->name = name ? name : "";
	n->best = NULL;
	n->dist = SIZE_MAX;
	n->ties = 0;
}

void kifu_near_add(struct kifu_near *n, const char *candidate)
{
	size_t d;

	if (!candidate || !strcmp(candidate, n->name))
		return;
	d = kifu_edit_distance(n->name, candidate);
	if (d == SIZE_MAX)
		return; /* a name too long to compare is near nothing */
	if (d < n->dist) {
		n->best = candidate;
		n->dist = d;
		n->ties = 0;
	} else if (d == n->dist && strcmp(candidate, n->best) != 0) {
		n->ties++;
	}
}

const char *kifu_near_best(const struct kifu_near *n)
{
	if (!n->best || n->ties || n->dist > KIFU_NEAR_MAX || n->dist >= strlen(n->name))
		return NULL;
	return n->best;
}

/* ---- Clipping ---- */

static int is_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* The bytes of the first max characters of s (fewer when s ends first). */
static size_t chars_prefix(const char *s, size_t max)
{
	size_t i = 0, chars = 0;

	while (s[i] && chars < max) {
		i++;
		while (is_continuation(s[i]))
			i++;
		chars++;
	}
	return i;
}

const char *kifu_text_clip_(char buf[KIFU_TEXT_CLIP + 1], const char *s, size_t n)
{
	size_t k;

	if (n == SIZE_MAX)
		n = strlen(s);
	if (n <= KIFU_TEXT_CLIP) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		return buf;
	}
	k = KIFU_TEXT_CLIP - 3;
	while (k > 0 && is_continuation(s[k]))
		k--;
	memcpy(buf, s, k);
	memcpy(buf + k, "...", 4);
	return buf;
}

void kifu_text_clip_chars_(char *dst, size_t size, const char *s, size_t max)
{
	size_t i = chars_prefix(s, max), n;

	if (s[i] && i + 4 < size) {
		/* Leave room for the ellipsis (three bytes in UTF-8). */
		i = max ? chars_prefix(s, max - 1) : 0;
		n = i < size - 4 ? i : size - 4;
		memcpy(dst, s, n);
		memcpy(dst + n, "\xe2\x80\xa6", 4);
		return;
	}
	n = i < size - 1 ? i : size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

size_t kifu_text_unseen_(const char *s, unsigned *cp)
{
	const unsigned char *p = (const unsigned char *)s;

	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		*cp = p[1];
		return 2;
	}
	if (p[0] == 0xd8 && p[1] == 0x9c) {
		*cp = 0x061c;
		return 2;
	}
	if (p[0] == 0xe2 && ((p[1] == 0x80 && ((p[2] >= 0x8e && p[2] <= 0x8f) ||
					     (p[2] >= 0xa8 && p[2] <= 0xae))) ||
			     (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))) {
		*cp = 0x2000u + ((p[1] & 0x3fu) << 6) + (p[2] & 0x3fu);
		return 3;
	}
	return 0;
}

size_t kifu_text_width(const char *s, size_t n)
{
	size_t w = n, i = 0, k;
	uint64_t x;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if (!(x & 0x8080808080808080ULL))
			continue;  /* ASCII */
		for (k = i; k < i + 8; k++)
			w -= ((unsigned char)s[k] & 0xc0) == 0x80;
	}
	for (; i < n; i++)
		w -= ((unsigned char)s[i] & 0xc0) == 0x80;
	return w;
}
