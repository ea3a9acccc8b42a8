/*
 * The notation and the pictures of glaisher (the rules are in glaisher.c):
 * moves written and parsed as spec/games/glaisher.md spells them ("a2>e
 * 4+2 c3", a bare cell in the set-up turns), with a message naming what is
 * wrong in a move that does not parse or is not legal; the figures reports
 * give; the text diagram and the SVG picture of a position.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/board.h"
#include "games/glaisher.h"
#include "games/svg.h"

void kifu_glaisher_format_move_(const void *state, kifu_move m, char *buf)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	char *p = buf;
	int c = M_CELL(m);

	(void)state;
	if (m & M_SETUP) {
		kifu_hex_cell_name_(geo->hex, c, buf);
	} else {
		unsigned mask = M_MASK(m);
		int k, sep = 0;

		kifu_hex_cell_name_(geo->hex, M_ORIGIN(m), p);
		p += strlen(p);
		*p++ = '>';
		strcpy(p, kifu_hex_dir_name_(M_DIR(m)));
		p += strlen(p);
		*p++ = ' ';
		for (k = MAX_PART; k >= 1; k--) {
			if (!(mask & (1u << (k - 1))))
				continue;
			if (sep)
				*p++ = '+';
			*p++ = (char)('0' + k);
			sep = 1;
		}
		*p = '\0';
		if (c != NO_CELL) {
			*p++ = ' ';
			kifu_hex_cell_name_(geo->hex, c, p);
		}
	}
}

/* Whether s[0..n) has the shape of a cell name: a letter then digits. */
static int cell_shaped(const char *s, size_t n)
{
	size_t i;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

#define PARSE_FAIL(...) kifu_error_set(err, KIFU_EPARSE, __VA_ARGS__)
#define ILLEGAL(...) kifu_error_set(err, KIFU_EILLEGAL, __VA_ARGS__)

/*
 * kifu_hex_cell_parse_() of a token of the normalised text (no upper case
 * there): a row letter, then a number from 1 without a leading zero, both
 * on the board.
 */
static int hex_cell(const char *s, size_t n)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	const struct kifu_hex *h = geo->hex;
	int row, num;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
		return -1;
	row = s[0] - 'a';
	num = s[1] - '0';
	if (n == 3) {
		if (s[2] < '0' || s[2] > '9')
			return -1;
		num = num * 10 + (s[2] - '0');
	}
	if (row >= h->nrows || num > h->rowlen[row])
		return -1;
	return h->rowstart[row] + num - 1;
}

/* kifu_hex_dir_parse_() of a word of the normalised text: e, w, ne, nw, se, sw. */
static int hex_dir(const char *s, size_t n)
{
	if (n == 1)
		return s[0] == 'e' ? KIFU_HEX_E : s[0] == 'w' ? KIFU_HEX_W : -1;
	if (n != 2 || (s[0] != 'n' && s[0] != 's') || (s[1] != 'e' && s[1] != 'w'))
		return -1;
	if (s[0] == 'n')
		return s[1] == 'e' ? KIFU_HEX_NE : KIFU_HEX_NW;
	return s[1] == 'e' ? KIFU_HEX_SE : KIFU_HEX_SW;
}

/* Parses a cell token; -1 with the error set when it is not one. */
static int parse_cell(const char *tok, size_t n, const char *trimmed, const char *what,
		      struct kifu_error *err)
{
	int c = hex_cell(tok, n);

	if (c >= 0)
		return c;
	if (cell_shaped(tok, n))
		PARSE_FAIL("unparsable move '%s': unknown cell '%.*s'", trimmed, (int)n, tok);
	else
		PARSE_FAIL("unparsable move '%s': expected %s, got '%.*s'", trimmed, what, (int)n, tok);
	return -1;
}

/*
 * The written parts of a separation, kept as text too: a part may have more
 * digits than any integer holds, and without leading zeros two parts are
 * equal exactly when their digits are. A move text of 95 bytes holds at
 * most 48 parts.
 */
#define PARTS_MAX 48

struct parts {
	int count;
	const char *text[PARTS_MAX];
	int len[PARTS_MAX];
	int repeat;        /* 1 + the index of a part written twice, or 0 */
	unsigned mask;     /* the parts of 1..8 */
	int sum;           /* their sum, meaningful once every part is at most 8 */
};

/* Parses "3+2+1" (any order); returns 0 or the error. */
static int parse_parts(const char *tok, size_t n, const char *trimmed, struct parts *p,
		       struct kifu_error *err)
{
	size_t i = 0;
	int k;

