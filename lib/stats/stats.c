/*
 * The reports of kifu-stats (include/kifu/stats.h). Each report is
 * accumulated in C from a stream of tuples that SQLite hands over: counts
 * of games per game, variant, first side, result and length (summary,
 * lengths); opening lines with their counts (openings); and each game's
 * players with its result (players). The same accumulators take the
 * tuples from two places: the precomputed tables of schema/003-stats.sql,
 * which make the common case (no filter but game, variant, termination)
 * read a few thousand rows instead of millions, and the games themselves,
 * for every other filter and for openings deeper than the tables keep.
 * The tables are brought up to date lazily, in one write transaction,
 * from the games added since they were last (stats_state); when that is
 * impossible (a read-only, full or busy database) the report is computed from
 * the games instead, so a report never depends on being able to write.
 * This file is the core the reports share: the context, the database
 * helpers, where a query's games come from, the freshness of the tables,
 * and kifu_stats_report's dispatch to stats_outcomes.c (summary,
 * lengths), stats_openings.c, stats_players.c and stats_tree.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/estimate.h"
#include "kifu/game.h"
#include "stats/stats_impl.h"
#include "util/hash.h"

static const char *const table_names[] = { "outcomes", "lines", "players" };

static const char *const kind_names[KIFU_STATS_KINDS] = {
	[KIFU_STATS_SUMMARY] = "summary",
	[KIFU_STATS_OPENINGS] = "openings",
	[KIFU_STATS_PLAYERS] = "players",
	[KIFU_STATS_LENGTHS] = "lengths",
	[KIFU_STATS_TREE] = "tree",
};

const char *kifu_stats_kind_name(int kind)
{
	return kind >= 0 && kind < KIFU_STATS_KINDS ? kind_names[kind] : NULL;
}

int kifu_stats_kind_find(const char *name)
{
	int k;

	for (k = 0; name && k < KIFU_STATS_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

static void ctx_init(struct ctx *c, struct kifu_store *st, struct kifu_error *err)
{
	int k, v;

	memset(c, 0, sizeof(*c));
	c->st = st;
	c->err = err;
	for (k = 0; kifu_games[k]; k++)
		for (v = 0; kifu_games[k]->variants[v] && c->ngv < MAX_GV; v++) {
			c->gv[c->ngv].g = kifu_games[k];
			c->gv[c->ngv++].v = v;
		}
}

/* The index of game and variant (by name), or -1 for a pair the registry does not know. */
int stats_gv_find(struct ctx *c, const char *game, const char *variant)
{
	int i;

	if (!game || !variant)
		return -1;
	for (i = 0; i < c->ngv; i++) {
		int k = (c->last_gv + i) % c->ngv;

		const struct gv *gv = &c->gv[k];

		if (!strcmp(gv->g->name, game) && !strcmp(gv->g->variants[gv->v], variant)) {
			c->last_gv = k;
			return k;
		}
	}
	return -1;
}

int stats_classify(const struct kifu_game *g, const char *result)
{
	int s;

	if (!result)
		return RES_UNKNOWN;
	if (!strcmp(result, "draw"))
		return RES_DRAW;
	if (!strcmp(result, "unfinished"))
		return RES_UNFINISHED;
	s = kifu_game_side_index(g, result);
	return s >= 0 && s < MAX_SIDES ? s : RES_UNKNOWN;
}

const char *stats_col_text(struct kifu_stmt *s, int i)
{
	const char *t = kifu_db_column_text(s, i);

	return t ? t : "";
}

/* The database's last error, in the store's words: "database 'PATH': what: why". */
int stats_fail_db(struct ctx *c, const char *what)
{
	return kifu_db_fail(c->st, what, c->err);
}

int stats_nomem(struct ctx *c)
{
	return kifu_error_set(c->err, KIFU_ENOMEM, "out of memory");
}

/* Errors after which a report is computed from the games instead of the tables. */
int stats_cannot_write(struct ctx *c)
{
	return kifu_db_cannot_write(c->st);
}

int stats_prepare(struct ctx *c, struct kifu_stmt **s, const char *sql, const char *what)
{
	if (kifu_db_prepare(s, c->st, sql, NULL) < 0)
		return stats_fail_db(c, what);
	return 0;
}

int stats_prepare_built(struct ctx *c, struct kifu_stmt **s, const struct kifu_buf *sql,
			const struct source *src, const char *what)
{
	int ret;

	if (sql->failed)
		return stats_nomem(c);
	ret = stats_prepare(c, s, sql->data, what);
	if (ret == 0 && src)
		ret = stats_source_bind(*s, src, c);
	return ret;
}

/* ---- Where a query's games come from ---- */


