/*
 * Unit tests of the game database's schema versions (lib/store/):
 * migrations from older schema versions (and from a database the release
 * before schema 4 made, keeping every row), refusal of newer versions and
 * of foreign databases, unknown versions, and deferred SQL that is not run.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "kifu/buf.h"
#include "kifu/record.h"
#include "kifu/store.h"
#include "helpers.h"

/* SQL on the SQLite file itself, as another program would write it. */
static void exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

static void test_migrates_older(void **state)
{
	char *v1 = th_source_file("schema/001-initial.sql");
	struct kifu_store *st;
	sqlite3 *db;

	(void)state;
	/* A version-1 database made by hand, holding a game. */
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, v1);
	exec_sql(db, "PRAGMA user_version = 1");
	exec_sql(db, "INSERT INTO games(game, variant, first, result, plies, content_hash) "
		     "VALUES ('glaisher', 'standard', 'red', 'draw', 0, 42)");
	/* its one position (ply 0): without it the game would be damaged (issue 28) */
	exec_sql(db, "INSERT INTO positions(game_id, ply, hash) VALUES (1, 0, 7)");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	free(v1);
	st = th_store_open(th_dbpath);
	/* migrated to the newest version, every migration file applied */
	assert_int_equal(th_q_int(st, "PRAGMA user_version"), kifu_store_schema_version());
	/* The views of version 2 exist and see the old game. */
	assert_string_equal(th_q_text(st, "SELECT game || ' ' || result FROM game_list"),
			    "glaisher draw");
	assert_int_equal(th_q_int(st, "SELECT games FROM results"), 1);
	kifu_store_free(st);
	th_tmpdb_teardown(state);
	th_tmpdb_setup(state);
	/* Version 0: an empty SQLite file. */
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, "PRAGMA user_version = 0; VACUUM");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	st = th_store_open(th_dbpath);
	assert_int_equal(th_q_int(st, "PRAGMA user_version"), kifu_store_schema_version());
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_list"), 0);
	kifu_store_free(st);
}

static void write_all_games(struct kifu_buf *out, struct kifu_store *st);

/*
 * Schema 10: a database of schema 9 (no game_lines) is read as it is, its
 * games without lines, and migrates keeping its games; a format-2 game
 * stored then comes back with its lines, nags and evals.
 */
static void test_migrate_lines(void **state)
{
	static const char plain[] = "game: splay-schmidt\nmoves: [f6, f3, b2]\n";
	static const char annotated[] =
		"format: 2\ngame: splay-schmidt\nmoves:\n  - f6\n"
		"  - move: f3\n    nag: '?!'\n"
		"    eval: {engine: 'mcts:9', expected: 0.5, best: d4}\n"
		"    variations: [[d4, {move: c2, comment: c, variations: [[c3]]}], [b2]]\n"
		"  - d4\n";
	struct kifu_buf before = KIFU_BUF_INIT, after = KIFU_BUF_INIT, want = KIFU_BUF_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec;
	struct kifu_store *st;
	struct kifu_error err;
	sqlite3 *db;

	(void)state;
	kifu_error_clear(&err);
	st = th_store_open(th_dbpath);
	th_add_games(st, plain);
	kifu_store_free(st);
	/* what schema 9 was: the same without game_lines (nor schema 11's tables) */
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, "DROP TABLE game_lines; DROP TABLE stats_player_sums; DROP TABLE stats_pairs; "
		     "PRAGMA user_version = 9");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ, &err), 0);
	assert_int_equal(kifu_store_version(st), 9);
	write_all_games(&before, st);
	kifu_store_free(st);

	st = th_store_open(th_dbpath);
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_lines"), 0);
	write_all_games(&after, st);
	assert_string_equal(after.data, before.data);
	th_add_games(st, annotated);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_lines"), 1);
	/* kept with the game; the main line alone in game_data and the position index */
	assert_int_equal(th_q_int(st, "SELECT plies FROM games WHERE id = 2"), 3);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 2"), 4);
	assert_int_equal(kifu_store_game_load(&rec, st, 2, &err), 0);
	th_revalidate(rec, &rp);
	assert_int_equal(kifu_record_write(&after, rec, &rp, &err), 0);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
	rec = th_parse(annotated, &rp);
	assert_int_equal(kifu_record_write(&want, rec, &rp, &err), 0);
	assert_non_null(strstr(after.data, want.data));
	assert_non_null(strstr(want.data, "      - - d4\n"));
	kifu_record_free(rec);
	kifu_replay_release(&rp);
	/* a game that differs only in its lines is a duplicate: the stored copy stays */
	rec = th_parse("format: 2\ngame: splay-schmidt\nmoves: [f6, {move: f3, nag: '!'}, d4]\n", &rp);
	{
		int64_t id = 0;

		assert_int_equal(kifu_store_game_add(&id, st, rec, &rp, NULL, &err), 0);
		assert_int_equal(id, 2);
	}
	kifu_record_free(rec);
	kifu_replay_release(&rp);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 2);
	assert_non_null(strstr(th_q_text(st, "SELECT lines FROM game_lines"), "\"?!\""));
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_lines"), 1);
	kifu_store_free(st);
	kifu_buf_release(&before);
	kifu_buf_release(&after);
	kifu_buf_release(&want);
}

