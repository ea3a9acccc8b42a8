/*
 * The record writer: canonical YAML with the keys in the order of
 * RECORDS.md (`format: 2` exactly when some turn at any depth has a nag,
 * an eval or lines, a format-1 record byte for byte as before; a turn's
 * keys in the order move, nag, comment, clock, eval, variations, a turn
 * with an eval or lines as a block mapping), `format`, `game`, `variant` and `result` always, `termination`
 * whenever stated or implied, moves in canonical notation when a replay is
 * given, comments and clocks kept. A string is written plain only when it
 * plainly reads back as the same string (not a number, bool, null or date
 * under YAML 1.1, no indicator or comment characters), else single-quoted,
 * or double-quoted with escapes when it holds control characters or line
 * breaks. The YAML must read the same in every common reader, not only in
 * libyaml: PyYAML (YAML 1.1, whose flow scalars end at '?') and js-yaml
 * (YAML 1.2, where `yes`, `0b1`, `017` or `1:30` type otherwise), so typed
 * values are written plain only in the forms all of them agree on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"
#include "record/record_impl.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static int utf8_len(const unsigned char *s, unsigned long *cp)
{
	unsigned long c;
	int n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Characters YAML reads as they are inside quotes on one line. */
static int printable_inline(unsigned long c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
		return 0;
	if (c == 0x2028 || c == 0x2029 || c == 0xfeff || c == 0xfffe || c == 0xffff)
		return 0;
	return 1;
}

static int plain_char(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return 1;
	return c == ' ' || strchr("-_./>+()'!?;=@&*$%^~|<", c) != NULL;
}

/*
 * Whether s can be written as a plain scalar and read back as the string s;
 * in a flow collection (flow) a comma would end it.
 */
static int plain_ok(const char *s, int flow)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	if (n == 0 || !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z') || p[0] >= 0x80))
		return 0;
	if (p[n - 1] == ' ')
		return 0;
	while (*p) {
		unsigned long c;
		int k;

		if (*p < 0x80) {
			if (!plain_char(*p) && (flow || *p != ','))
				return 0;
			/* PyYAML ends a plain scalar at '?' in a flow collection. */
			if (flow && *p == '?')
				return 0;
			p++;
			continue;
		}
		k = utf8_len(p, &c);
		if (!k || !printable_inline(c) || c == 0xa0)
			return 0;
		p += k;
	}
	return kifu_yaml_resolve(s, n, NULL, NULL, NULL) == KIFU_SCALAR_STR;
}

static int single_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned long c;
		int k = utf8_len(p, &c);

		if (!k || !printable_inline(c) || c == '\t')
			return 0;
		p += k;
	}
	return 1;
}

static void put_double(struct kifu_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	kifu_buf_putc(out, '"');
	while (*p) {
		unsigned long c;
		int k = utf8_len(p, &c);

		if (!k) {
			kifu_buf_printf(out, "\\x%02X", *p++);
			continue;
		}
		switch (c) {
		case '"': kifu_buf_puts(out, "\\\""); break;
		case '\\': kifu_buf_puts(out, "\\\\"); break;
		case '\0': kifu_buf_puts(out, "\\0"); break;
		case '\t': kifu_buf_puts(out, "\\t"); break;
		case '\n': kifu_buf_puts(out, "\\n"); break;
		case '\r': kifu_buf_puts(out, "\\r"); break;
		case 0x85: kifu_buf_puts(out, "\\N"); break;
		case 0x2028: kifu_buf_puts(out, "\\L"); break;
		case 0x2029: kifu_buf_puts(out, "\\P"); break;
		default:
			if (printable_inline(c))
				kifu_buf_add(out, (const char *)p, (size_t)k);
			else if (c <= 0xff)
				kifu_buf_printf(out, "\\x%02X", (unsigned)c);
			else
				kifu_buf_printf(out, "\\u%04lX", c);
		}
		p += k;
	}
	kifu_buf_putc(out, '"');
}

