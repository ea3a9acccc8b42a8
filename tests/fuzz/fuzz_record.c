/*
 * libFuzzer harness of the record reader and validator: the input bytes are
 * one record file. Every record is validated (moves replayed); a record
 * that comes out valid is written back and must read back valid with the
 * same number of moves (the round trip of RECORDS.md), else the harness
 * aborts. Sanitizers catch the rest (memory errors, undefined behaviour,
 * leaks, unbounded memory through -rss_limit_mb).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/diag.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const struct kifu_record *rec, const struct kifu_replay *rp)
{
	struct kifu_buf out = KIFU_BUF_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp2 = KIFU_REPLAY_INIT;
	struct kifu_reader *r;
	struct kifu_record *again = NULL;
	struct kifu_error err;
	int n;

	kifu_error_clear(&err);
	if (kifu_record_write(&out, rec, rp, &err) < 0 || !out.data)
		abort();
	if (kifu_reader_open_mem(&r, out.data, out.len, "round-trip", &err) < 0)
		abort();
	n = kifu_reader_next(&again, &diags, r, &err);
	if (n != 1 || kifu_record_validate(&rp2, &diags, again, KIFU_VALIDATE_NO_CLOCK, &err) < 0)
		abort();
	if (diags.errors || again->nturns != rec->nturns || rp2.nplies != rp->nplies ||
	    (rp->nplies && rp2.hashes[rp2.nplies] != rp->hashes[rp->nplies])) {
		fprintf(stderr, "round trip lost the record:\n%s\n", out.data);
		if (diags.n)
			fprintf(stderr, "%s\n", diags.v[0].message);
		abort();
	}
	kifu_record_free(again);
	if (kifu_reader_next(&again, &diags, r, &err) != 0)
		abort();
	kifu_reader_free(r);
	kifu_replay_release(&rp2);
	kifu_diags_release(&diags);
	kifu_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_error err;
	int ret, games = 0;

	kifu_error_clear(&err);
	if (kifu_reader_open_mem(&r, data, size, "fuzz", &err) < 0)
		return 0;
	while ((ret = kifu_reader_next(&rec, &diags, r, &err)) > 0) {
		games++;
		if (rec->number != games)
			abort();
		if (kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK,
					 &err) < 0)
			abort();
		if (diags.errors == 0) {
			if (rec->flags & (KIFU_RECORD_SYNTAX_ERROR | KIFU_RECORD_NOT_A_GAME))
				abort(); /* such records always carry an error */
			round_trip(rec, &rp);
		}
		kifu_diags_reset(&diags);
		kifu_record_free(rec);
	}
	if (ret < 0 && ret != KIFU_ENOMEM)
		abort(); /* memory input never fails to read */
	kifu_reader_free(r);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	return 0;
}
