/*
 * The record as data: allocation in one string arena per record (so that a
 * record is a handful of blocks however many moves it holds), the builders
 * that kifu-play and tests use, lists of diagnostics, and the YAML 1.1
 * typing of plain scalars that the reader and the writer both rely on.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/diag.h"
#include "kifu/record.h"
#include "record/record_impl.h"
#include "util/arena.h"

static const char *const key_names[KIFU_KEY_COUNT] = {
	"format", "game", "variant", "event", "site", "round", "annotator", "source",
	"date", "players", "first", "moves", "result", "termination", "tags"
};

const char *kifu_key_name(int key)
{
	return key >= 0 && key < KIFU_KEY_COUNT ? key_names[key] : NULL;
}

char *kifu_record_strndup_(struct kifu_record *rec, const char *s, size_t n)
{
	return kifu_arena_strndup_(&rec->arena_, s, n);
}

static void *push(void **v, size_t *n, size_t *cap, size_t elem)
{
	char *p;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		void *nv = realloc(*v, c * elem);

		if (!nv)
			return NULL;
		*v = nv;
		*cap = c;
	}
	p = (char *)*v + *n * elem;
	memset(p, 0, elem);
	(*n)++;
	return p;
}

struct kifu_record_player *kifu_record_push_player_(struct kifu_record *rec)
{
	return push((void **)&rec->players, &rec->nplayers, &rec->cap_players_,
		    sizeof(*rec->players));
}

struct kifu_turn *kifu_record_push_turn_(struct kifu_record *rec)
{
	return push((void **)&rec->turns, &rec->nturns, &rec->cap_turns_, sizeof(*rec->turns));
}

struct kifu_tag *kifu_record_push_tag_(struct kifu_record *rec)
{
	return push((void **)&rec->tags, &rec->ntags, &rec->cap_tags_, sizeof(*rec->tags));
}

char **kifu_record_field_(struct kifu_record *rec, int key)
{
	switch (key) {
	case KIFU_KEY_GAME: return &rec->game;
	case KIFU_KEY_VARIANT: return &rec->variant;
	case KIFU_KEY_EVENT: return &rec->event;
	case KIFU_KEY_SITE: return &rec->site;
	case KIFU_KEY_ROUND: return &rec->round;
	case KIFU_KEY_ANNOTATOR: return &rec->annotator;
	case KIFU_KEY_SOURCE: return &rec->source;
	case KIFU_KEY_DATE: return &rec->date;
	case KIFU_KEY_FIRST: return &rec->first;
	case KIFU_KEY_RESULT: return &rec->result;
	case KIFU_KEY_TERMINATION: return &rec->termination;
	default: return NULL;
	}
}

const char *kifu_record_get(const struct kifu_record *rec, int key)
{
	char **f = kifu_record_field_((struct kifu_record *)rec, key);

	return f ? *f : NULL;
}

const char *kifu_record_result(const struct kifu_record *rec)
{
	return rec->result ? rec->result : "unfinished";
}

const char *kifu_record_termination(const struct kifu_record *rec)
{
	if (rec->termination)
		return rec->termination;
	return strcmp(kifu_record_result(rec), "unfinished") ? "rules" : NULL;
}

int kifu_record_new(struct kifu_record **out, struct kifu_error *err)
{
	struct kifu_record *rec = calloc(1, sizeof(*rec));

	*out = NULL;
	if (!rec)
		return kifu_error_set(err, KIFU_ENOMEM, "record: out of memory");
	rec->number = 1;
	rec->format = 1;
	*out = rec;
	return 0;
}

/* Frees what format 2 hangs from turns (lines nest at most KIFU_RECORD_MAX_LEVELS + 1 deep). */
static void free_format2(struct kifu_turn *turns, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < turns[i].nlines; j++) {
			free_format2(turns[i].lines[j].turns, turns[i].lines[j].nturns);
			free(turns[i].lines[j].turns);
		}
		free(turns[i].lines);
		free(turns[i].eval);
	}
}

void kifu_record_free(struct kifu_record *rec)
{
	if (!rec)
		return;
	kifu_arena_release_(&rec->arena_);
	free(rec->players);
	free_format2(rec->turns, rec->nturns);
	free(rec->turns);
	free(rec->tags);
	free(rec);
}

static int nomem(struct kifu_error *err)
{
	return kifu_error_set(err, KIFU_ENOMEM, "record: out of memory");
}

