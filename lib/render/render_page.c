/*
 * The self-contained HTML replay page (kifu-export --to html, kifu-analyse
 * --to html, kifu-serve's /game/ID): the board at every position of the
 * game and of its lines, stepped through by the page's script.
 *
 * Every position's picture is in the page, but as the change from its
 * parent's (the position before its move): each picture is split into
 * lines (a piece a line), each distinct line written once in LINES, the
 * start as the list of its line numbers and every other position as the
 * few splices that make its list from its parent's (DIFF); the figures
 * likewise, only where they differ from the parent's (FIG). The script
 * rebuilds a position from the nearest one it has kept. A page costs a
 * few dozen bytes a position and is written as the game is walked, one
 * position in memory at a time (its parent's lines on the path of the
 * lines being walked), and a position met again is not drawn again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "render/html.h"
#include "render/render_impl.h"

/* ---- what a position shows ---- */

int kifu_render_shown_copy_(struct kifu_render_shown_ *dst, const struct kifu_render_shown_ *src)
{
	kifu_buf_reset(&dst->fig);
	if (src->fig.data)
		kifu_buf_add(&dst->fig, src->fig.data, src->fig.len);
	if (kifu_render_ids_copy_(&dst->ids, &src->ids) < 0 || dst->fig.failed)
		return KIFU_ENOMEM;
	return 0;
}

void kifu_render_shown_release_(struct kifu_render_shown_ *s)
{
	free(s->ids.v);
	kifu_buf_release(&s->fig);
	memset(s, 0, sizeof(*s));
}

/*
 * The positions drawn, by their state and the move that reached them (the
 * picture marks it): a game that goes round in circles is drawn once a
 * circle. At most MEMO_MAX of them, the first met: a game of distinct
 * positions is drawn position by position, in bounded memory.
 */
#define MEMO_SLOTS 8192
#define MEMO_MAX (MEMO_SLOTS / 2)

struct memo_entry {
	void *state;             /* NULL: empty slot */
	kifu_move last;
	int has_last;
	struct kifu_render_ids_ ids;
	char *fig;
	size_t fig_len;
};

struct kifu_render_memo_ {
	struct memo_entry slot[MEMO_SLOTS];
	size_t n;
};

static size_t memo_slot(const struct kifu_render_memo_ *mm, const struct kifu_game *g,
			const void *state, const kifu_move *last)
{
	uint64_t h = g->hash(state) ^ (last ? (*last + 1) * UINT64_C(0x9e3779b97f4a7c15) : 0);
	size_t k = (size_t)(h % MEMO_SLOTS);

	while (mm->slot[k].state && !(mm->slot[k].has_last == (last != NULL) &&
				       (!last || mm->slot[k].last == *last) &&
				       !memcmp(mm->slot[k].state, state, g->state_size)))
		k = (k + 1) % MEMO_SLOTS;
	return k;
}

static void memo_free(struct kifu_render_memo_ *mm)
{
	size_t i;

	if (!mm)
		return;
	for (i = 0; i < MEMO_SLOTS; i++) {
		free(mm->slot[i].state);
		free(mm->slot[i].ids.v);
		free(mm->slot[i].fig);
	}
	free(mm);
}

/* Its figures, as the script's [[label, value], ...] (out reset first). */
static void figures_literal(struct kifu_buf *out, const struct kifu_game *g, const void *state)
{
	struct kifu_figure fig[KIFU_FIGURES_MAX];
	int n = g->figures(state, fig), k;

	kifu_buf_reset(out);
	kifu_buf_putc(out, '[');
	for (k = 0; k < n; k++) {
		char num[32], label[sizeof(fig[k].key) + 8];
		const struct kifu_figure *f = &fig[k];

		kifu_game_figure_label(label, sizeof(label), g, f->key);
		kifu_buf_puts(out, k ? ",[" : "[");
		kifu_render_js_string_(out, label);
		kifu_buf_putc(out, ',');
		snprintf(num, sizeof(num), "%ld", f->num);
		kifu_render_js_string_(out, f->type == KIFU_FIG_TEXT ? (f->text[0] ? f->text : "-") : num);
		kifu_buf_putc(out, ']');
	}
	kifu_buf_putc(out, ']');
}

