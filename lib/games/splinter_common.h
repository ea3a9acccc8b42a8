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
struct kifu_splinter_bb_ {
	uint64_t w[2];
};

static inline int kifu_splinter_bb_has_(const struct kifu_splinter_bb_ *b, int cell)
{
	return (int)((b->w[cell >> 6] >> (cell & 63)) & 1);
}

static inline void kifu_splinter_bb_set_(struct kifu_splinter_bb_ *b, int cell)
{
	b->w[cell >> 6] |= UINT64_C(1) << (cell & 63);
}

static inline void kifu_splinter_bb_clear_(struct kifu_splinter_bb_ *b, int cell)
{
	b->w[cell >> 6] &= ~(UINT64_C(1) << (cell & 63));
}

static inline int kifu_splinter_bb_empty_(const struct kifu_splinter_bb_ *b)
{
	return !(b->w[0] | b->w[1]);
}

/* Bits set in x (without relying on a popcount instruction being enabled). */
static inline int kifu_splinter_popcount64_(uint64_t x)
{
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline int kifu_splinter_bb_count_(const struct kifu_splinter_bb_ *b)
{
	return kifu_splinter_popcount64_(b->w[0]) + kifu_splinter_popcount64_(b->w[1]);
}

/* Lowest cell of a non-empty set. */
static inline int kifu_splinter_bb_first_(const struct kifu_splinter_bb_ *b)
{
	return b->w[0] ? __builtin_ctzll(b->w[0]) : 64 + __builtin_ctzll(b->w[1]);
}

static inline int kifu_splinter_bb_equal_(const struct kifu_splinter_bb_ *a,
					  const struct kifu_splinter_bb_ *b)
{
	return a->w[0] == b->w[0] && a->w[1] == b->w[1];
}

/* Board geometry, built once per size. */
struct kifu_splinter_geom_ {
	int width, height, ncells;
	int8_t step[SPL_MAX_CELLS][8];       /* neighbour by KIFU_SQ_* direction, -1: off */
	struct kifu_splinter_bb_ bit[SPL_MAX_CELLS];
	struct kifu_splinter_bb_ nb[SPL_MAX_CELLS];     /* the up to 8 neighbours */
	struct kifu_splinter_bb_ file[SPL_MAX_FILES];
	struct kifu_splinter_bb_ not_first; /* the cells off the first file */
	struct kifu_splinter_bb_ not_last;  /* the cells off the last */
	int nsym;                            /* square symmetries the board has: 8 square, else 4 */
	int8_t sym[8][SPL_MAX_CELLS];        /* image of each cell by symmetry k < nsym */
};

/* The width x height board (10 x 9 or 10 x 10). */
const struct kifu_splinter_geom_ *kifu_splinter_geom_get_(int width, int height);

/* The direction opposite to each KIFU_SQ_* direction. */
extern const int kifu_splinter_opposite_[8];

/* A piece: 0 for an empty cell, else 1 + side * 4 + type. */
#define SPL_CODE(side, type) (1 + (side) * 4 + (type))
#define SPL_SIDE(code) (((code) - 1) >> 2)
#define SPL_TYPE(code) (((code) - 1) & 3)

/* Zobrist indices at and above this one are free for the games' own keys. */
#define SPL_KEY_EXTRA 2000

/* The board part of a position; embedded at the start of each game's state. */
struct kifu_splinter_core_ {
	uint64_t hash;
	struct kifu_splinter_bb_ occ;
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
void kifu_splinter_put_(struct kifu_splinter_core_ *c, uint64_t salt, int cell, int code);

/* The hash of the pieces alone, from scratch. */
uint64_t kifu_splinter_board_hash_(const struct kifu_splinter_geom_ *g,
				   const struct kifu_splinter_core_ *c, uint64_t salt);

/*
 * kifu_splinter_board_hash_ of the core mapped by each square symmetry k < g->nsym,
 * into out[k], in one pass over the pieces.
 */
void kifu_splinter_board_hash_symmetries_(uint64_t *out, const struct kifu_splinter_geom_ *g,
					  const struct kifu_splinter_core_ *c, uint64_t salt);

/*
 * The line a slide from `from` towards dir moves: *line gets the cells of the
 * mover and every piece in front of it; returns the first cell after the
 * line (where its front piece lands), or -1 when the front piece is pushed
 * off the board.
 */
static inline int kifu_splinter_line_(const struct kifu_splinter_geom_ *g,
				      const struct kifu_splinter_bb_ *occ, int from, int dir,
				      struct kifu_splinter_bb_ *line)
{
	int c = from;

	*line = g->bit[from];
	for (;;) {
		c = g->step[c][dir];
		if (c < 0 || !kifu_splinter_bb_has_(occ, c))
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
int kifu_splinter_push_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
			uint64_t salt, int from, int dir, struct kifu_splinter_bb_ *moved);

/* One slide, with a look-ahead at the groups it leaves (before any removal). */
struct kifu_splinter_slide_ {
	int from, dir;
	int after;            /* the cell the line's front lands on, -1 when pushed off */
	struct kifu_splinter_bb_ line;   /* the cells of the moving pieces, before the move */
	int groups;           /* groups after the move */
	int ties;             /* groups tied for largest after the move */
	struct kifu_splinter_bb_ keep;   /* the largest group, when groups > 1 and ties == 1 */
};

/*
 * The look-ahead of the slide from `from` towards dir (its destination on
 * the board) in a position whose pieces occ form one group, as every
 * position reached by play does (the start position is one group, and each
 * splinter keeps one): the same answer kifu_splinter_generate_() gives that slide.
 */
void kifu_splinter_slide_ahead_(const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_bb_ *occ, int from, int dir,
				struct kifu_splinter_slide_ *sl);

/*
 * Called for each slide of the mover's pieces (destination on the board):
 * returns the number of moves it gives, written to out when out != NULL.
 */
typedef size_t (*kifu_splinter_slide_fn_)(const struct kifu_splinter_geom_ *g, const void *state,
					  const struct kifu_splinter_slide_ *sl, kifu_move *out);

/*
 * Lists (moves != NULL) or counts the moves of side's pieces, one call of fn
 * per slide; when no slide gives a move, the one move is pass.
 */
size_t kifu_splinter_generate_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_core_ *c, int side,
			       kifu_splinter_slide_fn_ fn, const void *state, kifu_move *moves);

/* The code on cell after slide sl's pushes (before any removal). */
static inline int kifu_splinter_code_after_(const struct kifu_splinter_geom_ *g,
					    const struct kifu_splinter_core_ *c,
					    const struct kifu_splinter_slide_ *sl, int cell)
{
	if (cell == sl->from)
		return 0;
	if (cell == sl->after || kifu_splinter_bb_has_(&sl->line, cell))
		return c->cell[g->step[cell][kifu_splinter_opposite_[sl->dir]]];
	return c->cell[cell];
}

/*
 * The groups tied for largest among the pieces of occ, in canonical order
 * (by their canonical cell); returns their number (0 on an empty board).
 * *ngroups (may be NULL) gets the number of groups.
 */
int kifu_splinter_tied_(const struct kifu_splinter_geom_ *g, const struct kifu_splinter_bb_ *occ,
			struct kifu_splinter_bb_ *tied, int *ngroups);

/* Whether the pieces of occ form at most one group. */
int kifu_splinter_connected_(const struct kifu_splinter_geom_ *g,
			     const struct kifu_splinter_bb_ *occ);

/* The canonical cell of a group: lowest file, then lowest rank. */
int kifu_splinter_canon_cell_(const struct kifu_splinter_geom_ *g,
			      const struct kifu_splinter_bb_ *grp);

/* Removes every piece outside keep. */
void kifu_splinter_keep_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
			 uint64_t salt, const struct kifu_splinter_bb_ *keep);

/* Removes every piece of the sides in the bit mask sides. */
void kifu_splinter_remove_sides_(struct kifu_splinter_core_ *c, uint64_t salt, unsigned sides);

/*
 * Move encoding: bits 0-6 the mover's cell, 7-9 the direction, 10-12 the
 * number of /CELL suffixes, then 7 bits for each suffix's canonical cell, in
 * the order the ties arise. pass is a value of its own.
 */
#define SPL_PASS (UINT64_C(1) << 63)

static inline kifu_move kifu_splinter_move_(int from, int dir)
{
	return (kifu_move)from | (kifu_move)dir << 7;
}

static inline int kifu_splinter_move_from_(kifu_move m)
{
	return (int)(m & 127);
}

static inline int kifu_splinter_move_dir_(kifu_move m)
{
	return (int)((m >> 7) & 7);
}

static inline int kifu_splinter_move_nsuf_(kifu_move m)
{
	return (int)((m >> 10) & 7);
}

static inline int kifu_splinter_move_suf_(kifu_move m, int i)
{
	return (int)((m >> (13 + 7 * i)) & 127);
}

static inline kifu_move kifu_splinter_move_add_suf_(kifu_move m, int cell)
{
	int n = kifu_splinter_move_nsuf_(m);

	return (m & ~((kifu_move)7 << 10)) | (kifu_move)(n + 1) << 10 |
	       (kifu_move)cell << (13 + 7 * n);
}

/*
 * One splinter while applying move m: when a tie arises keeps the group of
 * the move's suffix number *used and advances *used. Returns the number of
 * groups tied for largest before the removal (0 on an empty board).
 */
int kifu_splinter_apply_splinter_(const struct kifu_splinter_geom_ *g,
				  struct kifu_splinter_core_ *c, uint64_t salt, kifu_move m,
				  int *used);

/*
 * The move's own splinter while applying move m, on c (the board once
 * pushed), with sl the slide's kifu_splinter_slide_ahead_() from the position before
 * it: no split, or the one largest group kept, or on a tie as
 * kifu_splinter_apply_splinter_(), whose return value it gives (1 without a tie).
 */
int kifu_splinter_apply_slide_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_slide_ *sl, struct kifu_splinter_core_ *c,
			       uint64_t salt, kifu_move m, int *used);

