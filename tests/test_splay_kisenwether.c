/*
 * Unit tests of the splay-kisenwether engine: the spec's examples and
 * rulings on positions reached by playing move lists from the start (the
 * state is private), exact error messages, figures and board contents read
 * back from the text diagram, and perft from the start and from the
 * mid-game positions of shared/spec/perft/positions.yaml.
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
#include "helpers.h"

#define WHITE 0
#define BLACK 1

static const struct kifu_game *game(void)
{
	return th_game("splay-kisenwether");
}

/* The position after playing list from the start with `first` to move first. */
static struct kifu_pos *play(int first, const char *list)
{
	return th_play_list("splay-kisenwether", 0, first, list);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The legal moves, formatted, sorted and joined by spaces. */
static void moves_text(const struct kifu_pos *p, char *out, size_t size)
{
	static char names[400][KIFU_MOVE_TEXT_MAX];
	kifu_move moves[400];
	size_t n, i;

	assert_true(game()->max_moves <= 400);
	n = game()->legal_moves(p->state, moves);
	assert_int_equal(n, game()->count_moves(p->state));
	for (i = 0; i < n; i++)
		game()->format_move(p->state, moves[i], names[i]);
	qsort(names, n, sizeof(names[0]), cmp_str);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strncat(out, " ", size - strlen(out) - 1);
		strncat(out, names[i], size - strlen(out) - 1);
	}
}

/* Whether the move written canonically as text is listed. */
static int listed(const struct kifu_pos *p, const char *text)
{
	kifu_move moves[400];
	char buf[KIFU_MOVE_TEXT_MAX];
	size_t n = game()->legal_moves(p->state, moves), i;

	for (i = 0; i < n; i++) {
		game()->format_move(p->state, moves[i], buf);
		if (!strcmp(buf, text))
			return 1;
	}
	return 0;
}

/*
 * The stones on a cell as the diagram shows them, bottom to top ("bbw": two
 * black stones under a white one), "." when empty. The diagram has a row of
 * file letters, then ranks 8 to 1, each "%2d " then 8 columns " %-7s".
 */
static void cell_text(const struct kifu_pos *p, const char *cell, char *out)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	const char *line;
	int file = cell[0] - 'a', rank = cell[1] - '0', i, k;

	assert_int_equal(game()->render_text(&b, p->state), 0);
	line = b.data;
	for (i = 0; i < 1 + 8 - rank; i++) {
		line = strchr(line, '\n');
		assert_non_null(line);
		line++;
	}
	line += 3 + file * 8 + 1;
	for (k = 0; k < 7 && line[k] != ' '; k++)
		out[k] = line[k];
	out[k] = '\0';
	kifu_buf_release(&b);
}

static void assert_cell(const struct kifu_pos *p, const char *cell, const char *stones)
{
	char got[8];

	cell_text(p, cell, got);
	if (strcmp(got, stones))
		fail_msg("cell %s: '%s', expected '%s'", cell, got, stones);
}

static void assert_ongoing(const struct kifu_pos *p)
{
	struct kifu_outcome oc;

	game()->outcome(p->state, &oc);
	assert_int_equal(oc.status, KIFU_ONGOING);
	assert_int_equal(oc.winner, -1);
}

/* ---- the game's description ---- */

static void test_description(void **unused)
{
	const struct kifu_game *g = game();
	struct kifu_pos *p = NULL;
	struct kifu_error err;

	(void)unused;
	assert_string_equal(g->name, "splay-kisenwether");
	assert_string_equal(g->variants[0], "standard");
	assert_null(g->variants[1]);
	assert_string_equal(g->sides[0], "white");
	assert_string_equal(g->sides[1], "black");
	assert_null(g->sides[2]);
	assert_int_equal(g->nsides, 2);
	assert_true(g->flags & KIFU_GAME_CHOOSE_FIRST);
	assert_int_equal(kifu_pos_new(&p, g, 1, 0, &err), KIFU_ENOTFOUND);
	assert_int_equal(kifu_pos_new(&p, g, 0, 2, &err), KIFU_ENOTFOUND);
	assert_null(p);
}

/* ---- the start position ---- */

