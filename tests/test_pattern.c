/*
 * Partial-board patterns (kifu/pattern.h) over every game and variant: the
 * cells and tokens the games give agree with their pictures (render_svg's
 * data-cell/data-content, documented as render_text's tokens), a pattern
 * made of what a position shows matches it and stops matching when one
 * item is changed, --symmetric finds mapped positions, and mistakes are
 * refused with the messages the tools print.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kifu/buf.h"
#include "kifu/game.h"
#include "kifu/pattern.h"
#include "helpers.h"

#define PLIES 120
#define CELLS_MAX 256

/* Every cell's token, by name, as render_svg draws it ("." where it draws none). */
static void svg_tokens(const struct kifu_game *g, const void *state, char names[][KIFU_CELL_NAME_MAX],
		       int n, char tokens[][KIFU_CELL_TOKEN_MAX])
{
	struct kifu_buf b = KIFU_BUF_INIT;
	const char *s;
	int i;

	for (i = 0; i < n; i++)
		strcpy(tokens[i], ".");
	assert_int_equal(g->render_svg(&b, state), 0);
	for (s = b.data; (s = strstr(s, "data-cell=\"")) != NULL;) {
		char name[KIFU_CELL_NAME_MAX + 8], tok[KIFU_CELL_TOKEN_MAX + 8];
		const char *q;

		s += strlen("data-cell=\"");
		q = strchr(s, '"');
		assert_non_null(q);
		assert_true((size_t)(q - s) < sizeof(name));
		memcpy(name, s, (size_t)(q - s));
		name[q - s] = '\0';
		s = strstr(q, "data-content=\"");
		assert_non_null(s);
		s += strlen("data-content=\"");
		q = strchr(s, '"');
		assert_true((size_t)(q - s) < sizeof(tok));
		memcpy(tok, s, (size_t)(q - s));
		tok[q - s] = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], name))
				break;
		assert_true(i < n);
		strcpy(tokens[i], tok);
	}
	kifu_buf_release(&b);
}

/* A pattern text of the cells at idx[0..k) showing tokens (or what is given). */
static void make_text(char *out, size_t size, char names[][KIFU_CELL_NAME_MAX],
		      const int *idx, int k, const char *const *tok)
{
	size_t len = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < k; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s=%s", i ? "," : "",
					names[idx[i]], tok[i]);
}

static int parse_ok(struct kifu_pattern **p, const struct kifu_game *g, int variant,
		    const char *text, int symmetric)
{
	struct kifu_error err;
	int ret = kifu_pattern_parse(p, g, variant, text, symmetric, &err);

	if (ret)
		fail_msg("%s: pattern '%s' refused: %s", g->name, text, err.message);
	return ret;
}

