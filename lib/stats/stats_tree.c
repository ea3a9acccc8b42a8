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

#include "kifu/date.h"
#include "kifu/game.h"
#include "kifu/store.h"
#include "stats/stats_impl.h"

#define TREE_MAX_SIDES 4  /* as MAX_SIDES, the wins arrays of stats_impl.h */

/* One next move and the games that played it. */
struct tree_move {
	char *move;
	long long games, wins[TREE_MAX_SIDES], draws, unfinished;
	long double sum_plies;
	/* The earliest and latest date of its games: first day, space, as written ("" none). */
	char first[32], last[32];
};

/* Keeps in e the earlier first and the later last of its own and these (NULL: none). */
static void tree_seen(struct tree_move *e, const char *first, const char *last)
{
	if (first && *first && strlen(first) < sizeof(e->first) &&
	    (!e->first[0] || strcmp(first, e->first) < 0))
		strcpy(e->first, first);
	if (last && *last && strlen(last) < sizeof(e->last) &&
	    (!e->last[0] || strcmp(last, e->last) > 0))
		strcpy(e->last, last);
}

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
/*
 * Adds b's counts to a, each sum checked (kept counts are read as they are
 * stored: a damaged database could make them overflow).
 */
static int tree_move_add(struct tree_move *a, const struct tree_move *b, struct kifu_store *st,
			 struct kifu_error *err)
{
	int k, ret;

	ret = kifu_db_sum_(&a->games, b->games, st, err, "the games of move '%s'", a->move);
	for (k = 0; k < TREE_MAX_SIDES && ret == 0; k++)
		ret = kifu_db_sum_(&a->wins[k], b->wins[k], st, err, "the wins of move '%s'", a->move);
	if (ret == 0)
		ret = kifu_db_sum_(&a->draws, b->draws, st, err, "the draws of move '%s'", a->move);
	if (ret == 0)
		ret = kifu_db_sum_(&a->unfinished, b->unfinished, st, err,
				   "the unfinished games of move '%s'", a->move);
	a->sum_plies += b->sum_plies;
	tree_seen(a, b->first, b->last);
	return ret;
}

/* Adds n games of result to e (their plies adding up to plies). */
static int tree_count(struct tree_move *e, const struct kifu_game *g, const char *result,
		      long long n, long long plies, struct kifu_store *st, struct kifu_error *err)
{
	struct tree_move b;
	int side = result ? kifu_game_side_index(g, result) : -1;

	memset(&b, 0, sizeof(b));
	b.games = n;
	b.sum_plies = (long double)plies;
	if (side >= 0 && side < TREE_MAX_SIDES)
		b.wins[side] = n;
	else if (result && !strcmp(result, "draw"))
		b.draws = n;
	else
		b.unfinished = n;
	return tree_move_add(e, &b, st, err);
}

/*
 * The position asked for and what --symmetric needs of it: its canonical
 * orientation C (map_state by sym) and every orientation of C with its
 * plain hash, to recognise in which one a game reached it.
 */
struct tree_pos {
	const struct kifu_game *g;
	struct kifu_pos *pos;       /* the position asked for, P */
	struct kifu_pos *canon;     /* C */
	struct kifu_pos *scratch;   /* room to map into */
	struct kifu_pos **orient;   /* [j]: map_state(C, j) */
	uint64_t *orient_hash;
	int sym;                    /* map_state(P, sym) = C */
};

static void tree_pos_release(struct tree_pos *tp)
{
	int j;

	kifu_pos_free(tp->pos);
	kifu_pos_free(tp->canon);
	kifu_pos_free(tp->scratch);
	for (j = 0; tp->orient && j < tp->g->nsymmetries; j++)
		kifu_pos_free(tp->orient[j]);
	free(tp->orient);
	free(tp->orient_hash);
}

/* Writes move m of state (legal there) mapped by symmetry k, as text, into out. */
static void map_text(const struct kifu_game *g, const void *state, void *scratch, kifu_move m,
		     int k, char *out)
{
	g->map_state(scratch, state, k);
	g->format_move(scratch, g->map_move(state, m, k), out);
}

/*
 * Whether games that played move text at state (the position as they
 * had it) stored after it the position that move makes: next, the hash
 * game_data.hashes holds at the ply after, of game (one of them). A legal
 * move stored in place of the one played moves no game into another row
 * silently: that is damage. A move that does not parse is left to
 * tree_report's check, which names it.
 */
static int tree_next_check(const struct tree_pos *tp, const void *state, const char *text,
			   size_t len, uint64_t next, long long game, uint64_t hash,
			   struct kifu_store *st, struct kifu_error *err)
{
	const struct kifu_game *g = tp->g;
	char buf[KIFU_MOVE_TEXT_MAX];
	struct kifu_error why;
	kifu_move m;
	uint64_t child;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (g->parse_move(state, buf, &m, &why) < 0)
		return 0;
	memcpy(tp->scratch->state, state, g->state_size);
	g->apply(tp->scratch->state, m);
	child = g->hash(tp->scratch->state);
	if (child == next)
		return 0;
	return kifu_db_damaged_(st, err, "game_data.moves of game %lld: move '%s' at %016" PRIx64
				" does not reach the position game_data.hashes holds after it "
				"(%016" PRIx64 ", not %016" PRIx64 ")", game, buf, hash, next, child);
}