static char *dup_or_null(struct kifu_record *rec, const char *s, int *failed)
{
	char *p;

	if (!s)
		return NULL;
	p = kifu_record_strndup_(rec, s, strlen(s));
	if (!p)
		*failed = 1;
	return p;
}

int kifu_record_set(struct kifu_record *rec, int key, const char *text, struct kifu_error *err)
{
	char **f = kifu_record_field_(rec, key);
	int failed = 0;

	if (!f)
		return kifu_error_set(err, KIFU_ENOTFOUND, "'%s' is not a string field",
				      kifu_key_name(key) ? kifu_key_name(key) : "?");
	*f = dup_or_null(rec, text, &failed);
	if (failed)
		return nomem(err);
	if (text)
		rec->present |= 1u << key;
	else
		rec->present &= ~(1u << key);
	return 0;
}

int kifu_record_set_player(struct kifu_record *rec, const char *side, const char *name,
			   int has_rating, long rating, struct kifu_error *err)
{
	struct kifu_record_player *p = NULL;
	size_t i;
	int failed = 0;

	for (i = 0; i < rec->nplayers; i++)
		if (rec->players[i].side && !strcmp(rec->players[i].side, side))
			p = &rec->players[i];
	if (!p) {
		p = kifu_record_push_player_(rec);
		if (!p)
			return nomem(err);
		p->side = dup_or_null(rec, side, &failed);
	}
	p->name = dup_or_null(rec, name, &failed);
	p->has_rating = has_rating;
	p->rating = has_rating ? rating : 0;
	rec->present |= 1u << KIFU_KEY_PLAYERS;
	return failed ? nomem(err) : 0;
}

int kifu_clock_seconds(const char *s, size_t n, double *out)
{
	long l = 0;
	double f = 0;
	int overflow = 0, type = kifu_yaml_resolve(s, n, &l, &f, &overflow);

	/* An integer past a long (26 digits, say) is still that many seconds: too many. */
	if (type == KIFU_SCALAR_INT)
		f = overflow ? HUGE_VAL : (double)l;
	else if (type != KIFU_SCALAR_FLOAT)
		return KIFU_EPARSE;
	if (!(f >= 0) || f > KIFU_CLOCK_MAX || (type == KIFU_SCALAR_INT && n && s[0] == '-'))
		return KIFU_ERANGE;
	*out = f;
	return 0;
}

int kifu_record_add_turn(struct kifu_record *rec, const char *move, const char *comment,
			 const char *clock, struct kifu_error *err)
{
	struct kifu_turn *t = kifu_record_push_turn_(rec);
	int failed = 0;

	if (!t)
		return nomem(err);
	t->text = dup_or_null(rec, move, &failed);
	t->comment = dup_or_null(rec, comment, &failed);
	t->clock = dup_or_null(rec, clock, &failed);
	/* The seconds as the reader gives them (0 for a clock it would refuse). */
	t->clock_seconds = 0;
	if (clock)
		kifu_clock_seconds(clock, strlen(clock), &t->clock_seconds);
	rec->plies_written = rec->nturns;
	rec->present |= 1u << KIFU_KEY_MOVES;
	return failed ? nomem(err) : 0;
}

int kifu_record_expected_(const char *s, size_t n, double *out)
{
	long l = 0;
	double f = 0;
	int over = 0, type = kifu_yaml_resolve(s, n, &l, &f, &over);

	if (type == KIFU_SCALAR_INT && !over)
		f = (double)l;
	else if (type != KIFU_SCALAR_FLOAT)
		return KIFU_EPARSE;
	if (!(f >= 0 && f <= 1))
		return KIFU_ERANGE;
	*out = f;
	return 0;
}

const char *const kifu_nags[7] = { "", "!", "?", "!!", "??", "!?", "?!" };

int kifu_nag_index(const char *s)
{
	int i;

	for (i = 1; s && i < 7; i++)
		if (!strcmp(s, kifu_nags[i]))
			return i;
	return 0;
}

int kifu_record_turn_lines(struct kifu_record *rec, struct kifu_turn *t, size_t n,
			   struct kifu_error *err)
{
	struct kifu_line *v = n ? calloc(n, sizeof(*v)) : NULL;
	size_t j;

	if (n && !v)
		return nomem(err);
	for (j = 0; j < t->nlines; j++) {
		free_format2(t->lines[j].turns, t->lines[j].nturns);
		free(t->lines[j].turns);
	}
	free(t->lines);
	t->lines = v;
	t->nlines = n;
	t->lines_cap_ = n;
	(void)rec;
	return 0;
}

