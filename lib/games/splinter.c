/*
 * Rules engine of Splinter for two (Ed Nadel): on a 10 x 9 board, blue and
 * white slide a piece one square, pushing the line in front of it (off the
 * edge too); the pieces then split into groups and only the largest stays.
 * This file holds what is Splinter's own: the set-up of both variants
 * (knockout: king, rook, bishop, pawn; survival: square, cross, circle), the
 * no-return rule and the endings. The push and splinter mechanics shared with
 * splinter-quad live in splinter_common.c.
 */
#include <string.h>

#include "games/board.h"
#include "games/eval.h"
#include "games/splinter_common.h"

extern const struct kifu_game kifu_game_splinter_;

#define SP_WIDTH 10
#define SP_HEIGHT 9
#define SP_SALT UINT64_C(0x5b11e7a2c4d90e13)
/* Square symmetries 0..3 (identity, file mirror, rank mirror, half turn) */
#define SP_NSYM 4

enum { SP_KNOCKOUT, SP_SURVIVAL };
enum { SP_BLUE, SP_WHITE };
/* Piece types: knockout uses all four, survival the first three. */
enum { SP_KING, SP_ROOK, SP_BISHOP, SP_PAWN };
enum { SP_SQUARE, SP_CROSS, SP_CIRCLE };

/* Zobrist indices of the keys beyond the pieces. */
#define SP_KEY_SIDE (SPL_KEY_EXTRA + 0)
#define SP_KEY_VARIANT (SPL_KEY_EXTRA + 4)
#define SP_KEY_BACK (SPL_KEY_EXTRA + 8)
#define SP_KEY_MOVED (SPL_KEY_EXTRA + 100)

/*
 * No return: the pieces that moved during the last turn (the mover and every
 * piece it pushed that stayed on the board) are marked where they stand now.
 * Each moved one step along the last turn's direction, so the only way one of
 * them gets back to the square it vacated is one step in the opposite
 * direction: a move is illegal exactly when it goes that way and its
 * line holds a marked piece. This tracks the pieces themselves (another piece
 * may freely enter a square a marked piece left), which is what the rule's
 * "that same piece" asks. Pieces removed by the splinter can never return and
 * are unmarked, and back is 0 when nothing is marked, so that equal
 * positions are equal in memory. An all-zero state is a valid position: the
 * empty knockout board, blue to move (unreachable by play, since the mover
 * stays on the board and the largest group always stays; tests use it for
 * the empty-board ruling).
 */
struct sp_state {
	struct kifu_splinter_core_ core;
	struct kifu_splinter_bb_ moved;
	uint8_t back;   /* 1 + the direction marked pieces may not take; 0: none */
	uint8_t variant;
	uint8_t side;
};

static const char *const sp_variants[] = { "knockout", "survival", NULL };
static const char *const sp_sides[] = { "blue", "white", NULL };

static const struct kifu_splinter_geom_ *geom(void)
{
	return kifu_splinter_geom_get_(SP_WIDTH, SP_HEIGHT);
}

static uint64_t key(int index)
{
	return kifu_zobrist(SP_SALT, (uint64_t)index);
}

/*
 * The keys of everything but the pieces (none for the all-zero values, so
 * that the all-zero state hashes to 0).
 */
static uint64_t state_hash(const struct sp_state *s)
{
	struct kifu_splinter_bb_ m = s->moved;
	uint64_t h = (s->side ? key(SP_KEY_SIDE) : 0) ^ (s->variant ? key(SP_KEY_VARIANT) : 0);

	if (!s->back)
		return h;
	h ^= key(SP_KEY_BACK + s->back);
	while (!kifu_splinter_bb_empty_(&m)) {
		int c = kifu_splinter_bb_first_(&m);

		kifu_splinter_bb_clear_(&m, c);
		h ^= key(SP_KEY_MOVED + c);
	}
	return h;
}

/* The piece type of block cell (x, y), x = 0..5 on files c..h, y = 0..4 on ranks 3..7. */
static int start_type(int variant, int x, int y, int blue)
{
	int ring = x == 0 || x == 5 || y == 0 || y == 4;

	if (variant == SP_SURVIVAL)
		return ring ? SP_CIRCLE : y == 2 ? SP_SQUARE : SP_CROSS;
	if (ring)
		return SP_PAWN;
	if (y == 2)
		return SP_ROOK;
	/* the kings: the blue cross on f4 (3, 1) and the white one on e6 (2, 3) */
	if ((blue && x == 3 && y == 1) || (!blue && x == 2 && y == 3))
		return SP_KING;
	return SP_BISHOP;
}

