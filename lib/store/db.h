/*
 * Private to libkifu (and its tests; not installed). The statement layer:
 * how libkifu talks to the game database
 * whatever backend holds it (SQLite file, PostgreSQL server). Its shape is
 * sqlite3's, so that code converts mechanically: prepare, bind, step until
 * done, read columns, reset or finalize. SQL is written once with SQLite's
 * parameters (`?` or `?N`, N from 1); a backend rewrites them as it needs
 * (PostgreSQL: $N). SQL that cannot be the same on every backend is asked
 * for by name (kifu_db_sql_, kifu_db_prepare_named_): each backend supplies
 * its own text, so that no report code tests which backend it talks to.
 *
 *     struct kifu_stmt *s;
 *     int rc;
 *
 *     if (kifu_db_prepare_(&s, st, "SELECT id FROM games WHERE plies > ?1", err) < 0)
 *             return err->code;
 *     kifu_db_bind_int64_(s, 1, 40);
 *     while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW)
 *             use(kifu_db_column_int64_(s, 0));
 *     if (rc < 0)
 *             ret = kifu_db_fail_(st, "cannot list games", err);
 *     kifu_db_finalize_(s);
 *
 * Errors: kifu_db_step_, kifu_db_exec_ and the binds return a negative
 * KIFU_E* code and keep the backend's message on the store; kifu_db_fail_
 * turns it into err ("database 'PATH': what: message"). Values bound are
 * always parameters, never pasted into SQL.
 */
#ifndef KIFU_STORE_DB_H
#define KIFU_STORE_DB_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"

struct kifu_store;
struct kifu_stmt;

/* What kifu_db_step_ returns besides a negative KIFU_E* code. */
#define KIFU_DB_DONE 0
#define KIFU_DB_ROW 1

/* The backend of an open store: "sqlite" or "postgresql" (for messages and tests). */
const char *kifu_db_backend_(const struct kifu_store *st);

/* Prepares one SQL statement; *out belongs to the caller (kifu_db_finalize_). */
int kifu_db_prepare_(struct kifu_stmt **out, struct kifu_store *st, const char *sql,
		    struct kifu_error *err);

/*
 * The backend's SQL for a named query or fragment (see lib/store/backends/sqlite.c
 * for the names), or NULL when the backend has none of that name.
 */
const char *kifu_db_sql_(const struct kifu_store *st, const char *name);

/* kifu_db_prepare_ of kifu_db_sql_(st, name); KIFU_ERROR when there is no such query. */
int kifu_db_prepare_named_(struct kifu_stmt **out, struct kifu_store *st, const char *name,
			  struct kifu_error *err);

/*
 * Appends to out the backend's SQL expression for element index (an SQL
 * integer expression, from 0) of the JSON array array (an SQL expression,
 * e.g. a column of game_moves): the element as text, a number as an
 * integer; NULL past the end. Both are libkifu's own SQL, never values.
 */
int kifu_db_json_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		    const char *index);

/*
 * The same for a hash array (game_data.hashes or .canon: a JSON array on
 * some backends, 8-byte big-endian values in a BLOB on others): element
 * index as a signed 64-bit integer, NULL past the end.
 */
int kifu_db_hash_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		     const char *index);

/*
 * The table of a game's packed row (game_id, moves, hashes, notes and,
 * from version 7, canon) that libkifu reads: game_data from schema 7 (on
 * PostgreSQL a view over game_moves and game_canon), game_moves before.
 */
const char *kifu_db_game_data_(const struct kifu_store *st);

/* NULL is accepted. */
void kifu_db_finalize_(struct kifu_stmt *s);

/*
 * Binding parameter i (from 1). Text and blobs are copied, except with
 * _static: then the caller keeps them unchanged until the statement is
 * stepped to its end, reset or bound again. NULL text binds SQL NULL;
 * len < 0 means up to the terminating NUL. Each returns 0 or a negative
 * KIFU_E* code (also reported by the next kifu_db_step_).
 */
int kifu_db_bind_int64_(struct kifu_stmt *s, int i, int64_t v);
int kifu_db_bind_int_(struct kifu_stmt *s, int i, int v);
int kifu_db_bind_double_(struct kifu_stmt *s, int i, double v);
int kifu_db_bind_null_(struct kifu_stmt *s, int i);
int kifu_db_bind_text_(struct kifu_stmt *s, int i, const char *text, long len);
int kifu_db_bind_text_static_(struct kifu_stmt *s, int i, const char *text, long len);
int kifu_db_bind_blob_(struct kifu_stmt *s, int i, const void *data, size_t len);

/* KIFU_DB_ROW (a row to read), KIFU_DB_DONE, or a negative KIFU_E* code. */
int kifu_db_step_(struct kifu_stmt *s);

/* Back to the start; bindings stay. */
void kifu_db_reset_(struct kifu_stmt *s);

/*
 * The current row's column i (from 0). Text and blobs are valid until
 * the next step, reset or finalize; column_text of NULL is NULL.
 */
int kifu_db_column_count_(struct kifu_stmt *s);
int kifu_db_column_is_null_(struct kifu_stmt *s, int i);
int64_t kifu_db_column_int64_(struct kifu_stmt *s, int i);
int kifu_db_column_int_(struct kifu_stmt *s, int i);
double kifu_db_column_double_(struct kifu_stmt *s, int i);
const char *kifu_db_column_text_(struct kifu_stmt *s, int i);
const void *kifu_db_column_blob_(struct kifu_stmt *s, int i);
size_t kifu_db_column_bytes_(struct kifu_stmt *s, int i);

/* Runs SQL of libkifu's own without parameters (may be several statements). */
int kifu_db_exec_(struct kifu_store *st, const char *sql);

