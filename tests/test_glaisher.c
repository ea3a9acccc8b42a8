/*
 * Unit tests of the glaisher rules engine: positions reached by playing
 * move lists from the start, checked against the spec's rules and rulings
 * (separations and their landing cells, the taller-stack block, flips and
 * merges, connection before and after the placement, the loss of a side
 * that cannot separate, the set-up turns of advanced, the choice of first
 * side), the notation and its error messages, and perft figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "games/board.h"
#include "helpers.h"

enum { STANDARD = 0, ADVANCED = 1 };
enum { RED = 0, YELLOW = 1 };

static const struct kifu_game *game(void)
{
	return th_game("glaisher");
}

static struct kifu_pos *start(int variant, int first, const char *moves)
{
	return th_play_list("glaisher", variant, first, moves);
}

static void play(struct kifu_pos *p, const char *moves)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_pos_play_list(p, moves, &err) != 0)
		fail_msg("playing '%s': %s", moves, err.message);
	assert_true(game()->hash(p->state) == game()->rehash(p->state));
}

/* Parses text, which must be legal, and returns the move formatted canonically. */
static kifu_move parse_ok(struct kifu_pos *p, const char *text, char *canon)
{
	kifu_move m = th_parse_move(p, text);

	if (canon)
		game()->format_move(p->state, m, canon);
	return m;
}

/*
 * The content of a cell as the diagram shows it ("r6", "y1", "."): the
 * render has one line per row, the row letter, the cells, then a label.
 */
static void cell_at(struct kifu_pos *p, const char *name, char *tok)
{
	const struct kifu_hex *h = kifu_hex_board_(4);
	struct kifu_buf b = KIFU_BUF_INIT;
	int c = kifu_hex_cell_parse_(h, name, strlen(name)), row, i;
	const char *line;

	assert_true(c >= 0);
	row = h->row[c];
	assert_int_equal(game()->render_text(&b, p->state), 0);
	line = b.data;
	for (i = 0; i < row; i++) {
		line = strchr(line, '\n');
		assert_non_null(line);
		line++;
	}
	assert_int_equal(line[0], 'a' + row);
	line++;
	for (i = 0; i < h->num[c]; i++) {
		int n = 0;

		assert_int_equal(sscanf(line, " %15s%n", tok, &n), 1);
		line += n;
	}
	kifu_buf_release(&b);
}

static void assert_cell(struct kifu_pos *p, const char *name, const char *want)
{
	char tok[16];

	cell_at(p, name, tok);
	if (strcmp(tok, want))
		fail_msg("cell %s holds '%s', expected '%s'", name, tok, want);
}

static void assert_figures(struct kifu_pos *p, long sr, long sy, long pr, long py)
{
	assert_int_equal(th_figure(p, "stacks_red"), sr);
	assert_int_equal(th_figure(p, "stacks_yellow"), sy);
	assert_int_equal(th_figure(p, "pieces_red"), pr);
	assert_int_equal(th_figure(p, "pieces_yellow"), py);
}

static void assert_outcome(struct kifu_pos *p, int status, int winner)
{
	struct kifu_outcome oc;

	game()->outcome(p->state, &oc);
	assert_int_equal(oc.status, status);
	assert_int_equal(oc.winner, winner);
}

static size_t count_listed(struct kifu_pos *p)
{
	kifu_move *moves = malloc(sizeof(*moves) * game()->max_moves);
	size_t n;

	assert_non_null(moves);
	n = game()->legal_moves(p->state, moves);
	assert_int_equal(game()->count_moves(p->state), n);
	free(moves);
	return n;
}

/* ---- the start ---- */

static void test_start(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED, "");
	struct kifu_buf b = KIFU_BUF_INIT;

	(void)unused;
	assert_string_equal(game()->variants[0], "standard");
	assert_string_equal(game()->variants[1], "advanced");
	assert_null(game()->variants[2]);
	assert_true(game()->flags & KIFU_GAME_CHOOSE_FIRST);
	assert_int_equal(game()->side_to_move(p->state), RED);
	assert_cell(p, "a2", "r6");
	assert_cell(p, "f8", "r6");
	assert_cell(p, "h1", "r6");
	assert_cell(p, "b6", "y6");
	assert_cell(p, "d1", "y6");
	assert_cell(p, "i4", "y6");
	assert_cell(p, "e5", ".");
	assert_figures(p, 3, 3, 18, 18);
	assert_outcome(p, KIFU_ONGOING, -1);
	assert_int_equal(count_listed(p), 1125);
	assert_int_equal(game()->render_text(&b, p->state), 0);
	assert_non_null(strstr(b.data, "to move: red"));
	assert_non_null(strstr(b.data, "stacks_red 3; stacks_yellow 3; pieces_red 18; pieces_yellow 18"));
	kifu_buf_release(&b);
	kifu_pos_free(p);
}

