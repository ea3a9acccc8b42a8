/*
 * kifu-serve's explorer page, /explore/GAME/VARIANT (include/kifu/site.h):
 * the board after the address's moves, the moves played from there as
 * kifu-stats tree counts them (with their years), the move orders that
 * reached the position, filters, the pattern box, and the games that
 * reached it with their novelties. The pieces every page shares are in
 * site.c (render/site_impl.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/estimate.h"
#include "kifu/game.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/html.h"
#include "render/site_impl.h"
#include "stats/stats_impl.h"

/* The position after the moves of list: its state, last move, and the moves in canonical text. */
struct walked {
	struct kifu_pos *pos;
	kifu_move last;
	int plies;
	struct kifu_buf moves;  /* canonical moves, each NUL-terminated */
};

static int walk(struct walked *w, const struct kifu_game *g, int variant, const char *list,
		struct kifu_error *err)
{
	char move[KIFU_MOVE_TEXT_MAX * 2], canon[KIFU_MOVE_TEXT_MAX];
	int ret = kifu_pos_new(&w->pos, g, variant, 0, err);

	while (ret == 0 && list && *list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (n >= sizeof(move))
			return kifu_error_set(err, KIFU_EPARSE, "--after: a move is too long");
		memcpy(move, list, n);
		move[n] = '\0';
		ret = g->parse_move(w->pos->state, move, &w->last, err);
		if (ret < 0)
			return ret;
		g->format_move(w->pos->state, w->last, canon);
		g->apply(w->pos->state, w->last);
		kifu_buf_add(&w->moves, canon, strlen(canon) + 1);
		w->plies++;
		list = end ? end + 1 : NULL;
	}
	return ret;
}

/* The canonical moves of w up to ply k, comma-separated. */
static void moves_upto(struct kifu_buf *out, const struct walked *w, int k)
{
	const char *s = w->moves.data;
	int i;

	kifu_buf_reset(out);
	for (i = 0; i < k; i++) {
		kifu_buf_puts(out, i ? "," : "");
		kifu_buf_puts(out, s);
		s += strlen(s) + 1;
	}
	kifu_buf_puts(out, "");
}

/* The explorer's address of after, keeping the page's filters and its min_games. */
static void link_to(struct kifu_buf *b, const struct kifu_site_position *p, const char *after,
		    int symmetric, const struct kifu_filter *f)
{
	kifu_site_explore_link_(b, p->game, p->variant, after, symmetric, f);
	if (p->min_games > 1)
		kifu_buf_printf(b, "&amp;min_games=%ld", p->min_games);
}

static void path_nav(struct kifu_buf *b, const struct kifu_site_position *p,
		     const struct walked *w)
{
	struct kifu_buf upto = KIFU_BUF_INIT;
	const char *s = w->moves.data;
	int k;

	kifu_buf_puts(b, "<nav class=\"path\" id=\"path\">");
	for (k = 0; k <= w->plies; k++) {
		const char *label = k ? s : "start";

		moves_upto(&upto, w, k);
		if (k == w->plies) {
			kifu_buf_puts(b, "<span class=\"here\">");
			kifu_site_text_(b, label);
			kifu_buf_puts(b, "</span>");
		} else {
			kifu_buf_puts(b, "<a href=\"");
			link_to(b, p, upto.data, p->symmetric, p->filter);
			kifu_buf_puts(b, "\">");
			kifu_site_text_(b, label);
			kifu_buf_puts(b, "</a>");
		}
		if (k)
			s += strlen(s) + 1;
	}
	kifu_buf_puts(b, "</nav>\n");
	kifu_buf_release(&upto);
}

