/*
 * Drawing helpers shared by the engines' render_svg: the picture frame, a
 * palette that gives each side name the same colours in every game, the two
 * board shapes with their coordinates, the data-cell/data-content group that
 * lets tests compare a picture with its position, a few piece shapes and the
 * caption under the board. Everything is written with presentation
 * attributes rather than CSS, so that a picture looks the same on its own,
 * inlined in a page, or converted by a tool that ignores style sheets.
 */
#include <stdio.h>
#include <string.h>

#include "games/svg.h"

#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define BACKGROUND "#faf7f0"
#define LINE "#6b5a3e"
#define LABEL "#4a3f2c"
#define HEX_FILL "#e8d9b5"
#define SQ_LIGHT "#eee0c2"
#define SQ_DARK "#cdb48a"

/* Space around a board for its coordinates. */
#define MARGIN 34.0

struct named_colour {
	const char *side;
	struct kifu_svg_colour_ c;
};

/* One entry per side name used by any game: the same name, the same colours. */
static const struct named_colour palette[] = {
	{ "white", { "#f7f5ee", "#2b2b2b", "#1a1a1a", "#ffffff" } },
	{ "black", { "#2a2a2a", "#000000", "#f4f4f4", "#8d8d8d" } },
	{ "red", { "#cf3b2e", "#6e1710", "#ffffff", "#f2b4ac" } },
	{ "yellow", { "#f2c416", "#7a5d00", "#1a1a1a", "#f8e59a" } },
	{ "blue", { "#2f63c4", "#14306a", "#ffffff", "#b3c8ef" } },
	{ "green", { "#2f9a4b", "#134a22", "#ffffff", "#b2dfbd" } },
};

static const struct kifu_svg_colour_ grey = { "#9a9a9a", "#3a3a3a", "#000000", "#dddddd" };

const struct kifu_svg_colour_ *kifu_svg_colour_(const char *side)
{
	size_t i;

	for (i = 0; side && i < sizeof(palette) / sizeof(palette[0]); i++)
		if (!strcmp(palette[i].side, side))
			return &palette[i].c;
	return &grey;
}

int kifu_svg_escape_(struct kifu_buf *out, const char *s)
{
	int ret = 0;

	for (; *s && !ret; s++) {
		switch (*s) {
		case '&': ret = kifu_buf_puts(out, "&amp;"); break;
		case '<': ret = kifu_buf_puts(out, "&lt;"); break;
		case '>': ret = kifu_buf_puts(out, "&gt;"); break;
		case '"': ret = kifu_buf_puts(out, "&quot;"); break;
		case '\'': ret = kifu_buf_puts(out, "&#39;"); break;
		default: ret = kifu_buf_putc(out, *s); break;
		}
	}
	return ret;
}

/* ---- caption ---- */

#define CAPTION_FONT 14.0
/* A generous average advance of the caption font, so that wrapped lines never overflow. */
#define CAPTION_CHAR (CAPTION_FONT * 0.58)

/* kifu/game.h: here, beside the caption that shows it, as game.c draws through svg.c. */
void kifu_game_figure_label(char *out, size_t n, const struct kifu_game *g, const char *key)
{
	size_t len = strlen(key), i, k;
	int side;

	if (!n)
		return;
	snprintf(out, n, "%s", key);
	for (side = 0; g && side < g->nsides; side++) {
		size_t sl = strlen(g->sides[side]);

		if (len > sl + 1 && key[len - sl - 1] == '_' && !strcmp(key + len - sl, g->sides[side])) {
			snprintf(out, n, "%s %.*s", g->sides[side], (int)(len - sl - 1), key);
			break;
		}
	}
	for (i = 0, k = strlen(out); i < k; i++)
		if (out[i] == '_')
			out[i] = ' ';
}

/* Appends text to c's last line, or starts a new one when it would pass max characters. */
static void caption_add(struct kifu_svg_caption *c, const char *text, size_t max)
{
	char *line = c->line[c->n - 1];
	size_t len = strlen(line), add = strlen(text);

	if (len && len + 2 + add > max && c->n < KIFU_SVG_CAPTION_LINES) {
		c->n++;
		line = c->line[c->n - 1];
		len = 0;
	}
	snprintf(line + len, KIFU_SVG_CAPTION_LEN - len, "%s%s", len ? ", " : "", text);
}