/*
 * Symmetries: *dst = the pieces of src with every cell mapped by square
 * symmetry k (kifu_sq_sym_cell_; counts kept). The hash is left for the game
 * to compute, since it covers the game's own state too.
 */
void kifu_splinter_map_core_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *dst,
			     const struct kifu_splinter_core_ *src, int k);

/* A set of cells mapped by square symmetry k. */
struct kifu_splinter_bb_ kifu_splinter_map_bb_(const struct kifu_splinter_geom_ *g,
					       const struct kifu_splinter_bb_ *src, int k);

/*
 * Move m mapped by square symmetry k into the move of game played in
 * `mapped` (the position it was legal in, mapped by k): the mover's cell and
 * direction mapped; /CELL suffixes mapped, then made canonical again by the
 * game's own parser, which accepts any cell of a tied group.
 */
kifu_move kifu_splinter_map_move_(const struct kifu_splinter_geom_ *g, const struct kifu_game *game,
				  const void *mapped, kifu_move m, int k);

/* Writes m ("c4-d5/c3", "pass") into buf (KIFU_MOVE_TEXT_MAX bytes). */
void kifu_splinter_format_(const struct kifu_splinter_geom_ *g, kifu_move m, char *buf);

/* A move as written, split into its parts. */
struct kifu_splinter_text_ {
	char trimmed[KIFU_MOVE_TEXT_MAX * 2]; /* as written, for messages */
	int pass;
	int from, to, dir;
	int nsuf;
	int suf[SPL_TEXT_MAX_SUFFIXES];
};

