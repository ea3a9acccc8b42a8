/*
 * kifu-serve's /players page (SCID's player finder, lichess's leaderboards):
 * every player the players report counts, found by any part of the name
 * without regard to case (kifu-stats players --name-part), sorted by rating
 * or by games, KIFU_SITE_LIST_PLAYERS a page. Over every game each row
 * gives the all-games rating and, beside it, the player's rating in each
 * game and variant (players --by-variant, rated over that variant's games
 * alone); with a game and variant chosen, that variant's rating alone. The
 * same rows as JSON and CSV are the API's /api/stats/players.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/site_impl.h"

/* A row of the report and what it is sorted by. */
struct prow {
	size_t row;
	long long games;
};

/* Most games first; the report's order (best rated first) among equals. */
static int cmp_games(const void *x, const void *y)
{
	const struct prow *a = x, *b = y;

	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/* /players?q=..&game=..&variant=..&sort=.. (the page number left for the caller to add). */
static void players_link(struct kifu_buf *b, const struct kifu_site_players_query *q,
			 const char *sort)
{
	kifu_buf_puts(b, "/players?sort=");
	kifu_buf_puts(b, sort);
	if (q->part && *q->part) {
		kifu_buf_puts(b, "&amp;q=");
		kifu_site_url_part_(b, q->part);
	}
	if (q->game) {
		kifu_buf_puts(b, "&amp;game=");
		kifu_site_url_part_(b, q->game);
	}
	if (q->variant) {
		kifu_buf_puts(b, "&amp;variant=");
		kifu_site_url_part_(b, q->variant);
	}
}

/* The form: the name's part, the game and variant (a select of the known ones), the order. */
static void players_form(struct kifu_buf *b, const struct kifu_site_players_query *q)
{
	int k, v;

	kifu_buf_puts(b, "<form class=\"filters\" id=\"find\" method=\"get\" action=\"/players\">"
		      "<label for=\"pl-q\">name</label><input type=\"search\" id=\"pl-q\" "
		      "name=\"q\" class=\"wide\" value=\"");
	kifu_site_text_(b, q->part ? q->part : "");
	kifu_buf_puts(b, "\"><span class=\"hint\">any part of it, any case</span>"
		      "<label for=\"pl-gv\">ratings in</label><select id=\"pl-gv\" name=\"gv\">"
		      "<option value=\"\">every game and variant</option>");
	for (k = 0; kifu_games[k]; k++)
		for (v = 0; kifu_games[k]->variants[v]; v++) {
			int on = q->game && !strcmp(q->game, kifu_games[k]->name) && q->variant &&
				 !strcmp(q->variant, kifu_games[k]->variants[v]);

			kifu_buf_printf(b, "<option value=\"%s/%s\"%s>%s %s</option>",
					kifu_games[k]->name, kifu_games[k]->variants[v],
					on ? " selected" : "", kifu_games[k]->name,
					kifu_games[k]->variants[v]);
		}
	kifu_buf_printf(b, "</select><label for=\"pl-sort\">sorted by</label><select id=\"pl-sort\" "
			"name=\"sort\"><option value=\"rating\"%s>rating</option><option "
			"value=\"games\"%s>games</option></select>"
			"<button type=\"submit\" id=\"pl-apply\">find</button> "
			"<a href=\"/players\">every player</a></form>\n",
			strcmp(q->sort, "games") ? " selected" : "", strcmp(q->sort, "games") ? ""
											: " selected");
}

void kifu_site_variant_ratings_(struct kifu_buf *b, const struct kifu_report *byv, const char *name)
{
	size_t r, shown = 0;

	kifu_buf_puts(b, "<td class=\"text ratings\">");
	for (r = 0; byv && r < kifu_report_nrows(byv); r++) {
		long c = kifu_report_find_col(byv, "rating");
		const struct kifu_cell *cell = kifu_report_cell(byv, r, c < 0 ? (size_t)-1 : (size_t)c);

		if (strcmp(kifu_site_cell_text_(byv, r, "player"), name))
			continue;
		kifu_buf_puts(b, shown++ ? "<br><span class=\"gv\">" : "<span class=\"gv\">");
		kifu_site_text_(b, kifu_site_cell_text_(byv, r, "game"));
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, kifu_site_cell_text_(byv, r, "variant"));
		if (cell->type == KIFU_CELL_REAL)
			kifu_buf_printf(b, "</span> <b>%.1f</b>", cell->r);
		else
			kifu_buf_puts(b, "</span> -");
		kifu_buf_puts(b, " <span class=\"note\">(");
		kifu_site_count_(b, kifu_site_cell_int_(byv, r, "games"));
		kifu_buf_puts(b, ")</span>");
	}
	kifu_buf_puts(b, "</td>");
}

