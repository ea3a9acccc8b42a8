/*
 * The pictures and diagrams of every game: render_text of known positions
 * (reached by move lists) compared with the expected diagrams in
 * tests/data/render/, and render_svg over random playouts of every game and
 * variant: well-formed XML (a small tag-balance checker), a standalone
 * <svg> with xmlns and viewBox, the caption naming the side to move or the
 * end of the game, and every data-cell/data-content pair equal to the cell
 * tokens of the same position's text diagram, so that the picture and the
 * engine cannot drift apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/game.h"
#include "helpers.h"

/* ---- text diagrams of known positions ---- */

struct known {
	const char *file;      /* tests/data/render/FILE.txt */
	const char *game;
	const char *variant;
	const char *first;     /* NULL: the game's first side */
	const char *moves;     /* comma-separated, as kifu-perft --after takes them */
};

static const struct known known[] = {
	{ "splay-schmidt-start", "splay-schmidt", "standard", NULL, "" },
	{ "splay-schmidt-final", "splay-schmidt", "standard", NULL,
	  "g4,h4,g6,i7,e2,d3,h7,f7,j2,b2,e9,c2,e3,i3,d4,f7,e2,h5,e5,i7,e3,f5,b4,g7,e5,h3,f2,"
	  "e4,g6,g8,g9,j5,e8,c6,c7,i3,j6,d3,e9,f5,h8,i7,g2,i5,b5,j5,h2,d8,d4,f7,c7,h5,c5,c2,"
	  "b4,f10,j6,c6,j3,d8,b4,f10,e2,h3,f2,b2,g9,f10,g9,j4,j3,pass,h2,pass,j2" },
	{ "splay-kisenwether-start", "splay-kisenwether", "standard", NULL, "" },
	{ "splay-kisenwether-mid", "splay-kisenwether", "standard", NULL,
	  "d7>se,e2>nw,d6-d7,d3-c3,e6>e,c4-c3,e7>w,g3-f4,d7-d6,b3-a2,f6-e5,e3-d2,g7>sw,c3-d4,"
	  "b7-a8,d4>ne,c7-b6,e5>s,c6-c5,f4-f5,c5-b4,f5>sw,e3-f2,c2-b3,e2-f3,b3>se,g6-h7,c2-d2,"
	  "f3>w,d3>ne,f2-e1,b2>n,b6>e,a2-b1,e3-e4,b4-b3,e4>n,g2-g3,c6-d6,b3>n,d6>se,d2>e,f7>e,"
	  "d1-c2,f4-g3,f2-g1,a8-b7,e6-d7,g7-f8,h2-g3,b5-c5,g3>w,h7>s,b3-c3,e3-d2,e2-e3,d2-e3,"
	  "g1-h2,e5>nw,b6-b5" },
	{ "splinter-knockout-start", "splinter", "knockout", NULL, "" },
	{ "splinter-knockout-mid", "splinter", "knockout", NULL,
	  "g7-h8,h7-i7,f6-f7,d3-c4,d4-c3,c6-b5,b2-b1,f3-e4,g3-h3,h5-i4,f7-e6,e4-f4" },
	{ "splinter-survival-start", "splinter", "survival", NULL, "" },
	{ "splinter-survival-mid", "splinter", "survival", NULL,
	  "h4-g4,f4-f5,c7-d8,d7-e8,c5-b6,e8-f8,e3-f2,g6-h5,g3-h4,c6-d5,d6-d5,i4-h5,c3-b2,"
	  "e6-d6,f3-g4,h7-i8,e7-f7,g6-h7,f7-g7,d2-c2" },
	{ "splinter-quad-start", "splinter-quad", "standard", NULL, "" },
	{ "splinter-quad-mid", "splinter-quad", "standard", NULL,
	  "e7-d6,c8-d8,i8-h7,h5-i4,c7-d6,d3-e4,e8-e7,d5-e5,d6-e6,h6-g5,e7-f6,h7-h8,h5-g6,"
	  "c6-c5,g3-g2,f3-f4,e6-d6,c5-d4,i3-h4,h8-g9,g6-h7,e4-e5,h4-h5,e6-d6,h2-h3,d8-d7,"
	  "f7-g6,c1-b2,f2-e3,h9-g8" },
	{ "glaisher-standard-start", "glaisher", "standard", NULL, "" },
	{ "glaisher-standard-mid", "glaisher", "standard", NULL,
	  "h1>ne 5+1 b5,b6>se 3+2+1 g5,f8>w 5+1 d5,i4>ne 5+1 b1,c4>sw 4+1 h4,d8>sw 4+3 a5,"
	  "f3>ne 3+2 a4,h5>w 3+2 b4" },
	{ "glaisher-advanced-setup", "glaisher", "advanced", NULL, "e7,a5,h1,i4" },
	{ "glaisher-advanced-final", "glaisher", "advanced", NULL,
	  "e7,a5,h1,i4,g6,b6,e7>w 5+1 d6,b6>sw 5+1 f8,g6>ne 3+2+1 g5,a5>se 4+2 d2,"
	  "e2>e 4+1 a1,e9>sw 3+1 c3,e6>nw 3+2 e2,i4>ne 3+2+1 a5,b3>e 2+1 d4,g4>nw 4+1 f6,"
	  "d8>w 2+1 g7,c2>sw 3+1 e1,d6>w 2+1 c1,f7>w 3+1 a3,d4>w 2+1 h4,f4>ne 3+1 g4,"
	  "d2>e 3+1 b6,f1>e 2+1 c2,h1>ne 4+2 f1" },
};

