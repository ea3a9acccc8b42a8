/*
 * Rows sent to PostgreSQL in bulk (the PostgreSQL backend's loading path):
 * a writer that gathers rows of given columns in COPY's binary format
 * (each value sent as the server keeps it: no text to parse) and sends
 * them with one COPY ... FROM STDIN (libpq's PQputCopyData), whatever the
 * table. Rows of many games go in one COPY rather than one INSERT each:
 * one round trip, and the server neither plans nor parses per row.
 *
 *     struct kifu_pg_copy_ w = KIFU_PG_COPY_INIT;
 *
 *     kifu_pg_copy_row_(&w, 3);
 *     kifu_pg_copy_int64_(&w, hash);
 *     kifu_pg_copy_int64_(&w, game_id);
 *     kifu_pg_copy_int32_(&w, ply);
 *     ... more rows ...
 *     res = kifu_pg_copy_send_(pg, "COPY positions_hash(hash, game_id, ply) FROM STDIN "
 *                                  "(FORMAT binary)", &w);
 *     (a PGresult: PGRES_COMMAND_OK, or the error) ... PQclear(res);
 *     kifu_pg_copy_release_(&w);
 *
 * The columns' types are the table's: int64 for bigint, int32 for
 * integer, text for text (UTF-8) and jsonb (its text, after the version
 * byte jsonb's binary form starts with: kifu_pg_copy_jsonb_).
 */
#include <stdlib.h>
#include <string.h>

#include "store/backends/pg_copy.h"

/* COPY BINARY's header: the signature, the flags (none) and the header extension's length (0). */
static const char header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

/* PQputCopyData's chunk: libpq sends it as one CopyData message. */
#define CHUNK (256 * 1024)

static void put_be(struct kifu_buf *b, uint64_t v, int bytes)
{
	unsigned char x[8];
	int i;

	for (i = 0; i < bytes; i++)
		x[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
	kifu_buf_add(b, (const char *)x, (size_t)bytes);
}

void kifu_pg_copy_row_(struct kifu_pg_copy_ *w, int nfields)
{
	if (w->buf.len == 0)
		kifu_buf_add(&w->buf, header, sizeof(header));
	put_be(&w->buf, (uint64_t)nfields, 2);
	w->rows++;
}

void kifu_pg_copy_null_(struct kifu_pg_copy_ *w)
{
	put_be(&w->buf, 0xffffffffu, 4);
}

void kifu_pg_copy_int64_(struct kifu_pg_copy_ *w, int64_t v)
{
	put_be(&w->buf, 8, 4);
	put_be(&w->buf, (uint64_t)v, 8);
}

void kifu_pg_copy_int32_(struct kifu_pg_copy_ *w, int32_t v)
{
	put_be(&w->buf, 4, 4);
	put_be(&w->buf, (uint32_t)v, 4);
}

void kifu_pg_copy_text_(struct kifu_pg_copy_ *w, const char *text, size_t len)
{
	if (!text) {
		kifu_pg_copy_null_(w);
		return;
	}
	if (len > 0x7ffffffe) {
		w->buf.failed = 1;
		return;
	}
	put_be(&w->buf, len, 4);
	kifu_buf_add(&w->buf, text, len);
}

void kifu_pg_copy_jsonb_(struct kifu_pg_copy_ *w, const char *text, size_t len)
{
	if (!text) {
		kifu_pg_copy_null_(w);
		return;
	}
	if (len > 0x7ffffffd) {
		w->buf.failed = 1;
		return;
	}
	/* jsonb's binary input: version 1, then the JSON text. */
	put_be(&w->buf, len + 1, 4);
	kifu_buf_putc(&w->buf, 1);
	kifu_buf_add(&w->buf, text, len);
}

void kifu_pg_copy_clear_(struct kifu_pg_copy_ *w)
{
	kifu_buf_reset(&w->buf);
	w->rows = 0;
}

void kifu_pg_copy_release_(struct kifu_pg_copy_ *w)
{
	kifu_buf_release(&w->buf);
	w->rows = 0;
}

/* A failed result for what went wrong on the client's side (its message: the connection's). */
static PGresult *client_error(PGconn *pg)
{
	return PQmakeEmptyPGresult(pg, PGRES_FATAL_ERROR);
}

PGresult *kifu_pg_copy_send_(PGconn *pg, const char *copy_sql, struct kifu_pg_copy_ *w)
{
	PGresult *res, *last = NULL;
	size_t off;
	int ok = 1;

	if (w->buf.failed)
		return client_error(pg);
	if (!w->rows)
		return PQmakeEmptyPGresult(pg, PGRES_COMMAND_OK);
	res = PQexec(pg, copy_sql);
	if (PQresultStatus(res) != PGRES_COPY_IN)
		return res;
	PQclear(res);
	put_be(&w->buf, 0xffff, 2); /* the trailer: a field count of -1 */
	for (off = 0; ok && off < w->buf.len; off += CHUNK) {
		size_t n = w->buf.len - off < CHUNK ? w->buf.len - off : CHUNK;

		ok = PQputCopyData(pg, w->buf.data + off, (int)n) == 1;
	}
	w->buf.len -= 2;
	if (w->buf.failed)
		ok = 0;
	if (PQputCopyEnd(pg, ok ? NULL : "the rows could not be sent") != 1)
		return client_error(pg);
	/* The COPY's result, then nothing: the last one that failed, else the COPY's. */
	while ((res = PQgetResult(pg)) != NULL) {
		if (!last || PQresultStatus(res) != PGRES_COMMAND_OK) {
			PQclear(last);
			last = res;
		} else {
			PQclear(res);
		}
	}
	return last ? last : client_error(pg);
}
