/*
 * What partial-board pattern search keeps (schema 8, game_cells): for each
 * stored game of a game kifu knows, the cells each side's pieces stood on
 * at some ply (kifu/pattern.h's summary, packed), so that kifu-search
 * --pattern replays only the games that may show a pattern. Written
 * beside each game through the derived-table hooks, from the moves its
 * import replayed; schema 8's migration replays the games stored before.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/pattern.h"
#include "store/store_impl.h"

/* Games read at once by the migration before writing their rows. */
#define CELLS_CHUNK 512

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

/* st's position to replay in, room for one of g. */
static void *scratch(struct kifu_store *st, const struct kifu_game *g)
{
	if (st->cells_cap < g->state_size) {
		void *p = realloc(st->cells_state, g->state_size);

		if (!p)
			return NULL;
		st->cells_state = p;
		st->cells_cap = g->state_size;
	}
	return st->cells_state;
}

static int insert(struct kifu_store *st, int64_t id, const struct kifu_game *g, int ncells,
		  const uint64_t *sum, struct kifu_error *err)
{
	unsigned char packed[KIFU_GAME_SIDES_MAX * (KIFU_CELLS_MAX / 8)];
	struct kifu_stmt *s = kifu_store_stmt_(st, ST_CELLS_INSERT, err);

	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_pattern_summary_pack(packed, g, ncells, sum);
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_blob_(s, 2, packed, KIFU_PATTERN_PACKED_SIZE(g, ncells));
	return kifu_store_step_(st, s, "cannot store a game", err);
}

static int cells_game(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err)
{
	uint64_t sum[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
	const struct kifu_game *g = rp->game;
	void *state;

	(void)rec;
	if (st->version < 8 || !g || !g->ncells || rp->variant < 0)
		return 0;
	/* summed by the import's reading thread (KIFU_VALIDATE_CELLS) */
	if (rp->cells_plies == rp->nplies + 1 && rp->state)
		return insert(st, id, g, g->ncells(rp->state), rp->cells, err);
	state = scratch(st, g);
	if (!state)
		return nomem(err);
	if (kifu_pattern_summary_moves(sum, g, rp->variant, rp->first >= 0 ? rp->first : 0,
				       rp->moves, rp->nplies, state) < 0)
		return 0; /* a game the summary cannot replay is not searched by pattern */
	return insert(st, id, g, g->ncells(state), sum, err);
}

static void cells_release(struct kifu_store *st)
{
	free(st->cells_state);
	st->cells_state = NULL;
	st->cells_cap = 0;
}

const struct kifu_store_derived_ kifu_store_cells_derived_ = {
	.name = "cells",
	.game = cells_game,
	.release = cells_release,
};

/* One stored game read for the migration: its moves replayed as far as they go. */
struct stored {
	int64_t id;
	const struct kifu_game *g;
	int ncells;
	uint64_t sum[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
};

static int summarise_ply(void *ctx, const void *state, size_t ply)
{
	struct stored *e = ctx;

	(void)ply;
	kifu_pattern_summary_add(e->sum, e->g, state);
	return 0;
}

static int summarise(struct stored *e, struct kifu_store *st, const char *game,
		     const char *variant, const char *first, const char *moves)
{
	struct kifu_error why;
	void *state;
	int v, f;

	e->g = game ? kifu_game_find(game) : NULL;
	if (!e->g || !e->g->ncells)
		return 0;
	v = variant ? kifu_game_variant_index(e->g, variant) : 0;
	f = first ? kifu_game_side_index(e->g, first) : 0;
	state = scratch(st, e->g);
	if (!state)
		return KIFU_ENOMEM;
	if (v < 0 || f < 0 || e->g->init(state, v, f, &why) < 0) {
		e->g = NULL;
		return 0;
	}
	e->ncells = e->g->ncells(state);
	memset(e->sum, 0, sizeof(e->sum));
	return kifu_store_replay_stored_(e->g, state, moves, summarise_ply, e);
}

static int cells_fill(struct kifu_store *st, struct kifu_error *err);

/*
 * Schema 8's step: the tree counted again with its dates (the SQL forgot
 * the counts), and every stored game's cells summarised.
 */
int kifu_store_history_migrate_(struct kifu_store *st, struct kifu_error *err)
{
	int ret = kifu_store_symm_tree_count_(st, -1, 0, err);

	return ret < 0 ? ret : cells_fill(st, err);
}

static int cells_fill(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stmt *sel = NULL;
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct stored *c = calloc(CELLS_CHUNK, sizeof(*c));
	int64_t last = 0;
	size_t n, i;
	int ret = 0, rc = KIFU_DB_DONE;

	kifu_buf_printf(&sql, "SELECT g.id, g.game, g.variant, g.first, m.moves FROM games g "
			"JOIN %s m ON m.game_id = g.id WHERE g.id > ?1 ORDER BY g.id LIMIT ?2",
			kifu_db_game_data_(st));
	if (!c || sql.failed) {
		ret = nomem(err);
		goto out;
	}
	if (kifu_db_prepare_(&sel, st, sql.data, err) < 0) {
		ret = kifu_store_fail_(st, "cannot summarise the games' cells", err);
		goto out;
	}
	do {
		/* A chunk read whole before writing: a table is not changed under a read of it. */
		n = 0;
		kifu_db_bind_int64_(sel, 1, last);
		kifu_db_bind_int_(sel, 2, CELLS_CHUNK);
		while (ret == 0 && (rc = kifu_db_step_(sel)) == KIFU_DB_ROW) {
			struct stored *e = &c[n++];

			e->id = last = kifu_db_column_int64_(sel, 0);
			if (summarise(e, st, kifu_db_column_text_(sel, 1), kifu_db_column_text_(sel, 2),
				      kifu_db_column_text_(sel, 3), kifu_db_column_text_(sel, 4)) < 0)
				ret = nomem(err);
		}
		kifu_db_reset_(sel);
		if (ret == 0 && rc != KIFU_DB_DONE)
			ret = kifu_store_fail_(st, "cannot summarise the games' cells", err);
		for (i = 0; ret == 0 && i < n; i++)
			if (c[i].g)
				ret = insert(st, c[i].id, c[i].g, c[i].ncells, c[i].sum, err);
	} while (ret == 0 && n == CELLS_CHUNK);
out:
	kifu_db_finalize_(sel);
	kifu_buf_release(&sql);
	free(c);
	return ret;
}
