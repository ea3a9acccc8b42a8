/*
 * Charts of kifu-stats reports as standalone SVG (kifu_report_svg). Each
 * chart is drawn from the report's own columns, so that a chart can never
 * disagree with the table printed beside it: summary, 100% bars of the
 * outcomes per game and variant; openings, the first mover's wins, draws
 * and losses per line with the 95% Wilson interval of its score drawn
 * over them; lengths, one histogram per game and variant with the median
 * marked; players, rating bars around the 1500 mean; balance, the first
 * mover's score with its interval per level, a panel per game and
 * variant. Reports longer than a chart can show are drawn by their largest
 * rows, and the subtitle says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "stats/stats_impl.h"
#include "util/text_impl.h"

#define WIDTH 1000
#define LABEL_W 280          /* left column of labels */
#define BAR_X (LABEL_W + 10)
#define BAR_W 520            /* then 190 pixels of figures on the right */
#define ROW_H 34
#define OPEN_ROW_H 40         /* a bar, and its score's interval under it */
#define BAR_H 20
#define TOP 70               /* below the title and subtitle */
#define MAX_BARS 40          /* rows of an openings or players chart */

#define FONT "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""

static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
				       "#edc948", "#ff9da7", "#9c755f" };

/* Colours of the sides whose names are colours; the others take the palette. */
static const char *side_colour(const char *side, int index)
{
	static const struct { const char *name, *fill; } named[] = {
		{ "white", "#f2f2f2" }, { "black", "#303030" }, { "red", "#d62728" },
		{ "blue", "#1f77b4" }, { "green", "#2ca02c" }, { "yellow", "#f0c419" },
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(side, named[i].name))
			return named[i].fill;
	return palette[index % 8];
}

/* Text on a fill: dark on light colours, white on dark ones. */
static const char *ink_on(const char *fill)
{
	unsigned r, g, b;

	if (sscanf(fill, "#%2x%2x%2x", &r, &g, &b) != 3)
		return "#000";
	return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
}

static void xml_text(struct kifu_buf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': kifu_buf_puts(out, "&amp;"); break;
		case '<': kifu_buf_puts(out, "&lt;"); break;
		case '>': kifu_buf_puts(out, "&gt;"); break;
		case '"': kifu_buf_puts(out, "&quot;"); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				kifu_buf_putc(out, *s);
		}
	}
}

/* A text element; anchor "start", "middle" or "end"; s is escaped. */
static void text_at(struct kifu_buf *out, double x, double y, const char *anchor, int size,
		    const char *fill, const char *weight, const char *s)
{
	kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" "
			     "fill=\"%s\"%s%s%s>", x, y, anchor, size, fill,
			weight ? " font-weight=\"" : "", weight ? weight : "", weight ? "\"" : "");
	xml_text(out, s);
	kifu_buf_puts(out, "</text>\n");
}

/*
 * The width of s in pixels at font size size, at most: DejaVu Sans's
 * advances (the chart's first font; the others are narrower) rounded up,
 * a whole em for any other character, so that what is laid out by it
 * stays inside the chart.
 */
static double text_width(const char *s, int size)
{
	/* em / 1000 of ' ' to '~' */
	static const short adv[95] = {
		318, 401, 461, 838, 637, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
		637, 637, 637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531,
		1000, 685, 686, 699, 771, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
		604, 787, 695, 635, 611, 732, 685, 989, 686, 611, 685, 390, 337, 390, 838, 500,
		500, 613, 635, 550, 635, 616, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
		635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
	};
	double w = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f)
			w += adv[c - 0x20];
		else if (c >= 0xc0 || c < 0x80)
			w += 1000; /* a character of another script, or a lead byte */
	}
	return w * size / 1000.0;
}

static void svg_begin(struct kifu_buf *out, int height, const char *title, const char *subtitle);

/* svg_begin for a chart of another width than WIDTH. */
static void svg_begin_wide(struct kifu_buf *out, int width, int height, const char *title,
			   const char *subtitle)
{
	kifu_buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			     "viewBox=\"0 0 %d %d\" " FONT ">\n"
			     "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
			width, height, width, height);
	text_at(out, 20, 30, "start", 20, "#222", "bold", title);
	if (subtitle)
		text_at(out, 20, 52, "start", 13, "#555", NULL, subtitle);
}