	/* text[] and len[] are filled up to count */
	p->count = 0;
	p->repeat = 0;
	p->mask = 0;
	p->sum = 0;
	for (;;) {
		size_t j = i, digits = i;
		int len;

		while (j < n && tok[j] != '+')
			j++;
		len = (int)(j - i);
		if (len == 0)
			return PARSE_FAIL("unparsable move '%s': empty part in '%.*s'", trimmed,
					  (int)n, tok);
		while (digits < j && tok[digits] >= '0' && tok[digits] <= '9')
			digits++;
		if (digits < j)
			return PARSE_FAIL("unparsable move '%s': part '%.*s' is not a number",
					  trimmed, len, tok + i);
		if (tok[i] == '0' && len > 1)
			return PARSE_FAIL("unparsable move '%s': leading zero in part '%.*s'",
					  trimmed, len, tok + i);
		if (tok[i] == '0')
			return PARSE_FAIL("unparsable move '%s': a part of 0 is not a sub-stack",
					  trimmed);
		if (p->count == PARTS_MAX)
			return PARSE_FAIL("unparsable move '%s': too many parts", trimmed);
		for (k = 0; k < p->count && !p->repeat; k++)
			if (p->len[k] == len && !memcmp(p->text[k], tok + i, (size_t)len))
				p->repeat = k + 1;
		p->text[p->count] = tok + i;
		p->len[p->count] = len;
		p->count++;
		if (len == 1 && tok[i] - '0' <= MAX_PART) {
			p->mask |= 1u << (tok[i] - '1');
			p->sum += tok[i] - '0';
		}
		if (j == n)
			return 0;
		i = j + 1;
	}
}

/* The first written part flying farther than `reach` cells, or -1. */
static int part_off_board(const struct parts *p, int reach)
{
	int k;

	for (k = 0; k < p->count; k++)
		if (p->len[k] > 1 || p->text[k][0] - '0' > reach)
			return k;
	return -1;
}

static int check_setup(const struct kifu_glaisher_state_ *s, int c, const char *trimmed,
		       struct kifu_error *err)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	char name[8];

	kifu_hex_cell_name_(geo->hex, c, name);
	if (!s->setup)
		return ILLEGAL("illegal move '%s': a bare cell is a move only in the set-up turns of advanced",
			       trimmed);
	if ((s->occ[0] | s->occ[1]) & BIT(c))
		return ILLEGAL("illegal move '%s': '%s' is not empty", trimmed, name);
	return 0;
}

/* Checks a parsed separation against the position; fills *out when it is legal. */
static int check_separation(const struct kifu_glaisher_state_ *s, int o, int d,
			    const struct parts *p, int cell, const char *trimmed, kifu_move *out,
			    struct kifu_error *err)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	int col = s->side, k;
	uint64_t theirs = s->occ[!col], dm, nm, all;
	char oname[8], name[8];
	unsigned blk;

	if (s->setup)
		return ILLEGAL("illegal move '%s': the set-up turns are not over: place a 6-stack on an empty cell",
			       trimmed);
	/* the origin's name is only written in messages */
	if (!(s->occ[col] & BIT(o))) {
		kifu_hex_cell_name_(geo->hex, o, oname);
		return ILLEGAL("illegal move '%s': no stack of yours on '%s'", trimmed, oname);
	}
	if (p->count < 2)
		return ILLEGAL("illegal move '%s': a separation needs two or more parts", trimmed);
	if (p->repeat)
		return ILLEGAL("illegal move '%s': parts must differ, %.*s is written twice", trimmed,
			       p->len[p->repeat - 1], p->text[p->repeat - 1]);
	k = part_off_board(p, geo->reach[o][d]);
	if (k >= 0)
		return ILLEGAL("illegal move '%s': the part of %.*s would leave the board", trimmed,
			       p->len[k], p->text[k]);
	if ((uint32_t)p->sum != s->h[o]) {
		kifu_hex_cell_name_(geo->hex, o, oname);
		return ILLEGAL("illegal move '%s': the parts add up to %d, the stack on '%s' is %lu high",
			       trimmed, p->sum, oname, (unsigned long)s->h[o]);
	}
	blk = kifu_glaisher_blocked_parts_(s, o, d, theirs) & p->mask;
	if (blk) {
		int t;

		k = __builtin_ctz(blk) + 1;
		t = geo->dest[o][d][k];
		kifu_hex_cell_name_(geo->hex, t, name);
		return ILLEGAL("illegal move '%s': the %s stack of %lu on '%s' is taller than the part of %d landing there",
			       trimmed, kifu_game_glaisher_.sides[!col], (unsigned long)s->h[t], name, k);
	}
	dm = kifu_glaisher_dest_mask_(o, d, p->mask);
	nm = (s->occ[col] & ~BIT(o)) | dm;
	all = ((s->occ[0] | s->occ[1]) & ~BIT(o)) | dm;
	if (kifu_glaisher_connects_(nm, dm)) {
		if (cell >= 0)
			return ILLEGAL("illegal move '%s': the separation connects, so the game ends before the placement",
				       trimmed);
		*out = MKSEP(o, d, p->mask, NO_CELL);
		return 0;
	}
	if (cell < 0)
		return ILLEGAL("illegal move '%s': the move must place a piece on an empty cell",
			       trimmed);
	if (all & BIT(cell)) {
		kifu_hex_cell_name_(geo->hex, cell, name);
		if (dm & BIT(cell) && !((s->occ[0] | s->occ[1]) & BIT(cell)))
			return ILLEGAL("illegal move '%s': a part lands on '%s'", trimmed, name);
		return ILLEGAL("illegal move '%s': '%s' is not empty", trimmed, name);
	}
	*out = MKSEP(o, d, p->mask, cell);
	return 0;
}

