/*
 * The game database (include/kifu/store.h): writing games, quarantined
 * records and import provenance, bulk loads, and closing. A game is a handful of
 * rows whatever its length (schema 4): its headers, sides, figures and
 * tags, and one row of game_data packing its moves and notes as JSON
 * and its position hashes as the backend keeps a hash array (schema 7,
 * SQLite: 8 bytes each in a BLOB); its entries of the position index wait for the commit
 * (store_posidx.c). Every statement is prepared once and kept on the store
 * (store_stmt.c) and every value goes through a bound parameter.
 * Transactions live in store_tx.c, opening and migrating in store_open.c,
 * selecting and loading games in store_select.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_impl.h"
#include "util/hash.h"

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

	while (kifu_migrations_[n].version)
		n++;
	return n;
}

static int bind_text(struct kifu_stmt *s, int i, const char *text)
{
	return text ? kifu_db_bind_text_static_(s, i, text, -1) : kifu_db_bind_null_(s, i);
}

void kifu_store_free(struct kifu_store *st)
{
	const struct kifu_store_derived_ *const *d;
	int k;

	if (!st)
		return;
	if (st->in_tx)
		kifu_store_rollback(st);
	for (k = 0; k < ST_COUNT; k++)
		kifu_db_finalize_(st->stmt[k]);
	if (st->conn)
		st->be->close(st);
	if (st->players)
		kifu_store_players_clear_(st);
	free(st->players);
	if (st->be)
		st->be->posidx_release(st);
	for (d = kifu_store_derived_; *d; d++)
		if ((*d)->release)
			(*d)->release(st);
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

/* A string and its terminator, so that "ab","c" and "a","bc" differ; NULL differs from "". */
static uint64_t fnv_str(uint64_t h, const char *s)
{
	if (!s)
		return kifu_hash_fnv1a_(h, "\xff", 1);
	return kifu_hash_fnv1a_(h, s, strlen(s) + 1);
}

uint64_t kifu_store_game_key(const struct kifu_record *rec, const struct kifu_replay *rp)
{
	const struct kifu_game *g = rp->game;
	uint64_t h = fnv_str(KIFU_HASH_FNV_OFFSET, "kifu game key 1");
	size_t i;
	int s;

	h = fnv_str(h, g ? g->name : rec->game);
	h = fnv_str(h, g && rp->variant >= 0 ? g->variants[rp->variant] : rec->variant);
	h = kifu_hash_fnv1a_(h, &(int32_t){ rp->first }, 4);
	for (s = 0; g && s < g->nsides; s++) {
		const char *name = NULL;

		for (i = 0; i < rec->nplayers; i++)
			if (rec->players[i].side && !strcmp(rec->players[i].side, g->sides[s]))
				name = rec->players[i].name;
		h = fnv_str(h, name);
	}
	h = fnv_str(h, rec->date);
	h = kifu_hash_mix64_(h ^ (uint64_t)rp->nplies);
	/* The positions, mixed 64 bits at a time: this is most of the work. */
	for (i = 0; rp->hashes && i <= rp->nplies; i++)
		h = kifu_hash_mix64_(h ^ rp->hashes[i]) + i;
	return kifu_hash_mix64_(h);
}

/* ---- Players ---- */

static size_t name_slot(const char *name)
{
	return (size_t)(kifu_hash_mix64_(fnv_str(KIFU_HASH_FNV_OFFSET, name)) &
			(PLAYER_CACHE_SIZE - 1));
}

/*
 * The id of the player called name, stored when new. again: the look-up
 * after an insert that stored nothing (another writer's name, or a key
 * another name holds: PostgreSQL keys names by their MD5).
 */
