/*
 * Rules engine of splay-kisenwether, Joseph Kisenwether's Splay (2000): a
 * stacking race on 8x8 squares where mixed stacks of white and black stones
 * step or splay (spread one stone a cell) in eight directions, stones that
 * reach the far rank for their colour (white on rank 1, black on rank 8) are
 * captured by the other side, no move may leave a stack taller than the
 * longest run from its cell to the edge, a splay of a stack at that size
 * limit is forced when one is legal, and the first side to capture 9 stones
 * wins. See shared/spec/games/splay-kisenwether.md.
 */
#include <stdio.h>
#include <string.h>

#include "games/board.h"
#include "games/eval.h"
#include "games/svg.h"

extern const struct kifu_game kifu_game_splay_kisenwether_;

#define W 8
#define NCELLS 64
#define WHITE 0
#define BLACK 1
#define WIN_CAPTURES 9

/*
 * A cell is one byte: a sentinel bit at bit h above the colours of the h
 * stones, bottom stone in bit 0, 1 = black. An empty cell is 1 (sentinel
 * alone). No stack can be taller than 7 (the largest size limit) after a
 * legal move, so a byte holds every stack; sums before captures may reach
 * 14 stones and are computed in unsigned int.
 */
#define EMPTY 1u

/* Moves: from in bits 0-5, direction in bits 6-8, SPLAY flag; pass alone. */
#define MV_FROM(m) ((int)((m) & 63))
#define MV_DIR(m) ((int)(((m) >> 6) & 7))
#define MV_SPLAY ((kifu_move)1 << 9)
#define MV_PASS ((kifu_move)1 << 10)
#define MV_MAKE(from, dir, splay) \
	((kifu_move)(from) | (kifu_move)(dir) << 6 | ((splay) ? MV_SPLAY : 0))

/*
 * Bound of legal_moves(): every move but pass starts from a stack topped by
 * one of the mover's stones, and a side has at most 18 stones, so at most 18
 * origins; each has at most 8 steps and 8 splays. Pass is listed alone.
 */
#define MAX_MOVES (18 * 16)

struct kis_state {
	uint64_t hash;
	uint8_t cell[NCELLS];
	uint8_t side;    /* to move */
	uint8_t cap[2];  /* stones captured by white, by black */
	uint8_t pad[5];
};

/* Zobrist layout: cell * 256 + byte, then the side to move, then captures. */
#define Z_SALT UINT64_C(0x6b6973656e776574)
#define Z_SIDE (NCELLS * 256)
#define Z_CAP(who, n) (Z_SIDE + 1 + (uint64_t)(who) * 64 + (uint64_t)(n))

/* Cell index step of each direction (n, s, e, w, ne, nw, se, sw). */
static const int delta[8] = { W, -W, 1, -1, W + 1, W - 1, -W + 1, -W - 1 };

/* Cells from a cell to the edge in each direction, as constant expressions. */
#define MN(a, b) ((a) < (b) ? (a) : (b))
#define RK(s) ((s) / W)
#define FL(s) ((s) % W)
#define RAY(s) { 7 - RK(s), RK(s), 7 - FL(s), FL(s), MN(7 - RK(s), 7 - FL(s)), \
		 MN(7 - RK(s), FL(s)), MN(RK(s), 7 - FL(s)), MN(RK(s), FL(s)) }
#define RAYROW(r) RAY(r * W + 0), RAY(r * W + 1), RAY(r * W + 2), RAY(r * W + 3), \
		  RAY(r * W + 4), RAY(r * W + 5), RAY(r * W + 6), RAY(r * W + 7)
static const uint8_t raylen[NCELLS][8] = {
	RAYROW(0), RAYROW(1), RAYROW(2), RAYROW(3),
	RAYROW(4), RAYROW(5), RAYROW(6), RAYROW(7)
};

