/*
 * The statement layer (include/kifu/db.h) over the store's backend: each
 * call goes to the backend's function of the same name (store_impl.h), so
 * that code above it never knows whether SQLite or PostgreSQL answers.
 * Besides dispatching, it lengthens NUL-terminated text, looks named
 * queries up, and words errors the same way for every backend.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store/store_impl.h"

const char *kifu_db_backend(const struct kifu_store *st)
{
	return st->be->name;
}

int kifu_db_prepare(struct kifu_stmt **out, struct kifu_store *st, const char *sql,
		    struct kifu_error *err)
{
	int ret = st->be->prepare(out, st, sql);

	if (ret < 0) {
		*out = NULL;
		return kifu_db_fail(st, "cannot prepare a statement", err);
	}
	return 0;
}

const char *kifu_db_sql(const struct kifu_store *st, const char *name)
{
	const struct kifu_db_query *q;

	for (q = st->be->queries; q && q->name; q++)
		if (!strcmp(q->name, name))
			return q->sql;
	return NULL;
}

int kifu_db_prepare_named(struct kifu_stmt **out, struct kifu_store *st, const char *name,
			  struct kifu_error *err)
{
	const char *sql = kifu_db_sql(st, name);

	if (!sql) {
		*out = NULL;
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_ERROR, "database '%s': the %s backend has no query '%s'",
				      st->path, st->be->name, name);
	}
	return kifu_db_prepare(out, st, sql, err);
}

int kifu_db_json_at(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		    const char *index)
{
	st->be->json_at(out, array, index);
	return out->failed ? KIFU_ENOMEM : 0;
}

void kifu_db_finalize(struct kifu_stmt *s)
{
	if (s)
		s->st->be->finalize(s);
}

int kifu_db_bind_int64(struct kifu_stmt *s, int i, int64_t v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_int(struct kifu_stmt *s, int i, int v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_double(struct kifu_stmt *s, int i, double v)
{
	return s->st->be->bind_double(s, i, v);
}

int kifu_db_bind_null(struct kifu_stmt *s, int i)
{
	return s->st->be->bind_null(s, i);
}

static int bind_text(struct kifu_stmt *s, int i, const char *text, long len, int copy)
{
	if (!text)
		return s->st->be->bind_null(s, i);
	return s->st->be->bind_text(s, i, text, len < 0 ? strlen(text) : (size_t)len, copy);
}

int kifu_db_bind_text(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 1);
}

int kifu_db_bind_text_static(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 0);
}

int kifu_db_bind_blob(struct kifu_stmt *s, int i, const void *data, size_t len)
{
	return s->st->be->bind_blob(s, i, data ? data : "", data ? len : 0);
}

int kifu_db_step(struct kifu_stmt *s)
{
	if (s->st->tx_pending) {
		int ret = kifu_store_tx_start_(s->st);

		if (ret < 0)
			return ret;
	}
	return s->st->be->step(s);
}

void kifu_db_reset(struct kifu_stmt *s)
{
	s->st->be->reset(s);
}

int kifu_db_column_count(struct kifu_stmt *s)
{
	return s->st->be->column_count(s);
}

int kifu_db_column_is_null(struct kifu_stmt *s, int i)
{
	return s->st->be->column_is_null(s, i);
}

int64_t kifu_db_column_int64(struct kifu_stmt *s, int i)
{
	return s->st->be->column_int64(s, i);
}

int kifu_db_column_int(struct kifu_stmt *s, int i)
{
	return (int)s->st->be->column_int64(s, i);
}

double kifu_db_column_double(struct kifu_stmt *s, int i)
{
	return s->st->be->column_double(s, i);
}

const char *kifu_db_column_text(struct kifu_stmt *s, int i)
{
	return s->st->be->column_text(s, i);
}

const void *kifu_db_column_blob(struct kifu_stmt *s, int i)
{
	return s->st->be->column_blob(s, i);
}

size_t kifu_db_column_bytes(struct kifu_stmt *s, int i)
{
	return s->st->be->column_bytes(s, i);
}

int kifu_db_exec(struct kifu_store *st, const char *sql)
{
	if (st->tx_pending) {
		int ret = kifu_store_tx_start_(st);

		if (ret < 0)
			return ret;
	}
	return st->be->exec(st, sql);
}

long long kifu_db_changes(struct kifu_store *st)
{
	return st->be->changes(st);
}

int kifu_db_query_int(long long *out, struct kifu_store *st, const char *sql,
		      struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*out = 0;
	ret = kifu_db_prepare(&s, st, sql, err);
	if (ret < 0)
		return ret;
	rc = kifu_db_step(s);
	if (rc == KIFU_DB_ROW)
		*out = kifu_db_column_int64(s, 0);
	else if (rc < 0)
		ret = kifu_db_fail(st, "cannot read", err);
	kifu_db_finalize(s);
	return ret;
}

int kifu_db_has(int *found, struct kifu_store *st, const char *name, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*found = 0;
	ret = kifu_db_prepare_named(&s, st, "has", err);
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static(s, 1, name, -1);
	rc = kifu_db_step(s);
	*found = rc == KIFU_DB_ROW;
	if (rc < 0)
		ret = kifu_db_fail(st, "cannot read the schema", err);
	kifu_db_finalize(s);
	return ret;
}

int kifu_db_errcode(struct kifu_store *st)
{
	return st->conn ? st->be->errcode(st) : KIFU_EDB;
}

const char *kifu_db_errmsg(struct kifu_store *st)
{
	return st->conn ? st->be->errmsg(st) : "not connected";
}

int kifu_db_retryable(struct kifu_store *st)
{
	return st->conn && st->be->retryable(st);
}

int kifu_db_cannot_write(struct kifu_store *st)
{
	return st->conn && st->be->cannot_write(st);
}

int kifu_db_fail(struct kifu_store *st, const char *what, struct kifu_error *err)
{
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, kifu_db_errcode(st), "database '%s': %s: %s", st->path, what,
			      kifu_db_errmsg(st));
}

int kifu_db_damaged(struct kifu_store *st, struct kifu_error *err, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, KIFU_EDB, "database '%s' is damaged: %s", st->path, why);
}