static int player_id_(int64_t *id, struct kifu_store *st, const char *name, int again,
		      struct kifu_error *err)
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
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW) {
		*id = kifu_db_column_int64_(s, 0);
		kifu_db_reset_(s);
	} else if (rc == KIFU_DB_DONE && again) {
		kifu_db_reset_(s);
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_EINVALID, "database '%s': cannot store the player '%.60s%s': "
				      "its key is another name's", st->path, name,
				      strlen(name) > 60 ? "..." : "");
	} else if (rc == KIFU_DB_DONE) {
		kifu_db_reset_(s);
		s = kifu_store_stmt_(st, ST_PLAYER_INSERT, err);
		if (!s)
			return err ? err->code : KIFU_EDB;
		bind_text(s, 1, name);
		ret = kifu_store_step_id_(id, st, s, "cannot store a player", err);
		if (ret < 0)
			return ret;
		/* Another writer stored the name first (a unique key decides): its id. */
		if (*id == 0)
			return player_id_(id, st, name, 1, err);
	} else {
		ret = kifu_store_fail_(st, "cannot look a player up", err);
		kifu_db_reset_(s);
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

static int player_id(int64_t *id, struct kifu_store *st, const char *name, struct kifu_error *err)
{
	return player_id_(id, st, name, 0, err);
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
	const char *term = kifu_store_termination_(rec);
	char first_day[11];
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_GAME_INSERT, err);
	int winner;

	if (!s)
		return err ? err->code : KIFU_EDB;
	winner = kifu_game_side_index(g, result);
	bind_text(s, 1, g->name);
	bind_text(s, 2, variant_name(rec, rp));
	bind_text(s, 3, rp->first >= 0 ? g->sides[rp->first] : g->sides[0]);
	bind_text(s, 4, rec->event);
	bind_text(s, 5, rec->site);
	bind_text(s, 6, rec->round);
	bind_text(s, 7, rec->date);
	if (rec->date && kifu_date_first_day(first_day, rec->date, NULL) == 0)
		kifu_db_bind_text_(s, 8, first_day, -1);
	else
		kifu_db_bind_null_(s, 8);
	bind_text(s, 9, rec->annotator);
	bind_text(s, 10, rec->source);
	bind_text(s, 11, result);
	if (winner >= 0)
		kifu_db_bind_int_(s, 12, winner);
	else
		kifu_db_bind_null_(s, 12);
	bind_text(s, 13, term);
	kifu_db_bind_int64_(s, 14, (int64_t)rp->nplies);
	kifu_db_bind_int64_(s, 15, (int64_t)key);
	if (from && from->file_id > 0)
		kifu_db_bind_int64_(s, 16, from->file_id);
	else
		kifu_db_bind_null_(s, 16);
	if (from && from->line > 0)
		kifu_db_bind_int_(s, 17, from->line);
	else
		kifu_db_bind_null_(s, 17);
	if (from && from->number > 0)
		kifu_db_bind_int_(s, 18, from->number);
	else
		kifu_db_bind_null_(s, 18);
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
			kifu_db_bind_int64_(s, 1, id);
			kifu_db_bind_int_(s, 2, side);
			bind_text(s, 3, g->sides[side]);
			kifu_db_bind_int64_(s, 4, pid);
			if (p->has_rating)
				kifu_db_bind_int64_(s, 5, p->rating);
			else
				kifu_db_bind_null_(s, 5);
			ret = kifu_store_step_(st, s, "cannot store a player's side", err);
			if (ret < 0)
				return ret;
			kifu_store_sides_add_(&st->sides, side, pid);
		}
	}
	return 0;
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

		if (ply > 1)
			kifu_buf_putc(&st->moves, ',');
		kifu_buf_json_string(&st->moves, kifu_store_ply_text_(rec, rp, ply));
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
	if (kifu_store_pack_hashes_(&st->hashes, st, rp->hashes, rp->nplies + 1) < 0)
		return KIFU_ENOMEM;
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
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_text_static_(s, 2, st->moves.data, (int)st->moves.len);
	kifu_store_bind_hashes_(s, 3, &st->hashes);
	if (st->notes.len)
		kifu_db_bind_text_static_(s, 4, st->notes.data, (int)st->notes.len);
	else
		kifu_db_bind_null_(s, 4);
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
		kifu_db_bind_int64_(s, 1, id);
		for (k = 0; k < rp->nfigures; k++) {
			const struct kifu_figure *f = &rp->figures[k];

			bind_text(s, 2, f->key);
			if (f->type == KIFU_FIG_INT) {
				kifu_db_bind_int64_(s, 3, f->num);
				kifu_db_bind_null_(s, 4);
			} else {
				kifu_db_bind_null_(s, 3);
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
		kifu_db_bind_int64_(s, 1, id);
		for (i = 0; i < rec->ntags; i++) {
			const struct kifu_tag *t = &rec->tags[i];
			int type = t->type >= 0 && t->type <= KIFU_SCALAR_TIMESTAMP ? t->type : 0;

			kifu_db_bind_int64_(s, 2, (int64_t)i);
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
	kifu_db_bind_int64_(s, 1, (int64_t)key);
	rc = kifu_db_step_(s);
	*id = rc == KIFU_DB_ROW ? kifu_db_column_int64_(s, 0) : 0;
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE) {
		int ret = kifu_store_fail_(st, "cannot look a game up", err);

		kifu_db_reset_(s);
		return ret;
	}
	kifu_db_reset_(s);
	return 0;
}

struct game_write {
	const struct kifu_record *rec;
	const struct kifu_replay *rp;
	const struct kifu_origin *origin;
	uint64_t key;
	int64_t gid;
	int *annotations;   /* NULL: a duplicate's are not looked at */
	unsigned flags;     /* KIFU_STORE_UPDATE_ANNOTATIONS */
};

static int game_write(struct kifu_store *st, void *arg, struct kifu_error *err)
{
	struct game_write *w = arg;
	const struct kifu_store_derived_ *const *d;
	int ret;

	w->gid = 0;
	ret = insert_game_row(&w->gid, st, w->rec, w->rp, w->origin, w->key, err);
	if (ret < 0)
		return ret;
	/* The unique key said no: the game is already stored, perhaps with other annotations. */
	if (w->gid == 0) {
		ret = find_by_key(&w->gid, st, w->key, err);
		if (ret == 0 && w->gid && w->annotations)
			ret = kifu_store_lines_update_(w->annotations, st, w->gid, w->rec, w->rp,
						       (w->flags & KIFU_STORE_UPDATE_ANNOTATIONS) != 0,
						       err);
		return ret;
	}
	st->sides.n = 0;
	st->sides.ok = 1;
	ret = insert_sides(st, w->gid, w->rec, w->rp, err);
	/*
	 * The rows a record's values may fail first, before anything is kept
	 * in memory for the commit: a write rolled back to its savepoint
	 * (store_tx.c) leaves nothing behind.
	 */
	if (ret == 0)
		ret = insert_figures_tags(st, w->gid, w->rec, w->rp, err);
	/* On a server, the answers to those rows (sent without waiting): a refusal is still the record's. */
	if (ret == 0 && kifu_db_exec_nowait_(st, NULL, 1) < 0)
		ret = kifu_store_fail_(st, "cannot store a game", err);
	if (ret == 0)
		st->write_kept = 1;
	/* Before the derived tables: SQLite's canonical hashes go into the same row (schema 7). */
	if (ret == 0)
		ret = insert_game_moves(st, w->gid, w->rec, w->rp, err);
	for (d = kifu_store_derived_; *d && ret == 0; d++)
		if ((*d)->game)
			ret = (*d)->game(st, w->gid, w->rec, w->rp, err);
	if (ret == 0)
		ret = st->be->posidx_queue(st, w->gid, w->rp, err);
	return ret < 0 ? ret : 1;
}

int kifu_store_game_add(int64_t *id, struct kifu_store *st, const struct kifu_record *rec,
			const struct kifu_replay *rp, const struct kifu_origin *origin,
			struct kifu_error *err)
{
	return kifu_store_game_put(id, NULL, st, rec, rp, origin, 0, err);
}

int kifu_store_game_put(int64_t *id, int *annotations, struct kifu_store *st,
			const struct kifu_record *rec, const struct kifu_replay *rp,
			const struct kifu_origin *origin, unsigned flags, struct kifu_error *err)
{
	struct game_write w = { rec, rp, origin, 0, 0, annotations, flags };
	int ret;

	if (id)
		*id = 0;
	if (annotations)
		*annotations = KIFU_ANNOTATIONS_SAME;
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
	const char *lock = kifu_db_sql_(st, "quarantine_lock");
	struct kifu_stmt *s;
	size_t i;
	int ret, rc;

	w->qid = 0;
	/* Writers at the same time: one holds a text at a time (the look-up below decides). */
	if (lock) {
		ret = kifu_db_prepare_(&s, st, lock, err);
		if (ret < 0)
			return ret;
		kifu_db_bind_int64_(s, 1, (int64_t)w->raw_hash);
		ret = kifu_store_step_(st, s, "cannot quarantine a record", err);
		kifu_db_finalize_(s);
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
	kifu_db_bind_int64_(s, 1, (int64_t)w->raw_hash);
	kifu_db_bind_blob_(s, 2, w->raw, w->raw ? w->len : 0);
	rc = kifu_db_step_(s);
	w->qid = rc == KIFU_DB_ROW ? kifu_db_column_int64_(s, 0) : 0;
	kifu_db_reset_(s);
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		return kifu_store_fail_(st, "cannot look a quarantined record up", err);
	if (w->qid)
		return 0;
	s = kifu_store_stmt_(st, ST_QUAR_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	if (origin && origin->import_id > 0)
		kifu_db_bind_int64_(s, 1, origin->import_id);
	else
		kifu_db_bind_null_(s, 1);
	bind_text(s, 2, file);
	if (origin && origin->line > 0)
		kifu_db_bind_int_(s, 3, origin->line);
	else
		kifu_db_bind_null_(s, 3);
	kifu_db_bind_int_(s, 4, origin ? origin->number : 0);
	bind_text(s, 5, w->rec ? w->rec->game : NULL);
	kifu_db_bind_blob_(s, 6, w->raw, w->raw ? w->len : 0);
	kifu_db_bind_int_(s, 7, w->truncated != 0);
	kifu_db_bind_int64_(s, 8, (int64_t)w->raw_hash);
	kifu_db_bind_int_(s, 9, w->errors);
	ret = kifu_store_step_id_(&w->qid, st, s, "cannot quarantine a record", err);
	/* qid 0: only a hash collision of two texts from the same place gets here. */
	if (ret < 0 || w->qid == 0)
		return ret;
	s = kifu_store_stmt_(st, ST_QDIAG_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, w->qid);
	for (i = 0; w->diags && i < w->diags->n; i++) {
		const struct kifu_diag *d = &w->diags->v[i];

		kifu_db_bind_int64_(s, 2, (int64_t)i);
		bind_text(s, 3, d->severity == KIFU_DIAG_WARNING ? "warning" : "error");
		if (d->line > 0) {
			kifu_db_bind_int_(s, 4, d->line);
			kifu_db_bind_int_(s, 5, d->col);
		} else {
			kifu_db_bind_null_(s, 4);
			kifu_db_bind_null_(s, 5);
		}
		if (d->ply > 0)
			kifu_db_bind_int_(s, 6, d->ply);
		else
			kifu_db_bind_null_(s, 6);
		bind_text(s, 7, d->message ? d->message : "");
		ret = kifu_store_step_(st, s, "cannot store a diagnostic", err);
		if (ret < 0)
			return ret;
	}
	/* The answers to the rows sent without waiting (the savepoint's release does not wait). */
	if (kifu_db_exec_nowait_(st, NULL, 1) < 0)
		return kifu_store_fail_(st, "cannot quarantine a record", err);
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
	w.raw_hash = kifu_hash_mix64_(
		kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, raw ? raw : "", raw ? len : 0));
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
	kifu_db_bind_text_(s, 2, now_utc(now, sizeof(now)), -1);
	return kifu_store_step_id_(id, st, s, "cannot record the import", err);
}

/*
 * At the end of an import (schema 11): the players' ratings fitted from
 * the kept sums when the import left them due (stats_state 'players' at
 * the last game, depth KIFU_SUMS_RATINGS_DUE), in a refresh transaction
 * (writers wait on PostgreSQL), so that the first players report reads
 * them. It reads the kept tables, never the games. A failure leaves them
 * due, for the report to fit (and to say what failed).
 */
static void ratings_at_end(struct kifu_store *st)
{
	struct kifu_store_sums_ *a = NULL;
	long long top = 0, last = -1, depth = -1;
	int ret;

	if (st->version < 11 || st->readonly || st->in_tx)
		return;
	if (kifu_store_begin_tx(st, KIFU_TX_REFRESH, NULL) < 0)
		return;
	ret = kifu_store_query_int_(&top, st, "SELECT coalesce(max(id), 0) FROM games", NULL);
	if (ret == 0)
		ret = kifu_store_query_int_(&last, st, "SELECT coalesce((SELECT last_id FROM "
					    "stats_state WHERE name = 'players'), -1)", NULL);
	if (ret == 0)
		ret = kifu_store_query_int_(&depth, st, "SELECT coalesce((SELECT depth FROM "
					    "stats_state WHERE name = 'players'), -1)", NULL);
	if (ret == 0 && last == top && depth == KIFU_SUMS_RATINGS_DUE) {
		ret = kifu_store_sums_new_(&a) < 0 ? KIFU_ENOMEM
						   : kifu_store_sums_ratings_(a, st, last, NULL);
		kifu_store_sums_free_(a);
		if (ret == 0 && kifu_store_commit(st, NULL) == 0)
			return;
	}
	kifu_store_rollback(st);
}

int kifu_store_import_end(struct kifu_store *st, int64_t id, long imported, long duplicates,
			  long rejected, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_IMPORT_END, err);
	char now[32];
	int ret;

	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_int64_(s, 2, imported);
	kifu_db_bind_int64_(s, 3, duplicates);
	kifu_db_bind_int64_(s, 4, rejected);
	kifu_db_bind_text_(s, 5, now_utc(now, sizeof(now)), -1);
	ret = kifu_store_step_(st, s, "cannot record the import", err);
	if (ret == 0)
		ratings_at_end(st);
	return ret;
}

int kifu_store_file_add(int64_t *id, struct kifu_store *st, int64_t import_id, const char *path,
			long long size, struct kifu_error *err)
{
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_FILE_INSERT, err);

	*id = 0;
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, import_id);
	bind_text(s, 2, path);
	if (size >= 0)
		kifu_db_bind_int64_(s, 3, size);
	else
		kifu_db_bind_null_(s, 3);
	return kifu_store_step_id_(id, st, s, "cannot record a file", err);
}

