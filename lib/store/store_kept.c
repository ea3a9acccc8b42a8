/*
 * The sums kifu-stats keeps (stats_outcomes, stats_lines, stats_players
 * with schema 11's stats_player_sums and stats_pairs, schema 12's
 * stats_balance), kept by the store
 * as it writes games: a derived table's hooks (store_impl.h) that count
 * each game with store_sums.c's functions from the record and replay the
 * store holds, sum them per transaction and write them at the commit with
 * upserts, in the transaction of the games they count (held across
 * commits in bulk mode, as the tree counts are). stats_state says up to
 * which game id a table counts: a transaction counts its games into a
 * table only when that table counted every game before its first (its
 * last_id is then that game's predecessor), or when no game came before
 * (the table is emptied and counted from nothing); otherwise it leaves the
 * table behind for the reports' lazy refresh, as before. On PostgreSQL the
 * writers take turns under the games' lock (schema/README.md
 * "Concurrency"), so the sums are exact there too.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/replay.h"
#include "store/store_impl.h"

/* Sums held in bulk mode before they are written (rows of every table). */
#define HELD_MAX (1u << 18)

static const char *const table_name[KIFU_SUMS_NTABLES] = { "outcomes", "lines", "players",
							    "balance" };

struct kifu_store_kept_ {
	struct kifu_store_sums_ *tx, *held; /* the open transaction's games; committed, unwritten */
	int tracking;        /* -1 unknown (at the next game), else which tables are counted */
	int stopped;         /* bulk mode after a rollback: what is held is written, no more added */
	long long tx_games, held_games; /* games summed in tx, in held */
	struct kifu_buf line;           /* a game's opening line, reused */
	int64_t base[KIFU_SUMS_NTABLES]; /* stats_state's last_id when counting began */
	int64_t last_id;     /* the last game counted in tx (or held) */
	int64_t held_last;   /* the last game counted in held */
};

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

static struct kifu_store_kept_ *kept_of(struct kifu_store *st)
{
	struct kifu_store_kept_ *k = st->kept;

	if (k)
		return k;
	k = calloc(1, sizeof(*k));
	if (!k || kifu_store_sums_new_(&k->tx) < 0 || kifu_store_sums_new_(&k->held) < 0) {
		if (k) {
			kifu_store_sums_free_(k->tx);
			free(k);
		}
		return NULL;
	}
	k->tracking = -1;
	st->kept = k;
	return k;
}

static void kept_release(struct kifu_store *st)
{
	struct kifu_store_kept_ *k = st->kept;

	if (!k)
		return;
	kifu_store_sums_free_(k->tx);
	kifu_store_sums_free_(k->held);
	kifu_buf_release(&k->line);
	free(k);
	st->kept = NULL;
}

/*
 * stats_state's depth of table t: lines, the plies kept; players, 1 when
 * the ratings wait to be fitted, 2 when they are (first: the smallest
 * that says the sums are kept).
 */
static int state_depth(int t, int first)
{
	if (t == KIFU_SUMS_LINES)
		return KIFU_SUMS_LINE_DEPTH;
	if (t == KIFU_SUMS_PLAYERS)
		return first ? KIFU_SUMS_RATINGS_DUE : KIFU_SUMS_RATINGS_FITTED;
	return 0;
}

/*
 * The state of table t: *last its last_id (-1 without a row, or with one
 * of another depth: counted anew).
 */
static int state_of(int64_t *last, struct kifu_store *st, int t, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int rc;

	*last = -1;
	if (kifu_db_prepare_(&s, st, "SELECT last_id, depth FROM stats_state WHERE name = ?1",
			     err) < 0)
		return kifu_store_fail_(st, "cannot read the statistics state", err);
	kifu_db_bind_text_static_(s, 1, table_name[t], -1);
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW && (t == KIFU_SUMS_OUTCOMES || t == KIFU_SUMS_BALANCE ||
				  (!kifu_db_column_is_null_(s, 1) &&
				   kifu_db_column_int_(s, 1) >= state_depth(t, 1) &&
				   kifu_db_column_int_(s, 1) <= state_depth(t, 0))))
		*last = kifu_db_column_int64_(s, 0);
	kifu_db_finalize_(s);
	return rc == KIFU_DB_ROW || rc == KIFU_DB_DONE
		? 0 : kifu_store_fail_(st, "cannot read the statistics state", err);
}

static int state_write(struct kifu_store *st, int t, int64_t last, struct kifu_error *err)
{
	return kifu_store_sums_state_set_(st, table_name[t], last, state_depth(t, 1), err);
}

/*
 * Which tables game id's transaction counts: those that count every game
 * before it; with no game before it, every table (emptied: what it holds
 * counts games no longer stored).
 */
