/*
 * Unit tests of the splinter-quad engine (Splinter for four): the set-up,
 * elimination chains that split the board again, turns that skip eliminated
 * sides, the ending where every side goes out at once (win and draw), tie
 * suffixes in chains, perft from the start and from the shared perft table.
 * Positions are reached by playing move lists from the start.
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

enum { RED, BLUE, GREEN, YELLOW };

/* Moves from the start (red first) to the position before blue's chain move f5-g4. */
#define CHAIN_OPENING \
	"e5-e4,g4-g3,f6-e6,d5-d4,e2-e3,c4-d3,f8-g7,f7-e6,e3-d4,e4-f5,d8-c7,f3-g2,e5-d6"
/* ... before red's d9-c10, which ends the game for every side left. */
#define ALL_OUT_OPENING \
	"e7-f8,e6-d7,h8-g8,f5-e5,e3-d4,e4-f4,g8-g7,b6-a6,e8-d9,c6-b5,g3-g4,e5-d5/a4"
/* ... before red's f3-g2, a move with two tie choices. */
#define TWO_TIES_OPENING "e7-f7,c8-c9,f4-e5,f5-e6,f7-f8,e8-d9,f6-g5,d3-e3"

static struct kifu_pos *start(int first, const char *moves)
{
	return th_play_list("splinter-quad", 0, first, moves);
}

/*
 * Parses text: with msg == NULL it must succeed (the move is returned),
 * else fail with code and exactly msg.
 */
static kifu_move try_move(const struct kifu_pos *p, const char *text, int code, const char *msg)
{
	struct kifu_error err = { 0 };
	kifu_move m = 0;
	int ret = p->game->parse_move(p->state, text, &m, &err);

	if (!msg && ret)
		fail_msg("'%s': %s", text, err.message);
	assert_int_equal(ret, msg ? code : 0);
	if (msg)
		assert_string_equal(err.message, msg);
	return m;
}

/* The figures as one line "key=value ...". */
static void expect_figures(const struct kifu_pos *p, const char *want)
{
	struct kifu_figure f[KIFU_FIGURES_MAX];
	struct kifu_buf line = KIFU_BUF_INIT;
	int n = p->game->figures(p->state, f), i;

	kifu_buf_puts(&line, "");
	for (i = 0; i < n; i++) {
		if (f[i].type == KIFU_FIG_TEXT)
			kifu_buf_printf(&line, "%s%s=%s", i ? " " : "", f[i].key, f[i].text);
		else
			kifu_buf_printf(&line, "%s%s=%ld", i ? " " : "", f[i].key, f[i].num);
	}
	assert_string_equal(line.data, want);
	kifu_buf_release(&line);
}

/* The rank line of the diagram, without its number: "  .  . Ys Rx ...". */
static void expect_rank(const struct kifu_pos *p, int rank, const char *want)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	char head[4];
	const char *at;

	assert_int_equal(p->game->render_text(&b, p->state), 0);
	snprintf(head, sizeof(head), "%2d ", rank);
	for (at = b.data; at && strncmp(at, head, 2); at = strchr(at, '\n'), at = at ? at + 1 : at)
		;
	assert_non_null(at);
	assert_memory_equal(at + 2, want, strlen(want));
	kifu_buf_release(&b);
}

static void expect_result(const struct kifu_pos *p, int status, int winner)
{
	struct kifu_outcome oc;

	p->game->outcome(p->state, &oc);
	assert_int_equal(oc.status, status);
	assert_int_equal(oc.winner, winner);
}

/* Number of listed moves whose text is `text`. */
static int count_listed(const struct kifu_pos *p, const char *text)
{
	kifu_move *all = calloc(p->game->max_moves, sizeof(*all));
	size_t n = p->game->legal_moves(p->state, all), i;
	int hits = 0;

	for (i = 0; i < n; i++) {
		char buf[KIFU_MOVE_TEXT_MAX];

		p->game->format_move(p->state, all[i], buf);
		hits += !strcmp(buf, text);
	}
	free(all);
	return hits;
}

