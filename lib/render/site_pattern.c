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
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/pattern.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/html.h"
#include "render/site_impl.h"

void kifu_site_pattern_form_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *pattern, int symmetric, const struct kifu_site_form *fm)
{
	kifu_buf_puts(b, "<form class=\"filters\" id=\"pattern-box\" method=\"get\" "
		      "action=\"/pattern/");
	kifu_site_url_part_(b, game);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, variant);
	kifu_buf_puts(b, "\"><span class=\"field\"><label for=\"p-pattern\">pattern</label> "
		      "<input name=\"pattern\" id=\"p-pattern\" aria-describedby=\"p-pattern-hint\" "
		      "value=\"");
	kifu_render_html_value_(b, pattern ? pattern : "");
	kifu_buf_printf(b, "\"> <span class=\"hint\" id=\"p-pattern-hint\">CELL=TOKEN, comma "
			"between</span></span><label><input type=\"checkbox\" name=\"symmetric\" "
			"value=\"1\" id=\"p-symmetric\"%s> symmetric</label>",
			symmetric ? " checked" : "");
	/* the filters: the page's fields, or the explorer's kept */
	if (fm && fm->fields)
		kifu_site_filter_fields_(b, fm);
	else if (fm)
		kifu_site_filter_hidden_(b, fm->filter);
	kifu_buf_puts(b, "<button type=\"submit\" id=\"p-find\">find games</button></form>\n");
}

/* ---- the editor: the board drawn empty, a click cycles a cell's token ---- */

/* A cell of the editor's board: its name and where it is drawn. */
struct ecell {
	char name[KIFU_CELL_NAME_MAX];
	char row[KIFU_CELL_NAME_MAX]; /* the name's letters */
	long num;                     /* its number */
	double x, y;
};

/*
 * The tokens a cell can show in g's positions (token_side accepts them),
 * besides "." "+" "*" and a side's letter with "+": every token of one or
 * two letters, a letter and a digit, or a stack of up to three w and b.
 */
static void tokens(struct kifu_buf *out, const struct kifu_game *g, const void *state)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	struct kifu_buf sides = KIFU_BUF_INIT, found = KIFU_BUF_INIT;
	char t[8];
	int i, j, k;

	for (i = 0; letters[i]; i++)
		for (j = -1; j < 62; j++) {
			if (j < 0)
				snprintf(t, sizeof(t), "%c", letters[i]);
			else if (j < 52)
				snprintf(t, sizeof(t), "%c%c", letters[i], letters[j]);
			else if (j < 61)
				snprintf(t, sizeof(t), "%c%d", letters[i], j - 51);
			else
				continue;
			if (g->token_side(state, t) < 0)
				continue;
			kifu_buf_printf(&found, " %s", t);
			snprintf(t, sizeof(t), " %c+", t[0]);
			if (!sides.data || !strstr(sides.data, t))
				kifu_buf_puts(&sides, t);
		}
	/* stacks of three (splay-kisenwether's www, wwb, ...; shorter ones are letters above) */
	for (k = 3; k <= 3; k++)
		for (i = 0; i < 8; i++) {
			for (j = 0; j < k; j++)
				t[j] = (i >> j) & 1 ? 'b' : 'w';
			t[k] = '\0';
			if (g->token_side(state, t) >= 0)
				kifu_buf_printf(&found, " %s", t);
		}
	kifu_buf_puts(out, ". + *");
	if (sides.data)
		kifu_buf_puts(out, sides.data);
	if (found.data)
		kifu_buf_puts(out, found.data);
	kifu_buf_release(&sides);
	kifu_buf_release(&found);
}

/*
 * The editor: every cell of the game's board (its names: letters then a
 * number) drawn where the game's picture has it: a square board (the
 * picture draws rects) by file and rank, rank 1 at the bottom; a hex-hex
 * board by row (a at the top) and place in the row, rows centred.
 */