/* The size limit: the longest ray (an orthogonal one is never shorter than a diagonal). */
#define MX(a, b) ((a) > (b) ? (a) : (b))
#define LIM(s) MX(MX(RK(s), 7 - RK(s)), MX(FL(s), 7 - FL(s)))
#define LIMROW(r) LIM(r * W + 0), LIM(r * W + 1), LIM(r * W + 2), LIM(r * W + 3), \
		  LIM(r * W + 4), LIM(r * W + 5), LIM(r * W + 6), LIM(r * W + 7)
static const uint8_t limit[NCELLS] = {
	LIMROW(0), LIMROW(1), LIMROW(2), LIMROW(3),
	LIMROW(4), LIMROW(5), LIMROW(6), LIMROW(7)
};

static inline int height(unsigned v)
{
	return 31 - __builtin_clz(v);
}

/*
 * Stacks hold at most 14 stones plus the sentinel (sums before captures),
 * so a 16-bit bit count does; __builtin_popcount would be a library call
 * where the build does not enable a popcount instruction.
 */
static inline int nblack(unsigned v)
{
	v = v - ((v >> 1) & 0x5555u);
	v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
	v = (v + (v >> 4)) & 0x0f0fu;
	return (int)((v + (v >> 8)) & 0x1fu) - 1;
}

static inline int top_colour(unsigned v, int h)
{
	return (int)(v >> (h - 1)) & 1;
}

/* The rank on which stones of colour c are captured: white on rank 1, black on rank 8. */
static inline int capture_rank(int c)
{
	return c == WHITE ? 0 : 7;
}

static uint64_t zcell(int cell, unsigned v)
{
	return v == EMPTY ? 0 : kifu_zobrist(Z_SALT, (uint64_t)cell * 256 + v);
}

static uint64_t zcap(int who, int n)
{
	return n ? kifu_zobrist(Z_SALT, Z_CAP(who, n)) : 0;
}

/* The hash of st with its cells mirrored a <-> h when `mirror` (the side and captures are kept). */
static uint64_t hash_mirrored(const struct kis_state *st, int mirror)
{
	uint64_t h = 0;
	int c;

	for (c = 0; c < NCELLS; c++)
		h ^= zcell(mirror ? c ^ (W - 1) : c, st->cell[c]); /* file f -> W-1-f, W = 8 */
	if (st->side)
		h ^= kifu_zobrist(Z_SALT, Z_SIDE);
	h ^= zcap(WHITE, st->cap[WHITE]) ^ zcap(BLACK, st->cap[BLACK]);
	return h;
}

static uint64_t compute_hash(const struct kis_state *st)
{
	return hash_mirrored(st, 0);
}

/* Height of stack v after a step onto stack t at cell `to`, captures done. */
static int step_height(unsigned vs, unsigned vt, int to)
{
	int hs = height(vs), ht = height(vt);

	switch (RK(to)) {
	case 0: /* only the black stones stay */
		return nblack(vs) + nblack(vt);
	case 7: /* only the white stones stay */
		return hs - nblack(vs) + ht - nblack(vt);
	default:
		return hs + ht;
	}
}

/*
 * Whether the splay of stack v (height h) from s along d keeps every stack
 * it lands on within its limit; `full` has the cells already at their
 * limit. The ray is known to be long enough. A stone captured on landing
 * leaves its stack as it was.
 */
static int splay_fits(int s, int d, unsigned v, int h, uint64_t full)
{
	int k, t = s;

	for (k = 1; k <= h; k++) {
		int b = (int)(v >> (h - k)) & 1;

		t += delta[d];
		if (RK(t) == capture_rank(b))
			continue;
		if (full >> t & 1)
			return 0;
	}
	return 1;
}

/*
 * Whether one of the eight cells from c holds a stack of 4 or more, which
 * is at least every size limit asks: its sentinel is at bit 4 or above.
 */
static inline int tall8(const struct kis_state *st, int c)
{
	uint64_t word;

	memcpy(&word, st->cell + c, sizeof(word));
	return (word & UINT64_C(0xf0f0f0f0f0f0f0f0)) != 0;
}