/*
 * Adds the group of games whose position had the plain hash ph and that
 * played move text there, to t under the move as C shows it (--symmetric):
 * the game's orientation j of C is the one of hash ph, so the move maps
 * onto C by the inverse of j. A move that does not parse (a database
 * edited by hand) is counted under its text.
 */
static struct tree_move *tree_canon_move(struct tree_moves *t, const struct tree_pos *tp,
					 uint64_t ph, const char *text, size_t len)
{
	const struct kifu_game *g = tp->g;
	char buf[KIFU_MOVE_TEXT_MAX], out[KIFU_MOVE_TEXT_MAX];
	struct kifu_error why;
	kifu_move m;
	int j;

	for (j = 0; j < g->nsymmetries; j++)
		if (tp->orient_hash[j] == ph)
			break;
	if (j == g->nsymmetries || len >= sizeof(buf))
		return tree_move_get(t, text, len);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (g->parse_move(tp->orient[j]->state, buf, &m, &why) < 0)
		return tree_move_get(t, text, len);
	map_text(g, tp->orient[j]->state, tp->scratch->state, m, g->symmetry_inverse(j), out);
	return tree_move_get(t, out, strlen(out));
}

/*
 * The rows the tree counts kept at import hold (tree_moves): for a
 * position some game reached in its first plies, every game that reached
 * it, at any ply. *found: whether it is such a position.
 */
static int tree_read_counts(int *found, struct tree_moves *t, long long *ended,
			    struct kifu_store *st,
			    const struct kifu_game *g, const char *variant, int symmetric,
			    uint64_t hash, struct kifu_error *err)
{
	static const char *const tree_count_names[] = { "games", "w0", "w1", "w2", "w3", "draws",
						       "unfinished" };
	struct kifu_stmt *s = NULL;
	int ret = 0, rc, k;

	/* The dates from schema 8 on (an older file is read as it is). */
	if (kifu_db_prepare_(&s, st, kifu_store_version(st) >= 8
			     ? "SELECT move, games, w0, w1, w2, w3, draws, unfinished, plies, "
			       "first_seen, last_seen FROM tree_moves WHERE \"symmetric\" = ?1 AND "
			       "hash = ?2 AND game = ?3 AND variant = ?4"
			     : "SELECT move, games, w0, w1, w2, w3, draws, unfinished, plies, NULL, NULL "
			       "FROM tree_moves WHERE \"symmetric\" = ?1 AND hash = ?2 AND game = ?3 AND "
			       "variant = ?4", err) < 0)
		return kifu_search_fail_db_(st, "cannot read the tree", err);
	kifu_db_bind_int_(s, 1, symmetric);
	kifu_db_bind_int64_(s, 2, (int64_t)hash);
	kifu_db_bind_text_static_(s, 3, g->name, -1);
	kifu_db_bind_text_static_(s, 4, variant, -1);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		struct tree_move *e, b;
		long long v[9];

		/* Schema 8's row of move "": the games that ended at the position. */
		if (kifu_db_column_bytes_(s, 0) == 0) {
			*found = 1;
			ret = kifu_db_column_whole_(&v[1], s, 1, 1, KIFU_DB_COUNT_MAX, err,
						    "tree_moves: the games that ended at %016" PRIx64,
						    hash);
			if (ret == 0)
				ret = kifu_db_sum_(ended, v[1], st, err,
						   "tree_moves: the games that ended at %016" PRIx64, hash);
			if (ret < 0)
				break;
			continue;
		}
		e = tree_move_get(t, kifu_db_column_text_(s, 0), kifu_db_column_bytes_(s, 0));
		if (!e) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			break;
		}
		*found = 1;
		/* counts no import writes are damage, not an answer */
		ret = kifu_db_column_counts_(&v[1], s, 1, 7, tree_count_names, 0, err,
					     "tree_moves of move '%s'", e->move);
		if (ret == 0)
			ret = kifu_db_column_whole_(&v[8], s, 8, 0, KIFU_DB_COUNT_MAX, err,
						    "tree_moves of move '%s': plies", e->move);
		if (ret < 0)
			break;
		memset(&b, 0, sizeof(b));
		b.games = v[1];
		for (k = 0; k < TREE_MAX_SIDES; k++)
			b.wins[k] = v[2 + k];
		b.draws = v[6];
		b.unfinished = v[7];
		b.sum_plies = (long double)v[8];
		ret = tree_move_add(e, &b, st, err);
		for (k = 9; k <= 10 && ret == 0; k++)
			ret = kifu_db_column_seen_(s, k, err, "tree_moves.%s of move '%s'",
						   k == 9 ? "first_seen" : "last_seen", e->move);
		if (ret < 0)
			break;
		tree_seen(e, kifu_db_column_text_(s, 9), kifu_db_column_text_(s, 10));
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot read the tree", err);
	kifu_db_finalize_(s);
	return ret;
}

