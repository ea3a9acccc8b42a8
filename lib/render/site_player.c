/*
 * kifu-serve's /player/NAME page (lichess's player page, SCID's player
 * report): the player's row of the players report over all games, their
 * rating per game and variant (players --by-variant), their score as each
 * side of each game and variant in the registry's order, their most played
 * lines as each side, and their games; with a game (and variant) those of
 * it alone. NAME comes as stored: the server matched what was typed
 * (kifu_stats_find_player) and redirected other spellings.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/site_impl.h"

/* ---- /player/NAME ---- */

/* A player's games as one side of one game and variant. */
struct as_side {
	const char *game, *variant, *side;
	long games, wins, draws, losses, unfinished;
	int nsides;
	int order[3]; /* the registry's game and variant, the game's side: the table's order */
};

/* In the registry's order of games, their variants, then the game's order of sides. */
static int cmp_sides(const void *x, const void *y)
{
	const struct as_side *a = x, *b = y;
	int k;

	for (k = 0; k < 3; k++)
		if (a->order[k] != b->order[k])
			return a->order[k] < b->order[k] ? -1 : 1;
	return 0;
}

static void tally(struct as_side *v, size_t *n, size_t max, const struct kifu_search_hit *h,
		  const char *side)
{
	const struct kifu_game *g = kifu_game_find(h->game);
	size_t i;
	int k;

	for (i = 0; i < *n; i++)
		if (!strcmp(v[i].game, h->game) && !strcmp(v[i].variant, h->variant) &&
		    !strcmp(v[i].side, side))
			break;
	if (i == *n) {
		if (*n == max)
			return;
		memset(&v[i], 0, sizeof(v[i]));
		v[i].game = h->game;
		v[i].variant = h->variant;
		v[i].side = side;
		v[i].nsides = g ? g->nsides : 2;
		for (k = 0; g && kifu_games[k] && kifu_games[k] != g; k++)
			;
		/* a game the registry does not know goes last */
		v[i].order[0] = g ? k : INT_MAX;
		v[i].order[1] = g ? kifu_game_variant_index(g, h->variant) : 0;
		v[i].order[2] = g ? kifu_game_side_index(g, side) : 0;
		(*n)++;
	}
	v[i].games++;
	if (!strcmp(h->result, "unfinished"))
		v[i].unfinished++;
	else if (!strcmp(h->result, "draw"))
		v[i].draws++;
	else if (!strcmp(h->result, side))
		v[i].wins++;
	else
		v[i].losses++;
}

static void player_record(struct kifu_buf *b, const struct kifu_report *pl, const char *name)
{
	static const char *const cols[] = { "games", "wins", "draws", "losses", "unfinished",
					    "score", "rating", "analysed_moves", "mean_loss",
					    "mistakes", "accuracy" };
	static const char *const words[] = { "games", "wins", "draws", "losses", "unfinished",
					     "score", "rating", "moves reviewed", "mean loss",
					     "mistakes", "accuracy" };
	size_t r, k;

	for (r = 0; r < kifu_report_nrows(pl); r++)
		if (!strcmp(kifu_site_cell_text_(pl, r, "player"), name))
			break;
	if (r == kifu_report_nrows(pl)) {
		kifu_buf_puts(b, "<p class=\"note\">Not in the players report (it counts the games "
			      "whose every side names a player).</p>\n");
		return;
	}
	kifu_buf_puts(b, "<table id=\"record\">\n<tr>");
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if (kifu_report_find_col(pl, cols[k]) >= 0)
			kifu_buf_printf(b, "<th>%s</th>", words[k]);
	kifu_buf_puts(b, "</tr>\n<tr>");
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if (kifu_report_find_col(pl, cols[k]) >= 0) {
			const char *one[] = { cols[k], NULL };

			kifu_site_cells_(b, pl, r, one);
		}
	kifu_buf_puts(b, "</tr>\n</table>\n");
}

/* v's game, variant and side (escaped) after each of the texts a, b, c, then d. */
static void game_side(struct kifu_buf *b, const struct as_side *v, const char *a, const char *bb,
		      const char *c, const char *d)
{
	kifu_buf_puts(b, a);
	kifu_site_text_(b, v->game);
	kifu_buf_puts(b, bb);
	kifu_site_text_(b, v->variant);
	kifu_buf_puts(b, c);
	kifu_site_text_(b, v->side);
	kifu_buf_puts(b, d);
}