static struct kifu_pos *position(const char *game, const char *variant, const char *first,
				 const char *moves)
{
	const struct kifu_game *g = kifu_game_find(game);
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	int v, f;

	assert_non_null(g);
	v = kifu_game_variant_index(g, variant);
	f = first ? kifu_game_side_index(g, first) : 0;
	assert_true(v >= 0 && f >= 0);
	assert_int_equal(kifu_pos_new(&pos, g, v, f, &err), 0);
	if (moves[0] && kifu_pos_play_list(pos, moves, &err) != 0)
		fail_msg("%s: cannot play the moves: %s", game, err.message);
	return pos;
}

static void test_text_diagrams(void **unused)
{
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct known *k = &known[i];
		struct kifu_pos *pos = position(k->game, k->variant, k->first, k->moves);
		struct kifu_buf b = KIFU_BUF_INIT;
		char path[512];
		char *want;

		snprintf(path, sizeof(path), "%s/tests/data/render/%s.txt", KIFU_SOURCE_DIR, k->file);
		want = th_read_file(path, NULL);
		if (!want)
			fail_msg("cannot read '%s'", path);
		assert_int_equal(pos->game->render_text(&b, pos->state), 0);
		if (strcmp(b.data, want) != 0)
			fail_msg("%s: the diagram differs from '%s':\n%s", k->file, path, b.data);
		free(want);
		kifu_buf_release(&b);
		kifu_pos_free(pos);
	}
}

/* ---- a small XML checker ---- */

#define MAX_DEPTH 64
#define MAX_NAME 32

/*
 * Checks that doc is one well-formed element tree as far as a picture
 * needs: tags balance, attributes are quoted, '&' only starts one of the
 * entities we write, no '<' inside text or values, one root element. A
 * leading XML declaration is allowed. Returns NULL or what is wrong.
 */
static const char *xml_check(const char *doc, char *root)
{
	char stack[MAX_DEPTH][MAX_NAME];
	const char *p = doc;
	int depth = 0, roots = 0;

	if (!strncmp(p, "<?xml", 5)) {
		p = strstr(p, "?>");
		if (!p)
			return "unterminated xml declaration";
		p += 2;
	}
	while (*p) {
		if (*p == '&') {
			static const char *const ents[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
			size_t e;

			for (e = 0; e < 5 && strncmp(p, ents[e], strlen(ents[e])); e++)
				;
			if (e == 5)
				return "a bare '&' in text";
			p++;
			continue;
		}
		if (*p == '>')
			return "a bare '>' in text";
		if (*p != '<') {
			if (depth == 0 && *p != '\n' && *p != ' ')
				return "text outside the root element";
			p++;
			continue;
		}
		p++;
		if (*p == '/') {
			size_t n = 0;

			p++;
			while (p[n] && p[n] != '>')
				n++;
			if (!p[n])
				return "unterminated end tag";
			if (depth == 0)
				return "an end tag without a start tag";
			depth--;
			if (strlen(stack[depth]) != n || strncmp(stack[depth], p, n))
				return "an end tag does not match its start tag";
			p += n + 1;
			continue;
		}
		{
			char name[MAX_NAME];
			size_t n = 0;

			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '-' ||
			       (n && *p >= '0' && *p <= '9')) {
				if (n + 1 >= sizeof(name))
					return "a tag name too long";
				name[n++] = *p++;
			}
			name[n] = '\0';
			if (!n)
				return "a '<' that starts no tag";
			/* attributes: name="value" */
			for (;;) {
				while (*p == ' ' || *p == '\n')
					p++;
				if (*p == '>' || (*p == '/' && p[1] == '>'))
					break;
				if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
					return "a malformed attribute";
				while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				       (*p >= '0' && *p <= '9') || *p == '-' || *p == ':')
					p++;
				if (*p++ != '=')
					return "an attribute without a value";
				if (*p != '"')
					return "an attribute value without double quotes";
				for (p++; *p && *p != '"'; p++)
					if (*p == '<')
						return "a '<' inside an attribute value";
				if (!*p)
					return "an unterminated attribute value";
				p++;
			}
			if (depth == 0) {
				roots++;
				if (roots > 1)
					return "more than one root element";
				snprintf(root, MAX_NAME, "%s", name);
			}
			if (*p == '/') {
				p += 2;
				continue;
			}
			p++;
			if (depth == MAX_DEPTH)
				return "elements nested too deep";
			snprintf(stack[depth++], MAX_NAME, "%s", name);
		}
	}
	if (depth)
		return "an element is not closed";
	if (!roots)
		return "no element";
	return NULL;
}