void kifu_svg_caption_make_(struct kifu_svg_caption *out, const struct kifu_game *g,
			   const void *state, double width)
{
	struct kifu_figure f[KIFU_FIGURES_MAX];
	struct kifu_outcome oc;
	size_t max = (size_t)(width / CAPTION_CHAR);
	int n, i;

	if (max < 20)
		max = 20;
	if (max > KIFU_SVG_CAPTION_LEN - 1)
		max = KIFU_SVG_CAPTION_LEN - 1;
	memset(out, 0, sizeof(*out));
	g->outcome(state, &oc);
	if (oc.status == KIFU_WIN)
		snprintf(out->line[0], KIFU_SVG_CAPTION_LEN, "game over: %s wins",
			 g->sides[oc.winner]);
	else if (oc.status == KIFU_DRAW)
		snprintf(out->line[0], KIFU_SVG_CAPTION_LEN, "game over: draw");
	else
		snprintf(out->line[0], KIFU_SVG_CAPTION_LEN, "to move: %s",
			 g->sides[g->side_to_move(state)]);
	out->n = 2;
	n = g->figures(state, f);
	for (i = 0; i < n; i++) {
		char item[KIFU_SVG_CAPTION_LEN], label[sizeof(f[i].key) + 8];

		kifu_game_figure_label(label, sizeof(label), g, f[i].key);
		if (f[i].type == KIFU_FIG_TEXT)
			snprintf(item, sizeof(item), "%s %s", label, f[i].text[0] ? f[i].text : "-");
		else
			snprintf(item, sizeof(item), "%s %ld", label, f[i].num);
		caption_add(out, item, max);
	}
	if (!out->line[out->n - 1][0])
		out->n--;
}

double kifu_svg_caption_height_(const struct kifu_svg_caption *c)
{
	return c->n * KIFU_SVG_CAPTION_STEP + 16.0;
}

int kifu_svg_caption_put_(struct kifu_buf *out, const struct kifu_svg_caption *c, double x,
			 double y)
{
	int i;

	kifu_buf_printf(out, "<g class=\"caption\" font-size=\"%.0f\" fill=\"%s\" "
			"text-anchor=\"middle\">\n", CAPTION_FONT, LABEL);
	for (i = 0; i < c->n; i++) {
		kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", x,
				y + (i + 1) * KIFU_SVG_CAPTION_STEP + 1.0,
				i == 0 ? " font-weight=\"bold\" class=\"status\"" : " class=\"figures\"");
		kifu_svg_escape_(out, c->line[i]);
		kifu_buf_puts(out, "</text>\n");
	}
	return kifu_buf_puts(out, "</g>\n");
}

/* ---- frame ---- */

int kifu_svg_begin_(struct kifu_buf *out, const struct kifu_game *g, double width,
		   double height)
{
	kifu_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kifu-board\" "
			"data-game=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
			"font-family=\"%s\">\n", g->name, width, height, width, height, FONT);
	kifu_buf_puts(out, "<title>");
	kifu_svg_escape_(out, g->title);
	kifu_buf_puts(out, "</title>\n");
	return kifu_buf_printf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
			       BACKGROUND);
}

int kifu_svg_end_(struct kifu_buf *out)
{
	return kifu_buf_puts(out, "</svg>\n");
}

int kifu_svg_cell_open_(struct kifu_buf *out, const char *cell, const char *content, double x,
		       double y)
{
	kifu_buf_puts(out, "<g class=\"piece\" data-cell=\"");
	kifu_svg_escape_(out, cell);
	kifu_buf_puts(out, "\" data-content=\"");
	kifu_svg_escape_(out, content);
	return kifu_buf_printf(out, "\" transform=\"translate(%.1f %.1f)\">", x, y);
}

int kifu_svg_cell_close_(struct kifu_buf *out)
{
	return kifu_buf_puts(out, "</g>\n");
}

/* ---- hex-hex boards ---- */

#define SQRT3 1.7320508075688772

void kifu_svg_hex_layout_(struct kifu_svg_hex *l, const struct kifu_hex *h, double size)
{
	double w = SQRT3 * size;

	l->hex = h;
	l->size = size;
	/* The longest row (the middle one) holds 2R + 1 cells. */
	l->width = (2 * h->R + 1) * w + 2 * MARGIN;
	l->height = (2 * h->R) * 1.5 * size + 2 * size + 2 * MARGIN * 0.5;
	l->ox = l->width / 2;
	l->oy = l->height / 2;
}

void kifu_svg_hex_centre_(const struct kifu_svg_hex *l, int cell, double *x, double *y)
{
	const struct kifu_hex *h = l->hex;

	*x = l->ox + SQRT3 * l->size * (h->q[cell] + h->r[cell] / 2.0);
	*y = l->oy + 1.5 * l->size * h->r[cell];
}

/* Corners of a pointy-top hexagon of circumradius 1, clockwise from the top. */
static const double hex_corner[6][2] = {
	{ 0, -1 }, { SQRT3 / 2, -0.5 }, { SQRT3 / 2, 0.5 },
	{ 0, 1 }, { -SQRT3 / 2, 0.5 }, { -SQRT3 / 2, -0.5 }
};