/*
 * The player's most played lines as one side of one game and variant (v):
 * the openings report of the player's newest KIFU_SITE_LINE_GAMES games
 * on that side, with games and the player's score, each line a link to
 * the explorer's view of the player as that side (player and as).
 */
static int player_lines(struct kifu_buf *b, struct kifu_store *st, const char *name,
			const struct as_side *v, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_filter f, link;
	struct kifu_buf after = KIFU_BUF_INIT;
	char wins[80];
	size_t r, shown = 0;
	int ret;

	memset(&f, 0, sizeof(f));
	f.game = v->game;
	f.variant = v->variant;
	f.player = name;
	f.player_side = v->side;
	memset(&link, 0, sizeof(link));
	link.player = name;
	link.player_side = v->side;
	opt.depth = KIFU_SITE_LINE_PLIES;
	opt.newest = KIFU_SITE_LINE_GAMES;
	ret = kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, err);
	if (ret < 0)
		return ret;
	snprintf(wins, sizeof(wins), "wins_%s", v->side);
	game_side(b, v, "<h3>", " ", " as ", "</h3>\n");
	if (v->games > KIFU_SITE_LINE_GAMES)
		kifu_buf_printf(b, "<p class=\"note\">From the newest %d of these %ld games.</p>\n",
				KIFU_SITE_LINE_GAMES, v->games);
	game_side(b, v, "<table class=\"lines\" data-game=\"", "\" data-variant=\"",
		  "\" data-side=\"", "\">");
	kifu_buf_printf(b, "\n<tr><th class=\"text\">line (%d plies)</th><th>games</th>"
			"<th class=\"text\">win / draw / loss</th><th>score</th></tr>\n",
			KIFU_SITE_LINE_PLIES);
	/* The rows come most played first within each length. */
	for (r = 0; r < kifu_report_nrows(rep) && shown < KIFU_SITE_LINES; r++) {
		const char *line = kifu_site_cell_text_(rep, r, "line");
		long long n = kifu_site_cell_int_(rep, r, "games");
		long long w = kifu_site_cell_int_(rep, r, wins);
		long long d = kifu_site_cell_int_(rep, r, "draws");
		long long u = kifu_site_cell_int_(rep, r, "unfinished");
		long c = kifu_report_find_col(rep, "moves");
		const struct kifu_cell *moves = kifu_report_cell(rep, r, c < 0 ? (size_t)-1 : (size_t)c);
		const char *m = moves->text;
		size_t i;

		if (kifu_site_cell_int_(rep, r, "plies") != KIFU_SITE_LINE_PLIES ||
		    moves->type != KIFU_CELL_LIST)
			continue;
		/* the moves one by one: a move's text may hold spaces (glaisher's) */
		kifu_buf_reset(&after);
		for (i = 0; i < moves->count; i++, m += strlen(m) + 1) {
			if (i)
				kifu_buf_putc(&after, ',');
			kifu_buf_puts(&after, m);
		}
		kifu_buf_puts(b, "<tr><td class=\"text move\"><a href=\"");
		kifu_site_explore_link_(b, v->game, v->variant, after.data, 0, &link);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, line);
		kifu_buf_printf(b, "</a></td><td>%lld</td><td class=\"bar\">", n);
		kifu_site_bar_(b, w, d, n - w - d - u, u);
		if (n - u > 0)
			kifu_buf_printf(b, "</td><td>%.3f</td></tr>\n",
					((double)w + (double)d / v->nsides) / (double)(n - u));
		else
			kifu_buf_puts(b, "</td><td>-</td></tr>\n");
		shown++;
	}
	kifu_buf_puts(b, "</table>\n");
	kifu_buf_release(&after);
	kifu_report_free(rep);
	return b->failed || after.failed ? KIFU_ENOMEM : 0;
}

/* name's page with game and variant (NULL: every one), for a link (escaped for an attribute). */
static void player_link(struct kifu_buf *b, const char *name, const char *game, const char *variant)
{
	kifu_buf_puts(b, "/player/");
	kifu_site_url_part_(b, name);
	if (game) {
		kifu_buf_puts(b, "?game=");
		kifu_site_url_part_(b, game);
	}
	if (game && variant) {
		kifu_buf_puts(b, "&amp;variant=");
		kifu_site_url_part_(b, variant);
	}
}

/*
 * The player's rating in each game and variant (kifu-stats players
 * --by-variant: each rated over that game and variant's games alone), in
 * the registry's order, each row a link to the page of that variant.
 */