static void test_refuses_newer_and_foreign(void **state)
{
	struct kifu_store *st = NULL;
	struct kifu_error err;
	char want[512];
	sqlite3 *db;

	(void)state;
	/* The version after this kifu's latest, whatever that is. */
	int newer = kifu_store_schema_version() + 1;
	char sql[64];

	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "CREATE TABLE t(x); PRAGMA user_version = %d", newer);
	exec_sql(db, sql);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_open(&st, th_dbpath, 0, &err), KIFU_EDB);
	assert_null(st);
	snprintf(want, sizeof(want), "database '%s' has schema version %d, newer than this kifu (%d)",
		 th_dbpath, newer, kifu_store_schema_version());
	assert_string_equal(err.message, want);
	assert_string_equal(err.source, th_dbpath);
	/* Somebody else's database (version 0, with tables) is left alone. */
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, "PRAGMA user_version = 0");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	assert_int_equal(kifu_store_open(&st, th_dbpath, 0, &err), KIFU_EDB);
	snprintf(want, sizeof(want), "database '%s' is not a kifu database", th_dbpath);
	assert_string_equal(err.message, want);
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, "SELECT x FROM t");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	/* A file that is not SQLite, and a directory that does not exist. */
	{
		FILE *fp = fopen(th_dbpath, "w");

		fputs("this is not a database, not even close; it is a text file of some length\n", fp);
		fclose(fp);
	}
	unlink(strcat(strcpy(want, th_dbpath), "-wal"));
	unlink(strcat(strcpy(want, th_dbpath), "-shm"));
	assert_int_equal(kifu_store_open(&st, th_dbpath, 0, &err), KIFU_EDB);
	assert_non_null(strstr(err.message, th_dbpath));
	assert_int_equal(kifu_store_open(&st, "/nonexistent/dir/x.db", 0, &err), KIFU_EDB);
	assert_string_equal(err.source, "/nonexistent/dir/x.db");
	assert_non_null(strstr(err.message, "cannot open database '/nonexistent/dir/x.db'"));
}

/* ---- Schema 4 and issue 10 ---- */

/* Copies the fixture rel (a database file) to th_dbpath, byte for byte. */
static void copy_fixture(const char *rel)
{
	char path[512], buf[8192];
	FILE *in, *out;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", KIFU_SOURCE_DIR, rel);
	in = fopen(path, "rb");
	out = fopen(th_dbpath, "wb");
	if (!in || !out)
		fail_msg("cannot copy %s", path);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* Every stored game written out as canonical YAML, in id order. */
static void write_all_games(struct kifu_buf *out, struct kifu_store *st)
{
	struct kifu_error err;
	int64_t *ids = NULL;
	size_t n = 0, i;

	kifu_error_clear(&err);
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, NULL, &err), 0);
	assert_true(n > 0);
	for (i = n; i-- > 0;) {
		struct kifu_replay rp = KIFU_REPLAY_INIT;
		struct kifu_record *rec;

		assert_int_equal(kifu_store_game_load(&rec, st, ids[i], &err), 0);
		th_revalidate(rec, &rp);
		assert_int_equal(kifu_record_write(out, rec, &rp, &err), 0);
		kifu_record_free(rec);
		kifu_replay_release(&rp);
	}
	kifu_store_game_ids_free(ids);
}

