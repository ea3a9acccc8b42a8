/*
 * pgn: the tag-pair and movetext syntax of chess PGN with each game's own
 * move notation (INTEROP.md "pgn", formats/pgn.md). The reader streams a
 * file of games through a small tokenizer: tag pairs with PGN's escapes,
 * then movetext with move numbers, `{}` and `;` comments (lichess's
 * `[%clk H:MM:SS]` inside them is the turn's clock), NAGs and suffix glyphs
 * (the first after a move is its format-2 nag, others stay at the front of
 * its comment), recursive variations (format 2's lines, read into the turn
 * they replace, 16 levels deep at most) and the closing result token. Glaisher's moves hold
 * spaces, so there the reader replays the game as it goes and takes the
 * longest run of up to three tokens that is a legal move (in a line, from
 * the position before the move the line replaces). The writer gives every
 * tag the record has, move numbers for two-sided games, nags glued to their
 * moves, lines in ( ), and lines of at most 80 characters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import_impl.h"
#include "record/record_impl.h"

/* Tags of one game: more is hostile. */
#define MAX_TAGS 1000
/* Longest tag name and movetext token. */
#define MAX_NAME PGN_MAX_NAME
#define MAX_TOKEN PGN_MAX_TOKEN

struct tagpair {
	char *name, *value;
	struct kifu_mark at, value_at;
	int used;
};

/* A movetext token waiting to become (part of) a glaisher move. */
struct pending {
	char text[MAX_TOKEN + 1];
	struct kifu_mark at;
};

struct pgn {
	struct kifu_import_in_ in;
	const struct kifu_source *src;
	int games;
	int ended;

	/* the game being read */
	struct kifu_record *rec;
	struct kifu_diags *diags;
	const struct kifu_game *g;
	struct kifu_pos *pos;   /* glaisher: the position reached, NULL when the replay stopped */
	struct tagpair tags[MAX_TAGS];
	int ntags;
	struct pending q[3];
	int nq;
	struct kifu_turn *last; /* the turn comments attach to */
	struct kifu_import_text_ note; /* the last turn's comment being gathered */
	int has_note;
	int nag_open;           /* the last turn may still take its nag (no comment or line yet) */
	char clock[64];
	int warned_lost, failed;
	/*
	 * The lines being read: level 0 is the main line; at level d > 0,
	 * line[d] is line li[d] of turn ti[d] of level d - 1. Turns are found
	 * again from these indices, since the arrays holding them grow.
	 */
	int depth;
	size_t ti[KIFU_RECORD_MAX_LEVELS + 1], li[KIFU_RECORD_MAX_LEVELS + 1];
	/* glaisher: the position before the last move of each level, and the one it was left at */
	void *before[KIFU_RECORD_MAX_LEVELS + 2], *saved[KIFU_RECORD_MAX_LEVELS + 2];
	int stopped[KIFU_RECORD_MAX_LEVELS + 2]; /* the replay of that level stopped */
	struct kifu_mark open_at[KIFU_RECORD_MAX_LEVELS + 2]; /* each level's '(' */
	struct kifu_import_text_ tok, val;
};

static void diag(struct pgn *p, int severity, int ply, struct kifu_mark at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void diag(struct pgn *p, int severity, int ply, struct kifu_mark at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kifu_diags_addv(p->diags, severity, p->rec->number, ply, at, fmt, ap) < 0)
		p->failed = 1;
	va_end(ap);
}

/* Skips white space, `;` comments and `%` escape lines; returns the next byte (not consumed). */
static int skip_blank(struct pgn *p, int keep_semicolon)
{
	int c;

	for (;;) {
		c = kifu_import_peek_(&p->in);
		if (kifu_import_pgn_space_(c)) {
			kifu_import_getc_(&p->in);
		} else if ((c == ';' && !keep_semicolon) || (c == '%' && p->in.col == 1)) {
			while ((c = kifu_import_peek_(&p->in)) >= 0 && c != '\n')
				kifu_import_getc_(&p->in);
		} else {
			return c;
		}
	}
}

static int keep_state(struct pgn *p, void **slot, const void *state);

/* ---- Tags ---- */

static void skip_line(struct pgn *p)
{
	int c;

	while ((c = kifu_import_peek_(&p->in)) >= 0 && c != '\n')
		kifu_import_getc_(&p->in);
}