int stats_source_sql(struct kifu_buf *sql, const struct source *src, int *nparams,
		     struct ctx *c)
{
	int n;

	if (src->ranged) {
		kifu_buf_puts(sql, "g.id > ?1 AND g.id <= ?2");
		*nparams = 2;
		return 0;
	}
	n = kifu_filter_sql(sql, src->f, "g", 1, c->err);
	if (n < 0)
		return n;
	*nparams = n;
	return 0;
}

int stats_source_bind(struct kifu_stmt *s, const struct source *src, struct ctx *c)
{
	if (src->ranged) {
		kifu_db_bind_int64(s, 1, src->after);
		kifu_db_bind_int64(s, 2, src->upto);
		return 0;
	}
	return kifu_filter_bind(s, 1, src->f, c->err) < 0 ? KIFU_EDB : 0;
}

/*
 * The fast-path condition on a stats table: game, variant and, where the
 * table has it, termination, as fixed SQL with parameters from `first`.
 */
void stats_table_where(struct kifu_buf *sql, const struct kifu_filter *f, int with_termination,
		       int first, int *nparams)
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

void stats_table_bind(struct kifu_stmt *s, const struct kifu_filter *f, int with_termination,
		      int first)
{
	int n = 0;

	if (f && f->game)
		kifu_db_bind_text(s, first + n++, f->game, -1);
	if (f && f->variant)
		kifu_db_bind_text(s, first + n++, f->variant, -1);
	if (with_termination && f && f->termination)
		kifu_db_bind_text(s, first + n++, f->termination, -1);
}

/* ---- Keeping the tables up to date ---- */

static int query_int64(struct ctx *c, const char *sql, int64_t *out, int *found)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	ret = stats_prepare(c, &s, sql, "cannot read the statistics state");
	if (ret < 0)
		return ret;
	rc = kifu_db_step(s);
	*found = rc == KIFU_DB_ROW && !kifu_db_column_is_null(s, 0);
	*out = *found ? kifu_db_column_int64(s, 0) : 0;
	if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		ret = stats_fail_db(c, "cannot read the statistics state");
	kifu_db_finalize(s);
	return ret;
}

/*
 * The newest game id (*top, 0 without games) and the last one table t
 * counts (*last; -1 when t has no state, or one of another depth).
 */
static int state_get(struct ctx *c, int t, int64_t *top, int64_t *last)
{
	struct kifu_stmt *s = NULL;
	int found, ret, rc;

	*last = -1;
	ret = query_int64(c, "SELECT max(id) FROM games", top, &found);
	if (ret < 0)
		return ret;
	ret = stats_prepare(c, &s, "SELECT last_id, depth FROM stats_state WHERE name = ?1",
			    "cannot read the statistics state");
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static(s, 1, table_names[t], -1);
	rc = kifu_db_step(s);
	if (rc == KIFU_DB_ROW && (t != T_LINES || kifu_db_column_int(s, 1) == LINE_DEPTH))
		*last = kifu_db_column_int64(s, 0);
	else if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		ret = stats_fail_db(c, "cannot read the statistics state");
	kifu_db_finalize(s);
	return ret;
}

/* Whether table t counts exactly the games stored now. */
int stats_is_fresh(struct ctx *c, int t, int *fresh)
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
int stats_write_begin(struct ctx *c, int *own)
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
		if (stats_cannot_write(c)) {
			kifu_error_clear(c->err);
			return stats_write_end(c, 0, 1);
		}
		ret = c->err ? c->err->code : KIFU_EDB;
		return stats_write_end(c, 0, ret);
	}
	*own = 1;
	return 0;
}

/* Ends a refresh: commits what stats_write_begin started, or rolls it back after ret < 0 (or 1). */
int stats_write_end(struct ctx *c, int own, int ret)
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
int stats_refresh_range(struct ctx *c, int t, int64_t *after, int64_t *upto, int incremental)
{
	static const char *const clear[] = { "DELETE FROM stats_outcomes", "DELETE FROM stats_lines",
					     "DELETE FROM stats_players" };
	int ret = state_get(c, t, upto, after);

	if (ret < 0)
		return ret;
	if (incremental && *after >= 0 && *after <= *upto)
		return 0;
	*after = 0;
	if (kifu_db_exec(c->st, clear[t]) < 0)
		return stats_fail_db(c, "cannot empty a statistics table");
	return 0;
}