static void test_setup(void **state)
{
	struct kifu_pos *p = start(RED, "");
	struct kifu_error err = { 0 };
	struct kifu_pos *q = NULL;

	(void)state;
	assert_string_equal(p->game->name, "splinter-quad");
	assert_int_equal(p->game->nsides, 4);
	expect_rank(p, 10, "  .  .  .  .  .  .  .  .  .  .");
	expect_rank(p, 8, "  .  . Bo Go Bo Go Bo Go  .  .");
	expect_rank(p, 7, "  .  . Ro Ys Rx Yx Rs Yo  .  .");
	expect_rank(p, 6, "  .  . Bo Gx Bs Gs Bx Go  .  .");
	expect_rank(p, 5, "  .  . Ro Yx Rs Ys Rx Yo  .  .");
	expect_rank(p, 4, "  .  . Bo Gs Bx Gx Bs Go  .  .");
	expect_rank(p, 3, "  .  . Ro Yo Ro Yo Ro Yo  .  .");
	expect_figures(p, "pieces_red=9 pieces_blue=9 pieces_green=9 pieces_yellow=9 eliminated=");
	assert_int_equal(p->game->side_to_move(p->state), RED);
	expect_result(p, KIFU_ONGOING, -1);
	/* c10 is a cell: empty here */
	try_move(p, "c10-c9", KIFU_EILLEGAL, "illegal move 'c10-c9': no piece of yours on 'c10'");
	try_move(p, "d3-d2", KIFU_EILLEGAL, "illegal move 'd3-d2': no piece of yours on 'd3'");
	try_move(p, "c3-c11", KIFU_EPARSE, "unparsable move 'c3-c11': unknown cell 'c11'");
	try_move(p, "pass", KIFU_EILLEGAL,
		 "illegal move 'pass': pass is not allowed: you have a legal move");
	kifu_pos_free(p);

	/* yellow first: the turn goes round to red */
	p = start(YELLOW, "d3-d2");
	assert_int_equal(p->game->side_to_move(p->state), RED);
	kifu_pos_free(p);
	assert_int_equal(kifu_pos_new(&q, kifu_game_find("splinter-quad"), 0, 4, &err),
			 KIFU_ENOTFOUND);
	assert_int_equal(kifu_pos_new(&q, kifu_game_find("splinter-quad"), 1, 0, &err),
			 KIFU_ENOTFOUND);
}

static void test_start_perft(void **state)
{
	struct kifu_pos *p = start(RED, "");
	uint64_t n;

	(void)state;
	assert_int_equal(kifu_perft(&n, p->game, p->state, 1), 0);
	assert_int_equal(n, 72);
	assert_int_equal(kifu_perft(&n, p->game, p->state, 2), 0);
	assert_int_equal(n, 5184);
	assert_int_equal(kifu_perft(&n, p->game, p->state, 3), 0);
	assert_int_equal(n, 373194);
	kifu_pos_free(p);
}

/*
 * Blue's cross f5 steps to g4 and splits the board; the right group (with
 * both blue crosses) leaves, so blue is eliminated; removing blue's pieces
 * cuts green's circle b8 off, which leaves as the smaller group, and green,
 * now without a circle, is eliminated in turn.
 */
static void test_elimination_chain(void **state)
{
	struct kifu_pos *p = start(RED, CHAIN_OPENING);

	(void)state;
	assert_int_equal(p->game->side_to_move(p->state), BLUE);
	expect_figures(p, "pieces_red=9 pieces_blue=9 pieces_green=9 pieces_yellow=9 eliminated=");
	th_play_move(p, "f5-g4");
	expect_rank(p, 8, "  .  .  .  .  .  .  .  .  .  .");
	expect_rank(p, 7, "  .  .  . Ys Rx  .  .  .  .  .");
	expect_rank(p, 6, "  . Ro  . Rs Yx  .  .  .  .  .");
	expect_rank(p, 5, " Ro  . Yx  .  .  .  .  .  .  .");
	expect_rank(p, 4, "  .  .  . Ro  .  .  .  .  .  .");
	expect_rank(p, 3, "  .  . Ro  .  .  .  .  .  .  .");
	expect_rank(p, 2, "  .  .  . Yo  .  .  .  .  .  .");
	expect_figures(p, "pieces_red=6 pieces_blue=0 pieces_green=0 pieces_yellow=4 "
			  "eliminated=blue,green");
	expect_result(p, KIFU_ONGOING, -1);
	kifu_pos_free(p);
}

/* After the chain, blue and green lose their turns. */
static void test_skipped_turns(void **state)
{
	struct kifu_pos *p = start(RED, CHAIN_OPENING ",f5-g4");

	(void)state;
	assert_int_equal(p->game->side_to_move(p->state), YELLOW);
	th_play_move(p, "d7-d8");
	assert_int_equal(p->game->side_to_move(p->state), RED);
	th_play_move(p, "a5-a6");
	assert_int_equal(p->game->side_to_move(p->state), YELLOW);
	expect_figures(p, "pieces_red=6 pieces_blue=0 pieces_green=0 pieces_yellow=4 "
			  "eliminated=blue,green");
	/* yellow may push red's pieces, not move them */
	try_move(p, "a6-a7", KIFU_EILLEGAL, "illegal move 'a6-a7': no piece of yours on 'a6'");
	th_play_move(p, "e6-f6");
	expect_rank(p, 6, " Ro Ro  . Rs  . Yx  .  .  .  .");
	assert_int_equal(p->game->side_to_move(p->state), RED);
	/* a red move that cuts the board: yellow's pieces go, and red is the last side */
	th_play_move(p, "d4-d5");
	expect_result(p, KIFU_WIN, RED);
	expect_figures(p, "pieces_red=3 pieces_blue=0 pieces_green=0 pieces_yellow=0 "
			  "eliminated=blue,green,yellow");
	kifu_pos_free(p);
}