static int sp_init(void *state, int variant, int first, struct kifu_error *err)
{
	struct sp_state *s = state;
	int x, y;

	if (variant < 0 || variant > SP_SURVIVAL)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splinter has no variant %d", variant);
	if (first < 0 || first > SP_WHITE)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splinter has no side %d", first);
	memset(s, 0, sizeof(*s));
	s->variant = (uint8_t)variant;
	s->side = (uint8_t)first;
	for (y = 0; y < 5; y++)
		for (x = 0; x < 6; x++) {
			int blue = (x + y) % 2 == 0;
			int side = blue ? SP_BLUE : SP_WHITE;

			kifu_splinter_put_(&s->core, SP_SALT, (y + 2) * SP_WIDTH + x + 2,
					   SPL_CODE(side, start_type(variant, x, y, blue)));
		}
	s->core.hash ^= state_hash(s);
	return 0;
}

static int sp_side_to_move(const void *state)
{
	return ((const struct sp_state *)state)->side;
}

/* knockout: the knockouts of side = the types its opponent has none of. */
static int knockouts(const struct sp_state *s, int side)
{
	int t, n = 0;

	for (t = 0; t < 4; t++)
		n += !s->core.count[!side][t];
	return n;
}

/* Whether side has lost its own condition (knockout: the opponent scored two). */
static int failed(const struct sp_state *s, int side)
{
	if (s->variant == SP_KNOCKOUT)
		return knockouts(s, !side) >= 2;
	return !s->core.count[side][SP_SQUARE] || !s->core.count[side][SP_CROSS] ||
	       !s->core.count[side][SP_CIRCLE];
}

/*
 * Knockouts and missing types only ever grow, and the game stops at the
 * first position where a side fails, so the result follows from the board:
 * both failing means one move made both fail (the more pieces win).
 */
static void sp_outcome(const void *state, struct kifu_outcome *out)
{
	const struct sp_state *s = state;
	int fb = failed(s, SP_BLUE), fw = failed(s, SP_WHITE);
	int nb = s->core.total[SP_BLUE], nw = s->core.total[SP_WHITE];

	out->status = KIFU_ONGOING;
	out->winner = -1;
	if (!nb && !nw) {
		out->status = KIFU_DRAW;
	} else if (fb && fw) {
		out->status = nb == nw ? KIFU_DRAW : KIFU_WIN;
		if (nb != nw)
			out->winner = nb > nw ? SP_BLUE : SP_WHITE;
	} else if (fb || fw) {
		out->status = KIFU_WIN;
		out->winner = fb ? SP_WHITE : SP_BLUE;
	}
}

static int over(const struct sp_state *s)
{
	struct kifu_outcome oc;

	sp_outcome(s, &oc);
	return oc.status != KIFU_ONGOING;
}

/* Whether the slide's line holds a piece that would step back to where it came from. */
static int returns(const struct sp_state *s, int dir, const struct kifu_splinter_bb_ *line)
{
	return dir + 1 == s->back && ((line->w[0] & s->moved.w[0]) | (line->w[1] & s->moved.w[1]));
}

/* The moves of one slide: none when it breaks no return, one per group the mover may keep. */
static size_t slide_moves(const struct kifu_splinter_geom_ *g, const void *state,
			  const struct kifu_splinter_slide_ *sl, kifu_move *out)
{
	const struct sp_state *s = state;
	struct kifu_splinter_bb_ moved, tied[SPL_MAX_CELLS];
	struct kifu_splinter_core_ after;
	int ties, i;

	if (returns(s, sl->dir, &sl->line))
		return 0;
	if (!out)
		return (size_t)sl->ties;
	if (sl->ties == 1) {
		*out = kifu_splinter_move_(sl->from, sl->dir);
		return 1;
	}
	after = s->core;
	kifu_splinter_push_(g, &after, 0, sl->from, sl->dir, &moved);
	ties = kifu_splinter_tied_(g, &after.occ, tied, NULL);
	for (i = 0; i < ties; i++)
		out[i] = kifu_splinter_move_add_suf_(kifu_splinter_move_(sl->from, sl->dir),
						     kifu_splinter_canon_cell_(g, &tied[i]));
	return (size_t)ties;
}

