/*
 * What the statistics reports (stats_outcomes.c, stats_openings.c,
 * stats_players.c, stats_tree.c) share: finding a game and variant,
 * classifying a result, the database helpers, where a query's games come
 * from (the filter, or a range of ids when a table is brought up to date),
 * the precomputed tables' freshness and the write transaction of their
 * refresh, and the columns several reports have (game and variant, wins,
 * a score with its interval). stats.c dispatches to the reports; the
 * reports call here, never back into stats.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kifu/estimate.h"
#include "kifu/game.h"
#include "stats/stats_impl.h"

/* The names of the tables' rows in stats_state, by T_*. */
static const char *const table_names[] = { "outcomes", "lines", "players", "balance" };

/* The index of game and variant (by name), or -1 for a pair the registry does not know. */
int kifu_stats_gv_find_(struct kifu_stats_ctx_ *c, const char *game, const char *variant)
{
	int i;

	if (!game || !variant)
		return -1;
	for (i = 0; i < c->ngv; i++) {
		int k = (c->last_gv + i) % c->ngv;

		const struct kifu_stats_gv_ *gv = &c->gv[k];

		if (!strcmp(gv->g->name, game) && !strcmp(gv->g->variants[gv->v], variant)) {
			c->last_gv = k;
			return k;
		}
	}
	return -1;
}

int kifu_stats_classify_(const struct kifu_game *g, const char *result)
{
	return kifu_store_sums_classify_(g, result);
}

const char *kifu_stats_col_text_(struct kifu_stmt *s, int i)
{
	const char *t = kifu_db_column_text_(s, i);

	return t ? t : "";
}

/* The database's last error, in the store's words: "database 'PATH': what: why". */
int kifu_stats_fail_db_(struct kifu_stats_ctx_ *c, const char *what)
{
	return kifu_db_fail_(c->st, what, c->err);
}

int kifu_stats_nomem_(struct kifu_stats_ctx_ *c)
{
	return kifu_error_set(c->err, KIFU_ENOMEM, "out of memory");
}

/* Errors after which a report is computed from the games instead of the tables. */
int kifu_stats_cannot_write_(struct kifu_stats_ctx_ *c)
{
	return kifu_db_cannot_write_(c->st);
}

int kifu_stats_prepare_(struct kifu_stats_ctx_ *c, struct kifu_stmt **s, const char *sql,
			const char *what)
{
	if (kifu_db_prepare_(s, c->st, sql, NULL) < 0)
		return kifu_stats_fail_db_(c, what);
	return 0;
}

int kifu_stats_prepare_built_(struct kifu_stats_ctx_ *c, struct kifu_stmt **s,
			      const struct kifu_buf *sql, const struct kifu_stats_source_ *src,
			      const char *what)
{
	int ret;

	if (sql->failed)
		return kifu_stats_nomem_(c);
	ret = kifu_stats_prepare_(c, s, sql->data, what);
	if (ret == 0 && src)
		ret = kifu_stats_source_bind_(*s, src, c);
	return ret;
}

/* ---- Where a query's games come from ---- */


int kifu_stats_source_sql_(struct kifu_buf *sql, const struct kifu_stats_source_ *src, int *nparams,
			   struct kifu_stats_ctx_ *c)
{
	int n;

	if (src->ranged) {
		kifu_buf_puts(sql, "g.id > ?1 AND g.id <= ?2");
		*nparams = 2;
		return 0;
	}
	if (src->newest > 0) {
		/* the same parameters, on the subquery's games */
		kifu_buf_puts(sql, "g.id IN (SELECT x.id FROM games x WHERE ");
		n = kifu_filter_sql_(sql, src->f, "x", 1, c->err);
		kifu_buf_printf(sql, " ORDER BY x.date_first DESC NULLS LAST, x.id DESC LIMIT %ld)",
				src->newest);
	} else {
		n = kifu_filter_sql_(sql, src->f, "g", 1, c->err);
	}
	if (n < 0)
		return n;
	*nparams = n;
	return 0;
}

int kifu_stats_source_bind_(struct kifu_stmt *s, const struct kifu_stats_source_ *src,
			    struct kifu_stats_ctx_ *c)
{
	if (src->ranged) {
		kifu_db_bind_int64_(s, 1, src->after);
		kifu_db_bind_int64_(s, 2, src->upto);
		return 0;
	}
	return kifu_filter_bind_(s, 1, src->f, c->err) < 0 ? KIFU_EDB : 0;
}

/*
 * The fast-path condition on a stats table: game, variant and, where the
 * table has it, termination, as fixed SQL with parameters from `first`.
 */
void kifu_stats_table_where_(struct kifu_buf *sql, const struct kifu_filter *f,
			     int with_termination, int first, int *nparams)
{
	int n = 0;

	if (f && f->game)
		kifu_buf_printf(sql, " AND game = ?%d", first + n++);
	if (f && f->variant)
		kifu_buf_printf(sql, " AND variant = ?%d", first + n++);
	if (with_termination && f && f->termination)
		kifu_buf_printf(sql, " AND termination = ?%d", first + n++);
	*nparams = n;
}

