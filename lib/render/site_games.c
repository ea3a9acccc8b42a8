/*
 * kifu-serve's list of every game, /games (include/kifu/site.h), as
 * Datasette lists a table: the filters of every tool in a form (game,
 * variant, player and side, event, dates, level; termination in the
 * address), the games
 * kifu-search lists for them, sortable by a click on a column's head
 * (date, id, game, plies; again: the other way), 50 a page, with the
 * count, the pages and the same list as JSON. Pages count from 1; a page
 * past the last is KIFU_ENOTFOUND (page 1 always exists).
 */
#include <stdio.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/site_impl.h"

void kifu_site_scope_query_(struct kifu_buf *b, const struct kifu_filter *f)
{
	if (f->game) {
		kifu_buf_puts(b, "&amp;game=");
		kifu_site_url_part_(b, f->game);
	}
	if (f->variant) {
		kifu_buf_puts(b, "&amp;variant=");
		kifu_site_url_part_(b, f->variant);
	}
	kifu_site_filter_query_(b, f);
}

/* The list's address with q's filters and sort, for links ("&amp;" joins more). */
static void list_link(struct kifu_buf *b, const struct kifu_site_games_query *q, const char *sort,
		      int desc)
{
	const struct kifu_filter *f = q->filter;

	kifu_buf_puts(b, "/games?sort=");
	kifu_site_url_part_(b, sort);
	if (desc)
		kifu_buf_puts(b, "&amp;desc=1");
	kifu_site_scope_query_(b, f);
}

/* The list's form: the filters, the sort kept. */
static void form(struct kifu_buf *b, const struct kifu_site_games_query *q,
		 const struct kifu_site_form *fm)
{
	kifu_buf_puts(b, "<form class=\"filters\" method=\"get\" action=\"/games\">");
	kifu_site_filter_fields_(b, fm);
	kifu_buf_puts(b, "<input type=\"hidden\" name=\"sort\" value=\"");
	kifu_site_text_(b, q->sort);
	kifu_buf_printf(b, "\">%s<button type=\"submit\" id=\"g-apply\">filter</button> "
			"<a href=\"/games\">no filter</a></form>\n",
			q->desc ? "<input type=\"hidden\" name=\"desc\" value=\"1\">" : "");
}

/* A column's head: a link sorting by it (the other way when it is the sort already). */
static void head_cell(struct kifu_buf *b, const struct kifu_site_games_query *q, const char *key,
		      const char *label, int text)
{
	int here = !strcmp(q->sort, key);
	int desc = here ? !q->desc : !strcmp(key, "date") || !strcmp(key, "plies");

	kifu_buf_printf(b, "<th%s><a class=\"sort\" data-sort=\"%s\" href=\"", text ? " class=\"text\"" : "",
			key);
	list_link(b, q, key, desc);
	kifu_buf_printf(b, "\">%s%s</a></th>", label,
			here ? (q->desc ? " &#x25BC;" : " &#x25B2;") : "");
}

