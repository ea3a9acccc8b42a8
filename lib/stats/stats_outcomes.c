/*
 * The summary and lengths reports of kifu-stats (stats.c has the whole
 * picture): an accumulator per game and variant counts games, wins, draws
 * and unfinished games and keeps a histogram of lengths, from the tuples
 * of stats_outcomes (kept up to date here) or of the games themselves;
 * the summary adds the first mover's score and the mean and median length,
 * the lengths report lists the histogram.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "stats/stats_impl.h"

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

/* Adds n games of a length and result; sums that do not fit in 64 bits are damage. */
static int outcome_add(struct outcome_acc *a, int first, int res, long plies, long long n,
		       struct kifu_store *st, struct kifu_error *err, const char *where)
{
	long long *count = res >= 0 ? &a->wins[res] : res == RES_DRAW ? &a->draws : &a->unfinished;
	int ret;

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
	ret = kifu_db_sum_(&a->games, n, st, err, "%s", where);
	if (ret == 0)
		ret = kifu_db_sum_(count, n, st, err, "%s", where);
	if (ret == 0 && res >= 0 && res == first)
		ret = kifu_db_sum_(&a->fm_wins, n, st, err, "%s", where);
	a->sum_plies += (long double)plies * n;
	return ret;
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
static int outcome_read(struct kifu_stats_ctx_ *c, struct kifu_stmt *s, struct outcome_acc *acc,
			const char *table, const char *count)
{
	int rc, ret = 0;

	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int k = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 0),
					    kifu_stats_col_text_(s, 1));
		const struct kifu_game *g;
		long long plies, n;
		char where[160];
		int first, res;

		if (k < 0)
			continue;
		g = c->gv[k].g;
		first = kifu_game_side_index(g, kifu_stats_col_text_(s, 2));
		res = kifu_stats_classify_(g, kifu_stats_col_text_(s, 3));
		if (res == RES_UNKNOWN)
			continue;
		if (kifu_db_column_whole_(&plies, s, 4, 0, KIFU_DB_PLIES_MAX, c->err,
					  "%s.plies of %s %s", table, g->name,
					  g->variants[c->gv[k].v]) < 0 ||
		    kifu_db_column_whole_(&n, s, 5, 1, KIFU_DB_COUNT_MAX, c->err,
					  "%s of %s %s games of %lld plies", count, g->name,
					  g->variants[c->gv[k].v], plies) < 0)
			return KIFU_EDB;
		snprintf(where, sizeof(where), "%s: the games of %s %s", table, g->name,
			 g->variants[c->gv[k].v]);
		ret = outcome_add(&acc[k], first, res, (long)plies, n, c->st, c->err, where);
		if (ret < 0)
			return ret == KIFU_ENOMEM ? kifu_stats_nomem_(c) : ret;
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read games");
	return ret;
}

/*
 * Adds the games stats_outcomes lacks (inside the refresh's write
 * transaction), each counted as the store counts the games it writes.
 */
static int outcomes_fill(struct kifu_stats_ctx_ *c)
{
	struct kifu_store_sums_ *sums = NULL;
	struct kifu_stmt *s = NULL;
	int64_t after, upto;
	int ret, rc;

	ret = kifu_stats_refresh_range_(c, T_OUTCOMES, &after, &upto, 1);
	if (ret < 0)
		return ret;
	if (kifu_store_sums_new_(&sums) < 0)
		return kifu_stats_nomem_(c);
	ret = kifu_stats_prepare_(c, &s, "SELECT game, variant, first, result, termination, plies, "
					 "id FROM games WHERE id > ?1 AND id <= ?2",
				  "cannot update the statistics");
	if (ret < 0)
		goto out;
	kifu_db_bind_int64_(s, 1, after);
	kifu_db_bind_int64_(s, 2, upto);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int k = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 0),
					    kifu_stats_col_text_(s, 1));
		struct kifu_store_sums_game_ x;
		long long plies;

		if (k < 0)
			continue; /* a game no report shows */
		memset(&x, 0, sizeof(x));
		x.g = c->gv[k].g;
		x.variant = c->gv[k].v;
		x.first_name = kifu_stats_col_text_(s, 2);
		x.result = kifu_stats_col_text_(s, 3);
		x.termination = kifu_stats_col_text_(s, 4);
		/* a length no kifu writes is damage, not a row of a wrapped length */
		ret = kifu_db_column_whole_(&plies, s, 5, 0, KIFU_DB_PLIES_MAX, c->err,
					    "games.plies of game %lld",
					    (long long)kifu_db_column_int64_(s, 6));
		if (ret < 0)
			goto out;
		x.plies = (long)plies;
		if (kifu_store_sums_add_(sums, &x, 1u << KIFU_SUMS_OUTCOMES) < 0) {
			ret = kifu_stats_nomem_(c);
			goto out;
		}
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot update the statistics");
	if (ret == 0)
		ret = kifu_store_sums_write_(c->st, sums, 1u << KIFU_SUMS_OUTCOMES, c->err);
	if (ret == 0)
		ret = kifu_stats_state_set_(c, T_OUTCOMES, upto);
out:
	kifu_db_finalize_(s);
	kifu_store_sums_free_(sums);
	return ret;
}