void kifu_stats_table_bind_(struct kifu_stmt *s, const struct kifu_filter *f, int with_termination,
			    int first)
{
	int n = 0;

	if (f && f->game)
		kifu_db_bind_text_(s, first + n++, f->game, -1);
	if (f && f->variant)
		kifu_db_bind_text_(s, first + n++, f->variant, -1);
	if (with_termination && f && f->termination)
		kifu_db_bind_text_(s, first + n++, f->termination, -1);
}

/* ---- Keeping the tables up to date ---- */

static int query_int64(struct kifu_stats_ctx_ *c, const char *sql, int64_t *out, int *found)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	ret = kifu_stats_prepare_(c, &s, sql, "cannot read the statistics state");
	if (ret < 0)
		return ret;
	rc = kifu_db_step_(s);
	*found = rc == KIFU_DB_ROW && !kifu_db_column_is_null_(s, 0);
	*out = *found ? kifu_db_column_int64_(s, 0) : 0;
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read the statistics state");
	kifu_db_finalize_(s);
	return ret;
}

/*
 * The newest game id (*top, 0 without games) and the last one table t
 * counts (*last; -1 when t has no state, or one of another depth).
 */
static int state_get(struct kifu_stats_ctx_ *c, int t, int64_t *top, int64_t *last)
{
	struct kifu_stmt *s = NULL;
	int found, ret, rc;

	*last = -1;
	ret = query_int64(c, "SELECT max(id) FROM games", top, &found);
	if (ret < 0)
		return ret;
	ret = kifu_stats_prepare_(c, &s, "SELECT last_id, depth FROM stats_state WHERE name = ?1",
				  "cannot read the statistics state");
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static_(s, 1, table_names[t], -1);
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW && (t != T_LINES || kifu_db_column_int_(s, 1) == LINE_DEPTH))
		*last = kifu_db_column_int64_(s, 0);
	else if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read the statistics state");
	kifu_db_finalize_(s);
	return ret;
}

/* Whether table t counts exactly the games stored now. */
int kifu_stats_is_fresh_(struct kifu_stats_ctx_ *c, int t, int *fresh)
{
	int64_t top, last;
	int ret = state_get(c, t, &top, &last);

	*fresh = ret == 0 && last == top;
	return ret;
}

/*
 * Starts the write transaction of a refresh. Returns 1 when the caller
 * should compute without the tables (the database cannot be written now),
 * 0 with *own set when a transaction was started here (an open one of the
 * caller is used as it is), or an error.
 */
int kifu_stats_write_begin_(struct kifu_stats_ctx_ *c, int *own)
{
	int ret;

	*own = 0;
	/* Opened read-only (a file or a directory the user cannot write): compute. */
	if (kifu_store_readonly(c->st))
		return 1;
	if (kifu_store_in_transaction(c->st)) {
		/* A caller's writer transaction is used as it is, a caller's snapshot only read. */
		if (kifu_store_tx_kind(c->st) != KIFU_TX_READ)
			return 0;
		if (!c->read_tx)
			return 1;
		/* The report's own snapshot: ended for the refresh, taken anew after it. */
		if (kifu_store_commit(c->st, c->err) < 0)
			return c->err ? c->err->code : KIFU_EDB;
		c->reopen = 1;
	}
	if (kifu_store_begin_tx(c->st, KIFU_TX_REFRESH, c->err) < 0) {
		if (kifu_stats_cannot_write_(c)) {
			kifu_error_clear(c->err);
			return kifu_stats_write_end_(c, 0, 1);
		}
		ret = c->err ? c->err->code : KIFU_EDB;
		return kifu_stats_write_end_(c, 0, ret);
	}
	*own = 1;
	return 0;
}

/*
 * Ends a refresh: commits what kifu_stats_write_begin_ started, or rolls
 * it back after ret < 0 (or 1).
 */
int kifu_stats_write_end_(struct kifu_stats_ctx_ *c, int own, int ret)
{
	if (own && ret != 0) {
		kifu_store_rollback(c->st);
	} else if (own) {
		ret = kifu_store_commit(c->st, c->err);
		if (ret < 0)
			kifu_store_rollback(c->st);
	}
	if (c->reopen) {
		c->reopen = 0;
		if (kifu_store_begin_tx(c->st, KIFU_TX_READ, ret < 0 ? NULL : c->err) < 0) {
			c->read_tx = 0;
			if (ret >= 0)
				ret = c->err ? c->err->code : KIFU_EDB;
		}
	}
	return ret;
}

/*
 * Inside a write transaction: the range of games (*after, *upto] table t
 * lacks, after emptying t when it cannot be brought up to date by adding
 * (not incremental, no state, games deleted, another depth).
 */
