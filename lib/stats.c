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
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/estimate.h"
#include "kifu/game.h"
#include "stats_impl.h"

/* Plies of opening lines kept in stats_lines; deeper reports read the moves. */
#define LINE_DEPTH 6
/*
 * Distinct lines held in memory while refreshing before they are written
 * out (tests build with a small value, to go through the flushes).
 */
#ifndef KIFU_STATS_FLUSH_LINES
#define KIFU_STATS_FLUSH_LINES (1u << 19)
#endif
/* The parameter of the depth in lines_from_games: after any filter's. */
#define DEPTH_PARAM "100"
/* Sides a game may have here (stats_lines has w0..w3). */
#define MAX_SIDES 4
/* Games and variants of the registry. */
#define MAX_GV 64

/* The result of a game as the accumulators see it: a side index, or one of these. */
enum { RES_DRAW = -1, RES_UNFINISHED = -2, RES_UNKNOWN = -3 };

enum { T_OUTCOMES, T_LINES, T_PLAYERS };
static const char *const table_names[] = { "outcomes", "lines", "players" };

static const char *const kind_names[KIFU_STATS_KINDS] = {
	[KIFU_STATS_SUMMARY] = "summary",
	[KIFU_STATS_OPENINGS] = "openings",
	[KIFU_STATS_PLAYERS] = "players",
	[KIFU_STATS_LENGTHS] = "lengths",
	[KIFU_STATS_TREE] = "tree",
};

/* A game and variant: reports have one group of rows per pair, in registry order. */
struct gv {
	const struct kifu_game *g;
	int v;
};

struct ctx {
	struct kifu_store *st;
	sqlite3 *db;
	struct kifu_error *err;
	struct gv gv[MAX_GV];
	int ngv;
	int last_gv;  /* the pair found last: rows come in runs of one pair */
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
	c->db = kifu_store_db(st);
	c->err = err;
	for (k = 0; kifu_games[k]; k++)
		for (v = 0; kifu_games[k]->variants[v] && c->ngv < MAX_GV; v++) {
			c->gv[c->ngv].g = kifu_games[k];
			c->gv[c->ngv++].v = v;
		}
}

/* The index of game and variant (by name), or -1 for a pair the registry does not know. */
static int gv_find(struct ctx *c, const char *game, const char *variant)
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

static int classify(const struct kifu_game *g, const char *result)
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

static const char *col_text(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);

	return t ? t : "";
}

/* The database's last error, in the store's words: "database 'PATH': what: why". */
static int fail_db(struct ctx *c, const char *what)
{
	int rc = sqlite3_errcode(c->db);
	const char *path = kifu_store_path(c->st);

	kifu_error_at(c->err, path, 0, 0);
	return kifu_error_set(c->err, rc == SQLITE_NOMEM ? KIFU_ENOMEM : KIFU_EDB,
			      "database '%s': %s: %s", path, what, sqlite3_errmsg(c->db));
}

static int nomem(struct ctx *c)
{
	return kifu_error_set(c->err, KIFU_ENOMEM, "out of memory");
}

/* Errors after which a report is computed from the games instead of the tables. */
static int cannot_write(struct ctx *c)
{
	int rc = sqlite3_errcode(c->db);

	return rc == SQLITE_READONLY || rc == SQLITE_BUSY || rc == SQLITE_LOCKED ||
	       rc == SQLITE_PERM || rc == SQLITE_CANTOPEN || rc == SQLITE_FULL ||
	       rc == SQLITE_IOERR;
}

static int prepare(struct ctx *c, sqlite3_stmt **s, const char *sql, const char *what)
{
	if (sqlite3_prepare_v2(c->db, sql, -1, s, NULL) != SQLITE_OK) {
		*s = NULL;
		return fail_db(c, what);
	}
	return 0;
}

/* ---- Where a query's games come from ---- */

/*
 * A condition on the games table (alias g): either the filter (its
 * parameters numbered from 1) or an id range (?1 < id <= ?2), for
 * bringing tables up to date. *nparams receives the parameters used.
 */
struct source {
	const struct kifu_filter *f;  /* when not ranged */
	int ranged;
	int64_t after, upto;
};

