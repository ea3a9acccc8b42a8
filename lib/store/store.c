/*
 * The game database (include/kifu/store.h): transactions, and writing
 * games, quarantined records and import provenance. A game is a handful of
 * rows whatever its length (schema 4): its headers, sides, figures and
 * tags, and one row of game_moves packing its moves, notes and position
 * hashes as JSON; its entries of the position index wait for the commit
 * (store_posidx.c). Every statement is prepared once and kept on the store
 * (an import runs the same few statements millions of times) and every
 * value goes through a bound parameter. Opening and migrating live in
 * store_open.c, selecting and loading games in store_select.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_impl.h"

/*
 * The store's statements in generic SQL, each with a name by which a
 * backend may supply its own text instead (kifu_db_sql). Ids come back
 * through RETURNING: an INSERT ... ON CONFLICT DO NOTHING that returns no
 * row found a duplicate.
 */
static const struct kifu_db_query stmt_sql[ST_COUNT] = {
	[ST_GAME_INSERT] = { "game_insert",
		"INSERT INTO games(game, variant, first, event, site, round, date, date_first, "
		"annotator, source, result, winner, termination, plies, content_hash, file_id, "
		"file_line, file_game) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
		"?13, ?14, ?15, ?16, ?17, ?18) ON CONFLICT(content_hash) DO NOTHING RETURNING id" },
	[ST_GAME_BY_KEY] = { "game_by_key", "SELECT id FROM games WHERE content_hash = ?1" },
	[ST_PLAYER_FIND] = { "player_find", "SELECT id FROM players WHERE name = ?1" },
	[ST_PLAYER_INSERT] = { "player_insert",
		"INSERT INTO players(name) VALUES (?1) RETURNING id" },
	[ST_SIDE_INSERT] = { "side_insert",
		"INSERT INTO sides(game_id, side_index, side, player_id, rating) "
		"VALUES (?1, ?2, ?3, ?4, ?5)" },
	[ST_GAME_MOVES_INSERT] = { "game_moves_insert",
		"INSERT INTO game_moves(game_id, moves, hashes, notes) VALUES (?1, ?2, ?3, ?4)" },
	[ST_POSIDX_INSERT_N] = { "posidx_insert_n", NULL },
	[ST_POSIDX_INSERT] = { "posidx_insert",
		"INSERT OR IGNORE INTO positions_hash(hash, game_id, ply) VALUES (?1, ?2, ?3)" },
	[ST_FIGURE_INSERT] = { "figure_insert",
		"INSERT INTO figures(game_id, key, num, text) VALUES (?1, ?2, ?3, ?4) "
		"ON CONFLICT DO NOTHING" },
	[ST_TAG_INSERT] = { "tag_insert",
		"INSERT INTO tags(game_id, seq, key, value, type) VALUES (?1, ?2, ?3, ?4, ?5)" },
	[ST_QUAR_INSERT] = { "quar_insert",
		"INSERT INTO quarantine(import_id, file, file_line, file_game, game, raw, "
		"raw_truncated, raw_hash, errors) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
		"ON CONFLICT(file, file_game, raw_hash) DO NOTHING RETURNING id" },
	[ST_QUAR_FIND] = { "quar_find",
		"SELECT id FROM quarantine WHERE raw_hash = ?1 AND raw = ?2 ORDER BY id LIMIT 1" },
	[ST_QDIAG_INSERT] = { "qdiag_insert",
		"INSERT INTO quarantine_diags(quarantine_id, seq, severity, line, col, ply, "
		"message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" },
	[ST_IMPORT_INSERT] = { "import_insert",
		"INSERT INTO imports(started_at, paths) VALUES (?2, ?1) RETURNING id" },
	[ST_IMPORT_END] = { "import_end",
		"UPDATE imports SET finished_at = ?5, imported = ?2, duplicates = ?3, "
		"rejected = ?4 WHERE id = ?1" },
	[ST_FILE_INSERT] = { "file_insert",
		"INSERT INTO files(import_id, path, size) VALUES (?1, ?2, ?3) RETURNING id" },
	[ST_LOAD_GAME] = { "load_game",
		"SELECT game, variant, first, event, site, round, date, annotator, source, "
		"result, termination, plies FROM games WHERE id = ?1" },
	[ST_LOAD_SIDES] = { "load_sides",
		"SELECT s.side, p.name, s.rating FROM sides s JOIN players p ON p.id = s.player_id "
		"WHERE s.game_id = ?1 ORDER BY s.side_index" },
	[ST_LOAD_MOVES] = { "load_moves",
		"SELECT move, comment, clock_text FROM moves WHERE game_id = ?1 ORDER BY ply" },
	[ST_LOAD_TAGS] = { "load_tags",
		"SELECT key, value, type FROM tags WHERE game_id = ?1 ORDER BY seq" },
	[ST_CANON_INSERT] = { "canon_insert",
		"INSERT INTO game_canon(game_id, canon) VALUES (?1, ?2)" },
	[ST_LISTING_INSERT] = { "listing_insert",
		"INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, "
		"players) SELECT id, game, variant, date, date_first, result, plies, ?2 FROM games "
		"WHERE id = ?1" },
};