/* ---- Bulk loading ---- */

/*
 * Drops the deferrable indexes, remembering their names in
 * deferred_indexes, and has the position index and the derived tables set
 * theirs aside, in one transaction.
 */
static int indexes_defer(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *keep = NULL;
	const struct deferrable *d;
	const struct kifu_store_derived_ *const *dt;
	int own, ret;

	ret = kifu_store_own_begin_(&own, st, err);
	if (ret < 0)
		return ret;
	ret = kifu_db_prepare_(&keep, st, "INSERT INTO deferred_indexes(name) VALUES (?1) "
			      "ON CONFLICT DO NOTHING", err);
	for (d = deferrables; d->name && ret == 0; d++) {
		int present;

		ret = kifu_db_has_(&present, st, d->name, err);
		if (ret < 0 || !present)
			continue;
		kifu_db_bind_text_static_(keep, 1, d->name, -1);
		ret = kifu_store_step_(st, keep, "cannot defer the indexes", err);
		if (ret == 0)
			ret = kifu_store_exec_(st, d->drop, "cannot defer the indexes", err);
	}
	if (ret == 0)
		ret = st->be->posidx_defer(st, err);
	for (dt = kifu_store_derived_; *dt && ret == 0; dt++)
		if ((*dt)->defer)
			ret = (*dt)->defer(st, err);
	kifu_db_finalize_(keep);
	return kifu_store_own_end_(own, ret, st, err);
}

