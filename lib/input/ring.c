/*
 * The ring between the reading thread (lib/input/input.c) and the
 * consuming thread (lib/input/pipeline.c): a bounded array of slots, each
 * either a record read, an input begun, a note on the inputs or the end,
 * handed over in order.
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

#include "input/ring.h"

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

struct kifu_ring *kifu_ring_new_(const struct kifu_pipeline_options *opt,
				 const char *const *paths, size_t n)
{
	struct kifu_ring *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->opt = *opt;
	p->paths = paths;
	p->npaths = n;
	for (i = 0; i < KIFU_RING; i++) {
		p->ring[i].replay = (struct kifu_replay)KIFU_REPLAY_INIT;
		p->ring[i].size = -1;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	return p;
}

void kifu_ring_free_(struct kifu_ring *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < KIFU_RING; i++) {
		slot_clear(&p->ring[i]);
		kifu_diags_release(&p->ring[i].diags);
		kifu_replay_release(&p->ring[i].replay);
		kifu_buf_release(&p->ring[i].raw);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p);
}

/* ---- the reading side ---- */

struct kifu_slot *kifu_ring_acquire_(struct kifu_ring *p, unsigned ahead)
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

int kifu_ring_flush_(struct kifu_ring *p)
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

void kifu_ring_publish_(struct kifu_ring *p)
{
	p->head++;
	if (p->head - p->published >= KIFU_RING_BATCH)
		kifu_ring_flush_(p);
}

/* ---- the consuming side ---- */

void kifu_ring_sync_(struct kifu_ring *p, int wait)
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

void kifu_ring_judge_(struct kifu_slot *sl)
{
	sl->replayed = 1;
	sl->valid = sl->diags.errors == 0 && sl->replay.complete &&
		    !(sl->rec->flags & KIFU_RECORD_SYNTAX_ERROR);
}

void kifu_ring_stop_(struct kifu_ring *p)
{
	pthread_mutex_lock(&p->lock);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}