static void svg_begin(struct kifu_buf *out, int height, const char *title, const char *subtitle)
{
	kifu_buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			     "viewBox=\"0 0 %d %d\" " FONT ">\n"
			     "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
			     "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
			     "<rect width=\"6\" height=\"6\" fill=\"#f7f7f7\"/>"
			     "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b0b0b0\" "
			     "stroke-width=\"2\"/></pattern></defs>\n"
			     "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
			WIDTH, height, WIDTH, height);
	text_at(out, 20, 30, "start", 20, "#222", "bold", title);
	if (subtitle)
		text_at(out, 20, 52, "start", 13, "#555", NULL, subtitle);
}

/* The numeric value of column name in row, NAN when absent or null. */
static double num(const struct kifu_report *rep, size_t row, const char *name)
{
	long col = kifu_report_find_col(rep, name);
	const struct kifu_cell *c;

	if (col < 0)
		return NAN;
	c = kifu_report_cell(rep, row, (size_t)col);
	if (c->type == KIFU_CELL_INT)
		return (double)c->i;
	if (c->type == KIFU_CELL_REAL)
		return c->r;
	return NAN;
}

static const char *text(const struct kifu_report *rep, size_t row, const char *name)
{
	long col = kifu_report_find_col(rep, name);
	const struct kifu_cell *c;

	if (col < 0)
		return "";
	c = kifu_report_cell(rep, row, (size_t)col);
	return c->type == KIFU_CELL_TEXT ? c->text : "";
}

/* A bar segment with its share written inside when there is room. */
static void segment(struct kifu_buf *out, double x, double y, double w, const char *fill,
		    const char *stroke, double share, const char *title)
{
	char label[16];

	if (w <= 0)
		return;
	kifu_buf_printf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
			     "stroke=\"%s\" stroke-width=\"0.6\"><title>",
			x, y, w, BAR_H, fill, stroke);
	xml_text(out, title);
	kifu_buf_puts(out, "</title></rect>\n");
	if (w >= 34) {
		snprintf(label, sizeof(label), "%.0f%%", share * 100);
		text_at(out, x + w / 2, y + BAR_H / 2.0 + 4.5, "middle", 11,
			fill[0] == 'u' ? "#333" : ink_on(fill), NULL, label);
	}
}



/* Vertical grid lines and percentages under a 0..100% bar area. */
static void percent_axis(struct kifu_buf *out, int y0, int y1)
{
	char label[8];
	int k;

	for (k = 0; k <= 4; k++) {
		double x = BAR_X + BAR_W * k / 4.0;

		kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
				     "stroke-width=\"1\"%s/>\n", x, y0 - 4, x, y1,
				k == 2 ? "#888" : "#ddd", k == 2 ? " stroke-dasharray=\"4 3\"" : "");
		snprintf(label, sizeof(label), "%d%%", k * 25);
		text_at(out, x, y1 + 16, "middle", 11, "#555", NULL, label);
	}
}

struct legend {
	double x, y;
};

static void legend_item(struct kifu_buf *out, struct legend *lg, const char *fill, const char *label)
{
	double w = 26 + 7.2 * (double)strlen(label);

	if (lg->x + w > WIDTH - 20) {
		lg->x = 20;
		lg->y += 22;
	}
	kifu_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\" "
			     "stroke=\"#666\" stroke-width=\"0.6\"/>\n", lg->x, lg->y - 11, fill);
	text_at(out, lg->x + 19, lg->y, "start", 12, "#333", NULL, label);
	lg->x += w + 14;
}

/* ---- summary ---- */

