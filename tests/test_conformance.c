/*
 * Conformance suite over every registered game and variant (OpenSpiel's
 * RandomSimTest in spirit): seeded random playouts in which every position
 * is checked against the interface's promises. It names no game, so a new
 * game is covered by being listed in the registry.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/buf.h"
#include "kifu/diag.h"
#include "kifu/game.h"
#include "kifu/pattern.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "helpers.h"

/* Enough for thousands of playouts in all, yet quick under sanitizers. */
#define PLAYOUTS_PER_VARIANT 300
#define MAX_PLIES 400
/* Moves per position whose format/parse/apply are checked in full. */
#define CHECKED_MOVES 24

static int cmp_move(const void *a, const void *b)
{
	kifu_move x = *(const kifu_move *)a, y = *(const kifu_move *)b;

	return x < y ? -1 : x > y;
}

/* Upper-cases s and wraps it in white space: another spelling the spec accepts. */
static void respell(const char *s, char *out, size_t size)
{
	size_t i = 0;

	out[i++] = ' ';
	out[i++] = '\t';
	for (; *s && i + 3 < size; s++)
		out[i++] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 'a' + 'A') : *s;
	out[i++] = ' ';
	out[i] = '\0';
}

static void check_move(const struct kifu_game *g, const void *state, kifu_move m,
		       void *scratch, const void *snapshot)
{
	char text[KIFU_MOVE_TEXT_MAX], again[KIFU_MOVE_TEXT_MAX], other[KIFU_MOVE_TEXT_MAX + 8];
	struct kifu_error err;
	kifu_move parsed;
	int ret;

	g->format_move(state, m, text);
	assert_true(strlen(text) > 0);
	ret = g->parse_move(state, text, &parsed, &err);
	if (ret != 0)
		fail_msg("%s: listed move '%s' does not parse back: %s", g->name, text, err.message);
	assert_true(parsed == m);
	respell(text, other, sizeof(other));
	assert_int_equal(g->parse_move(state, other, &parsed, &err), 0);
	assert_true(parsed == m);
	g->format_move(state, parsed, again);
	assert_string_equal(text, again);

	memcpy(scratch, state, g->state_size);
	g->apply(scratch, m);
	/* the move was applied to a copy: the original is untouched */
	assert_memory_equal(state, snapshot, g->state_size);
	if (g->hash(scratch) != g->rehash(scratch))
		fail_msg("%s: after '%s' the incremental hash differs from the full one", g->name,
			 text);
}

static void check_garbage(const struct kifu_game *g, const void *state, struct th_rng *r)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789-+>/ ,pas";
	char text[24];
	size_t len = 1 + th_rng_below(r, sizeof(text) - 2), i;
	struct kifu_error err;
	kifu_move m;
	int ret;

	for (i = 0; i < len; i++)
		text[i] = alphabet[th_rng_below(r, sizeof(alphabet) - 1)];
	text[len] = '\0';
	kifu_error_clear(&err);
	ret = g->parse_move(state, text, &m, &err);
	if (ret == 0)
		return; /* random text can be a legal move */
	assert_true(ret == KIFU_EPARSE || ret == KIFU_EILLEGAL);
	assert_int_equal(err.code, ret);
	assert_true(!strncmp(err.message, ret == KIFU_EPARSE ? "unparsable move '" :
							       "illegal move '", 14));
}

/*
 * Playouts (the first of each variant) whose every position is checked under
 * every symmetry, and the plies at which perft is compared too.
 */
#define SYM_PLAYOUTS 4
#define SYM_PERFT_EVERY 16
#define SYM_PERFT_DEPTH 2

/*
 * The symmetry promises of game.h at one position: the mapped position is
 * complete (hash = rehash, same side to move and outcome), its legal moves
 * are the mapped legal moves, mapping back by the inverse gives the
 * position and every move back, playing a mapped move reaches the mapped
 * position, perft agrees, and the canonical hash is shared.
 */
