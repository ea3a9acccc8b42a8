/*
 * A string arena (private to libkifu, not installed): strings copied into a
 * chain of blocks that never move and are freed all at once, so that a
 * record or a report is a handful of allocations however many strings it
 * holds. An arena is a pointer to its newest block, NULL when empty (the
 * public struct kifu_record holds one as an opaque pointer).
 */
#ifndef KIFU_UTIL_ARENA_H
#define KIFU_UTIL_ARENA_H

#include <stddef.h>

struct kifu_arena_block;

/* A copy of s (n bytes, NUL added) that lives as long as the arena; NULL when out of memory. */
char *kifu_arena_strndup_(struct kifu_arena_block **arena, const char *s, size_t n);

/* Frees every block; the arena is empty again. */
void kifu_arena_release_(struct kifu_arena_block **arena);

#endif
