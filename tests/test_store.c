/*
 * Unit tests of the game database (lib/store/): a new database and its
 * schema, every row a game writes, duplicates that do not depend on how
 * the moves were spelt, quarantine rows and their key, filters (SQL with
 * bound parameters only, inclusive first-day dates, newest-first order),
 * loading a stored game back into the exact record the writer gave for the
 * original, bulk mode's deferred indexes, clocks in seconds and the
 * position index's spool. The migrations are in test_store_migrate.c.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "kifu/record.h"
#include "kifu/search.h"
#include "kifu/store.h"
#include "store/store_impl.h" /* spool_max: runs of a few entries */
#include "helpers.h"

static struct kifu_record *parse_file(const char *rel, struct kifu_replay *rp)
{
	char *text = th_source_file(rel);
	struct kifu_record *rec = th_parse(text, rp);

	free(text);
	return rec;
}

static int add(struct kifu_store *st, int64_t *id, const struct kifu_record *rec,
	       const struct kifu_replay *rp)
{
	struct kifu_error err;
	int ret;

	kifu_error_clear(&err);
	ret = kifu_store_game_add(id, st, rec, rp, NULL, &err);
	if (ret < 0)
		fail_msg("game_add: %s", err.message);
	return ret;
}

static const char game_text[] =
	"game: splay-schmidt\n"
	"event: Test Open\n"
	"date: 2024-06\n"
	"players:\n"
	"  white: {name: \"Ann O'Neill\", rating: 1800}\n"
	"  black: Bo\n"
	"moves:\n"
	"  - G4\n"
	"  - {move: h4, comment: sharp, clock: 12.50}\n"
	"  - g6\n"
	"tags:\n"
	"  opening: quiet\n"
	"  board: 3\n";

/* The migration files schema/NNN-*.sql in the source tree. */
static int count_migrations(void)
{
	DIR *d = opendir(KIFU_SOURCE_DIR "/schema");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && strstr(de->d_name, ".sql"))
			n++;
	closedir(d);
	return n;
}

static void test_open_creates_schema(void **state)
{
	struct kifu_store *st;

	(void)state;
	st = th_store_open(th_dbpath);
	/* one version per migration file schema/NNN-*.sql */
	assert_int_equal(kifu_store_schema_version(), count_migrations());
	assert_int_equal(th_q_int(st, "PRAGMA user_version"), kifu_store_schema_version());
	assert_int_equal(th_q_int(st, "PRAGMA application_id"), 0x6b696675);
	assert_string_equal(th_q_text(st, "PRAGMA journal_mode"), "wal");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_keys"), 1);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM sqlite_master WHERE name IN ('games', "
				   "'players', 'sides', 'moves', 'positions', 'figures', 'tags', "
				   "'imports', 'files', 'quarantine', 'quarantine_diags', "
				   "'game_list', 'results', 'quarantine_list')"),
			 14);
	/* an empty database is whole: nothing in the index, no sums */
	assert_int_equal(th_check_whole(st), 0);
	assert_string_equal(kifu_store_path(st), th_dbpath);
	kifu_store_free(st);
	/* Opening again changes nothing. */
	st = th_store_open(th_dbpath);
	assert_int_equal(th_q_int(st, "PRAGMA user_version"), kifu_store_schema_version());
	kifu_store_free(st);
}

/* Readers map the file, but those that read each page about once (KIFU_STORE_READ_ONCE). */
static void test_open_read_once(void **state)
{
	struct kifu_store *st;
	struct kifu_error err;

	(void)state;
	kifu_store_free(th_store_open(th_dbpath));
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ, &err), 0);
	assert_true(th_q_int(st, "PRAGMA mmap_size") > 0);
	kifu_store_free(st);
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ_ONLY, &err), 0);
	assert_true(th_q_int(st, "PRAGMA mmap_size") > 0);
	kifu_store_free(st);
	assert_int_equal(kifu_store_open(&st, th_dbpath, KIFU_STORE_READ | KIFU_STORE_READ_ONCE,
					 &err), 0);
	assert_int_equal(th_q_int(st, "PRAGMA mmap_size"), 0);
	assert_int_equal(th_q_int(st, "PRAGMA foreign_keys"), 1);
	kifu_store_free(st);
}