/* ---- separating a 6-stack: 3+2+1, 4+2, 5+1 ---- */

static void test_separations_of_six(void **unused)
{
	struct kifu_pos *p;
	char canon[KIFU_MOVE_TEXT_MAX];

	(void)unused;
	/* a2 going se passes b3, c4, d5, e6, f6: a part of k lands k cells away */
	p = start(STANDARD, RED, "a2>se 3+2+1 e5");
	assert_cell(p, "a2", ".");
	assert_cell(p, "b3", "r1");
	assert_cell(p, "c4", "r2");
	assert_cell(p, "d5", "r3");
	assert_cell(p, "e5", "r1");
	assert_cell(p, "e6", ".");
	assert_figures(p, 6, 3, 19, 18);
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	kifu_pos_free(p);

	p = start(STANDARD, RED, "a2>se 4+2 e5");
	assert_cell(p, "a2", ".");
	assert_cell(p, "b3", ".");
	assert_cell(p, "c4", "r2");
	assert_cell(p, "d5", ".");
	assert_cell(p, "e6", "r4");
	assert_cell(p, "e5", "r1");
	assert_figures(p, 5, 3, 19, 18);
	kifu_pos_free(p);

	p = start(STANDARD, RED, "a2>se 5+1 e5");
	assert_cell(p, "b3", "r1");
	assert_cell(p, "c4", ".");
	assert_cell(p, "f6", "r5");
	assert_cell(p, "e5", "r1");
	assert_figures(p, 5, 3, 19, 18);
	kifu_pos_free(p);

	/* any order of the parts and any spacing or case give the canonical move */
	p = start(STANDARD, RED, "");
	parse_ok(p, "a2>se 3+2+1 e5", canon);
	assert_string_equal(canon, "a2>se 3+2+1 e5");
	assert_true(parse_ok(p, "a2>se 1+2+3 e5", canon) == parse_ok(p, "a2>se 3+2+1 e5", NULL));
	assert_string_equal(canon, "a2>se 3+2+1 e5");
	parse_ok(p, " \t A2>SE   2+1+3  E5 \r\n", canon);
	assert_string_equal(canon, "a2>se 3+2+1 e5");
	parse_ok(p, "a2>se 2+4 e5", canon);
	assert_string_equal(canon, "a2>se 4+2 e5");
	/* the emptied origin takes the placement */
	parse_ok(p, "a2>se 5+1 a2", canon);
	assert_string_equal(canon, "a2>se 5+1 a2");
	kifu_pos_free(p);
}

/* ---- notation and its errors ---- */