struct kifu_line *kifu_record_turn_add_line(struct kifu_record *rec, struct kifu_turn *t,
					    struct kifu_error *err)
{
	struct kifu_line *v;

	(void)rec;
	/* (a room of 0 or less than nlines is one nobody counted: grow it as full) */
	if (t->nlines >= t->lines_cap_) {
		size_t cap = t->nlines < 4 ? 4 : t->nlines + t->nlines / 2;

		if (cap > SIZE_MAX / sizeof(*v) || !(v = realloc(t->lines, cap * sizeof(*v)))) {
			nomem(err);
			return NULL;
		}
		t->lines = v;
		t->lines_cap_ = cap;
	}
	v = t->lines;
	memset(&v[t->nlines], 0, sizeof(*v));
	return &v[t->nlines++];
}

struct kifu_turn *kifu_record_line_add_turn(struct kifu_record *rec, struct kifu_line *line,
					    const char *move, const char *comment, const char *clock)
{
	struct kifu_turn *t;
	int failed = 0;

	if (line->nturns == line->cap_) {
		size_t cap = line->cap_ ? line->cap_ * 2 : 4;
		struct kifu_turn *v = realloc(line->turns, cap * sizeof(*v));

		if (!v)
			return NULL;
		line->turns = v;
		line->cap_ = cap;
	}
	t = &line->turns[line->nturns++];
	memset(t, 0, sizeof(*t));
	t->text = dup_or_null(rec, move, &failed);
	t->comment = dup_or_null(rec, comment, &failed);
	t->clock = dup_or_null(rec, clock, &failed);
	if (clock)
		kifu_clock_seconds(clock, strlen(clock), &t->clock_seconds);
	rec->line_turns++;
	return failed ? NULL : t;
}

int kifu_record_turn_nag(struct kifu_record *rec, struct kifu_turn *t, const char *nag,
			 struct kifu_error *err)
{
	int failed = 0;

	t->nag = dup_or_null(rec, nag, &failed);
	return failed ? nomem(err) : 0;
}

int kifu_record_turn_eval(struct kifu_record *rec, struct kifu_turn *t, const char *engine,
			  const char *expected, const char *best, struct kifu_error *err)
{
	struct kifu_eval *e;
	int failed = 0;

	free(t->eval);
	t->eval = NULL;
	if (!engine)
		return 0;
	e = calloc(1, sizeof(*e));
	if (!e)
		return nomem(err);
	e->engine = dup_or_null(rec, engine, &failed);
	e->expected = dup_or_null(rec, expected ? expected : "0", &failed);
	e->best = dup_or_null(rec, best ? best : "", &failed);
	if (e->expected)
		kifu_record_expected_(e->expected, strlen(e->expected), &e->expected_value);
	t->eval = e;
	return failed ? nomem(err) : 0;
}

size_t kifu_turn_texts(const struct kifu_turn *t)
{
	size_t n = t->eval ? 1 : 0, j, k;

	for (j = 0; j < t->nlines; j++)
		for (k = 0; k < t->lines[j].nturns; k++)
			n += 1 + kifu_turn_texts(&t->lines[j].turns[k]);
	return n;
}

static int turns_use_format2(const struct kifu_turn *turns, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (turns[i].nag || turns[i].eval || turns[i].nlines)
			return 1;
	return 0;
}

int kifu_record_uses_format2(const struct kifu_record *rec)
{
	/* A line is a non-empty `variations`, so a turn with lines already says yes. */
	return turns_use_format2(rec->turns, rec->nturns);
}

int kifu_record_add_tag(struct kifu_record *rec, const char *key, const char *value, int type,
			struct kifu_error *err)
{
	struct kifu_tag *t = kifu_record_push_tag_(rec);
	int failed = 0;

	if (!t)
		return nomem(err);
	t->key = dup_or_null(rec, key, &failed);
	t->value = dup_or_null(rec, value ? value : "", &failed);
	t->type = type;
	rec->present |= 1u << KIFU_KEY_TAGS;
	return failed ? nomem(err) : 0;
}

/* ---- Diagnostics ---- */

int kifu_diags_add(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kifu_diags_addv(d, severity, game, ply, at, fmt, ap);
	va_end(ap);
	return ret;
}

int kifu_diags_addv(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		    const char *fmt, va_list ap)
{
	return kifu_diags_add_pathv(d, severity, game, ply, NULL, at, fmt, ap);
}