static void check_symmetries(const struct kifu_game *g, const void *state, size_t n,
			     const kifu_move *sorted, int perft)
{
	unsigned char *mem = malloc(4 * g->state_size);
	kifu_move *mapped_moves = malloc(sizeof(*mapped_moves) * (g->max_moves + 1));
	kifu_move *legal = malloc(sizeof(*legal) * (g->max_moves + 1));
	void *mapped = mem, *back = mem + g->state_size, *a = mem + 2 * g->state_size,
	     *b = mem + 3 * g->state_size;
	uint64_t canon, canon_k, perft_orig = 0;
	int k, sym;

	assert_non_null(mem);
	assert_non_null(mapped_moves);
	assert_non_null(legal);
	assert_int_equal(kifu_game_canonical_hash(&canon, &sym, g, state), 0);
	assert_true(sym >= 0 && sym < g->nsymmetries);
	g->map_state(mapped, state, sym);
	assert_true(g->hash(mapped) == canon);
	if (perft)
		assert_int_equal(kifu_perft(&perft_orig, g, state, SYM_PERFT_DEPTH), 0);
	for (k = 0; k < g->nsymmetries; k++) {
		int inv = g->symmetry_inverse(k);
		struct kifu_outcome o1, o2;
		size_t nm, i;

		assert_true(inv >= 0 && inv < g->nsymmetries);
		assert_int_equal(g->symmetry_inverse(inv), k);
		g->map_state(mapped, state, k);
		if (g->hash(mapped) != g->rehash(mapped))
			fail_msg("%s: symmetry %d: the mapped hash is not the engine's rehash", g->name,
				 k);
		if (k == 0)
			assert_memory_equal(mapped, state, g->state_size);
		assert_int_equal(g->side_to_move(mapped), g->side_to_move(state));
		g->outcome(state, &o1);
		g->outcome(mapped, &o2);
		assert_int_equal(o1.status, o2.status);
		assert_int_equal(o1.winner, o2.winner);
		g->map_state(back, mapped, inv);
		if (memcmp(back, state, g->state_size))
			fail_msg("%s: symmetry %d then %d is not the identity", g->name, k, inv);
		assert_int_equal(kifu_game_canonical_hash(&canon_k, NULL, g, mapped), 0);
		assert_true(canon_k == canon);

		nm = g->legal_moves(mapped, legal);
		assert_int_equal(nm, n);
		qsort(legal, nm, sizeof(*legal), cmp_move);
		for (i = 0; i < n; i++) {
			mapped_moves[i] = g->map_move(state, sorted[i], k);
			if (g->map_move(mapped, mapped_moves[i], inv) != sorted[i])
				fail_msg("%s: move mapped by %d then %d is not the move", g->name, k,
					 inv);
		}
		qsort(mapped_moves, n, sizeof(*mapped_moves), cmp_move);
		for (i = 0; i < n; i++)
			if (mapped_moves[i] != legal[i]) {
				char t[KIFU_MOVE_TEXT_MAX];

				g->format_move(mapped, legal[i], t);
				fail_msg("%s: symmetry %d: legal moves of the mapped position differ "
					 "from the mapped moves (at '%s')", g->name, k, t);
			}
		/* a few moves played both ways reach the same position */
		for (i = 0; i < n; i += 1 + n / 8) {
			memcpy(a, state, g->state_size);
			g->apply(a, sorted[i]);
			g->map_state(b, a, k);
			memcpy(a, mapped, g->state_size);
			g->apply(a, g->map_move(state, sorted[i], k));
			if (g->hash(a) != g->hash(b))
				fail_msg("%s: symmetry %d: playing the mapped move does not reach the "
					 "mapped position", g->name, k);
		}
		if (perft) {
			uint64_t pm;

			assert_int_equal(kifu_perft(&pm, g, mapped, SYM_PERFT_DEPTH), 0);
			assert_true(pm == perft_orig);
		}
	}
	free(mem);
	free(mapped_moves);
	free(legal);
}

/*
 * The canonical hash at one position: hash_symmetries (where the game has
 * it) gives for every k the hash of map_state(state, k), and
 * kifu_game_canonical_hash gives the smallest of those hashes with the
 * smallest k that has it, as mapping every position one by one does.
 */