static int chart_summary(struct kifu_buf *out, const struct kifu_report *rep)
{
	const char *seen[32];
	const char *seen_fill[32];
	size_t n = kifu_report_nrows(rep), r, nseen = 0, i;
	int height = TOP + (int)n * (ROW_H + 8) + 70;
	struct legend lg;
	char label[160];

	svg_begin(out, height, "Outcomes per game and variant",
		  "share of all games: wins of each side, draws, unfinished");
	percent_axis(out, TOP, TOP + (int)n * (ROW_H + 8) - 8);
	for (r = 0; r < n; r++) {
		const struct kifu_game *g = kifu_game_find(text(rep, r, "game"));
		double games = num(rep, r, "games"), x = BAR_X;
		double y = TOP + (double)r * (ROW_H + 8);
		int s;

		if (!g || !(games > 0))
			continue;
		snprintf(label, sizeof(label), "%s %s", g->name, text(rep, r, "variant"));
		text_at(out, LABEL_W, y + 12, "end", 13, "#222", "bold", label);
		snprintf(label, sizeof(label), "%.0f game%s", games, games == 1 ? "" : "s");
		text_at(out, LABEL_W, y + 27, "end", 11, "#666", NULL, label);
		for (s = 0; s < g->nsides; s++) {
			char col[64], title[128];
			double v;
			const char *fill = side_colour(g->sides[s], s);

			snprintf(col, sizeof(col), "wins_%s", g->sides[s]);
			v = num(rep, r, col);
			if (!(v > 0))
				v = 0;
			snprintf(title, sizeof(title), "%s wins: %.0f of %.0f", g->sides[s], v, games);
			segment(out, x, y + 2, BAR_W * v / games, fill, "#666", v / games, title);
			x += BAR_W * v / games;
			for (i = 0; i < nseen && strcmp(seen[i], g->sides[s]); i++)
				;
			if (i == nseen && nseen < 30) {
				seen_fill[nseen] = fill;
				seen[nseen++] = g->sides[s];
			}
		}
		{
			double d = num(rep, r, "draws"), u = num(rep, r, "unfinished");
			char title[128];

			if (!(d > 0))
				d = 0;
			if (!(u > 0))
				u = 0;
			snprintf(title, sizeof(title), "draws: %.0f of %.0f", d, games);
			segment(out, x, y + 2, BAR_W * d / games, "#8e7cc3", "#666", d / games, title);
			x += BAR_W * d / games;
			snprintf(title, sizeof(title), "unfinished: %.0f of %.0f", u, games);
			segment(out, x, y + 2, BAR_W * u / games, "url(#hatch)", "#888", u / games, title);
		}
		{
			double fm = num(rep, r, "first_mover_score");

			if (isfinite(fm)) {
				snprintf(label, sizeof(label), "first mover %.3f", fm);
				text_at(out, BAR_X + BAR_W + 8, y + 16, "start", 11, "#333", NULL, label);
			}
		}
	}
	lg.x = 20;
	lg.y = TOP + (double)n * (ROW_H + 8) + 40;
	for (i = 0; i < nseen; i++) {
		snprintf(label, sizeof(label), "%s wins", seen[i]);
		legend_item(out, &lg, seen_fill[i], label);
	}
	legend_item(out, &lg, "#8e7cc3", "draw");
	legend_item(out, &lg, "url(#hatch)", "unfinished");
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

/* ---- openings ---- */

/* Rows of the report taken by most games (stable: report order among equals), at most max. */
static size_t top_rows(size_t *idx, const struct kifu_report *rep, const char *key, size_t max,
		       int descending)
{
	size_t n = kifu_report_nrows(rep), i, j, k = 0;

	for (i = 0; i < n; i++) {
		double v = num(rep, i, key);

		if (!isfinite(v))
			continue;
		/* Insertion into the kept list, which stays sorted. */
		for (j = k; j > 0; j--) {
			double w = num(rep, idx[j - 1], key);

			if (descending ? w >= v : w <= v)
				break;
		}
		if (j >= max)
			continue;
		if (k < max)
			k++;
		memmove(idx + j + 1, idx + j, (k - 1 - j) * sizeof(*idx));
		idx[j] = i;
	}
	return k;
}

/* The number of sides of a report's game: its wins_<side> columns. */
static int report_sides(const struct kifu_report *rep)
{
	size_t c;
	int n = 0;

	for (c = 0; c < kifu_report_ncols(rep); c++)
		if (!strncmp(kifu_report_col(rep, c), "wins_", 5))
			n++;
	return n > 0 ? n : 2;
}

/*
 * Openings (the first mover's results per line) and tree (the side to
 * move's results per next move): one bar per row with its interval.
 */
static int chart_openings(struct kifu_buf *out, const struct kifu_report *rep)
{
	size_t idx[MAX_BARS], n, i, total = kifu_report_nrows(rep);
	char sub[200], label[200], title[200], head[200];
	struct legend lg;
	int tree = !strcmp(kifu_report_name(rep), "tree");
	int height, by_position = !tree && kifu_report_find_col(rep, "hash") >= 0;
	const char *who = tree ? "side to move" : "first mover";
	const char *score_col = tree ? "mover_score" : "first_mover_score";

	n = top_rows(idx, rep, "games", MAX_BARS, 1);
	height = TOP + (int)n * OPEN_ROW_H + 100;
	if (n < total)
		snprintf(sub, sizeof(sub), "the %zu %s played most of %zu; bars: shares of the finished "
			 "games: the %s's wins, draws, losses", n,
			 tree ? "moves" : by_position ? "positions" : "lines", total, who);
	else
		snprintf(sub, sizeof(sub), "bars: shares of the finished games: the %s's wins, draws, losses; "
			 "line: its score, 95%% Wilson interval", who);
	if (tree)
		snprintf(head, sizeof(head), "Next moves: results of the side to move (%s)",
			 text(rep, 0, "to_move"));
	else
		snprintf(head, sizeof(head), "%s", by_position
			 ? "Openings by position: first mover's results"
			 : "Openings: first mover's results");
	svg_begin(out, height, head, sub);
	percent_axis(out, TOP, TOP + (int)n * OPEN_ROW_H);
	for (i = 0; i < n; i++) {
		size_t r = idx[i];
		const struct kifu_game *g = tree ? NULL : kifu_game_find(text(rep, r, "game"));
		double y = TOP + (double)i * OPEN_ROW_H, games = num(rep, r, "games");
		double unf = num(rep, r, "unfinished"), draws = num(rep, r, "draws");
		double score = num(rep, r, score_col), lo = num(rep, r, "ci_low");
		double hi = num(rep, r, "ci_high"), fin, w, l;
		int ns = g ? g->nsides : report_sides(rep);

		if (tree)
			snprintf(title, sizeof(title), "%s", text(rep, r, "move"));
		else
			snprintf(title, sizeof(title), "%s %s: %s", text(rep, r, "game"),
				 text(rep, r, "variant"), text(rep, r, "line"));
		kifu_text_clip_chars_(label, sizeof(label), title, 40);
		text_at(out, LABEL_W, y + 12, "end", 12, "#222", NULL, label);
		snprintf(label, sizeof(label), "%.0f game%s", games, games == 1 ? "" : "s");
		text_at(out, LABEL_W, y + 25, "end", 10, "#666", NULL, label);
		fin = games - (isfinite(unf) ? unf : 0);
		if (!(fin > 0) || !isfinite(score)) {
			text_at(out, BAR_X + 6, y + 15, "start", 11, "#888", NULL, "no finished game");
			continue;
		}
		/* Wins from the score: score * finished = wins + draws / sides. */
		w = score * fin - draws / ns;
		if (w < 0)
			w = 0;
		l = fin - w - draws;
		if (l < 0)
			l = 0;
		snprintf(title, sizeof(title), "%s wins: %.0f of %.0f finished", who, w, fin);
		segment(out, BAR_X, y + 2, BAR_W * w / fin, "#4e9a57", "#555", w / fin, title);
		snprintf(title, sizeof(title), "draws: %.0f of %.0f finished", draws, fin);
		segment(out, BAR_X + BAR_W * w / fin, y + 2, BAR_W * draws / fin, "#b9b9b9", "#555",
			draws / fin, title);
		snprintf(title, sizeof(title), "%s losses: %.0f of %.0f finished", who, l, fin);
		segment(out, BAR_X + BAR_W * (w + draws) / fin, y + 2, BAR_W * l / fin, "#d0584f",
			"#555", l / fin, title);
		if (isfinite(lo) && isfinite(hi)) {
			/* Below the bar, on the same scale, so that it hides none of it. */
			double yc = y + 2 + BAR_H + 6, x0 = BAR_X + BAR_W * lo, x1 = BAR_X + BAR_W * hi;

			kifu_buf_printf(out, "<g stroke=\"#111\" stroke-width=\"1.5\"><title>score %.3f, "
					     "95%% interval %.3f to %.3f</title>"
					     "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
					     "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>"
					     "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/></g>\n"
					     "<circle cx=\"%.2f\" cy=\"%.1f\" r=\"4\" fill=\"#fff\" "
					     "stroke=\"#111\" stroke-width=\"2\"/>\n",
					score, lo, hi, x0, yc, x1, yc, x0, yc - 6, x0, yc + 6, x1, yc - 6,
					x1, yc + 6, BAR_X + BAR_W * score, yc);
		}
		snprintf(label, sizeof(label), "%.3f [%.3f, %.3f]", score, lo, hi);
		text_at(out, BAR_X + BAR_W + 8, y + 16, "start", 11, "#333", NULL, label);
	}
	lg.x = 20;
	lg.y = TOP + (double)n * OPEN_ROW_H + 46;
	snprintf(label, sizeof(label), "%s wins", who);
	legend_item(out, &lg, "#4e9a57", label);
	legend_item(out, &lg, "#b9b9b9", "draws");
	snprintf(label, sizeof(label), "%s losses", who);
	legend_item(out, &lg, "#d0584f", label);
	kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#111\" "
			     "stroke-width=\"2\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#fff\" "
			     "stroke=\"#111\" stroke-width=\"2\"/>\n",
			lg.x, lg.y - 4, lg.x + 30, lg.y - 4, lg.x + 15, lg.y - 4);
	snprintf(label, sizeof(label), "%s's score and its 95%% Wilson interval", who);
	text_at(out, lg.x + 38, lg.y, "start", 12, "#333", NULL, label);
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

/* ---- lengths ---- */

#define PANEL_H 150

static int chart_lengths(struct kifu_buf *out, const struct kifu_report *rep)
{
	size_t n = kifu_report_nrows(rep), r, start, end;
	int panels = 0, height;
	char label[200];

	for (r = 0; r < n; r++)
		if (r == 0 || strcmp(text(rep, r, "game"), text(rep, r - 1, "game")) ||
		    strcmp(text(rep, r, "variant"), text(rep, r - 1, "variant")))
			panels++;
	height = TOP + panels * (PANEL_H + 40) + 20;
	svg_begin(out, height, "Game lengths", "games per length in plies, per game and variant; "
		  "dashed line: the median");
	panels = 0;
	for (start = 0; start < n; start = end) {
		double maxc = 0, total = 0, acc = 0, median = 0, pmin, pmax, bin, y0, x0 = 70;
		double plot_w = WIDTH - x0 - 40, *bins;
		long nbins, b;
		size_t k;

		for (end = start; end < n && !strcmp(text(rep, end, "game"), text(rep, start, "game")) &&
				  !strcmp(text(rep, end, "variant"), text(rep, start, "variant")); end++)
			total += num(rep, end, "games");
		pmin = num(rep, start, "plies");
		pmax = num(rep, end - 1, "plies");
		/* At most 100 bars: wide ranges are binned. */
		bin = ceil((pmax - pmin + 1) / 100.0);
		if (bin < 1)
			bin = 1;
		nbins = (long)floor((pmax - pmin) / bin) + 1;
		bins = calloc((size_t)nbins, sizeof(*bins));
		if (!bins)
			return KIFU_ENOMEM;
		for (k = start; k < end; k++) {
			double c = num(rep, k, "games"), p = num(rep, k, "plies");

			b = (long)floor((p - pmin) / bin);
			bins[b] += c;
			/* The median as the report has it: rank (n + 1) / 2, or n / 2 and n / 2 + 1. */
			if (acc < floor((total + 1) / 2) && acc + c >= floor((total + 1) / 2))
				median += fmod(total, 2) ? p : p / 2;
			if (!fmod(total, 2) && acc < total / 2 + 1 && acc + c >= total / 2 + 1)
				median += p / 2;
			acc += c;
		}
		for (b = 0; b < nbins; b++)
			if (bins[b] > maxc)
				maxc = bins[b];
		y0 = TOP + panels * (PANEL_H + 40.0);
		snprintf(label, sizeof(label), "%s %s: %.0f games, %.0f to %.0f plies, median %g%s",
			 text(rep, start, "game"), text(rep, start, "variant"), total, pmin, pmax,
			 median, bin > 1 ? " (bars of several lengths)" : "");
		text_at(out, x0, y0 + 4, "start", 13, "#222", "bold", label);
		kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#444\"/>\n", x0, y0 + PANEL_H, x0 + plot_w, y0 + PANEL_H);
		kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#444\"/>\n", x0, y0 + 14, x0, y0 + PANEL_H);
		snprintf(label, sizeof(label), "%.0f", maxc);
		text_at(out, x0 - 6, y0 + 18, "end", 10, "#555", NULL, label);
		text_at(out, x0 - 6, y0 + PANEL_H, "end", 10, "#555", NULL, "0");
		for (b = 0; b < nbins; b++) {
			double bw = plot_w / nbins, h = maxc > 0 ? (PANEL_H - 16) * bins[b] / maxc : 0;

			if (bins[b] <= 0)
				continue;
			kifu_buf_printf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
					     "fill=\"#4e79a7\"><title>%.0f to %.0f plies: %.0f games"
					     "</title></rect>\n",
					x0 + b * bw + (bw > 3 ? 0.5 : 0), y0 + PANEL_H - h,
					bw > 3 ? bw - 1 : bw, h, pmin + b * bin, pmin + (b + 1) * bin - 1,
					bins[b]);
		}
		/* Ticks: the first and last lengths and a few between. */
		for (b = 0; b <= 5; b++) {
			double p = pmin + (pmax - pmin) * b / 5.0;
			double x = x0 + plot_w * (floor((p - pmin) / bin) + 0.5) / nbins;

			snprintf(label, sizeof(label), "%.0f", b == 0 || b == 5 ? (b ? pmax : pmin) : p);
			text_at(out, x, y0 + PANEL_H + 14, "middle", 10, "#555", NULL, label);
		}
		{
			double x = x0 + plot_w * (floor((median - pmin) / bin) + 0.5) / nbins;

			kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					     "stroke=\"#d62728\" stroke-width=\"1.5\" "
					     "stroke-dasharray=\"5 3\"/>\n",
					x, y0 + 14, x, y0 + PANEL_H);
		}
		free(bins);
		panels++;
	}
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

