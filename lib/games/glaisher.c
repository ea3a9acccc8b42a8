/*
 * Rules engine of glaisher, Ken Shoda's connection game Glaisher (2015) on
 * the 61-cell hex-hex board: a turn separates one of the mover's stacks into
 * sub-stacks of pairwise different heights, each flying its own height in
 * one direction (flipping and landing on opponent stacks no taller than
 * itself, merging with the mover's own), then places one new piece on an
 * empty cell. Joining a pair of opposite sides wins at once, even before the
 * placement; a side that cannot separate any stack loses. The `advanced`
 * variant starts with six set-up turns placing the 6-stacks. See
 * spec/games/glaisher.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "games/board.h"
#include "games/svg.h"

extern const struct kifu_game kifu_game_glaisher;

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
 * Zobrist keys, by formula so that any stack height has one: the side to
 * move, the set-up placements still due, the winner by connection, then
 * one key per (height, cell, colour).
 */
#define SALT UINT64_C(0x67a15e3d0b2c9f41)
#define ZSIDE kifu_zobrist(SALT, 0)
#define ZSETUP(n) kifu_zobrist(SALT, 1 + (uint64_t)(n))
#define ZWIN(w) kifu_zobrist(SALT, 8 + (uint64_t)(w))
#define ZPIECE(c, col, hgt) \
	kifu_zobrist(SALT, 16 + ((uint64_t)((hgt) - 1) * NC + (uint64_t)(c)) * 2 + (uint64_t)(col))

/*
 * Stacks up to this height have their keys tabled (the canonical hash looks
 * up 12 per stack); taller ones, rarer, compute theirs (the conformance
 * playouts reach both).
 */
#define ZTAB_H 8

struct gl_state {
	uint64_t hash;
	uint64_t occ[2];   /* cells holding red / yellow stacks */
	uint32_t h[NC];    /* stack heights, 0 on an empty cell: merges make them unbounded, but
			    * the pieces on the board grow by one a turn, so 32 bits never fill */
	uint8_t side;      /* 0 red, 1 yellow */
	uint8_t setup;     /* set-up placements still due (advanced only) */
	uint8_t winner;    /* 0, or 1 + the side that connected */
};

static const char *const gl_variants[] = { "standard", "advanced", NULL };
static const char *const gl_sides[] = { "red", "yellow", NULL };

/*
 * Geometry and the part sets, built once. Part sets of each height are
 * sorted by their largest part, so a scan along a direction of reach r
 * stops at the first set whose largest part exceeds r.
 */
struct gl_geo {
	const struct kifu_hex *hex;
	int8_t dest[NC][6][MAX_PART + 1];   /* the cell k steps away, -1 off the board */
	uint64_t dbit[NC][6][MAX_PART + 1]; /* its bit, 0 off the board */
	uint64_t ray[NC][6];                /* every cell of the ray */
	uint8_t reach[NC][6];               /* steps to the edge */
	uint64_t nbm[NC];                   /* neighbour cells */
	uint8_t sides[NC];                  /* the board sides a cell lies on, see side_bits() */
	uint16_t poff[MAX_SEP_H + 2];       /* part sets of height h: pmask[poff[h]..poff[h+1]) */
	uint8_t pmask[256];
	uint8_t pmax[256];                  /* largest part of pmask[i] */
	uint64_t zpiece[ZTAB_H][NC][2];     /* ZPIECE(c, col, hgt) at [hgt - 1][c][col], hgt <= ZTAB_H */
};

static struct gl_geo geo;
static once_flag geo_once = ONCE_FLAG_INIT;

static int mask_sum(unsigned m)
{
	int k, s = 0;

	for (k = 1; k <= MAX_PART; k++)
		if (m & (1u << (k - 1)))
			s += k;
	return s;
}

static int mask_max(unsigned m)
{
	int k = 0;

	while (m >> k)
		k++;
	return k;
}

static int popcount8(unsigned m)
{
	return __builtin_popcount(m);
}

/*
 * Side bits in opposite pairs (bit 2i and bit 2i+1): row a / row i; first
 * cells of a..e / last cells of e..i; last cells of a..e / first cells of
 * e..i.
 */
static uint8_t side_bits(const struct kifu_hex *h, int c)
{
	int row = h->row[c], first = h->num[c] == 1, last = h->num[c] == h->rowlen[row];
	uint8_t b = 0;

	if (row == 0)
		b |= 1;
	if (row == h->nrows - 1)
		b |= 2;
	if (first && row <= 4)
		b |= 4;
	if (last && row >= 4)
		b |= 8;
	if (last && row <= 4)
		b |= 16;
	if (first && row >= 4)
		b |= 32;
	return b;
}

