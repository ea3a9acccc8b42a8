/*
 * The record reader: libyaml's event API over a file, stream or memory
 * block, read in chunks through a read handler so that a file of any size
 * is never held whole. Events of one document are gathered into a small
 * node tree (an array reused from document to document; scalar text goes
 * straight into the new record's arena), which is then turned into a
 * struct kifu_record while every structural rule of RECORDS.md is checked:
 * known keys, no duplicates, value types, no aliases, anchors or tags, and
 * the limits on nesting, scalar size, node count and turns that keep hostile
 * input from costing unbounded time or memory.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "kifu/format.h"
#include "kifu/record.h"
#include "kifu/text.h"
#include "record/record_impl.h"
#include "util/text_impl.h"

/*
 * " (did you mean 'result'?)" when one of keys (NULL-terminated) is close
 * to the unknown key name (keys NULL: the keys of a record), else "": the
 * hint of an unknown-key diagnostic.
 */
static const char *key_hint(char *out, size_t n, const char *name, const char *const *keys)
{
	struct kifu_near near;

	int k;

	kifu_near_init(&near, name);
	for (k = 0; keys ? keys[k] != NULL : k < KIFU_KEY_COUNT; k++)
		kifu_near_add(&near, keys ? keys[k] : kifu_key_name(k));
	if (kifu_near_best(&near))
		snprintf(out, n, " (did you mean '%s'?)", kifu_near_best(&near));
	else if (n)
		out[0] = '\0';
	return out;
}

static const char *const player_keys[] = { "name", "rating", NULL };
static const char *const turn_keys[] = { "move", "comment", "clock", NULL };

/* Past this depth the file is not read on (libyaml's own stacks would grow without bound). */
#define HARD_DEPTH 10000
/* Input bytes libyaml may consume without producing an event (one scalar or comment). */
#define MAX_GAP (4 * KIFU_RECORD_MAX_SCALAR)
/* Longest subject quoted in a message. */
#define CLIP KIFU_TEXT_CLIP

enum node_type { N_SCALAR, N_MAP, N_SEQ, N_BAD };

struct node {
	unsigned char type;   /* enum node_type */
	unsigned char plain;  /* a plain scalar (YAML 1.1 typing applies) */
	int line, col;
	uint32_t len;         /* scalar bytes */
	char *text;           /* scalar text, in the record's arena */
	uint32_t first;       /* first child (0: none; node 0 is the root, never a child) */
	uint32_t next;        /* next sibling */
	uint32_t nkids;
};

struct kifu_reader {
	yaml_parser_t parser;
	int parser_ok;
	FILE *fp;             /* NULL for memory or a source */
	int own_fp;
	const struct kifu_source *src; /* a byte stream (kifu_reader_open_source) */
	struct kifu_error src_err;     /* why src failed */
	int src_failed;                /* the KIFU_E* code src returned */
	const unsigned char *mem;
	size_t mem_size, mem_pos;
	char *name;

	unsigned char stage[16384]; /* input read but not yet handed to libyaml */
	size_t stage_pos, stage_ok, stage_len; /* handed out / validated / read */
	int input_eof;
	const char *problem;  /* why the input stops at stage_ok (bad UTF-8, control character) */
	long problem_value;

	size_t since_event;   /* input bytes handed to libyaml since the last event */
	int gap_exceeded;
	int io_errno;         /* errno of a failed read, or -1 for an unknown read error */
	int done;
	int documents;        /* documents started */

	/* The document being gathered. */
	struct node *nodes;
	uint32_t nnodes, cap_nodes;
	uint32_t stack[KIFU_RECORD_MAX_DEPTH + 1]; /* open collections (node indices) */
	uint32_t last[KIFU_RECORD_MAX_DEPTH + 1];  /* their last child so far */
	int depth;            /* open collections, also those past the limit */
	int stored_depth;     /* open collections that have nodes */
	int skip;             /* > 0: inside a collection that is not stored */
	int overflow;         /* node or text limit reached: the tree is incomplete */
	size_t text_bytes;
	int too_deep_reported;
};

/* A copy of s fit for quoting in a message: at most CLIP bytes, cut on a character boundary. */
static const char *clip(const char *s, size_t n, char *buf)
{
	return kifu_text_clip_(buf, s, n);
}

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