int kifu_render_page_position_(struct kifu_render_page_ *pg, size_t pos, const void *state,
			       const kifu_move *last, const char *svg,
			       struct kifu_render_shown_ *shown)
{
	const struct kifu_game *g = pg->g;
	struct kifu_render_ids_ *ids = &pg->spare.ids;
	struct kifu_buf *fig = &pg->spare.fig;
	struct kifu_render_shown_ was;
	struct memo_entry *e = NULL;

	if (!svg) {
		e = &pg->memo->slot[memo_slot(pg->memo, g, state, last)];
		if (e->state) {
			if (kifu_render_ids_copy_(ids, &e->ids) < 0)
				return KIFU_ENOMEM;
			kifu_buf_reset(fig);
			kifu_buf_add(fig, e->fig, e->fig_len);
		} else {
			kifu_buf_reset(&pg->pic);
			if (kifu_game_render_svg(&pg->pic, g, state, last) < 0 || !pg->pic.data)
				return KIFU_ENOMEM;
			svg = pg->pic.data;
		}
	}
	if (svg) {
		if (kifu_render_pics_ids_(pg->pics, ids, svg) < 0)
			return KIFU_ENOMEM;
		figures_literal(fig, g, state);
		if (e && pg->memo->n < MEMO_MAX && !fig->failed) {
			e->state = malloc(g->state_size);
			e->fig = malloc(fig->len + 1);
			if (!e->state || !e->fig || kifu_render_ids_copy_(&e->ids, ids) < 0) {
				free(e->state);
				e->state = NULL;
				return KIFU_ENOMEM;
			}
			memcpy(e->state, state, g->state_size);
			memcpy(e->fig, fig->data, fig->len + 1);
			e->fig_len = fig->len;
			e->has_last = last != NULL;
			e->last = last ? *last : 0;
			pg->memo->n++;
		}
	}
	if (fig->failed)
		return KIFU_ENOMEM;
	kifu_buf_int(&pg->diff, (long long)pos);
	kifu_buf_putc(&pg->diff, ':');
	if (kifu_render_pics_diff_(&pg->diff, pg->pics, &shown->ids, ids) < 0)
		return KIFU_ENOMEM;
	kifu_buf_puts(&pg->diff, ",\n");
	if (!shown->fig.data || shown->fig.len != fig->len ||
	    memcmp(shown->fig.data, fig->data, fig->len)) {
		kifu_buf_int(&pg->fig, (long long)pos);
		kifu_buf_putc(&pg->fig, ':');
		kifu_buf_add(&pg->fig, fig->data, fig->len);
		kifu_buf_puts(&pg->fig, ",\n");
	}
	/* this position's, for its children; the parent's room for the next one */
	was = *shown;
	*shown = pg->spare;
	pg->spare = was;
	return pg->diff.failed || pg->fig.failed ? KIFU_ENOMEM : 0;
}

/* ---- the page ---- */

/* On the picture before a marked move, the review's engine move (b: the picture). */
static int html_best(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply,
		     const void *state, const struct kifu_render_review *rv)
{
	struct kifu_site_move_geo geo;
	struct kifu_buf more = KIFU_BUF_INIT;
	char title[KIFU_MOVE_TEXT_MAX + 16];
	struct kifu_error err;
	kifu_move best;
	int ret;

	if (!rv || ply >= rp->nplies || !rv->plies[ply].mark)
		return 0;
	/* the move from its text: a stored review keeps the engine's move as text */
	kifu_error_clear(&err);
	if (rp->game->parse_move(state, rv->best + ply * KIFU_MOVE_TEXT_MAX, &best, &err) < 0)
		return 0;
	ret = kifu_site_move_geo_(&geo, rp->game, state, best);
	if (ret == 0 && geo.cells) {
		snprintf(title, sizeof(title), "best %s", rv->best + ply * KIFU_MOVE_TEXT_MAX);
		kifu_site_board_defs_(&more);
		kifu_site_board_move_(&more, &geo, NULL, title, "best", 0.6);
		ret = more.failed ? KIFU_ENOMEM : kifu_site_svg_append_(b, &more);
	}
	kifu_buf_release(&more);
	return ret;
}