static void test_notation_errors(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED, "");

	(void)unused;
	th_parse_refused(p, "c4 - d5", KIFU_EPARSE,
			 "unparsable move 'c4 - d5': expected ORIGIN>DIR, got 'c4'");
	th_parse_refused(p, "", KIFU_EPARSE, "unparsable move '': empty move");
	/* spaces only where the notation has one: a tab, CR or newline inside a move is no separator */
	th_parse_refused(p, "a2>se 3+2+1\te5", KIFU_EPARSE,
			 "unparsable move 'a2>se 3+2+1\te5': only spaces may separate its parts");
	th_parse_refused(p, "a2>se \t3+2+1 e5", KIFU_EPARSE,
			 "unparsable move 'a2>se \t3+2+1 e5': only spaces may separate its parts");
	th_parse_refused(p, "a2>se 3+2+1\re5", KIFU_EPARSE,
			 "unparsable move 'a2>se 3+2+1\re5': only spaces may separate its parts");
	th_parse_refused(p, "a2>se\n3+2+1 e5", KIFU_EPARSE,
			 "unparsable move 'a2>se\n3+2+1 e5': only spaces may separate its parts");
	th_parse_refused(p, "a2>se", KIFU_EPARSE, "unparsable move 'a2>se': the parts are missing");
	th_parse_refused(p, "a2>se 3+2+1 e5 e6", KIFU_EPARSE,
			 "unparsable move 'a2>se 3+2+1 e5 e6': expected ORIGIN>DIR PARTS [CELL]");
	th_parse_refused(p, "z9>se 3+2+1 e5", KIFU_EPARSE,
			 "unparsable move 'z9>se 3+2+1 e5': unknown cell 'z9'");
	th_parse_refused(p, "a2>se 3+2+1 a6", KIFU_EPARSE,
			 "unparsable move 'a2>se 3+2+1 a6': unknown cell 'a6'");
	th_parse_refused(p, "a2>n 3+2+1 e5", KIFU_EPARSE,
			 "unparsable move 'a2>n 3+2+1 e5': unknown direction 'n'");
	/* leading zeros and empty parts are unparsable */
	th_parse_refused(p, "a2>se 03+2+1 e5", KIFU_EPARSE,
			 "unparsable move 'a2>se 03+2+1 e5': leading zero in part '03'");
	th_parse_refused(p, "a2>se 6+0 e5", KIFU_EPARSE,
			 "unparsable move 'a2>se 6+0 e5': a part of 0 is not a sub-stack");
	th_parse_refused(p, "a2>se 3++3 e5", KIFU_EPARSE,
			 "unparsable move 'a2>se 3++3 e5': empty part in '3++3'");
	th_parse_refused(p, "a2>se 3+x e5", KIFU_EPARSE,
			 "unparsable move 'a2>se 3+x e5': part 'x' is not a number");
	/* a single part and repeated parts are illegal */
	th_parse_refused(p, "a2>se 6 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 6 e5': a separation needs two or more parts");
	th_parse_refused(p, "a2>se 3+3 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 3+3 e5': parts must differ, 3 is written twice");
	th_parse_refused(p, "a2>se 4+1 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 4+1 e5': the parts add up to 5, the stack on 'a2' is 6 high");
	th_parse_refused(p, "b6>w 3+2+1 e5", KIFU_EILLEGAL,
			 "illegal move 'b6>w 3+2+1 e5': no stack of yours on 'b6'");
	th_parse_refused(p, "e5>w 3+2+1 e6", KIFU_EILLEGAL,
			 "illegal move 'e5>w 3+2+1 e6': no stack of yours on 'e5'");
	/* a2 has 3 cells east of it, 0 north-west */
	th_parse_refused(p, "a2>e 4+2 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>e 4+2 e5': the part of 4 would leave the board");
	th_parse_refused(p, "a2>nw 4+2 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>nw 4+2 e5': the part of 4 would leave the board");
	/* no straight path has more than 8 steps: a part of 9 or more never fits */
	th_parse_refused(p, "a2>se 12+9 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 12+9 e5': the part of 12 would leave the board");
	th_parse_refused(p, "a2>se 1+123456789012345678901234567890 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 1+123456789012345678901234567890 e5': the part of 123456789012345678901234567890 would leave the board");
	th_parse_refused(p, "a2>se 10+2+10 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 10+2+10 e5': parts must differ, 10 is written twice");
	th_parse_refused(p, "a2>se 3+2+1", KIFU_EILLEGAL,
			 "illegal move 'a2>se 3+2+1': the move must place a piece on an empty cell");
	th_parse_refused(p, "a2>se 3+2+1 b6", KIFU_EILLEGAL,
			 "illegal move 'a2>se 3+2+1 b6': 'b6' is not empty");
	th_parse_refused(p, "a2>se 3+2+1 c4", KIFU_EILLEGAL,
			 "illegal move 'a2>se 3+2+1 c4': a part lands on 'c4'");
	/* bare cells belong to the set-up turns of advanced only */
	th_parse_refused(p, "e5", KIFU_EILLEGAL,
			 "illegal move 'e5': a bare cell is a move only in the set-up turns of advanced");
	th_parse_refused(p, "pass", KIFU_EPARSE,
			 "unparsable move 'pass': expected ORIGIN>DIR PARTS [CELL] or a cell, got 'pass'");
	kifu_pos_free(p);
}

/* ---- the taller-stack block ---- */