/*
 * Prepares sql (its filter's parameters from ?3 on) with hash as ?1 and
 * after as ?2.
 */
static int tree_prepare(struct kifu_stmt **s, struct kifu_store *st, const struct kifu_buf *sql,
			const struct kifu_filter *f, const struct tree_pos *tp, int symmetric,
			uint64_t hash, int after, struct kifu_error *err)
{
	int ret;

	if (sql->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (kifu_db_prepare_(s, st, sql->data, err) < 0)
		return kifu_search_fail_db_(st, "cannot read the tree", err);
	kifu_db_bind_int64_(*s, 1, (int64_t)hash);
	kifu_db_bind_int_(*s, 2, after);
	if (symmetric && tp->orient_hash)
		kifu_store_reach_bind_(*s, st, 1, tp->orient_hash, tp->g->nsymmetries);
	ret = kifu_filter_bind_(*s, 3, f, err);
	return ret < 0 ? ret : 0;
}

/*
 * On SQLite, the games' rows are grouped here rather than by the query's
 * GROUP BY, which sorts every game that reached the position (a third of
 * a tree's time at a position of thousands of games); the few groups of
 * next move and result come out as the query would give them, in its
 * order. What the query's checks would call damage (a length that is not
 * an integer, a count that does not add up, a date that does not read, a
 * move that could be a number, which GROUP BY would keep apart from its
 * text) is left to the query: tree_rows returns 1 then, having changed
 * nothing.
 */
struct tree_group {
	char *move;                 /* NULL: the games that ended there */
	char *result;
	char *first, *last;         /* min and max of date_first || ' ' || date, NULL none */
	size_t move_len, result_len, first_len, last_len;
	long long n, plies, ended;
	uint64_t next;              /* the position its first game stored after the move */
};

struct tree_groups {
	struct tree_group *v;
	size_t n, cap;
	size_t *slot;               /* open addressing: index + 1, 0 empty */
	size_t nslots;
};

static void tree_groups_release(struct tree_groups *gs)
{
	size_t i;

	for (i = 0; i < gs->n; i++) {
		free(gs->v[i].move);
		free(gs->v[i].result);
		free(gs->v[i].first);
		free(gs->v[i].last);
	}
	free(gs->v);
	free(gs->slot);
}

static size_t text_hash(size_t h, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return h;
}

/* SQLite's BINARY order of texts: bytes, then length. */
static int text_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	return c ? c : (an > bn) - (an < bn);
}