static int source_sql(struct kifu_buf *sql, const struct source *src, int *nparams,
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

static int source_bind(sqlite3_stmt *s, const struct source *src, struct ctx *c)
{
	if (src->ranged) {
		sqlite3_bind_int64(s, 1, src->after);
		sqlite3_bind_int64(s, 2, src->upto);
		return 0;
	}
	return kifu_filter_bind(s, 1, src->f, c->err) < 0 ? KIFU_EDB : 0;
}

/*
 * The fast-path condition on a stats table: game, variant and, where the
 * table has it, termination, as fixed SQL with parameters from `first`.
 */
static void table_where(struct kifu_buf *sql, const struct kifu_filter *f, int with_termination,
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

static void table_bind(sqlite3_stmt *s, const struct kifu_filter *f, int with_termination, int first)
{
	int n = 0;

	if (f && f->game)
		sqlite3_bind_text(s, first + n++, f->game, -1, SQLITE_TRANSIENT);
	if (f && f->variant)
		sqlite3_bind_text(s, first + n++, f->variant, -1, SQLITE_TRANSIENT);
	if (with_termination && f && f->termination)
		sqlite3_bind_text(s, first + n++, f->termination, -1, SQLITE_TRANSIENT);
}

/* ---- Keeping the tables up to date ---- */

static int query_int64(struct ctx *c, const char *sql, int64_t *out, int *found)
{
	sqlite3_stmt *s = NULL;
	int ret, rc;

	ret = prepare(c, &s, sql, "cannot read the statistics state");
	if (ret < 0)
		return ret;
	rc = sqlite3_step(s);
	*found = rc == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL;
	*out = *found ? sqlite3_column_int64(s, 0) : 0;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = fail_db(c, "cannot read the statistics state");
	sqlite3_finalize(s);
	return ret;
}

/*
 * The newest game id (*top, 0 without games) and the last one table t
 * counts (*last; -1 when t has no state, or one of another depth).
 */
static int state_get(struct ctx *c, int t, int64_t *top, int64_t *last)
{
	sqlite3_stmt *s = NULL;
	int found, ret, rc;

	*last = -1;
	ret = query_int64(c, "SELECT max(id) FROM games", top, &found);
	if (ret < 0)
		return ret;
	ret = prepare(c, &s, "SELECT last_id, depth FROM stats_state WHERE name = ?1",
		      "cannot read the statistics state");
	if (ret < 0)
		return ret;
	sqlite3_bind_text(s, 1, table_names[t], -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && (t != T_LINES || sqlite3_column_int(s, 1) == LINE_DEPTH))
		*last = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = fail_db(c, "cannot read the statistics state");
	sqlite3_finalize(s);
	return ret;
}

/* Whether table t counts exactly the games stored now. */
static int is_fresh(struct ctx *c, int t, int *fresh)
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
static int write_begin(struct ctx *c, int *own)
{
	*own = 0;
	/* Opened read-only (a file or a directory the user cannot write): compute. */
	if (kifu_store_readonly(c->st))
		return 1;
	if (!sqlite3_get_autocommit(c->db))
		return 0;
	if (kifu_store_begin(c->st, c->err) < 0) {
		if (cannot_write(c)) {
			kifu_error_clear(c->err);
			return 1;
		}
		return c->err ? c->err->code : KIFU_EDB;
	}
	*own = 1;
	return 0;
}

/* Ends a refresh: commits what write_begin started, or rolls it back after ret < 0 (or 1). */
static int write_end(struct ctx *c, int own, int ret)
{
	if (!own)
		return ret;
	if (ret != 0) {
		kifu_store_rollback(c->st);
		return ret;
	}
	ret = kifu_store_commit(c->st, c->err);
	if (ret < 0)
		kifu_store_rollback(c->st);
	return ret;
}

/*
 * Inside a write transaction: the range of games (*after, *upto] table t
 * lacks, after emptying t when it cannot be brought up to date by adding
 * (not incremental, no state, games deleted, another depth).
 */
static int refresh_range(struct ctx *c, int t, int64_t *after, int64_t *upto, int incremental)
{
	static const char *const clear[] = { "DELETE FROM stats_outcomes", "DELETE FROM stats_lines",
					     "DELETE FROM stats_players" };
	int ret = state_get(c, t, upto, after);

	if (ret < 0)
		return ret;
	if (incremental && *after >= 0 && *after <= *upto)
		return 0;
	*after = 0;
	if (sqlite3_exec(c->db, clear[t], NULL, NULL, NULL) != SQLITE_OK)
		return fail_db(c, "cannot empty a statistics table");
	return 0;
}

static int state_set(struct ctx *c, int t, int64_t upto)
{
	sqlite3_stmt *s = NULL;
	int ret;

	ret = prepare(c, &s, "INSERT OR REPLACE INTO stats_state(name, last_id, depth) "
			     "VALUES (?1, ?2, ?3)", "cannot write the statistics state");
	if (ret < 0)
		return ret;
	sqlite3_bind_text(s, 1, table_names[t], -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, upto);
	if (t == T_LINES)
		sqlite3_bind_int(s, 3, LINE_DEPTH);
	if (sqlite3_step(s) != SQLITE_DONE)
		ret = fail_db(c, "cannot write the statistics state");
	sqlite3_finalize(s);
	return ret;
}

/* ---- Outcomes: summary and lengths ---- */

struct plies_count {
	long plies;
	long long n;
};

struct outcome_acc {
	long long games, wins[MAX_SIDES], draws, unfinished, fm_wins;
	long double sum_plies;
	struct plies_count *h;
	size_t nh, cap;
};

static int outcome_add(struct outcome_acc *a, int first, int res, long plies, long long n)
{
	if (a->nh == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		struct plies_count *v = realloc(a->h, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		a->h = v;
		a->cap = cap;
	}
	a->h[a->nh].plies = plies;
	a->h[a->nh++].n = n;
	a->games += n;
	a->sum_plies += (long double)plies * n;
	if (res >= 0) {
		a->wins[res] += n;
		if (res == first)
			a->fm_wins += n;
	} else if (res == RES_DRAW) {
		a->draws += n;
	} else {
		a->unfinished += n;
	}
	return 0;
}

static int cmp_plies(const void *x, const void *y)
{
	const struct plies_count *a = x, *b = y;

	return (a->plies > b->plies) - (a->plies < b->plies);
}

/* Sorts the histogram by plies and merges equal lengths. */
static void outcome_sort(struct outcome_acc *a)
{
	size_t i, k = 0;

	if (!a->nh)
		return;
	qsort(a->h, a->nh, sizeof(*a->h), cmp_plies);
	for (i = 1; i < a->nh; i++) {
		if (a->h[i].plies == a->h[k].plies)
			a->h[k].n += a->h[i].n;
		else
			a->h[++k] = a->h[i];
	}
	a->nh = k + 1;
}

/* The length of the game of 1-based rank r in the sorted histogram. */
static long rank_plies(const struct outcome_acc *a, long long r)
{
	size_t i;

	for (i = 0; i < a->nh; i++) {
		if (r <= a->h[i].n)
			return a->h[i].plies;
		r -= a->h[i].n;
	}
	return a->nh ? a->h[a->nh - 1].plies : 0;
}

static double median_plies(const struct outcome_acc *a)
{
	if (a->games % 2)
		return (double)rank_plies(a, a->games / 2 + 1);
	return (rank_plies(a, a->games / 2) + rank_plies(a, a->games / 2 + 1)) / 2.0;
}

/*
 * Reads outcome tuples (game, variant, first, result, plies, count) into
 * acc[], one accumulator per game and variant.
 */
static int outcome_read(struct ctx *c, sqlite3_stmt *s, struct outcome_acc *acc)
{
	int rc, ret = 0;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int k = gv_find(c, col_text(s, 0), col_text(s, 1));
		const struct kifu_game *g;
		int first, res;

		if (k < 0)
			continue;
		g = c->gv[k].g;
		first = kifu_game_side_index(g, col_text(s, 2));
		res = classify(g, col_text(s, 3));
		if (res == RES_UNKNOWN)
			continue;
		if (outcome_add(&acc[k], first, res, (long)sqlite3_column_int64(s, 4),
				sqlite3_column_int64(s, 5)) < 0)
			return nomem(c);
	}
	if (rc != SQLITE_DONE)
		ret = fail_db(c, "cannot read games");
	return ret;
}

static int outcomes_refresh(struct ctx *c)
{
	sqlite3_stmt *s = NULL;
	int64_t after, upto;
	int ret;

	ret = refresh_range(c, T_OUTCOMES, &after, &upto, 1);
	if (ret < 0)
		return ret;
	ret = prepare(c, &s,
		      "INSERT INTO stats_outcomes(game, variant, first, result, termination, plies, "
		      "games) SELECT game, variant, first, result, coalesce(termination, ''), plies, "
		      "count(*) FROM games WHERE id > ?1 AND id <= ?2 GROUP BY 1, 2, 3, 4, 5, 6 "
		      "ON CONFLICT DO UPDATE SET games = games + excluded.games",
		      "cannot update the statistics");
	if (ret < 0)
		return ret;
	sqlite3_bind_int64(s, 1, after);
	sqlite3_bind_int64(s, 2, upto);
	if (sqlite3_step(s) != SQLITE_DONE)
		ret = fail_db(c, "cannot update the statistics");
	sqlite3_finalize(s);
	if (ret == 0)
		ret = state_set(c, T_OUTCOMES, upto);
	return ret;
}

static int lines_refresh(struct ctx *c);

/*
 * Brings table t (outcomes or lines) up to date with the games. Returns 0,
 * 1 when the report must be computed from the games instead (the database
 * cannot be written now), or an error.
 */
static int ensure_fresh(struct ctx *c, int t)
{
	int fresh, own, ret;

	ret = is_fresh(c, t, &fresh);
	if (ret < 0 || fresh)
		return ret;
	ret = write_begin(c, &own);
	if (ret != 0)
		return ret;
	ret = t == T_OUTCOMES ? outcomes_refresh(c) : lines_refresh(c);
	if (ret < 0 && cannot_write(c)) {
		kifu_error_clear(c->err);
		ret = 1;
	}
	return write_end(c, own, ret);
}

/* Whether f only names what stats tables hold (game, variant, and termination when allowed). */
static int table_filter(const struct kifu_filter *f, int termination_ok)
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

static int outcomes_collect(struct ctx *c, const struct kifu_filter *f, unsigned flags,
			    struct outcome_acc *acc)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct source src = { f, 0, 0, 0 };
	sqlite3_stmt *s = NULL;
	int ret = 1, n, fast;

	if (!(flags & KIFU_STATS_NO_CACHE) && table_filter(f, 1))
		ret = ensure_fresh(c, T_OUTCOMES);
	if (ret < 0)
		goto out;
	fast = ret == 0;
	if (fast) {
		kifu_buf_puts(&sql, "SELECT game, variant, first, result, plies, games "
				    "FROM stats_outcomes WHERE 1");
		table_where(&sql, f, 1, 1, &n);
	} else {
		kifu_buf_puts(&sql, "SELECT g.game, g.variant, g.first, g.result, g.plies, count(*) "
				    "FROM games g WHERE ");
		ret = source_sql(&sql, &src, &n, c);
		if (ret < 0)
			goto out;
		kifu_buf_puts(&sql, " GROUP BY 1, 2, 3, 4, 5");
	}
	if (sql.failed) {
		ret = nomem(c);
		goto out;
	}
	ret = prepare(c, &s, sql.data, "cannot read games");
	if (ret < 0)
		goto out;
	if (fast)
		table_bind(s, f, 1, 1);
	else if ((ret = source_bind(s, &src, c)) < 0)
		goto out;
	ret = outcome_read(c, s, acc);
out:
	sqlite3_finalize(s);
	kifu_buf_release(&sql);
	return ret;
}

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

static void put_game(struct kifu_report *rep, long row, const struct gv *gv)
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

static int build_summary(struct kifu_report *rep, struct ctx *c, struct outcome_acc *acc)
{
	int k;

	for (k = 0; k < c->ngv; k++) {
		struct outcome_acc *a = &acc[k];
		const struct kifu_game *g = c->gv[k].g;
		long long finished = a->games - a->unfinished;
		long row;

		if (!a->games)
			continue;
		outcome_sort(a);
		row = report_row(rep);
		put_game(rep, row, &c->gv[k]);
		report_set_int(rep, row, report_col(rep, "games", 0, 0), a->games);
		stats_put_wins(rep, row, g, a->wins, a->draws);
		report_set_int(rep, row, report_col(rep, "unfinished", 0, 0), a->unfinished);
		if (finished > 0)
			report_set_real(rep, row, report_col(rep, "draw_rate", 0, 3),
					(double)a->draws / (double)finished);
		else
			report_set_null(rep, row, report_col(rep, "draw_rate", 0, 3));
		stats_put_score(rep, row, "first_mover_score", 1,
			  (double)a->fm_wins + (double)a->draws / g->nsides, finished);
		report_set_real(rep, row, report_col(rep, "mean_plies", 0, 1),
				(double)(a->sum_plies / a->games));
		report_set_real(rep, row, report_col(rep, "median_plies", 0, 1), median_plies(a));
	}
	return report_failed(rep) ? KIFU_ENOMEM : 0;
}

static int build_lengths(struct kifu_report *rep, struct ctx *c, struct outcome_acc *acc)
{
	size_t i;
	int k;

	for (k = 0; k < c->ngv; k++) {
		struct outcome_acc *a = &acc[k];

		outcome_sort(a);
		for (i = 0; i < a->nh; i++) {
			long row = report_row(rep);

			put_game(rep, row, &c->gv[k]);
			report_set_int(rep, row, report_col(rep, "plies", 0, 0), a->h[i].plies);
			report_set_int(rep, row, report_col(rep, "games", 0, 0), a->h[i].n);
		}
	}
	return report_failed(rep) ? KIFU_ENOMEM : 0;
}

/* ---- Openings ---- */

/* Hashing of keys: FNV-1a, then splitmix64's finaliser. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One opening line of one first side, with the games that played it. */
struct oline {
	uint64_t hash;     /* the position after the line */
	uint64_t key;      /* hash of gv, first, repeat, line */
	size_t line;       /* offset of the line (moves joined by ',') in the pool */
	size_t len;
	int gv, first, repeat, plies;
	long long games, w[MAX_SIDES], draws, unfinished;
};

struct olines {
	struct oline *v;
	size_t n, cap;
	size_t *slot;      /* open addressing: index + 1, 0 when empty */
	size_t nslot;
	struct kifu_buf pool;
};

static void olines_release(struct olines *o)
{
	free(o->v);
	free(o->slot);
	kifu_buf_release(&o->pool);
	memset(o, 0, sizeof(*o));
}

static void olines_reset(struct olines *o)
{
	o->n = 0;
	if (o->slot)
		memset(o->slot, 0, o->nslot * sizeof(*o->slot));
	kifu_buf_reset(&o->pool);
}

static const char *oline_text(const struct olines *o, const struct oline *e)
{
	return o->pool.data + e->line;
}

static uint64_t oline_key(int gv, int first, int repeat, const char *line, size_t len)
{
	int head[3] = { gv, first, repeat };

	return mix64(fnv(fnv(0xcbf29ce484222325ULL, head, sizeof(head)), line, len));
}

static int olines_grow_slots(struct olines *o)
{
	size_t nslot = o->nslot ? o->nslot * 2 : 1024, i;
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return KIFU_ENOMEM;
	for (i = 0; i < o->n; i++) {
		size_t k = (size_t)o->v[i].key & (nslot - 1);

		while (slot[k])
			k = (k + 1) & (nslot - 1);
		slot[k] = i + 1;
	}
	free(o->slot);
	o->slot = slot;
	o->nslot = nslot;
	return 0;
}

/* A new entry at the end (its counts zero); NULL when out of memory. */
static struct oline *olines_push(struct olines *o, int gv, int first, int repeat, int plies,
				 const char *line, size_t len, uint64_t hash)
{
	struct oline *e;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct oline *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		o->v = v;
		o->cap = cap;
	}
	e = &o->v[o->n];
	memset(e, 0, sizeof(*e));
	e->line = o->pool.len;
	e->len = len;
	kifu_buf_add(&o->pool, line, len);
	kifu_buf_putc(&o->pool, '\0');
	if (o->pool.failed)
		return NULL;
	e->gv = gv;
	e->first = first;
	e->repeat = repeat;
	e->plies = plies;
	e->hash = hash;
	e->key = oline_key(gv, first, repeat, line, len);
	o->n++;
	return e;
}