static size_t sp_legal_moves(const void *state, kifu_move *moves)
{
	const struct sp_state *s = state;

	if (over(s))
		return 0;
	return kifu_splinter_generate_(geom(), &s->core, s->side, slide_moves, s, moves);
}

static size_t sp_count_moves(const void *state)
{
	return sp_legal_moves(state, NULL);
}

static void sp_apply(void *state, kifu_move m)
{
	const struct kifu_splinter_geom_ *g = geom();
	struct sp_state *s = state;
	struct kifu_splinter_slide_ sl;
	int used = 0, dir = kifu_splinter_move_dir_(m);

	s->core.hash ^= state_hash(s);
	s->side = (uint8_t)!s->side;
	if (m == SPL_PASS) {
		memset(&s->moved, 0, sizeof(s->moved));
		s->back = 0;
		s->core.hash ^= state_hash(s);
		return;
	}
	kifu_splinter_slide_ahead_(g, &s->core.occ, kifu_splinter_move_from_(m), dir, &sl);
	kifu_splinter_push_(g, &s->core, SP_SALT, sl.from, dir, &s->moved);
	kifu_splinter_apply_slide_(g, &sl, &s->core, SP_SALT, m, &used);
	s->moved.w[0] &= s->core.occ.w[0];
	s->moved.w[1] &= s->core.occ.w[1];
	s->back = (uint8_t)(kifu_splinter_bb_empty_(&s->moved) ? 0
							       : kifu_splinter_opposite_[dir] + 1);
	s->core.hash ^= state_hash(s);
}

static int sp_parse_move(const void *state, const char *text, kifu_move *out,
			 struct kifu_error *err)
{
	const struct kifu_splinter_geom_ *g = geom();
	const struct sp_state *s = state;
	struct kifu_splinter_text_ t;
	struct kifu_splinter_core_ after;
	struct kifu_splinter_slide_ sl;
	kifu_move m;
	int ret, used = 0;

	ret = kifu_splinter_parse_begin_(g, &s->core, s->side, over(s), sp_count_moves, s, text, &t,
					 NULL, &m, err);
	if (ret)
		goto out;
	kifu_splinter_slide_ahead_(g, &s->core.occ, t.from, t.dir, &sl);
	if (returns(s, t.dir, &sl.line)) {
		char a[4], b[4];
		int c;

		/* the marked piece nearest the mover: where it stands, where it would go */
		for (c = t.from; !kifu_splinter_bb_has_(&s->moved, c); c = g->step[c][t.dir])
			;
		kifu_sq_cell_name_(SP_WIDTH, c, a);
		kifu_sq_cell_name_(SP_WIDTH, g->step[c][t.dir], b);
		return kifu_splinter_illegal_(
			err, &t, "no-return square: the piece on '%s' would go back to '%s'", a, b);
	}
	/*
	 * Nothing follows the splinter here, so the board after the push
	 * matters only when a tie asks which group the move keeps.
	 */
	if (sl.groups > 1 && sl.ties > 1) {
		struct kifu_splinter_bb_ moved;

		after = s->core;
		kifu_splinter_push_(g, &after, 0, t.from, t.dir, &moved);
		ret = kifu_splinter_parse_slide_(g, &sl, &after, &t, &used, &m, err);
	}
	if (!ret)
		ret = kifu_splinter_parse_finish_(g, &t, used, err);
out:
	if (ret >= 0)
		*out = m;
	return ret < 0 ? ret : 0;
}

static void sp_format_move(const void *state, kifu_move m, char *buf)
{
	(void)state;
	kifu_splinter_format_(geom(), m, buf);
}

static uint64_t sp_hash(const void *state)
{
	return ((const struct sp_state *)state)->core.hash;
}

static uint64_t sp_rehash(const void *state)
{
	const struct sp_state *s = state;

	return kifu_splinter_board_hash_(geom(), &s->core, SP_SALT) ^ state_hash(s);
}

/*
 * Symmetries: the 4 of the 10 x 9 board (square symmetries 0..3: identity,
 * file mirror, rank mirror, half turn); the no-return marks and direction
 * are mapped with the pieces.
 */
static void sp_map_state(void *dst, const void *src, int k)
{
	const struct sp_state *s = src;
	struct sp_state *d = dst;

	memset(d, 0, sizeof(*d));
	kifu_splinter_map_core_(geom(), &d->core, &s->core, k);
	d->moved = kifu_splinter_map_bb_(geom(), &s->moved, k);
	d->back = s->back ? (uint8_t)(1 + kifu_sq_sym_dir_(k, s->back - 1)) : 0;
	d->variant = s->variant;
	d->side = s->side;
	d->core.hash = sp_rehash(d);
}

