/*
 * The pgn writer (INTEROP.md "pgn", formats/pgn.md): every tag the record
 * has (and PGN's roster with "?" for what it lacks), then the movetext in
 * canonical notation with move numbers for two-sided games, comments and
 * lichess clocks, wrapped at 80 characters only where a space is, and the
 * result token. A comment holding '}' is written as a `;` comment; what
 * cannot be read back as written (a tag name with spaces, a move with PGN's
 * delimiters) is refused rather than written wrongly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_impl.h"

#define MAX_NAME PGN_MAX_NAME
#define MAX_TOKEN PGN_MAX_TOKEN
/* Movetext line length the writer keeps to. */
#define LINE_MAX_COLS 80

/* ---- Writing ---- */

struct line {
	struct kifu_buf *out;
	size_t col; /* characters on the current line */
};

static size_t chars(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			k++;
	return k;
}

/* Appends a unit that is never broken, after a space or a line break. */
static void word(struct line *l, const char *s, size_t n)
{
	size_t w = chars(s, n);

	if (l->col && l->col + 1 + w > LINE_MAX_COLS) {
		kifu_buf_putc(l->out, '\n');
		l->col = 0;
	} else if (l->col) {
		kifu_buf_putc(l->out, ' ');
		l->col++;
	}
	kifu_buf_add(l->out, s, n);
	l->col += w;
}

/*
 * Appends a `{}` comment, breaking lines only where the text has a space
 * with no white space beside it (the reader reads a line break in a
 * comment, with the white space around it, as one space).
 */
static void braced(struct line *l, const char *text)
{
	const char *s = text, *sp;
	int first = 1;
	size_t prev = 0;

	for (;;) {
		size_t n, w;

		sp = strchr(s, ' ');
		n = sp ? (size_t)(sp - s) : strlen(s);
		if (first) {
			word(l, s, n);
			first = 0;
		} else {
			w = chars(s, n);
			/*
			 * only a single space may become a line break: the reader
			 * takes the white space around a line break with it
			 */
			if (l->col + 1 + w > LINE_MAX_COLS && n && prev && s[0] != '\t' &&
			    s[-2] != '\t') {
				kifu_buf_putc(l->out, '\n');
				l->col = 0;
			} else {
				kifu_buf_putc(l->out, ' ');
				l->col++;
			}
			kifu_buf_add(l->out, s, n);
			l->col += w;
		}
		if (!sp)
			break;
		prev = n;
		s = sp + 1;
	}
}

/* "[%clk 0:09:57.5]" for a clock of 597.5 seconds (a decimal clock keeps its digits). */
static void clock_command(char *buf, size_t size, const struct kifu_turn *t)
{
	unsigned long long secs;
	char frac[16] = "";

	if (kifu_import_decimal_clock_(t->clock)) {
		const char *dot = strchr(t->clock, '.');

		secs = strtoull(t->clock, NULL, 10);
		if (dot)
			snprintf(frac, sizeof(frac), "%s", dot);
	} else {
		double f = t->clock_seconds;

		secs = (unsigned long long)f;
		if (f - (double)secs > 0) {
			snprintf(frac, sizeof(frac), "%.3f", f - (double)secs);
			memmove(frac, frac + 1, strlen(frac));
			while (frac[strlen(frac) - 1] == '0')
				frac[strlen(frac) - 1] = '\0';
		}
	}
	snprintf(buf, size, "[%%clk %llu:%02llu:%02llu%s]", secs / 3600, secs / 60 % 60, secs % 60,
		 frac);
}

static void put_comment(struct line *l, const struct kifu_turn *t)
{
	struct kifu_buf c = KIFU_BUF_INIT;
	char clk[96] = "";

	if (t->clock)
		clock_command(clk, sizeof(clk), t);
	if (t->comment && strchr(t->comment, '}')) {
		/* a `;` comment runs to the end of the line and may hold '}' */
		const char *s;

		kifu_buf_puts(&c, ";");
		for (s = t->comment; *s; s++)
			kifu_buf_putc(&c, *s == '\n' || *s == '\r' ? ' ' : *s);
		if (clk[0]) {
			kifu_buf_putc(&c, ' ');
			kifu_buf_puts(&c, clk);
		}
		word(l, c.data, c.len);
		kifu_buf_putc(l->out, '\n');
		l->col = 0;
	} else if (t->comment) {
		kifu_buf_printf(&c, "{%s%s%s}", t->comment, t->comment[0] && clk[0] ? " " : "", clk);
		if (!t->comment[0] && clk[0]) {
			/* an empty comment and a clock: "{}" then "{[%clk ...]}" */
			word(l, "{}", 2);
			kifu_buf_reset(&c);
			kifu_buf_printf(&c, "{%s}", clk);
		}
		braced(l, c.data);
	} else if (clk[0]) {
		kifu_buf_printf(&c, "{%s}", clk);
		word(l, c.data, c.len);
	}
	if (c.failed)
		l->out->failed = 1;
	kifu_buf_release(&c);
}

