/*
 * A growable text buffer (git's strbuf in miniature). Renderers and writers
 * append to it; the data is always NUL-terminated once anything was added.
 */
#ifndef KIFU_BUF_H
#define KIFU_BUF_H

#include <stddef.h>

struct kifu_buf {
	char *data;  /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
	int failed;  /* set when an allocation failed (KIFU_BUF_FULL: max would be passed); later appends are no-ops */
	size_t max;  /* the most bytes it may hold (0: no bound), kept by reset and release */
};

#define KIFU_BUF_INIT { NULL, 0, 0, 0, 0 }
/* b.failed when an append would have passed b.max. */
#define KIFU_BUF_FULL 2

/* Appends; return 0 or KIFU_ENOMEM (and then every later append fails too). */
int kifu_buf_add(struct kifu_buf *b, const char *s, size_t n);
int kifu_buf_puts(struct kifu_buf *b, const char *s);
int kifu_buf_putc(struct kifu_buf *b, char c);
int kifu_buf_printf(struct kifu_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends v in decimal, as "%lld" writes it (without printf: for many rows). */
int kifu_buf_int(struct kifu_buf *b, long long v);
/*
 * Makes room for n more bytes and the NUL, so that a writer may fill
 * data + len .. data + len + n - 1 itself and then advance len (and put
 * the NUL); 0, or KIFU_ENOMEM (b failed).
 */
int kifu_buf_reserve(struct kifu_buf *b, size_t n);

/*
 * Appends s as a JSON string, quotes included: '"', '\\' and control
 * characters (and DEL) escaped, and every byte that is not part of valid
 * UTF-8 written as U+FFFD, so the output is always valid JSON.
 */
int kifu_buf_json_string(struct kifu_buf *b, const char *s);

/*
 * Appends s as one CSV field (RFC 4180): as it is, or in double quotes with
 * '"' doubled when it holds a comma, a quote or a line break, or starts or
 * ends with a space (which spreadsheets would otherwise trim). A field
 * that starts with one of KIFU_CSV_GUARDED gets a "'" before it, so that
 * no spreadsheet runs it as a formula (INTEROP.md csv; numbers too: -0.5
 * is written '-0.5); a reader takes that "'" off again.
 */
int kifu_buf_csv_field(struct kifu_buf *b, const char *s);

/*
 * Appends s (NULL: nothing) percent-encoded as one part of an address: every
 * byte but A-Z a-z 0-9 - . _ ~ as %XX, so a path segment's '/' too, and the
 * result is safe in an HTML attribute as it is.
 */
void kifu_buf_url_part(struct kifu_buf *b, const char *s);

/* The characters a CSV field may not start with as it is: = + - @ tab CR '. */
#define KIFU_CSV_GUARDED "=+-@\t\r'"

/* Whether c (a byte, 0 for none) is one of KIFU_CSV_GUARDED. */
int kifu_buf_csv_guarded(int c);

/*
 * Appends s with control characters escaped, for text meant for a terminal
 * (tables, text diagrams, diagnostics): newline, tab and CR as \n \t \r,
 * other C0 controls and DEL as \xNN, C1 controls (U+0080..U+009F), the
 * line and paragraph separators (U+2028, U+2029) and the bidirectional
 * embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069) as
 * \uNNNN; so a record (or a name) can neither move the cursor, ring the
 * bell, break a line, nor show its text in another order.
 */
int kifu_buf_escaped(struct kifu_buf *b, const char *s);

/* Empties b but keeps its memory. */
void kifu_buf_reset(struct kifu_buf *b);

/* Frees the memory; b may be reused after. */
void kifu_buf_release(struct kifu_buf *b);

/*
 * Hands the data to the caller and resets b: free it with
 * kifu_buf_detached_free. Never NULL unless out of memory.
 */
char *kifu_buf_detach(struct kifu_buf *b);

/* Frees what kifu_buf_detach returned (NULL is fine). */
void kifu_buf_detached_free(char *data);

#endif
