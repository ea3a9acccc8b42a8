/*
 * The sums kifu-stats keeps (schema 3's stats_outcomes and stats_lines,
 * schema 11's stats_players with stats_player_sums and stats_pairs): what
 * one game adds to them, in this one place for both their writers, and
 * adding the sums to the tables with upserts. The store counts each game
 * it writes with them (store_kept.c, from the record and replay it holds);
 * the reports (lib/stats), for the games the tables lack (databases
 * written before, games added by hand, a state forgotten) and for the
 * reports of a filter, read the games from the database and count them
 * with the same functions.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "store/store_impl.h"
#include "util/bt.h"
#include "util/hash.h"

/* One row of a table being summed: the key's columns and the counts. */
struct sum {
	uint64_t key;      /* hash of the key's columns */
	const struct kifu_game *g;
	int variant, first, repeat, plies;
	size_t text, len;  /* in the pool: the line; outcomes: first, result, termination, each ended by '\0' */
	uint64_t hash;     /* lines: the position after the line */
	int64_t n[7];      /* games; lines: then w0..w3, draws, unfinished */
};

struct sumtab {
	struct sum *v;
	size_t n, cap;
	size_t *slot;      /* open addressing: index + 1, 0 when empty */
	size_t nslot;
	struct kifu_buf pool;
};

/* The tables of rows with text keys (outcomes, lines): t[0..NTEXT). */
#define NTEXT 2

/* Integer keys (a player id, or a pair of them) to the index of their row. */
struct islot {
	int64_t a, b;
	size_t i;          /* index + 1, 0 when empty */
};

struct imap {
	struct islot *slot;
	size_t nslot, n;
};

struct kifu_store_sums_ {
	struct sumtab t[NTEXT];
	struct kifu_store_sums_player_ *pl;
	size_t npl, cappl;
	struct imap plmap;
	struct kifu_store_sums_pair_ *pr;
	size_t npr, cappr;
	struct imap prmap;
	int pl_stale, pr_stale; /* the rows were sorted or pushed: a map made again when next used */
};

void kifu_store_sides_add_(struct kifu_store_sides_ *s, int side, int64_t pid)
{
	/* A side missing, or one with two players, says nothing of who plays better. */
	if (s->n >= KIFU_SUMS_MAX_SIDES || side != s->n) {
		s->ok = 0;
		return;
	}
	s->pid[s->n++] = pid;
}

static size_t islot_of(const struct imap *m, int64_t a, int64_t b)
{
	return (size_t)kifu_hash_mix64_((uint64_t)a * 0x9e3779b97f4a7c15u ^ (uint64_t)b) &
	       (m->nslot - 1);
}

/*
 * The index of key (a, b) in m; when missing, *added set and the index
 * next (the caller appends its row there); -1 when out of memory.
 */
static long imap_get(struct imap *m, int64_t a, int64_t b, size_t next, int *added)
{
	size_t k, i;

	*added = 0;
	if ((m->n + 1) * 2 > m->nslot) {
		size_t nslot = m->nslot ? m->nslot * 2 : 1024;
		struct islot *slot = calloc(nslot, sizeof(*slot)), *old = m->slot;
		size_t oldn = m->nslot;

		if (!slot)
			return -1;
		m->slot = slot;
		m->nslot = nslot;
		for (i = 0; i < oldn; i++) {
			if (!old[i].i)
				continue;
			for (k = islot_of(m, old[i].a, old[i].b); slot[k].i; k = (k + 1) & (nslot - 1))
				;
			slot[k] = old[i];
		}
		free(old);
	}
	for (k = islot_of(m, a, b); m->slot[k].i; k = (k + 1) & (m->nslot - 1))
		if (m->slot[k].a == a && m->slot[k].b == b)
			return (long)(m->slot[k].i - 1);
	m->slot[k].a = a;
	m->slot[k].b = b;
	m->slot[k].i = next + 1;
	m->n++;
	*added = 1;
	return (long)next;
}

/* The index of key (a, b) in m, or -1. */
static long imap_find(const struct imap *m, int64_t a, int64_t b)
{
	size_t k;

	if (!m->nslot)
		return -1;
	for (k = islot_of(m, a, b); m->slot[k].i; k = (k + 1) & (m->nslot - 1))
		if (m->slot[k].a == a && m->slot[k].b == b)
			return (long)(m->slot[k].i - 1);
	return -1;
}