/* ---- players ---- */

static int chart_players(struct kifu_buf *out, const struct kifu_report *rep)
{
	size_t idx[MAX_BARS], n, i, total = kifu_report_nrows(rep);
	double lo = 1500, hi = 1500, x1500, step;
	char sub[160], label[200];
	int height;

	n = top_rows(idx, rep, "rating", MAX_BARS, 1);
	for (i = 0; i < n; i++) {
		double v = num(rep, idx[i], "rating");

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	/* Room for the figures written past the end of the bars. */
	step = hi - lo > 400 ? 100 : 50;
	lo = floor(lo / step) * step - (lo < 1500 ? step * 2 : 0);
	hi = ceil(hi / step) * step + step;
	if (n < total)
		snprintf(sub, sizeof(sub), "the %zu best rated of %zu players; bars from 1500, "
			 "the mean rating", n, total);
	else
		snprintf(sub, sizeof(sub), "bars from 1500, the mean rating");
	height = TOP + (int)n * 26 + 50;
	svg_begin(out, height, "Player ratings", sub);
	x1500 = BAR_X + BAR_W * (1500 - lo) / (hi - lo);
	for (i = 0; i <= 4; i++) {
		double v = lo + (hi - lo) * (double)i / 4, x = BAR_X + BAR_W * (double)i / 4;

		kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				     "stroke=\"#e2e2e2\"/>\n", x, TOP - 4, x, TOP + (int)n * 26);
		snprintf(label, sizeof(label), "%.0f", v);
		text_at(out, x, TOP + (double)n * 26 + 16, "middle", 11, "#555", NULL, label);
	}
	for (i = 0; i < n; i++) {
		size_t r = idx[i];
		double v = num(rep, r, "rating"), y = TOP + (double)i * 26;
		double x = BAR_X + BAR_W * (v - lo) / (hi - lo), games = num(rep, r, "games");
		double score = num(rep, r, "score");

		kifu_text_clip_chars_(label, sizeof(label), text(rep, r, "player"), 36);
		text_at(out, LABEL_W, y + 14, "end", 12, "#222", NULL, label);
		kifu_buf_printf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"18\" "
				     "fill=\"%s\"/>\n", v >= 1500 ? x1500 : x, y + 1, fabs(x - x1500),
				v >= 1500 ? "#4e79a7" : "#e08a5a");
		snprintf(label, sizeof(label), "%.0f (%.0f game%s, score %.3f)", v, games,
			 games == 1 ? "" : "s", isfinite(score) ? score : 0);
		if (v >= 1500)
			text_at(out, x + 6, y + 14, "start", 11, "#333", NULL, label);
		else
			text_at(out, x1500 + 6, y + 14, "start", 11, "#333", NULL, label);
	}
	kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\" "
			     "stroke-width=\"1.5\"/>\n", x1500, TOP - 6, x1500, TOP + (int)n * 26);
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