static void test_start(void **unused)
{
	static const char diagram[] =
		"    a       b       c       d       e       f       g       h\n"
		" 8  .       .       .       .       .       .       .       .       8\n"
		" 7  .       ww      ww      ww      ww      ww      ww      .       7\n"
		" 6  .       w       w       w       w       w       w       .       6\n"
		" 5  .       .       .       .       .       .       .       .       5\n"
		" 4  .       .       .       .       .       .       .       .       4\n"
		" 3  .       b       b       b       b       b       b       .       3\n"
		" 2  .       bb      bb      bb      bb      bb      bb      .       2\n"
		" 1  .       .       .       .       .       .       .       .       1\n"
		"    a       b       c       d       e       f       g       h\n"
		"to move: white; captures_white: 0, captures_black: 0\n";
	struct kifu_pos *p = play(WHITE, "");
	struct kifu_pos *q = play(WHITE, "");
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_figure figs[KIFU_FIGURES_MAX];

	(void)unused;
	assert_int_equal(game()->side_to_move(p->state), WHITE);
	assert_ongoing(p);
	assert_int_equal(game()->render_text(&b, p->state), 0);
	assert_string_equal(b.data, diagram);
	kifu_buf_release(&b);
	assert_int_equal(game()->figures(p->state, figs), 2);
	assert_string_equal(figs[0].key, "captures_white");
	assert_string_equal(figs[1].key, "captures_black");
	assert_int_equal(figs[0].num, 0);
	assert_int_equal(figs[1].num, 0);
	/* equal positions are equal memory */
	assert_memory_equal(p->state, q->state, game()->state_size);
	kifu_pos_free(p);
	kifu_pos_free(q);
}

static void test_perft_start(void **unused)
{
	struct kifu_pos *p = play(WHITE, "");

	(void)unused;
	assert_int_equal(th_perft(p, 1), 122);
	assert_int_equal(th_perft(p, 2), 14884);
	assert_int_equal(th_perft(p, 3), 1742404);
	kifu_pos_free(p);
}

/* RULING: white moves first unless the record says `first: black`. */
static void test_first_black(void **unused)
{
	struct kifu_pos *p = play(BLACK, "");

	(void)unused;
	assert_int_equal(game()->side_to_move(p->state), BLACK);
	assert_int_equal(th_perft(p, 1), 122);
	assert_int_equal(th_perft(p, 2), 14884);
	th_parse_refused(p, "b7-b8", KIFU_EILLEGAL,
			 "illegal move 'b7-b8': no stack of yours on 'b7' (its top stone is white)");
	th_play_move(p, "b2-b1");
	assert_int_equal(game()->side_to_move(p->state), WHITE);
	assert_cell(p, "b1", "bb");
	assert_cell(p, "b2", ".");
	/* a black stone on rank 1 is not captured */
	assert_int_equal(th_figure_int(p, "captures_white"), 0);
	assert_int_equal(th_figure_int(p, "captures_black"), 0);
	kifu_pos_free(p);
}

/* ---- notation ---- */

static void test_notation(void **unused)
{
	struct kifu_pos *p = play(WHITE, "");
	char buf[KIFU_MOVE_TEXT_MAX];
	kifu_move m;

	(void)unused;
	m = th_parse_move(p, "b7-c6");
	assert_true(th_parse_move(p, "  B7-C6\t") == m);
	game()->format_move(p->state, m, buf);
	assert_string_equal(buf, "b7-c6");
	m = th_parse_move(p, "d7>sw");
	assert_true(th_parse_move(p, " D7>SW ") == m);
	assert_true(m != th_parse_move(p, "d7-c6"));
	game()->format_move(p->state, m, buf);
	assert_string_equal(buf, "d7>sw");

	th_parse_refused(p, "", KIFU_EPARSE, "unparsable move '': empty move");
	th_parse_refused(p, " z9-a1 ", KIFU_EPARSE, "unparsable move 'z9-a1': unknown cell 'z9'");
	th_parse_refused(p, "b7-I9", KIFU_EPARSE, "unparsable move 'b7-I9': unknown cell 'I9'");
	th_parse_refused(p, "b7>up", KIFU_EPARSE,
			 "unparsable move 'b7>up': unknown direction 'up'");
	th_parse_refused(p, "b7", KIFU_EPARSE,
			 "unparsable move 'b7': expected CELL-CELL, CELL>DIR or pass");
	th_parse_refused(p, "b7 - c6", KIFU_EPARSE,
			 "unparsable move 'b7 - c6': white space inside the move");
	th_parse_refused(p, "b7-d5", KIFU_EILLEGAL,
			 "illegal move 'b7-d5': 'd5' is not adjacent to 'b7'");
	th_parse_refused(p, "b7-b7", KIFU_EILLEGAL,
			 "illegal move 'b7-b7': 'b7' is not adjacent to 'b7'");
	th_parse_refused(p, "c4-c5", KIFU_EILLEGAL, "illegal move 'c4-c5': no stack on 'c4'");
	th_parse_refused(p, "b2>n", KIFU_EILLEGAL,
			 "illegal move 'b2>n': no stack of yours on 'b2' (its top stone is black)");
	kifu_pos_free(p);
}