static uint64_t full_cells(const struct kis_state *st)
{
	uint64_t full = 0;
	int c;

	for (c = 0; c < NCELLS; c++) {
		if (!(c & 7) && !tall8(st, c)) {
			c += 7;
			continue;
		}
		if (height(st->cell[c]) >= limit[c])
			full |= (uint64_t)1 << c;
	}
	return full;
}

/*
 * The steps and splays of `side` (pass aside) into mv (NULL: count only).
 * When a splay of a stack at its size limit is legal, only such splays are
 * listed. With `any`, returns as soon as one move is known.
 */
static size_t gen(const struct kis_state *st, int side, kifu_move *mv, int any)
{
	uint64_t full = full_cells(st);
	size_t n = 0;
	int forced = 0, s, d;

	for (s = 0; s < NCELLS; s++) {
		unsigned v = st->cell[s];
		int h;

		if (v == EMPTY)
			continue;
		h = height(v);
		if (top_colour(v, h) != side)
			continue;
		if (h == limit[s]) {
			/* only rays as long as the limit can take it */
			for (d = 0; d < 8; d++) {
				if (raylen[s][d] < h || !splay_fits(s, d, v, h, full))
					continue;
				if (!forced) {
					forced = 1;
					n = 0;
				}
				if (mv)
					mv[n] = MV_MAKE(s, d, 1);
				n++;
			}
		}
		if (forced) {
			if (any)
				return n;
			continue;
		}
		for (d = 0; d < 8; d++) {
			int t;

			if (!raylen[s][d])
				continue;
			t = s + delta[d];
			if (step_height(v, st->cell[t], t) > limit[t])
				continue;
			if (mv)
				mv[n] = MV_MAKE(s, d, 0);
			n++;
		}
		/* at the limit, the splays were all tried above */
		if (h >= 2 && h < limit[s]) {
			for (d = 0; d < 8; d++) {
				if (raylen[s][d] < h || !splay_fits(s, d, v, h, full))
					continue;
				if (mv)
					mv[n] = MV_MAKE(s, d, 1);
				n++;
			}
		}
		if (any && n)
			return n;
	}
	return n;
}

static int game_over_by_captures(const struct kis_state *st)
{
	return st->cap[WHITE] >= WIN_CAPTURES || st->cap[BLACK] >= WIN_CAPTURES;
}

static int kis_init(void *state, int variant, int first, struct kifu_error *err)
{
	struct kis_state *st = state;
	int f;

	if (variant != 0)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splay-kisenwether has no variant %d",
				      variant);
	if (first != WHITE && first != BLACK)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splay-kisenwether has no side %d", first);
	memset(st, 0, sizeof(*st));
	memset(st->cell, EMPTY, sizeof(st->cell));
	for (f = 1; f <= 6; f++) {
		st->cell[6 * W + f] = 4;     /* two white stones */
		st->cell[5 * W + f] = 2;     /* one white stone */
		st->cell[2 * W + f] = 3;     /* one black stone */
		st->cell[1 * W + f] = 7;     /* two black stones */
	}
	st->side = (uint8_t)first;
	st->hash = compute_hash(st);
	return 0;
}

static int kis_side_to_move(const void *state)
{
	return ((const struct kis_state *)state)->side;
}

static size_t kis_legal_moves(const void *state, kifu_move *moves)
{
	const struct kis_state *st = state;
	size_t n;

	if (game_over_by_captures(st))
		return 0;
	n = gen(st, st->side, moves, 0);
	if (!n && gen(st, !st->side, NULL, 1)) {
		moves[0] = MV_PASS;
		n = 1;
	}
	return n;
}

static size_t kis_count_moves(const void *state)
{
	const struct kis_state *st = state;
	size_t n;

	if (game_over_by_captures(st))
		return 0;
	n = gen(st, st->side, NULL, 0);
	if (!n && gen(st, !st->side, NULL, 1))
		n = 1;
	return n;
}