/*
 * Rebuilds every index named in deferred_indexes from libkifu's own
 * definition (a name kifu does not know is forgotten), in one transaction.
 */
static int indexes_restore(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *find = NULL, *done = NULL;
	const struct deferrable *d;
	const struct kifu_store_derived_ *const *dt;
	int own, ret;

	ret = kifu_store_own_begin_(&own, st, err);
	if (ret < 0)
		return ret;
	ret = kifu_db_prepare_(&find, st, "SELECT count(*) FROM deferred_indexes WHERE name = ?1",
			      err);
	if (ret == 0)
		ret = kifu_db_prepare_(&done, st, "DELETE FROM deferred_indexes WHERE name = ?1", err);
	if (ret < 0)
		goto out;
	for (d = deferrables; d->name && ret == 0; d++) {
		int wanted;

		kifu_db_bind_text_static_(find, 1, d->name, -1);
		if (kifu_db_step_(find) != KIFU_DB_ROW) {
			ret = kifu_store_fail_(st, "cannot rebuild the indexes", err);
			kifu_db_reset_(find);
			break;
		}
		wanted = kifu_db_column_int_(find, 0) > 0;
		kifu_db_reset_(find);
		if (!wanted)
			continue;
		/* Dropped first: an index (or half a table) of an older run must not stop it. */
		ret = kifu_store_exec_(st, d->drop, "cannot rebuild the indexes", err);
		if (ret == 0)
			ret = kifu_store_exec_(st, d->create, "cannot rebuild the indexes", err);
		kifu_db_bind_text_static_(done, 1, d->name, -1);
		if (ret == 0)
			ret = kifu_store_step_(st, done, "cannot rebuild the indexes", err);
	}
	if (ret == 0)
		ret = st->be->posidx_restore(st, err);
	for (dt = kifu_store_derived_; *dt && ret == 0; dt++)
		if ((*dt)->restore)
			ret = (*dt)->restore(st, err);
	if (ret == 0)
		ret = kifu_store_exec_(st, "DELETE FROM deferred_indexes", "cannot rebuild the indexes", err);
out:
	kifu_db_finalize_(find);
	kifu_db_finalize_(done);
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
	ret = indexes_defer(st, err);
	if (ret == 0)
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
	/* Every deferred index rebuilt, also one left by an interrupted bulk load. */
	ret = indexes_restore(st, err);
	if (ret == 0)
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
