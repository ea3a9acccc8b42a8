/*
 * apgr: Abstract Play's JSON game records, schema "AP Game Record" 1-0-0
 * (INTEROP.md "apgr", formats/apgr.md). A file holds one record or an array
 * of them. JSON is parsed by jansson, one record at a time: a small lexical
 * scan splits the top-level array into its elements (strings and nesting
 * only), so that memory stays flat however long the array is, and each
 * element goes to json_loadb. jansson keeps no positions of values, so a
 * second scan over the element (well-formed by then) notes where each value
 * and key starts, in document order, which is jansson's order of keys too;
 * every diagnostic and record mark comes from there or from jansson's error
 * position, both moved by the element's place in the file. The `kifu`
 * header object carries what the schema cannot, so kifu -> apgr -> kifu is
 * lossless; records from elsewhere import from the standard fields alone.
 * This file scans the input into elements; apgr_convert.c turns each parsed
 * element into a record.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "import_impl.h"
#include "json_pos.h"

/* ---- Splitting the input into records ---- */

struct apgr {
	struct kifu_import_in_ in;
	const struct kifu_source *src;
	int started, array, ended, games, elements;
	struct kifu_import_text_ el; /* the element being gathered */
	struct kifu_import_json_index_
		index; /* where the values of the element being converted start */
};

static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int skip_ws(struct apgr *a)
{
	int c;

	while (is_ws(c = kifu_import_peek_(&a->in)))
		kifu_import_getc_(&a->in);
	return c;
}

/*
 * Gathers one element (a value at depth 0) into a->el: a balanced {...} or
 * [...] with strings skipped, or a scalar up to a delimiter. Returns 0, or
 * 1 when the input ended inside it, or -2 when it was too deep or too large
 * (then it is skipped to its end and *why says which).
 */
static int gather(struct apgr *a, const char **why)
{
	long depth = 0;
	int c, in_str = 0, esc = 0, skip = 0;

	kifu_import_text_reset_(&a->el);
	*why = NULL;
	for (;;) {
		c = kifu_import_peek_(&a->in);
		if (c < 0)
			return skip ? -2 : 1;
		if (!in_str && depth == 0 && (c == ',' || c == ']' || is_ws(c)) && a->el.n)
			return skip ? -2 : 0;
		kifu_import_getc_(&a->in);
		if (!skip) {
			if (a->el.n + 1 > (size_t)KIFU_RECORD_MAX_TEXT) {
				skip = 1;
				*why = "size";
			} else {
				char ch = (char)c;

				/* kifu_import_text_ keeps one scalar's worth: grow by hand for whole records */
				if (a->el.n + 2 > a->el.cap) {
					size_t cap = a->el.cap ? a->el.cap * 2 : 4096;
					char *p = realloc(a->el.s, cap);

					if (!p) {
						a->el.failed = 1;
						return -3;
					}
					a->el.s = p;
					a->el.cap = cap;
				}
				a->el.s[a->el.n++] = ch;
				a->el.s[a->el.n] = '\0';
			}
		}
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			if (!in_str && depth == 0)
				return skip ? -2 : 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			if (++depth > KIFU_RECORD_MAX_DEPTH && !skip) {
				skip = 1;
				*why = "depth";
			}
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return skip ? -2 : 0;
		}
	}
}

/* ---- The reader ---- */

static int apgr_open(void **state, const struct kifu_source *src, struct kifu_error *err)
{
	struct apgr *a = calloc(1, sizeof(*a));

	*state = NULL;
	if (!a)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", src->name);
	kifu_import_in_init_(&a->in, src);
	a->src = src;
	*state = a;
	return 0;
}

static void apgr_close(void *state)
{
	struct apgr *a = state;

	if (!a)
		return;
	free(a->el.s);
	kifu_import_json_index_release_(&a->index);
	free(a);
}

/* A record that only carries a diagnostic about the file's structure. */
static int structural(struct kifu_record **out, struct kifu_diags *diags, struct apgr *a,
		      struct kifu_mark at, const char *msg, struct kifu_error *err)
{
	struct kifu_record *rec;

	a->ended = 1;
	if (kifu_record_new(&rec, err) < 0)
		return KIFU_ENOMEM;
	rec->number = ++a->games;
	rec->at = at;
	rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
	if (a->in.problem)
		kifu_import_bad_input_(diags, rec->number, &a->in);
	else if (kifu_diags_add(diags, KIFU_DIAG_ERROR, rec->number, 0, at, "%s", msg) < 0) {
		kifu_record_free(rec);
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", a->src->name);
	}
	*out = rec;
	return 1;
}

static int io_failure(struct apgr *a, struct kifu_error *err)
{
	a->ended = 1;
	*err = a->in.error;
	return a->in.code;
}

static int apgr_next(struct kifu_record **out, struct kifu_diags *diags, void *state,
		     struct kifu_error *err)
{
	struct apgr *a = state;
	struct kifu_record *rec = NULL;
	struct kifu_mark at;
	json_error_t jerr;
	json_t *root;
	const char *why;
	int c, g, ret;