static void test_taller_stack_blocks(void **unused)
{
	/* red's 4-stack lands on h5, which is one cell north-east of yellow's i4 */
	struct kifu_pos *p = start(STANDARD, RED, "h1>e 4+2 e7");
	char canon[KIFU_MOVE_TEXT_MAX];

	(void)unused;
	assert_cell(p, "h5", "r4");
	th_parse_refused(p, "i4>ne 3+2+1 a1", KIFU_EILLEGAL,
			 "illegal move 'i4>ne 3+2+1 a1': the red stack of 4 on 'h5' is taller than the part of 1 landing there");
	th_parse_refused(p, "i4>ne 5+1 a1", KIFU_EILLEGAL,
			 "illegal move 'i4>ne 5+1 a1': the red stack of 4 on 'h5' is taller than the part of 1 landing there");
	/* the parts of 2 and 4 fly over h5 */
	parse_ok(p, "i4>ne 4+2 a1", canon);
	assert_string_equal(canon, "i4>ne 4+2 a1");
	play(p, "i4>ne 4+2 a1");
	assert_cell(p, "h5", "r4");
	assert_cell(p, "g6", "y2");
	assert_cell(p, "e8", "y4");
	kifu_pos_free(p);
}

/* ---- flips and merges ---- */

static void test_flips_and_merges(void **unused)
{
	struct kifu_pos *p;

	(void)unused;
	/* a yellow part of 4 on red's 3-stack at f5 */
	p = start(STANDARD, RED, "f8>w 3+2+1 h4");
	assert_cell(p, "f5", "r3");
	assert_figures(p, 6, 3, 19, 18);
	play(p, "b6>sw 4+2 a1");
	assert_cell(p, "b6", ".");
	assert_cell(p, "d6", "y2");
	assert_cell(p, "f5", "y7"); /* flipped and landed on: 3 + 4, yellow */
	assert_figures(p, 5, 5, 16, 22);
	kifu_pos_free(p);

	/* equal heights flip too: red's part of 3 on yellow's 3-stack at e6 */
	p = start(STANDARD, RED, "h1>e 5+1 f2,b6>sw 3+2+1 c4");
	assert_cell(p, "e6", "y3");
	assert_cell(p, "h6", "r5");
	play(p, "h6>nw 3+2 a1");
	assert_cell(p, "h6", ".");
	assert_cell(p, "f6", "r2");
	assert_cell(p, "e6", "r6");
	assert_cell(p, "a1", "r1");
	assert_figures(p, 7, 5, 23, 16);
	kifu_pos_free(p);

	/* parts landing on the mover's own stacks merge */
	p = start(STANDARD, RED, "h1>e 3+2+1 c1,b6>sw 4+2 b1");
	assert_cell(p, "h2", "r1");
	assert_cell(p, "h3", "r2");
	assert_cell(p, "h4", "r3");
	play(p, "h4>w 2+1 a1");
	assert_cell(p, "h4", ".");
	assert_cell(p, "h3", "r3");
	assert_cell(p, "h2", "r3");
	assert_figures(p, 6, 5, 20, 19);
	kifu_pos_free(p);
}

/* ---- connection ---- */

#define CONNECT_BY_SEPARATION \
	"a2>sw 5+1 e7,i4>ne 3+2+1 b1,h1>nw 3+2+1 e8,b6>sw 4+2 b5,f8>w 4+2 e9,d1>e 5+1 h1"

static void test_connection_by_separation(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED, CONNECT_BY_SEPARATION);
	char canon[KIFU_MOVE_TEXT_MAX];

	(void)unused;
	assert_outcome(p, KIFU_ONGOING, -1);
	/* f1's 7 goes to f2, f3 and (4 on yellow's 4) f5: g1-f2-...-f6-e7-e8-e9 joins the sides */
	th_parse_refused(p, "f1>e 4+2+1 c1", KIFU_EILLEGAL,
			 "illegal move 'f1>e 4+2+1 c1': the separation connects, so the game ends before the placement");
	parse_ok(p, "f1>e 1+2+4", canon);
	assert_string_equal(canon, "f1>e 4+2+1");
	play(p, "f1>e 4+2+1");
	assert_cell(p, "f1", ".");
	assert_cell(p, "f2", "r1");
	assert_cell(p, "f3", "r2");
	assert_cell(p, "f5", "r8");
	assert_outcome(p, KIFU_WIN, RED);
	assert_int_equal(count_listed(p), 0);
	assert_figures(p, 11, 8, 25, 17); /* no piece was placed */
	th_parse_refused(p, "d6>w 4+2+1 a1", KIFU_EILLEGAL,
			 "illegal move 'd6>w 4+2+1 a1': the game is over");
	kifu_pos_free(p);
}

