/*
 * The players report of kifu-stats (stats.c has the whole picture): a map
 * of players by id with their games, wins, draws and losses, counted from
 * the sides of every game or read from stats_players, which is rebuilt
 * here whenever games were added (a rating needs every game again), and
 * a rating for each player with a finished game (kifu_estimate_ratings
 * over the pairings the games make); and, once kifu-analyse --store has
 * kept reviews, each player's reviewed moves, mean loss and mistakes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/estimate.h"
#include "kifu/game.h"
#include "stats/stats_impl.h"

struct pl {
	int64_t pid;
	long long games, wins, draws, losses, unfinished;
	double draw_points;
	double rating;
	int rated;
	const char *name;   /* in the report being built */
	long long analysed, mistakes;  /* reviewed moves (kifu-analyse --store) */
	double loss;                   /* their summed loss */
	double accuracy;               /* summed over its reviewed games (kifu_analyse_sides) */
	long long accuracy_games;
};

struct pmap {
	struct pl *v;
	size_t n, cap;
	size_t *slot;       /* index + 1; 0 when empty */
	size_t nslot;
};

static void pmap_release(struct pmap *m)
{
	free(m->v);
	free(m->slot);
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
			k = (size_t)kifu_hash_mix64_((uint64_t)m->v[i].pid) & (nslot - 1);
			while (slot[k])
				k = (k + 1) & (nslot - 1);
			slot[k] = i + 1;
		}
		free(m->slot);
		m->slot = slot;
		m->nslot = nslot;
	}
	for (k = (size_t)kifu_hash_mix64_((uint64_t)pid) & (m->nslot - 1); m->slot[k];
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

/* The index of player pid in m, or -1 when it is not there (nothing added). */
static long pmap_find(const struct pmap *m, int64_t pid)
{
	size_t k;

	if (!m->nslot)
		return -1;
	for (k = (size_t)kifu_hash_mix64_((uint64_t)pid) & (m->nslot - 1); m->slot[k];
	     k = (k + 1) & (m->nslot - 1))
		if (m->v[m->slot[k] - 1].pid == pid)
			return (long)(m->slot[k] - 1);
	return -1;
}

/*
 * Sums the players of the games src selects (each side's rows in side
 * order, as the store sums a game it writes) into sums.
 */
static int players_sum_games(struct kifu_stats_ctx_ *c, const struct kifu_stats_source_ *src,
			     struct kifu_store_sums_ *sums)
{
	struct kifu_buf sql = KIFU_BUF_INIT, result = KIFU_BUF_INIT;
	struct kifu_store_sums_game_ x;
	struct kifu_store_sides_ sides;
	struct kifu_stmt *s = NULL;
	int ret, rc, n;

	memset(&x, 0, sizeof(x));
	x.id = -1;
	x.sides = &sides;
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.result, s.side_index, s.player_id "
			    "FROM games g CROSS JOIN sides s WHERE ");
	ret = kifu_stats_source_sql_(&sql, src, &n, c);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " AND s.game_id = g.id ORDER BY g.id, s.side_index");
	ret = kifu_stats_prepare_built_(c, &s, &sql, src, "cannot read games");
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);

		if (id != x.id) {
			if (x.id >= 0 && (ret = kifu_store_sums_add_(sums, &x,
								     1u << KIFU_SUMS_PLAYERS)) < 0)
				break;
			x.id = id;
			x.g = kifu_game_find(kifu_stats_col_text_(s, 1));
			kifu_buf_reset(&result);
			kifu_buf_puts(&result, kifu_stats_col_text_(s, 2));
			if (result.failed) {
				ret = KIFU_ENOMEM;
				break;
			}
			x.result = result.data;
			sides.n = 0;
			sides.ok = 1;
		}
		kifu_store_sides_add_(&sides, kifu_db_column_int_(s, 3), kifu_db_column_int64_(s, 4));
	}
	if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
		ret = kifu_stats_fail_db_(c, "cannot read games");
	if (ret == 0 && x.id >= 0)
		ret = kifu_store_sums_add_(sums, &x, 1u << KIFU_SUMS_PLAYERS);
	if (ret == KIFU_ENOMEM)
		ret = kifu_stats_nomem_(c);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	kifu_buf_release(&result);
	return ret;
}

