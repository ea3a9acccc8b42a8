/*
 * Internal header of the Splinter family (splinter, splinter-quad): the
 * board core both games share (pieces by cell, per-side and per-type counts,
 * occupancy bitboard, incremental hash), pushing a line, splitting the
 * pieces into groups and keeping the largest (with the mover's /CELL choice
 * on ties), the move encoding and its text. Each game keeps its own rules
 * (no return, endings, eliminations, turn order) in its own file.
 */
#ifndef KIFU_SPLINTER_COMMON_H
#define KIFU_SPLINTER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"

#define SPL_MAX_FILES 10
#define SPL_MAX_CELLS 100
#define SPL_MAX_SIDES 4
#define SPL_MAX_TYPES 4
/*
 * Suffixes the parser reads before giving up; a move has at most 4 (see
 * splinter_quad.c), extra ones are refused by the rules.
 */
#define SPL_TEXT_MAX_SUFFIXES 8

/* A set of cells: bit (cell & 63) of word (cell >> 6). */
struct spl_bb {
	uint64_t w[2];
};

static inline int spl_bb_has(const struct spl_bb *b, int cell)
{
	return (int)((b->w[cell >> 6] >> (cell & 63)) & 1);
}

static inline void spl_bb_set(struct spl_bb *b, int cell)
{
	b->w[cell >> 6] |= UINT64_C(1) << (cell & 63);
}

static inline void spl_bb_clear(struct spl_bb *b, int cell)
{
	b->w[cell >> 6] &= ~(UINT64_C(1) << (cell & 63));
}

static inline int spl_bb_empty(const struct spl_bb *b)
{
	return !(b->w[0] | b->w[1]);
}