static void test_game_rows(void **state)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec = th_parse(game_text, &rp);
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_pos *pos;
	struct kifu_error err;
	int64_t id = 0, imp, file;
	struct kifu_origin from;
	size_t i;

	(void)state;
	assert_int_equal(kifu_store_import_begin(&imp, st, "a\nb", &err), 0);
	assert_int_equal(kifu_store_file_add(&file, st, imp, "games/x.yaml", 123, &err), 0);
	from = (struct kifu_origin){ imp, file, "games/x.yaml", 7, 2 };
	assert_int_equal(kifu_store_game_add(&id, st, rec, &rp, &from, &err), 1);
	assert_true(id > 0);
	assert_string_equal(th_q_text(st, "SELECT game || '|' || variant || '|' || first || '|' || "
				       "event || '|' || date || '|' || date_first || '|' || "
				       "result || '|' || plies FROM games WHERE id = %lld",
				   (long long)id),
			    "splay-schmidt|standard|white|Test Open|2024-06|2024-06-01|unfinished|3");
	assert_string_equal(th_q_text(st, "SELECT winner FROM games"), "(null)");
	assert_string_equal(th_q_text(st, "SELECT termination FROM games"), "(null)");
	assert_string_equal(th_q_text(st, "SELECT site FROM games"), "(null)");
	assert_int_equal(th_q_int(st, "SELECT content_hash FROM games"),
			 (long long)kifu_store_game_key(rec, &rp));
	assert_string_equal(th_q_text(st, "SELECT file_id || '|' || file_line || '|' || file_game "
				       "FROM games"), "1|7|2");
	assert_string_equal(th_q_text(st, "SELECT path || '|' || size FROM files"), "games/x.yaml|123");
	assert_string_equal(th_q_text(st, "SELECT paths FROM imports"), "a\nb");
	/* Players by side, ratings as given. */
	assert_string_equal(th_q_text(st, "SELECT group_concat(side_index || ':' || side || ':' || "
				       "player || ':' || ifnull(rating, '-'), ',') FROM "
				       "(SELECT * FROM game_players ORDER BY side_index)"),
			    "0:white:Ann O'Neill:1800,1:black:Bo:-");
	/* Moves canonical (G4 was written in upper case), with comment and clock. */
	assert_string_equal(th_q_text(st, "SELECT group_concat(move, ' ') FROM "
				       "(SELECT move FROM moves ORDER BY ply)"), "g4 h4 g6");
	assert_string_equal(th_q_text(st, "SELECT comment || '|' || clock || '|' || clock_text FROM "
				       "moves WHERE ply = 2"), "sharp|12.5|12.50");
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM moves WHERE comment IS NULL"), 2);
	/*
	 * Positions 0..3 found by the index with all 64 bits of each hash, each
	 * at its ply, ply 0 the start position; the stored hashes the replay's
	 * and nothing else indexed (kifu_stats_check).
	 */
	for (i = 0; i <= 3; i++)
		assert_int_equal(th_ply_at(st, rp.hashes[i], 1), (long)i);
	assert_int_equal(th_ply_at(st, rp.hashes[2] ^ (1ULL << 63), 1), -1);
	assert_int_equal(th_check_whole(st), 4);
	assert_int_equal(kifu_pos_new(&pos, kifu_game_find("splay-schmidt"), 0, 0, &err), 0);
	assert_int_equal(th_ply_at(st, pos->game->hash(pos->state), 1), 0);
	kifu_pos_free(pos);
	/* Figures of the final position, tags with their YAML types. */
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM figures"), rp.nfigures);
	for (i = 0; i < (size_t)rp.nfigures; i++) {
		if (rp.figures[i].type == KIFU_FIG_INT)
			assert_int_equal(th_q_int(st, "SELECT num FROM figures WHERE key = '%s'",
						  rp.figures[i].key), rp.figures[i].num);
		else
			assert_string_equal(th_q_text(st, "SELECT text FROM figures WHERE key = '%s'",
						      rp.figures[i].key), rp.figures[i].text);
	}
	assert_string_equal(th_q_text(st, "SELECT group_concat(key || '=' || value || ':' || type, ',') "
				       "FROM (SELECT * FROM tags ORDER BY seq)"),
			    "opening=quiet:str,board=3:int");
	/* The view with the players joined. */
	assert_string_equal(th_q_text(st, "SELECT players FROM game_list"), "Ann O'Neill - Bo");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	kifu_store_free(st);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
}

