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

/* A value of len bytes after a prefix of plen (jsonb's version byte); NULL text: SQL NULL. */
static void put_value(struct kifu_pg_copy_ *w, const char *prefix, size_t plen, const char *text,
		      size_t len)
{
	if (!text) {
		kifu_pg_copy_null_(w);
		return;
	}
	if (len > 0x7ffffffe - plen) {
		w->buf.failed = 1;
		return;
	}
	put_be(&w->buf, len + plen, 4);
	kifu_buf_add(&w->buf, prefix, plen);
	kifu_buf_add(&w->buf, text, len);
}

void kifu_pg_copy_text_(struct kifu_pg_copy_ *w, const char *text, size_t len)
{
	put_value(w, "", 0, text, len);
}

void kifu_pg_copy_jsonb_(struct kifu_pg_copy_ *w, const char *text, size_t len)
{
	/* jsonb's binary input: version 1, then the JSON text. */
	put_value(w, "\1", 1, text, len);
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

void kifu_pg_copy_params_(struct kifu_pg_copy_ *w, const char *types, const char *const *values,
			  const int *lengths)
{
	int i, n = (int)strlen(types);

	kifu_pg_copy_row_(w, n);
	for (i = 0; i < n; i++) {
		if (!values[i])
			kifu_pg_copy_null_(w);
		else if (types[i] == 'i')
			kifu_pg_copy_int64_(w, strtoll(values[i], NULL, 10));
		else if (types[i] == 'j')
			kifu_pg_copy_jsonb_(w, values[i], (size_t)lengths[i]);
		else
			kifu_pg_copy_text_(w, values[i], (size_t)lengths[i]);
	}
}

static int by_hash_ply(const void *a, const void *b)
{
	const struct kifu_pg_entry_ *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->ply > y->ply) - (x->ply < y->ply);
}

/* A game's entries, each hash once with its first ply (scratch->v sorted by hash, ply). */
static int game_entries(size_t *m, const uint64_t *hashes, size_t n,
			struct kifu_pg_entries_ *scratch)
{
	size_t i, k = 0;

	if (scratch->cap < n) {
		struct kifu_pg_entry_ *v = realloc(scratch->v, n * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		scratch->v = v;
		scratch->cap = n;
	}
	for (i = 0; i < n; i++) {
		scratch->v[i].hash = (int64_t)hashes[i];
		scratch->v[i].ply = (int32_t)i;
	}
	qsort(scratch->v, n, sizeof(*scratch->v), by_hash_ply);
	for (i = 0; i < n; i++)
		if (!i || scratch->v[i].hash != scratch->v[i - 1].hash)
			scratch->v[k++] = scratch->v[i];
	*m = k;
	return 0;
}

int kifu_pg_postings_add_(struct kifu_pg_postings_ *p, int64_t id, const uint64_t *hashes,
			  size_t n, struct kifu_pg_entries_ *scratch)
{
	size_t i, m;

	if (game_entries(&m, hashes, n, scratch) < 0)
		return KIFU_ENOMEM;
	if (p->cap - p->n < m) {
		size_t cap = p->cap ? 2 * p->cap : 65536;
		struct kifu_pg_posting_ *v;

		while (cap - p->n < m)
			cap *= 2;
		v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return KIFU_ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	for (i = 0; i < m; i++) {
		p->v[p->n].hash = scratch->v[i].hash;
		p->v[p->n].game = id;
		p->v[p->n++].ply = scratch->v[i].ply;
	}
	return 0;
}

static int by_hash_game(const void *a, const void *b)
{
	const struct kifu_pg_posting_ *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->game > y->game) - (x->game < y->game);
}

int kifu_pg_postings_rows_(struct kifu_pg_copy_ *w, struct kifu_pg_postings_ *p)
{
	size_t i;

	qsort(p->v, p->n, sizeof(*p->v), by_hash_game);
	for (i = 0; i < p->n; i++) {
		kifu_pg_copy_row_(w, 3);
		kifu_pg_copy_int64_(w, p->v[i].hash);
		kifu_pg_copy_int64_(w, p->v[i].game);
		kifu_pg_copy_int32_(w, p->v[i].ply);
	}
	p->n = 0;
	return w->buf.failed ? KIFU_ENOMEM : 0;
}

void kifu_pg_postings_release_(struct kifu_pg_postings_ *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

int kifu_pg_json_ints_(struct kifu_pg_entries_ *out, size_t *n, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	uint64_t *h;

	*n = 0;
	while (p < end && (*p == '[' || *p == ' '))
		p++;
	while (p < end && *p != ']') {
		char *stop;
		long long v = strtoll(p, &stop, 10);

		if (stop == p)
			return KIFU_EINVALID;
		if (*n >= out->hcap) {
			size_t cap = out->hcap ? 2 * out->hcap : 256;

			h = realloc(out->h, cap * sizeof(*h));
			if (!h)
				return KIFU_ENOMEM;
			out->h = h;
			out->hcap = cap;
		}
		out->h[(*n)++] = (uint64_t)v;
		p = stop;
		while (p < end && (*p == ',' || *p == ' '))
			p++;
	}
	return 0;
}

void kifu_pg_entries_release_(struct kifu_pg_entries_ *e)
{
	free(e->v);
	free(e->h);
	memset(e, 0, sizeof(*e));
}