static void geo_build(void)
{
	const struct kifu_hex *h = kifu_hex_board(4);
	int c, d, k, hgt, n = 0;

	memset(&geo, 0, sizeof(geo));
	geo.hex = h;
	for (hgt = 1; hgt <= ZTAB_H; hgt++)
		for (c = 0; c < NC; c++)
			for (d = 0; d < 2; d++)
				geo.zpiece[hgt - 1][c][d] = ZPIECE(c, d, hgt);
	for (c = 0; c < NC; c++) {
		geo.sides[c] = side_bits(h, c);
		for (d = 0; d < 6; d++) {
			int t = c;

			if (h->nb[c][d] >= 0)
				geo.nbm[c] |= BIT(h->nb[c][d]);
			geo.dest[c][d][0] = (int8_t)c;
			for (k = 1; k <= MAX_PART; k++) {
				t = t >= 0 ? h->nb[t][d] : -1;
				geo.dest[c][d][k] = (int8_t)t;
				if (t >= 0) {
					geo.dbit[c][d][k] = BIT(t);
					geo.ray[c][d] |= BIT(t);
					geo.reach[c][d] = (uint8_t)k;
				}
			}
		}
	}
	for (hgt = 0; hgt <= MAX_SEP_H; hgt++) {
		int mx;

		geo.poff[hgt] = (uint16_t)n;
		for (mx = 1; mx <= MAX_PART; mx++) {
			unsigned m;

			for (m = 1; m < 256; m++)
				if (popcount8(m) >= 2 && mask_sum(m) == hgt && mask_max(m) == mx) {
					geo.pmask[n] = (uint8_t)m;
					geo.pmax[n] = (uint8_t)mx;
					n++;
				}
		}
	}
	geo.poff[MAX_SEP_H + 1] = (uint16_t)n;
}

static void geo_init(void)
{
	call_once(&geo_once, geo_build);
}

static int colour_at(const struct gl_state *s, int c)
{
	return (int)((s->occ[1] >> c) & 1);
}

/*
 * Whether some component of `mine` holding a cell of `seeds` touches two
 * opposite sides. A new connection must run through a cell the move just
 * filled, since the mover was not connected before it.
 */
static int connects(uint64_t mine, uint64_t seeds)
{
	uint64_t seen = 0;

	if (__builtin_popcountll(mine) < MIN_CHAIN)
		return 0;
	seeds &= mine;
	while (seeds) {
		uint64_t comp = seeds & -seeds, frontier = comp;
		unsigned sides = 0;

		while (frontier) {
			int c = __builtin_ctzll(frontier);
			uint64_t nw = geo.nbm[c] & mine & ~comp;

			frontier &= frontier - 1;
			sides |= geo.sides[c];
			comp |= nw;
			frontier |= nw;
		}
		if (sides & (sides >> 1) & 0x15)
			return 1;
		seen |= comp;
		seeds &= ~seen;
	}
	return 0;
}

/* Parts (bit k-1 = a part of k) that would land on an opponent stack taller than themselves. */
static unsigned blocked_parts(const struct gl_state *s, int o, int d, uint64_t theirs)
{
	unsigned blk = 0;
	int k;

	if (!(theirs & geo.ray[o][d]))
		return 0;
	for (k = 1; k <= geo.reach[o][d]; k++) {
		int t = geo.dest[o][d][k];

		if (((theirs >> t) & 1) && s->h[t] > (uint32_t)k)
			blk |= 1u << (k - 1);
	}
	return blk;
}

static uint64_t dest_mask(int o, int d, unsigned m)
{
	uint64_t dm = 0;

	while (m) {
		int k = __builtin_ctz(m) + 1;

		m &= m - 1;
		dm |= geo.dbit[o][d][k];
	}
	return dm;
}

static int game_over_fast(const struct gl_state *s)
{
	return s->winner != 0;
}

/* Whether the side to move has a separation at all (the set-up turns are over). */
static int has_separation(const struct gl_state *s)
{
	uint64_t mine = s->occ[s->side], theirs = s->occ[!s->side], bits;

	for (bits = mine; bits; bits &= bits - 1) {
		int o = __builtin_ctzll(bits), d, i;
		uint32_t hgt = s->h[o];

		if (hgt < 3 || hgt > MAX_SEP_H)
			continue;
		for (d = 0; d < 6; d++) {
			int r = geo.reach[o][d];
			unsigned blk;

			if (r < 2)
				continue;
			blk = blocked_parts(s, o, d, theirs);
			for (i = geo.poff[hgt]; i < geo.poff[hgt + 1] && geo.pmax[i] <= r; i++)
				if (!(geo.pmask[i] & blk))
					return 1;
		}
	}
	return 0;
}

static int game_over(const struct gl_state *s)
{
	return s->winner || (!s->setup && !has_separation(s));
}

static void put_stack(struct gl_state *s, int c, int col, uint32_t hgt)
{
	s->h[c] = hgt;
	s->occ[col] |= BIT(c);
	s->hash ^= ZPIECE(c, col, hgt);
}