/* Reads one tag pair (the '[' is next); returns -1 when the input ended inside it. */
static int read_tag(struct pgn *p)
{
	struct kifu_mark at = kifu_import_at_(&p->in), value_at;
	char buf[KIFU_TEXT_CLIP + 1];
	struct tagpair *t;
	int c, i;

	kifu_import_getc_(&p->in);
	while ((c = kifu_import_peek_(&p->in)) == ' ' || c == '\t')
		kifu_import_getc_(&p->in);
	kifu_import_text_reset_(&p->tok);
	while (!kifu_import_pgn_delim_(c = kifu_import_peek_(&p->in)) && p->tok.n < MAX_NAME)
		kifu_import_text_addc_(&p->tok, kifu_import_getc_(&p->in));
	if (!p->tok.n) {
		diag(p, KIFU_DIAG_ERROR, 0, at, "a tag pair without a name");
		skip_line(p);
		return 0;
	}
	while ((c = kifu_import_peek_(&p->in)) == ' ' || c == '\t')
		kifu_import_getc_(&p->in);
	value_at = kifu_import_at_(&p->in);
	if (c != '"') {
		diag(p, KIFU_DIAG_ERROR, 0, value_at, "tag '%s' has no quoted value",
		     kifu_text_clip_(buf, p->tok.s, SIZE_MAX));
		skip_line(p);
		return 0;
	}
	kifu_import_getc_(&p->in);
	kifu_import_text_reset_(&p->val);
	for (;;) {
		c = kifu_import_getc_(&p->in);
		if (c < 0) {
			if (c == IMP_EOF)
				diag(p, KIFU_DIAG_ERROR, 0, at,
				     "unterminated tag '%s': the value has no closing '\"'",
				     kifu_text_clip_(buf, p->tok.s, SIZE_MAX));
			return -1;
		}
		if (c == '"')
			break;
		if (c == '\\' &&
		    (kifu_import_peek_(&p->in) == '"' || kifu_import_peek_(&p->in) == '\\'))
			c = kifu_import_getc_(&p->in);
		kifu_import_text_addc_(&p->val, c);
	}
	while ((c = kifu_import_peek_(&p->in)) == ' ' || c == '\t')
		kifu_import_getc_(&p->in);
	if (c != ']') {
		if (c >= 0 || c == IMP_EOF)
			diag(p, KIFU_DIAG_ERROR, 0, kifu_import_at_(&p->in),
			     "unterminated tag '%s': expected ']'",
			     kifu_text_clip_(buf, p->tok.s, SIZE_MAX));
		skip_line(p);
		return c < 0 ? -1 : 0;
	}
	kifu_import_getc_(&p->in);
	if (p->val.over) {
		diag(p, KIFU_DIAG_ERROR, 0, value_at,
		     "the value of tag '%s' is longer than %d bytes",
		     kifu_text_clip_(buf, p->tok.s, SIZE_MAX), KIFU_RECORD_MAX_SCALAR);
		return 0;
	}
	for (i = 0; i < p->ntags && i < MAX_TAGS; i++)
		if (!strcmp(p->tags[i].name, p->tok.s)) {
			diag(p, KIFU_DIAG_ERROR, 0, at, "duplicate tag '%s'",
			     kifu_text_clip_(buf, p->tok.s, SIZE_MAX));
			return 0;
		}
	if (p->ntags == MAX_TAGS) {
		if (p->ntags++ == MAX_TAGS)
			diag(p, KIFU_DIAG_ERROR, 0, at, "the game has more than %d tags", MAX_TAGS);
		return 0;
	}
	if (p->ntags > MAX_TAGS)
		return 0;
	t = &p->tags[p->ntags++];
	t->name = kifu_record_strndup_(p->rec, p->tok.s, p->tok.n);
	t->value = kifu_record_strndup_(p->rec, p->val.s ? p->val.s : "", p->val.n);
	t->at = at;
	t->value_at = value_at;
	t->used = 0;
	if (!t->name || !t->value)
		p->failed = 1;
	return 0;
}

static struct tagpair *tag(struct pgn *p, const char *name)
{
	int i;

	for (i = 0; i < p->ntags && i < MAX_TAGS; i++)
		if (kifu_import_strcaseeq_(p->tags[i].name, name)) {
			p->tags[i].used = 1;
			return &p->tags[i];
		}
	return NULL;
}

static void set_field(struct pgn *p, int key, const char *name)
{
	struct tagpair *t = tag(p, name);

	if (t && strcmp(t->value, "?") &&
	    kifu_import_set_(p->rec, key, t->value, (size_t)-1, t->at, t->value_at))
		p->failed = 1;
}

/* "2024.07.26", "2024.??.??": the record's date; other texts are kept for the validator. */
static void set_date(struct pgn *p)
{
	struct tagpair *t = tag(p, "Date");
	const char *s;
	char d[11];
	size_t n = 10;
	int i;

	if (!t)
		return;
	s = t->value;
	if (strlen(s) == 10 && s[4] == '.' && s[7] == '.') {
		for (i = 0; i < 10; i++)
			if (i != 4 && i != 7 && !(s[i] == '?' || (s[i] >= '0' && s[i] <= '9')))
				break;
		if (i == 10) {
			memcpy(d, s, 10);
			d[4] = d[7] = '-';
			d[10] = '\0';
			if (d[0] == '?' || d[1] == '?' || d[2] == '?' || d[3] == '?')
				return; /* no year: no date */
			if (d[5] == '?' || d[6] == '?')
				n = 4;
			else if (d[8] == '?' || d[9] == '?')
				n = 7;
			if (kifu_import_set_(p->rec, KIFU_KEY_DATE, d, n, t->at, t->value_at))
				p->failed = 1;
			return;
		}
	}
	if (strcmp(s, "?") &&
	    kifu_import_set_(p->rec, KIFU_KEY_DATE, s, (size_t)-1, t->at, t->value_at))
		p->failed = 1;
}

