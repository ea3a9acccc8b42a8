/*
 * Unit tests of the splay-schmidt engine: notation, placement rules (empty
 * neighbours, crowding checked before the splay), splays with collapses,
 * forced passes, the three ways a game ends, figures, and perft from the
 * start and from the mid-game positions of spec/perft/positions.yaml.
 * Positions are reached by playing move lists from the start.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "games/board.h"
#include "helpers.h"

static const struct kifu_game *game(void)
{
	return th_game("splay-schmidt");
}

static struct kifu_pos *play(const char *list)
{
	return th_play_list("splay-schmidt", 0, 0, list);
}

static char *render(const struct kifu_pos *pos)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	assert_int_equal(game()->render_text(&b, pos->state), 0);
	return kifu_buf_detach(&b);
}

/* Asserts that the diagram of pos contains the whole line `line`. */
static void assert_line(const struct kifu_pos *pos, const char *line)
{
	char *txt = render(pos), *p = txt;
	size_t n = strlen(line);
	int found = 0;

	while (*p) {
		char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !memcmp(p, line, n))
			found = 1;
		p += len + (end ? 1 : 0);
	}
	if (!found)
		fail_msg("line '%s' not in:\n%s", line, txt);
	kifu_buf_detached_free(txt);
}

/* The move of a placement on cell `name`. */
static kifu_move cell(const char *name)
{
	int c = kifu_hex_cell_parse_(kifu_hex_board_(5), name, strlen(name));

	assert_true(c >= 0);
	return (kifu_move)c;
}

static void assert_figures(const struct kifu_pos *pos, long score, long tw, long tb)
{
	assert_int_equal(th_figure_int(pos, "score"), score);
	assert_int_equal(th_figure_int(pos, "territory_white"), tw);
	assert_int_equal(th_figure_int(pos, "territory_black"), tb);
}

static void assert_outcome(const struct kifu_pos *pos, int status, int winner)
{
	struct kifu_outcome oc;

	game()->outcome(pos->state, &oc);
	assert_int_equal(oc.status, status);
	assert_int_equal(oc.winner, winner);
}

static size_t moves_of(const struct kifu_pos *pos, kifu_move *mv)
{
	size_t n = game()->legal_moves(pos->state, mv);

	assert_true(n <= game()->max_moves);
	assert_int_equal(game()->count_moves(pos->state), n);
	return n;
}

static int listed(const kifu_move *mv, size_t n, kifu_move m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mv[i] == m)
			return 1;
	return 0;
}

static void test_interface(void **st)
{
	const struct kifu_game *g = game();
	struct kifu_pos *pos;
	struct kifu_error err;

	(void)st;
	memset(&err, 0, sizeof(err));
	assert_string_equal(g->name, "splay-schmidt");
	assert_string_equal(g->variants[0], "standard");
	assert_null(g->variants[1]);
	assert_string_equal(g->sides[0], "white");
	assert_string_equal(g->sides[1], "black");
	assert_null(g->sides[2]);
	assert_int_equal(g->nsides, 2);
	assert_int_equal(g->flags, 0);
	assert_int_equal(g->max_moves, 61);
	assert_int_equal(kifu_pos_new(&pos, g, 0, 1, &err), KIFU_ENOTFOUND);
	assert_int_equal(kifu_pos_new(&pos, g, 1, 0, &err), KIFU_ENOTFOUND);
	assert_int_equal(kifu_pos_new(&pos, g, 0, 0, &err), 0);
	assert_int_equal(g->side_to_move(pos->state), 0);
	assert_outcome(pos, KIFU_ONGOING, -1);
	assert_figures(pos, 0, 0, 0);
	assert_line(pos, "a              .   .   .   .   .   .             a1-a6");
	assert_line(pos, "f    .   .   .   .   .   .   .   .   .   .   .   f1-f11");
	assert_line(pos, "to move: white; score 0; territory_white 0; territory_black 0");
	kifu_pos_free(pos);
}