static int hex_points(struct kifu_buf *out, double x, double y, double s)
{
	int i, ret = 0;

	for (i = 0; i < 6; i++)
		ret = kifu_buf_printf(out, "%s%.1f,%.1f", i ? " " : "", x + s * hex_corner[i][0],
				      y + s * hex_corner[i][1]);
	return ret;
}

int kifu_svg_hex_board_(struct kifu_buf *out, const struct kifu_svg_hex *l,
		       const char *(*fill)(int cell))
{
	const struct kifu_hex *h = l->hex;
	double w = SQRT3 * l->size;
	int c, row;

	kifu_buf_printf(out, "<g class=\"board\" stroke=\"%s\" stroke-width=\"1.2\">\n", LINE);
	for (c = 0; c < h->ncells; c++) {
		double x, y;

		kifu_svg_hex_centre_(l, c, &x, &y);
		kifu_buf_puts(out, "<polygon points=\"");
		hex_points(out, x, y, l->size);
		kifu_buf_printf(out, "\" fill=\"%s\"/>\n", fill ? fill(c) : HEX_FILL);
	}
	kifu_buf_puts(out, "</g>\n");
	kifu_buf_printf(out, "<g class=\"rows\" font-size=\"%.1f\" font-weight=\"bold\" "
			"fill=\"%s\" text-anchor=\"middle\">\n", l->size * 0.6, LABEL);
	for (row = 0; row < h->nrows; row++) {
		double x0, x1, y;
		int first = h->rowstart[row], last = first + h->rowlen[row] - 1;

		kifu_svg_hex_centre_(l, first, &x0, &y);
		kifu_svg_hex_centre_(l, last, &x1, &y);
		kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\">%c</text>"
				"<text x=\"%.1f\" y=\"%.1f\">%c</text>\n", x0 - w * 0.85,
				y + l->size * 0.2, 'a' + row, x1 + w * 0.85, y + l->size * 0.2,
				'a' + row);
	}
	return kifu_buf_puts(out, "</g>\n");
}

int kifu_svg_hex_numbers_(struct kifu_buf *out, const struct kifu_svg_hex *l)
{
	const struct kifu_hex *h = l->hex;
	int c;

	kifu_buf_printf(out, "<g class=\"numbers\" font-size=\"%.1f\" fill=\"%s\" "
			"fill-opacity=\"0.8\" text-anchor=\"middle\">\n", l->size * 0.34, LABEL);
	for (c = 0; c < h->ncells; c++) {
		double x, y;

		kifu_svg_hex_centre_(l, c, &x, &y);
		kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", x,
				y + l->size * 0.82, h->num[c]);
	}
	return kifu_buf_puts(out, "</g>\n");
}

int kifu_svg_hex_shape_(struct kifu_buf *out, const struct kifu_svg_hex *l, double scale,
		       const char *fill)
{
	kifu_buf_puts(out, "<polygon points=\"");
	hex_points(out, 0, 0, l->size * scale);
	return kifu_buf_printf(out, "\" fill=\"%s\" stroke=\"none\"/>", fill);
}

/*
 * The last move's cells: a translucent highlight over each (as chess and Go
 * viewers mark the last move), drawn after the board and before the pieces,
 * in one group so that a picture without it is the same picture otherwise.
 */
#define MARK_FILL "#9bc700"
#define MARK_OPACITY "0.45"
#define MARK_STROKE "stroke=\"#6b8a00\" stroke-width=\"3\""

/* The marks of either kind of board: hl or sl is NULL. */
static int put_marks(struct kifu_buf *out, const struct kifu_svg_hex *hl,
		     const struct kifu_svg_sq *sl, const int *cells, int n)
{
	char name[8];
	double x, y;
	int i;

	if (n <= 0)
		return 0;
	kifu_buf_puts(out, "<g class=\"last-move\">\n");
	for (i = 0; i < n; i++) {
		if (hl) {
			kifu_hex_cell_name_(hl->hex, cells[i], name);
			kifu_svg_hex_centre_(hl, cells[i], &x, &y);
			kifu_buf_printf(out, "<polygon data-last=\"%s\" points=\"", name);
			hex_points(out, x, y, hl->size * 0.94);
			kifu_buf_putc(out, '"');
		} else {
			kifu_sq_cell_name_(sl->files, cells[i], name);
			kifu_svg_sq_centre_(sl, cells[i], &x, &y);
			/* Inset by half the stroke, so the outline stays inside the cell. */
			kifu_buf_printf(out, "<rect data-last=\"%s\" x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.1f\"", name, x - sl->size / 2 + 1.5,
					y - sl->size / 2 + 1.5, sl->size - 3, sl->size - 3);
		}
		kifu_buf_puts(out, " fill=\"" MARK_FILL "\" fill-opacity=\"" MARK_OPACITY "\" "
			      MARK_STROKE "/>\n");
	}
	return kifu_buf_puts(out, "</g>\n");
}