static void set_cell(struct kis_state *st, int c, unsigned v)
{
	st->hash ^= zcell(c, st->cell[c]) ^ zcell(c, v);
	st->cell[c] = (uint8_t)v;
}

static void add_captures(struct kis_state *st, int who, int n)
{
	if (!n)
		return;
	st->hash ^= zcap(who, st->cap[who]) ^ zcap(who, st->cap[who] + n);
	st->cap[who] = (uint8_t)(st->cap[who] + n);
}

static void kis_apply(void *state, kifu_move m)
{
	struct kis_state *st = state;

	if (m != MV_PASS) {
		int s = MV_FROM(m), d = MV_DIR(m);
		unsigned v = st->cell[s];
		int h = height(v);

		set_cell(st, s, EMPTY);
		if (m & MV_SPLAY) {
			int k, t = s;

			for (k = 1; k <= h; k++) {
				int b = (int)(v >> (h - k)) & 1;
				unsigned vt;

				t += delta[d];
				if (RK(t) == capture_rank(b)) {
					add_captures(st, !b, 1);
					continue;
				}
				vt = st->cell[t];
				set_cell(st, t, vt + ((unsigned)(1 + b) << height(vt)));
			}
		} else {
			int t = s + delta[d];
			unsigned vt = st->cell[t];
			int ht = height(vt);
			/* the moved stack above the stones of t (its sentinel dropped) */
			unsigned nv = (v << ht) + vt - (1u << ht);
			int nh = h + ht, keep;

			if (RK(t) == 0) {
				keep = nblack(nv);
				add_captures(st, BLACK, nh - keep);
				nv = (2u << keep) - 1;
			} else if (RK(t) == 7) {
				keep = nh - nblack(nv);
				add_captures(st, WHITE, nh - keep);
				nv = 1u << keep;
			}
			set_cell(st, t, nv);
		}
	}
	st->side ^= 1;
	st->hash ^= kifu_zobrist(Z_SALT, Z_SIDE);
}

static void kis_format_move(const void *state, kifu_move m, char *buf)
{
	char from[4], to[4];
	int s, d;

	(void)state;
	if (m == MV_PASS) {
		strcpy(buf, "pass");
		return;
	}
	s = MV_FROM(m);
	d = MV_DIR(m);
	kifu_sq_cell_name_(W, s, from);
	if (m & MV_SPLAY) {
		snprintf(buf, KIFU_MOVE_TEXT_MAX, "%s>%s", from, kifu_sq_dir_name_(d));
	} else {
		kifu_sq_cell_name_(W, s + delta[d], to);
		snprintf(buf, KIFU_MOVE_TEXT_MAX, "%s-%s", from, to);
	}
}

/* The direction from a to b when b is adjacent to a, else -1. */
static int adjacent_dir(int a, int b)
{
	int d;

	for (d = 0; d < 8; d++)
		if (raylen[a][d] && a + delta[d] == b)
			return d;
	return -1;
}

/* The first stack over its limit that move m (intrinsically possible) would leave, or -1. */
static int overfull_cell(const struct kis_state *st, kifu_move m, int *newh)
{
	int s = MV_FROM(m), d = MV_DIR(m);
	unsigned v = st->cell[s];
	int h = height(v), k, t = s;

	if (!(m & MV_SPLAY)) {
		t = s + delta[d];
		*newh = step_height(v, st->cell[t], t);
		return *newh > limit[t] ? t : -1;
	}
	for (k = 1; k <= h; k++) {
		int b = (int)(v >> (h - k)) & 1;

		t += delta[d];
		if (RK(t) == capture_rank(b))
			continue;
		*newh = height(st->cell[t]) + 1;
		if (*newh > limit[t])
			return t;
	}
	return -1;
}

