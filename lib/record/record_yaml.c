/*
 * The record reader's libyaml event loop: libyaml's event API over a file,
 * stream or memory block, read in chunks through a read handler so that a
 * file of any size is never held whole (the staged input is checked for
 * UTF-8 and control characters before libyaml sees it). Each event of a
 * document goes to the node tree (record_tree.c); at the document's end the
 * tree becomes a struct kifu_record (record_read.c). Syntax errors, nesting
 * past HARD_DEPTH and over-long tokens end the file with one last record
 * carrying the problem, and libyaml's errors become diagnostics here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "record/record_yaml.h"

/* Input bytes libyaml may consume without producing an event (one scalar or comment). */
#define MAX_GAP (4 * KIFU_RECORD_MAX_SCALAR)

/*
 * Whether the 8 bytes at s are all printable ASCII or line feeds (the bulk
 * of any file), tested at once: each test below works within each byte,
 * no carry crossing into the next one.
 */
static int plain8(const unsigned char *s)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80, low7 = ones * 0x7f;
	uint64_t x, y, lf, below, above;

	memcpy(&x, s, sizeof(x));
	y = x ^ (ones * '\n');
	lf = ~(((y & low7) + low7) | y) & high;         /* bytes that are '\n' */
	x |= lf >> 2;                                   /* ... count as a space */
	below = ~(((x & low7) + ones * 0x60) | x) & high; /* below 0x20 */
	above = (((x & low7) + ones) | x) & high;         /* 0x7f and above */
	return !(below | above);
}

/*
 * Validates the staged bytes from r->stage_ok on: complete characters that
 * YAML accepts become readable; an incomplete sequence at the end waits for
 * more input (unless at the end of the input); anything else stops the
 * input there with a reader problem, so that libyaml reports it only when
 * its scanner gets that far (and every document before it is complete).
 */