static int gl_init(void *state, int variant, int first, struct kifu_error *err)
{
	static const char *const start[2][3] = { { "a2", "f8", "h1" }, { "b6", "d1", "i4" } };
	struct gl_state *s = state;
	int col, i;

	if (variant < 0 || variant > 1)
		return kifu_error_set(err, KIFU_ENOTFOUND, "glaisher has no variant %d", variant);
	if (first < 0 || first > 1)
		return kifu_error_set(err, KIFU_ENOTFOUND, "glaisher has no side %d", first);
	geo_init();
	memset(s, 0, sizeof(*s));
	s->side = (uint8_t)first;
	if (first)
		s->hash ^= ZSIDE;
	if (variant == 0) {
		for (col = 0; col < 2; col++)
			for (i = 0; i < 3; i++)
				put_stack(s, kifu_hex_cell_parse(geo.hex, start[col][i], 2), col, 6);
	} else {
		s->setup = SETUP_TURNS;
		s->hash ^= ZSETUP(SETUP_TURNS);
	}
	return 0;
}

static int gl_side_to_move(const void *state)
{
	const struct gl_state *s = state;

	return s->side;
}

/*
 * The scan over every separation shared by listing and counting: with
 * `moves` NULL it only counts. A separation that connects is one move;
 * any other is one move per empty cell after it.
 */
static size_t scan(const struct gl_state *s, kifu_move *moves)
{
	uint64_t mine = s->occ[s->side], theirs = s->occ[!s->side], all = mine | theirs, bits;
	size_t n = 0;

	if (game_over_fast(s))
		return 0;
	if (s->setup) {
		uint64_t empty = FULL & ~all;

		if (!moves)
			return (size_t)__builtin_popcountll(empty);
		for (; empty; empty &= empty - 1)
			moves[n++] = M_SETUP | (kifu_move)__builtin_ctzll(empty) << 17;
		return n;
	}
	for (bits = mine; bits; bits &= bits - 1) {
		int o = __builtin_ctzll(bits), d, i;
		uint32_t hgt = s->h[o];
		uint64_t mine_o = mine & ~BIT(o), all_o = all & ~BIT(o);

		if (hgt < 3 || hgt > MAX_SEP_H)
			continue;
		for (d = 0; d < 6; d++) {
			int r = geo.reach[o][d];
			unsigned blk;

			if (r < 2)
				continue;
			blk = blocked_parts(s, o, d, theirs);
			for (i = geo.poff[hgt]; i < geo.poff[hgt + 1] && geo.pmax[i] <= r; i++) {
				unsigned m = geo.pmask[i];
				uint64_t dm, nm, empty;

				if (m & blk)
					continue;
				dm = dest_mask(o, d, m);
				nm = mine_o | dm;
				if (connects(nm, dm)) {
					if (moves)
						moves[n] = MKSEP(o, d, m, NO_CELL);
					n++;
					continue;
				}
				empty = FULL & ~(all_o | dm);
				if (!moves) {
					n += (size_t)__builtin_popcountll(empty);
					continue;
				}
				for (; empty; empty &= empty - 1)
					moves[n++] = MKSEP(o, d, m, __builtin_ctzll(empty));
			}
		}
	}
	return n;
}

/*
 * GL_MAX_MOVES bounds legal_moves(). In the set-up turns there are at most
 * 61. Otherwise let n be the number of the mover's stacks and S the most
 * (part set, direction) pairs one origin can have (S = 14, computed from
 * the tables: a stack's height fixes its part sets, and a direction of reach
 * r only admits sets whose largest part is at most r). A separation empties
 * the origin and fills at least as many cells as it empties besides, so at
 * most 62 - n cells are empty after it: the moves are at most
 * n * S * (62 - n) <= 31 * 31 * S = 13454.
 */
#define GL_S 14
#define GL_MAX_MOVES (31 * 31 * GL_S)

static size_t gl_legal_moves(const void *state, kifu_move *moves)
{
	return scan(state, moves);
}

static size_t gl_count_moves(const void *state)
{
	return scan(state, NULL);
}

static void gl_apply(void *state, kifu_move m)
{
	struct gl_state *s = state;
	int col = s->side, c = M_CELL(m);

	if (m & M_SETUP) {
		put_stack(s, c, col, 6);
		s->hash ^= ZSETUP(s->setup);
		s->setup--;
		if (s->setup)
			s->hash ^= ZSETUP(s->setup);
	} else {
		int o = M_ORIGIN(m), d = M_DIR(m);
		unsigned mask = M_MASK(m);

		s->hash ^= ZPIECE(o, col, s->h[o]);
		s->occ[col] &= ~BIT(o);
		s->h[o] = 0;
		while (mask) {
			int k = __builtin_ctz(mask) + 1, t = geo.dest[o][d][k];

			mask &= mask - 1;
			if (s->h[t]) {
				int tc = colour_at(s, t);

				s->hash ^= ZPIECE(t, tc, s->h[t]);
				s->occ[tc] &= ~BIT(t);
			}
			put_stack(s, t, col, s->h[t] + (uint32_t)k);
		}
		if (c == NO_CELL) {
			s->winner = (uint8_t)(col + 1);
			s->hash ^= ZWIN(col);
		} else {
			put_stack(s, c, col, 1);
			if (connects(s->occ[col], BIT(c))) {
				s->winner = (uint8_t)(col + 1);
				s->hash ^= ZWIN(col);
			}
		}
	}
	s->side ^= 1;
	s->hash ^= ZSIDE;
}