static void check_canonical(const struct kifu_game *g, const void *state, void *mapped)
{
	uint64_t fast[KIFU_GAME_SYMMETRIES_MAX], best = 0, canon;
	int k, best_k = -1, sym;

	if (g->hash_symmetries)
		g->hash_symmetries(fast, state);
	for (k = 0; k < g->nsymmetries; k++) {
		uint64_t h;

		g->map_state(mapped, state, k);
		h = g->hash(mapped);
		if (g->hash_symmetries && fast[k] != h)
			fail_msg("%s: hash_symmetries: symmetry %d gives %016llx, the mapped "
				 "position hashes to %016llx", g->name, k, (unsigned long long)fast[k],
				 (unsigned long long)h);
		if (best_k < 0 || h < best) {
			best = h;
			best_k = k;
		}
	}
	assert_int_equal(kifu_game_canonical_hash(&canon, &sym, g, state), 0);
	if (canon != best || sym != best_k)
		fail_msg("%s: canonical hash %016llx (symmetry %d), mapping one by one gives "
			 "%016llx (symmetry %d)", g->name, (unsigned long long)canon, sym,
			 (unsigned long long)best, best_k);
}

/* Most sides a game has, for the evaluation's buffers. */
#define EVAL_SIDES 8
/* Sums and symmetry images agree to this (the features are counts: exactly, in practice). */
#define EVAL_EPS 1e-9

/*
 * The evaluation at one position (game.h): through kifu_game_evaluate every
 * side gets a value in [0, 1] and the values sum to 1; an ended position is
 * valued as its result (1 to the winner, a draw shared); an ongoing one as
 * the game's own evaluate, the same for every symmetry image of it.
 */
static void check_evaluation(const struct kifu_game *g, const void *state, void *mapped)
{
	double v[EVAL_SIDES], w[EVAL_SIDES], sum = 0;
	struct kifu_outcome oc;
	int s, k;

	assert_true(g->nsides <= EVAL_SIDES);
	kifu_game_evaluate(g, state, v);
	for (s = 0; s < g->nsides; s++) {
		if (!(v[s] >= 0 && v[s] <= 1))
			fail_msg("%s: side %d valued %g, outside [0, 1]", g->name, s, v[s]);
		sum += v[s];
	}
	if (fabs(sum - 1) > EVAL_EPS)
		fail_msg("%s: the sides' values sum to %.12f, not 1", g->name, sum);
	g->outcome(state, &oc);
	if (oc.status != KIFU_ONGOING) {
		for (s = 0; s < g->nsides; s++) {
			double want = oc.status == KIFU_WIN ? (s == oc.winner) : 1.0 / g->nsides;

			if (fabs(v[s] - want) > EVAL_EPS)
				fail_msg("%s: ended position: side %d valued %g, its result gives %g",
					 g->name, s, v[s], want);
		}
		return;
	}
	g->evaluate(state, w);
	assert_memory_equal(v, w, sizeof(double) * (size_t)g->nsides);
	for (k = 1; k < g->nsymmetries; k++) {
		g->map_state(mapped, state, k);
		kifu_game_evaluate(g, mapped, w);
		for (s = 0; s < g->nsides; s++)
			if (fabs(v[s] - w[s]) > EVAL_EPS)
				fail_msg("%s: symmetry %d: side %d valued %.12f, the mapped position "
					 "%.12f", g->name, k, s, v[s], w[s]);
	}
}