int kifu_diags_add_pathv(struct kifu_diags *d, int severity, int game, int ply, const char *path,
			 struct kifu_mark at, const char *fmt, va_list ap)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_diag *dg;
	char msg[KIFU_ERROR_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (ply > 0 && path && path[0])
		kifu_buf_printf(&b, "game %d, ply %d, %s: ", game, ply, path);
	else if (ply > 0)
		kifu_buf_printf(&b, "game %d, ply %d: ", game, ply);
	else
		kifu_buf_printf(&b, "game %d: ", game);
	kifu_buf_escaped(&b, msg);
	if (b.failed || !push((void **)&d->v, &d->n, &d->cap, sizeof(*d->v))) {
		kifu_buf_release(&b);
		d->failed = 1;
		return KIFU_ENOMEM;
	}
	dg = &d->v[d->n - 1];
	dg->line = at.line;
	dg->col = at.col;
	dg->ply = ply;
	dg->game = game;
	dg->severity = severity;
	dg->message = kifu_buf_detach(&b);
	if (!dg->message) {
		d->n--;
		d->failed = 1;
		return KIFU_ENOMEM;
	}
	if (severity == KIFU_DIAG_WARNING)
		d->warnings++;
	else
		d->errors++;
	return 0;
}

void kifu_diags_sort(struct kifu_diags *d, size_t from)
{
	size_t i, j;

	/* Insertion sort: stable, and lists are short and nearly sorted. */
	for (i = from + 1; i < d->n; i++) {
		struct kifu_diag x = d->v[i];

		for (j = i; j > from; j--) {
			const struct kifu_diag *y = &d->v[j - 1];

			if (y->line < x.line || (y->line == x.line && y->col <= x.col))
				break;
			d->v[j] = d->v[j - 1];
		}
		d->v[j] = x;
	}
}

void kifu_diags_reset(struct kifu_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		kifu_buf_detached_free(d->v[i].message);
	d->n = 0;
	d->errors = 0;
	d->warnings = 0;
	d->failed = 0;
}

void kifu_diags_release(struct kifu_diags *d)
{
	kifu_diags_reset(d);
	free(d->v);
	d->v = NULL;
	d->cap = 0;
}

/* ---- YAML 1.1 typing of plain scalars ---- */

static int word_in(const char *s, size_t n, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == n && !memcmp(*words, s, n))
			return 1;
	return 0;
}

static const char *const null_words[] = { "~", "null", "Null", "NULL", NULL };
static const char *const bool_words[] = {
	"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE",
	"on", "On", "ON", "off", "Off", "OFF", NULL
};

static int digit_in(int c, int base)
{
	if (c >= '0' && c <= '9')
		return c - '0' < base ? c - '0' : -1;
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Accumulates v = v * base + d, noting overflow past LONG_MAX + 1 (for a negative minimum). */
static void acc(unsigned long *v, unsigned base, unsigned d, int *over)
{
	if (*v > ((unsigned long)LONG_MAX + 1 - d) / base)
		*over = 1;
	else
		*v = *v * base + d;
}

/* Digits of base with '_' separators from s[i..n); at least one digit. */
static int digits(const char *s, size_t n, size_t i, int base, unsigned long *v, int *over)
{
	int any = 0;

	for (; i < n; i++) {
		int d;

		if (s[i] == '_')
			continue;
		d = digit_in((unsigned char)s[i], base);
		if (d < 0)
			return 0;
		acc(v, (unsigned)base, (unsigned)d, over);
		any = 1;
	}
	return any;
}

/* [1-9][0-9_]*(:[0-5]?[0-9])+ from s[i..n): a base-60 integer. */
static int sexagesimal_int(const char *s, size_t n, size_t i, unsigned long *v, int *over)
{
	size_t j = i;
	int parts = 0;

	if (j >= n || s[j] < '1' || s[j] > '9')
		return 0;
	while (j < n && s[j] != ':')
		j++;
	if (j == n || !digits(s, j, i, 10, v, over))
		return 0;
	while (j < n) {
		unsigned d = 0;
		size_t k = ++j;

		while (j < n && s[j] != ':')
			j++;
		if (j - k == 0 || j - k > 2)
			return 0;
		if (j - k == 2 && (s[k] < '0' || s[k] > '5'))
			return 0;
		for (; k < j; k++) {
			if (s[k] < '0' || s[k] > '9')
				return 0;
			d = d * 10 + (unsigned)(s[k] - '0');
		}
		acc(v, 60, d, over);
		parts++;
	}
	return parts > 0;
}

static int resolve_int(const char *s, size_t n, long *ival, int *overflow)
{
	unsigned long v = 0;
	int neg = 0, over = 0, ok;
	size_t i = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i >= n)
		return 0;
	if (n - i >= 2 && s[i] == '0' && s[i + 1] == 'b')
		ok = digits(s, n, i + 2, 2, &v, &over);
	else if (n - i >= 2 && s[i] == '0' && s[i + 1] == 'x')
		ok = digits(s, n, i + 2, 16, &v, &over);
	else if (s[i] == '0' && n - i == 1)
		ok = 1;
	else if (s[i] == '0')
		ok = digits(s, n, i + 1, 8, &v, &over);
	else if (s[i] >= '1' && s[i] <= '9' && memchr(s + i, ':', n - i))
		ok = sexagesimal_int(s, n, i, &v, &over);
	else if (s[i] >= '1' && s[i] <= '9')
		ok = digits(s, n, i, 10, &v, &over);
	else
		ok = 0;
	if (!ok)
		return 0;
	if (!neg && v > (unsigned long)LONG_MAX)
		over = 1;
	if (overflow)
		*overflow = over;
	if (ival)
		*ival = over ? 0 : neg ? (long)(0 - v) : (long)v;
	return 1;
}