static void test_duplicates_ignore_spelling(void **state)
{
	struct kifu_replay a = KIFU_REPLAY_INIT, b = KIFU_REPLAY_INIT, c = KIFU_REPLAY_INIT;
	struct kifu_record *ra = th_parse(game_text, &a);
	struct kifu_record *rb, *rc;
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_error err;
	int64_t ida, idb, idc;
	char *p;

	(void)state;
	/* The same game: other spellings (case, white space), another event, no tags. */
	rb = th_parse("game: splay-schmidt\nvariant: standard\nevent: Elsewhere\ndate: 2024-06\n"
		      "players: {black: Bo, white: Ann O'Neill}\n"
		      "moves: ['  g4 ', H4, G6]\n", &b);
	/* A different date is a different game. */
	p = strdup(game_text);
	memcpy(strstr(p, "2024-06"), "2024-07", 7);
	rc = th_parse(p, &c);
	free(p);
	assert_int_equal(kifu_store_game_key(ra, &a), kifu_store_game_key(rb, &b));
	assert_true(kifu_store_game_key(ra, &a) != kifu_store_game_key(rc, &c));
	assert_int_equal(add(st, &ida, ra, &a), 1);
	assert_int_equal(add(st, &idb, rb, &b), 0);
	assert_int_equal(idb, ida);
	assert_int_equal(add(st, &idc, rc, &c), 1);
	assert_true(idc != ida);
	/* A duplicate writes nothing. */
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 2);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM moves"), 6);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM players"), 2);
	assert_string_equal(th_q_text(st, "SELECT event FROM games WHERE id = %lld", (long long)ida),
			    "Test Open");
	/* Another player is another game too. */
	kifu_error_clear(&err);
	assert_int_equal(kifu_record_set_player(rb, "black", "Cy", 0, 0, &err), 0);
	th_revalidate(rb, &b);
	assert_int_equal(add(st, NULL, rb, &b), 1);
	/* Inside a transaction, a duplicate of a game of the same batch is seen too. */
	assert_int_equal(kifu_store_begin(st, &err), 0);
	assert_int_equal(kifu_record_set(rb, KIFU_KEY_DATE, "2020", &err), 0);
	th_revalidate(rb, &b);
	assert_int_equal(add(st, NULL, rb, &b), 1);
	assert_int_equal(add(st, NULL, rb, &b), 0);
	assert_int_equal(kifu_store_commit(st, &err), 0);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 4);
	kifu_store_free(st);
	kifu_record_free(ra);
	kifu_record_free(rb);
	kifu_record_free(rc);
	kifu_replay_release(&a);
	kifu_replay_release(&b);
	kifu_replay_release(&c);
}

static void test_quarantine(void **state)
{
	static const char raw[] = "---\ngame: splay-schmidt\nmoves: [g7, g7]\n";
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_origin from = { 0, 0, "games/bad.yaml", 4, 2 };
	struct kifu_error err;
	int64_t id1 = 0, id2 = 0;

	(void)state;
	kifu_diags_add(&diags, KIFU_DIAG_ERROR, 2, 2, (struct kifu_mark){ 6, 13 },
		       "illegal move '%s'", "g7");
	kifu_diags_add(&diags, KIFU_DIAG_WARNING, 2, 0, (struct kifu_mark){ 0, 0 }, "suspicious");
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_quarantine_add(&id1, st, raw, sizeof(raw) - 1, 0, NULL, &diags,
						   &from, &err), 1);
	assert_true(id1 > 0);
	assert_string_equal(th_q_text(st, "SELECT file || '|' || file_line || '|' || file_game || '|' "
				       "|| errors || '|' || raw_truncated || '|' || CAST(raw AS TEXT) "
				       "FROM quarantine"),
			    "games/bad.yaml|4|2|1|0|---\ngame: splay-schmidt\nmoves: [g7, g7]\n");
	assert_string_equal(th_q_text(st, "SELECT typeof(raw) FROM quarantine"), "blob");
	assert_string_equal(th_q_text(st, "SELECT group_concat(seq || ':' || severity || ':' || "
				       "ifnull(line, '-') || ':' || ifnull(col, '-') || ':' || "
				       "ifnull(ply, '-') || ':' || message, '|') FROM "
				       "(SELECT * FROM quarantine_diags ORDER BY seq)"),
			    "0:error:6:13:2:game 2, ply 2: illegal move 'g7'|"
			    "1:warning:-:-:-:game 2: suspicious");
	assert_string_equal(th_q_text(st, "SELECT first_error FROM quarantine_list"),
			    "game 2, ply 2: illegal move 'g7'");
	/* The same record again is not stored twice... */
	assert_int_equal(kifu_store_quarantine_add(&id2, st, raw, sizeof(raw) - 1, 0, NULL, &diags,
						   &from, &err), 0);
	assert_int_equal(id2, id1);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine_diags"), 2);
	/* ...but the same place with other text is another record, and bytes are kept as they are. */
	assert_int_equal(kifu_store_quarantine_add(&id2, st, "a\0b\xff", 4, 1, NULL, &diags, &from,
						   &err), 1);
	assert_int_equal(th_q_int(st, "SELECT length(raw) FROM quarantine WHERE id = %lld",
				  (long long)id2), 4);
	assert_int_equal(th_q_int(st, "SELECT raw_truncated FROM quarantine WHERE id = %lld",
				  (long long)id2), 1);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine"), 2);
	kifu_diags_release(&diags);
	kifu_store_free(st);
}

