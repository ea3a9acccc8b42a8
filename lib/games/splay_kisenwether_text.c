/*
 * splay-kisenwether's positions as people see them: the text diagram (a
 * stack's stones bottom to top), the SVG picture (stacks drawn from the
 * side, the captures under the board), and the cells and tokens pattern
 * search reads. The rules are splay_kisenwether.c's.
 */
#include <stdio.h>
#include <string.h>

#include "games/board.h"
#include "games/splay_kisenwether.h"
#include "games/svg.h"

/*
 * One column of 8 characters a cell: the stones bottom to top ('w' white,
 * 'b' black; the last letter is the top stone, which decides who moves the
 * stack), '.' for an empty cell.
 */
static void render_files(struct kifu_buf *out)
{
	int f;

	kifu_buf_puts(out, "   ");
	for (f = 0; f < W - 1; f++)
		kifu_buf_printf(out, " %-7c", 'a' + f);
	kifu_buf_printf(out, " %c\n", 'a' + f);
}

int kifu_kis_render_text_(struct kifu_buf *out, const void *state)
{
	const struct kis_state *st = state;
	int r, f, i;

	render_files(out);
	for (r = W - 1; r >= 0; r--) {
		kifu_buf_printf(out, "%2d ", r + 1);
		for (f = 0; f < W; f++) {
			unsigned v = st->cell[r * W + f];
			char col[9];
			int h = height(v);

			if (v == EMPTY) {
				strcpy(col, ".");
			} else {
				for (i = 0; i < h; i++)
					col[i] = (v >> i & 1) ? 'b' : 'w';
				col[h] = '\0';
			}
			kifu_buf_printf(out, " %-7s", col);
		}
		kifu_buf_printf(out, " %d\n", r + 1);
	}
	render_files(out);
	return kifu_buf_printf(out, "to move: %s; captures_white: %d, captures_black: %d\n",
			       st->side == WHITE ? "white" : "black", st->cap[WHITE],
			       st->cap[BLACK]);
}

/* The stones of a stack bottom to top, as in render_text ("wwb"). */
static void stack_code(unsigned v, char *col)
{
	int h = height(v), i;

	for (i = 0; i < h; i++)
		col[i] = (v >> i & 1) ? 'b' : 'w';
	col[h] = '\0';
}

/* The cells for pattern search: a1..h8, a stack's token its stones bottom to top. */
int kifu_kis_ncells_(const void *state)
{
	(void)state;
	return NCELLS;
}

void kifu_kis_cell_name_(const void *state, int cell, char *buf)
{
	(void)state;
	kifu_sq_cell_name_(W, cell, buf);
}

int kifu_kis_cell_token_(const void *state, int cell, char *buf)
{
	unsigned v = ((const struct kis_state *)state)->cell[cell];

	if (v == EMPTY) {
		strcpy(buf, ".");
		return -1;
	}
	stack_code(v, buf);
	return buf[strlen(buf) - 1] == 'b' ? BLACK : WHITE;
}

/* A stack of 1 to 7 stones (a cell holds 7 at most), each w or b; its top
 * stone says whose it is. */
int kifu_kis_token_side_(const void *state, const char *text)
{
	size_t n = strlen(text);

	(void)state;
	if (n < 1 || n > 7 || strspn(text, "wb") != n)
		return -1;
	return text[n - 1] == 'b' ? BLACK : WHITE;
}


void kifu_kis_side_cells_(const void *state, uint64_t *out)
{
	const struct kis_state *s = state;
	int c;

	memset(out, 0, sizeof(*out) * 2 * KIFU_CELL_WORDS);
	for (c = 0; c < NCELLS; c++) {
		unsigned v = s->cell[c];

		if (v != EMPTY)
			out[(v >> (height(v) - 1) & 1) * KIFU_CELL_WORDS] |= UINT64_C(1) << c;
	}
}

const char *kifu_kis_tokens_help_(const void *state)
{
	(void)state;
	return "stacks written bottom to top in w and b (w, ww, wb, bbw, ...)";
}

