/*
 * Internal drawing helpers for the engines' render_svg (not a public
 * header): the standalone <svg> frame, a palette per side name, hex-hex
 * boards (pointy-top cells, row letters and cell numbers, row a at the top)
 * and square boards (files and ranks, rank 1 at the bottom), the group that
 * carries a cell's data-cell/data-content attributes, a few piece shapes,
 * and the caption (side to move and figures) written below the board.
 * Engines draw their own pieces with these; nothing here knows a game.
 */
#ifndef KIFU_GAMES_SVG_H
#define KIFU_GAMES_SVG_H

#include "kifu/buf.h"
#include "kifu/game.h"

#include "games/board.h"

/* The colours of one side. */
struct kifu_svg_colour_ {
	const char *fill;    /* the piece */
	const char *stroke;  /* its outline */
	const char *ink;     /* text written on the piece */
	const char *tint;    /* a light shade, for cells the side owns */
};

/* The colours of a side by name ("white", "red"...); unknown names get grey. */
const struct kifu_svg_colour_ *kifu_svg_colour_(const char *side);

/* Appends s with the five XML special characters escaped. */
int kifu_svg_escape_(struct kifu_buf *out, const char *s);

/* ---- the caption below the board ---- */

#define KIFU_SVG_CAPTION_LINES 6
#define KIFU_SVG_CAPTION_LEN 160

/* The text under the board: who is to move (or how the game ended), then the figures. */
struct kifu_svg_caption {
	int n;
	char line[KIFU_SVG_CAPTION_LINES][KIFU_SVG_CAPTION_LEN];
};

/* Line height of the caption, in picture units. */
#define KIFU_SVG_CAPTION_STEP 20.0

/*
 * Fills *out from the game's own side_to_move, outcome and figures, the
 * figures wrapped to lines that fit in `width` picture units.
 */
void kifu_svg_caption_make_(struct kifu_svg_caption *out, const struct kifu_game *g,
			   const void *state, double width);

/* The height the caption needs. */
double kifu_svg_caption_height_(const struct kifu_svg_caption *c);

/* Appends the caption with its first line's top at y, centred on x. */
int kifu_svg_caption_put_(struct kifu_buf *out, const struct kifu_svg_caption *c, double x,
			 double y);

/* ---- the frame ---- */

/*
 * Opens the picture: <svg> with xmlns, viewBox and size, the game's name in
 * data-game, a plain background. kifu_svg_end_ closes it.
 */
int kifu_svg_begin_(struct kifu_buf *out, const struct kifu_game *g, double width,
		   double height);
int kifu_svg_end_(struct kifu_buf *out);

/*
 * Opens the group that shows one cell's content:
 * <g class="piece" data-cell="NAME" data-content="CODE" transform=...>
 * translated to the cell's centre (x, y), so that shapes inside are drawn
 * around (0, 0). kifu_svg_cell_close_ closes it.
 */
int kifu_svg_cell_open_(struct kifu_buf *out, const char *cell, const char *content, double x,
		       double y);
int kifu_svg_cell_close_(struct kifu_buf *out);

/* ---- hex-hex boards ---- */

struct kifu_svg_hex {
	const struct kifu_hex *hex;
	double size;          /* circumradius of a cell */
	double ox, oy;        /* centre of cell (q, r) = (0, 0) in the picture */
	double width, height; /* of the board with its labels */
};

/* Lays out board h with cells of circumradius size, its labels included, from (0, 0). */
void kifu_svg_hex_layout_(struct kifu_svg_hex *l, const struct kifu_hex *h, double size);

/* Centre of a cell. */
void kifu_svg_hex_centre_(const struct kifu_svg_hex *l, int cell, double *x, double *y);

/*
 * Appends the empty board: every cell a pointy-top hexagon filled with
 * fill(cell) (NULL: one colour for all), and each row's letter at both ends
 * of the row.
 */
int kifu_svg_hex_board_(struct kifu_buf *out, const struct kifu_svg_hex *l,
		       const char *(*fill)(int cell));

/*
 * Appends every cell's number, small, near its bottom corner. Drawn after
 * the pieces, so that a tinted cell never hides its number.
 */
int kifu_svg_hex_numbers_(struct kifu_buf *out, const struct kifu_svg_hex *l);

/* Appends a hexagon around (0, 0), scale times a cell, with the given fill (a group's tint). */
int kifu_svg_hex_shape_(struct kifu_buf *out, const struct kifu_svg_hex *l, double scale,
		       const char *fill);

/*
 * The cells the last move touched (cells[0..n-1]), highlighted: one group
 * <g class="last-move"> holding a shape with data-last="NAME" per cell, to
 * be drawn after the board and before the pieces. Nothing when n is 0.
 */
int kifu_svg_hex_marks_(struct kifu_buf *out, const struct kifu_svg_hex *l, const int *cells,
		       int n);

/* ---- square boards ---- */

struct kifu_svg_sq {
	int files, ranks;
	double size;          /* side of a cell */
	double ox, oy;        /* top-left corner of the grid */
	double width, height; /* of the board with its labels */
};

/* Lays out a files x ranks board of cells of side size, labels included, from (0, 0). */
void kifu_svg_sq_layout_(struct kifu_svg_sq *l, int files, int ranks, double size);

/* Centre of cell rank * files + file. */
void kifu_svg_sq_centre_(const struct kifu_svg_sq *l, int cell, double *x, double *y);

/*
 * Appends the empty board: cells in two shades (a1 dark, as on a
 * chessboard), files lettered below and above, ranks numbered on both sides.
 */
int kifu_svg_sq_board_(struct kifu_buf *out, const struct kifu_svg_sq *l);

/* The last move's cells on a square board, as kifu_svg_hex_marks_. */
int kifu_svg_sq_marks_(struct kifu_buf *out, const struct kifu_svg_sq *l, const int *cells, int n);

/* ---- shapes, drawn around (0, 0) in a side's colours ---- */

/* A stack of n discs (n >= 1; at most `shown` drawn), the top one labelled text (may be NULL). */
int kifu_svg_disc_stack_(struct kifu_buf *out, const struct kifu_svg_colour_ *c, double r, int n,
			int shown, const char *text);

/* A small flag on a pole (territory). */
int kifu_svg_flag_(struct kifu_buf *out, const struct kifu_svg_colour_ *c, double size);

#endif