/*
 * What a bulk load drops and rebuilds: each makes every insert a random
 * write. The definitions are libkifu's own, byte for byte those of the
 * schema files (sqlite_master shows the same text after a rebuild); the
 * database only keeps the names of those waiting (deferred_indexes), and
 * never holds SQL that kifu would run. The position index, a table, is
 * deferred differently (store_posidx.c).
 */
static const struct deferrable {
	const char *name;
	const char *drop;
	const char *create;
} deferrables[] = {
	{ "games_date", "DROP INDEX IF EXISTS games_date",
	  "CREATE INDEX games_date ON games(date_first)" },
	{ "sides_player", "DROP INDEX IF EXISTS sides_player",
	  "CREATE INDEX sides_player ON sides(player_id)" },
	{ NULL, NULL, NULL }
};

static const char *const tag_types[] = {
	[KIFU_SCALAR_STR] = "str", [KIFU_SCALAR_NULL] = "null", [KIFU_SCALAR_BOOL] = "bool",
	[KIFU_SCALAR_INT] = "int", [KIFU_SCALAR_FLOAT] = "float",
	[KIFU_SCALAR_TIMESTAMP] = "timestamp",
};

int kifu_store_schema_version(void)
{
	int n = 0;

	while (kifu_migrations[n].version)
		n++;
	return n;
}

/*
 * The multi-row INSERT into the position index: MULTI_ROWS entries per
 * step instead of one saves most of SQLite's per-statement work.
 */
static int multi_sql(struct kifu_buf *out)
{
	int r;

	kifu_buf_puts(out, "INSERT OR IGNORE INTO positions_hash(hash, game_id, ply) VALUES ");
	for (r = 0; r < MULTI_ROWS; r++)
		kifu_buf_printf(out, "%s(?%d, ?%d, ?%d)", r ? ", " : "", 3 * r + 1, 3 * r + 2,
				3 * r + 3);
	return out->failed ? KIFU_ENOMEM : 0;
}

struct kifu_stmt *kifu_store_stmt_(struct kifu_store *st, int k, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	const char *text;

	if (st->stmt[k])
		return st->stmt[k];
	text = stmt_sql[k].name ? kifu_db_sql(st, stmt_sql[k].name) : NULL;
	if (!text)
		text = stmt_sql[k].sql;
	if (!text && k == ST_POSIDX_INSERT_N) {
		if (multi_sql(&sql) < 0) {
			kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			return NULL;
		}
		text = sql.data;
	}
	if (!text) {
		kifu_error_at(err, st->path, 0, 0);
		kifu_error_set(err, KIFU_ERROR, "database '%s': the %s backend has no statement %d",
			       st->path, st->be->name, k);
	} else {
		if (kifu_db_prepare(&st->stmt[k], st, text, err) == 0)
			st->stmt[k]->small = k != ST_LOAD_MOVES && k != ST_LOAD_TAGS;
	}
	kifu_buf_release(&sql);
	return st->stmt[k];
}

int kifu_store_step_(struct kifu_store *st, struct kifu_stmt *s, const char *what,
		     struct kifu_error *err)
{
	int rc = kifu_db_step(s);

	if (rc != KIFU_DB_DONE && rc != KIFU_DB_ROW) {
		int ret = kifu_store_fail_(st, what, err);

		kifu_db_reset(s);
		return ret;
	}
	kifu_db_reset(s);
	return 0;
}

int kifu_store_step_id_(int64_t *id, struct kifu_store *st, struct kifu_stmt *s,
			const char *what, struct kifu_error *err)
{
	int rc = kifu_db_step(s), ret = 0;

	*id = rc == KIFU_DB_ROW ? kifu_db_column_int64(s, 0) : 0;
	/* Stepped to its end: the statement is done before the next one runs. */
	while (rc == KIFU_DB_ROW)
		rc = kifu_db_step(s);
	if (rc < 0)
		ret = kifu_store_fail_(st, what, err);
	kifu_db_reset(s);
	return ret;
}

