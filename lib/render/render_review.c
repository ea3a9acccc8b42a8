/*
 * The engine review on the HTML replay page (kifu-analyse --to html): an
 * inline SVG chart of each side's expected score per ply, whose columns
 * open that ply when clicked (the page's script, lib/render/render.c, looks for
 * #chart), and the marks of the move list. The chart's x is the position
 * shown at ply p (0: the start); its value for the side to move there is the
 * review's `expected` of ply p + 1. In a two-sided game the other side has
 * the rest of the score (draws count half to each, so the two add up to 1);
 * with more sides only the mover's share is known, so each side's line
 * joins its own turns. A finished game's last point is its result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "render/html.h"
#include "render/render_impl.h"

/* The chart's frame, in SVG user units. */
#define CW 640.0
#define CH 214.0
#define LEFT 34.0
#define RIGHT 12.0
#define TOP 24.0   /* the strip of marks lies above the plot */
#define BOTTOM 26.0
#define PLOT_W (CW - LEFT - RIGHT)
#define PLOT_H (CH - TOP - BOTTOM)

const char kifu_render_review_style_[] =
	"#chart{display:block;max-width:100%;height:auto;background:#fff;"
	"border:1px solid #d8ccb0;margin-top:4px}\n"
	"#chart .grid{stroke:#ece4d0;stroke-width:1}\n"
	"#chart .axis{fill:#6b5f4a;font-size:11px}\n"
	"#chart .half{stroke:#cbbf9f;stroke-width:1;stroke-dasharray:4 3}\n"
	"#chart .ln{fill:none;stroke-width:2.2;stroke-linejoin:round;stroke-linecap:round;"
	"pointer-events:none}\n"
	"#chart .halo{fill:none;stroke:#3a3428;stroke-width:4.6;stroke-linejoin:round;"
	"stroke-linecap:round;"
	"pointer-events:none}\n"
	"#chart .ln-white{stroke:#fdfcf8}#chart .ln-black{stroke:#2a2a2a}"
	"#chart .ln-red{stroke:#cf3b2e}#chart .ln-yellow{stroke:#d6a400}"
	"#chart .ln-blue{stroke:#2f63c4}#chart .ln-green{stroke:#2f9a4b}\n"
	"#chart .col{fill:transparent;cursor:pointer}\n"
	"#chart .col:hover{fill:rgba(120,100,60,.10)}\n"
	"#chart .col.on{fill:rgba(255,200,40,.28)}\n"
	"#chart .cursor{stroke:#b07d00;stroke-width:1.5;pointer-events:none}\n"
	"#chart .mk1{fill:#e8b320}#chart .mk2{fill:#e07b00}#chart .mk3{fill:#c8102e}\n"
	"#chart circle{stroke:#fff;stroke-width:1;pointer-events:none}\n"
	".legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:6px 0 0;font-size:13px}\n"
	".legend span{display:inline-flex;align-items:center;gap:6px}\n"
	".swatch{display:inline-block;width:20px;height:5px;border-radius:2px;"
	"border:1px solid #3a3428}\n"
	".sw-white{background:#fdfcf8}.sw-black{background:#2a2a2a}.sw-red{background:#cf3b2e}"
	".sw-yellow{background:#d6a400}.sw-blue{background:#2f63c4}.sw-green{background:#2f9a4b}\n"
	".mk{font-weight:bold;padding:0 3px;border-radius:3px;color:#fff;font-size:13px}\n"
	".mk1{background:#d9a400}.mk2{background:#e07b00}.mk3{background:#c8102e}\n"
	".mkey{font-size:13px;color:#6b5f4a;margin:4px 0 0}\n"
	".bm{display:block;font-size:12px;color:#1f7a3a;margin-left:2.2em}\n"
	"#review-sides{border-collapse:collapse;margin-top:6px;font-size:13px;background:#fff}\n"
	"#review-sides td,#review-sides th{padding:2px 8px;border-bottom:1px solid #f0e9d8;"
	"text-align:right}#review-sides td:first-child,#review-sides th:first-child{text-align:left}\n";

static double x_of(size_t p, size_t n)
{
	return LEFT + (n ? PLOT_W * (double)p / (double)n : 0);
}

static double y_of(double v)
{
	return TOP + (1 - v) * PLOT_H;
}

/* Side index of name in g, or -1. */
static int side_index(const struct kifu_game *g, const char *name)
{
	int s;

	for (s = 0; g->sides[s]; s++)
		if (!strcmp(g->sides[s], name))
			return s;
	return -1;
}

/* The player's name of side s, or NULL. */
static const char *player_of(const struct kifu_record *rec, const char *side)
{
	size_t i;

	for (i = 0; i < rec->nplayers; i++)
		if (rec->players[i].side && !strcmp(rec->players[i].side, side))
			return rec->players[i].name;
	return NULL;
}

static void side_summary(struct kifu_buf *b, const struct kifu_record *rec,
			 const struct kifu_replay *rp, const struct kifu_render_review *rv);

/*
 * Side s's score at the end when the record states a result (a side: 1 to
 * it, 0 to the others; a draw: an equal share), else -1.
 */