int stats_state_set(struct ctx *c, int t, int64_t upto)
{
	struct kifu_stmt *s = NULL;
	int ret;

	ret = stats_prepare(c, &s, "INSERT INTO stats_state(name, last_id, depth) VALUES (?1, ?2, ?3) "
				   "ON CONFLICT(name) DO UPDATE SET last_id = excluded.last_id, "
				   "depth = excluded.depth", "cannot write the statistics state");
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static(s, 1, table_names[t], -1);
	kifu_db_bind_int64(s, 2, upto);
	if (t == T_LINES)
		kifu_db_bind_int(s, 3, LINE_DEPTH);
	if (kifu_db_step(s) != KIFU_DB_DONE)
		ret = stats_fail_db(c, "cannot write the statistics state");
	kifu_db_finalize(s);
	return ret;
}

/*
 * Brings table t (outcomes or lines) up to date with the games. Returns 0,
 * 1 when the report must be computed from the games instead (the database
 * cannot be written now), or an error.
 */
int stats_ensure_fresh(struct ctx *c, int t)
{
	int fresh, own, ret;

	ret = stats_is_fresh(c, t, &fresh);
	if (ret < 0 || fresh)
		return ret;
	ret = stats_write_begin(c, &own);
	if (ret != 0)
		return ret;
	ret = t == T_OUTCOMES ? stats_outcomes_refresh(c) : stats_lines_refresh(c);
	if (ret < 0 && stats_cannot_write(c)) {
		kifu_error_clear(c->err);
		ret = 1;
	}
	ret = stats_write_end(c, own, ret);
	/*
	 * The report's new snapshot may hold games committed after the
	 * refresh: the tables answer only when they count exactly its games.
	 */
	if (ret == 0 && c->read_tx) {
		ret = stats_is_fresh(c, t, &fresh);
		if (ret == 0 && !fresh)
			ret = 1;
	}
	return ret;
}