	*out = NULL;
	if (a->ended)
		return 0;
	c = skip_ws(a);
	if (c == IMP_ERR)
		return io_failure(a, err);
	if (!a->started) {
		a->started = 1;
		if (c == IMP_EOF) {
			a->ended = 1;
			return 0;
		}
		if (c == '[') {
			a->array = 1;
			kifu_import_getc_(&a->in);
			c = skip_ws(a);
			if (c == ']') {
				kifu_import_getc_(&a->in);
				c = skip_ws(a);
				if (c == IMP_EOF) {
					a->ended = 1;
					return 0;
				}
				return structural(out, diags, a, kifu_import_at_(&a->in),
						  "invalid JSON: end of file expected after ']'",
						  err);
			}
		}
	} else if (!a->array) {
		if (c == IMP_EOF) {
			a->ended = 1;
			return 0;
		}
		return structural(out, diags, a, kifu_import_at_(&a->in),
				  "invalid JSON: end of file expected after the record", err);
	} else {
		if (c == ']') {
			kifu_import_getc_(&a->in);
			c = skip_ws(a);
			if (c == IMP_EOF) {
				a->ended = 1;
				return 0;
			}
			if (c == IMP_ERR)
				return io_failure(a, err);
			return structural(out, diags, a, kifu_import_at_(&a->in),
					  "invalid JSON: end of file expected after ']'", err);
		}
		if (c != ',')
			return structural(
				out, diags, a, kifu_import_at_(&a->in),
				c < 0 ? "invalid JSON: the array has no closing ']'"
				      : "invalid JSON: expected ',' or ']' after a record",
				err);
		kifu_import_getc_(&a->in);
		c = skip_ws(a);
		if (c == ']' || c == ',')
			return structural(out, diags, a, kifu_import_at_(&a->in),
					  "invalid JSON: expected a record after ','", err);
	}
	if (c == IMP_ERR)
		return io_failure(a, err);
	at = kifu_import_at_(&a->in);
	g = gather(a, &why);
	if (g == -3 || a->in.code) {
		if (a->in.code)
			return io_failure(a, err);
		a->ended = 1;
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", a->src->name);
	}
	if (a->in.problem)
		return structural(out, diags, a, at, "", err);
	if (kifu_record_new(&rec, err) < 0)
		return KIFU_ENOMEM;
	rec->number = ++a->games;
	rec->at = at;
	*out = rec;
	if (g == -2) {
		rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
		if (!strcmp(why, "depth"))
			ret = kifu_diags_add(diags, KIFU_DIAG_ERROR, rec->number, 0, at,
					     "nesting deeper than %d levels", KIFU_RECORD_MAX_DEPTH);
		else
			ret = kifu_diags_add(diags, KIFU_DIAG_ERROR, rec->number, 0, at,
					     "the record holds more than %d MiB of text",
					     KIFU_RECORD_MAX_TEXT >> 20);
		if (g == -2 && kifu_import_peek_(&a->in) < 0)
			a->ended = 1;
		return ret < 0 ? kifu_error_set(err, KIFU_ENOMEM, "reading: out of memory") : 1;
	}
	root = json_loadb(a->el.s, a->el.n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!root) {
		struct kifu_mark m = at;

		if (jerr.line > 1) {
			m.line = at.line + jerr.line - 1;
			m.col = jerr.column > 0 ? jerr.column : 1;
		} else {
			m.col = at.col + (jerr.column > 0 ? jerr.column - 1 : 0);
		}
		rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
		if (g == 1)
			a->ended = 1;
		if (kifu_diags_add(diags, KIFU_DIAG_ERROR, rec->number, 0, m, "invalid JSON: %s",
				   jerr.text) < 0)
			return kifu_error_set(err, KIFU_ENOMEM, "reading: out of memory");
		return 1;
	}
	{
		if (kifu_import_json_index_build_(&a->index, a->el.s, a->el.n, at, root) < 0)
			ret = KIFU_ENOMEM;
		else
			ret = kifu_import_apgr_convert_(rec, diags, &a->index, at, root);
		json_decref(root);
		if (ret < 0 || diags->failed) {
			kifu_record_free(rec);
			*out = NULL;
			a->ended = 1;
			return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory",
					      a->src->name);
		}
	}
	return 1;
}

static int apgr_sniff(const char *head, size_t n)
{
	size_t i = 0;

	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && is_ws((unsigned char)head[i]))
		i++;
	return i < n && (head[i] == '{' || head[i] == '[');
}

const struct kifu_format kifu_format_apgr_ = {
	.name = "apgr",
	.description = "Abstract Play JSON game records (AP Game Record 1-0-0)",
	.suffixes = (const char *const[]){ ".json", NULL },
	.sniff = apgr_sniff,
	.open = apgr_open,
	.next = apgr_next,
	.close = apgr_close,
	.write = kifu_apgr_write_,
	.flags = KIFU_FORMAT_NO_LINES,
};
