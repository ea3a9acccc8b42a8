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

/*
 * When s starts with a character that is invisible or changes how the text
 * around it is shown, the length of its UTF-8 form (2 or 3), its code point
 * in *cp; else 0. Those are the C1 controls (U+0080..U+009F), the line and
 * paragraph separators (U+2028, U+2029) and the bidirectional controls: the
 * marks (U+200E, U+200F, U+061C), embeddings and overrides (U+202A..U+202E)
 * and isolates (U+2066..U+2069), which reorder what follows them. The one
 * list of what a terminal (kifu_buf_escaped), a page and a json string
 * show as \uNNNN, so a name cannot show its text in another order.
 */
size_t kifu_text_unseen_(const char *s, unsigned *cp);

/* Room for any long long as text (kifu_text_int_), its NUL included. */
#define KIFU_TEXT_INT_SIZE 24
/* The most decimals kifu_text_fixed_ writes without printf. */
#define KIFU_TEXT_FIXED_MAX 22

/* v in decimal into dst, NUL-terminated, as "%lld" writes it; its length. */
size_t kifu_text_int_(char dst[KIFU_TEXT_INT_SIZE], long long v);

/*
 * v with prec decimals into dst (size bytes, NUL-terminated), exactly as
 * snprintf's "%.*f" writes it (the exact binary value rounded, ties to
 * even; "-0.000" for a negative that rounds to zero); its length (cut to
 * size - 1 like snprintf's text). Without printf while the value times
 * 10^prec fits in 64 bits and prec <= KIFU_TEXT_FIXED_MAX (size >= 64).
 */
size_t kifu_text_fixed_(char *dst, size_t size, double v, int prec);

/*
 * kifu_text_fixed_(dst, size, v, prec), and whether that text read back
 * with strtod gives v again (== v: a zero reads back as either zero).
 */
int kifu_text_fixed_reads_back_(char *dst, size_t size, double v, int prec);

#endif