/* lichess's and the PGN standard's words for how a game ended, in kifu's terms */
static const char *termination_word(const char *s)
{
	if (kifu_import_strcaseeq_(s, "normal"))
		return "rules";
	if (kifu_import_strcaseeq_(s, "time forfeit"))
		return "timeout";
	return s;
}

/* Turns the tag pairs into record fields once the tag section is complete. */
static void apply_tags(struct pgn *p)
{
	struct kifu_record *rec = p->rec;
	struct tagpair *t;
	char name[64], buf[KIFU_TEXT_CLIP + 1];
	int i;

	t = tag(p, "Game");
	if (t) {
		p->g = kifu_import_game_lookup_(t->value);
		if (kifu_import_set_(rec, KIFU_KEY_GAME, p->g ? p->g->name : t->value, (size_t)-1,
				     t->at, t->value_at))
			p->failed = 1;
	}
	set_field(p, KIFU_KEY_VARIANT, "Variant");
	set_field(p, KIFU_KEY_EVENT, "Event");
	set_field(p, KIFU_KEY_SITE, "Site");
	set_field(p, KIFU_KEY_ROUND, "Round");
	set_date(p);
	set_field(p, KIFU_KEY_FIRST, "First");
	set_field(p, KIFU_KEY_ANNOTATOR, "Annotator");
	set_field(p, KIFU_KEY_SOURCE, "Source");
	t = tag(p, "Termination");
	if (t && strcmp(t->value, "?") &&
	    kifu_import_set_(rec, KIFU_KEY_TERMINATION, termination_word(t->value), (size_t)-1,
			     t->at, t->value_at))
		p->failed = 1;
	t = tag(p, "Result");
	if (t) {
		const char *r = kifu_import_pgn_result_word_(p->g, t->value);

		if (!r && p->g && (!strcmp(t->value, "1-0") || !strcmp(t->value, "0-1")))
			diag(p, KIFU_DIAG_ERROR, 0, t->value_at,
			     "result '%s' needs a game of two sides (%s has %d)", t->value, p->g->name,
			     p->g->nsides);
		else if (kifu_import_set_(rec, KIFU_KEY_RESULT, r ? r : t->value, (size_t)-1, t->at,
					  t->value_at))
			p->failed = 1;
	}
	for (i = 0; p->g && p->g->sides[i]; i++) {
		struct tagpair *pl = tag(p, p->g->sides[i]), *rt;
		long rating = 0;
		int has_rating = 0;

		snprintf(name, sizeof(name), "%sRating", p->g->sides[i]);
		rt = tag(p, name);
		if (rt && strcmp(rt->value, "?")) {
			char *end;

			rating = strtol(rt->value, &end, 10);
			if (!rt->value[0] || *end || rt->value[0] == ' ' || rt->value[0] == '+')
				diag(p, KIFU_DIAG_ERROR, 0, rt->value_at,
				     "tag '%s' must be an integer, not '%s'", rt->name,
				     kifu_text_clip_(buf, rt->value, SIZE_MAX));
			else
				has_rating = 1;
		}
		if (pl && strcmp(pl->value, "?")) {
			if (kifu_import_player_(rec, p->g->sides[i], pl->value, has_rating, rating,
						pl->at))
				p->failed = 1;
		} else if (has_rating) {
			diag(p, KIFU_DIAG_ERROR, 0, rt->at, "player '%s' has no name: tag '%s' without '%c%s'",
			     p->g->sides[i], rt->name, p->g->sides[i][0] - 'a' + 'A', p->g->sides[i] + 1);
		}
	}
	for (i = 0; i < p->ntags && i < MAX_TAGS; i++)
		if (!p->tags[i].used && kifu_import_tag_(rec, p->tags[i].name, p->tags[i].value,
							 KIFU_SCALAR_STR, p->tags[i].at))
			p->failed = 1;
	if (p->g && !strcmp(p->g->name, "glaisher")) {
		int vi = rec->variant ? kifu_game_variant_index(p->g, rec->variant) : 0;
		int fi = rec->first ? kifu_game_side_index(p->g, rec->first) : 0;
		struct kifu_error err;

		kifu_error_clear(&err);
		if (vi >= 0 && fi >= 0 && kifu_pos_new(&p->pos, p->g, vi, fi, &err) == 0 &&
		    keep_state(p, &p->before[0], p->pos->state) < 0)
			p->failed = 1;
		else if (vi >= 0 && fi >= 0 && !p->pos) {
			p->pos = NULL;
			if (err.code == KIFU_ENOMEM)
				p->failed = 1;
		}
	}
}

/* ---- Movetext ---- */

/* The line being read at level d: its turns and their count (the main line at 0). */
static struct kifu_line *line_at(struct pgn *p, int d, struct kifu_turn **parent)
{
	struct kifu_turn *turns = p->rec->turns, *t = NULL;
	struct kifu_line *l = NULL;
	int k;

	for (k = 1; k <= d; k++) {
		t = &turns[p->ti[k]];
		l = &t->lines[p->li[k]];
		turns = l->turns;
	}
	if (parent)
		*parent = t;
	return l;
}

