/*
 * The streaming reader of game records in the YAML notation of format 1
 * (spec/RECORDS.md): one record per YAML document, read from a file, a
 * stream, a memory block or a byte source, with the structural problems of
 * each document (YAML errors, keys, types, limits) as diagnostics.
 *
 * Typical use (kifu-validate):
 *
 *     struct kifu_reader *r;
 *     struct kifu_record *rec;
 *     struct kifu_diags diags = KIFU_DIAGS_INIT;
 *     struct kifu_replay replay = KIFU_REPLAY_INIT;
 *
 *     kifu_reader_open_file(&r, path, &err);
 *     while ((ret = kifu_reader_next(&rec, &diags, r, &err)) > 0) {
 *             kifu_record_validate(&replay, &diags, rec, 0, &err);
 *             ... diags.errors == 0 means valid ...
 *             kifu_record_free(rec);
 *     }
 *     kifu_reader_free(r);
 *
 * Nothing here keeps global state: different threads may use different
 * readers at once (kifu-validate reads in one thread and validates in
 * another).
 */
#ifndef KIFU_READER_H
#define KIFU_READER_H

#include <stddef.h>
#include <stdio.h>

#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/record.h"

struct kifu_reader;

/*
 * Opens a reader over a file (read in chunks, never whole), a stream (not
 * closed by the reader), or a memory block (copied by reference: data must
 * outlive the reader). name is used in kifu_error messages only.
 */
int kifu_reader_open_file(struct kifu_reader **out, const char *path, struct kifu_error *err);
int kifu_reader_open_fp(struct kifu_reader **out, FILE *fp, const char *name,
			struct kifu_error *err);
int kifu_reader_open_mem(struct kifu_reader **out, const void *data, size_t size,
			 const char *name, struct kifu_error *err);
void kifu_reader_free(struct kifu_reader *r);

/*
 * Opens a reader over a byte stream (include/kifu/format.h): a file, a
 * member of an archive. src is borrowed and must outlive the reader; a
 * failure of src->read ends the input with its own code and message.
 */
struct kifu_source;
int kifu_reader_open_source(struct kifu_reader **out, const struct kifu_source *src,
			    struct kifu_error *err);

/*
 * Reads the next YAML document into *out (the caller frees it) and appends
 * its structural problems (YAML errors, keys, types, limits) to diags.
 * Returns 1 when a record was produced, 0 at the end of the stream, or
 * KIFU_EIO / KIFU_ENOMEM (err says why; *out is NULL). A YAML syntax error
 * yields one last record with KIFU_RECORD_SYNTAX_ERROR set and the error in
 * diags, numbered as the game after the last complete one; the next call
 * returns 0.
 */
int kifu_reader_next(struct kifu_record **out, struct kifu_diags *diags, struct kifu_reader *r,
		     struct kifu_error *err);

/* Documents read so far (complete or not). */
int kifu_reader_count(const struct kifu_reader *r);

#endif