static double final_score(const struct kifu_record *rec, const struct kifu_game *g, int s)
{
	const char *result = kifu_record_result(rec);
	int w;

	if (!strcmp(result, "draw"))
		return 1.0 / g->nsides;
	w = side_index(g, result);
	return w < 0 ? -1 : w == s ? 1 : 0;
}

/* Side s's line: a path through its points, or nothing when it has none. */
static void side_line(struct kifu_buf *b, const struct kifu_record *rec,
		      const struct kifu_replay *rp, const struct kifu_render_review *rv, int s)
{
	const struct kifu_game *g = rp->game;
	size_t n = rp->nplies, p, points = 0;
	struct kifu_buf d = KIFU_BUF_INIT;
	double v, last_x = 0, last_y = 0;

	for (p = 0; p <= n; p++) {
		if (p == n) {
			v = final_score(rec, g, s);
		} else if (rv->plies[p].side == s) {
			v = rv->plies[p].expected;
		} else if (g->nsides == 2) {
			v = 1 - rv->plies[p].expected;
		} else {
			continue;
		}
		if (v < 0)
			continue;
		last_x = x_of(p, n);
		last_y = y_of(v);
		kifu_buf_printf(&d, "%s%.1f %.1f", points++ ? " L" : "M", last_x, last_y);
	}
	if (points == 1) /* a lone point: a dot, by the round caps */
		kifu_buf_printf(&d, " L%.1f %.1f", last_x, last_y);
	if (points && !strcmp(g->sides[s], "white"))
		kifu_buf_printf(b, "<path class=\"halo\" d=\"%s\"/>\n", d.data);
	if (points)
		kifu_buf_printf(b, "<path class=\"ln ln-%s\" d=\"%s\"/>\n", g->sides[s], d.data);
	if (d.failed)
		b->failed = 1;
	kifu_buf_release(&d);
}

/* Ply numbers on the x axis: every 1, 2, 5, 10, 20, 50, ... plies, at most about 12 of them. */
static size_t tick_step(size_t n)
{
	static const size_t base[] = { 1, 2, 5 };
	size_t scale = 1, i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (n / (base[i] * scale) <= 12)
				return base[i] * scale;
		scale *= 10;
	}
}

void kifu_render_review_chart_(struct kifu_buf *b, const struct kifu_record *rec,
			      const struct kifu_replay *rp, const struct kifu_render_review *rv)
{
	const struct kifu_game *g = rp->game;
	size_t n = rp->nplies, p, step = tick_step(n);
	double col_w = n ? PLOT_W / (double)n : PLOT_W;
	int s, marks = 0;

	kifu_buf_puts(b, "<h2>Expected score</h2>\n<p class=\"mkey\">Each side's expected score "
		      "in the position at each ply (engine: ");
	kifu_render_html_text_(b, rv->engine ? rv->engine : "mcts");
	kifu_buf_puts(b, "); click a ply to open it.</p>\n");
	kifu_buf_printf(b, "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
			"viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
			"aria-label=\"expected score per ply\">\n", CW, CH, CW, CH);
	/* the grid: 0, 1/4, ..., 1; the even share dashed */
	for (s = 0; s <= 4; s++) {
		double v = s / 4.0;

		kifu_buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
				LEFT, LEFT + PLOT_W, y_of(v), y_of(v));
		if (s % 2 == 0)
			kifu_buf_printf(b, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" "
					"text-anchor=\"end\">%s</text>\n", LEFT - 5, y_of(v) + 4,
					s == 0 ? "0" : s == 2 ? "0.5" : "1");
	}
	kifu_buf_printf(b, "<line class=\"half\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
			LEFT, LEFT + PLOT_W, y_of(1.0 / g->nsides), y_of(1.0 / g->nsides));
	for (p = 0; p <= n; p += step) {
		kifu_buf_printf(b, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				"y2=\"%.1f\"/>\n", x_of(p, n), x_of(p, n), TOP, TOP + PLOT_H);
		kifu_buf_printf(b, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				"%zu</text>\n", x_of(p, n), TOP + PLOT_H + 16, p);
	}
	kifu_buf_printf(b, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">ply"
			"</text>\n", CW - 2, CH - 2);
	/* the lines; white on the light page gets a dark outline */
	for (s = 0; s < g->nsides; s++)
		side_line(b, rec, rp, rv, s);
	/* the marks, in a strip above the plot, at the ply after the marked move */
	for (p = 1; p <= n; p++) {
		int mark = rv->plies[p - 1].mark;

		if (!mark)
			continue;
		marks++;
		kifu_buf_printf(b, "<circle class=\"mk%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>\n",
				mark, x_of(p, n), TOP / 2, 3.0 + mark);
	}
	kifu_buf_printf(b, "<line id=\"chart-cursor\" class=\"cursor\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.1f\" y2=\"%.1f\"/>\n", LEFT, LEFT, 2.0, TOP + PLOT_H);
	/* the columns, on top: a click opens the ply */
	for (p = 0; p <= n; p++) {
		kifu_buf_printf(b, "<rect class=\"col\" data-ply=\"%zu\" x=\"%.2f\" y=\"0\" "
				"width=\"%.2f\" height=\"%.1f\"><title>", p, x_of(p, n) - col_w / 2,
				col_w, TOP + PLOT_H);
		if (p == 0) {
			kifu_buf_puts(b, "start");
		} else {
			const char *mark = kifu_analyse_mark_text(rv->plies[p - 1].mark);

			kifu_buf_printf(b, "ply %zu: ", p);
			kifu_render_html_text_(b, kifu_replay_text(rp, p));
			if (mark)
				kifu_buf_printf(b, " %s", mark);
		}
		if (p < n)
			kifu_buf_printf(b, " (%s to move: %.2f)", g->sides[rv->plies[p].side],
					rv->plies[p].expected);
		kifu_buf_puts(b, "</title></rect>\n");
	}
	kifu_buf_puts(b, "</svg>\n<p class=\"legend\">");
	for (s = 0; s < g->nsides; s++) {
		const char *name = player_of(rec, g->sides[s]);

		kifu_buf_printf(b, "<span><span class=\"swatch sw-%s\"></span>%s", g->sides[s],
				g->sides[s]);
		if (name) {
			kifu_buf_puts(b, " (");
			kifu_render_html_text_(b, name);
			kifu_buf_puts(b, ")");
		}
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</p>\n");
	kifu_buf_printf(b, "<p class=\"mkey\">%d marked move%s: "
			"<span class=\"mk mk1\">?!</span> loss &ge; %.2f, "
			"<span class=\"mk mk2\">?</span> &ge; %.2f, "
			"<span class=\"mk mk3\">?\?</span> &ge; %.2f</p>\n", marks, marks == 1 ? "" : "s",
			KIFU_ANALYSE_DUBIOUS, KIFU_ANALYSE_MISTAKE, KIFU_ANALYSE_BLUNDER);
	side_summary(b, rec, rp, rv);
}