static void test_connection_by_placement(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED,
				   "h1>ne 3+2+1 f4,d1>se 5+1 a5,f8>w 3+2+1 e1,i2>e 3+2 e8");

	(void)unused;
	/* e4's 2 flips yellow's 1 on e2 and its 1 fills e3: e1-e2-e3-f3..f7, one short of f8 */
	th_parse_refused(p, "e4>w 2+1", KIFU_EILLEGAL,
			 "illegal move 'e4>w 2+1': the move must place a piece on an empty cell");
	play(p, "e4>w 2+1 c4");
	assert_outcome(p, KIFU_ONGOING, -1);
	kifu_pos_free(p);

	p = start(STANDARD, RED, "h1>ne 3+2+1 f4,d1>se 5+1 a5,f8>w 3+2+1 e1,i2>e 3+2 e8");
	play(p, "e4>w 2+1 f8");
	assert_cell(p, "e2", "r3");
	assert_cell(p, "e3", "r1");
	assert_cell(p, "f8", "r1");
	assert_outcome(p, KIFU_WIN, RED);
	assert_int_equal(count_listed(p), 0);
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	kifu_pos_free(p);
}

/* ---- a side that cannot separate loses ---- */

static void test_no_separation_loses(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED,
				   "f8>sw 3+2+1 e3,d1>e 4+2 e1,h1>ne 3+2+1 a1,b6>sw 4+2 h2,"
				   "a2>e 3+2+1 i2,d5>ne 3+1 g6,e4>se 2+1 e8");
	struct kifu_buf b = KIFU_BUF_INIT;

	(void)unused;
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	assert_cell(p, "i5", "r3"); /* red's last stack above 2 */
	play(p, "f5>se 3+1 a2");
	assert_cell(p, "i5", "y6");
	/* red to move has stacks of 1 and 2 only: no separation, red loses */
	assert_int_equal(game()->side_to_move(p->state), RED);
	assert_outcome(p, KIFU_WIN, YELLOW);
	assert_int_equal(count_listed(p), 0);
	assert_int_equal(th_perft(p, 1), 0);
	th_parse_refused(p, "f3>e 2+1 a3", KIFU_EILLEGAL,
			 "illegal move 'f3>e 2+1 a3': the game is over");
	assert_int_equal(game()->render_text(&b, p->state), 0);
	assert_non_null(strstr(b.data, "game over: yellow wins (no separation left)"));
	kifu_buf_release(&b);
	kifu_pos_free(p);
}

/* ---- advanced: the set-up turns ---- */

static void test_advanced_setup(void **unused)
{
	struct kifu_pos *p = start(ADVANCED, RED, "");
	struct kifu_pos *q;
	char canon[KIFU_MOVE_TEXT_MAX];

	(void)unused;
	assert_figures(p, 0, 0, 0, 0);
	assert_int_equal(count_listed(p), 61);
	parse_ok(p, " E5 ", canon);
	assert_string_equal(canon, "e5");
	play(p, "e5,a1");
	assert_cell(p, "e5", "r6");
	assert_cell(p, "a1", "y6");
	assert_int_equal(count_listed(p), 59);
	assert_int_equal(game()->side_to_move(p->state), RED);
	th_parse_refused(p, "e5>e 3+2+1 a2", KIFU_EILLEGAL,
			 "illegal move 'e5>e 3+2+1 a2': the set-up turns are not over: place a 6-stack on an empty cell");
	th_parse_refused(p, "a1", KIFU_EILLEGAL, "illegal move 'a1': 'a1' is not empty");
	play(p, "i5,e1,e9");
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	assert_outcome(p, KIFU_ONGOING, -1);
	play(p, "a5");
	assert_cell(p, "i5", "r6");
	assert_cell(p, "e1", "y6");
	assert_cell(p, "e9", "r6");
	assert_cell(p, "a5", "y6");
	assert_figures(p, 3, 3, 18, 18);
	/* the first side moves first again, and bare cells are over */
	assert_int_equal(game()->side_to_move(p->state), RED);
	th_parse_refused(p, "c3", KIFU_EILLEGAL,
			 "illegal move 'c3': a bare cell is a move only in the set-up turns of advanced");
	parse_ok(p, "e5>e 3+2+1 a2", canon);
	assert_string_equal(canon, "e5>e 3+2+1 a2");

	kifu_pos_free(p);

	/* set up as the standard game is, it is the standard start */
	p = start(ADVANCED, RED, "a2,b6,f8,d1,h1");
	q = start(STANDARD, RED, "");
	assert_true(game()->hash(p->state) != game()->hash(q->state));
	play(p, "i4");
	assert_true(game()->hash(p->state) == game()->hash(q->state));
	assert_memory_equal(p->state, q->state, game()->state_size);
	assert_int_equal(th_perft(p, 2), 1169169);
	kifu_pos_free(q);
	kifu_pos_free(p);
}