static void test_notation(void **st)
{
	struct kifu_pos *pos = play("");
	const struct kifu_game *g = game();
	char buf[KIFU_MOVE_TEXT_MAX];
	kifu_move m = th_parse_move(pos, "e5");

	(void)st;
	assert_int_equal(th_parse_move(pos, "  E5\t"), m);
	g->format_move(pos->state, m, buf);
	assert_string_equal(buf, "e5");
	g->format_move(pos->state, th_parse_move(pos, "F10"), buf);
	assert_string_equal(buf, "f10");
	th_parse_refused(pos, " Z9 ", KIFU_EPARSE, "unparsable move 'Z9': unknown cell 'z9'");
	th_parse_refused(pos, "a7", KIFU_EPARSE, "unparsable move 'a7': unknown cell 'a7'");
	th_parse_refused(pos, "e5e6", KIFU_EPARSE,
			 "unparsable move 'e5e6': expected a cell name or 'pass'");
	th_parse_refused(pos, "e 5", KIFU_EPARSE,
			 "unparsable move 'e 5': white space inside the move");
	th_parse_refused(pos, "  ", KIFU_EPARSE, "unparsable move '': empty move");
	/* The border ring never takes a checker; a1 and f1 are border cells. */
	th_parse_refused(pos, "A1", KIFU_EILLEGAL, "illegal move 'A1': 'a1' is a border cell");
	th_parse_refused(pos, "f1", KIFU_EILLEGAL, "illegal move 'f1': 'f1' is a border cell");
	th_parse_refused(pos, "f11", KIFU_EILLEGAL, "illegal move 'f11': 'f11' is a border cell");
	th_parse_refused(pos, "Pass", KIFU_EILLEGAL,
			 "illegal move 'Pass': pass is not allowed: you have a legal move");
	kifu_pos_free(pos);
}

/* A checker on an own tower raises it; a tower of the other colour is off limits. */
static void test_stacking(void **st)
{
	struct kifu_pos *pos = play("e5,f4,E5");
	kifu_move mv[64];

	(void)st;
	assert_line(pos, "e      .   .   .   .  w2   .   .   .   .   .     e1-e10");
	assert_line(pos, "f    .   .   .  b1   .   .   .   .   .   .   .   f1-f11");
	assert_figures(pos, 0, 1, 1);
	th_parse_refused(pos, "e5", KIFU_EILLEGAL, "illegal move 'e5': 'e5' holds a white tower");
	/* Black: its tower f4 plus the 59 empty interior cells. */
	assert_int_equal(moves_of(pos, mv), 60);
	assert_true(listed(mv, 60, th_parse_move(pos, "f4")));
	kifu_pos_free(pos);
}

/*
 * White's w2 on g5 has 3 empty neighbours (g4 g6 h5): a third checker splays
 * it. The markers take f5's and f6's last empty neighbours away, so black's
 * b1 on f5 and white's w1 on f6 collapse into markers of their own colours;
 * white's h4 keeps 3 empty neighbours and stays.
 */
static void test_splay_collapses_both_colours(void **st)
{
	struct kifu_pos *pos = play("g5,f4,h4,e5,c4,c5,g5,e6,f6,f5");

	(void)st;
	assert_line(pos, "e      .   .   .   .  b1  b1   .   .   .   .     e1-e10");
	assert_line(pos, "f    .   .   .  b1  b1  w1   .   .   .   .   .   f1-f11");
	assert_line(pos, "g      .   .   .   .  w2   .   .   .   .   .     g1-g10");
	assert_line(pos, "h        .   .   .  w1   .   .   .   .   .       h1-h9");
	assert_figures(pos, -1, 4, 5);
	th_play_move(pos, "g5");
	assert_line(pos, "e      .   .   .   .  b1  b1   .   .   .   .     e1-e10");
	assert_line(pos, "f    .   .   .  b1   B   W   .   .   .   .   .   f1-f11");
	assert_line(pos, "g      .   .   .   W   W   W   .   .   .   .     g1-g10");
	assert_line(pos, "h        .   .   .  w1   W   .   .   .   .       h1-h9");
	/* White gained the 3 markers; collapses change nobody's units. */
	assert_figures(pos, 2, 7, 5);
	assert_line(pos, "to move: black; score 2; territory_white 7; territory_black 5");
	th_parse_refused(pos, "g4", KIFU_EILLEGAL, "illegal move 'g4': 'g4' holds a white marker");
	th_parse_refused(pos, "f5", KIFU_EILLEGAL, "illegal move 'f5': 'f5' holds a black marker");
	kifu_pos_free(pos);
}