static void imap_clear(struct imap *m)
{
	if (m->slot)
		memset(m->slot, 0, m->nslot * sizeof(*m->slot));
	m->n = 0;
}

static int reindex(struct kifu_store_sums_ *a, int pairs);

/* Player pid's row, made when new (first: its first game and side); NULL when out of memory. */
static struct kifu_store_sums_player_ *player_get(struct kifu_store_sums_ *a, int64_t pid,
						  int64_t first_game, int first_side)
{
	struct kifu_store_sums_player_ *p;
	int added;
	long i;

	if (a->pl_stale && reindex(a, 0) < 0)
		return NULL;
	if (a->npl == a->cappl) {
		size_t cap = a->cappl ? a->cappl * 2 : 256;
		void *v = realloc(a->pl, cap * sizeof(*a->pl));

		if (!v)
			return NULL;
		a->pl = v;
		a->cappl = cap;
	}
	i = imap_get(&a->plmap, pid, 0, a->npl, &added);
	if (i < 0)
		return NULL;
	p = &a->pl[i];
	if (added) {
		memset(p, 0, sizeof(*p));
		p->pid = pid;
		p->first_game = first_game;
		p->first_side = first_side;
		a->npl++;
	}
	return p;
}

/*
 * Appends a pair (lo < hi) that a does not hold yet, without its entry in
 * the map (players_load: a table's rows are distinct), which is made again
 * before the next pair_add.
 */
static int pair_push(struct kifu_store_sums_ *a, int64_t lo, int64_t hi, long long games)
{
	if (a->npr == a->cappr) {
		size_t cap = a->cappr ? a->cappr * 2 : 1024;
		void *v = realloc(a->pr, cap * sizeof(*a->pr));

		if (!v)
			return KIFU_ENOMEM;
		a->pr = v;
		a->cappr = cap;
	}
	a->pr[a->npr].a = lo;
	a->pr[a->npr].b = hi;
	a->pr[a->npr++].games = games;
	a->pr_stale = 1;
	return 0;
}


/* Adds games pairings of players x and y. */
static int pair_add(struct kifu_store_sums_ *a, int64_t x, int64_t y, long long games)
{
	int64_t lo = x < y ? x : y, hi = x < y ? y : x;
	int added;
	long i;

	if (a->pr_stale && reindex(a, 1) < 0)
		return KIFU_ENOMEM;
	if (a->npr == a->cappr) {
		size_t cap = a->cappr ? a->cappr * 2 : 1024;
		void *v = realloc(a->pr, cap * sizeof(*a->pr));

		if (!v)
			return KIFU_ENOMEM;
		a->pr = v;
		a->cappr = cap;
	}
	i = imap_get(&a->prmap, lo, hi, a->npr, &added);
	if (i < 0)
		return KIFU_ENOMEM;
	if (added) {
		a->pr[i].a = lo;
		a->pr[i].b = hi;
		a->pr[i].games = 0;
		a->npr++;
	}
	a->pr[i].games += games;
	return 0;
}

/*
 * Counts a game for its players: only when every side names a player and
 * no player holds two sides (a game with an unknown player says nothing
 * about who plays better, and a player cannot be rated against itself).
 */
static int players_add(struct kifu_store_sums_ *a, const struct kifu_store_sums_game_ *x, int res)
{
	const struct kifu_store_sides_ *sd = x->sides;
	struct kifu_store_sums_player_ *p;
	int i, j, ns;

	if (!sd || !sd->ok || res == KIFU_SUMS_UNKNOWN || sd->n != x->g->nsides)
		return 0;
	ns = sd->n;
	for (i = 0; i < ns; i++)
		for (j = 0; j < i; j++)
			if (sd->pid[i] == sd->pid[j])
				return 0;
	for (i = 0; i < ns; i++) {
		p = player_get(a, sd->pid[i], x->id, i);
		if (!p)
			return KIFU_ENOMEM;
		p->games++;
		if (res == KIFU_SUMS_UNFINISHED) {
			p->unfinished++;
		} else if (res == KIFU_SUMS_DRAW) {
			p->draws++;
			p->draw_points += 1.0 / ns;
			p->points += 0.5 * (ns - 1);
		} else if (res == i) {
			p->wins++;
			p->points += ns - 1;
		} else {
			p->losses++;
		}
	}
	if (res == KIFU_SUMS_DRAW) {
		for (i = 0; i < ns; i++)
			for (j = i + 1; j < ns; j++)
				if (pair_add(a, sd->pid[i], sd->pid[j], 1) < 0)
					return KIFU_ENOMEM;
	} else if (res >= 0) {
		for (j = 0; j < ns; j++)
			if (j != res && pair_add(a, sd->pid[res], sd->pid[j], 1) < 0)
				return KIFU_ENOMEM;
	}
	return 0;
}