/*
 * kifu_move_text_norm_() (spaces allowed) for the usual spelling of a move,
 * lower case with single spaces between its words ("a2>e 4+2 c3"), which
 * normalises to itself: copied as it is. Anything else goes through
 * kifu_move_text_norm_().
 */
static int norm_text(const char *text, char *norm, char *trimmed, size_t size)
{
	size_t n;

	for (n = 0; text[n]; n++) {
		char c = text[n];

		if (n + 1 >= size)
			break;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '>' || c == '+')
			continue;
		if (c != ' ' || !n || text[n - 1] == ' ' || !text[n + 1])
			break;
	}
	if (text[n])
		return kifu_move_text_norm_(text, 1, norm, trimmed, size);
	memcpy(norm, text, n + 1);
	memcpy(trimmed, text, n + 1);
	return (int)n;
}

int kifu_glaisher_parse_move_(const void *state, const char *text, kifu_move *out,
			      struct kifu_error *err)
{
	const struct kifu_glaisher_state_ *s = state;
	char norm[KIFU_MOVE_TEXT_MAX], trimmed[KIFU_MOVE_TEXT_MAX];
	const char *tok[4] = { NULL };
	size_t tlen[4] = { 0 };
	const char *gt, *p;
	struct parts parts;
	int len, ntok = 0, o, d, cell = -1, ret;

	len = norm_text(text, norm, trimmed, sizeof(norm));
	if (len == -2)
		return PARSE_FAIL("unparsable move '%s': only spaces may separate its parts", trimmed);
	if (len < 0)
		return PARSE_FAIL("unparsable move '%s': too long", trimmed);
	if (len == 0)
		return PARSE_FAIL("unparsable move '': empty move");
	for (p = norm; *p && ntok < 4; ntok++) {
		const char *e = strchr(p, ' ');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		tok[ntok] = p;
		tlen[ntok] = n;
		p += n;
		if (*p == ' ')
			p++;
	}
	if (*p || ntok > 3)
		return PARSE_FAIL("unparsable move '%s': expected ORIGIN>DIR PARTS [CELL]", trimmed);
	gt = memchr(tok[0], '>', tlen[0]);
	if (ntok == 1 && !gt) {
		int c = parse_cell(tok[0], tlen[0], trimmed, "ORIGIN>DIR PARTS [CELL] or a cell", err);

		if (c < 0)
			return KIFU_EPARSE;
		if (kifu_glaisher_game_over_(s))
			return ILLEGAL("illegal move '%s': the game is over", trimmed);
		ret = check_setup(s, c, trimmed, err);
		if (ret == 0)
			*out = M_SETUP | (kifu_move)c << 17;
		return ret;
	}
	if (!gt)
		return PARSE_FAIL("unparsable move '%s': expected ORIGIN>DIR, got '%.*s'", trimmed,
				  (int)tlen[0], tok[0]);
	if (ntok == 1)
		return PARSE_FAIL("unparsable move '%s': the parts are missing", trimmed);
	o = parse_cell(tok[0], (size_t)(gt - tok[0]), trimmed, "an origin cell", err);
	if (o < 0)
		return KIFU_EPARSE;
	d = hex_dir(gt + 1, tlen[0] - (size_t)(gt - tok[0]) - 1);
	if (d < 0)
		return PARSE_FAIL("unparsable move '%s': unknown direction '%.*s'", trimmed,
				  (int)(tlen[0] - (size_t)(gt - tok[0]) - 1), gt + 1);
	ret = parse_parts(tok[1], tlen[1], trimmed, &parts, err);
	if (ret < 0)
		return ret;
	if (ntok == 3) {
		cell = parse_cell(tok[2], tlen[2], trimmed, "a cell", err);
		if (cell < 0)
			return KIFU_EPARSE;
	}
	/*
	 * A legal separation is one the mover has, so the game is not over
	 * then unless a connection ended it: the scan of every separation
	 * that tells whether the mover has one is needed only to refuse.
	 */
	if (!s->winner) {
		ret = check_separation(s, o, d, &parts, cell, trimmed, out, err);
		if (ret == 0 || !kifu_glaisher_game_over_(s))
			return ret;
	}
	return ILLEGAL("illegal move '%s': the game is over", trimmed);
}