/* Cell e4 is surrounded by e3 e5 d3 d4 f4 f5, all towers with room to spare. */
static void test_no_empty_neighbour(void **st)
{
	struct kifu_pos *pos = play("f5,f4,g8,e3,j5,d4,e5,d3");
	kifu_move mv[64];
	size_t n = moves_of(pos, mv);

	(void)st;
	assert_line(pos, "d        .   .  b1  b1   .   .   .   .   .       d1-d9");
	assert_line(pos, "e      .   .  b1   .  w1   .   .   .   .   .     e1-e10");
	assert_line(pos, "f    .   .   .  b1  w1   .   .   .   .   .   .   f1-f11");
	th_parse_refused(pos, "e4", KIFU_EILLEGAL,
			 "illegal move 'e4': 'e4' has no empty neighbour");
	assert_false(listed(mv, n, cell("e4")));
	assert_true(listed(mv, n, cell("e6")));
	/* White: 4 towers and 53 empty interior cells minus e4. */
	assert_int_equal(n, 4 + 52);
	kifu_pos_free(pos);
}

/*
 * Black's b1 on d4 has exactly 2 empty neighbours (d5 e4), its minimum. A
 * tower on d5 would have one empty neighbour (e6) and splay at once, after
 * which d4 would be a marker anyway; but the crowding check is on the
 * placement itself, before the splay (RULING), so d5 is illegal, as is e4,
 * which would not splay.
 */
static void test_crowding_checked_before_splay(void **st)
{
	struct kifu_pos *pos = play("d6,e5,d3,c3,c5,e2,c4,d4");
	kifu_move mv[64];
	size_t n = moves_of(pos, mv);
	kifu_move d5 = cell("d5"), e4 = cell("e4");

	(void)st;
	assert_line(pos, "c          .   .  b1  w1  w1   .   .   .         c1-c8");
	assert_line(pos, "d        .   .  w1  b1   .  w1   .   .   .       d1-d9");
	assert_line(pos, "e      .  b1   .   .  b1   .   .   .   .   .     e1-e10");
	th_parse_refused(pos, "d5", KIFU_EILLEGAL,
			 "illegal move 'd5': the black tower on 'd4' would have fewer empty neighbours than its height + 1");
	th_parse_refused(pos, "e4", KIFU_EILLEGAL,
			 "illegal move 'e4': the black tower on 'd4' would have fewer empty neighbours than its height + 1");
	assert_false(listed(mv, n, d5));
	assert_false(listed(mv, n, e4));
	/* White's own towers stay playable; 53 empty interior cells minus d5 and e4. */
	assert_true(listed(mv, n, th_parse_move(pos, "c4")));
	assert_int_equal(n, 4 + 51);
	kifu_pos_free(pos);
}

#define PASS_GAME "f4,f3,f9,e9,f9,g8,i3,h5,d4,f3,c5,i7,i3,c2,f5,e7,f8,c4,h2,h3,g4,i6,f9,j6," \
	"e2,d5,g3,h7,b2,i5,c3,b6,h2,d7,g4,i6,c6,g8,b2,d6,e2,i5,d2,g6,c5,e5,i3,e5,c3,i7,d2,f2,e2,c2"

/*
 * White has no tower and every empty interior cell is blocked: f7 has no
 * empty neighbour, c7 and d8 would crowd black's d7. Black still has five
 * towers, so white must pass, and pass is the only move.
 */
