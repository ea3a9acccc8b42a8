/*
 * The balance report of kifu-stats (stats.c has the whole picture), for
 * game designers: per game, variant and playing level, is the first mover
 * favoured, how often are games drawn, how long and how wide are they, and
 * (over the games kifu-analyse --store reviewed) how often does the lead
 * change, how far does the winner fall behind, and when is the game
 * decided. A game's level comes from its players' names: kifu-play names a
 * built-in player "SPEC #k", and a game whose every side is the same SPEC
 * is at level SPEC; games between other players are at level "players",
 * and games mixing SPECs, or a SPEC with another player, are left out.
 * The sums per level (games, results, plies, legal moves) are kept in
 * stats_balance (schema 12) as games are written (store_kept.c), brought
 * up to date here from the games the table lacks; the report of every
 * game, or of a game, variant or level, reads them there, and the review
 * measures from the stored reviews only (the run KIFU_DB_REVIEW_RUN_ picks,
 * as kifu-stats players and kifu-export read it), in game id order as the
 * whole computation sums them. Other filters (and --no-cache, a database
 * that cannot be written) read the games themselves: one pass over the
 * games and their players (in id order, so that every backend sums in the
 * same order), then each counted game's moves, replayed for its legal
 * moves, and its stored review.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "stats/stats_impl.h"

/* The level of games between players that are not kifu-play's. */
#define LEVEL_PLAYERS "players"
/* The expected score from which a game counts as decided (decided_at). */
#define DECIDED 0.9

/* One level of one game and variant, and what its games add up to. */
struct level {
	char *spec;          /* malloc'd; NULL for "players" */
	long long games, fm_wins, draws, unfinished;
	long double sum_plies;
	long long moves, positions;          /* branching: legal moves summed, positions */
	long long reviewed, decided;         /* reviewed games, and those a side won */
	double sum_lead, sum_drama, sum_decided_at;
};

struct gv_levels {
	struct level *v;
	size_t n, cap;
};

/* A game counted, as the first pass read it. */
struct counted {
	int64_t id;
	int gv, res, first;
	size_t level;
	long plies;
};

struct balance {
	struct gv_levels *gvl;   /* one per c->gv */
	struct counted *games;
	size_t ngames, cap;
	int reviews_only;        /* the games listed for their reviews: the level's sums are kept */
};

/* The level's index in l (added when new; spec NULL: players), or -1 when out of memory. */
static long level_get(struct gv_levels *l, const char *spec, size_t len)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (spec ? l->v[i].spec && strlen(l->v[i].spec) == len &&
				   !memcmp(l->v[i].spec, spec, len)
			 : !l->v[i].spec)
			return (long)i;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct level *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[l->n]));
	if (spec) {
		l->v[l->n].spec = malloc(len + 1);
		if (!l->v[l->n].spec)
			return -1;
		memcpy(l->v[l->n].spec, spec, len);
		l->v[l->n].spec[len] = '\0';
	}
	return (long)l->n++;
}

/* One game as read: its sides' player names (NULL: no player). */
struct reading {
	int64_t id;
	int gv, res, first, ok;
	long plies;
	char *names[MAX_SIDES];
};

static void reading_clear(struct reading *r)
{
	int i;

	for (i = 0; i < MAX_SIDES; i++) {
		free(r->names[i]);
		r->names[i] = NULL;
	}
}

/*
 * Counts the game read into its level: the level of its SPEC when every
 * side has a SPEC player of that SPEC, players when no side has one, left
 * out otherwise.
 */
