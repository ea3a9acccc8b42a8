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
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/search.h"
#include "kifu/stats.h"
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
	/*
	 * kept with the game; the main line alone in the position index: its
	 * last position found at ply 3, the line's (f6, d4) not at all, and
	 * nothing else indexed than the two games' 4 positions each
	 */
	assert_int_equal(th_q_int(st, "SELECT plies FROM games WHERE id = 2"), 3);
	{
		const struct kifu_game *g = kifu_game_find("splay-schmidt");
		uint64_t h = 0;

		assert_int_equal(kifu_search_position(&h, g, 0, "f6,f3,d4", &err), 0);
		assert_int_equal(th_ply_at(st, h, 2), 3);
		assert_int_equal(kifu_search_position(&h, g, 0, "f6,d4", &err), 0);
		assert_int_equal(th_games_at(st, h), 0);
		assert_int_equal(th_check_whole(st), 8);
	}
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

/*
 * The rows every migration must keep and the moves, as one text (the
 * positions follow from the moves: th_check_whole checks the stored ones
 * against a replay).
 */
static const char keep_sql[] =
	"SELECT (SELECT count(*) FROM games) || '|' || (SELECT count(*) FROM quarantine) || '|' || "
	"(SELECT count(*) FROM quarantine_diags) || '|' || (SELECT count(*) FROM imports) || '|' || "
	"(SELECT count(*) FROM files) || '|' || (SELECT count(*) FROM sides) || '|' || "
	"(SELECT count(*) FROM tags) || '|' || (SELECT count(*) FROM figures) || '|' || "
	"(SELECT sum(length(raw)) FROM quarantine) || '|' || "
	"(SELECT group_concat(game_id || ':' || ply || ':' || move || ':' || ifnull(comment, '-') "
	"|| ':' || ifnull(clock, '-') || ':' || ifnull(clock_text, '-'), ',') FROM "
	"(SELECT * FROM moves ORDER BY game_id, ply))";

/* The hash of stored game id's start position, from its replay. */
static uint64_t game_start(struct kifu_store *st, int64_t id)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec;
	struct kifu_error err;
	uint64_t h;

	kifu_error_clear(&err);
	assert_int_equal(kifu_store_game_load(&rec, st, id, &err), 0);
	th_revalidate(rec, &rp);
	h = rp.hashes[0];
	kifu_record_free(rec);
	kifu_replay_release(&rp);
	return h;
}

/* A database of the release before schema 4 migrates keeping everything. */
static void test_migrate_release_3(void **state)
{
	struct kifu_buf before = KIFU_BUF_INIT, after = KIFU_BUF_INIT;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	long long positions;
	uint64_t start;
	long n_start;
	int deferred = -1;
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
	/*
	 * The position index: each game once per position, at its first ply,
	 * nothing else; the stored hashes the replay's; the file's own check.
	 */
	positions = th_check_whole(st);
	assert_true(positions > 30);
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	/* Deleting a game takes its moves and index entries with it, also after a bulk load. */
	start = game_start(st, 2);
	n_start = th_games_at(st, start);
	th_exec(st, "DELETE FROM games WHERE id = 2");
	assert_int_equal(th_ply_at(st, start, 2), -1);
	assert_int_equal(th_games_at(st, start), n_start - 1);
	assert_true(th_check_whole(st) < positions);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM moves WHERE game_id = 2"), 0);
	assert_int_equal(kifu_store_bulk_begin(st, &err), 0);
	assert_int_equal(kifu_store_bulk_end(st, &err), 0);
	positions = th_check_whole(st);
	start = game_start(st, 3);
	assert_int_equal(th_ply_at(st, start, 3), 0);
	th_exec(st, "DELETE FROM games WHERE id = 3");
	assert_int_equal(th_ply_at(st, start, 3), -1);
	assert_true(th_check_whole(st) < positions);
	assert_int_equal(kifu_store_indexes_deferred(&deferred, st, &err), 0);
	assert_int_equal(deferred, 0);
	kifu_store_free(st);
	free(kept);
	kifu_buf_release(&before);
	kifu_buf_release(&after);
}

/*
 * Schema 7: every row of the public tables and views of a database of the
 * release before it (tests/data/store/schema-6.sqlite: games, players,
 * provenance, tags, figures, the quarantine, stored reviews, each game's
 * moves as text), as plain SQL reads it, one line per row in key order.
 * What the store derives (positions, indexes, kept sums, tree counts,
 * listing) is checked by what it answers: write_answers and th_check_whole.
 */
