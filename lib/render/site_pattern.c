/*
 * kifu-serve's pattern box (/pattern/GAME/VARIANT): the form on the
 * explorer's page and the page it opens, listing the games in which some
 * position shows a partial-board pattern (kifu-search --pattern), newest
 * first, each with the first ply at which one does, linked to the game's
 * page at that ply. A pattern the tool refuses shows the tool's message
 * (did-you-mean) on the page, beside the form that holds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/pattern.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/html.h"
#include "render/site_impl.h"

void kifu_site_pattern_form_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *pattern, int symmetric)
{
	kifu_buf_puts(b, "<form class=\"filters\" id=\"pattern-box\" method=\"get\" "
		      "action=\"/pattern/");
	kifu_site_url_part_(b, game);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, variant);
	kifu_buf_puts(b, "\"><label>pattern <input name=\"pattern\" id=\"p-pattern\" "
		      "placeholder=\"CELL=TOKEN,...\" value=\"");
	kifu_render_html_text_(b, pattern ? pattern : "");
	kifu_buf_printf(b, "\"></label><label><input type=\"checkbox\" name=\"symmetric\" "
			"value=\"1\" id=\"p-symmetric\"%s> symmetric</label>"
			"<button type=\"submit\" id=\"p-find\">find games</button></form>\n",
			symmetric ? " checked" : "");
}

/* The address of the page's list (page and all), for the pager. */
static void list_base(struct kifu_buf *base, const struct kifu_game *g, int variant,
		      const char *pattern, int symmetric)
{
	kifu_buf_puts(base, "/pattern/");
	kifu_site_url_part_(base, g->name);
	kifu_buf_putc(base, '/');
	kifu_site_url_part_(base, g->variants[variant]);
	kifu_buf_puts(base, "?pattern=");
	kifu_site_url_part_(base, pattern);
	if (symmetric)
		kifu_buf_puts(base, "&amp;symmetric=1");
}

int kifu_site_pattern(struct kifu_buf *b, int *rejected, struct kifu_store *st,
		      const struct kifu_site_pattern_query *q, struct kifu_error *err)
{
	struct kifu_search_result *res = NULL;
	struct kifu_pattern *pat = NULL;
	struct kifu_buf base = KIFU_BUF_INIT;
	struct kifu_filter f;
	const struct kifu_game *g;
	size_t from = (size_t)q->page * KIFU_SITE_PAGE_GAMES, n;
	int ret, variant;

	*rejected = 0;
	ret = kifu_stats_resolve_game(&g, &variant, q->game, q->variant, err);
	if (ret < 0)
		return ret == KIFU_EPARSE ? (err->code = KIFU_ENOTFOUND) : ret;
	memset(&f, 0, sizeof(f));
	f.game = g->name;
	f.variant = g->variants[variant];
	kifu_site_game_head_(b, st, g, variant, "pattern search", " pattern search");
	kifu_buf_puts(b, "<p class=\"note\"><a id=\"explorer\" href=\"/explore/");
	kifu_site_url_part_(b, g->name);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, g->variants[variant]);
	kifu_buf_puts(b, "\">the explorer</a> &middot; a pattern is comma-separated CELL=TOKEN: "
		      "what the text diagram writes in that cell, or . (empty), + (anything but "
		      "empty), * (anything), a side's letter and + (any of its pieces)</p>\n");
	kifu_site_pattern_form_(b, g->name, g->variants[variant], q->pattern, q->symmetric);
	if (!q->pattern || !*q->pattern)
		return kifu_site_foot_(b);
	ret = kifu_search_pattern_prepare(&pat, &f, q->pattern, q->symmetric, err);
	if (ret == KIFU_EPARSE || ret == KIFU_ENOTFOUND) {
		/* the tool's own message, escaped like everything the request brought */
		*rejected = 1;
		kifu_buf_puts(b, "<p id=\"pattern-error\" class=\"error\">");
		kifu_render_html_text_(b, err->message);
		kifu_buf_puts(b, "</p>\n");
		kifu_error_clear(err);
		ret = kifu_site_foot_(b);
		goto out;
	}
	if (ret == 0)
		ret = kifu_search_games_pattern(&res, st, &f, pat, err);
	if (ret < 0)
		goto out;
	n = kifu_search_count(res);
	if (q->page > 0 && from >= n) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "%zu games show this pattern: there is no "
				     "page %ld of them", n, q->page + 1);
		goto out;
	}
	kifu_buf_printf(b, "<p id=\"pattern-count\"><b>%zu</b> game%s show%s it%s; newest first, "
			"each with the first ply at which it does.</p>\n", n, n == 1 ? "" : "s",
			n == 1 ? "s" : "", q->symmetric ? " or one of its images" : "");
	ret = kifu_site_games_(b, res, from, KIFU_SITE_PAGE_GAMES, GAMES_PLY | GAMES_PLY_LINK, NULL,
			       NULL, err);
	if (ret < 0)
		goto out;
	kifu_buf_puts(&base, "/api/search?game=");
	kifu_site_url_part_(&base, g->name);
	kifu_buf_puts(&base, "&amp;variant=");
	kifu_site_url_part_(&base, g->variants[variant]);
	kifu_buf_puts(&base, "&amp;pattern=");
	kifu_site_url_part_(&base, q->pattern);
	if (q->symmetric)
		kifu_buf_puts(&base, "&amp;symmetric=1");
	kifu_buf_printf(&base, "&amp;offset=%zu&amp;limit=%d", from, KIFU_SITE_PAGE_GAMES);
	kifu_site_data_links_(b, "data-games", "These games", &base, 0);
	kifu_buf_reset(&base);
	list_base(&base, g, variant, q->pattern, q->symmetric);
	kifu_site_pager_(b, &base, q->page, n > from + KIFU_SITE_PAGE_GAMES);
	ret = kifu_site_foot_(b);
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_pattern_free(pat);
	return ret;
}