static int reading_count(struct balance *b, struct kifu_stats_ctx_ *c, const struct reading *r)
{
	const struct kifu_game *g;
	const char *spec = NULL;
	size_t len = 0;
	int level;
	long k;
	struct level *lv;

	if (!r->ok || r->gv < 0 || r->res == RES_UNKNOWN || r->first < 0)
		return 0;
	g = c->gv[r->gv].g;
	/* the level as the store's sums say it (store_sums.c) */
	level = kifu_store_sums_level_(&spec, &len, (const char *const *)r->names,
				       g->nsides < MAX_SIDES ? g->nsides : MAX_SIDES, 1);
	if (level == KIFU_SUMS_LEVEL_OUT)
		return 0;
	k = level_get(&b->gvl[r->gv], level == KIFU_SUMS_LEVEL_SPEC ? spec : NULL, len);
	if (k < 0)
		return KIFU_ENOMEM;
	lv = &b->gvl[r->gv].v[k];
	if (b->reviews_only)
		goto listed;
	lv->games++;
	lv->sum_plies += r->plies;
	if (r->res == RES_DRAW)
		lv->draws++;
	else if (r->res == RES_UNFINISHED)
		lv->unfinished++;
	else if (r->res == r->first)
		lv->fm_wins++;
listed:
	if (b->ngames == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		struct counted *v = realloc(b->games, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		b->games = v;
		b->cap = cap;
	}
	b->games[b->ngames].id = r->id;
	b->games[b->ngames].gv = r->gv;
	b->games[b->ngames].res = r->res;
	b->games[b->ngames].first = r->first;
	b->games[b->ngames].level = (size_t)k;
	b->games[b->ngames++].plies = r->plies;
	return 0;
}

/*
 * The first pass: every game src selects (with reviewed: those of them
 * with a stored review) with its players, counted into its level.
 */
static int balance_read_games(struct balance *b, struct kifu_stats_ctx_ *c,
			      const struct kifu_stats_source_ *from, int reviewed)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stats_source_ src = *from;
	struct kifu_stmt *s = NULL;
	struct reading r;
	int ret, rc, n;

	memset(&r, 0, sizeof(r));
	r.id = -1;
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.first, g.result, g.plies, "
			    "s.side_index, p.name FROM games g "
			    "LEFT JOIN sides s ON s.game_id = g.id "
			    "LEFT JOIN players p ON p.id = s.player_id WHERE ");
	ret = kifu_stats_source_sql_(&sql, &src, &n, c);
	if (ret < 0)
		goto out;
	if (reviewed)
		kifu_buf_puts(&sql, " AND g.id IN (SELECT r.game_id FROM analysis_runs r)");
	kifu_buf_puts(&sql, " ORDER BY g.id, s.side_index");
	ret = kifu_stats_prepare_built_(c, &s, &sql, &src, "cannot read games");
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);
		const char *name;
		long long plies;
		int side;

		if (id != r.id) {
			if (r.id >= 0 && (ret = reading_count(b, c, &r)) < 0)
				break;
			reading_clear(&r);
			r.id = id;
			r.gv = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 1),
						   kifu_stats_col_text_(s, 2));
			r.ok = 1;
			r.res = r.first = -1;
			if (r.gv >= 0) {
				const struct kifu_game *g = c->gv[r.gv].g;

				r.res = kifu_stats_classify_(g, kifu_stats_col_text_(s, 4));
				r.first = kifu_game_side_index(g, kifu_stats_col_text_(s, 3));
			}
			ret = kifu_db_column_whole_(&plies, s, 5, 0, KIFU_DB_PLIES_MAX, c->err,
						    "games.plies of game %lld", (long long)id);
			if (ret < 0)
				break;
			r.plies = (long)plies;
		}
		if (kifu_db_column_is_null_(s, 6))
			continue; /* a game without players */
		side = kifu_db_column_int_(s, 6);
		name = kifu_db_column_text_(s, 7);
		if (side < 0 || side >= MAX_SIDES || r.names[side] || !name) {
			r.ok = 0;
			continue;
		}
		r.names[side] = strdup(name);
		if (!r.names[side]) {
			ret = KIFU_ENOMEM;
			break;
		}
	}
	if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
		ret = kifu_stats_fail_db_(c, "cannot read games");
	if (ret == 0 && r.id >= 0)
		ret = reading_count(b, c, &r);
	if (ret == KIFU_ENOMEM)
		ret = kifu_stats_nomem_(c);