/* The rows every migration must keep, and the moves and positions, as one text. */
static const char keep_sql[] =
	"SELECT (SELECT count(*) FROM games) || '|' || (SELECT count(*) FROM quarantine) || '|' || "
	"(SELECT count(*) FROM quarantine_diags) || '|' || (SELECT count(*) FROM imports) || '|' || "
	"(SELECT count(*) FROM files) || '|' || (SELECT count(*) FROM sides) || '|' || "
	"(SELECT count(*) FROM tags) || '|' || (SELECT count(*) FROM figures) || '|' || "
	"(SELECT sum(length(raw)) FROM quarantine) || '|' || "
	"(SELECT group_concat(game_id || ':' || ply || ':' || move || ':' || ifnull(comment, '-') "
	"|| ':' || ifnull(clock, '-') || ':' || ifnull(clock_text, '-'), ',') FROM "
	"(SELECT * FROM moves ORDER BY game_id, ply)) || '|' || (SELECT group_concat(game_id || ':' "
	"|| ply || ':' || hash, ',') FROM (SELECT * FROM positions ORDER BY game_id, ply))";

/* A database of the release before schema 4 migrates keeping everything. */
static void test_migrate_release_3(void **state)
{
	struct kifu_buf before = KIFU_BUF_INIT, after = KIFU_BUF_INIT;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	char *kept;

	(void)state;
	copy_fixture("tests/data/store/schema-3.sqlite");
	kifu_error_clear(&err);
	/* Read as it is: not migrated, games loaded from the rows of schema 1. */
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ, &err), 0);
	assert_int_equal(kifu_store_version(st), 3);
	kept = strdup(th_q_text(st, keep_sql));
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 30);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine"), 4);
	write_all_games(&before, st);
	kifu_store_free(st);
	st = th_store_open(th_dbpath);
	assert_int_equal(th_q_int(st, "PRAGMA user_version"), kifu_store_schema_version());
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	assert_string_equal(th_q_text(st, keep_sql), kept);
	assert_string_equal(th_q_text(st, "SELECT clock_text || '=' || clock FROM moves WHERE "
				       "clock_text = '1:30'"), "1:30=90.0");
	write_all_games(&after, st);
	assert_string_equal(after.data, before.data);
	/* The position index: each game once per position, at its first ply. */
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash"),
			 th_q_int(st, "SELECT count(*) FROM (SELECT DISTINCT hash, game_id FROM positions)"));
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash h WHERE ply <> (SELECT "
				   "min(ply) FROM positions p WHERE p.hash = h.hash AND "
				   "p.game_id = h.game_id)"), 0);
	assert_string_equal(th_q_text(st, "PRAGMA integrity_check"), "ok");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	/* Deleting a game takes its moves and index entries with it, also after a bulk load. */
	th_exec(st, "DELETE FROM games WHERE id = 2");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 2"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_moves WHERE game_id = 2"), 0);
	assert_int_equal(kifu_store_bulk_begin(st, &err), 0);
	assert_int_equal(kifu_store_bulk_end(st, &err), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 3"),
			 th_q_int(st, "SELECT count(DISTINCT hash) FROM positions WHERE game_id = 3"));
	th_exec(st, "DELETE FROM games WHERE id = 3");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 3"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM sqlite_master WHERE sql LIKE "
				   "'%%positions_hash_deferred%%'"), 0);
	kifu_store_free(st);
	free(kept);
	kifu_buf_release(&before);
	kifu_buf_release(&after);
}