/* The players summed (and rated) in sums into m. */
static int players_from_sums(struct kifu_stats_ctx_ *c, const struct kifu_store_sums_ *sums,
			     struct pmap *m)
{
	size_t i, n = kifu_store_sums_count_(sums, KIFU_SUMS_PLAYERS);

	for (i = 0; i < n; i++) {
		const struct kifu_store_sums_player_ *q = kifu_store_sums_player_(sums, i);
		long k = pmap_get(m, q->pid);
		struct pl *p;

		if (k < 0)
			return kifu_stats_nomem_(c);
		p = &m->v[k];
		p->games = q->games;
		p->wins = q->wins;
		p->draws = q->draws;
		p->losses = q->losses;
		p->unfinished = q->unfinished;
		p->draw_points = q->draw_points;
		p->rated = q->rated;
		p->rating = q->rating;
	}
	return 0;
}

/* The players of the games src selects, rated, into m. */
static int players_from_games(struct kifu_stats_ctx_ *c, const struct kifu_stats_source_ *src,
			      struct pmap *m)
{
	struct kifu_store_sums_ *sums = NULL;
	int ret;

	if (kifu_store_sums_new_(&sums) < 0)
		return kifu_stats_nomem_(c);
	ret = players_sum_games(c, src, sums);
	if (ret == 0)
		ret = kifu_store_sums_fit_(sums, c->err);
	if (ret == 0)
		ret = players_from_sums(c, sums, m);
	kifu_store_sums_free_(sums);
	return ret;
}

/*
 * A row of stats_players into p, each count checked: at least one game, as
 * many as its wins, draws, losses and unfinished games add up to, draw
 * points no more than its draws (a share of each), a finite rating.
 */
static int players_row_read(struct kifu_stats_ctx_ *c, struct kifu_stmt *s, struct pl *p)
{
	static const char *const names[] = { "games", "wins", "draws", "losses", "unfinished" };
	long long v[5];
	long long pid = kifu_db_column_int64_(s, 0);
	int ret;

	ret = kifu_db_column_counts_(v, s, 1, 5, names, 1, c->err, "stats_players of player %lld",
				     pid);
	if (ret == 0)
		ret = kifu_db_column_real_(&p->draw_points, s, 6, 0, (double)v[2], c->err,
					   "stats_players.draw_points of player %lld", pid);
	p->rated = !kifu_db_column_is_null_(s, 7);
	p->rating = 0;
	if (ret == 0 && p->rated)
		ret = kifu_db_column_real_(&p->rating, s, 7, -1e9, 1e9, c->err,
					   "stats_players.rating of player %lld", pid);
	if (ret < 0)
		return ret;
	p->games = v[0];
	p->wins = v[1];
	p->draws = v[2];
	p->losses = v[3];
	p->unfinished = v[4];
	return 0;
}

static int players_from_table(struct kifu_stats_ctx_ *c, struct pmap *m)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	ret = kifu_stats_prepare_(c, &s, "SELECT player_id, games, wins, draws, losses, "
					 "unfinished, draw_points, rating FROM stats_players",
				  "cannot read the statistics");
	if (ret < 0)
		return ret;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		long k = pmap_get(m, kifu_db_column_int64_(s, 0));
		struct pl *p;

		if (k < 0) {
			ret = kifu_stats_nomem_(c);
			break;
		}
		p = &m->v[k];
		ret = players_row_read(c, s, p);
		if (ret < 0)
			break;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read the statistics");
	kifu_db_finalize_(s);
	return ret;
}