int kifu_store_exec_(struct kifu_store *st, const char *sql, const char *what, struct kifu_error *err)
{
	if (kifu_db_exec(st, sql) < 0)
		return kifu_store_fail_(st, what, err);
	return 0;
}

static int bind_text(struct kifu_stmt *s, int i, const char *text)
{
	return text ? kifu_db_bind_text_static(s, i, text, -1) : kifu_db_bind_null(s, i);
}

void kifu_store_players_clear_(struct kifu_store *st)
{
	size_t i;

	for (i = 0; i < PLAYER_CACHE_SIZE && st->nplayers; i++) {
		if (st->players[i].name) {
			free(st->players[i].name);
			st->players[i].name = NULL;
			st->nplayers--;
		}
	}
	st->nplayers = 0;
}

void kifu_store_free(struct kifu_store *st)
{
	int k;

	if (!st)
		return;
	if (st->in_tx)
		kifu_store_rollback(st);
	for (k = 0; k < ST_COUNT; k++)
		kifu_db_finalize(st->stmt[k]);
	if (st->conn)
		st->be->close(st);
	if (st->players)
		kifu_store_players_clear_(st);
	free(st->players);
	if (st->be)
		st->be->posidx_release(st);
	kifu_store_symm_release_(st);
	kifu_buf_release(&st->moves);
	kifu_buf_release(&st->hashes);
	kifu_buf_release(&st->notes);
	free(st->path);
	free(st);
}

const char *kifu_store_path(const struct kifu_store *st)
{
	return st->path;
}

/* ---- Hashing ---- */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

/* A string and its terminator, so that "ab","c" and "a","bc" differ; NULL differs from "". */
static uint64_t fnv_str(uint64_t h, const char *s)
{
	if (!s)
		return fnv_bytes(h, "\xff", 1);
	return fnv_bytes(h, s, strlen(s) + 1);
}

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t kifu_store_game_key(const struct kifu_record *rec, const struct kifu_replay *rp)
{
	const struct kifu_game *g = rp->game;
	uint64_t h = fnv_str(FNV_OFFSET, "kifu game key 1");
	size_t i;
	int s;

	h = fnv_str(h, g ? g->name : rec->game);
	h = fnv_str(h, g && rp->variant >= 0 ? g->variants[rp->variant] : rec->variant);
	h = fnv_bytes(h, &(int32_t){ rp->first }, 4);
	for (s = 0; g && s < g->nsides; s++) {
		const char *name = NULL;

		for (i = 0; i < rec->nplayers; i++)
			if (rec->players[i].side && !strcmp(rec->players[i].side, g->sides[s]))
				name = rec->players[i].name;
		h = fnv_str(h, name);
	}
	h = fnv_str(h, rec->date);
	h = mix64(h ^ (uint64_t)rp->nplies);
	/* The positions, mixed 64 bits at a time: this is most of the work. */
	for (i = 0; rp->hashes && i <= rp->nplies; i++)
		h = mix64(h ^ rp->hashes[i]) + i;
	return mix64(h);
}

/* ---- Players ---- */

static size_t name_slot(const char *name)
{
	return (size_t)(mix64(fnv_str(FNV_OFFSET, name)) & (PLAYER_CACHE_SIZE - 1));
}