static char *text_dup(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

static int cmp_group(const void *x, const void *y)
{
	const struct tree_group *a = x, *b = y;
	int c;

	if (!a->move || !b->move)
		c = (a->move != NULL) - (b->move != NULL);
	else
		c = text_cmp(a->move, a->move_len, b->move, b->move_len);
	return c ? c : text_cmp(a->result, a->result_len, b->result, b->result_len);
}

/* The group of (move, result), added when new; NULL when out of memory. */
static struct tree_group *group_get(struct tree_groups *gs, const char *move, size_t ml,
				    const char *result, size_t rl)
{
	size_t h, k;

	if ((gs->n + 1) * 2 > gs->nslots) {
		size_t ns = gs->nslots ? gs->nslots * 2 : 256, i;
		size_t *slot = calloc(ns, sizeof(*slot));

		if (!slot)
			return NULL;
		for (i = 0; i < gs->n; i++) {
			const struct tree_group *e = &gs->v[i];

			h = text_hash(e->move ? text_hash(14695981039346656037u, e->move, e->move_len)
					      : 1, e->result, e->result_len);
			for (k = h % ns; slot[k]; k = (k + 1) % ns)
				;
			slot[k] = i + 1;
		}
		free(gs->slot);
		gs->slot = slot;
		gs->nslots = ns;
	}
	h = text_hash(move ? text_hash(14695981039346656037u, move, ml) : 1, result, rl);
	for (k = h % gs->nslots; gs->slot[k]; k = (k + 1) % gs->nslots) {
		struct tree_group *e = &gs->v[gs->slot[k] - 1];

		if ((e->move == NULL) == (move == NULL) &&
		    (!move || (e->move_len == ml && !memcmp(e->move, move, ml))) &&
		    e->result_len == rl && !memcmp(e->result, result, rl))
			return e;
	}
	if (gs->n == gs->cap) {
		size_t cap = gs->cap ? gs->cap * 2 : 64;
		struct tree_group *v = realloc(gs->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		gs->v = v;
		gs->cap = cap;
	}
	memset(&gs->v[gs->n], 0, sizeof(gs->v[gs->n]));
	gs->v[gs->n].move = move ? text_dup(move, ml) : NULL;
	gs->v[gs->n].result = text_dup(result, rl);
	gs->v[gs->n].move_len = ml;
	gs->v[gs->n].result_len = rl;
	gs->n++;
	gs->slot[k] = gs->n;
	if ((move && !gs->v[gs->n - 1].move) || !gs->v[gs->n - 1].result)
		return NULL;
	return &gs->v[gs->n - 1];
}

/* Keeps in *keep (length *kn) the lesser (sign -1) or greater (1) of it and p; -1 out of memory. */
static int keep_text(char **keep, size_t *kn, const char *p, size_t n, int sign)
{
	char *d;

	if (*keep && text_cmp(p, n, *keep, *kn) * sign <= 0)
		return 0;
	if (!(d = text_dup(p, n)))
		return -1;
	free(*keep);
	*keep = d;
	*kn = n;
	return 0;
}

/* Whether seen reads as kifu_db_column_seen_ wants it (a first day, space, a date; or none). */
static int seen_ok(const char *seen)
{
	char day[11];

	return !seen || (strlen(seen) > 11 && seen[10] == ' ' &&
			 kifu_date_first_day(day, seen + 11, NULL) == 0 && !memcmp(seen, day, 10));
}

/*
 * tree_collect's plain case on SQLite (version 8, the position index, no
 * --symmetric), where (SQL) is the query's FROM and WHERE; 1: the query is
 * to answer instead (see struct tree_group).
 */
static int tree_rows(struct tree_moves *t, long long *ended, struct kifu_store *st,
		     const struct tree_pos *tp, const struct kifu_filter *f, uint64_t hash,
		     int after, struct kifu_error *err)
{
	struct tree_groups gs = { NULL, 0, 0, NULL, 0 };
	struct kifu_buf sql = KIFU_BUF_INIT, where = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret, rc, fallback = 0;

	ret = kifu_filter_sql_(&where, f, "g", 3, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&sql, "SELECT ");
	kifu_db_json_at_(&sql, st, "m.moves", "h.ply");
	kifu_buf_printf(&sql, ", g.result, g.plies, g.date_first || ' ' || g.date, "
			"CASE WHEN h.ply >= g.plies THEN 1 ELSE 0 END, "
			"typeof(g.plies) = 'integer' AND typeof(g.result) = 'text', ");
	kifu_db_hash_at_(&sql, st, "m.hashes", "h.ply + 1");
	kifu_buf_printf(&sql, ", g.id FROM positions_hash h CROSS JOIN games g CROSS JOIN %s m WHERE "
			"h.hash = ?1 AND h.ply > ?2 AND g.id = h.game_id AND m.game_id = g.id AND %s",
			kifu_db_game_data_(st), where.data ? where.data : "1 = 1");
	ret = tree_prepare(&s, st, &sql, f, tp, 0, hash, after, err);
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *move = kifu_db_column_text_(s, 0), *seen;
		struct tree_group *e;
		long long plies = kifu_db_column_int64_(s, 2);

		if (!kifu_db_column_int_(s, 5) ||
		    (move && (!*move || (*move >= '0' && *move <= '9') || *move == '-' ||
			      *move == '+' || *move == '.'))) {
			fallback = 1;
			goto out;
		}
		e = group_get(&gs, move, move ? kifu_db_column_bytes_(s, 0) : 0,
			      kifu_db_column_text_(s, 1), kifu_db_column_bytes_(s, 1));
		if (!e) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		if (__builtin_add_overflow(e->plies, plies, &e->plies)) {
			fallback = 1;
			goto out;
		}
		/* every game of the group stored the position its first one did, checked once */
		if (move && !kifu_db_column_is_null_(s, 6)) {
			uint64_t next = (uint64_t)kifu_db_column_int64_(s, 6);

			if (!e->n || next != e->next)
				ret = tree_next_check(tp, tp->pos->state, move, e->move_len, next,
						      kifu_db_column_int64_(s, 7), hash, st, err);
			if (ret < 0)
				goto out;
			if (!e->n)
				e->next = next;
		}
		e->n++;
		e->ended += kifu_db_column_int_(s, 4) != 0;
		seen = kifu_db_column_text_(s, 3);
		if (seen && (keep_text(&e->first, &e->first_len, seen, kifu_db_column_bytes_(s, 3),
				       -1) < 0 ||
			     keep_text(&e->last, &e->last_len, seen, kifu_db_column_bytes_(s, 3),
				       1) < 0)) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (rc != KIFU_DB_DONE) {
		/* (as the query would fail: reading, or out of time) */
		ret = kifu_search_fail_db_(st, "cannot read the tree", err);
		goto out;
	}
	/* What tree_collect checks of each group, before anything is counted. */
	for (i = 0; i < gs.n; i++) {
		const struct tree_group *e = &gs.v[i];

		if ((e->move && e->ended) || (!e->move && e->ended != e->n) ||
		    (e->move && e->plies < e->n) || !seen_ok(e->first) || !seen_ok(e->last)) {
			fallback = 1;
			goto out;
		}
	}
	if (gs.n)
		qsort(gs.v, gs.n, sizeof(*gs.v), cmp_group);
	for (i = 0; i < gs.n && ret >= 0; i++) {
		const struct tree_group *e = &gs.v[i];
		struct tree_move *tm;

		if (!e->move) {
			ret = kifu_db_sum_(ended, e->n, st, err, "the games that ended at %016" PRIx64,
					   hash);
			continue;
		}
		tm = tree_move_get(t, e->move, e->move_len);
		if (!tm) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			break;
		}
		ret = tree_count(tm, tp->g, e->result, e->n, e->plies, st, err);
		if (ret == 0)
			tree_seen(tm, e->first, e->last);
	}
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	kifu_buf_release(&where);
	tree_groups_release(&gs);
	return ret < 0 ? ret : fallback;
}

/*
 * Reads the games reaching hash at a ply after `after` into t, grouped by
 * next move and result (with --symmetric, also by the plain hash, to
 * know the orientation each group played in).
 */
static int tree_collect(struct tree_moves *t, long long *ended, struct kifu_store *st,
			const struct tree_pos *tp, const struct kifu_filter *f, uint64_t hash,
			int symmetric, int after, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc;

	if (!symmetric && kifu_search_position_index_(st) && kifu_store_version(st) >= 8 &&
	    !strcmp(kifu_db_backend_(st), "sqlite")) {
		ret = tree_rows(t, ended, st, tp, f, hash, after, err);
		if (ret <= 0)
			return ret;
	}
	/*
	 * CROSS JOIN: the index range first, then each game by its id. A
	 * game that ends at the position (ply = plies) has no next move.
	 */
	if (symmetric || kifu_search_position_index_(st)) {
		struct kifu_buf where = KIFU_BUF_INIT;

		ret = kifu_filter_sql_(&where, f, "g", 3, err);
		if (ret >= 0)
			kifu_store_tree_scan_sql_(&sql, st, symmetric, kifu_search_position_index_(st),
						  1, where.data ? where.data : "1 = 1");
		kifu_buf_release(&where);
	} else {
		kifu_buf_puts(&sql, "SELECT mv.move, g.result, count(*), sum(g.plies), NULL, "
				    "min(g.date_first || ' ' || g.date), "
				    "max(g.date_first || ' ' || g.date), 0 FROM "
				    "(SELECT game_id, min(ply) AS ply FROM positions WHERE hash = ?1 "
				    "GROUP BY game_id) AS h CROSS JOIN games g CROSS JOIN moves mv "
				    "WHERE h.ply > ?2 AND g.id = h.game_id AND mv.game_id = g.id AND "
				    "mv.ply = h.ply + 1 AND ");
		ret = kifu_filter_sql_(&sql, f, "g", 3, err);
		kifu_buf_puts(&sql, " GROUP BY 1, 2");
	}
	if (ret >= 0)
		ret = tree_prepare(&s, st, &sql, f, tp, symmetric, hash, after, err);
	if (ret < 0)
		goto out;
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		const char *move = kifu_db_column_text_(s, 0);
		size_t len = kifu_db_column_bytes_(s, 0);
		struct tree_move *e;

		long long n, plies;

		/* No next move (schema 8 reads them): games that ended there. */
		ret = kifu_store_tree_scan_check_(s, hash, err);
		if (ret == 0)
			ret = kifu_db_column_whole_(&n, s, 2, 1, KIFU_DB_COUNT_MAX, err, "the games "
						    "at position %016" PRIx64, hash);
		if (ret == 0 && !move)
			ret = kifu_db_sum_(ended, n, st, err, "the games that ended at %016" PRIx64,
					   hash);
		if (ret < 0)
			goto out;
		if (!move)
			continue;
		/* the groups' positions after their move, in the orientation they had (5) */
		if (symmetric || kifu_search_position_index_(st)) {
			const void *at = tp->pos->state;
			int j = 0;

			if (symmetric)
				for (j = 0; j < tp->g->nsymmetries; j++)
					if (tp->orient_hash[j] == (uint64_t)kifu_db_column_int64_(s, 4))
						break;
			if (symmetric && j < tp->g->nsymmetries)
				at = tp->orient[j]->state;
			if (j < tp->g->nsymmetries && !kifu_db_column_is_null_(s, 8))
				ret = tree_next_check(tp, at, move, len,
						      (uint64_t)kifu_db_column_int64_(s, 8),
						      kifu_db_column_int64_(s, 9), hash, st, err);
			if (ret < 0)
				goto out;
		}
		/* plies adding up to less than a ply a game: a length of 0 or less was stored */
		ret = kifu_db_column_whole_(&plies, s, 3, n, KIFU_DB_COUNT_MAX, err,
					    "games.plies of the games that played '%s' at %016" PRIx64,
					    move, hash);
		if (ret < 0)
			goto out;
		e = symmetric ? tree_canon_move(t, tp, (uint64_t)kifu_db_column_int64_(s, 4), move, len)
			: tree_move_get(t, move, len);
		if (!e) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		ret = tree_count(e, tp->g, kifu_db_column_text_(s, 1), n, plies, st, err);
		if (ret < 0)
			goto out;
		/* Dates only from schema 8 on, as the kept counts have them. */
		if (kifu_store_version(st) >= 8) {
			ret = kifu_db_column_seen_(s, 5, err, "games.date of a game that played '%s'",
						   move);
			if (ret == 0)
				ret = kifu_db_column_seen_(s, 6, err, "games.date of a game that "
							   "played '%s'", move);
			if (ret < 0)
				goto out;
			tree_seen(e, kifu_db_column_text_(s, 5), kifu_db_column_text_(s, 6));
		}
	}
	if (rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(st, "cannot read the tree", err);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/*
 * The games of f that reached hash (*games) and those of them that ended
 * there (*ended: the position is the game's last, reached there the first
 * time), which have no row.
 */
static int tree_reached(long long *games, long long *ended, struct kifu_store *st,
			const struct kifu_filter *f, const struct tree_pos *tp, uint64_t hash,
			int symmetric, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret;

	kifu_buf_puts(&sql, "SELECT count(*), coalesce(sum(CASE WHEN h.ply = g.plies THEN 1 ELSE 0 "
			    "END), 0) FROM ");
	if (symmetric || kifu_search_position_index_(st)) {
		kifu_store_reach_sql_(&sql, st, symmetric, kifu_search_position_index_(st));
		kifu_buf_puts(&sql, " h CROSS JOIN games g WHERE h.hash = ?1 AND ");
	} else
		kifu_buf_puts(&sql, "(SELECT game_id, min(ply) AS ply FROM positions WHERE hash = ?1 "
				    "GROUP BY game_id) h CROSS JOIN games g WHERE ");
	kifu_buf_puts(&sql, "h.ply > ?2 AND g.id = h.game_id AND ");
	ret = kifu_filter_sql_(&sql, f, "g", 3, err);
	if (ret >= 0)
		ret = tree_prepare(&s, st, &sql, f, tp, symmetric, hash, -1, err);
	if (ret < 0)
		goto out;
	if (kifu_db_step_(s) != KIFU_DB_ROW) {
		ret = kifu_search_fail_db_(st, "cannot read the tree", err);
		goto out;
	}
	ret = kifu_db_column_whole_(games, s, 0, 0, KIFU_DB_COUNT_MAX, err,
				    "the games at %016" PRIx64, hash);
	if (ret == 0)
		ret = kifu_db_column_whole_(ended, s, 1, 0, *games, err,
					    "the games that ended at %016" PRIx64, hash);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/*
 * --symmetric: the moves counted as C shows them, shown as P does (mapped
 * by the inverse of the symmetry that takes P to C); then, where P is
 * symmetric itself, the moves one of its own symmetries maps onto each
 * other summed into one row, named by the one most games played (ties:
 * byte order). t is sorted on return.
 */
static int tree_orient(struct tree_moves *t, struct tree_pos *tp, struct kifu_store *st,
		       struct kifu_error *err)
{
	const struct kifu_game *g = tp->g;
	struct tree_moves u = { NULL, 0, 0 };
	char buf[KIFU_MOVE_TEXT_MAX], out[KIFU_MOVE_TEXT_MAX];
	struct kifu_pos *scratch = NULL;
	uint64_t h = g->hash(tp->pos->state);
	size_t i, n;
	int k, ret = 0;

	ret = kifu_pos_new(&scratch, g, tp->pos->variant, tp->pos->first, err);
	if (ret < 0)
		return ret;
	for (i = 0; i < t->n; i++) {
		struct tree_move *e = &t->v[i], *to;
		struct kifu_error why;
		kifu_move m;
		const char *text = e->move;

		if (tp->sym && strlen(e->move) < sizeof(buf) &&
		    g->parse_move(tp->canon->state, e->move, &m, &why) == 0) {
			map_text(g, tp->canon->state, scratch->state, m,
				 g->symmetry_inverse(tp->sym), out);
			text = out;
		}
		to = tree_move_get(&u, text, strlen(text));
		if (!to) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			goto out;
		}
		ret = tree_move_add(to, e, st, err);
		if (ret < 0)
			goto out;
	}
	tree_moves_release(t);
	*t = u;
	u.v = NULL;
	u.n = 0;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_tree_move);
	/* The rows are sorted: the first of an orbit is the one that names it. */
	for (i = 0; i < t->n; i++) {
		struct tree_move *e = &t->v[i];
		struct kifu_error why;
		kifu_move m;

		if (!e->games || strlen(e->move) >= sizeof(buf) ||
		    g->parse_move(tp->pos->state, e->move, &m, &why) < 0)
			continue;
		for (k = 1; k < g->nsymmetries; k++) {
			size_t j;

			g->map_state(scratch->state, tp->pos->state, k);
			if (g->hash(scratch->state) != h)
				continue;
			map_text(g, tp->pos->state, scratch->state, m, k, out);
			for (j = i + 1; j < t->n; j++)
				if (t->v[j].games && !strcmp(t->v[j].move, out)) {
					ret = tree_move_add(e, &t->v[j], st, err);
					if (ret < 0)
						goto out;
					memset(&t->v[j].wins, 0, sizeof(t->v[j].wins));
					t->v[j].games = t->v[j].draws = t->v[j].unfinished = 0;
					t->v[j].sum_plies = 0;
				}
		}
	}
	/* Merged rows are empty: drop them. */
	for (i = n = 0; i < t->n; i++) {
		if (t->v[i].games)
			t->v[n++] = t->v[i];
		else
			free(t->v[i].move);
	}
	t->n = n;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_tree_move);
out:
	tree_moves_release(&u);
	kifu_pos_free(scratch);
	return ret;
}