/*
 * Schema 7: every row of every table a database of the release before it
 * holds (tests/data/store/schema-6.sqlite), as plain SQL reads it, one line
 * per row in key order; the hash arrays through the views game_moves and
 * game_canon, which give them back as the JSON text of schema 6.
 */
static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dump_rows(struct kifu_buf *out, const char *path)
{
	static const char *const tables[] = {
		"games", "players", "sides", "figures", "tags", "quarantine", "quarantine_diags",
		"imports", "files", "analysis_runs", "analysis_plies", "stats_state",
		"stats_outcomes", "stats_lines", "stats_players",
		/*
		 * schema 6's columns and rows: schema 8 adds the dates
		 * (tests/cli/novelties.sh) and rows of move '' for the
		 * games that end at a position (tests/cli/tree-ended.sh)
		 */
		"SELECT game, variant, \"symmetric\", hash, move, games, w0, w1, w2, w3, draws, "
		"unfinished, plies FROM tree_moves WHERE move <> ''", "game_listing",
		"positions_hash", "positions_canon", "game_moves", "game_canon", "moves",
		"positions", "positions_hex", "game_list", "quarantine_list", NULL
	};
	const char *const *t;
	sqlite3 *db;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	for (t = tables; *t; t++) {
		char sql[256], **lines = NULL;
		sqlite3_stmt *s;
		size_t rows = 0, i;

		snprintf(sql, sizeof(sql), strncmp(*t, "SELECT", 6) ? "SELECT * FROM %s" : "%s", *t);
		if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
			fail_msg("%s: %s", sql, sqlite3_errmsg(db));
		while (sqlite3_step(s) == SQLITE_ROW) {
			struct kifu_buf row = KIFU_BUF_INIT;
			int c;

			for (c = 0; c < sqlite3_column_count(s); c++) {
				int type = sqlite3_column_type(s, c), n = sqlite3_column_bytes(s, c), k;
				const unsigned char *b = sqlite3_column_blob(s, c);

				kifu_buf_printf(&row, "%s%d:", c ? "|" : "", type);
				for (k = 0; type != SQLITE_NULL && k < n; k++)
					kifu_buf_printf(&row, type == SQLITE_BLOB ? "%02x" : "%c", b[k]);
			}
			assert_false(row.failed);
			lines = realloc(lines, (rows + 1) * sizeof(*lines));
			assert_non_null(lines);
			lines[rows++] = row.data;
		}
		assert_int_equal(sqlite3_finalize(s), SQLITE_OK);
		/* every table of the fixture holds something to keep */
		if (rows == 0)
			fail_msg("the fixture's %s is empty", *t);
		qsort(lines, rows, sizeof(*lines), cmp_lines);
		kifu_buf_printf(out, "== %s\n", *t);
		for (i = 0; i < rows; i++) {
			kifu_buf_printf(out, "%s\n", lines[i]);
			free(lines[i]);
		}
		free(lines);
	}
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	assert_false(out->failed);
}