static int player_id(int64_t *id, struct kifu_store *st, const char *name, struct kifu_error *err)
{
	size_t k = name_slot(name);
	struct kifu_stmt *s;
	int rc, ret = 0;

	while (st->players[k].name) {
		if (!strcmp(st->players[k].name, name)) {
			*id = st->players[k].id;
			return 0;
		}
		k = (k + 1) & (PLAYER_CACHE_SIZE - 1);
	}
	s = kifu_store_stmt_(st, ST_PLAYER_FIND, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	bind_text(s, 1, name);
	rc = kifu_db_step(s);
	if (rc == KIFU_DB_ROW) {
		*id = kifu_db_column_int64(s, 0);
		kifu_db_reset(s);
	} else if (rc == KIFU_DB_DONE) {
		kifu_db_reset(s);
		s = kifu_store_stmt_(st, ST_PLAYER_INSERT, err);
		if (!s)
			return err ? err->code : KIFU_EDB;
		bind_text(s, 1, name);
		ret = kifu_store_step_id_(id, st, s, "cannot store a player", err);
		if (ret < 0)
			return ret;
		/* Another writer stored the name first (a unique key decides): its id. */
		if (*id == 0)
			return player_id(id, st, name, err);
	} else {
		ret = kifu_store_fail_(st, "cannot look a player up", err);
		kifu_db_reset(s);
		return ret;
	}
	/* Cache it; a full cache starts again (players come and go in archives). */
	if (st->nplayers >= PLAYER_CACHE_SIZE / 2) {
		kifu_store_players_clear_(st);
		k = name_slot(name);
	}
	st->players[k].name = strdup(name);
	if (st->players[k].name) {
		st->players[k].id = *id;
		st->nplayers++;
	}
	return 0;
}

/* ---- Games ---- */

static const char *variant_name(const struct kifu_record *rec, const struct kifu_replay *rp)
{
	return rp->variant >= 0 ? rp->game->variants[rp->variant] : rec->variant;
}

/* *id: the new game's id, 0 when the unique key says it is stored already. */
static int insert_game_row(int64_t *id, struct kifu_store *st, const struct kifu_record *rec,
			   const struct kifu_replay *rp, const struct kifu_origin *from, uint64_t key,
			   struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	const char *result = rec->result ? rec->result : "unfinished";
	const char *term = rec->termination;
	char first_day[11];
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_GAME_INSERT, err);
	int winner;

	if (!s)
		return err ? err->code : KIFU_EDB;
	if (!term && strcmp(result, "unfinished") != 0)
		term = "rules";
	winner = kifu_game_side_index(g, result);
	bind_text(s, 1, g->name);
	bind_text(s, 2, variant_name(rec, rp));
	bind_text(s, 3, rp->first >= 0 ? g->sides[rp->first] : g->sides[0]);
	bind_text(s, 4, rec->event);
	bind_text(s, 5, rec->site);
	bind_text(s, 6, rec->round);
	bind_text(s, 7, rec->date);
	if (rec->date && kifu_date_first_day(first_day, rec->date, NULL) == 0)
		kifu_db_bind_text(s, 8, first_day, -1);
	else
		kifu_db_bind_null(s, 8);
	bind_text(s, 9, rec->annotator);
	bind_text(s, 10, rec->source);
	bind_text(s, 11, result);
	if (winner >= 0)
		kifu_db_bind_int(s, 12, winner);
	else
		kifu_db_bind_null(s, 12);
	bind_text(s, 13, term);
	kifu_db_bind_int64(s, 14, (int64_t)rp->nplies);
	kifu_db_bind_int64(s, 15, (int64_t)key);
	if (from && from->file_id > 0)
		kifu_db_bind_int64(s, 16, from->file_id);
	else
		kifu_db_bind_null(s, 16);
	if (from && from->line > 0)
		kifu_db_bind_int(s, 17, from->line);
	else
		kifu_db_bind_null(s, 17);
	if (from && from->number > 0)
		kifu_db_bind_int(s, 18, from->number);
	else
		kifu_db_bind_null(s, 18);
	return kifu_store_step_id_(id, st, s, "cannot store a game", err);
}