/*
 * Red's cross d9 steps off alone to c10 and leaves: red has no cross and is
 * eliminated; removing red splits the rest into three groups of 2 (and one
 * of 1): red chooses d5-d6, then green and yellow lack types too. Everyone
 * left is out at once: red had most pieces after the move's splinter (5,
 * green 3, yellow 4) and wins.
 */
static void test_all_eliminated_win(void **state)
{
	struct kifu_pos *p = start(RED, ALL_OUT_OPENING);
	kifu_move m;

	(void)state;
	expect_figures(p, "pieces_red=6 pieces_blue=0 pieces_green=3 pieces_yellow=4 "
			  "eliminated=blue");
	try_move(p, "d9-c10", KIFU_EILLEGAL, "illegal move 'd9-c10': tie needs /CELL");
	try_move(p, "d9-c10/d3", KIFU_EILLEGAL,
		 "illegal move 'd9-c10/d3': 'd3' is not in a group tied for largest");
	m = try_move(p, "d9-c10/d5", 0, NULL);
	assert_true(try_move(p, "D9-C10/D6", 0, NULL) == m);
	assert_true(try_move(p, "d9-c10/a6", 0, NULL) != m);
	assert_int_equal(count_listed(p, "d9-c10/a6"), 1);
	assert_int_equal(count_listed(p, "d9-c10/b8"), 1);
	assert_int_equal(count_listed(p, "d9-c10/d5"), 1);
	assert_int_equal(count_listed(p, "d9-c10"), 0);
	th_play_move(p, "d9-c10/d5");
	expect_figures(p, "pieces_red=0 pieces_blue=0 pieces_green=0 pieces_yellow=0 "
			  "eliminated=blue,red,green,yellow");
	expect_result(p, KIFU_WIN, RED);
	assert_int_equal(p->game->legal_moves(p->state, &m), 0);
	try_move(p, "e5-e6", KIFU_EILLEGAL, "illegal move 'e5-e6': the game is over");
	kifu_pos_free(p);
}

/*
 * Red's circle f3 steps to g2 and splits the board into two groups of 18:
 * red keeps the right one; green and yellow lack types and go, which splits
 * the rest into two groups of 4: whichever red keeps, red and blue go too.
 * After the move's splinter red, green and yellow had 5 pieces each: a draw.
 * Sides going out by one removal are listed in turn order from the mover.
 */
static void test_all_eliminated_draw(void **state)
{
	struct kifu_pos *p = start(RED, TWO_TIES_OPENING);
	kifu_move a, b;

	(void)state;
	try_move(p, "f3-g2", KIFU_EILLEGAL, "illegal move 'f3-g2': tie needs /CELL");
	try_move(p, "f3-g2/f8", KIFU_EILLEGAL, "illegal move 'f3-g2/f8': tie needs /CELL");
	try_move(p, "f3-g2/f8/f8/f8", KIFU_EILLEGAL,
		 "illegal move 'f3-g2/f8/f8/f8': no further tie arises: '/f8' is not allowed");
	a = try_move(p, "f3-g2/f8/f8", 0, NULL);
	b = try_move(p, "f3-g2/f8/g2", 0, NULL);
	assert_true(a != b);
	assert_true(try_move(p, "f3-g2/h7/g6", 0, NULL) == a);
	assert_true(try_move(p, "f3-g2/j3/h3", 0, NULL) == b);
	assert_int_equal(count_listed(p, "f3-g2/f8/f8"), 1);
	assert_int_equal(count_listed(p, "f3-g2/f8/g2"), 1);
	assert_int_equal(count_listed(p, "f3-g2/b8"), 1);
	th_play_move(p, "f3-g2/h7/g6");
	expect_figures(p, "pieces_red=0 pieces_blue=0 pieces_green=0 pieces_yellow=0 "
			  "eliminated=green,yellow,red,blue");
	expect_result(p, KIFU_DRAW, -1);
	kifu_pos_free(p);
}

