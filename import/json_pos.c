/*
 * Where each value of a JSON text starts. jansson parses but keeps no
 * positions, so after it has accepted a text (well-formed by then) a small
 * scan walks the same text and notes where every value and its key start,
 * in document order; jansson keeps an object's keys in that order too, so
 * walking the parsed tree alongside pairs each json_t with its place, kept
 * in an open-addressing map from the json_t's address. Used by the apgr
 * reader for the line and column of every diagnostic. Also the text kifu
 * keeps for a JSON number, which the apgr reader and writer share.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_pos.h"

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

struct scan {
	const char *s;
	size_t i, n;
	struct kifu_mark at;
	struct kifu_import_json_index_ *a;
	int failed;
};

static void sc_adv(struct scan *s)
{
	unsigned char c = (unsigned char)s->s[s->i++];

	if (c == '\n')
		s->at.line++, s->at.col = 1;
	else if ((c & 0xc0) != 0x80)
		s->at.col++;
}

static void sc_ws(struct scan *s)
{
	while (s->i < s->n && is_ws((unsigned char)s->s[s->i]))
		sc_adv(s);
}

static void sc_string(struct scan *s)
{
	sc_adv(s);
	while (s->i < s->n && s->s[s->i] != '"') {
		if (s->s[s->i] == '\\')
			sc_adv(s);
		if (s->i < s->n)
			sc_adv(s);
	}
	if (s->i < s->n)
		sc_adv(s);
}

static void sc_value(struct scan *s, struct kifu_mark key)
{
	struct kifu_import_json_index_ *a = s->a;
	char c;

	sc_ws(s);
	if (s->i >= s->n)
		return;
	if (a->npos == a->cap_pos) {
		size_t cap = a->cap_pos ? a->cap_pos * 2 : 256;
		struct kifu_import_json_pos_ *p = realloc(a->pos, cap * sizeof(*p));

		if (!p) {
			s->failed = 1;
			return;
		}
		a->pos = p;
		a->cap_pos = cap;
	}
	a->pos[a->npos].key = key;
	a->pos[a->npos++].val = s->at;
	c = s->s[s->i];
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';

		sc_adv(s);
		sc_ws(s);
		while (s->i < s->n && s->s[s->i] != close) {
			struct kifu_mark k = s->at;

			if (c == '{') {
				sc_string(s);
				sc_ws(s);
				if (s->i < s->n)
					sc_adv(s); /* ':' */
			}
			sc_value(s, k);
			sc_ws(s);
			if (s->i < s->n && s->s[s->i] == ',')
				sc_adv(s);
			sc_ws(s);
		}
		if (s->i < s->n)
			sc_adv(s);
	} else if (c == '"') {
		sc_string(s);
	} else {
		while (s->i < s->n && !is_ws((unsigned char)s->s[s->i]) &&
		       !strchr(",]}", s->s[s->i]))
			sc_adv(s);
	}
}

static size_t hslot(const struct kifu_import_json_index_ *a, const void *v)
{
	uintptr_t h = (uintptr_t)v;

	h ^= h >> 17;
	h *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(h ^ (h >> 29)) & (a->hcap - 1);
}

/* Pairs every json_t with its position, in the scan's (document) order. */
static void put(struct kifu_import_json_index_ *a, const void *p, size_t idx)
{
	size_t i;

	for (i = hslot(a, p); a->hkeys[i]; i = (i + 1) & (a->hcap - 1))
		;
	a->hkeys[i] = p;
	a->hvals[i] = (uint32_t)idx;
}

/*
 * Pairs every json_t, in the scan's (document) order, with its position;
 * a member's key string (jansson's own copy, stable while the tree lives)
 * too, so that members whose value is a shared singleton (null, true,
 * false) can be found through their key.
 */
static void index_values(struct kifu_import_json_index_ *a, const json_t *v, size_t *k)
{
	size_t idx = (*k)++, i;

	if (!json_is_null(v) && !json_is_boolean(v) && idx < a->npos)
		put(a, v, idx);
	if (json_is_object(v)) {
		const char *key;
		json_t *x;

		json_object_foreach((json_t *)v, key, x) {
			if (*k < a->npos)
				put(a, key, *k);
			index_values(a, x, k);
		}
	} else if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++)
			index_values(a, json_array_get(v, i), k);
	}
}

int kifu_import_json_index_build_(struct kifu_import_json_index_ *a, const char *text, size_t n,
				  struct kifu_mark at, const json_t *root)
{
	struct scan s = { text, 0, n, at, a, 0 };
	size_t k = 0, cap = 16;

	a->npos = 0;
	sc_value(&s, at);
	if (s.failed)
		return -1;
	while (cap < a->npos * 4)
		cap *= 2;
	if (cap > a->hcap) {
		free(a->hkeys);
		free(a->hvals);
		a->hkeys = malloc(cap * sizeof(*a->hkeys));
		a->hvals = malloc(cap * sizeof(*a->hvals));
		if (!a->hkeys || !a->hvals) {
			a->hcap = 0;
			return -1;
		}
		a->hcap = cap;
	}
	memset(a->hkeys, 0, a->hcap * sizeof(*a->hkeys));
	index_values(a, root, &k);
	return 0;
}

static const struct kifu_import_json_pos_ *find(const struct kifu_import_json_index_ *a,
						const void *p)
{
	size_t i;

	if (!p || !a->hcap)
		return NULL;
	for (i = hslot(a, p); a->hkeys[i]; i = (i + 1) & (a->hcap - 1))
		if (a->hkeys[i] == p)
			return &a->pos[a->hvals[i]];
	return NULL;
}

const struct kifu_import_json_pos_ *
kifu_import_json_index_find_(const struct kifu_import_json_index_ *a, const json_t *v)
{
	return find(a, v);
}

const struct kifu_import_json_pos_ *
kifu_import_json_index_member_(const struct kifu_import_json_index_ *a, const json_t *obj,
			       const char *key)
{
	void *it = json_is_object(obj) ? json_object_iter_at((json_t *)obj, key) : NULL;

	return it ? find(a, json_object_iter_key(it)) : NULL;
}

void kifu_import_json_index_release_(struct kifu_import_json_index_ *a)
{
	free(a->pos);
	free(a->hkeys);
	free(a->hvals);
	memset(a, 0, sizeof(*a));
}

/* ---- Numbers: the text of the reader and of the writer's comparison ---- */

void kifu_apgr_number_text_(const json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v)) {
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else {
		double d = json_real_value(v);

		snprintf(buf, size, "%.15g", d);
		if (strtod(buf, NULL) != d)
			snprintf(buf, size, "%.17g", d);
		if (!strpbrk(buf, ".eEn"))
			strcat(buf, ".0");
	}
}
