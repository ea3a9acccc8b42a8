/*
 * Rules engine of Splinter for four (Ed Nadel): red, blue, green and yellow
 * on a 10 x 10 board slide and push as in two-player Splinter (no no-return
 * rule), and after the splinter every side without a square, a cross and a
 * circle is eliminated and its pieces leave, which may split the board again
 * (a further splinter and /CELL choice), until nothing changes; turns skip
 * eliminated sides and the last side in the game wins. The push and splinter
 * mechanics shared with splinter live in splinter_common.c.
 */
#include <string.h>

#include "games/board.h"
#include "games/eval.h"
#include "games/splinter_common.h"

extern const struct kifu_game kifu_game_splinter_quad_;

#define SQ_SIZE 10
#define SQ_SALT UINT64_C(0x9a7c3e51d2b40f68)
#define SQ_SIDES 4
#define SQ_ALL 0xfu

enum { SQ_SQUARE, SQ_CROSS, SQ_CIRCLE };

/* Zobrist indices of the keys beyond the pieces. */
#define SQ_KEY_SIDE (SPL_KEY_EXTRA + 0)
#define SQ_KEY_ALIVE (SPL_KEY_EXTRA + 10)
#define SQ_KEY_RESULT (SPL_KEY_EXTRA + 40)
#define SQ_KEY_ORDER (SPL_KEY_EXTRA + 60)

struct sq_state {
	struct kifu_splinter_core_ core;
	uint8_t side;            /* to move */
	uint8_t alive;           /* sides still in the game, bit per side */
	uint8_t nelim;
	uint8_t order[SQ_SIDES]; /* sides in the order of their elimination */
	int8_t status;           /* enum kifu_status, set when the game ends */
	int8_t winner;
};

static const char *const sq_variants[] = { "standard", NULL };
static const char *const sq_sides[] = { "red", "blue", "green", "yellow", NULL };

static const struct kifu_splinter_geom_ *geom(void)
{
	return kifu_splinter_geom_get_(SQ_SIZE, SQ_SIZE);
}

static uint64_t key(int index)
{
	return kifu_zobrist(SQ_SALT, (uint64_t)index);
}

/* The keys of everything but the pieces. */
static uint64_t extra_hash(const struct sq_state *s)
{
	uint64_t h = key(SQ_KEY_SIDE + s->side) ^ key(SQ_KEY_ALIVE + s->alive);
	int i;

	if (s->status != KIFU_ONGOING)
		h ^= key(SQ_KEY_RESULT + s->status * 8 + s->winner + 1);
	for (i = 0; i < s->nelim; i++)
		h ^= key(SQ_KEY_ORDER + i * SQ_SIDES + s->order[i]);
	return h;
}

/* Block cell (x, y), x = 0..5 on files c..h, y = 0..5 on ranks 3..8. */
static int start_code(int x, int y)
{
	static const int side_of[2][2] = { { 0, 1 }, { 3, 2 } }; /* [x odd][y odd] */
	int inner = x >= 1 && x <= 4 && y >= 1 && y <= 4, type;

	if (!inner)
		type = SQ_CIRCLE;
	else if ((x >= 2 && x <= 3 && y >= 2 && y <= 3) ||
		 ((x == 1 || x == 4) && (y == 1 || y == 4)))
		type = SQ_SQUARE;
	else
		type = SQ_CROSS;
	return SPL_CODE(side_of[x % 2][y % 2], type);
}

static int sq_init(void *state, int variant, int first, struct kifu_error *err)
{
	struct sq_state *s = state;
	int x, y;

	if (variant != 0)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splinter-quad has no variant %d",
				      variant);
	if (first < 0 || first >= SQ_SIDES)
		return kifu_error_set(err, KIFU_ENOTFOUND, "splinter-quad has no side %d", first);
	memset(s, 0, sizeof(*s));
	s->side = (uint8_t)first;
	s->alive = SQ_ALL;
	s->winner = -1;
	for (y = 0; y < 6; y++)
		for (x = 0; x < 6; x++)
			kifu_splinter_put_(&s->core, SQ_SALT, (y + 2) * SQ_SIZE + x + 2,
					   start_code(x, y));
	s->core.hash ^= extra_hash(s);
	return 0;
}