/* A step puts the whole stack on top of the stack it reaches. */
static void test_step_stacks(void **unused)
{
	struct kifu_pos *p = play(WHITE, "b6-b5,b3-b4");

	(void)unused;
	th_play_move(p, "b5-b4");
	assert_cell(p, "b4", "bw");
	assert_cell(p, "b5", ".");
	/* the top stone decides: black may now move b4, white may not */
	th_parse_refused(p, "b4-b5", KIFU_EILLEGAL,
			 "illegal move 'b4-b5': no stack of yours on 'b4' (its top stone is white)");
	th_play_move(p, "b2-b3");
	th_play_move(p, "b4-b3");
	assert_cell(p, "b3", "bbbw");
	/* a black stone on top of the stack gives it to black */
	th_play_move(p, "c3-b3");
	assert_cell(p, "b3", "bbbwb");
	th_play_move(p, "c6-c5");
	/* the splay drops the stones top first; the last, black, on b8 is captured */
	th_play_move(p, "b3>n");
	assert_cell(p, "b3", ".");
	assert_cell(p, "b4", "b");
	assert_cell(p, "b5", "w");
	assert_cell(p, "b6", "b");
	assert_cell(p, "b7", "wwb");
	assert_cell(p, "b8", ".");
	assert_int_equal(th_figure_int(p, "captures_white"), 1);
	assert_int_equal(th_figure_int(p, "captures_black"), 0);
	kifu_pos_free(p);
}

/* ---- the spec's examples and rulings ---- */

/*
 * The spec's corrected first example: the 3-stack on b2 would splay onto
 * c3, d4 and e5, and e5 (size limit 4) would hold 5.
 */
static void test_splay_onto_full_stack(void **unused)
{
	struct kifu_pos *p = play(WHITE, "e7-e6,b3-b2,e6-e5,g2-h3,f6-e5");

	(void)unused;
	assert_int_equal(game()->side_to_move(p->state), BLACK);
	assert_cell(p, "b2", "bbb");
	assert_cell(p, "c3", "b");
	assert_cell(p, "d4", ".");
	assert_cell(p, "e5", "wwww");
	th_parse_refused(p, "b2>ne", KIFU_EILLEGAL,
			 "illegal move 'b2>ne': it would leave a stack of 5 on 'e5', whose size limit is 4");
	th_parse_refused(p, "B2>NE", KIFU_EILLEGAL,
			 "illegal move 'B2>NE': it would leave a stack of 5 on 'e5', whose size limit is 4");
	assert_false(listed(p, "b2>ne"));
	assert_true(listed(p, "b2>n"));
	assert_true(listed(p, "b2>e"));
	kifu_pos_free(p);

	/* a step onto a stack is held to the same limit: 2 + 4 > 5 on e6 */
	p = play(WHITE, "e7-e6,b3-b4,f6-e6,b4-b5");
	assert_cell(p, "e6", "wwww");
	th_parse_refused(p, "d7-e6", KIFU_EILLEGAL,
			 "illegal move 'd7-e6': it would leave a stack of 6 on 'e6', whose size limit is 5");
	assert_false(listed(p, "d7-e6"));
	assert_true(listed(p, "f7-f6"));
	kifu_pos_free(p);
}

/* f3>se: the white bottom stone lands on h1 and is captured by black. */
static void test_splay_capture_on_h1(void **unused)
{
	struct kifu_pos *p = play(WHITE, "f6-f5,f3-g4,f5-f4,c2-c1,f4-f3,e3-f3,b6-b5");

	(void)unused;
	assert_cell(p, "f3", "wb");
	assert_cell(p, "g2", "bb");
	assert_cell(p, "h1", ".");
	th_play_move(p, "f3>se");
	assert_cell(p, "f3", ".");
	assert_cell(p, "g2", "bbb");
	assert_cell(p, "h1", ".");
	assert_int_equal(th_figure_int(p, "captures_black"), 1);
	assert_int_equal(th_figure_int(p, "captures_white"), 0);
	assert_int_equal(game()->side_to_move(p->state), WHITE);
	assert_ongoing(p);
	kifu_pos_free(p);
}

/*
 * White's 4-stack on e5 is at its size limit (4) and has legal splays: only
 * they may be played. e5>n and e5>e are too long for the board.
 */
#define FORCED "e7-e6,b3-b2,e6-e5,g2-h3,f6-e5,h3-g2"

static void test_forced_splay(void **unused)
{
	struct kifu_pos *p = play(WHITE, FORCED);
	char list[4096];

	(void)unused;
	moves_text(p, list, sizeof(list));
	assert_string_equal(list, "e5>s e5>sw e5>w");
	th_parse_refused(p, "b6-b5", KIFU_EILLEGAL,
			 "illegal move 'b6-b5': a splay of a stack at its size limit is forced");
	th_parse_refused(p, "e5-e4", KIFU_EILLEGAL,
			 "illegal move 'e5-e4': a splay of a stack at its size limit is forced");
	th_parse_refused(p, "b7>s", KIFU_EILLEGAL,
			 "illegal move 'b7>s': a splay of a stack at its size limit is forced");
	th_parse_refused(p, "e5>n", KIFU_EILLEGAL,
			 "illegal move 'e5>n': the splay would put a stone off the board");
	th_parse_refused(p, "pass", KIFU_EILLEGAL,
			 "illegal move 'pass': pass is not allowed: you have a legal move");
	kifu_pos_free(p);
}