/* Whether f selects by game and variant only (what the tree counts are kept by). */
static int filter_plain(const struct kifu_filter *f)
{
	return !f->player && !f->event && !f->since && !f->until && !f->termination && !f->level;
}

/* Replays the position asked for, and for --symmetric its orientations. */
static int tree_position(struct tree_pos *tp, const struct kifu_game *g, int variant,
			 const char *after, int symmetric, struct kifu_error *err)
{
	uint64_t c;
	int ret, j;

	memset(tp, 0, sizeof(*tp));
	tp->g = g;
	ret = kifu_pos_new(&tp->pos, g, variant, 0, err);
	if (ret == 0)
		ret = kifu_pos_play_list(tp->pos, after, err);
	/* scratch: tree_next_check plays each row's move there, and --symmetric maps into it */
	if (ret == 0)
		ret = kifu_pos_new(&tp->scratch, g, variant, 0, err);
	if (ret < 0 || !symmetric)
		return ret;
	ret = kifu_game_canonical_hash(&c, &tp->sym, g, tp->pos->state);
	if (ret == 0)
		ret = kifu_pos_new(&tp->canon, g, variant, 0, err);
	if (ret < 0)
		return ret < 0 && ret != KIFU_ENOMEM ? ret
			: kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	g->map_state(tp->canon->state, tp->pos->state, tp->sym);
	tp->orient = calloc((size_t)g->nsymmetries, sizeof(*tp->orient));
	tp->orient_hash = calloc((size_t)g->nsymmetries, sizeof(*tp->orient_hash));
	if (!tp->orient || !tp->orient_hash)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	for (j = 0; j < g->nsymmetries; j++) {
		ret = kifu_pos_new(&tp->orient[j], g, variant, 0, err);
		if (ret < 0)
			return ret;
		g->map_state(tp->orient[j]->state, tp->canon->state, j);
		tp->orient_hash[j] = g->hash(tp->orient[j]->state);
	}
	return 0;
}