out:
	reading_clear(&r);
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/* The legal moves before each move of stored game id, added to lv (branching). */
static int balance_branching(struct level *lv, struct kifu_stats_ctx_ *c, const struct counted *cg)
{
	const struct kifu_game *g = c->gv[cg->gv].g;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_pos *pos = NULL;
	kifu_move *moves = NULL;
	size_t i;
	int ret;

	ret = kifu_store_game_load(&rec, c->st, cg->id, c->err);
	if (ret == 0)
		ret = kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_NO_CLOCK, c->err);
	if (ret < 0)
		goto out;
	if (diags.errors || !rp.complete || rp.game != g) {
		ret = kifu_db_damaged_(c->st, c->err, "game %lld does not replay",
				       (long long)cg->id);
		goto out;
	}
	/* The length the first pass counted is the one the moves give. */
	if ((long)rp.nplies != cg->plies) {
		ret = kifu_db_damaged_(c->st, c->err, "games: plies of game %lld is %ld, its "
				       "moves %zu", (long long)cg->id, cg->plies, rp.nplies);
		goto out;
	}
	ret = kifu_pos_new(&pos, g, rp.variant, rp.first, c->err);
	if (ret < 0)
		goto out;
	moves = malloc((g->max_moves ? g->max_moves : 1) * sizeof(*moves));
	if (!moves) {
		ret = kifu_stats_nomem_(c);
		goto out;
	}
	for (i = 0; i < rp.nplies; i++) {
		/* legal_moves lists pass only where it is the one move: it counts 1. */
		lv->moves += (long long)(g->count_moves ? g->count_moves(pos->state)
							 : g->legal_moves(pos->state, moves));
		lv->positions++;
		g->apply(pos->state, rp.moves[i]);
	}
out:
	free(moves);
	kifu_pos_free(pos);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
	return ret;
}

/*
 * The review measures of one reviewed game of two sides from e[0..n), the
 * review's expected score before each ply, and mover[0..n), the side that
 * moved at it: lead changes, and for a game a side won, drama and where it
 * was decided.
 */
static void balance_measures(struct level *lv, const struct counted *cg, const double *e,
			     const int *mover, size_t n)
{
	double prev = 0.5, low = 1;
	size_t i, from = n; /* the first ply of the winner's last run at DECIDED or more */
	int changes = 0;

	for (i = 0; i < n; i++) {
		double fm = mover[i] == cg->first ? e[i] : 1 - e[i];

		if (fm == 0.5)
			continue;
		if (prev != 0.5 && (fm > 0.5) != (prev > 0.5))
			changes++;
		prev = fm;
	}
	lv->sum_lead += changes;
	if (cg->res < 0)
		return;
	for (i = 0; i < n; i++) {
		double w = mover[i] == cg->res ? e[i] : 1 - e[i];

		if (w < low)
			low = w;
		if (w < DECIDED)
			from = n;
		else if (from == n)
			from = i;
	}
	lv->decided++;
	lv->sum_drama += low < 0.5 ? 0.5 - low : 0;
	lv->sum_decided_at += from < n ? (double)(from + 1) / (double)n : 1;
}

/*
 * The stored review of game cg, when it has one of its every ply: counted
 * in lv (reviewed), with its measures for a game of two sides.
 */
static int balance_review(struct level *lv, struct kifu_stats_ctx_ *c, struct kifu_stmt *s,
			  const struct counted *cg, double *e, int *mover)
{
	size_t n = 0;
	int rc, ret = 0, whole = 1;

	kifu_db_reset_(s);
	kifu_db_bind_int64_(s, 1, cg->id);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		double x = kifu_db_column_double_(s, 1);

		/* A review of other plies than the game's is none (as kifu-export reads it). */
		if ((long)n == cg->plies || kifu_db_column_int64_(s, 0) != (int64_t)n + 1) {
			whole = 0;
			continue;
		}
		/* A score and a side no kifu writes: a figure from them would be silently wrong. */
		if (!(x >= 0 && x <= 1))
			return kifu_db_damaged_(c->st, c->err, "analysis_plies: expected score of "
						"game %lld, ply %zu is not from 0 to 1",
						(long long)cg->id, n + 1);
		if (kifu_db_column_int64_(s, 2) < 0 ||
		    kifu_db_column_int64_(s, 2) >= c->gv[cg->gv].g->nsides)
			return kifu_db_damaged_(c->st, c->err, "analysis_plies: side of game %lld, "
						"ply %zu is not a side of '%s'", (long long)cg->id,
						n + 1, c->gv[cg->gv].g->name);
		e[n] = x;
		mover[n++] = kifu_db_column_int_(s, 2);
	}
	if (rc != KIFU_DB_DONE)
		return kifu_stats_fail_db_(c, "cannot read the analyses");
	if (!whole || n == 0 || (long)n != cg->plies)
		return 0;
	lv->reviewed++;
	if (c->gv[cg->gv].g->nsides == 2)
		balance_measures(lv, cg, e, mover, n);
	return ret;
}