static void gl_format_move(const void *state, kifu_move m, char *buf)
{
	char *p = buf;
	int c = M_CELL(m);

	(void)state;
	geo_init();
	if (m & M_SETUP) {
		kifu_hex_cell_name(geo.hex, c, buf);
	} else {
		unsigned mask = M_MASK(m);
		int k, sep = 0;

		kifu_hex_cell_name(geo.hex, M_ORIGIN(m), p);
		p += strlen(p);
		*p++ = '>';
		strcpy(p, kifu_hex_dir_name(M_DIR(m)));
		p += strlen(p);
		*p++ = ' ';
		for (k = MAX_PART; k >= 1; k--) {
			if (!(mask & (1u << (k - 1))))
				continue;
			if (sep)
				*p++ = '+';
			*p++ = (char)('0' + k);
			sep = 1;
		}
		*p = '\0';
		if (c != NO_CELL) {
			*p++ = ' ';
			kifu_hex_cell_name(geo.hex, c, p);
		}
	}
}

/* Whether s[0..n) has the shape of a cell name: a letter then digits. */
static int cell_shaped(const char *s, size_t n)
{
	size_t i;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

#define PARSE_FAIL(...) kifu_error_set(err, KIFU_EPARSE, __VA_ARGS__)
#define ILLEGAL(...) kifu_error_set(err, KIFU_EILLEGAL, __VA_ARGS__)

/*
 * kifu_hex_cell_parse() of a token of the normalised text (no upper case
 * there): a row letter, then a number from 1 without a leading zero, both
 * on the board.
 */
static int hex_cell(const char *s, size_t n)
{
	const struct kifu_hex *h = geo.hex;
	int row, num;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
		return -1;
	row = s[0] - 'a';
	num = s[1] - '0';
	if (n == 3) {
		if (s[2] < '0' || s[2] > '9')
			return -1;
		num = num * 10 + (s[2] - '0');
	}
	if (row >= h->nrows || num > h->rowlen[row])
		return -1;
	return h->rowstart[row] + num - 1;
}

/* kifu_hex_dir_parse() of a word of the normalised text: e, w, ne, nw, se, sw. */
static int hex_dir(const char *s, size_t n)
{
	if (n == 1)
		return s[0] == 'e' ? KIFU_HEX_E : s[0] == 'w' ? KIFU_HEX_W : -1;
	if (n != 2 || (s[0] != 'n' && s[0] != 's') || (s[1] != 'e' && s[1] != 'w'))
		return -1;
	if (s[0] == 'n')
		return s[1] == 'e' ? KIFU_HEX_NE : KIFU_HEX_NW;
	return s[1] == 'e' ? KIFU_HEX_SE : KIFU_HEX_SW;
}

/* Parses a cell token; -1 with the error set when it is not one. */
static int parse_cell(const char *tok, size_t n, const char *trimmed, const char *what,
		      struct kifu_error *err)
{
	int c = hex_cell(tok, n);

	if (c >= 0)
		return c;
	if (cell_shaped(tok, n))
		PARSE_FAIL("unparsable move '%s': unknown cell '%.*s'", trimmed, (int)n, tok);
	else
		PARSE_FAIL("unparsable move '%s': expected %s, got '%.*s'", trimmed, what, (int)n, tok);
	return -1;
}

/*
 * The written parts of a separation, kept as text too: a part may have more
 * digits than any integer holds, and without leading zeros two parts are
 * equal exactly when their digits are. A move text of 95 bytes holds at
 * most 48 parts.
 */
#define PARTS_MAX 48

struct parts {
	int count;
	const char *text[PARTS_MAX];
	int len[PARTS_MAX];
	int repeat;        /* 1 + the index of a part written twice, or 0 */
	unsigned mask;     /* the parts of 1..8 */
	int sum;           /* their sum, meaningful once every part is at most 8 */
};

/* Parses "3+2+1" (any order); returns 0 or the error. */
static int parse_parts(const char *tok, size_t n, const char *trimmed, struct parts *p,
		       struct kifu_error *err)
{
	size_t i = 0;
	int k;

	/* text[] and len[] are filled up to count */
	p->count = 0;
	p->repeat = 0;
	p->mask = 0;
	p->sum = 0;
	for (;;) {
		size_t j = i, digits = i;
		int len;

		while (j < n && tok[j] != '+')
			j++;
		len = (int)(j - i);
		if (len == 0)
			return PARSE_FAIL("unparsable move '%s': empty part in '%.*s'", trimmed,
					  (int)n, tok);
		while (digits < j && tok[digits] >= '0' && tok[digits] <= '9')
			digits++;
		if (digits < j)
			return PARSE_FAIL("unparsable move '%s': part '%.*s' is not a number",
					  trimmed, len, tok + i);
		if (tok[i] == '0' && len > 1)
			return PARSE_FAIL("unparsable move '%s': leading zero in part '%.*s'",
					  trimmed, len, tok + i);
		if (tok[i] == '0')
			return PARSE_FAIL("unparsable move '%s': a part of 0 is not a sub-stack",
					  trimmed);
		if (p->count == PARTS_MAX)
			return PARSE_FAIL("unparsable move '%s': too many parts", trimmed);
		for (k = 0; k < p->count && !p->repeat; k++)
			if (p->len[k] == len && !memcmp(p->text[k], tok + i, (size_t)len))
				p->repeat = k + 1;
		p->text[p->count] = tok + i;
		p->len[p->count] = len;
		p->count++;
		if (len == 1 && tok[i] - '0' <= MAX_PART) {
			p->mask |= 1u << (tok[i] - '1');
			p->sum += tok[i] - '0';
		}
		if (j == n)
			return 0;
		i = j + 1;
	}
}

/* The first written part flying farther than `reach` cells, or -1. */
static int part_off_board(const struct parts *p, int reach)
{
	int k;

	for (k = 0; k < p->count; k++)
		if (p->len[k] > 1 || p->text[k][0] - '0' > reach)
			return k;
	return -1;
}

static int check_setup(const struct gl_state *s, int c, const char *trimmed,
		       struct kifu_error *err)
{
	char name[8];

	kifu_hex_cell_name(geo.hex, c, name);
	if (!s->setup)
		return ILLEGAL("illegal move '%s': a bare cell is a move only in the set-up turns of advanced",
			       trimmed);
	if ((s->occ[0] | s->occ[1]) & BIT(c))
		return ILLEGAL("illegal move '%s': '%s' is not empty", trimmed, name);
	return 0;
}

/* Checks a parsed separation against the position; fills *out when it is legal. */
static int check_separation(const struct gl_state *s, int o, int d, const struct parts *p,
			    int cell, const char *trimmed, kifu_move *out, struct kifu_error *err)
{
	int col = s->side, k;
	uint64_t theirs = s->occ[!col], dm, nm, all;
	char oname[8], name[8];
	unsigned blk;

	if (s->setup)
		return ILLEGAL("illegal move '%s': the set-up turns are not over: place a 6-stack on an empty cell",
			       trimmed);
	/* the origin's name is only written in messages */
	if (!(s->occ[col] & BIT(o))) {
		kifu_hex_cell_name(geo.hex, o, oname);
		return ILLEGAL("illegal move '%s': no stack of yours on '%s'", trimmed, oname);
	}
	if (p->count < 2)
		return ILLEGAL("illegal move '%s': a separation needs two or more parts", trimmed);
	if (p->repeat)
		return ILLEGAL("illegal move '%s': parts must differ, %.*s is written twice", trimmed,
			       p->len[p->repeat - 1], p->text[p->repeat - 1]);
	k = part_off_board(p, geo.reach[o][d]);
	if (k >= 0)
		return ILLEGAL("illegal move '%s': the part of %.*s would leave the board", trimmed,
			       p->len[k], p->text[k]);
	if ((uint32_t)p->sum != s->h[o]) {
		kifu_hex_cell_name(geo.hex, o, oname);
		return ILLEGAL("illegal move '%s': the parts add up to %d, the stack on '%s' is %lu high",
			       trimmed, p->sum, oname, (unsigned long)s->h[o]);
	}
	blk = blocked_parts(s, o, d, theirs) & p->mask;
	if (blk) {
		int t;

		k = __builtin_ctz(blk) + 1;
		t = geo.dest[o][d][k];
		kifu_hex_cell_name(geo.hex, t, name);
		return ILLEGAL("illegal move '%s': the %s stack of %lu on '%s' is taller than the part of %d landing there",
			       trimmed, gl_sides[!col], (unsigned long)s->h[t], name, k);
	}
	dm = dest_mask(o, d, p->mask);
	nm = (s->occ[col] & ~BIT(o)) | dm;
	all = ((s->occ[0] | s->occ[1]) & ~BIT(o)) | dm;
	if (connects(nm, dm)) {
		if (cell >= 0)
			return ILLEGAL("illegal move '%s': the separation connects, so the game ends before the placement",
				       trimmed);
		*out = MKSEP(o, d, p->mask, NO_CELL);
		return 0;
	}
	if (cell < 0)
		return ILLEGAL("illegal move '%s': the move must place a piece on an empty cell",
			       trimmed);
	if (all & BIT(cell)) {
		kifu_hex_cell_name(geo.hex, cell, name);
		if (dm & BIT(cell) && !((s->occ[0] | s->occ[1]) & BIT(cell)))
			return ILLEGAL("illegal move '%s': a part lands on '%s'", trimmed, name);
		return ILLEGAL("illegal move '%s': '%s' is not empty", trimmed, name);
	}
	*out = MKSEP(o, d, p->mask, cell);
	return 0;
}

/*
 * kifu_move_text_norm() (spaces allowed) for the usual spelling of a move,
 * lower case with single spaces between its words ("a2>e 4+2 c3"), which
 * normalises to itself: copied as it is. Anything else goes through
 * kifu_move_text_norm().
 */
static int norm_text(const char *text, char *norm, char *trimmed, size_t size)
{
	size_t n;

	for (n = 0; text[n]; n++) {
		char c = text[n];

		if (n + 1 >= size)
			break;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '>' || c == '+')
			continue;
		if (c != ' ' || !n || text[n - 1] == ' ' || !text[n + 1])
			break;
	}
	if (text[n])
		return kifu_move_text_norm(text, 1, norm, trimmed, size);
	memcpy(norm, text, n + 1);
	memcpy(trimmed, text, n + 1);
	return (int)n;
}

