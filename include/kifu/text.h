/*
 * Small text helpers shared by the library and the tools: how far apart
 * two names are (for "did you mean" hints on a mistyped key, option, game
 * or variant name).
 */
#ifndef KIFU_TEXT_H
#define KIFU_TEXT_H

#include <stddef.h>

/* The largest edit distance at which a known name is offered as a hint. */
#define KIFU_NEAR_MAX 2

/*
 * Edit distance between a and b (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours, one each), counted
 * in bytes; SIZE_MAX when either is longer than 64 bytes (no hint is worth
 * that much work).
 */
size_t kifu_edit_distance(const char *a, const char *b);

/*
 * The known name closest to an unknown one: feed every candidate to
 * kifu_near_add, then kifu_near_best gives the one at the smallest distance
 * when that distance is at most KIFU_NEAR_MAX, smaller than the unknown
 * name's length, and no other candidate is as close; else NULL.
 */
struct kifu_near {
	const char *name;  /* the unknown name */
	const char *best;
	size_t dist;
	int ties;
};

/*
 * The display width of n bytes of UTF-8 text (a table's cells): its code
 * points, the bytes less the continuation bytes (10xxxxxx; wide characters
 * are rare in names), counted eight ASCII bytes at a time.
 */
size_t kifu_text_width(const char *s, size_t n);

void kifu_near_init(struct kifu_near *n, const char *name);
void kifu_near_add(struct kifu_near *n, const char *candidate);
const char *kifu_near_best(const struct kifu_near *n);

#endif
