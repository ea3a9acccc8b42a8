/*
 * The reading pipeline (include/kifu/pipeline.h): one reading thread finds
 * the inputs (lib/input/input.c: files, directories, standard input, archives),
 * reads their records through the formats' readers and, with
 * KIFU_PIPELINE_REPLAY_EARLY, replays them; the calling thread takes the
 * items from a bounded ring, in order, replays them when the reading thread
 * has not, and hands them to the consumer. The ring and its hand-over
 * between the two threads are lib/input/ring.c.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/pipeline.h"
#include "input/pipeline_impl.h"

static void *reading_thread(void *arg)
{
	struct kifu_ring *p = arg;
	struct kifu_slot *sl;

	kifu_input_read_all_(p);
	sl = kifu_ring_acquire_(p, 0);
	if (sl) {
		sl->kind = KIFU_SLOT_END;
		kifu_ring_publish_(p);
	}
	kifu_ring_flush_(p);
	return NULL;
}

/* Hands one slot to the consumer; returns 1 at the end, 0 to go on, or a negative value to stop. */
static int deliver(struct kifu_ring *p, struct kifu_slot *sl, char **input,
		   int (*consume)(const struct kifu_item *, void *), void *ctx,
		   struct kifu_pipeline_summary *sum)
{
	struct kifu_item it;
	int ret;

	memset(&it, 0, sizeof(it));
	it.input = *input;
	it.format = sl->format;
	it.size = sl->size;
	it.bytes = sl->bytes;
	switch (sl->kind) {
	case KIFU_SLOT_END:
		return 1;
	case KIFU_SLOT_INPUT:
		/* The name is kept: the reading thread reuses the slot while the input is consumed. */
		free(*input);
		*input = sl->input;
		sl->input = NULL;
		it.kind = KIFU_ITEM_INPUT;
		it.input = *input;
		sum->inputs++;
		break;
	case KIFU_SLOT_RECORD:
		if ((p->opt.flags & KIFU_PIPELINE_REPLAY) && !sl->replayed) {
			if (kifu_record_validate(&sl->replay, &sl->diags, sl->rec,
						 p->opt.validate_flags, &sl->err) < 0) {
				p->err = sl->err;
				return KIFU_ENOMEM;
			}
			kifu_ring_judge_(sl);
		}
		it.kind = KIFU_ITEM_RECORD;
		it.rec = &sl->rec;
		it.diags = &sl->diags;
		it.replay = (p->opt.flags & KIFU_PIPELINE_REPLAY) ? &sl->replay : NULL;
		it.valid = sl->valid;
		if (sl->raw.data) {
			it.raw = sl->raw.data;
			it.raw_len = sl->raw.len;
			it.raw_truncated = sl->raw_truncated;
		}
		sum->records++;
		break;
	case KIFU_SLOT_ERROR:
	case KIFU_SLOT_WARNING:
		it.kind = sl->kind == KIFU_SLOT_ERROR ? KIFU_ITEM_ERROR : KIFU_ITEM_WARNING;
		if (sl->input)
			it.input = sl->input;
		it.err = &sl->err;
		sum->failed += sl->kind == KIFU_SLOT_ERROR;
		break;
	}
	ret = consume(&it, ctx);
	kifu_record_free(sl->rec);
	sl->rec = NULL;
	return ret < 0 ? ret : 0;
}

int kifu_pipeline_run(const char *const *paths, size_t n, const struct kifu_pipeline_options *opt,
		      int (*consume)(const struct kifu_item *item, void *ctx), void *ctx,
		      struct kifu_pipeline_summary *summary, struct kifu_error *err)
{
	static const struct kifu_pipeline_options defaults = KIFU_PIPELINE_OPTIONS_INIT;
	struct kifu_pipeline_summary sum;
	struct kifu_ring *p = kifu_ring_new_(opt ? opt : &defaults, paths, n);
	char *input = NULL;
	pthread_t thread;
	int ret = 0;

	memset(&sum, 0, sizeof(sum));
	if (!p)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (pthread_create(&thread, NULL, reading_thread, p) != 0) {
		ret = kifu_error_set(err, KIFU_ERROR, "cannot start a thread");
		goto out;
	}
	for (;;) {
		struct kifu_slot *sl;

		if (p->tail == p->head_seen) {
			kifu_ring_sync_(p, 1);
			continue;
		}
		sl = &p->ring[p->tail % KIFU_RING];
		ret = deliver(p, sl, &input, consume, ctx, &sum);
		p->tail++;
		if (ret != 0)
			break;
		if (p->tail - p->given >= KIFU_RING_BATCH)
			kifu_ring_sync_(p, 0);
	}
	if (ret == KIFU_ENOMEM && err)
		*err = p->err;
	if (ret > 0)
		ret = 0;
	kifu_ring_stop_(p);
	pthread_join(thread, NULL);
	sum.skipped = p->skipped;
out:
	kifu_ring_free_(p);
	free(input);
	if (summary)
		*summary = sum;
	return ret;
}