static int gl_parse_move(const void *state, const char *text, kifu_move *out,
			 struct kifu_error *err)
{
	const struct gl_state *s = state;
	char norm[KIFU_MOVE_TEXT_MAX], trimmed[KIFU_MOVE_TEXT_MAX];
	const char *tok[4] = { NULL };
	size_t tlen[4] = { 0 };
	const char *gt, *p;
	struct parts parts;
	int len, ntok = 0, o, d, cell = -1, ret;

	geo_init();
	len = norm_text(text, norm, trimmed, sizeof(norm));
	if (len == -2)
		return PARSE_FAIL("unparsable move '%s': only spaces may separate its parts", trimmed);
	if (len < 0)
		return PARSE_FAIL("unparsable move '%s': too long", trimmed);
	if (len == 0)
		return PARSE_FAIL("unparsable move '': empty move");
	for (p = norm; *p && ntok < 4; ntok++) {
		const char *e = strchr(p, ' ');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		tok[ntok] = p;
		tlen[ntok] = n;
		p += n;
		if (*p == ' ')
			p++;
	}
	if (*p || ntok > 3)
		return PARSE_FAIL("unparsable move '%s': expected ORIGIN>DIR PARTS [CELL]", trimmed);
	gt = memchr(tok[0], '>', tlen[0]);
	if (ntok == 1 && !gt) {
		int c = parse_cell(tok[0], tlen[0], trimmed, "ORIGIN>DIR PARTS [CELL] or a cell", err);

		if (c < 0)
			return KIFU_EPARSE;
		if (game_over(s))
			return ILLEGAL("illegal move '%s': the game is over", trimmed);
		ret = check_setup(s, c, trimmed, err);
		if (ret == 0)
			*out = M_SETUP | (kifu_move)c << 17;
		return ret;
	}
	if (!gt)
		return PARSE_FAIL("unparsable move '%s': expected ORIGIN>DIR, got '%.*s'", trimmed,
				  (int)tlen[0], tok[0]);
	if (ntok == 1)
		return PARSE_FAIL("unparsable move '%s': the parts are missing", trimmed);
	o = parse_cell(tok[0], (size_t)(gt - tok[0]), trimmed, "an origin cell", err);
	if (o < 0)
		return KIFU_EPARSE;
	d = hex_dir(gt + 1, tlen[0] - (size_t)(gt - tok[0]) - 1);
	if (d < 0)
		return PARSE_FAIL("unparsable move '%s': unknown direction '%.*s'", trimmed,
				  (int)(tlen[0] - (size_t)(gt - tok[0]) - 1), gt + 1);
	ret = parse_parts(tok[1], tlen[1], trimmed, &parts, err);
	if (ret < 0)
		return ret;
	if (ntok == 3) {
		cell = parse_cell(tok[2], tlen[2], trimmed, "a cell", err);
		if (cell < 0)
			return KIFU_EPARSE;
	}
	/*
	 * A legal separation is one the mover has, so the game is not over
	 * then unless a connection ended it: the scan of every separation
	 * that tells whether the mover has one is needed only to refuse.
	 */
	if (!s->winner) {
		ret = check_separation(s, o, d, &parts, cell, trimmed, out, err);
		if (ret == 0 || !game_over(s))
			return ret;
	}
	return ILLEGAL("illegal move '%s': the game is over", trimmed);
}