/* The entry of (gv, first, repeat, line), added when new; NULL when out of memory. */
static struct oline *olines_get(struct olines *o, int gv, int first, int repeat, int plies,
				const char *line, size_t len, uint64_t hash)
{
	uint64_t key = oline_key(gv, first, repeat, line, len);
	struct oline *e;
	size_t k;

	if ((o->n + 1) * 2 > o->nslot && olines_grow_slots(o) < 0)
		return NULL;
	for (k = (size_t)key & (o->nslot - 1); o->slot[k]; k = (k + 1) & (o->nslot - 1)) {
		e = &o->v[o->slot[k] - 1];
		if (e->key == key && e->gv == gv && e->first == first && e->repeat == repeat &&
		    e->len == len && !memcmp(oline_text(o, e), line, len))
			return e;
	}
	e = olines_push(o, gv, first, repeat, plies, line, len, hash);
	if (e)
		o->slot[k] = o->n;
	return e;
}

static void oline_count(struct oline *e, int res, long long n)
{
	e->games += n;
	if (res >= 0)
		e->w[res] += n;
	else if (res == RES_DRAW)
		e->draws += n;
	else
		e->unfinished += n;
}

/* One game's opening as its rows arrive: moves joined by ',', and the hashes. */
struct game_line {
	int64_t id;
	int gv, first, res;
	int n;             /* plies gathered */
	int ok;            /* the plies came as 1, 2, ... */
	struct kifu_buf line;
	size_t *ends;      /* ends[k]: length of the line of k + 1 plies */
	uint64_t *hashes;  /* hashes[k]: position after ply k + 1 */
};

