/*
 * The pages' filter forms (render/site_impl.h): one builder for the
 * fields every page's form shares (game, variant, player, side, event,
 * dates, level), so that they say what they hold the same way everywhere:
 * a field is empty or holds its value (no example that looks like one),
 * a hint in words beside it, a select where the choices are fixed (game,
 * variant, side, level). And the check of a request's values field by
 * field, so that a bad one is answered on the same page, the form kept,
 * the field marked (aria-invalid and a visible mark) and why in words
 * beside it, rather than the tools' "--since: ..." alone.
 */
#include <stdio.h>
#include <string.h>

#include "kifu/date.h"
#include "kifu/game.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "render/html.h"
#include "render/site_impl.h"

/* The levels a select offers besides the one the address holds (kifu-play's SPECs, CLI.md). */
static const char *const levels[] = { "players", "random", "engine", NULL };

static const char *bad_why(const struct kifu_site_form_bad *bad, const char *name)
{
	int k;

	for (k = 0; bad && k < bad->n; k++)
		if (!strcmp(bad->field[k], name))
			return bad->why[k];
	return NULL;
}

/* Marks field name bad: the returned buffer (WHY_MAX) is for why. */
static char *mark(struct kifu_site_form_bad *bad, const char *name)
{
	static char spare[KIFU_SITE_FORM_WHY];

	if (bad->n >= KIFU_SITE_FORM_FIELDS)
		return spare;
	bad->field[bad->n] = name;
	return bad->why[bad->n++];
}

#define WHY KIFU_SITE_FORM_WHY

int kifu_site_form_check_(struct kifu_site_form_bad *bad, const struct kifu_filter *f)
{
	const struct kifu_game *g = f->game ? kifu_game_find(f->game) : NULL;
	struct kifu_filter one;
	struct kifu_error err;
	char day[11];
	int k;

	memset(bad, 0, sizeof(*bad));
	if (f->game && !g)
		snprintf(mark(bad, "game"), WHY, "'%s' is not a game kifu knows: choose one from the "
			 "list", f->game);
	if (f->variant && (g || !f->game)) {
		memset(&one, 0, sizeof(one));
		one.game = f->game;
		one.variant = f->variant;
		kifu_error_clear(&err);
		if (kifu_stats_check_filter(&one, &err) < 0)
			snprintf(mark(bad, "variant"), WHY, "'%s' is not a variant of %s: choose one from "
				 "the list", f->variant, g ? g->name : "any game");
	}
	if (f->player_side && !f->player)
		snprintf(mark(bad, "as"), WHY, "'%s' is a side of a player's games: give the player too",
			 f->player_side);
	else if (f->player_side && (g || !f->game)) {
		memset(&one, 0, sizeof(one));
		one.game = f->game;
		one.player = f->player;
		one.player_side = f->player_side;
		kifu_error_clear(&err);
		if (kifu_stats_check_filter(&one, &err) < 0)
			/* the library's "--as: 'x' is not a side of G (SIDES)", without its option */
			snprintf(mark(bad, "as"), WHY, "%s", strncmp(err.message, "--as: ", 6)
							     ? err.message : err.message + 6);
	}
	for (k = 0; k < 2; k++) {
		const char *date = k ? f->until : f->since;

		kifu_error_clear(&err);
		if (date && kifu_date_first_day(day, date, &err) < 0)
			snprintf(mark(bad, k ? "until" : "since"), WHY,
				 "%s is not a date: use YYYY, YYYY-MM or YYYY-MM-DD", date);
	}
	if (f->level && !kifu_store_level_valid(f->level))
		snprintf(mark(bad, "level"), WHY, "'%s' is not a level: random, mcts:N, engine, "
			 "engine:N or players", f->level);
	if (f->termination) {
		memset(&one, 0, sizeof(one));
		one.termination = f->termination;
		kifu_error_clear(&err);
		if (kifu_stats_check_filter(&one, &err) < 0)
			snprintf(mark(bad, "termination"), WHY, "%s", err.message);
	}
	return bad->n ? KIFU_EPARSE : 0;
}

/* A field's opening: its label, and the marks of a bad value (the input or select follows). */
static void open_field(struct kifu_buf *b, const struct kifu_site_form *fm, const char *name,
		       const char *label, const char *hint, const char *tag, const char *value)
{
	const char *why = bad_why(fm->bad, name);

	/* a bad field's message says what its hint says */
	hint = why ? NULL : hint;
	kifu_buf_printf(b, "<span class=\"field%s\"><label for=\"%c-%s\">%s</label> <%s name=\"%s\" "
			"id=\"%c-%s\"", why ? " bad" : "", fm->id, name, label, tag, name, fm->id,
			name);
	if (value) {
		kifu_buf_puts(b, " value=\"");
		kifu_render_html_value_(b, value);
		kifu_buf_putc(b, '"');
	}
	if (hint || why) {
		kifu_buf_puts(b, " aria-describedby=\"");
		if (hint)
			kifu_buf_printf(b, "%c-%s-hint", fm->id, name);
		if (why)
			kifu_buf_printf(b, "%s%c-%s-error", hint ? " " : "", fm->id, name);
		kifu_buf_putc(b, '"');
	}
	if (why)
		kifu_buf_puts(b, " aria-invalid=\"true\"");
}