static size_t turns_at(struct pgn *p, int d)
{
	return d ? line_at(p, d, NULL)->nturns : p->rec->nturns;
}

static int all_turns(struct pgn *p)
{
	return p->rec->nturns + p->rec->line_turns >= KIFU_RECORD_MAX_TURNS;
}

/* Hands the gathered comment and clock to the last turn. */
static void flush_note(struct pgn *p)
{
	if (p->last && p->has_note && !p->note.failed && p->last->comment && p->note.n) {
		/* a comment after the move's lines: the one comment goes on */
		struct kifu_import_text_ both = {0};

		kifu_import_text_add_(&both, p->last->comment, strlen(p->last->comment));
		kifu_import_text_addc_(&both, ' ');
		kifu_import_text_add_(&both, p->note.s, p->note.n);
		if (both.failed || kifu_import_turn_comment_(p->rec, p->last, both.s))
			p->failed = 1;
		kifu_import_text_release_(&both);
	} else if (p->last && p->has_note && !p->note.failed && !p->last->comment &&
		   kifu_import_turn_comment_(p->rec, p->last, p->note.s ? p->note.s : "")) {
		p->failed = 1;
	}
	if (p->last && p->clock[0] && kifu_import_turn_clock_(p->rec, p->last, p->clock))
		p->failed = 1;
	p->has_note = 0;
	p->clock[0] = '\0';
	kifu_import_text_reset_(&p->note);
}

static void add_note(struct pgn *p, const char *s, size_t n, struct kifu_mark at)
{
	/* before a line's first move: that move's comment */
	if (!p->last && !p->depth) {
		if (!p->warned_lost++)
			diag(p, KIFU_DIAG_WARNING, 0, at,
			     "a comment before the first move is not kept (records have none)");
		return;
	}
	if (p->has_note && n && p->note.n)
		kifu_import_text_addc_(&p->note, ' ');
	kifu_import_text_add_(&p->note, s, n);
	p->has_note = 1;
}

static void add_turn(struct pgn *p, const char *text, struct kifu_mark at)
{
	struct kifu_turn *t;
	int first_of_line = p->depth && !p->last;

	if (!first_of_line)
		flush_note(p);
	p->last = NULL;
	p->nag_open = 0;
	if (all_turns(p)) {
		if (!(p->rec->flags & KIFU_RECORD_TRUNCATED))
			diag(p, KIFU_DIAG_ERROR, (int)p->rec->nturns + 1, at,
			     p->rec->line_turns ? "the game has more than %d turns, its lines included"
						: "'moves' has more than %d turns",
			     KIFU_RECORD_MAX_TURNS);
		p->rec->flags |= KIFU_RECORD_TRUNCATED;
		if (!p->depth)
			p->rec->plies_written++;
		return;
	}
	if (p->depth) {
		t = kifu_record_line_add_turn(p->rec, line_at(p, p->depth, NULL), text, NULL, NULL);
		if (t)
			t->at = at;
	} else {
		t = kifu_import_turn_(p->rec, text, (size_t)-1, at);
	}
	if (!t)
		p->failed = 1;
	p->last = t;
	p->nag_open = t != NULL;
	if (first_of_line)
		flush_note(p);
}

/*
 * A NAG ($1-$6) or glyph: the first one standing after its move, before its
 * comment or lines, is the move's nag; any other goes at the front of the
 * comment, as it did before format 2.
 */
static void add_nag(struct pgn *p, const char *s, struct kifu_mark at)
{
	int k = 0;

	if (s[0] == '$') {
		if (s[1] >= '1' && s[1] <= '6' && !s[2])
			k = s[1] - '0';
	} else {
		k = kifu_nag_index(s);
	}
	if (k && p->last && p->nag_open && !p->last->nag) {
		if (kifu_record_turn_nag(p->rec, p->last, kifu_nags[k], NULL) < 0)
			p->failed = 1;
		p->last->nag_at = at;
		p->rec->format = 2;
		return;
	}
	add_note(p, s, strlen(s), at);
}

/* Glaisher: the number of queued tokens that make the next move. */
static int glaisher_run(struct pgn *p)
{
	char text[3 * (MAX_TOKEN + 1)];
	struct kifu_error err;
	kifu_move m;
	int k, i;

	for (k = p->nq; p->pos && !p->stopped[p->depth] && k >= 1; k--) {
		text[0] = '\0';
		for (i = 0; i < k; i++) {
			if (i)
				strcat(text, " ");
			strcat(text, p->q[i].text);
		}
		if (p->pos->game->parse_move(p->pos->state, text, &m, &err) == 0) {
			if (p->before[p->depth])
				memcpy(p->before[p->depth], p->pos->state, p->pos->game->state_size);
			p->pos->game->apply(p->pos->state, m);
			return k;
		}
	}
	/*
	 * No run is legal: the replay stops here (the validator reports the
	 * move) and moves are grouped by their shape from now on: a move
	 * starts with a token holding '>'.
	 */
	p->stopped[p->depth] = 1;
	for (k = 1; k < p->nq && !strchr(p->q[k].text, '>'); k++)
		;
	return k;
}

