/*
 * Private to the PostgreSQL backend (lib/store/backends/pg*.c): rows
 * gathered in COPY's binary format and sent with one COPY ... FROM STDIN
 * (pg_copy.c, which shows how).
 */
#ifndef KIFU_STORE_PG_COPY_H
#define KIFU_STORE_PG_COPY_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "kifu/buf.h"
#include "kifu/error.h"

struct kifu_pg_copy_ {
	struct kifu_buf buf; /* the header and the rows so far; failed: out of memory */
	long rows;
};

#define KIFU_PG_COPY_INIT { KIFU_BUF_INIT, 0 }

/* Starts a row of nfields values, then one call per value, in the COPY's column order. */
void kifu_pg_copy_row_(struct kifu_pg_copy_ *w, int nfields);
void kifu_pg_copy_null_(struct kifu_pg_copy_ *w);
void kifu_pg_copy_int64_(struct kifu_pg_copy_ *w, int64_t v);
void kifu_pg_copy_int32_(struct kifu_pg_copy_ *w, int32_t v);
/* text NULL: SQL NULL. */
void kifu_pg_copy_text_(struct kifu_pg_copy_ *w, const char *text, size_t len);
void kifu_pg_copy_jsonb_(struct kifu_pg_copy_ *w, const char *json, size_t len);

/* Forgets the rows (keeping the memory); frees it. */
void kifu_pg_copy_clear_(struct kifu_pg_copy_ *w);
void kifu_pg_copy_release_(struct kifu_pg_copy_ *w);

/*
 * A row of text parameters (as bound: NULL is SQL NULL, numbers in
 * decimal), typed by types, one letter a column: 'i' bigint, 'j' jsonb,
 * 't' text.
 */
void kifu_pg_copy_params_(struct kifu_pg_copy_ *w, const char *types, const char *const *values,
			  const int *lengths);

/* Room for one game's position entries (reused from game to game). */
struct kifu_pg_entry_ {
	int64_t hash;
	int32_t ply;
};

struct kifu_pg_entries_ {
	struct kifu_pg_entry_ *v;
	size_t cap;
	uint64_t *h;         /* kifu_pg_json_ints_'s values */
	size_t hcap;
};

/*
 * A transaction's entries (hash, game, ply) of a position index, sent
 * sorted by hash then game (the index's order: each of its pages is met
 * once, in order, rather than once an entry at random).
 */
struct kifu_pg_posting_ {
	int64_t hash, game;
	int32_t ply;
};

struct kifu_pg_postings_ {
	struct kifu_pg_posting_ *v;
	size_t n, cap;
};

/*
 * The entries of game id whose position hashes are hashes[0..n) (ply
 * 0..n-1), each hash once with its first ply, added to p. 0 or
 * KIFU_ENOMEM.
 */
int kifu_pg_postings_add_(struct kifu_pg_postings_ *p, int64_t id, const uint64_t *hashes,
			  size_t n, struct kifu_pg_entries_ *scratch);
/* p's entries as rows of w (hash, game, ply), sorted; p left empty. 0 or KIFU_ENOMEM. */
int kifu_pg_postings_rows_(struct kifu_pg_copy_ *w, struct kifu_pg_postings_ *p);
void kifu_pg_postings_release_(struct kifu_pg_postings_ *p);

/*
 * The integers of a JSON array of integers (libkifu's own text: "[1,-2]")
 * into out->h[0..*n). 0, KIFU_ENOMEM, or KIFU_EINVALID when it is not one.
 */
int kifu_pg_json_ints_(struct kifu_pg_entries_ *out, size_t *n, const char *text, size_t len);
void kifu_pg_entries_release_(struct kifu_pg_entries_ *e);

/*
 * Runs copy_sql (COPY table(columns) FROM STDIN (FORMAT binary)) with the
 * rows of w (none: nothing is sent, and the result is a success), on a
 * connection outside pipeline mode. Returns the result, never NULL: a
 * PGRES_COMMAND_OK, or the error (the server's, or a failed one of the
 * client's whose message is the connection's); the caller PQclears it.
 * w is left as it was.
 */
PGresult *kifu_pg_copy_send_(PGconn *pg, const char *copy_sql, struct kifu_pg_copy_ *w);

#endif