/* A splay that merely ends on the edge, from a stack below its limit, is not forced. */
static void test_edge_splay_not_forced(void **unused)
{
	struct kifu_pos *p = play(BLACK, "");

	(void)unused;
	assert_true(listed(p, "c2>w"));  /* onto b2 and a2 */
	assert_true(listed(p, "f2>e"));  /* onto g2 and h2 */
	assert_true(listed(p, "b3-b4"));
	assert_int_equal(game()->count_moves(p->state), 122);
	kifu_pos_free(p);
}

/*
 * The forced splay e5>s drops white's last stone on e1: white captures its
 * own stone, counted for black.
 */
static void test_own_stone_captured(void **unused)
{
	struct kifu_pos *p = play(WHITE, FORCED);

	(void)unused;
	th_play_move(p, "e5>s");
	assert_cell(p, "e5", ".");
	assert_cell(p, "e4", "w");
	assert_cell(p, "e3", "bw");
	assert_cell(p, "e2", "bbw");
	assert_cell(p, "e1", ".");
	assert_int_equal(th_figure_int(p, "captures_black"), 1);
	assert_int_equal(th_figure_int(p, "captures_white"), 0);
	kifu_pos_free(p);

	/* the other splay along sw also loses a white stone, on a1 */
	p = play(WHITE, FORCED ",e5>sw");
	assert_cell(p, "d4", "w");
	assert_cell(p, "c3", "bw");
	assert_cell(p, "b2", "bbbw");
	assert_cell(p, "a1", ".");
	assert_int_equal(th_figure_int(p, "captures_black"), 1);
	kifu_pos_free(p);

	/* a white stack stepping to rank 1 loses every white stone in it */
	p = play(WHITE, "c6-c5,c3-b4,c5-c4,b4-b5,c4-c3,b5-b6,c3-c2");
	assert_cell(p, "c2", "bbw");
	th_play_move(p, "g3-g4");
	th_play_move(p, "c2-c1");
	assert_cell(p, "c1", "bb");
	assert_int_equal(th_figure_int(p, "captures_black"), 1);
	kifu_pos_free(p);
}

/* The ninth capture ends the game at once: here white's own move gives black its ninth. */
#define WIN "b7-c6,e3-d3,c6>s,d3-c4,d7>se,c4>s,f7>sw,c3-b2,e6-d5,b2-b1,d5>s,b1>ne,d2-c1," \
	"d3>sw,c7-d6,f5>sw,d6>s,e4>w,d3>s,d4>s"

static void test_nine_captures_win(void **unused)
{
	struct kifu_pos *p = play(WHITE, WIN);
	struct kifu_outcome oc;
	struct kifu_error err;
	kifu_move moves[400];

	(void)unused;
	assert_int_equal(th_figure_int(p, "captures_black"), 7);
	assert_cell(p, "d2", "ww");
	assert_ongoing(p);
	th_play_move(p, "d2-d1");
	assert_cell(p, "d1", ".");
	assert_int_equal(th_figure_int(p, "captures_black"), 9);
	assert_int_equal(th_figure_int(p, "captures_white"), 0);
	game()->outcome(p->state, &oc);
	assert_int_equal(oc.status, KIFU_WIN);
	assert_int_equal(oc.winner, BLACK);
	assert_int_equal(game()->legal_moves(p->state, moves), 0);
	assert_int_equal(game()->count_moves(p->state), 0);
	th_parse_refused(p, "b2-b3", KIFU_EILLEGAL, "illegal move 'b2-b3': the game is over");
	th_parse_refused(p, "pass", KIFU_EILLEGAL, "illegal move 'pass': the game is over");
	assert_int_equal(kifu_pos_play_list(p, "c2-c3", &err), KIFU_EILLEGAL);
	kifu_pos_free(p);
}

static void test_single_stone_cannot_splay(void **unused)
{
	struct kifu_pos *p = play(WHITE, "");

	(void)unused;
	th_parse_refused(p, "b6>s", KIFU_EILLEGAL,
			 "illegal move 'b6>s': a single stone cannot splay");
	th_parse_refused(p, "B6>SE", KIFU_EILLEGAL,
			 "illegal move 'B6>SE': a single stone cannot splay");
	th_parse_move(p, "b6-b5");
	kifu_pos_free(p);
}

static void test_splay_off_board(void **unused)
{
	struct kifu_pos *p = play(WHITE, "");

	(void)unused;
	/* b7 has one cell to the north, two stones */
	th_parse_refused(p, "b7>n", KIFU_EILLEGAL,
			 "illegal move 'b7>n': the splay would put a stone off the board");
	th_parse_refused(p, "b7>nw", KIFU_EILLEGAL,
			 "illegal move 'b7>nw': the splay would put a stone off the board");
	th_parse_refused(p, "b7>w", KIFU_EILLEGAL,
			 "illegal move 'b7>w': the splay would put a stone off the board");
	th_parse_move(p, "b7>s");
	th_parse_move(p, "c7>w");
	kifu_pos_free(p);
}