int kifu_svg_hex_marks_(struct kifu_buf *out, const struct kifu_svg_hex *l, const int *cells,
		       int n)
{
	return put_marks(out, l, NULL, cells, n);
}

/* ---- square boards ---- */

void kifu_svg_sq_layout_(struct kifu_svg_sq *l, int files, int ranks, double size)
{
	l->files = files;
	l->ranks = ranks;
	l->size = size;
	l->ox = MARGIN;
	l->oy = MARGIN * 0.8;
	l->width = files * size + 2 * MARGIN;
	l->height = ranks * size + 2 * MARGIN * 0.8;
}

void kifu_svg_sq_centre_(const struct kifu_svg_sq *l, int cell, double *x, double *y)
{
	int file = cell % l->files, rank = cell / l->files;

	*x = l->ox + (file + 0.5) * l->size;
	/* rank 1 at the bottom */
	*y = l->oy + (l->ranks - 1 - rank + 0.5) * l->size;
}

int kifu_svg_sq_board_(struct kifu_buf *out, const struct kifu_svg_sq *l)
{
	double s = l->size, gw = l->files * s, gh = l->ranks * s;
	int f, r;

	kifu_buf_puts(out, "<g class=\"board\">\n");
	for (r = 0; r < l->ranks; r++)
		for (f = 0; f < l->files; f++)
			kifu_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
					"height=\"%.1f\" fill=\"%s\"/>\n", l->ox + f * s,
					l->oy + (l->ranks - 1 - r) * s, s, s,
					(f + r) % 2 ? SQ_LIGHT : SQ_DARK);
	kifu_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", l->ox, l->oy, gw, gh,
			LINE);
	kifu_buf_puts(out, "</g>\n");
	kifu_buf_printf(out, "<g class=\"coordinates\" font-size=\"%.1f\" font-weight=\"bold\" "
			"fill=\"%s\" text-anchor=\"middle\">\n", s * 0.3 < 13 ? 13.0 : s * 0.3, LABEL);
	for (f = 0; f < l->files; f++) {
		double x = l->ox + (f + 0.5) * s;

		kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\">%c</text>"
				"<text x=\"%.1f\" y=\"%.1f\">%c</text>\n", x, l->oy - 8, 'a' + f, x,
				l->oy + gh + 20, 'a' + f);
	}
	for (r = 0; r < l->ranks; r++) {
		double y = l->oy + (l->ranks - 1 - r + 0.5) * s + 5;

		kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\">%d</text>"
				"<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", l->ox - MARGIN / 2, y,
				r + 1, l->ox + gw + MARGIN / 2, y, r + 1);
	}
	return kifu_buf_puts(out, "</g>\n");
}

/* ---- shapes ---- */

int kifu_svg_disc_stack_(struct kifu_buf *out, const struct kifu_svg_colour_ *c, double r, int n,
			int shown, const char *text)
{
	double step = r * 0.16;
	int i, k = n < shown ? n : shown;

	/* Lower discs peek out below the top one, one rim per checker. */
	kifu_buf_printf(out, "<g fill=\"%s\" stroke=\"%s\" stroke-width=\"1.3\">", c->fill,
			c->stroke);
	for (i = 0; i < k; i++)
		kifu_buf_printf(out, "<circle cy=\"%.1f\" r=\"%.1f\"/>",
				(k - 1 - i) * step - (k - 1) * step / 2, r);
	if (text) {
		double top = -(k - 1) * step / 2;

		kifu_buf_printf(out, "<text y=\"%.1f\" font-size=\"%.1f\" font-weight=\"bold\" "
				"text-anchor=\"middle\" fill=\"%s\" stroke=\"none\">", top + r * 0.36,
				r * (strlen(text) > 2 ? 0.8 : 1.0), c->ink);
		kifu_svg_escape_(out, text);
		kifu_buf_puts(out, "</text>");
	}
	return kifu_buf_puts(out, "</g>");
}

int kifu_svg_flag_(struct kifu_buf *out, const struct kifu_svg_colour_ *c, double size)
{
	double s = size;

	return kifu_buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			       "stroke=\"#4a3f2c\" stroke-width=\"%.1f\" stroke-linecap=\"round\"/>"
			       "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\" "
			       "stroke=\"%s\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
			       -0.3 * s, 0.45 * s, -0.3 * s, -0.5 * s, s * 0.08,
			       -0.3 * s, -0.5 * s, 0.45 * s, -0.27 * s, -0.3 * s, -0.04 * s,
			       c->fill, c->stroke);
}

int kifu_svg_sq_marks_(struct kifu_buf *out, const struct kifu_svg_sq *l, const int *cells, int n)
{
	return put_marks(out, NULL, l, cells, n);
}