static void filter_form(struct kifu_buf *b, const struct kifu_site_position *p, const char *after,
			const struct kifu_game *g, const struct kifu_site_form_bad *bad)
{
	struct kifu_site_form fm = { 'f', FORM_AS, NULL, NULL, NULL };

	fm.filter = p->filter;
	fm.game = g;
	fm.bad = bad;
	kifu_buf_puts(b, "<form class=\"filters\" method=\"get\" action=\"/explore/");
	kifu_site_url_part_(b, p->game);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, p->variant);
	kifu_buf_puts(b, "\"><input type=\"hidden\" name=\"after\" value=\"");
	kifu_render_html_value_(b, after ? after : "");
	kifu_buf_puts(b, "\">");
	if (p->symmetric)
		kifu_buf_puts(b, "<input type=\"hidden\" name=\"symmetric\" value=\"1\">");
	kifu_site_filter_fields_(b, &fm);
	kifu_buf_puts(b, "<span class=\"field\"><label for=\"f-min-games\">min. games</label> "
		      "<input name=\"min_games\" id=\"f-min-games\" type=\"number\" min=\"1\" "
		      "class=\"short\" aria-describedby=\"f-min-games-hint\" value=\"");
	if (p->min_games > 1)
		kifu_buf_printf(b, "%ld", p->min_games);
	kifu_buf_puts(b, "\"> <span class=\"hint\" id=\"f-min-games-hint\">moves played that "
		      "often</span></span><button type=\"submit\" id=\"f-apply\">filter</button> "
		      "<a href=\"");
	kifu_site_explore_link_(b, p->game, p->variant, after, p->symmetric, NULL);
	kifu_buf_puts(b, "\">no filter</a></form>\n");
}

/* A date column's year, as kifu-stats' table prints it ("-": no dated game). */
static void year_cell(struct kifu_buf *b, const struct kifu_report *rep, size_t row,
		      const char *col)
{
	const char *d = kifu_site_cell_text_(rep, row, col);
	char year[5];

	snprintf(year, sizeof(year), "%s", *d ? d : "-");
	kifu_buf_printf(b, "<td class=\"%s\">", col);
	kifu_site_text_(b, year);
	kifu_buf_puts(b, "</td>");
}

/*
 * The moves played from the position, most played first: each with its
 * share of the games that reached it (reached) beside its bar, at most
 * KIFU_SITE_MOVES rows unless p->all, the rest left out of the page (at
 * any position it stays small: glaisher's start has hundreds of moves) for
 * one "N other moves" row linking the page with all=1, which shows every
 * row. Each row shown is also a link on the board: its
 * picture goes to board (drawn least played first, so the most played is
 * on top).
 */