/* Brings stats_outcomes up to date: 0, 1 to compute from the games, or an error. */
static int outcomes_refresh(struct kifu_stats_ctx_ *c)
{
	return kifu_stats_ensure_fresh_(c, T_OUTCOMES, outcomes_fill);
}

static int outcomes_collect(struct kifu_stats_ctx_ *c, const struct kifu_filter *f, unsigned flags,
			    struct outcome_acc *acc)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	struct kifu_stmt *s = NULL;
	int ret = 1, n, fast;

	if (!(flags & KIFU_STATS_NO_CACHE) && kifu_stats_table_filter_(f, 1))
		ret = outcomes_refresh(c);
	if (ret < 0)
		goto out;
	fast = ret == 0;
	if (fast) {
		kifu_buf_puts(&sql, "SELECT game, variant, first, result, plies, games "
				    "FROM stats_outcomes WHERE 1 = 1");
		kifu_stats_table_where_(&sql, f, 1, 1, &n);
	} else {
		kifu_buf_puts(&sql, "SELECT g.game, g.variant, g.first, g.result, g.plies, count(*) "
				    "FROM games g WHERE ");
		ret = kifu_stats_source_sql_(&sql, &src, &n, c);
		if (ret < 0)
			goto out;
		kifu_buf_puts(&sql, " GROUP BY 1, 2, 3, 4, 5");
	}
	ret = kifu_stats_prepare_built_(c, &s, &sql, fast ? NULL : &src, "cannot read games");
	if (ret < 0)
		goto out;
	if (fast)
		kifu_stats_table_bind_(s, f, 1, 1);
	ret = outcome_read(c, s, acc, fast ? "stats_outcomes" : "games",
			   fast ? "stats_outcomes.games" : "the number");
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

static int build_summary(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			 struct outcome_acc *acc)
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
		row = kifu_report_add_row_(rep);
		kifu_stats_put_game_(rep, row, &c->gv[k]);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0), a->games);
		kifu_stats_put_wins_(rep, row, g, a->wins, a->draws);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "unfinished", 0, 0),
				     a->unfinished);
		if (finished > 0)
			kifu_report_set_real_(rep, row,
					      kifu_report_add_col_(rep, "draw_rate", 0, 3),
					      (double)a->draws / (double)finished);
		else
			kifu_report_set_null_(rep, row,
					      kifu_report_add_col_(rep, "draw_rate", 0, 3));
		kifu_stats_put_score_(rep, row, "first_mover_score", 1,
				      (double)a->fm_wins + (double)a->draws / g->nsides, finished);
		kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "mean_plies", 0, 1),
				      (double)(a->sum_plies / a->games));
		kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "median_plies", 0, 1),
				      median_plies(a));
	}
	return kifu_report_failed_(rep) ? KIFU_ENOMEM : 0;
}

static int build_lengths(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			 struct outcome_acc *acc)
{
	size_t i;
	int k;

	for (k = 0; k < c->ngv; k++) {
		struct outcome_acc *a = &acc[k];

		outcome_sort(a);
		for (i = 0; i < a->nh; i++) {
			long row = kifu_report_add_row_(rep);

			kifu_stats_put_game_(rep, row, &c->gv[k]);
			kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "plies", 0, 0),
					     a->h[i].plies);
			kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0),
					     a->h[i].n);
		}
	}
	return kifu_report_failed_(rep) ? KIFU_ENOMEM : 0;
}

/* The summary or the lengths report (kind) into rep. */
static int outcomes_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c, int kind,
			   const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct outcome_acc *acc;
	int ret, k;

	acc = calloc((size_t)c->ngv, sizeof(*acc));
	if (!acc)
		return kifu_stats_nomem_(c);
	ret = outcomes_collect(c, f, opt->flags, acc);
	if (ret == 0)
		ret = kind == KIFU_STATS_SUMMARY ? build_summary(rep, c, acc)
						 : build_lengths(rep, c, acc);
	if (ret == KIFU_ENOMEM)
		ret = kifu_stats_nomem_(c);
	for (k = 0; k < c->ngv; k++)
		free(acc[k].h);
	free(acc);
	return ret;
}

static int summary_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	return outcomes_report(rep, c, KIFU_STATS_SUMMARY, f, opt);
}

static int lengths_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	return outcomes_report(rep, c, KIFU_STATS_LENGTHS, f, opt);
}

static const char *const summary_columns[] = { "game", "variant", "games", "", "draws",
					       "unfinished", "draw_rate", "first_mover_score",
					       "ci_low", "ci_high", "mean_plies", "median_plies",
					       NULL };
static const char *const lengths_columns[] = { "game", "variant", "plies", "games", NULL };

const struct kifu_stats_kind_ kifu_stats_summary_ = {
	.name = "summary",
	.kind = KIFU_STATS_SUMMARY,
	.report = summary_report,
	.refresh = outcomes_refresh,
	.empty_columns = summary_columns,
};

/* No refresh of its own: it reads the summary's table. */
const struct kifu_stats_kind_ kifu_stats_lengths_ = {
	.name = "lengths",
	.kind = KIFU_STATS_LENGTHS,
	.report = lengths_report,
	.empty_columns = lengths_columns,
};