static int insert_sides(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			const struct kifu_replay *rp, struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	struct kifu_stmt *s;
	size_t i;
	int side, ret;

	for (side = 0; side < g->nsides; side++) {
		for (i = 0; i < rec->nplayers; i++) {
			const struct kifu_record_player *p = &rec->players[i];
			int64_t pid = 0;

			if (!p->side || !p->name || strcmp(p->side, g->sides[side]) != 0)
				continue;
			ret = player_id(&pid, st, p->name, err);
			if (ret < 0)
				return ret;
			s = kifu_store_stmt_(st, ST_SIDE_INSERT, err);
			if (!s)
				return err ? err->code : KIFU_EDB;
			kifu_db_bind_int64(s, 1, id);
			kifu_db_bind_int(s, 2, side);
			bind_text(s, 3, g->sides[side]);
			kifu_db_bind_int64(s, 4, pid);
			if (p->has_rating)
				kifu_db_bind_int64(s, 5, p->rating);
			else
				kifu_db_bind_null(s, 5);
			ret = kifu_store_step_(st, s, "cannot store a player's side", err);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

void kifu_store_put_int64_(struct kifu_buf *b, int64_t v)
{
	char tmp[24], *e = tmp + sizeof(tmp), *q = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--q = '-';
	kifu_buf_add(b, q, (size_t)(e - q));
}

/*
 * Packs a game into the three JSON values of its game_moves row: the
 * canonical moves, the position hashes (ply 0..plies), and the notes (for
 * each ply with a comment or a clock, the comment and the clock as written
 * with its seconds), left empty when no turn has one.
 */
static int pack_game(struct kifu_store *st, const struct kifu_record *rec,
		     const struct kifu_replay *rp)
{
	size_t ply;

	kifu_buf_reset(&st->moves);
	kifu_buf_reset(&st->hashes);
	kifu_buf_reset(&st->notes);
	kifu_buf_putc(&st->moves, '[');
	for (ply = 1; ply <= rp->nplies; ply++) {
		const struct kifu_turn *t = ply <= rec->nturns ? &rec->turns[ply - 1] : NULL;
		const char *text = kifu_replay_text(rp, ply);

		if (ply > 1)
			kifu_buf_putc(&st->moves, ',');
		kifu_buf_json_string(&st->moves, text ? text : t && t->text ? t->text : "");
		if (!t || (!t->comment && !t->clock))
			continue;
		kifu_buf_printf(&st->notes, "%c\"%zu\":{", st->notes.len ? ',' : '{', ply);
		if (t->comment) {
			kifu_buf_puts(&st->notes, "\"comment\":");
			kifu_buf_json_string(&st->notes, t->comment);
		}
		if (t->clock) {
			kifu_buf_puts(&st->notes, t->comment ? ",\"clock\":" : "\"clock\":");
			kifu_buf_json_string(&st->notes, t->clock);
			/* JSON has no infinity: the reader refuses one anyway. */
			if (isfinite(t->clock_seconds))
				kifu_buf_printf(&st->notes, ",\"seconds\":%.17g", t->clock_seconds);
		}
		kifu_buf_putc(&st->notes, '}');
	}
	kifu_buf_putc(&st->moves, ']');
	if (st->notes.len)
		kifu_buf_putc(&st->notes, '}');
	kifu_buf_putc(&st->hashes, '[');
	for (ply = 0; ply <= rp->nplies; ply++) {
		if (ply)
			kifu_buf_putc(&st->hashes, ',');
		kifu_store_put_int64_(&st->hashes, (int64_t)rp->hashes[ply]);
	}
	kifu_buf_putc(&st->hashes, ']');
	return st->moves.failed || st->hashes.failed || st->notes.failed ? KIFU_ENOMEM : 0;
}

static int insert_game_moves(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			     const struct kifu_replay *rp, struct kifu_error *err)
{
	struct kifu_stmt *s;
	int ret = pack_game(st, rec, rp);

	if (ret < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	s = kifu_store_stmt_(st, ST_GAME_MOVES_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, id);
	kifu_db_bind_text_static(s, 2, st->moves.data, (int)st->moves.len);
	kifu_db_bind_text_static(s, 3, st->hashes.data, (int)st->hashes.len);
	if (st->notes.len)
		kifu_db_bind_text_static(s, 4, st->notes.data, (int)st->notes.len);
	else
		kifu_db_bind_null(s, 4);
	return kifu_store_step_(st, s, "cannot store a game's moves", err);
}

static int insert_figures_tags(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			       const struct kifu_replay *rp, struct kifu_error *err)
{
	struct kifu_stmt *s;
	size_t i;
	int k, ret;

	if (rp->nfigures) {
		s = kifu_store_stmt_(st, ST_FIGURE_INSERT, err);
		if (!s)
			return err ? err->code : KIFU_EDB;
		kifu_db_bind_int64(s, 1, id);
		for (k = 0; k < rp->nfigures; k++) {
			const struct kifu_figure *f = &rp->figures[k];

			bind_text(s, 2, f->key);
			if (f->type == KIFU_FIG_INT) {
				kifu_db_bind_int64(s, 3, f->num);
				kifu_db_bind_null(s, 4);
			} else {
				kifu_db_bind_null(s, 3);
				bind_text(s, 4, f->text);
			}
			ret = kifu_store_step_(st, s, "cannot store a figure", err);
			if (ret < 0)
				return ret;
		}
	}
	if (rec->ntags) {
		s = kifu_store_stmt_(st, ST_TAG_INSERT, err);
		if (!s)
			return err ? err->code : KIFU_EDB;
		kifu_db_bind_int64(s, 1, id);
		for (i = 0; i < rec->ntags; i++) {
			const struct kifu_tag *t = &rec->tags[i];
			int type = t->type >= 0 && t->type <= KIFU_SCALAR_TIMESTAMP ? t->type : 0;

			kifu_db_bind_int64(s, 2, (int64_t)i);
			bind_text(s, 3, t->key ? t->key : "");
			bind_text(s, 4, t->value ? t->value : "");
			bind_text(s, 5, tag_types[type]);
			ret = kifu_store_step_(st, s, "cannot store a tag", err);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int find_by_key(int64_t *id, struct kifu_store *st, uint64_t key, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_GAME_BY_KEY, err);
	int rc;

	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, (int64_t)key);
	rc = kifu_db_step(s);
	*id = rc == KIFU_DB_ROW ? kifu_db_column_int64(s, 0) : 0;
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE) {
		int ret = kifu_store_fail_(st, "cannot look a game up", err);

		kifu_db_reset(s);
		return ret;
	}
	kifu_db_reset(s);
	return 0;
}

struct game_write {
	const struct kifu_record *rec;
	const struct kifu_replay *rp;
	const struct kifu_origin *origin;
	uint64_t key;
	int64_t gid;
};

static int game_write(struct kifu_store *st, void *arg, struct kifu_error *err)
{
	struct game_write *w = arg;
	int ret;

	w->gid = 0;
	ret = insert_game_row(&w->gid, st, w->rec, w->rp, w->origin, w->key, err);
	if (ret < 0)
		return ret;
	/* The unique key said no: the game is already stored. */
	if (w->gid == 0)
		return find_by_key(&w->gid, st, w->key, err);
	ret = insert_sides(st, w->gid, w->rec, w->rp, err);
	if (ret == 0)
		ret = kifu_store_symm_game_(st, w->gid, w->rec, w->rp, err);
	if (ret == 0)
		ret = insert_game_moves(st, w->gid, w->rec, w->rp, err);
	if (ret == 0)
		ret = st->be->posidx_queue(st, w->gid, w->rp, err);
	if (ret == 0)
		ret = insert_figures_tags(st, w->gid, w->rec, w->rp, err);
	return ret < 0 ? ret : 1;
}

int kifu_store_game_add(int64_t *id, struct kifu_store *st, const struct kifu_record *rec,
			const struct kifu_replay *rp, const struct kifu_origin *origin,
			struct kifu_error *err)
{
	struct game_write w = { rec, rp, origin, 0, 0 };
	int ret;

	if (id)
		*id = 0;
	if (!rp->game || !rp->complete || !rp->hashes) {
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_EINVALID,
				      "database '%s': game %d is not a complete replay", st->path,
				      rec->number);
	}
	w.key = kifu_store_game_key(rec, rp);
	ret = kifu_store_run_write_(st, game_write, &w, err);
	if (id && ret >= 0)
		*id = w.gid;
	return ret;
}

/* ---- Quarantine ---- */

struct quarantine_write {
	const char *raw;
	size_t len;
	int truncated;
	const struct kifu_record *rec;
	const struct kifu_diags *diags;
	const struct kifu_origin *origin;
	uint64_t raw_hash;
	int errors;
	int64_t qid;
};

static int quarantine_write(struct kifu_store *st, void *arg, struct kifu_error *err)
{
	struct quarantine_write *w = arg;
	const struct kifu_origin *origin = w->origin;
	const char *file = origin && origin->file ? origin->file : "";
	const char *lock = kifu_db_sql(st, "quarantine_lock");
	struct kifu_stmt *s;
	size_t i;
	int ret, rc;

	w->qid = 0;
	/* Writers at the same time: one holds a text at a time (the look-up below decides). */
	if (lock) {
		ret = kifu_db_prepare(&s, st, lock, err);
		if (ret < 0)
			return ret;
		kifu_db_bind_int64(s, 1, (int64_t)w->raw_hash);
		ret = kifu_store_step_(st, s, "cannot quarantine a record", err);
		kifu_db_finalize(s);
		if (ret < 0)
			return ret;
	}
	/*
	 * The same bytes are the same rejected record, whatever path (or
	 * standard input) they were read through: held once, found by their
	 * hash and compared whole.
	 */
	s = kifu_store_stmt_(st, ST_QUAR_FIND, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, (int64_t)w->raw_hash);
	kifu_db_bind_blob(s, 2, w->raw, w->raw ? w->len : 0);
	rc = kifu_db_step(s);
	w->qid = rc == KIFU_DB_ROW ? kifu_db_column_int64(s, 0) : 0;
	kifu_db_reset(s);
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		return kifu_store_fail_(st, "cannot look a quarantined record up", err);
	if (w->qid)
		return 0;
	s = kifu_store_stmt_(st, ST_QUAR_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	if (origin && origin->import_id > 0)
		kifu_db_bind_int64(s, 1, origin->import_id);
	else
		kifu_db_bind_null(s, 1);
	bind_text(s, 2, file);
	if (origin && origin->line > 0)
		kifu_db_bind_int(s, 3, origin->line);
	else
		kifu_db_bind_null(s, 3);
	kifu_db_bind_int(s, 4, origin ? origin->number : 0);
	bind_text(s, 5, w->rec ? w->rec->game : NULL);
	kifu_db_bind_blob(s, 6, w->raw, w->raw ? w->len : 0);
	kifu_db_bind_int(s, 7, w->truncated != 0);
	kifu_db_bind_int64(s, 8, (int64_t)w->raw_hash);
	kifu_db_bind_int(s, 9, w->errors);
	ret = kifu_store_step_id_(&w->qid, st, s, "cannot quarantine a record", err);
	/* qid 0: only a hash collision of two texts from the same place gets here. */
	if (ret < 0 || w->qid == 0)
		return ret;
	s = kifu_store_stmt_(st, ST_QDIAG_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, w->qid);
	for (i = 0; w->diags && i < w->diags->n; i++) {
		const struct kifu_diag *d = &w->diags->v[i];

		kifu_db_bind_int64(s, 2, (int64_t)i);
		bind_text(s, 3, d->severity == KIFU_DIAG_WARNING ? "warning" : "error");
		if (d->line > 0) {
			kifu_db_bind_int(s, 4, d->line);
			kifu_db_bind_int(s, 5, d->col);
		} else {
			kifu_db_bind_null(s, 4);
			kifu_db_bind_null(s, 5);
		}
		if (d->ply > 0)
			kifu_db_bind_int(s, 6, d->ply);
		else
			kifu_db_bind_null(s, 6);
		bind_text(s, 7, d->message ? d->message : "");
		ret = kifu_store_step_(st, s, "cannot store a diagnostic", err);
		if (ret < 0)
			return ret;
	}
	return 1;
}

int kifu_store_quarantine_add(int64_t *id, struct kifu_store *st, const char *raw, size_t len,
			      int truncated, const struct kifu_record *rec,
			      const struct kifu_diags *diags, const struct kifu_origin *origin,
			      struct kifu_error *err)
{
	struct quarantine_write w = { raw, len, truncated, rec, diags, origin, 0, 0, 0 };
	size_t i;
	int ret;

	if (id)
		*id = 0;
	w.raw_hash = mix64(fnv_bytes(FNV_OFFSET, raw ? raw : "", raw ? len : 0));
	for (i = 0; diags && i < diags->n; i++)
		w.errors += diags->v[i].severity == KIFU_DIAG_ERROR;
	ret = kifu_store_run_write_(st, quarantine_write, &w, err);
	if (id && ret >= 0)
		*id = w.qid;
	return ret;
}

/* ---- Provenance ---- */

/* Now in UTC as imports are stamped ("2026-11-23T21:15:00Z"), the same on every backend. */
static const char *now_utc(char *out, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, size, "1970-01-01T00:00:00Z");
	return out;
}

int kifu_store_import_begin(int64_t *id, struct kifu_store *st, const char *paths,
			    struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_IMPORT_INSERT, err);
	char now[32];

	*id = 0;
	if (!s)
		return err ? err->code : KIFU_EDB;
	bind_text(s, 1, paths);
	kifu_db_bind_text(s, 2, now_utc(now, sizeof(now)), -1);
	return kifu_store_step_id_(id, st, s, "cannot record the import", err);
}

int kifu_store_import_end(struct kifu_store *st, int64_t id, long imported, long duplicates,
			  long rejected, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_IMPORT_END, err);
	char now[32];

	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, id);
	kifu_db_bind_int64(s, 2, imported);
	kifu_db_bind_int64(s, 3, duplicates);
	kifu_db_bind_int64(s, 4, rejected);
	kifu_db_bind_text(s, 5, now_utc(now, sizeof(now)), -1);
	return kifu_store_step_(st, s, "cannot record the import", err);
}