static void playout(const struct kifu_game *g, int variant, int first, struct th_rng *r,
		    kifu_move *moves, unsigned char *mem, int symmetries)
{
	void *state = mem, *scratch = mem + g->state_size, *snapshot = mem + 2 * g->state_size;
	struct kifu_error err;
	int ply;

	assert_int_equal(g->init(state, variant, first, &err), 0);
	assert_int_equal(g->side_to_move(state), first);
	assert_true(g->hash(state) == g->rehash(state));
	for (ply = 0; ply < MAX_PLIES; ply++) {
		struct kifu_outcome oc;
		struct kifu_figure figs[KIFU_FIGURES_MAX];
		size_t n = g->legal_moves(state, moves), i;
		int side = g->side_to_move(state);

		assert_true(n <= g->max_moves);
		assert_true(side >= 0 && side < g->nsides);
		if (g->count_moves)
			assert_int_equal(g->count_moves(state), n);
		g->outcome(state, &oc);
		assert_true(g->figures(state, figs) <= KIFU_FIGURES_MAX);
		check_evaluation(g, state, scratch);
		if (n == 0) {
			/* only a finished game has no moves */
			assert_int_not_equal(oc.status, KIFU_ONGOING);
			if (oc.status == KIFU_WIN)
				assert_true(oc.winner >= 0 && oc.winner < g->nsides);
			return;
		}
		assert_int_equal(oc.status, KIFU_ONGOING);

		memcpy(snapshot, state, g->state_size);
		qsort(moves, n, sizeof(*moves), cmp_move);
		for (i = 1; i < n; i++)
			if (moves[i] == moves[i - 1])
				fail_msg("%s: a move is listed twice", g->name);
		check_canonical(g, state, scratch);
		if (symmetries)
			check_symmetries(g, state, n, moves, ply % SYM_PERFT_EVERY == 0);
		if (n <= CHECKED_MOVES) {
			for (i = 0; i < n; i++)
				check_move(g, state, moves[i], scratch, snapshot);
		} else {
			for (i = 0; i < CHECKED_MOVES; i++)
				check_move(g, state, moves[th_rng_below(r, n)], scratch, snapshot);
		}
		check_garbage(g, state, r);
		g->apply(state, moves[th_rng_below(r, n)]);
		assert_true(g->hash(state) == g->rehash(state));
	}
}

/* Playouts per variant whose every position is drawn with its last move marked. */
#define MARKED_PLAYOUTS 6
#define MARKED_PLIES 160

/*
 * render_svg_last(after, m): exactly render_svg(after) plus one
 * <g class="last-move"> group (none for a pass), whose data-last cells are
 * distinct and include every cell the move's text names before any '/'
 * (from and to, the origin, the placed cell).
 */
static void check_last_move(const struct kifu_game *g, const void *before, const void *after,
			    kifu_move m)
{
	struct kifu_buf plain = KIFU_BUF_INIT, marked = KIFU_BUF_INIT;
	char text[KIFU_MOVE_TEXT_MAX], names[32][8];
	const char *start, *end, *p;
	int n = 0, i, j;

	g->format_move(before, m, text);
	assert_int_equal(g->render_svg(&plain, after), 0);
	assert_int_equal(g->render_svg_last(&marked, after, m), 0);
	start = strstr(marked.data, "<g class=\"last-move\">\n");
	if (!start) {
		/* only a move that names no cell (a pass) marks nothing */
		if (strpbrk(text, "0123456789"))
			fail_msg("%s: '%s' is not marked", g->name, text);
		assert_string_equal(marked.data, plain.data);
		goto out;
	}
	end = strstr(start, "</g>\n");
	assert_non_null(end);
	end += 5;
	assert_null(strstr(end, "class=\"last-move\""));
	/* the rest of the picture is render_svg's */
	assert_int_equal((size_t)(start - marked.data) + strlen(end), plain.len);
	assert_memory_equal(marked.data, plain.data, (size_t)(start - marked.data));
	assert_string_equal(end, plain.data + (start - marked.data));
	for (p = start; (p = strstr(p, "data-last=\"")) != NULL && p < end; p += 11) {
		size_t k = strcspn(p + 11, "\"");

		assert_true(n < 32 && k > 0 && k < 8);
		memcpy(names[n], p + 11, k);
		names[n][k] = '\0';
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], names[n]))
				fail_msg("%s: '%s' marks %s twice", g->name, text, names[n]);
		n++;
	}
	assert_true(n >= 1);
	/* every cell the text names (letters then digits), up to a '/' suffix */
	for (p = text; *p && *p != '/';) {
		char cell[8];
		size_t a = 0, d;

		while (p[a] >= 'a' && p[a] <= 'z')
			a++;
		d = 0;
		while (p[a + d] >= '0' && p[a + d] <= '9')
			d++;
		if (a && d && a + d < sizeof(cell)) {
			memcpy(cell, p, a + d);
			cell[a + d] = '\0';
			for (i = 0; i < n && strcmp(names[i], cell); i++)
				;
			if (i == n)
				fail_msg("%s: '%s' does not mark %s", g->name, text, cell);
		}
		p += a + d ? a + d : 1;
	}
