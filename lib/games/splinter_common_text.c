/*
 * The text and pictures the Splinter games share (splinter, splinter-quad):
 * moves written and parsed in their notation (a cell, a direction, /CELL
 * choices on ties), with messages naming what is wrong in a move that does
 * not parse or is not legal; the text diagram, the SVG picture of a
 * position and the figures written under it. The mechanics these check
 * moves against are in splinter_common.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/board.h"
#include "games/splinter_common.h"
#include "games/svg.h"

void kifu_splinter_format_(const struct kifu_splinter_geom_ *g, kifu_move m, char *buf)
{
	int i, n;

	if (m == SPL_PASS) {
		strcpy(buf, "pass");
		return;
	}
	kifu_sq_cell_name_(g->width, kifu_splinter_move_from_(m), buf);
	buf += strlen(buf);
	*buf++ = '-';
	kifu_sq_cell_name_(g->width,
			  g->step[kifu_splinter_move_from_(m)][kifu_splinter_move_dir_(m)], buf);
	n = kifu_splinter_move_nsuf_(m);
	for (i = 0; i < n; i++) {
		buf += strlen(buf);
		*buf++ = '/';
		kifu_sq_cell_name_(g->width, kifu_splinter_move_suf_(m, i), buf);
	}
}

/* Length of the cell name at s: letters, then digits. */
static size_t cell_span(const char *s)
{
	size_t n = 0;

	while (s[n] >= 'a' && s[n] <= 'z')
		n++;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

static int parse_error(struct kifu_error *err, const struct kifu_splinter_text_ *t, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

static int parse_error(struct kifu_error *err, const struct kifu_splinter_text_ *t, const char *fmt,
		       ...)
{
	char why[KIFU_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return kifu_error_set(err, KIFU_EPARSE, "unparsable move '%s': %s", t->trimmed, why);
}

int kifu_splinter_illegal_(struct kifu_error *err, const struct kifu_splinter_text_ *t,
			   const char *fmt, ...)
{
	char why[KIFU_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return kifu_error_set(err, KIFU_EILLEGAL, "illegal move '%s': %s", t->trimmed, why);
}

/*
 * kifu_sq_cell_parse_() of the n bytes at s that cell_span() measured (lower
 * case letters, then digits): a letter, then a number from 1 without a
 * leading zero, both on the board.
 */
static int cell_parse(const struct kifu_splinter_geom_ *g, const char *s, size_t n)
{
	int file, rank;

	if (n < 2 || n > 3 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
		return -1;
	file = s[0] - 'a';
	rank = s[1] - '0';
	if (n == 3) {
		if (s[2] < '0' || s[2] > '9')
			return -1;
		rank = rank * 10 + (s[2] - '0');
	}
	if (file >= g->width || rank > g->height)
		return -1;
	return (rank - 1) * g->width + file;
}

/* Reads one cell name at norm + pos (quoting the written text on failure). */
static int read_cell(const struct kifu_splinter_geom_ *g, const char *norm, size_t pos, size_t *len,
		     const struct kifu_splinter_text_ *t, int *cell, struct kifu_error *err)
{
	size_t n = cell_span(norm + pos);

	*len = n;
	*cell = n ? cell_parse(g, norm + pos, n) : -1;
	if (!n && !pos)
		return parse_error(err, t, "expected a move such as 'c4-d5' or 'pass'");
	if (!n)
		return parse_error(err, t, "missing cell after '%c'", norm[pos - 1]);
	if (*cell < 0)
		return parse_error(err, t, "unknown cell '%.*s'", (int)n, t->trimmed + pos);
	return 0;
}

/*
 * kifu_move_text_norm_() for the usual spelling of a move, lower case
 * without white space ("c4-d5/c3"), which normalises to itself: copied as
 * it is. Anything else goes through kifu_move_text_norm_().
 */
static int norm_text(const char *text, char *norm, char *trimmed, size_t size)
{
	size_t n;

	for (n = 0; text[n]; n++) {
		char c = text[n];

		if (n + 1 >= size || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
				       c == '-' || c == '/'))
			return kifu_move_text_norm_(text, 0, norm, trimmed, size);
	}
	memcpy(norm, text, n + 1);
	memcpy(trimmed, text, n + 1);
	return (int)n;
}

int kifu_splinter_parse_text_(const struct kifu_splinter_geom_ *g, const char *text,
			      struct kifu_splinter_text_ *t, struct kifu_error *err)
{
	char norm[sizeof(t->trimmed)];
	size_t pos = 0, n;
	int len, ret, d, df, dr;

	/* every field but the text, which norm_text() always writes */
	t->pass = t->from = t->to = t->dir = t->nsuf = 0;
	memset(t->suf, 0, sizeof(t->suf));
	len = norm_text(text, norm, t->trimmed, sizeof(norm));
	if (len < 0)
		return parse_error(err, t, "expected a move such as 'c4-d5' or 'pass'");
	if (!strcmp(norm, "pass")) {
		t->pass = 1;
		return 0;
	}
	ret = read_cell(g, norm, pos, &n, t, &t->from, err);
	if (ret < 0)
		return ret;
	pos += n;
	if (norm[pos] != '-')
		return parse_error(err, t, "expected '-' after '%.*s'", (int)n, t->trimmed);
	pos++;
	ret = read_cell(g, norm, pos, &n, t, &t->to, err);
	if (ret < 0)
		return ret;
	pos += n;
	while (norm[pos] == '/') {
		if (t->nsuf == SPL_TEXT_MAX_SUFFIXES)
			return parse_error(err, t, "too many /CELL suffixes");
		pos++;
		ret = read_cell(g, norm, pos, &n, t, &t->suf[t->nsuf], err);
		if (ret < 0)
			return ret;
		t->nsuf++;
		pos += n;
	}
	if (norm[pos])
		return parse_error(err, t, "unexpected '%s'", t->trimmed + pos);
	df = t->to % g->width - t->from % g->width;
	dr = t->to / g->width - t->from / g->width;
	for (d = 0; d < 8; d++)
		if (kifu_sq_dfile_[d] == df && kifu_sq_drank_[d] == dr)
			break;
	t->dir = d;
	if (d == 8) {
		char a[4], b[4];

		kifu_sq_cell_name_(g->width, t->from, a);
		kifu_sq_cell_name_(g->width, t->to, b);
		return kifu_splinter_illegal_(
			err, t, "'%s' is not next to '%s': a piece slides one square", b, a);
	}
	return 0;
}

int kifu_splinter_parse_begin_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_core_ *c, int side, int over,
			       size_t (*count)(const void *), const void *state, const char *text,
			       struct kifu_splinter_text_ *t, struct kifu_splinter_core_ *after,
			       kifu_move *m, struct kifu_error *err)
{
	struct kifu_splinter_bb_ moved;
	int ret = kifu_splinter_parse_text_(g, text, t, err);

	if (ret < 0)
		return ret;
	if (over)
		return kifu_splinter_illegal_(err, t, "the game is over");
	if (t->pass) {
		if (count(state))
			return kifu_splinter_illegal_(err, t,
						      "pass is not allowed: you have a legal move");
		*m = SPL_PASS;
		return 1;
	}
	if (!c->cell[t->from] || SPL_SIDE(c->cell[t->from]) != side) {
		char a[4];

		kifu_sq_cell_name_(g->width, t->from, a);
		return kifu_splinter_illegal_(err, t, "no piece of yours on '%s'", a);
	}
	if (after) {
		*after = *c;
		kifu_splinter_push_(g, after, 0, t->from, t->dir, &moved);
	}
	*m = kifu_splinter_move_(t->from, t->dir);
	return 0;
}

int kifu_splinter_parse_splinter_(const struct kifu_splinter_geom_ *g,
				  struct kifu_splinter_core_ *c, uint64_t salt,
				  const struct kifu_splinter_text_ *t, int *used, kifu_move *m,
				  struct kifu_error *err)
{
	struct kifu_splinter_bb_ tied[SPL_MAX_CELLS];
	int groups, n = kifu_splinter_tied_(g, &c->occ, tied, &groups), i;
	char name[4];

	if (groups <= 1)
		return 0;
	if (n == 1) {
		kifu_splinter_keep_(g, c, salt, &tied[0]);
		return 0;
	}
	if (*used >= t->nsuf)
		return kifu_splinter_illegal_(err, t, "tie needs /CELL");
	for (i = 0; i < n; i++)
		if (kifu_splinter_bb_has_(&tied[i], t->suf[*used]))
			break;
	if (i == n) {
		kifu_sq_cell_name_(g->width, t->suf[*used], name);
		return kifu_splinter_illegal_(err, t, "'%s' is not in a group tied for largest",
					      name);
	}
	(*used)++;
	*m = kifu_splinter_move_add_suf_(*m, kifu_splinter_canon_cell_(g, &tied[i]));
	kifu_splinter_keep_(g, c, salt, &tied[i]);
	return 0;
}

int kifu_splinter_parse_slide_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_slide_ *sl,
			       struct kifu_splinter_core_ *after,
			       const struct kifu_splinter_text_ *t, int *used, kifu_move *m,
			       struct kifu_error *err)
{
	if (sl->groups <= 1)
		return 0;
	if (sl->ties == 1) {
		kifu_splinter_keep_(g, after, 0, &sl->keep);
		return 0;
	}
	/* a tie: the groups in canonical order, and the written choice */
	return kifu_splinter_parse_splinter_(g, after, 0, t, used, m, err);
}

int kifu_splinter_parse_finish_(const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_text_ *t, int used,
				struct kifu_error *err)
{
	char name[4];

	if (used >= t->nsuf)
		return 0;
	kifu_sq_cell_name_(g->width, t->suf[used], name);
	if (!used)
		return kifu_splinter_illegal_(
			err, t, "no tie for the largest group arises: '/%s' is not allowed", name);
	return kifu_splinter_illegal_(err, t, "no further tie arises: '/%s' is not allowed", name);
}

int kifu_splinter_render_board_(struct kifu_buf *out, const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_core_ *c, const char *const *sides,
				const char *types)
{
	int f, r;

	for (r = g->height - 1; r >= 0; r--) {
		kifu_buf_printf(out, "%2d", r + 1);
		for (f = 0; f < g->width; f++) {
			int code = c->cell[r * g->width + f];

			if (!code)
				kifu_buf_puts(out, "  .");
			else
				kifu_buf_printf(out, " %c%c", sides[SPL_SIDE(code)][0] - 'a' + 'A',
						types[SPL_TYPE(code)]);
		}
		kifu_buf_putc(out, '\n');
	}
	kifu_buf_puts(out, "  ");
	for (f = 0; f < g->width; f++)
		kifu_buf_printf(out, "  %c", 'a' + f);
	return kifu_buf_putc(out, '\n');
}

int kifu_splinter_cell_token_(const struct kifu_splinter_core_ *c, const char *const *sides,
			      const char *types, int cell, char *buf)
{
	int code = c->cell[cell];

	if (!code) {
		strcpy(buf, ".");
		return -1;
	}
	buf[0] = (char)(sides[SPL_SIDE(code)][0] - 'a' + 'A');
	buf[1] = types[SPL_TYPE(code)];
	buf[2] = '\0';
	return SPL_SIDE(code);
}

void kifu_splinter_side_cells_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_core_ *c, int nsides, uint64_t *out)
{
	int cell;

	memset(out, 0, sizeof(*out) * (size_t)nsides * KIFU_CELL_WORDS);
	for (cell = 0; cell < g->ncells; cell++)
		if (c->cell[cell])
			out[SPL_SIDE(c->cell[cell]) * KIFU_CELL_WORDS + cell / 64] |=
				UINT64_C(1) << (cell % 64);
}

int kifu_splinter_token_side_(const char *const *sides, const char *types, const char *text)
{
	int i;

	if (strlen(text) != 2 || !strchr(types, text[1]))
		return -1;
	for (i = 0; sides[i]; i++)
		if (text[0] == sides[i][0] - 'a' + 'A')
			return i;
	return -1;
}

/* The outline of a piece of type letter t around (0, 0), for cells of side 50. */
static void svg_shape(struct kifu_buf *out, char t, const struct kifu_svg_colour_ *col)
{
	static const char plus[] = "-5.5,-16 5.5,-16 5.5,-5.5 16,-5.5 16,5.5 5.5,5.5 5.5,16 "
				   "-5.5,16 -5.5,5.5 -16,5.5 -16,-5.5 -5.5,-5.5";
	static const char castle[] = "-14,15 14,15 14,-15 8,-15 8,-9 3,-9 3,-15 -3,-15 -3,-9 "
				     "-8,-9 -8,-15 -14,-15";
	static const char crown[] = "-16,14 16,14 16,-12 8,-2 0,-16 -8,-2 -16,-12";
	char paint[160];

	snprintf(paint, sizeof(paint), "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.6\" "
		 "stroke-linejoin=\"round\"", col->fill, col->stroke);
	switch (t) {
	case 's':
		kifu_buf_printf(out, "<rect x=\"-14\" y=\"-14\" width=\"28\" height=\"28\" "
				"rx=\"2\" %s/>", paint);
		break;
	case 'x':
		kifu_buf_printf(out, "<polygon points=\"%s\" %s/>", plus, paint);
		break;
	case 'b':
		kifu_buf_printf(out, "<polygon points=\"%s\" transform=\"rotate(45) "
				"scale(1.1)\" %s/>", plus, paint);
		break;
	case 'r':
		kifu_buf_printf(out, "<polygon points=\"%s\" %s/>", castle, paint);
		break;
	case 'k':
		kifu_buf_printf(out, "<polygon points=\"%s\" %s/><circle cx=\"0\" cy=\"6\" "
				"r=\"3.5\" fill=\"%s\"/>", crown, paint, col->ink);
		break;
	default: /* circle, pawn */
		kifu_buf_printf(out, "<circle cx=\"0\" cy=\"0\" r=\"15\" %s/>", paint);
		break;
	}
}

int kifu_splinter_render_svg_(struct kifu_buf *out, const struct kifu_splinter_geom_ *g,
			      const struct kifu_splinter_core_ *c, const struct kifu_game *game,
			      const void *state, const char *types,
			      const struct kifu_splinter_bb_ *noreturn, int back_dir,
			      const kifu_move *last)
{
	struct kifu_svg_caption cap;
	struct kifu_svg_sq l;
	int cell, marks[2], nmarks = 0;

	kifu_svg_sq_layout_(&l, g->width, g->height, 50);
	kifu_svg_caption_make_(&cap, game, state, l.width);
	if (noreturn && !kifu_splinter_bb_empty_(noreturn) && cap.n < KIFU_SVG_CAPTION_LINES)
		snprintf(cap.line[cap.n++], sizeof(cap.line[0]),
			 "red arrow: that piece may not go back that way (no return)");
	kifu_svg_begin_(out, game, l.width, l.height + kifu_svg_caption_height_(&cap));
	kifu_svg_sq_board_(out, &l);
	/* The last move: the cell its mover left and the one it moved to. */
	if (last && *last != SPL_PASS) {
		marks[nmarks++] = kifu_splinter_move_from_(*last);
		marks[nmarks++] =
			g->step[kifu_splinter_move_from_(*last)][kifu_splinter_move_dir_(*last)];
	}
	kifu_svg_sq_marks_(out, &l, marks, nmarks);
	for (cell = 0; cell < g->ncells; cell++) {
		int code = c->cell[cell];
		const char *side;
		char name[4], tok[3];
		double x, y;

		if (!code)
			continue;
		side = game->sides[SPL_SIDE(code)];
		kifu_sq_cell_name_(g->width, cell, name);
		tok[0] = (char)(side[0] - 'a' + 'A');
		tok[1] = types[SPL_TYPE(code)];
		tok[2] = '\0';
		kifu_svg_sq_centre_(&l, cell, &x, &y);
		kifu_svg_cell_open_(out, name, tok, x, y);
		svg_shape(out, tok[1], kifu_svg_colour_(side));
		kifu_svg_cell_close_(out);
	}
	if (noreturn && !kifu_splinter_bb_empty_(noreturn)) {
		struct kifu_splinter_bb_ m = *noreturn;

		/* A short arrow on the piece's edge, pointing where it may not go. */
		kifu_buf_puts(out, "<g class=\"no-return\" stroke=\"#b3261e\" stroke-width=\"2.5\" "
			      "stroke-linecap=\"round\" fill=\"none\">\n");
		while (!kifu_splinter_bb_empty_(&m)) {
			int at = kifu_splinter_bb_first_(&m);
			double x, y, dx = kifu_sq_dfile_[back_dir], dy = -kifu_sq_drank_[back_dir];
			double n = (dx && dy) ? 0.7071 : 1.0;

			kifu_splinter_bb_clear_(&m, at);
			kifu_svg_sq_centre_(&l, at, &x, &y);
			dx *= n;
			dy *= n;
			kifu_buf_printf(out, "<path d=\"M%.1f %.1f L%.1f %.1f M%.1f %.1f L%.1f %.1f "
					"L%.1f %.1f\"/>\n", x + dx * 14, y + dy * 14, x + dx * 23,
					y + dy * 23, x + dx * 23 - dy * 4 - dx * 4,
					y + dy * 23 + dx * 4 - dy * 4, x + dx * 23, y + dy * 23,
					x + dx * 23 + dy * 4 - dx * 4, y + dy * 23 - dx * 4 - dy * 4);
		}
		kifu_buf_puts(out, "</g>\n");
	}
	kifu_svg_caption_put_(out, &cap, l.width / 2, l.height);
	return kifu_svg_end_(out);
}

int kifu_splinter_render_figures_(struct kifu_buf *out, const struct kifu_figure *f, int n)
{
	int i, ret = 0;

	for (i = 0; i < n; i++) {
		if (i)
			kifu_buf_puts(out, ", ");
		if (f[i].type == KIFU_FIG_TEXT)
			ret = kifu_buf_printf(out, "%s %s", f[i].key,
					      f[i].text[0] ? f[i].text : "-");
		else
			ret = kifu_buf_printf(out, "%s %ld", f[i].key, f[i].num);
	}
	return ret;
}

void kifu_splinter_figure_int_(struct kifu_figure *f, const char *key, const char *side, long num)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s_%s", key, side);
	f->type = KIFU_FIG_INT;
	f->num = num;
}