void kifu_render_review_mark_(struct kifu_buf *b, const struct kifu_render_review *rv, size_t ply)
{
	const struct kifu_ply_review *r = &rv->plies[ply - 1];
	const char *mark = kifu_analyse_mark_text(r->mark);

	if (!mark)
		return;
	kifu_buf_printf(b, "<span class=\"mk mk%d\" title=\"best ", r->mark);
	kifu_render_html_text_(b, rv->best + (ply - 1) * KIFU_MOVE_TEXT_MAX);
	kifu_buf_printf(b, " %.2f, played %.2f, loss %.2f\">%s</span>", r->best_score,
			r->played_score, r->loss, mark);
	/* the same in plain view: what the engine would have played, and what the move lost */
	kifu_buf_puts(b, "<span class=\"bm\">best ");
	kifu_render_html_text_(b, rv->best + (ply - 1) * KIFU_MOVE_TEXT_MAX);
	kifu_buf_printf(b, ", loss %.2f</span>", r->loss);
}

/*
 * Per side (kifu_analyse_sides): its accuracy, the moves reviewed, its marks
 * of each kind and their mean loss.
 */
static void side_summary(struct kifu_buf *b, const struct kifu_record *rec,
			 const struct kifu_replay *rp, const struct kifu_render_review *rv)
{
	const struct kifu_game *g = rp->game;
	struct kifu_analyse_side sides[KIFU_GAME_SIDES_MAX];
	int s;

	kifu_analyse_sides(sides, g->nsides, rv->plies, rp->nplies);
	kifu_buf_puts(b, "<table id=\"review-sides\">\n<tr><th>side</th><th>accuracy</th><th>moves</th>"
		      "<th><span class=\"mk mk1\">?!</span></th><th><span class=\"mk mk2\">?</span>"
		      "</th><th><span class=\"mk mk3\">?\?</span></th><th>mean loss</th></tr>\n");
	for (s = 0; s < g->nsides; s++) {
		const char *name = player_of(rec, g->sides[s]);

		kifu_buf_printf(b, "<tr data-side=\"%s\"><td>%s", g->sides[s], g->sides[s]);
		if (name) {
			kifu_buf_puts(b, " (");
			kifu_render_html_text_(b, name);
			kifu_buf_puts(b, ")");
		}
		if (sides[s].moves)
			kifu_buf_printf(b, "</td><td class=\"acc\">%.1f</td>", sides[s].accuracy);
		else
			kifu_buf_puts(b, "</td><td class=\"acc\">-</td>");
		kifu_buf_printf(b, "<td>%zu</td><td class=\"n1\">%d</td><td class=\"n2\">%d</td>"
				"<td class=\"n3\">%d</td>", sides[s].moves, sides[s].inaccuracies,
				sides[s].mistakes, sides[s].blunders);
		if (sides[s].moves)
			kifu_buf_printf(b, "<td class=\"loss\">%.3f</td></tr>\n", sides[s].mean_loss);
		else
			kifu_buf_puts(b, "<td class=\"loss\">-</td></tr>\n");
	}
	kifu_buf_puts(b, "</table>\n");
}