/*
 * Whether move m (a step to an adjacent cell or a splay) is possible in
 * itself: a stack of the mover's, a splay of two stones or more that stays
 * on the board, no stack left over its limit (*bad and *newh say which and
 * how tall, as overfull_cell()). These are exactly the checks of gen() but
 * the forced splay rule.
 */
static int possible(const struct kis_state *st, kifu_move m, int *bad, int *newh)
{
	int s = MV_FROM(m);
	unsigned v = st->cell[s];
	int h = height(v);

	if (v == EMPTY || top_colour(v, h) != st->side)
		return 0;
	if ((m & MV_SPLAY) && (h == 1 || raylen[s][MV_DIR(m)] < h))
		return 0;
	*bad = overfull_cell(st, m, newh);
	return *bad < 0;
}

/*
 * Whether side can splay a stack at its size limit, keeping every stack it
 * lands on within its limit: such a splay is then forced (see gen()).
 */
static int forced_splay(const struct kis_state *st, int side)
{
	uint64_t full = 0;
	int s, d, have_full = 0;

	/* eight cells at a time, skip those where no stack is as tall as a limit */
	for (s = 0; s < NCELLS; s++) {
		unsigned v;
		int h;

		if (!(s & 7) && !tall8(st, s)) {
			s += 7;
			continue;
		}
		v = st->cell[s];
		h = height(v);
		if (h != limit[s] || top_colour(v, h) != side)
			continue;
		if (!have_full) {
			full = full_cells(st);
			have_full = 1;
		}
		for (d = 0; d < 8; d++)
			if (raylen[s][d] >= h && splay_fits(s, d, v, h, full))
				return 1;
	}
	return 0;
}

/*
 * Whether gen() lists m, a move possible in itself from a stack of height
 * h: with a forced splay only splays of stacks at their limit are listed;
 * otherwise every step, and the splays of stacks below their limit (those
 * at it would have made a splay forced).
 */
static int listed(const struct kis_state *st, kifu_move m, int h)
{
	int s = MV_FROM(m);

	if (forced_splay(st, st->side))
		return (m & MV_SPLAY) && h == limit[s];
	return !(m & MV_SPLAY) || h < limit[s];
}

/*
 * kifu_move_text_norm_() for the usual spelling of a move, lower case
 * without white space ("c2-c3", "d2>ne"), which normalises to itself:
 * copied as it is. Anything else goes through kifu_move_text_norm_().
 */
static int norm_text(const char *text, char *norm, char *raw, size_t size)
{
	size_t n;

	for (n = 0; text[n]; n++) {
		char c = text[n];

		if (n + 1 >= size || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
				       c == '-' || c == '>'))
			return kifu_move_text_norm_(text, 0, norm, raw, size);
	}
	memcpy(norm, text, n + 1);
	memcpy(raw, text, n + 1);
	return (int)n;
}

static int kis_parse_move(const void *state, const char *text, kifu_move *out,
			  struct kifu_error *err)
{
	const struct kis_state *st = state;
	char norm[KIFU_MOVE_TEXT_MAX], raw[KIFU_MOVE_TEXT_MAX], cname[4];
	kifu_move m;
	const char *sep;
	int len, s, d, h, bad, newh = 0;
	unsigned v;