static void player_ratings(struct kifu_buf *b, const struct kifu_report *byv, const char *name)
{
	static const char *const cols[] = { "games", "wins", "draws", "losses", "score", "rating",
					    NULL };
	size_t r, shown = 0;

	kifu_buf_puts(b, "<h2>Rating per game and variant</h2>\n<table id=\"ratings\">\n<tr>"
		      "<th class=\"text\">game</th><th class=\"text\">variant</th><th>games</th>"
		      "<th>wins</th><th>draws</th><th>losses</th><th>score</th><th>rating</th>"
		      "</tr>\n");
	for (r = 0; r < kifu_report_nrows(byv); r++) {
		const char *g = kifu_site_cell_text_(byv, r, "game");
		const char *v = kifu_site_cell_text_(byv, r, "variant");

		if (strcmp(kifu_site_cell_text_(byv, r, "player"), name))
			continue;
		kifu_buf_puts(b, "<tr><td class=\"text\"><a href=\"");
		player_link(b, name, g, v);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, g);
		kifu_buf_puts(b, "</a></td><td class=\"text\">");
		kifu_site_text_(b, v);
		kifu_buf_puts(b, "</td>");
		kifu_site_cells_(b, byv, r, cols);
		kifu_buf_puts(b, "</tr>\n");
		shown++;
	}
	kifu_buf_puts(b, "</table>\n");
	if (!shown)
		kifu_buf_puts(b, "<p class=\"note\">No rated game here (a rating counts the games "
			      "whose every side names a player).</p>\n");
	kifu_buf_puts(b, "<p class=\"note\">Each rating is fitted over that game and variant's "
		      "games alone, as lichess keeps one per variant; the rating above is over "
		      "every game together.</p>\n");
}