/* The columns in their order, so that a tree without rows still has its header. */
static void tree_columns(struct kifu_report *rep, const struct kifu_game *g)
{
	char name[64];
	int s;

	kifu_report_add_col_(rep, "move", 0, 0);
	kifu_report_add_col_(rep, "games", 0, 0);
	for (s = 0; s < g->nsides && s < TREE_MAX_SIDES; s++) {
		snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
		kifu_report_add_col_(rep, name, 0, 0);
	}
	kifu_report_add_col_(rep, "draws", 0, 0);
	kifu_report_add_col_(rep, "unfinished", 0, 0);
	kifu_report_add_col_(rep, "mover_score", 0, 3);
	kifu_report_add_col_(rep, "ci_low", 0, 3);
	kifu_report_add_col_(rep, "ci_high", 0, 3);
	kifu_report_add_col_(rep, "mean_plies", 0, 1);
	kifu_report_add_col_(rep, "first_date", KIFU_COLUMN_TABLE_YEAR, 0);
	kifu_report_add_col_(rep, "last_date", KIFU_COLUMN_TABLE_YEAR, 0);
	kifu_report_add_col_(rep, "hash", KIFU_COLUMN_JSON_ONLY, 0);
	kifu_report_add_col_(rep, "to_move", KIFU_COLUMN_JSON_ONLY, 0);
}

