/*
 * Unit tests of the splinter engine (two-player Splinter, knockout and
 * survival): pushes off the edge, the no-return rule, splinters and ties
 * with /CELL, the endings, move text, perft from the start and from the
 * positions of the shared perft table. Positions are reached by playing
 * move lists from the start.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "helpers.h"

static const struct kifu_game *game(void)
{
	return th_game("splinter");
}

/* The position after moves (comma-separated) from the start of variant, first side first. */
static struct kifu_pos *reach(const char *variant, const char *first, const char *moves)
{
	const struct kifu_game *g = game();

	return th_play_list("splinter", kifu_game_variant_index(g, variant),
			    kifu_game_side_index(g, first), moves);
}

/* The diagram's two-letter content of a cell ("Bk", "Wp") or "." when empty. */
static void expect_cell(const struct kifu_pos *p, const char *cell, const char *want)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	const char *line;
	char got[3];
	int file = cell[0] - 'a', k;

	assert_int_equal(p->game->render_text(&b, p->state), 0);
	/* rank lines start with the rank number in two columns, then 3 columns a cell */
	for (line = b.data; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (line[0] && line[1] && line[2] == ' ' && atoi(line) == atoi(cell + 1))
			break;
	assert_non_null(line);
	line += 2 + 3 * file;
	for (k = 0; k < 3 && line[k] == ' '; k++)
		;
	memcpy(got, line + k, 3 - (size_t)k);
	got[3 - k] = '\0';
	assert_string_equal(got, want);
	kifu_buf_release(&b);
}

static void expect_text(const struct kifu_pos *p, kifu_move m, const char *want)
{
	char buf[KIFU_MOVE_TEXT_MAX];

	p->game->format_move(p->state, m, buf);
	assert_string_equal(buf, want);
}

static int listed(const struct kifu_pos *p, kifu_move m)
{
	kifu_move *moves = malloc(sizeof(*moves) * p->game->max_moves);
	size_t n, i;
	int found = 0;

	assert_non_null(moves);
	n = p->game->legal_moves(p->state, moves);
	for (i = 0; i < n; i++)
		found += moves[i] == m;
	free(moves);
	return found;
}

static void expect_outcome(const struct kifu_pos *p, int status, int winner)
{
	struct kifu_outcome oc;
	kifu_move m;

	p->game->outcome(p->state, &oc);
	assert_int_equal(oc.status, status);
	assert_int_equal(oc.winner, winner);
	if (status != KIFU_ONGOING) {
		assert_int_equal(p->game->legal_moves(p->state, &m), 0);
		assert_int_equal(p->game->count_moves(p->state), 0);
	}
}

static void test_start(void **state)
{
	const struct kifu_game *g = game();
	struct kifu_error err = { 0 };
	struct kifu_pos *p = reach("knockout", "blue", ""), *q = NULL;

	(void)state;
	assert_string_equal(g->variants[0], "knockout");
	assert_int_equal(g->flags, KIFU_GAME_CHOOSE_FIRST);
	/* the table of the spec, and the kings on f4 (blue) and e6 (white) */
	expect_cell(p, "c7", "Bp");
	expect_cell(p, "d7", "Wp");
	expect_cell(p, "d6", "Bb");
	expect_cell(p, "e6", "Wk");
	expect_cell(p, "e5", "Br");
	expect_cell(p, "d5", "Wr");
	expect_cell(p, "f4", "Bk");
	expect_cell(p, "g4", "Wb");
	expect_cell(p, "h3", "Wp");
	expect_cell(p, "b3", ".");
	assert_int_equal(g->side_to_move(p->state), 0);
	assert_int_equal(th_figure(p, "pieces_blue"), 15);
	assert_int_equal(th_figure(p, "pieces_white"), 15);
	assert_int_equal(th_figure(p, "knockouts_blue"), 0);
	assert_int_equal(th_figure(p, "knockouts_white"), 0);
	expect_outcome(p, KIFU_ONGOING, -1);
	kifu_pos_free(p);

	p = reach("survival", "white", "");
	expect_cell(p, "e5", "Bs");
	expect_cell(p, "d6", "Bx");
	expect_cell(p, "e6", "Wx");
	expect_cell(p, "h7", "Wo");
	assert_int_equal(g->side_to_move(p->state), 1);
	assert_int_equal(g->figures(p->state, (struct kifu_figure[KIFU_FIGURES_MAX]){ 0 }), 2);
	kifu_pos_free(p);

	assert_int_equal(kifu_pos_new(&q, g, 2, 0, &err), KIFU_ENOTFOUND);
	assert_int_equal(kifu_pos_new(&q, g, 0, 2, &err), KIFU_ENOTFOUND);
}

