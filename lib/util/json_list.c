/*
 * A JSON array of strings read element by element (util/json_list.h): a
 * scan to each element's end, escapes decoded by jansson only for a string
 * that holds one, so that the common move ("e4", "f8>nw 3+2+1 g6") is used
 * where it lies.
 */
#include <string.h>

#include <jansson.h>

#include "util/json_list.h"

#define SPACE(c) ((c) == ' ' || (c) == '\t' || (c) == '\r' || (c) == '\n')

static void skip_space(struct kifu_json_list *l)
{
	while (l->p < l->end && SPACE(*l->p))
		l->p++;
}

int kifu_json_list_open_(struct kifu_json_list *l, const char *json, size_t len)
{
	l->p = json;
	l->end = json + len;
	l->started = 0;
	skip_space(l);
	if (l->p == l->end || *l->p != '[')
		return -1;
	l->p++;
	return 0;
}

int kifu_json_list_next_(struct kifu_json_list *l, struct kifu_json_item *it)
{
	const char *q;

	skip_space(l);
	if (l->p == l->end)
		return -1;
	if (*l->p == ']')
		return 0;
	if (l->started) {
		if (*l->p++ != ',')
			return -1;
		skip_space(l);
		if (l->p == l->end)
			return -1;
	}
	l->started = 1;
	it->escaped = 0;
	if (*l->p == '"') {
		for (q = l->p + 1; q < l->end && *q != '"'; q++)
			if (*q == '\\') {
				it->escaped = 1;
				q++;
			}
		if (q >= l->end)
			return -1;
		it->text = l->p + 1;
		it->len = (size_t)(q - it->text);
		it->is_string = 1;
		l->p = q + 1;
		return 1;
	}
	/* a number, true, false or null: up to the next separator */
	for (q = l->p; q < l->end && *q != ',' && *q != ']' && !SPACE(*q); q++)
		if (*q == '[' || *q == '{' || *q == '"')
			return -1;
	if (q == l->p)
		return -1;
	it->text = l->p;
	it->len = (size_t)(q - l->p);
	it->is_string = 0;
	l->p = q;
	return 1;
}

int kifu_json_item_decode_(char *buf, size_t size, const struct kifu_json_item *it)
{
	json_t *v;
	size_t n;

	if (!it->is_string)
		return -1;
	if (!it->escaped) {
		if (it->len >= size)
			return -1;
		memcpy(buf, it->text, it->len);
		buf[it->len] = '\0';
		return 0;
	}
	/* the quotes are just before and after the element's bytes */
	v = json_loadb(it->text - 1, it->len + 2, JSON_DECODE_ANY, NULL);
	n = json_is_string(v) ? json_string_length(v) : size;
	if (n >= size || strlen(json_string_value(v)) != n) {
		json_decref(v);
		return -1;
	}
	memcpy(buf, json_string_value(v), n + 1);
	json_decref(v);
	return 0;
}