static void put_tag(struct kifu_buf *out, const char *name, const char *value)
{
	const char *s;

	kifu_buf_printf(out, "[%s \"", name);
	for (s = value; *s; s++) {
		if (*s == '"' || *s == '\\')
			kifu_buf_putc(out, '\\');
		kifu_buf_putc(out, *s);
	}
	kifu_buf_puts(out, "\"]\n");
}

static const char *const known_tags[] = { "Game", "Variant", "Event", "Site", "Date", "Round",
					  "First", "Result", "Termination", "Annotator", "Source",
					  NULL };

/* Whether a record tag key can be written as a tag name that reads back as a record tag. */
static int tag_name_ok(const struct kifu_game *g, const char *key)
{
	char name[64];
	int i;

	if (!key[0] || strlen(key) > MAX_NAME)
		return 0;
	for (i = 0; key[i]; i++)
		if (kifu_import_pgn_delim_((unsigned char)key[i]) || (unsigned char)key[i] < 0x20)
			return 0;
	for (i = 0; known_tags[i]; i++)
		if (kifu_import_strcaseeq_(key, known_tags[i]))
			return 0;
	for (i = 0; g->sides[i]; i++) {
		snprintf(name, sizeof(name), "%sRating", g->sides[i]);
		if (kifu_import_strcaseeq_(key, g->sides[i]) || kifu_import_strcaseeq_(key, name))
			return 0;
	}
	return 1;
}

/* Whether a move text reads back as the same move tokens. */
static int move_ok(const struct kifu_game *g, const char *s)
{
	const char *q;
	size_t n = strlen(s);

	if (!n || n > MAX_TOKEN || s[n - 1] == '!' || s[n - 1] == '?' ||
	    kifu_import_pgn_result_token_(g, s))
		return 0;
	for (q = s; *q; q++)
		if ((*q == ' ' &&
		     (q == s || q[1] == ' ' || !q[1] || strcmp(g->name, "glaisher"))) ||
		    (*q != ' ' && kifu_import_pgn_delim_((unsigned char)*q)))
			return 0;
	for (q = s; *q >= '0' && *q <= '9'; q++)
		;
	return !(q > s && *q == '.') && s[0] != '.';
}

/* The move as written: trimmed, runs of spaces as one. */
static const char *as_written(char *mv, const struct kifu_turn *t)
{
	const char *q = t->text ? t->text : "";
	size_t j = 0;

	while (*q == ' ' || *q == '\t')
		q++;
	for (; *q && j < MAX_TOKEN; q++)
		if (!((*q == ' ' || *q == '\t') && (j == 0 || mv[j - 1] == ' ')))
			mv[j++] = *q == '\t' ? ' ' : *q;
	while (j && mv[j - 1] == ' ')
		j--;
	mv[j] = '\0';
	return mv;
}

/* ')' glued to what stands before it, where the line has room. */
static void close_paren(struct line *l)
{
	if (l->col && l->col + 1 <= LINE_MAX_COLS) {
		kifu_buf_putc(l->out, ')');
		l->col++;
	} else {
		word(l, ")", 1);
	}
}

/*
 * The turns of a line (level > 0) or of the main line from ply on: each
 * move with its glyph glued (e5?!), its comment and clock, then each of
 * its lines in ( ); in two-sided games a line's first move is numbered,
 * and so is the move after a comment or a line (7... e5). The moves of
 * lines come from the replay's walk (*xi); an eval is not carried.
 */
static int put_moves(struct line *l, const struct kifu_game *g, const struct kifu_record *rec,
		     const struct kifu_turn *turns, size_t n, size_t ply,
		     const struct kifu_replay *rp, size_t *xi, int level, struct kifu_error *err)
{
	char name[80], buf[KIFU_TEXT_CLIP + 1], mv[MAX_TOKEN + 1], tok[MAX_TOKEN + 8];
	size_t i, j;
	int after_note = level > 0, ret;

	for (i = 0; i < n; i++, ply++) {
		const struct kifu_turn *t = &turns[i];
		const char *text = !rp ? NULL : level ? kifu_replay_xtext(rp, (*xi)++)
						      : kifu_replay_text(rp, ply);

		if (!text)
			text = as_written(mv, t);
		if (!move_ok(g, text))
			return kifu_error_set(
				err, KIFU_EINVALID,
				"game %d, ply %zu: move '%s' cannot be written in pgn", rec->number,
				ply, kifu_text_clip_(buf, text, SIZE_MAX));
		name[0] = '\0';
		if (g->nsides == 2 && (ply % 2 == 1 || after_note))
			snprintf(name, sizeof(name), "%zu.%s", (ply + 1) / 2, ply % 2 ? "" : "..");
		/* a line's "(" is glued to its first word: its number, else its move */
		if (name[0]) {
			snprintf(tok, sizeof(tok), "%s%s", level && i == 0 ? "(" : "", name);
			word(l, tok, strlen(tok));
		}
		snprintf(tok, sizeof(tok), "%s%s%s", level && i == 0 && !name[0] ? "(" : "", text,
			 t->nag ? t->nag : "");
		word(l, tok, strlen(tok));
		after_note = t->comment || t->clock || t->nlines;
		if (t->comment || t->clock)
			put_comment(l, t);
		if (t->eval)
			(*xi)++;
		for (j = 0; j < t->nlines; j++) {
			ret = put_moves(l, g, rec, t->lines[j].turns, t->lines[j].nturns, ply, rp, xi,
					level + 1, err);
			if (ret < 0)
				return ret;
		}
	}
	if (level)
		close_paren(l);
	return 0;
}

