/*
 * Positions of the values of a JSON text parsed by jansson (json_pos.c),
 * for the apgr reader. Not installed.
 */
#ifndef KIFU_JSON_POS_H
#define KIFU_JSON_POS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "kifu/diag.h"
#include "kifu/record.h"

/* Where a value starts, and where its key does (the value's own place for array items). */
struct json_pos {
	struct kifu_mark key, val;
};

/* Reusable from text to text; start zeroed, release with json_index_release. */
struct json_index {
	struct json_pos *pos;
	size_t npos, cap_pos;
	const void **hkeys;   /* open addressing: json_t* or key string -> index into pos */
	uint32_t *hvals;
	size_t hcap;
};

/*
 * Notes the positions of every value of text (n bytes, starting at `at` in
 * its file), which jansson parsed into root. Returns 0, or -1 when out of
 * memory.
 */
int json_index_build(struct json_index *idx, const char *text, size_t n, struct kifu_mark at,
		     const json_t *root);

/* The position of v (a value of the last root indexed), or NULL (null, true, false). */
const struct json_pos *json_index_find(const struct json_index *idx, const json_t *v);

/* The position of obj's member key (also when its value is null, true or false), or NULL. */
const struct json_pos *json_index_member(const struct json_index *idx, const json_t *obj,
					 const char *key);

void json_index_release(struct json_index *idx);

/*
 * The text kifu keeps for a JSON number ("12", "597.5", "1e+300"): what the
 * apgr reader gives a clock or tag, and what the writer compares with to
 * decide whether a YAML number can be written as a bare JSON number.
 */
void kifu_apgr_number_text_(const json_t *v, char *buf, size_t size);

#endif