static void gl_outcome(const void *state, struct kifu_outcome *out)
{
	const struct gl_state *s = state;

	out->status = KIFU_ONGOING;
	out->winner = -1;
	if (s->winner) {
		out->status = KIFU_WIN;
		out->winner = s->winner - 1;
	} else if (!s->setup && !has_separation(s)) {
		out->status = KIFU_WIN;
		out->winner = !s->side;
	}
}

static uint64_t gl_hash(const void *state)
{
	const struct gl_state *s = state;

	return s->hash;
}

/* The keys of everything but the stacks (kept by every symmetry). */
static uint64_t rule_hash(const struct gl_state *s)
{
	return (s->side ? ZSIDE : 0) ^ (s->setup ? ZSETUP(s->setup) : 0) ^
	       (s->winner ? ZWIN(s->winner - 1) : 0);
}

static uint64_t gl_rehash(const void *state)
{
	const struct gl_state *s = state;
	uint64_t h = rule_hash(s);
	int c;

	for (c = 0; c < NC; c++)
		if (s->h[c])
			h ^= ZPIECE(c, colour_at(s, c), s->h[c]);
	return h;
}

/*
 * Symmetries: all 12 of the hex board (the six sides go onto the six sides,
 * opposite pairs onto opposite pairs, so connections are kept).
 */