static int write_one(struct kifu_buf *out, const struct kifu_record *rec,
		     const struct kifu_replay *rp, struct kifu_error *err)
{
	const struct kifu_game *g = rec->game ? kifu_game_find(rec->game) : NULL;
	const char *result = kifu_record_result(rec), *term = kifu_record_termination(rec);
	struct line l = { out, 0 };
	char name[80], buf[KIFU_TEXT_CLIP + 1], date[16];
	size_t i;
	int s;

	if (!g)
		return kifu_error_set(err, KIFU_EINVALID, "game %d: unknown game '%s'", rec->number,
				      kifu_text_clip_(buf, rec->game ? rec->game : "", SIZE_MAX));
	put_tag(out, "Game", g->name);
	put_tag(out, "Variant", rec->variant ? rec->variant : g->variants[0]);
	put_tag(out, "Event", rec->event ? rec->event : "?");
	put_tag(out, "Site", rec->site ? rec->site : "?");
	if (rec->date && (strlen(rec->date) == 4 || strlen(rec->date) == 7 || strlen(rec->date) == 10)) {
		snprintf(date, sizeof(date), "%s", "????.??.??");
		memcpy(date, rec->date, strlen(rec->date));
		if (date[4] == '-')
			date[4] = '.';
		if (date[7] == '-')
			date[7] = '.';
		put_tag(out, "Date", date);
	} else {
		put_tag(out, "Date", rec->date ? rec->date : "????.??.??");
	}
	put_tag(out, "Round", rec->round ? rec->round : "?");
	for (s = 0; g->sides[s]; s++) {
		const struct kifu_record_player *pl = NULL;

		for (i = 0; i < rec->nplayers; i++)
			if (rec->players[i].side && !strcmp(rec->players[i].side, g->sides[s]))
				pl = &rec->players[i];
		snprintf(name, sizeof(name), "%c%s", g->sides[s][0] - 'a' + 'A', g->sides[s] + 1);
		put_tag(out, name, pl && pl->name ? pl->name : "?");
		if (pl && pl->has_rating) {
			char num[32];

			snprintf(name, sizeof(name), "%c%sRating", g->sides[s][0] - 'a' + 'A',
				 g->sides[s] + 1);
			snprintf(num, sizeof(num), "%ld", pl->rating);
			put_tag(out, name, num);
		}
	}
	if (rec->first)
		put_tag(out, "First", rec->first);
	put_tag(out, "Result", strcmp(result, "unfinished") ? result : "*");
	if (term)
		put_tag(out, "Termination", term);
	if (rec->annotator)
		put_tag(out, "Annotator", rec->annotator);
	if (rec->source)
		put_tag(out, "Source", rec->source);
	for (i = 0; i < rec->ntags; i++) {
		if (!tag_name_ok(g, rec->tags[i].key))
			return kifu_error_set(
				err, KIFU_EINVALID, "game %d: tag '%s' cannot be a pgn tag name",
				rec->number, kifu_text_clip_(buf, rec->tags[i].key, SIZE_MAX));
		put_tag(out, rec->tags[i].key, rec->tags[i].value);
	}
	kifu_buf_putc(out, '\n');
	{
		size_t xi = 0;
		int ret = put_moves(&l, g, rec, rec->turns, rec->nturns, 1, rp, &xi, 0, err);

		if (ret < 0)
			return ret;
	}
	word(&l, strcmp(result, "unfinished") ? result : "*", strlen(strcmp(result, "unfinished")
								  ? result : "*"));
	kifu_buf_puts(out, "\n\n");
	return 0;
}

int kifu_pgn_write_(struct kifu_buf *out, const struct kifu_record *const *recs,
		     const struct kifu_replay *const *rps, size_t n, struct kifu_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = write_one(out, recs[i], rps ? rps[i] : NULL, err);
		if (ret < 0)
			return ret;
	}
	if (out->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "writing pgn: out of memory");
	return 0;
}


