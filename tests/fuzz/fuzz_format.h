/*
 * The libFuzzer harness of one foreign format, included by fuzz_pgn.c,
 * fuzz_csv.c and fuzz_apgr.c with FUZZ_FORMAT set to the format's struct:
 * the input bytes are one file of that format, handed to the reader in
 * pieces of 1 to 64 bytes (the last input byte chooses) so that every
 * boundary of the reader's buffer is crossed. Every record is validated; a
 * valid one is written back in the same format and must read back valid
 * with the same moves and final position (and, for apgr, the same canonical
 * YAML: that round trip is lossless), else the harness aborts. Sanitizers
 * catch the rest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"
#include "import_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
	const uint8_t *data;
	size_t size, pos, chunk;
};

static long mem_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct mem *m = ctx;
	size_t k = m->size - m->pos;

	(void)err;
	if (k > n)
		k = n;
	if (k > m->chunk)
		k = m->chunk;
	memcpy(buf, m->data + m->pos, k);
	m->pos += k;
	return (long)k;
}

static void round_trip(const struct kifu_record *rec, const struct kifu_replay *rp)
{
	const struct kifu_format *f = &FUZZ_FORMAT;
	struct kifu_buf out = KIFU_BUF_INIT, y1 = KIFU_BUF_INIT, y2 = KIFU_BUF_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp2 = KIFU_REPLAY_INIT;
	struct kifu_record *again = NULL;
	struct kifu_error err;
	struct mem m;
	struct kifu_source src = { mem_read, &m, "round-trip" };
	void *st;
	int ret;

	kifu_error_clear(&err);
	ret = f->write(&out, &rec, &rp, 1, &err);
	if (ret == KIFU_EINVALID) {
		kifu_buf_release(&out);
		return; /* a record this format refuses (said why) */
	}
	if (ret < 0 || !out.data)
		abort();
	m = (struct mem){ (const uint8_t *)out.data, out.len, 0, 4096 };
	if (f->open(&st, &src, &err) < 0)
		abort();
	if (f->next(&again, &diags, st, &err) != 1 ||
	    kifu_record_validate(&rp2, &diags, again, KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK,
				 &err) < 0)
		abort();
	if (diags.errors || rp2.nplies != rp->nplies ||
	    (rp->nplies && rp2.hashes[rp2.nplies] != rp->hashes[rp->nplies])) {
		fprintf(stderr, "round trip lost the record:\n%s\n", out.data);
		if (diags.n)
			fprintf(stderr, "%s\n", diags.v[0].message);
		abort();
	}
	if (f == &kifu_format_apgr_) {
		kifu_record_write(&y1, rec, rp, &err);
		kifu_record_write(&y2, again, &rp2, &err);
		if (strcmp(y1.data, y2.data)) {
			fprintf(stderr, "apgr round trip changed the record:\n%s\n----\n%s\nvia\n%s\n",
				y1.data, y2.data, out.data);
			abort();
		}
	}
	kifu_record_free(again);
	if (f->next(&again, &diags, st, &err) != 0)
		abort();
	f->close(st);
	kifu_replay_release(&rp2);
	kifu_diags_release(&diags);
	kifu_buf_release(&out);
	kifu_buf_release(&y1);
	kifu_buf_release(&y2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct kifu_format *f = &FUZZ_FORMAT;
	struct mem m = { data, size, 0, size ? (size_t)data[size - 1] % 64 + 1 : 1 };
	struct kifu_source src = { mem_read, &m, "fuzz" };
	struct kifu_record *rec;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_error err;
	void *st;
	int ret, games = 0;

	kifu_error_clear(&err);
	if (f->open(&st, &src, &err) < 0)
		return 0;
	while ((ret = f->next(&rec, &diags, st, &err)) > 0) {
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
	f->close(st);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	return 0;
}