static void check_position(const struct kifu_game *g, int variant, const void *state,
			   void *mapped, const uint64_t *sum, struct th_rng *r)
{
	static char names[CELLS_MAX][KIFU_CELL_NAME_MAX], tokens[CELLS_MAX][KIFU_CELL_TOKEN_MAX];
	static char shown[CELLS_MAX][KIFU_CELL_TOKEN_MAX];
	char text[512];
	const char *tok[3];
	struct kifu_pattern *p;
	int n = g->ncells(state), i, idx[3], side[3];

	assert_true(n > 0 && n <= CELLS_MAX);
	for (i = 0; i < n; i++)
		g->cell_name(state, i, names[i]);
	svg_tokens(g, state, names, n, shown);
	for (i = 0; i < n; i++) {
		int s = g->cell_token(state, i, tokens[i]);

		assert_string_equal(tokens[i], shown[i]);
		if (s < 0) {
			assert_string_equal(tokens[i], ".");
		} else {
			assert_true(s < g->nsides);
			assert_int_equal(g->token_side(state, tokens[i]), s);
		}
	}
	/* side_cells says the same as cell_token */
	if (g->side_cells) {
		uint64_t bits[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
		int sd;

		assert_true(g->nsides <= KIFU_GAME_SIDES_MAX);
		g->side_cells(state, bits);
		for (i = 0; i < n; i++)
			for (sd = 0; sd < g->nsides; sd++)
				assert_int_equal(bits[sd * KIFU_CELL_WORDS + i / 64] >> (i % 64) & 1,
						 g->cell_token(state, i, text) == sd);
	}
	/* three distinct cells, as shown: matches; each item changed: does not */
	for (i = 0; i < 3; i++) {
		int j;

		do {
			idx[i] = (int)th_rng_below(r, (size_t)n);
			for (j = 0; j < i && idx[j] != idx[i]; j++)
				;
		} while (j < i);
		tok[i] = tokens[idx[i]];
		side[i] = g->cell_token(state, idx[i], text);
	}
	make_text(text, sizeof(text), names, idx, 3, tok);
	parse_ok(&p, g, variant, text, 0);
	assert_int_equal(kifu_pattern_size(p), 3);
	assert_true(kifu_pattern_match(p, state));
	/* the summary of a game that showed it lets it through */
	assert_true(kifu_pattern_may_match(p, sum));
	kifu_pattern_free(p);
	for (i = 0; i < 3; i++) {
		const char *save = tok[i];
		char letter[3] = { 0, '+', 0 };

		/* "+" or "." says the opposite of what is there */
		tok[i] = side[i] < 0 ? "+" : ".";
		make_text(text, sizeof(text), names, idx, 3, tok);
		parse_ok(&p, g, variant, text, 0);
		assert_false(kifu_pattern_match(p, state));
		kifu_pattern_free(p);
		/* "*" always holds; a side's letter and + holds for that side only */
		tok[i] = "*";
		make_text(text, sizeof(text), names, idx, 3, tok);
		parse_ok(&p, g, variant, text, 0);
		assert_true(kifu_pattern_match(p, state));
		kifu_pattern_free(p);
		letter[0] = g->sides[(side[i] < 0 ? 0 : side[i] + 1) % g->nsides][0];
		tok[i] = letter;
		make_text(text, sizeof(text), names, idx, 3, tok);
		parse_ok(&p, g, variant, text, 0);
		assert_false(kifu_pattern_match(p, state));
		kifu_pattern_free(p);
		tok[i] = save;
	}
	/* the pattern an image shows: found in state with symmetric */
	if (g->nsymmetries > 1) {
		int k = 1 + (int)th_rng_below(r, (size_t)g->nsymmetries - 1);
		char mt[3][KIFU_CELL_TOKEN_MAX];

		g->map_state(mapped, state, k);
		/* map_cell says where map_state puts each cell's content */
		for (i = 0; i < n; i++) {
			char there[KIFU_CELL_TOKEN_MAX];
			int t = g->map_cell(state, i, k);

			assert_true(t >= 0 && t < n);
			g->cell_token(mapped, t, there);
			assert_string_equal(there, tokens[i]);
		}
		for (i = 0; i < 3; i++) {
			g->cell_token(mapped, idx[i], mt[i]);
			tok[i] = mt[i];
		}
		make_text(text, sizeof(text), names, idx, 3, tok);
		parse_ok(&p, g, variant, text, 1);
		assert_true(kifu_pattern_match(p, state));
		assert_true(kifu_pattern_may_match(p, sum));
		kifu_pattern_free(p);
	}
}

/*
 * A side on a cell none of its pieces stood on in the game: ruled out by
 * the summary (plain); one more item never lets a game through that one
 * fewer ruled out.
 */
static void check_ruled_out(const struct kifu_game *g, int variant, const uint64_t *sum)
{
	struct kifu_pattern *p;
	struct kifu_pos *start;
	struct kifu_error err;
	char name[KIFU_CELL_NAME_MAX], text[64];
	int c, sd, n;

	assert_int_equal(kifu_pos_new(&start, g, variant, 0, &err), 0);
	n = g->ncells(start->state);
	for (c = 0; c < n; c++) {
		for (sd = 0; sd < g->nsides; sd++) {
			if (sum[sd * KIFU_CELL_WORDS + c / 64] >> (c % 64) & 1)
				continue;
			g->cell_name(start->state, c, name);
			snprintf(text, sizeof(text), "%s=%c+", name, g->sides[sd][0]);
			parse_ok(&p, g, variant, text, 0);
			assert_false(kifu_pattern_may_match(p, sum));
			kifu_pattern_free(p);
			g->cell_name(start->state, (c + 1) % n, name);
			snprintf(text + strlen(text), sizeof(text) - strlen(text), ",%s=*", name);
			parse_ok(&p, g, variant, text, 0);
			assert_false(kifu_pattern_may_match(p, sum));
			kifu_pattern_free(p);
		}
	}
	kifu_pos_free(start);
}

static void test_every_game(void **unused)
{
	const struct kifu_game *const *gp;
	struct th_rng r = { 42 };

	(void)unused;
	for (gp = kifu_games; *gp; gp++) {
		const struct kifu_game *g = *gp;
		int v;

		assert_non_null(g->ncells);
		for (v = 0; g->variants[v]; v++) {
			struct kifu_pos *pos;
			struct kifu_error err;
			kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
			void *mapped = malloc(g->state_size);
			int ply;

			assert_non_null(moves);
			assert_non_null(mapped);
			assert_int_equal(kifu_pos_new(&pos, g, v, 0, &err), 0);
			uint64_t sum[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS] = { 0 };

			for (ply = 0; ply < PLIES; ply++) {
				size_t n;

				kifu_pattern_summary_add(sum, g, pos->state);
				check_position(g, v, pos->state, mapped, sum, &r);
				n = g->legal_moves(pos->state, moves);
				if (!n)
					break;
				g->apply(pos->state, moves[th_rng_below(&r, n)]);
			}
			check_ruled_out(g, v, sum);
			kifu_pos_free(pos);
			free(moves);
			free(mapped);
		}
	}
}

static void refused(const char *game, const char *text, const char *message)
{
	const struct kifu_game *g = th_game(game);
	struct kifu_pattern *p = NULL;
	struct kifu_error err;

	assert_int_equal(kifu_pattern_parse(&p, g, 0, text, 0, &err), KIFU_EPARSE);
	assert_null(p);
	assert_string_equal(err.message, message);
}

static void test_mistakes(void **unused)
{
	(void)unused;
	refused("splay-schmidt", "e9=w1,z4=w1", "unknown cell 'z4' in pattern: cells are named "
		"as in moves (a1 to k6)");
	refused("splinter", "e4=Wp,e44=Bp", "unknown cell 'e44' in pattern (did you mean 'e4'?)");
	refused("splinter", "e4", "pattern item 'e4' has no '=': write CELL=TOKEN (e4=w1)");
	refused("splinter", "e4=Wp, e4=.", "cell 'e4' is named twice in pattern");
	refused("splinter", "e4=Ws", "unknown token 'Ws' for cell 'e4' in pattern: a cell is ., "
		"+, *, a side's letter and + (b+ ...), or B or W (blue, white) and k, r, b or p "
		"(king, rook, bishop, pawn): Bk, Wp, ...");
	refused("glaisher", "e5=r0", "unknown token 'r0' for cell 'e5' in pattern: a cell is ., "
		"+, *, a side's letter and + (r+ ...), or r1, r2, ... and y1, y2, ... (red and "
		"yellow stacks of that height)");
	refused("splay-kisenwether", "a1=x+", "unknown token 'x+' for cell 'a1' in pattern: a "
		"cell is ., +, *, a side's letter and + (w+ ...), or stacks written bottom to top in "
		"w and b (w, ww, wb, bbw, ...)");
}

/* Spaces around items are allowed; letters of either case name a side. */
static void test_spelling(void **unused)
{
	struct kifu_pattern *p;
	struct kifu_pos *pos = th_play_list("splinter-quad", 0, 0, "");
	char tok[KIFU_CELL_TOKEN_MAX], name[KIFU_CELL_NAME_MAX], text[128];
	const struct kifu_game *g = pos->game;
	int i, side = -1;

	(void)unused;
	for (i = 0; i < g->ncells(pos->state) && side < 0; i++)
		side = g->cell_token(pos->state, i, tok);
	g->cell_name(pos->state, i - 1, name);
	snprintf(text, sizeof(text), " %s = %c+ ", name, g->sides[side][0]);
	parse_ok(&p, g, 0, text, 0);
	assert_true(kifu_pattern_match(p, pos->state));
	kifu_pattern_free(p);
	snprintf(text, sizeof(text), "%s=%c+", name, g->sides[side][0] - 'a' + 'A');
	parse_ok(&p, g, 0, text, 0);
	assert_true(kifu_pattern_match(p, pos->state));
	kifu_pattern_free(p);
	kifu_pos_free(pos);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_game),
		cmocka_unit_test(test_mistakes),
		cmocka_unit_test(test_spelling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