/* A database of the release before schema 7 migrates keeping everything. */
static void test_migrate_release_6(void **state)
{
	struct kifu_buf rows6 = KIFU_BUF_INIT, rows7 = KIFU_BUF_INIT;
	struct kifu_buf before = KIFU_BUF_INIT, after = KIFU_BUF_INIT;
	struct kifu_store *st = NULL;
	struct kifu_error err;

	(void)state;
	copy_fixture("tests/data/store/schema-6.sqlite");
	dump_rows(&rows6, th_dbpath);
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ, &err), 0);
	assert_int_equal(kifu_store_version(st), 6);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 29);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine"), 5);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM analysis_runs"), 4);
	write_all_games(&before, st);
	kifu_store_free(st);
	st = th_store_open(th_dbpath);
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	assert_true(kifu_store_schema_version() >= 7);
	/* 8 bytes per hash, big-endian: hex() gives the tools' digits */
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_data d JOIN games g ON g.id = d.game_id "
				   "WHERE length(d.hashes) <> 8 * (g.plies + 1) OR "
				   "length(d.canon) <> 8 * (g.plies + 1)"), 0);
	assert_string_equal(th_q_text(st, "SELECT lower(hex(substr(hashes, 9, 8))) FROM game_data "
				       "WHERE game_id = 3"),
			    th_q_text(st, "SELECT hash FROM positions_hex WHERE game_id = 3 AND ply = 1"));
	write_all_games(&after, st);
	assert_string_equal(after.data, before.data);
	assert_string_equal(th_q_text(st, "PRAGMA integrity_check"), "ok");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	kifu_store_free(st);
	dump_rows(&rows7, th_dbpath);
	assert_string_equal(rows7.data, rows6.data);
	/* Changes by hand through the views: the indexes follow, as in schema 6. */
	st = th_store_open(th_dbpath);
	th_exec(st, "DELETE FROM game_moves WHERE game_id = 4");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 4"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_canon WHERE game_id = 4"), 0);
	th_exec(st, "DELETE FROM games WHERE id = 6");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM game_data WHERE game_id = 6"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_hash WHERE game_id = 6"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM positions_canon WHERE game_id = 6"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM stats_state WHERE name IN ('lines', "
				   "'tree')"), 0);
	th_exec(st, "UPDATE game_moves SET moves = json_array('x') WHERE game_id = 7");
	assert_string_equal(th_q_text(st, "SELECT moves FROM game_data WHERE game_id = 7"), "[\"x\"]");
	kifu_store_free(st);
	kifu_buf_release(&rows6);
	kifu_buf_release(&rows7);
	kifu_buf_release(&before);
	kifu_buf_release(&after);
}

/* Issue 10: PRAGMA user_version is what the file says; unknown ones are refused. */
static void test_unknown_versions(void **state)
{
	static const char *const versions[] = { "-1", "-2147483648", "99" };
	struct kifu_store *st = NULL;
	struct kifu_error err;
	char pragma[64];
	sqlite3 *db;
	size_t i;
	int k;

	(void)state;
	kifu_store_free(th_store_open(th_dbpath));
	for (i = 0; i < 3; i++) {
		assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %s", versions[i]);
		exec_sql(db, pragma);
		assert_int_equal(sqlite3_close(db), SQLITE_OK);
		for (k = 0; k < 2; k++) {
			kifu_error_clear(&err);
			assert_int_equal(kifu_store_open(&st, th_dbpath, k ? KIFU_STORE_READ : 0, &err),
					 KIFU_EDB);
			assert_null(st);
			snprintf(pragma, sizeof(pragma), "schema version %s", versions[i]);
			assert_non_null(strstr(err.message, pragma));
		}
	}
}

/* Issue 10: SQL text in the database is never run; deferred indexes come from libkifu. */
static void test_deferred_sql_not_run(void **state)
{
	struct kifu_store *st;
	struct kifu_error err;
	sqlite3 *db;

	(void)state;
	copy_fixture("tests/data/store/schema-3.sqlite");
	assert_int_equal(sqlite3_open(th_dbpath, &db), SQLITE_OK);
	exec_sql(db, "DROP INDEX sides_player; INSERT INTO deferred_indexes(name, sql) VALUES "
		     "('sides_player', 'CREATE TABLE pwned(x)'), ('evil', 'DELETE FROM quarantine')");
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	st = th_store_open(th_dbpath);
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_bulk_end(st, &err), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM sqlite_master WHERE name = 'pwned'"), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine"), 4);
	assert_string_equal(th_q_text(st, "SELECT sql FROM sqlite_master WHERE name = 'sides_player'"),
			    "CREATE INDEX sides_player ON sides(player_id)");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM deferred_indexes"), 0);
	kifu_store_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_migrates_older, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_migrate_lines, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_refuses_newer_and_foreign, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_migrate_release_3, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_migrate_release_6, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_versions, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_deferred_sql_not_run, th_tmpdb_setup,
						th_tmpdb_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