/* stats_state 'players'.depth (schema 11: whether the sums are kept, the ratings fitted); -1: none. */
static int players_depth(struct kifu_stats_ctx_ *c, long long *depth)
{
	return kifu_db_query_int_(depth, c->st, "SELECT coalesce((SELECT depth FROM stats_state "
				  "WHERE name = 'players'), -1)", c->err);
}

/*
 * Inside the refresh's write transaction: stats_players brought up to
 * date and its ratings fitted again, into m. Schema 11: the games it lacks
 * summed and added (an import has usually done that), then the ratings
 * fitted from the kept sums alone; before, rebuilt whole from every game.
 */
static int players_update(struct kifu_stats_ctx_ *c, struct pmap *m)
{
	struct kifu_stats_source_ src = { NULL, 1, 0, 0, 0 };
	struct kifu_store_sums_ *sums = NULL;
	int sums_kept = kifu_store_version(c->st) >= 11, ret;
	long long depth = -1;

	ret = sums_kept ? players_depth(c, &depth) : 0;
	if (ret == 0)
		ret = kifu_stats_refresh_range_(c, T_PLAYERS, &src.after, &src.upto,
						depth == KIFU_SUMS_RATINGS_DUE ||
						depth == KIFU_SUMS_RATINGS_FITTED);
	if (ret == 0 && sums_kept && src.after == 0)
		ret = kifu_store_sums_players_clear_(c->st, c->err);
	if (ret == 0 && kifu_store_sums_new_(&sums) < 0)
		ret = kifu_stats_nomem_(c);
	if (ret == 0 && src.after < src.upto)
		ret = players_sum_games(c, &src, sums);
	if (ret == 0)
		ret = kifu_store_sums_write_(c->st, sums, 1u << KIFU_SUMS_PLAYERS, c->err);
	/* before schema 11, no sums kept: every game was summed here, rated here */
	if (ret == 0 && sums_kept) {
		kifu_store_sums_clear_(sums);
		ret = kifu_store_sums_ratings_(sums, c->st, src.upto, c->err);
	} else if (ret == 0 && (ret = kifu_store_sums_fit_(sums, c->err)) == 0) {
		ret = kifu_store_sums_ratings_write_(c->st, sums, src.upto, 0, c->err);
	}
	if (ret == 0)
		ret = players_from_sums(c, sums, m);
	kifu_store_sums_free_(sums);
	return ret;
}

/* Players: every game's, from stats_players kept up to date, else from the games. */
static int players_collect(struct kifu_stats_ctx_ *c, const struct kifu_filter *f, unsigned flags,
			   struct pmap *m)
{
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	int fresh, rated = 1, own = 0, ret;

	if ((flags & KIFU_STATS_NO_CACHE) ||
	    (f && (f->game || f->variant || f->player || f->event || f->since || f->until ||
		   f->termination || f->level)))
		return players_from_games(c, &src, m);
	ret = kifu_stats_is_fresh_(c, T_PLAYERS, &fresh);
	if (ret == 0 && fresh && kifu_store_version(c->st) >= 11) {
		long long depth = -1;

		/* schema 11: the ratings fit the games too (not an import's sums alone) */
		ret = players_depth(c, &depth);
		rated = depth != KIFU_SUMS_RATINGS_DUE;
	}
	if (ret < 0)
		return ret;
	if (fresh && rated)
		return players_from_table(c, m);
	ret = kifu_stats_write_begin_(c, &own);
	if (ret < 0)
		return ret;
	if (ret == 1)
		return players_from_games(c, &src, m);
	/* From here on a transaction of ours may be open: one way out. */
	ret = players_update(c, m);
	if (ret < 0 && kifu_stats_cannot_write_(c)) {
		/* Writable as far as BEGIN could tell, not for a change (a full disk). */
		kifu_error_clear(c->err);
		kifu_stats_write_end_(c, own, 1);
		pmap_release(m);
		return players_from_games(c, &src, m);
	}
	return kifu_stats_write_end_(c, own, ret);
}