static int sq_side_to_move(const void *state)
{
	return ((const struct sq_state *)state)->side;
}

/* The sides of alive that lack a square, a cross or a circle. */
static unsigned lacking_counts(const uint8_t *count, unsigned alive)
{
	unsigned out = 0;
	int side;

	for (side = 0; side < SQ_SIDES; side++, count += SPL_MAX_TYPES)
		if ((alive >> side & 1) &&
		    (!count[SQ_SQUARE] || !count[SQ_CROSS] || !count[SQ_CIRCLE]))
			out |= 1u << side;
	return out;
}

static unsigned lacking(const struct kifu_splinter_core_ *c, unsigned alive)
{
	return lacking_counts(&c->count[0][0], alive);
}

static size_t chain(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
		    unsigned alive, kifu_move m, kifu_move *out);

/*
 * Lists (out != NULL) or counts the moves a board c gives after a splinter:
 * the eliminations, then (when their removal splits the board) the next
 * splinter. m is the move so far.
 */
static size_t eliminate(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
			unsigned alive, kifu_move m, kifu_move *out)
{
	unsigned elim = lacking(c, alive);

	if (!elim) {
		if (out)
			*out = m;
		return 1;
	}
	kifu_splinter_remove_sides_(c, 0, elim);
	return chain(g, c, alive & ~elim, m, out);
}

/*
 * Lists or counts the moves a board c gives from a splinter on: one per
 * sequence of tie choices through it and the elimination chain. The
 * recursion depth is at most 4 (see max_moves). Scratch boards skip the
 * hash (salt 0).
 */
static size_t chain(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
		    unsigned alive, kifu_move m, kifu_move *out)
{
	struct kifu_splinter_bb_ tied[SPL_MAX_CELLS];
	int groups, n = kifu_splinter_tied_(g, &c->occ, tied, &groups), i;
	size_t total = 0;

	if (n > 1) {
		for (i = 0; i < n; i++) {
			struct kifu_splinter_core_ copy = *c;

			kifu_splinter_keep_(g, &copy, 0, &tied[i]);
			total += eliminate(g, &copy, alive,
					   kifu_splinter_move_add_suf_(
						   m, kifu_splinter_canon_cell_(g, &tied[i])),
					   out ? out + total : NULL);
		}
		return total;
	}
	if (groups > 1)
		kifu_splinter_keep_(g, c, 0, &tied[0]);
	return eliminate(g, c, alive, m, out);
}

/*
 * Move counting without playing the move, when the slide leaves no tie: the
 * sides the push and splinter eliminate, and *rest, the pieces left after
 * their removal (codes as after the push).
 */
static unsigned first_eliminations(const struct kifu_splinter_geom_ *g, const struct sq_state *s,
				   const struct kifu_splinter_slide_ *sl,
				   struct kifu_splinter_bb_ *rest)
{
	uint8_t count[SPL_MAX_SIDES][SPL_MAX_TYPES];
	struct kifu_splinter_bb_ gone = { { 0, 0 } };
	unsigned elim;
	int code;

	memcpy(count, s->core.count, sizeof(count));
	*rest = s->core.occ;
	kifu_splinter_bb_clear_(rest, sl->from);
	if (sl->after >= 0) {
		kifu_splinter_bb_set_(rest, sl->after);
	} else {
		int edge = sl->from;

		while (g->step[edge][sl->dir] >= 0)
			edge = g->step[edge][sl->dir];
		code = s->core.cell[edge];
		count[SPL_SIDE(code)][SPL_TYPE(code)]--;
	}
	if (sl->groups > 1) {
		gone.w[0] = rest->w[0] & ~sl->keep.w[0];
		gone.w[1] = rest->w[1] & ~sl->keep.w[1];
		*rest = sl->keep;
	}
	while (!kifu_splinter_bb_empty_(&gone)) {
		int cell = kifu_splinter_bb_first_(&gone);

		kifu_splinter_bb_clear_(&gone, cell);
		code = kifu_splinter_code_after_(g, &s->core, sl, cell);
		count[SPL_SIDE(code)][SPL_TYPE(code)]--;
	}
	elim = lacking_counts(&count[0][0], s->alive);
	if (elim) {
		gone = *rest;
		while (!kifu_splinter_bb_empty_(&gone)) {
			int cell = kifu_splinter_bb_first_(&gone);

			kifu_splinter_bb_clear_(&gone, cell);
			if (elim >> SPL_SIDE(kifu_splinter_code_after_(g, &s->core, sl, cell)) & 1)
				kifu_splinter_bb_clear_(rest, cell);
		}
	}
	return elim;
}