/* The second pass: each counted game's moves (with branching) and review. */
static int balance_read_plies(struct balance *b, struct kifu_stats_ctx_ *c, int branching)
{
	struct kifu_stmt *s = NULL;
	double *e = NULL;
	int *mover = NULL;
	size_t i, room = 0;
	int ret, found = 0;

	ret = kifu_db_has_(&found, c->st, "analysis_runs", c->err);
	if (ret == 0 && found)
		ret = kifu_stats_prepare_(c, &s, "SELECT p.ply, p.expected, p.side_index "
					 "FROM analysis_plies p WHERE p.run_id = "
					 KIFU_DB_REVIEW_RUN_("?1") " ORDER BY p.ply",
					  "cannot read the analyses");
	for (i = 0; ret == 0 && i < b->ngames; i++) {
		const struct counted *cg = &b->games[i];
		struct level *lv = &b->gvl[cg->gv].v[cg->level];

		if (branching)
			ret = balance_branching(lv, c, cg);
		/* Room for the review of a length the replay confirmed (or the kept sums counted). */
		if (ret == 0 && s && (size_t)cg->plies + 1 > room) {
			double *e2 = realloc(e, ((size_t)cg->plies + 1) * sizeof(*e));
			int *m2 = e2 ? realloc(mover, ((size_t)cg->plies + 1) * sizeof(*mover)) : NULL;

			if (e2)
				e = e2;
			if (m2)
				mover = m2;
			if (!e2 || !m2)
				ret = kifu_stats_nomem_(c);
			else
				room = (size_t)cg->plies + 1;
		}
		if (ret == 0 && s)
			ret = balance_review(lv, c, s, cg, e, mover);
	}
	kifu_db_finalize_(s);
	free(e);
	free(mover);
	return ret;
}

/*
 * A level's place in the order of strength (CLI.md): random 0, mcts:N 1,
 * engine:N 2, engine 3, any other SPEC 4, players 5; *digits the N of
 * mcts:N and engine:N (NULL otherwise).
 */
static int level_rank(const char **digits, const char *spec)
{
	*digits = NULL;
	if (!spec)
		return 5;
	if (!strcmp(spec, "random"))
		return 0;
	if (!strcmp(spec, "engine"))
		return 3;
	if (!strncmp(spec, "mcts:", 5) && spec[5] &&
	    strspn(spec + 5, "0123456789") == strlen(spec + 5)) {
		*digits = spec + 5;
		return 1;
	}
	if (!strncmp(spec, "engine:", 7) && spec[7] &&
	    strspn(spec + 7, "0123456789") == strlen(spec + 7)) {
		*digits = spec + 7;
		return 2;
	}
	return 4;
}

/*
 * Two N as decimal digits compared by value, of any length (no overflow):
 * leading zeros skipped, then the longer is the larger, then digit by digit.
 */
static int cmp_digits(const char *a, const char *b)
{
	size_t la, lb;

	while (*a == '0' && a[1])
		a++;
	while (*b == '0' && b[1])
		b++;
	la = strlen(a);
	lb = strlen(b);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a, b);
}

/*
 * Levels in order of strength (CLI.md): random, mcts:N by N, engine:N by N,
 * engine, any other SPEC in byte order, players last; the same N written
 * otherwise (mcts:8, mcts:08) in byte order.
 */
static int cmp_levels(const void *x, const void *y)
{
	const struct level *a = x, *b = y;
	const char *da, *db;
	int ra = level_rank(&da, a->spec), rb = level_rank(&db, b->spec), d;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (ra == 5)
		return 0;
	if (da && db && (d = cmp_digits(da, db)) != 0)
		return d;
	return strcmp(a->spec, b->spec);
}

static void put_mean(struct kifu_report *rep, long row, const char *name, int prec, double sum,
		     long long n, int defined)
{
	long col = kifu_report_add_col_(rep, name, 0, prec);

	if (defined && n > 0)
		kifu_report_set_real_(rep, row, col, sum / (double)n);
	else
		kifu_report_set_null_(rep, row, col);
}