static void put_int_figure(struct kifu_figure *f, const char *key, long num)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->type = KIFU_FIG_INT;
	f->num = num;
}

static long pieces_of(const struct kifu_glaisher_state_ *s, int col)
{
	uint64_t b;
	long n = 0;

	for (b = s->occ[col]; b; b &= b - 1)
		n += (long)s->h[__builtin_ctzll(b)];
	return n;
}

int kifu_glaisher_figures_(const void *state, struct kifu_figure *out)
{
	const struct kifu_glaisher_state_ *s = state;

	put_int_figure(&out[0], "stacks_red", __builtin_popcountll(s->occ[0]));
	put_int_figure(&out[1], "stacks_yellow", __builtin_popcountll(s->occ[1]));
	put_int_figure(&out[2], "pieces_red", pieces_of(s, 0));
	put_int_figure(&out[3], "pieces_yellow", pieces_of(s, 1));
	return 4;
}

int kifu_glaisher_ncells_(const void *state)
{
	(void)state;
	return NC;
}

void kifu_glaisher_cell_name_(const void *state, int cell, char *buf)
{
	(void)state;
	kifu_hex_cell_name_(kifu_glaisher_geo_()->hex, cell, buf);
}

int kifu_glaisher_cell_token_(const void *state, int cell, char *buf)
{
	const struct kifu_glaisher_state_ *s = state;
	int side;

	if (!s->h[cell]) {
		strcpy(buf, ".");
		return -1;
	}
	side = kifu_glaisher_colour_at_(s, cell) ? 1 : 0;
	snprintf(buf, KIFU_CELL_TOKEN_MAX, "%c%lu", side ? 'y' : 'r', (unsigned long)s->h[cell]);
	return side;
}

/* r or y and a height from 1 (merges make heights unbounded). */
int kifu_glaisher_token_side_(const void *state, const char *text)
{
	size_t n = strlen(text);

	(void)state;
	if (n < 2 || n > 10 || (text[0] != 'r' && text[0] != 'y') || text[1] == '0' ||
	    strspn(text + 1, "0123456789") != n - 1)
		return -1;
	return text[0] == 'y';
}

int kifu_glaisher_map_cell_(const void *state, int cell, int k)
{
	(void)state;
	return kifu_glaisher_geo_()->hex->sym[k][cell];
}

void kifu_glaisher_side_cells_(const void *state, uint64_t *out)
{
	const struct kifu_glaisher_state_ *s = state;

	memset(out, 0, sizeof(*out) * 2 * KIFU_CELL_WORDS);
	out[0] = s->occ[0];
	out[KIFU_CELL_WORDS] = s->occ[1];
}

const char *kifu_glaisher_tokens_help_(const void *state)
{
	(void)state;
	return "r1, r2, ... and y1, y2, ... (red and yellow stacks of that height)";
}