static int isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether s[i..n) is [0-9_]* ; counts its digits in *nd. */
static size_t skip_digits(const char *s, size_t n, size_t i, int *nd)
{
	for (; i < n && (isdig(s[i]) || s[i] == '_'); i++)
		if (s[i] != '_')
			(*nd)++;
	return i;
}

/*
 * The value of a float written [-+]?[0-9_]*.[0-9_]* (no exponent) when its
 * digits make an integer m of at most 2^53 and it has at most 22 digits
 * after the point: m and 10^k are then exact doubles, and one division,
 * correctly rounded, gives the correctly rounded m / 10^k that strtod()
 * gives. Returns 0 when the text is not of that kind.
 */
static int float_exact(const char *s, size_t n, double *out)
{
	static const double pow10[23] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	uint64_t m = 0;
	size_t i = 0;
	int neg = 0, frac = -1, digits = 0;
	double v;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (s[i] == '_')
			continue;
		if (s[i] == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9' || m > (UINT64_C(1) << 53) / 10)
			return 0;
		m = m * 10 + (uint64_t)(s[i] - '0');
		digits++;
		if (m > UINT64_C(1) << 53)
			return 0;
		if (frac >= 0 && ++frac > 22)
			return 0;
	}
	if (!digits)
		return 0;
	v = (double)m / pow10[frac < 0 ? 0 : frac];
	*out = neg ? -v : v;
	return 1;
}

/* strtod of s[i..n) without its '_' separators. */
static double float_value(const char *s, size_t n, size_t i)
{
	char small[128], *tmp = small;
	size_t k = 0;
	double v;

	if (float_exact(s + i, n - i, &v))
		return v;

	if (n - i + 1 > sizeof(small)) {
		tmp = malloc(n - i + 1);
		if (!tmp)
			return 0;
	}
	for (; i < n; i++)
		if (s[i] != '_')
			tmp[k++] = s[i];
	tmp[k] = '\0';
	v = strtod(tmp, NULL);
	if (tmp != small)
		free(tmp);
	return v;
}

/*
 * YAML 1.1 floats (as PyYAML reads them): [-+]?([0-9][0-9_]*)?\.[0-9_]*
 * ([eE][-+][0-9]+)? with a digit somewhere, base 60 with a fraction
 * ([-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*), [-+]?.inf and .nan.
 */
