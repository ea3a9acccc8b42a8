/*
 * Rules engine of glaisher, Ken Shoda's connection game Glaisher (2015) on
 * the 61-cell hex-hex board: a turn separates one of the mover's stacks into
 * sub-stacks of pairwise different heights, each flying its own height in
 * one direction (flipping and landing on opponent stacks no taller than
 * itself, merging with the mover's own), then places one new piece on an
 * empty cell. Joining a pair of opposite sides wins at once, even before the
 * placement; a side that cannot separate any stack loses. The `advanced`
 * variant starts with six set-up turns placing the 6-stacks. See
 * spec/games/glaisher.md. The notation (parsing and writing moves) and the
 * text and pictures of a position are in glaisher_text.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "games/board.h"
#include "games/eval.h"
#include "games/glaisher.h"

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

static const char *const gl_variants[] = { "standard", "advanced", NULL };
static const char *const gl_sides[] = { "red", "yellow", NULL };

static struct kifu_glaisher_geo_ geo;
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
	const struct kifu_hex *h = kifu_hex_board_(4);
	int c, d, k, hgt, n = 0;

	memset(&geo, 0, sizeof(geo));
	geo.hex = h;
	for (hgt = 1; hgt <= ZTAB_H; hgt++)
		for (c = 0; c < NC; c++)
			for (d = 0; d < 2; d++)
				geo.zpiece[hgt - 1][c][d] = ZPIECE(c, d, hgt);
	for (c = 0; c < NC; c++) {
		geo.sides[c] = side_bits(h, c);
		for (d = 0; d < 6; d++)
			if (geo.sides[c] >> d & 1)
				geo.side_cells[d] |= BIT(c);
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
	for (k = 0; k < 8; k++)
		for (d = 0; d < 256; d++)
			for (c = 0; c < 8; c++)
				if (d >> c & 1 && 8 * k + c < NC)
					geo.nbbyte[k][d] |= geo.nbm[8 * k + c];
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

const struct kifu_glaisher_geo_ *kifu_glaisher_geo_(void)
{
	geo_init();
	return &geo;
}

/*
 * Whether some component of `mine` holding a cell of `seeds` touches two
 * opposite sides. A new connection must run through a cell the move just
 * filled, since the mover was not connected before it.
 */
int kifu_glaisher_connects_(uint64_t mine, uint64_t seeds)
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
unsigned kifu_glaisher_blocked_parts_(const struct kifu_glaisher_state_ *s, int o, int d,
				      uint64_t theirs)
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

/* The cells the parts m (bit k-1 = a part of k) land on. */
uint64_t kifu_glaisher_dest_mask_(int o, int d, unsigned m)
{
	uint64_t dm = 0;

	while (m) {
		int k = __builtin_ctz(m) + 1;

		m &= m - 1;
		dm |= geo.dbit[o][d][k];
	}
	return dm;
}

static int game_over_fast(const struct kifu_glaisher_state_ *s)
{
	return s->winner != 0;
}

/*
 * The (stack, direction) pairs of side from which some separation is legal,
 * or with `first`, 1 at the first one found (whether there is any): the
 * rules ask the one, the evaluation's mobility the other.
 */
static int separations(const struct kifu_glaisher_state_ *s, int side, int first)
{
	uint64_t mine = s->occ[side], theirs = s->occ[!side], bits;
	int n = 0;

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
			blk = kifu_glaisher_blocked_parts_(s, o, d, theirs);
			for (i = geo.poff[hgt]; i < geo.poff[hgt + 1] && geo.pmax[i] <= r; i++)
				if (!(geo.pmask[i] & blk)) {
					if (first)
						return 1;
					n++;
					break;
				}
		}
	}
	return n;
}

/* Whether the side to move has a separation at all (the set-up turns are over). */
static int has_separation(const struct kifu_glaisher_state_ *s)
{
	return separations(s, s->side, 1);
}

/* Whether the game is over: a connection, or no separation for the side to move. */
int kifu_glaisher_game_over_(const struct kifu_glaisher_state_ *s)
{
	return s->winner || (!s->setup && !has_separation(s));
}

static void put_stack(struct kifu_glaisher_state_ *s, int c, int col, uint32_t hgt)
{
	s->h[c] = hgt;
	s->occ[col] |= BIT(c);
	s->hash ^= ZPIECE(c, col, hgt);
}

static int gl_init(void *state, int variant, int first, struct kifu_error *err)
{
	static const char *const start[2][3] = { { "a2", "f8", "h1" }, { "b6", "d1", "i4" } };
	struct kifu_glaisher_state_ *s = state;
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
				put_stack(s, kifu_hex_cell_parse_(geo.hex, start[col][i], 2), col, 6);
	} else {
		s->setup = SETUP_TURNS;
		s->hash ^= ZSETUP(SETUP_TURNS);
	}
	return 0;
}

