/*
 * What the foreign format readers share (import_impl.h): reading a source
 * byte by byte with line and column, refusing what the YAML reader refuses
 * (bytes that are not UTF-8, NUL and control characters) so that every
 * string that reaches a record is clean UTF-8; bounded growable text; and
 * builders that fill a record field together with its source positions,
 * the way the YAML reader does, so that kifu_record_validate points at the
 * right place whatever the format. Also the PGN lexing that the pgn reader
 * and writer share (what ends a symbol, which tokens are results).
 */
#include <stdlib.h>
#include <string.h>

#include "import_impl.h"
#include "record/record_impl.h"

#define NO_PEEK (-10)

void kifu_import_in_init_(struct kifu_import_in_ *in, const struct kifu_source *src)
{
	memset(in, 0, sizeof(*in));
	in->src = src;
	in->line = 1;
	in->col = 1;
	in->peeked = NO_PEEK;
	kifu_error_clear(&in->error);
}

static int stop(struct kifu_import_in_ *in, const char *problem, long value)
{
	in->problem = problem;
	in->problem_value = value;
	in->problem_at.line = in->line;
	in->problem_at.col = in->col;
	return IMP_BAD;
}

static int stop_lead(struct kifu_import_in_ *in)
{
	stop(in, "bytes that are not UTF-8", in->lead);
	in->problem_at = in->lead_at;
	return IMP_BAD;
}

/* The next raw byte of the source, or IMP_EOF / IMP_ERR. */
static int raw(struct kifu_import_in_ *in)
{
	if (in->npend)
		return in->pend[--in->npend];
	if (in->pos == in->len) {
		long got;

		if (in->eof)
			return in->code ? IMP_ERR : IMP_EOF;
		got = in->src->read(in->src->ctx, in->buf, sizeof(in->buf), &in->error);
		if (got < 0) {
			in->eof = 1;
			in->code = (int)got;
			return IMP_ERR;
		}
		if (got == 0) {
			in->eof = 1;
			return IMP_EOF;
		}
		in->pos = 0;
		in->len = (size_t)got;
	}
	return in->buf[in->pos++];
}

static int next_byte(struct kifu_import_in_ *in)
{
	int c;

	if (in->problem)
		return IMP_BAD;
	if (!in->bom_checked) {
		/* a byte-order mark at the very start is skipped, however the source splits it */
		static const int bom[3] = { 0xef, 0xbb, 0xbf };
		int b[3], n = 0, k, got;

		in->bom_checked = 1;
		while (n < 3 && (b[n] = raw(in)) == bom[n])
			n++;
		if (n < 3) {
			/* not a mark: hand back what was read (the end of input repeats by itself) */
			got = b[n] >= 0 ? n + 1 : n;
			for (k = got - 1; k >= 0; k--)
				in->pend[in->npend++] = b[k];
		}
	}
	c = raw(in);
	if (c < 0) {
		if (c == IMP_EOF && in->need)
			return stop_lead(in);
		return c;
	}
	if (in->need == 0) {
		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
				return stop(in, c == 0 ? "a NUL byte" : "a control character", c);
		} else if (c >= 0xc2 && c <= 0xdf) {
			in->need = 1, in->cp = (unsigned long)c & 0x1f, in->min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			in->need = 2, in->cp = (unsigned long)c & 0x0f, in->min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			in->need = 3, in->cp = (unsigned long)c & 0x07, in->min = 0x10000;
		} else {
			return stop(in, "bytes that are not UTF-8", c);
		}
		if (c >= 0x80) {
			/* a sequence that breaks is reported at its first byte */
			in->lead = c;
			in->lead_at.line = in->line;
			in->lead_at.col = in->col;
		}
	} else {
		if ((c & 0xc0) != 0x80)
			return stop_lead(in);
		in->cp = in->cp << 6 | ((unsigned long)c & 0x3f);
		if (--in->need == 0) {
			if (in->cp < in->min || in->cp > 0x10ffff ||
			    (in->cp >= 0xd800 && in->cp <= 0xdfff))
				return stop_lead(in);
			if ((in->cp >= 0x80 && in->cp <= 0x9f && in->cp != 0x85) ||
			    in->cp == 0xfffe || in->cp == 0xffff)
				return stop(in, "a control character", (long)in->cp);
		}
	}
	return c;
}

int kifu_import_getc_(struct kifu_import_in_ *in)
{
	int c = in->peeked;

	if (c != NO_PEEK)
		in->peeked = NO_PEEK;
	else
		c = next_byte(in);
	if (c < 0)
		return c;
	in->consumed++;
	if (c == '\n') {
		in->line++;
		in->col = 1;
	} else if ((c & 0xc0) != 0x80) {
		in->col++;
	}
	return c;
}

