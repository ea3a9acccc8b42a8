/*
 * What a store keeps between calls and the helpers that run it, below the
 * backends and the store's core (store_impl.h gives the order): the
 * statements it prepares once and keeps (an import runs the same few
 * millions of times; each in generic SQL, with a name by which a backend
 * may supply its own text), stepping them with the error worded once, the
 * decimal form of the 64-bit integers its JSON values hold, and the
 * cache of player ids a rollback forgets.
 */
#include <stdlib.h>

#include "store/store_impl.h"

/*
 * The store's statements in generic SQL, each with a name by which a
 * backend may supply its own text instead (kifu_db_sql_). Ids come back
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
		"result, termination, plies, date_first FROM games WHERE id = ?1" },
	[ST_LOAD_SIDES] = { "load_sides",
		"SELECT s.side, p.name, s.rating FROM sides s JOIN players p ON p.id = s.player_id "
		"WHERE s.game_id = ?1 ORDER BY s.side_index" },
	[ST_LOAD_MOVES] = { "load_moves",
		"SELECT move, comment, clock_text FROM moves WHERE game_id = ?1 ORDER BY ply" },
	[ST_LOAD_TAGS] = { "load_tags",
		"SELECT key, value, type FROM tags WHERE game_id = ?1 ORDER BY seq" },
	[ST_CANON_INSERT] = { "canon_insert",
		"INSERT INTO game_canon(game_id, canon) VALUES (?1, ?2)" },
	[ST_CELLS_INSERT] = { "cells_insert",
		"INSERT INTO game_cells(game_id, cells) VALUES (?1, ?2)" },
	[ST_LINES_INSERT] = { "lines_insert",
		"INSERT INTO game_lines(game_id, lines) VALUES (?1, ?2)" },
	[ST_LOAD_LINES] = { "load_lines", "SELECT lines FROM game_lines WHERE game_id = ?1" },
	[ST_LINES_DELETE] = { "lines_delete", "DELETE FROM game_lines WHERE game_id = ?1" },
	[ST_LISTING_INSERT] = { "listing_insert",
		"INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, "
		"players) SELECT id, game, variant, date, date_first, result, plies, ?2 FROM games "
		"WHERE id = ?1" },
};

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
	text = stmt_sql[k].name ? kifu_db_sql_(st, stmt_sql[k].name) : NULL;
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
		if (kifu_db_prepare_(&st->stmt[k], st, text, err) == 0)
			st->stmt[k]->small = k != ST_LOAD_MOVES && k != ST_LOAD_TAGS;
	}
	kifu_buf_release(&sql);
	return st->stmt[k];
}

int kifu_store_step_(struct kifu_store *st, struct kifu_stmt *s, const char *what,
		     struct kifu_error *err)
{
	int rc = kifu_db_step_(s);

	if (rc != KIFU_DB_DONE && rc != KIFU_DB_ROW) {
		int ret = kifu_store_fail_(st, what, err);

		kifu_db_reset_(s);
		return ret;
	}
	kifu_db_reset_(s);
	return 0;
}

int kifu_store_step_id_(int64_t *id, struct kifu_store *st, struct kifu_stmt *s,
			const char *what, struct kifu_error *err)
{
	int rc = kifu_db_step_(s), ret = 0;

	*id = rc == KIFU_DB_ROW ? kifu_db_column_int64_(s, 0) : 0;
	/* Stepped to its end: the statement is done before the next one runs. */
	while (rc == KIFU_DB_ROW)
		rc = kifu_db_step_(s);
	if (rc < 0)
		ret = kifu_store_fail_(st, what, err);
	kifu_db_reset_(s);
	return ret;
}