/* Rows the last INSERT, UPDATE or DELETE stepped changed. */
long long kifu_db_changes_(struct kifu_store *st);

/* The single integer the first row of sql gives (0 without a row). */
int kifu_db_query_int_(long long *out, struct kifu_store *st, const char *sql,
		      struct kifu_error *err);

/*
 * The stored review of a game (kifu-analyse --store, schema 6), as every
 * reader picks it: the id of its run with the most playouts, the last
 * stored among equals; GAME_ID is an SQL expression for the game's id
 * ("?1", "g.id").
 */
#define KIFU_DB_REVIEW_RUN_(GAME_ID)                                                   \
	"(SELECT rr_.id FROM analysis_runs rr_ WHERE rr_.game_id = " GAME_ID            \
	" ORDER BY rr_.playouts DESC, rr_.id DESC LIMIT 1)"

/* Whether the database has a table, view or index of that name. */
int kifu_db_has_(int *found, struct kifu_store *st, const char *name, struct kifu_error *err);

/*
 * Fills err from the store's last database error: "database 'PATH': what:
 * message" (KIFU_ENOMEM or KIFU_EDB) and returns its code.
 */
int kifu_db_fail_(struct kifu_store *st, const char *what, struct kifu_error *err);

/*
 * Fills err with "database 'PATH' is damaged: " and the text of fmt
 * (KIFU_EDB), for what a reader finds that no kifu writes (a move that is
 * not a string its game parses, impossible counts, a missing row), and
 * returns KIFU_EDB: an answer from it would be silently wrong.
 */
int kifu_db_damaged_(struct kifu_store *st, struct kifu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The one check of a stored value a reader relies on (a count, a ply, a
 * length, a loss), as it reads column i of the current row: a whole number
 * from min to max (kifu_db_column_whole_; exact, from the value's text, so
 * that a real, text or a sum past 64 bits is caught on every backend), or
 * a finite number from min to max (kifu_db_column_real_). NULL, anything
 * else and a value out of range fill err with kifu_db_damaged_'s "WHERE is
 * 'VALUE', not ..." (WHERE from fmt: "tree_moves: games of move 'e4'") and
 * return KIFU_EDB. A caller that allows NULL tests it first.
 */
int kifu_db_column_whole_(long long *out, struct kifu_stmt *s, int i, long long min, long long max,
			  struct kifu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
int kifu_db_column_real_(double *out, struct kifu_stmt *s, int i, double min, double max,
			 struct kifu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/*
 * A stored game's date (column i: as written, or NULL) and, with i_first
 * >= 0, its first day (column i_first, what the store sorts and filters
 * by), checked by the records' rule (kifu_date_parse) and against each
 * other: 0, or KIFU_EDB as damage "WHERE: date 'V' is ...".
 */
int kifu_db_column_date_(struct kifu_stmt *s, int i, int i_first, struct kifu_error *err,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * The same rule for a date the tree keeps with its counts (column i:
 * NULL, or "FIRST_DAY DATE", the first day a space and the date as
 * written; tree_moves.first_seen and last_seen).
 */
int kifu_db_column_seen_(struct kifu_stmt *s, int i, struct kifu_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * One row of kept counts (tree_moves, stats_lines, stats_players): columns
 * i .. i + n - 1 into v[0..n), named names[0..n) in messages: v[0] the
 * games (1 or more), the others counts of those games by result (0 or
 * more) adding up to no more than v[0] (exactly v[0] with exact). Damage
 * otherwise, "WHERE: ..." (where from fmt), as kifu_db_column_whole_ says it.
 */
int kifu_db_column_counts_(long long *v, struct kifu_stmt *s, int i, int n,
			   const char *const *names, int exact, struct kifu_error *err,
			   const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* The largest count kifu_db_column_whole_ takes (a kept sum of games). */
#define KIFU_DB_COUNT_MAX LLONG_MAX

/*
 * The most plies a stored game can have: its hashes take 8 bytes a
 * position in one value, and neither SQLite nor PostgreSQL stores a value
 * past 1 GB (games.plies past it, or below 0, is damage).
 */
#define KIFU_DB_PLIES_MAX (1000000000LL / 8 - 1)

/*
 * *sum += v for sums of stored counts: KIFU_EDB as damage "WHERE add up
 * past 2^63" when the sum does not fit in 64 bits (no kifu writes counts
 * that large: they were changed), else 0.
 */
int kifu_db_sum_(long long *sum, long long v, struct kifu_store *st, struct kifu_error *err,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The last error's code (as kifu_db_fail_) and the backend's message. */
int kifu_db_errcode_(struct kifu_store *st);
const char *kifu_db_errmsg_(struct kifu_store *st);

/*
 * Whether the last error only means "try the transaction again"
 * (PostgreSQL's serialization failures and deadlocks).
 */
int kifu_db_retryable_(struct kifu_store *st);

/*
 * kifu_db_exec_ of a statement without rows whose failure may be said by
 * the next statement (PostgreSQL sends it without waiting, inside a
 * transaction); with wait, answered now together with the writes in
 * flight (one round trip), their first failure returned: 0 or a negative
 * KIFU_E* code. sql NULL: no statement, the answers to the writes in
 * flight read now (nothing to do on SQLite).
 */
int kifu_db_exec_nowait_(struct kifu_store *st, const char *sql, int wait);

/*
 * Whether the last error is about the values written (too long for an
 * index, out of a type's range, a constraint), not about the database or
 * the connection: the record cannot be stored, others may.
 */
int kifu_db_record_error_(struct kifu_store *st);

/*
 * Whether the last error means the database cannot be written now (read
 * only, locked by another writer, permissions, disk full): readers then
 * compute from the games instead of keeping precomputed tables.
 */
int kifu_db_cannot_write_(struct kifu_store *st);

#endif