static const char html_style[] =
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 \"DejaVu Sans\",Verdana,Arial,sans-serif;color:#2b2418;"
	"background:#f3eee2}\n"
	"header{padding:12px 20px;background:#fffaf0;border-bottom:1px solid #d8ccb0}\n"
	"h1{font-size:20px;margin:0}\n"
	"h2{font-size:15px;margin:14px 0 6px}\n"
	".sub{margin:3px 0 0;color:#6b5f4a}\n"
	"main{display:flex;flex-wrap:wrap;gap:24px;padding:16px 20px;align-items:flex-start}\n"
	"#board svg{display:block;max-width:100%;height:auto;border:1px solid #d8ccb0}\n"
	".controls{display:flex;gap:6px;align-items:center;margin:10px 0 4px}\n"
	".controls button{font:inherit;font-size:17px;min-width:46px;padding:3px 8px;"
	"cursor:pointer;border:1px solid #b9aa88;border-radius:4px;background:#fffaf0}\n"
	".controls button:disabled{opacity:.4;cursor:default}\n"
	"#where{flex:1;text-align:center;font-weight:bold}\n"
	"aside{flex:1 1 300px;max-width:460px}\n"
	"#moves{list-style:none;margin:0;padding:0;max-height:430px;overflow:auto;"
	"border:1px solid #d8ccb0;background:#fff}\n"
	"#moves button{display:flex;gap:8px;align-items:baseline;width:100%;text-align:left;"
	"border:0;border-bottom:1px solid #f0e9d8;background:none;padding:3px 8px;font:inherit;"
	"cursor:pointer;color:inherit}\n"
	"#moves button:hover{background:#f6efdc}\n"
	"#moves button.current{background:#ffe08a}\n"
	"#moves .n{min-width:2.6em;text-align:right;color:#6b5f4a}\n"
	"#moves .c{color:#6b5f4a;font-style:italic;font-size:13px;flex:1 1 8em}\n"
	".dot{display:inline-block;width:10px;height:10px;border-radius:50%;"
	"border:1px solid #333;background:#9a9a9a;flex:none}\n"
	".side-white{background:#f7f5ee}.side-black{background:#2a2a2a}"
	".side-red{background:#cf3b2e}.side-yellow{background:#f2c416}"
	".side-blue{background:#2f63c4}.side-green{background:#2f9a4b}\n"
	"table{border-collapse:collapse;background:#fff;border:1px solid #d8ccb0}\n"
	"td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #f0e9d8;"
	"vertical-align:top}\n"
	"th{font-weight:normal;color:#6b5f4a}\n"
	".result{font-weight:bold}\n"
	".keys{color:#6b5f4a;font-size:13px}\n"
	".nag{font-weight:bold;color:#9a3412;margin-left:1px}\n"
	"#moves .lines{padding:0 8px 3px 3.4em;border-bottom:1px solid #f0e9d8;font-size:13px}\n"
	"#moves .lines .lines{padding:0 0 0 1.2em;border:0}\n"
	"#moves .line{margin:1px 0}\n"
	"#moves .line::before{content:\"(\";color:#6b5f4a}#moves .line::after{content:\")\";"
	"color:#6b5f4a}\n"
	"#moves .line button{display:inline;width:auto;border:0;padding:0 3px;border-radius:3px}\n"
	"#moves .line .n{min-width:0;margin-right:2px}\n"
	"#game{font:inherit;font-size:13px;padding:3px 8px;cursor:pointer;border:1px solid #b9aa88;"
	"border-radius:4px;background:#ffe08a}\n";

/* Only on the page of a game with a novelty (a record from a file has none). */
static const char html_novelty_style[] =
	".nov{font-weight:bold;color:#fff;background:#2f63c4;border-radius:3px;padding:0 4px;"
	"font-size:12px;cursor:help}\n";

/*
 * The page's script: the position shown (the board, where, figures, the
 * move list's and the chart's marks) and moving about; kifuPath(p) is the
 * moves from the start to position p, in the replay's text, for the
 * explorer's link of kifu-serve's page (site.c).
 */
