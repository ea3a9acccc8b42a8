/*
 * Partial-board pattern search (kifu_search_games_pattern, kifu-search
 * --pattern). No index can hold every position's every cell, so the search
 * replays games; but only those whose summary (schema 8's game_cells: the
 * cells each side's pieces ever stood on) lets the pattern through, so that
 * the cost follows the games that may match rather than the database. A
 * replay stops at the first ply that shows the pattern; the games found are
 * then listed as every search lists them (search.c), newest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/pattern.h"
#include "kifu/search.h"
#include "kifu/stats.h"
#include "stats/stats_impl.h"
#include "store/store_impl.h"

struct found {
	int64_t *ids;
	long *plies;
	size_t n, cap;
};

static int found_add(struct found *fd, int64_t id, long ply)
{
	if (fd->n == fd->cap) {
		size_t cap = fd->cap ? 2 * fd->cap : 256;
		int64_t *ids = realloc(fd->ids, cap * sizeof(*ids));
		long *plies;

		if (!ids)
			return KIFU_ENOMEM;
		fd->ids = ids;
		plies = realloc(fd->plies, cap * sizeof(*plies));
		if (!plies)
			return KIFU_ENOMEM;
		fd->plies = plies;
		fd->cap = cap;
	}
	fd->ids[fd->n] = id;
	fd->plies[fd->n++] = ply;
	return 0;
}

/* A replay's stop at the first ply whose position shows the pattern. */
struct shows {
	const struct kifu_pattern *p;
	long ply;
};

static int shows_at(void *ctx, const void *state, size_t ply)
{
	struct shows *at = ctx;

	if (!kifu_pattern_match(at->p, state))
		return 0;
	at->ply = (long)ply;
	return 1;
}

/*
 * The first ply of the stored game (side first moving first, moves its
 * JSON array) whose position shows p, or -1; replayed as its import did,
 * up to the first move that does not replay.
 */
static long first_ply(const struct kifu_game *g, int variant, const char *first,
		      const char *moves, const struct kifu_pattern *p, void *state)
{
	struct kifu_error why;
	struct shows at = { p, -1 };
	int f = first ? kifu_game_side_index(g, first) : 0;

	if (f < 0 || g->init(state, variant, f, &why) < 0)
		return -1;
	kifu_store_replay_stored_(g, state, moves, shows_at, &at);
	return at.ply;
}

