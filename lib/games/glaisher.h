/*
 * Private to glaisher.c (the rules) and glaisher_text.c (the notation and
 * the pictures): the position, the move encoding and the board geometry
 * both use, and the rules and entries each calls in the other. Not
 * installed.
 */
#ifndef KIFU_GAMES_GLAISHER_H
#define KIFU_GAMES_GLAISHER_H

#include <stdint.h>

#include "games/board.h"

extern const struct kifu_game kifu_game_glaisher_;

#define NC 61
#define FULL ((UINT64_C(1) << NC) - 1)
#define BIT(c) (UINT64_C(1) << (c))

/* The longest straight path on the board has 8 steps, and a part of k flies k cells. */
#define MAX_PART 8
/* Parts are distinct and at most 8: only stacks up to 1 + 2 + ... + 8 can separate. */
#define MAX_SEP_H 36
#define SETUP_TURNS 6
/* A connection joins two opposite sides, which are 8 steps apart: 9 cells at least. */
#define MIN_CHAIN 9

/*
 * A move is either a set-up placement (M_SETUP, the cell in the CELL field)
 * or a separation: origin, direction, the part set as a bit mask (bit k-1 =
 * a part of k) and the placement cell, NO_CELL when the separation itself
 * connects. Fields not used are zero, so every move has one value.
 */
#define M_ORIGIN(m) ((int)((m) & 63))
#define M_DIR(m) ((int)(((m) >> 6) & 7))
#define M_MASK(m) ((unsigned)(((m) >> 9) & 255))
#define M_CELL(m) ((int)(((m) >> 17) & 127))
#define M_SETUP (UINT64_C(1) << 24)
#define NO_CELL 127
#define MKSEP(o, d, mask, cell) \
	((kifu_move)(o) | (kifu_move)(d) << 6 | (kifu_move)(mask) << 9 | (kifu_move)(cell) << 17)

/*
 * Stacks up to this height have their keys tabled (the canonical hash looks
 * up 12 per stack); taller ones, rarer, compute theirs (the conformance
 * playouts reach both).
 */
#define ZTAB_H 8

struct kifu_glaisher_state_ {
	uint64_t hash;
	uint64_t occ[2];   /* cells holding red / yellow stacks */
	uint32_t h[NC];    /* stack heights, 0 on an empty cell: merges make them unbounded, but
			    * the pieces on the board grow by one a turn, so 32 bits never fill */
	uint8_t side;      /* 0 red, 1 yellow */
	uint8_t setup;     /* set-up placements still due (advanced only) */
	uint8_t winner;    /* 0, or 1 + the side that connected */
};

/*
 * Geometry and the part sets, built once. Part sets of each height are
 * sorted by their largest part, so a scan along a direction of reach r
 * stops at the first set whose largest part exceeds r.
 */
struct kifu_glaisher_geo_ {
	const struct kifu_hex *hex;
	int8_t dest[NC][6][MAX_PART + 1];   /* the cell k steps away, -1 off the board */
	uint64_t dbit[NC][6][MAX_PART + 1]; /* its bit, 0 off the board */
	uint64_t ray[NC][6];                /* every cell of the ray */
	uint8_t reach[NC][6];               /* steps to the edge */
	uint64_t nbm[NC];                   /* neighbour cells */
	uint64_t nbbyte[8][256];            /* the neighbours of the cells of byte i of a set */
	uint8_t sides[NC];                  /* the board sides a cell lies on, see side_bits() */
	uint64_t side_cells[6];             /* the cells of each board side: bit j of sides[] */
	uint16_t poff[MAX_SEP_H + 2];       /* part sets of height h: pmask[poff[h]..poff[h+1]) */
	uint8_t pmask[256];
	uint8_t pmax[256];                  /* largest part of pmask[i] */
	uint64_t zpiece[ZTAB_H][NC][2];     /* ZPIECE(c, col, hgt) at [hgt - 1][c][col], hgt <= ZTAB_H */
};


static inline int kifu_glaisher_colour_at_(const struct kifu_glaisher_state_ *s, int c)
{
	return (int)((s->occ[1] >> c) & 1);
}

/* The geometry, built on the first call. */
const struct kifu_glaisher_geo_ *kifu_glaisher_geo_(void);

/* Rules the notation checks a move against (glaisher.c). */
int kifu_glaisher_connects_(uint64_t mine, uint64_t seeds);
unsigned kifu_glaisher_blocked_parts_(const struct kifu_glaisher_state_ *s, int o, int d,
				      uint64_t theirs);
uint64_t kifu_glaisher_dest_mask_(int o, int d, unsigned m);
int kifu_glaisher_game_over_(const struct kifu_glaisher_state_ *s);

/* The game's notation and pictures (glaisher_text.c), entries of kifu_game_glaisher_. */
void kifu_glaisher_format_move_(const void *state, kifu_move m, char *buf);
int kifu_glaisher_parse_move_(const void *state, const char *text, kifu_move *out,
			      struct kifu_error *err);
int kifu_glaisher_figures_(const void *state, struct kifu_figure *out);
int kifu_glaisher_render_text_(struct kifu_buf *out, const void *state);

/* The cells for pattern search (see kifu_game.cell_token): rN and yN stacks. */
int kifu_glaisher_ncells_(const void *state);
void kifu_glaisher_cell_name_(const void *state, int cell, char *buf);
int kifu_glaisher_cell_token_(const void *state, int cell, char *buf);
int kifu_glaisher_token_side_(const void *state, const char *text);
const char *kifu_glaisher_tokens_help_(const void *state);
int kifu_glaisher_map_cell_(const void *state, int cell, int k);
void kifu_glaisher_side_cells_(const void *state, uint64_t *out);
int kifu_glaisher_render_svg_(struct kifu_buf *out, const void *state);
int kifu_glaisher_render_svg_last_(struct kifu_buf *out, const void *state, kifu_move last);

#endif
