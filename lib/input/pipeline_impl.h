/*
 * Private to the reading pipeline: the ring between the reading thread
 * (lib/input/input.c) and the consumer (lib/input/pipeline.c), and its slots.
 */
#ifndef KIFU_PIPELINE_IMPL_H
#define KIFU_PIPELINE_IMPL_H

#include <pthread.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/pipeline.h"

#define KIFU_RING 128       /* slots read ahead of the consumer */
#define KIFU_RING_BATCH 32  /* slots either side takes or gives back at a time */

enum kifu_slot_kind {
	KIFU_SLOT_INPUT, KIFU_SLOT_RECORD, KIFU_SLOT_ERROR, KIFU_SLOT_WARNING, KIFU_SLOT_END
};

struct kifu_slot {
	int kind;
	char *input;                /* INPUT: the name (owned); ERROR, WARNING: a path, or NULL */
	const struct kifu_format *format;
	long long size;
	struct kifu_record *rec;
	struct kifu_diags diags;
	struct kifu_replay replay;
	int replayed, valid;
	struct kifu_buf raw;        /* KIFU_PIPELINE_RAW: the text of an invalid record */
	int raw_truncated;
	uint64_t bytes;
	struct kifu_error err;
};

struct kifu_ring {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct kifu_slot ring[KIFU_RING];
	/* The reader's own: slots filled, published, and the consumer's tail last seen. */
	unsigned head, published, tail_seen;
	/* The consumer's own: slots consumed, given back, and the head last seen. */
	unsigned tail, given, head_seen;
	/* Under the lock. */
	unsigned shared_head, shared_tail;
	int reader_sleeps, consumer_sleeps;
	int stop;                   /* the consumer wants no more */

	struct kifu_pipeline_options opt;
	const char *const *paths;
	size_t npaths;
	long skipped;               /* the reader's: archive members passed over */
	long errors;                /* the reader's: ERROR slots queued */
	uint64_t bytes;             /* the reader's: input bytes read */
	struct kifu_error err;      /* the consumer's failure */
};

/* The slot `ahead` past the reader's head, cleared, once there is room; NULL when stopped. */
struct kifu_slot *kifu_ring_acquire(struct kifu_ring *p, unsigned ahead);
/* The slot at the head is filled: counts it, and shows a batch to the consumer. */
void kifu_ring_publish(struct kifu_ring *p);
/* Shows every published slot to the consumer now; returns whether it wants no more. */
int kifu_ring_flush(struct kifu_ring *p);

/* A replayed slot's verdict. */
void kifu_pipeline_judge(struct kifu_slot *sl);

/* The reading thread's work: every input of p->paths into the ring. */
void kifu_input_read_all(struct kifu_ring *p);

#endif