static void test_forced_pass(void **st)
{
	struct kifu_pos *pos = play(PASS_GAME);
	char buf[KIFU_MOVE_TEXT_MAX];
	kifu_move mv[64];
	uint64_t before;

	(void)st;
	assert_line(pos, "c          B   B   W   B   W   W   .   .         c1-c8");
	assert_line(pos, "d        W   W   W   W   B   B  b1   .   .       d1-d9");
	assert_line(pos, "f    .  b1   B   W   W   B   .   W   W   W   .   f1-f11");
	assert_int_equal(moves_of(pos, mv), 1);
	assert_int_equal(mv[0], th_parse_move(pos, " PASS "));
	game()->format_move(pos->state, mv[0], buf);
	assert_string_equal(buf, "pass");
	assert_outcome(pos, KIFU_ONGOING, -1);
	th_parse_refused(pos, "f7", KIFU_EILLEGAL,
			 "illegal move 'f7': 'f7' has no empty neighbour");
	th_parse_refused(pos, "c7", KIFU_EILLEGAL,
			 "illegal move 'c7': the black tower on 'd7' would have fewer empty neighbours than its height + 1");
	th_parse_refused(pos, "b6", KIFU_EILLEGAL, "illegal move 'b6': 'b6' holds a black tower");
	before = game()->hash(pos->state);
	th_play_move(pos, "pass");
	assert_true(game()->hash(pos->state) != before);
	assert_int_equal(game()->side_to_move(pos->state), 1);
	/* Black may not pass: it has its five towers (b6 d7 e9 f2 j6). */
	assert_int_equal(moves_of(pos, mv), 5);
	assert_true(listed(mv, 5, cell("b6")));
	assert_true(listed(mv, 5, cell("d7")));
	assert_true(listed(mv, 5, cell("e9")));
	assert_true(listed(mv, 5, cell("f2")));
	assert_true(listed(mv, 5, cell("j6")));
	th_parse_refused(pos, "pass", KIFU_EILLEGAL,
			 "illegal move 'pass': pass is not allowed: you have a legal move");
	assert_line(pos, "to move: black; score -2; territory_white 31; territory_black 33");
	kifu_pos_free(pos);
}

#define END46_GAME "j3,f10,e5,c4,h4,g8,g3,i3,c2,d3,e6,i4,i2,e2,i7,g6,d2,i3,b4,e3,g3,j6,g4," \
	"d8,c6,f6,d6,f6,i2,e9,g4,c5,f8,g7,b2,e8,e6,f9,b2,f6,c3,i4,g2,g7,j3,j6,b4,i4,d2,e3,i6," \
	"e3,d6,j6,c6,e2,b4,e8,b2,e9,i7,f10,b2,d8,i2"

/*
 * Black's b1 on c5 (empty neighbours b5 d5) splays with a second checker:
 * two black markers bring black from 44 to 46 units and end the game,
 * although both sides could still place (b6 is free, white keeps g2). The
 * collapse of c4 changes no count; white's tower on g2 counts as a marker.
 */
static void test_end_at_46_units(void **st)
{
	struct kifu_pos *pos = play(END46_GAME);
	kifu_move mv[64];

	(void)st;
	assert_line(pos, "b            W   W   W   W   .   .   .           b1-b7");
	assert_line(pos, "c          W   W   W  b1  b1   W   B   B         c1-c8");
	assert_line(pos, "d        W   W   B   .   .   W   B   B   B       d1-d9");
	assert_line(pos, "g      .  w1   W   W   B   B   B   B   B   B     g1-g10");
	assert_figures(pos, -14, 30, 44);
	assert_int_equal(moves_of(pos, mv), 3);
	assert_true(listed(mv, 3, cell("c4")));
	assert_true(listed(mv, 3, cell("c5")));
	assert_true(listed(mv, 3, cell("b6")));
	th_play_move(pos, "c5");
	assert_line(pos, "b            W   W   W   W   B   .   .           b1-b7");
	assert_line(pos, "c          W   W   W   B   B   W   B   B         c1-c8");
	assert_line(pos, "d        W   W   B   .   B   W   B   B   B       d1-d9");
	assert_line(pos, "g      .  w1   W   W   B   B   B   B   B   B     g1-g10");
	assert_outcome(pos, KIFU_WIN, 1);
	assert_figures(pos, -16, 30, 46);
	assert_line(pos, "game over: black wins; score -16; territory_white 30; territory_black 46");
	assert_int_equal(moves_of(pos, mv), 0);
	th_parse_refused(pos, "g2", KIFU_EILLEGAL, "illegal move 'g2': the game is over");
	th_parse_refused(pos, "b6", KIFU_EILLEGAL, "illegal move 'b6': the game is over");
	th_parse_refused(pos, "pass", KIFU_EILLEGAL, "illegal move 'pass': the game is over");
	kifu_pos_free(pos);
}

