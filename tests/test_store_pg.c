/*
 * Tests of the PostgreSQL store backend (lib/store/backends/pg.c). Without a
 * server: rewriting SQLite's parameters as PostgreSQL's and keeping
 * passwords out of the URI messages quote. With one (KIFU_PG_URI, an empty
 * database, and KIFU_PG_URI_EMPTY, another; tests/cli/pg-store.sh starts a
 * throwaway server and runs this with both): the statement layer's values
 * going there and back exactly, unused parameter numbers, cursors read
 * across their batches with other statements in between, game ids without
 * gaps over duplicates, the error classes that mean "retry" and "cannot
 * write", and readers never creating a database.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/diag.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "kifu/store.h"
#include "store/store_impl.h"
#include "helpers.h"

/* ---- without a server ---- */

static void check_rewrite(const char *sql, const char *want, int want_n)
{
	short number[KIFU_PG_MAX_NUMBER + 1];
	char *out;
	int n = -1;

	memset(number, 0, sizeof(number));
	out = kifu_pg_rewrite_(sql, number, &n);
	assert_non_null(out);
	assert_string_equal(out, want);
	assert_int_equal(n, want_n);
	free(out);
}

/* Every schema version has its PostgreSQL file, with the same number and name. */
static void test_migrations_match(void **state)
{
	int k;

	(void)state;
	for (k = 0; kifu_migrations_[k].version; k++) {
		assert_int_equal(kifu_pg_migrations_[k].version, kifu_migrations_[k].version);
		assert_string_equal(kifu_pg_migrations_[k].name, kifu_migrations_[k].name);
	}
	assert_int_equal(kifu_pg_migrations_[k].version, 0);
	assert_int_equal(k, kifu_store_schema_version());
}

static void test_rewrite(void **state)
{
	short number[KIFU_PG_MAX_NUMBER + 1];
	int n;

	(void)state;
	check_rewrite("SELECT 1", "SELECT 1", 0);
	check_rewrite("SELECT ?1, ?2 WHERE x = ?1", "SELECT $1, $2 WHERE x = $1", 2);
	/* ? alone is the one after the highest so far, as in SQLite. */
	check_rewrite("VALUES (?, ?, ?5, ?)", "VALUES ($1, $2, $3, $4)", 4);
	/* Numbers SQLite lets go unused are numbered densely. */
	check_rewrite("WHERE a = ?3 AND b < ?100", "WHERE a = $1 AND b < $2", 2);
	/* Quoted text, identifiers and comments keep their question marks. */
	check_rewrite("SELECT '?1', \"a?\" -- ?2\n, ?1", "SELECT '?1', \"a?\" -- ?2\n, $1", 1);
	check_rewrite("SELECT 'it''s ?', ?2", "SELECT 'it''s ?', $1", 1);
	memset(number, 0, sizeof(number));
	assert_null(kifu_pg_rewrite_("SELECT ?1000", number, &n));
	assert_null(kifu_pg_rewrite_("SELECT ?0", number, &n));
}