/* A date of a row as written (after the first day and its space), null when none. */
static void put_seen(struct kifu_report *rep, long row, const char *name, const char *seen)
{
	long col = kifu_report_add_col_(rep, name, KIFU_COLUMN_TABLE_YEAR, 0);
	const char *sp = strchr(seen, ' ');

	if (sp)
		kifu_report_set_text_(rep, row, col, sp + 1);
	else
		kifu_report_set_null_(rep, row, col);
}

/* The tree report into rep, as kifu_stats_report describes it. */
static int tree_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
		       const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct kifu_error *err = c->err;
	struct tree_moves t = { NULL, 0, 0 };
	struct tree_pos tp;
	const struct kifu_game *g = NULL;
	uint64_t hash = 0;
	long long games = 0, ended = 0;
	char hex[17], note[64];
	size_t i;
	struct kifu_store *st = c->st;
	int ret, variant = 0, mover = 0, ready = 0, found = 0, symmetric = opt->symmetric;

	memset(&tp, 0, sizeof(tp));
	ret = kifu_stats_game_of_(&g, &variant, f, "tree", err);
	if (ret < 0)
		return ret;
	if (symmetric && kifu_store_version(st) < 5) {
		kifu_error_at(err, kifu_store_path(st), 0, 0);
		return kifu_error_set(err, KIFU_EDB, "database '%s': --symmetric needs schema "
				      "version 5 (kifu-import upgrades it)", kifu_store_path(st));
	}
	ret = tree_position(&tp, g, variant, opt->after ? opt->after : "", symmetric, err);
	if (ret < 0)
		goto out;
	mover = g->side_to_move(tp.pos->state);
	hash = symmetric ? tp.orient_hash[0] : g->hash(tp.pos->state);
	/* The counts kept at import, for what the index would take long to read. */
	if (filter_plain(f) && !(opt->flags & KIFU_STATS_NO_CACHE)) {
		/* Counted anew outside the report's snapshot, which is taken again after. */
		if (c->read_tx && kifu_store_tx_kind(st) == KIFU_TX_READ) {
			ret = kifu_store_commit(st, err);
			if (ret == 0)
				ret = kifu_store_tree_update(&ready, st, err);
			if (kifu_store_begin_tx(st, KIFU_TX_READ, ret < 0 ? NULL : err) < 0) {
				c->read_tx = 0;
				if (ret == 0)
					ret = err ? err->code : KIFU_EDB;
			}
		} else {
			ret = kifu_store_tree_update(&ready, st, err);
		}
		if (ret < 0)
			goto out;
	}
	if (ready)
		ret = tree_read_counts(&found, &t, &ended, st, g, g->variants[variant], symmetric,
				       hash, err);
	/* Not a position the counts track: its games from the index, one by one. */
	if (ret == 0 && !found)
		ret = tree_collect(&t, &ended, st, &tp, f, hash, symmetric, -1, err);
	if (ret == 0 && symmetric)
		ret = tree_orient(&t, &tp, st, err);
	/*
	 * The games that reached the position: from schema 8 those that played a
	 * move from it and those that ended there, as read; before, counted anew.
	 */
	if (ret == 0 && kifu_store_version(st) >= 8) {
		for (i = 0, games = ended; i < t.n && ret == 0; i++)
			ret = kifu_db_sum_(&games, t.v[i].games, st, err, "the games of the moves "
					   "at %016" PRIx64, hash);
	} else if (ret == 0) {
		ended = 0;
		ret = tree_reached(&games, &ended, st, f, &tp, hash, symmetric, err);
	}
	/* Every row a move of the position: a stored move no game has is damage, not a dead link. */
	for (i = 0; ret == 0 && i < t.n; i++) {
		struct kifu_error why;
		kifu_move m;

		if (strlen(t.v[i].move) >= KIFU_MOVE_TEXT_MAX ||
		    g->parse_move(tp.pos->state, t.v[i].move, &m, &why) < 0)
			ret = kifu_db_damaged_(st, err, "%s at %016" PRIx64 " of %s %s: move '%s' "
					       "of %lld game%s is not a move there",
					       ready && found ? "tree_moves" : "game_data.moves", hash,
					       g->name, g->variants[variant], t.v[i].move,
					       t.v[i].games, t.v[i].games == 1 ? "" : "s");
	}
	if (ret < 0)
		goto out;
	if (t.n)
		qsort(t.v, t.n, sizeof(*t.v), cmp_tree_move);
	snprintf(hex, sizeof(hex), "%016" PRIx64, hash);
	kifu_report_head_text_(rep, "hash", hex);
	kifu_report_head_text_(rep, "to_move", mover >= 0 && mover < g->nsides ? g->sides[mover] : "");
	kifu_report_head_int_(rep, "games", games);
	kifu_report_head_int_(rep, "ended", ended);
	if (games && games == ended) {
		snprintf(note, sizeof(note), "%lld game%s ended here", ended, ended == 1 ? "" : "s");
		kifu_report_note_(rep, note);
	}
	tree_columns(rep, g);
	for (i = 0; i < t.n; i++) {
		const struct tree_move *e = &t.v[i];
		long row, col;
		double points;

		if (e->games < opt->min_games)
			continue;
		row = kifu_report_add_row_(rep);
		kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "move", 0, 0), e->move);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0), e->games);
		kifu_stats_put_wins_(rep, row, g, e->wins, e->draws);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "unfinished", 0, 0),
				     e->unfinished);
		points = (mover >= 0 && mover < TREE_MAX_SIDES ? (double)e->wins[mover] : 0.0) +
			 (double)e->draws / (g->nsides > 0 ? g->nsides : 2);
		kifu_stats_put_score_(rep, row, "mover_score", 1, points, e->games - e->unfinished);
		kifu_report_set_real_(rep, row, kifu_report_add_col_(rep, "mean_plies", 0, 1),
				      (double)(e->sum_plies / e->games));
		put_seen(rep, row, "first_date", e->first);
		put_seen(rep, row, "last_date", e->last);
		col = kifu_report_add_col_(rep, "hash", KIFU_COLUMN_JSON_ONLY, 0);
		kifu_report_set_text_(rep, row, col, hex);
		col = kifu_report_add_col_(rep, "to_move", KIFU_COLUMN_JSON_ONLY, 0);
		kifu_report_set_text_(rep, row, col,
				      mover >= 0 && mover < g->nsides ? g->sides[mover] : "");
	}
	if (kifu_report_failed_(rep))
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
out:
	tree_pos_release(&tp);
	tree_moves_release(&t);
	return ret;
}

/* Its header is written with its rows (tree_columns), whatever their number. */
const struct kifu_stats_kind_ kifu_stats_tree_ = {
	.name = "tree",
	.kind = KIFU_STATS_TREE,
	.report = tree_report,
};
