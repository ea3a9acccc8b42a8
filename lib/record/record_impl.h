/*
 * Private helpers shared by the record modules (record.c, record_read.c,
 * record_check.c, record_write.c): the record's string arena and the
 * growable arrays of players, turns and tags. Not installed.
 */
#ifndef KIFU_RECORD_IMPL_H
#define KIFU_RECORD_IMPL_H

#include <stddef.h>

#include "kifu/record.h"

/* Copies n bytes of s (plus a NUL) into rec's arena; NULL when out of memory. */
char *kifu_record_strndup_(struct kifu_record *rec, const char *s, size_t n);

/* Appends a zeroed element; NULL when out of memory. */
struct kifu_record_player *kifu_record_push_player_(struct kifu_record *rec);
struct kifu_turn *kifu_record_push_turn_(struct kifu_record *rec);
struct kifu_tag *kifu_record_push_tag_(struct kifu_record *rec);

/* The address of the string field of key, or NULL for keys that are not strings. */
char **kifu_record_field_(struct kifu_record *rec, int key);

/*
 * An eval's `expected` as written (s, n bytes): a YAML integer or float in
 * [0, 1]. Returns 0 with *out set, KIFU_EPARSE for no number, KIFU_ERANGE
 * outside [0, 1].
 */
int kifu_record_expected_(const char *s, size_t n, double *out);

#endif