/* Adds the lines of 1..n plies of the game gathered in gl. */
static int game_line_emit(struct olines *o, struct game_line *gl)
{
	int k, j;

	if (gl->gv < 0 || gl->res == RES_UNKNOWN)
		return 0;
	for (k = 0; k < gl->n; k++) {
		struct oline *e;
		int repeat = 0;

		for (j = 0; j < k && !repeat; j++)
			repeat = gl->hashes[j] == gl->hashes[k];
		e = olines_get(o, gl->gv, gl->first, repeat, k + 1, gl->line.data, gl->ends[k],
			       gl->hashes[k]);
		if (!e)
			return KIFU_ENOMEM;
		oline_count(e, gl->res, 1);
	}
	return 0;
}

/* ---- Writing and reading stats_lines ---- */

/* An entry as stats_lines orders its primary key: plies, game, variant, line, first, repeat. */
struct line_item {
	const char *game, *variant, *line, *first;
	int plies, repeat;
	const struct oline *e;
};

static int cmp_line_item(const void *x, const void *y)
{
	const struct line_item *a = x, *b = y;
	int r;

	if (a->plies != b->plies)
		return a->plies < b->plies ? -1 : 1;
	if ((r = strcmp(a->game, b->game)) != 0 || (r = strcmp(a->variant, b->variant)) != 0 ||
	    (r = strcmp(a->line, b->line)) != 0 || (r = strcmp(a->first, b->first)) != 0)
		return r;
	return (a->repeat > b->repeat) - (a->repeat < b->repeat);
}

/*
 * Adds the entries of o to stats_lines, in key order so that the writes
 * walk the B-tree once instead of jumping about.
 */
static int lines_flush(struct ctx *c, const struct olines *o)
{
	struct line_item *items = NULL;
	sqlite3_stmt *s = NULL;
	size_t i;
	int ret = 0, k;

	if (!o->n)
		return 0;
	items = malloc(o->n * sizeof(*items));
	if (!items)
		return nomem(c);
	for (i = 0; i < o->n; i++) {
		const struct oline *e = &o->v[i];
		const struct gv *gv = &c->gv[e->gv];

		items[i].game = gv->g->name;
		items[i].variant = gv->g->variants[gv->v];
		items[i].line = oline_text(o, e);
		items[i].first = gv->g->sides[e->first];
		items[i].plies = e->plies;
		items[i].repeat = e->repeat;
		items[i].e = e;
	}
	qsort(items, o->n, sizeof(*items), cmp_line_item);
	ret = prepare(c, &s,
		      "INSERT INTO stats_lines(plies, game, variant, line, first, repeat, hash, games, "
		      "w0, w1, w2, w3, draws, unfinished) "
		      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) "
		      "ON CONFLICT DO UPDATE SET games = games + excluded.games, "
		      "w0 = w0 + excluded.w0, w1 = w1 + excluded.w1, w2 = w2 + excluded.w2, "
		      "w3 = w3 + excluded.w3, draws = draws + excluded.draws, "
		      "unfinished = unfinished + excluded.unfinished",
		      "cannot update the statistics");
	for (i = 0; ret == 0 && i < o->n; i++) {
		const struct oline *e = items[i].e;

		sqlite3_bind_int(s, 1, e->plies);
		sqlite3_bind_text(s, 2, items[i].game, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, items[i].variant, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, items[i].line, (int)e->len, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, items[i].first, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 6, e->repeat);
		sqlite3_bind_int64(s, 7, (sqlite3_int64)e->hash);
		sqlite3_bind_int64(s, 8, e->games);
		for (k = 0; k < MAX_SIDES; k++)
			sqlite3_bind_int64(s, 9 + k, e->w[k]);
		sqlite3_bind_int64(s, 13, e->draws);
		sqlite3_bind_int64(s, 14, e->unfinished);
		if (sqlite3_step(s) != SQLITE_DONE)
			ret = fail_db(c, "cannot update the statistics");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	free(items);
	return ret;
}

/*
 * Gathers the lines of 1..depth plies of every game src selects, from
 * the moves and positions. With flush, the entries go to stats_lines
 * whenever they grow past KIFU_STATS_FLUSH_LINES (between games), so
 * that memory stays bounded on any number of games.
 */