int kifu_store_exec_(struct kifu_store *st, const char *sql, const char *what, struct kifu_error *err)
{
	if (kifu_db_exec_(st, sql) < 0)
		return kifu_store_fail_(st, what, err);
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

/* store_impl.h */
int kifu_store_hashes_binary_(const struct kifu_store *st)
{
	return st->be->hashes_binary && st->version >= 7;
}

void kifu_store_put_hash_(struct kifu_buf *b, uint64_t u)
{
	unsigned char be[8];
	int k;

	for (k = 7; k >= 0; k--, u >>= 8)
		be[k] = (unsigned char)(u & 0xff);
	kifu_buf_add(b, (const char *)be, 8);
}

uint64_t kifu_store_get_be64_(const unsigned char *p)
{
	uint64_t u = 0;
	int k;

	for (k = 0; k < 8; k++)
		u = u << 8 | p[k];
	return u;
}

int kifu_store_pack_hashes_(struct kifu_buf *out, const struct kifu_store *st,
			    const uint64_t *h, size_t n)
{
	size_t i;

	kifu_buf_reset(out);
	if (kifu_store_hashes_binary_(st)) {
		for (i = 0; i < n; i++)
			kifu_store_put_hash_(out, h[i]);
	} else {
		kifu_buf_putc(out, '[');
		for (i = 0; i < n; i++) {
			if (i)
				kifu_buf_putc(out, ',');
			kifu_store_put_int64_(out, (int64_t)h[i]);
		}
		kifu_buf_putc(out, ']');
	}
	return out->failed ? KIFU_ENOMEM : 0;
}

int kifu_store_bind_hashes_(struct kifu_stmt *s, int i, const struct kifu_buf *packed)
{
	if (kifu_store_hashes_binary_(s->st))
		return kifu_db_bind_blob_(s, i, packed->len ? packed->data : "", packed->len);
	return kifu_db_bind_text_static_(s, i, packed->data, (long)packed->len);
}

/* store_impl.h */
int kifu_store_parse_hashes_(uint64_t **h, size_t *n, size_t *cap, const char *p)
{
	*n = 0;
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	if (*p++ != '[')
		return KIFU_EDB;
	for (;;) {
		uint64_t u = 0;
		int neg = 0, digits = 0;

		while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
			p++;
		if (*p == ']' && *n == 0)
			return 0;
		if (*p == '-') {
			neg = 1;
			p++;
		}
		for (; *p >= '0' && *p <= '9' && digits < 20; p++, digits++)
			u = u * 10 + (uint64_t)(*p - '0');
		if (!digits)
			return KIFU_EDB;
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 128;
			uint64_t *q = realloc(*h, c * sizeof(*q));

			if (!q)
				return KIFU_ENOMEM;
			*h = q;
			*cap = c;
		}
		(*h)[(*n)++] = neg ? 0 - u : u;
		while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
			p++;
		if (*p == ',')
			p++;
		else
			return *p == ']' ? 0 : KIFU_EDB;
	}
}

int kifu_store_column_hashes_(uint64_t **h, size_t *n, size_t *cap, struct kifu_stmt *s, int i)
{
	const unsigned char *b;
	size_t len, k;

	*n = 0;
	if (kifu_db_column_is_null_(s, i))
		return 0;
	if (!kifu_store_hashes_binary_(s->st)) {
		const char *text = kifu_db_column_text_(s, i);

		return text ? kifu_store_parse_hashes_(h, n, cap, text) : KIFU_EDB;
	}
	b = kifu_db_column_blob_(s, i);
	len = kifu_db_column_bytes_(s, i);
	if (len % 8)
		return KIFU_EDB;
	if (len / 8 > *cap) {
		uint64_t *q = realloc(*h, (len / 8) * sizeof(*q));

		if (!q)
			return KIFU_ENOMEM;
		*h = q;
		*cap = len / 8;
	}
	for (k = 0; k < len / 8; k++)
		(*h)[k] = kifu_store_get_be64_(b + 8 * k);
	*n = len / 8;
	return 0;
}

int kifu_store_game_hashes_(uint64_t **h, size_t *n, size_t *cap, struct kifu_stmt *s, int i,
			    long long id, long long plies, struct kifu_error *err)
{
	int ret = kifu_store_column_hashes_(h, n, cap, s, i);

	if (ret == KIFU_ENOMEM)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret < 0)
		return kifu_db_damaged_(s->st, err, "game_data.hashes of game %lld do not read as "
					"position hashes", id);
	if ((long long)*n != plies + 1)
		return kifu_db_damaged_(s->st, err, "game_data.hashes of game %lld hold %zu "
					"positions for its %lld plies", id, *n, plies);
	return 0;
}
