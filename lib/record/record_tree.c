/*
 * The node tree of one YAML document, grown event by event: scalars,
 * mappings and sequences become nodes in an array the reader reuses from
 * document to document (scalar text goes straight into the new record's
 * arena), while aliases, anchors and tags are refused and the limits on
 * nesting, scalar size, node count and text that keep hostile input from
 * costing unbounded time or memory are enforced.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "kifu/diag.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "record/record_impl.h"
#include "record/record_yaml.h"
#include "util/text_impl.h"

void kifu_record_diag_(struct kifu_record_doc_ *d, int ply, struct kifu_mark at, const char *fmt,
		       ...)
{
	va_list ap;

	char path[sizeof(d->path) + 32];
	int ret;

	va_start(ap, fmt);
	if (d->path_len) {
		/* d->path starts ", line L": the main-line ply goes in front, this level's ply after */
		snprintf(path, sizeof(path), "%s", d->path + 2);
		if (ply > 0)
			snprintf(path + d->path_len - 2, sizeof(path) - (d->path_len - 2), ", ply %d",
				 ply);
		ret = kifu_diags_add_pathv(d->diags, KIFU_DIAG_ERROR, d->rec->number, d->main_ply,
					   path, at, fmt, ap);
	} else {
		ret = kifu_diags_addv(d->diags, KIFU_DIAG_ERROR, d->rec->number, ply, at, fmt, ap);
	}
	if (ret < 0)
		d->failed = 1;
	va_end(ap);
}

/* Adds a node as the next child of the innermost stored collection; returns its index or 0. */
static uint32_t add_node(struct kifu_record_doc_ *d, int type, const yaml_mark_t *m)
{
	struct kifu_reader *r = d->r;
	struct kifu_record_node_ *n;
	uint32_t i;

	if (r->overflow)
		return 0;
	if (r->nnodes >= KIFU_RECORD_MAX_NODES) {
		r->overflow = 1;
		kifu_record_diag_(d, 0, kifu_record_mark_of_(m),
				  "the document has more than %d YAML nodes",
				  KIFU_RECORD_MAX_NODES);
		return 0;
	}
	if (r->nnodes == r->cap_nodes) {
		uint32_t cap = r->cap_nodes ? r->cap_nodes * 2 : 256;
		struct kifu_record_node_ *nv = realloc(r->nodes, cap * sizeof(*nv));

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
		struct kifu_record_node_ *parent = &r->nodes[r->stack[k]];

		if (r->last[k])
			r->nodes[r->last[k]].next = i;
		else
			parent->first = i;
		r->last[k] = i;
		parent->nkids++;
	}
	return i;
}

static void check_props(struct kifu_record_doc_ *d, const yaml_char_t *anchor,
			const yaml_char_t *tag, const yaml_mark_t *m)
{
	char buf[CLIP + 1];

	if (anchor)
		kifu_record_diag_(
			d, 0, kifu_record_mark_of_(m), "anchor '&%s' is not allowed",
			kifu_text_clip_(buf, (const char *)anchor, strlen((const char *)anchor)));
	if (tag) {
		const char *t = (const char *)tag;
		static const char core[] = "tag:yaml.org,2002:";

		if (!strncmp(t, core, sizeof(core) - 1))
			kifu_record_diag_(d, 0, kifu_record_mark_of_(m),
					  "tag '!!%s' is not allowed",
					  kifu_text_clip_(buf, t + sizeof(core) - 1,
							  strlen(t + sizeof(core) - 1)));
		else
			kifu_record_diag_(d, 0, kifu_record_mark_of_(m), "tag '%s' is not allowed",
					  kifu_text_clip_(buf, t, strlen(t)));
	}
}

void kifu_record_tree_scalar_(struct kifu_record_doc_ *d, yaml_event_t *ev)
{
	struct kifu_reader *r = d->r;
	size_t len = ev->data.scalar.length;
	const char *value = (const char *)ev->data.scalar.value;
	uint32_t i;
	struct kifu_record_node_ *n;

	if (r->skip)
		return;
	if (ev->data.scalar.anchor || ev->data.scalar.tag)
		check_props(d, ev->data.scalar.anchor, ev->data.scalar.tag, &ev->start_mark);
	i = add_node(d, KIFU_NODE_SCALAR_, &ev->start_mark);
	if (!i && r->overflow)
		return;
	n = &r->nodes[i];
	if (len > KIFU_RECORD_MAX_SCALAR) {
		n->type = KIFU_NODE_BAD_;
		kifu_record_diag_(d, 0, kifu_record_node_at_(n),
				  "a scalar is longer than %d bytes (%zu)", KIFU_RECORD_MAX_SCALAR,
				  len);
		return;
	}
	/* Raw NUL bytes never reach libyaml; an escape ("\0") can still make one. */
	if (ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && memchr(value, '\0', len)) {
		n->type = KIFU_NODE_BAD_;
		kifu_record_diag_(d, 0, kifu_record_node_at_(n),
				  "a scalar contains a NUL character");
		return;
	}
	if (r->text_bytes + len > KIFU_RECORD_MAX_TEXT) {
		r->overflow = 1;
		kifu_record_diag_(d, 0, kifu_record_node_at_(n),
				  "the document holds more than %d MiB of text",
				  KIFU_RECORD_MAX_TEXT >> 20);
		return;
	}
	r->text_bytes += len;
	n->text = kifu_record_strndup_(d->rec, value, len);
	if (!n->text) {
		d->failed = 1;
		n->type = KIFU_NODE_BAD_;
		return;
	}
	n->len = (uint32_t)len;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

void kifu_record_tree_alias_(struct kifu_record_doc_ *d, yaml_event_t *ev)
{
	char buf[CLIP + 1];
	const char *a = (const char *)ev->data.alias.anchor;
	uint32_t i;

	if (d->r->skip)
		return;
	i = add_node(d, KIFU_NODE_BAD_, &ev->start_mark);
	(void)i;
	kifu_record_diag_(d, 0, kifu_record_mark_of_(&ev->start_mark), "alias '*%s' is not allowed",
			  kifu_text_clip_(buf, a, strlen(a)));
}

/* Returns -1 when the nesting passes HARD_DEPTH (the file is not read on). */
int kifu_record_tree_start_(struct kifu_record_doc_ *d, yaml_event_t *ev, int type)
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
	if (type == KIFU_NODE_MAP_) {
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
	} else {
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
	}
	if (anchor || tag)
		check_props(d, anchor, tag, &ev->start_mark);
	if (r->stored_depth >= KIFU_RECORD_MAX_DEPTH) {
		add_node(d, KIFU_NODE_BAD_, &ev->start_mark);
		if (!r->too_deep_reported) {
			r->too_deep_reported = 1;
			kifu_record_diag_(d, 0, kifu_record_mark_of_(&ev->start_mark),
					  "nesting deeper than %d levels", KIFU_RECORD_MAX_DEPTH);
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

void kifu_record_tree_end_(struct kifu_record_doc_ *d)
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

void kifu_record_tree_reset_(struct kifu_reader *r)
{
	r->nnodes = 0;
	r->depth = 0;
	r->stored_depth = 0;
	r->skip = 0;
	r->overflow = 0;
	r->text_bytes = 0;
	r->too_deep_reported = 0;
}