/* ---- first: yellow ---- */

static void test_first_yellow(void **unused)
{
	struct kifu_pos *p = start(STANDARD, YELLOW, "");
	struct kifu_pos *r = start(STANDARD, RED, "");
	char canon[KIFU_MOVE_TEXT_MAX];

	(void)unused;
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	assert_true(game()->hash(p->state) != game()->hash(r->state));
	th_parse_refused(p, "a2>se 3+2+1 e5", KIFU_EILLEGAL,
			 "illegal move 'a2>se 3+2+1 e5': no stack of yours on 'a2'");
	parse_ok(p, "b6>sw 3+2+1 e5", canon);
	assert_string_equal(canon, "b6>sw 3+2+1 e5");
	/* a 60-degree turn of the board maps red's start stacks onto yellow's */
	assert_int_equal(th_perft(p, 1), 1125);
	assert_int_equal(th_perft(p, 2), 1169169);
	play(p, "b6>sw 3+2+1 e5");
	assert_cell(p, "c6", "y1");
	assert_cell(p, "d6", "y2");
	assert_cell(p, "e6", "y3");
	assert_cell(p, "e5", "y1");
	assert_int_equal(game()->side_to_move(p->state), RED);
	kifu_pos_free(p);
	kifu_pos_free(r);

	/* advanced with yellow first: yellow places first, and separates first */
	p = start(ADVANCED, YELLOW, "e5,a1,i5,e1,e9,a5");
	assert_cell(p, "e5", "y6");
	assert_cell(p, "a1", "r6");
	assert_int_equal(game()->side_to_move(p->state), YELLOW);
	parse_ok(p, "e5>e 3+2+1 a2", NULL);
	kifu_pos_free(p);
}

/* ---- perft ---- */

static void test_perft_start(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED, "");

	(void)unused;
	assert_int_equal(th_perft(p, 1), 1125);
	assert_int_equal(th_perft(p, 2), 1169169);
	kifu_pos_free(p);
	p = start(ADVANCED, RED, "");
	assert_int_equal(th_perft(p, 1), 61);
	assert_int_equal(th_perft(p, 2), 3660);
	assert_int_equal(th_perft(p, 3), 215940);
	kifu_pos_free(p);
}

struct perft_case {
	int variant;
	const char *moves;
	uint64_t d1, d2;
};

