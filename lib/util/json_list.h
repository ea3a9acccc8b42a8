/*
 * Library-private (not installed): reading a game's JSON move list
 * (game_data.moves, an array of strings) element by element without
 * parsing it into a tree. The store keeps every game's moves so; the tree,
 * the reports and the pattern search read one move, or replay them all,
 * for thousands of games a question, where a parser's allocations per
 * element cost more than the replay. One implementation in
 * lib/util/json_list.c for every caller.
 */
#ifndef KIFU_UTIL_JSON_LIST_H
#define KIFU_UTIL_JSON_LIST_H

#include <stddef.h>

/* A position in an array being read: set by kifu_json_list_open_. */
struct kifu_json_list {
	const char *p, *end;
	int started;
};

/* One element: its bytes (a string's without the quotes, still escaped). */
struct kifu_json_item {
	const char *text;
	size_t len;
	int is_string;
	int escaped; /* a string holding an escape: decode it (kifu_json_item_decode_) */
};

/* Starts reading the len bytes at json; -1 when they do not open an array. */
int kifu_json_list_open_(struct kifu_json_list *l, const char *json, size_t len);

/*
 * The next element: 1 and *it, 0 at the end of the array, -1 when the
 * text is not an array of strings, numbers, true, false and null.
 */
int kifu_json_list_next_(struct kifu_json_list *l, struct kifu_json_item *it);

/*
 * A string element as text, NUL-terminated: when it holds no escape, its
 * bytes copied; else decoded. 0, or -1 when it does not fit in size bytes
 * or its escapes are invalid (or decode to a NUL).
 */
int kifu_json_item_decode_(char *buf, size_t size, const struct kifu_json_item *it);

#endif
