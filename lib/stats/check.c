/*
 * kifu_stats_check (kifu/check.h): the database's integrity against a
 * replay of its games. The games (all, or a sample drawn with a seed) go
 * one by one through the store's half of the check (store/store_check.h:
 * the record loads and replays, its row, hashes and index entries agree
 * with the replay); then every report that reads sums the store keeps
 * (summary, lengths, openings to the kept depth, by line and by position,
 * players, balance; the tree at the positions of the first plies of
 * some checked games) is made twice, from the kept sums and from the games
 * (KIFU_STATS_NO_CACHE), and the two must be the same text. Comparing the
 * reports, not the tables, keeps the check true to what users read and
 * free of the tables' layout; a difference names the rows that differ.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/check.h"
#include "kifu/game.h"
#include "kifu/search.h"
#include "stats/stats_impl.h"
#include "store/store_check.h"

/* Rows of a report's difference named in one message, on each side. */
#define DIFF_ROWS 3

/* A position whose tree counts are checked: its game, variant, hash and moves. */
struct tpos {
	const struct kifu_game *g;
	int variant;
	uint64_t hash;
	char *after;
};

struct run {
	struct kifu_store *st;
	kifu_check_fn fn;
	void *ctx;
	struct kifu_check_summary *sum;
	struct tpos *tp;
	size_t ntp, captp;
};

/* Every problem goes through here: counted, then to the caller. */
static int say(void *arg, const char *check, int64_t id, const char *message)
{
	struct run *r = arg;

	r->sum->problems++;
	return r->fn(r->ctx, check, id, message);
}

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
}