/* The moves of one slide: one per sequence of tie choices through the chain. */
static size_t slide_moves(const struct kifu_splinter_geom_ *g, const void *state,
			  const struct kifu_splinter_slide_ *sl, kifu_move *out)
{
	const struct sq_state *s = state;
	struct kifu_splinter_core_ after;
	struct kifu_splinter_bb_ moved, rest;

	/*
	 * No tie, and no piece leaves (most slides), or no elimination, or
	 * one that splits nothing: a single move.
	 */
	if (sl->ties == 1 &&
	    ((sl->groups == 1 && sl->after >= 0) || !first_eliminations(g, s, sl, &rest) ||
	     kifu_splinter_connected_(g, &rest))) {
		if (out)
			*out = kifu_splinter_move_(sl->from, sl->dir);
		return 1;
	}
	after = s->core;
	kifu_splinter_push_(g, &after, 0, sl->from, sl->dir, &moved);
	if (sl->ties > 1)
		return chain(g, &after, s->alive, kifu_splinter_move_(sl->from, sl->dir), out);
	/* the look-ahead knows the group that stays */
	if (sl->groups > 1)
		kifu_splinter_keep_(g, &after, 0, &sl->keep);
	return eliminate(g, &after, s->alive, kifu_splinter_move_(sl->from, sl->dir), out);
}

static size_t sq_legal_moves(const void *state, kifu_move *moves)
{
	const struct sq_state *s = state;

	if (s->status != KIFU_ONGOING)
		return 0;
	return kifu_splinter_generate_(geom(), &s->core, s->side, slide_moves, s, moves);
}

static size_t sq_count_moves(const void *state)
{
	return sq_legal_moves(state, NULL);
}

/* What a move did beyond the board: for the result and the figures. */
struct sq_effect {
	unsigned alive;                /* sides in the game after the move */
	uint8_t order[SQ_SIDES];       /* eliminated by the move, in order */
	int nelim;
	int pieces[SQ_SIDES];          /* after the move's own splinter */
};

/*
 * Resolves a pushed board: the move's splinter (sl: the slide's look-ahead
 * from the position before the push), then eliminations and new splinters
 * until nothing changes. The tie choices come from the move m
 * (t == NULL: applying a listed move) or from the text t, in which case their
 * canonical cells are added to *m and a wrong or missing choice is reported.
 *
 * Sides eliminated by one removal are recorded in turn order starting from
 * the mover; removals later in the chain come after earlier ones.
 */
static int resolve(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
		   uint64_t salt, int mover, unsigned alive, const struct kifu_splinter_slide_ *sl,
		   const struct kifu_splinter_text_ *t, kifu_move *m, struct sq_effect *fx,
		   struct kifu_error *err)
{
	int used = 0, ret = 0, i;
	unsigned elim;

	/* the move's own splinter: the look-ahead knows it unless there is a tie */
	if (t)
		ret = kifu_splinter_parse_slide_(g, sl, c, t, &used, m, err);
	else
		kifu_splinter_apply_slide_(g, sl, c, salt, *m, &used);
	for (i = 0; i < SQ_SIDES; i++)
		fx->pieces[i] = c->total[i];
	fx->nelim = 0;
	while (!ret && (elim = lacking(c, alive)) != 0) {
		for (i = 0; i < SQ_SIDES; i++)
			if (elim >> ((mover + i) % SQ_SIDES) & 1)
				fx->order[fx->nelim++] = (uint8_t)((mover + i) % SQ_SIDES);
		alive &= ~elim;
		kifu_splinter_remove_sides_(c, salt, elim);
		if (t)
			ret = kifu_splinter_parse_splinter_(g, c, salt, t, &used, m, err);
		else
			kifu_splinter_apply_splinter_(g, c, salt, *m, &used);
	}
	fx->alive = alive;
	if (!ret && t)
		ret = kifu_splinter_parse_finish_(g, t, used, err);
	return ret;
}

