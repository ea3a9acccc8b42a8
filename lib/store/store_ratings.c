/*
 * The players' ratings from the sums kifu-stats keeps (store_sums.c): the
 * Bradley-Terry fit (lib/util/bt.c) over each player's points and the
 * pairings per pair of players, with the players taken in the order of
 * their first counted game, as they came when every game was read in id
 * order, so that the ratings are the same to the last bit however the
 * sums were gathered (from the games, from the kept tables); reading the
 * kept tables, and writing the ratings back. kifu_store_import_end fits
 * them so at the end of an import, the players report where they are due.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/store_sums_impl.h"
#include "util/bt.h"

static int cmp_first(const void *x, const void *y)
{
	const struct kifu_store_sums_player_ *a = *(const struct kifu_store_sums_player_ *const *)x;
	const struct kifu_store_sums_player_ *b = *(const struct kifu_store_sums_player_ *const *)y;

	if (a->first_game != b->first_game)
		return a->first_game < b->first_game ? -1 : 1;
	return (a->first_side > b->first_side) - (a->first_side < b->first_side);
}

int kifu_store_sums_fit_(struct kifu_store_sums_ *a, struct kifu_error *err)
{
	size_t n = a->npl ? a->npl : 1, i, nrated = 0;
	struct kifu_store_sums_player_ **order = malloc(n * sizeof(*order));
	size_t *dense = malloc(n * sizeof(*dense));
	double *ratings = malloc(n * sizeof(*ratings)), *score = malloc(n * sizeof(*score));
	struct kifu_bt_pair *pairs = malloc((a->npr ? a->npr : 1) * sizeof(*pairs));
	int ret = 0;

	if (!order || !dense || !ratings || !score || !pairs ||
	    (a->pl_stale && kifu_store_sums_reindex_(a, 0) < 0)) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < a->npl; i++)
		order[i] = &a->pl[i];
	qsort(order, a->npl, sizeof(*order), cmp_first);
	for (i = 0; i < a->npl; i++) {
		struct kifu_store_sums_player_ *p = order[i];

		p->rated = p->wins + p->draws + p->losses > 0;
		dense[p - a->pl] = nrated;
		if (p->rated)
			score[nrated++] = p->points;
	}
	for (i = 0; i < a->npr; i++) {
		long x = kifu_store_sums_find_(&a->plmap, a->pr[i].a, 0), y = kifu_store_sums_find_(&a->plmap, a->pr[i].b, 0);

		/* a pair is of two players with finished games (players_load checks the tables') */
		if (x < 0 || y < 0 || x == y || !a->pl[x].rated || !a->pl[y].rated) {
			ret = kifu_error_set(err, KIFU_ERANGE, "ratings: a pair of no two rated players");
			goto out;
		}
		pairs[i].a = (uint32_t)(dense[x] < dense[y] ? dense[x] : dense[y]);
		pairs[i].b = (uint32_t)(dense[x] < dense[y] ? dense[y] : dense[x]);
		pairs[i].games = (double)a->pr[i].games;
	}
	ret = kifu_bt_fit_(ratings, nrated, score, pairs, a->npr, err);
	for (i = 0; ret == 0 && i < a->npl; i++)
		if (a->pl[i].rated)
			a->pl[i].rating = ratings[dense[i]];
out:
	free(order);
	free(dense);
	free(ratings);
	free(score);
	free(pairs);
	return ret;
}

int kifu_store_sums_ratings_write_(struct kifu_store *st, const struct kifu_store_sums_ *a,
				   int64_t last, int depth, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret = 0;

	if (kifu_db_prepare_(&s, st, "UPDATE stats_players SET rating = ?2 WHERE player_id = ?1",
			     err) < 0)
		ret = kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < a->npl; i++) {
		kifu_db_bind_int64_(s, 1, a->pl[i].pid);
		if (a->pl[i].rated)
			kifu_db_bind_double_(s, 2, a->pl[i].rating);
		else
			kifu_db_bind_null_(s, 2);
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	return ret == 0 ? kifu_store_sums_state_set_(st, "players", last, depth, err) : ret;
}

/*
 * The pairings of each player (stats_pairs) against its results
 * (stats_players), as players_add counts them: a game of n sides pairs
 * its winner (or, drawn, each side) with the n - 1 others and a loser with
 * the winner, so a player's pairings are from wins + draws + losses to
 * 3 (wins + draws) + losses (no game has more than four sides). Damage
 * otherwise: pairs deleted or counts changed by hand, which the fit would
 * turn into ratings of thousands of points or none.
 */
static int pairings_check(struct kifu_store_sums_ *a, struct kifu_store *st,
			  struct kifu_error *err)
{
	long long *n = calloc(a->npl ? a->npl : 1, sizeof(*n));
	size_t i;
	int ret = 0;

