/*
 * kifu-serve's balance page, /balance (include/kifu/site.h): kifu-stats
 * balance for the games the filters select (the tools' filters, in a form
 * as /games has them), one row per game, variant and playing level, with
 * kifu-stats balance --svg's chart inline and, per level, a link to the
 * explorer of that game and variant filtered to the level's games (the
 * filter level=SPEC, which selects exactly the games the report counts at
 * that level: struct kifu_filter). The figures are the report's, written
 * for people as the other pages write them: counts with thousands
 * separators, rates in whole percent, scores with 3 decimals. Above them,
 * a verdict in words per game and variant: the levels whose interval
 * leaves out a fair game's score (1 / sides), and which way.
 */
#include <math.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/html.h"
#include "render/site_impl.h"


/* The report's address in the API with f's filters (game and variant included). */
static void api_link(struct kifu_buf *b, const struct kifu_filter *f)
{
	struct kifu_buf q = KIFU_BUF_INIT;

	kifu_site_scope_query_(&q, f);
	kifu_buf_puts(b, "/api/stats/balance");
	/* the first "&amp;" a "?" */
	if (q.data && q.len > 5) {
		kifu_buf_putc(b, '?');
		kifu_buf_puts(b, q.data + 5);
	}
	if (q.failed)
		b->failed = 1;
	kifu_buf_release(&q);
}

/* Row row's real number of column col, NAN when it has none. */
static double cell_real(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x;

	if (c < 0)
		return NAN;
	x = kifu_report_cell(rep, row, (size_t)c);
	return x->type == KIFU_CELL_REAL ? x->r : x->type == KIFU_CELL_INT ? (double)x->i : NAN;
}

/*
 * The verdict of the rows [start, end) of one game and variant: per level
 * whose 95% interval leaves out the fair score, "first mover favoured at
 * the engine level: 0.589, 0.540-0.636" (below it: "second mover
 * favoured" with two sides, "first mover at a disadvantage" with more),
 * in the report's order of strength; else that no level shows either.
 */
static void verdict(struct kifu_buf *b, const struct kifu_report *rep, size_t start, size_t end)
{
	const char *game = kifu_site_cell_text_(rep, start, "game");
	const struct kifu_game *g = kifu_game_find(game);
	int sides = g && g->nsides > 0 ? g->nsides : 2, said = 0;
	double fair = 1.0 / sides;
	size_t r;

	kifu_buf_puts(b, "<li class=\"verdict\" data-game=\"");
	kifu_render_html_value_(b, game);
	kifu_buf_puts(b, "\" data-variant=\"");
	kifu_render_html_value_(b, kifu_site_cell_text_(rep, start, "variant"));
	kifu_buf_puts(b, "\"><b>");
	kifu_render_html_text_(b, game);
	kifu_buf_putc(b, ' ');
	kifu_render_html_text_(b, kifu_site_cell_text_(rep, start, "variant"));
	kifu_buf_puts(b, "</b>: ");
	for (r = start; r < end; r++) {
		const char *level = kifu_site_cell_text_(rep, r, "level");
		double score = cell_real(rep, r, "first_mover_score");
		double lo = cell_real(rep, r, "ci_low"), hi = cell_real(rep, r, "ci_high");
		const char *way;

		if (!isfinite(score) || !isfinite(lo) || !isfinite(hi) || (lo <= fair && hi >= fair))
			continue;
		way = lo > fair ? "first mover favoured"
				: sides == 2 ? "second mover favoured" : "first mover at a disadvantage";
		kifu_buf_printf(b, "%s<span class=\"finding\" data-level=\"", said++ ? "; " : "");
		kifu_render_html_value_(b, level);
		kifu_buf_printf(b, "\">%s ", way);
		if (!strcmp(level, "players")) {
			kifu_buf_puts(b, "in the games between other players");
		} else {
			kifu_buf_puts(b, "at the ");
			kifu_render_html_text_(b, level);
			kifu_buf_puts(b, " level");
		}
		kifu_buf_printf(b, ": %.3f, %.3f-%.3f</span>", score, lo, hi);
	}
	if (said)
		kifu_buf_printf(b, " (a fair game: %.3f).</li>\n", fair);
	else
		kifu_buf_printf(b, "<span class=\"finding\">no level shows an advantage: every "
				"95%% interval holds a fair game's score, %.3f (more games may "
				"still show one)</span>.</li>\n", fair);
}

/* The verdicts of every game and variant of the report, a list item each. */
static void verdicts(struct kifu_buf *b, const struct kifu_report *rep)
{
	size_t n = kifu_report_nrows(rep), start, end;

	kifu_buf_puts(b, "<h2>Verdict</h2>\n<ul id=\"verdicts\">\n");
	for (start = 0; start < n; start = end) {
		for (end = start + 1; end < n &&
				      !strcmp(kifu_site_cell_text_(rep, end, "game"),
					      kifu_site_cell_text_(rep, start, "game")) &&
				      !strcmp(kifu_site_cell_text_(rep, end, "variant"),
					      kifu_site_cell_text_(rep, start, "variant"));
		     end++)
			;
		verdict(b, rep, start, end);
	}
	kifu_buf_puts(b, "</ul>\n");
}