static void test_start_perft(void **state)
{
	static const char *const variants[] = { "knockout", "survival" };
	int v;

	(void)state;
	for (v = 0; v < 2; v++) {
		struct kifu_pos *p = reach(variants[v], "blue", "");

		assert_int_equal(th_perft(p, 1), 120);
		assert_int_equal(th_perft(p, 2), 14319);
		assert_int_equal(th_perft(p, 3), 1704942);
		kifu_pos_free(p);
		p = reach(variants[v], "white", "");
		assert_int_equal(th_perft(p, 2), 14319);
		kifu_pos_free(p);
	}
}

/* The blue bishop on c6 pushes the white pawn on b6 to a6 and the blue pawn on a6 off the board. */
static void test_push_off_edge(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "d4-c5,e6-d6");

	(void)state;
	expect_cell(p, "a6", "Bp");
	expect_cell(p, "b6", "Wp");
	expect_cell(p, "c6", "Bb");
	th_play_move(p, "c6-b6");
	expect_cell(p, "a6", "Wp");
	expect_cell(p, "b6", "Bb");
	expect_cell(p, "c6", ".");
	assert_int_equal(th_figure(p, "pieces_blue"), 14);
	assert_int_equal(th_figure(p, "pieces_white"), 15);
	/* a piece cannot slide itself off: there is no cell to name, a1-a0 does not parse */
	th_parse_refused(p, "a6-a0", KIFU_EPARSE, "unparsable move 'a6-a0': unknown cell 'a0'");
	kifu_pos_free(p);
}

/*
 * Blue's rook e5 pushes the white rook d5 to c5 and the blue pawn c5 to b5.
 * Neither may be pushed back by white's next move; another piece may enter
 * a vacated square, and the restriction lasts one turn.
 */
static void test_no_return(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "e5-d5");

	(void)state;
	expect_cell(p, "b5", "Bp");
	expect_cell(p, "c5", "Wr");
	expect_cell(p, "d5", "Br");
	expect_cell(p, "e5", ".");
	th_parse_refused(p, "c5-d5", KIFU_EILLEGAL,
			 "illegal move 'c5-d5': "
			 "no-return square: the piece on 'c5' would go back to 'd5'");
	th_parse_refused(p, " C5-D5 ", KIFU_EILLEGAL,
			 "illegal move 'C5-D5': "
			 "no-return square: the piece on 'c5' would go back to 'd5'");
	/* other directions are free, and so is another piece entering e5 */
	th_parse_move(p, "c5-c6");
	th_parse_move(p, "c5-b6");
	th_play_move(p, "e6-e5");
	expect_cell(p, "e5", "Wk");
	/* blue may now put its own pieces back: only white's turn restricts blue */
	th_play_move(p, "b5-c5");
	expect_cell(p, "c5", "Bp");
	expect_cell(p, "d5", "Wr");
	expect_cell(p, "e5", "Br");
	expect_cell(p, "f5", "Wk");
	kifu_pos_free(p);

	/* the rule follows the pieces: an eastward line without them is free */
	p = reach("knockout", "blue", "e5-d5");
	th_parse_move(p, "d7-e7");
	kifu_pos_free(p);
}

/* White's pawn pushed to h8 steps to h9, alone: the smaller group (it) leaves. */
static void test_splinter(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "h4-h5");

	(void)state;
	expect_cell(p, "h8", "Wp");
	expect_cell(p, "h4", ".");
	th_play_move(p, "h8-h9");
	expect_cell(p, "h9", ".");
	expect_cell(p, "h8", ".");
	assert_int_equal(th_figure(p, "pieces_white"), 14);
	assert_int_equal(th_figure(p, "pieces_blue"), 15);
	kifu_pos_free(p);
}

/*
 * White's rook f5 steps to g5 and empties the only link between two groups
 * of 15 pieces: white chooses which stays.
 */