static void check_public(const char *uri, const char *want)
{
	char *out = kifu_pg_uri_public_(uri);

	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void test_uri_public(void **state)
{
	(void)state;
	check_public("postgresql://ann:s3cret@db.example.org:5433/games",
		     "postgresql://ann@db.example.org:5433/games");
	check_public("postgres://ann@/games?host=/tmp/x", "postgres://ann@/games?host=/tmp/x");
	check_public("postgresql:///games?host=/tmp/x&password=s3cret",
		     "postgresql:///games?host=/tmp/x");
	check_public("postgresql:///games?password=s3cret&host=/tmp/x",
		     "postgresql:///games?host=/tmp/x");
	check_public("postgresql:///games?password=a&password=b", "postgresql:///games");
	/* An @ in the password: the last one ends the user part. */
	check_public("postgresql://ann:p@ss@host/games", "postgresql://ann@host/games");
	/* Passwords as libpq reads them, whatever the spelling of the key or value. */
	check_public("postgresql://x@127.0.0.1:1/db?pass%77ord=S3cr3t", "postgresql://x@127.0.0.1:1/db");
	check_public("postgresql://x:%53%33cr%33t@h/db?%70assword=a&sslpassword=b&sslmode=disable",
		     "postgresql://x@h/db?sslmode=disable");
	/* Hosts: IPv6, several, a socket directory; what libpq cannot parse, the scheme only. */
	check_public("postgresql://[::1]:5433/db", "postgresql://[::1]:5433/db");
	check_public("postgresql://a:1,b:2/db?password=s", "postgresql:///db?host=a,b&port=1,2");
	check_public("postgresql://u:s3cret@[::1/db", "postgresql://...");
}

/* ---- with a server ---- */

static const char *server(void)
{
	const char *uri = getenv("KIFU_PG_URI");

	return uri && *uri ? uri : NULL;
}

static struct kifu_store *open_pg(unsigned flags)
{
	struct kifu_store *st = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_store_open(&st, server(), flags, &err) < 0)
		fail_msg("open: %s", err.message);
	return st;
}

static void exec_ok(struct kifu_store *st, const char *sql)
{
	if (kifu_db_exec_(st, sql) < 0)
		fail_msg("%s: %s", sql, kifu_db_errmsg_(st));
}

static void test_values_round_trip(void **state)
{
	static const char hostile[] = "O'Brien \\ \"x\"; DROP TABLE games; -- \xe2\x99\x9e ?1 $1";
	unsigned char bytes[256];
	struct kifu_store *st;
	struct kifu_stmt *s;
	struct kifu_error err;
	int i;

	(void)state;
	if (!server())
		skip();
	st = open_pg(0);
	assert_string_equal(kifu_db_backend_(st), "postgresql");
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	for (i = 0; i < 256; i++)
		bytes[i] = (unsigned char)i;
	kifu_error_clear(&err);
	assert_int_equal(kifu_db_prepare_(&s, st, "SELECT ?1::bigint, ?2::bigint, ?3::text, ?4::bytea, "
					 "?5::float8, ?6::text, ?7::text IS NULL, ?8::text", &err), 0);
	kifu_db_bind_int64_(s, 1, INT64_MIN);
	kifu_db_bind_int64_(s, 2, INT64_MAX);
	kifu_db_bind_text_(s, 3, hostile, -1);
	kifu_db_bind_blob_(s, 4, bytes, sizeof(bytes));
	kifu_db_bind_double_(s, 5, 0.1);
	kifu_db_bind_text_(s, 6, "", 0);
	kifu_db_bind_null_(s, 7);
	kifu_db_bind_text_(s, 8, "abcdef", 3);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_ROW);
	assert_true(kifu_db_column_int64_(s, 0) == INT64_MIN);
	assert_true(kifu_db_column_int64_(s, 1) == INT64_MAX);
	assert_string_equal(kifu_db_column_text_(s, 2), hostile);
	assert_int_equal(kifu_db_column_bytes_(s, 3), sizeof(bytes));
	assert_memory_equal(kifu_db_column_blob_(s, 3), bytes, sizeof(bytes));
	assert_true(kifu_db_column_double_(s, 4) == 0.1);
	assert_false(kifu_db_column_is_null_(s, 5));
	assert_string_equal(kifu_db_column_text_(s, 5), "");
	/* A boolean reads as SQLite's 1 and 0. */
	assert_int_equal(kifu_db_column_int_(s, 6), 1);
	assert_string_equal(kifu_db_column_text_(s, 7), "abc");
	assert_int_equal(kifu_db_step_(s), KIFU_DB_DONE);
	/* Reset keeps the bindings, as SQLite's. */
	kifu_db_reset_(s);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_ROW);
	assert_string_equal(kifu_db_column_text_(s, 2), hostile);
	kifu_db_finalize_(s);
	/* A parameter number the SQL does not use can be bound, and changes nothing. */
	assert_int_equal(kifu_db_prepare_(&s, st, "SELECT ?3::int - ?1::int", &err), 0);
	kifu_db_bind_int_(s, 1, 2);
	kifu_db_bind_int_(s, 2, 1000);
	kifu_db_bind_int_(s, 3, 7);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_ROW);
	assert_int_equal(kifu_db_column_int_(s, 0), 5);
	kifu_db_finalize_(s);
	kifu_store_free(st);
}

