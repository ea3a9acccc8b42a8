/*
 * The sums kifu-stats keeps (schema 3's stats_outcomes and stats_lines,
 * schema 11's stats_players with stats_player_sums and stats_pairs,
 * schema 12's stats_balance): what
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
#include "store/store_sums_impl.h"
#include "util/hash.h"

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

long kifu_store_sums_find_(const struct imap *m, int64_t a, int64_t b)
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

/* Player pid's row, made when new (first: its first game and side); NULL when out of memory. */
struct kifu_store_sums_player_ *kifu_store_sums_player_get_(struct kifu_store_sums_ *a,
							     int64_t pid, int64_t first_game,
							     int first_side)
{
	struct kifu_store_sums_player_ *p;
	int added;
	long i;

	if (a->pl_stale && kifu_store_sums_reindex_(a, 0) < 0)
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

/* A pair appended (store_sums_impl.h). */
int kifu_store_sums_pair_push_(struct kifu_store_sums_ *a, int64_t lo, int64_t hi,
				long long games)
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

	if (a->pr_stale && kifu_store_sums_reindex_(a, 1) < 0)
		return KIFU_ENOMEM;
	i = imap_get(&a->prmap, lo, hi, a->npr, &added);
	if (i < 0)
		return KIFU_ENOMEM;
	if (added) {
		if (kifu_store_sums_pair_push_(a, lo, hi, 0) < 0)
			return KIFU_ENOMEM;
		a->pr_stale = 0; /* its entry is made */
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
		p = kifu_store_sums_player_get_(a, sd->pid[i], x->id, i);
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

int kifu_store_sums_level_(const char **spec, size_t *len, const char *const *names, int nsides,
			   int ok)
{
	size_t n;
	int i, specs = 0, same = ok;

	*spec = NULL;
	*len = 0;
	if (!ok)
		return KIFU_SUMS_LEVEL_OUT;
	for (i = 0; i < nsides; i++) {
		n = names[i] ? kifu_store_spec_length(names[i]) : 0;
		if (!n) {
			same = 0;
			continue;
		}
		if (specs++ == 0) {
			*spec = names[i];
			*len = n;
		} else if (n != *len || memcmp(*spec, names[i], n)) {
			same = 0;
		}
	}
	if (!specs)
		return KIFU_SUMS_LEVEL_PLAYERS;
	/* mixed: says nothing about one level */
	return same ? KIFU_SUMS_LEVEL_SPEC : KIFU_SUMS_LEVEL_OUT;
}

size_t kifu_store_sums_legal_at_(const struct kifu_game *g, const void *state, kifu_move *buf)
{
	/* legal_moves lists pass only where it is the one move: it counts 1. */
	return g->count_moves ? g->count_moves(state) : g->legal_moves(state, buf);
}

int kifu_store_sums_legal_(uint64_t *out, const struct kifu_game *g, int variant, int first,
			   const kifu_move *moves, size_t n, struct kifu_error *err)
{
	kifu_move *buf = NULL;
	void *state = malloc(g->state_size ? g->state_size : 1);
	size_t i;
	int ret;

	*out = 0;
	if (!g->count_moves)
		buf = malloc((g->max_moves ? g->max_moves : 1) * sizeof(*buf));
	if (!state || (!g->count_moves && !buf)) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	ret = g->init(state, variant, first, err);
	for (i = 0; ret == 0 && i < n; i++) {
		*out += kifu_store_sums_legal_at_(g, state, buf);
		g->apply(state, moves[i]);
	}
out:
	free(buf);
	free(state);
	return ret;
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
	if ((which & (1u << KIFU_SUMS_BALANCE)) && first_ok && res != KIFU_SUMS_UNKNOWN &&
	    x->level != KIFU_SUMS_LEVEL_OUT) {
		const char *level = x->level == KIFU_SUMS_LEVEL_SPEC ? x->spec
								     : KIFU_SUMS_LEVEL_PLAYERS_NAME;

		e = tab_get(&a->t[KIFU_SUMS_BALANCE], x->g, x->variant, -1, 0, 0, level,
			    x->level == KIFU_SUMS_LEVEL_SPEC ? x->spec_len : strlen(level), 0);
		if (!e)
			return KIFU_ENOMEM;
		e->n[0]++;
		if (res == KIFU_SUMS_DRAW)
			e->n[2]++;
		else if (res == KIFU_SUMS_UNFINISHED)
			e->n[3]++;
		else if (res == x->first)
			e->n[1]++;
		e->n[4] += x->plies;
		e->n[5] += (int64_t)x->legal;
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
		struct kifu_store_sums_player_ *p = kifu_store_sums_player_get_(dst, s->pid, s->first_game,
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
	NULL, /* the players: players_write */
	"INSERT INTO stats_balance(game, variant, level, games, fm_wins, draws, unfinished, plies, "
	"moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
	"ON CONFLICT(game, variant, level) DO UPDATE SET "
	"games = stats_balance.games + excluded.games, "
	"fm_wins = stats_balance.fm_wins + excluded.fm_wins, "
	"draws = stats_balance.draws + excluded.draws, "
	"unfinished = stats_balance.unfinished + excluded.unfinished, "
	"plies = stats_balance.plies + excluded.plies, "
	"moves = stats_balance.moves + excluded.moves",
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
		} else if (k == KIFU_SUMS_BALANCE) {
			kifu_db_bind_text_static_(s, 1, items[i].game, -1);
			kifu_db_bind_text_static_(s, 2, items[i].variant, -1);
			kifu_db_bind_text_static_(s, 3, items[i].text, (long)e->len);
			for (c = 0; c < 6; c++)
				kifu_db_bind_int64_(s, 4 + c, e->n[c]);
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

int kifu_store_sums_reindex_(struct kifu_store_sums_ *a, int pairs)
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

static void bind_player(struct kifu_stmt *s, const struct kifu_store_sums_ *a, size_t i)
{
	const struct kifu_store_sums_player_ *p = &a->pl[i];

	kifu_db_bind_int64_(s, 1, p->pid);
	kifu_db_bind_int64_(s, 2, p->games);
	kifu_db_bind_int64_(s, 3, p->wins);
	kifu_db_bind_int64_(s, 4, p->draws);
	kifu_db_bind_double_(s, 5, p->draw_points);
	kifu_db_bind_int64_(s, 6, p->losses);
	kifu_db_bind_int64_(s, 7, p->unfinished);
}

static void bind_player_sums(struct kifu_stmt *s, const struct kifu_store_sums_ *a, size_t i)
{
	kifu_db_bind_int64_(s, 1, a->pl[i].pid);
	kifu_db_bind_int64_(s, 2, a->pl[i].first_game);
	kifu_db_bind_int_(s, 3, a->pl[i].first_side);
	kifu_db_bind_double_(s, 4, a->pl[i].points);
}

static void bind_pair(struct kifu_stmt *s, const struct kifu_store_sums_ *a, size_t i)
{
	kifu_db_bind_int64_(s, 1, a->pr[i].a);
	kifu_db_bind_int64_(s, 2, a->pr[i].b);
	kifu_db_bind_int64_(s, 3, a->pr[i].games);
}

/* Runs sql for rows 0..n) of a, each bound by bind. */
static int upsert_rows(struct kifu_store *st, const char *sql, const struct kifu_store_sums_ *a,
		       size_t n, void (*bind)(struct kifu_stmt *, const struct kifu_store_sums_ *,
					      size_t), struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	size_t i;
	int ret = 0;

	if (n && kifu_db_prepare_(&s, st, sql, err) < 0)
		return kifu_store_fail_(st, "cannot update the statistics", err);
	for (i = 0; ret == 0 && i < n; i++) {
		bind(s, a, i);
		ret = kifu_store_step_(st, s, "cannot update the statistics", err);
	}
	kifu_db_finalize_(s);
	return ret;
}

/*
 * Adds the players' sums to stats_players and stats_player_sums (a
 * player's first game stays the one written first: later writes count
 * later games) and the pairs' to stats_pairs, in key order; the ratings
 * are fitted apart (kifu_store_sums_ratings_).
 */
static int players_write(struct kifu_store *st, struct kifu_store_sums_ *a, struct kifu_error *err)
{
	int ret;

	if (a->npl)
		qsort(a->pl, a->npl, sizeof(*a->pl), cmp_player);
	if (a->npr)
		qsort(a->pr, a->npr, sizeof(*a->pr), cmp_pair);
	a->pl_stale = a->pr_stale = 1;
	ret = upsert_rows(st, "INSERT INTO stats_players(player_id, games, wins, draws, draw_points, "
			  "losses, unfinished) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
			  "ON CONFLICT(player_id) DO UPDATE SET "
			  "games = stats_players.games + excluded.games, "
			  "wins = stats_players.wins + excluded.wins, "
			  "draws = stats_players.draws + excluded.draws, "
			  "draw_points = stats_players.draw_points + excluded.draw_points, "
			  "losses = stats_players.losses + excluded.losses, "
			  "unfinished = stats_players.unfinished + excluded.unfinished",
			  a, a->npl, bind_player, err);
	/* Before schema 11 stats_players alone (the reports sum every game again). */
	if (ret < 0 || st->version < 11)
		return ret;
	ret = upsert_rows(st, "INSERT INTO stats_player_sums(player_id, first_game, first_side, "
			  "points) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(player_id) DO UPDATE SET "
			  "points = stats_player_sums.points + excluded.points",
			  a, a->npl, bind_player_sums, err);
	return ret < 0 ? ret : upsert_rows(st, "INSERT INTO stats_pairs(a, b, games) "
					   "VALUES (?1, ?2, ?3) ON CONFLICT(a, b) DO UPDATE SET "
					   "games = stats_pairs.games + excluded.games",
					   a, a->npr, bind_pair, err);
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
