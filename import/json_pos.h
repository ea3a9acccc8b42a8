/*
 * The JSON side of apgr shared by its files: positions of the values of a
 * JSON text parsed by jansson and the text of a JSON number (json_pos.c),
 * and the conversion of one parsed record (apgr_convert.c) that the reader
 * (apgr.c) calls. Not installed.
 */
#ifndef KIFU_JSON_POS_H
#define KIFU_JSON_POS_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "kifu/diag.h"
#include "kifu/record.h"

/* Where a value starts, and where its key does (the value's own place for array items). */
struct kifu_import_json_pos_ {
	struct kifu_mark key, val;
};

/* Reusable from text to text; start zeroed, release with kifu_import_json_index_release_. */
struct kifu_import_json_index_ {
	struct kifu_import_json_pos_ *pos;
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
int kifu_import_json_index_build_(struct kifu_import_json_index_ *idx, const char *text, size_t n,
				  struct kifu_mark at, const json_t *root);

/* The position of v (a value of the last root indexed), or NULL (null, true, false). */
const struct kifu_import_json_pos_ *
kifu_import_json_index_find_(const struct kifu_import_json_index_ *idx, const json_t *v);

/* The position of obj's member key (also when its value is null, true or false), or NULL. */
const struct kifu_import_json_pos_ *
kifu_import_json_index_member_(const struct kifu_import_json_index_ *idx, const json_t *obj,
			       const char *key);

void kifu_import_json_index_release_(struct kifu_import_json_index_ *idx);

/*
 * The text kifu keeps for a JSON number ("12", "597.5", "1e+300"): what the
 * apgr reader gives a clock or tag, and what the writer compares with to
 * decide whether a YAML number can be written as a bare JSON number.
 */
void kifu_apgr_number_text_(const json_t *v, char *buf, size_t size);

/*
 * apgr_convert.c: the record of one element of an apgr file, which jansson
 * parsed into root, converted into rec (numbered and placed at `at`, its
 * start, by the caller), its diagnostics placed through index (built over
 * the element). Returns 0, or KIFU_ENOMEM.
 */
int kifu_import_apgr_convert_(struct kifu_record *rec, struct kifu_diags *diags,
			      const struct kifu_import_json_index_ *index, struct kifu_mark at,
			      const json_t *root);

#endif
