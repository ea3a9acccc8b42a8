/*
 * Private to the reading pipeline: what the consumer (lib/input/pipeline.c)
 * asks of the reading thread (lib/input/input.c). The ring between them is
 * lib/input/ring.h.
 */
#ifndef KIFU_PIPELINE_IMPL_H
#define KIFU_PIPELINE_IMPL_H

#include "input/ring.h"

/* The reading thread's work: every input of p->paths into the ring. */
void kifu_input_read_all_(struct kifu_ring *p);

#endif