int kifu_store_file_add(int64_t *id, struct kifu_store *st, int64_t import_id, const char *path,
			long long size, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_FILE_INSERT, err);

	*id = 0;
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64(s, 1, import_id);
	bind_text(s, 2, path);
	if (size >= 0)
		kifu_db_bind_int64(s, 3, size);
	else
		kifu_db_bind_null(s, 3);
	return kifu_store_step_id_(id, st, s, "cannot record a file", err);
}

/* ---- Bulk loading ---- */

int kifu_store_indexes_defer_(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *keep = NULL;
	const struct deferrable *d;
	int own, ret;

	ret = kifu_store_own_begin_(&own, st, err);
	if (ret < 0)
		return ret;
	ret = kifu_db_prepare(&keep, st, "INSERT INTO deferred_indexes(name) VALUES (?1) "
			      "ON CONFLICT DO NOTHING", err);
	for (d = deferrables; d->name && ret == 0; d++) {
		int present;

		ret = kifu_db_has(&present, st, d->name, err);
		if (ret < 0 || !present)
			continue;
		kifu_db_bind_text_static(keep, 1, d->name, -1);
		ret = kifu_store_step_(st, keep, "cannot defer the indexes", err);
		if (ret == 0)
			ret = kifu_store_exec_(st, d->drop, "cannot defer the indexes", err);
	}
	if (ret == 0)
		ret = st->be->posidx_defer(st, err);
	if (ret == 0)
		ret = kifu_store_symm_defer_(st, err);
	kifu_db_finalize(keep);
	return kifu_store_own_end_(own, ret, st, err);
}