	len = norm_text(text, norm, raw, sizeof(norm));
	if (len < 0)
		return kifu_error_set(err, KIFU_EPARSE, "unparsable move '%s': %s", raw,
				      strlen(raw) + 1 >= sizeof(raw) ? "too long" :
				      "white space inside the move");
	if (len == 0)
		return kifu_error_set(err, KIFU_EPARSE, "unparsable move '': empty move");
	if (!strcmp(norm, "pass")) {
		m = MV_PASS;
	} else {
		sep = strpbrk(norm, "->");
		if (!sep)
			return kifu_error_set(err, KIFU_EPARSE,
					      "unparsable move '%s': expected CELL-CELL, CELL>DIR or pass",
					      raw);
		s = kifu_sq_cell_parse_(W, W, norm, (size_t)(sep - norm));
		if (s < 0)
			return kifu_error_set(err, KIFU_EPARSE, "unparsable move '%s': unknown cell '%.*s'",
					      raw, (int)(sep - norm), raw);
		if (*sep == '-') {
			int t = kifu_sq_cell_parse_(W, W, sep + 1, strlen(sep + 1));

			if (t < 0)
				return kifu_error_set(err, KIFU_EPARSE,
						      "unparsable move '%s': unknown cell '%s'", raw,
						      raw + (sep + 1 - norm));
			d = adjacent_dir(s, t);
			if (d < 0)
				return kifu_error_set(err, KIFU_EILLEGAL,
						      "illegal move '%s': '%s' is not adjacent to '%.*s'",
						      raw, raw + (sep + 1 - norm), (int)(sep - norm),
						      raw);
			m = MV_MAKE(s, d, 0);
		} else {
			d = kifu_sq_dir_parse_(sep + 1, strlen(sep + 1));
			if (d < 0)
				return kifu_error_set(err, KIFU_EPARSE,
						      "unparsable move '%s': unknown direction '%s'", raw,
						      raw + (sep + 1 - norm));
			m = MV_MAKE(s, d, 1);
		}
	}
	if (game_over_by_captures(st))
		return kifu_error_set(err, KIFU_EILLEGAL, "illegal move '%s': the game is over", raw);
	/*
	 * Only the one move is checked, not the whole list: pass is legal
	 * exactly when the mover has no move and the opponent has one, and a
	 * move possible in itself gives the mover a move (so the game is not
	 * over) and is listed unless the forced splay rule excludes it.
	 */
	if (m == MV_PASS) {
		if (gen(st, st->side, NULL, 1))
			return kifu_error_set(err, KIFU_EILLEGAL,
					      "illegal move '%s': pass is not allowed: you have a legal move",
					      raw);
		if (!gen(st, !st->side, NULL, 1))
			return kifu_error_set(err, KIFU_EILLEGAL, "illegal move '%s': the game is over",
					      raw);
		*out = m;
		return 0;
	}
	s = MV_FROM(m);
	v = st->cell[s];
	h = height(v);
	bad = -1;
	if (!possible(st, m, &bad, &newh)) {
		/* a position where neither side can move is over, whatever the move */
		if (!gen(st, st->side, NULL, 1) && !gen(st, !st->side, NULL, 1))
			return kifu_error_set(err, KIFU_EILLEGAL, "illegal move '%s': the game is over",
					      raw);
		kifu_sq_cell_name_(W, s, cname);
		if (v == EMPTY)
			return kifu_error_set(err, KIFU_EILLEGAL, "illegal move '%s': no stack on '%s'",
					      raw, cname);
		if (top_colour(v, h) != st->side)
			return kifu_error_set(err, KIFU_EILLEGAL,
					      "illegal move '%s': no stack of yours on '%s' (its top stone is %s)",
					      raw, cname, top_colour(v, h) == WHITE ? "white" : "black");
		if ((m & MV_SPLAY) && h == 1)
			return kifu_error_set(err, KIFU_EILLEGAL,
					      "illegal move '%s': a single stone cannot splay", raw);
		if ((m & MV_SPLAY) && raylen[s][MV_DIR(m)] < h)
			return kifu_error_set(err, KIFU_EILLEGAL,
					      "illegal move '%s': the splay would put a stone off the board",
					      raw);
		kifu_sq_cell_name_(W, bad, cname);
		return kifu_error_set(err, KIFU_EILLEGAL,
				      "illegal move '%s': it would leave a stack of %d on '%s', whose size limit is %d",
				      raw, newh, cname, limit[bad]);
	}
	if (!listed(st, m, h))
		/* possible in itself, so only the forced splay rule excludes it */
		return kifu_error_set(err, KIFU_EILLEGAL,
				      "illegal move '%s': a splay of a stack at its size limit is forced",
				      raw);
	*out = m;
	return 0;
}