/*
 * Pass is written when, and only when, the mover has no legal move: here
 * every white stone lies under a black one.
 */
#define NO_MOVE "b6-c7,c2-d3,g7-g6,d3>ne,d7-e6,f5-e6,e7-f6,g6-f7,b7-c6,f7>s,f2>n,g2>nw," \
	"c7-d6,e4>nw,d6-c5,d5-c5"

static void test_pass(void **unused)
{
	struct kifu_pos *p = play(WHITE, "");
	char buf[KIFU_MOVE_TEXT_MAX], list[4096];
	kifu_move m;

	(void)unused;
	th_parse_refused(p, "pass", KIFU_EILLEGAL,
			 "illegal move 'pass': pass is not allowed: you have a legal move");
	kifu_pos_free(p);

	p = play(WHITE, NO_MOVE);
	assert_int_equal(game()->side_to_move(p->state), WHITE);
	assert_cell(p, "c6", "wwwb");
	assert_cell(p, "c5", "wwwwb");
	assert_ongoing(p);
	moves_text(p, list, sizeof(list));
	assert_string_equal(list, "pass");
	m = th_parse_move(p, " PASS ");
	game()->format_move(p->state, m, buf);
	assert_string_equal(buf, "pass");
	th_parse_refused(p, "c5>n", KIFU_EILLEGAL,
			 "illegal move 'c5>n': no stack of yours on 'c5' (its top stone is black)");
	th_play_move(p, "pass");
	assert_int_equal(game()->side_to_move(p->state), BLACK);
	assert_cell(p, "c5", "wwwwb");
	assert_ongoing(p);
	th_parse_refused(p, "pass", KIFU_EILLEGAL,
			 "illegal move 'pass': pass is not allowed: you have a legal move");
	/* black's 5-stack on c5 is at its size limit: its one splay is forced */
	moves_text(p, list, sizeof(list));
	assert_string_equal(list, "c5>e");
	th_play_move(p, "c5>e");
	assert_cell(p, "c5", ".");
	assert_cell(p, "d5", "b");
	assert_cell(p, "e5", "w");
	assert_cell(p, "f5", "wbw");
	assert_cell(p, "g5", "w");
	assert_cell(p, "h5", "w");
	assert_int_equal(game()->side_to_move(p->state), WHITE);
	assert_true(listed(p, "e5-d5"));
	assert_false(listed(p, "pass"));
	kifu_pos_free(p);
}

/*
 * RULING: if neither side has a legal move the game is drawn at once. No
 * position reached in play has that: an occupied cell off the edge always
 * has an outward neighbour with a larger size limit (a legal step if it is
 * empty), so blocking every stack needs all 28 edge cells occupied with
 * each two neighbours along the edge holding more than 7 stones together,
 * over 98 stones. So the draw cannot be set up from the start; check instead
 * that random games never meet a position where the mover has no move and
 * pass is not listed while the game goes on.
 */
static void test_no_move_means_pass_or_end(void **unused)
{
	unsigned seed = 7;
	int gi, ply;

	(void)unused;
	for (gi = 0; gi < 20; gi++) {
		struct kifu_pos *p = play(gi & 1, "");

		for (ply = 0; ply < 400; ply++) {
			struct kifu_outcome oc;
			kifu_move moves[400];
			size_t n = game()->legal_moves(p->state, moves);

			game()->outcome(p->state, &oc);
			assert_int_equal(n == 0, oc.status != KIFU_ONGOING);
			assert_true(oc.status != KIFU_DRAW);
			assert_true(game()->hash(p->state) == game()->rehash(p->state));
			if (!n)
				break;
			seed = seed * 1103515245u + 12345u;
			game()->apply(p->state, moves[(seed >> 8) % n]);
		}
		kifu_pos_free(p);
	}
}

static void test_hash(void **unused)
{
	struct kifu_pos *a = play(WHITE, "b6-b5,b3-b4,c6-c5");
	struct kifu_pos *b = play(WHITE, "c6-c5,b3-b4,b6-b5");
	struct kifu_pos *c = play(BLACK, "b3-b4,b6-b5");
	struct kifu_pos *d = play(WHITE, "b6-b5,b3-b4");

	(void)unused;
	assert_true(game()->hash(a->state) == game()->hash(b->state));
	assert_memory_equal(a->state, b->state, game()->state_size);
	/* same stones, other side to move */
	assert_true(game()->hash(c->state) != game()->hash(d->state));
	kifu_pos_free(a);
	kifu_pos_free(b);
	kifu_pos_free(c);
	kifu_pos_free(d);
}

/* ---- perft of shared/spec/perft/positions.yaml (first: white) ---- */