static int tracking_start(struct kifu_store_kept_ *k, struct kifu_store *st, int64_t id,
			  struct kifu_error *err)
{
	static const char *const clear[KIFU_SUMS_NTABLES] = {
		"DELETE FROM stats_outcomes", "DELETE FROM stats_lines", "DELETE FROM stats_players",
		"DELETE FROM stats_balance" };
	struct kifu_stmt *s = NULL;
	int64_t last, before = 0;
	int t, ret = 0;

	k->tracking = 0;
	k->stopped = 0;
	if (st->version < 3)
		return 0;
	if (kifu_db_prepare_(&s, st, "SELECT coalesce(max(id), 0) FROM games WHERE id < ?1",
			     err) < 0)
		return kifu_store_fail_(st, "cannot read the statistics state", err);
	kifu_db_bind_int64_(s, 1, id);
	if (kifu_db_step_(s) == KIFU_DB_ROW)
		before = kifu_db_column_int64_(s, 0);
	else
		ret = kifu_store_fail_(st, "cannot read the statistics state", err);
	kifu_db_finalize_(s);
	for (t = 0; ret == 0 && t < KIFU_SUMS_NTABLES; t++) {
		/* The players' sums from schema 11 on (stats_pairs), the balance from 12. */
		if ((t == KIFU_SUMS_PLAYERS && st->version < 11) ||
		    (t == KIFU_SUMS_BALANCE && st->version < 12))
			continue;
		ret = state_of(&last, st, t, err);
		if (ret < 0)
			break;
		if (last < 0 && before == 0) {
			ret = kifu_store_exec_(st, clear[t], "cannot update the statistics", err);
			if (ret == 0 && t == KIFU_SUMS_PLAYERS)
				ret = kifu_store_sums_players_clear_(st, err);
			if (ret == 0)
				ret = state_write(st, t, 0, err);
			last = 0;
		}
		if (ret == 0 && last >= 0 && last == before) {
			k->tracking |= 1 << t;
			k->base[t] = last;
		}
	}
	return ret;
}

/*
 * What the balance counts of a game being written: its level from its
 * record's players as insert_sides stores them (a side's players in record
 * order; a side with two is no side of one player), and its legal moves,
 * summed by the import's reading thread (KIFU_VALIDATE_BRANCHING) or here
 * from the replayed moves.
 */
static int balance_of(struct kifu_store_sums_game_ *x, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	const char *names[KIFU_SUMS_MAX_SIDES] = { NULL };
	size_t i;
	int side, ok = g->nsides <= KIFU_SUMS_MAX_SIDES;

	for (side = 0; ok && side < g->nsides; side++)
		for (i = 0; i < rec->nplayers; i++) {
			const struct kifu_record_player *p = &rec->players[i];

			if (!p->side || !p->name || strcmp(p->side, g->sides[side]) != 0)
				continue;
			if (names[side])
				ok = 0;
			names[side] = p->name;
		}
	x->level = kifu_store_sums_level_(&x->spec, &x->spec_len, names, ok ? g->nsides : 0, ok);
	if (x->level == KIFU_SUMS_LEVEL_OUT)
		return 0;
	if (rp->legal_plies == rp->nplies) {
		x->legal = rp->legal;
		return 0;
	}
	return kifu_store_sums_legal_(&x->legal, g, rp->variant, x->first, rp->moves, rp->nplies,
				      err);
}

static int kept_game(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
		     const struct kifu_replay *rp, struct kifu_error *err)
{
	struct kifu_store_kept_ *k = kept_of(st);
	struct kifu_store_sums_game_ x;
	size_t ends[KIFU_SUMS_LINE_DEPTH], ply;
	int ret;

	if (!k)
		return nomem(err);
	if (k->tracking < 0) {
		ret = tracking_start(k, st, id, err);
		if (ret < 0)
			return ret;
	}
	if (!k->tracking || k->stopped)
		return 0;
	memset(&x, 0, sizeof(x));
	kifu_buf_reset(&k->line);
	x.g = rp->game;
	x.variant = rp->variant;
	x.first = rp->first >= 0 ? rp->first : 0;
	x.result = rec->result ? rec->result : "unfinished";
	x.termination = kifu_store_termination_(rec);
	x.plies = (long)rp->nplies;
	x.id = id;
	x.sides = &st->sides;
	for (ply = 1; ply <= rp->nplies && ply <= KIFU_SUMS_LINE_DEPTH; ply++) {
		if (ply > 1)
			kifu_buf_putc(&k->line, ',');
		kifu_buf_puts(&k->line, kifu_store_ply_text_(rec, rp, ply));
		ends[ply - 1] = k->line.len;
	}
	x.nlines = ply - 1;
	x.line = k->line.data ? k->line.data : "";
	x.ends = ends;
	x.hashes = rp->hashes + 1;
	if (k->tracking & (1 << KIFU_SUMS_BALANCE)) {
		ret = balance_of(&x, rec, rp, err);
		if (ret < 0)
			return ret;
	}
	ret = k->line.failed ? KIFU_ENOMEM : kifu_store_sums_add_(k->tx, &x, (unsigned)k->tracking);
	if (ret < 0)
		return nomem(err);
	k->last_id = id;
	k->tx_games++;
	return 0;
}