int kifu_import_peek_(struct kifu_import_in_ *in)
{
	if (in->peeked == NO_PEEK)
		in->peeked = next_byte(in);
	return in->peeked;
}

struct kifu_mark kifu_import_at_(const struct kifu_import_in_ *in)
{
	struct kifu_mark m = { in->line, in->col };

	return m;
}

int kifu_import_bad_input_(struct kifu_diags *diags, int game, const struct kifu_import_in_ *in)
{
	if (in->problem_value == 0 && strcmp(in->problem, "a NUL byte"))
		return kifu_diags_add(diags, KIFU_DIAG_ERROR, game, 0, in->problem_at,
				      "invalid input: %s", in->problem);
	if (in->problem_value < 0x80 || !strcmp(in->problem, "a control character"))
		return kifu_diags_add(diags, KIFU_DIAG_ERROR, game, 0, in->problem_at,
				      "invalid input: %s (U+%04lX)", in->problem, in->problem_value);
	return kifu_diags_add(diags, KIFU_DIAG_ERROR, game, 0, in->problem_at,
			      "invalid input: %s (0x%02lX)", in->problem, in->problem_value);
}

/* ---- Text ---- */

void kifu_import_text_reset_(struct kifu_import_text_ *t)
{
	t->n = 0;
	t->over = 0;
	if (t->s)
		t->s[0] = '\0';
}