static int build_balance(struct kifu_report *rep, struct kifu_stats_ctx_ *c, struct balance *b)
{
	size_t i;
	int k;

	for (k = 0; k < c->ngv; k++) {
		struct gv_levels *l = &b->gvl[k];
		const struct kifu_game *g = c->gv[k].g;

		if (l->n > 1)
			qsort(l->v, l->n, sizeof(*l->v), cmp_levels);
		for (i = 0; i < l->n; i++) {
			const struct level *lv = &l->v[i];
			long long finished = lv->games - lv->unfinished;
			long row = kifu_report_add_row_(rep);
			int two = g->nsides == 2;

			kifu_stats_put_game_(rep, row, &c->gv[k]);
			kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "level", 0, 0),
					      lv->spec ? lv->spec : LEVEL_PLAYERS);
			kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0),
					     lv->games);
			kifu_stats_put_score_(rep, row, "first_mover_score", 1,
					      (double)lv->fm_wins + (double)lv->draws / g->nsides,
					      finished);
			put_mean(rep, row, "draw_rate", 3, (double)lv->draws, finished, 1);
			put_mean(rep, row, "mean_plies", 1, (double)lv->sum_plies, lv->games, 1);
			put_mean(rep, row, "branching", 2, (double)lv->moves, lv->positions, 1);
			kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "reviewed", 0, 0),
					     lv->reviewed);
			put_mean(rep, row, "lead_changes", 2, lv->sum_lead, lv->reviewed, two);
			put_mean(rep, row, "drama", 3, lv->sum_drama, lv->decided, two);
			put_mean(rep, row, "decided_at", 3, lv->sum_decided_at, lv->decided, two);
		}
	}
	return kifu_report_failed_(rep) ? kifu_stats_nomem_(c) : 0;
}

/* ---- The kept sums (stats_balance) ---- */

static void balance_release(struct balance *b, int ngv)
{
	size_t i;
	int k;

	for (k = 0; b->gvl && k < ngv; k++) {
		for (i = 0; i < b->gvl[k].n; i++)
			free(b->gvl[k].v[i].spec);
		free(b->gvl[k].v);
	}
	free(b->gvl);
	free(b->games);
	memset(b, 0, sizeof(*b));
}

/*
 * Adds the games stats_balance lacks (inside the refresh's write
 * transaction), counted by the store (store_balance.c) with the functions
 * it counts the games it writes with.
 */
static int balance_fill(struct kifu_stats_ctx_ *c)
{
	int64_t after, upto;
	int ret = kifu_stats_refresh_range_(c, T_BALANCE, &after, &upto, 1);

	if (ret == 0 && upto > after)
		ret = kifu_store_balance_count_(c->st, after, upto, c->err);
	return ret < 0 ? ret : kifu_stats_state_set_(c, T_BALANCE, upto);
}

/* Brings stats_balance up to date: 0, 1 to compute from the games, or an error. */
static int balance_refresh(struct kifu_stats_ctx_ *c)
{
	if (kifu_store_version(c->st) < 12)
		return 1;
	return kifu_stats_ensure_fresh_(c, T_BALANCE, balance_fill);
}

/* Whether stats_balance answers f exactly: a game, variant, level, or none. */
static int kept_filter(const struct kifu_filter *f)
{
	return !f || (!f->player && !f->event && !f->since && !f->until && !f->termination);
}

/*
 * Row of stats_balance (game and variant k at level) into v[0..6): games,
 * fm_wins, draws, unfinished, plies, moves, as the store writes them: a
 * level a SPEC or players; the results of no more games than counted; at
 * most KIFU_DB_PLIES_MAX plies a game; as many legal moves as plies or
 * more (a move played was legal), none without plies, and no more than
 * the game has moves in a position. Damage otherwise, with the row named.
 */
static int balance_kept_row(long long *v, struct kifu_stmt *s, struct kifu_stats_ctx_ *c, int k,
			    const char *level)
{
	static const char *const names[] = { "games", "fm_wins", "draws", "unfinished" };
	const struct kifu_game *g = c->gv[k].g;
	const char *variant = g->variants[c->gv[k].v];
	long long most;
	int ret;

	if (!kifu_store_level_valid(level))
		return kifu_db_damaged_(c->st, c->err, "stats_balance of %s %s: level '%s' is no "
					"SPEC and not players", g->name, variant, level);
	ret = kifu_db_column_counts_(v, s, 3, 4, names, 0, c->err, "stats_balance of %s %s at "
				     "level %s", g->name, variant, level);
	most = v[0] > KIFU_DB_COUNT_MAX / KIFU_DB_PLIES_MAX ? KIFU_DB_COUNT_MAX
							     : v[0] * KIFU_DB_PLIES_MAX;
	if (ret == 0)
		ret = kifu_db_column_whole_(&v[4], s, 7, 0, most, c->err, "stats_balance.plies of %s "
					    "%s at level %s", g->name, variant, level);
	/* legal moves: from one a position to the game's most (when it says them) */
	most = !g->max_moves || v[4] > KIFU_DB_COUNT_MAX / (long long)g->max_moves
		       ? KIFU_DB_COUNT_MAX
		       : v[4] * (long long)g->max_moves;
	if (ret == 0)
		ret = kifu_db_column_whole_(&v[5], s, 8, v[4], most, c->err, "stats_balance.moves "
					    "of %s %s at level %s (plies %lld)", g->name, variant,
					    level, v[4]);
	return ret;
}