static void kis_outcome(const void *state, struct kifu_outcome *out)
{
	const struct kis_state *st = state;

	out->status = KIFU_ONGOING;
	out->winner = -1;
	if (st->cap[WHITE] >= WIN_CAPTURES) {
		out->status = KIFU_WIN;
		out->winner = WHITE;
	} else if (st->cap[BLACK] >= WIN_CAPTURES) {
		out->status = KIFU_WIN;
		out->winner = BLACK;
	} else if (!gen(st, st->side, NULL, 1) && !gen(st, !st->side, NULL, 1)) {
		out->status = KIFU_DRAW;
	}
}

static uint64_t kis_hash(const void *state)
{
	return ((const struct kis_state *)state)->hash;
}

static uint64_t kis_rehash(const void *state)
{
	return compute_hash(state);
}

/*
 * Symmetries: the identity and the file mirror a <-> h (square symmetry 1);
 * the ranks cannot be mirrored, since stones leave at their colour's rank.
 */
static const int kis_sym[2] = { 0, 1 };

static int kis_sym_inverse(int k)
{
	return k; /* both undo themselves */
}

static void kis_map_state(void *dst, const void *src, int k)
{
	const struct kis_state *s = src;
	struct kis_state *d = dst;
	int c;

	memset(d, 0, sizeof(*d));
	for (c = 0; c < NCELLS; c++)
		d->cell[kifu_sq_sym_cell_(W, W, kis_sym[k], c)] = s->cell[c];
	d->side = s->side;
	memcpy(d->cap, s->cap, sizeof(d->cap));
	d->hash = compute_hash(d);
}

/* Both mapped positions' hashes: the identity's is the kept one. */
static void kis_hash_symmetries(uint64_t *out, const void *state)
{
	out[0] = ((const struct kis_state *)state)->hash;
	out[1] = hash_mirrored(state, 1);
}

static kifu_move kis_map_move(const void *state, kifu_move m, int k)
{
	(void)state;
	if (m & MV_PASS)
		return m;
	return MV_MAKE(kifu_sq_sym_cell_(W, W, kis_sym[k], MV_FROM(m)),
		       kifu_sq_sym_dir_(kis_sym[k], MV_DIR(m)), m & MV_SPLAY);
}

static int kis_figures(const void *state, struct kifu_figure *out)
{
	const struct kis_state *st = state;
	static const char *const keys[2] = { "captures_white", "captures_black" };
	int i;

	for (i = 0; i < 2; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].key, sizeof(out[i].key), "%s", keys[i]);
		out[i].type = KIFU_FIG_INT;
		out[i].num = st->cap[i];
	}
	return 2;
}

/*
 * The evaluation's features of each side (games/eval.h), counts that the
 * file mirror keeps: captures (and their square, the race being to 9), own
 * stones two ranks or less from the rank where they are captured, enemy
 * stones held under the side's own top stones (all, and those that close
 * to their capture rank), the stacks the side moves, and the move itself.
 */
enum { KF_CAPS, KF_CAPS2, KF_DANGER, KF_HELD, KF_HELD_NEAR, KF_TOPS, KF_TO_MOVE, KF_N };

static const char *const kis_feature_names[KF_N] = {
	"caps", "caps2", "danger", "held", "held_near", "tops", "to_move"
};

