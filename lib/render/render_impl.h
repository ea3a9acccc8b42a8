/*
 * Private to the replay page (lib/render/render.c): the review's parts of
 * the page (lib/render/render_review.c) that render.c puts in place, and
 * the moves drawn on a board picture (lib/render/site_board.c: the review's
 * engine moves here, the explorer's links on kifu-serve's pages).
 */
#ifndef KIFU_RENDER_IMPL_H
#define KIFU_RENDER_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"

/* The review's CSS rules (appended to the page's style sheet). */
extern const char kifu_render_review_style_[];

/*
 * The chart of each side's expected score per ply, with its heading and
 * legend: an inline SVG whose columns (data-ply) open that ply.
 */
void kifu_render_review_chart_(struct kifu_buf *b, const struct kifu_record *rec,
			       const struct kifu_replay *rp, const struct kifu_render_review *rv);

/* The mark of ply (1-based) in the move list, with the engine's move and both scores; nothing when unmarked. */
void kifu_render_review_mark_(struct kifu_buf *b, const struct kifu_render_review *rv, size_t ply);

/*
 * Format 2's lines on the replay page (render_lines.c): one node per move
 * of a line, a position of the page numbered base + its index.
 */
struct kifu_render_node_ {
	const struct kifu_turn *turn;
	char text[KIFU_MOVE_TEXT_MAX]; /* canonical */
	char *svg;                     /* the position after it */
	struct kifu_figure fig[KIFU_FIGURES_MAX];
	int nfig;
	int mover;                     /* the side that played it */
	int first;                     /* the first move of its line */
	size_t ply;                    /* counted from the game's start, as PGN numbers it */
	size_t main;                   /* the main-line ply whose lines hold it */
	long prev, next;               /* positions before and after it in its line (-1: none) */
};

struct kifu_render_lines_ {
	struct kifu_render_node_ *v;
	size_t n, cap;
	size_t base;                   /* nplies + 1: the first node's position number */
	/* Private to render_lines.c: where the walk stands. */
	size_t next_ply, xi, last_of_line;
	long prev_of_line;
};

/*
 * Adds the nodes of main-line ply's lines, before being the position
 * before that ply; call it for every ply in order (1 to nplies). Returns
 * 0, KIFU_ENOMEM, or KIFU_EINVALID for a replay that is not complete.
 */
int kifu_render_lines_add_(struct kifu_render_lines_ *rl, const struct kifu_record *rec,
			   const struct kifu_replay *rp, size_t ply, const void *before);
void kifu_render_lines_release_(struct kifu_render_lines_ *rl);
/* A nag beside its move. */
void kifu_render_nag_(struct kifu_buf *b, const char *nag);
/* The lines of main-line turn t in the move list, its nodes from *k on. */
void kifu_render_lines_list_(struct kifu_buf *b, const struct kifu_render_lines_ *rl,
			     const struct kifu_game *g, const struct kifu_turn *t, size_t *k);
/* MAIN (the last main-line ply) and NODE (each node's prev, next, main ply and ply) for the script. */
void kifu_render_lines_script_(struct kifu_buf *b, const struct kifu_render_lines_ *rl);

/* site_board.c: where a move goes on its board's picture (kifu_site_move_geo_). */
struct kifu_site_move_geo {
	int cells;                   /* 0: none (pass), 1: a cell it places on, 2: from -> to */
	char from[KIFU_CELL_NAME_MAX], to[KIFU_CELL_NAME_MAX];
	double x0, y0, x1, y1;       /* the centres of from and to, in picture units */
	char shape[240];             /* the to cell's outline, an unclosed "<polygon ..." or "<rect ..." */
};

/* The cells of move m from state (game g), from its picture's last-move marks. 0 or KIFU_ENOMEM. */
int kifu_site_move_geo_(struct kifu_site_move_geo *out, const struct kifu_game *g,
			const void *state, kifu_move m);
/* The arrow heads the moves use, once per picture (an SVG <defs>). */
void kifu_site_board_defs_(struct kifu_buf *b);
/*
 * A move on the picture: a disc on its cell or an arrow, weight 0..1 its
 * size, of class cls ("mv", "best"), with title as its tooltip; a link to
 * href (already escaped for an attribute; NULL: no link).
 */
void kifu_site_board_move_(struct kifu_buf *b, const struct kifu_site_move_geo *geo,
			   const char *href, const char *title, const char *cls, double weight);
/* more inserted before the end of the picture svg (its "</svg>"). 0 or KIFU_ENOMEM. */
int kifu_site_svg_append_(struct kifu_buf *svg, const struct kifu_buf *more);

#endif