static void test_xml_checker(void **unused)
{
	char root[MAX_NAME];

	(void)unused;
	assert_null(xml_check("<svg a=\"1\"><g><text>x &amp; y</text></g><rect/></svg>\n", root));
	assert_string_equal(root, "svg");
	assert_non_null(xml_check("<svg><g></svg>", root));
	assert_non_null(xml_check("<svg><g></g>", root));
	assert_non_null(xml_check("<svg a=1></svg>", root));
	assert_non_null(xml_check("<svg>a & b</svg>", root));
	assert_non_null(xml_check("<svg></svg><svg></svg>", root));
	assert_non_null(xml_check("<svg a=\"<\"></svg>", root));
}

/* ---- the picture against the text diagram ---- */

#define MAX_CELLS 128

struct cell {
	char name[8];
	char content[16];
};

struct cells {
	int n;
	struct cell v[MAX_CELLS];
};

static void cells_add(struct cells *c, const char *name, size_t nlen, const char *content,
		      size_t clen)
{
	assert_true(c->n < MAX_CELLS);
	assert_true(nlen < sizeof(c->v[0].name) && clen < sizeof(c->v[0].content));
	memcpy(c->v[c->n].name, name, nlen);
	c->v[c->n].name[nlen] = '\0';
	memcpy(c->v[c->n].content, content, clen);
	c->v[c->n].content[clen] = '\0';
	c->n++;
}

static int cmp_cell(const void *a, const void *b)
{
	return strcmp(((const struct cell *)a)->name, ((const struct cell *)b)->name);
}

/* Splits a line into white-space separated tokens (at most max); returns their count. */
static int tokens(const char *line, size_t len, const char **tok, size_t *tlen, int max)
{
	size_t i = 0;
	int n = 0;

	while (i < len && n < max) {
		size_t start;

		while (i < len && line[i] == ' ')
			i++;
		if (i == len)
			break;
		start = i;

		while (i < len && line[i] != ' ')
			i++;
		tok[n] = line + start;
		tlen[n] = i - start;
		n++;
	}
	return n;
}

static int is_range(const char *t, size_t n)
{
	/* "a1-a6": the row's cell range closing a hex row */
	return n >= 5 && t[0] >= 'a' && t[0] <= 'z' && t[1] == '1' && t[2] == '-' &&
	       t[3] == t[0];
}

/*
 * The non-empty cells of a text diagram. Hex rows are lines "r TOKENS r1-rN"
 * (cells numbered from 1 in order); square ranks are lines "R TOKENS [R]"
 * with one token per file from a.
 */