/* ---- Gathering a document's events into nodes ---- */

static struct kifu_mark mark_of(const yaml_mark_t *m)
{
	struct kifu_mark k;

	k.line = (int)m->line + 1;
	k.col = (int)m->column + 1;
	return k;
}

static struct kifu_mark node_at(const struct node *n)
{
	struct kifu_mark k;

	k.line = n->line;
	k.col = n->col;
	return k;
}

struct doc {
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_diags *diags;
	int failed;           /* out of memory */
};

static void diag(struct doc *d, int ply, struct kifu_mark at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void diag(struct doc *d, int ply, struct kifu_mark at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kifu_diags_addv(d->diags, KIFU_DIAG_ERROR, d->rec->number, ply, at, fmt, ap) < 0)
		d->failed = 1;
	va_end(ap);
}

/* Adds a node as the next child of the innermost stored collection; returns its index or 0. */
static uint32_t add_node(struct doc *d, int type, const yaml_mark_t *m)
{
	struct kifu_reader *r = d->r;
	struct node *n;
	uint32_t i;

	if (r->overflow)
		return 0;
	if (r->nnodes >= KIFU_RECORD_MAX_NODES) {
		r->overflow = 1;
		diag(d, 0, mark_of(m), "the document has more than %d YAML nodes",
		     KIFU_RECORD_MAX_NODES);
		return 0;
	}
	if (r->nnodes == r->cap_nodes) {
		uint32_t cap = r->cap_nodes ? r->cap_nodes * 2 : 256;
		struct node *nv = realloc(r->nodes, cap * sizeof(*nv));

		if (!nv) {
			d->failed = 1;
			r->overflow = 1;
			return 0;
		}
		r->nodes = nv;
		r->cap_nodes = cap;
	}
	i = r->nnodes++;
	n = &r->nodes[i];
	n->plain = 0;
	n->len = 0;
	n->text = NULL;
	n->first = n->next = n->nkids = 0;
	n->type = (unsigned char)type;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	if (r->stored_depth > 0) {
		int k = r->stored_depth - 1;
		struct node *parent = &r->nodes[r->stack[k]];

		if (r->last[k])
			r->nodes[r->last[k]].next = i;
		else
			parent->first = i;
		r->last[k] = i;
		parent->nkids++;
	}
	return i;
}

static void check_props(struct doc *d, const yaml_char_t *anchor, const yaml_char_t *tag,
			const yaml_mark_t *m)
{
	char buf[CLIP + 1];

	if (anchor)
		diag(d, 0, mark_of(m), "anchor '&%s' is not allowed",
		     clip((const char *)anchor, strlen((const char *)anchor), buf));
	if (tag) {
		const char *t = (const char *)tag;
		static const char core[] = "tag:yaml.org,2002:";

		if (!strncmp(t, core, sizeof(core) - 1))
			diag(d, 0, mark_of(m), "tag '!!%s' is not allowed",
			     clip(t + sizeof(core) - 1, strlen(t + sizeof(core) - 1), buf));
		else
			diag(d, 0, mark_of(m), "tag '%s' is not allowed", clip(t, strlen(t), buf));
	}
}