/*
 * The reviews kept by kifu-analyse --store (schema 6), for the players of
 * the games f selects: per game the run with the most playouts, the last
 * stored among equals (schema/README.md); each reviewed ply counts for the
 * player who held its side. Sums are made here in a fixed order (player,
 * game, ply), so that every backend gives the same figures. *any is 0 when
 * the database holds no review at all (the report then has no such
 * columns).
 */
static int players_reviews(struct kifu_stats_ctx_ *c, const struct kifu_filter *f, struct pmap *m,
			   int *any)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	struct kifu_stmt *s = NULL;
	long long runs = 0;
	int found = 0, ret, rc, n;

	*any = 0;
	ret = kifu_db_has_(&found, c->st, "analysis_runs", c->err);
	if (ret == 0 && found)
		ret = kifu_db_query_int_(&runs, c->st, "SELECT count(*) FROM analysis_runs", c->err);
	if (ret < 0 || !runs)
		return ret;
	*any = 1;
	kifu_buf_puts(&sql, "SELECT s.player_id, p.loss, p.mark FROM games g "
			    "JOIN analysis_runs r ON r.game_id = g.id "
			    "JOIN analysis_plies p ON p.run_id = r.id "
			    "JOIN sides s ON s.game_id = g.id AND s.side_index = p.side_index WHERE ");
	ret = kifu_stats_source_sql_(&sql, &src, &n, c);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " AND r.id = " KIFU_DB_REVIEW_RUN_("g.id")
			    " ORDER BY s.player_id, g.id, p.ply");
	ret = kifu_stats_prepare_built_(c, &s, &sql, &src, "cannot read the analyses");
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		long k = pmap_find(m, kifu_db_column_int64_(s, 0));
		const char *mark = kifu_db_column_text_(s, 2);
		struct pl *p;
		double loss;

		if (k < 0)
			continue; /* a player the report does not list (see game_sides_count) */
		p = &m->v[k];
		/* a loss of expected score: from 0 to 1, as kifu_analyse_load reads it */
		ret = kifu_db_column_real_(&loss, s, 1, 0, 1, c->err, "analysis_plies.loss of a move "
					   "of player %lld", (long long)kifu_db_column_int64_(s, 0));
		if (ret < 0)
			break;
		p->analysed++;
		p->loss += loss;
		/* ? and ?? are the marks of loss >= KIFU_ANALYSE_MISTAKE */
		if (mark && (!strcmp(mark, "?") || !strcmp(mark, "??")))
			p->mistakes++;
	}
	if (ret == 0 && rc < 0)
		ret = kifu_stats_fail_db_(c, "cannot read the analyses");
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/*
 * Adds each side's accuracy in the game of the n plies rv (its sides' players
 * pids) to that player's, for the players m lists.
 */
static void add_accuracy(struct pmap *m, const struct kifu_ply_review *rv, size_t n,
			 const int64_t *pids, int nsides)
{
	struct kifu_analyse_side sides[KIFU_GAME_SIDES_MAX];
	int s;

	if (!n || nsides < 1 || nsides > KIFU_GAME_SIDES_MAX)
		return;
	kifu_analyse_sides(sides, nsides, rv, n);
	for (s = 0; s < nsides; s++) {
		long k = pids[s] >= 0 ? pmap_find(m, pids[s]) : -1;

		if (k < 0 || !sides[s].moves)
			continue;
		m->v[k].accuracy += sides[s].accuracy;
		m->v[k].accuracy_games++;
	}
}

/*
 * Each player's accuracy: in every game f selects, from the same review as
 * players_reviews, each side's accuracy over the whole game's plies
 * (kifu_analyse_sides: its windows take both sides' positions); a player's
 * is the mean over its reviewed games. Games in id order, so every backend
 * sums alike.
 */