/* Every glaisher entry of spec/perft/positions.yaml (all with red first), at depths 1 and 2. */
static const struct perft_case perft_cases[] = {
	{ STANDARD,
	  "a2>se 5+1 c2,b6>w 3+2+1 d2,f8>w 4+2 b6,i4>ne 4+2 a2,f6>nw 4+3 f7,d1>e 5+1 f5",
	  1129, 427889 },
	{ STANDARD,
	  "h1>e 4+2 i5,i4>nw 3+2+1 g2,f8>w 3+2+1 d7,d1>se 5+1 a5,a2>sw 3+2+1 c3,f4>w 2+1 h6,"
	  "d2>ne 2+1 g1,b6>se 3+2+1 a1,b2>sw 2+1 d5,e9>nw 2+1 f8,f5>se 2+1 e5,c7>se 2+1 h1,"
	  "h5>nw 3+2+1 b2,i2>e 3+2 c1,c2>e 3+1 f1,d8>nw 3+1 h2,e5>e 3+1 c2,a5>sw 3+1 d1",
	  214, 41331 },
	{ STANDARD,
	  "f8>nw 3+2+1 g3,b6>se 3+2+1 d3,h1>ne 3+2+1 i5,e9>sw 2+1 g1,a2>se 5+1 h4,"
	  "d1>e 3+2+1 e9,e4>sw 2+1 b6,d4>se 2+1 i2,f3>ne 2+1 h6,d3>w 2+1 i3,c6>nw 2+1 g5,"
	  "i4>ne 4+2 b1,f6>ne 3+2 e6,e8>sw 4+1 e2,g2>se 2+1 f2,i4>w 3+1 b2,d7>w 3+1 a1,"
	  "i1>ne 2+1 c1,d4>nw 3+2 d3,g3>e 2+1 f1,i2>ne 2+1 f6,g5>e 2+1 h1",
	  298, 37727 },
	{ STANDARD,
	  "f8>w 5+1 a5,b6>sw 4+2 f8,a2>sw 3+2+1 c5,f5>sw 3+1 a2,f3>e 3+2 e5,i4>nw 5+1 d5,"
	  "f6>ne 2+1 c1,d3>sw 3+2 h5,d2>e 2+1 c4,g1>ne 2+1 a3,h1>ne 5+1 e6,f2>ne 2+1 f2,"
	  "c4>se 4+2 c7,d3>se 2+1 g7,g6>w 3+1 c4,i2>ne 2+1 i5,g3>se 2+1 h1",
	  455, 46587 },
	{ STANDARD,
	  "f8>w 5+1 f2,d1>se 3+2+1 d4,f3>ne 3+2 d7,g2>nw 2+1 h3,d4>se 2+1 f1,i4>ne 4+2 c7,"
	  "h1>e 5+1 b2,b6>sw 3+2+1 h4,h6>w 4+1 e7,e2>ne 2+1 i4,a2>se 3+2+1 b1,e6>w 2+1 d8,"
	  "h2>e 4+1 c5,f2>ne 3+1 g7,c4>w 3+2 i1,c3>nw 2+1 f4,c2>sw 3+1 h1,e8>nw 3+1 e1,"
	  "h6>w 3+1 a3,b5>w 2+1 g2,h3>ne 4+1 f6,b3>sw 2+1 b5",
	  503, 0 },
	{ ADVANCED,
	  "g3,e9,g4,a5,b2,e6,g3>ne 3+2+1 e2,a5>sw 4+2 f5,b2>sw 4+2 i5",
	  1202, 711023 },
	{ ADVANCED,
	  "d3,h4,d4,d6,f7,b4,d4>sw 4+2 c5,h4>nw 5+1 b3,d3>sw 3+2+1 d8,d6>nw 3+2+1 a2,"
	  "f7>nw 5+1 g7,b4>sw 4+3+1 e5,g1>e 2+1 d2,f3>e 5+1 i5,h1>nw 3+1 a5,c2>se 3+2 b4,"
	  "a3>se 5+3 c6,f8>nw 3+2 h5,d6>w 2+1 h6,e4>e 4+1 g6,f7>w 4+1 c2,e8>w 3+1 i4,"
	  "f3>ne 3+1 b2,e5>nw 3+2 g5,c4>sw 3+1 d6,b2>se 3+1 e8,f3>ne 2+1 c4,e5>se 2+1 h1,"
	  "d4>e 3+2 i2,c3>se 2+1 a4,d6>e 2+1 i3,f4>ne 3+1 d1",
	  229, 81302 },
	{ ADVANCED,
	  "f2,i2,i5,g3,f5,g4,f2>e 3+2+1 i1,g3>ne 4+2 g5,i5>ne 4+2 e2,g4>nw 4+2 a5,"
	  "f5>nw 4+3+2 f2,i2>e 3+2+1 h3,c3>se 2+1 h1,c5>w 3+1 d8,e9>sw 3+1 g6,c2>se 5+2 i2,"
	  "b2>se 3+1 b4,e4>w 3+1 h2,e5>e 4+2+1 g2,e1>se 2+1 f6,e9>nw 3+1 c7,h4>w 3+2 b3,"
	  "d4>w 2+1 c1,h1>nw 3+1 f7,h6>nw 2+1 c5,h2>e 2+1 e9,f6>e 2+1 c2,i5>ne 2+1 d7,"
	  "f8>nw 2+1 f5,e1>ne 2+1 a3",
	  145, 17139 },
	{ ADVANCED,
	  "d5,h4,c2,e4,g4,f8,g4>ne 4+2 a4,e4>se 4+2 g2,d5>se 3+2+1 f3,f8>w 4+2 h2,"
	  "c2>e 3+2+1 a1,h4>w 3+2+1 e3,g6>ne 2+1 b1,f6>w 3+1 c1,c5>se 2+1 d7,f3>e 3+1 f2,"
	  "c6>w 3+1 b3,f6>se 2+1 e9,e6>w 2+1 f3,h1>nw 2+1 d5,c3>e 3+1 e2,f4>w 3+2 i5,"
	  "c6>sw 2+1 g5",
	  418, 65962 },
	{ ADVANCED,
	  "b5,b1,i3,e7,c3,e8,b5>sw 4+2 g5,e8>sw 4+2 f5,f4>nw 3+1 f2,e7>w 3+2+1 g3,"
	  "c3>se 4+2 e7,e4>w 3+1 d2,e5>se 3+1 f7,b1>e 3+2+1 g4,g5>w 4+1 c4,b4>sw 2+1 d8,"
	  "c2>ne 2+1 c3,e1>ne 2+1 e9,i3>nw 3+2+1 f8,i4>nw 3+1 a5,h5>nw 2+1 d6,f4>nw 2+1 b5",
	  583, 0 },
};