static int resolve_float(const char *s, size_t n, double *fval)
{
	size_t i = 0, start;
	int neg = 0, nd = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (n - i == 4 && s[i] == '.' &&
	    (!memcmp(s + i + 1, "inf", 3) || !memcmp(s + i + 1, "Inf", 3) ||
	     !memcmp(s + i + 1, "INF", 3))) {
		if (fval)
			*fval = neg ? -HUGE_VAL : HUGE_VAL;
		return 1;
	}
	if (n == 4 && (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) || !memcmp(s, ".NAN", 4))) {
		if (fval)
			*fval = NAN;
		return 1;
	}
	start = i;
	if (i < n && isdig(s[i]) && memchr(s + i, ':', n - i)) {
		double v = 0, scale = 0.1;
		size_t j;

		i = skip_digits(s, n, i, &nd);
		if (i == n || s[i] != ':')
			return 0;
		for (j = start; j < i; j++)
			if (s[j] != '_')
				v = v * 10 + (s[j] - '0');
		while (i < n && s[i] == ':') {
			size_t d0 = ++i;
			int part = 0;

			while (i < n && isdig(s[i]))
				part = part * 10 + (s[i++] - '0');
			if (i - d0 == 0 || i - d0 > 2 || (i - d0 == 2 && s[d0] > '5'))
				return 0;
			v = v * 60 + part;
		}
		if (i == n || s[i] != '.')
			return 0;
		for (i++; i < n; i++) {
			if (s[i] == '_')
				continue;
			if (!isdig(s[i]))
				return 0;
			v += (s[i] - '0') * scale;
			scale /= 10;
		}
		if (fval)
			*fval = neg ? -v : v;
		return 1;
	}
	if (i < n && isdig(s[i])) {
		i = skip_digits(s, n, i, &nd);
	}
	if (i == n || s[i] != '.')
		return 0;
	i = skip_digits(s, n, i + 1, &nd);
	if (!nd)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t e0;

		i++;
		if (i == n || (s[i] != '-' && s[i] != '+'))
			return 0;
		e0 = ++i;
		while (i < n && isdig(s[i]))
			i++;
		if (i == e0)
			return 0;
	}
	if (i != n)
		return 0;
	if (fval)
		*fval = float_value(s, n, 0);
	return 1;
}

/*
 * YAML 1.1 timestamps: YYYY-MM-DD, or YYYY-M-D followed by T or blanks and
 * H:MM:SS(.fraction)? and a zone (Z or +-H(:MM)?), the zone optional.
 */
static int resolve_timestamp(const char *s, size_t n)
{
	size_t i = 0, k;

	for (k = 0; k < 4; k++)
		if (i >= n || !isdig(s[i++]))
			return 0;
	if (i >= n || s[i++] != '-')
		return 0;
	if (n == 10) /* YYYY-MM-DD exactly */
		return isdig(s[5]) && isdig(s[6]) && s[7] == '-' && isdig(s[8]) && isdig(s[9]);
	for (k = 0; k < 2 && i < n && isdig(s[i]); k++)
		i++;
	if (!k || i >= n || s[i++] != '-')
		return 0;
	for (k = 0; k < 2 && i < n && isdig(s[i]); k++)
		i++;
	if (!k || i >= n)
		return 0;
	if (s[i] == 'T' || s[i] == 't')
		i++;
	else if (s[i] == ' ' || s[i] == '\t')
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	else
		return 0;
	for (k = 0; k < 2 && i < n && isdig(s[i]); k++)
		i++;
	if (!k || i >= n || s[i++] != ':')
		return 0;
	if (n - i < 5 || !isdig(s[i]) || !isdig(s[i + 1]) || s[i + 2] != ':' || !isdig(s[i + 3]) ||
	    !isdig(s[i + 4]))
		return 0;
	i += 5;
	if (i < n && s[i] == '.')
		for (i++; i < n && isdig(s[i]); i++)
			;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return 1;
	if (s[i] == 'Z')
		return i + 1 == n;
	if (s[i] != '-' && s[i] != '+')
		return 0;
	i++;
	for (k = 0; k < 2 && i < n && isdig(s[i]); k++)
		i++;
	if (!k)
		return 0;
	if (i == n)
		return 1;
	return n - i == 3 && s[i] == ':' && isdig(s[i + 1]) && isdig(s[i + 2]);
}

int kifu_yaml_resolve(const char *s, size_t n, long *ival, double *fval, int *overflow)
{
	if (overflow)
		*overflow = 0;
	if (n == 0)
		return KIFU_SCALAR_NULL;
	switch (s[0]) {
	case '~': case 'n': case 'N':
		if (word_in(s, n, null_words))
			return KIFU_SCALAR_NULL;
		/* fall through */
	case 'y': case 'Y': case 't': case 'T': case 'f': case 'F': case 'o': case 'O':
		return word_in(s, n, bool_words) ? KIFU_SCALAR_BOOL : KIFU_SCALAR_STR;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
	case '9': case '-': case '+': case '.':
		break;
	default:
		return KIFU_SCALAR_STR; /* words and moves */
	}
	if (resolve_int(s, n, ival, overflow))
		return KIFU_SCALAR_INT;
	if (resolve_float(s, n, fval))
		return KIFU_SCALAR_FLOAT;
	if (resolve_timestamp(s, n))
		return KIFU_SCALAR_TIMESTAMP;
	return KIFU_SCALAR_STR;
}