out:
	kifu_buf_release(&plain);
	kifu_buf_release(&marked);
}

static void test_last_move_marked(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		unsigned char *before = malloc(2 * g->state_size), *after = before + g->state_size;
		int variants = kifu_game_variant_count(g), v, i, ply;
		struct kifu_error err;

		assert_non_null(moves);
		assert_non_null(before);
		for (v = 0; v < variants; v++) {
			struct th_rng r = { UINT64_C(0x6c617374) + (uint64_t)v };

			for (i = 0; i < MARKED_PLAYOUTS; i++) {
				assert_int_equal(g->init(before, v, 0, &err), 0);
				for (ply = 0; ply < MARKED_PLIES; ply++) {
					size_t n = g->legal_moves(before, moves);
					kifu_move m;

					if (!n)
						break;
					m = moves[th_rng_below(&r, n)];
					memcpy(after, before, g->state_size);
					g->apply(after, m);
					check_last_move(g, before, after, m);
					memcpy(before, after, g->state_size);
				}
			}
		}
		free(moves);
		free(before);
	}
}

static void test_random_playouts(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		unsigned char *mem = malloc(3 * g->state_size);
		int variants = kifu_game_variant_count(g), v, i;

		assert_non_null(moves);
		assert_non_null(mem);
		for (v = 0; v < variants; v++) {
			struct th_rng r = { UINT64_C(0x6b69667521) + (uint64_t)v };

			for (i = 0; i < PLAYOUTS_PER_VARIANT; i++) {
				/* every side starts sometimes, where the game allows a choice */
				int first = (g->flags & KIFU_GAME_CHOOSE_FIRST) ? i % g->nsides : 0;

				playout(g, v, first, &r, moves, mem, i < SYM_PLAYOUTS);
			}
		}
		free(moves);
		free(mem);
	}
}

/* Random games per variant whose positions the evaluation must predict. */
#define PREDICT_GAMES 200

/*
 * The evaluation predicts: over the positions of seeded random games (none
 * of them among the self-play games its weights were fitted to), its mean
 * log-loss against each game's result is below the uniform value's,
 * log(nsides). A draw is shared by the sides still in the game (those the
 * evaluation does not value 0: in splinter-quad, a side eliminated before
 * the draw has no part in it). Random games are the hardest test of a
 * model fitted to games of searching players, and the cheapest.
 */