static void test_tie(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "f6-g7,f7-g6,e3-d3,f3-g2,f4-g4");
	kifu_move left, right;

	(void)state;
	th_parse_refused(p, "f5-g5", KIFU_EILLEGAL, "illegal move 'f5-g5': tie needs /CELL");
	left = th_parse_move(p, "f5-g5/b3");
	right = th_parse_move(p, "f5-g5/g2");
	assert_true(left != right);
	assert_int_equal(listed(p, left), 1);
	assert_int_equal(listed(p, right), 1);
	expect_text(p, left, "f5-g5/b3");
	expect_text(p, right, "f5-g5/g2");
	/* any cell of the kept group, in any case, is the same move */
	assert_true(th_parse_move(p, "f5-g5/e5") == left);
	assert_true(th_parse_move(p, " F5-G5/C7 ") == left);
	assert_true(th_parse_move(p, "f5-g5/j4") == right);
	assert_true(th_parse_move(p, "f5-g5/h5") == right); /* the rook pushed there */
	th_parse_refused(p, "f5-g5/f5", KIFU_EILLEGAL,
			 "illegal move 'f5-g5/f5': 'f5' is not in a group tied for largest");
	th_parse_refused(p, "f5-g5/a9", KIFU_EILLEGAL,
			 "illegal move 'f5-g5/a9': 'a9' is not in a group tied for largest");
	th_parse_refused(p, "f5-g5/b3/g2", KIFU_EILLEGAL,
			 "illegal move 'f5-g5/b3/g2': no further tie arises: '/g2' is not allowed");
	th_parse_refused(p, "h3-h2/b3", KIFU_EILLEGAL,
			 "illegal move 'h3-h2/b3': "
			 "no tie for the largest group arises: '/b3' is not allowed");
	th_parse_refused(p, "f5-g5/", KIFU_EPARSE,
			 "unparsable move 'f5-g5/': missing cell after '/'");
	th_parse_refused(p, "f5-g5/k3", KIFU_EPARSE,
			 "unparsable move 'f5-g5/k3': unknown cell 'k3'");

	p->game->apply(p->state, left);
	expect_cell(p, "b3", "Bp");
	expect_cell(p, "e5", "Br");
	expect_cell(p, "g5", ".");
	expect_cell(p, "g2", ".");
	assert_int_equal(th_figure(p, "pieces_blue"), 8);
	assert_int_equal(th_figure(p, "pieces_white"), 7);
	/* blue's king went with the right group */
	assert_int_equal(th_figure(p, "knockouts_white"), 1);
	assert_int_equal(th_figure(p, "knockouts_blue"), 0);
	kifu_pos_free(p);

	p = reach("knockout", "blue", "f6-g7,f7-g6,e3-d3,f3-g2,f4-g4,f5-g5/i4");
	expect_cell(p, "b3", ".");
	expect_cell(p, "g5", "Wr");
	expect_cell(p, "h5", "Br");
	expect_cell(p, "i5", "Wb");
	assert_int_equal(th_figure(p, "pieces_blue"), 7);
	assert_int_equal(th_figure(p, "pieces_white"), 8);
	kifu_pos_free(p);
}

static void test_knockout_endings(void **state)
{
	struct kifu_pos *p;

	(void)state;
	/* white has no king and no rook left: two knockouts for blue */
	p = reach("knockout", "blue", "c5-c4,f3-g4,e3-f2,f7-g8,f6-g7,h3-h2,f4-g5,f5-e5/f2");
	assert_int_equal(th_figure(p, "knockouts_blue"), 2);
	assert_int_equal(th_figure(p, "knockouts_white"), 0);
	expect_outcome(p, KIFU_WIN, 0);
	th_parse_refused(p, "g5-g6", KIFU_EILLEGAL, "illegal move 'g5-g6': the game is over");
	kifu_pos_free(p);

	/* one move gives both sides two knockouts: blue has more pieces (5 to 4) */
	p = reach("knockout", "blue",
		  "d6-e5,h5-g6,g5-h6,d7-e7,c3-c2,e6-f7,e5-d5,f5-f6,e3-f3");
	expect_outcome(p, KIFU_ONGOING, -1);
	th_play_move(p, "e4-f5/b5");
	assert_int_equal(th_figure(p, "knockouts_blue"), 2);
	assert_int_equal(th_figure(p, "knockouts_white"), 2);
	assert_int_equal(th_figure(p, "pieces_blue"), 5);
	assert_int_equal(th_figure(p, "pieces_white"), 4);
	expect_outcome(p, KIFU_WIN, 0);
	kifu_pos_free(p);

	/* the same with 3 pieces each: a draw */
	p = reach("knockout", "blue",
		  "d6-d7,d5-d4,g3-h2,g6-h5,g5-h6,e4-f4,g4-h5,f5-e6,d3-c3,f7-g7,e3-d4,g7-g8,"
		  "d4-c4,c5-c4,b6-c5,d7-c6,e7-f8");
	assert_int_equal(th_figure(p, "knockouts_blue"), 2);
	assert_int_equal(th_figure(p, "knockouts_white"), 2);
	assert_int_equal(th_figure(p, "pieces_blue"), 3);
	assert_int_equal(th_figure(p, "pieces_white"), 3);
	expect_outcome(p, KIFU_DRAW, -1);
	kifu_pos_free(p);
}