static int editor(struct kifu_buf *b, const struct kifu_game *g, int variant, const char *pattern,
		  const char *nonce)
{
	struct kifu_pos *pos = NULL;
	struct kifu_buf pic = KIFU_BUF_INIT, toks = KIFU_BUF_INIT;
	struct kifu_error err;
	struct ecell *c = NULL;
	int n, i, k, square, ret;
	long maxnum = 0, rowlen[32] = { 0 }, maxlen = 0;
	char rows[32][KIFU_CELL_NAME_MAX];
	int nrows = 0;
	double w, h, r = 20;

	kifu_error_clear(&err);
	ret = kifu_pos_new(&pos, g, variant, 0, &err);
	if (ret < 0)
		return ret;
	n = g->ncells ? g->ncells(pos->state) : 0;
	if (n <= 0 || !(c = calloc((size_t)n, sizeof(*c))) ||
	    kifu_game_render_svg(&pic, g, pos->state, NULL) < 0 || !pic.data) {
		ret = n <= 0 ? 0 : KIFU_ENOMEM;
		goto out;
	}
	/* the picture's board: hexagons (polygons) or squares (rects) */
	{
		const char *bd = strstr(pic.data, "<g class=\"board\"");
		const char *shape = bd ? strchr(bd + 1, '<') : NULL;

		square = shape && !strncmp(shape, "<rect", 5);
	}
	for (i = 0; i < n; i++) {
		size_t l;

		g->cell_name(pos->state, i, c[i].name);
		l = strspn(c[i].name, "abcdefghijklmnopqrstuvwxyz");
		memcpy(c[i].row, c[i].name, l);
		c[i].row[l] = '\0';
		c[i].num = atol(c[i].name + l);
		maxnum = c[i].num > maxnum ? c[i].num : maxnum;
		for (k = 0; k < nrows && strcmp(rows[k], c[i].row); k++)
			;
		if (k == nrows && nrows < 32)
			strcpy(rows[nrows++], c[i].row);
		if (k < 32 && ++rowlen[k] > maxlen)
			maxlen = rowlen[k];
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < nrows && strcmp(rows[k], c[i].row); k++)
			;
		if (square) {
			c[i].x = r + 2 * r * k;
			c[i].y = r + 2 * r * (double)(maxnum - c[i].num);
		} else {
			/* rows in the order their letters come; places from 1, centred */
			int rk = 0, q;

			for (q = 0; q < nrows; q++)
				rk += strcmp(rows[q], c[i].row) < 0;
			c[i].x = r * 1.7320508 * ((double)(c[i].num - 1) + (double)(maxlen - rowlen[k]) / 2)
				 + r;
			c[i].y = r + 1.5 * r * rk;
		}
	}
	w = square ? 2 * r * nrows : r * 1.7320508 * (double)maxlen + r;
	h = square ? 2 * r * (double)maxnum : 1.5 * r * (nrows - 1) + 2 * r;
	tokens(&toks, g, pos->state);
	kifu_buf_printf(b, "<div id=\"pattern-editor\"><svg id=\"pattern-board\" "
			"xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-4 -4 %.0f %.0f\" "
			"width=\"%.0f\" height=\"%.0f\" data-tokens=\"", w + 8, h + 8, w + 8, h + 8);
	kifu_site_text_(b, toks.data);
	kifu_buf_puts(b, "\">\n");
	for (i = 0; i < n; i++) {
		kifu_buf_printf(b, "<g class=\"pc\" data-cell=\"%s\" data-token=\"\" "
				"transform=\"translate(%.1f %.1f)\"><title>%s</title>", c[i].name,
				c[i].x, c[i].y, c[i].name);
		if (square)
			kifu_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
					-r + 1, -r + 1, 2 * r - 2, 2 * r - 2);
		else
			kifu_buf_printf(b, "<polygon points=\"0,%.1f %.1f,%.1f %.1f,%.1f 0,%.1f %.1f,%.1f "
					"%.1f,%.1f\"/>", -r, r * 0.866, -r / 2, r * 0.866, r / 2, r,
					-r * 0.866, r / 2, -r * 0.866, -r / 2);
		kifu_buf_printf(b, "<text y=\"4\" text-anchor=\"middle\"></text><text class=\"nm\" "
				"y=\"%.1f\" text-anchor=\"middle\">%s</text></g>\n", r * 0.75, c[i].name);
	}
	kifu_buf_puts(b, "</svg>\n<p class=\"note\">Click a cell to cycle it through . (empty), + (a "
		      "piece), * (anything), a side's pieces, then each piece; shift-click goes "
		      "back. The text below is the pattern; edit it and the board follows.</p>\n"
		      "</div>\n");
	(void)pattern;
	kifu_buf_printf(b, "<script nonce=\"%s\">\n", nonce ? nonce : "");
	kifu_buf_puts(b, "document.addEventListener(\"DOMContentLoaded\", function () {\n"
		"var svg = document.getElementById(\"pattern-board\");\n"
		"var box = document.getElementById(\"p-pattern\");\n"
		"if (!svg || !box) return;\n"
		"var toks = [\"\"].concat(svg.getAttribute(\"data-tokens\").split(\" \"));\n"
		"var cells = {};\n"
		"[].forEach.call(svg.querySelectorAll(\"g.pc\"), function (g) {\n"
		"\tcells[g.getAttribute(\"data-cell\")] = g;\n"
		"\tg.addEventListener(\"click\", function (e) {\n"
		"\t\tvar i = toks.indexOf(g.getAttribute(\"data-token\"));\n"
		"\t\ti = (i + (e.shiftKey ? toks.length - 1 : 1)) % toks.length;\n"
		"\t\tset(g, toks[i]);\n"
		"\t\twrite();\n"
		"\t});\n"
		"});\n"
		"function set(g, t) {\n"
		"\tg.setAttribute(\"data-token\", t);\n"
		"\tg.querySelector(\"text\").textContent = t;\n"
		"\tg.setAttribute(\"class\", t ? \"pc on\" : \"pc\");\n"
		"}\n"
		"function write() {\n"
		"\tvar parts = [];\n"
		"\tfor (var name in cells) {\n"
		"\t\tvar t = cells[name].getAttribute(\"data-token\");\n"
		"\t\tif (t) parts.push(name + \"=\" + t);\n"
		"\t}\n"
		"\tbox.value = parts.join(\",\");\n"
		"}\n"
		"function read() {\n"
		"\tfor (var name in cells) set(cells[name], \"\");\n"
		"\tbox.value.split(\",\").forEach(function (p) {\n"
		"\t\tvar eq = p.indexOf(\"=\");\n"
		"\t\tif (eq < 0) return;\n"
		"\t\tvar name = p.slice(0, eq).trim(), t = p.slice(eq + 1).trim();\n"
		"\t\tif (cells[name]) set(cells[name], t);\n"
		"\t});\n"
		"}\n"
		"box.addEventListener(\"input\", read);\n"
		"read();\n"
		"});\n</script>\n");
	ret = b->failed || toks.failed ? KIFU_ENOMEM : 0;