#define NOPLACE_GAME "e3,e8,h5,f7,e4,d3,c4,e7,h4,b4,b3,i4,d2,i4,e5,c6,g6,d8,e9,i6,g5,i4," \
	"g6,e2,d6,h7,e6,i6,c3,c5,d6,d3,j2,e8,e4,f10,h3,c6,g6,i4,e9,g9,g4,g8,j2,f10,j2,b4,f3," \
	"c6,h3,b2,b3,i6,f3,b2"

/*
 * White's last tower d2 splays (markers on c1 d1); black's e2 loses its last
 * empty neighbour but one and collapses. No tower is left and every interior
 * cell is filled: nobody can place, so the game ends at once without a pass,
 * white winning 36 markers to 35.
 */
static void test_end_no_placement(void **st)
{
	struct kifu_pos *pos = play(NOPLACE_GAME);
	kifu_move mv[64];

	(void)st;
	assert_line(pos, "c          .   B   W   W   B   B   B   .         c1-c8");
	assert_line(pos, "d        .  w1   B   B   W   W   W   B   W       d1-d9");
	assert_line(pos, "e      .  b1   W   W   W   W   B   B   W   W     e1-e10");
	assert_int_equal(moves_of(pos, mv), 1);
	assert_int_equal(mv[0], cell("d2"));
	assert_outcome(pos, KIFU_ONGOING, -1);
	th_play_move(pos, "d2");
	assert_line(pos, "c          W   B   W   W   B   B   B   .         c1-c8");
	assert_line(pos, "d        W   W   B   B   W   W   W   B   W       d1-d9");
	assert_line(pos, "e      .   B   W   W   W   W   B   B   W   W     e1-e10");
	assert_outcome(pos, KIFU_WIN, 0);
	assert_figures(pos, 1, 36, 35);
	assert_int_equal(moves_of(pos, mv), 0);
	th_parse_refused(pos, "pass", KIFU_EILLEGAL, "illegal move 'pass': the game is over");
	assert_line(pos, "game over: white wins; score 1; territory_white 36; territory_black 35");
	kifu_pos_free(pos);
}

#define DRAW_GAME "j4,g7,i2,c3,d4,f5,g5,e8,e3,d8,h2,h3,j4,e6,c2,e4,j3,d3,c6,e9,h8,d7,h7,h4," \
	"b3,c3,b6,g9,j3,f3,d4,i6,e3,b5,i7,e9,f9,d8,g3,d8,j3,h3,f7,b5,h7,i6,b3,i6,f6,e6,h8,b5," \
	"c2,b5,j3,g9,b6,f3,h2"

static void test_draw(void **st)
{
	struct kifu_pos *pos = play(DRAW_GAME);
	kifu_move mv[64];

	(void)st;
	assert_outcome(pos, KIFU_DRAW, -1);
	assert_figures(pos, 0, 37, 37);
	assert_int_equal(moves_of(pos, mv), 0);
	/* f8 and h5 are the last empty interior cells, both walled in. */
	th_parse_refused(pos, "f8", KIFU_EILLEGAL, "illegal move 'f8': the game is over");
	assert_line(pos, "game over: draw; score 0; territory_white 37; territory_black 37");
	kifu_pos_free(pos);
}

static void check_perft(const char *list, const uint64_t *expect, int depths)
{
	struct kifu_pos *pos = play(list);
	int d;

	for (d = 1; d <= depths; d++) {
		uint64_t n;

		assert_int_equal(kifu_perft(&n, game(), pos->state, d), 0);
		assert_int_equal(n, expect[d - 1]);
	}
	kifu_pos_free(pos);
}

static void test_perft_start(void **st)
{
	static const uint64_t expect[] = { 61, 3660, 219600 };

	(void)st;
	check_perft("", expect, 3);
}