int kifu_site_player(struct kifu_buf *b, struct kifu_store *st,
		     const struct kifu_site_player_query *q, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT, vopt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_search_result *res = NULL, *shown = NULL;
	struct kifu_report *pl = NULL, *byv = NULL;
	struct as_side sides[64];
	struct kifu_buf base = KIFU_BUF_INIT;
	struct kifu_filter f, none, view;
	const char *name = q->name;
	long page = q->page;
	size_t i, k, n = 0;
	int ret = 0;

	memset(&f, 0, sizeof(f));
	memset(&none, 0, sizeof(none));
	f.player = name;
	if (q->game) {
		const struct kifu_game *g = kifu_game_find(q->game);

		if (!g)
			return kifu_stats_unknown_game(err, q->game), err->code = KIFU_ENOTFOUND;
		if (q->variant && kifu_game_variant_index(g, q->variant) < 0)
			return kifu_stats_unknown_variant(err, q->variant, g),
			       err->code = KIFU_ENOTFOUND;
		f.game = g->name;
		f.variant = q->variant;
		/* the ratings of that game (and variant) alone */
		none.game = f.game;
		none.variant = f.variant;
	}
	ret = kifu_search_games(&res, st, &f, NULL, err);
	if (ret == 0 && kifu_search_count(res) == 0)
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no games of a player called '%s'%s%s%s%s",
				     name, f.game ? " in " : "", f.game ? f.game : "",
				     f.variant ? " " : "", f.variant ? f.variant : "");
	if (ret == 0) {
		struct kifu_filter all;

		memset(&all, 0, sizeof(all));
		ret = kifu_stats_report(&pl, st, KIFU_STATS_PLAYERS, &all, &opt, err);
	}
	if (ret == 0) {
		vopt.by_variant = 1;
		ret = kifu_stats_report(&byv, st, KIFU_STATS_PLAYERS, &none, &vopt, err);
	}
	if (ret == 0)
		ret = kifu_search_games_page(&shown, st, &f, NULL, 0, NULL, 0,
					     (size_t)page * KIFU_SITE_PAGE_GAMES,
					     KIFU_SITE_PAGE_GAMES + 1, err);
	if (ret == 0 && page > 0 && kifu_search_count(shown) == 0)
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "%s has %zu games: there is no page %ld of "
				     "them", name, kifu_search_count(res), page + 1);
	if (ret < 0)
		goto out;
	for (i = 0; i < kifu_search_count(res); i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		for (k = 0; k < h->nplayers; k++)
			if (!strcmp(h->players[k].name, name))
				tally(sides, &n, sizeof(sides) / sizeof(sides[0]), h,
				      h->players[k].side);
	}
	qsort(sides, n, sizeof(sides[0]), cmp_sides);
	kifu_site_page_head_(b, st, name);
	kifu_buf_puts(b, "<h1 id=\"player\">");
	kifu_site_text_(b, name);
	if (f.game) {
		kifu_buf_puts(b, " <span class=\"note\" id=\"only\">");
		kifu_site_text_(b, f.game);
		if (f.variant) {
			kifu_buf_puts(b, " ");
			kifu_site_text_(b, f.variant);
		}
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</h1>\n");
	if (f.game) {
		kifu_buf_puts(b, "<p class=\"note\">Only these games shown: <a id=\"every-game\" "
			      "href=\"");
		player_link(b, name, NULL, NULL);
		kifu_buf_puts(b, "\">every game</a></p>\n");
	}
	kifu_buf_puts(b, "<h2>Over all games</h2>\n");
	player_record(b, pl, name);
	player_ratings(b, byv, name);
	kifu_buf_puts(b, "<h2>As each side</h2>\n<table id=\"sides\">\n<tr><th class=\"text\">game"
		      "</th><th class=\"text\">side</th><th>games</th><th class=\"text\">win / draw "
		      "/ loss</th><th>score</th></tr>\n");
	for (i = 0; i < n; i++) {
		long fin = sides[i].games - sides[i].unfinished;

		kifu_buf_puts(b, "<tr><td class=\"text\">");
		kifu_site_text_(b, sides[i].game);
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, sides[i].variant);
		kifu_buf_puts(b, "</td><td class=\"text\"><a class=\"view\" href=\"");
		memset(&view, 0, sizeof(view));
		view.player = name;
		view.player_side = sides[i].side;
		kifu_site_explore_link_(b, sides[i].game, sides[i].variant, "", 0, &view);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, sides[i].side);
		kifu_buf_puts(b, "</a></td><td>");
		kifu_site_count_(b, sides[i].games);
		kifu_buf_puts(b, "</td><td class=\"bar\">");
		kifu_site_bar_(b, sides[i].wins, sides[i].draws, sides[i].losses, sides[i].unfinished);
		if (fin > 0)
			kifu_buf_printf(b, "</td><td>%.3f</td></tr>\n",
					((double)sides[i].wins +
					 (double)sides[i].draws / sides[i].nsides) / (double)fin);
		else
			kifu_buf_puts(b, "</td><td>-</td></tr>\n");
	}
	kifu_buf_puts(b, "</table>\n<h2>Most played lines as each side</h2>\n");
	for (i = 0; ret == 0 && i < n; i++)
		ret = player_lines(b, st, name, &sides[i], err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(b, "<h2>Games</h2>\n<p class=\"note\">");
	kifu_site_count_(b, (long long)kifu_search_count(res));
	kifu_buf_puts(b, ", newest first</p>\n");
	kifu_site_games_(b, shown, 0, KIFU_SITE_PAGE_GAMES, 0, name, NULL, NULL);
	kifu_buf_reset(&base);
	kifu_buf_puts(&base, "/api/search?player=");
	kifu_site_url_part_(&base, name);
	if (f.game) {
		kifu_buf_puts(&base, "&game=");
		kifu_site_url_part_(&base, f.game);
	}
	if (f.variant) {
		kifu_buf_puts(&base, "&variant=");
		kifu_site_url_part_(&base, f.variant);
	}
	kifu_site_data_links_(b, "data-games", "These games", &base, 1);
	kifu_buf_reset(&base);
	kifu_buf_puts(&base, "/api/stats/players?by_variant=1");
	if (f.game) {
		kifu_buf_puts(&base, "&game=");
		kifu_site_url_part_(&base, f.game);
	}
	if (f.variant) {
		kifu_buf_puts(&base, "&variant=");
		kifu_site_url_part_(&base, f.variant);
	}
	kifu_site_data_links_(b, "data-ratings", "Every player's rating per game and variant",
			      &base, 1);
	kifu_buf_reset(&base);
	player_link(&base, name, f.game, f.variant);
	if (!f.game)
		kifu_buf_puts(&base, "?");
	kifu_site_pager_(b, &base, page, kifu_search_count(shown) > KIFU_SITE_PAGE_GAMES);
	ret = kifu_site_foot_(b);
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_search_result_free(shown);
	kifu_report_free(pl);
	kifu_report_free(byv);
	return ret;
}