static void on_scalar(struct doc *d, yaml_event_t *ev)
{
	struct kifu_reader *r = d->r;
	size_t len = ev->data.scalar.length;
	const char *value = (const char *)ev->data.scalar.value;
	uint32_t i;
	struct node *n;

	if (r->skip)
		return;
	if (ev->data.scalar.anchor || ev->data.scalar.tag)
		check_props(d, ev->data.scalar.anchor, ev->data.scalar.tag, &ev->start_mark);
	i = add_node(d, N_SCALAR, &ev->start_mark);
	if (!i && r->overflow)
		return;
	n = &r->nodes[i];
	if (len > KIFU_RECORD_MAX_SCALAR) {
		n->type = N_BAD;
		diag(d, 0, node_at(n), "a scalar is longer than %d bytes (%zu)", KIFU_RECORD_MAX_SCALAR,
		     len);
		return;
	}
	/* Raw NUL bytes never reach libyaml; an escape ("\0") can still make one. */
	if (ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && memchr(value, '\0', len)) {
		n->type = N_BAD;
		diag(d, 0, node_at(n), "a scalar contains a NUL character");
		return;
	}
	if (r->text_bytes + len > KIFU_RECORD_MAX_TEXT) {
		r->overflow = 1;
		diag(d, 0, node_at(n), "the document holds more than %d MiB of text",
		     KIFU_RECORD_MAX_TEXT >> 20);
		return;
	}
	r->text_bytes += len;
	n->text = kifu_record_strndup_(d->rec, value, len);
	if (!n->text) {
		d->failed = 1;
		n->type = N_BAD;
		return;
	}
	n->len = (uint32_t)len;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static void on_alias(struct doc *d, yaml_event_t *ev)
{
	char buf[CLIP + 1];
	const char *a = (const char *)ev->data.alias.anchor;
	uint32_t i;

	if (d->r->skip)
		return;
	i = add_node(d, N_BAD, &ev->start_mark);
	(void)i;
	diag(d, 0, mark_of(&ev->start_mark), "alias '*%s' is not allowed", clip(a, strlen(a), buf));
}

/* Returns -1 when the nesting passes HARD_DEPTH (the file is not read on). */
static int on_start(struct doc *d, yaml_event_t *ev, int type)
{
	struct kifu_reader *r = d->r;
	const yaml_char_t *anchor, *tag;
	uint32_t i;

	if (++r->depth > HARD_DEPTH)
		return -1;
	if (r->skip) {
		r->skip++;
		return 0;
	}
	if (type == N_MAP) {
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
	} else {
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
	}
	if (anchor || tag)
		check_props(d, anchor, tag, &ev->start_mark);
	if (r->stored_depth >= KIFU_RECORD_MAX_DEPTH) {
		add_node(d, N_BAD, &ev->start_mark);
		if (!r->too_deep_reported) {
			r->too_deep_reported = 1;
			diag(d, 0, mark_of(&ev->start_mark), "nesting deeper than %d levels",
			     KIFU_RECORD_MAX_DEPTH);
		}
		r->skip = 1;
		return 0;
	}
	i = add_node(d, type, &ev->start_mark);
	if (r->overflow) {
		r->skip = 1;
		return 0;
	}
	r->stack[r->stored_depth] = i;
	r->last[r->stored_depth] = 0;
	r->stored_depth++;
	return 0;
}

static void on_end(struct doc *d)
{
	struct kifu_reader *r = d->r;

	r->depth--;
	if (r->skip) {
		r->skip--;
		return;
	}
	if (r->stored_depth > 0)
		r->stored_depth--;
}

/* ---- Turning the tree into a record ---- */

static struct node *N(struct doc *d, uint32_t i)
{
	return &d->r->nodes[i];
}

static const char *kind(const struct node *n)
{
	switch (n->type) {
	case N_MAP: return "a mapping";
	case N_SEQ: return "a sequence";
	default: return "a scalar";
	}
}

/* A plain null scalar (empty, ~, null): "no value". */
static int is_null(const struct node *n)
{
	return n->type == N_SCALAR && n->plain &&
	       kifu_yaml_resolve(n->text, n->len, NULL, NULL, NULL) == KIFU_SCALAR_NULL;
}

/* Checks that key node k is a string; reports it otherwise. */
static int key_ok(struct doc *d, const struct node *k, int ply)
{
	if (k->type == N_SCALAR)
		return 1;
	if (k->type != N_BAD)
		diag(d, ply, node_at(k), "a key must be a string, not %s", kind(k));
	return 0;
}

/* The text of a string-valued node, or NULL after reporting what it is. */
static char *string_of(struct doc *d, const struct node *v, int ply, const char *what)
{
	if (v->type == N_SCALAR)
		return v->text;
	if (v->type != N_BAD)
		diag(d, ply, node_at(v), "%s must be a string, not %s", what, kind(v));
	return NULL;
}

/* A plain YAML 1.1 integer; reports and returns -1 otherwise. */
static int int_of(struct doc *d, const struct node *v, const char *what, long *out)
{
	char buf[CLIP + 1];
	int over;

	if (v->type == N_BAD)
		return -1;
	if (v->type != N_SCALAR) {
		diag(d, 0, node_at(v), "%s must be a plain integer, not %s", what, kind(v));
		return -1;
	}
	if (!v->plain) {
		diag(d, 0, node_at(v), "%s must be a plain integer, not the quoted string '%s'", what,
		     clip(v->text, v->len, buf));
		return -1;
	}
	if (kifu_yaml_resolve(v->text, v->len, out, NULL, &over) != KIFU_SCALAR_INT) {
		diag(d, 0, node_at(v), "%s must be a plain integer, not '%s'", what,
		     clip(v->text, v->len, buf));
		return -1;
	}
	if (over) {
		diag(d, 0, node_at(v), "%s is out of range: '%s'", what, clip(v->text, v->len, buf));
		return -1;
	}
	return 0;
}

static void convert_player(struct doc *d, const struct node *k, const struct node *v)
{
	struct kifu_record_player *p;
	char buf[CLIP + 1], what[CLIP + 40];
	const char *side = clip(k->text, k->len, buf);
	uint32_t c;
	size_t i;

	for (i = 0; i < d->rec->nplayers; i++)
		if (!strcmp(d->rec->players[i].side, k->text)) {
			diag(d, 0, node_at(k), "duplicate key '%s' in 'players'", side);
			return;
		}
	p = kifu_record_push_player_(d->rec);
	if (!p) {
		d->failed = 1;
		return;
	}
	p->side = k->text;
	p->at = node_at(k);
	if (v->type == N_SCALAR) {
		p->name = v->text;
		return;
	}
	if (v->type == N_BAD)
		return;
	if (v->type != N_MAP) {
		diag(d, 0, node_at(v), "player '%s' must be a name or a mapping {name, rating}, not %s",
		     side, kind(v));
		return;
	}
	{
		int seen_name = 0, seen_rating = 0;

		for (c = v->first; c; c = N(d, c)->next) {
			const struct node *kk = N(d, c), *vv;

			c = kk->next;
			if (!c)
				break;
			vv = N(d, c);
			if (!key_ok(d, kk, 0))
				continue;
			if (!strcmp(kk->text, "name")) {
				if (seen_name++) {
					diag(d, 0, node_at(kk), "duplicate key 'name' in player '%s'", side);
					continue;
				}
				snprintf(what, sizeof(what), "'name' of player '%s'", side);
				p->name = string_of(d, vv, 0, what);
			} else if (!strcmp(kk->text, "rating")) {
				if (seen_rating++) {
					diag(d, 0, node_at(kk), "duplicate key 'rating' in player '%s'",
					     side);
					continue;
				}
				snprintf(what, sizeof(what), "'rating' of player '%s'", side);
				if (int_of(d, vv, what, &p->rating) == 0)
					p->has_rating = 1;
			} else {
				char kb[CLIP + 1], hint[64];

				diag(d, 0, node_at(kk), "unknown key '%s' in player '%s'%s",
				     clip(kk->text, kk->len, kb), side,
				     key_hint(hint, sizeof(hint), kk->text, player_keys));
			}
		}
		if (!seen_name)
			diag(d, 0, node_at(v), "player '%s' has no 'name'", side);
	}
}

static void convert_players(struct doc *d, const struct node *v)
{
	uint32_t c;

	if (v->type == N_BAD || is_null(v))
		return;
	if (v->type != N_MAP) {
		diag(d, 0, node_at(v), "'players' must be a mapping of sides to players, not %s",
		     kind(v));
		return;
	}
	for (c = v->first; c; c = N(d, c)->next) {
		const struct node *k = N(d, c);

		c = k->next;
		if (!c)
			break;
		if (key_ok(d, k, 0))
			convert_player(d, k, N(d, c));
	}
}

static void convert_clock(struct doc *d, struct kifu_turn *t, const struct node *v, int ply)
{
	char buf[CLIP + 1];
	double f = 0;
	int ret;

	if (v->type == N_BAD)
		return;
	if (v->type != N_SCALAR) {
		diag(d, ply, node_at(v), "'clock' must be a plain number of seconds, not %s", kind(v));
		return;
	}
	if (!v->plain) {
		diag(d, ply, node_at(v),
		     "'clock' must be a plain number of seconds, not the quoted string '%s'",
		     clip(v->text, v->len, buf));
		return;
	}
	ret = kifu_clock_seconds(v->text, v->len, &f);
	if (ret == KIFU_EPARSE) {
		diag(d, ply, node_at(v), "'clock' must be a plain number of seconds, not '%s'",
		     clip(v->text, v->len, buf));
		return;
	}
	if (ret < 0) {
		diag(d, ply, node_at(v), "'clock' must be a number of seconds from 0, not '%s'",
		     clip(v->text, v->len, buf));
		return;
	}
	t->clock = v->text;
	t->clock_seconds = f;
}

static void convert_turn(struct doc *d, const struct node *item, int ply)
{
	struct kifu_turn *t = kifu_record_push_turn_(d->rec);
	int seen_move = 0, seen_comment = 0, seen_clock = 0;
	uint32_t c;

	if (!t) {
		d->failed = 1;
		return;
	}
	t->at = node_at(item);
	if (item->type == N_SCALAR) {
		t->text = item->text;
		return;
	}
	if (item->type == N_BAD)
		return;
	if (item->type != N_MAP) {
		diag(d, ply, node_at(item),
		     "a turn must be a move or a mapping {move, comment, clock}, not %s", kind(item));
		return;
	}
	for (c = item->first; c; c = N(d, c)->next) {
		const struct node *k = N(d, c), *v;
		char buf[CLIP + 1];

		c = k->next;
		if (!c)
			break;
		v = N(d, c);
		if (!key_ok(d, k, ply))
			continue;
		if (!strcmp(k->text, "move")) {
			if (seen_move++) {
				diag(d, ply, node_at(k), "duplicate key 'move' in the turn");
				continue;
			}
			t->text = string_of(d, v, ply, "'move'");
			t->at = node_at(v);
			if (!t->text)
				t->at = node_at(v);
		} else if (!strcmp(k->text, "comment")) {
			if (seen_comment++) {
				diag(d, ply, node_at(k), "duplicate key 'comment' in the turn");
				continue;
			}
			t->comment = string_of(d, v, ply, "'comment'");
		} else if (!strcmp(k->text, "clock")) {
			if (seen_clock++) {
				diag(d, ply, node_at(k), "duplicate key 'clock' in the turn");
				continue;
			}
			convert_clock(d, t, v, ply);
		} else {
			char hint[64];

			diag(d, ply, node_at(k), "unknown key '%s' in the turn%s",
			     clip(k->text, k->len, buf),
			     key_hint(hint, sizeof(hint), k->text, turn_keys));
		}
	}
	if (!seen_move)
		diag(d, ply, node_at(item), "the turn has no 'move'");
}

static void convert_moves(struct doc *d, const struct node *v)
{
	uint32_t c;
	int ply = 0;

	if (v->type == N_BAD || is_null(v))
		return;
	if (v->type != N_SEQ) {
		diag(d, 0, node_at(v), "'moves' must be a sequence, not %s", kind(v));
		return;
	}
	d->rec->plies_written = v->nkids;
	/* room for every turn at once rather than by doubling (push_turn_ grows it if this fails) */
	if (v->nkids > d->rec->cap_turns_) {
		size_t want = v->nkids < KIFU_RECORD_MAX_TURNS ? v->nkids : KIFU_RECORD_MAX_TURNS;
		struct kifu_turn *t = realloc(d->rec->turns, want * sizeof(*t));

		if (t) {
			d->rec->turns = t;
			d->rec->cap_turns_ = want;
		}
	}
	for (c = v->first; c; c = N(d, c)->next) {
		if (++ply > KIFU_RECORD_MAX_TURNS) {
			diag(d, ply, node_at(N(d, c)), "'moves' has more than %d turns",
			     KIFU_RECORD_MAX_TURNS);
			d->rec->flags |= KIFU_RECORD_TRUNCATED;
			return;
		}
		convert_turn(d, N(d, c), ply);
	}
}

static void convert_tags(struct doc *d, const struct node *v)
{
	uint32_t c;
	size_t i;

	if (v->type == N_BAD || is_null(v))
		return;
	if (v->type != N_MAP) {
		diag(d, 0, node_at(v), "'tags' must be a mapping, not %s", kind(v));
		return;
	}
	for (c = v->first; c; c = N(d, c)->next) {
		const struct node *k = N(d, c), *val;
		struct kifu_tag *t;
		char buf[CLIP + 1];
		int dup = 0;

		c = k->next;
		if (!c)
			break;
		val = N(d, c);
		if (!key_ok(d, k, 0))
			continue;
		for (i = 0; i < d->rec->ntags && !dup; i++)
			dup = !strcmp(d->rec->tags[i].key, k->text);
		if (dup) {
			diag(d, 0, node_at(k), "duplicate key '%s' in 'tags'", clip(k->text, k->len, buf));
			continue;
		}
		if (val->type != N_SCALAR) {
			if (val->type != N_BAD)
				diag(d, 0, node_at(val), "tag '%s' must be a scalar, not %s",
				     clip(k->text, k->len, buf), kind(val));
			continue;
		}
		t = kifu_record_push_tag_(d->rec);
		if (!t) {
			d->failed = 1;
			return;
		}
		t->key = k->text;
		t->value = val->text;
		t->type = val->plain ? kifu_yaml_resolve(val->text, val->len, NULL, NULL, NULL)
				     : KIFU_SCALAR_STR;
		t->at = node_at(k);
	}
}

static int lookup_key(const char *s)
{
	int k;

	/* The first letters tell the keys apart but for s(ite, ource) and r(ound, esult). */
	switch (s[0]) {
	case 'f': k = s[1] == 'o' ? KIFU_KEY_FORMAT : KIFU_KEY_FIRST; break;
	case 'g': k = KIFU_KEY_GAME; break;
	case 'v': k = KIFU_KEY_VARIANT; break;
	case 'e': k = KIFU_KEY_EVENT; break;
	case 's': k = s[1] == 'i' ? KIFU_KEY_SITE : KIFU_KEY_SOURCE; break;
	case 'r': k = s[1] == 'o' ? KIFU_KEY_ROUND : KIFU_KEY_RESULT; break;
	case 'a': k = KIFU_KEY_ANNOTATOR; break;
	case 'd': k = KIFU_KEY_DATE; break;
	case 'p': k = KIFU_KEY_PLAYERS; break;
	case 'm': k = KIFU_KEY_MOVES; break;
	case 't': k = s[1] == 'e' ? KIFU_KEY_TERMINATION : KIFU_KEY_TAGS; break;
	default: return -1;
	}
	return strcmp(s, kifu_key_name(k)) ? -1 : k;
}

static void convert_root(struct doc *d)
{
	struct kifu_record *rec = d->rec;
	const struct node *root;
	char buf[CLIP + 1];
	uint32_t c;

	if (d->r->nnodes == 0 || d->r->overflow || N(d, 0)->type != N_MAP)
		rec->flags |= KIFU_RECORD_NOT_A_GAME;
	if (d->r->nnodes == 0 || d->r->overflow)
		return;
	root = N(d, 0);
	if (root->type == N_BAD)
		return;
	if (is_null(root)) {
		diag(d, 0, rec->at, "the document is empty");
		return;
	}
	if (root->type != N_MAP) {
		if (root->type == N_SCALAR)
			diag(d, 0, node_at(root), "a game must be a YAML mapping, not the scalar '%s'",
			     clip(root->text, root->len, buf));
		else
			diag(d, 0, node_at(root), "a game must be a YAML mapping, not %s", kind(root));
		return;
	}
	static const char *const quoted[KIFU_KEY_COUNT] = {
		"'format'", "'game'", "'variant'", "'event'", "'site'", "'round'", "'annotator'",
		"'source'", "'date'", "'players'", "'first'", "'moves'", "'result'", "'termination'",
		"'tags'"
	};

	for (c = root->first; c; c = N(d, c)->next) {
		const struct node *k = N(d, c), *v;
		const char *what;
		int key;

		c = k->next;
		if (!c)
			break;
		v = N(d, c);
		if (!key_ok(d, k, 0))
			continue;
		key = lookup_key(k->text);
		if (key < 0) {
			char hint[64];

			diag(d, 0, node_at(k), "unknown key '%s'%s", clip(k->text, k->len, buf),
			     key_hint(hint, sizeof(hint), k->text, NULL));
			continue;
		}
		if (rec->present & (1u << key)) {
			diag(d, 0, node_at(k), "duplicate key '%s'", k->text);
			continue;
		}
		rec->present |= 1u << key;
		rec->key_at[key] = node_at(k);
		rec->value_at[key] = node_at(v);
		what = quoted[key];
		switch (key) {
		case KIFU_KEY_FORMAT:
			if (int_of(d, v, what, &rec->format) < 0)
				rec->format = 1; /* reported already */
			break;
		case KIFU_KEY_PLAYERS:
			convert_players(d, v);
			break;
		case KIFU_KEY_MOVES:
			convert_moves(d, v);
			break;
		case KIFU_KEY_TAGS:
			convert_tags(d, v);
			break;
		default:
			*kifu_record_field_(rec, key) = string_of(d, v, 0, what);
			break;
		}
	}
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
	struct kifu_mark m = mark_of(&p->mark);

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

static void yaml_error_diag(struct doc *d)
{
	const yaml_parser_t *p = &d->r->parser;
	const char *problem = p->problem ? p->problem : "unknown error";

	if (p->error == YAML_READER_ERROR && d->r->problem) {
		if (d->r->problem_value == 0)
			diag(d, 0, reader_error_mark(p), "invalid input: %s", d->r->problem);
		else if (d->r->problem_value < 0x80 || !strcmp(d->r->problem, "a control character"))
			diag(d, 0, reader_error_mark(p), "invalid input: %s (U+%04lX)", d->r->problem,
			     d->r->problem_value);
		else
			diag(d, 0, reader_error_mark(p), "invalid input: %s (0x%02lX)", d->r->problem,
			     d->r->problem_value);
	} else if (p->error == YAML_READER_ERROR) {
		if (p->problem_value >= 0)
			diag(d, 0, reader_error_mark(p), "invalid input: %s: #x%X", problem,
			     (unsigned)p->problem_value);
		else
			diag(d, 0, reader_error_mark(p), "invalid input: %s", problem);
	} else if (p->context) {
		diag(d, 0, mark_of(&p->problem_mark), "invalid YAML: %s %s started on line %d", problem,
		     p->context, (int)p->context_mark.line + 1);
	} else {
		diag(d, 0, mark_of(&p->problem_mark), "invalid YAML: %s", problem);
	}
}

/* ---- The loop ---- */

static void reset_doc(struct kifu_reader *r)
{
	r->nnodes = 0;
	r->depth = 0;
	r->stored_depth = 0;
	r->skip = 0;
	r->overflow = 0;
	r->text_bytes = 0;
	r->too_deep_reported = 0;
}

static int new_record(struct doc *d, struct kifu_mark at, struct kifu_error *err)
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
static int fatal(struct doc *d, size_t diags_start, struct kifu_mark doc_at, int have_doc,
		 struct kifu_error *err)
{
	struct kifu_reader *r = d->r;
	size_t i;

	for (i = diags_start; i < d->diags->n; i++) {
		if (d->diags->v[i].severity == KIFU_DIAG_WARNING)
			d->diags->warnings--;
		else
			d->diags->errors--;
		free(d->diags->v[i].message);
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
	struct doc d;
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
				at = mark_of(&r->parser.mark);
				ret = fatal(&d, diags_start, have_doc ? doc_at : at, have_doc, err);
				if (ret > 0)
					diag(&d, 0, at,
					     "a scalar or comment is longer than %d MiB: the rest of "
					     "the file is not read", MAX_GAP >> 20);
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
			doc_at = mark_of(&ev.start_mark);
			have_doc = 1;
			reset_doc(r);
			if (new_record(&d, doc_at, err) < 0) {
				yaml_event_delete(&ev);
				return KIFU_ENOMEM;
			}
			break;
		case YAML_DOCUMENT_END_EVENT:
			yaml_event_delete(&ev);
			convert_root(&d);
			r->documents++;
			if (d.failed) {
				kifu_record_free(d.rec);
				return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory",
						      r->name);
			}
			kifu_diags_sort(diags, diags_start);
			*out = d.rec;
			return 1;
		case YAML_ALIAS_EVENT:
			on_alias(&d, &ev);
			break;
		case YAML_SCALAR_EVENT:
			on_scalar(&d, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (on_start(&d, &ev, ev.type == YAML_MAPPING_START_EVENT ? N_MAP : N_SEQ) < 0) {
				struct kifu_mark at = mark_of(&ev.start_mark);

				yaml_event_delete(&ev);
				ret = fatal(&d, diags_start, doc_at, have_doc, err);
				if (ret > 0)
					diag(&d, 0, at,
					     "nesting deeper than %d levels: the rest of the file is "
					     "not read", HARD_DEPTH);
				goto done;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			on_end(&d);
			break;
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