static const char html_script[] =
	"window.kifuPath = function (p) {\n"
	"\tvar path = [];\n"
	"\tfor (; NODE[p]; p = NODE[p][0]) path.unshift(MOVES[p]);\n"
	"\treturn MOVES.slice(1, p + 1).concat(path);\n"
	"};\n"
	"(function () {\n"
	"\"use strict\";\n"
	"var board = document.getElementById(\"board\");\n"
	"var where = document.getElementById(\"where\");\n"
	"var figs = document.getElementById(\"figures\");\n"
	"var items = document.querySelectorAll(\"#moves button\");\n"
	"var last = MAIN, cur = -1, game = document.getElementById(\"game\");\n"
	"function prevOf(p) { return NODE[p] ? NODE[p][0] : Math.max(0, p - 1); }\n"
	"function nextOf(p) { return NODE[p] ? NODE[p][1] : Math.min(last, p + 1); }\n"
	"function parentOf(p) { return NODE[p] ? NODE[p][0] : p - 1; }\n"
	"var chart = document.getElementById(\"chart\");\n"
	"var cols = chart ? chart.querySelectorAll(\".col\") : [];\n"
	"var cursor = document.getElementById(\"chart-cursor\");\n"
	/* a position's lines: its parent's, spliced; every 64th position kept, and the last one built */
	"var kept = {}, lastAt = -1, lastIds = null;\n"
	/* each position's button and chart column, found once (a page may have 100,000) */
	"var itemOf = {}, colOf = {}, onItem = null, onCol = null;\n"
	"for (var i = 0; i < items.length; i++) itemOf[items[i].getAttribute(\"data-ply\")] = items[i];\n"
	"for (var i = 0; i < cols.length; i++) colOf[cols[i].getAttribute(\"data-ply\")] = cols[i];\n"
	"function idsOf(p) {\n"
	"\tvar path = [], q = p, ids, d, i;\n"
	"\twhile (q >= 0 && q !== lastAt && !kept[q]) { path.push(q); q = parentOf(q); }\n"
	"\tids = q < 0 ? [] : (q === lastAt ? lastIds : kept[q]).slice();\n"
	"\twhile (path.length) {\n"
	"\t\tq = path.pop();\n"
	"\t\td = DIFF[q];\n"
	"\t\tfor (i = 0; i < d.length; i += 3 + d[i + 2])\n"
	"\t\t\tArray.prototype.splice.apply(ids, [d[i], d[i + 1]].concat(d.slice(i + 3, i + 3 + d[i + 2])));\n"
	"\t\tif (q % 64 === 0) kept[q] = ids.slice();\n"
	"\t}\n"
	"\tlastAt = p;\n"
	"\tlastIds = ids;\n"
	"\treturn ids;\n"
	"}\n"
	"function picture(p) {\n"
	"\treturn idsOf(p).map(function (i) { return LINES[i]; }).join(\"\\n\");\n"
	"}\n"
	"function figures(p) {\n"
	"\twhile (p > 0 && !FIG[p]) p = parentOf(p);\n"
	"\treturn FIG[p] || [];\n"
	"}\n"
	"function text(s) { return document.createTextNode(s); }\n";