/* Stores the filter test's five games (ids 1..5). */
static void store_filter_games(struct kifu_store *st)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec = parse_file("examples/splay-schmidt/splay-schmidt-standard-01.yaml",
					     &rp);
	struct kifu_error err;

	kifu_error_clear(&err);
	/* 1: 2023-02-27, Hugo Moreau - Mateo Ruiz, Online Blitz Arena, rules. */
	assert_int_equal(add(st, NULL, rec, &rp), 1);
	/* 2: 2024, Zoe - Hugo Moreau, Club. */
	kifu_record_set(rec, KIFU_KEY_DATE, "2024", &err);
	kifu_record_set(rec, KIFU_KEY_EVENT, "Club", &err);
	kifu_record_set_player(rec, "white", "Zoe", 0, 0, &err);
	kifu_record_set_player(rec, "black", "Hugo Moreau", 0, 0, &err);
	th_revalidate(rec, &rp);
	assert_int_equal(add(st, NULL, rec, &rp), 1);
	/* 3: no date, Ann - Bo, Online Blitz Arena. */
	kifu_record_set(rec, KIFU_KEY_DATE, NULL, &err);
	kifu_record_set(rec, KIFU_KEY_EVENT, "Online Blitz Arena", &err);
	kifu_record_set_player(rec, "white", "Ann", 0, 0, &err);
	kifu_record_set_player(rec, "black", "Bo", 0, 0, &err);
	th_revalidate(rec, &rp);
	assert_int_equal(add(st, NULL, rec, &rp), 1);
	/* 4: 2023-02, Ann - Cy, Online Blitz Arena. */
	kifu_record_set(rec, KIFU_KEY_DATE, "2023-02", &err);
	kifu_record_set_player(rec, "black", "Cy", 0, 0, &err);
	th_revalidate(rec, &rp);
	assert_int_equal(add(st, NULL, rec, &rp), 1);
	kifu_record_free(rec);
	/* 5: glaisher advanced, 2023-07-05, Club Championship, resignation. */
	rec = parse_file("examples/glaisher/glaisher-advanced-03.yaml", &rp);
	assert_string_equal(rec->termination, "resignation");
	assert_string_equal(rec->date, "2023-07-05");
	assert_int_equal(add(st, NULL, rec, &rp), 1);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
}

/* The ids f selects, as "2,5,1". */
static const char *ids_of(struct kifu_store *st, struct kifu_filter f)
{
	static char out[256];
	struct kifu_error err;
	int64_t *ids;
	size_t n, i, len = 0;

	kifu_error_clear(&err);
	if (kifu_store_game_ids(&ids, &n, st, &f, &err) < 0)
		fail_msg("game_ids: %s", err.message);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%lld", i ? "," : "",
					(long long)ids[i]);
	kifu_store_game_ids_free(ids);
	return out;
}

static void test_filters(void **state)
{
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_error err;
	struct kifu_filter f;
	struct kifu_stmt *s;
	int64_t *ids;
	size_t n;

	(void)state;
	store_filter_games(st);
	/* Newest first: by first-day date, then id; undated last. */
	assert_string_equal(ids_of(st, (struct kifu_filter){ 0 }), "2,5,1,4,3");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .player = "Hugo Moreau" }), "2,1");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .player = "hugo moreau" }), "");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .event = "Online Blitz Arena" }), "1,4,3");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .event = "Online Blitz" }), "");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .since = "2023-02" }), "2,5,1,4");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .until = "2023-02-27" }), "1,4");
	/* A partial until covers its whole period (CLI.md): 2023-02 is up to 28 February. */
	assert_string_equal(ids_of(st, (struct kifu_filter){ .until = "2023-02" }), "1,4");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .until = "2023-01" }), "");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .until = "2023" }), "5,1,4");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .since = "2024", .until = "2024" }), "2");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .since = "2023-07",
							     .until = "2023-07" }), "5");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .since = "2023-02-27",
							     .until = "2023-07-04" }), "1");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .termination = "rules" }), "2,1,4,3");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .termination = "resignation" }), "5");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .game = "glaisher" }), "5");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .variant = "standard" }), "2,1,4,3");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .game = "glaisher",
							     .variant = "advanced" }), "5");
	assert_string_equal(ids_of(st, (struct kifu_filter){ .player = "Ann", .since = "2023" }), "4");
	/* A bad date is an error, not an empty answer. */
	kifu_error_clear(&err);
	f = (struct kifu_filter){ .since = "2023-13" };
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), KIFU_EPARSE);
	assert_string_equal(err.message, "invalid date '2023-13': not a calendar date");
	f = (struct kifu_filter){ .since = "20x3" };
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), KIFU_EPARSE);
	assert_string_equal(err.message, "invalid date '20x3': expected YYYY, YYYY-MM or YYYY-MM-DD");
	/* one rule with the records': year 0 is no calendar date (issue 28) */
	f = (struct kifu_filter){ .since = "0000" };
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), KIFU_EPARSE);
	f = (struct kifu_filter){ .until = "2023-02-29" };
	assert_int_equal(kifu_store_game_ids(&ids, &n, st, &f, &err), KIFU_EPARSE);
	/* The expression carries parameters only, numbered from `first`. */
	f = (struct kifu_filter){ .player = "Robert'); DROP TABLE games; --", .event = "x" };
	kifu_buf_puts(&sql, "SELECT count(*) FROM games g WHERE ?1 = ?2 AND ");
	assert_int_equal(kifu_filter_sql_(&sql, &f, "g", 3, &err), 2);
	assert_null(strstr(sql.data, "Robert"));
	assert_non_null(strstr(sql.data, "?3"));
	assert_non_null(strstr(sql.data, "?4"));
	assert_int_equal(kifu_db_prepare_(&s, st, sql.data, &err), 0);
	kifu_db_bind_int_(s, 1, 1);
	kifu_db_bind_int_(s, 2, 1);
	assert_int_equal(kifu_filter_bind_(s, 3, &f, &err), 2);
	assert_int_equal(kifu_db_step_(s), KIFU_DB_ROW);
	assert_int_equal(kifu_db_column_int_(s, 0), 0);
	kifu_db_finalize_(s);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 5);
	/* No filter at all is "1 = 1" (true on every backend); a bad alias is refused. */
	kifu_buf_reset(&sql);
	assert_int_equal(kifu_filter_sql_(&sql, NULL, NULL, 1, &err), 0);
	assert_string_equal(sql.data, "1 = 1");
	assert_int_equal(kifu_filter_sql_(&sql, &f, "g; DROP", 1, &err), KIFU_ERANGE);
	kifu_buf_release(&sql);
	kifu_store_free(st);
}

