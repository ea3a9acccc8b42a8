/*
 * What the two files of splay-kisenwether share: the rules
 * (splay_kisenwether.c) and the text, pictures and cells of its positions
 * (splay_kisenwether_text.c): the board's size, the cell encoding and the
 * position.
 */
#ifndef KIFU_GAMES_SPLAY_KISENWETHER_H
#define KIFU_GAMES_SPLAY_KISENWETHER_H

#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/game.h"

extern const struct kifu_game kifu_game_splay_kisenwether_;

#define W 8
#define NCELLS 64
#define WHITE 0
#define BLACK 1

/*
 * A cell is one byte: a sentinel bit at bit h above the colours of the h
 * stones, bottom stone in bit 0, 1 = black. An empty cell is 1 (sentinel
 * alone). No stack can be taller than 7 (the largest size limit) after a
 * legal move, so a byte holds every stack; sums before captures may reach
 * 14 stones and are computed in unsigned int.
 */
#define EMPTY 1u

struct kis_state {
	uint64_t hash;
	uint8_t cell[NCELLS];
	uint8_t side;    /* to move */
	uint8_t cap[2];  /* stones captured by white, by black */
	uint8_t pad[5];
};

static inline int height(unsigned v)
{
	return 31 - __builtin_clz(v);
}

/* splay_kisenwether_text.c: the game's text, pictures and cells (see kifu_game). */
int kifu_kis_render_text_(struct kifu_buf *out, const void *state);
int kifu_kis_render_(struct kifu_buf *out, const void *state, const int *marks, int nmarks);
int kifu_kis_render_svg_(struct kifu_buf *out, const void *state);
int kifu_kis_ncells_(const void *state);
void kifu_kis_cell_name_(const void *state, int cell, char *buf);
int kifu_kis_cell_token_(const void *state, int cell, char *buf);
int kifu_kis_token_side_(const void *state, const char *text);
void kifu_kis_side_cells_(const void *state, uint64_t *out);
const char *kifu_kis_tokens_help_(const void *state);

#endif