static int gl_side_to_move(const void *state)
{
	const struct kifu_glaisher_state_ *s = state;

	return s->side;
}

/*
 * The scan over every separation shared by listing and counting: with
 * `moves` NULL it only counts. A separation that connects is one move;
 * any other is one move per empty cell after it.
 */
static size_t scan(const struct kifu_glaisher_state_ *s, kifu_move *moves)
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
			blk = kifu_glaisher_blocked_parts_(s, o, d, theirs);
			for (i = geo.poff[hgt]; i < geo.poff[hgt + 1] && geo.pmax[i] <= r; i++) {
				unsigned m = geo.pmask[i];
				uint64_t dm, nm, empty;

				if (m & blk)
					continue;
				dm = kifu_glaisher_dest_mask_(o, d, m);
				nm = mine_o | dm;
				if (kifu_glaisher_connects_(nm, dm)) {
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
	struct kifu_glaisher_state_ *s = state;
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
				int tc = kifu_glaisher_colour_at_(s, t);

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
			if (kifu_glaisher_connects_(s->occ[col], BIT(c))) {
				s->winner = (uint8_t)(col + 1);
				s->hash ^= ZWIN(col);
			}
		}
	}
	s->side ^= 1;
	s->hash ^= ZSIDE;
}

static void gl_outcome(const void *state, struct kifu_outcome *out)
{
	const struct kifu_glaisher_state_ *s = state;

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
	const struct kifu_glaisher_state_ *s = state;

	return s->hash;
}

/* The keys of everything but the stacks (kept by every symmetry). */
static uint64_t rule_hash(const struct kifu_glaisher_state_ *s)
{
	return (s->side ? ZSIDE : 0) ^ (s->setup ? ZSETUP(s->setup) : 0) ^
	       (s->winner ? ZWIN(s->winner - 1) : 0);
}

static uint64_t gl_rehash(const void *state)
{
	const struct kifu_glaisher_state_ *s = state;
	uint64_t h = rule_hash(s);
	int c;

	for (c = 0; c < NC; c++)
		if (s->h[c])
			h ^= ZPIECE(c, kifu_glaisher_colour_at_(s, c), s->h[c]);
	return h;
}

/*
 * Symmetries: all 12 of the hex board (the six sides go onto the six sides,
 * opposite pairs onto opposite pairs, so connections are kept).
 */
static void gl_map_state(void *dst, const void *src, int k)
{
	const struct kifu_glaisher_state_ *s = src;
	struct kifu_glaisher_state_ *d = dst;
	int c;

	geo_init();
	memset(d, 0, sizeof(*d));
	for (c = 0; c < NC; c++) {
		int t = geo.hex->sym[k][c];

		d->h[t] = s->h[c];
		if (s->h[c])
			d->occ[kifu_glaisher_colour_at_(s, c)] |= BIT(t);
	}
	d->side = s->side;
	d->setup = s->setup;
	d->winner = s->winner;
	d->hash = gl_rehash(d);
}

/* gl_rehash of the 12 mapped positions in one pass: the stacks mapped, the rest kept. */
static void gl_hash_symmetries(uint64_t *out, const void *state)
{
	const struct kifu_glaisher_state_ *s = state;
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
		col = kifu_glaisher_colour_at_(s, c);
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
	return MKSEP(geo.hex->sym[k][M_ORIGIN(m)], kifu_hex_sym_dir_(k, M_DIR(m)), M_MASK(m), c);
}

/*
 * The connection distance of a side for the evaluation: the fewest cells to
 * fill to join a pair of opposite sides with its stacks, an empty cell
 * costing 1, an opponent's stack 2 (it must be flipped), its own 0; the
 * least over the three pairs. Dial's shortest paths on bit sets, costs
 * 0..2 in a ring of three buckets.
 */
static int conn_dist(uint64_t mine, uint64_t theirs)
{
	int best = 2 * NC, pair;

	for (pair = 0; pair < 3; pair++) {
		uint64_t from = geo.side_cells[2 * pair], to = geo.side_cells[2 * pair + 1];
		uint64_t done = 0, ring[3] = { 0, 0, 0 };
		int d;

		ring[0] = from & mine;
		ring[1] = from & ~mine & ~theirs;
		ring[2] = from & theirs;
		for (d = 0; d < best && (ring[0] | ring[1] | ring[2]); d++) {
			uint64_t cur = ring[d % 3] & ~done;

			ring[d % 3] = 0;
			while (cur) {
				uint64_t nb = 0, bits;

				done |= cur;
				if (cur & to) {
					best = d;
					break;
				}
				/* a byte of the set at a time: frontiers hold a dozen cells */
				for (bits = cur; bits;) {
					int k = __builtin_ctzll(bits) >> 3;

					nb |= geo.nbbyte[k][cur >> (8 * k) & 0xff];
					bits &= ~(UINT64_C(0xff) << (8 * k));
				}
				nb &= ~done;
				cur = nb & mine;
				ring[(d + 1) % 3] |= nb & ~mine & ~theirs;
				ring[(d + 2) % 3] |= nb & theirs;
			}
		}
	}
	return best;
}

