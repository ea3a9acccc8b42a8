/*
 * The tree report of kifu-stats (include/kifu/stats.h): the moves played
 * from one position in the stored games that reach it, at any ply and by
 * any move order. The position is replayed through the engine (search.c),
 * its hash looked up in the position index, which holds each game once
 * per position with the first ply it reached it; so a game that comes back
 * to the position counts once, with the move it played the first time,
 * and a transposition is the same position whatever the order. SQLite
 * picks that move out of the game's JSON array and groups the games by
 * move and result; the rows are built from those few groups.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/store.h"
#include "stats_impl.h"

#define TREE_MAX_SIDES 4  /* as stats.c's wins arrays */

/* One next move and the games that played it. */
struct tree_move {
	char *move;
	long long games, wins[TREE_MAX_SIDES], draws, unfinished;
	long double sum_plies;
};

struct tree_moves {
	struct tree_move *v;
	size_t n, cap;
};

static void tree_moves_release(struct tree_moves *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].move);
	free(t->v);
}

/* The entry of move (n bytes), added when new; NULL when out of memory. */
static struct tree_move *tree_move_get(struct tree_moves *t, const char *move, size_t n)
{
	struct tree_move *e;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strlen(t->v[i].move) == n && !memcmp(t->v[i].move, move, n))
			return &t->v[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct tree_move *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	e->move = malloc(n + 1);
	if (!e->move)
		return NULL;
	memcpy(e->move, move, n);
	e->move[n] = '\0';
	t->n++;
	return e;
}

static int cmp_tree_move(const void *x, const void *y)
{
	const struct tree_move *a = x, *b = y;

	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return strcmp(a->move, b->move);
}

/* The game and variant the tree is about; KIFU_ERANGE when f does not name them. */
static int tree_game(const struct kifu_game **g, int *variant, const struct kifu_filter *f,
		     struct kifu_error *err)
{
	if (!f || !f->game)
		return kifu_error_set(err, KIFU_ERANGE, "the tree report needs a game (--game)");
	*g = kifu_game_find(f->game);
	if (!*g)
		return kifu_error_set(err, KIFU_ERANGE, "unknown game '%s'", f->game);
	if (f->variant) {
		*variant = kifu_game_variant_index(*g, f->variant);
		if (*variant < 0)
			return kifu_error_set(err, KIFU_ERANGE, "unknown variant '%s' of '%s'",
					      f->variant, f->game);
	} else if (kifu_game_variant_count(*g) > 1) {
		return kifu_error_set(err, KIFU_ERANGE,
				      "the tree report needs a variant (--variant): '%s' has several",
				      f->game);
	} else {
		*variant = 0;
	}
	return 0;
}

/* Reads the games reaching hash into t, grouped by next move and result. */
static int tree_collect(struct tree_moves *t, struct kifu_store *st, const struct kifu_game *g,
			const struct kifu_filter *f, uint64_t hash, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc;

	/*
	 * CROSS JOIN: the index range first, then each game by its id. A
	 * game that ends at the position (ply = plies) has no next move.
	 */
	if (search_position_index(st))
	{
		kifu_buf_puts(&sql, "SELECT ");
		kifu_db_json_at(&sql, st, "m.moves", "h.ply");
		kifu_buf_puts(&sql, " AS mv, g.result, count(*), sum(g.plies) FROM positions_hash h "
				    "CROSS JOIN games g CROSS JOIN game_moves m WHERE h.hash = ?1 "
				    "AND g.id = h.game_id AND m.game_id = g.id AND h.ply < g.plies AND ");
	} else
		kifu_buf_puts(&sql, "SELECT mv.move, g.result, count(*), sum(g.plies) FROM "
				    "(SELECT game_id, min(ply) AS ply FROM positions WHERE hash = ?1 "
				    "GROUP BY game_id) AS h CROSS JOIN games g CROSS JOIN moves mv "
				    "WHERE g.id = h.game_id AND mv.game_id = g.id AND "
				    "mv.ply = h.ply + 1 AND ");
	ret = kifu_filter_sql(&sql, f, "g", 2, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " GROUP BY 1, 2");
	if (sql.failed) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	ret = kifu_db_prepare(&s, st, sql.data, err);
	if (ret < 0)
		goto out;
	kifu_db_bind_int64(s, 1, (int64_t)hash);
	ret = kifu_filter_bind(s, 2, f, err);
	if (ret < 0)
		goto out;
	ret = 0;
	while ((rc = kifu_db_step(s)) == KIFU_DB_ROW) {
		const char *move = kifu_db_column_text(s, 0);
		const char *result = kifu_db_column_text(s, 1);
		long long n = kifu_db_column_int64(s, 2);
		struct tree_move *e;
		int side;

		if (!move)
			continue;
		e = tree_move_get(t, move, kifu_db_column_bytes(s, 0));
		if (!e) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		e->games += n;
		e->sum_plies += (long double)kifu_db_column_int64(s, 3);
		side = result ? kifu_game_side_index(g, result) : -1;
		if (side >= 0 && side < TREE_MAX_SIDES)
			e->wins[side] += n;
		else if (result && !strcmp(result, "draw"))
			e->draws += n;
		else
			e->unfinished += n;
	}
	if (rc != KIFU_DB_DONE)
		ret = search_fail_db(st, "cannot read the tree", err);
out:
	kifu_db_finalize(s);
	kifu_buf_release(&sql);
	return ret;
}