static void test_date_first_day(void **state)
{
	char day[11];

	(void)state;
	assert_int_equal(kifu_date_first_day(day, "2024", NULL), 0);
	assert_string_equal(day, "2024-01-01");
	assert_int_equal(kifu_date_first_day(day, "2024-06", NULL), 0);
	assert_string_equal(day, "2024-06-01");
	assert_int_equal(kifu_date_first_day(day, "2024-02-29", NULL), 0);
	assert_string_equal(day, "2024-02-29");
	assert_int_equal(kifu_date_first_day(day, "2023-02-29", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "1900-02-29", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "2000-02-29", NULL), 0);
	assert_int_equal(kifu_date_first_day(day, "2024-6", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "2024-06-31", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "24", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "2024/06", NULL), KIFU_EPARSE);
	assert_int_equal(kifu_date_first_day(day, "", NULL), KIFU_EPARSE);
}

/* Stores rec, loads it back: same replay, same canonical YAML, same key. */
static void round_trip(struct kifu_store *st, const struct kifu_record *rec,
		       const struct kifu_replay *rp)
{
	struct kifu_replay rp2 = KIFU_REPLAY_INIT;
	struct kifu_record *back;
	struct kifu_buf a = KIFU_BUF_INIT, b = KIFU_BUF_INIT;
	struct kifu_error err;
	int64_t id;
	size_t k;

	assert_int_equal(add(st, &id, rec, rp), 1);
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_game_load(&back, st, id, &err), 0);
	th_revalidate(back, &rp2);
	assert_int_equal(rp2.nplies, rp->nplies);
	for (k = 0; k <= rp->nplies; k++)
		assert_true(rp2.hashes[k] == rp->hashes[k]);
	assert_int_equal(kifu_record_write(&a, rec, rp, &err), 0);
	assert_int_equal(kifu_record_write(&b, back, &rp2, &err), 0);
	assert_string_equal(b.data, a.data);
	assert_int_equal(kifu_store_game_key(back, &rp2), kifu_store_game_key(rec, rp));
	kifu_buf_release(&a);
	kifu_buf_release(&b);
	kifu_record_free(back);
	kifu_replay_release(&rp2);
}

/* Every valid example, stored and loaded back, writes out as the original does. */
static void test_load_round_trip(void **state)
{
	static const char *const files[] = {
		"examples/glaisher/glaisher-standard-01.yaml",
		"examples/glaisher/glaisher-advanced-03.yaml",
		"examples/splay-schmidt/splay-schmidt-standard-02.yaml",
		"examples/splay-kisenwether/splay-kisenwether-standard-01.yaml",
		"examples/splinter/splinter-knockout-01.yaml",
		"examples/splinter/splinter-survival-02.yaml",
		"examples/splinter-quad/splinter-quad-standard-01.yaml",
		"examples/splinter-quad/splinter-quad-standard-04.yaml",
	};
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_error err;
	size_t i;

	(void)state;
	for (i = 0; i <= sizeof(files) / sizeof(files[0]); i++) {
		struct kifu_replay rp = KIFU_REPLAY_INIT;
		struct kifu_record *rec;

		/* The last round is the in-memory game with comments, clocks and tags. */
		rec = i < sizeof(files) / sizeof(files[0]) ? parse_file(files[i], &rp)
			: th_parse(game_text, &rp);
		round_trip(st, rec, &rp);
		kifu_record_free(rec);
		kifu_replay_release(&rp);
	}
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_game_load(&(struct kifu_record *){ NULL }, st, 999, &err),
			 KIFU_ENOTFOUND);
	kifu_store_free(st);
}