/* A field's closing: its hint and, when bad, why in words. */
static void close_field(struct kifu_buf *b, const struct kifu_site_form *fm, const char *name,
			const char *hint)
{
	const char *why = bad_why(fm->bad, name);

	if (hint && !why)
		kifu_buf_printf(b, " <span class=\"hint\" id=\"%c-%s-hint\">%s</span>", fm->id, name,
				hint);
	if (why) {
		kifu_buf_printf(b, " <span class=\"field-error\" id=\"%c-%s-error\">", fm->id, name);
		kifu_render_html_text_(b, why);
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</span>");
}

static void text_field(struct kifu_buf *b, const struct kifu_site_form *fm, const char *name,
		       const char *value, const char *hint)
{
	open_field(b, fm, name, name, hint, "input", value ? value : "");
	kifu_buf_puts(b, ">");
	close_field(b, fm, name, hint);
}

static void option(struct kifu_buf *b, const char *value, const char *selected)
{
	kifu_buf_puts(b, "<option value=\"");
	kifu_render_html_value_(b, value);
	kifu_buf_printf(b, "\"%s>", selected && !strcmp(value, selected) ? " selected" : "");
	kifu_render_html_text_(b, value);
	kifu_buf_puts(b, "</option>");
}

/* Whether value is among the n-th first choices of a NULL-terminated list (or list is all of them). */
static int listed(const char *const *list, int n, const char *value)
{
	int k;

	for (k = 0; list[k] && (n < 0 || k < n); k++)
		if (!strcmp(list[k], value))
			return 1;
	return 0;
}

/*
 * A select of name: "any NAME" (the empty value), the choices of every
 * game in scope (each once, in the games' order), and the value held when
 * it is none of them (a bad one is shown as it was asked, and marked).
 */
static void choice_field(struct kifu_buf *b, const struct kifu_site_form *fm, const char *name,
			 const char *value, const struct kifu_game *only)
{
	int k, i, seen = 0;

	open_field(b, fm, name, name, NULL, "select", NULL);
	kifu_buf_printf(b, "><option value=\"\">any %s</option>", !strcmp(name, "as") ? "side"
								      : name);
	if (!strcmp(name, "level")) {
		for (i = 0; levels[i]; i++)
			option(b, levels[i], value);
		seen = value && listed(levels, -1, value);
	}
	for (k = 0; strcmp(name, "level") && kifu_games[k]; k++) {
		const struct kifu_game *g = kifu_games[k];
		const char *const *list = !strcmp(name, "game") ? NULL
					  : !strcmp(name, "variant") ? g->variants : g->sides;

		if (!list) {
			option(b, g->name, value);
			seen |= value && !strcmp(value, g->name);
			continue;
		}
		if (only && g != only)
			continue;
		for (i = 0; list[i]; i++) {
			int before = 0, j;

			/* once: not a choice of an earlier game in scope */
			for (j = 0; !only && j < k && !before; j++)
				before = listed(!strcmp(name, "variant") ? kifu_games[j]->variants
									 : kifu_games[j]->sides,
						-1, list[i]);
			if (before)
				continue;
			option(b, list[i], value);
			seen |= value && !strcmp(value, list[i]);
		}
	}
	if (value && *value && !seen)
		option(b, value, value);
	kifu_buf_puts(b, "</select>");
	close_field(b, fm, name, NULL);
}

void kifu_site_filter_fields_(struct kifu_buf *b, const struct kifu_site_form *fm)
{
	const struct kifu_filter *f = fm->filter;
	const struct kifu_game *g = fm->game ? fm->game : f->game ? kifu_game_find(f->game) : NULL;

	if (fm->fields & FORM_SCOPE) {
		choice_field(b, fm, "game", f->game, NULL);
		choice_field(b, fm, "variant", f->variant, g);
	}
	text_field(b, fm, "player", f->player, "a name as the records spell it");
	if (fm->fields & FORM_AS)
		choice_field(b, fm, "as", f->player_side, g);
	if (fm->fields & FORM_EVENT)
		text_field(b, fm, "event", f->event, "an event's name");
	text_field(b, fm, "since", f->since, "YYYY, YYYY-MM or YYYY-MM-DD");
	text_field(b, fm, "until", f->until, "YYYY, YYYY-MM or YYYY-MM-DD");
	choice_field(b, fm, "level", f->level, NULL);
}

void kifu_site_form_error_(struct kifu_buf *b, const struct kifu_site_form *fm)
{
	const struct kifu_site_form_bad *bad = fm->bad;
	int k;

	if (!bad || !bad->n)
		return;
	/*
	 * The fields named, each a link to it (why is beside the field); a
	 * value of the address that no field shows (termination) with why.
	 */
	kifu_buf_puts(b, "<p id=\"form-error\" class=\"error\" role=\"alert\">");
	kifu_buf_puts(b, bad->n == 1 ? "Nothing is shown until this filter is right: "
				     : "Nothing is shown until these filters are right: ");
	for (k = 0; k < bad->n; k++) {
		kifu_buf_puts(b, k ? ", " : "");
		if (!strcmp(bad->field[k], "termination")) {
			kifu_buf_puts(b, "termination (");
			kifu_render_html_text_(b, bad->why[k]);
			kifu_buf_puts(b, ")");
			continue;
		}
		kifu_buf_printf(b, "<a href=\"#%c-%s\" data-field=\"%s\">%s</a>", fm->id,
				bad->field[k], bad->field[k], bad->field[k]);
	}
	kifu_buf_puts(b, ".</p>\n");
}

void kifu_site_filter_hidden_(struct kifu_buf *b, const struct kifu_filter *f)
{
	const char *name;
	int k;

	for (k = 0; f && k < KIFU_SITE_FILTER_PARAMS; k++) {
		const char *v = kifu_site_filter_param_(f, k, &name);

		if (v && *v) {
			kifu_buf_printf(b, "<input type=\"hidden\" name=\"%s\" value=\"", name);
			kifu_render_html_value_(b, v);
			kifu_buf_puts(b, "\">");
		}
	}
}