static void text_cells(const char *text, struct cells *out)
{
	const char *line = text;

	out->n = 0;
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *tok[24];
		size_t tlen[24], len = end ? (size_t)(end - line) : strlen(line);
		int n = tokens(line, len, tok, tlen, 24), i, first = 1, last = n - 1;
		int hex = n >= 2 && tlen[0] == 1 && tok[0][0] >= 'a' && tok[0][0] <= 'z' &&
			  is_range(tok[n - 1], tlen[n - 1]);
		int square = n >= 2 && strspn(tok[0], "0123456789") == tlen[0];

		if (square && tlen[n - 1] == tlen[0] && !strncmp(tok[0], tok[n - 1], tlen[0]))
			last = n - 2;
		else if (square)
			last = n - 1;
		if (hex)
			last = n - 2;
		for (i = first; (hex || square) && i <= last; i++) {
			char name[16];

			if (tlen[i] == 1 && tok[i][0] == '.')
				continue;
			if (hex)
				snprintf(name, sizeof(name), "%c%d", tok[0][0], i);
			else
				snprintf(name, sizeof(name), "%c%.*s", 'a' + i - 1, (int)tlen[0], tok[0]);
			cells_add(out, name, strlen(name), tok[i], tlen[i]);
		}
		if (!end)
			break;
		line = end + 1;
	}
	qsort(out->v, (size_t)out->n, sizeof(out->v[0]), cmp_cell);
}

/* Copies the value of attribute attr="..." found at or after p (before limit) into out. */
static const char *attr_value(const char *p, const char *attr, char *out, size_t size)
{
	char key[32];
	const char *at, *end;

	snprintf(key, sizeof(key), "%s=\"", attr);
	at = strstr(p, key);
	if (!at)
		return NULL;
	at += strlen(key);
	end = strchr(at, '"');
	assert_non_null(end);
	assert_true((size_t)(end - at) < size);
	memcpy(out, at, (size_t)(end - at));
	out[end - at] = '\0';
	return end;
}

/* The data-cell/data-content pairs of a picture; every data-cell has its content. */
static void svg_cells(const char *svg, struct cells *out)
{
	const char *p = svg;

	out->n = 0;
	while ((p = strstr(p, "data-cell=\"")) != NULL) {
		char name[8], content[16];
		const char *gt = strchr(p, '>');

		assert_non_null(attr_value(p, "data-cell", name, sizeof(name)));
		p = attr_value(p, "data-content", content, sizeof(content));
		if (!p || p > gt)
			fail_msg("data-cell=\"%s\" has no data-content in the same element", name);
		cells_add(out, name, strlen(name), content, strlen(content));
	}
	qsort(out->v, (size_t)out->n, sizeof(out->v[0]), cmp_cell);
}

static void check_picture(const struct kifu_game *g, const void *state, const char *where)
{
	struct kifu_buf svg = KIFU_BUF_INIT, text = KIFU_BUF_INIT;
	struct cells a, b;
	struct kifu_outcome oc;
	char root[MAX_NAME], want[80];
	const char *why;
	int i;

	assert_int_equal(g->render_svg(&svg, state), 0);
	assert_int_equal(g->render_text(&text, state), 0);
	why = xml_check(svg.data, root);
	if (why)
		fail_msg("%s: the picture is not well-formed: %s", where, why);
	assert_string_equal(root, "svg");
	assert_true(!strncmp(svg.data, "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 40));
	assert_non_null(strstr(svg.data, " viewBox=\"0 0 "));
	/* the caption says who is to move, or how the game ended */
	g->outcome(state, &oc);
	if (oc.status == KIFU_WIN)
		snprintf(want, sizeof(want), ">game over: %s wins<", g->sides[oc.winner]);
	else if (oc.status == KIFU_DRAW)
		snprintf(want, sizeof(want), ">game over: draw<");
	else
		snprintf(want, sizeof(want), ">to move: %s<", g->sides[g->side_to_move(state)]);
	if (!strstr(svg.data, want))
		fail_msg("%s: the caption lacks '%s'", where, want);
	/* every cell shown is the cell of the diagram, and the other way round */
	text_cells(text.data, &a);
	svg_cells(svg.data, &b);
	if (a.n != b.n)
		fail_msg("%s: %d cells in the diagram, %d in the picture\n%s", where, a.n, b.n,
			 text.data);
	for (i = 0; i < a.n; i++)
		if (strcmp(a.v[i].name, b.v[i].name) || strcmp(a.v[i].content, b.v[i].content))
			fail_msg("%s: the diagram has %s=%s, the picture %s=%s", where, a.v[i].name,
				 a.v[i].content, b.v[i].name, b.v[i].content);
	kifu_buf_release(&svg);
	kifu_buf_release(&text);
}

static void test_text_cells_reader(void **unused)
{
	struct cells c;

	(void)unused;
	/* the reader itself, on the two diagram shapes */
	text_cells("a    .  w1   B   .   a1-a4\n(legend)\nto move: white\n", &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].name, "a2");
	assert_string_equal(c.v[0].content, "w1");
	assert_string_equal(c.v[1].name, "a3");
	text_cells("    a  b  c\n10  .  Bo .  10\n 9 Ws . .\n    a  b  c\n", &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].name, "a9");
	assert_string_equal(c.v[0].content, "Ws");
	assert_string_equal(c.v[1].name, "b10");
}