static void sq_apply(void *state, kifu_move m)
{
	const struct kifu_splinter_geom_ *g = geom();
	struct sq_state *s = state;
	struct sq_effect fx;
	struct kifu_splinter_slide_ sl;
	struct kifu_splinter_bb_ moved;
	int i, best = -1, nbest = 0;

	s->core.hash ^= extra_hash(s);
	if (m != SPL_PASS) {
		kifu_splinter_slide_ahead_(g, &s->core.occ, kifu_splinter_move_from_(m),
					   kifu_splinter_move_dir_(m), &sl);
		kifu_splinter_push_(g, &s->core, SQ_SALT, sl.from, sl.dir, &moved);
		resolve(g, &s->core, SQ_SALT, s->side, s->alive, &sl, NULL, &m, &fx, NULL);
		for (i = 0; i < fx.nelim; i++)
			s->order[s->nelim++] = fx.order[i];
		if (!fx.alive) {
			/* everyone left went out at once: most pieces after the move's splinter */
			for (i = 0; i < SQ_SIDES; i++) {
				if (!(s->alive >> i & 1))
					continue;
				if (best < 0 || fx.pieces[i] > fx.pieces[best]) {
					best = i;
					nbest = 1;
				} else if (fx.pieces[i] == fx.pieces[best]) {
					nbest++;
				}
			}
			s->status = nbest == 1 ? KIFU_WIN : KIFU_DRAW;
			s->winner = (int8_t)(nbest == 1 ? best : -1);
		} else if (!(fx.alive & (fx.alive - 1))) {
			s->status = KIFU_WIN;
			s->winner = (int8_t)__builtin_ctz(fx.alive);
		}
		s->alive = (uint8_t)fx.alive;
	}
	if (s->alive) {
		do
			s->side = (uint8_t)((s->side + 1) % SQ_SIDES);
		while (!(s->alive >> s->side & 1));
	}
	s->core.hash ^= extra_hash(s);
}

static int sq_parse_move(const void *state, const char *text, kifu_move *out,
			 struct kifu_error *err)
{
	const struct kifu_splinter_geom_ *g = geom();
	const struct sq_state *s = state;
	struct kifu_splinter_text_ t;
	struct kifu_splinter_core_ after;
	struct sq_effect fx;
	struct kifu_splinter_slide_ sl;
	kifu_move m;
	int ret;

	ret = kifu_splinter_parse_begin_(g, &s->core, s->side, s->status != KIFU_ONGOING,
					 sq_count_moves, s, text, &t, &after, &m, err);
	if (!ret) {
		kifu_splinter_slide_ahead_(g, &s->core.occ, t.from, t.dir, &sl);
		ret = resolve(g, &after, 0, s->side, s->alive, &sl, &t, &m, &fx, err);
	}
	if (ret >= 0)
		*out = m;
	return ret < 0 ? ret : 0;
}

static void sq_format_move(const void *state, kifu_move m, char *buf)
{
	(void)state;
	kifu_splinter_format_(geom(), m, buf);
}

static void sq_outcome(const void *state, struct kifu_outcome *out)
{
	const struct sq_state *s = state;

	out->status = s->status;
	out->winner = s->winner;
}

static uint64_t sq_hash(const void *state)
{
	return ((const struct sq_state *)state)->core.hash;
}

static uint64_t sq_rehash(const void *state)
{
	const struct sq_state *s = state;

	return kifu_splinter_board_hash_(geom(), &s->core, SQ_SALT) ^ extra_hash(s);
}