static int move_table(struct kifu_buf *b, struct kifu_buf *board,
		      const struct kifu_site_position *p, const struct kifu_report *rep,
		      const char *after, const char *mover, const struct kifu_game *g,
		      const void *state, long long reached)
{
	static const char *const rest_cols[] = { "mover_score", "ci", "mean_plies", NULL };
	struct kifu_buf next = KIFU_BUF_INIT, href = KIFU_BUF_INIT;
	struct kifu_buf *links = NULL;
	size_t r, nrows = kifu_report_nrows(rep);
	size_t shown = p->all || nrows <= KIFU_SITE_MOVES ? nrows : KIFU_SITE_MOVES;
	long long top = nrows ? kifu_site_cell_int_(rep, 0, "games") : 0;
	const char *as;
	char wins[64];
	int ret = 0;

	links = calloc(shown ? shown : 1, sizeof(*links));
	if (!links)
		return KIFU_ENOMEM;
	/* a player's view (player and as): the bars and scores are that player's results */
	as = p->filter->player && p->filter->player_side ? p->filter->player_side : NULL;
	snprintf(wins, sizeof(wins), "wins_%s", as ? as : mover);
	if (as) {
		kifu_buf_puts(b, "<p class=\"note\" id=\"view\">Bars and scores: ");
		kifu_site_text_(b, p->filter->player);
		kifu_buf_puts(b, "'s results as ");
		kifu_site_text_(b, as);
		kifu_buf_puts(b, ", whoever is to move.</p>\n");
	}
	kifu_buf_puts(b, "<table id=\"moves\">\n<tr><th class=\"text\">move</th><th>games</th>"
		      "<th>share</th><th class=\"text\">win / draw / loss</th><th>score</th>"
		      "<th>95% interval</th><th>mean plies</th><th>first</th><th>last</th></tr>\n");
	for (r = 0; r < nrows; r++) {
		const char *move = kifu_site_cell_text_(rep, r, "move");
		long long n = kifu_site_cell_int_(rep, r, "games");
		long long w = kifu_site_cell_int_(rep, r, wins);
		long long d = kifu_site_cell_int_(rep, r, "draws");
		long long u = kifu_site_cell_int_(rep, r, "unfinished");

		if (r == shown) {
			/* the rest are not in the page: one row links the page that shows them */
			kifu_buf_puts(b, "<tr class=\"more\"><td class=\"text\" colspan=\"9\">"
				      "<a id=\"more-moves\" href=\"");
			link_to(b, p, after, p->symmetric, p->filter);
			kifu_buf_printf(b, "&amp;all=1\">%zu other move%s</a></td></tr>\n",
					nrows - shown, nrows - shown == 1 ? "" : "s");
			break;
		}
		kifu_buf_reset(&next);
		kifu_buf_printf(&next, "%s%s%s", after, *after ? "," : "", move);
		kifu_buf_reset(&href);
		link_to(&href, p, next.data, p->symmetric, p->filter);
		kifu_buf_puts(b, "<tr><td class=\"text move\"><a href=\"");
		kifu_buf_puts(b, href.data);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, move);
		kifu_buf_puts(b, "</a></td><td class=\"games\">");
		kifu_site_count_(b, n);
		kifu_buf_puts(b, "</td><td class=\"share\">");
		kifu_site_percent_(b, n, reached);
		kifu_buf_puts(b, "</td><td class=\"bar\">");
		kifu_site_bar_(b, w, d, n - w - d - u, u);
		kifu_buf_puts(b, "</td>");
		if (as && n - u > 0) {
			/* the player's score and its 95% Wilson interval, as the tree's for the mover */
			double sc = ((double)w + (double)d / g->nsides) / (double)(n - u), lo, hi;

			kifu_estimate_wilson(&lo, &hi, sc * (double)(n - u), (double)(n - u));
			kifu_buf_printf(b, "<td class=\"score\">%.3f</td><td>%.3f-%.3f</td>", sc, lo, hi);
		} else if (as) {
			kifu_buf_puts(b, "<td class=\"score\">-</td><td>-</td>");
		}
		kifu_site_cells_(b, rep, r, as ? rest_cols + 2 : rest_cols);
		year_cell(b, rep, r, "first_date");
		year_cell(b, rep, r, "last_date");
		kifu_buf_puts(b, "</tr>\n");
		{
			struct kifu_site_move_geo geo;
			struct kifu_error err;
			char title[KIFU_MOVE_TEXT_MAX + 64];
			kifu_move m;

			kifu_error_clear(&err);
			if (g->parse_move(state, move, &m, &err) < 0)
				continue;
			if ((ret = kifu_site_move_geo_(&geo, g, state, m)) < 0)
				break;
			snprintf(title, sizeof(title), "%s: %lld game%s", move, n, n == 1 ? "" : "s");
			kifu_site_board_move_(&links[r], &geo, href.data, title, "mv",
					      top > 0 ? (double)n / (double)top : 0);
		}
	}
	kifu_buf_puts(b, "</table>\n");
	if (nrows > KIFU_SITE_MOVES && p->all) {
		kifu_buf_puts(b, "<p class=\"note\" id=\"all-moves\">");
		kifu_buf_puts(b, "<a href=\"");
		link_to(b, p, after, p->symmetric, p->filter);
		kifu_buf_puts(b, "\">the most played moves only</a></p>\n");
	}
	kifu_site_board_defs_(board);
	for (r = shown; r-- > 0;) {
		if (links[r].data)
			kifu_buf_add(board, links[r].data, links[r].len);
		kifu_buf_release(&links[r]);
	}
	free(links);
	kifu_buf_release(&next);
	kifu_buf_release(&href);
	if (ret == 0 && (b->failed || board->failed || next.failed || href.failed))
		ret = KIFU_ENOMEM;
	return ret;
}

/*
 * Transpositions: the move orders by which the newest games that reached
 * the position came (KIFU_SITE_ORDER_GAMES read at most: a bounded cost at
 * any position), most played first, each a link to its path; the order
 * of the address is marked.
 */
