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
 * Runs copy_sql (COPY table(columns) FROM STDIN (FORMAT binary)) with the
 * rows of w (none: nothing is sent, and the result is a success), on a
 * connection outside pipeline mode. Returns the result, never NULL: a
 * PGRES_COMMAND_OK, or the error (the server's, or a failed one of the
 * client's whose message is the connection's); the caller PQclears it.
 * w is left as it was.
 */
PGresult *kifu_pg_copy_send_(PGconn *pg, const char *copy_sql, struct kifu_pg_copy_ *w);

#endif