int kifu_yaml_put_string(struct kifu_buf *out, const char *s, int flow)
{
	const char *q;

	if (plain_ok(s, flow))
		return kifu_buf_puts(out, s);
	if (!single_ok(s)) {
		put_double(out, s);
		return out->failed ? KIFU_ENOMEM : 0;
	}
	kifu_buf_putc(out, '\'');
	while ((q = strchr(s, '\'')) != NULL) {
		kifu_buf_add(out, s, (size_t)(q - s + 1));
		kifu_buf_putc(out, '\'');
		s = q + 1;
	}
	kifu_buf_puts(out, s);
	return kifu_buf_putc(out, '\'');
}

/* n decimal digits at s (at least one, at most max); 0 when there are none or too many. */
static size_t digits(const char *s, size_t max)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n <= max ? n : 0;
}

/*
 * Whether the plain scalar s has type in YAML 1.1 (libyaml as kifu reads
 * it, PyYAML) and the same type and value in YAML 1.2 (js-yaml): decimal
 * integers without sign, leading zero or underscore, small enough for a
 * double; floats with a dot (and a signed exponent); true and false; null,
 * ~ and nothing; dates YYYY-MM-DD.
 */
static int portable(const char *s, int type)
{
	const char *p = s + (*s == '-');
	size_t n;

	switch (type) {
	case KIFU_SCALAR_NULL:
		return !strcmp(s, "") || !strcmp(s, "~") || !strcmp(s, "null");
	case KIFU_SCALAR_BOOL:
		return !strcmp(s, "true") || !strcmp(s, "false");
	case KIFU_SCALAR_INT:
		n = digits(p, 15);
		return n && p[n] == '\0' && (p[0] != '0' || n == 1);
	case KIFU_SCALAR_FLOAT:
		n = digits(p, 17);
		if (!n || (p[0] == '0' && n > 1) || p[n] != '.')
			return 0;
		p += n + 1;
		if (!(n = digits(p, 17)))
			return 0;
		p += n;
		if (*p == 'e' || *p == 'E') {
			if (p[1] != '+' && p[1] != '-')
				return 0;
			p += 2;
			if (!(n = digits(p, 3)))
				return 0;
			p += n;
		}
		return *p == '\0';
	case KIFU_SCALAR_TIMESTAMP:
		return strlen(s) == 10 && digits(s, 4) == 4 && s[4] == '-' && digits(s + 5, 2) == 2 &&
		       s[7] == '-' && digits(s + 8, 2) == 2;
	default:
		return 0;
	}
}

/*
 * A tag value of another type than string, written plain as it was when
 * every reader types it alike; else quoted, so its text stays the same.
 */
static void put_typed(struct kifu_buf *out, const char *s, int type)
{
	size_t n = strlen(s);

	if (type == KIFU_SCALAR_NULL && n == 0)
		return; /* `key:` reads back as the same empty null */
	if (type != KIFU_SCALAR_STR && kifu_yaml_resolve(s, n, NULL, NULL, NULL) == type &&
	    portable(s, type))
		kifu_buf_puts(out, s);
	else
		kifu_yaml_put_string(out, s, 0);
}

/*
 * A mapping key. YAML allows at most 1024 characters in an implicit key, so
 * a longer one is written explicitly ("? KEY" and ":" on the next line).
 */
static void put_key(struct kifu_buf *out, const char *indent, const char *key)
{
	kifu_buf_puts(out, indent);
	if (strlen(key) > 1000) {
		kifu_buf_puts(out, "? ");
		kifu_yaml_put_string(out, key, 0);
		kifu_buf_putc(out, '\n');
		kifu_buf_puts(out, indent);
	} else {
		kifu_yaml_put_string(out, key, 0);
	}
	kifu_buf_puts(out, ":");
}

static void put_field(struct kifu_buf *out, const char *key, const char *value)
{
	if (!value)
		return;
	kifu_buf_printf(out, "%s: ", key);
	kifu_yaml_put_string(out, value, 0);
	kifu_buf_putc(out, '\n');
}

static void put_player(struct kifu_buf *out, const struct kifu_record_player *p)
{
	put_key(out, "  ", p->side);
	if (!p->has_rating) {
		kifu_buf_putc(out, ' ');
		kifu_yaml_put_string(out, p->name ? p->name : "", 0);
		kifu_buf_putc(out, '\n');
		return;
	}
	kifu_buf_puts(out, " {name: ");
	kifu_yaml_put_string(out, p->name ? p->name : "", 1);
	kifu_buf_printf(out, ", rating: %ld}\n", p->rating);
}