/* ---- balance ---- */

#define LEVEL_H 30
/* The longest level name shown whole: the longest a store keeps (kifu_store_level_valid). */
#define LEVEL_CHARS 76
/* Bold text is at most this much wider than the regular advances of text_width. */
#define BOLD 1.15

/* The figures written right of a level's line. */
static void balance_figures(char *label, size_t size, const struct kifu_report *rep, size_t r)
{
	double games = num(rep, r, "games");

	snprintf(label, size, "%.3f [%.3f, %.3f], %.0f game%s", num(rep, r, "first_mover_score"),
		 num(rep, r, "ci_low"), num(rep, r, "ci_high"), games, games == 1 ? "" : "s");
}

/*
 * Balance: one panel per game and variant, one line per level with the
 * first mover's score and its interval on a 0..1 scale, a fair game's
 * score (1 / sides: 0.5, or 0.25 in a four-sided game) dashed. The column
 * of level names and the chart's width grow with the longest name and
 * figures, so that every text is inside the chart.
 */
static int chart_balance(struct kifu_buf *out, const struct kifu_report *rep)
{
	static const char title[] = "Balance: the first mover's score per playing level";
	static const char sub[] = "dot: the first mover's score over finished games; line: its 95% "
				  "Wilson interval; dashed: a fair game's (1 / sides)";
	size_t n = kifu_report_nrows(rep), start, end, r;
	int panels = 0, height, width, k;
	double y, label_w = LABEL_W, bar_x, right = 0, w;
	char label[300];

	for (r = 0; r < n; r++) {
		if (r == 0 || strcmp(text(rep, r, "game"), text(rep, r - 1, "game")) ||
		    strcmp(text(rep, r, "variant"), text(rep, r - 1, "variant"))) {
			panels++;
			snprintf(label, sizeof(label), "%s %s", text(rep, r, "game"),
				 text(rep, r, "variant"));
			w = 20 + BOLD * text_width(label, 14);
			right = w > right ? w : right;
		}
		kifu_text_clip_chars_(label, sizeof(label), text(rep, r, "level"), LEVEL_CHARS);
		w = 20 + text_width(label, 12);
		label_w = w > label_w ? w : label_w;
	}
	bar_x = ceil(label_w) + 10;
	for (r = 0; r < n; r++) {
		if (isfinite(num(rep, r, "first_mover_score")))
			balance_figures(label, sizeof(label), rep, r);
		else
			snprintf(label, sizeof(label), "%s", "");
		w = bar_x + BAR_W + 8 + text_width(label, 11) + 20;
		right = w > right ? w : right;
	}
	w = 20 + BOLD * text_width(title, 20);
	right = w > right ? w : right;
	w = 20 + text_width(sub, 13);
	right = w > right ? w : right;
	width = right > WIDTH ? (int)ceil(right) : WIDTH;
	/* the last panel ends with its axis's figures, 14 pixels under its lines */
	height = TOP + panels * 60 + (int)n * LEVEL_H - 10;
	svg_begin_wide(out, width, height, title, sub);
	y = TOP;
	for (start = 0; start < n; start = end) {
		const struct kifu_game *g = kifu_game_find(text(rep, start, "game"));
		double top, fair = g ? 1.0 / g->nsides : 0.5;

		for (end = start; end < n && !strcmp(text(rep, end, "game"), text(rep, start, "game")) &&
				  !strcmp(text(rep, end, "variant"), text(rep, start, "variant")); end++)
			;
		kifu_buf_puts(out, "<g class=\"panel\" data-game=\"");
		xml_text(out, text(rep, start, "game"));
		kifu_buf_putc(out, ' ');
		xml_text(out, text(rep, start, "variant"));
		kifu_buf_puts(out, "\">\n");
		snprintf(label, sizeof(label), "%s %s", text(rep, start, "game"),
			 text(rep, start, "variant"));
		text_at(out, 20, y + 14, "start", 14, "#222", "bold", label);
		top = y + 24;
		for (k = 0; k <= 4; k++) {
			double x = bar_x + BAR_W * k / 4.0;

			kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					     "y2=\"%.1f\" stroke=\"#ddd\" stroke-width=\"1\"/>\n",
					x, top, x, top + (double)(end - start) * LEVEL_H);
			snprintf(label, sizeof(label), "%.2f", k / 4.0);
			text_at(out, x, top + (double)(end - start) * LEVEL_H + 14, "middle", 10,
				"#555", NULL, label);
		}
		kifu_buf_printf(out, "<line class=\"fair\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				     "y2=\"%.1f\" stroke=\"#888\" stroke-width=\"1\" "
				     "stroke-dasharray=\"4 3\"/>\n", bar_x + BAR_W * fair, top,
				bar_x + BAR_W * fair, top + (double)(end - start) * LEVEL_H);
		for (r = start; r < end; r++) {
			double yc = top + (double)(r - start) * LEVEL_H + LEVEL_H / 2.0;
			double score = num(rep, r, "first_mover_score"), lo = num(rep, r, "ci_low");
			double hi = num(rep, r, "ci_high");

			kifu_buf_puts(out, "<g data-level=\"");
			xml_text(out, text(rep, r, "level"));
			kifu_buf_puts(out, "\"><title>");
			xml_text(out, text(rep, r, "level"));
			kifu_buf_puts(out, "</title>\n");
			kifu_text_clip_chars_(label, sizeof(label), text(rep, r, "level"), LEVEL_CHARS);
			text_at(out, label_w, yc + 4, "end", 12, "#222", NULL, label);
			if (!isfinite(score)) {
				text_at(out, bar_x + 6, yc + 4, "start", 11, "#888", NULL,
					"no finished game");
				kifu_buf_puts(out, "</g>\n");
				continue;
			}
			if (isfinite(lo) && isfinite(hi))
				kifu_buf_printf(out, "<g stroke=\"#111\" stroke-width=\"1.5\">"
						     "<title>score %.3f, 95%% interval %.3f to %.3f"
						     "</title><line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
						     "y2=\"%.1f\"/><line x1=\"%.2f\" y1=\"%.1f\" "
						     "x2=\"%.2f\" y2=\"%.1f\"/><line x1=\"%.2f\" "
						     "y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/></g>\n",
						score, lo, hi, bar_x + BAR_W * lo, yc, bar_x + BAR_W * hi,
						yc, bar_x + BAR_W * lo, yc - 6, bar_x + BAR_W * lo,
						yc + 6, bar_x + BAR_W * hi, yc - 6, bar_x + BAR_W * hi,
						yc + 6);
			kifu_buf_printf(out, "<circle cx=\"%.2f\" cy=\"%.1f\" r=\"5\" "
					     "fill=\"#4e79a7\" stroke=\"#111\" stroke-width=\"1.5\"/>\n",
					bar_x + BAR_W * score, yc);
			balance_figures(label, sizeof(label), rep, r);
			text_at(out, bar_x + BAR_W + 8, yc + 4, "start", 11, "#333", NULL, label);
			kifu_buf_puts(out, "</g>\n");
		}
		kifu_buf_puts(out, "</g>\n");
		y = top + (double)(end - start) * LEVEL_H + 36;
	}
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