static int kis_features(const void *state, double *f, unsigned *alive)
{
	const struct kis_state *st = state;
	int danger[2] = { 0, 0 }, held[2] = { 0, 0 }, near[2] = { 0, 0 }, tops[2] = { 0, 0 };
	int c, i, side;

	(void)alive;
	for (c = 0; c < NCELLS; c++) {
		unsigned v = st->cell[c];
		int h, top;

		if (v == EMPTY)
			continue;
		h = height(v);
		top = top_colour(v, h);
		tops[top]++;
		for (i = 0; i < h; i++) {
			int col = (int)(v >> i) & 1, d = RK(c) - capture_rank(col);
			int close = (d < 0 ? -d : d) <= 2;

			danger[col] += close;
			if (col != top) {
				held[top]++;
				near[top] += close;
			}
		}
	}
	for (side = 0; side < 2; side++) {
		double *g = f + side * KF_N;

		g[KF_CAPS] = st->cap[side] / 9.0;
		g[KF_CAPS2] = st->cap[side] * st->cap[side] / 81.0;
		g[KF_DANGER] = danger[side] / 10.0;
		g[KF_HELD] = held[side] / 10.0;
		g[KF_HELD_NEAR] = near[side] / 10.0;
		g[KF_TOPS] = tops[side] / 10.0;
		g[KF_TO_MOVE] = side == st->side;
	}
	return 0;
}

/*
 * Fitted by `make fit-eval FIT_EVAL_ARGS="--only splay-kisenwether"` (bench/fit-eval.c,
 * seed 1): logistic regression on every position before the end of 300 self-play games,
 * about half between copies of mcts:40, the others between random players. Held-out
 * log-loss (one game in four): 0.6171 against the uniform value's 0.6931.
 */
static const double kis_weights[KF_N] = {
	0.8521, 3.3046, -0.8856, 0.0752, 0.0334, 0.3481, -0.0018,
};

const struct kifu_game_eval_ kifu_game_splay_kisenwether_eval_ = {
	.game = &kifu_game_splay_kisenwether_,
	.nfeatures = KF_N,
	.names = kis_feature_names,
	.features = kis_features,
	.nweights = 1,
	.weights = kis_weights,
};

static void kis_evaluate(const void *state, double *out)
{
	kifu_game_eval_run_(&kifu_game_splay_kisenwether_eval_, state, out);
}

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

static int kis_render_text(struct kifu_buf *out, const void *state)
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
static int kis_render(struct kifu_buf *out, const void *state, const int *marks, int nmarks)
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

static int kis_render_svg(struct kifu_buf *out, const void *state)
{
	return kis_render(out, state, NULL, 0);
}

/*
 * A step marks where the stack left and where it landed; a splay where it
 * left and the first cell it spread onto (how far it spread is no longer
 * in the position).
 */
static int kis_render_svg_last(struct kifu_buf *out, const void *state, kifu_move last)
{
	int cells[2] = { MV_FROM(last), MV_FROM(last) + delta[MV_DIR(last)] };

	return kis_render(out, state, cells, last & MV_PASS ? 0 : 2);
}

static const char *const kis_variants[] = { "standard", NULL };
static const char *const kis_sides[] = { "white", "black", NULL };

const struct kifu_game kifu_game_splay_kisenwether_ = {
	.name = "splay-kisenwether",
	.title = "Splay (Kisenwether)",
	.variants = kis_variants,
	.sides = kis_sides,
	.nsides = 2,
	.flags = KIFU_GAME_CHOOSE_FIRST,
	.state_size = sizeof(struct kis_state),
	.max_moves = MAX_MOVES,
	.init = kis_init,
	.side_to_move = kis_side_to_move,
	.legal_moves = kis_legal_moves,
	.count_moves = kis_count_moves,
	.apply = kis_apply,
	.parse_move = kis_parse_move,
	.format_move = kis_format_move,
	.outcome = kis_outcome,
	.hash = kis_hash,
	.rehash = kis_rehash,
	.figures = kis_figures,
	.render_svg_last = kis_render_svg_last,
	.render_text = kis_render_text,
	.render_svg = kis_render_svg,
	.nsymmetries = 2,
	.symmetry_inverse = kis_sym_inverse,
	.map_state = kis_map_state,
	.map_move = kis_map_move,
	.hash_symmetries = kis_hash_symmetries,
	.evaluate = kis_evaluate,
};