static void resolve_queue(struct pgn *p, int all)
{
	while (p->nq && (all || p->nq == 3)) {
		char text[3 * (MAX_TOKEN + 1)];
		int k = glaisher_run(p), i;

		text[0] = '\0';
		for (i = 0; i < k; i++) {
			if (i)
				strcat(text, " ");
			strcat(text, p->q[i].text);
		}
		add_turn(p, text, p->q[0].at);
		memmove(p->q, p->q + k, (size_t)(p->nq - k) * sizeof(p->q[0]));
		p->nq -= k;
	}
}

static int is_glyph(const char *s)
{
	return !strcmp(s, "!") || !strcmp(s, "?") || !strcmp(s, "!!") || !strcmp(s, "??") ||
	       !strcmp(s, "!?") || !strcmp(s, "?!");
}

static void move_token(struct pgn *p, char *s, struct kifu_mark at)
{
	size_t n = strlen(s);
	char glyph[3] = "";

	/* a suffix glyph glued to the move: "e5?!" */
	if (n > 1 && (s[n - 1] == '!' || s[n - 1] == '?')) {
		size_t k = n - 1;

		if (k > 1 && (s[k - 1] == '!' || s[k - 1] == '?'))
			k--;
		memcpy(glyph, s + k, n - k);
		glyph[n - k] = '\0';
		s[k] = '\0';
	}
	if (p->g && !strcmp(p->g->name, "glaisher")) {
		strcpy(p->q[p->nq].text, s);
		p->q[p->nq++].at = at;
		if (glyph[0] || p->nq == 3)
			resolve_queue(p, glyph[0] != 0);
	} else {
		add_turn(p, s, at);
	}
	if (glyph[0])
		add_nag(p, glyph, at);
}

/*
 * Takes lichess's clock command out of a comment: "[%clk 0:09:58]" gives
 * "598" (a fraction is kept as written). Returns 1 when one was found.
 */
static int take_clock(struct pgn *p, struct kifu_import_text_ *c)
{
	char *s = c->s ? strstr(c->s, "[%clk") : NULL, *e, *q;
	unsigned long long part[3], secs = 0;
	const char *frac = NULL;
	int np = 0, i;
	size_t flen = 0;

	if (!s || !(e = strchr(s, ']')))
		return 0;
	q = s + 5;
	while (*q == ' ')
		q++;
	for (;;) {
		int nd = 0;

		part[np] = 0;
		while (*q >= '0' && *q <= '9' && nd < 12)
			part[np] = part[np] * 10 + (unsigned long long)(*q++ - '0'), nd++;
		if (!nd)
			return 0;
		np++;
		if (*q != ':' || np == 3)
			break;
		q++;
	}
	if (*q == '.') {
		frac = ++q;
		while (*q >= '0' && *q <= '9' && flen < 9)
			q++, flen++;
		if (!flen)
			return 0;
	}
	while (*q == ' ')
		q++;
	if (q != e)
		return 0;
	for (i = 0; i < np; i++)
		secs = secs * 60 + part[i];
	if (flen)
		snprintf(p->clock, sizeof(p->clock), "%llu.%.*s", secs, (int)flen, frac);
	else
		snprintf(p->clock, sizeof(p->clock), "%llu", secs);
	/* the command and the white space before it go */
	e++;
	while (s > c->s && s[-1] == ' ')
		s--;
	memmove(s, e, strlen(e) + 1);
	c->n = strlen(c->s);
	return 1;
}

/* A `{...}` comment (the '{' is next); returns -1 when it is not closed. */
static int read_comment(struct pgn *p, struct kifu_import_text_ *into)
{
	struct kifu_mark at = kifu_import_at_(&p->in);
	int c, crlf = 0;

	kifu_import_getc_(&p->in);
	kifu_import_text_reset_(into);
	while ((c = kifu_import_getc_(&p->in)) != '}') {
		if (c < 0) {
			if (c == IMP_EOF)
				diag(p, KIFU_DIAG_ERROR, 0, at, "unterminated comment: no closing '}'");
			return -1;
		}
		/*
		 * A line break and the white space around it are one space (the
		 * writer wraps long comments only where a single space is).
		 */
		if (c == '\r' || c == '\n') {
			while (into->n && (into->s[into->n - 1] == ' ' || into->s[into->n - 1] == '\t'))
				into->n--;
			crlf = 1;
			continue;
		}
		if (crlf && (c == ' ' || c == '\t'))
			continue;
		if (crlf && into->n)
			kifu_import_text_addc_(into, ' ');
		crlf = 0;
		kifu_import_text_addc_(into, c);
	}
	return 0;
}

static void comment_text(struct pgn *p, struct kifu_import_text_ *c, struct kifu_mark at,
			 int braces)
{
	int had_clock = take_clock(p, c);

	kifu_import_text_trim_(c);
	if (c->over) {
		diag(p, KIFU_DIAG_ERROR, 0, at, "a comment is longer than %d bytes",
		     KIFU_RECORD_MAX_SCALAR);
		return;
	}
	/* "{}" is an empty comment; "{[%clk ...]}" a clock alone */
	if (c->n || (braces && !had_clock))
		add_note(p, c->s ? c->s : "", c->n, at);
	p->nag_open = 0;
}