/*
 * The evaluation's features of each side (games/eval.h), all kept by the
 * board's symmetries: the connection distance (as 1 / (1 + d), and again
 * when the side is to move), the stacks and the pieces in them, mobility
 * (stack and direction pairs that can separate) and having none (a side
 * with no separation loses on its turn), and the move itself. The set-up
 * turns of `advanced` are valued by the same features.
 */
enum { GF_CLOSE, GF_CLOSE_NOW, GF_STACKS, GF_PIECES, GF_MOBILITY, GF_STUCK, GF_TO_MOVE, GF_N };

static const char *const gl_feature_names[GF_N] = {
	"close", "close_now", "stacks", "pieces", "mobility", "stuck", "to_move"
};

static int gl_features(const void *state, double *f, unsigned *alive)
{
	const struct kifu_glaisher_state_ *s = state;
	int side;

	(void)alive;
	geo_init();
	for (side = 0; side < 2; side++) {
		double *g = f + side * GF_N, close = 1.0 / (1 + conn_dist(s->occ[side], s->occ[!side]));
		double pieces = 0;
		uint64_t bits;
		int mob = separations(s, side, 0);

		for (bits = s->occ[side]; bits; bits &= bits - 1)
			pieces += s->h[__builtin_ctzll(bits)];
		g[GF_CLOSE] = close;
		g[GF_CLOSE_NOW] = side == s->side ? close : 0.0;
		g[GF_STACKS] = __builtin_popcountll(s->occ[side]) / 10.0;
		g[GF_PIECES] = pieces / 10.0;
		g[GF_MOBILITY] = mob / 10.0;
		g[GF_STUCK] = mob == 0 && !s->setup;
		g[GF_TO_MOVE] = side == s->side;
	}
	return 0;
}

/*
 * Fitted by `make fit-eval FIT_EVAL_ARGS="--only glaisher"` (bench/fit-eval.c, seed 1):
 * logistic regression on every position before the end of 300 self-play
 * games per variant, about half between copies of mcts:40, the others
 * between random players.
 * Held-out log-loss (one game in four) against the uniform value's:
 * standard 0.6525 against 0.6931, advanced 0.6579 against 0.6931.
 */
static const double gl_weights[GF_N] = {
	3.1430, 0.4387, -0.9745, 1.1139, 0.1770, -2.0098, 0.0198,
};

const struct kifu_game_eval_ kifu_game_glaisher_eval_ = {
	.game = &kifu_game_glaisher_,
	.nfeatures = GF_N,
	.names = gl_feature_names,
	.features = gl_features,
	.nweights = 1,
	.weights = gl_weights,
};

static void gl_evaluate(const void *state, double *out)
{
	kifu_game_eval_run_(&kifu_game_glaisher_eval_, state, out);
}

const struct kifu_game kifu_game_glaisher_ = {
	.name = "glaisher",
	.title = "Glaisher",
	.variants = gl_variants,
	.sides = gl_sides,
	.nsides = 2,
	.flags = KIFU_GAME_CHOOSE_FIRST,
	.state_size = sizeof(struct kifu_glaisher_state_),
	.max_moves = GL_MAX_MOVES,
	.init = gl_init,
	.side_to_move = gl_side_to_move,
	.legal_moves = gl_legal_moves,
	.count_moves = gl_count_moves,
	.apply = gl_apply,
	.parse_move = kifu_glaisher_parse_move_,
	.format_move = kifu_glaisher_format_move_,
	.outcome = gl_outcome,
	.hash = gl_hash,
	.rehash = gl_rehash,
	.figures = kifu_glaisher_figures_,
	.render_svg_last = kifu_glaisher_render_svg_last_,
	.render_text = kifu_glaisher_render_text_,
	.render_svg = kifu_glaisher_render_svg_,
	.nsymmetries = KIFU_HEX_SYMMETRIES,
	.symmetry_inverse = kifu_hex_sym_inverse_,
	.map_state = gl_map_state,
	.map_move = gl_map_move,
	.hash_symmetries = gl_hash_symmetries,
	.evaluate = gl_evaluate,
	.ncells = kifu_glaisher_ncells_,
	.cell_name = kifu_glaisher_cell_name_,
	.cell_token = kifu_glaisher_cell_token_,
	.token_side = kifu_glaisher_token_side_,
	.tokens_help = kifu_glaisher_tokens_help_,
	.map_cell = kifu_glaisher_map_cell_,
	.side_cells = kifu_glaisher_side_cells_,
};