/* Symmetries: all 8 of the 10 x 10 board (square symmetries 0..7). */
static void sq_map_state(void *dst, const void *src, int k)
{
	const struct sq_state *s = src;
	struct sq_state *d = dst;

	memset(d, 0, sizeof(*d));
	kifu_splinter_map_core_(geom(), &d->core, &s->core, k);
	d->side = s->side;
	d->alive = s->alive;
	d->nelim = s->nelim;
	memcpy(d->order, s->order, sizeof(d->order));
	d->status = s->status;
	d->winner = s->winner;
	d->core.hash = sq_rehash(d);
}

/* sq_rehash of the 8 mapped positions: the pieces mapped, the rest kept. */
static void sq_hash_symmetries(uint64_t *out, const void *state)
{
	const struct sq_state *s = state;
	uint64_t kept = extra_hash(s);
	int k;

	kifu_splinter_board_hash_symmetries_(out, geom(), &s->core, SQ_SALT);
	for (k = 0; k < 8; k++)
		out[k] ^= kept;
}

static kifu_move sq_map_move(const void *state, kifu_move m, int k)
{
	struct sq_state mapped;

	if (!kifu_splinter_move_nsuf_(m))
		return kifu_splinter_map_move_(geom(), &kifu_game_splinter_quad_, NULL, m, k);
	sq_map_state(&mapped, state, k);
	return kifu_splinter_map_move_(geom(), &kifu_game_splinter_quad_, &mapped, m, k);
}

/*
 * eliminated: the sides in the order they went out, joined by commas. Sides
 * put out by one removal are listed in turn order starting from the mover
 * (the mover first when it put itself out); a later removal of the same
 * move's chain comes after an earlier one.
 */
static int sq_figures(const void *state, struct kifu_figure *out)
{
	const struct sq_state *s = state;
	int side, n = 0, i;
	size_t len = 0;

	for (side = 0; side < SQ_SIDES; side++)
		kifu_splinter_figure_int_(&out[n++], "pieces", sq_sides[side], s->core.total[side]);
	memset(&out[n], 0, sizeof(out[n]));
	strcpy(out[n].key, "eliminated");
	out[n].type = KIFU_FIG_TEXT;
	for (i = 0; i < s->nelim; i++) {
		const char *name = sq_sides[s->order[i]];

		if (i)
			out[n].text[len++] = ',';
		memcpy(out[n].text + len, name, strlen(name) + 1);
		len += strlen(name);
	}
	return n + 1;
}

static int sq_render_text(struct kifu_buf *out, const void *state)
{
	const struct sq_state *s = state;
	struct kifu_figure f[KIFU_FIGURES_MAX];
	struct kifu_outcome oc;
	int n = sq_figures(s, f);

	kifu_splinter_render_board_(out, geom(), &s->core, sq_sides, "sxo");
	kifu_buf_puts(out, "(R/B/G/Y: red/blue/green/yellow; s square, x cross, o circle)\n");
	sq_outcome(s, &oc);
	if (oc.status == KIFU_WIN)
		kifu_buf_printf(out, "game over: %s wins; ", sq_sides[oc.winner]);
	else if (oc.status == KIFU_DRAW)
		kifu_buf_puts(out, "game over: draw; ");
	else
		kifu_buf_printf(out, "%s to move; ", sq_sides[s->side]);
	kifu_splinter_render_figures_(out, f, n);
	return kifu_buf_putc(out, '\n');
}

static int sq_render_svg(struct kifu_buf *out, const void *state)
{
	const struct sq_state *s = state;

	return kifu_splinter_render_svg_(out, geom(), &s->core, &kifu_game_splinter_quad_, s, "sxo",
					 NULL, 0, NULL);
}

/*
 * The evaluation's features of each side (games/eval.h): those the Splinter
 * games share (kifu_splinter_features_: pieces, types missing, types down
 * to one or two pieces, pieces on the edge, pieces and last pieces of a
 * type the mover can push off, and whether that would eliminate), the
 * move, and moving next after it (the turn order among the sides left).
 * Eliminated sides are valued 0, the others by the softmax.
 */