/*
 * sp_rehash of the 4 mapped positions in one pass: the pieces, the marked
 * pieces and the no-return direction mapped, the side and variant kept.
 */
static void sp_hash_symmetries(uint64_t *out, const void *state)
{
	const struct sp_state *s = state;
	const struct kifu_splinter_geom_ *g = geom();
	uint64_t kept = (s->side ? key(SP_KEY_SIDE) : 0) ^ (s->variant ? key(SP_KEY_VARIANT) : 0);
	struct kifu_splinter_bb_ m = s->moved;
	int k;

	kifu_splinter_board_hash_symmetries_(out, g, &s->core, SP_SALT);
	for (k = 0; k < SP_NSYM; k++) {
		out[k] ^= kept;
		if (s->back)
			out[k] ^= key(SP_KEY_BACK + 1 + kifu_sq_sym_dir_(k, s->back - 1));
	}
	if (!s->back)
		return;
	while (!kifu_splinter_bb_empty_(&m)) {
		int c = kifu_splinter_bb_first_(&m);

		kifu_splinter_bb_clear_(&m, c);
		for (k = 0; k < SP_NSYM; k++)
			out[k] ^= key(SP_KEY_MOVED + g->sym[k][c]);
	}
}

static kifu_move sp_map_move(const void *state, kifu_move m, int k)
{
	struct sp_state mapped;

	if (!kifu_splinter_move_nsuf_(m))
		return kifu_splinter_map_move_(geom(), &kifu_game_splinter_, NULL, m, k);
	sp_map_state(&mapped, state, k);
	return kifu_splinter_map_move_(geom(), &kifu_game_splinter_, &mapped, m, k);
}

static int sp_figures(const void *state, struct kifu_figure *out)
{
	const struct sp_state *s = state;
	int side, n = 0;

	for (side = 0; side < 2; side++)
		kifu_splinter_figure_int_(&out[n++], "pieces", sp_sides[side], s->core.total[side]);
	if (s->variant == SP_KNOCKOUT)
		for (side = 0; side < 2; side++)
			kifu_splinter_figure_int_(&out[n++], "knockouts", sp_sides[side],
						  knockouts(s, side));
	return n;
}

static int sp_render_text(struct kifu_buf *out, const void *state)
{
	const struct kifu_splinter_geom_ *g = geom();
	const struct sp_state *s = state;
	struct kifu_figure f[KIFU_FIGURES_MAX];
	struct kifu_splinter_bb_ m = s->moved;
	struct kifu_outcome oc;
	int n = sp_figures(s, f);

	kifu_splinter_render_board_(out, g, &s->core, sp_sides,
				    s->variant == SP_KNOCKOUT ? "krbp" : "sxo");
	kifu_buf_puts(out, s->variant == SP_KNOCKOUT
		      ? "(B/W: blue/white; k king, r rook, b bishop, p pawn)\n"
		      : "(B/W: blue/white; s square, x cross, o circle)\n");
	sp_outcome(s, &oc);
	if (oc.status == KIFU_WIN)
		kifu_buf_printf(out, "game over: %s wins; ", sp_sides[oc.winner]);
	else if (oc.status == KIFU_DRAW)
		kifu_buf_puts(out, "game over: draw; ");
	else
		kifu_buf_printf(out, "%s to move; ", sp_sides[s->side]);
	kifu_splinter_render_figures_(out, f, n);
	if (s->back) {
		kifu_buf_puts(out, "\nno return:");
		while (!kifu_splinter_bb_empty_(&m)) {
			int c = kifu_splinter_bb_first_(&m);
			char a[4], b[4];

			kifu_splinter_bb_clear_(&m, c);
			kifu_sq_cell_name_(SP_WIDTH, c, a);
			kifu_sq_cell_name_(SP_WIDTH, g->step[c][s->back - 1], b);
			kifu_buf_printf(out, " %s-%s", a, b);
		}
	}
	return kifu_buf_putc(out, '\n');
}