static int move_orders(struct kifu_buf *b, struct kifu_store *st,
		       const struct kifu_site_position *p, const struct kifu_filter *f,
		       const uint64_t *hash, const uint64_t *orient, int norient,
		       const char *after, long long reached, struct kifu_error *err)
{
	struct kifu_search_orders *o = NULL;
	struct kifu_buf one = KIFU_BUF_INIT;
	size_t k;
	int ret = kifu_search_move_orders(&o, st, f, hash, p->symmetric, orient, norient,
					  KIFU_SITE_ORDER_GAMES, err);

	if (ret < 0)
		return ret;
	kifu_buf_puts(b, "<h2>Move orders</h2>\n<p class=\"note\" id=\"orders-note\">");
	if (o->more)
		kifu_buf_printf(b, "How the newest %ld of the %lld games that reached it got there "
				"(the others are not read).", o->read, reached);
	else
		kifu_buf_printf(b, "How the %ld game%s that reached it got there.", o->read,
				o->read == 1 ? "" : "s");
	kifu_buf_puts(b, "</p>\n<table id=\"orders\">\n<tr><th class=\"text\">move order</th>"
		      "<th>games</th></tr>\n");
	for (k = 0; k < o->n && k < KIFU_SITE_ORDERS; k++) {
		const char *m = o->v[k].moves, *comma;
		int here = !strcmp(m, after);

		kifu_buf_puts(b, "<tr data-moves=\"");
		kifu_site_text_(b, m);
		kifu_buf_puts(b, here ? "\"><td class=\"text move\"><span class=\"here\">"
				      : "\"><td class=\"text move\"><a href=\"");
		if (!here) {
			link_to(b, p, m, p->symmetric, p->filter);
			kifu_buf_puts(b, "\">");
		}
		/* the moves apart: a move's text may hold spaces */
		for (; (comma = strchr(m, ',')) != NULL; m = comma + 1) {
			kifu_buf_reset(&one);
			kifu_buf_add(&one, m, (size_t)(comma - m));
			kifu_site_text_(b, one.data);
			kifu_buf_puts(b, " &middot; ");
		}
		kifu_site_text_(b, m);
		kifu_buf_printf(b, "%s</td><td>%ld</td></tr>\n", here ? "</span>" : "</a>",
				o->v[k].games);
	}
	kifu_buf_puts(b, "</table>\n");
	if (o->n > KIFU_SITE_ORDERS)
		kifu_buf_printf(b, "<p class=\"note\">and %zu other orders.</p>\n",
				o->n - KIFU_SITE_ORDERS);
	kifu_search_orders_free(o);
	kifu_buf_release(&one);
	return b->failed || one.failed ? kifu_error_set(err, KIFU_ENOMEM, "out of memory") : 0;
}

/* The API's address of the position after moves (escaped for an attribute): path?game=...&after=.... */
static void api_address(struct kifu_buf *b, const char *path, const struct kifu_game *g, int variant,
			const char *moves, int symmetric)
{
	kifu_buf_puts(b, path);
	kifu_buf_puts(b, "?game=");
	kifu_site_url_part_(b, g->name);
	kifu_buf_puts(b, "&amp;variant=");
	kifu_site_url_part_(b, g->variants[variant]);
	kifu_buf_puts(b, "&amp;after=");
	kifu_site_url_part_(b, moves);
	if (symmetric)
		kifu_buf_puts(b, "&amp;symmetric=1");
}

/*
 * The 404 page of an address whose path has an illegal move (why: the
 * tree's message), linking the explorer at its longest legal start
 * (after, plies long). Returns KIFU_SITE_MISSING, or KIFU_ENOMEM.
 */
static int missing(struct kifu_buf *b, struct kifu_store *st, const struct kifu_game *g,
		   int variant, const struct kifu_site_position *p, const char *after, int plies,
		   const char *why)
{
	kifu_site_game_head_(b, st, g, variant, "no such position", " explorer");
	kifu_buf_puts(b, "<p id=\"error\" class=\"error\">No such position: the address's moves "
		      "stop being legal (");
	kifu_site_text_(b, why);
	kifu_buf_puts(b, ").</p>\n<p><a id=\"longest\" href=\"");
	link_to(b, p, after, p->symmetric, p->filter);
	if (plies)
		kifu_buf_printf(b, "\">The explorer after its %d legal move%s</a>", plies,
				plies == 1 ? "" : "s");
	else
		kifu_buf_puts(b, "\">The explorer from the start</a>");
	if (plies) {
		kifu_buf_puts(b, " (");
		kifu_site_text_(b, after);
		kifu_buf_puts(b, ")");
	}
	kifu_buf_puts(b, ".</p>\n");
	return kifu_site_foot_(b) < 0 ? KIFU_ENOMEM : KIFU_SITE_MISSING;
}