/* (in two: a C string literal is kept under 4,096 bytes) */
static const char html_script2[] =
	"function setHash(p) {\n"
	"\tvar h = \"#ply=\" + p;\n"
	"\tif (location.hash === h) return;\n"
	"\ttry { history.replaceState(null, \"\", h); } catch (e) { location.hash = h; }\n"
	"}\n"
	"function show(p, keepHash) {\n"
	"\tif (p < 0) return;\n"
	"\tif (!NODE[p]) p = Math.max(0, Math.min(last, p | 0));\n"
	"\tif (p !== cur) {\n"
	"\t\tcur = p;\n"
	"\t\tboard.innerHTML = picture(p);\n"
	"\t\tboard.setAttribute(\"data-ply\", String(p));\n"
	"\t\tvar move = MOVES[p] + (NAG[p] || \"\");\n"
	"\t\twhere.textContent = NODE[p] ? \"line of ply \" + NODE[p][2] + \", ply \" + NODE[p][3]\n"
	"\t\t\t+ \": \" + move : p ? \"ply \" + p + \" of \" + last + \": \" + move\n"
	"\t\t\t: \"start (\" + last + \" plies)\";\n"
	"\t\tif (game) game.hidden = !NODE[p];\n"
	"\t\twhile (figs.firstChild) figs.removeChild(figs.firstChild);\n"
	"\t\tfigures(p).forEach(function (f) {\n"
	"\t\t\tvar tr = document.createElement(\"tr\"), th = document.createElement(\"th\"),\n"
	"\t\t\t    td = document.createElement(\"td\");\n"
	"\t\t\tth.appendChild(text(f[0])); td.appendChild(text(f[1]));\n"
	"\t\t\ttr.appendChild(th); tr.appendChild(td); figs.appendChild(tr);\n"
	"\t\t});\n"
	"\t\tif (onItem) onItem.className = \"\";\n"
	"\t\tonItem = itemOf[p] || null;\n"
	"\t\tif (onItem) {\n"
	"\t\t\tonItem.className = \"current\";\n"
	"\t\t\tif (onItem.scrollIntoView) onItem.scrollIntoView({ block: \"nearest\" });\n"
	"\t\t}\n"
	"\t\tif (onCol) onCol.setAttribute(\"class\", \"col\");\n"
	"\t\tonCol = colOf[p] || null;\n"
	"\t\tif (onCol) {\n"
	"\t\t\tonCol.setAttribute(\"class\", \"col on\");\n"
	"\t\t\tif (cursor) {\n"
	"\t\t\t\tvar x = +onCol.getAttribute(\"x\") + onCol.getAttribute(\"width\") / 2;\n"
	"\t\t\t\tcursor.setAttribute(\"x1\", x); cursor.setAttribute(\"x2\", x);\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tdocument.getElementById(\"first\").disabled = p === 0;\n"
	"\t\tdocument.getElementById(\"back\").disabled = p === 0;\n"
	"\t\tdocument.getElementById(\"forward\").disabled = NODE[p] ? NODE[p][1] < 0\n"
	"\t\t\t: p === last;\n"
	"\t\tdocument.getElementById(\"end\").disabled = p === last;\n"
	"\t}\n"
	"\tif (!keepHash && !NODE[p]) setHash(p);\n"
	"}\n"
	"function fromHash() {\n"
	"\tvar m = /^#ply=(\\d+)$/.exec(location.hash);\n"
	"\treturn m ? parseInt(m[1], 10) : null;\n"
	"}\n"
	"document.getElementById(\"first\").onclick = function () { show(0); };\n"
	"document.getElementById(\"back\").onclick = function () { show(prevOf(cur)); };\n"
	"document.getElementById(\"forward\").onclick = function () { show(nextOf(cur)); };\n"
	"if (game) game.onclick = function () { if (NODE[cur]) show(NODE[cur][2]); };\n"
	"document.getElementById(\"end\").onclick = function () { show(last); };\n"
	"for (var i = 0; i < items.length; i++)\n"
	"\titems[i].onclick = function () { show(+this.getAttribute(\"data-ply\")); };\n"
	"for (var i = 0; i < cols.length; i++)\n"
	"\tcols[i].onclick = function () { show(+this.getAttribute(\"data-ply\")); };\n"
	"document.addEventListener(\"keydown\", function (e) {\n"
	"\tif (e.altKey || e.ctrlKey || e.metaKey) return;\n"
	"\tvar k = e.key, to = k === \"ArrowLeft\" ? prevOf(cur) : k === \"ArrowRight\" ? nextOf(cur)\n"
	"\t\t: k === \"Home\" ? 0 : k === \"End\" ? last : null;\n"
	"\tif (to === null || to < 0) return;\n"
	"\te.preventDefault();\n"
	"\tshow(to);\n"
	"});\n"
	"window.addEventListener(\"hashchange\", function () {\n"
	"\tvar p = fromHash();\n"
	"\tif (p !== null) show(p, true);\n"
	"});\n"
	"var h = fromHash();\n"
	"show(h !== null ? h : START, h === null || h <= last);\n"
	"})();\n";

static void html_header_row(struct kifu_buf *b, const char *key, const char *value)
{
	kifu_buf_puts(b, "<tr><th>");
	kifu_render_html_text_(b, key);
	kifu_buf_puts(b, "</th><td>");
	kifu_render_html_text_(b, value);
	kifu_buf_puts(b, "</td></tr>\n");
}