/* Bits set in x (without relying on a popcount instruction being enabled). */
static inline int spl_popcount64(uint64_t x)
{
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline int spl_bb_count(const struct spl_bb *b)
{
	return spl_popcount64(b->w[0]) + spl_popcount64(b->w[1]);
}

/* Lowest cell of a non-empty set. */
static inline int spl_bb_first(const struct spl_bb *b)
{
	return b->w[0] ? __builtin_ctzll(b->w[0]) : 64 + __builtin_ctzll(b->w[1]);
}

static inline int spl_bb_equal(const struct spl_bb *a, const struct spl_bb *b)
{
	return a->w[0] == b->w[0] && a->w[1] == b->w[1];
}

/* Board geometry, built once per size. */
struct spl_geom {
	int width, height, ncells;
	int8_t step[SPL_MAX_CELLS][8];       /* neighbour by KIFU_SQ_* direction, -1: off */
	struct spl_bb bit[SPL_MAX_CELLS];
	struct spl_bb nb[SPL_MAX_CELLS];     /* the up to 8 neighbours */
	struct spl_bb file[SPL_MAX_FILES];
	struct spl_bb not_first, not_last;   /* the cells off the first file, off the last */
	int nsym;                            /* square symmetries the board has: 8 square, else 4 */
	int8_t sym[8][SPL_MAX_CELLS];        /* image of each cell by symmetry k < nsym */
};

/* The width x height board (10 x 9 or 10 x 10). */
const struct spl_geom *spl_geom_get(int width, int height);

/* The direction opposite to each KIFU_SQ_* direction. */
extern const int spl_opposite[8];

/* A piece: 0 for an empty cell, else 1 + side * 4 + type. */
#define SPL_CODE(side, type) (1 + (side) * 4 + (type))
#define SPL_SIDE(code) (((code) - 1) >> 2)
#define SPL_TYPE(code) (((code) - 1) & 3)

/* Zobrist indices at and above this one are free for the games' own keys. */
#define SPL_KEY_EXTRA 2000

/* The board part of a position; embedded at the start of each game's state. */
struct spl_core {
	uint64_t hash;
	struct spl_bb occ;
	uint8_t cell[SPL_MAX_CELLS];
	uint8_t count[SPL_MAX_SIDES][SPL_MAX_TYPES];
	uint8_t total[SPL_MAX_SIDES];
};

/*
 * The functions below that change a core keep its hash up to date with the
 * game's Zobrist salt; salt 0 skips the hash, for scratch boards that are
 * only counted.
 */

/* Puts a piece on an empty cell (set-up). */
void spl_put(struct spl_core *c, uint64_t salt, int cell, int code);

/* The hash of the pieces alone, from scratch. */
uint64_t spl_board_hash(const struct spl_geom *g, const struct spl_core *c, uint64_t salt);

/*
 * spl_board_hash of the core mapped by each square symmetry k < g->nsym,
 * into out[k], in one pass over the pieces.
 */
void spl_board_hash_symmetries(uint64_t *out, const struct spl_geom *g, const struct spl_core *c,
			       uint64_t salt);

/*
 * The line a slide from `from` towards dir moves: *line gets the cells of the
 * mover and every piece in front of it; returns the first cell after the
 * line (where its front piece lands), or -1 when the front piece is pushed
 * off the board.
 */
static inline int spl_line(const struct spl_geom *g, const struct spl_bb *occ, int from,
			   int dir, struct spl_bb *line)
{
	int c = from;

	*line = g->bit[from];
	for (;;) {
		c = g->step[c][dir];
		if (c < 0 || !spl_bb_has(occ, c))
			return c;
		line->w[0] |= g->bit[c].w[0];
		line->w[1] |= g->bit[c].w[1];
	}
}

/*
 * Plays the slide and its pushes (no splinter). *moved gets the cells now
 * holding the pieces that moved and stayed on the board. Returns the code of
 * the piece pushed off the board, or 0.
 */
int spl_push(const struct spl_geom *g, struct spl_core *c, uint64_t salt, int from, int dir,
	     struct spl_bb *moved);

/* One slide, with a look-ahead at the groups it leaves (before any removal). */
struct spl_slide {
	int from, dir;
	int after;            /* the cell the line's front lands on, -1 when pushed off */
	struct spl_bb line;   /* the cells of the moving pieces, before the move */
	int groups;           /* groups after the move */
	int ties;             /* groups tied for largest after the move */
	struct spl_bb keep;   /* the largest group, when groups > 1 and ties == 1 */
};

/*
 * The look-ahead of the slide from `from` towards dir (its destination on
 * the board) in a position whose pieces occ form one group, as every
 * position reached by play does (the start position is one group, and each
 * splinter keeps one): the same answer spl_generate() gives that slide.
 */
void spl_slide_ahead(const struct spl_geom *g, const struct spl_bb *occ, int from, int dir,
		     struct spl_slide *sl);

/*
 * Called for each slide of the mover's pieces (destination on the board):
 * returns the number of moves it gives, written to out when out != NULL.
 */
typedef size_t (*spl_slide_fn)(const struct spl_geom *g, const void *state,
			       const struct spl_slide *sl, kifu_move *out);

/*
 * Lists (moves != NULL) or counts the moves of side's pieces, one call of fn
 * per slide; when no slide gives a move, the one move is pass.
 */
size_t spl_generate(const struct spl_geom *g, const struct spl_core *c, int side,
		    spl_slide_fn fn, const void *state, kifu_move *moves);

/* The code on cell after slide sl's pushes (before any removal). */
static inline int spl_code_after(const struct spl_geom *g, const struct spl_core *c,
				 const struct spl_slide *sl, int cell)
{
	if (cell == sl->from)
		return 0;
	if (cell == sl->after || spl_bb_has(&sl->line, cell))
		return c->cell[g->step[cell][spl_opposite[sl->dir]]];
	return c->cell[cell];
}

/*
 * The groups tied for largest among the pieces of occ, in canonical order
 * (by their canonical cell); returns their number (0 on an empty board).
 * *ngroups (may be NULL) gets the number of groups.
 */
int spl_tied(const struct spl_geom *g, const struct spl_bb *occ, struct spl_bb *tied,
	     int *ngroups);

/* Whether the pieces of occ form at most one group. */
int spl_connected(const struct spl_geom *g, const struct spl_bb *occ);

/* The canonical cell of a group: lowest file, then lowest rank. */
int spl_canon_cell(const struct spl_geom *g, const struct spl_bb *grp);

/* Removes every piece outside keep. */
void spl_keep(const struct spl_geom *g, struct spl_core *c, uint64_t salt,
	      const struct spl_bb *keep);

/* Removes every piece of the sides in the bit mask sides. */
void spl_remove_sides(struct spl_core *c, uint64_t salt, unsigned sides);

/*
 * Move encoding: bits 0-6 the mover's cell, 7-9 the direction, 10-12 the
 * number of /CELL suffixes, then 7 bits for each suffix's canonical cell, in
 * the order the ties arise. pass is a value of its own.
 */
#define SPL_PASS (UINT64_C(1) << 63)

static inline kifu_move spl_move(int from, int dir)
{
	return (kifu_move)from | (kifu_move)dir << 7;
}

static inline int spl_move_from(kifu_move m)
{
	return (int)(m & 127);
}

static inline int spl_move_dir(kifu_move m)
{
	return (int)((m >> 7) & 7);
}

static inline int spl_move_nsuf(kifu_move m)
{
	return (int)((m >> 10) & 7);
}

static inline int spl_move_suf(kifu_move m, int i)
{
	return (int)((m >> (13 + 7 * i)) & 127);
}

static inline kifu_move spl_move_add_suf(kifu_move m, int cell)
{
	int n = spl_move_nsuf(m);

	return (m & ~((kifu_move)7 << 10)) | (kifu_move)(n + 1) << 10 |
	       (kifu_move)cell << (13 + 7 * n);
}

/*
 * One splinter while applying move m: when a tie arises keeps the group of
 * the move's suffix number *used and advances *used. Returns the number of
 * groups tied for largest before the removal (0 on an empty board).
 */
int spl_apply_splinter(const struct spl_geom *g, struct spl_core *c, uint64_t salt, kifu_move m,
		       int *used);

/*
 * The move's own splinter while applying move m, on c (the board once
 * pushed), with sl the slide's spl_slide_ahead() from the position before
 * it: no split, or the one largest group kept, or on a tie as
 * spl_apply_splinter(), whose return value it gives (1 without a tie).
 */
int spl_apply_slide(const struct spl_geom *g, const struct spl_slide *sl, struct spl_core *c,
		    uint64_t salt, kifu_move m, int *used);

/*
 * Symmetries: *dst = the pieces of src with every cell mapped by square
 * symmetry k (kifu_sq_sym_cell; counts kept). The hash is left for the game
 * to compute, since it covers the game's own state too.
 */
void spl_map_core(const struct spl_geom *g, struct spl_core *dst, const struct spl_core *src,
		  int k);

/* A set of cells mapped by square symmetry k. */
struct spl_bb spl_map_bb(const struct spl_geom *g, const struct spl_bb *src, int k);

/*
 * Move m mapped by square symmetry k into the move of game played in
 * `mapped` (the position it was legal in, mapped by k): the mover's cell and
 * direction mapped; /CELL suffixes mapped, then made canonical again by the
 * game's own parser, which accepts any cell of a tied group.
 */
kifu_move spl_map_move(const struct spl_geom *g, const struct kifu_game *game,
		       const void *mapped, kifu_move m, int k);

/* Writes m ("c4-d5/c3", "pass") into buf (KIFU_MOVE_TEXT_MAX bytes). */
void spl_format(const struct spl_geom *g, kifu_move m, char *buf);

/* A move as written, split into its parts. */
struct spl_text {
	char trimmed[KIFU_MOVE_TEXT_MAX * 2]; /* as written, for messages */
	int pass;
	int from, to, dir;
	int nsuf;
	int suf[SPL_TEXT_MAX_SUFFIXES];
};

/* Reads the text of a move; parse errors (and a slide that is not one square) are reported. */
int spl_parse_text(const struct spl_geom *g, const char *text, struct spl_text *t,
		   struct kifu_error *err);

/* Fills err with "illegal move 'TEXT': WHY" and returns KIFU_EILLEGAL. */
int spl_illegal(struct kifu_error *err, const struct spl_text *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The start of every game's parse_move: reads the text, checks that the game
 * is not over, that pass comes only without a legal move (count(state) says)
 * and that the mover owns the piece, then plays the push on *after (no
 * hash; skipped when after is NULL), a copy of c, and sets *m to the move
 * without suffixes. Returns 1 for a legal pass (*m set), 0 to go on with
 * the splinter, or an error.
 */
int spl_parse_begin(const struct spl_geom *g, const struct spl_core *c, int side, int over,
		    size_t (*count)(const void *), const void *state, const char *text,
		    struct spl_text *t, struct spl_core *after, kifu_move *m,
		    struct kifu_error *err);

/*
 * One splinter while parsing: on a tie, the next written suffix (number
 * *used) must name a cell of a tied group; that group is kept and its
 * canonical cell added to *m. Returns 0 or an error.
 */
int spl_parse_splinter(const struct spl_geom *g, struct spl_core *c, uint64_t salt,
		       const struct spl_text *t, int *used, kifu_move *m, struct kifu_error *err);

/*
 * The move's own splinter while parsing, on *after (the board once pushed),
 * with sl the slide's spl_slide_ahead() from the position before it: no
 * split, or the one largest group kept (no hash), or on a tie as
 * spl_parse_splinter(). Returns 0 or an error.
 */
int spl_parse_slide(const struct spl_geom *g, const struct spl_slide *sl, struct spl_core *after,
		    const struct spl_text *t, int *used, kifu_move *m, struct kifu_error *err);

/* Refuses suffixes left over once the move is resolved. */
int spl_parse_finish(const struct spl_geom *g, const struct spl_text *t, int used,
		     struct kifu_error *err);

/*
 * Appends the board, top rank first: each piece as the first letter of its
 * side's name (upper case) and its type letter, '.' for an empty cell.
 */
int spl_render_board(const struct spl_geom *g, const struct spl_core *c,
		     const char *const *sides, const char *types, struct kifu_buf *out);

/*
 * Appends the picture of the board (render_svg): each piece a shape by its
 * type letter in types ("krbp": crown, castle, diagonal cross, disc;
 * "sxo": square, upright cross, disc) in its side's colours, with the
 * data-content code of spl_render_board. When noreturn is not NULL, its
 * pieces get a small arrow pointing the way they may not go back (back_dir,
 * a KIFU_SQ_* direction). The caption comes from game's figures. last (NULL:
 * none) is the move that led here: the cells it left and reached are marked.
 */
int spl_render_svg(const struct spl_geom *g, const struct spl_core *c,
		   const struct kifu_game *game, const void *state, const char *types,
		   const struct spl_bb *noreturn, int back_dir, const kifu_move *last,
		   struct kifu_buf *out);

/* Appends "KEY VALUE" for each figure, separated by ", ". */
int spl_render_figures(const struct kifu_figure *f, int n, struct kifu_buf *out);

/* Sets an integer figure. */
void spl_figure_int(struct kifu_figure *f, const char *key, const char *side, long num);

#endif
