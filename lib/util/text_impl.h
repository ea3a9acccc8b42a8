/*
 * Library-private text helpers (not installed): cutting a string to a
 * length without splitting a UTF-8 sequence, with an ellipsis when cut, for
 * quoting input in messages and for labels in charts. One implementation in
 * lib/util/text.c for every caller.
 */
#ifndef KIFU_UTIL_TEXT_IMPL_H
#define KIFU_UTIL_TEXT_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* The longest text quoted in a message, in bytes. */
#define KIFU_TEXT_CLIP 60

/*
 * The n bytes at s (up to the NUL when n is SIZE_MAX) fit for quoting in a
 * message: as they are when at most KIFU_TEXT_CLIP bytes, else the longest
 * start of at most KIFU_TEXT_CLIP - 3 bytes that ends on a character
 * boundary, followed by "...". Written to buf (NUL-terminated) and returned.
 */
const char *kifu_text_clip_(char buf[KIFU_TEXT_CLIP + 1], const char *s, size_t n);

/*
 * s cut to at most max characters for a label: when longer, its first
 * max - 1 characters and an ellipsis ("\u2026"). Written to dst (size bytes,
 * NUL-terminated; when the ellipsis would not fit, cut at size - 1 bytes
 * without it). A character is a byte and the continuation bytes after it.
 */
void kifu_text_clip_chars_(char *dst, size_t size, const char *s, size_t max);

#endif