static const struct {
	const char *moves;
	uint64_t perft[2];
} positions[] = {
	{ "d7-d6,g2-h3,d6>s,h3-g2,b6-c6,b2>n,d3-c3,f2-g3,c7-d8,b3-a3,d5-c6,a3>se,f6-g5,c2>e,"
	  "g6-f6,b4-a3,f7>sw,e3-f2,c3-c4,c1-d2,d5-e6,b2-b1,e6>s,g2-g1,g5-g4,f3-e4,d4-c5,"
	  "e2-d1,e3-e4,g3>n,e4-e3,g4>n,g6-h5,d2-e2,e3>ne,g1>n,c4>e,e4-d4,c6>e,f4>n,c5-d6,"
	  "d1-c1,h5>s,g2-h3,b7-b6,g5>n,d6-c6,f2-e1,e7>se,c1-d1,d8>e,d4>s,h6-g7,e2-e3,g7-g6,"
	  "h3>sw,h4-h5,d1>nw,g5-f4,b3-c4,e6-d5,a4-b5,c6-b6,e3-f3,e5-e4,f5-g4,f4-g3,c4-b3,"
	  "d5-c5,f3-g3,b6>se,g3>w,c5-b5,e3-f2,d2-e2,g4-h4,f6>s,a3>se,f2-g1,b2-a2,g6-h7,d3-d2,"
	  "h7>s,c2-c3,h4-h5,c3-d2,f4-e3,d2>ne,e2-d2", { 85, 8126 } },
	{ "d7>sw,b2-c3,d6-e7,c2-b1,e7-e6,b3-c4,e6>sw,d3-d4,b7>e,e3-e4,c7-d7,f2-f3,b6-a6,e2-d3,"
	  "b3-b4,d3>sw,b4-b5,c2-b3,c6>n,d4-c5,c8-d7,d2-c1,f6-g7,c3>ne,g6-f5,g3-g2,g7>w,e5-d4,"
	  "d7>s,f3-e2,b5>n,c1-d2,d5>sw,g2-h2,b3-c4,d2-c3,c4>e,e4>n,d4>e,c3-d2,f4>nw,h2-g1,"
	  "f5-f4,g4-h5,e5>w,f6-f7,d5-c6,c5>s,e7-d7,h4-g3,b7-c8,c3-c4,d6-d7,b1-b2,d3-c2,g3>sw,"
	  "c8-b8,b2-a1,a6-b7,e2-d1,d7-d6,h5-g4,b7-a7,e6-f7,c7-b7,c4>e,c2-b3,e4>nw,c6>e,d2-c3,"
	  "f4-f5,e1-e2,b8-a7,a1>n,d6-e6,e2-d1,e6>s,d4-e5,b6-b7,e5-f6,b3-c3,a2-a3,a7>s,g1>n,"
	  "a6-b5,f7-e6,b7-c8,e6>s,e2-f3,g4-h5,e3-f3,a3>n,c3-d3,f2-e3,d3-e3,e5-d4,e3>n,e5-e6,"
	  "e4>e,g4-f3,b5-b4,f3>nw,c6-d5,a6-b6,f5-f6,g3-h4,b4-b5,e6>s,f6>w,g2-h2,a5>s,h4>n,"
	  "d5-c4,d4-e5,e7-f6,d6-c7,e6-d5,c7-c8,f6-e6,e4>nw,f4-f5,d1-e2", { 77, 6070 } },
	{ "e6-d5,c2-b1,b7-c8,e2-e3,g6-g7,g2-f3,c7>se,e3-d3,d6-e5,d2-e2,c6-d7,f2-e2,e7-d7,e2>w,"
	  "g7-g6,b1>ne,f7>sw,d3>n,f6-g5,d7>s,d5>e,f5-g6,e5>s,c2-d2,b6-c5,c3-c4,e3-e2,c4-c5,"
	  "g5-h6,d6>s,h6>n,b3-c3,e2-e3,d4-c5,e4-e5,c5>e,e6-e5,d5>e,h5-g5,e5>w,c5-c4,f5>s,"
	  "c4-b3,f3-g3,e3>sw,g6>sw,g5>n,a2-b3,a5-a4,b3>e,d2-e1,b2-c3,g7-f7,c3>e,a4-a3,g3>w,"
	  "f7-e6,d3>n,c2-b1,e3>w,e6-f6,f4-f3,d8-c8,c3-d4,e4-f3,d3-d2,f3>nw,e1>w,e4-f5,a3-b3,"
	  "f6-g5,b7-c7,b5-c5,b1-c2,g5-g4,c6-d7,f5-g6,c7-d8,h8-g8,d5>sw,c5-b6,d4-d3,g6-h6,"
	  "d2-e2,b6-a5,d3>n,a5-a6,a2-b1,g8-h7,d7>e,f7-e8,d6>sw,h7-h6,d5-c4,b4-c3,c5-d5,a6-a7,"
	  "c4>nw,c8-d8,d1-c1,d8-e8,d5-d4,a7-a6,b5-b6,h6-g7,b6-a5,c3-b2,b3-c4,a6>e,d4>se,e8>sw,"
	  "a5-b5,g4-g3,c2-d3,g3-g4,c4-d5,g7-h7,d5>se,b6-a5,e2-d3,h7-g7,h3-g3,a4-b3,b5-c5,"
	  "g2-f2,b1-b2,b3-a2,g3-h2,f2-e3,c5>n,a2-a3,b2>ne,e3>n,e7-d6,c7-d7,e6-d7,a3-b3,d6-d5,"
	  "g7-g8,d3>se,e4>sw,e5-e6,d4-c3,c1-d2,b3-b2,d5-c6,c3>nw,c6>s,b2-c3,d7-e6,c3-c2,a5>e,"
	  "c2-c3,f3-f2,g4-h5,d2-c1,d3-e2,h2-h3,e2>n,b5-a6,b4-b5,c4-b5,c3>ne,f6-e7,d4-c5,"
	  "e4-f4,e5-f5,f2-e2,c5>s,e7-f7,h5-g5,e6-e5,f5-f6,e5>sw,b2-b1,c1-c2,c3-b3,b5>e,g8>s,"
	  "c5-d4,b3-a4,h3-g4,f6-f7,f4-g3,c4-c3,a1-b2", { 79, 6029 } },
	{ "d6-e5,b2>e,c6-d5,c3-c4,g7-h6,e2-e1,e6-e5,g2-f1,b7-a8,g3-f3,e7-f8,d2>e,d5-c4,f3>s,"
	  "c4>ne,c2-d1,h6-h7,g2-f1,d7>sw,d3-e4,f8>sw,e1>w,c7-d6,e3-f3,a8>e,f1>nw,b6-c6,f2-e1,"
	  "e5>ne,e2-e3,g7-g8,e3>ne,g8-f8,e4-d4,e7-f6,e6-d6,c8-d7,c1-c2,b8-c8,g5-h5,f7-g7,"
	  "b3-a3,c6-c7,d1-c1,f6-e7,e1-d2,g7-f7,f4-f3,g6-h6,d6-c6,c7>sw,c6-d6,e7-d8,c4-d4,"
	  "h7>sw,c1-b1,d8-c7,f3-f4,f7-g7,d2>e,b6-c6,f2-e1,g7-g8,b1-c2,c7-b6,d4-e4,d5-c4,d6-d7,"
	  "f5-f4,g2-f3,f4-e3,f3-e4,e3-f2,e1-f2,g6-h7,e4>n,g8-h7,e5-f5,c6-c5,b5-c4,b6-c5,c2>n,"
	  "h6-g6,c5>e,f8-g8,c6-b5,g6-h6,d3-d4,g5-h6,d4-c3,h5>sw,c4-d3,f5>s,e6-d6,f4-e3,c3>se,"
	  "h6>w,f3>w,c8-c7,d3>n,d7>s,e7-f8,d3-d4,a3-a4,c7-d7,d5-e5,g8-h7,e5>w,h7-h8,c5-b5,"
	  "d4-e3,e2-f2,e3>n,h2-g3,g6-g7,b5-b6,d7>se,b6-c7,d6-d7,f2-g3,a5-b6,g3>w,f6-g5,f5-f6,"
	  "b6>n,c3-b3,d2>w,e7-d6,e6-f6,b2-a3,e5-f6,a3>e,g5-h6,c3-c2,d8-d7,f3-f2,h6-h5,c2>nw,"
	  "g4-g5,f2-e3,f6-e7,e3-d3,a4>s,d6-d7,e8-f7,a2-b1,g5-f4,d5-c4,g7-g6,d7-c8,g6-h6,d3>w,"
	  "c8-b8,c7-b6,e4-f3,c3-c4,f4-f5,b1-c1,h5-g4,c4-d3,a3>se,e1-d1,f7-g6,d3>se,g4-f3,"
	  "b3-c4,b7-b8,c4>e,b8>s,e2-d1,b4-c3,d1-e2,e7-d7,e2-d2,b2-c2,e4-e3,f3-f2,h4-g4,d7-e6,"
	  "d4-e5,b7-a8,e3-e2,h6-g6,d2-d1,c2-b1,g4-h3,f2-e3,e5-f6,g6>n,f1-f2,g7-f8,f6-f5,c3-c4,"
	  "f2-f3,b6-a7,c1-b2,e3>se,b2-b3,e6-d6,e2-f2,a7-a6,f4-e5,c4-d5,f2-g1,g8-h7,h3-h2,"
	  "f8-g8,f5-e4,d6-c6,e4-e5,d5-c6,f3-f2,c6>se,d1-c1,e4-e5,g2-h3,e5>sw,c1>w,h8-g8,h2-h1,"
	  "d4-c4,h3-h2,d5-e4,b1-a1,c4-d3,g1-g2,d3-d4,g2-f1,b5-a6,h2-h1,a6-b5,f2-f3,a8-b7,"
	  "b3-c4,d4-e3,c4-c5,g8-h8,f3>n,e3-d4,a1>ne,b5-c6,d4>n,c6>s,d5-d6,c4-b4,d6-c5,b4-c4,"
	  "c5-b4,e4-d5,c2-d3,h7-g7,b2-a1,g7-h8,f4-g3,d5-d4,d3-d4,f5-g6,c3-c2,h8-h7,b4-c3,"
	  "c4-c3,c2-b3,c3>n,g3-f3,h7>s,d4-c5,h4-g4,c5-b4,c4-d3,f3-e3,g6-f5,b4-c4,b7-c7,c4>s,"
	  "h2-g3,e3-d2,c7>sw,c3-b4,c6-b6,h1-h2,f5-e4,f1-e2,g4-f3,d2-e2,e4-f3,b4-a4,c2-d3,"
	  "b3-a4,a5-b5,c1>nw,b5-b6,b2-b3,f3-e3,e2-f1,h5-h4,a1-a2", { 66, 2871 } },
	{ "b6-c7,f2-f1,c6-b6,b2-c2,g6-f6,d2>ne,g7>s,c3-d2,d7>sw,d2-e3,b6-b7,g2>w,f7-f8,g3-h4,"
	  "e7>sw,c2-c3,b7>se,f1>nw,c6-d5,f3-g4,d5>sw,f4-e4,d6-c5,d3>n,g5-f6,e4-f5,f8-g8,c3-c2,"
	  "g8-h7,d4-d5,c5-b5,e2-f2,c4-b3,e3-f4,e6-f7,f4>nw,f7-g7,d5>se,h7>sw,e4-f3,f6>sw,"
	  "c7>s,b3>ne,f2-e3,g6>s,e3>n,c4>e,f3-e2,g5-h5,c6-d7,d4>s,e7-d7,b5-c4,e6-d5,f5>w,"
	  "d5>se,e5>s,e3-d4,e4>n,d4-e3,d2-c2,d7-c7,c3-b3,c7-b7,g4>n,g6-h6,e5-d4,e6-d6,g7-f8,"
	  "h6-g6,c5-b5,e3-d2,e2>e,h4-g3,e7-e6,g6-g5,h5-g5,f3-g4,e6-d7,d2-e3,c4>ne,g3-f3,b3-b4,"
	  "g2-g3,e6-d5,d6>ne,b5-a6,b7-b8,g5-g6,e3-f2,d3-c2,h2-g3,c2>n,c5-b4,c4-c3,g4-h3,c3>s,"
	  "f2-g3,a6-b7,c7-b6,d7-e7,b4-a5,b7-a6,f3-f4,e7>sw,h3-h2,d4-e3,g3-f3,f8-g7,f3>w,c2-d1,"
	  "a5-b5,d5>s,e3-e4,g7-h6,c6-d5,g6-h7,e4-f4,a2-a1,c3-d2,d3-d2,f4-e4,d2>e,e1-d1,d6-c5,"
	  "d5-e4,c5-b4,e4>nw,b4>n,b6>se,b5-b4,g2-h1,f2-e1,d4-d3,h7-g7,d3-c4,h6-g5,c4>nw,e2-d2,"
	  "h2-g3,a6-b5,h1-g2,b4-c3,g2-h1,c3-c2,g3-g2,g7-h7,d1-e1,h7-g8,c6-d7,b7-a6,b3-c2,"
	  "b5-b4,c2-c1,g5-f6,g2-h1,b4-a3,d5-d4,f7-f6,c5-b5,a6-b7,c1>ne,f6-e7,d4-c3,g8-h8,"
	  "d7-e7,b7-b8", { 61, 1159 } },
};

static void test_perft_positions(void **unused)
{
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct kifu_pos *p = play(WHITE, positions[i].moves);

		assert_int_equal(th_perft(p, 1), positions[i].perft[0]);
		assert_int_equal(th_perft(p, 2), positions[i].perft[1]);
		kifu_pos_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_description),
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_perft_start),
		cmocka_unit_test(test_first_black),
		cmocka_unit_test(test_notation),
		cmocka_unit_test(test_step_stacks),
		cmocka_unit_test(test_splay_onto_full_stack),
		cmocka_unit_test(test_splay_capture_on_h1),
		cmocka_unit_test(test_forced_splay),
		cmocka_unit_test(test_edge_splay_not_forced),
		cmocka_unit_test(test_own_stone_captured),
		cmocka_unit_test(test_nine_captures_win),
		cmocka_unit_test(test_single_stone_cannot_splay),
		cmocka_unit_test(test_splay_off_board),
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_no_move_means_pass_or_end),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_perft_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