int kifu_site_balance(struct kifu_buf *b, struct kifu_store *st, const struct kifu_filter *f,
		      struct kifu_error *err)
{
	static const char *const cols[] = { "game", "variant", "level", "games", "first_mover_score",
					    "ci", "draw_rate", "mean_plies", "branching", "reviewed",
					    "lead_changes", "drama", "decided_at", NULL };
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_buf api = KIFU_BUF_INIT;
	struct kifu_filter view;
	struct kifu_site_form_bad bad;
	struct kifu_site_form fm = { 'b', FORM_SCOPE | FORM_EVENT, NULL, NULL, NULL };
	size_t r, n;
	int ret;

	fm.filter = f;
	ret = kifu_stats_check_filter(f, err);
	/* an unknown game is a page that does not exist (404), as on /games */
	if (ret < 0 && f->game && !kifu_game_find(f->game))
		return err->code = KIFU_ENOTFOUND;
	/* a bad value: the form again, the field marked (the server's 400) */
	if (kifu_site_form_check_(&bad, f) < 0) {
		kifu_error_clear(err);
		fm.bad = &bad;
		ret = 0;
	} else if (ret == 0)
		ret = kifu_stats_report(&rep, st, KIFU_STATS_BALANCE, f, &opt, err);
	if (ret < 0)
		goto out;
	n = rep ? kifu_report_nrows(rep) : 0;
	kifu_site_page_head_(b, st, "balance");
	kifu_buf_puts(b, "<h1>Is the game fair?</h1>\n<p class=\"note\">Per game, variant and "
		      "playing level: a level is a kifu-play player (random, mcts:N, engine) that "
		      "played every side of its games (kifu-play --levels); games between other "
		      "players are the level <i>players</i>, games mixing levels are left out.</p>\n");
	kifu_site_form_error_(b, &fm);
	kifu_buf_puts(b, "<form class=\"filters\" method=\"get\" action=\"/balance\">");
	kifu_site_filter_fields_(b, &fm);
	kifu_buf_puts(b, "<button type=\"submit\" id=\"b-apply\">filter</button> "
		      "<a href=\"/balance\">no filter</a></form>\n");
	if (fm.bad) {
		ret = kifu_site_foot_(b) < 0 ? KIFU_ENOMEM : KIFU_SITE_REJECTED;
		goto out;
	}
	if (n == 0)
		kifu_buf_puts(b, "<p id=\"none\">No games here.</p>\n");
	else
		verdicts(b, rep);
	if (n)
		kifu_buf_puts(b, "<h2>Per level</h2>\n<table id=\"balance\">\n<tr><th class=\"text\">game</th>"
			      "<th class=\"text\">variant</th><th class=\"text\">level</th>"
			      "<th>games</th><th>first mover</th><th>95% interval</th>"
			      "<th>draw rate</th><th>mean plies</th><th>branching</th>"
			      "<th>reviewed</th><th>lead changes</th><th>drama</th>"
			      "<th>decided at</th><th class=\"text\">explore</th></tr>\n");
	for (r = 0; r < n; r++) {
		const char *level = kifu_site_cell_text_(rep, r, "level");

		kifu_buf_puts(b, "<tr>");
		kifu_site_cells_(b, rep, r, cols);
		/* the explorer of the level's games, with the page's other filters */
		view = *f;
		view.game = view.variant = NULL;
		view.level = level;
		kifu_buf_puts(b, "<td class=\"text\"><a class=\"level\" href=\"");
		kifu_site_explore_link_(b, kifu_site_cell_text_(rep, r, "game"),
					kifu_site_cell_text_(rep, r, "variant"), "", 0, &view);
		kifu_buf_puts(b, "\">explorer</a></td></tr>\n");
	}
	if (n)
		kifu_buf_puts(b, "</table>\n<p class=\"note\">first mover: the score of the side "
			      "that moves first over the finished games (a draw its share), with its "
			      "95% Wilson interval; branching: the mean number of legal moves; over "
			      "the reviewed games (kifu-analyse --store, kifu-play --review), two-sided "
			      "games only: lead changes, the times per game the expected score "
			      "crossed 0.5; drama, how far below 0.5 the winner fell; decided at, the "
			      "share of the game after which the winner's expected score stayed at 0.9 "
			      "or more (kifu-stats balance in the manual)</p>\n");
	api_link(&api, f);
	kifu_site_data_links_(b, "data-balance", "The balance report", &api, 1);
	if (n) {
		kifu_buf_puts(b, "<h2>The first mover's score per level</h2>\n");
		kifu_site_chart_(b, rep);
	}
	ret = kifu_site_foot_(b);
	if (ret == 0 && api.failed)
		ret = KIFU_ENOMEM;
out:
	kifu_buf_release(&api);
	kifu_report_free(rep);
	return ret;
}
