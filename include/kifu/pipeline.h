/*
 * The reading pipeline: every tool that reads records (kifu-validate,
 * kifu-import, kifu-export --file) hands its PATH arguments here and gets
 * back, in input order, one item per input, record, problem and note.
 *
 * What it does (INTEROP.md, CLI.md "Inputs"):
 * - finds the inputs: files as given; directories searched recursively, in
 *   name order, for the names of every record format and of the archives;
 *   "-" for standard input;
 * - opens archives and compressed files (lib/input/archive.c, libarchive) and
 *   streams their members, one level of archive inside an archive;
 * - chooses each input's format: --from, else by name, else by content;
 * - reads records through the format's reader in a thread of its own and,
 *   when asked, replays them there too (KIFU_PIPELINE_REPLAY_EARLY), so
 *   that reading overlaps with what the consumer does;
 * - calls the consumer, in the caller's thread, for each item.
 *
 *     static int consume(const struct kifu_item *it, void *ctx) { ... return 0; }
 *
 *     struct kifu_pipeline_options opt = KIFU_PIPELINE_OPTIONS_INIT;
 *     opt.flags = KIFU_PIPELINE_REPLAY;
 *     ret = kifu_pipeline_run(paths, n, &opt, consume, ctx, &summary, &err);
 *
 * Memory stays flat in the number of games: a bounded ring of records sits
 * between the threads, and nothing is kept of an input once it is read.
 */
#ifndef KIFU_PIPELINE_H
#define KIFU_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/format.h"
#include "kifu/record.h"
#include "kifu/replay.h"

enum kifu_item_kind {
	KIFU_ITEM_INPUT,   /* an input starts: input, format, size */
	KIFU_ITEM_RECORD,  /* a record of the current input */
	KIFU_ITEM_ERROR,   /* the current input (or a path) failed: err; the run goes on */
	KIFU_ITEM_WARNING  /* a note on the inputs: err (no records under a path, a dangling link, ...) */
};

struct kifu_item {
	int kind;                     /* enum kifu_item_kind */
	const char *input;            /* the name diagnostics use: "a.pgn", "<stdin>", "g.zip(r1.pgn)" */
	const struct kifu_format *format; /* INPUT, RECORD */
	long long size;               /* INPUT: bytes, -1 when unknown */

	/* RECORD: the record (the consumer may take it, setting *rec to NULL), its diagnostics */
	struct kifu_record **rec;
	struct kifu_diags *diags;
	struct kifu_replay *replay;   /* with KIFU_PIPELINE_REPLAY: the replay of the record (the
					 consumer may take its contents, leaving KIFU_REPLAY_INIT) */
	int valid;                    /* with KIFU_PIPELINE_REPLAY: no error, replayed to the end */
	const char *raw;              /* with KIFU_PIPELINE_RAW, invalid records: the record's text */
	size_t raw_len;
	int raw_truncated;            /* raw holds only the first KIFU_PIPELINE_RAW_MAX bytes */

	uint64_t bytes;               /* bytes of the inputs read so far (progress) */
	const struct kifu_error *err; /* ERROR, WARNING: what happened (err->code a KIFU_E*) */
};

/* Replay every record (kifu_record_validate) before the consumer sees it. */
#define KIFU_PIPELINE_REPLAY 0x1
/* ...and do it in the reading thread (when the consumer's own work is the slower half). */
#define KIFU_PIPELINE_REPLAY_EARLY 0x2
/* Keep the text of every invalid record (the quarantine). */
#define KIFU_PIPELINE_RAW 0x4

#define KIFU_PIPELINE_RAW_MAX (1 << 20)

/* Limits against hostile archives (INTEROP.md): a member past them is an error, the run goes on. */
#define KIFU_ARCHIVE_MAX_MEMBER (1LL << 30) /* bytes a member may expand to */
#define KIFU_ARCHIVE_MAX_RATIO 1000          /* expanded : compressed */

struct kifu_pipeline_options {
	const struct kifu_format *from; /* --from: the format of every input; NULL: detect */
	unsigned flags;                 /* KIFU_PIPELINE_* */
	unsigned validate_flags;        /* KIFU_VALIDATE_* for the replay */
	long long max_member;           /* archive limits (0: the defaults above) */
	long max_ratio;
};

#define KIFU_PIPELINE_OPTIONS_INIT { NULL, 0, 0, 0, 0 }

/* What a run found, besides what the items said. */
struct kifu_pipeline_summary {
	long inputs;          /* inputs read (files, members, stdin) */
	long records;
	long skipped;         /* archive members whose names match no record pattern */
	long failed;          /* ERROR items */
};

/*
 * Reads every record under paths[0..n) and calls consume for each item, in
 * input order, from the calling thread. consume returns 0 to go on, or a
 * negative value to stop the run (which then returns that value). Returns 0
 * (problems with inputs are ERROR items, counted in summary->failed), a
 * negative consume() value, or KIFU_ENOMEM / KIFU_ERROR (err says why: out
 * of memory, a thread that could not start).
 */
int kifu_pipeline_run(const char *const *paths, size_t n, const struct kifu_pipeline_options *opt,
		      int (*consume)(const struct kifu_item *item, void *ctx), void *ctx,
		      struct kifu_pipeline_summary *summary, struct kifu_error *err);

/*
 * The bytes the inputs under paths hold, as stored (an archive counts its
 * compressed size), for a progress bar's estimate; -1 when one is standard
 * input. Quiet: problems are the run's to report.
 */
long long kifu_pipeline_size(const char *const *paths, size_t n);

/*
 * The file-name patterns the pipeline looks for in directories, for
 * messages: "*.yaml, *.yml, *.json, *.pgn, *.csv and archives".
 */
const char *kifu_pipeline_patterns(void);

#endif