int kifu_site_players(struct kifu_buf *b, struct kifu_store *st,
		      const struct kifu_site_players_query *q, struct kifu_error *err)
{
	static const char *const cols[] = { "games", "wins", "draws", "losses", "score", "rating",
					    NULL };
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT, vopt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL, *byv = NULL;
	struct kifu_buf api = KIFU_BUF_INIT;
	struct kifu_filter f;
	struct prow *rows = NULL;
	size_t n, last, from, i;
	int ret = 0;

	memset(&f, 0, sizeof(f));
	if (strcmp(q->sort, "rating") && strcmp(q->sort, "games"))
		return kifu_error_set(err, KIFU_EPARSE, "sort expects rating or games, not '%s'",
				      q->sort);
	if (q->game) {
		const struct kifu_game *g;
		int variant;

		ret = kifu_stats_resolve_game(&g, &variant, q->game, q->variant, err);
		if (ret < 0)
			return err->code = KIFU_ENOTFOUND;
		f.game = g->name;
		f.variant = g->variants[variant];
	}
	opt.name_part = q->part && *q->part ? q->part : NULL;
	ret = kifu_stats_report(&rep, st, KIFU_STATS_PLAYERS, &f, &opt, err);
	if (ret == 0 && !q->game) {
		vopt.by_variant = 1;
		vopt.name_part = opt.name_part;
		ret = kifu_stats_report(&byv, st, KIFU_STATS_PLAYERS, &f, &vopt, err);
	}
	if (ret < 0)
		goto out;
	n = kifu_report_nrows(rep);
	rows = malloc((n ? n : 1) * sizeof(*rows));
	if (!rows) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		rows[i].row = i;
		rows[i].games = kifu_site_cell_int_(rep, i, "games");
	}
	if (!strcmp(q->sort, "games"))
		qsort(rows, n, sizeof(*rows), cmp_games);
	last = n ? (n + KIFU_SITE_LIST_PLAYERS - 1) / KIFU_SITE_LIST_PLAYERS : 1;
	if ((size_t)q->page > last) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "there are %zu pages of players here, not "
				     "%ld", last, q->page);
		goto out;
	}
	from = (size_t)(q->page - 1) * KIFU_SITE_LIST_PLAYERS;
	kifu_site_page_head_(b, st, "players");
	kifu_buf_puts(b, "<h1>Players</h1>\n");
	players_form(b, q);
	kifu_buf_puts(b, "<p id=\"count\"><b>");
	kifu_site_count_(b, (long long)n);
	kifu_buf_printf(b, "</b> player%s", n == 1 ? "" : "s");
	if (q->part && *q->part) {
		kifu_buf_puts(b, " whose name holds “");
		kifu_site_text_(b, q->part);
		kifu_buf_puts(b, "”");
	}
	if (n > KIFU_SITE_LIST_PLAYERS) {
		kifu_buf_puts(b, ", ");
		kifu_site_count_(b, (long long)from + 1);
		kifu_buf_puts(b, " to ");
		kifu_site_count_(b, (long long)(from + KIFU_SITE_LIST_PLAYERS < n
						? from + KIFU_SITE_LIST_PLAYERS : n));
		kifu_buf_printf(b, " shown (page %ld of %zu)", q->page, last);
	}
	kifu_buf_puts(b, "</p>\n<table id=\"players\" class=\"players\">\n<tr><th>#</th>"
		      "<th class=\"text\">player</th><th><a id=\"by-games\" href=\"");
	players_link(b, q, "games");
	kifu_buf_printf(b, "\">games%s</a></th><th>wins</th><th>draws</th><th>losses</th>"
			"<th>score</th><th><a id=\"by-rating\" href=\"",
			strcmp(q->sort, "games") ? "" : " ▼");
	players_link(b, q, "rating");
	kifu_buf_printf(b, "\">rating%s</a>", strcmp(q->sort, "games") ? " ▼" : "");
	if (q->game) {
		kifu_buf_puts(b, "<br><span class=\"note\">");
		kifu_site_text_(b, f.game);
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, f.variant);
		kifu_buf_puts(b, "</span></th>");
	} else {
		kifu_buf_puts(b, "<br><span class=\"note\">all games</span></th><th class=\"text\">"
			      "rating per game and variant <span class=\"note\">(games)</span></th>");
	}
	kifu_buf_puts(b, "</tr>\n");
	for (i = from; i < from + KIFU_SITE_LIST_PLAYERS && i < n; i++) {
		size_t r = rows[i].row;
		const char *name = kifu_site_cell_text_(rep, r, "player");

		kifu_buf_printf(b, "<tr><td class=\"rank\">%zu</td><td class=\"text\"><a href=\"/player/",
				i + 1);
		kifu_site_url_part_(b, name);
		if (q->game) {
			kifu_buf_puts(b, "?game=");
			kifu_site_url_part_(b, f.game);
			kifu_buf_puts(b, "&amp;variant=");
			kifu_site_url_part_(b, f.variant);
		}
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, name);
		kifu_buf_puts(b, "</a></td>");
		kifu_site_cells_(b, rep, r, cols);
		if (!q->game)
			kifu_site_variant_ratings_(b, byv, name);
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_puts(b, "</table>\n");
	if (!n)
		kifu_buf_puts(b, "<p class=\"note\" id=\"none\">No player's name holds that.</p>\n");
	kifu_buf_puts(b, "<p class=\"note\">Players of the games whose every side names a player; "
		      "a rating is on the Elo scale, fitted over the finished games");
	kifu_buf_puts(b, q->game ? " of this game and variant alone.</p>\n"
			  : " of every game and variant together (all games) and, beside it, "
			    "over each game and variant's alone.</p>\n");
	kifu_buf_puts(b, "<p class=\"pages\">");
	if (q->page > 1) {
		kifu_buf_puts(b, "<a id=\"prev\" href=\"");
		players_link(b, q, q->sort);
		kifu_buf_printf(b, "&amp;page=%ld\">previous</a>", q->page - 1);
	}
	if ((size_t)q->page < last) {
		kifu_buf_puts(b, "<a id=\"next\" href=\"");
		players_link(b, q, q->sort);
		kifu_buf_printf(b, "&amp;page=%ld\">next</a>", q->page + 1);
	}
	kifu_buf_puts(b, "</p>\n");
	/* the same rows as kifu-stats players --format json (best rated first) */
	kifu_buf_puts(&api, "/api/stats/players");
	if (q->game) {
		kifu_buf_puts(&api, "?game=");
		kifu_site_url_part_(&api, f.game);
		kifu_buf_puts(&api, "&variant=");
		kifu_site_url_part_(&api, f.variant);
	}
	if (opt.name_part) {
		kifu_buf_puts(&api, q->game ? "&name_part=" : "?name_part=");
		kifu_site_url_part_(&api, opt.name_part);
	}
	kifu_site_data_links_(b, "data-players", "These players", &api, 1);
	if (!q->game) {
		kifu_buf_puts(&api, strchr(api.data, '?') ? "&by_variant=1" : "?by_variant=1");
		kifu_site_data_links_(b, "data-variants", "Their ratings per game and variant", &api,
				      1);
	}
	ret = kifu_site_foot_(b);
	if (ret == 0 && api.failed)
		ret = KIFU_ENOMEM;
out:
	free(rows);
	kifu_buf_release(&api);
	kifu_report_free(rep);
	kifu_report_free(byv);
	return ret;
}