static void html_result(struct kifu_buf *b, const struct kifu_record *rec)
{
	const char *result, *term;

	kifu_render_result_of_(rec, &result, &term);
	if (!strcmp(result, "draw") || !strcmp(result, "unfinished"))
		kifu_render_html_text_(b, result);
	else {
		kifu_render_html_text_(b, result);
		kifu_buf_puts(b, " wins");
	}
	if (term) {
		kifu_buf_puts(b, " (");
		kifu_render_html_text_(b, term);
		kifu_buf_puts(b, ")");
	}
}

/* The novelty's mark: N, with the earlier games that reached its position as its tooltip. */
static void html_novelty(struct kifu_buf *b, const struct kifu_render_stored *stored)
{
	kifu_buf_puts(b, "<span class=\"nov\" title=\"novelty: no earlier game played ");
	kifu_render_html_text_(b, stored->novelty_move ? stored->novelty_move : "this move");
	kifu_buf_puts(b, " here");
	if (stored->novelty_earlier >= 0)
		kifu_buf_printf(b, "; %ld earlier game%s reached this position",
				stored->novelty_earlier, stored->novelty_earlier == 1 ? "" : "s");
	kifu_buf_puts(b, "\">N</span>");
}

/* What the walk of the main line needs: the page's positions, the lines', the start's picture. */
struct walk {
	const struct kifu_record *rec;
	const struct kifu_replay *rp;
	const struct kifu_render_review *review; /* NULL: none */
	size_t start;
	struct kifu_render_page_ *page;
	struct kifu_render_lines_ *rl;
	int *movers;                  /* the side that played each ply (1-based) */
	struct kifu_buf start_svg;    /* the picture of position start, in the page itself */
};

/*
 * Every position of the main line in order, and the lines of each move
 * from the position before it; the figures, pictures and lines written for
 * the script as they are met.
 */
static int walk_game(struct walk *w)
{
	const struct kifu_replay *rp = w->rp;
	const struct kifu_game *g = rp->game;
	struct kifu_render_shown_ shown;
	struct kifu_buf svg = KIFU_BUF_INIT;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	size_t ply;
	int ret;

	memset(&shown, 0, sizeof(shown));
	ret = kifu_pos_new(&pos, g, rp->variant, rp->first, &err);
	for (ply = 0; ret == 0 && ply <= rp->nplies; ply++) {
		const kifu_move *last = ply ? &rp->moves[ply - 1] : NULL;
		int marked = w->review && ply < rp->nplies && w->review->plies[ply].mark;

		if (ply > 0)
			g->apply(pos->state, rp->moves[ply - 1]);
		if (ply < rp->nplies)
			w->movers[ply + 1] = g->side_to_move(pos->state);
		kifu_buf_reset(&svg);
		/* drawn here: the start's (kept for the page) and a marked move's (with the engine's move) */
		if (ply == w->start || marked) {
			if (kifu_game_render_svg(&svg, g, pos->state, last) < 0 || !svg.data ||
			    html_best(&svg, rp, ply, pos->state, w->review) < 0) {
				ret = KIFU_ENOMEM;
				break;
			}
			if (ply == w->start)
				kifu_buf_add(&w->start_svg, svg.data, svg.len);
		}
		ret = kifu_render_page_position_(w->page, ply, pos->state, last,
						 marked ? svg.data : NULL, &shown);
		/* the lines of the next ply start from this position */
		if (ret == 0 && ply < rp->nplies)
			ret = kifu_render_lines_add_(w->rl, w->rec, rp, ply + 1, pos->state, &shown);
	}
	if (ret == 0 && w->start_svg.failed)
		ret = KIFU_ENOMEM;
	kifu_render_shown_release_(&shown);
	kifu_buf_release(&svg);
	kifu_pos_free(pos);
	return ret;
}