/*
 * Rebuilds every index named in deferred_indexes from libkifu's own
 * definition (a name kifu does not know is forgotten), in one transaction.
 */
int kifu_store_indexes_restore_(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *find = NULL, *done = NULL;
	const struct deferrable *d;
	int own, ret;

	ret = kifu_store_own_begin_(&own, st, err);
	if (ret < 0)
		return ret;
	ret = kifu_db_prepare(&find, st, "SELECT count(*) FROM deferred_indexes WHERE name = ?1",
			      err);
	if (ret == 0)
		ret = kifu_db_prepare(&done, st, "DELETE FROM deferred_indexes WHERE name = ?1", err);
	if (ret < 0)
		goto out;
	for (d = deferrables; d->name && ret == 0; d++) {
		int wanted;

		kifu_db_bind_text_static(find, 1, d->name, -1);
		if (kifu_db_step(find) != KIFU_DB_ROW) {
			ret = kifu_store_fail_(st, "cannot rebuild the indexes", err);
			kifu_db_reset(find);
			break;
		}
		wanted = kifu_db_column_int(find, 0) > 0;
		kifu_db_reset(find);
		if (!wanted)
			continue;
		/* Dropped first: an index (or half a table) of an older run must not stop it. */
		ret = kifu_store_exec_(st, d->drop, "cannot rebuild the indexes", err);
		if (ret == 0)
			ret = kifu_store_exec_(st, d->create, "cannot rebuild the indexes", err);
		kifu_db_bind_text_static(done, 1, d->name, -1);
		if (ret == 0)
			ret = kifu_store_step_(st, done, "cannot rebuild the indexes", err);
	}
	if (ret == 0)
		ret = st->be->posidx_restore(st, err);
	if (ret == 0)
		ret = kifu_store_symm_restore_(st, err);
	if (ret == 0)
		ret = kifu_store_exec_(st, "DELETE FROM deferred_indexes", "cannot rebuild the indexes", err);
out:
	kifu_db_finalize(find);
	kifu_db_finalize(done);
	return kifu_store_own_end_(own, ret, st, err);
}