static int players_accuracy(struct kifu_stats_ctx_ *c, const struct kifu_filter *f, struct pmap *m)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	struct kifu_stmt *s = NULL;
	struct kifu_ply_review *rv = NULL;
	size_t n = 0, cap = 0;
	int64_t game = -1, pids[KIFU_GAME_SIDES_MAX];
	int ret, rc, np, nsides = 0, k;

	kifu_buf_puts(&sql, "SELECT g.id, p.side_index, p.expected, p.played_score, p.loss, p.mark, "
			    "s.player_id, (SELECT count(*) FROM sides s2 WHERE s2.game_id = g.id) "
			    "FROM games g JOIN analysis_runs r ON r.game_id = g.id "
			    "JOIN analysis_plies p ON p.run_id = r.id "
			    "JOIN sides s ON s.game_id = g.id AND s.side_index = p.side_index WHERE ");
	ret = kifu_stats_source_sql_(&sql, &src, &np, c);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " AND r.id = (SELECT r2.id FROM analysis_runs r2 WHERE r2.game_id = g.id "
			    "ORDER BY r2.playouts DESC, r2.id DESC LIMIT 1) ORDER BY g.id, p.ply");
	ret = kifu_stats_prepare_built_(c, &s, &sql, &src, "cannot read the analyses");
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);
		int side = (int)kifu_db_column_int64_(s, 1);
		const char *mark = kifu_db_column_text_(s, 5);
		struct kifu_ply_review *r;

		if (id != game) {
			add_accuracy(m, rv, n, pids, nsides);
			game = id;
			n = 0;
			nsides = (int)kifu_db_column_int64_(s, 7);
			for (k = 0; k < KIFU_GAME_SIDES_MAX; k++)
				pids[k] = -1;
		}
		if (side < 0 || side >= KIFU_GAME_SIDES_MAX || side >= nsides) {
			ret = kifu_db_damaged_(c->st, c->err, "analysis_plies: a side index out of range");
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 256;
			void *t = realloc(rv, ncap * sizeof(*rv));

			if (!t) {
				ret = kifu_error_set(c->err, KIFU_ENOMEM, "players: out of memory");
				break;
			}
			rv = t;
			cap = ncap;
		}
		r = &rv[n++];
		memset(r, 0, sizeof(*r));
		r->side = side;
		r->expected = kifu_db_column_double_(s, 2);
		r->played_score = kifu_db_column_double_(s, 3);
		r->loss = kifu_db_column_double_(s, 4);
		r->mark = !mark ? KIFU_REVIEW_NONE : !strcmp(mark, "??") ? KIFU_REVIEW_BLUNDER :
			  !strcmp(mark, "?") ? KIFU_REVIEW_MISTAKE :
			  !strcmp(mark, "?!") ? KIFU_REVIEW_DUBIOUS : KIFU_REVIEW_NONE;
		pids[side] = kifu_db_column_int64_(s, 6);
	}
	if (ret == 0 && rc < 0)
		ret = kifu_stats_fail_db_(c, "cannot read the analyses");
	if (ret == 0)
		add_accuracy(m, rv, n, pids, nsides);