	if (!n || (a->pl_stale && kifu_store_sums_reindex_(a, 0) < 0)) {
		free(n);
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	}
	for (i = 0; ret == 0 && i < a->npr; i++) {
		long x = kifu_store_sums_find_(&a->plmap, a->pr[i].a, 0);
		long y = kifu_store_sums_find_(&a->plmap, a->pr[i].b, 0);

		ret = kifu_db_sum_(&n[x], a->pr[i].games, st, err, "stats_pairs.games of player "
				   "%lld", (long long)a->pr[i].a);
		if (ret == 0)
			ret = kifu_db_sum_(&n[y], a->pr[i].games, st, err, "stats_pairs.games of "
					   "player %lld", (long long)a->pr[i].b);
	}
	for (i = 0; ret == 0 && i < a->npl; i++) {
		const struct kifu_store_sums_player_ *p = &a->pl[i];
		/* (the results add up to games, checked as read: only 3 (wins + draws) may not fit) */
		long long least = p->wins + p->draws + p->losses, most = LLONG_MAX;

		if (p->wins + p->draws <= (LLONG_MAX - p->losses) / 3)
			most = 3 * (p->wins + p->draws) + p->losses;

		if (n[i] < least || n[i] > most)
			ret = kifu_db_damaged_(st, err, "stats_pairs: player %lld has %lld pairings "
					       "for %lld wins, %lld draws and %lld losses",
					       (long long)p->pid, n[i], p->wins, p->draws,
					       p->losses);
	}
	free(n);
	return ret;
}

/*
 * Reads stats_players with stats_player_sums, and stats_pairs, into a
 * (empty), each value checked as the reports check what they read.
 */
static int players_load(struct kifu_store_sums_ *a, struct kifu_store *st, struct kifu_error *err)
{
	static const char *const names[] = { "games", "wins", "draws", "losses", "unfinished" };
	struct kifu_stmt *s = NULL;
	int ret = 0, rc;

	if (kifu_db_prepare_(&s, st, "SELECT p.player_id, p.games, p.wins, p.draws, p.losses, "
				     "p.unfinished, p.draw_points, x.first_game, x.first_side, x.points "
				     "FROM stats_players p LEFT JOIN stats_player_sums x "
				     "ON x.player_id = p.player_id", err) < 0)
		return kifu_store_fail_(st, "cannot read the statistics", err);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		long long pid = kifu_db_column_int64_(s, 0), v[5], first_game, first_side;
		struct kifu_store_sums_player_ *p;
		double draw_points, points;

		ret = kifu_db_column_counts_(v, s, 1, 5, names, 1, err, "stats_players of player %lld",
					     pid);
		if (ret == 0)
			ret = kifu_db_column_real_(&draw_points, s, 6, 0, (double)v[2], err,
						   "stats_players.draw_points of player %lld", pid);
		if (ret == 0)
			ret = kifu_db_column_whole_(&first_game, s, 7, 1, INT64_MAX, err,
						    "stats_player_sums.first_game of player %lld", pid);
		if (ret == 0)
			ret = kifu_db_column_whole_(&first_side, s, 8, 0, KIFU_SUMS_MAX_SIDES - 1, err,
						    "stats_player_sums.first_side of player %lld", pid);
		/* at most 3 points a game: no game has more than four sides */
		if (ret == 0)
			ret = kifu_db_column_real_(&points, s, 9, 0, 3 * (double)v[0], err,
						   "stats_player_sums.points of player %lld", pid);
		if (ret < 0)
			break;
		p = kifu_store_sums_player_get_(a, pid, first_game, (int)first_side);
		if (!p) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			break;
		}
		p->games = v[0];
		p->wins = v[1];
		p->draws = v[2];
		p->losses = v[3];
		p->unfinished = v[4];
		p->draw_points = draw_points;
		p->points = points;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot read the statistics", err);
	kifu_db_finalize_(s);
	s = NULL;
	if (ret < 0)
		return ret;
	if (kifu_db_prepare_(&s, st, "SELECT a, b, games FROM stats_pairs", err) < 0)
		return kifu_store_fail_(st, "cannot read the statistics", err);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		long long x = kifu_db_column_int64_(s, 0), y = kifu_db_column_int64_(s, 1), games;

		long px = kifu_store_sums_find_(&a->plmap, x, 0), py = kifu_store_sums_find_(&a->plmap, y, 0);

		ret = kifu_db_column_whole_(&games, s, 2, 1, KIFU_DB_COUNT_MAX, err,
					    "stats_pairs.games of players %lld and %lld", x, y);
		/* what the store writes: two players, in order, who both finished games */
		if (ret == 0 && (x >= y || px < 0 || py < 0 ||
				 !(a->pl[px].wins + a->pl[px].draws + a->pl[px].losses) ||
				 !(a->pl[py].wins + a->pl[py].draws + a->pl[py].losses)))
			ret = kifu_db_damaged_(st, err, "stats_pairs: players %lld and %lld are no "
					       "pair of stats_players with finished games", x, y);
		if (ret == 0 && kifu_store_sums_pair_push_(a, x, y, games) < 0)
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		if (ret < 0)
			break;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot read the statistics", err);
	kifu_db_finalize_(s);
	return ret == 0 ? pairings_check(a, st, err) : ret;
}

int kifu_store_sums_ratings_(struct kifu_store_sums_ *a, struct kifu_store *st, int64_t last,
			     struct kifu_error *err)
{
	int ret = players_load(a, st, err);

	if (ret == 0)
		ret = kifu_store_sums_fit_(a, err);
	return ret == 0 ? kifu_store_sums_ratings_write_(st, a, last, KIFU_SUMS_RATINGS_FITTED, err)
			: ret;
}