static int sp_render(struct kifu_buf *out, const void *state, const kifu_move *last)
{
	const struct sp_state *s = state;

	return kifu_splinter_render_svg_(out, geom(), &s->core, &kifu_game_splinter_, s,
					 s->variant == SP_KNOCKOUT ? "krbp" : "sxo",
					 s->back ? &s->moved : NULL, s->back - 1, last);
}

static int sp_render_svg(struct kifu_buf *out, const void *state)
{
	return sp_render(out, state, NULL);
}

/*
 * The evaluation's features of each side (games/eval.h): those the Splinter
 * games share (kifu_splinter_features_: pieces, types missing, types down
 * to one or two pieces, pieces on the edge, pieces and last pieces of a
 * type the mover can push off, and whether that would lose) and the move;
 * one weight set per variant, since knockout has four types and survival
 * three.
 */
enum { SPF_TO_MOVE = SPLF_COMMON, SPF_N };

static const char *const sp_feature_names[SPF_N] = {
	"pieces", "missing", "one_left", "two_left", "edge", "threat", "threat_lone", "doomed", "to_move"
};

static int sp_features(const void *state, double *f, unsigned *alive)
{
	const struct sp_state *s = state;
	int side;

	(void)alive;
	kifu_splinter_features_(geom(), &s->core, 2, s->variant == SP_KNOCKOUT ? 4 : 3,
				s->variant == SP_KNOCKOUT ? 2 : 1, s->side, SPF_N, f);
	for (side = 0; side < 2; side++)
		f[side * SPF_N + SPF_TO_MOVE] = side == s->side;
	return s->variant;
}

/*
 * Fitted by `make fit-eval FIT_EVAL_ARGS="--only splinter"` (bench/fit-eval.c, seed 1):
 * logistic regression on every position before the end of 300 self-play
 * games per variant, about half between copies of mcts:40, the others
 * between random players.
 * Held-out log-loss (one game in four) against the uniform value's:
 * knockout 0.6863 against 0.6931, survival 0.6860 against 0.6931.
 */
static const double sp_weights[2 * SPF_N] = {
	/* knockout */
	0.7320, -1.2295, -0.6188, -0.3489, -1.6228, -0.5021, -0.3815, -0.0456, -0.0269,
	/* survival */
	1.0141, 0.0000, -0.6794, 0.0444, -0.4868, 0.0684, -0.5596, -0.5296, 0.0052,
};

const struct kifu_game_eval_ kifu_game_splinter_eval_ = {
	.game = &kifu_game_splinter_,
	.nfeatures = SPF_N,
	.names = sp_feature_names,
	.features = sp_features,
	.nweights = 2,
	.weights = sp_weights,
};

static void sp_evaluate(const void *state, double *out)
{
	kifu_game_eval_run_(&kifu_game_splinter_eval_, state, out);
}

static int sp_render_svg_last(struct kifu_buf *out, const void *state, kifu_move last)
{
	return sp_render(out, state, &last);
}

/*
 * max_moves: a side has at most 15 pieces and each slides in at most 8
 * directions. Before a move the pieces form one group, and a slide only
 * empties its starting cell (and fills one next to the line's front), so
 * every group after it holds a neighbour of that cell; neighbours around a
 * cell fall into at most 4 clusters that do not touch (the four diagonal
 * ones), so a slide leaves at most 4 groups, hence at most 4 tie choices:
 * 15 * 8 * 4 = 480.
 */
const struct kifu_game kifu_game_splinter_ = {
	.name = "splinter",
	.title = "Splinter",
	.variants = sp_variants,
	.sides = sp_sides,
	.nsides = 2,
	.flags = KIFU_GAME_CHOOSE_FIRST,
	.state_size = sizeof(struct sp_state),
	.max_moves = 15 * 8 * 4,
	.init = sp_init,
	.side_to_move = sp_side_to_move,
	.legal_moves = sp_legal_moves,
	.count_moves = sp_count_moves,
	.apply = sp_apply,
	.parse_move = sp_parse_move,
	.format_move = sp_format_move,
	.outcome = sp_outcome,
	.hash = sp_hash,
	.rehash = sp_rehash,
	.figures = sp_figures,
	.render_svg_last = sp_render_svg_last,
	.render_text = sp_render_text,
	.render_svg = sp_render_svg,
	.nsymmetries = SP_NSYM,
	.symmetry_inverse = kifu_sq_sym_inverse_,
	.map_state = sp_map_state,
	.map_move = sp_map_move,
	.hash_symmetries = sp_hash_symmetries,
	.evaluate = sp_evaluate,
};