int kifu_stats_refresh_range_(struct kifu_stats_ctx_ *c, int t, int64_t *after, int64_t *upto,
			      int incremental)
{
	static const char *const clear[] = { "DELETE FROM stats_outcomes", "DELETE FROM stats_lines",
					     "DELETE FROM stats_players", "DELETE FROM stats_balance" };
	int ret = state_get(c, t, upto, after);

	if (ret < 0)
		return ret;
	if (incremental && *after >= 0 && *after <= *upto)
		return 0;
	*after = 0;
	if (kifu_db_exec_(c->st, clear[t]) < 0)
		return kifu_stats_fail_db_(c, "cannot empty a statistics table");
	return 0;
}

int kifu_stats_state_set_(struct kifu_stats_ctx_ *c, int t, int64_t upto)
{
	return kifu_store_sums_state_set_(c->st, table_names[t], upto,
					  t == T_LINES ? LINE_DEPTH : 0, c->err);
}

/*
 * Brings table t (outcomes or lines) up to date with the games: fill, the
 * table's own filling (stats_outcomes.c, stats_openings.c), inside the
 * write transaction this takes care of. Returns 0, 1 when the report must
 * be computed from the games instead (the database cannot be written now),
 * or an error.
 */
int kifu_stats_ensure_fresh_(struct kifu_stats_ctx_ *c, int t,
			     int (*fill)(struct kifu_stats_ctx_ *c))
{
	int fresh, own, ret;

	ret = kifu_stats_is_fresh_(c, t, &fresh);
	if (ret < 0 || fresh)
		return ret;
	ret = kifu_stats_write_begin_(c, &own);
	if (ret != 0)
		return ret;
	ret = fill(c);
	if (ret < 0 && kifu_stats_cannot_write_(c)) {
		kifu_error_clear(c->err);
		ret = 1;
	}
	ret = kifu_stats_write_end_(c, own, ret);
	/*
	 * The report's new snapshot may hold games committed after the
	 * refresh: the tables answer only when they count exactly its games.
	 */
	if (ret == 0 && c->read_tx) {
		ret = kifu_stats_is_fresh_(c, t, &fresh);
		if (ret == 0 && !fresh)
			ret = 1;
	}
	return ret;
}

/* Whether f only names what stats tables hold (game, variant, and termination when allowed). */
int kifu_stats_table_filter_(const struct kifu_filter *f, int termination_ok)
{
	if (!f)
		return 1;
	if (f->player || f->event || f->since || f->until || f->level)
		return 0;
	/* NULL in games, '' in the tables: an empty termination must select nothing. */
	if (f->termination && (!termination_ok || !f->termination[0]))
		return 0;
	return 1;
}

/* ---- Columns the reports share ---- */

/*
 * The score columns (with_ci: and its Wilson interval) of row; null
 * without a finished game. The columns are added in this order here, not
 * in the unspecified order of a call's arguments.
 */
void kifu_stats_put_score_(struct kifu_report *rep, long row, const char *name, int with_ci,
			   double points, long long finished)
{
	long col = kifu_report_add_col_(rep, name, 0, 3), lo_col = -1, hi_col = -1;
	double low, high;

	if (with_ci) {
		lo_col = kifu_report_add_col_(rep, "ci_low", 0, 3);
		hi_col = kifu_report_add_col_(rep, "ci_high", 0, 3);
	}
	if (finished <= 0) {
		kifu_report_set_null_(rep, row, col);
		if (with_ci) {
			kifu_report_set_null_(rep, row, lo_col);
			kifu_report_set_null_(rep, row, hi_col);
		}
		return;
	}
	kifu_report_set_real_(rep, row, col, points / (double)finished);
	if (!with_ci)
		return;
	if (kifu_estimate_wilson(&low, &high, points, (double)finished) == 0) {
		kifu_report_set_real_(rep, row, lo_col, low);
		kifu_report_set_real_(rep, row, hi_col, high);
	} else {
		kifu_report_set_null_(rep, row, lo_col);
		kifu_report_set_null_(rep, row, hi_col);
	}
}

void kifu_stats_put_game_(struct kifu_report *rep, long row, const struct kifu_stats_gv_ *gv)
{
	kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "game", 0, 0), gv->g->name);
	kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "variant", 0, 0),
			      gv->g->variants[gv->v]);
}

/* Columns wins_<side>..., draws for game g of row. */
void kifu_stats_put_wins_(struct kifu_report *rep, long row, const struct kifu_game *g,
			  const long long *wins, long long draws)
{
	char name[64];
	int s;

	memcpy(name, "wins_", 5);
	for (s = 0; s < g->nsides && s < MAX_SIDES; s++) {
		/* (every row asks: no printf) */
		size_t n = strnlen(g->sides[s], sizeof(name) - 6);

		memcpy(name + 5, g->sides[s], n);
		name[5 + n] = '\0';
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, name, 0, 0), wins[s]);
	}
	kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "draws", 0, 0), draws);
}

int kifu_stats_game_of_(const struct kifu_game **g, int *variant, const struct kifu_filter *f,
			const char *report, struct kifu_error *err)
{
	if (!f || !f->game)
		return kifu_error_set(err, KIFU_ERANGE, "the %s report needs a game (--game)", report);
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
				      "the %s report needs a variant (--variant): '%s' has several",
				      report, f->game);
	} else {
		*variant = 0;
	}
	return 0;
}