static void test_perft_positions(void **st)
{
	static const struct {
		const char *moves;
		uint64_t perft[2];
	} pos[] = {
		{ "j6,f9,d2,e2,e7,i4,g7,c2,e7,b6,b2,d4,d3,f3,f2,d4,d3,h6,f7,f10,f6", { 49, 2351 } },
		{ "b2,g4,e9,e8,f7,i6,h7,e4,e5,b4,f9,h8,g5,c6,f6,j2,h3,h2,i4,g9,c7,g8,j3,j2,h4,"
		  "h2,g3,d7,h4,c4,f6,c2,g3,e7,d2", { 31, 878 } },
		{ "d3,e9,i4,d6,d4,c7,h3,f10,i6,g3,h7,c7,e5,e4,e3,d2,i7,g8,c4,g9,c6,h6,i5,j4,h4,"
		  "f2,f7,e6,i6,g8,i4,e7,e2,f2,e3,c7,g4,g3,i7,d2,b2,g6,c4,d6,d8,e7,e5,e9,d3,g8,h3,"
		  "b4,h4,b4,c4,g8,e2", { 10, 62 } },
		{ "f5,j6,j5,g6,e4,f4,h8,c4,b6,e9,d3,c5,g4,h3,h6,j4,f9,c7,b3,g5,f5,e6,j3,h3,i2,"
		  "c5,g8,e9,c3,f4,c6,g7,f2,c2,g8,b4,e2,j2,e4,g5,e2,h3,g2,d7,i5,e9,f10,e9,i5,g7,j5,"
		  "d2,f10,c2,e2,e6,i7,d7,f9,b5,g2,c2,i2,j6,h8,b4,h8", { 2, 3 } },
		{ "g7,f10,f5,i4,e5,f10,d3,i7,j5,d8,h6,h3,i3,g4,e3,j3,e9,b6,f6,d5,c7,i7,b2,g4,c7,"
		  "c4,f5,b6,e9,j4,d4,h4,h8,f10,f6,e8,d7,c2,g9,f8,f3,d6,j6,d5,f2,b3,f6,c4,f4,i6,g9,"
		  "j3,j5,d8,i3,b3,b5,i6,g2,b6,g9,h3,e2,c2,e3,b6,g2,e8,f2,j4,h8,pass,j6,pass,b2,pass,"
		  "j6,pass", { 1, 0 } },
	};
	size_t i;

	(void)st;
	for (i = 0; i < sizeof(pos) / sizeof(pos[0]); i++)
		check_perft(pos[i].moves, pos[i].perft, 2);
}

/* Random games: listed moves round-trip through text, hashes agree, ends list nothing. */
static void test_random_playouts(void **st)
{
	const struct kifu_game *g = game();
	unsigned seed = 12345;
	int games;

	(void)st;
	for (games = 0; games < 20; games++) {
		struct kifu_pos *pos = play("");

		for (;;) {
			kifu_move mv[64];
			size_t n = moves_of(pos, mv), i;
			struct kifu_outcome oc;

			g->outcome(pos->state, &oc);
			assert_int_equal(oc.status != KIFU_ONGOING, n == 0);
			if (!n)
				break;
			for (i = 0; i < n; i++) {
				char buf[KIFU_MOVE_TEXT_MAX];

				g->format_move(pos->state, mv[i], buf);
				assert_int_equal(th_parse_move(pos, buf), mv[i]);
			}
			seed = seed * 1103515245u + 12345u;
			g->apply(pos->state, mv[(seed >> 16) % n]);
			assert_int_equal(g->hash(pos->state), g->rehash(pos->state));
		}
		kifu_pos_free(pos);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interface),
		cmocka_unit_test(test_notation),
		cmocka_unit_test(test_stacking),
		cmocka_unit_test(test_splay_collapses_both_colours),
		cmocka_unit_test(test_no_empty_neighbour),
		cmocka_unit_test(test_crowding_checked_before_splay),
		cmocka_unit_test(test_forced_pass),
		cmocka_unit_test(test_end_at_46_units),
		cmocka_unit_test(test_end_no_placement),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_perft_start),
		cmocka_unit_test(test_perft_positions),
		cmocka_unit_test(test_random_playouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