static int lines_from_games(struct ctx *c, const struct source *src, int depth,
			    struct olines *o, int flush)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct game_line gl;
	sqlite3_stmt *s = NULL;
	int ret, rc, n;

	memset(&gl, 0, sizeof(gl));
	gl.id = -1;
	gl.ends = malloc((size_t)depth * sizeof(*gl.ends));
	gl.hashes = malloc((size_t)depth * sizeof(*gl.hashes));
	if (!gl.ends || !gl.hashes) {
		ret = nomem(c);
		goto out;
	}
	/*
	 * Schema 4: plies 1..depth taken out of each game's packed row (SQLite
	 * parses each JSON value once per game); older schemas: one row of
	 * moves and of positions per ply. CROSS JOIN keeps this order of loops.
	 */
	if (kifu_store_version(c->st) >= 4)
		kifu_buf_puts(&sql, "WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM d "
				    "WHERE n < ?" DEPTH_PARAM ") SELECT g.id, g.game, g.variant, g.first, g.result, "
				    "d.n, json_extract(m.moves, '$[' || (d.n - 1) || ']'), "
				    "json_extract(m.hashes, '$[' || d.n || ']') FROM games g "
				    "CROSS JOIN game_moves m CROSS JOIN d WHERE ");
	else
		kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.first, g.result, m.ply, m.move, "
				    "p.hash FROM games g CROSS JOIN moves m CROSS JOIN positions p "
				    "WHERE ");
	ret = source_sql(&sql, src, &n, c);
	if (ret < 0)
		goto out;
	if (kifu_store_version(c->st) >= 4)
		kifu_buf_puts(&sql, " AND m.game_id = g.id AND d.n <= g.plies ORDER BY g.id, d.n");
	else
		kifu_buf_puts(&sql, " AND m.game_id = g.id AND m.ply BETWEEN 1 AND ?" DEPTH_PARAM " "
				    "AND p.game_id = g.id AND p.ply = m.ply ORDER BY g.id, m.ply");
	if (sql.failed) {
		ret = nomem(c);
		goto out;
	}
	ret = prepare(c, &s, sql.data, "cannot read games");
	if (ret < 0)
		goto out;
	ret = source_bind(s, src, c);
	if (ret < 0)
		goto out;
	sqlite3_bind_int(s, atoi(DEPTH_PARAM), depth);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		long ply = (long)sqlite3_column_int64(s, 5);
		const char *move = col_text(s, 6);

		if (id != gl.id) {
			if (gl.id >= 0 && (ret = game_line_emit(o, &gl)) < 0)
				break;
			if (flush && o->n >= KIFU_STATS_FLUSH_LINES) {
				ret = lines_flush(c, o);
				if (ret < 0)
					break;
				olines_reset(o);
			}
			gl.id = id;
			gl.gv = gv_find(c, col_text(s, 1), col_text(s, 2));
			gl.first = -1;
			gl.res = RES_UNKNOWN;
			if (gl.gv >= 0) {
				const struct kifu_game *g = c->gv[gl.gv].g;

				gl.first = kifu_game_side_index(g, col_text(s, 3));
				gl.res = gl.first >= 0 ? classify(g, col_text(s, 4)) : RES_UNKNOWN;
			}
			gl.n = 0;
			gl.ok = 1;
			kifu_buf_reset(&gl.line);
		}
		/* A gap in the plies would make wrong lines: keep the lines before it. */
		if (!gl.ok || ply != gl.n + 1 || gl.n >= depth) {
			gl.ok = 0;
			continue;
		}
		if (gl.n)
			kifu_buf_putc(&gl.line, ',');
		kifu_buf_puts(&gl.line, move);
		if (gl.line.failed) {
			ret = nomem(c);
			break;
		}
		gl.ends[gl.n] = gl.line.len;
		gl.hashes[gl.n] = (uint64_t)sqlite3_column_int64(s, 7);
		gl.n++;
	}
	if (ret == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = fail_db(c, "cannot read games");
	if (ret == 0 && gl.id >= 0)
		ret = game_line_emit(o, &gl);
	if (ret == KIFU_ENOMEM)
		ret = nomem(c);
out:
	sqlite3_finalize(s);
	kifu_buf_release(&sql);
	kifu_buf_release(&gl.line);
	free(gl.ends);
	free(gl.hashes);
	return ret;
}

static int lines_refresh(struct ctx *c)
{
	struct olines o;
	struct source src = { NULL, 1, 0, 0 };
	int ret;

	memset(&o, 0, sizeof(o));
	ret = refresh_range(c, T_LINES, &src.after, &src.upto, 1);
	if (ret == 0)
		ret = lines_from_games(c, &src, LINE_DEPTH, &o, 1);
	if (ret == 0)
		ret = lines_flush(c, &o);
	if (ret == 0)
		ret = state_set(c, T_LINES, src.upto);
	olines_release(&o);
	return ret;
}

/* Reads the lines of 1..depth plies kept in stats_lines (with by_position, first arrivals only). */
static int lines_from_table(struct ctx *c, const struct kifu_filter *f, int depth,
			    int by_position, struct olines *o)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	sqlite3_stmt *s = NULL;
	int ret, rc, n, k;

	kifu_buf_puts(&sql, "SELECT game, variant, plies, line, first, repeat, hash, games, "
			    "w0, w1, w2, w3, draws, unfinished FROM stats_lines WHERE plies <= ?1");
	if (by_position)
		kifu_buf_puts(&sql, " AND repeat = 0");
	table_where(&sql, f, 0, 2, &n);
	if (sql.failed) {
		ret = nomem(c);
		goto out;
	}
	ret = prepare(c, &s, sql.data, "cannot read the statistics");
	if (ret < 0)
		goto out;
	sqlite3_bind_int(s, 1, depth);
	table_bind(s, f, 0, 2);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int gv = gv_find(c, col_text(s, 0), col_text(s, 1)), first;
		const char *line = col_text(s, 3);
		struct oline *e;

		if (gv < 0)
			continue;
		first = kifu_game_side_index(c->gv[gv].g, col_text(s, 4));
		if (first < 0)
			continue;
		e = olines_push(o, gv, first, sqlite3_column_int(s, 5), sqlite3_column_int(s, 2),
				line, strlen(line), (uint64_t)sqlite3_column_int64(s, 6));
		if (!e) {
			ret = nomem(c);
			break;
		}
		e->games = sqlite3_column_int64(s, 7);
		for (k = 0; k < MAX_SIDES; k++)
			e->w[k] = sqlite3_column_int64(s, 8 + k);
		e->draws = sqlite3_column_int64(s, 12);
		e->unfinished = sqlite3_column_int64(s, 13);
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = fail_db(c, "cannot read the statistics");
out:
	sqlite3_finalize(s);
	kifu_buf_release(&sql);
	return ret;
}

/* ---- The openings report ---- */

/* One row of the report: a line, or a position and the line that labels it. */
struct orow {
	int gv, plies;
	const char *line;
	uint64_t hash;
	long long games, w[MAX_SIDES], draws, unfinished, fm_wins;
};

/* An entry while grouping: what the groups are made by. */
struct group_item {
	int gv;
	uint64_t hash;
	const char *line;
	const struct oline *e;
};

static int cmp_by_line(const void *x, const void *y)
{
	const struct group_item *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	return strcmp(a->line, b->line);
}

static int cmp_by_hash(const void *x, const void *y)
{
	const struct group_item *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return strcmp(a->line, b->line);
}

/* Items of one row: the same line, or the same position. */
static int same_group(const struct group_item *a, const struct group_item *b, int by_position)
{
	if (a->gv != b->gv)
		return 0;
	return by_position ? a->hash == b->hash : !strcmp(a->line, b->line);
}

/* Items of one line within a row. */
static int same_line(const struct group_item *a, const struct group_item *b, int by_position)
{
	return a->gv == b->gv && !strcmp(a->line, b->line) && (!by_position || a->hash == b->hash);
}

static int cmp_orow(const void *x, const void *y)
{
	const struct orow *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	if (a->plies != b->plies)
		return a->plies < b->plies ? -1 : 1;
	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return strcmp(a->line, b->line);
}