/* The ids of the games f selects whose summary lets p through, in id order. */
static int candidates(struct found *out, struct kifu_store *st, const struct kifu_filter *f,
		      const struct kifu_game *g, int ncells, const struct kifu_pattern *p,
		      struct kifu_error *err)
{
	uint64_t sum[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc;

	kifu_buf_puts(&sql, "SELECT c.game_id, c.cells FROM games g CROSS JOIN game_cells c "
		      "WHERE c.game_id = g.id AND ");
	ret = kifu_filter_sql_(&sql, f, "g", 1, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " ORDER BY c.game_id");
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&s, st, sql.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot search games", err);
		goto out;
	}
	ret = kifu_filter_bind_(s, 1, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		if (kifu_pattern_summary_unpack(sum, g, ncells, kifu_db_column_blob_(s, 1),
						kifu_db_column_bytes_(s, 1)) < 0) {
			ret = kifu_db_damaged_(st, err, "game %lld has a cells summary of %zu bytes",
					       (long long)kifu_db_column_int64_(s, 0),
					       kifu_db_column_bytes_(s, 1));
			goto out;
		}
		if (kifu_pattern_may_match(p, sum) &&
		    found_add(out, kifu_db_column_int64_(s, 0), -1) < 0) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot search games", err);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/* Replays the candidates: those that show p stay, with their first ply. */
static int replay_candidates(struct found *fd, struct kifu_store *st, const struct kifu_game *g,
			     int variant, const struct kifu_pattern *p, void *state,
			     struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	size_t i, kept = 0;
	int ret = 0, rc;

	kifu_buf_printf(&sql, "SELECT g.first, m.moves FROM games g JOIN %s m ON m.game_id = g.id "
			"WHERE g.id = ?1", kifu_db_game_data_(st));
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_prepare_(&s, st, sql.data, err) < 0) {
		ret = kifu_search_fail_db_(st, "cannot search games", err);
		goto out;
	}
	for (i = 0; i < fd->n; i++) {
		long ply = -1;

		kifu_db_bind_int64_(s, 1, fd->ids[i]);
		rc = kifu_db_step_(s);
		if (rc == KIFU_DB_ROW)
			ply = first_ply(g, variant, kifu_db_column_text_(s, 0),
					kifu_db_column_text_(s, 1), p, state);
		else if (rc != KIFU_DB_DONE) {
			ret = kifu_search_fail_db_(st, "cannot search games", err);
			goto out;
		}
		kifu_db_reset_(s);
		if (ply < 0)
			continue;
		fd->ids[kept] = fd->ids[i];
		fd->plies[kept++] = ply;
	}
	fd->n = kept;
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

int kifu_search_pattern_prepare(struct kifu_pattern **out, struct kifu_filter *f,
				const char *text, int symmetric, struct kifu_error *err)
{
	const struct kifu_game *g;
	char msg[KIFU_ERROR_MSG_MAX];
	int ret, variant;

	*out = NULL;
	if (!f->game)
		return kifu_error_set(err, KIFU_EPARSE,
				      "--pattern needs --game G (the game whose board it shows)");
	ret = kifu_stats_resolve_game(&g, &variant, f->game, f->variant, err);
	if (ret < 0)
		return ret;
	if (!f->variant && g->variants[1])
		return kifu_error_set(err, KIFU_EPARSE, "--pattern needs --variant V: %s has several",
				      g->name);
	f->variant = g->variants[variant];
	ret = kifu_pattern_parse(out, g, variant, text, symmetric, err);
	if (ret < 0 && ret != KIFU_ENOMEM) {
		snprintf(msg, sizeof(msg), "%s", err->message);
		ret = kifu_error_set(err, KIFU_EPARSE, "--pattern: %s", msg);
	}
	return ret;
}

int kifu_search_games_pattern(struct kifu_search_result **out, struct kifu_store *st,
			      const struct kifu_filter *f, const struct kifu_pattern *p,
			      struct kifu_error *err)
{
	const struct kifu_game *g = f && f->game ? kifu_game_find(f->game) : NULL;
	int variant = g ? (f->variant ? kifu_game_variant_index(g, f->variant) : 0) : -1;
	struct found fd = { NULL, NULL, 0, 0 };
	struct kifu_pos *start = NULL;
	int ret, snapshot = 0;

	*out = NULL;
	if (!g || variant < 0)
		return kifu_error_set(err, KIFU_ERANGE, "a pattern search needs a game and variant");
	if (kifu_store_version(st) < 8) {
		kifu_error_at(err, kifu_store_path(st), 0, 0);
		return kifu_error_set(err, KIFU_EDB, "database '%s': --pattern needs schema version "
				      "8 (kifu-import upgrades it)", kifu_store_path(st));
	}
	ret = kifu_pos_new(&start, g, variant, 0, err);
	if (ret < 0)
		return ret;
	/* The summaries, the games and the listing from one snapshot. */
	if (!kifu_store_in_transaction(st)) {
		ret = kifu_store_begin_tx(st, KIFU_TX_READ, err);
		if (ret < 0)
			goto out;
		snapshot = 1;
	}
	ret = candidates(&fd, st, f, g, g->ncells(start->state), p, err);
	if (ret == 0)
		ret = replay_candidates(&fd, st, g, variant, p, start->state, err);
	if (ret == 0)
		ret = kifu_search_games_among_(out, st, f, fd.ids, fd.plies, fd.n, err);
	if (snapshot)
		kifu_store_rollback(st); /* read only: nothing to keep */
out:
	kifu_pos_free(start);
	free(fd.ids);
	free(fd.plies);
	return ret;
}