static int put_html(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, long start,
		    const struct kifu_render_review *review, const struct kifu_render_stored *stored)
{
	const struct kifu_game *g = rp->game;
	size_t n = rp->nplies + 1, i, node = 0;
	struct kifu_render_page_ page;
	struct kifu_render_lines_ rl;
	struct walk w;
	int ret = KIFU_ENOMEM, k, s, names = 0;
	const int *movers;

	memset(&page, 0, sizeof(page));
	memset(&rl, 0, sizeof(rl));
	memset(&w, 0, sizeof(w));
	if (start < 0 || (size_t)start > rp->nplies)
		start = 0;
	page.g = g;
	rl.base = n;
	rl.next_ply = 1;
	rl.page = &page;
	w.rec = rec;
	w.rp = rp;
	w.review = review;
	w.start = (size_t)start;
	w.page = &page;
	w.rl = &rl;
	w.movers = calloc(n, sizeof(*w.movers));
	page.memo = calloc(1, sizeof(*page.memo));
	if (!w.movers || !page.memo || kifu_render_pics_new_(&page.pics) < 0)
		goto out;
	ret = walk_game(&w);
	if (ret < 0)
		goto out;
	movers = w.movers;

	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	kifu_render_html_text_(b, g->title);
	for (s = 0; g->sides[s]; s++) {
		const char *name = kifu_render_player_name_(rec, g->sides[s]);

		if (!name)
			continue;
		kifu_buf_puts(b, names++ ? " vs " : ": ");
		kifu_render_html_text_(b, name);
	}
	kifu_buf_printf(b, "</title>\n<style>\n%s%s%s</style>\n</head>\n<body>\n<header>\n<h1>",
			html_style, review ? kifu_render_review_style_ : "",
			stored && stored->has_novelty ? html_novelty_style : "");
	kifu_render_html_text_(b, g->title);
	kifu_buf_puts(b, " <span class=\"sub\">(");
	kifu_render_html_text_(b, g->variants[rp->variant]);
	kifu_buf_puts(b, ")</span></h1>\n<p class=\"sub\">");
	for (s = 0; g->sides[s]; s++) {
		const char *name = kifu_render_player_name_(rec, g->sides[s]);

		kifu_buf_printf(b, "%s<span class=\"dot side-%s\"></span> ", s ? " &middot; " : "",
				g->sides[s]);
		kifu_render_html_text_(b, name ? name : g->sides[s]);
		if (name) {
			kifu_buf_puts(b, " (");
			kifu_render_html_text_(b, g->sides[s]);
			kifu_buf_puts(b, ")");
		}
	}
	kifu_buf_puts(b, " &mdash; <span class=\"result\" id=\"result\">");
	html_result(b, rec);
	kifu_buf_puts(b, "</span></p>\n</header>\n<main>\n<section>\n");
	/* The board of the opening ply is in the page itself; the script replaces it. */
	kifu_buf_printf(b, "<div id=\"board\" data-ply=\"%ld\">\n%s</div>\n", start, w.start_svg.data);
	kifu_buf_puts(b, "<div class=\"controls\">"
		      "<button id=\"first\" title=\"first position (Home)\">|&#x25C0;</button>"
		      "<button id=\"back\" title=\"back (left arrow)\">&#x25C0;</button>"
		      "<span id=\"where\"></span>"
		      "<button id=\"forward\" title=\"forward (right arrow)\">&#x25B6;</button>"
		      "<button id=\"end\" title=\"last position (End)\">&#x25B6;|</button></div>\n");
	if (rl.n)
		kifu_buf_puts(b, "<p><button id=\"game\" hidden title=\"back to the move this line "
			      "replaces\">back to the game</button></p>\n");
	kifu_buf_puts(b, "<p class=\"keys\">keys: &larr; &rarr; Home End; the address ends in "
		      "#ply=N</p>\n"
		      "<noscript><p>This page needs JavaScript to step through the moves; "
		      "the board above shows one position.</p></noscript>\n");
	if (review)
		kifu_render_review_chart_(b, rec, rp, review);
	kifu_buf_puts(b, "</section>\n<aside>\n<h2>Moves</h2>\n<ol id=\"moves\">\n"
		      "<li><button data-ply=\"0\"><span class=\"n\">0</span>"
		      "<span>start</span></button></li>\n");
	for (i = 1; i <= rp->nplies; i++) {
		const char *comment = rec->turns[i - 1].comment;

		kifu_buf_printf(b, "<li><button data-ply=\"%zu\"><span class=\"n\">%zu</span>"
				"<span class=\"dot side-%s\" title=\"%s\"></span><span>", i, i,
				g->sides[movers[i]], g->sides[movers[i]]);
		kifu_render_html_text_(b, kifu_replay_text(rp, i));
		kifu_buf_puts(b, "</span>");
		kifu_render_nag_(b, rec->turns[i - 1].nag);
		if (review)
			kifu_render_review_mark_(b, review, i);
		if (stored && stored->has_novelty && (size_t)stored->novelty_ply == i)
			html_novelty(b, stored);
		if (comment) {
			kifu_buf_puts(b, "<span class=\"c\">");
			kifu_render_html_text_(b, comment);
			kifu_buf_puts(b, "</span>");
		}
		kifu_buf_puts(b, "</button>");
		kifu_render_lines_list_(b, &rl, g, &rec->turns[i - 1], &node);
		kifu_buf_puts(b, "</li>\n");
	}
	kifu_buf_puts(b, "</ol>\n<h2>Figures</h2>\n<table id=\"figures\"></table>\n"
		      "<h2>Game</h2>\n<table id=\"headers\">\n");
	html_header_row(b, "game", g->name);
	html_header_row(b, "variant", g->variants[rp->variant]);
	for (k = KIFU_KEY_EVENT; k <= KIFU_KEY_DATE; k++) {
		const char *v = kifu_record_get(rec, k);

		if (v)
			html_header_row(b, kifu_key_name(k), v);
	}
	for (s = 0; g->sides[s]; s++) {
		const char *name = kifu_render_player_name_(rec, g->sides[s]);

		if (name)
			html_header_row(b, g->sides[s], name);
	}
	html_header_row(b, "first", g->sides[rp->first]);
	kifu_buf_puts(b, "<tr><th>result</th><td class=\"result\">");
	html_result(b, rec);
	kifu_buf_puts(b, "</td></tr>\n");
	for (i = 0; i < rec->ntags; i++)
		html_header_row(b, rec->tags[i].key, rec->tags[i].value);
	kifu_buf_puts(b, "</table>\n</aside>\n</main>\n<script>\n");
	/* the pictures, then each position's move (canonical, for links) and nag */
	kifu_render_pics_lines_(b, page.pics);
	kifu_buf_puts(b, "var DIFF = {\n");
	kifu_buf_add(b, page.diff.data ? page.diff.data : "", page.diff.len);
	kifu_buf_puts(b, "};\nvar FIG = {\n");
	kifu_buf_add(b, page.fig.data ? page.fig.data : "", page.fig.len);
	kifu_buf_puts(b, "};\nvar MOVES = [''");
	for (i = 1; i < n + rl.n; i++) {
		kifu_buf_putc(b, ',');
		kifu_render_js_string_(b, i < n ? kifu_replay_text(rp, i) : rl.v[i - n].text);
	}
	kifu_buf_puts(b, "];\nvar NAG = {");
	for (i = 1, k = 0; i < n + rl.n; i++) {
		const char *nag = i < n ? rec->turns[i - 1].nag : rl.v[i - n].turn->nag;

		if (!nag)
			continue;
		kifu_buf_printf(b, "%s%zu:", k++ ? "," : "", i);
		kifu_render_js_string_(b, nag);
	}
	kifu_buf_puts(b, "};\n");
	kifu_render_lines_script_(b, &rl);
	kifu_buf_printf(b, "var START = %ld;\n%s%s</script>\n</body>\n</html>\n", start,
			html_script, html_script2);
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	free(w.movers);
	kifu_buf_release(&w.start_svg);
	kifu_buf_release(&page.diff);
	kifu_buf_release(&page.fig);
	kifu_render_pics_free_(page.pics);
	memo_free(page.memo);
	kifu_render_shown_release_(&page.spare);
	kifu_buf_release(&page.pic);
	kifu_render_lines_release_(&rl);
	return ret;
}

int kifu_render_html(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, long start,
		     const struct kifu_render_stored *stored)
{
	return kifu_render_html_review(b, rec, rp, start, stored ? stored->review : NULL, stored);
}

int kifu_render_html_review(struct kifu_buf *b, const struct kifu_record *rec,
			    const struct kifu_replay *rp, long start,
			    const struct kifu_render_review *review,
			    const struct kifu_render_stored *stored)
{
	int ret = put_html(b, rec, rp, start, review, stored);

	return ret == 0 && b->failed ? KIFU_ENOMEM : ret;
}