static void gl_map_state(void *dst, const void *src, int k)
{
	const struct gl_state *s = src;
	struct gl_state *d = dst;
	int c;

	geo_init();
	memset(d, 0, sizeof(*d));
	for (c = 0; c < NC; c++) {
		int t = geo.hex->sym[k][c];

		d->h[t] = s->h[c];
		if (s->h[c])
			d->occ[colour_at(s, c)] |= BIT(t);
	}
	d->side = s->side;
	d->setup = s->setup;
	d->winner = s->winner;
	d->hash = gl_rehash(d);
}

/* gl_rehash of the 12 mapped positions in one pass: the stacks mapped, the rest kept. */
static void gl_hash_symmetries(uint64_t *out, const void *state)
{
	const struct gl_state *s = state;
	uint64_t kept = rule_hash(s);
	int c, k;

	geo_init();
	for (k = 0; k < KIFU_HEX_SYMMETRIES; k++)
		out[k] = kept;
	for (c = 0; c < NC; c++) {
		uint32_t hgt = s->h[c];
		int col;

		if (!hgt)
			continue;
		col = colour_at(s, c);
		if (hgt <= ZTAB_H)
			for (k = 0; k < KIFU_HEX_SYMMETRIES; k++)
				out[k] ^= geo.zpiece[hgt - 1][geo.hex->sym[k][c]][col];
		else
			for (k = 0; k < KIFU_HEX_SYMMETRIES; k++)
				out[k] ^= ZPIECE(geo.hex->sym[k][c], col, hgt);
	}
}

static kifu_move gl_map_move(const void *state, kifu_move m, int k)
{
	int c = M_CELL(m);

	(void)state;
	geo_init();
	if (c != NO_CELL)
		c = geo.hex->sym[k][c];
	if (m & M_SETUP)
		return M_SETUP | (kifu_move)c << 17;
	return MKSEP(geo.hex->sym[k][M_ORIGIN(m)], kifu_hex_sym_dir(k, M_DIR(m)), M_MASK(m), c);
}

static void put_int_figure(struct kifu_figure *f, const char *key, long num)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->type = KIFU_FIG_INT;
	f->num = num;
}

static long pieces_of(const struct gl_state *s, int col)
{
	uint64_t b;
	long n = 0;

	for (b = s->occ[col]; b; b &= b - 1)
		n += (long)s->h[__builtin_ctzll(b)];
	return n;
}

static int gl_figures(const void *state, struct kifu_figure *out)
{
	const struct gl_state *s = state;

	put_int_figure(&out[0], "stacks_red", __builtin_popcountll(s->occ[0]));
	put_int_figure(&out[1], "stacks_yellow", __builtin_popcountll(s->occ[1]));
	put_int_figure(&out[2], "pieces_red", pieces_of(s, 0));
	put_int_figure(&out[3], "pieces_yellow", pieces_of(s, 1));
	return 4;
}

static int gl_render_text(const void *state, struct kifu_buf *out)
{
	const struct gl_state *s = state;
	const struct kifu_hex *h;
	struct kifu_outcome oc;
	int row, i;

	geo_init();
	h = geo.hex;
	for (row = 0; row < h->nrows; row++) {
		int indent = 2 * (row < 4 ? 4 - row : row - 4);

		kifu_buf_printf(out, "%c %*s", 'a' + row, indent, "");
		for (i = 0; i < h->rowlen[row]; i++) {
			int c = h->rowstart[row] + i;
			char tok[16];

			if (s->h[c])
				snprintf(tok, sizeof(tok), "%c%lu", colour_at(s, c) ? 'y' : 'r',
					 (unsigned long)s->h[c]);
			else
				strcpy(tok, ".");
			kifu_buf_printf(out, "%4s", tok);
		}
		kifu_buf_printf(out, "%*s   %c1-%c%d\n", indent, "", 'a' + row, 'a' + row,
				h->rowlen[row]);
	}
	kifu_buf_puts(out, "(rN/yN: red/yellow stack of height N)\n");
	gl_outcome(s, &oc);
	if (oc.status == KIFU_WIN)
		kifu_buf_printf(out, "game over: %s wins (%s)", gl_sides[oc.winner],
				s->winner ? "connection" : "no separation left");
	else if (s->setup)
		kifu_buf_printf(out, "to move: %s (set-up, %d placements due)", gl_sides[s->side],
				s->setup);
	else
		kifu_buf_printf(out, "to move: %s", gl_sides[s->side]);
	return kifu_buf_printf(out, "; stacks_red %d; stacks_yellow %d; pieces_red %ld; pieces_yellow %ld\n",
			       __builtin_popcountll(s->occ[0]), __builtin_popcountll(s->occ[1]),
			       pieces_of(s, 0), pieces_of(s, 1));
}