static void test_bulk_mode(void **state)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec = th_parse(game_text, &rp);
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_error err;
	struct kifu_replay brp = KIFU_REPLAY_INIT;
	struct kifu_record *back;
	char before[1024];
	int deferred = -1, first_deferred;
	int64_t id;

	(void)state;
	snprintf(before, sizeof(before), "%s",
		 th_q_text(st, "SELECT group_concat(name || ':' || sql, '|') FROM (SELECT * FROM "
			    "sqlite_master WHERE name IN ('sides_player', 'games_date') ORDER BY name)"));
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_bulk_begin(st, &err), 0);
	assert_int_equal(kifu_store_indexes_deferred(&deferred, st, &err), 0);
	/* Indexes set aside (the position index among them: how many is the store's business). */
	assert_true(deferred > 0);
	first_deferred = deferred;
	assert_int_equal(th_q_int(st, "PRAGMA foreign_keys"), 0);
	/* Multi-row inserts (a long game) and a duplicate, in bulk mode. */
	assert_int_equal(kifu_store_begin(st, &err), 0);
	assert_int_equal(kifu_store_bulk_begin(st, &err), KIFU_ERROR);
	assert_int_equal(add(st, &id, rec, &rp), 1);
	kifu_record_free(rec);
	rec = parse_file("examples/splay-schmidt/splay-schmidt-standard-01.yaml", &rp);
	assert_true(rp.nplies > 40);
	assert_int_equal(add(st, &id, rec, &rp), 1);
	assert_int_equal(add(st, NULL, rec, &rp), 0);
	assert_int_equal(kifu_store_commit(st, &err), 0);
	/* Long games with comments and clocks come back whole from the multi-row inserts. */
	{
		static const char *const long_games[] = {
			"examples/splay-schmidt/splay-schmidt-standard-02.yaml",
			"examples/splay-kisenwether/splay-kisenwether-standard-02.yaml",
		};
		struct kifu_replay lrp = KIFU_REPLAY_INIT;
		size_t i;

		for (i = 0; i < 2; i++) {
			struct kifu_record *lrec = parse_file(long_games[i], &lrp);

			assert_true(lrp.nplies > 2 * 16);
			round_trip(st, lrec, &lrp);
			kifu_record_free(lrec);
		}
		kifu_replay_release(&lrp);
	}
	/*
	 * Every game stored whole meanwhile, its hashes its replay's (the
	 * index, set aside, is not read: kifu-search's listing would need it).
	 */
	th_check_whole(st);
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM moves WHERE game_id = %lld",
				  (long long)id), (long long)rp.nplies);
	assert_string_equal(th_q_text(st, "SELECT move FROM moves WHERE game_id = %lld AND ply = 17",
				      (long long)id), kifu_replay_text(&rp, 17));
	kifu_store_free(st);
	/* A crash here leaves the indexes deferred; bulk_end in a later run rebuilds them. */
	st = th_store_open(th_dbpath);
	assert_int_equal(kifu_store_indexes_deferred(&deferred, st, &err), 0);
	assert_int_equal(deferred, first_deferred);
	assert_int_equal(kifu_store_bulk_end(st, &err), 0);
	assert_int_equal(kifu_store_indexes_deferred(&deferred, st, &err), 0);
	assert_int_equal(deferred, 0);
	/*
	 * The indexes of the games of the bulk load, written at its end: every
	 * position of every game indexed once at its first ply, the canonical
	 * hashes the replay's, the tree's counts their recount (kifu_stats_check);
	 * a symmetric search finds the game at its last position's canonical hash.
	 */
	assert_true(th_check_whole(st) > 0);
	{
		struct kifu_search_result *res = NULL;
		uint64_t canon = 0;
		int sym = 0;
		size_t k, found = 0;

		assert_int_equal(kifu_store_game_load(&back, st, id, &err), 0);
		th_revalidate(back, &brp);
		assert_int_equal(kifu_game_canonical_hash(&canon, &sym, brp.game, brp.state), 0);
		assert_int_equal(kifu_search_games_symmetric(&res, st, NULL, &canon, 1, &err), 0);
		for (k = 0; k < kifu_search_count(res); k++)
			found += kifu_search_hit(res, k)->id == id;
		assert_int_equal(found, 1);
		kifu_search_result_free(res);
		kifu_record_free(back);
		kifu_replay_release(&brp);
	}
	assert_string_equal(th_q_text(st, "SELECT group_concat(name || ':' || sql, '|') FROM (SELECT * "
				       "FROM sqlite_master WHERE name IN ('sides_player', 'games_date') "
				       "ORDER BY name)"), before);
	assert_int_equal(th_q_int(st, "PRAGMA foreign_keys"), 1);
	assert_string_equal(th_q_text(st, "PRAGMA integrity_check"), "ok");
	assert_int_equal(th_q_int(st, "PRAGMA foreign_key_check"), -999);
	/* The index answers a position search. */
	assert_int_equal(th_games_at(st, rp.hashes[0]), 3);
	kifu_store_free(st);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
}