#define PLAYOUTS 4
#define MAX_PLIES 400

/* Plies at which the picture is checked (and always the last one). */
static int checked_ply(int ply)
{
	return ply < 3 || ply % 17 == 0;
}

static void test_pictures(void **unused)
{
	int gi;

	(void)unused;
	for (gi = 0; kifu_games[gi]; gi++) {
		const struct kifu_game *g = kifu_games[gi];
		int v, nv = kifu_game_variant_count(g);
		kifu_move *moves = malloc(g->max_moves * sizeof(*moves));

		assert_non_null(moves);
		for (v = 0; v < nv; v++) {
			struct th_rng r = { UINT64_C(0x5eed) + (uint64_t)gi * 100 + (uint64_t)v };
			int k;

			for (k = 0; k < PLAYOUTS; k++) {
				struct kifu_pos *pos = NULL;
				struct kifu_error err;
				char where[128];
				int ply, first = 0;

				if (g->flags & KIFU_GAME_CHOOSE_FIRST)
					first = (int)(th_rng_next(&r) % (uint64_t)g->nsides);
				assert_int_equal(kifu_pos_new(&pos, g, v, first, &err), 0);
				for (ply = 0; ply < MAX_PLIES; ply++) {
					size_t n = g->legal_moves(pos->state, moves);

					snprintf(where, sizeof(where), "%s %s playout %d ply %d", g->name,
						 g->variants[v], k, ply);
					if (checked_ply(ply) || n == 0)
						check_picture(g, pos->state, where);
					if (n == 0)
						break;
					g->apply(pos->state, moves[th_rng_next(&r) % n]);
				}
				kifu_pos_free(pos);
			}
		}
		free(moves);
	}
}

/* render_svg appends exactly one picture, ending with its closing tag. */
static void test_one_picture(void **unused)
{
	int gi;

	(void)unused;
	for (gi = 0; kifu_games[gi]; gi++) {
		const struct kifu_game *g = kifu_games[gi];
		struct kifu_pos *pos = NULL;
		struct kifu_error err;
		struct kifu_buf b = KIFU_BUF_INIT;

		assert_int_equal(kifu_pos_new(&pos, g, 0, 0, &err), 0);
		assert_int_equal(g->render_svg(&b, pos->state), 0);
		assert_non_null(strstr(b.data, "</svg>\n"));
		assert_string_equal(strstr(b.data, "</svg>\n"), "</svg>\n");
		kifu_buf_release(&b);
		kifu_pos_free(pos);
	}
}

/* Figures' keys in words for pictures and pages; the key itself stays for json. */
static void test_figure_labels(void **unused)
{
	const struct kifu_game *kis = kifu_game_find("splay-kisenwether");
	const struct kifu_game *gl = kifu_game_find("glaisher");
	char out[48], small[8];

	(void)unused;
	assert_non_null(kis);
	assert_non_null(gl);
	kifu_game_figure_label(out, sizeof(out), kis, "captures_white");
	assert_string_equal(out, "white captures");
	kifu_game_figure_label(out, sizeof(out), kis, "score");
	assert_string_equal(out, "score");
	kifu_game_figure_label(out, sizeof(out), gl, "pieces_yellow");
	assert_string_equal(out, "yellow pieces");
	/* another game's side is no side here, and a key that is only a side stays */
	kifu_game_figure_label(out, sizeof(out), gl, "territory_white");
	assert_string_equal(out, "territory white");
	kifu_game_figure_label(out, sizeof(out), gl, "red");
	assert_string_equal(out, "red");
	kifu_game_figure_label(small, sizeof(small), gl, "stacks_red");
	assert_string_equal(small, "red sta");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_diagrams),
		cmocka_unit_test(test_xml_checker),
		cmocka_unit_test(test_text_cells_reader),
		cmocka_unit_test(test_pictures),
		cmocka_unit_test(test_one_picture),
		cmocka_unit_test(test_figure_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
