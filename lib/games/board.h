/*
 * Internal helpers shared by the rules engines (not a public header): board
 * geometry for hex-hex and square boards, cell and direction names, Zobrist
 * keys and move-text normalisation. Engines include this; generic code does
 * not.
 */
#ifndef KIFU_GAMES_BOARD_H
#define KIFU_GAMES_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/game.h"
#include "util/hash.h"

/*
 * Zobrist key number `index` of a game, computed (splitmix64) rather than
 * tabled: stable across builds and versions, since stored position hashes
 * must not change, and with no table size limits (stack heights).
 */
static inline uint64_t kifu_zobrist(uint64_t salt, uint64_t index)
{
	return kifu_hash_mix64_(salt + (index + 1) * KIFU_HASH_GOLDEN);
}

/* ---- hex-hex boards (pointy-topped, rows lettered from the top) ---- */

#define KIFU_HEX_MAX_R 5
#define KIFU_HEX_MAX_ROWS (2 * KIFU_HEX_MAX_R + 1)
#define KIFU_HEX_MAX_CELLS 91

/*
 * The 12 symmetries of a hex-hex board about its centre: k = 0..5 the
 * rotation by k * 60 degrees, k = 6..11 the reflection (q, r) -> (r, q) in
 * axial coordinates followed by the rotation by (k - 6) * 60 degrees.
 */
#define KIFU_HEX_SYMMETRIES 12

/* Directions in the spec's order: e, w, ne, nw, se, sw. */
enum { KIFU_HEX_E, KIFU_HEX_W, KIFU_HEX_NE, KIFU_HEX_NW, KIFU_HEX_SE, KIFU_HEX_SW };

struct kifu_hex {
	int R;          /* side length - 1 */
	int ncells;
	int nrows;
	int rowlen[KIFU_HEX_MAX_ROWS];
	int rowstart[KIFU_HEX_MAX_ROWS];           /* index of the row's first cell */
	int8_t q[KIFU_HEX_MAX_CELLS];              /* axial coordinates */
	int8_t r[KIFU_HEX_MAX_CELLS];
	int8_t row[KIFU_HEX_MAX_CELLS];            /* 0 = row a */
	int8_t num[KIFU_HEX_MAX_CELLS];            /* 1-based number in the row */
	int8_t border[KIFU_HEX_MAX_CELLS];         /* on the outer ring */
	int8_t nb[KIFU_HEX_MAX_CELLS][6];          /* neighbour by direction, -1 off board */
	int8_t sym[KIFU_HEX_SYMMETRIES][KIFU_HEX_MAX_CELLS]; /* image of each cell by symmetry k */
};

/* The board with side R + 1 (R from 1 to KIFU_HEX_MAX_R); built once, thread-safe. */
const struct kifu_hex *kifu_hex_board_(int R);

/* Cell index of a name such as "f11" (case-insensitive, n bytes), or -1. */
int kifu_hex_cell_parse_(const struct kifu_hex *h, const char *s, size_t n);

/* Writes the name of cell ("f11") into buf (at least 4 bytes). */
void kifu_hex_cell_name_(const struct kifu_hex *h, int cell, char *buf);

/* The cell k steps from cell in direction dir, or -1 off the board. */
int kifu_hex_step_(const struct kifu_hex *h, int cell, int dir, int k);

/* Direction index of "e", "w", "ne", "nw", "se", "sw" (n bytes, case-insensitive), or -1. */
int kifu_hex_dir_parse_(const char *s, size_t n);
const char *kifu_hex_dir_name_(int dir);

/* The image of direction dir by symmetry k (the cell image is h->sym[k][cell]). */
int kifu_hex_sym_dir_(int k, int dir);

/* The symmetry that undoes k. */
int kifu_hex_sym_inverse_(int k);

/* ---- square boards (files a.., ranks 1.. from the bottom) ---- */

/* Directions: n, s, e, w, ne, nw, se, sw. */
enum { KIFU_SQ_N, KIFU_SQ_S, KIFU_SQ_E, KIFU_SQ_W, KIFU_SQ_NE, KIFU_SQ_NW, KIFU_SQ_SE, KIFU_SQ_SW };
extern const int kifu_sq_dfile_[8];
extern const int kifu_sq_drank_[8];

/* Cell index (rank * width + file) of "c10" (case-insensitive, n bytes), or -1. */
int kifu_sq_cell_parse_(int width, int height, const char *s, size_t n);

/* Writes the name of cell into buf (at least 4 bytes). */
void kifu_sq_cell_name_(int width, int cell, char *buf);

/* Direction index of "n", "s", ..., "sw" (n bytes, case-insensitive), or -1. */
int kifu_sq_dir_parse_(const char *s, size_t n);
const char *kifu_sq_dir_name_(int dir);

/*
 * The symmetries of a width x height board, k = 0..7 as three bits applied
 * in this order: bit 2 swaps files and ranks (square boards only), bit 0
 * mirrors the files (a <-> last), bit 1 mirrors the ranks. So 0 is the
 * identity, 1 the file mirror, 2 the rank mirror, 3 the half turn; a
 * rectangle has 0..3, a square all 8.
 */
#define KIFU_SQ_SYMMETRIES 8

/* The image of cell (rank * width + file) by symmetry k. */
int kifu_sq_sym_cell_(int width, int height, int k, int cell);

/* The image of direction dir (KIFU_SQ_*) by symmetry k. */
int kifu_sq_sym_dir_(int k, int dir);

/* The symmetry that undoes k. */
int kifu_sq_sym_inverse_(int k);

/* ---- move text ---- */

/*
 * Copies a move as written into out (size bytes): surrounding white space
 * dropped, upper case lowered, and, when spaces_allowed, every inner run of
 * space made one space. Returns the length, -1 when it does not fit or
 * (spaces not allowed) white space stands inside the move, or -2 when
 * (spaces allowed) white space other than a space (tab, CR, newline)
 * stands inside the move; white space around it is always dropped.
 * `trimmed` (may be NULL, size bytes) receives the move trimmed but
 * otherwise as written, for quoting it in messages.
 */
int kifu_move_text_norm_(const char *in, int spaces_allowed, char *out, char *trimmed,
			size_t size);

#endif