const struct kifu_store_sums_player_ *kifu_store_sums_player_(const struct kifu_store_sums_ *a,
							      size_t i)
{
	return &a->pl[i];
}

size_t kifu_store_sums_npairs_(const struct kifu_store_sums_ *a)
{
	return a ? a->npr : 0;
}

const struct kifu_store_sums_pair_ *kifu_store_sums_pair_(const struct kifu_store_sums_ *a,
							  size_t i)
{
	return &a->pr[i];
}

int kifu_store_sums_classify_(const struct kifu_game *g, const char *result)
{
	int s;

	if (!result)
		return KIFU_SUMS_UNKNOWN;
	if (!strcmp(result, "draw"))
		return KIFU_SUMS_DRAW;
	if (!strcmp(result, "unfinished"))
		return KIFU_SUMS_UNFINISHED;
	s = kifu_game_side_index(g, result);
	return s >= 0 && s < KIFU_SUMS_MAX_SIDES ? s : KIFU_SUMS_UNKNOWN;
}

const char *kifu_store_termination_(const struct kifu_record *rec)
{
	if (!rec->termination && rec->result && strcmp(rec->result, "unfinished") != 0)
		return "rules";
	return rec->termination;
}

const char *kifu_store_ply_text_(const struct kifu_record *rec, const struct kifu_replay *rp,
				 size_t ply)
{
	const struct kifu_turn *t = ply <= rec->nturns ? &rec->turns[ply - 1] : NULL;
	const char *text = kifu_replay_text(rp, ply);

	return text ? text : t && t->text ? t->text : "";
}

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

/* ---- The accumulator ---- */

int kifu_store_sums_new_(struct kifu_store_sums_ **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : KIFU_ENOMEM;
}

static void tab_clear(struct sumtab *t)
{
	t->n = 0;
	if (t->slot)
		memset(t->slot, 0, t->nslot * sizeof(*t->slot));
	kifu_buf_reset(&t->pool);
}

void kifu_store_sums_clear_(struct kifu_store_sums_ *a)
{
	int k;

	if (!a)
		return;
	for (k = 0; k < NTEXT; k++)
		tab_clear(&a->t[k]);
	a->npl = a->npr = 0;
	a->pl_stale = a->pr_stale = 0;
	imap_clear(&a->plmap);
	imap_clear(&a->prmap);
}

void kifu_store_sums_free_(struct kifu_store_sums_ *a)
{
	int k;

	if (!a)
		return;
	for (k = 0; k < NTEXT; k++) {
		free(a->t[k].v);
		free(a->t[k].slot);
		kifu_buf_release(&a->t[k].pool);
	}
	free(a->pl);
	free(a->plmap.slot);
	free(a->pr);
	free(a->prmap.slot);
	free(a);
}

size_t kifu_store_sums_count_(const struct kifu_store_sums_ *a, int table)
{
	if (!a)
		return 0;
	return table == KIFU_SUMS_PLAYERS ? a->npl : a->t[table].n;
}

static uint64_t sum_key(const struct kifu_game *g, int variant, int first, int repeat, int plies,
			const char *text, size_t len)
{
	int head[4] = { variant, first, repeat, plies };
	uint64_t h = kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, g->name, strlen(g->name));

	h = kifu_hash_fnv1a_(h, head, sizeof(head));
	return kifu_hash_mix64_(kifu_hash_fnv1a_(h, text, len));
}