static void orow_add(struct orow *r, const struct oline *e)
{
	int k;

	r->games += e->games;
	for (k = 0; k < MAX_SIDES; k++)
		r->w[k] += e->w[k];
	r->draws += e->draws;
	r->unfinished += e->unfinished;
	r->fm_wins += e->w[e->first];
}

/*
 * Groups the entries into rows: by line, or (by_position) by the
 * position reached, each labelled with the line that most of its games
 * took (ties: fewer plies, then the first line in byte order).
 */
static int group_lines(struct orow **rows, size_t *nrows, const struct olines *o, int by_position)
{
	struct group_item *items = malloc((o->n ? o->n : 1) * sizeof(*items));
	struct orow *v = calloc(o->n ? o->n : 1, sizeof(*v));
	size_t i, j, n = 0, nv = 0;

	if (!items || !v) {
		free(items);
		free(v);
		return KIFU_ENOMEM;
	}
	for (i = 0; i < o->n; i++) {
		if (by_position && o->v[i].repeat)
			continue;
		items[n].gv = o->v[i].gv;
		items[n].hash = o->v[i].hash;
		items[n].line = oline_text(o, &o->v[i]);
		items[n++].e = &o->v[i];
	}
	qsort(items, n, sizeof(*items), by_position ? cmp_by_hash : cmp_by_line);
	for (i = 0; i < n; i = j) {
		struct orow *r = &v[nv++];
		long long best = -1;
		size_t k;

		r->gv = items[i].gv;
		r->hash = items[i].hash;
		for (j = i; j < n && same_group(&items[i], &items[j], by_position); j = k) {
			long long games = 0;

			/* A run of one line (of several first sides, or repeats). */
			for (k = j; k < n && same_line(&items[j], &items[k], by_position); k++) {
				orow_add(r, items[k].e);
				games += items[k].e->games;
			}
			if (games > best || (games == best && items[j].e->plies < r->plies)) {
				best = games;
				r->line = items[j].line;
				r->plies = items[j].e->plies;
			}
		}
	}
	free(items);
	*rows = v;
	*nrows = nv;
	return 0;
}

static int build_openings(struct kifu_report *rep, struct ctx *c, const struct olines *o,
			  const struct kifu_stats_options *opt)
{
	struct kifu_buf text = KIFU_BUF_INIT;
	struct orow *rows = NULL;
	size_t nrows = 0, i, k;
	int ret;

	ret = group_lines(&rows, &nrows, o, opt->by_position);
	if (ret < 0)
		return nomem(c);
	qsort(rows, nrows, sizeof(*rows), cmp_orow);
	for (i = 0; i < nrows; i++) {
		const struct orow *r = &rows[i];
		const struct kifu_game *g = c->gv[r->gv].g;
		long long finished = r->games - r->unfinished;
		long row;

		if (r->games < opt->min_games)
			continue;
		row = report_row(rep);
		put_game(rep, row, &c->gv[r->gv]);
		kifu_buf_reset(&text);
		kifu_buf_puts(&text, r->line);
		for (k = 0; k < text.len; k++)
			if (text.data[k] == ',')
				text.data[k] = ' ';
		report_set_text(rep, row, report_col(rep, "line", 0, 0), text.data ? text.data : "");
		report_set_list(rep, row, report_col(rep, "moves", KIFU_COLUMN_JSON_ONLY, 0), r->line,
				',');
		report_set_int(rep, row, report_col(rep, "plies", 0, 0), r->plies);
		report_set_int(rep, row, report_col(rep, "games", 0, 0), r->games);
		stats_put_wins(rep, row, g, r->w, r->draws);
		report_set_int(rep, row, report_col(rep, "unfinished", 0, 0), r->unfinished);
		stats_put_score(rep, row, "first_mover_score", 1,
			  (double)r->fm_wins + (double)r->draws / g->nsides, finished);
		if (opt->by_position) {
			char hex[17];

			snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)r->hash);
			report_set_text(rep, row, report_col(rep, "hash", 0, 0), hex);
		}
	}
	free(rows);
	ret = report_failed(rep) || text.failed ? nomem(c) : 0;
	kifu_buf_release(&text);
	return ret;
}

static int openings_report(struct kifu_report *rep, struct ctx *c, const struct kifu_filter *f,
			   const struct kifu_stats_options *opt)
{
	struct olines o;
	struct source src = { f, 0, 0, 0 };
	int ret = 1;

	memset(&o, 0, sizeof(o));
	if (!(opt->flags & KIFU_STATS_NO_CACHE) && opt->depth <= LINE_DEPTH && table_filter(f, 0))
		ret = ensure_fresh(c, T_LINES);
	if (ret == 0)
		ret = lines_from_table(c, f, opt->depth, opt->by_position, &o);
	else if (ret == 1)
		ret = lines_from_games(c, &src, opt->depth, &o, 0);
	if (ret == 0)
		ret = build_openings(rep, c, &o, opt);
	olines_release(&o);
	return ret;
}

/* ---- Players ---- */

struct pl {
	int64_t pid;
	long long games, wins, draws, losses, unfinished;
	double draw_points;
	double rating;
	int rated;
	const char *name;   /* in the report being built */
};

struct pmap {
	struct pl *v;
	size_t n, cap;
	size_t *slot;       /* index + 1; 0 when empty */
	size_t nslot;
	struct kifu_pairing *pairs;
	size_t npairs, cap_pairs;
};

static void pmap_release(struct pmap *m)
{
	free(m->v);
	free(m->slot);
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}

/* The index of player pid in m, added when new; -1 when out of memory. */
static long pmap_get(struct pmap *m, int64_t pid)
{
	size_t k;

	if ((m->n + 1) * 2 > m->nslot) {
		size_t nslot = m->nslot ? m->nslot * 2 : 1024, i;
		size_t *slot = calloc(nslot, sizeof(*slot));

		if (!slot)
			return -1;
		for (i = 0; i < m->n; i++) {
			k = (size_t)mix64((uint64_t)m->v[i].pid) & (nslot - 1);
			while (slot[k])
				k = (k + 1) & (nslot - 1);
			slot[k] = i + 1;
		}
		free(m->slot);
		m->slot = slot;
		m->nslot = nslot;
	}
	for (k = (size_t)mix64((uint64_t)pid) & (m->nslot - 1); m->slot[k];
	     k = (k + 1) & (m->nslot - 1))
		if (m->v[m->slot[k] - 1].pid == pid)
			return (long)(m->slot[k] - 1);
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		struct pl *v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return -1;
		m->v = v;
		m->cap = cap;
	}
	memset(&m->v[m->n], 0, sizeof(m->v[m->n]));
	m->v[m->n].pid = pid;
	m->slot[k] = m->n + 1;
	return (long)m->n++;
}