static int outside_tx(struct kifu_store *st, const char *what, struct kifu_error *err)
{
	if (!st->in_tx)
		return 0;
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, KIFU_ERROR, "database '%s': cannot %s inside a transaction",
			      st->path, what);
}

int kifu_store_bulk_begin(struct kifu_store *st, struct kifu_error *err)
{
	int ret = outside_tx(st, "start a bulk load", err);

	/* A backend without bulk loads (PostgreSQL) writes every game as it comes. */
	if (ret < 0 || !st->be->bulk_begin)
		return ret;
	ret = st->be->bulk_begin(st, err);
	if (ret == 0)
		st->bulk = 1;
	return ret;
}

int kifu_store_bulk_end(struct kifu_store *st, struct kifu_error *err)
{
	int ret = outside_tx(st, "end a bulk load", err);

	if (ret < 0 || !st->be->bulk_end)
		return ret;
	ret = st->be->bulk_end(st, err);
	if (ret == 0)
		st->bulk = 0;
	return ret;
}

int kifu_store_indexes_deferred(int *count, struct kifu_store *st, struct kifu_error *err)
{
	long long n = 0;
	int ret = kifu_store_query_int_(&n, st, "SELECT count(*) FROM deferred_indexes", err);

	*count = (int)n;
	return ret;
}

int kifu_store_game_count(long long *count, struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_query_int_(count, st, "SELECT count(*) FROM games", err);
}
