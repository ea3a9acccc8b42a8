/*
 * The string arena of records, reports and search results. Blocks start
 * small (a record of a short game needs one) and double up to a step, so
 * that many small records stay small and a large report takes few blocks;
 * a string larger than the next block gets a block of its own behind the
 * newest one, which keeps serving the strings after it.
 */
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

#define ARENA_FIRST 1024
#define ARENA_MAX_STEP (256 * 1024)

struct kifu_arena_block {
	struct kifu_arena_block *next;
	size_t size, used;
	char data[];
};

char *kifu_arena_strndup_(struct kifu_arena_block **arena, const char *s, size_t n)
{
	struct kifu_arena_block *b = *arena;
	char *p;

	if (n == (size_t)-1)
		return NULL; /* no room for the NUL */
	if (!b || b->size - b->used < n + 1) {
		size_t step = b ? b->size * 2 : ARENA_FIRST, size;

		if (step > ARENA_MAX_STEP)
			step = ARENA_MAX_STEP;
		size = n + 1 > step ? n + 1 : step;
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		if (*arena && size > step) {
			b->next = (*arena)->next;
			(*arena)->next = b;
		} else {
			b->next = *arena;
			*arena = b;
		}
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

void kifu_arena_release_(struct kifu_arena_block **arena)
{
	struct kifu_arena_block *b, *next;

	for (b = *arena; b; b = next) {
		next = b->next;
		free(b);
	}
	*arena = NULL;
}