void kifu_import_text_release_(struct kifu_import_text_ *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

void kifu_import_text_add_(struct kifu_import_text_ *t, const char *s, size_t n)
{
	if (t->n + n > KIFU_RECORD_MAX_SCALAR) {
		t->over = 1;
		return;
	}
	if (t->n + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 64;
		char *p;

		while (cap < t->n + n + 1)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p) {
			t->failed = 1;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

void kifu_import_text_addc_(struct kifu_import_text_ *t, int c)
{
	char ch = (char)c;

	if (t->n + 1 < t->cap && t->n + 1 <= KIFU_RECORD_MAX_SCALAR) {
		t->s[t->n++] = ch;
		t->s[t->n] = '\0';
		return;
	}
	kifu_import_text_add_(t, &ch, 1);
}

static int space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void kifu_import_text_trim_(struct kifu_import_text_ *t)
{
	size_t a = 0;

	if (!t->s)
		return;
	while (t->n > 0 && space((unsigned char)t->s[t->n - 1]))
		t->n--;
	while (a < t->n && space((unsigned char)t->s[a]))
		a++;
	memmove(t->s, t->s + a, t->n - a);
	t->n -= a;
	t->s[t->n] = '\0';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int kifu_import_strncaseeq_(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return 0;
		if (!a[i])
			return 1;
	}
	return 1;
}

int kifu_import_strcaseeq_(const char *a, const char *b)
{
	return kifu_import_strncaseeq_(a, b, (size_t)-1);
}

/* ---- Record builders ---- */

static size_t len_of(const char *s, size_t n)
{
	return n == (size_t)-1 ? strlen(s) : n;
}

int kifu_import_set_(struct kifu_record *rec, int key, const char *s, size_t n,
		     struct kifu_mark key_at, struct kifu_mark value_at)
{
	char **f = kifu_record_field_(rec, key);

	if (!f)
		return KIFU_ERROR;
	*f = kifu_record_strndup_(rec, s, len_of(s, n));
	if (!*f)
		return KIFU_ENOMEM;
	rec->present |= 1u << key;
	rec->key_at[key] = key_at;
	rec->value_at[key] = value_at;
	return 0;
}

int kifu_import_player_(struct kifu_record *rec, const char *side, const char *name, int has_rating,
			long rating, struct kifu_mark at)
{
	struct kifu_record_player *p = kifu_record_push_player_(rec);

	if (!p)
		return KIFU_ENOMEM;
	p->side = kifu_record_strndup_(rec, side, strlen(side));
	p->name = name ? kifu_record_strndup_(rec, name, strlen(name)) : NULL;
	p->has_rating = has_rating;
	p->rating = has_rating ? rating : 0;
	p->at = at;
	if (!(rec->present & (1u << KIFU_KEY_PLAYERS))) {
		rec->present |= 1u << KIFU_KEY_PLAYERS;
		rec->key_at[KIFU_KEY_PLAYERS] = at;
		rec->value_at[KIFU_KEY_PLAYERS] = at;
	}
	return !p->side || (name && !p->name) ? KIFU_ENOMEM : 0;
}

struct kifu_turn *kifu_import_turn_(struct kifu_record *rec, const char *move, size_t n,
				    struct kifu_mark at)
{
	struct kifu_turn *t = kifu_record_push_turn_(rec);

	if (!t)
		return NULL;
	t->text = kifu_record_strndup_(rec, move, len_of(move, n));
	if (!t->text)
		return NULL;
	t->at = at;
	rec->plies_written = rec->nturns;
	rec->present |= 1u << KIFU_KEY_MOVES;
	return t;
}

int kifu_import_turn_comment_(struct kifu_record *rec, struct kifu_turn *t, const char *s)
{
	t->comment = kifu_record_strndup_(rec, s, strlen(s));
	return t->comment ? 0 : KIFU_ENOMEM;
}

int kifu_import_turn_clock_(struct kifu_record *rec, struct kifu_turn *t, const char *clock)
{
	long l;
	double f = 0;
	int type = kifu_yaml_resolve(clock, strlen(clock), &l, &f, NULL);

	t->clock = kifu_record_strndup_(rec, clock, strlen(clock));
	t->clock_seconds = type == KIFU_SCALAR_INT ? (double)l : f;
	return t->clock ? 0 : KIFU_ENOMEM;
}

int kifu_import_tag_(struct kifu_record *rec, const char *key, const char *value, int type,
		     struct kifu_mark at)
{
	struct kifu_tag *t = kifu_record_push_tag_(rec);

	if (!t)
		return KIFU_ENOMEM;
	t->key = kifu_record_strndup_(rec, key, strlen(key));
	t->value = kifu_record_strndup_(rec, value, strlen(value));
	t->type = type;
	t->at = at;
	if (!(rec->present & (1u << KIFU_KEY_TAGS))) {
		rec->present |= 1u << KIFU_KEY_TAGS;
		rec->key_at[KIFU_KEY_TAGS] = at;
		rec->value_at[KIFU_KEY_TAGS] = at;
	}
	return t->key && t->value ? 0 : KIFU_ENOMEM;
}

const struct kifu_game *kifu_import_game_lookup_(const char *name)
{
	const struct kifu_game *const *g;
	const struct kifu_game *found = kifu_game_find(name);

	for (g = kifu_games; !found && *g; g++)
		if (kifu_import_strcaseeq_((*g)->title, name))
			found = *g;
	return found;
}

int kifu_import_decimal_clock_(const char *s)
{
	size_t i = 0, d;

	for (d = 0; s[i] >= '0' && s[i] <= '9'; i++, d++)
		;
	if (d == 0 || d > 15 || (d > 1 && s[0] == '0'))
		return 0;
	if (s[i] == '.') {
		i++;
		for (d = 0; s[i] >= '0' && s[i] <= '9'; i++, d++)
			;
		if (d == 0 || d > 9)
			return 0;
	}
	return s[i] == '\0';
}

int kifu_import_sides_to_move_(int *sides, const struct kifu_record *rec, const struct kifu_game *g,
			       int variant, int first, const struct kifu_replay *rp)
{
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	size_t i;
	int side = first, live;

	kifu_error_clear(&err);
	live = kifu_pos_new(&pos, g, variant, first, &err) == 0;
	if (!live && err.code == KIFU_ENOMEM)
		return KIFU_ENOMEM;
	for (i = 0; i < rec->nturns; i++) {
		kifu_move m;

		if (live) {
			side = g->side_to_move(pos->state);
			if (rp && rp->game == g && i < rp->nplies)
				m = rp->moves[i];
			else if (!rec->turns[i].text ||
				 g->parse_move(pos->state, rec->turns[i].text, &m, &err) < 0)
				live = 0;
			if (live)
				g->apply(pos->state, m);
		}
		sides[i] = side;
		if (!live)
			side = (side + 1) % g->nsides;
	}
	kifu_pos_free(pos);
	return 0;
}

/* ---- PGN lexing, shared by its reader and writer ---- */

int kifu_import_pgn_space_(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int kifu_import_pgn_delim_(int c)
{
	return c < 0 || kifu_import_pgn_space_(c) || strchr("{}();[]$\"", c) != NULL;
}

const char *kifu_import_pgn_result_word_(const struct kifu_game *g, const char *s)
{
	int i;

	if (!strcmp(s, "*"))
		return "unfinished";
	if (!strcmp(s, "1/2-1/2") || kifu_import_strcaseeq_(s, "draw"))
		return "draw";
	if (g && g->nsides == 2 && !strcmp(s, "1-0"))
		return g->sides[0];
	if (g && g->nsides == 2 && !strcmp(s, "0-1"))
		return g->sides[1];
	for (i = 0; g && g->sides[i]; i++)
		if (kifu_import_strcaseeq_(s, g->sides[i]))
			return g->sides[i];
	return NULL;
}

int kifu_import_pgn_result_token_(const struct kifu_game *g, const char *s)
{
	return !strcmp(s, "1-0") || !strcmp(s, "0-1") || kifu_import_pgn_result_word_(g, s) != NULL;
}