/* *n: the games stored with an id in (after, upto]. */
static int games_between(long long *n, struct kifu_store *st, int64_t after, int64_t upto,
			 struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret = 0;

	if (kifu_db_prepare_(&s, st, "SELECT count(*) FROM games WHERE id > ?1 AND id <= ?2",
			     err) < 0)
		return kifu_store_fail_(st, "cannot read the statistics state", err);
	kifu_db_bind_int64_(s, 1, after);
	kifu_db_bind_int64_(s, 2, upto);
	if (kifu_db_step_(s) == KIFU_DB_ROW)
		*n = kifu_db_column_int64_(s, 0);
	else
		ret = kifu_store_fail_(st, "cannot read the statistics state", err);
	kifu_db_finalize_(s);
	return ret;
}

/*
 * Writes the held sums of the tables still counted, and their state; a
 * table whose state moved meanwhile (a report brought it up to date while
 * a bulk load held sums) is no longer counted, its sums dropped.
 */
static int held_write(struct kifu_store *st, struct kifu_store_kept_ *k, struct kifu_error *err)
{
	long long n = 0;
	int64_t last;
	int t, ret = 0;

	if (!k->held_last)
		return 0;
	for (t = 0; t < KIFU_SUMS_NTABLES && ret == 0; t++) {
		if (!(k->tracking & (1 << t)))
			continue;
		ret = state_of(&last, st, t, err);
		/* In bulk mode, across commits: no game but those held came since. */
		if (ret == 0 && last == k->base[t] && st->bulk)
			ret = games_between(&n, st, last, k->held_last, err);
		if (ret == 0 && (last != k->base[t] || (st->bulk && n != k->held_games))) {
			k->tracking &= ~(1 << t);
			continue;
		}
		if (ret == 0)
			ret = kifu_store_sums_write_one_(st, k->held, t, err);
		if (ret == 0)
			ret = state_write(st, t, k->held_last, err);
		if (ret == 0)
			k->base[t] = k->held_last;
	}
	if (ret == 0) {
		kifu_store_sums_clear_(k->held);
		k->held_games = 0;
	}
	return ret;
}

static int kept_commit(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_store_kept_ *k = st->kept;
	int ret = 0;

	if (!k)
		return 0;
	if (k->tracking > 0 && k->last_id) {
		if (kifu_store_sums_merge_(k->held, k->tx) < 0)
			ret = nomem(err);
		k->held_last = k->last_id;
		k->held_games += k->tx_games;
	}
	kifu_store_sums_clear_(k->tx);
	k->tx_games = 0;
	if (ret == 0 && (!st->bulk || kifu_store_sums_count_(k->held, KIFU_SUMS_LINES) +
			 kifu_store_sums_count_(k->held, KIFU_SUMS_OUTCOMES) +
			 kifu_store_sums_npairs_(k->held) >= HELD_MAX))
		ret = held_write(st, k, err);
	if (!st->bulk) {
		/* Another writer may come between two transactions. */
		k->tracking = -1;
		k->held_last = k->last_id = 0;
		k->held_games = 0;
	}
	return ret;
}

static void kept_rollback(struct kifu_store *st)
{
	struct kifu_store_kept_ *k = st->kept;

	if (!k)
		return;
	kifu_store_sums_clear_(k->tx);
	k->tx_games = 0;
	k->last_id = k->held_last;
	if (!st->bulk) {
		kifu_store_sums_clear_(k->held);
		k->held_last = k->last_id = 0;
		k->held_games = 0;
		k->tracking = -1;
	} else {
		/*
		 * The rolled back games were to be counted next: count no more
		 * (what is held is written at the end, the rest left to the reports).
		 */
		k->stopped = 1;
	}
}

static int kept_restore(struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_store_kept_ *k = st->kept;
	int ret = 0;

	if (!k)
		return 0;
	ret = held_write(st, k, err);
	k->tracking = -1;
	k->held_last = k->last_id = 0;
	k->held_games = 0;
	return ret;
}

const struct kifu_store_derived_ kifu_store_sums_derived_ = {
	.name = "sums",
	.game = kept_game,
	.commit = kept_commit,
	.rollback = kept_rollback,
	.restore = kept_restore,
	.release = kept_release,
};