static void test_perft_positions(void **unused)
{
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(perft_cases) / sizeof(perft_cases[0]); i++) {
		struct kifu_pos *p = start(perft_cases[i].variant, RED, perft_cases[i].moves);

		if (th_perft(p, 1) != perft_cases[i].d1 || th_perft(p, 2) != perft_cases[i].d2)
			fail_msg("positions.yaml glaisher entry %zu: perft %llu %llu, expected %llu %llu",
				 i + 1, (unsigned long long)th_perft(p, 1),
				 (unsigned long long)th_perft(p, 2),
				 (unsigned long long)perft_cases[i].d1,
				 (unsigned long long)perft_cases[i].d2);
		kifu_pos_free(p);
	}
}

/* ---- listing, formatting, hashing along a game ---- */

static void test_listed_moves_round_trip(void **unused)
{
	struct kifu_pos *p = start(STANDARD, RED, CONNECT_BY_SEPARATION);
	kifu_move *moves = malloc(sizeof(*moves) * game()->max_moves);
	unsigned char *child = malloc(game()->state_size);
	size_t n, i, connecting = 0;

	(void)unused;
	assert_non_null(moves);
	assert_non_null(child);
	n = game()->legal_moves(p->state, moves);
	assert_int_equal(game()->count_moves(p->state), n);
	for (i = 0; i < n; i++) {
		char text[KIFU_MOVE_TEXT_MAX];
		struct kifu_error err;
		kifu_move m;

		game()->format_move(p->state, moves[i], text);
		assert_int_equal(game()->parse_move(p->state, text, &m, &err), 0);
		assert_true(m == moves[i]);
		memcpy(child, p->state, game()->state_size);
		game()->apply(child, m);
		assert_true(game()->hash(child) == game()->rehash(child));
		/* a move written without a cell is exactly a connecting separation */
		if (!strchr(strchr(text, ' ') + 1, ' ')) {
			struct kifu_outcome oc;

			game()->outcome(child, &oc);
			assert_int_equal(oc.status, KIFU_WIN);
			assert_int_equal(oc.winner, RED);
			connecting++;
		}
	}
	assert_true(connecting >= 1);
	free(child);
	free(moves);
	kifu_pos_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_separations_of_six),
		cmocka_unit_test(test_notation_errors),
		cmocka_unit_test(test_taller_stack_blocks),
		cmocka_unit_test(test_flips_and_merges),
		cmocka_unit_test(test_connection_by_separation),
		cmocka_unit_test(test_connection_by_placement),
		cmocka_unit_test(test_no_separation_loses),
		cmocka_unit_test(test_advanced_setup),
		cmocka_unit_test(test_first_yellow),
		cmocka_unit_test(test_perft_start),
		cmocka_unit_test(test_perft_positions),
		cmocka_unit_test(test_listed_moves_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