/* More rows than a cursor fetches at once, with another statement run between rows. */
static void test_cursor(void **state)
{
	struct kifu_store *st;
	struct kifu_stmt *s, *other;
	struct kifu_error err;
	long long sum = 0, n = 0;
	int rc;

	(void)state;
	if (!server())
		skip();
	st = open_pg(0);
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_begin_tx(st, KIFU_TX_READ, &err), 0);
	assert_int_equal(kifu_store_tx_kind(st), KIFU_TX_READ);
	assert_int_equal(kifu_db_prepare_(&s, st, "SELECT g FROM generate_series(1, ?1) AS g", &err), 0);
	assert_int_equal(kifu_db_prepare_(&other, st, "SELECT ?1::bigint * 2", &err), 0);
	kifu_db_bind_int_(s, 1, 10000);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t v = kifu_db_column_int64_(s, 0);

		kifu_db_bind_int64_(other, 1, v);
		assert_int_equal(kifu_db_step_(other), KIFU_DB_ROW);
		assert_true(kifu_db_column_int64_(other, 0) == 2 * v);
		kifu_db_reset_(other);
		sum += v;
		n++;
	}
	assert_int_equal(rc, KIFU_DB_DONE);
	assert_int_equal(n, 10000);
	assert_true(sum == 10000LL * 10001 / 2);
	/* Again from the start after a reset. */
	kifu_db_reset_(s);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_ROW);
	assert_int_equal(kifu_db_column_int_(s, 0), 1);
	kifu_db_finalize_(s);
	kifu_db_finalize_(other);
	assert_int_equal(kifu_store_commit(st, &err), 0);
	kifu_store_free(st);
}

/* Duplicates use up no id; a batch of the caller's goes on around each game. */
static void test_game_ids(void **state)
{
	static const char *const texts[] = {
		"game: splay-schmidt\nevent: \"It's\"\nplayers: {white: \"Ann O'Neill\", black: Bo}\n"
		"moves: [G4, {move: h4, comment: \"a \\\\ b\"}]\n",
		"game: splay-schmidt\nplayers: {white: Bo, black: \"Ann O'Neill\"}\nmoves: [G4]\n",
	};
	struct kifu_store *st;
	struct kifu_replay rp[2];
	struct kifu_record *rec[2], *back = NULL;
	struct kifu_error err;
	long long before;
	int64_t id, first;
	int k;

	(void)state;
	if (!server())
		skip();
	st = open_pg(0);
	kifu_error_clear(&err);
	assert_int_equal(kifu_db_query_int_(&before, st, "SELECT coalesce(max(id), 0) FROM games", &err), 0);
	for (k = 0; k < 2; k++) {
		memset(&rp[k], 0, sizeof(rp[k]));
		rec[k] = th_parse(texts[k], &rp[k]);
	}
	assert_int_equal(kifu_store_begin(st, &err), 0);
	assert_int_equal(kifu_store_game_add(&first, st, rec[0], &rp[0], NULL, &err), 1);
	assert_true(first == before + 1);
	for (k = 0; k < 3; k++) {
		assert_int_equal(kifu_store_game_add(&id, st, rec[0], &rp[0], NULL, &err), 0);
		assert_true(id == first);
	}
	assert_int_equal(kifu_store_in_transaction(st), 1);
	assert_int_equal(kifu_store_game_add(&id, st, rec[1], &rp[1], NULL, &err), 1);
	assert_true(id == first + 1);
	assert_int_equal(kifu_store_commit(st, &err), 0);
	/* The game comes back as it went in, quotes and backslashes included. */
	assert_int_equal(kifu_store_game_load(&back, st, first, &err), 0);
	assert_string_equal(back->event, "It's");
	assert_string_equal(back->players[0].name, "Ann O'Neill");
	assert_string_equal(back->turns[1].comment, "a \\ b");
	kifu_record_free(back);
	for (k = 0; k < 2; k++) {
		kifu_record_free(rec[k]);
		kifu_replay_release(&rp[k]);
	}
	kifu_store_free(st);
}

