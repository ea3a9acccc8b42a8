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
 * This file is the API: the checks of a report's options, its snapshot,
 * and the dispatch through the registry of report kinds to
 * stats_outcomes.c (summary, lengths), stats_openings.c, stats_players.c
 * and stats_tree.c; what those share is in stats_common.c.
 */
#include <stdio.h>
#include <string.h>

#include "kifu/game.h"
#include "stats/stats_impl.h"

/*
 * The report kinds. kifu_stats_refresh brings their tables up to date in
 * this order: outcomes, lines, players.
 */
static const struct kifu_stats_kind_ *const kinds[] = {
	&kifu_stats_summary_,
	&kifu_stats_openings_,
	&kifu_stats_players_,
	&kifu_stats_lengths_,
	&kifu_stats_tree_,
	&kifu_stats_novelties_,
	&kifu_stats_balance_,
	NULL
};

static const struct kifu_stats_kind_ *kind_get(int kind)
{
	int k;

	for (k = 0; kinds[k]; k++)
		if (kinds[k]->kind == kind)
			return kinds[k];
	return NULL;
}

const char *kifu_stats_kind_name(int kind)
{
	const struct kifu_stats_kind_ *k = kind_get(kind);

	return k ? k->name : NULL;
}

int kifu_stats_kind_find(const char *name)
{
	int k;

	for (k = 0; name && kinds[k]; k++)
		if (!strcmp(name, kinds[k]->name))
			return kinds[k]->kind;
	return -1;
}

static void ctx_init(struct kifu_stats_ctx_ *c, struct kifu_store *st, struct kifu_error *err)
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

/* ---- The API ---- */

/*
 * The columns of a report without rows, so that its header still says
 * what it would hold: those of the filter's game where one is named.
 */
static void empty_columns(struct kifu_report *rep, const struct kifu_stats_kind_ *kind,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	const char *const *cols = kind->empty_columns;
	const struct kifu_game *g = f && f->game ? kifu_game_find(f->game) : NULL;
	char name[64];
	int k, s;

	for (k = 0; cols[k]; k++) {
		if (!cols[k][0]) {
			/* wins_<side>: known only for a named game. */
			for (s = 0; g && s < g->nsides; s++) {
				snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
				kifu_report_add_col_(rep, name, 0, 0);
			}
			continue;
		}
		kifu_report_add_col_(rep, cols[k],
				     !strcmp(cols[k], "moves") ? KIFU_COLUMN_JSON_ONLY : 0, 0);
	}
	for (k = 0; opt->by_position && kind->position_columns && kind->position_columns[k]; k++)
		kifu_report_add_col_(rep, kind->position_columns[k], 0, 0);
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
	const struct kifu_stats_kind_ *k = kind_get(kind);
	struct kifu_stats_ctx_ c;
	int ret;

	*out = NULL;
	if (!opt)
		opt = &defaults;
	if (!k)
		return kifu_error_set(err, KIFU_ERANGE, "unknown report %d", kind);
	if (opt->depth < 1 || opt->depth > KIFU_RECORD_MAX_TURNS)
		return kifu_error_set(err, KIFU_ERANGE, "depth %d is out of range (1 to %d)",
				      opt->depth, KIFU_RECORD_MAX_TURNS);
	if (opt->min_games < 0)
		return kifu_error_set(err, KIFU_ERANGE, "minimum of games %ld is negative",
				      opt->min_games);
	if (opt->newest < 0 || (opt->newest && kind != KIFU_STATS_OPENINGS))
		return kifu_error_set(err, KIFU_ERANGE, "newest %ld: a count of games for the "
				      "openings report only", opt->newest);
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
	if (kifu_report_new_(&rep, k->name) < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	/*
	 * One snapshot for the whole report, while writers go on (ended and
	 * taken again around a refresh of the kept tables: kifu_stats_write_begin_).
	 */
	if (!kifu_store_in_transaction(st)) {
		ret = kifu_store_begin_tx(st, KIFU_TX_READ, err);
		if (ret < 0) {
			kifu_report_free(rep);
			return ret;
		}
		c.read_tx = 1;
	}
	ret = k->report(rep, &c, f, opt);
	if (c.read_tx) {
		/* Nothing was written in it: ending it cannot lose anything. */
		if (kifu_store_commit(st, ret < 0 ? NULL : err) < 0 && ret >= 0)
			ret = err ? err->code : KIFU_EDB;
		if (kifu_store_in_transaction(st))
			kifu_store_rollback(st);
	}
	if (ret == 0 && kifu_report_nrows(rep) == 0 && k->empty_columns) {
		empty_columns(rep, k, f, opt);
		if (kifu_report_failed_(rep))
			ret = kifu_stats_nomem_(&c);
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
	struct kifu_stats_ctx_ c;
	int k, ret = 0;

	ctx_init(&c, st, err);
	for (k = 0; ret >= 0 && kinds[k]; k++)
		if (kinds[k]->refresh)
			ret = kinds[k]->refresh(&c);
	return ret < 0 ? ret : 0;
}
