/*
 * Private to the replay page (lib/render/render_page.c): the review's parts
 * of the page (lib/render/render_review.c) that render_page.c puts in place,
 * the lines' positions (render_lines.c), and
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
#include "render/html.h"

/* render.c: the result as stated (absent: unfinished) and the termination stated or implied (or NULL). */
void kifu_render_result_of_(const struct kifu_record *rec, const char **result, const char **term);
/* render.c: the name of side's player, or NULL. */
const char *kifu_render_player_name_(const struct kifu_record *rec, const char *side);

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
 * What a position of the replay page shows (render_page.c): its picture's
 * lines, and its figures as the script's literal; its children's pictures
 * and figures are written as changes from these.
 */
struct kifu_render_shown_ {
	struct kifu_render_ids_ ids;
	struct kifu_buf fig;
};

/* dst (released first) made a copy of src. 0 or KIFU_ENOMEM. */
int kifu_render_shown_copy_(struct kifu_render_shown_ *dst, const struct kifu_render_shown_ *src);
void kifu_render_shown_release_(struct kifu_render_shown_ *s);

struct kifu_render_memo_;

/*
 * The replay page's positions, written for its script as the walk meets
 * them (render_page.c): each position's picture as splices of its
 * parent's, its figures where they differ from its parent's. A position
 * met again (a game that repeats itself) is not drawn again.
 */
struct kifu_render_page_ {
	const struct kifu_game *g;
	struct kifu_render_pics_ *pics;
	struct kifu_render_memo_ *memo;
	struct kifu_buf diff;   /* "N:[splices],\n" per position */
	struct kifu_buf fig;    /* "N:[[label,value],...],\n" */
	/* Private to render_page.c: room reused from position to position. */
	struct kifu_render_shown_ spare;
	struct kifu_buf pic;
};

/*
 * Position number pos: state, reached by last (NULL: the start), its
 * picture svg (NULL: drawn here). shown holds its parent's on entry and its
 * own on return. 0 or KIFU_ENOMEM.
 */
int kifu_render_page_position_(struct kifu_render_page_ *pg, size_t pos, const void *state,
			       const kifu_move *last, const char *svg,
			       struct kifu_render_shown_ *shown);

/*
 * Format 2's lines on the replay page (render_lines.c): one node per move
 * of a line, a position of the page numbered base + its index.
 */
struct kifu_render_node_ {
	const struct kifu_turn *turn;
	const char *text;              /* canonical (the replay's) */
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
	struct kifu_render_page_ *page; /* where each node's position is written */
	/* Private to render_lines.c: where the walk stands, and each level's position (reused). */
	size_t next_ply, xi, last_of_line;
	long prev_of_line;
	int level;
	struct {
		void *state;
		struct kifu_render_shown_ shown;
	} at[KIFU_RECORD_MAX_LEVELS + 1];
};

/*
 * Adds the nodes of main-line ply's lines, before being the position
 * before that ply and shown what it shows; call it for every ply in order
 * (1 to nplies). Returns 0, KIFU_ENOMEM, or KIFU_EINVALID for a replay that
 * is not complete.
 */
int kifu_render_lines_add_(struct kifu_render_lines_ *rl, const struct kifu_record *rec,
			   const struct kifu_replay *rp, size_t ply, const void *before,
			   const struct kifu_render_shown_ *shown);
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