/* Skips a variation (the '(' is next) nested too deep; returns -1 when it is not closed. */
static int skip_variation(struct pgn *p)
{
	struct kifu_mark at = kifu_import_at_(&p->in);
	long depth = 0;
	int c;

	diag(p, KIFU_DIAG_ERROR, 0, at, "variations nested deeper than %d levels",
	     KIFU_RECORD_MAX_LEVELS);
	do {
		c = kifu_import_getc_(&p->in);
		if (c < 0) {
			if (c == IMP_EOF)
				diag(p, KIFU_DIAG_ERROR, 0, at, "unterminated variation: no closing ')'");
			return -1;
		}
		if (c == '(')
			depth++;
		else if (c == ')')
			depth--;
		else if (c == '{') {
			while ((c = kifu_import_getc_(&p->in)) >= 0 && c != '}')
				;
		} else if (c == ';') {
			while ((c = kifu_import_peek_(&p->in)) >= 0 && c != '\n')
				kifu_import_getc_(&p->in);
		}
	} while (depth > 0);
	return 0;
}

/* Skips the rest of a variation whose '(' was read; returns -1 when it is not closed. */
static int skip_variation_quiet(struct pgn *p)
{
	long depth = 1;
	int c;

	while (depth > 0) {
		c = kifu_import_getc_(&p->in);
		if (c < 0)
			return c == IMP_EOF ? 0 : -1;
		if (c == '(')
			depth++;
		else if (c == ')')
			depth--;
		else if (c == '{')
			while ((c = kifu_import_getc_(&p->in)) >= 0 && c != '}')
				;
		else if (c == ';')
			while ((c = kifu_import_peek_(&p->in)) >= 0 && c != '\n')
				kifu_import_getc_(&p->in);
	}
	return 0;
}

/* Glaisher: keeps (or gives back) a copy of a position; 0, or -1 when out of memory. */
static int keep_state(struct pgn *p, void **slot, const void *state)
{
	size_t size = p->g->state_size;

	if (!*slot && !(*slot = malloc(size)))
		return -1;
	memcpy(*slot, state, size);
	return 0;
}

/*
 * '(' (next): a line of the last move of the line being read, which is
 * replayed (glaisher) from the position before that move; returns -1 when
 * the input ended inside a variation too deep.
 */
static int open_variation(struct pgn *p)
{
	struct kifu_mark at = kifu_import_at_(&p->in);
	struct kifu_turn *parent;
	struct kifu_line *v;
	size_t n = turns_at(p, p->depth);

	if (!p->last || n == 0) {
		kifu_import_getc_(&p->in);
		diag(p, KIFU_DIAG_ERROR, 0, at, "variation before the first move");
		/* read on as a line of nothing: its moves are not kept */
		return skip_variation_quiet(p);
	}
	if (p->depth >= KIFU_RECORD_MAX_LEVELS)
		return skip_variation(p);
	kifu_import_getc_(&p->in);
	flush_note(p);
	parent = p->depth ? &line_at(p, p->depth, NULL)->turns[n - 1] : &p->rec->turns[n - 1];
	/* (its room grows geometrically: 64,000 lines of one move cost O(n)) */
	v = kifu_record_turn_add_line(p->rec, parent, NULL);
	if (!v) {
		p->failed = 1;
		return -1;
	}
	v->at = at;
	if (parent->nlines == 1)
		parent->lines_at = at;
	p->rec->format = 2;
	p->depth++;
	p->open_at[p->depth] = at;
	p->ti[p->depth] = n - 1;
	p->li[p->depth] = parent->nlines - 1;
	p->last = NULL;
	p->nag_open = 0;
	p->stopped[p->depth] = p->stopped[p->depth - 1];
	if (p->pos && !p->stopped[p->depth]) {
		/* the line starts from the position before its parent move */
		if (keep_state(p, &p->saved[p->depth], p->pos->state) < 0 ||
		    keep_state(p, &p->before[p->depth], p->before[p->depth - 1]) < 0) {
			p->failed = 1;
			return -1;
		}
		memcpy(p->pos->state, p->before[p->depth - 1], p->g->state_size);
	}
	return 0;
}

/* ')' (next): the line ends; the move it belongs to is the last one again. */
static void close_variation(struct pgn *p)
{
	struct kifu_mark at = kifu_import_at_(&p->in);
	struct kifu_turn *parent;
	struct kifu_line *l;

	kifu_import_getc_(&p->in);
	if (!p->depth) {
		diag(p, KIFU_DIAG_ERROR, 0, at, "unexpected ')' in the movetext");
		return;
	}
	flush_note(p);
	l = line_at(p, p->depth, &parent);
	if (l->nturns == 0) {
		diag(p, KIFU_DIAG_ERROR, 0, at, "empty variation");
		parent->nlines--;
	}
	if (p->pos && !p->stopped[p->depth - 1])
		memcpy(p->pos->state, p->saved[p->depth], p->g->state_size);
	p->depth--;
	p->last = parent;
	p->nag_open = 0;
}