static void stage_validate(struct kifu_reader *r)
{
	/* Bytes that stand for themselves: tab, line feed, carriage return, printable ASCII. */
	static const unsigned char plain[256] = {
		['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
		[0x20] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
	};
	const unsigned char *s = r->stage;
	size_t i = r->stage_ok, n = r->stage_len;

	while (i < n) {
		unsigned c, need, k;
		unsigned long cp;

		while (n - i >= 8 && plain8(s + i))
			i += 8;
		while (i < n && plain[s[i]])
			i++;
		if (i == n)
			break;
		c = s[i];
		if (c < 0x80) {
			r->problem = c == 0 ? "a NUL byte" : "a control character";
			r->problem_value = (long)c;
			break;
		}
		need = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		if (!need) {
			r->problem = "bytes that are not UTF-8";
			r->problem_value = (long)c;
			break;
		}
		if (n - i < need) {
			/* Wait for the rest, unless there is none. */
			for (k = 1; k < n - i; k++)
				if ((s[i + k] & 0xc0) != 0x80)
					break;
			if (k == n - i && !r->input_eof)
				break;
			r->problem = "bytes that are not UTF-8";
			r->problem_value = (long)c;
			break;
		}
		cp = c & (need == 2 ? 0x1fu : need == 3 ? 0x0fu : 0x07u);
		for (k = 1; k < need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				break;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (k < need || (need == 2 && cp < 0x80) || (need == 3 && cp < 0x800) ||
		    (need == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			r->problem = "bytes that are not UTF-8";
			r->problem_value = (long)c;
			break;
		}
		if ((cp >= 0x80 && cp <= 0x9f && cp != 0x85) || cp == 0xfffe || cp == 0xffff) {
			r->problem = "a control character";
			r->problem_value = (long)cp;
			break;
		}
		i += need;
	}
	r->stage_ok = i;
}

static int read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	struct kifu_reader *r = data;
	size_t n;

	*size_read = 0;
	if (r->since_event > MAX_GAP) {
		r->gap_exceeded = 1;
		return 0;
	}
	if (r->stage_pos == r->stage_ok) {
		if (r->problem)
			return 0; /* the input stops at a bad byte */
		/* Keep an incomplete character, refill behind it. */
		memmove(r->stage, r->stage + r->stage_pos, r->stage_len - r->stage_pos);
		r->stage_len -= r->stage_pos;
		r->stage_ok -= r->stage_pos;
		r->stage_pos = 0;
		while (r->stage_ok == r->stage_pos && !r->problem && !r->input_eof) {
			if (r->src) {
				long got = r->src->read(r->src->ctx, r->stage + r->stage_len,
							sizeof(r->stage) - r->stage_len, &r->src_err);

				if (got < 0) {
					r->src_failed = (int)got;
					r->io_errno = -1;
					return 0;
				}
				n = (size_t)got;
			} else if (r->fp) {
				n = fread(r->stage + r->stage_len, 1, sizeof(r->stage) - r->stage_len, r->fp);
				if (n == 0 && ferror(r->fp)) {
					r->io_errno = errno ? errno : -1;
					return 0;
				}
			} else {
				n = r->mem_size - r->mem_pos;
				if (n > sizeof(r->stage) - r->stage_len)
					n = sizeof(r->stage) - r->stage_len;
				memcpy(r->stage + r->stage_len, r->mem + r->mem_pos, n);
				r->mem_pos += n;
			}
			if (n == 0)
				r->input_eof = 1;
			r->stage_len += n;
			stage_validate(r);
		}
		if (r->stage_ok == r->stage_pos)
			return r->problem ? 0 : 1; /* 0 bytes: the end of the input */
	}
	n = r->stage_ok - r->stage_pos;
	if (n > size)
		n = size;
	memcpy(buffer, r->stage + r->stage_pos, n);
	r->stage_pos += n;
	r->since_event += n;
	*size_read = n;
	return 1;
}

static int open_common(struct kifu_reader **out, const char *name, struct kifu_error *err)
{
	struct kifu_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", name);
	r->name = strdup(name ? name : "");
	if (!r->name || !yaml_parser_initialize(&r->parser)) {
		free(r->name);
		free(r);
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", name);
	}
	r->parser_ok = 1;
	yaml_parser_set_input(&r->parser, read_handler, r);
	*out = r;
	return 0;
}

int kifu_reader_open_fp(struct kifu_reader **out, FILE *fp, const char *name,
			struct kifu_error *err)
{
	int ret = open_common(out, name, err);

	if (ret == 0)
		(*out)->fp = fp;
	return ret;
}

int kifu_reader_open_source(struct kifu_reader **out, const struct kifu_source *src,
			    struct kifu_error *err)
{
	int ret = open_common(out, src->name, err);

	if (ret == 0)
		(*out)->src = src;
	return ret;
}

int kifu_reader_open_file(struct kifu_reader **out, const char *path, struct kifu_error *err)
{
	FILE *fp;
	int ret;

	*out = NULL;
	fp = fopen(path, "rb");
	if (!fp) {
		char why[128];

		snprintf(why, sizeof(why), "%s", strerror(errno));
		if (why[0] >= 'A' && why[0] <= 'Z')
			why[0] = (char)(why[0] - 'A' + 'a');
		kifu_error_at(err, NULL, 0, 0);
		return kifu_error_set(err, KIFU_EIO, "cannot open '%s': %s", path, why);
	}
	ret = kifu_reader_open_fp(out, fp, path, err);
	if (ret < 0) {
		fclose(fp);
		return ret;
	}
	(*out)->own_fp = 1;
	return 0;
}

int kifu_reader_open_mem(struct kifu_reader **out, const void *data, size_t size,
			 const char *name, struct kifu_error *err)
{
	int ret = open_common(out, name, err);

	if (ret == 0) {
		(*out)->mem = data;
		(*out)->mem_size = size;
	}
	return ret;
}

void kifu_reader_free(struct kifu_reader *r)
{
	if (!r)
		return;
	if (r->parser_ok)
		yaml_parser_delete(&r->parser);
	if (r->own_fp && r->fp)
		fclose(r->fp);
	free(r->nodes);
	free(r->name);
	free(r);
}

int kifu_reader_count(const struct kifu_reader *r)
{
	return r->documents;
}

/* ---- Errors from libyaml ---- */

/*
 * Where a reader error (bad UTF-8, a control character) lies: libyaml stops
 * decoding right before the bad character, so it is the scanner's mark moved
 * over the characters decoded but not scanned yet.
 */
static struct kifu_mark reader_error_mark(const yaml_parser_t *p)
{
	const unsigned char *s = p->buffer.pointer, *end = p->buffer.last;
	struct kifu_mark m = kifu_record_mark_of_(&p->mark);

	if (!s || !end)
		return m;
	while (s < end) {
		if (s[0] == '\r' && s + 1 < end && s[1] == '\n') {
			m.line++, m.col = 1, s += 2;
		} else if (s[0] == '\r' || s[0] == '\n') {
			m.line++, m.col = 1, s++;
		} else if (s[0] == 0xc2 && s + 1 < end && s[1] == 0x85) {
			m.line++, m.col = 1, s += 2;
		} else if (s[0] == 0xe2 && s + 2 < end && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
			m.line++, m.col = 1, s += 3;
		} else {
			s += (s[0] & 0x80) == 0 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : 4;
			m.col++;
		}
	}
	return m;
}

static void yaml_error_diag(struct kifu_record_doc_ *d)
{
	const yaml_parser_t *p = &d->r->parser;
	const char *problem = p->problem ? p->problem : "unknown error";

	if (p->error == YAML_READER_ERROR && d->r->problem) {
		if (d->r->problem_value == 0)
			kifu_record_diag_(d, 0, reader_error_mark(p), "invalid input: %s",
					  d->r->problem);
		else if (d->r->problem_value < 0x80 || !strcmp(d->r->problem, "a control character"))
			kifu_record_diag_(d, 0, reader_error_mark(p), "invalid input: %s (U+%04lX)",
					  d->r->problem, d->r->problem_value);
		else
			kifu_record_diag_(d, 0, reader_error_mark(p), "invalid input: %s (0x%02lX)",
					  d->r->problem, d->r->problem_value);
	} else if (p->error == YAML_READER_ERROR) {
		if (p->problem_value >= 0)
			kifu_record_diag_(d, 0, reader_error_mark(p), "invalid input: %s: #x%X",
					  problem, (unsigned)p->problem_value);
		else
			kifu_record_diag_(d, 0, reader_error_mark(p), "invalid input: %s", problem);
	} else if (p->context) {
		kifu_record_diag_(d, 0, kifu_record_mark_of_(&p->problem_mark),
				  "invalid YAML: %s %s started on line %d", problem, p->context,
				  (int)p->context_mark.line + 1);
	} else {
		kifu_record_diag_(d, 0, kifu_record_mark_of_(&p->problem_mark), "invalid YAML: %s",
				  problem);
	}
}

/* ---- The loop ---- */

static int new_record(struct kifu_record_doc_ *d, struct kifu_mark at, struct kifu_error *err)
{
	if (kifu_record_new(&d->rec, err) < 0)
		return KIFU_ENOMEM;
	d->rec->number = d->r->documents + 1;
	d->rec->at = at;
	return 0;
}

/*
 * Ends the file at a fatal problem (syntax error, nesting past HARD_DEPTH,
 * an over-long token): the document in progress is replaced by a record
 * that only carries the problem.
 */
static int fatal(struct kifu_record_doc_ *d, size_t diags_start, struct kifu_mark doc_at,
		 int have_doc, struct kifu_error *err)
{
	struct kifu_reader *r = d->r;
	size_t i;

	for (i = diags_start; i < d->diags->n; i++) {
		if (d->diags->v[i].severity == KIFU_DIAG_WARNING)
			d->diags->warnings--;
		else
			d->diags->errors--;
		kifu_buf_detached_free(d->diags->v[i].message);
	}
	d->diags->n = diags_start;
	kifu_record_free(d->rec);
	d->rec = NULL;
	r->done = 1;
	if (r->parser.error == YAML_MEMORY_ERROR)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", r->name);
	if (r->src_failed) {
		int code = r->src_failed;

		if (err) {
			*err = r->src_err;
			err->code = code;
		}
		return code;
	}
	if (r->io_errno) {
		char why[128];

		snprintf(why, sizeof(why), "%s", r->io_errno > 0 ? strerror(r->io_errno) : "read error");
		if (why[0] >= 'A' && why[0] <= 'Z')
			why[0] = (char)(why[0] - 'A' + 'a');
		return kifu_error_set(err, KIFU_EIO, "cannot read '%s': %s", r->name, why);
	}
	if (new_record(d, doc_at, err) < 0)
		return KIFU_ENOMEM;
	d->rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
	if (!have_doc)
		d->rec->at.line = 0;
	return 1;
}

int kifu_reader_next(struct kifu_record **out, struct kifu_diags *diags, struct kifu_reader *r,
		     struct kifu_error *err)
{
	struct kifu_record_doc_ d;
	struct kifu_mark doc_at = { 0, 0 };
	size_t diags_start = diags->n;
	int have_doc = 0, ret = 0;
	yaml_event_t ev;

	*out = NULL;
	if (r->done)
		return 0;
	memset(&d, 0, sizeof(d));
	d.r = r;
	d.diags = diags;
	for (;;) {
		if (!yaml_parser_parse(&r->parser, &ev)) {
			struct kifu_mark at;

			if (r->gap_exceeded) {
				at = kifu_record_mark_of_(&r->parser.mark);
				ret = fatal(&d, diags_start, have_doc ? doc_at : at, have_doc, err);
				if (ret > 0)
					kifu_record_diag_(
						&d, 0, at,
						"a scalar or comment is longer than %d MiB: the rest of "
						"the file is not read",
						MAX_GAP >> 20);
			} else {
				ret = fatal(&d, diags_start, doc_at, have_doc, err);
				if (ret > 0) {
					yaml_error_diag(&d);
					if (!have_doc)
						d.rec->at = (struct kifu_mark){ d.diags->v[d.diags->n - 1].line,
										d.diags->v[d.diags->n - 1].col };
				}
			}
			goto done;
		}
		r->since_event = 0;
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_NO_EVENT:
			break;
		case YAML_STREAM_END_EVENT:
			r->done = 1;
			yaml_event_delete(&ev);
			kifu_record_free(d.rec);
			return 0;
		case YAML_DOCUMENT_START_EVENT:
			doc_at = kifu_record_mark_of_(&ev.start_mark);
			have_doc = 1;
			kifu_record_tree_reset_(r);
			if (new_record(&d, doc_at, err) < 0) {
				yaml_event_delete(&ev);
				return KIFU_ENOMEM;
			}
			break;
		case YAML_DOCUMENT_END_EVENT:
			yaml_event_delete(&ev);
			kifu_record_from_tree_(&d);
			r->documents++;
			if (d.failed) {
				kifu_record_free(d.rec);
				return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory",
						      r->name);
			}
			kifu_diags_sort(diags, diags_start);
			*out = d.rec;
			return 1;
		case YAML_ALIAS_EVENT: kifu_record_tree_alias_(&d, &ev); break;
		case YAML_SCALAR_EVENT: kifu_record_tree_scalar_(&d, &ev); break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (kifu_record_tree_start_(&d, &ev,
						    ev.type == YAML_MAPPING_START_EVENT
							    ? KIFU_NODE_MAP_
							    : KIFU_NODE_SEQ_) < 0) {
				struct kifu_mark at = kifu_record_mark_of_(&ev.start_mark);

				yaml_event_delete(&ev);
				ret = fatal(&d, diags_start, doc_at, have_doc, err);
				if (ret > 0)
					kifu_record_diag_(
						&d, 0, at,
						"nesting deeper than %d levels: the rest of the file is "
						"not read",
						HARD_DEPTH);
				goto done;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: kifu_record_tree_end_(&d); break;
		}
		yaml_event_delete(&ev);
	}
done:
	if (ret > 0) {
		r->documents++;
		*out = d.rec;
	}
	return ret;
}