static int tab_grow(struct sumtab *t)
{
	size_t nslot = t->nslot ? t->nslot * 2 : 1024, i;
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return KIFU_ENOMEM;
	for (i = 0; i < t->n; i++) {
		size_t k = (size_t)t->v[i].key & (nslot - 1);

		while (slot[k])
			k = (k + 1) & (nslot - 1);
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

/* The row of this key in t, added with zero counts when new; NULL when out of memory. */
static struct sum *tab_get(struct sumtab *t, const struct kifu_game *g, int variant, int first,
			   int repeat, int plies, const char *text, size_t len, uint64_t hash)
{
	uint64_t key = sum_key(g, variant, first, repeat, plies, text, len);
	struct sum *e;
	size_t k;

	if ((t->n + 1) * 2 > t->nslot && tab_grow(t) < 0)
		return NULL;
	for (k = (size_t)key & (t->nslot - 1); t->slot[k]; k = (k + 1) & (t->nslot - 1)) {
		e = &t->v[t->slot[k] - 1];
		if (e->key == key && e->g == g && e->variant == variant && e->first == first &&
		    e->repeat == repeat && e->plies == plies && e->len == len &&
		    !memcmp(t->pool.data + e->text, text, len))
			return e;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct sum *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	e = &t->v[t->n];
	memset(e, 0, sizeof(*e));
	e->key = key;
	e->g = g;
	e->variant = variant;
	e->first = first;
	e->repeat = repeat;
	e->plies = plies;
	e->hash = hash;
	e->text = t->pool.len;
	e->len = len;
	kifu_buf_add(&t->pool, text, len);
	kifu_buf_putc(&t->pool, '\0');
	if (t->pool.failed)
		return NULL;
	t->slot[k] = ++t->n;
	return e;
}

int kifu_store_sums_add_(struct kifu_store_sums_ *a, const struct kifu_store_sums_game_ *x,
			 unsigned which)
{
	struct sum *e;
	size_t k, j;
	int res, c;

	int first_ok;

	if (!x->g)
		return 0;
	res = kifu_store_sums_classify_(x->g, x->result);
	if ((which & (1u << KIFU_SUMS_PLAYERS)) && players_add(a, x, res) < 0)
		return KIFU_ENOMEM;
	if (x->variant < 0)
		return 0;
	first_ok = x->first >= 0 && x->first < x->g->nsides;
	if ((which & (1u << KIFU_SUMS_OUTCOMES)) && (x->first_name || first_ok)) {
		/* games.first, .result and .termination as one text of three. */
		const char *f = x->first_name ? x->first_name : x->g->sides[x->first];
		const char *r = x->result ? x->result : "";
		const char *term = x->termination ? x->termination : "";
		size_t fl = strlen(f), rl = strlen(r), tl = strlen(term), len = fl + rl + tl + 3;
		char small[256], *text = len <= sizeof(small) ? small : malloc(len);

		if (!text)
			return KIFU_ENOMEM;
		memcpy(text, f, fl + 1);
		memcpy(text + fl + 1, r, rl + 1);
		memcpy(text + fl + rl + 2, term, tl + 1);
		e = tab_get(&a->t[KIFU_SUMS_OUTCOMES], x->g, x->variant, -1, 0, (int)x->plies,
			    text, len, 0);
		if (text != small)
			free(text);
		if (!e)
			return KIFU_ENOMEM;
		e->n[0]++;
	}
	if (!(which & (1u << KIFU_SUMS_LINES)) || !first_ok || res == KIFU_SUMS_UNKNOWN)
		return 0;
	/* The lines of 1..nlines plies; repeat: the game was in that position earlier in it. */
	for (k = 0; k < x->nlines; k++) {
		int repeat = 0;

		for (j = 0; j < k && !repeat; j++)
			repeat = x->hashes[j] == x->hashes[k];
		e = tab_get(&a->t[KIFU_SUMS_LINES], x->g, x->variant, x->first, repeat, (int)k + 1,
			    x->line, x->ends[k], x->hashes[k]);
		if (!e)
			return KIFU_ENOMEM;
		c = res >= 0 ? 1 + res : res == KIFU_SUMS_DRAW ? 5 : 6;
		e->n[0]++;
		e->n[c]++;
	}
	return 0;
}

int kifu_store_sums_merge_(struct kifu_store_sums_ *dst, const struct kifu_store_sums_ *src)
{
	size_t i;
	int k, c;

	for (i = 0; i < src->npl; i++) {
		const struct kifu_store_sums_player_ *s = &src->pl[i];
		struct kifu_store_sums_player_ *p = player_get(dst, s->pid, s->first_game,
							       s->first_side);

		if (!p)
			return KIFU_ENOMEM;
		/* dst's games came first: its first game stays */
		p->games += s->games;
		p->wins += s->wins;
		p->draws += s->draws;
		p->losses += s->losses;
		p->unfinished += s->unfinished;
		p->draw_points += s->draw_points;
		p->points += s->points;
	}
	for (i = 0; i < src->npr; i++)
		if (pair_add(dst, src->pr[i].a, src->pr[i].b, src->pr[i].games) < 0)
			return KIFU_ENOMEM;
	for (k = 0; k < NTEXT; k++)
		for (i = 0; i < src->t[k].n; i++) {
			const struct sum *s = &src->t[k].v[i];
			struct sum *e = tab_get(&dst->t[k], s->g, s->variant, s->first, s->repeat,
						s->plies, src->t[k].pool.data + s->text, s->len,
						s->hash);

			if (!e)
				return KIFU_ENOMEM;
			for (c = 0; c < 7; c++)
				e->n[c] += s->n[c];
		}
	return 0;
}

void kifu_store_sums_line_(struct kifu_store_sums_line_ *out, const struct kifu_store_sums_ *a,
			   size_t i)
{
	const struct sum *e = &a->t[KIFU_SUMS_LINES].v[i];

	out->g = e->g;
	out->variant = e->variant;
	out->first = e->first;
	out->repeat = e->repeat;
	out->plies = e->plies;
	out->line = a->t[KIFU_SUMS_LINES].pool.data + e->text;
	out->len = e->len;
	out->hash = e->hash;
	memcpy(out->n, e->n, sizeof(out->n));
}

/* ---- Writing them ---- */

/* A row as its table orders the primary key (lines: plies, game, variant, line, first, repeat). */
struct item {
	const char *game, *variant, *text, *first;
	const struct sum *e;
};

static int cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	int r;

	if (a->e->plies != b->e->plies)
		return a->e->plies < b->e->plies ? -1 : 1;
	if ((r = strcmp(a->game, b->game)) != 0 || (r = strcmp(a->variant, b->variant)) != 0 ||
	    (r = strcmp(a->text, b->text)) != 0 || (r = strcmp(a->first, b->first)) != 0)
		return r;
	return (a->e->repeat > b->e->repeat) - (a->e->repeat < b->e->repeat);
}

static const char *const upsert[NTEXT] = {
	"INSERT INTO stats_outcomes(game, variant, first, result, termination, plies, games) "
	"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
	"ON CONFLICT(game, variant, first, result, termination, plies) "
	"DO UPDATE SET games = stats_outcomes.games + excluded.games",
	"INSERT INTO stats_lines(plies, game, variant, line, first, repeat, hash, games, "
	"w0, w1, w2, w3, draws, unfinished) "
	"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) "
	"ON CONFLICT(plies, game, variant, line, first, repeat) DO UPDATE SET "
	"games = stats_lines.games + excluded.games, "
	"w0 = stats_lines.w0 + excluded.w0, w1 = stats_lines.w1 + excluded.w1, "
	"w2 = stats_lines.w2 + excluded.w2, w3 = stats_lines.w3 + excluded.w3, "
	"draws = stats_lines.draws + excluded.draws, "
	"unfinished = stats_lines.unfinished + excluded.unfinished",
};

/*
 * Adds table k's sums of a to its table, in the order of its primary key
 * so that the writes walk the B-tree once instead of jumping about.
 */
static int tab_write(struct kifu_store *st, const struct sumtab *t, int k, struct kifu_error *err)
{
	struct item *items;
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret = 0, c;

	if (!t->n)
		return 0;
	items = malloc(t->n * sizeof(*items));
	if (!items)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	for (i = 0; i < t->n; i++) {
		const struct sum *e = &t->v[i];

		items[i].game = e->g->name;
		items[i].variant = e->g->variants[e->variant];
		items[i].text = t->pool.data + e->text;
		items[i].first = e->first >= 0 ? e->g->sides[e->first] : "";
		items[i].e = e;
	}
	qsort(items, t->n, sizeof(*items), cmp_item);
	if (kifu_db_prepare_(&s, st, upsert[k], err) < 0)
		ret = kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < t->n; i++) {
		const struct sum *e = items[i].e;

		if (k == KIFU_SUMS_OUTCOMES) {
			const char *f = items[i].text, *r = f + strlen(f) + 1;

			kifu_db_bind_text_static_(s, 1, items[i].game, -1);
			kifu_db_bind_text_static_(s, 2, items[i].variant, -1);
			kifu_db_bind_text_static_(s, 3, f, -1);
			kifu_db_bind_text_static_(s, 4, r, -1);
			kifu_db_bind_text_static_(s, 5, r + strlen(r) + 1, -1);
			kifu_db_bind_int_(s, 6, e->plies);
			kifu_db_bind_int64_(s, 7, e->n[0]);
		} else {
			kifu_db_bind_int_(s, 1, e->plies);
			kifu_db_bind_text_static_(s, 2, items[i].game, -1);
			kifu_db_bind_text_static_(s, 3, items[i].variant, -1);
			kifu_db_bind_text_static_(s, 4, items[i].text, (long)e->len);
			kifu_db_bind_text_static_(s, 5, items[i].first, -1);
			kifu_db_bind_int_(s, 6, e->repeat);
			kifu_db_bind_int64_(s, 7, (int64_t)e->hash);
			for (c = 0; c < 7; c++)
				kifu_db_bind_int64_(s, 8 + c, e->n[c]);
		}
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	free(items);
	return ret;
}

/* A map made again (the players', or with pairs the pairs'): it holds the rows' indexes. */
static int reindex(struct kifu_store_sums_ *a, int pairs)
{
	struct imap *m = pairs ? &a->prmap : &a->plmap;
	size_t i, n = pairs ? a->npr : a->npl;
	int added;

	imap_clear(m);
	for (i = 0; i < n; i++)
		if (imap_get(m, pairs ? a->pr[i].a : a->pl[i].pid, pairs ? a->pr[i].b : 0, i,
			     &added) < 0)
			return KIFU_ENOMEM;
	if (pairs)
		a->pr_stale = 0;
	else
		a->pl_stale = 0;
	return 0;
}

static int cmp_player(const void *x, const void *y)
{
	const struct kifu_store_sums_player_ *a = x, *b = y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int cmp_pair(const void *x, const void *y)
{
	const struct kifu_store_sums_pair_ *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

/*
 * Adds the players' sums to stats_players and stats_player_sums (a
 * player's first game stays the one written first: later writes count
 * later games) and the pairs' to stats_pairs, in key order; the ratings
 * are the reports' to fit.
 */
static int players_write(struct kifu_store *st, struct kifu_store_sums_ *a, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret = 0;

	qsort(a->pl, a->npl, sizeof(*a->pl), cmp_player);
	qsort(a->pr, a->npr, sizeof(*a->pr), cmp_pair);
	a->pl_stale = a->pr_stale = 1;
	if (a->npl && kifu_db_prepare_(
		    &s, st,
		    "INSERT INTO stats_players(player_id, games, wins, draws, draw_points, losses, "
		    "unfinished) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(player_id) DO UPDATE SET "
		    "games = stats_players.games + excluded.games, "
		    "wins = stats_players.wins + excluded.wins, "
		    "draws = stats_players.draws + excluded.draws, "
		    "draw_points = stats_players.draw_points + excluded.draw_points, "
		    "losses = stats_players.losses + excluded.losses, "
		    "unfinished = stats_players.unfinished + excluded.unfinished", err) < 0)
		ret = kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < a->npl; i++) {
		const struct kifu_store_sums_player_ *p = &a->pl[i];

		kifu_db_bind_int64_(s, 1, p->pid);
		kifu_db_bind_int64_(s, 2, p->games);
		kifu_db_bind_int64_(s, 3, p->wins);
		kifu_db_bind_int64_(s, 4, p->draws);
		kifu_db_bind_double_(s, 5, p->draw_points);
		kifu_db_bind_int64_(s, 6, p->losses);
		kifu_db_bind_int64_(s, 7, p->unfinished);
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	s = NULL;
	/* Before schema 11 stats_players alone (the reports sum every game again). */
	if (st->version < 11)
		return ret;
	if (ret == 0 && a->npl && kifu_db_prepare_(
		    &s, st,
		    "INSERT INTO stats_player_sums(player_id, first_game, first_side, points) "
		    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(player_id) DO UPDATE SET "
		    "points = stats_player_sums.points + excluded.points", err) < 0)
		ret = kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < a->npl; i++) {
		const struct kifu_store_sums_player_ *p = &a->pl[i];

		kifu_db_bind_int64_(s, 1, p->pid);
		kifu_db_bind_int64_(s, 2, p->first_game);
		kifu_db_bind_int_(s, 3, p->first_side);
		kifu_db_bind_double_(s, 4, p->points);
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	s = NULL;
	if (ret == 0 && a->npr &&
	    kifu_db_prepare_(&s, st, "INSERT INTO stats_pairs(a, b, games) VALUES (?1, ?2, ?3) "
				     "ON CONFLICT(a, b) DO UPDATE SET "
				     "games = stats_pairs.games + excluded.games", err) < 0)
		ret = kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < a->npr; i++) {
		kifu_db_bind_int64_(s, 1, a->pr[i].a);
		kifu_db_bind_int64_(s, 2, a->pr[i].b);
		kifu_db_bind_int64_(s, 3, a->pr[i].games);
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	return ret;
}

int kifu_store_sums_players_clear_(struct kifu_store *st, struct kifu_error *err)
{
	int ret = kifu_store_exec_(st, "DELETE FROM stats_player_sums",
				   "cannot empty a statistics table", err);

	return ret < 0 ? ret : kifu_store_exec_(st, "DELETE FROM stats_pairs",
						"cannot empty a statistics table", err);
}

int kifu_store_sums_write_one_(struct kifu_store *st, struct kifu_store_sums_ *a, int t,
		       struct kifu_error *err)
{
	return t == KIFU_SUMS_PLAYERS ? players_write(st, a, err) : tab_write(st, &a->t[t], t, err);
}

int kifu_store_sums_write_(struct kifu_store *st, struct kifu_store_sums_ *a, unsigned which,
			   struct kifu_error *err)
{
	int k, ret = 0;

	for (k = 0; k < KIFU_SUMS_NTABLES && ret == 0; k++)
		if (which & (1u << k))
			ret = kifu_store_sums_write_one_(st, a, k, err);
	return ret;
}

int kifu_store_sums_state_set_(struct kifu_store *st, const char *name, int64_t last, int depth,
			       struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret;

	if (kifu_db_prepare_(&s, st, "INSERT INTO stats_state(name, last_id, depth) VALUES "
				     "(?1, ?2, ?3) ON CONFLICT(name) DO UPDATE SET last_id = "
				     "excluded.last_id, depth = excluded.depth", err) < 0)
		return kifu_store_fail_(st, "cannot write the statistics state", err);
	kifu_db_bind_text_static_(s, 1, name, -1);
	kifu_db_bind_int64_(s, 2, last);
	if (depth > 0)
		kifu_db_bind_int_(s, 3, depth);
	else
		kifu_db_bind_null_(s, 3);
	ret = kifu_store_step_(st, s, "cannot write the statistics state", err);
	kifu_db_finalize_(s);
	return ret;
}

/* ---- The ratings ---- */

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
	    (a->pl_stale && reindex(a, 0) < 0)) {
		ret = nomem(err);
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
		long x = imap_find(&a->plmap, a->pr[i].a, 0), y = imap_find(&a->plmap, a->pr[i].b, 0);

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
		p = player_get(a, pid, first_game, (int)first_side);
		if (!p) {
			ret = nomem(err);
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

		long px = imap_find(&a->plmap, x, 0), py = imap_find(&a->plmap, y, 0);

		ret = kifu_db_column_whole_(&games, s, 2, 1, KIFU_DB_COUNT_MAX, err,
					    "stats_pairs.games of players %lld and %lld", x, y);
		/* what the store writes: two players, in order, who both finished games */
		if (ret == 0 && (x >= y || px < 0 || py < 0 ||
				 !(a->pl[px].wins + a->pl[px].draws + a->pl[px].losses) ||
				 !(a->pl[py].wins + a->pl[py].draws + a->pl[py].losses)))
			ret = kifu_db_damaged_(st, err, "stats_pairs: players %lld and %lld are no "
					       "pair of stats_players with finished games", x, y);
		if (ret == 0 && pair_push(a, x, y, games) < 0)
			ret = nomem(err);
		if (ret < 0)
			break;
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot read the statistics", err);
	kifu_db_finalize_(s);
	return ret;
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