/* A result token ends the game: checks it against the Result tag. */
static void closing_token(struct pgn *p, const char *s, struct kifu_mark at)
{
	const char *r = kifu_import_pgn_result_word_(p->g, s);
	char buf[KIFU_TEXT_CLIP + 1];

	if (!r) {
		diag(p, KIFU_DIAG_ERROR, 0, at, "result '%s' needs a game of two sides", s);
		return;
	}
	if (p->rec->result) {
		if (strcmp(p->rec->result, r))
			diag(p, KIFU_DIAG_ERROR, 0, at,
			     "result token '%s' does not agree with tag 'Result' '%s'", s,
			     kifu_text_clip_(buf, p->rec->result, SIZE_MAX));
	} else if (strcmp(r, "unfinished") || strcmp(s, "*")) {
		if (kifu_import_set_(p->rec, KIFU_KEY_RESULT, r, (size_t)-1, at, at))
			p->failed = 1;
	}
}

/* Reads the movetext up to the result token; returns -1 when the input ended badly. */
static int read_movetext(struct pgn *p)
{
	struct kifu_import_text_ com = {0};
	struct kifu_mark start = kifu_import_at_(&p->in);
	int c, ret = 0;

	/* the movetext is the record's `moves`, empty or not */
	p->rec->present |= 1u << KIFU_KEY_MOVES;
	p->rec->key_at[KIFU_KEY_MOVES] = start;
	p->rec->value_at[KIFU_KEY_MOVES] = start;

	for (;;) {
		struct kifu_mark at;
		char *s;

		c = skip_blank(p, 1);
		at = kifu_import_at_(&p->in);
		if ((c < 0 || c == '[') && p->depth) {
			resolve_queue(p, 1);
			flush_note(p);
			if (c != IMP_BAD && c != IMP_ERR)
				diag(p, KIFU_DIAG_ERROR, 0, p->open_at[p->depth],
				     "unterminated variation: no closing ')'");
			ret = -1;
			break;
		}
		if (c < 0 || c == '[') {
			resolve_queue(p, 1);
			if (c != IMP_BAD && c != IMP_ERR)
				diag(p, KIFU_DIAG_WARNING, 0, at, "the movetext has no result token");
			break;
		}
		if (c == '{' || c == ';') {
			resolve_queue(p, 1);
			if (c == '{') {
				if (read_comment(p, &com) < 0) {
					ret = -1;
					break;
				}
			} else {
				kifu_import_getc_(&p->in);
				kifu_import_text_reset_(&com);
				while ((c = kifu_import_peek_(&p->in)) >= 0 && c != '\n' &&
				       c != '\r')
					kifu_import_text_addc_(&com, kifu_import_getc_(&p->in));
			}
			comment_text(p, &com, at, 1);
			continue;
		}
		if (c == '(') {
			resolve_queue(p, 1);
			if (open_variation(p) < 0) {
				ret = -1;
				break;
			}
			continue;
		}
		if (c == ')') {
			resolve_queue(p, 1);
			close_variation(p);
			continue;
		}
		if (c == '}' || c == '"' || c == ']') {
			kifu_import_getc_(&p->in);
			diag(p, KIFU_DIAG_ERROR, 0, at, "unexpected '%c' in the movetext", c);
			continue;
		}
		kifu_import_text_reset_(&p->tok);
		if (c == '$') {
			char buf[KIFU_TEXT_CLIP + 1];
			long value = 0;

			/* the whole digit run: $123456 is one NAG, not $12345 and a move '6' */
			kifu_import_text_addc_(&p->tok, kifu_import_getc_(&p->in));
			while ((c = kifu_import_peek_(&p->in)) >= '0' && c <= '9') {
				kifu_import_getc_(&p->in);
				if (p->tok.n < MAX_TOKEN)
					kifu_import_text_addc_(&p->tok, c);
				value = value > 255 ? value : value * 10 + (c - '0');
			}
			resolve_queue(p, 1);
			if (value > 255)
				diag(p, KIFU_DIAG_WARNING, 0, at,
				     "NAG '%s' is past PGN's $255: kept in the comment",
				     kifu_text_clip_(buf, p->tok.s, SIZE_MAX));
			add_nag(p, p->tok.s, at);
			continue;
		}
		while (!kifu_import_pgn_delim_(kifu_import_peek_(&p->in)) && p->tok.n < MAX_TOKEN)
			kifu_import_text_addc_(&p->tok, kifu_import_getc_(&p->in));
		if (!p->tok.n) /* cannot happen: every delimiter is handled above */
			kifu_import_getc_(&p->in);
		if (p->tok.failed) {
			p->failed = 1;
			break;
		}
		s = p->tok.s;
		if (kifu_import_pgn_result_token_(p->g, s)) {
			resolve_queue(p, 1);
			flush_note(p);
			if (p->depth) {
				diag(p, KIFU_DIAG_ERROR, 0, p->open_at[p->depth],
				     "unterminated variation: no closing ')' before '%s'", s);
				ret = -1;
				break;
			}
			closing_token(p, s, at);
			break;
		}
		/* move numbers: "12." and "12..." (also glued: "12.e5") */
		if (s[0] >= '0' && s[0] <= '9') {
			char *q = s;

			while (*q >= '0' && *q <= '9')
				q++;
			if (*q == '.') {
				while (*q == '.')
					q++;
				s = q;
			}
		}
		while (*s == '.')
			s++;
		if (!*s)
			continue;
		if (is_glyph(s)) {
			resolve_queue(p, 1);
			add_nag(p, s, at);
			continue;
		}
		move_token(p, s, at);
	}
	flush_note(p);
	kifu_import_text_release_(&com);
	return ret;
}