enum { SQF_TO_MOVE = SPLF_COMMON, SQF_NEXT, SQF_N };

static const char *const sq_feature_names[SQF_N] = {
	"pieces", "missing", "one_left", "two_left", "edge", "threat", "threat_lone", "doomed",
	"to_move", "next"
};

static int sq_features(const void *state, double *f, unsigned *alive)
{
	const struct sq_state *s = state;
	int side, next = s->side;

	kifu_splinter_features_(geom(), &s->core, SQ_SIDES, 3, 1, s->side, SQF_N, f);
	do
		next = (next + 1) % SQ_SIDES;
	while (!(s->alive >> next & 1) && next != s->side);
	for (side = 0; side < SQ_SIDES; side++) {
		f[side * SQF_N + SQF_TO_MOVE] = side == s->side;
		f[side * SQF_N + SQF_NEXT] = side == next && next != s->side;
	}
	*alive = s->alive;
	return 0;
}

/*
 * Fitted by `make fit-eval FIT_EVAL_ARGS="--only splinter-quad"` (bench/fit-eval.c, seed 1):
 * logistic regression on every position before the end of 300 self-play
 * games per variant, about half between copies of mcts:40, the others
 * between random players.
 * Held-out log-loss (one game in four) against the uniform value's:
 * 1.3384 against 1.3863.
 */
static const double sq_weights[SQF_N] = {
	1.8910, 0.0000, -0.1165, -0.0073, -0.7912, 0.1771, -0.1343, -0.1253, 0.0134, 0.0032,
};

const struct kifu_game_eval_ kifu_game_splinter_quad_eval_ = {
	.game = &kifu_game_splinter_quad_,
	.nfeatures = SQF_N,
	.names = sq_feature_names,
	.features = sq_features,
	.nweights = 1,
	.weights = sq_weights,
};

static void sq_evaluate(const void *state, double *out)
{
	kifu_game_eval_run_(&kifu_game_splinter_quad_eval_, state, out);
}

static int sq_render_svg_last(struct kifu_buf *out, const void *state, kifu_move last)
{
	const struct sq_state *s = state;

	return kifu_splinter_render_svg_(out, geom(), &s->core, &kifu_game_splinter_quad_, s, "sxo",
					 NULL, 0, &last);
}

/*
 * max_moves: a side has at most 9 pieces, each with at most 8 slides. One
 * slide gives one move per sequence of tie choices. Where two sequences first
 * differ they keep two disjoint tied groups, and every later kept group lies
 * inside the one kept before, so the last groups kept by the sequences are
 * disjoint non-empty sets of the at most 36 pieces: at most 36 sequences per
 * slide, 9 * 8 * 36 = 2592 moves. (A sequence has at most 4 choices: the
 * move's own splinter, and one after each elimination round that leaves a
 * side in the game, which is at most 3 rounds for 4 sides.)
 */
const struct kifu_game kifu_game_splinter_quad_ = {
	.name = "splinter-quad",
	.title = "Splinter for four",
	.variants = sq_variants,
	.sides = sq_sides,
	.nsides = SQ_SIDES,
	.flags = KIFU_GAME_CHOOSE_FIRST,
	.state_size = sizeof(struct sq_state),
	.max_moves = 9 * 8 * 36,
	.init = sq_init,
	.side_to_move = sq_side_to_move,
	.legal_moves = sq_legal_moves,
	.count_moves = sq_count_moves,
	.apply = sq_apply,
	.parse_move = sq_parse_move,
	.format_move = sq_format_move,
	.outcome = sq_outcome,
	.hash = sq_hash,
	.rehash = sq_rehash,
	.figures = sq_figures,
	.render_svg_last = sq_render_svg_last,
	.render_text = sq_render_text,
	.render_svg = sq_render_svg,
	.nsymmetries = 8,
	.symmetry_inverse = kifu_sq_sym_inverse_,
	.map_state = sq_map_state,
	.map_move = sq_map_move,
	.hash_symmetries = sq_hash_symmetries,
	.evaluate = sq_evaluate,
};