/* The levels' sums of the games f selects, from stats_balance. */
static int balance_read_kept(struct balance *b, struct kifu_stats_ctx_ *c,
			     const struct kifu_filter *f)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc, n = 0;

	kifu_buf_puts(&sql, "SELECT game, variant, level, games, fm_wins, draws, unfinished, "
			    "plies, moves FROM stats_balance WHERE 1 = 1");
	kifu_stats_table_where_(&sql, f, 0, 1, &n);
	if (f && f->level)
		kifu_buf_printf(&sql, " AND level = ?%d", n + 1);
	kifu_buf_puts(&sql, " ORDER BY game, variant, level");
	ret = kifu_stats_prepare_built_(c, &s, &sql, NULL, "cannot read the statistics");
	if (ret < 0)
		goto out;
	kifu_stats_table_bind_(s, f, 0, 1);
	if (f && f->level)
		kifu_db_bind_text_(s, n + 1, f->level, -1);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int k = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 0),
					    kifu_stats_col_text_(s, 1));
		const char *level = kifu_stats_col_text_(s, 2);
		int players = !strcmp(level, KIFU_SUMS_LEVEL_PLAYERS_NAME);
		long long v[6];
		struct level *lv;
		long i;

		if (k < 0)
			continue; /* a game no report shows */
		ret = balance_kept_row(v, s, c, k, level);
		if (ret < 0)
			goto out;
		i = level_get(&b->gvl[k], players ? NULL : level, players ? 0 : strlen(level));
		if (i < 0) {
			ret = kifu_stats_nomem_(c);
			goto out;
		}
		lv = &b->gvl[k].v[i];
		lv->games = v[0];
		lv->fm_wins = v[1];
		lv->draws = v[2];
		lv->unfinished = v[3];
		lv->sum_plies = v[4];
		lv->positions = v[4];
		lv->moves = v[5];
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read the statistics");
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

static int balance_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	struct balance b;
	int ret = 1, found = 0;

	memset(&b, 0, sizeof(b));
	b.gvl = calloc((size_t)c->ngv, sizeof(*b.gvl));
	if (!b.gvl)
		return kifu_stats_nomem_(c);
	if (!(opt->flags & KIFU_STATS_NO_CACHE) && kept_filter(f))
		ret = balance_refresh(c);
	/* what the kept sums count, checked against the games (rows deleted by hand) */
	if (ret == 0)
		ret = kifu_store_balance_check_(c->st, c->err);
	if (ret == 0) {
		/* The sums kept, then the reviews of the games they count, in id order. */
		ret = balance_read_kept(&b, c, f);
		if (ret == 0)
			ret = kifu_db_has_(&found, c->st, "analysis_runs", c->err);
		b.reviews_only = 1;
		if (ret == 0 && found)
			ret = balance_read_games(&b, c, &src, 1);
		if (ret == 0 && found)
			ret = balance_read_plies(&b, c, 0);
	} else if (ret == 1) {
		ret = balance_read_games(&b, c, &src, 0);
		if (ret == 0)
			ret = balance_read_plies(&b, c, 1);
	}
	if (ret == 0)
		ret = build_balance(rep, c, &b);
	balance_release(&b, c->ngv);
	return ret;
}

static const char *const balance_columns[] = { "game", "variant", "level", "games",
					       "first_mover_score", "ci_low", "ci_high",
					       "draw_rate", "mean_plies", "branching", "reviewed",
					       "lead_changes", "drama", "decided_at", NULL };

/*
 * No .refresh: kifu_stats_refresh brings the tables up to date that cost
 * a read of the games; counting stats_balance again replays each game, so
 * only the balance report itself does it, when it needs it.
 */
const struct kifu_stats_kind_ kifu_stats_balance_ = {
	.name = "balance",
	.kind = KIFU_STATS_BALANCE,
	.report = balance_report,
	.empty_columns = balance_columns,
};
