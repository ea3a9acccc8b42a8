/*
 * The reading pipeline (include/kifu/pipeline.h): one reading thread finds
 * the inputs (lib/input/input.c: files, directories, standard input, archives),
 * reads their records through the formats' readers and, with
 * KIFU_PIPELINE_REPLAY_EARLY, replays them; the calling thread takes the
 * items from a bounded ring, in order, replays them when the reading thread
 * has not, and hands them to the consumer.
 *
 * The two threads meet (a lock, and a wake-up only when the other one
 * sleeps) once per batch of slots, or when the reader goes back to its
 * input for more bytes: on a busy machine a meeting costs more than a
 * record, and a slow input (a pipe, a terminal) still sees each record
 * handed on as soon as it is read.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/pipeline.h"
#include "input/pipeline_impl.h"

static void slot_clear(struct kifu_slot *sl)
{
	free(sl->input);
	sl->input = NULL;
	kifu_record_free(sl->rec);
	sl->rec = NULL;
	kifu_diags_reset(&sl->diags);
	kifu_buf_reset(&sl->raw);
	kifu_error_clear(&sl->err);
	sl->format = NULL;
	sl->size = -1;
	sl->valid = 0;
	sl->replayed = 0;
	sl->raw_truncated = 0;
}

/* ---- the reading side ---- */

struct kifu_slot *kifu_ring_acquire(struct kifu_ring *p, unsigned ahead)
{
	struct kifu_slot *sl;

	if (p->head + ahead - p->tail_seen >= KIFU_RING) {
		pthread_mutex_lock(&p->lock);
		p->shared_head = p->head;
		if (p->consumer_sleeps)
			pthread_cond_broadcast(&p->changed);
		while (p->head + ahead - p->shared_tail >= KIFU_RING && !p->stop) {
			p->reader_sleeps = 1;
			pthread_cond_wait(&p->changed, &p->lock);
			p->reader_sleeps = 0;
		}
		p->tail_seen = p->shared_tail;
		pthread_mutex_unlock(&p->lock);
	}
	if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
		return NULL;
	sl = &p->ring[(p->head + ahead) % KIFU_RING];
	slot_clear(sl);
	return sl;
}

/* Makes the slots read so far visible; returns whether the consumer wants no more. */
int kifu_ring_flush(struct kifu_ring *p)
{
	int stop;

	pthread_mutex_lock(&p->lock);
	p->shared_head = p->head;
	p->published = p->head;
	if (p->consumer_sleeps)
		pthread_cond_broadcast(&p->changed);
	p->tail_seen = p->shared_tail;
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

void kifu_ring_publish(struct kifu_ring *p)
{
	p->head++;
	if (p->head - p->published >= KIFU_RING_BATCH)
		kifu_ring_flush(p);
}

static void *reading_thread(void *arg)
{
	struct kifu_ring *p = arg;
	struct kifu_slot *sl;

	kifu_input_read_all(p);
	sl = kifu_ring_acquire(p, 0);
	if (sl) {
		sl->kind = KIFU_SLOT_END;
		kifu_ring_publish(p);
	}
	kifu_ring_flush(p);
	return NULL;
}

/* ---- the consuming side ---- */

/* Gives back the slots consumed and, when `wait`, waits for more; updates the head seen. */
static void consumer_sync(struct kifu_ring *p, int wait)
{
	pthread_mutex_lock(&p->lock);
	p->shared_tail = p->tail;
	p->given = p->tail;
	if (p->reader_sleeps)
		pthread_cond_broadcast(&p->changed);
	while (wait && p->shared_head == p->tail) {
		p->consumer_sleeps = 1;
		pthread_cond_wait(&p->changed, &p->lock);
		p->consumer_sleeps = 0;
	}
	p->head_seen = p->shared_head;
	pthread_mutex_unlock(&p->lock);
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
			kifu_pipeline_judge(sl);
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

void kifu_pipeline_judge(struct kifu_slot *sl)
{
	sl->replayed = 1;
	sl->valid = sl->diags.errors == 0 && sl->replay.complete &&
		    !(sl->rec->flags & KIFU_RECORD_SYNTAX_ERROR);
}

int kifu_pipeline_run(const char *const *paths, size_t n, const struct kifu_pipeline_options *opt,
		      int (*consume)(const struct kifu_item *item, void *ctx), void *ctx,
		      struct kifu_pipeline_summary *summary, struct kifu_error *err)
{
	static const struct kifu_pipeline_options defaults = KIFU_PIPELINE_OPTIONS_INIT;
	struct kifu_pipeline_summary sum;
	struct kifu_ring *p = calloc(1, sizeof(*p));
	char *input = NULL;
	pthread_t thread;
	int ret = 0, i;

	memset(&sum, 0, sizeof(sum));
	if (!p)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	p->opt = opt ? *opt : defaults;
	p->paths = paths;
	p->npaths = n;
	for (i = 0; i < KIFU_RING; i++) {
		p->ring[i].replay = (struct kifu_replay)KIFU_REPLAY_INIT;
		p->ring[i].size = -1;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (pthread_create(&thread, NULL, reading_thread, p) != 0) {
		ret = kifu_error_set(err, KIFU_ERROR, "cannot start a thread");
		goto out;
	}
	for (;;) {
		struct kifu_slot *sl;

		if (p->tail == p->head_seen) {
			consumer_sync(p, 1);
			continue;
		}
		sl = &p->ring[p->tail % KIFU_RING];
		ret = deliver(p, sl, &input, consume, ctx, &sum);
		p->tail++;
		if (ret != 0)
			break;
		if (p->tail - p->given >= KIFU_RING_BATCH)
			consumer_sync(p, 0);
	}
	if (ret == KIFU_ENOMEM && err)
		*err = p->err;
	if (ret > 0)
		ret = 0;
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	pthread_join(thread, NULL);
	sum.skipped = p->skipped;
out:
	for (i = 0; i < KIFU_RING; i++) {
		slot_clear(&p->ring[i]);
		kifu_diags_release(&p->ring[i].diags);
		kifu_replay_release(&p->ring[i].replay);
		kifu_buf_release(&p->ring[i].raw);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(input);
	free(p);
	if (summary)
		*summary = sum;
	return ret;
}