out:
	free(rv);
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/* The review columns of a row: empty for a player with no reviewed move. */
static void put_reviewed(struct kifu_report *rep, long row, const struct pl *p)
{
	long moves = kifu_report_add_col_(rep, "analysed_moves", 0, 0);
	long loss = kifu_report_add_col_(rep, "mean_loss", 0, 3);
	long mistakes = kifu_report_add_col_(rep, "mistakes", 0, 0);
	long accuracy = kifu_report_add_col_(rep, "accuracy", 0, 1);

	if (!p->analysed) {
		kifu_report_set_null_(rep, row, moves);
		kifu_report_set_null_(rep, row, loss);
		kifu_report_set_null_(rep, row, mistakes);
		kifu_report_set_null_(rep, row, accuracy);
		return;
	}
	kifu_report_set_int_(rep, row, moves, p->analysed);
	kifu_report_set_real_(rep, row, loss, p->loss / (double)p->analysed);
	kifu_report_set_int_(rep, row, mistakes, p->mistakes);
	if (p->accuracy_games)
		kifu_report_set_real_(rep, row, accuracy, p->accuracy / (double)p->accuracy_games);
	else
		kifu_report_set_null_(rep, row, accuracy);
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

/*
 * The rows of m's players into rep, best rated first; with gv, each row
 * also names that game and variant (by_variant); with part, only the
 * players whose name holds it without regard to case.
 */
static int build_players(struct kifu_report *rep, struct kifu_stats_ctx_ *c, struct pmap *m,
			 int reviews, const struct kifu_stats_gv_ *gv, const char *part)
{
	char folded[1024], name_folded[1024];
	struct pl **order = malloc((m->n ? m->n : 1) * sizeof(*order));
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret;

	if (!order)
		return kifu_stats_nomem_(c);
	ret = kifu_stats_prepare_(c, &s, "SELECT name FROM players WHERE id = ?1",
				  "cannot read players");
	for (i = 0; ret == 0 && i < m->n; i++) {
		struct pl *p = &m->v[i];

		kifu_db_bind_int64_(s, 1, p->pid);
		if (kifu_db_step_(s) == KIFU_DB_ROW)
			p->name = kifu_arena_strndup_(&rep->strings, kifu_stats_col_text_(s, 0),
						strlen(kifu_stats_col_text_(s, 0)));
		else
			p->name = kifu_arena_strndup_(&rep->strings, "", 0);
		if (!p->name)
			ret = kifu_stats_nomem_(c);
		kifu_db_reset_(s);
		order[i] = p;
	}
	kifu_db_finalize_(s);
	if (ret < 0)
		goto out;
	qsort(order, m->n, sizeof(*order), cmp_players);
	if (part && kifu_stats_fold_(folded, sizeof(folded), part) < 0)
		part = NULL; /* too long to be a part of any name: nothing matches */
	for (i = 0; i < m->n; i++) {
		const struct pl *p = order[i];
		long long finished = p->wins + p->draws + p->losses;
		long row;

		if (part && (kifu_stats_fold_(name_folded, sizeof(name_folded), p->name) < 0 ||
			     !strstr(name_folded, folded)))
			continue;
		row = kifu_report_add_row_(rep);
		kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "player", 0, 0), p->name);
		if (gv) {
			kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "game", 0, 0),
					      gv->g->name);
			kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "variant", 0, 0),
					      gv->g->variants[gv->v]);
		}
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0), p->games);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "wins", 0, 0), p->wins);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "draws", 0, 0), p->draws);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "losses", 0, 0),
				     p->losses);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "unfinished", 0, 0),
				     p->unfinished);
		kifu_stats_put_score_(rep, row, "score", 0, (double)p->wins + p->draw_points,
				      finished);
		if (p->rated)
			kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "rating", 0, 1),
					      p->rating);
		else
			kifu_report_set_null_(rep, row, kifu_report_add_col_(rep, "rating", 0, 1));
		if (reviews)
			put_reviewed(rep, row, p);
	}
	if (kifu_report_failed_(rep))
		ret = kifu_stats_nomem_(c);
out:
	free(order);
	return ret;
}

/*
 * by_variant: the games f selects summed per game and variant (each its
 * own sums, as players_sum_games sums them), each rated alone with the
 * same fit (kifu_store_sums_fit_): a player's rating in one variant says
 * nothing of another, as lichess keeps one per variant. Computed from the
 * games each time (the kept stats_players holds the all-games rating).
 */