static void test_evaluation_predicts(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		double *values = NULL;
		size_t cap = 0;
		int variants = kifu_game_variant_count(g), v;
		struct kifu_error err;
		void *state = malloc(g->state_size);

		assert_non_null(moves);
		assert_non_null(state);
		for (v = 0; v < variants; v++) {
			struct th_rng r = { UINT64_C(0x6576616c) + (uint64_t)v };
			double loss = 0, uniform = 0;
			size_t count = 0;
			int i;

			for (i = 0; i < PREDICT_GAMES; i++) {
				int first = (g->flags & KIFU_GAME_CHOOSE_FIRST) ? i % g->nsides : 0;
				size_t n = 0, k;
				struct kifu_outcome oc;
				int ply, s;

				assert_int_equal(g->init(state, v, first, &err), 0);
				for (ply = 0; ply < MAX_PLIES * 4; ply++) {
					size_t nm = g->legal_moves(state, moves);

					if (!nm)
						break;
					if ((n + 1) * (size_t)g->nsides > cap) {
						cap = cap ? cap * 2 : 1024;
						values = realloc(values, sizeof(*values) * cap);
						assert_non_null(values);
					}
					g->evaluate(state, values + n * (size_t)g->nsides);
					n++;
					g->apply(state, moves[th_rng_below(&r, nm)]);
				}
				g->outcome(state, &oc);
				if (oc.status == KIFU_ONGOING)
					continue; /* no result to predict */
				for (k = 0; k < n; k++) {
					const double *p = values + k * (size_t)g->nsides;
					int in = 0;

					for (s = 0; s < g->nsides; s++)
						in += p[s] > 0;
					for (s = 0; s < g->nsides; s++) {
						double t = oc.status == KIFU_WIN ? (s == oc.winner) :
							   p[s] > 0 ? 1.0 / in : 0;

						if (t > 0) {
							loss -= t * log(p[s] > 1e-12 ? p[s] : 1e-12);
							uniform -= t * log(1.0 / g->nsides);
						}
					}
				}
				count += n;
			}
			assert_true(count > 0);
			print_message("%s %s: log-loss %.4f, uniform %.4f, %zu positions\n", g->name,
				      g->variants[v], loss / (double)count, uniform / (double)count, count);
			if (!(loss < uniform)) {
				free(values);
				free(moves);
				free(state);
				fail_msg("%s %s: the evaluation's log-loss %.4f is not below the "
					 "uniform %.4f over %zu positions", g->name, g->variants[v],
					 loss / (double)count, uniform / (double)count, count);
			}
		}
		free(values);
		free(moves);
		free(state);
	}
}

/* Random games per variant whose replay keeps canonical hashes and cells. */
#define KEPT_GAMES 20
#define KEPT_PLIES 80

/*
 * What kifu-import's reading thread keeps for the store (KIFU_VALIDATE_CANON,
 * KIFU_VALIDATE_CELLS, KIFU_VALIDATE_BRANCHING) is what the store would
 * compute itself: the canonical hash and symmetry of every position
 * (kifu_game_canonical_hash), the cells each side stood on
 * (kifu_pattern_summary_moves) and the legal moves before each move summed
 * (legal_moves' count), along seeded random games written as records; and
 * a replay validated again without the flags keeps none of them.
 */