static void reset_game(struct pgn *p)
{
	int i;

	kifu_pos_free(p->pos);
	p->pos = NULL;
	p->g = NULL;
	p->ntags = 0;
	p->nq = 0;
	p->last = NULL;
	p->has_note = 0;
	p->nag_open = 0;
	p->depth = 0;
	memset(p->stopped, 0, sizeof(p->stopped));
	for (i = 0; i < KIFU_RECORD_MAX_LEVELS + 2; i++) {
		/* a position's size is the game's */
		free(p->before[i]);
		free(p->saved[i]);
		p->before[i] = p->saved[i] = NULL;
	}
	p->clock[0] = '\0';
	p->warned_lost = 0;
	kifu_import_text_reset_(&p->note);
}

static int pgn_open(void **state, const struct kifu_source *src, struct kifu_error *err)
{
	struct pgn *p = calloc(1, sizeof(*p));

	*state = NULL;
	if (!p)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", src->name);
	kifu_import_in_init_(&p->in, src);
	p->src = src;
	*state = p;
	return 0;
}

static void pgn_close(void *state)
{
	struct pgn *p = state;
	int i;

	if (!p)
		return;
	kifu_pos_free(p->pos);
	for (i = 0; i < KIFU_RECORD_MAX_LEVELS + 2; i++) {
		free(p->before[i]);
		free(p->saved[i]);
	}
	kifu_import_text_release_(&p->note);
	kifu_import_text_release_(&p->tok);
	kifu_import_text_release_(&p->val);
	free(p);
}

static int pgn_next(struct kifu_record **out, struct kifu_diags *diags, void *state,
		    struct kifu_error *err)
{
	struct pgn *p = state;
	struct kifu_record *rec = NULL;
	int c, ret = 0, broken = 0;

	*out = NULL;
	if (p->ended)
		return 0;
	c = skip_blank(p, 0);
	if (c == IMP_ERR) {
		p->ended = 1;
		*err = p->in.error;
		return p->in.code;
	}
	if (c == IMP_EOF) {
		p->ended = 1;
		return 0;
	}
	if (kifu_record_new(&rec, err) < 0)
		return KIFU_ENOMEM;
	rec->number = ++p->games;
	rec->at = kifu_import_at_(&p->in);
	p->rec = rec;
	p->diags = diags;
	reset_game(p);
	while (c == '[') {
		if (read_tag(p) < 0) {
			broken = 1;
			break;
		}
		c = skip_blank(p, 0);
	}
	if (!broken) {
		apply_tags(p);
		if (read_movetext(p) < 0)
			broken = 1;
	}
	if (p->in.problem) {
		kifu_import_bad_input_(diags, rec->number, &p->in);
		broken = 1;
	}
	if (broken) {
		rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
		p->ended = 1;
	}
	if (p->in.code && !p->in.problem) {
		p->ended = 1;
		*err = p->in.error;
		ret = p->in.code;
		kifu_record_free(rec);
		return ret;
	}
	if (p->failed || diags->failed) {
		kifu_record_free(rec);
		p->ended = 1;
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", p->src->name);
	}
	*out = rec;
	return 1;
}

/* `[` followed by a letter, a name, spaces and a quoted value. */
static int pgn_sniff(const char *head, size_t n)
{
	size_t i = 0;

	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && kifu_import_pgn_space_((unsigned char)head[i]))
		i++;
	if (i + 1 >= n || head[i] != '[' ||
	    !((head[i + 1] >= 'A' && head[i + 1] <= 'Z') || (head[i + 1] >= 'a' && head[i + 1] <= 'z')))
		return 0;
	for (i += 2; i < n && !kifu_import_pgn_delim_((unsigned char)head[i]); i++)
		;
	if (i >= n || head[i] != ' ')
		return 0;
	while (i < n && head[i] == ' ')
		i++;
	return i < n && head[i] == '"';
}

const struct kifu_format kifu_format_pgn_ = {
	.name = "pgn",
	.description = "PGN with each game's notation (comments, lines, NAGs)",
	.suffixes = (const char *const[]){ ".pgn", NULL },
	.sniff = pgn_sniff,
	.open = pgn_open,
	.next = pgn_next,
	.close = pgn_close,
	.write = kifu_pgn_write_,
	.flags = KIFU_FORMAT_STREAM,
};