/*
 * A clock is written as given when every reader reads that number alike
 * (12, 12.50); another YAML 1.1 form (4:09.5 in base 60, 0x1F, 1_000, 017,
 * which YAML 1.2 readers type otherwise) as its value in seconds, in the
 * fewest digits that read back as the same double.
 */
static void put_clock(struct kifu_buf *out, const struct kifu_turn *t)
{
	int type = kifu_yaml_resolve(t->clock, strlen(t->clock), NULL, NULL, NULL);
	char text[64];
	int prec;

	if ((type == KIFU_SCALAR_INT || type == KIFU_SCALAR_FLOAT) && portable(t->clock, type)) {
		kifu_buf_puts(out, t->clock);
		return;
	}
	if (!isfinite(t->clock_seconds)) {
		kifu_yaml_put_string(out, t->clock, 1);
		return;
	}
	for (prec = 0; prec <= 17; prec++) {
		snprintf(text, sizeof(text), "%.*f", prec, t->clock_seconds);
		if (strtod(text, NULL) == t->clock_seconds && strlen(text) <= 15) {
			kifu_buf_puts(out, text);
			return;
		}
	}
	/* Past 15 digits: a float with a dot and a signed exponent, a number in YAML 1.1 and 1.2. */
	snprintf(text, sizeof(text), "%.16e", t->clock_seconds);
	kifu_buf_puts(out, text);
}

/* An eval's expected score: as written when every reader reads it alike, else its value. */
static void put_expected(struct kifu_buf *out, const struct kifu_eval *e)
{
	const char *s = e->expected ? e->expected : "0";
	int type = kifu_yaml_resolve(s, strlen(s), NULL, NULL, NULL);
	char text[64];
	int prec;

	if ((type == KIFU_SCALAR_INT || type == KIFU_SCALAR_FLOAT) && portable(s, type)) {
		kifu_buf_puts(out, s);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(text, sizeof(text), "%.*f", prec, e->expected_value);
		if (strtod(text, NULL) == e->expected_value)
			break;
	}
	kifu_buf_puts(out, text);
}

static void indent(struct kifu_buf *out, int col)
{
	kifu_buf_printf(out, "%*s", col, "");
}

/*
 * One turn, the cursor at column col after its "- ": a plain move, a flow
 * mapping {move, nag, comment, clock}, or (with an eval or lines) a block
 * mapping whose keys stand at col. Format 2's moves and bests are the
 * replay's canonical texts, taken in its walk order from *xi on.
 */