static int players_by_variant(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			      const struct kifu_filter *f, const char *part)
{
	struct kifu_stats_source_ src = { f, 0, 0, 0, 0 };
	struct kifu_store_sums_ *sums[MAX_GV];
	struct kifu_buf sql = KIFU_BUF_INIT, result = KIFU_BUF_INIT;
	struct kifu_store_sums_game_ x;
	struct kifu_store_sides_ sides;
	struct kifu_stmt *s = NULL;
	int ret, rc, n, k, at = -1;

	memset(sums, 0, sizeof(sums));
	memset(&x, 0, sizeof(x));
	x.id = -1;
	x.sides = &sides;
	kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.result, s.side_index, s.player_id "
			    "FROM games g CROSS JOIN sides s WHERE ");
	ret = kifu_stats_source_sql_(&sql, &src, &n, c);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, " AND s.game_id = g.id ORDER BY g.id, s.side_index");
	ret = kifu_stats_prepare_built_(c, &s, &sql, &src, "cannot read games");
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);

		if (id != x.id) {
			if (at >= 0 && (ret = kifu_store_sums_add_(sums[at], &x,
								   1u << KIFU_SUMS_PLAYERS)) < 0)
				break;
			x.id = id;
			/* a game and variant the registry does not know is left out */
			at = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 1),
						 kifu_stats_col_text_(s, 2));
			if (at >= 0 && !sums[at] && kifu_store_sums_new_(&sums[at]) < 0) {
				ret = KIFU_ENOMEM;
				break;
			}
			x.g = at >= 0 ? c->gv[at].g : NULL;
			kifu_buf_reset(&result);
			kifu_buf_puts(&result, kifu_stats_col_text_(s, 3));
			if (result.failed) {
				ret = KIFU_ENOMEM;
				break;
			}
			x.result = result.data;
			sides.n = 0;
			sides.ok = 1;
		}
		kifu_store_sides_add_(&sides, kifu_db_column_int_(s, 4), kifu_db_column_int64_(s, 5));
	}
	if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
		ret = kifu_stats_fail_db_(c, "cannot read games");
	if (ret == 0 && at >= 0)
		ret = kifu_store_sums_add_(sums[at], &x, 1u << KIFU_SUMS_PLAYERS);
	if (ret == KIFU_ENOMEM)
		ret = kifu_stats_nomem_(c);
	kifu_db_finalize_(s);
	s = NULL;
	/* in the registry's order of games and variants */
	for (k = 0; ret == 0 && k < c->ngv; k++) {
		struct pmap m;

		if (!sums[k])
			continue;
		memset(&m, 0, sizeof(m));
		ret = kifu_store_sums_fit_(sums[k], c->err);
		if (ret == 0)
			ret = players_from_sums(c, sums[k], &m);
		if (ret == 0)
			ret = build_players(rep, c, &m, 0, &c->gv[k], part);
		pmap_release(&m);
	}
out:
	for (k = 0; k < MAX_GV; k++)
		kifu_store_sums_free_(sums[k]);
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	kifu_buf_release(&result);
	return ret;
}

/* The players report into rep. */
static int players_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			  const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct pmap m;
	int ret, reviews = 0;

	if (opt->by_variant)
		return players_by_variant(rep, c, f, opt->name_part);
	memset(&m, 0, sizeof(m));
	ret = players_collect(c, f, opt->flags, &m);
	if (ret == 0)
		ret = players_reviews(c, f, &m, &reviews);
	if (ret == 0 && reviews)
		ret = players_accuracy(c, f, &m);
	if (ret == 0)
		ret = build_players(rep, c, &m, reviews, NULL, opt->name_part);
	pmap_release(&m);
	return ret;
}

/* Brings stats_players up to date (kifu_stats_refresh). */
static int players_refresh(struct kifu_stats_ctx_ *c)
{
	struct pmap m;
	int ret;

	memset(&m, 0, sizeof(m));
	ret = players_collect(c, NULL, 0, &m);
	pmap_release(&m);
	return ret;
}

static const char *const players_columns[] = { "player", "games", "wins", "draws", "losses",
					       "unfinished", "score", "rating", NULL };

const struct kifu_stats_kind_ kifu_stats_players_ = {
	.name = "players",
	.kind = KIFU_STATS_PLAYERS,
	.report = players_report,
	.refresh = players_refresh,
	.empty_columns = players_columns,
};