static void test_replay_keeps(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		kifu_move played[KEPT_PLIES];
		unsigned char *state = malloc(g->state_size), *scratch = malloc(g->state_size);
		int variants = kifu_game_variant_count(g), v, i;
		struct th_rng r = { UINT64_C(0x6b65707421) };

		assert_non_null(moves);
		assert_non_null(state);
		assert_non_null(scratch);
		for (v = 0; v < variants; v++)
			for (i = 0; i < KEPT_GAMES; i++) {
				struct kifu_replay rp = KIFU_REPLAY_INIT;
				struct kifu_diags diags = KIFU_DIAGS_INIT;
				struct kifu_buf text = KIFU_BUF_INIT;
				struct kifu_reader *rd;
				struct kifu_record *rec = NULL;
				struct kifu_error err;
				uint64_t sum[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS], legal = 0;
				size_t n = 0, ply;

				kifu_error_clear(&err);
				assert_int_equal(g->init(state, v, 0, &err), 0);
				kifu_buf_printf(&text, "game: %s\nvariant: %s\nmoves:\n", g->name,
						g->variants ? g->variants[v] : "standard");
				while (n < KEPT_PLIES) {
					struct kifu_outcome oc;
					char mt[KIFU_MOVE_TEXT_MAX], *q;
					size_t nm;

					g->outcome(state, &oc);
					if (oc.status != KIFU_ONGOING)
						break;
					nm = g->legal_moves(state, moves);
					assert_true(nm > 0);
					legal += nm;
					played[n] = moves[th_rng_below(&r, nm)];
					g->format_move(state, played[n], mt);
					kifu_buf_puts(&text, "  - '");
					for (q = mt; *q; q++)
						kifu_buf_puts(&text, *q == '\'' ? "''" : (char[]){ *q, 0 });
					kifu_buf_puts(&text, "'\n");
					g->apply(state, played[n++]);
				}
				{
					/* a game the rules ended says how */
					struct kifu_outcome oc;

					g->outcome(state, &oc);
					if (oc.status == KIFU_DRAW)
						kifu_buf_puts(&text, "result: draw\n");
					else if (oc.status != KIFU_ONGOING)
						kifu_buf_printf(&text, "result: %s\n", g->sides[oc.winner]);
				}
				assert_false(text.failed);
				assert_int_equal(kifu_reader_open_mem(&rd, text.data, text.len, "test",
								      &err), 0);
				assert_int_equal(kifu_reader_next(&rec, &diags, rd, &err), 1);
				assert_int_equal(kifu_record_validate(&rp, &diags, rec,
								      KIFU_VALIDATE_CANON |
									      KIFU_VALIDATE_CELLS |
									      KIFU_VALIDATE_BRANCHING,
								      &err), 0);
				if (diags.errors)
					fail_msg("%s: %s", g->name, diags.v[0].message);
				assert_int_equal(rp.nplies, n);
				assert_int_equal(rp.ncanon, n + 1);
				assert_int_equal(rp.legal_plies, n);
				assert_true(rp.legal == legal);
				assert_int_equal(g->init(state, v, 0, &err), 0);
				for (ply = 0; ply <= n; ply++) {
					uint64_t c;
					int sym;

					assert_int_equal(kifu_game_canonical_hash(&c, &sym, g, state), 0);
					assert_true(rp.canon[ply] == c);
					assert_int_equal(rp.syms[ply], sym);
					if (ply < n)
						g->apply(state, played[ply]);
				}
				if (g->ncells) {
					assert_int_equal(rp.cells_plies, n + 1);
					assert_int_equal(kifu_pattern_summary_moves(sum, g, v, 0, played, n,
										    scratch), 0);
					assert_memory_equal(rp.cells, sum,
							    KIFU_PATTERN_SUMMARY_WORDS(g) * sizeof(*sum));
				} else
					assert_int_equal(rp.cells_plies, 0);
				/* the same replay again without the flags: nothing kept is offered */
				assert_int_equal(kifu_record_validate(&rp, &diags, rec, 0, &err), 0);
				assert_int_equal(rp.ncanon, 0);
				assert_int_equal(rp.cells_plies, 0);
				assert_int_equal(rp.legal_plies, 0);
				kifu_record_free(rec);
				kifu_reader_free(rd);
				kifu_diags_release(&diags);
				kifu_replay_release(&rp);
				kifu_buf_release(&text);
			}
		free(moves);
		free(state);
		free(scratch);
	}
}

static void test_registry(void **unused)
{
	const struct kifu_game *const *gp;
	int count = 0;

	(void)unused;
	for (gp = kifu_games; *gp; gp++, count++) {
		const struct kifu_game *g = *gp;
		struct kifu_error err;
		unsigned char *state = malloc(g->state_size);
		struct kifu_buf b = KIFU_BUF_INIT;
		int s;

		assert_ptr_equal(kifu_game_find(g->name), g);
		assert_int_equal(kifu_game_variant_index(g, g->variants[0]), 0);
		for (s = 0; g->sides[s]; s++)
			assert_int_equal(kifu_game_side_index(g, g->sides[s]), s);
		assert_int_equal(s, g->nsides);
		assert_non_null(g->init);
		assert_non_null(g->side_to_move);
		assert_non_null(g->legal_moves);
		assert_non_null(g->apply);
		assert_non_null(g->parse_move);
		assert_non_null(g->format_move);
		assert_non_null(g->outcome);
		assert_non_null(g->hash);
		assert_non_null(g->rehash);
		assert_non_null(g->figures);
		assert_non_null(g->render_svg_last);
		assert_non_null(g->render_text);
		assert_non_null(g->render_svg);
		assert_true(g->nsymmetries >= 1 && g->nsymmetries <= KIFU_GAME_SYMMETRIES_MAX);
		/* import hashes every ply canonically: a board with symmetries hashes them in one pass */
		if (g->nsymmetries > 1)
			assert_non_null(g->hash_symmetries);
		assert_non_null(g->symmetry_inverse);
		assert_non_null(g->map_state);
		assert_non_null(g->map_move);
		/* every game values its positions (the engine's searches cut playouts with it) */
		assert_non_null(g->evaluate);
		/* an unknown variant and, where no choice is allowed, a second first side are refused */
		assert_int_equal(g->init(state, kifu_game_variant_count(g), 0, &err), KIFU_ENOTFOUND);
		if (!(g->flags & KIFU_GAME_CHOOSE_FIRST))
			assert_int_equal(g->init(state, 0, 1, &err), KIFU_ENOTFOUND);
		assert_int_equal(g->init(state, 0, g->nsides, &err), KIFU_ENOTFOUND);
		assert_int_equal(g->init(state, 0, 0, &err), 0);
		assert_int_equal(g->render_text(&b, state), 0);
		assert_true(b.len > 0);
		kifu_buf_release(&b);
		free(state);
	}
	assert_int_equal(count, 5);
	assert_null(kifu_game_find("chess"));
}