out:
	free(c);
	kifu_buf_release(&pic);
	kifu_buf_release(&toks);
	kifu_pos_free(pos);
	return ret;
}

/* The address of the page's list (page and all), for the pager. */
static void list_base(struct kifu_buf *base, const struct kifu_game *g, int variant,
		      const char *pattern, int symmetric, const struct kifu_filter *f)
{
	kifu_buf_puts(base, "/pattern/");
	kifu_site_url_part_(base, g->name);
	kifu_buf_putc(base, '/');
	kifu_site_url_part_(base, g->variants[variant]);
	kifu_buf_puts(base, "?pattern=");
	kifu_site_url_part_(base, pattern);
	if (symmetric)
		kifu_buf_puts(base, "&amp;symmetric=1");
	kifu_site_filter_query_(base, f);
}

int kifu_site_pattern(struct kifu_buf *b, int *rejected, struct kifu_store *st,
		      const struct kifu_site_pattern_query *q, struct kifu_error *err)
{
	struct kifu_search_result *res = NULL;
	struct kifu_pattern *pat = NULL;
	struct kifu_buf base = KIFU_BUF_INIT;
	struct kifu_filter f;
	struct kifu_site_form_bad bad;
	struct kifu_site_form fm = { 'p', FORM_AS, NULL, NULL, NULL };
	const struct kifu_game *g;
	size_t from = (size_t)q->page * KIFU_SITE_PAGE_GAMES, n;
	int ret, variant;

	*rejected = 0;
	ret = kifu_stats_resolve_game(&g, &variant, q->game, q->variant, err);
	if (ret < 0)
		return ret == KIFU_EPARSE ? (err->code = KIFU_ENOTFOUND) : ret;
	/* the explorer's filters (player, side, dates, level), the address's game */
	if (q->filter)
		f = *q->filter;
	else
		memset(&f, 0, sizeof(f));
	f.game = g->name;
	f.variant = g->variants[variant];
	fm.filter = &f;
	fm.game = g;
	if (kifu_site_form_check_(&bad, &f) < 0) {
		fm.bad = &bad;
		*rejected = 1;
	}
	kifu_site_game_head_(b, st, g, variant, "pattern search", " pattern search");
	kifu_buf_puts(b, "<p class=\"note\"><a id=\"explorer\" href=\"/explore/");
	kifu_site_url_part_(b, g->name);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, g->variants[variant]);
	kifu_buf_puts(b, "\">the explorer</a> &middot; a pattern is comma-separated CELL=TOKEN: "
		      "what the text diagram writes in that cell, or . (empty), + (anything but "
		      "empty), * (anything), a side's letter and + (any of its pieces)</p>\n");
	ret = editor(b, g, variant, q->pattern, q->nonce);
	if (ret < 0)
		return kifu_error_set(err, ret, "out of memory");
	kifu_site_form_error_(b, &fm);
	kifu_site_pattern_form_(b, g->name, g->variants[variant], q->pattern, q->symmetric, &fm);
	if (!q->pattern || !*q->pattern || fm.bad)
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
	ret = kifu_site_games_(b, res, from, KIFU_SITE_PAGE_GAMES,
			       GAMES_PLY | GAMES_PLY_LINK | GAMES_PICTURE | GAMES_ONE_GAME, NULL,
			       st, err);
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
	kifu_site_filter_query_(&base, q->filter);
	kifu_buf_printf(&base, "&amp;offset=%zu&amp;limit=%d", from, KIFU_SITE_PAGE_GAMES);
	kifu_site_data_links_(b, "data-games", "These games", &base, 1);
	kifu_buf_reset(&base);
	list_base(&base, g, variant, q->pattern, q->symmetric, q->filter);
	kifu_site_pager_(b, &base, q->page, n > from + KIFU_SITE_PAGE_GAMES);
	ret = kifu_site_foot_(b);
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_pattern_free(pat);
	return ret;
}