int kifu_site_games(struct kifu_buf *b, struct kifu_store *st,
		    const struct kifu_site_games_query *q, struct kifu_error *err)
{
	struct kifu_search_result *res = NULL;
	struct kifu_buf base = KIFU_BUF_INIT;
	const struct kifu_filter *f = q->filter;
	struct kifu_site_form_bad bad;
	struct kifu_site_form fm = { 'g', FORM_SCOPE | FORM_AS | FORM_EVENT, NULL, NULL, NULL };
	size_t n, from, i, last;
	int ret;

	fm.filter = f;
	ret = kifu_stats_check_filter(f, err);
	/* an unknown game is a page that does not exist (404), as /explore/GAME is */
	if (ret < 0 && f->game && !kifu_game_find(f->game))
		return err->code = KIFU_ENOTFOUND;
	/* a bad value: the form again, the field marked (the server's 400) */
	if (kifu_site_form_check_(&bad, f) < 0) {
		kifu_error_clear(err);
		fm.bad = &bad;
		kifu_site_page_head_(b, st, "games");
		kifu_buf_puts(b, "<h1>Games</h1>\n");
		kifu_site_form_error_(b, &fm);
		form(b, q, &fm);
		return kifu_site_foot_(b) < 0 ? KIFU_ENOMEM : KIFU_SITE_REJECTED;
	}
	if (ret < 0)
		return ret;
	if (strcmp(q->sort, "date") && strcmp(q->sort, "id") && strcmp(q->sort, "plies") &&
	    strcmp(q->sort, "game"))
		return kifu_error_set(err, KIFU_EPARSE, "sort expects date, id, game or plies, not "
				      "'%s'", q->sort);
	/* newest first is read a page at a time; another order needs the whole list */
	if (!strcmp(q->sort, "date") && q->desc)
		ret = kifu_search_games_page(&res, st, f, NULL, 0, NULL, 0, 0, 0, err);
	else
		ret = kifu_search_games(&res, st, f, NULL, err);
	if (ret < 0)
		goto out;
	kifu_search_result_sort(res, q->sort, q->desc);
	n = kifu_search_count(res);
	last = n ? (n + KIFU_SITE_LIST_GAMES - 1) / KIFU_SITE_LIST_GAMES : 1;
	if ((size_t)q->page > last) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "there are %zu pages of games here, not %ld",
				     last, q->page);
		goto out;
	}
	from = (size_t)(q->page - 1) * KIFU_SITE_LIST_GAMES;
	kifu_site_page_head_(b, st, "games");
	kifu_buf_puts(b, "<h1>Games</h1>\n");
	form(b, q, &fm);
	kifu_buf_puts(b, "<p id=\"count\"><b>");
	kifu_site_count_(b, (long long)n);
	kifu_buf_printf(b, "</b> game%s", n == 1 ? "" : "s");
	if (n > KIFU_SITE_LIST_GAMES) {
		kifu_buf_puts(b, ", ");
		kifu_site_count_(b, (long long)from + 1);
		kifu_buf_puts(b, " to ");
		kifu_site_count_(b, (long long)(from + KIFU_SITE_LIST_GAMES < n
						? from + KIFU_SITE_LIST_GAMES : n));
		kifu_buf_printf(b, " shown (page %ld of %zu)", q->page, last);
	}
	kifu_buf_puts(b, "</p>\n<table class=\"games\" id=\"games\">\n<tr>");
	head_cell(b, q, "id", "id", 0);
	head_cell(b, q, "date", "date", 1);
	head_cell(b, q, "game", "game", 1);
	kifu_buf_puts(b, "<th class=\"text\">players</th><th class=\"text\">result</th>");
	head_cell(b, q, "plies", "plies", 0);
	kifu_buf_puts(b, "</tr>\n");
	for (i = from; i < from + KIFU_SITE_LIST_GAMES && i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		kifu_buf_printf(b, "<tr><td><a href=\"/game/%lld\">%lld</a></td>",
				(long long)h->id, (long long)h->id);
		kifu_site_game_cells_(b, h, 1);
		kifu_buf_puts(b, "<td class=\"text\">");
		kifu_site_text_(b, h->result);
		kifu_buf_printf(b, "</td><td>%ld</td></tr>\n", h->plies);
	}
	kifu_buf_puts(b, "</table>\n<p class=\"pages\">");
	if (q->page > 1) {
		kifu_buf_puts(b, "<a id=\"prev\" href=\"");
		list_link(b, q, q->sort, q->desc);
		kifu_buf_printf(b, "&amp;page=%ld\">previous</a>", q->page - 1);
	}
	if ((size_t)q->page < last) {
		kifu_buf_puts(b, "<a id=\"next\" href=\"");
		list_link(b, q, q->sort, q->desc);
		kifu_buf_printf(b, "&amp;page=%ld\">next</a>", q->page + 1);
	}
	kifu_buf_puts(b, "</p>\n");
	/* the same games as kifu-search --json, newest first */
	kifu_buf_puts(&base, "/api/search?limit=100");
	kifu_site_scope_query_(&base, f);
	kifu_site_data_links_(b, "data-games", "These games (newest first)", &base, 1);
	ret = kifu_site_foot_(b);
	if (ret == 0 && base.failed)
		ret = KIFU_ENOMEM;
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	return ret;
}