/* Whether f only names what stats tables hold (game, variant, and termination when allowed). */
int stats_table_filter(const struct kifu_filter *f, int termination_ok)
{
	if (!f)
		return 1;
	if (f->player || f->event || f->since || f->until)
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
void stats_put_score(struct kifu_report *rep, long row, const char *name, int with_ci,
		     double points, long long finished)
{
	long col = report_col(rep, name, 0, 3), lo_col = -1, hi_col = -1;
	double low, high;

	if (with_ci) {
		lo_col = report_col(rep, "ci_low", 0, 3);
		hi_col = report_col(rep, "ci_high", 0, 3);
	}
	if (finished <= 0) {
		report_set_null(rep, row, col);
		if (with_ci) {
			report_set_null(rep, row, lo_col);
			report_set_null(rep, row, hi_col);
		}
		return;
	}
	report_set_real(rep, row, col, points / (double)finished);
	if (!with_ci)
		return;
	if (kifu_estimate_wilson(&low, &high, points, (double)finished) == 0) {
		report_set_real(rep, row, lo_col, low);
		report_set_real(rep, row, hi_col, high);
	} else {
		report_set_null(rep, row, lo_col);
		report_set_null(rep, row, hi_col);
	}
}

void stats_put_game(struct kifu_report *rep, long row, const struct gv *gv)
{
	report_set_text(rep, row, report_col(rep, "game", 0, 0), gv->g->name);
	report_set_text(rep, row, report_col(rep, "variant", 0, 0), gv->g->variants[gv->v]);
}

/* Columns wins_<side>..., draws for game g of row. */
void stats_put_wins(struct kifu_report *rep, long row, const struct kifu_game *g,
		    const long long *wins, long long draws)
{
	char name[64];
	int s;

	for (s = 0; s < g->nsides && s < MAX_SIDES; s++) {
		snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
		report_set_int(rep, row, report_col(rep, name, 0, 0), wins[s]);
	}
	report_set_int(rep, row, report_col(rep, "draws", 0, 0), draws);
}

/* Hashing of keys: splitmix64's finaliser. */
uint64_t stats_mix64(uint64_t z)
{
	return kifu_hash_mix64_(z);
}

/* ---- The API ---- */

/*
 * The columns of a report without rows, so that its header still says
 * what it would hold: those of the filter's game where one is named.
 */
static void empty_columns(struct kifu_report *rep, int kind, const struct kifu_filter *f,
			  const struct kifu_stats_options *opt)
{
	static const char *const summary[] = { "game", "variant", "games", "", "draws",
					       "unfinished", "draw_rate", "first_mover_score",
					       "ci_low", "ci_high", "mean_plies", "median_plies",
					       NULL };
	static const char *const openings[] = { "game", "variant", "line", "moves", "plies",
						"games", "", "draws", "unfinished",
						"first_mover_score", "ci_low", "ci_high", NULL };
	static const char *const players[] = { "player", "games", "wins", "draws", "losses",
					       "unfinished", "score", "rating", NULL };
	static const char *const lengths[] = { "game", "variant", "plies", "games", NULL };
	const char *const *cols = kind == KIFU_STATS_SUMMARY ? summary
				  : kind == KIFU_STATS_OPENINGS ? openings
				  : kind == KIFU_STATS_PLAYERS ? players : lengths;
	const struct kifu_game *g = f && f->game ? kifu_game_find(f->game) : NULL;
	char name[64];
	int k, s;

	for (k = 0; cols[k]; k++) {
		if (!cols[k][0]) {
			/* wins_<side>: known only for a named game. */
			for (s = 0; g && s < g->nsides; s++) {
				snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
				report_col(rep, name, 0, 0);
			}
			continue;
		}
		report_col(rep, cols[k], !strcmp(cols[k], "moves") ? KIFU_COLUMN_JSON_ONLY : 0, 0);
	}
	if (kind == KIFU_STATS_OPENINGS && opt->by_position)
		report_col(rep, "hash", 0, 0);
}

static int check_dates(const struct kifu_filter *f, struct kifu_error *err)
{
	char day[11];

	if (f && f->since && kifu_date_first_day(day, f->since, err) < 0)
		return KIFU_EPARSE;
	if (f && f->until && kifu_date_first_day(day, f->until, err) < 0)
		return KIFU_EPARSE;
	return 0;
}

int kifu_stats_report(struct kifu_report **out, struct kifu_store *st, int kind,
		      const struct kifu_filter *f, const struct kifu_stats_options *opt,
		      struct kifu_error *err)
{
	static const struct kifu_stats_options defaults = KIFU_STATS_OPTIONS_INIT;
	struct kifu_stats_options nocache;
	struct kifu_report *rep = NULL;
	struct ctx c;
	int ret;

	*out = NULL;
	if (!opt)
		opt = &defaults;
	if (kind < 0 || kind >= KIFU_STATS_KINDS)
		return kifu_error_set(err, KIFU_ERANGE, "unknown report %d", kind);
	if (opt->depth < 1 || opt->depth > KIFU_RECORD_MAX_TURNS)
		return kifu_error_set(err, KIFU_ERANGE, "depth %d is out of range (1 to %d)",
				      opt->depth, KIFU_RECORD_MAX_TURNS);
	if (opt->min_games < 0)
		return kifu_error_set(err, KIFU_ERANGE, "minimum of games %ld is negative",
				      opt->min_games);
	ret = check_dates(f, err);
	if (ret < 0)
		return ret;
	/* A database read as it is, from before schema 3, has no precomputed tables. */
	if (kifu_store_version(st) < 3) {
		nocache = *opt;
		nocache.flags |= KIFU_STATS_NO_CACHE;
		opt = &nocache;
	}
	ctx_init(&c, st, err);
	if (report_new(&rep, kind_names[kind]) < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	/*
	 * One snapshot for the whole report, while writers go on (ended and
	 * taken again around a refresh of the kept tables: stats_write_begin).
	 */
	if (!kifu_store_in_transaction(st)) {
		ret = kifu_store_begin_tx(st, KIFU_TX_READ, err);
		if (ret < 0) {
			kifu_report_free(rep);
			return ret;
		}
		c.read_tx = 1;
	}
	switch (kind) {
	case KIFU_STATS_SUMMARY:
	case KIFU_STATS_LENGTHS:
		ret = stats_outcomes_report(rep, &c, kind, f, opt);
		break;
	case KIFU_STATS_OPENINGS:
		ret = stats_openings_report(rep, &c, f, opt);
		break;
	case KIFU_STATS_PLAYERS:
		ret = stats_players_report(rep, &c, f, opt);
		break;
	case KIFU_STATS_TREE:
		ret = stats_tree_report(rep, &c, f, opt, err);
		break;
	}
	if (c.read_tx) {
		/* Nothing was written in it: ending it cannot lose anything. */
		if (kifu_store_commit(st, ret < 0 ? NULL : err) < 0 && ret >= 0)
			ret = err ? err->code : KIFU_EDB;
		if (kifu_store_in_transaction(st))
			kifu_store_rollback(st);
	}
	if (ret == 0 && kifu_report_nrows(rep) == 0 && kind != KIFU_STATS_TREE) {
		empty_columns(rep, kind, f, opt);
		if (report_failed(rep))
			ret = stats_nomem(&c);
	}
	if (ret < 0) {
		kifu_report_free(rep);
		return ret;
	}
	*out = rep;
	return 0;
}

int kifu_stats_refresh(struct kifu_store *st, struct kifu_error *err)
{
	struct ctx c;
	int ret;

	ctx_init(&c, st, err);
	ret = stats_ensure_fresh(&c, T_OUTCOMES);
	if (ret >= 0)
		ret = stats_ensure_fresh(&c, T_LINES);
	if (ret >= 0)
		ret = stats_players_refresh(&c);
	return ret < 0 ? ret : 0;
}