static void test_survival_endings(void **state)
{
	struct kifu_pos *p;

	(void)state;
	/* blue has no square left: white wins */
	p = reach("survival", "blue", "h6-i5,f5-e6,g5-f4,e4-d5,e5-f4,d7-d6,e3-f3,h5-i4");
	assert_int_equal(th_figure(p, "pieces_blue"), 9);
	assert_int_equal(th_figure(p, "pieces_white"), 11);
	expect_outcome(p, KIFU_WIN, 1);
	kifu_pos_free(p);

	/* both fail at once (blue: squares; white: squares and crosses): 8 pieces to 5 */
	p = reach("survival", "blue",
		  "g5-g6,d5-d6,e3-f4,e4-f3,h4-g5,g4-f4,e4-d4,h7-g7,g6-h6,d6-e5,d4-c5,e7-d7,f4-f3");
	expect_outcome(p, KIFU_ONGOING, -1);
	th_play_move(p, "d7-c6");
	assert_int_equal(th_figure(p, "pieces_blue"), 8);
	assert_int_equal(th_figure(p, "pieces_white"), 5);
	expect_outcome(p, KIFU_WIN, 0);
	kifu_pos_free(p);

	/* both fail at once with 8 pieces each: a draw */
	p = reach("survival", "blue",
		  "c5-d5,g4-f3,f5-f6,e2-e3,g3-h3,e7-d6,h3-g2,d7-c7,c3-b3,i3-i2,d5-c5,e6-f6,"
		  "g2-h1,g5-h5,h4-g3,f6-f7");
	assert_int_equal(th_figure(p, "pieces_blue"), 8);
	assert_int_equal(th_figure(p, "pieces_white"), 8);
	expect_outcome(p, KIFU_DRAW, -1);
	kifu_pos_free(p);
}

/*
 * The empty board cannot be reached by play (the mover stays on the board
 * and the largest group always stays); the all-zero state is the empty
 * knockout board, blue to move.
 */
static void test_empty_board(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "");

	(void)state;
	memset(p->state, 0, p->game->state_size);
	assert_true(p->game->hash(p->state) == p->game->rehash(p->state));
	assert_int_equal(th_figure(p, "pieces_blue"), 0);
	assert_int_equal(th_figure(p, "pieces_white"), 0);
	expect_outcome(p, KIFU_DRAW, -1);
	kifu_pos_free(p);
}

