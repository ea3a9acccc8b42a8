/*
 * Private to the record reader (record_yaml.c, record_tree.c,
 * record_read.c): the reader itself, the node tree one YAML document is
 * gathered into, and the document being read. record_yaml.c drives
 * libyaml's event loop and hands each event to record_tree.c, which grows
 * the tree; at the end of the document record_read.c turns the tree into a
 * struct kifu_record. Not installed.
 */
#ifndef KIFU_RECORD_YAML_H
#define KIFU_RECORD_YAML_H

#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/format.h"
#include "kifu/reader.h"
#include "kifu/record.h"

/* Past this depth the file is not read on (libyaml's own stacks would grow without bound). */
#define HARD_DEPTH 10000
/* Longest subject quoted in a message. */
#define CLIP KIFU_TEXT_CLIP

enum kifu_record_node_type_ { KIFU_NODE_SCALAR_, KIFU_NODE_MAP_, KIFU_NODE_SEQ_, KIFU_NODE_BAD_ };

struct kifu_record_node_ {
	unsigned char type;   /* enum kifu_record_node_type_ */
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
	struct kifu_record_node_ *nodes;
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

/* The document being read: its reader, its record and where its diagnostics go. */
struct kifu_record_doc_ {
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_diags *diags;
	int failed;           /* out of memory */
	/*
	 * Inside format 2's lines: the main-line ply whose lines are being read
	 * and the path below it (", line 1, ply 8, line 2" for the second line
	 * of that line's ply-8 move); diagnostics then name the path, with the
	 * ply they are given as the last level's ply.
	 */
	int main_ply;
	size_t path_len;
	char path[KIFU_RECORD_MAX_LEVELS * 32 + 32];
	size_t turns;         /* turns read so far, lines included */
};

static inline struct kifu_mark kifu_record_mark_of_(const yaml_mark_t *m)
{
	struct kifu_mark k;

	k.line = (int)m->line + 1;
	k.col = (int)m->column + 1;
	return k;
}

static inline struct kifu_mark kifu_record_node_at_(const struct kifu_record_node_ *n)
{
	struct kifu_mark k;

	k.line = n->line;
	k.col = n->col;
	return k;
}

/* Appends an error diagnostic of the document's game; notes an allocation failure in d. */
void kifu_record_diag_(struct kifu_record_doc_ *d, int ply, struct kifu_mark at, const char *fmt,
		       ...) __attribute__((format(printf, 4, 5)));


/* ---- record_tree.c: gathering a document's events into nodes ---- */

/* Empties the tree for the next document. */
void kifu_record_tree_reset_(struct kifu_reader *r);
void kifu_record_tree_scalar_(struct kifu_record_doc_ *d, yaml_event_t *ev);
void kifu_record_tree_alias_(struct kifu_record_doc_ *d, yaml_event_t *ev);
/*
 * A mapping or sequence starts; returns -1 when the nesting passes
 * HARD_DEPTH (the file is not read on).
 */
int kifu_record_tree_start_(struct kifu_record_doc_ *d, yaml_event_t *ev, int type);
void kifu_record_tree_end_(struct kifu_record_doc_ *d);

/* ---- record_read.c: turning the tree into a record ---- */

/* Fills d->rec from the tree, checking every structural rule of RECORDS.md. */
void kifu_record_from_tree_(struct kifu_record_doc_ *d);

#endif