static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dump_rows(struct kifu_buf *out, const char *path)
{
	static const char *const tables[] = {
		"games", "players", "sides", "figures", "tags", "quarantine", "quarantine_diags",
		"imports", "files", "analysis_runs", "analysis_plies", "moves", "game_list",
		"quarantine_list", NULL
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

/*
 * The tree's JSON in (reset after) appended to out without its rows'
 * first_date and last_date: null on a file older than schema 8, the
 * dates after its migration (tests/cli/novelties.sh checks them).
 */
static void undated(struct kifu_buf *out, struct kifu_buf *in)
{
	const char *p = in->data ? in->data : "", *d, *e;

	while ((d = strstr(p, ", \"first_date\": ")) != NULL) {
		kifu_buf_add(out, p, (size_t)(d - p));
		e = strstr(d, "\"last_date\": ");
		assert_non_null(e);
		e += strlen("\"last_date\": ");
		e += *e == '"' ? strcspn(e + 1, "\"") + 2 : strcspn(e, ",}");
		p = e;
	}
	kifu_buf_puts(out, p);
	kifu_buf_reset(in);
}

/*
 * What the store answers from what it derives: every report over every
 * game, the openings to the kept depth by line and by position, the tree
 * of every game and variant at its start, plain and symmetric (when the
 * version has it), and the listing of kifu-search, as CSV and JSON text.
 */
static void write_answers(struct kifu_buf *out, struct kifu_store *st)
{
	static const int kinds[] = { KIFU_STATS_SUMMARY, KIFU_STATS_LENGTHS, KIFU_STATS_OPENINGS,
				     KIFU_STATS_OPENINGS, KIFU_STATS_PLAYERS };
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_search_result *res = NULL;
	struct kifu_buf tree = KIFU_BUF_INIT;
	struct kifu_report *rep;
	struct kifu_error err;
	size_t k, g, v;

	kifu_error_clear(&err);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		opt.depth = kinds[k] == KIFU_STATS_OPENINGS ? 6 : 2;
		opt.by_position = k == 3;
		if (kifu_stats_report(&rep, st, kinds[k], NULL, &opt, &err) < 0)
			fail_msg("report %zu: %s", k, err.message);
		assert_int_equal(kifu_report_write(out, rep, KIFU_REPORT_CSV, &err), 0);
		kifu_report_free(rep);
	}
	opt = (struct kifu_stats_options)KIFU_STATS_OPTIONS_INIT;
	for (g = 0; kifu_games[g]; g++) {
		for (v = 0; kifu_games[g]->variants[v]; v++) {
			struct kifu_filter f = { 0 };

			f.game = kifu_games[g]->name;
			f.variant = kifu_games[g]->variants[v];
			for (k = 0; k < 2; k++) {
				opt.symmetric = (int)k;
				if (k && kifu_store_version(st) < 5)
					break;
				if (kifu_stats_report(&rep, st, KIFU_STATS_TREE, &f, &opt, &err) < 0)
					fail_msg("tree of %s %s: %s", f.game, f.variant, err.message);
				assert_int_equal(kifu_report_write(&tree, rep, KIFU_REPORT_JSON, &err), 0);
				kifu_report_free(rep);
				undated(out, &tree);
			}
		}
	}
	kifu_buf_release(&tree);
	assert_int_equal(kifu_search_games(&res, st, NULL, NULL, &err), 0);
	assert_int_equal(kifu_search_json(out, res, 0), 0);
	kifu_search_result_free(res);
	assert_false(out->failed);
}

/* A database of the release before schema 7 migrates keeping everything. */
static void test_migrate_release_6(void **state)
{
	struct kifu_buf rows6 = KIFU_BUF_INIT, rows7 = KIFU_BUF_INIT;
	struct kifu_buf before = KIFU_BUF_INIT, after = KIFU_BUF_INIT;
	struct kifu_buf said6 = KIFU_BUF_INIT, said7 = KIFU_BUF_INIT;
	struct kifu_record *rec;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	long long positions;
	uint64_t start;

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
	write_answers(&said6, st);
	kifu_store_free(st);
	st = th_store_open(th_dbpath);
	assert_int_equal(kifu_store_version(st), kifu_store_schema_version());
	assert_true(kifu_store_schema_version() >= 7);
	/*
	 * Every game's hashes and canonical hashes its replay's, every
	 * position indexed once at its first ply, every kept sum and tree
	 * count its recount; and the answers of before, from what was kept.
	 */
	positions = th_check_whole(st);
	assert_true(positions > 29);
	write_answers(&said7, st);
	assert_string_equal(said7.data, said6.data);
	write_all_games(&after, st);
	assert_string_equal(after.data, before.data);
	assert_string_equal(th_q_text(st, "PRAGMA integrity_check"), "ok");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	kifu_store_free(st);
	dump_rows(&rows7, th_dbpath);
	assert_string_equal(rows7.data, rows6.data);
	/*
	 * Changes by hand (a game deleted, as in the plain shell): its record,
	 * moves and index entries go with it, and the kept sums and tree
	 * counts are counted again (they equal their recount after it).
	 */
	st = th_store_open(th_dbpath);
	for (int64_t id = 4; id <= 6; id += 2) {
		start = game_start(st, id);
		assert_int_equal(th_ply_at(st, start, id), 0);
		th_exec(st, id == 4 ? "DELETE FROM games WHERE id = 4" : "DELETE FROM games WHERE id = 6");
		assert_int_equal(kifu_store_game_load(&rec, st, id, &err), KIFU_ENOTFOUND);
		assert_int_equal(th_ply_at(st, start, id), -1);
		assert_int_equal(th_q_int(st, "SELECT count(*) FROM moves WHERE game_id = %lld",
					  (long long)id), 0);
		assert_true(th_check_whole(st) < positions);
	}
	kifu_store_free(st);
	kifu_buf_release(&said6);
	kifu_buf_release(&said7);
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