/* A report without rows: its title and a line saying so. */
static int chart_empty(struct kifu_buf *out, const char *title)
{
	svg_begin(out, 110, title, NULL);
	text_at(out, 20, 80, "start", 14, "#555", NULL, "no games match");
	kifu_buf_puts(out, "</svg>\n");
	return 0;
}

int kifu_report_svg(struct kifu_buf *out, const struct kifu_report *rep, struct kifu_error *err)
{
	static const struct {
		const char *report, *title;
		int (*chart)(struct kifu_buf *out, const struct kifu_report *rep);
	} charts[] = {
		{ "summary", "Outcomes per game and variant", chart_summary },
		{ "openings", "Openings", chart_openings },
		{ "tree", "Next moves", chart_openings },
		{ "lengths", "Game lengths", chart_lengths },
		{ "players", "Player ratings", chart_players },
		{ "balance", "Balance: the first mover's score per playing level", chart_balance },
	};
	const char *name = kifu_report_name(rep);
	size_t i;
	int ret;

	for (i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		if (!strcmp(name, charts[i].report))
			break;
	if (i == sizeof(charts) / sizeof(charts[0]))
		return kifu_error_set(err, KIFU_ERANGE, "no chart for report '%s'", name);
	if (kifu_report_nrows(rep) == 0)
		ret = chart_empty(out, charts[i].title);
	else
		ret = charts[i].chart(out, rep);
	if (ret == 0 && out->failed)
		ret = KIFU_ENOMEM;
	if (ret < 0)
		kifu_error_set(err, ret, "out of memory");
	return ret;
}
