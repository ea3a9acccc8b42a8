/*
 * Record formats as plug-ins (INTEROP.md): kifu's own YAML and the foreign
 * formats of import/ (apgr, pgn, csv). A format is one const struct
 * kifu_format with designated initializers; kifu_formats[] is the
 * NULL-terminated registry. Generic code (the reading pipeline, kifu-export)
 * talks to formats only through this table, so adding a format is one new
 * file plus one registry line.
 *
 * Readers read from a struct kifu_source, a byte stream that may be a file,
 * standard input or a member of an archive being streamed by libarchive;
 * they never see a path or seek. A reader yields records one at a time, as
 * kifu_reader_next does for YAML, with line and column on every diagnostic;
 * replaying and validating stays the job of kifu_record_validate.
 */
#ifndef KIFU_FORMAT_H
#define KIFU_FORMAT_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/record.h"
#include "kifu/replay.h"

/*
 * A byte stream. read() copies up to n bytes into buf and returns how many
 * (0 at the end), or a negative KIFU_E* code with err filled (a truncated
 * or damaged archive member is KIFU_EIO). name is what diagnostics call the
 * input: "games.pgn", "-" or "games.zip(2024/r1.pgn)".
 */
struct kifu_source {
	long (*read)(void *ctx, void *buf, size_t n, struct kifu_error *err);
	void *ctx;
	const char *name;
};

/* A source over an open stdio stream (not closed by the source). */
void kifu_source_from_fp(struct kifu_source *src, FILE *fp, const char *name);

struct kifu_format {
	const char *name;             /* "yaml", "apgr", "pgn", "csv": --from and --to */
	const char *description;      /* one line for --help */
	const char *const *suffixes;  /* NULL-terminated file-name endings: ".pgn" */

	/*
	 * Nonzero when head (the first n bytes of an input, n may be small)
	 * looks like this format (INTEROP.md "Finding the format"). NULL: the
	 * format is only ever chosen by name or as the fallback.
	 */
	int (*sniff)(const char *head, size_t n);

	/*
	 * Opens a reader over src (borrowed: it must outlive the reader) and
	 * gives it the same contract as kifu_reader_next: next() returns 1
	 * with *out a record (the caller frees it) and its structural
	 * problems appended to diags, 0 at the end, or a negative KIFU_E*
	 * code (err says why) for an I/O failure that ends the input.
	 */
	int (*open)(void **state, const struct kifu_source *src, struct kifu_error *err);
	int (*next)(struct kifu_record **out, struct kifu_diags *diags, void *state,
		    struct kifu_error *err);
	void (*close)(void *state);

	/*
	 * Appends recs[0..n) as one output of this format (a csv header and
	 * its rows, a JSON array or single object, a stream of documents).
	 * rps[i] may be NULL or a replay of recs[i] that kept canonical texts
	 * (KIFU_VALIDATE_TEXT); writers that need the position (glaisher in
	 * pgn) replay themselves. Returns 0, KIFU_ENOMEM, or KIFU_EINVALID
	 * when a record cannot be written in this format (err says why).
	 */
	int (*write)(struct kifu_buf *out, const struct kifu_record *const *recs,
		     const struct kifu_replay *const *rps, size_t n, struct kifu_error *err);

	unsigned flags;               /* KIFU_FORMAT_* */
};

/*
 * write() of records one at a time, the outputs concatenated, is write() of
 * them all (a stream of documents or games): a writer of many games need
 * not hold them (a csv header or a JSON array needs them all).
 */
#define KIFU_FORMAT_STREAM 0x1
/*
 * The format cannot hold format 2's lines (RECORDS.md): its writer leaves
 * them out, and kifu-export warns once per game that has any.
 */
#define KIFU_FORMAT_NO_LINES 0x2

/* The registry: every format, NULL-terminated. */
extern const struct kifu_format *const kifu_formats[];

/* The format called name, or NULL. */
const struct kifu_format *kifu_format_find(const char *name);

/* The format whose suffix ends path (case-insensitive), or NULL. */
const struct kifu_format *kifu_format_by_name(const char *path);

/* The format whose sniff() accepts head, trying pgn before apgr; yaml when none does. */
const struct kifu_format *kifu_format_sniff(const char *head, size_t n);

#endif