int kifu_site_explore(struct kifu_buf *b, struct kifu_store *st,
		      const struct kifu_site_position *p, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct walked w = { NULL, 0, 0, KIFU_BUF_INIT };
	struct kifu_search_result *res = NULL;
	struct kifu_report *rep = NULL;
	struct kifu_buf svg = KIFU_BUF_INIT, after = KIFU_BUF_INIT, base = KIFU_BUF_INIT;
	struct kifu_buf table = KIFU_BUF_INIT, links = KIFU_BUF_INIT;
	const struct kifu_game *g;
	struct kifu_filter f = *p->filter;
	const char *mover;
	long long reached;
	uint64_t hash, orient[KIFU_GAME_SYMMETRIES_MAX];
	struct kifu_site_form_bad bad;
	struct kifu_site_form keep = { 'f', 0, NULL, NULL, NULL };
	int norient = 0;
	int ret, variant;

	ret = kifu_stats_resolve_game(&g, &variant, p->game, p->variant, err);
	if (ret < 0)
		return ret == KIFU_EPARSE ? (err->code = KIFU_ENOTFOUND) : ret;
	f.game = g->name;
	f.variant = g->variants[variant];
	/* a bad value: the page's form again, the field marked (the server's 400) */
	if (kifu_site_form_check_(&bad, &f) < 0) {
		keep.id = 'f';
		keep.bad = &bad;
		kifu_site_game_head_(b, st, g, variant, "explorer", "");
		kifu_site_form_error_(b, &keep);
		filter_form(b, p, p->after, g, &bad);
		return kifu_site_foot_(b) < 0 ? KIFU_ENOMEM : KIFU_SITE_REJECTED;
	}
	ret = kifu_stats_check_filter(&f, err);
	if (ret < 0)
		return ret;
	opt.after = p->after;
	opt.symmetric = p->symmetric;
	opt.min_games = p->min_games > 1 ? p->min_games : 1;
	ret = kifu_stats_report(&rep, st, KIFU_STATS_TREE, &f, &opt, err);
	if (ret == KIFU_EPARSE || ret == KIFU_EILLEGAL) {
		/* no such position: a page that leads to the longest legal start of the path */
		char msg[KIFU_ERROR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->message);
		kifu_error_clear(err);
		if (w.pos || walk(&w, g, variant, p->after, err) != KIFU_ENOMEM) {
			kifu_error_clear(err);
			moves_upto(&after, &w, w.plies);
			ret = missing(b, st, g, variant, p, after.data, w.plies, msg);
		}
		goto out;
	}
	if (ret == 0)
		ret = walk(&w, g, variant, p->after, err);
	if (ret == 0)
		ret = (p->symmetric ? kifu_search_position_canonical : kifu_search_position)(
			&hash, g, variant, p->after ? p->after : "", err);
	/* Symmetric: the position's orientations, for a database without a canonical index. */
	if (ret == 0 && p->symmetric)
		ret = kifu_search_position_orientations(orient, &norient, g, variant,
							p->after ? p->after : "", err);
	if (ret == 0)
		ret = kifu_search_games_page(&res, st, &f, &hash, p->symmetric,
					     p->symmetric ? orient : NULL, norient,
					     (size_t)p->page * KIFU_SITE_PAGE_GAMES,
					     KIFU_SITE_PAGE_GAMES + 1, err);
	if (ret == 0 && p->page > 0 && kifu_search_count(res) == 0)
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no page %ld of the games that reached this "
				     "position", p->page + 1);
	if (ret == 0 && kifu_game_render_svg(&svg, g, w.pos->state, w.plies ? &w.last : NULL) < 0)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret < 0)
		goto out;
	moves_upto(&after, &w, w.plies);
	mover = g->sides[g->side_to_move(w.pos->state) >= 0 ? g->side_to_move(w.pos->state) : 0];
	reached = kifu_site_head_int_(rep, "games");
	/* The table first: its moves are drawn on the board too. */
	if (kifu_report_nrows(rep) &&
	    ((ret = move_table(&table, &links, p, rep, after.data, mover, g, w.pos->state,
			       reached)) < 0 ||
	     (ret = kifu_site_svg_append_(&svg, &links)) < 0)) {
		kifu_error_set(err, ret, "out of memory");
		goto out;
	}
	kifu_site_game_head_(b, st, g, variant, "explorer", "");
	path_nav(b, p, &w);
	kifu_buf_puts(b, "<div class=\"cols\">\n");
	kifu_buf_printf(b, "<div id=\"board\" data-ply=\"%d\">", w.plies);
	kifu_buf_puts(b, strstr(svg.data, "<svg") ? strstr(svg.data, "<svg") : svg.data);
	kifu_buf_puts(b, "</div>\n<div class=\"side\">\n<p id=\"status\">");
	kifu_buf_printf(b, "ply %d, <b>", w.plies);
	kifu_site_text_(b, mover);
	kifu_buf_puts(b, "</b> to move. Reached in <b id=\"reached\">");
	kifu_site_count_(b, reached);
	kifu_buf_printf(b, "</b> game%s by any move order (transpositions included), ",
			reached == 1 ? "" : "s");
	kifu_site_count_(b, kifu_site_head_int_(rep, "ended"));
	kifu_buf_puts(b, " ended here.</p>\n");
	kifu_buf_puts(b, "<p class=\"note\">");
	kifu_buf_puts(b, p->symmetric ? "Positions equal under a board symmetry count as one: <a "
					"id=\"symmetric\" href=\""
				      : "Positions told apart from their mirror images: <a "
					"id=\"symmetric\" href=\"");
	link_to(b, p, after.data, !p->symmetric, p->filter);
	kifu_buf_puts(b, p->symmetric ? "\">tell them apart</a></p>\n"
				      : "\">count symmetric positions as one</a></p>\n");
	filter_form(b, p, after.data, g, NULL);
	/* the pattern box keeps the page's filters */
	keep.filter = p->filter;
	keep.bad = NULL;
	kifu_site_pattern_form_(b, p->game, p->variant, NULL, 0, &keep);
	api_address(&base, "/api/tree", g, variant, after.data, p->symmetric);
	if (p->min_games > 1)
		kifu_buf_printf(&base, "&amp;min_games=%ld", p->min_games);
	kifu_site_filter_query_(&base, p->filter);
	kifu_site_data_links_(b, "data-moves", "These moves", &base, 1);
	if (kifu_report_nrows(rep))
		kifu_buf_add(b, table.data, table.len);
	else
		kifu_buf_puts(b, "<p id=\"moves\">No game goes on from here.</p>\n");
	if (w.plies > 0 && reached > 0 &&
	    (ret = move_orders(b, st, p, &f, &hash, orient, norient, after.data, reached,
			       err)) < 0)
		goto out;
	kifu_buf_puts(b, "<h2>Games that reached it</h2>\n<p class=\"note\">newest first</p>\n");
	/* one game and variant: no game column; at the start every ply is 0: no ply column */
	ret = kifu_site_games_(b, res, 0, KIFU_SITE_PAGE_GAMES,
			       (w.plies ? GAMES_PLY : 0) | GAMES_NOVELTY | GAMES_ONE_GAME, NULL, st,
			       err);
	if (ret < 0)
		goto out;
	kifu_buf_reset(&base);
	api_address(&base, "/api/search", g, variant, after.data, p->symmetric);
	kifu_site_filter_query_(&base, p->filter);
	kifu_buf_printf(&base, "&amp;offset=%ld&amp;limit=%d", p->page * KIFU_SITE_PAGE_GAMES,
			KIFU_SITE_PAGE_GAMES);
	kifu_site_data_links_(b, "data-games", "These games", &base, 1);
	kifu_buf_reset(&base);
	link_to(&base, p, after.data, p->symmetric, p->filter);
	if (p->all)
		kifu_buf_puts(&base, "&amp;all=1");
	kifu_site_pager_(b, &base, p->page, kifu_search_count(res) > KIFU_SITE_PAGE_GAMES);
	kifu_buf_puts(b, "</div>\n</div>\n");
	ret = kifu_site_foot_(b);
out:
	kifu_pos_free(w.pos);
	kifu_buf_release(&w.moves);
	kifu_buf_release(&svg);
	kifu_buf_release(&after);
	kifu_buf_release(&base);
	kifu_buf_release(&table);
	kifu_buf_release(&links);
	kifu_search_result_free(res);
	kifu_report_free(rep);
	return ret;
}

