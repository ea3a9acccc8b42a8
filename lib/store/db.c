/*
 * The statement layer (lib/store/db.h, private to libkifu) over the
 * store's backend: each call goes to the backend's function of the same
 * name (store_impl.h), so that code above it never knows whether SQLite
 * or PostgreSQL answers.
 * Besides dispatching, it lengthens NUL-terminated text, looks named
 * queries up, words errors the same way for every backend, and sends the
 * BEGIN of a batch that waits for its first statement (st->tx_pending: a
 * game_tx backend's batch begins only when something is written in it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store/store_impl.h"

const char *kifu_db_backend_(const struct kifu_store *st)
{
	return st->be->name;
}

int kifu_db_prepare_(struct kifu_stmt **out, struct kifu_store *st, const char *sql,
		    struct kifu_error *err)
{
	int ret = st->be->prepare(out, st, sql);

	if (ret < 0) {
		*out = NULL;
		return kifu_db_fail_(st, "cannot prepare a statement", err);
	}
	return 0;
}

const char *kifu_db_sql_(const struct kifu_store *st, const char *name)
{
	const struct kifu_db_query *q;

	for (q = st->be->queries; q && q->name; q++)
		if (!strcmp(q->name, name))
			return q->sql;
	return NULL;
}

int kifu_db_prepare_named_(struct kifu_stmt **out, struct kifu_store *st, const char *name,
			  struct kifu_error *err)
{
	const char *sql = kifu_db_sql_(st, name);

	if (!sql) {
		*out = NULL;
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_ERROR, "database '%s': the %s backend has no query '%s'",
				      st->path, st->be->name, name);
	}
	return kifu_db_prepare_(out, st, sql, err);
}

int kifu_db_json_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		    const char *index)
{
	st->be->json_at(out, array, index);
	return out->failed ? KIFU_ENOMEM : 0;
}

int kifu_db_hash_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		     const char *index)
{
	if (st->be->hash_at && st->version >= 7)
		st->be->hash_at(out, array, index);
	else
		st->be->json_at(out, array, index);
	return out->failed ? KIFU_ENOMEM : 0;
}

const char *kifu_db_game_data_(const struct kifu_store *st)
{
	return st->version >= 7 ? "game_data" : "game_moves";
}

void kifu_db_finalize_(struct kifu_stmt *s)
{
	if (s)
		s->st->be->finalize(s);
}

int kifu_db_bind_int64_(struct kifu_stmt *s, int i, int64_t v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_int_(struct kifu_stmt *s, int i, int v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_double_(struct kifu_stmt *s, int i, double v)
{
	return s->st->be->bind_double(s, i, v);
}

int kifu_db_bind_null_(struct kifu_stmt *s, int i)
{
	return s->st->be->bind_null(s, i);
}

static int bind_text(struct kifu_stmt *s, int i, const char *text, long len, int copy)
{
	if (!text)
		return s->st->be->bind_null(s, i);
	return s->st->be->bind_text(s, i, text, len < 0 ? strlen(text) : (size_t)len, copy);
}

int kifu_db_bind_text_(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 1);
}

int kifu_db_bind_text_static_(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 0);
}

int kifu_db_bind_blob_(struct kifu_stmt *s, int i, const void *data, size_t len)
{
	return s->st->be->bind_blob(s, i, data ? data : "", data ? len : 0);
}

int kifu_db_begin_pending_(struct kifu_store *st)
{
	const char *sql = kifu_db_sql_(st, "begin");

	st->tx_pending = 0;
	return st->be->exec(st, sql);
}

int kifu_db_step_(struct kifu_stmt *s)
{
	if (s->st->tx_pending) {
		int ret = kifu_db_begin_pending_(s->st);

		if (ret < 0)
			return ret;
	}
	return s->st->be->step(s);
}

void kifu_db_reset_(struct kifu_stmt *s)
{
	s->st->be->reset(s);
}

int kifu_db_column_count_(struct kifu_stmt *s)
{
	return s->st->be->column_count(s);
}

int kifu_db_column_is_null_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_is_null(s, i);
}

int64_t kifu_db_column_int64_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_int64(s, i);
}

int kifu_db_column_int_(struct kifu_stmt *s, int i)
{
	return (int)s->st->be->column_int64(s, i);
}

double kifu_db_column_double_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_double(s, i);
}

const char *kifu_db_column_text_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_text(s, i);
}

const void *kifu_db_column_blob_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_blob(s, i);
}

size_t kifu_db_column_bytes_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_bytes(s, i);
}

int kifu_db_exec_(struct kifu_store *st, const char *sql)
{
	if (st->tx_pending) {
		int ret = kifu_db_begin_pending_(st);

		if (ret < 0)
			return ret;
	}
	return st->be->exec(st, sql);
}

int kifu_db_exec_nowait_(struct kifu_store *st, const char *sql, int wait)
{
	if (st->tx_pending || !st->be->exec_nowait)
		return kifu_db_exec_(st, sql);
	return st->be->exec_nowait(st, sql, wait);
}

long long kifu_db_changes_(struct kifu_store *st)
{
	return st->be->changes(st);
}

int kifu_db_query_int_(long long *out, struct kifu_store *st, const char *sql,
		      struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*out = 0;
	ret = kifu_db_prepare_(&s, st, sql, err);
	if (ret < 0)
		return ret;
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW)
		*out = kifu_db_column_int64_(s, 0);
	else if (rc < 0)
		ret = kifu_db_fail_(st, "cannot read", err);
	kifu_db_finalize_(s);
	return ret;
}

int kifu_db_has_(int *found, struct kifu_store *st, const char *name, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*found = 0;
	ret = kifu_db_prepare_named_(&s, st, "has", err);
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static_(s, 1, name, -1);
	rc = kifu_db_step_(s);
	*found = rc == KIFU_DB_ROW;
	if (rc < 0)
		ret = kifu_db_fail_(st, "cannot read the schema", err);
	kifu_db_finalize_(s);
	return ret;
}

int kifu_db_errcode_(struct kifu_store *st)
{
	return st->conn ? st->be->errcode(st) : KIFU_EDB;
}

const char *kifu_db_errmsg_(struct kifu_store *st)
{
	return st->conn ? st->be->errmsg(st) : "not connected";
}

int kifu_db_retryable_(struct kifu_store *st)
{
	return st->conn && st->be->retryable(st);
}

int kifu_db_record_error_(struct kifu_store *st)
{
	return st->conn && st->be->record_error && st->be->record_error(st);
}

int kifu_db_cannot_write_(struct kifu_store *st)
{
	return st->conn && st->be->cannot_write(st);
}

int kifu_db_fail_(struct kifu_store *st, const char *what, struct kifu_error *err)
{
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, kifu_db_errcode_(st), "database '%s': %s: %s", st->path, what,
			      kifu_db_errmsg_(st));
}

int kifu_db_damaged_(struct kifu_store *st, struct kifu_error *err, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, KIFU_EDB, "database '%s' is damaged: %s", st->path, why);
}
