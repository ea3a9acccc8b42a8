/*
 * Moves drawn on a board picture of kifu-serve's pages (render/site_impl.h):
 * the explorer's moves as links on its board (a cell for a move that places
 * a piece, an arrow from the piece a move takes away), a review's engine
 * move on the replay's board. Nothing here knows a game: a move's cells
 * are those its picture marks as the last move (the data-last shapes of
 * lib/games/svg.c, drawn by every game's render_svg_last), their order
 * told by the move's own text (the first cell it names is where the move
 * starts, the last where it ends); a move written as one cell places
 * there; one that names one of them among other text, or none, ends on
 * the marked cell farthest from where it starts. Drawing a
 * picture per move costs milliseconds; a move whose text names both its
 * cells lands on the same cells from any position of the board, so its
 * cells are kept (per process, a bounded table) and drawn once.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "render/html.h"
#include "render/render_impl.h"

/* One marked cell of a picture: its name, centre and outline (as SVG attributes). */
struct mark {
	char name[KIFU_CELL_NAME_MAX];
	double x, y;
	char tag[8];     /* "polygon" or "rect" */
	char geom[200];  /* points="..." or x=.. y=.. width=.. height=.. */
};

#define MARKS_MAX 12

/* The value of attribute name in the element starting at el (up to its '>'), into out. */
static int attr(char *out, size_t n, const char *el, const char *name)
{
	const char *end = strchr(el, '>'), *at = el, *q;
	size_t len = strlen(name);

	while ((at = strstr(at, name)) && (!end || at < end)) {
		if (at[-1] == ' ' && at[len] == '=' && at[len + 1] == '"') {
			at += len + 2;
			q = strchr(at, '"');
			if (!q || (size_t)(q - at) >= n)
				return -1;
			memcpy(out, at, (size_t)(q - at));
			out[q - at] = '\0';
			return 0;
		}
		at += len;
	}
	return -1;
}

/* The marked cells of a picture (its <g class="last-move"> group): how many, at most max. */
static int marks(struct mark *m, int max, const char *svg)
{
	const char *g = strstr(svg, "<g class=\"last-move\">"), *end, *el;
	int n = 0;

	if (!g || !(end = strstr(g, "</g>")))
		return 0;
	for (el = strchr(g + 1, '<'); el && el < end && n < max; el = strchr(el + 1, '<')) {
		struct mark *k = &m[n];
		char v[4][32];

		if (attr(k->name, sizeof(k->name), el, "data-last") < 0)
			continue;
		if (!strncmp(el, "<polygon", 8)) {
			char pts[160], *s, *next;
			double sx = 0, sy = 0;
			int np = 0;

			if (attr(pts, sizeof(pts), el, "points") < 0)
				continue;
			for (s = pts; *s; s = next) {
				double x = strtod(s, &next), y;

				if (next == s || *next != ',')
					break;
				y = strtod(next + 1, &next);
				sx += x;
				sy += y;
				np++;
			}
			if (!np)
				continue;
			k->x = sx / np;
			k->y = sy / np;
			strcpy(k->tag, "polygon");
			snprintf(k->geom, sizeof(k->geom), "points=\"%s\"", pts);
		} else if (!strncmp(el, "<rect", 5)) {
			if (attr(v[0], 32, el, "x") < 0 || attr(v[1], 32, el, "y") < 0 ||
			    attr(v[2], 32, el, "width") < 0 || attr(v[3], 32, el, "height") < 0)
				continue;
			k->x = atof(v[0]) + atof(v[2]) / 2;
			k->y = atof(v[1]) + atof(v[3]) / 2;
			strcpy(k->tag, "rect");
			snprintf(k->geom, sizeof(k->geom), "x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"",
				 v[0], v[1], v[2], v[3]);
		} else {
			continue;
		}
		n++;
	}
	return n;
}