static void test_move_text(void **state)
{
	struct kifu_pos *p = reach("knockout", "blue", "");
	kifu_move m;

	(void)state;
	m = th_parse_move(p, "  C3-C2\t");
	expect_text(p, m, "c3-c2");
	assert_true(th_parse_move(p, "c3-c2") == m);
	assert_int_equal(listed(p, m), 1);
	th_parse_refused(p, "", KIFU_EPARSE,
			 "unparsable move '': expected a move such as 'c4-d5' or 'pass'");
	th_parse_refused(p, "c3", KIFU_EPARSE, "unparsable move 'c3': expected '-' after 'c3'");
	th_parse_refused(p, "c3 c2", KIFU_EPARSE,
			 "unparsable move 'c3 c2': expected a move such as 'c4-d5' or 'pass'");
	th_parse_refused(p, "Z9-a1", KIFU_EPARSE, "unparsable move 'Z9-a1': unknown cell 'Z9'");
	th_parse_refused(p, "c3-c10", KIFU_EPARSE, "unparsable move 'c3-c10': unknown cell 'c10'");
	th_parse_refused(p, "c3-c2x", KIFU_EPARSE, "unparsable move 'c3-c2x': unexpected 'x'");
	th_parse_refused(p, "c3-c1", KIFU_EILLEGAL,
			 "illegal move 'c3-c1': 'c1' is not next to 'c3': a piece slides one square");
	th_parse_refused(p, "c3-c3", KIFU_EILLEGAL,
			 "illegal move 'c3-c3': 'c3' is not next to 'c3': a piece slides one square");
	th_parse_refused(p, "a1-a2", KIFU_EILLEGAL,
			 "illegal move 'a1-a2': no piece of yours on 'a1'");
	th_parse_refused(p, "d3-d2", KIFU_EILLEGAL,
			 "illegal move 'd3-d2': no piece of yours on 'd3'");
	th_parse_refused(p, "PASS", KIFU_EILLEGAL,
			 "illegal move 'PASS': pass is not allowed: you have a legal move");
	kifu_pos_free(p);
}

static const struct {
	const char *variant, *first, *moves;
	uint64_t perft1, perft2;
} positions[] = {
	{ "knockout", "blue",
	  "g5-h6,h7-i7,c3-c2,d5-e5,c2-d1,c4-d5,f5-f6,h5-g5",
	  108, 12789 },
	{ "knockout", "blue",
	  "d6-c7,h3-i3,g3-f3,f5-g6,c5-b6,c4-c3,f4-f5,e4-f5,g7-g6,f5-e6,c7-b8,e6-d6,d3-d2,d7-e7,"
	  "g5-g4,g7-g6,f3-e4,g2-f2,g3-h2,h5-i5,f7-e6,c6-d5,h6-h5,c2-d2,h2-g1,h7-i8",
	  93, 8058 },
	{ "knockout", "blue",
	  "c5-d5,c4-d4,d6-e7,e6-e7,g4-h4,g6-g5,d5-d4,g4-h5,d4-c3,f3-f4,f7-e8,d7-c6,f6-g6,e7-d6,"
	  "e4-d3,i4-j3,e3-f4,d6-c6,e8-e9,h6-i6,d9-e8,j3-j4,e9-f9,h5-g5,f4-f3,i5-j6,g7-g8",
	  74, 4810 },
	{ "knockout", "blue",
	  "f6-g6,h5-i4,g6-g5,f3-e3,b3-c2,e4-f3,g5-f4,g3-h2,e3-f2,i4-j5,g7-f7,f3-f4,d7-d6,h2-g3,"
	  "b7-b8,f6-e6,b8-c8,c4-c3,f5-f6,c7-d7,f7-g6,h3-g4,d3-c3,e6-f5,g2-f1,e7-d6,g6-h7,f4-f5,"
	  "b4-c5,f5-g6,f7-g8,g6-f5,c3-b3,e7-e8,e5-e4,d6-c5,c8-b7,b6-c7,d5-c6,d7-c8,b4-c5,d6-e7,"
	  "c6-d7",
	  49, 984 },
	{ "knockout", "blue",
	  "f6-f7,g4-h3,g5-f6,f5-g5,g7-g6,h5-h6,e7-f6,c6-c7,f7-e6,h4-h5,e5-f5,d5-e6,e3-f4,g4-h5,"
	  "g5-h6,h8-h7,g3-f3,e4-d4,d6-d5,h7-i8,i7-j6,b4-b5,c5-d4,h4-i5,f4-g5,d7-c8,f3-e4,b3-a2,"
	  "c3-d2,d3-d4,h5-g4,i5-j6,g5-h4,b5-c4,d6-c6,e3-d3,g6-f7,c4-b4,f7-e6,b4-b5,c3-b2,d5-d4,"
	  "g4-h4,d4-c3,c6-c5,b5-a6",
	  53, 836 },
	{ "survival", "blue",
	  "h6-i5,g4-g3,i5-h6,d5-c5,e7-f8,c5-b6,d4-e3,h5-i4,f6-e5,e6-e5,b5-c6,c4-d5",
	  120, 14296 },
	{ "survival", "blue",
	  "f4-g5,d7-d8,c5-b6,c4-d4,c3-b2,d5-c4,e5-d6,h5-i5,h6-g7,h3-h4,h5-g6,f7-e8,b6-c7,d9-c9,"
	  "g3-f4,c4-d3,g6-f7,f3-g4,e7-e6,d4-e4,d6-d7",
	  111, 12298 },
	{ "survival", "blue",
	  "h6-i7,h7-g8,h4-h5,f3-g2,d4-d3,d5-c5,b5-a4,h3-i2,h5-i4,g8-f8,c7-c6,e4-f4,c2-b2,e6-e5,"
	  "d6-e5,f5-g4,h3-i2,d2-c3,e5-e4,c5-d4,c6-d5,d7-c7,g5-g6,c3-b2,e2-e3,b4-c3,e3-d3",
	  63, 3192 },
	{ "survival", "blue",
	  "f4-e5,d3-e3,g7-h8,h5-g5,d4-e4,e5-e4,h3-i4,c4-c5,h6-h7,d7-e8,h7-h6,c7-b6,d6-d5,f4-e5,"
	  "d5-c4,g4-h4,b5-c6,c5-b5,c4-b3,e8-d7,d4-c5,e4-d4,h6-h5,e6-f7,e3-d4,g8-h8,j4-i5,g5-g4,"
	  "b5-a4,h4-i5,b6-c6,g4-h4,j6-i5,e5-e4,f3-f4,e2-d3,i4-h5,h4-h3,c6-d6,c5-c6,f5-g5,d7-c6,"
	  "g6-g7,h3-h2,h5-i4,i3-j4,d6-e7",
	  64, 3624 },
	{ "survival", "blue",
	  "c5-d6,h3-i3,f8-e9,e4-f4,e5-f4,g3-f3,i4-j3,e3-f3,h2-i2,f3-f4,g4-g5,h5-g4,h6-g5,i3-h4,"
	  "f6-f5,h7-g8,d3-c4,d5-c4,g6-g5,e7-e8,g5-g6,f8-e7,d4-e4,g3-h2,f3-e4,b5-b6,f7-g8,c6-c5,"
	  "f4-g4,d7-c8,b3-c2,e6-e5,c2-b2,c5-d5,g6-g5,h4-i3,g5-g4,e7-d8,c7-d6,f5-f4,d6-e7,c4-d4,"
	  "g2-h3,c3-b4,g3-h2,d4-e4,h2-g1,d5-c5,h4-i4",
	  24, 635 },
};