static void test_error_classes(void **state)
{
	struct kifu_store *st;
	struct kifu_stmt *s;
	struct kifu_error err;
	long long n = 0;

	(void)state;
	if (!server())
		skip();
	st = open_pg(0);
	exec_ok(st, "SELECT 1");
	assert_true(kifu_db_exec_(st, "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40P01'; END $$") < 0);
	assert_true(kifu_db_retryable_(st));
	assert_false(kifu_db_cannot_write_(st));
	assert_true(kifu_db_exec_(st, "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40001'; END $$") < 0);
	assert_true(kifu_db_retryable_(st));
	assert_true(kifu_db_exec_(st, "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '42501'; END $$") < 0);
	assert_false(kifu_db_retryable_(st));
	assert_true(kifu_db_cannot_write_(st));
	/* A read-only snapshot refuses writes as "cannot write". */
	exec_ok(st, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
	assert_true(kifu_db_exec_(st, "DELETE FROM stats_state") < 0);
	assert_true(kifu_db_cannot_write_(st));
	exec_ok(st, "ROLLBACK");
	assert_true(kifu_db_exec_(st, "SELECT * FROM no_such_table") < 0);
	assert_false(kifu_db_retryable_(st));
	assert_false(kifu_db_cannot_write_(st));
	assert_non_null(strstr(kifu_db_errmsg_(st), "no_such_table"));
	/*
	 * Writes in a transaction are sent without waiting for their result:
	 * a failure is reported by the next statement, here the commit, with
	 * the failed write's own message, also after a statement is finalized.
	 */
	kifu_error_clear(&err);
	exec_ok(st, "CREATE TEMP TABLE t(x integer PRIMARY KEY)");
	assert_int_equal(kifu_store_begin_tx(st, KIFU_TX_REFRESH, &err), 0);
	assert_int_equal(kifu_db_prepare_(&s, st, "INSERT INTO t(x) VALUES (?1)", &err), 0);
	kifu_db_bind_int_(s, 1, 1);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_DONE);
	kifu_db_reset_(s);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_DONE);
	kifu_db_finalize_(s);
	assert_true(kifu_store_commit(st, &err) < 0);
	assert_non_null(strstr(err.message, "duplicate key"));
	kifu_store_rollback(st);
	exec_ok(st, "INSERT INTO t(x) VALUES (2)");
	assert_true(kifu_db_query_int_(&n, st, "SELECT count(*) FROM t", &err) == 0 && n == 1);
	kifu_store_free(st);
}

/* A reader finds no database in an empty one and creates nothing; a writer makes it one. */
static void test_readers_never_create(void **state)
{
	const char *empty = getenv("KIFU_PG_URI_EMPTY");
	struct kifu_store *st = NULL;
	struct kifu_error err;
	char want[600];
	long long n = -1;

	(void)state;
	if (!server() || !empty || !*empty)
		skip();
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_open(&st, empty, KIFU_STORE_READ, &err), KIFU_ENOTFOUND);
	assert_null(st);
	snprintf(want, sizeof(want), "no database at '%s'", empty);
	assert_string_equal(err.message, want);
	assert_int_equal(kifu_store_open(&st, empty, 0, &err), 0);
	assert_int_equal(kifu_db_query_int_(&n, st, "SELECT count(*) FROM kifu_schema", &err), 0);
	assert_int_equal(n, 1);
	kifu_store_free(st);
	assert_int_equal(kifu_store_open(&st, empty, KIFU_STORE_READ, &err), 0);
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	kifu_store_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrations_match),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_uri_public),
		cmocka_unit_test(test_values_round_trip),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_game_ids),
		cmocka_unit_test(test_error_classes),
		cmocka_unit_test(test_readers_never_create),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