/* Where cell name is written in move text as a whole cell name (not "a1" of "a10"), or -1. */
static long named_at(const char *text, const char *name, int last)
{
	size_t len = strlen(name);
	const char *at = text;
	long found = -1;

	while ((at = strstr(at, name))) {
		int before = at == text || !((at[-1] >= 'a' && at[-1] <= 'z') ||
					     (at[-1] >= '0' && at[-1] <= '9'));
		int after = !(at[len] >= '0' && at[len] <= '9');

		if (before && after) {
			found = at - text;
			if (!last)
				return found;
		}
		at++;
	}
	return found;
}

/* The kept moves: (game, board size, move text) -> cells; filled once, never emptied. */
#define KEPT_MAX 4096
struct kept {
	const struct kifu_game *g;
	int ncells;
	char text[KIFU_MOVE_TEXT_MAX];
	struct kifu_site_move_geo geo;
};
static struct kept *kept;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t kept_slot(const struct kifu_game *g, int ncells, const char *text)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)g ^ (uint64_t)ncells;

	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ull;
	return (size_t)(h % KEPT_MAX);
}

/* The kept cells of a move (1), or 0; with put, keeps geo instead. */
static int kept_move(struct kifu_site_move_geo *geo, const struct kifu_game *g, int ncells,
		     const char *text, int put)
{
	size_t i, k;
	int found = 0;

	pthread_mutex_lock(&kept_lock);
	if (!kept)
		kept = calloc(KEPT_MAX, sizeof(*kept));
	for (i = kept_slot(g, ncells, text), k = 0; kept && k < 8; k++, i = (i + 1) % KEPT_MAX) {
		struct kept *e = &kept[i];

		if (!e->g) {
			if (put) {
				e->g = g;
				e->ncells = ncells;
				snprintf(e->text, sizeof(e->text), "%s", text);
				e->geo = *geo;
			}
			break;
		}
		if (e->g == g && e->ncells == ncells && !strcmp(e->text, text)) {
			if (!put)
				*geo = e->geo;
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(&kept_lock);
	return found;
}

int kifu_site_move_geo_(struct kifu_site_move_geo *out, const struct kifu_game *g,
			const void *state, kifu_move m)
{
	struct kifu_pos *pos = NULL;
	struct kifu_buf svg = KIFU_BUF_INIT;
	struct kifu_error err;
	struct mark mk[MARKS_MAX];
	char text[KIFU_MOVE_TEXT_MAX];
	int n, k, from = 0, to = -1, ncells, named;
	long best;
	int ret;

	memset(out, 0, sizeof(*out));
	kifu_error_clear(&err);
	g->format_move(state, m, text);
	ncells = g->ncells ? g->ncells(state) : 0;
	if (kept_move(out, g, ncells, text, 0))
		return 0;
	ret = kifu_pos_new(&pos, g, 0, 0, &err);
	if (ret < 0)
		return ret;
	memcpy(pos->state, state, g->state_size);
	g->apply(pos->state, m);
	if (kifu_game_render_svg(&svg, g, pos->state, &m) < 0 || svg.failed) {
		ret = KIFU_ENOMEM;
		goto out;
	}
	n = marks(mk, MARKS_MAX, svg.data);
	if (n == 0)
		goto out;
	/* the start: the marked cell the text names first; the end: the one it names last */
	for (k = 0, best = -1; k < n; k++) {
		long at = named_at(text, mk[k].name, 0);

		if (at >= 0 && (best < 0 || at < best))
			best = at, from = k;
	}
	for (k = 0, best = -1; k < n; k++) {
		long at = named_at(text, mk[k].name, 1);

		if (k != from && at >= 0 && at > best)
			best = at, to = k;
	}
	/* a move written as one cell places there, whatever else it touches (a splay) */
	if (!strcmp(text, mk[from].name))
		n = 1;
	/* named both ends (or its one cell): the same cells from any position */
	named = (n == 1 && named_at(text, mk[from].name, 0) >= 0) || (to >= 0 &&
		named_at(text, mk[from].name, 0) >= 0);
	if (to < 0 && n > 1) {
		double far = -1;

		for (k = 0; k < n; k++) {
			double d = hypot(mk[k].x - mk[from].x, mk[k].y - mk[from].y);

			if (k != from && d > far)
				far = d, to = k;
		}
	}
	out->cells = n > 1 ? 2 : 1;
	if (n == 1 || to < 0)
		to = from;
	snprintf(out->to, sizeof(out->to), "%s", mk[to].name);
	snprintf(out->from, sizeof(out->from), "%s", mk[from].name);
	out->x0 = mk[from].x;
	out->y0 = mk[from].y;
	out->x1 = mk[to].x;
	out->y1 = mk[to].y;
	snprintf(out->shape, sizeof(out->shape), "<%s %s", mk[to].tag, mk[to].geom);
	if (named)
		kept_move(out, g, ncells, text, 1);
out:
	kifu_buf_release(&svg);
	kifu_pos_free(pos);
	return ret;
}

/* The arrows' heads, once per picture before any arrow. */
void kifu_site_board_defs_(struct kifu_buf *b)
{
	kifu_buf_puts(b, "<defs><marker id=\"mv-head\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
		      "markerWidth=\"3.2\" markerHeight=\"3.2\" orient=\"auto-start-reverse\">"
		      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1d4f91\"/></marker>"
		      "<marker id=\"best-head\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
		      "markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">"
		      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f7a3a\"/></marker></defs>\n");
}

void kifu_site_board_move_(struct kifu_buf *b, const struct kifu_site_move_geo *geo,
			   const char *href, const char *title, const char *cls, double weight)
{
	double w = 2.5 + 5.5 * weight;

	if (!geo->cells)
		return;
	if (href) {
		kifu_buf_printf(b, "<a class=\"%s\" href=\"", cls);
		kifu_buf_puts(b, href);
		kifu_buf_puts(b, "\"");
	} else {
		kifu_buf_printf(b, "<g class=\"%s\"", cls);
	}
	kifu_buf_puts(b, " data-move=\"");
	kifu_render_html_text_(b, title ? title : "");
	kifu_buf_printf(b, "\" data-to=\"%s\"><title>", geo->to);
	kifu_render_html_text_(b, title ? title : "");
	kifu_buf_puts(b, "</title>");
	if (geo->cells == 1) {
		/* the whole cell is the link; a disc shows the move, its size the share */
		kifu_buf_printf(b, "%s class=\"hit\"%s/>", geo->shape, href ? "" : " fill=\"none\" "
				"stroke=\"#1f7a3a\" stroke-width=\"3\" stroke-dasharray=\"5 3\"");
		kifu_buf_printf(b, "<circle class=\"spot\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"%s/>",
				geo->x1, geo->y1, 5 + 9 * weight, href ? "" : " fill=\"#1f7a3a\" "
				"fill-opacity=\"0.75\" stroke=\"#fff\" stroke-width=\"1.5\"");
	} else {
		double dx = geo->x1 - geo->x0, dy = geo->y1 - geo->y0;
		double len = hypot(dx, dy), cut = len > 30 ? 12 / len : 0;

		if (href)
			kifu_buf_printf(b, "<line class=\"hit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					"y2=\"%.1f\" stroke-width=\"22\"/>", geo->x0, geo->y0, geo->x1,
					geo->y1);
		kifu_buf_printf(b, "<line class=\"arrow\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke-width=\"%.1f\" marker-end=\"url(#%s)\"%s/>",
				geo->x0 + dx * cut, geo->y0 + dy * cut, geo->x1 - dx * cut,
				geo->y1 - dy * cut, w, href ? "mv-head" : "best-head",
				href ? "" : " stroke=\"#1f7a3a\" stroke-opacity=\"0.8\" "
				"stroke-linecap=\"round\"");
	}
	kifu_buf_puts(b, href ? "</a>\n" : "</g>\n");
}

int kifu_site_svg_append_(struct kifu_buf *svg, const struct kifu_buf *more)
{
	char *end;
	size_t pos, n = more->len;

	if (!svg->data || !more->data || !(end = strstr(svg->data, "</svg>")))
		return 0;
	pos = (size_t)(end - svg->data);
	if (kifu_buf_add(svg, more->data, n) < 0)
		return KIFU_ENOMEM;
	memmove(svg->data + pos + n, svg->data + pos, svg->len - n - pos);
	memcpy(svg->data + pos, more->data, n);
	return 0;
}
