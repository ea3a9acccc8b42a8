/*
 * The statement layer: how libkifu (and tests) talk to the game database
 * whatever backend holds it (SQLite file, PostgreSQL server). Its shape is
 * sqlite3's, so that code converts mechanically: prepare, bind, step until
 * done, read columns, reset or finalize. SQL is written once with SQLite's
 * parameters (`?` or `?N`, N from 1); a backend rewrites them as it needs
 * (PostgreSQL: $N). SQL that cannot be the same on every backend is asked
 * for by name (kifu_db_sql, kifu_db_prepare_named): each backend supplies
 * its own text, so that no report code tests which backend it talks to.
 *
 *     struct kifu_stmt *s;
 *     int rc;
 *
 *     if (kifu_db_prepare(&s, st, "SELECT id FROM games WHERE plies > ?1", err) < 0)
 *             return err->code;
 *     kifu_db_bind_int64(s, 1, 40);
 *     while ((rc = kifu_db_step(s)) == KIFU_DB_ROW)
 *             use(kifu_db_column_int64(s, 0));
 *     if (rc < 0)
 *             ret = kifu_db_fail(st, "cannot list games", err);
 *     kifu_db_finalize(s);
 *
 * Errors: kifu_db_step, kifu_db_exec and the binds return a negative
 * KIFU_E* code and keep the backend's message on the store; kifu_db_fail
 * turns it into err ("database 'PATH': what: message"). Values bound are
 * always parameters, never pasted into SQL.
 */
#ifndef KIFU_DB_H
#define KIFU_DB_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"

struct kifu_store;
struct kifu_stmt;

/* What kifu_db_step returns besides a negative KIFU_E* code. */
#define KIFU_DB_DONE 0
#define KIFU_DB_ROW 1

/* The backend of an open store: "sqlite" or "postgresql" (for messages and tests). */
const char *kifu_db_backend(const struct kifu_store *st);

/* Prepares one SQL statement; *out belongs to the caller (kifu_db_finalize). */
int kifu_db_prepare(struct kifu_stmt **out, struct kifu_store *st, const char *sql,
		    struct kifu_error *err);

/*
 * The backend's SQL for a named query or fragment (see lib/store/backends/sqlite.c
 * for the names), or NULL when the backend has none of that name.
 */
const char *kifu_db_sql(const struct kifu_store *st, const char *name);

/* kifu_db_prepare of kifu_db_sql(st, name); KIFU_ERROR when there is no such query. */
int kifu_db_prepare_named(struct kifu_stmt **out, struct kifu_store *st, const char *name,
			  struct kifu_error *err);

/*
 * Appends to out the backend's SQL expression for element index (an SQL
 * integer expression, from 0) of the JSON array array (an SQL expression,
 * e.g. a column of game_moves): the element as text, a number as an
 * integer; NULL past the end. Both are libkifu's own SQL, never values.
 */
int kifu_db_json_at(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		    const char *index);

/* NULL is accepted. */
void kifu_db_finalize(struct kifu_stmt *s);

/*
 * Binding parameter i (from 1). Text and blobs are copied, except with
 * _static: then the caller keeps them unchanged until the statement is
 * stepped to its end, reset or bound again. NULL text binds SQL NULL;
 * len < 0 means up to the terminating NUL. Each returns 0 or a negative
 * KIFU_E* code (also reported by the next kifu_db_step).
 */
int kifu_db_bind_int64(struct kifu_stmt *s, int i, int64_t v);
int kifu_db_bind_int(struct kifu_stmt *s, int i, int v);
int kifu_db_bind_double(struct kifu_stmt *s, int i, double v);
int kifu_db_bind_null(struct kifu_stmt *s, int i);
int kifu_db_bind_text(struct kifu_stmt *s, int i, const char *text, long len);
int kifu_db_bind_text_static(struct kifu_stmt *s, int i, const char *text, long len);
int kifu_db_bind_blob(struct kifu_stmt *s, int i, const void *data, size_t len);

/* KIFU_DB_ROW (a row to read), KIFU_DB_DONE, or a negative KIFU_E* code. */
int kifu_db_step(struct kifu_stmt *s);

/* Back to the start; bindings stay. */
void kifu_db_reset(struct kifu_stmt *s);

/*
 * The current row's column i (from 0). Text and blobs are valid until
 * the next step, reset or finalize; column_text of NULL is NULL.
 */
int kifu_db_column_count(struct kifu_stmt *s);
int kifu_db_column_is_null(struct kifu_stmt *s, int i);
int64_t kifu_db_column_int64(struct kifu_stmt *s, int i);
int kifu_db_column_int(struct kifu_stmt *s, int i);
double kifu_db_column_double(struct kifu_stmt *s, int i);
const char *kifu_db_column_text(struct kifu_stmt *s, int i);
const void *kifu_db_column_blob(struct kifu_stmt *s, int i);
size_t kifu_db_column_bytes(struct kifu_stmt *s, int i);

/* Runs SQL of libkifu's own without parameters (may be several statements). */
int kifu_db_exec(struct kifu_store *st, const char *sql);

/* Rows the last INSERT, UPDATE or DELETE stepped changed. */
long long kifu_db_changes(struct kifu_store *st);

/* The single integer the first row of sql gives (0 without a row). */
int kifu_db_query_int(long long *out, struct kifu_store *st, const char *sql,
		      struct kifu_error *err);

/* Whether the database has a table, view or index of that name. */
int kifu_db_has(int *found, struct kifu_store *st, const char *name, struct kifu_error *err);

/*
 * Fills err from the store's last database error: "database 'PATH': what:
 * message" (KIFU_ENOMEM or KIFU_EDB) and returns its code.
 */
int kifu_db_fail(struct kifu_store *st, const char *what, struct kifu_error *err);

/*
 * Fills err with "database 'PATH' is damaged: " and the text of fmt
 * (KIFU_EDB), for what a reader finds that no kifu writes (a move that is
 * not a string its game parses, impossible counts, a missing row), and
 * returns KIFU_EDB: an answer from it would be silently wrong.
 */
int kifu_db_damaged(struct kifu_store *st, struct kifu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The last error's code (as kifu_db_fail) and the backend's message. */
int kifu_db_errcode(struct kifu_store *st);
const char *kifu_db_errmsg(struct kifu_store *st);

/*
 * Whether the last error only means "try the transaction again"
 * (PostgreSQL's serialization failures and deadlocks).
 */
int kifu_db_retryable(struct kifu_store *st);

/*
 * Whether the last error means the database cannot be written now (read
 * only, locked by another writer, permissions, disk full): readers then
 * compute from the games instead of keeping precomputed tables.
 */
int kifu_db_cannot_write(struct kifu_store *st);

#endif