/*
 * Stacks are discs in their colour, one rim showing per piece up to five
 * (taller stacks would not fit their cell), with the exact height written
 * on top.
 */
static int gl_render(const void *state, const int *marks, int nmarks, struct kifu_buf *out)
{
	const struct gl_state *s = state;
	struct kifu_svg_caption cap;
	struct kifu_svg_hex l;
	int c;

	geo_init();
	kifu_svg_hex_layout(&l, geo.hex, 32);
	kifu_svg_caption_make(&cap, &kifu_game_glaisher, s, l.width);
	kifu_svg_begin(out, &kifu_game_glaisher, l.width, l.height + kifu_svg_caption_height(&cap));
	kifu_svg_hex_board(out, &l, NULL);
	kifu_svg_hex_marks(out, &l, marks, nmarks);
	for (c = 0; c < NC; c++) {
		char name[8], tok[16], num[12];
		double x, y;

		if (!s->h[c])
			continue;
		kifu_hex_cell_name(geo.hex, c, name);
		snprintf(tok, sizeof(tok), "%c%lu", colour_at(s, c) ? 'y' : 'r',
			 (unsigned long)s->h[c]);
		snprintf(num, sizeof(num), "%lu", (unsigned long)s->h[c]);
		kifu_svg_hex_centre(&l, c, &x, &y);
		kifu_svg_cell_open(out, name, tok, x, y - 4);
		kifu_svg_disc_stack(out, kifu_svg_colour(gl_sides[colour_at(s, c)]), l.size * 0.52,
				    s->h[c] < 5 ? (int)s->h[c] : 5, 5, num);
		kifu_svg_cell_close(out);
	}
	kifu_svg_caption_put(out, &cap, l.width / 2, l.height);
	kifu_svg_hex_numbers(out, &l);
	return kifu_svg_end(out);
}

static int gl_render_svg(const void *state, struct kifu_buf *out)
{
	return gl_render(state, NULL, 0, out);
}

/*
 * The cells a move touched: the set-up cell; for a separation its origin,
 * the cells its parts landed on, and the cell the piece was placed on.
 */
static int gl_render_svg_last(const void *state, kifu_move last, struct kifu_buf *out)
{
	int cells[MAX_PART + 2], n = 0, o = M_ORIGIN(last), d = M_DIR(last);
	unsigned mask = M_MASK(last);

	geo_init();
	if (last & M_SETUP) {
		cells[n++] = M_CELL(last);
	} else {
		cells[n++] = o;
		while (mask) {
			int t = geo.dest[o][d][__builtin_ctz(mask) + 1];

			mask &= mask - 1;
			if (t >= 0)
				cells[n++] = t;
		}
		if (M_CELL(last) != NO_CELL && M_CELL(last) != o)
			cells[n++] = M_CELL(last);
	}
	return gl_render(state, cells, n, out);
}

const struct kifu_game kifu_game_glaisher = {
	.name = "glaisher",
	.title = "Glaisher",
	.variants = gl_variants,
	.sides = gl_sides,
	.nsides = 2,
	.flags = KIFU_GAME_CHOOSE_FIRST,
	.state_size = sizeof(struct gl_state),
	.max_moves = GL_MAX_MOVES,
	.init = gl_init,
	.side_to_move = gl_side_to_move,
	.legal_moves = gl_legal_moves,
	.count_moves = gl_count_moves,
	.apply = gl_apply,
	.parse_move = gl_parse_move,
	.format_move = gl_format_move,
	.outcome = gl_outcome,
	.hash = gl_hash,
	.rehash = gl_rehash,
	.figures = gl_figures,
	.render_svg_last = gl_render_svg_last,
	.render_text = gl_render_text,
	.render_svg = gl_render_svg,
	.nsymmetries = KIFU_HEX_SYMMETRIES,
	.symmetry_inverse = kifu_hex_sym_inverse,
	.map_state = gl_map_state,
	.map_move = gl_map_move,
	.hash_symmetries = gl_hash_symmetries,
};