static int pmap_pair(struct pmap *m, size_t a, size_t b, double score_a)
{
	if (m->npairs == m->cap_pairs) {
		size_t cap = m->cap_pairs ? m->cap_pairs * 2 : 1024;
		struct kifu_pairing *v = realloc(m->pairs, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		m->pairs = v;
		m->cap_pairs = cap;
	}
	m->pairs[m->npairs].a = a;
	m->pairs[m->npairs].b = b;
	m->pairs[m->npairs++].score_a = score_a;
	return 0;
}

/* One game's sides as they arrive. */
struct game_sides {
	int64_t id;
	const struct kifu_game *g;
	int res;
	int n;
	int ok;
	int64_t pid[MAX_SIDES];
};

/*
 * Counts a game for its players: only when every side names a player and
 * no player holds two sides (a game with an unknown player says nothing
 * about who plays better, and a player cannot be rated against itself).
 */
static int game_sides_count(struct pmap *m, const struct game_sides *gs)
{
	long idx[MAX_SIDES];
	int i, j, ns;

	if (!gs->g || !gs->ok || gs->res == RES_UNKNOWN || gs->n != gs->g->nsides)
		return 0;
	ns = gs->n;
	for (i = 0; i < ns; i++)
		for (j = 0; j < i; j++)
			if (gs->pid[i] == gs->pid[j])
				return 0;
	for (i = 0; i < ns; i++) {
		struct pl *p;

		idx[i] = pmap_get(m, gs->pid[i]);
		if (idx[i] < 0)
			return KIFU_ENOMEM;
		p = &m->v[idx[i]];
		p->games++;
		if (gs->res == RES_UNFINISHED) {
			p->unfinished++;
		} else if (gs->res == RES_DRAW) {
			p->draws++;
			p->draw_points += 1.0 / ns;
		} else if (gs->res == i) {
			p->wins++;
		} else {
			p->losses++;
		}
	}
	if (gs->res == RES_DRAW) {
		for (i = 0; i < ns; i++)
			for (j = i + 1; j < ns; j++)
				if (pmap_pair(m, (size_t)idx[i], (size_t)idx[j], 0.5) < 0)
					return KIFU_ENOMEM;
	} else if (gs->res >= 0) {
		for (j = 0; j < ns; j++)
			if (j != gs->res && pmap_pair(m, (size_t)idx[gs->res], (size_t)idx[j], 1) < 0)
				return KIFU_ENOMEM;
	}
	return 0;
}

/* Rates the players with a finished game (the others keep rated = 0). */
static int players_rate(struct ctx *c, struct pmap *m)
{
	size_t *dense = malloc((m->n ? m->n : 1) * sizeof(*dense));
	double *ratings = malloc((m->n ? m->n : 1) * sizeof(*ratings));
	size_t i, nrated = 0;
	int ret = 0;

	if (!dense || !ratings) {
		ret = nomem(c);
		goto out;
	}
	for (i = 0; i < m->n; i++) {
		struct pl *p = &m->v[i];

		dense[i] = nrated;
		if (p->wins + p->draws + p->losses > 0)
			nrated++;
	}
	for (i = 0; i < m->npairs; i++) {
		m->pairs[i].a = dense[m->pairs[i].a];
		m->pairs[i].b = dense[m->pairs[i].b];
	}
	ret = kifu_estimate_ratings(ratings, nrated, m->pairs, m->npairs, c->err);
	if (ret < 0)
		goto out;
	for (i = 0; i < m->n; i++) {
		struct pl *p = &m->v[i];

		p->rated = p->wins + p->draws + p->losses > 0;
		if (p->rated)
			p->rating = ratings[dense[i]];
	}
out:
	free(dense);
	free(ratings);
	return ret;
}

static int players_from_games(struct ctx *c, const struct source *src, struct pmap *m)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct game_sides gs;
	sqlite3_stmt *s = NULL;
	int ret, rc, n;

	memset(&gs, 0, sizeof(gs));
	gs.id = -1;
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.result, s.side_index, s.player_id "
			    "FROM games g CROSS JOIN sides s WHERE ");
	ret = source_sql(&sql, src, &n, c);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " AND s.game_id = g.id ORDER BY g.id, s.side_index");
	if (sql.failed) {
		ret = nomem(c);
		goto out;
	}
	ret = prepare(c, &s, sql.data, "cannot read games");
	if (ret < 0)
		goto out;
	ret = source_bind(s, src, c);
	if (ret < 0)
		goto out;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		int side = sqlite3_column_int(s, 3);

		if (id != gs.id) {
			if (gs.id >= 0 && (ret = game_sides_count(m, &gs)) < 0)
				break;
			gs.id = id;
			gs.g = kifu_game_find(col_text(s, 1));
			gs.res = gs.g ? classify(gs.g, col_text(s, 2)) : RES_UNKNOWN;
			gs.n = 0;
			gs.ok = 1;
		}
		if (gs.n >= MAX_SIDES || side != gs.n) {
			gs.ok = 0;
			continue;
		}
		gs.pid[gs.n++] = sqlite3_column_int64(s, 4);
	}
	if (ret == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = fail_db(c, "cannot read games");
	if (ret == 0 && gs.id >= 0)
		ret = game_sides_count(m, &gs);
	if (ret == KIFU_ENOMEM)
		ret = nomem(c);
	if (ret == 0)
		ret = players_rate(c, m);
out:
	sqlite3_finalize(s);
	kifu_buf_release(&sql);
	return ret;
}

static int players_write(struct ctx *c, const struct pmap *m)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int ret;

	ret = prepare(c, &s, "INSERT INTO stats_players(player_id, games, wins, draws, draw_points, "
			     "losses, unfinished, rating) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
		      "cannot update the statistics");
	for (i = 0; ret == 0 && i < m->n; i++) {
		const struct pl *p = &m->v[i];

		sqlite3_bind_int64(s, 1, p->pid);
		sqlite3_bind_int64(s, 2, p->games);
		sqlite3_bind_int64(s, 3, p->wins);
		sqlite3_bind_int64(s, 4, p->draws);
		sqlite3_bind_double(s, 5, p->draw_points);
		sqlite3_bind_int64(s, 6, p->losses);
		sqlite3_bind_int64(s, 7, p->unfinished);
		if (p->rated)
			sqlite3_bind_double(s, 8, p->rating);
		else
			sqlite3_bind_null(s, 8);
		if (sqlite3_step(s) != SQLITE_DONE)
			ret = fail_db(c, "cannot update the statistics");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return ret;
}

static int players_from_table(struct ctx *c, struct pmap *m)
{
	sqlite3_stmt *s = NULL;
	int ret, rc;

	ret = prepare(c, &s, "SELECT player_id, games, wins, draws, draw_points, losses, unfinished, "
			     "rating FROM stats_players", "cannot read the statistics");
	if (ret < 0)
		return ret;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		long k = pmap_get(m, sqlite3_column_int64(s, 0));
		struct pl *p;

		if (k < 0) {
			ret = nomem(c);
			break;
		}
		p = &m->v[k];
		p->games = sqlite3_column_int64(s, 1);
		p->wins = sqlite3_column_int64(s, 2);
		p->draws = sqlite3_column_int64(s, 3);
		p->draw_points = sqlite3_column_double(s, 4);
		p->losses = sqlite3_column_int64(s, 5);
		p->unfinished = sqlite3_column_int64(s, 6);
		p->rated = sqlite3_column_type(s, 7) != SQLITE_NULL;
		p->rating = p->rated ? sqlite3_column_double(s, 7) : 0;
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = fail_db(c, "cannot read the statistics");
	sqlite3_finalize(s);
	return ret;
}