/* The columns in their order, so that a tree without rows still has its header. */
static void tree_columns(struct kifu_report *rep, const struct kifu_game *g)
{
	char name[64];
	int s;

	report_col(rep, "move", 0, 0);
	report_col(rep, "games", 0, 0);
	for (s = 0; s < g->nsides && s < TREE_MAX_SIDES; s++) {
		snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
		report_col(rep, name, 0, 0);
	}
	report_col(rep, "draws", 0, 0);
	report_col(rep, "unfinished", 0, 0);
	report_col(rep, "mover_score", 0, 3);
	report_col(rep, "ci_low", 0, 3);
	report_col(rep, "ci_high", 0, 3);
	report_col(rep, "mean_plies", 0, 1);
	report_col(rep, "hash", KIFU_COLUMN_JSON_ONLY, 0);
	report_col(rep, "to_move", KIFU_COLUMN_JSON_ONLY, 0);
}

int stats_tree_report(struct kifu_report *rep, struct kifu_store *st, const struct kifu_filter *f,
		      const struct kifu_stats_options *opt, struct kifu_error *err)
{
	struct tree_moves t = { NULL, 0, 0 };
	const struct kifu_game *g = NULL;
	uint64_t hash = 0;
	char hex[17];
	size_t i;
	int ret, variant = 0, mover = 0;

	ret = tree_game(&g, &variant, f, err);
	if (ret < 0)
		return ret;
	ret = search_position_side(&hash, &mover, g, variant, opt->after ? opt->after : "", err);
	if (ret < 0)
		return ret;
	ret = tree_collect(&t, st, g, f, hash, err);
	if (ret < 0)
		goto out;
	if (t.n)
		qsort(t.v, t.n, sizeof(*t.v), cmp_tree_move);
	snprintf(hex, sizeof(hex), "%016" PRIx64, hash);
	tree_columns(rep, g);
	for (i = 0; i < t.n; i++) {
		const struct tree_move *e = &t.v[i];
		long row;
		double points;

		if (e->games < opt->min_games)
			continue;
		row = report_row(rep);
		report_set_text(rep, row, report_col(rep, "move", 0, 0), e->move);
		report_set_int(rep, row, report_col(rep, "games", 0, 0), e->games);
		stats_put_wins(rep, row, g, e->wins, e->draws);
		report_set_int(rep, row, report_col(rep, "unfinished", 0, 0), e->unfinished);
		points = (mover >= 0 && mover < TREE_MAX_SIDES ? (double)e->wins[mover] : 0.0) +
			 (double)e->draws / (g->nsides > 0 ? g->nsides : 2);
		stats_put_score(rep, row, "mover_score", 1, points, e->games - e->unfinished);
		report_set_real(rep, row, report_col(rep, "mean_plies", 0, 1),
				(double)(e->sum_plies / e->games));
		report_set_text(rep, row, report_col(rep, "hash", KIFU_COLUMN_JSON_ONLY, 0), hex);
		report_set_text(rep, row, report_col(rep, "to_move", KIFU_COLUMN_JSON_ONLY, 0),
				mover >= 0 && mover < g->nsides ? g->sides[mover] : "");
	}
	if (report_failed(rep))
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
out:
	tree_moves_release(&t);
	return ret;
}