static const struct {
	const char *moves;
	uint64_t perft1, perft2;
} positions[] = {
	{ "e3-f3,c8-d7,d8-c9,g3-g2,e7-d7,f5-f4,d6-e7,h5-i6,g7-h8,g8-f8,f6-e5,g4-g5", 72, 5184 },
	{ "e3-d4,e6-f6,d6-d7,d5-c5,g7-g6,c4-c5,h8-i7,c6-d6,b6-c6,g3-g4,i7-j6,f5-g5,c3-d4",
	  72, 4945 },
	{ "g5-g4,e6-f5,d4-e4,f3-e4,h3-h2,g8-h7,f6-g6,h4-g3,e7-f8,b7-c8,g9-g10,c6-c5,g7-g6,d9-d8,"
	  "d5-d6,j6-i6,c4-b4,f2-e1,g5-f5,e4-d5,c6-c7,h7-g8,d4-d3,i6-i7,c2-b3,e8-d8,h6-g6,g3-f2,"
	  "h2-i1,c9-d8,c8-b9,d7-e6,f8-g9,e7-d7,d3-c2",
	  64, 3983 },
	{ "e3-f2,e8-e9,h4-i4,f7-e6,f2-e3,c8-b9,i4-j3,f5-g4,c3-b3,e9-e10,f6-g5,e6-e5,g3-h4,c6-c5,"
	  "d4-c4,d3-c3,h4-i5,d5-d4,f4-e5,i2-i1,b4-c4,e4-d5,f8-e8,d7-e8,f4-e3,c5-d5,h6-i6,c3-c4,"
	  "e3-d4,g6-f7,c7-b8,h7-i8,e7-e6,g8-g9,i6-j5,i8-j8,g7-f7,e5-f5,h5-g4,f3-g3,f7-g7,h3-h4,"
	  "d8-d9,b3-b4,d4-d5,h4-g4",
	  48, 1931 },
	{ "e7-d8,g6-h7,f4-g5,f5-g6,e3-e2,g4-h4,g5-g6,f3-f2,e5-e4,e6-e7,c9-b10,h3-g2,c5-d4,g9-f10,"
	  "f8-g9,i8-j9,h6-g5,h7-g8,f6-e7,d7-e7,g3-g2,g8-g9,e3-d4,d3-e4,c3-d2,c4-b5,f7-e8,g7-f7,"
	  "c5-b4,c6-c5,h8-i8,d5-c4,f9-g9,c5-d6,e7-f8,h5-h6,f5-g4,c8-c9,g6-g5",
	  32, 713 },
};

static void test_positions(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		struct kifu_pos *p = start(RED, positions[i].moves);
		uint64_t n;

		assert_int_equal(kifu_perft(&n, p->game, p->state, 1), 0);
		assert_int_equal(n, positions[i].perft1);
		assert_int_equal(kifu_perft(&n, p->game, p->state, 2), 0);
		assert_int_equal(n, positions[i].perft2);
		kifu_pos_free(p);
	}
}

/*
 * Random games to the end: listed moves are unique and round-trip through
 * their text, the hash matches a fresh one, a finished game lists nothing.
 */
static void test_playouts(void **state)
{
	const struct kifu_game *g = kifu_game_find("splinter-quad");
	kifu_move *list = calloc(g->max_moves, sizeof(*list));
	uint32_t rng = 2463534242u;
	int round;

	(void)state;
	for (round = 0; round < 30; round++) {
		struct kifu_pos *p = start(round % 4, "");
		struct kifu_outcome oc;
		size_t n;
		int ply = 0;

		while ((n = g->legal_moves(p->state, list)) > 0 && ply++ < 600) {
			size_t i, j;

			assert_int_equal(g->count_moves(p->state), n);
			for (i = 0; i < n; i++) {
				char text[KIFU_MOVE_TEXT_MAX];

				g->format_move(p->state, list[i], text);
				assert_true(try_move(p, text, 0, NULL) == list[i]);
				for (j = i + 1; j < n; j++)
					assert_true(list[i] != list[j]);
			}
			rng ^= rng << 13;
			rng ^= rng >> 17;
			rng ^= rng << 5;
			g->apply(p->state, list[rng % n]);
			assert_true(g->hash(p->state) == g->rehash(p->state));
		}
		g->outcome(p->state, &oc);
		assert_int_equal(oc.status == KIFU_ONGOING, n > 0);
		kifu_pos_free(p);
	}
	free(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_start_perft),
		cmocka_unit_test(test_elimination_chain),
		cmocka_unit_test(test_skipped_turns),
		cmocka_unit_test(test_all_eliminated_win),
		cmocka_unit_test(test_all_eliminated_draw),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_playouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