static uint64_t next_rand(uint64_t *s)
{
	/* splitmix64: any seed, 0 included, gives a good sequence */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The ids to check, ascending: every one, or n drawn at random (a partial shuffle). */
static size_t choose(int64_t *ids, size_t n, long sample, uint64_t seed)
{
	size_t i, j, k = n;
	int64_t t;

	if (sample > 0 && (size_t)sample < n) {
		k = (size_t)sample;
		for (i = 0; i < k; i++) {
			j = i + (size_t)(next_rand(&seed) % (n - i));
			t = ids[i];
			ids[i] = ids[j];
			ids[j] = t;
		}
	}
	if (k)
		qsort(ids, k, sizeof(*ids), cmp_id);
	return k;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text (NUL-terminated, changed: line ends cut), sorted, in *v. */
static size_t lines_of(char ***v, char *text)
{
	size_t n = 0, cap = 0;
	char *p = text, *e;
	char **w;

	*v = NULL;
	while (p && *p) {
		e = strchr(p, '\n');
		if (e) {
			*e = '\0';
			if (e > p && e[-1] == '\r')
				e[-1] = '\0';
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			w = realloc(*v, cap * sizeof(**v));
			if (!w) {
				free(*v);
				*v = NULL;
				return (size_t)-1;
			}
			*v = w;
		}
		(*v)[n++] = p;
		p = e ? e + 1 : NULL;
	}
	if (n)
		qsort(*v, n, sizeof(**v), cmp_line);
	return n;
}

/*
 * "what: kept 'ROW'...; recounted 'ROW'...": up to DIFF_ROWS rows found
 * only in the kept report's text and only in the recount's.
 */
static int differ(struct run *r, const char *check, const char *what, struct kifu_buf *kept,
		  struct kifu_buf *fresh, struct kifu_error *err)
{
	struct kifu_buf m = KIFU_BUF_INIT;
	char **a = NULL, **b = NULL;
	size_t na, nb, i = 0, j = 0;
	int ka = 0, kb = 0, c, ret;

	na = lines_of(&a, kept->data);
	nb = lines_of(&b, fresh->data);
	if (na == (size_t)-1 || nb == (size_t)-1) {
		free(a);
		free(b);
		return nomem(err);
	}
	kifu_buf_printf(&m, "%s differ from their recount from the games:", what);
	while (i < na || j < nb) {
		c = i >= na ? 1 : j >= nb ? -1 : strcmp(a[i], b[j]);
		if (c < 0 && ka++ < DIFF_ROWS)
			kifu_buf_printf(&m, " kept '%s';", a[i]);
		else if (c > 0 && kb++ < DIFF_ROWS)
			kifu_buf_printf(&m, " recounted '%s';", b[j]);
		i += c <= 0;
		j += c >= 0;
	}
	if (m.len && m.data[m.len - 1] == ';')
		m.data[--m.len] = '\0';
	ret = m.failed ? nomem(err) : say(r, check, -1, m.data);
	kifu_buf_release(&m);
	free(a);
	free(b);
	return ret;
}

/*
 * The text of a tree at a position that a board symmetry maps onto itself,
 * made comparable: a move there has as many names as the symmetries that
 * fix the position, and the kept counts and a recount may name it either
 * way (the same move, the same games). Each line without its "move" field,
 * the lines sorted (ties of the rows' order were broken by the names).
 */
static int unnamed(struct kifu_buf *b, struct kifu_error *err)
{
	struct kifu_buf out = KIFU_BUF_INIT;
	char **v = NULL, *p, *q, *e;
	size_t n, i;

	n = lines_of(&v, b->data);
	if (n == (size_t)-1)
		return nomem(err);
	for (i = 0; i < n; i++) {
		p = v[i];
		q = strstr(p, "{\"move\": \"");
		if (q) {
			/* a move's text holds no quote or backslash */
			e = strchr(q + 10, '"');
			kifu_buf_add(&out, p, (size_t)(q - p) + 1);
			p = e ? e + 1 + (e[1] == ',') + (e[1] == ',' && e[2] == ' ') : q + 1;
		}
		kifu_buf_puts(&out, p);
		kifu_buf_putc(&out, '\n');
	}
	free(v);
	if (out.failed) {
		kifu_buf_release(&out);
		return nomem(err);
	}
	kifu_buf_release(b);
	*b = out;
	return 0;
}

/*
 * Report kind with opt over f, from the kept sums and then from the games:
 * the same text, else a problem of check. Damage the kept report meets is
 * a problem too (the recount then is not made).
 */
static int compare(struct run *r, const char *check, const char *what, int kind,
		   const struct kifu_filter *f, const struct kifu_stats_options *opt,
		   int format, int fixed, struct kifu_error *err)
{
	struct kifu_stats_options o = *opt;
	struct kifu_report *rep = NULL;
	struct kifu_buf kept = KIFU_BUF_INIT, fresh = KIFU_BUF_INIT;
	struct kifu_error why;
	long long damaged = 0;
	int ret, pass;

	for (pass = 0; pass < 2; pass++) {
		kifu_error_clear(&why);
		o.flags = opt->flags | (pass ? KIFU_STATS_NO_CACHE : 0);
		ret = kifu_stats_report(&rep, r->st, kind, f, &o, &why);
		if (ret == 0)
			ret = kifu_report_write(pass ? &fresh : &kept, rep, format, &why);
		kifu_report_free(rep);
		rep = NULL;
		if (ret == KIFU_EDB && strstr(why.message, "' is damaged: ")) {
			/* What the report met is the problem: its message names it. */
			damaged = 1;
			ret = say(r, check, -1, strstr(why.message, "' is damaged: ") + 14);
			break;
		}
		if (ret < 0) {
			*err = why;
			break;
		}
	}
	if (ret == 0 && !damaged && (kept.failed || fresh.failed))
		ret = nomem(err);
	if (ret == 0 && !damaged && fixed) {
		ret = unnamed(&kept, err);
		if (ret == 0)
			ret = unnamed(&fresh, err);
	}
	if (ret == 0 && !damaged && strcmp(kept.data ? kept.data : "", fresh.data ? fresh.data : ""))
		ret = differ(r, check, what, &kept, &fresh, err);
	kifu_buf_release(&kept);
	kifu_buf_release(&fresh);
	return ret;
}

/* The sums of every report that keeps them, recounted in full. */
static int check_sums(struct run *r, struct kifu_error *err)
{
	static const struct {
		int kind, depth, by_position;
		const char *what;
	} reps[] = {
		{ KIFU_STATS_SUMMARY, 2, 0, "the summary's kept sums (stats_outcomes)" },
		{ KIFU_STATS_LENGTHS, 2, 0, "the lengths' kept sums (stats_outcomes)" },
		{ KIFU_STATS_OPENINGS, LINE_DEPTH, 0, "the openings' kept sums (stats_lines)" },
		{ KIFU_STATS_OPENINGS, LINE_DEPTH, 1,
		  "the openings' kept sums by position (stats_lines)" },
		{ KIFU_STATS_PLAYERS, 2, 0, "the players' kept sums (stats_players)" },
		{ KIFU_STATS_BALANCE, 2, 0, "the balance's kept sums (stats_balance)" },
	};
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(reps) / sizeof(reps[0]) && ret == 0; i++) {
		opt.depth = reps[i].depth;
		opt.by_position = reps[i].by_position;
		ret = compare(r, "sums", reps[i].what, reps[i].kind, NULL, &opt, KIFU_REPORT_CSV,
			      0, err);
		r->sum->tables++;
	}
	return ret;
}

/* The positions of a replayed game's first plies, to check the tree's counts at. */
static int add_positions(struct run *r, const struct kifu_replay *rp)
{
	struct kifu_buf after = KIFU_BUF_INIT;
	size_t p, depth = (size_t)kifu_store_tree_depth();
	struct tpos *t;

	/* The tree starts from the game's first side: MOVES from there name the position. */
	if (rp->first != 0)
		return 0;
	for (p = 0; p <= depth && p <= rp->nplies; p++) {
		if (p > 0) {
			if (p > 1)
				kifu_buf_putc(&after, ',');
			kifu_buf_puts(&after, kifu_replay_text(rp, p));
		}
		if (after.failed)
			break;
		if (r->ntp == r->captp) {
			size_t cap = r->captp ? 2 * r->captp : 256;

			t = realloc(r->tp, cap * sizeof(*t));
			if (!t)
				break;
			r->tp = t;
			r->captp = cap;
		}
		t = &r->tp[r->ntp];
		t->g = rp->game;
		t->variant = rp->variant;
		t->hash = rp->hashes[p];
		t->after = strdup(after.data ? after.data : "");
		if (!t->after)
			break;
		r->ntp++;
	}
	p = after.failed || (p <= depth && p <= rp->nplies);
	kifu_buf_release(&after);
	return p ? KIFU_ENOMEM : 0;
}

static int cmp_tpos(const void *a, const void *b)
{
	const struct tpos *x = a, *y = b;
	int c = strcmp(x->g->name, y->g->name);

	if (c)
		return c;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return strcmp(x->after, y->after);
}

/* Whether a board symmetry other than the identity maps t's position onto itself. */
static int self_symmetric(const struct tpos *t)
{
	uint64_t o[KIFU_GAME_SYMMETRIES_MAX];
	struct kifu_error why;
	int n = 0, k;

	if (kifu_search_position_orientations(o, &n, t->g, t->variant, t->after, &why) < 0)
		return 1; /* not known: compared without the names, as the safe side */
	for (k = 1; k < n; k++)
		if (o[k] == o[0])
			return 1;
	return 0;
}

/* The tree's kept counts at each distinct position collected, plain and symmetric. */
static int check_trees(struct run *r, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_filter f;
	struct kifu_buf what = KIFU_BUF_INIT;
	size_t i;
	int ret = 0, sym;

	if (r->ntp)
		qsort(r->tp, r->ntp, sizeof(*r->tp), cmp_tpos);
	for (i = 0; i < r->ntp && ret == 0; i++) {
		const struct tpos *t = &r->tp[i];

		if (i > 0 && t->g == t[-1].g && t->variant == t[-1].variant && t->hash == t[-1].hash)
			continue;
		memset(&f, 0, sizeof(f));
		f.game = t->g->name;
		f.variant = t->g->variants[t->variant];
		opt.after = t->after[0] ? t->after : NULL;
		for (sym = 0; sym < 2 && ret == 0; sym++) {
			if (sym && (t->g->nsymmetries <= 1 || kifu_store_version(r->st) < 5))
				break;
			opt.symmetric = sym;
			kifu_buf_reset(&what);
			kifu_buf_printf(&what, "the tree's kept counts%s of %s %s at %016" PRIx64
					" (after '%s')", sym ? " by symmetry" : "", f.game,
					f.variant, t->hash, t->after);
			ret = what.failed ? nomem(err)
					  : compare(r, "tree", what.data, KIFU_STATS_TREE, &f, &opt,
						    KIFU_REPORT_JSON, sym && self_symmetric(t), err);
		}
		r->sum->trees++;
	}
	kifu_buf_release(&what);
	return ret;
}

int kifu_stats_check(struct kifu_check_summary *sum, struct kifu_store *st,
		     const struct kifu_check_options *opt, kifu_check_fn fn, void *ctx,
		     struct kifu_error *err)
{
	static const struct kifu_check_options defaults = KIFU_CHECK_OPTIONS_INIT;
	struct run r;
	struct kifu_store_check_ *ck = NULL;
	struct kifu_error why;
	int64_t *ids = NULL;
	size_t n = 0, k = 0, i, every;
	int ret, ready, own = 0;

	memset(sum, 0, sizeof(*sum));
	memset(&r, 0, sizeof(r));
	if (!opt)
		opt = &defaults;
	if (opt->sample < 0)
		return kifu_error_set(err, KIFU_ERANGE, "sample %ld is negative", opt->sample);
	r.st = st;
	r.fn = fn;
	r.ctx = ctx;
	r.sum = sum;
	/*
	 * The kept tables brought up to date first, as a report would (that
	 * is what they are compared as); damage met doing so is a problem.
	 */
	kifu_error_clear(&why);
	ret = kifu_stats_refresh(st, &why);
	if (ret == 0 && kifu_store_version(st) >= 5)
		ret = kifu_store_tree_update(&ready, st, &why);
	if (ret == KIFU_EDB && strstr(why.message, "' is damaged: "))
		ret = say(&r, "sums", -1, strstr(why.message, "' is damaged: ") + 14);
	else if (ret < 0)
		*err = why;
	if (ret != 0)
		return ret;
	/* Then one snapshot for all of it, while writers go on. */
	ret = kifu_store_begin_tx(st, KIFU_TX_READ, err);
	if (ret < 0)
		return ret;
	own = 1;
	ret = kifu_store_game_ids(&ids, &n, st, NULL, err);
	if (ret == 0) {
		sum->games = (long long)n;
		k = choose(ids, n, opt->sample, opt->seed);
		ret = kifu_store_check_open_(&ck, st, say, &r, err);
	}
	if (ret == 0)
		ret = kifu_store_check_file_(ck, err);
	/* The tree at the first plies of opt->trees games spread over those checked. */
	every = opt->trees < 0 ? 1 : k / (size_t)(opt->trees ? opt->trees : KIFU_CHECK_TREES) + 1;
	for (i = 0; i < k && ret == 0; i++) {
		ret = kifu_store_check_game_(ck, ids[i], err);
		sum->checked++;
		if (ret == 0 && i % every == 0 && kifu_store_check_replay_(ck) &&
		    kifu_store_version(st) >= 5)
			ret = add_positions(&r, kifu_store_check_replay_(ck)) < 0 ? nomem(err) : 0;
	}
	if (ret == 0 && k == n)
		ret = kifu_store_check_totals_(ck, err);
	if (ck)
		sum->positions = kifu_store_check_positions_(ck);
	if (ret == 0 && opt->sample == 0)
		ret = check_sums(&r, err);
	if (ret == 0)
		ret = check_trees(&r, err);
	kifu_store_check_free_(ck);
	kifu_store_game_ids_free(ids);
	for (i = 0; i < r.ntp; i++)
		free(r.tp[i].after);
	free(r.tp);
	if (own) {
		/* Nothing was written in it: ending it loses nothing. */
		if (kifu_store_commit(st, ret < 0 ? NULL : err) < 0 && ret == 0)
			ret = err ? err->code : KIFU_EDB;
	}
	return ret;
}