/* Reads the text of a move; parse errors (and a slide that is not one square) are reported. */
int kifu_splinter_parse_text_(const struct kifu_splinter_geom_ *g, const char *text,
			      struct kifu_splinter_text_ *t, struct kifu_error *err);

/* Fills err with "illegal move 'TEXT': WHY" and returns KIFU_EILLEGAL. */
int kifu_splinter_illegal_(struct kifu_error *err, const struct kifu_splinter_text_ *t,
			   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The start of every game's parse_move: reads the text, checks that the game
 * is not over, that pass comes only without a legal move (count(state) says)
 * and that the mover owns the piece, then plays the push on *after (no
 * hash; skipped when after is NULL), a copy of c, and sets *m to the move
 * without suffixes. Returns 1 for a legal pass (*m set), 0 to go on with
 * the splinter, or an error.
 */
int kifu_splinter_parse_begin_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_core_ *c, int side, int over,
			       size_t (*count)(const void *), const void *state, const char *text,
			       struct kifu_splinter_text_ *t, struct kifu_splinter_core_ *after,
			       kifu_move *m, struct kifu_error *err);

/*
 * One splinter while parsing: on a tie, the next written suffix (number
 * *used) must name a cell of a tied group; that group is kept and its
 * canonical cell added to *m. Returns 0 or an error.
 */