/* Issue 10: a clock as written comes back with the seconds the file gave. */
static void test_clock_seconds(void **state)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_record *rec = th_parse("game: splay-schmidt\nmoves:\n  - {move: g4, clock: 1:30}\n"
					   "  - {move: h4, clock: 0x10}\n  - {move: g6, clock: 2.5}\n",
					   &rp);
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_record *back;
	struct kifu_error err;
	double f = -1;
	int64_t id;
	size_t i;
	int deferred = -1;

	(void)state;
	assert_int_equal(kifu_clock_seconds("1:30", 4, &f), 0);
	assert_true(f == 90);
	assert_int_equal(kifu_clock_seconds("99999999999999999999999999", 26, &f), KIFU_ERANGE);
	assert_int_equal(kifu_clock_seconds("-3", 2, &f), KIFU_ERANGE);
	assert_int_equal(kifu_clock_seconds("soon", 4, &f), KIFU_EPARSE);
	/* Stored in a bulk load: the position index is written anew at its end. */
	kifu_error_clear(&err);
	assert_int_equal(kifu_store_bulk_begin(st, &err), 0);
	assert_int_equal(add(st, &id, rec, &rp), 1);
	assert_int_equal(kifu_store_bulk_end(st, &err), 0);
	assert_int_equal(th_check_whole(st), 4);
	for (i = 0; i <= 3; i++)
		assert_int_equal(th_ply_at(st, rp.hashes[i], id), (long)i);
	assert_int_equal(kifu_store_indexes_deferred(&deferred, st, &err), 0);
	assert_int_equal(deferred, 0);
	assert_int_equal(kifu_store_game_load(&back, st, id, &err), 0);
	assert_string_equal(back->turns[0].clock, "1:30");
	assert_true(back->turns[0].clock_seconds == 90);
	assert_true(back->turns[1].clock_seconds == 16);
	assert_true(back->turns[2].clock_seconds == 2.5);
	assert_string_equal(th_q_text(st, "SELECT group_concat(clock, ' ') FROM moves"), "90.0 16.0 2.5");
	th_exec(st, "DELETE FROM games");
	/* nothing of the games stays in the index */
	assert_int_equal(th_check_whole(st), 0);
	assert_int_equal(th_games_at(st, rp.hashes[0]), 0);
	kifu_record_free(back);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
	kifu_store_free(st);
}

/* Issue 10: the same rejected bytes are held once, whatever the path they came by. */
static void test_quarantine_by_text(void **state)
{
	static const char raw[] = "game: splay-schmidt\nmoves: [g7]\n";
	static const char *const paths[] = { "x.yaml", "./x.yaml", "/abs/x.yaml", "<stdin>" };
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_error err;
	int64_t first = 0, id;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct kifu_origin from = { 0, 0, paths[i], 1, 1 };

		kifu_error_clear(&err);
		assert_int_equal(kifu_store_quarantine_add(&id, st, raw, sizeof(raw) - 1, 0, NULL,
							   NULL, &from, &err), i == 0);
		if (i == 0)
			first = id;
		assert_int_equal(id, first);
	}
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM quarantine"), 1);
	kifu_store_free(st);
}

/*
 * The position index: each game once per position, at its first ply, and
 * nothing else; the file's own check (kifu_stats_check).
 */
static void check_position_index(struct kifu_store *st)
{
	th_check_whole(st);
}