static void put_turn(struct kifu_buf *out, const struct kifu_turn *t, const char *text, int col,
		     const struct kifu_replay *rp, size_t *xi)
{
	size_t j, k;

	if (!t->comment && !t->clock && !t->nag && !t->eval && !t->nlines) {
		kifu_yaml_put_string(out, text, 0);
		kifu_buf_putc(out, '\n');
		return;
	}
	if (!t->eval && !t->nlines) {
		kifu_buf_puts(out, "{move: ");
		kifu_yaml_put_string(out, text, 1);
		if (t->nag)
			kifu_buf_printf(out, ", nag: '%s'", t->nag);
		if (t->comment) {
			kifu_buf_puts(out, ", comment: ");
			kifu_yaml_put_string(out, t->comment, 1);
		}
		if (t->clock) {
			kifu_buf_puts(out, ", clock: ");
			put_clock(out, t);
		}
		kifu_buf_puts(out, "}\n");
		return;
	}
	kifu_buf_puts(out, "move: ");
	kifu_yaml_put_string(out, text, 0);
	kifu_buf_putc(out, '\n');
	if (t->nag) {
		indent(out, col);
		kifu_buf_printf(out, "nag: '%s'\n", t->nag);
	}
	if (t->comment) {
		indent(out, col);
		kifu_buf_puts(out, "comment: ");
		kifu_yaml_put_string(out, t->comment, 0);
		kifu_buf_putc(out, '\n');
	}
	if (t->clock) {
		indent(out, col);
		kifu_buf_puts(out, "clock: ");
		put_clock(out, t);
		kifu_buf_putc(out, '\n');
	}
	if (t->eval) {
		const char *best = kifu_replay_xtext(rp, (*xi)++);

		if (!best)
			best = t->eval->best ? t->eval->best : "";
		indent(out, col);
		kifu_buf_puts(out, "eval: {engine: ");
		kifu_yaml_put_string(out, t->eval->engine ? t->eval->engine : "", 1);
		kifu_buf_puts(out, ", expected: ");
		put_expected(out, t->eval);
		kifu_buf_puts(out, ", best: ");
		kifu_yaml_put_string(out, best, 1);
		kifu_buf_puts(out, "}\n");
	}
	if (!t->nlines)
		return;
	indent(out, col);
	kifu_buf_puts(out, "variations:\n");
	for (j = 0; j < t->nlines; j++) {
		const struct kifu_line *l = &t->lines[j];

		for (k = 0; k < l->nturns; k++) {
			const struct kifu_turn *lt = &l->turns[k];
			const char *lt_text = kifu_replay_xtext(rp, (*xi)++);

			if (!lt_text)
				lt_text = lt->text ? lt->text : "";
			indent(out, k ? col + 4 : col + 2);
			kifu_buf_puts(out, k ? "- " : "- - ");
			put_turn(out, lt, lt_text, col + 6, rp, xi);
		}
	}
}

int kifu_record_write(struct kifu_buf *out, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err)
{
	const struct kifu_game *g = rec->game ? kifu_game_find(rec->game) : NULL;
	const char *variant = rec->variant;
	const char *result = kifu_record_result(rec), *term = kifu_record_termination(rec);
	size_t i;
	int k;

	if (!variant && g && !(rec->present & (1u << KIFU_KEY_VARIANT)))
		variant = g->variants[0];

	kifu_buf_puts(out, kifu_record_uses_format2(rec) ? "---\nformat: 2\n" : "---\nformat: 1\n");
	put_field(out, "game", rec->game);
	put_field(out, "variant", variant);
	for (k = KIFU_KEY_EVENT; k <= KIFU_KEY_DATE; k++)
		put_field(out, kifu_key_name(k), kifu_record_get(rec, k));
	if (rec->nplayers) {
		kifu_buf_puts(out, "players:\n");
		if (g) {
			int s;

			for (s = 0; g->sides[s]; s++)
				for (i = 0; i < rec->nplayers; i++)
					if (!strcmp(rec->players[i].side, g->sides[s]))
						put_player(out, &rec->players[i]);
		}
		for (i = 0; i < rec->nplayers; i++)
			if (!g || kifu_game_side_index(g, rec->players[i].side) < 0)
				put_player(out, &rec->players[i]);
	}
	if (rec->first && (!g || g->flags & KIFU_GAME_CHOOSE_FIRST))
		put_field(out, "first", rec->first);
	if (rec->nturns == 0) {
		kifu_buf_puts(out, "moves: []\n");
	} else {
		size_t xi = 0;

		kifu_buf_puts(out, "moves:\n");
		for (i = 0; i < rec->nturns; i++) {
			const struct kifu_turn *t = &rec->turns[i];
			const char *text = rp ? kifu_replay_text(rp, i + 1) : NULL;

			if (!text)
				text = t->text ? t->text : "";
			kifu_buf_puts(out, "  - ");
			put_turn(out, t, text, 4, rp, &xi);
		}
	}
	put_field(out, "result", result);
	put_field(out, "termination", term);
	if (rec->ntags) {
		kifu_buf_puts(out, "tags:\n");
		for (i = 0; i < rec->ntags; i++) {
			const struct kifu_tag *t = &rec->tags[i];

			put_key(out, "  ", t->key);
			if (!(t->type == KIFU_SCALAR_NULL && !t->value[0]))
				kifu_buf_putc(out, ' ');
			put_typed(out, t->value, t->type);
			kifu_buf_putc(out, '\n');
		}
	}
	if (out->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "writing game %d: out of memory", rec->number);
	return 0;
}