/* A row of n small stones of colour c from (x, y) rightwards: the captures. */
static void svg_tally(struct kifu_buf *out, const char *label, const char *colour, int n,
		      double x, double y)
{
	const struct kifu_svg_colour_ *c = kifu_svg_colour_(colour);
	int i;

	kifu_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x - 8, y + 5);
	kifu_svg_escape_(out, label);
	kifu_buf_printf(out, ": %d</text>", n);
	for (i = 0; i < n; i++)
		kifu_buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"%s\" "
				"stroke=\"%s\" stroke-width=\"1.2\"/>", x + 8 + i * 18, y, c->fill,
				c->stroke);
	kifu_buf_putc(out, '\n');
}

/*
 * Each stack is drawn from the side: one flat disc per stone, bottom stone
 * lowest, so both its height and its order show; the top stone (who moves
 * it) is the uppermost disc, and the height is written beside it. The
 * captured stones are laid out in two rows under the board.
 */
int kifu_kis_render_(struct kifu_buf *out, const void *state, const int *marks, int nmarks)
{
	const struct kis_state *st = state;
	struct kifu_svg_caption cap;
	struct kifu_svg_sq l;
	double trays;
	int c, i;

	kifu_svg_sq_layout_(&l, W, W, 60);
	trays = 2 * 24 + 6;
	kifu_svg_caption_make_(&cap, &kifu_game_splay_kisenwether_, st, l.width);
	kifu_svg_begin_(out, &kifu_game_splay_kisenwether_, l.width,
		       l.height + trays + kifu_svg_caption_height_(&cap));
	kifu_svg_sq_board_(out, &l);
	kifu_svg_sq_marks_(out, &l, marks, nmarks);
	for (c = 0; c < NCELLS; c++) {
		unsigned v = st->cell[c];
		char name[4], code[9];
		int h = height(v);
		double x, y;

		if (v == EMPTY)
			continue;
		kifu_sq_cell_name_(W, c, name);
		stack_code(v, code);
		kifu_svg_sq_centre_(&l, c, &x, &y);
		kifu_svg_cell_open_(out, name, code, x, y);
		kifu_buf_puts(out, "<g transform=\"translate(-4 0)\" stroke-width=\"1.2\">");
		for (i = 0; i < h; i++) {
			const struct kifu_svg_colour_ *col = kifu_svg_colour_(code[i] == 'b' ? "black" : "white");
			double top = 10 - i * 5.0;

			/* a coin seen from the side: its rim, then its face */
			kifu_buf_printf(out, "<path d=\"M-19 %.1f a19 6.5 0 0 0 38 0 v5 "
					"a19 6.5 0 0 1 -38 0 z\" fill=\"%s\" stroke=\"%s\"/>"
					"<ellipse cy=\"%.1f\" rx=\"19\" ry=\"6.5\" fill=\"%s\" "
					"stroke=\"%s\"/>", top, col->fill, col->stroke, top, col->fill,
					col->stroke);
		}
		kifu_buf_puts(out, "</g>");
		kifu_buf_printf(out, "<text x=\"24\" y=\"%.1f\" font-size=\"13\" "
				"font-weight=\"bold\" text-anchor=\"middle\" fill=\"#4a3f2c\">%d</text>",
				10 - (h - 1) * 5.0 + 4.5, h);
		kifu_svg_cell_close_(out);
	}
	kifu_buf_printf(out, "<g class=\"captures\" font-size=\"13\" fill=\"#4a3f2c\">\n");
	svg_tally(out, "captured by white", "black", st->cap[WHITE], l.width * 0.42, l.height + 12);
	svg_tally(out, "captured by black", "white", st->cap[BLACK], l.width * 0.42, l.height + 36);
	kifu_buf_puts(out, "</g>\n");
	kifu_svg_caption_put_(out, &cap, l.width / 2, l.height + trays);
	return kifu_svg_end_(out);
}

int kifu_kis_render_svg_(struct kifu_buf *out, const void *state)
{
	return kifu_kis_render_(out, state, NULL, 0);
}