/* Bulk loads whose entries go through sorted runs in a temporary file, merged at the end. */
static void test_position_index_spool(void **state)
{
	static const char *const files[] = {
		"examples/splay-schmidt/splay-schmidt-standard-01.yaml",
		"examples/splay-schmidt/splay-schmidt-standard-02.yaml",
		"examples/splay-kisenwether/splay-kisenwether-standard-02.yaml",
		"examples/glaisher/glaisher-standard-01.yaml",
		"examples/splinter/splinter-knockout-01.yaml",
		"examples/splinter-quad/splinter-quad-standard-01.yaml",
	};
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_store *st = th_store_open(th_dbpath);
	struct kifu_error err;
	size_t i;
	int round;

	(void)state;
	kifu_error_clear(&err);
	for (round = 0; round < 3; round++) {
		/* 0: a fresh index; 1: old entries merged in; 2: a big index, entries added in place. */
		if (round == 2) {
			struct kifu_record *rec = parse_file("examples/glaisher/glaisher-advanced-01.yaml", &rp);

			assert_int_equal(add(st, NULL, rec, &rp), 1);
			kifu_record_free(rec);
		}
		st->spool_max = 7;
		assert_int_equal(kifu_store_bulk_begin(st, &err), 0);
		for (i = round == 1 ? 0 : round == 2 ? 5 : 0; i < (round == 1 ? 3 : 6); i++) {
			struct kifu_record *rec = parse_file(files[i], &rp);
			int r;

			/* Rounds 1 and 2 store other games: the first's again, with another date. */
			if (round) {
				kifu_record_set(rec, KIFU_KEY_DATE, round == 1 ? "1999" : "1998", &err);
				th_revalidate(rec, &rp);
			}
			r = add(st, NULL, rec, &rp);
			assert_int_equal(r, 1);
			kifu_record_free(rec);
		}
		assert_true(st->nruns > 0 || round == 2);
		assert_int_equal(kifu_store_bulk_end(st, &err), 0);
		check_position_index(st);
	}
	assert_int_equal(th_q_int(st, "SELECT count(*) FROM games"), 11);
	kifu_replay_release(&rp);
	kifu_store_free(st);
}

/*
 * kifu_move_at (the tree's and the reports' read of one move of a game's
 * list) gives what json_extract gives, for strings, escapes, numbers,
 * spaces, past the end; and NULL for what is not such an array.
 */
static void test_move_at(void **state)
{
	static const char *const arrays[] = {
		"[\"e4\",\"d5\",\"f3\"]", "[ \"a b\" ,\n\"c\\\"d\" , \"\\u00e9t\\u00e9\" ]",
		"[1, -2, 9223372036854775807, \"x\"]", "[]", "[\"\"]",
		"[\"e4\\\\\", \"f\\/g\"]",
	};
	static const char *const bad[] = { "{\"a\": 1}", "[[1], \"x\"]", "[\"open", "x" };
	sqlite3 *db;
	sqlite3_stmt *s;
	size_t a;
	int i;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(kifu_store_sqlite_functions_(db), 0);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT kifu_move_at(?1, ?2) IS json_extract(?1, "
				    "'$[' || ?2 || ']'), typeof(kifu_move_at(?1, ?2)), "
				    "typeof(json_extract(?1, '$[' || ?2 || ']'))", -1, &s, NULL),
			 SQLITE_OK);
	for (a = 0; a < sizeof(arrays) / sizeof(*arrays); a++)
		for (i = 0; i < 6; i++) {
			sqlite3_bind_text(s, 1, arrays[a], -1, SQLITE_STATIC);
			sqlite3_bind_int(s, 2, i);
			assert_int_equal(sqlite3_step(s), SQLITE_ROW);
			if (!sqlite3_column_int(s, 0))
				fail_msg("kifu_move_at('%s', %d) is not json_extract's: %s, %s",
					 arrays[a], i, sqlite3_column_text(s, 1),
					 sqlite3_column_text(s, 2));
			sqlite3_reset(s);
		}
	sqlite3_finalize(s);
	/* json_extract refuses these (and a negative index) with an error: here, NULL. */
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT kifu_move_at(?1, 1) IS NULL AND "
				    "kifu_move_at('[\"a\"]', -1) IS NULL", -1, &s, NULL),
			 SQLITE_OK);
	for (a = 0; a < sizeof(bad) / sizeof(*bad); a++) {
		sqlite3_bind_text(s, 1, bad[a], -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		assert_true(sqlite3_column_int(s, 0));
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_read_once, th_tmpdb_setup, th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_open_creates_schema, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_game_rows, th_tmpdb_setup, th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_duplicates_ignore_spelling, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_quarantine, th_tmpdb_setup, th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_filters, th_tmpdb_setup, th_tmpdb_teardown),
		cmocka_unit_test(test_date_first_day),
		cmocka_unit_test(test_move_at),
		cmocka_unit_test_setup_teardown(test_load_round_trip, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_bulk_mode, th_tmpdb_setup, th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_clock_seconds, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_quarantine_by_text, th_tmpdb_setup,
						th_tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_position_index_spool, th_tmpdb_setup,
						th_tmpdb_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