/* Players: every game's, from stats_players kept up to date, else from the games. */
static int players_collect(struct ctx *c, const struct kifu_filter *f, unsigned flags,
			   struct pmap *m)
{
	struct source src = { f, 0, 0, 0 };
	int fresh, own = 0, computed = 0, ret;

	if ((flags & KIFU_STATS_NO_CACHE) ||
	    (f && (f->game || f->variant || f->player || f->event || f->since || f->until ||
		   f->termination)))
		return players_from_games(c, &src, m);
	ret = is_fresh(c, T_PLAYERS, &fresh);
	if (ret < 0)
		return ret;
	if (fresh)
		return players_from_table(c, m);
	ret = write_begin(c, &own);
	if (ret < 0)
		return ret;
	if (ret == 1)
		return players_from_games(c, &src, m);
	/* From here on a transaction of ours may be open: one way out. */
	src.ranged = 1;
	ret = refresh_range(c, T_PLAYERS, &src.after, &src.upto, 0);
	if (ret < 0 && cannot_write(c)) {
		/* Writable as far as BEGIN could tell, not for the first change (a full disk). */
		kifu_error_clear(c->err);
		write_end(c, own, 1);
		return players_from_games(c, &(struct source){ f, 0, 0, 0 }, m);
	}
	if (ret == 0)
		ret = players_from_games(c, &src, m);
	computed = ret == 0;
	if (ret == 0)
		ret = players_write(c, m);
	if (ret == 0)
		ret = state_set(c, T_PLAYERS, src.upto);
	if (ret < 0 && computed && cannot_write(c)) {
		/* The figures are complete; only keeping them failed. */
		kifu_error_clear(c->err);
		write_end(c, own, 1);
		own = 0;
		ret = 0;
	}
	return write_end(c, own, ret);
}

static int cmp_players(const void *x, const void *y)
{
	const struct pl *a = *(const struct pl *const *)x, *b = *(const struct pl *const *)y;
	int r;

	if (a->rated != b->rated)
		return a->rated ? -1 : 1;
	if (a->rated && a->rating != b->rating)
		return a->rating > b->rating ? -1 : 1;
	r = strcmp(a->name, b->name);
	if (r)
		return r;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int build_players(struct kifu_report *rep, struct ctx *c, struct pmap *m)
{
	struct pl **order = malloc((m->n ? m->n : 1) * sizeof(*order));
	sqlite3_stmt *s = NULL;
	size_t i;
	int ret;

	if (!order)
		return nomem(c);
	ret = prepare(c, &s, "SELECT name FROM players WHERE id = ?1", "cannot read players");
	for (i = 0; ret == 0 && i < m->n; i++) {
		struct pl *p = &m->v[i];

		sqlite3_bind_int64(s, 1, p->pid);
		if (sqlite3_step(s) == SQLITE_ROW)
			p->name = arena_strndup(&rep->strings, col_text(s, 0),
						strlen(col_text(s, 0)));
		else
			p->name = arena_strndup(&rep->strings, "", 0);
		if (!p->name)
			ret = nomem(c);
		sqlite3_reset(s);
		order[i] = p;
	}
	sqlite3_finalize(s);
	if (ret < 0)
		goto out;
	qsort(order, m->n, sizeof(*order), cmp_players);
	for (i = 0; i < m->n; i++) {
		const struct pl *p = order[i];
		long long finished = p->wins + p->draws + p->losses;
		long row = report_row(rep);

		report_set_text(rep, row, report_col(rep, "player", 0, 0), p->name);
		report_set_int(rep, row, report_col(rep, "games", 0, 0), p->games);
		report_set_int(rep, row, report_col(rep, "wins", 0, 0), p->wins);
		report_set_int(rep, row, report_col(rep, "draws", 0, 0), p->draws);
		report_set_int(rep, row, report_col(rep, "losses", 0, 0), p->losses);
		report_set_int(rep, row, report_col(rep, "unfinished", 0, 0), p->unfinished);
		stats_put_score(rep, row, "score", 0, (double)p->wins + p->draw_points, finished);
		if (p->rated)
			report_set_real(rep, row, report_col(rep, "rating", 0, 1), p->rating);
		else
			report_set_null(rep, row, report_col(rep, "rating", 0, 1));
	}
	if (report_failed(rep))
		ret = nomem(c);
out:
	free(order);
	return ret;
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
	struct outcome_acc *acc = NULL;
	struct pmap m;
	struct ctx c;
	int ret, k;

	*out = NULL;
	memset(&m, 0, sizeof(m));
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
	switch (kind) {
	case KIFU_STATS_SUMMARY:
	case KIFU_STATS_LENGTHS:
		acc = calloc((size_t)c.ngv, sizeof(*acc));
		if (!acc) {
			ret = nomem(&c);
			break;
		}
		ret = outcomes_collect(&c, f, opt->flags, acc);
		if (ret == 0)
			ret = kind == KIFU_STATS_SUMMARY ? build_summary(rep, &c, acc)
							 : build_lengths(rep, &c, acc);
		if (ret == KIFU_ENOMEM)
			ret = nomem(&c);
		break;
	case KIFU_STATS_OPENINGS:
		ret = openings_report(rep, &c, f, opt);
		break;
	case KIFU_STATS_PLAYERS:
		ret = players_collect(&c, f, opt->flags, &m);
		if (ret == 0)
			ret = build_players(rep, &c, &m);
		break;
	case KIFU_STATS_TREE:
		ret = stats_tree_report(rep, st, f, opt, err);
		break;
	}
	if (ret == 0 && kifu_report_nrows(rep) == 0 && kind != KIFU_STATS_TREE) {
		empty_columns(rep, kind, f, opt);
		if (report_failed(rep))
			ret = nomem(&c);
	}
	for (k = 0; acc && k < c.ngv; k++)
		free(acc[k].h);
	free(acc);
	pmap_release(&m);
	if (ret < 0) {
		kifu_report_free(rep);
		return ret;
	}
	*out = rep;
	return 0;
}

int kifu_stats_refresh(struct kifu_store *st, struct kifu_error *err)
{
	struct pmap m;
	struct ctx c;
	int ret;

	ctx_init(&c, st, err);
	memset(&m, 0, sizeof(m));
	ret = ensure_fresh(&c, T_OUTCOMES);
	if (ret >= 0)
		ret = ensure_fresh(&c, T_LINES);
	if (ret >= 0)
		ret = players_collect(&c, NULL, 0, &m);
	pmap_release(&m);
	return ret < 0 ? ret : 0;
}