int kifu_splinter_parse_splinter_(const struct kifu_splinter_geom_ *g,
				  struct kifu_splinter_core_ *c, uint64_t salt,
				  const struct kifu_splinter_text_ *t, int *used, kifu_move *m,
				  struct kifu_error *err);

/*
 * The move's own splinter while parsing, on *after (the board once pushed),
 * with sl the slide's kifu_splinter_slide_ahead_() from the position before it: no
 * split, or the one largest group kept (no hash), or on a tie as
 * kifu_splinter_parse_splinter_(). Returns 0 or an error.
 */
int kifu_splinter_parse_slide_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_slide_ *sl,
			       struct kifu_splinter_core_ *after,
			       const struct kifu_splinter_text_ *t, int *used, kifu_move *m,
			       struct kifu_error *err);

/* Refuses suffixes left over once the move is resolved. */
int kifu_splinter_parse_finish_(const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_text_ *t, int used,
				struct kifu_error *err);

/*
 * Appends the board, top rank first: each piece as the first letter of its
 * side's name (upper case) and its type letter, '.' for an empty cell.
 */
int kifu_splinter_render_board_(struct kifu_buf *out, const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_core_ *c, const char *const *sides,
				const char *types);

/*
 * Appends the picture of the board (render_svg): each piece a shape by its
 * type letter in types ("krbp": crown, castle, diagonal cross, disc;
 * "sxo": square, upright cross, disc) in its side's colours, with the
 * data-content code of kifu_splinter_render_board_. When noreturn is not NULL, its
 * pieces get a small arrow pointing the way they may not go back (back_dir,
 * a KIFU_SQ_* direction). The caption comes from game's figures. last (NULL:
 * none) is the move that led here: the cells it left and reached are marked.
 */
int kifu_splinter_render_svg_(struct kifu_buf *out, const struct kifu_splinter_geom_ *g,
			      const struct kifu_splinter_core_ *c, const struct kifu_game *game,
			      const void *state, const char *types,
			      const struct kifu_splinter_bb_ *noreturn, int back_dir,
			      const kifu_move *last);

/*
 * The evaluation's features both Splinter games share (games/eval.h), per
 * side: pieces, types it has none of, types down to one piece and to two,
 * its pieces on the board's edge, and, for the sides other than the mover
 * (side to move), its pieces the mover can push off the board at once (a
 * mover's piece stands in the unbroken line behind them) and those of them
 * that are the last of their type, and whether such a push would leave it
 * missing `lose_at` types (the count at which the side is out). Counts
 * only, so every square symmetry keeps them. Written to f[side * nfeatures
 * + SPLF_*] for the nsides sides, the first ntypes piece types.
 */
enum {
	SPLF_PIECES, SPLF_MISSING, SPLF_ONE, SPLF_TWO, SPLF_EDGE, SPLF_THREAT, SPLF_THREAT_LONE,
	SPLF_DOOMED, SPLF_COMMON
};

void kifu_splinter_features_(const struct kifu_splinter_geom_ *g,
			     const struct kifu_splinter_core_ *c, int nsides, int ntypes,
			     int lose_at, int mover, int nfeatures, double *f);

/* Appends "KEY VALUE" for each figure, separated by ", ". */
int kifu_splinter_render_figures_(struct kifu_buf *out, const struct kifu_figure *f, int n);

/* Sets an integer figure. */
void kifu_splinter_figure_int_(struct kifu_figure *f, const char *key, const char *side, long num);

#endif