static void test_positions(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct kifu_pos *p = reach(positions[i].variant, positions[i].first,
					   positions[i].moves);

		assert_int_equal(th_perft(p, 1), positions[i].perft1);
		assert_int_equal(th_perft(p, 2), positions[i].perft2);
		kifu_pos_free(p);
	}
}

/*
 * Random games: every listed move is unique, formats and parses back to
 * itself, and the hash stays equal to the one computed from scratch.
 */
static void test_random_games(void **state)
{
	const struct kifu_game *g = game();
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	uint64_t seed = 12345;
	int n_games;

	(void)state;
	assert_non_null(moves);
	for (n_games = 0; n_games < 40; n_games++) {
		struct kifu_pos *p = reach(n_games % 2 ? "survival" : "knockout",
					   n_games % 4 < 2 ? "blue" : "white", "");
		int ply;

		for (ply = 0; ply < 300; ply++) {
			size_t n = g->legal_moves(p->state, moves), i, j;

			assert_true(g->hash(p->state) == g->rehash(p->state));
			assert_int_equal(g->count_moves(p->state), n);
			if (!n)
				break;
			for (i = 0; i < n; i++) {
				char text[KIFU_MOVE_TEXT_MAX];

				for (j = 0; j < i; j++)
					assert_true(moves[j] != moves[i]);
				g->format_move(p->state, moves[i], text);
				assert_true(th_parse_move(p, text) == moves[i]);
			}
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			g->apply(p->state, moves[(seed >> 33) % n]);
		}
		kifu_pos_free(p);
	}
	free(moves);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_start_perft),
		cmocka_unit_test(test_push_off_edge),
		cmocka_unit_test(test_no_return),
		cmocka_unit_test(test_splinter),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_knockout_endings),
		cmocka_unit_test(test_survival_endings),
		cmocka_unit_test(test_empty_board),
		cmocka_unit_test(test_move_text),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_random_games),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