int kifu_glaisher_render_text_(struct kifu_buf *out, const void *state)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	const struct kifu_glaisher_state_ *s = state;
	const struct kifu_hex *h;
	struct kifu_outcome oc;
	int row, i;

	h = geo->hex;
	for (row = 0; row < h->nrows; row++) {
		int indent = 2 * (row < 4 ? 4 - row : row - 4);

		kifu_buf_printf(out, "%c %*s", 'a' + row, indent, "");
		for (i = 0; i < h->rowlen[row]; i++) {
			int c = h->rowstart[row] + i;
			char tok[16];

			if (s->h[c])
				snprintf(tok, sizeof(tok), "%c%lu",
					 kifu_glaisher_colour_at_(s, c) ? 'y' : 'r',
					 (unsigned long)s->h[c]);
			else
				strcpy(tok, ".");
			kifu_buf_printf(out, "%4s", tok);
		}
		kifu_buf_printf(out, "%*s   %c1-%c%d\n", indent, "", 'a' + row, 'a' + row,
				h->rowlen[row]);
	}
	kifu_buf_puts(out, "(rN/yN: red/yellow stack of height N)\n");
	kifu_game_glaisher_.outcome(s, &oc);
	if (oc.status == KIFU_WIN)
		kifu_buf_printf(out, "game over: %s wins (%s)", kifu_game_glaisher_.sides[oc.winner],
				s->winner ? "connection" : "no separation left");
	else if (s->setup)
		kifu_buf_printf(out, "to move: %s (set-up, %d placements due)", kifu_game_glaisher_.sides[s->side],
				s->setup);
	else
		kifu_buf_printf(out, "to move: %s", kifu_game_glaisher_.sides[s->side]);
	return kifu_buf_printf(out, "; stacks_red %d; stacks_yellow %d; pieces_red %ld; pieces_yellow %ld\n",
			       __builtin_popcountll(s->occ[0]), __builtin_popcountll(s->occ[1]),
			       pieces_of(s, 0), pieces_of(s, 1));
}

/*
 * Stacks are discs in their colour, one rim showing per piece up to five
 * (taller stacks would not fit their cell), with the exact height written
 * on top.
 */
static int gl_render(struct kifu_buf *out, const void *state, const int *marks, int nmarks)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	const struct kifu_glaisher_state_ *s = state;
	struct kifu_svg_caption cap;
	struct kifu_svg_hex l;
	int c;

	kifu_svg_hex_layout_(&l, geo->hex, 32);
	kifu_svg_caption_make_(&cap, &kifu_game_glaisher_, s, l.width);
	kifu_svg_begin_(out, &kifu_game_glaisher_, l.width, l.height + kifu_svg_caption_height_(&cap));
	kifu_svg_hex_board_(out, &l, NULL);
	kifu_svg_hex_marks_(out, &l, marks, nmarks);
	for (c = 0; c < NC; c++) {
		char name[8], tok[16], num[12];
		double x, y;

		if (!s->h[c])
			continue;
		kifu_hex_cell_name_(geo->hex, c, name);
		snprintf(tok, sizeof(tok), "%c%lu", kifu_glaisher_colour_at_(s, c) ? 'y' : 'r',
			 (unsigned long)s->h[c]);
		snprintf(num, sizeof(num), "%lu", (unsigned long)s->h[c]);
		kifu_svg_hex_centre_(&l, c, &x, &y);
		kifu_svg_cell_open_(out, name, tok, x, y - 4);
		kifu_svg_disc_stack_(
			out,
			kifu_svg_colour_(kifu_game_glaisher_.sides[kifu_glaisher_colour_at_(s, c)]),
			l.size * 0.52, s->h[c] < 5 ? (int)s->h[c] : 5, 5, num);
		kifu_svg_cell_close_(out);
	}
	kifu_svg_caption_put_(out, &cap, l.width / 2, l.height);
	kifu_svg_hex_numbers_(out, &l);
	return kifu_svg_end_(out);
}

int kifu_glaisher_render_svg_(struct kifu_buf *out, const void *state)
{
	return gl_render(out, state, NULL, 0);
}

/*
 * The cells a move touched: the set-up cell; for a separation its origin,
 * the cells its parts landed on, and the cell the piece was placed on.
 */
int kifu_glaisher_render_svg_last_(struct kifu_buf *out, const void *state, kifu_move last)
{
	const struct kifu_glaisher_geo_ *geo = kifu_glaisher_geo_();
	int cells[MAX_PART + 2], n = 0, o = M_ORIGIN(last), d = M_DIR(last);
	unsigned mask = M_MASK(last);

	if (last & M_SETUP) {
		cells[n++] = M_CELL(last);
	} else {
		cells[n++] = o;
		while (mask) {
			int t = geo->dest[o][d][__builtin_ctz(mask) + 1];

			mask &= mask - 1;
			if (t >= 0)
				cells[n++] = t;
		}
		if (M_CELL(last) != NO_CELL && M_CELL(last) != o)
			cells[n++] = M_CELL(last);
	}
	return gl_render(out, state, cells, n);
}