/* Each game declares exactly the symmetries its page lists. */
static void test_symmetry_counts(void **unused)
{
	static const struct {
		const char *game;
		int n;
	} want[] = {
		{ "splay-schmidt", 12 }, { "splay-kisenwether", 2 }, { "splinter", 4 },
		{ "splinter-quad", 8 }, { "glaisher", 12 },
	};
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct kifu_game *g = kifu_game_find(want[i].game);

		assert_non_null(g);
		assert_int_equal(g->nsymmetries, want[i].n);
	}
}

/*
 * The symmetries are distinct maps of the board: from a position with no
 * symmetry of its own (some random one), every k gives a different hash.
 */
static void test_symmetries_distinct(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
		unsigned char *mem = malloc(2 * g->state_size);
		struct th_rng r = { UINT64_C(0x73796d) };
		struct kifu_error err;
		int tries, found = 0;

		assert_non_null(moves);
		assert_non_null(mem);
		for (tries = 0; tries < 50 && !found; tries++) {
			uint64_t seen[16];
			int ply, k, j, distinct = 1;

			assert_int_equal(g->init(mem, 0, 0, &err), 0);
			for (ply = 0; ply < 12; ply++) {
				size_t n = g->legal_moves(mem, moves);

				if (!n)
					break;
				g->apply(mem, moves[th_rng_below(&r, n)]);
			}
			for (k = 0; k < g->nsymmetries && k < 16; k++) {
				g->map_state(mem + g->state_size, mem, k);
				seen[k] = g->hash(mem + g->state_size);
				for (j = 0; j < k; j++)
					distinct &= seen[j] != seen[k];
			}
			found = distinct;
		}
		if (!found)
			fail_msg("%s: no position tells its symmetries apart", g->name);
		free(moves);
		free(mem);
	}
}

/* Start positions hash alike, and the side to move is part of the hash. */
static void test_hash_covers_side_to_move(void **unused)
{
	const struct kifu_game *const *gp;

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		struct kifu_pos *a, *b;
		struct kifu_error err;

		assert_int_equal(kifu_pos_new(&a, g, 0, 0, &err), 0);
		assert_int_equal(kifu_pos_new(&b, g, 0, 0, &err), 0);
		assert_true(g->hash(a->state) == g->hash(b->state));
		/* a differing side to move must show in the hash where a choice is allowed */
		if (g->flags & KIFU_GAME_CHOOSE_FIRST) {
			assert_int_equal(g->init(b->state, 0, 1, &err), 0);
			assert_true(g->hash(a->state) != g->hash(b->state));
		}
		kifu_pos_free(a);
		kifu_pos_free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_move_marked),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_hash_covers_side_to_move),
		cmocka_unit_test(test_symmetry_counts),
		cmocka_unit_test(test_symmetries_distinct),
		cmocka_unit_test(test_random_playouts),
		cmocka_unit_test(test_replay_keeps),
		cmocka_unit_test(test_evaluation_predicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
