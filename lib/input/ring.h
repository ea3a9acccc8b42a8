/*
 * Private to the reading pipeline: the ring between the reading thread
 * (lib/input/input.c) and the consumer (lib/input/pipeline.c), its slots,
 * and the hand-over of both sides (lib/input/ring.c).
 */
#ifndef KIFU_RING_H
#define KIFU_RING_H

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

/* A ring of cleared slots for the inputs paths[0..n-1] read with opt; NULL when out of memory. */
struct kifu_ring *kifu_ring_new_(const struct kifu_pipeline_options *opt,
				 const char *const *paths, size_t n);
/* Releases the ring and whatever its slots still hold; takes NULL. */
void kifu_ring_free_(struct kifu_ring *p);

/* The reader: the slot `ahead` past its head, cleared, once there is room; NULL when stopped. */
struct kifu_slot *kifu_ring_acquire_(struct kifu_ring *p, unsigned ahead);
/* The reader: the slot at the head is filled: counts it, and shows a batch to the consumer. */
void kifu_ring_publish_(struct kifu_ring *p);
/* The reader: shows every published slot to the consumer now; returns whether it wants no more. */
int kifu_ring_flush_(struct kifu_ring *p);

/* The consumer: gives back the slots consumed and, when `wait`, waits for more; updates the head seen. */
void kifu_ring_sync_(struct kifu_ring *p, int wait);
/* The consumer wants no more: wakes the reader, whose next acquire returns NULL. */
void kifu_ring_stop_(struct kifu_ring *p);

/* A replayed slot's verdict. */
void kifu_ring_judge_(struct kifu_slot *sl);

#endif
