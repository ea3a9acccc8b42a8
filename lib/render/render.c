/*
 * The renderers of include/kifu/render.h: JSON, text diagrams, SVG and the
 * self-contained HTML replay page. The pictures come from each engine's
 * render_svg and render_text, walked ply by ply over a fresh position, so
 * that what is shown is exactly what the engine holds at each ply.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "render/html.h"
#include "render/render_impl.h"

/* ---- what every format needs from a game ---- */

/* The result as stated (absent: unfinished) and the termination stated or implied (or NULL). */
static void result_of(const struct kifu_record *rec, const char **result, const char **term)
{
	*result = rec->result ? rec->result : "unfinished";
	*term = rec->termination;
	if (!*term && strcmp(*result, "unfinished") != 0)
		*term = "rules";
}

static const char *player_name(const struct kifu_record *rec, const char *side)
{
	size_t i;

	for (i = 0; i < rec->nplayers; i++)
		if (!strcmp(rec->players[i].side, side) && rec->players[i].name)
			return rec->players[i].name;
	return NULL;
}

/*
 * Walks the replay: calls fn for every ply from `from` to `to` with the
 * position after that ply (ply 0: the start). Returns 0, KIFU_ENOMEM, or
 * what fn returned when negative.
 */
static int walk_plies(const struct kifu_replay *rp, size_t from, size_t to,
		      int (*fn)(void *ctx, const struct kifu_replay *rp, size_t ply,
				const void *state),
		      void *ctx)
{
	const struct kifu_game *g = rp->game;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	size_t ply;
	int ret;

	ret = kifu_pos_new(&pos, g, rp->variant, rp->first, &err);
	if (ret < 0)
		goto out;
	for (ply = 0; ply <= to; ply++) {
		if (ply > 0)
			g->apply(pos->state, rp->moves[ply - 1]);
		if (ply < from)
			continue;
		ret = fn(ctx, rp, ply, pos->state);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	kifu_pos_free(pos);
	return ret;
}

/* The side that played ply (1-based): the side to move before it. */
struct mover_ctx {
	int *movers;
};

static int note_mover(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct mover_ctx *m = ctx;

	if (ply < rp->nplies)
		m->movers[ply + 1] = rp->game->side_to_move(state);
	return 0;
}

/* ---- json ---- */

static void json_figures(struct kifu_buf *b, const struct kifu_figure *f, int n)
{
	int i;

	kifu_buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		if (i)
			kifu_buf_putc(b, ',');
		kifu_buf_json_string(b, f[i].key);
		kifu_buf_putc(b, ':');
		if (f[i].type == KIFU_FIG_TEXT)
			kifu_buf_json_string(b, f[i].text);
		else
			kifu_buf_printf(b, "%ld", f[i].num);
	}
	kifu_buf_putc(b, '}');
}

static int json_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct kifu_buf *b = ctx;
	struct kifu_figure f[KIFU_FIGURES_MAX];
	int n = rp->game->figures(state, f);

	kifu_buf_printf(b, "%s\n    {\"ply\":%zu,\"move\":", ply ? "," : "", ply);
	if (ply)
		kifu_buf_json_string(b, kifu_replay_text(rp, ply));
	else
		kifu_buf_puts(b, "null");
	kifu_buf_printf(b, ",\"hash\":\"%016llx\",\"figures\":",
			(unsigned long long)rp->hashes[ply]);
	json_figures(b, f, n);
	return kifu_buf_putc(b, '}');
}

int kifu_render_json(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const struct kifu_render_stored *stored)
{
	int ret;

	ret = kifu_record_write_json_head(b, rec, rp);
	if (ret < 0)
		return ret;
	if (stored && stored->has_novelty)
		kifu_buf_printf(b, ",\n  \"novelty_ply\":%ld", stored->novelty_ply);
	else if (stored)
		kifu_buf_puts(b, ",\n  \"novelty_ply\":null");
	kifu_buf_puts(b, ",\n  \"plies\":[");
	ret = walk_plies(rp, 0, rp->nplies, json_ply, b);
	kifu_buf_puts(b, "\n  ]");
	if (ret == 0 && stored && stored->review) {
		kifu_buf_puts(b, ",\n  \"review\":");
		ret = kifu_render_review_json(b, rec, rp, stored->review);
	}
	kifu_buf_puts(b, "\n}");
	return ret < 0 ? ret : b->failed ? KIFU_ENOMEM : 0;
}

/* ---- text ---- */

struct text_ctx {
	struct kifu_buf *b;
	int *movers;
	const struct kifu_record *rec;
	size_t next_ply, xi; /* the first text of ply next_ply's lines in the replay's walk */
};

/*
 * The lines of turn t (played at ply), each on a line of its own indented
 * under its move, two more spaces for each level: "line 1: 2. d4! 3. c2";
 * a line's own lines follow it, naming the move they replace.
 */
static void text_lines(struct kifu_buf *b, const struct kifu_turn *t, size_t ply,
		       const struct kifu_replay *rp, size_t *xi, int depth)
{
	size_t j, k;

	if (t->eval)
		(*xi)++;
	for (j = 0; j < t->nlines; j++) {
		const struct kifu_line *l = &t->lines[j];
		size_t x0 = *xi;

		kifu_buf_printf(b, "%*sline %zu: ", 2 * depth, "", j + 1);
		for (k = 0; k < l->nturns; k++) {
			const struct kifu_turn *lt = &l->turns[k];
			const char *text = kifu_replay_xtext(rp, (*xi)++);

			kifu_buf_printf(b, "%s%zu. ", k ? " " : "", ply + k);
			kifu_buf_escaped(b, text ? text : lt->text ? lt->text : "");
			kifu_buf_puts(b, lt->nag ? lt->nag : "");
			if (lt->comment) {
				kifu_buf_puts(b, " {");
				kifu_buf_escaped(b, lt->comment);
				kifu_buf_putc(b, '}');
			}
			*xi += kifu_turn_texts(lt);
		}
		kifu_buf_putc(b, '\n');
		/* again, for the lines of the line's moves, now that the line is written */
		*xi = x0;
		for (k = 0; k < l->nturns; k++) {
			(*xi)++;
			text_lines(b, &l->turns[k], ply + k, rp, xi, depth + 1);
		}
	}
}

/*
 * The hash printed is the one of the position replayed here, not the
 * validator's: the two replays are compared by the tests.
 */
static int text_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct text_ctx *t = ctx;
	unsigned long long h = rp->game->hash(state);

	if (ply) {
		const struct kifu_turn *turn = ply <= t->rec->nturns ? &t->rec->turns[ply - 1] : NULL;
		size_t i;

		if (ply != t->next_ply)
			for (t->xi = 0, i = 1; i < ply && i <= t->rec->nturns; i++)
				t->xi += kifu_turn_texts(&t->rec->turns[i - 1]);
		kifu_buf_printf(t->b, "\nply %zu: %s%s (%s), hash %016llx\n", ply,
				kifu_replay_text(rp, ply), turn && turn->nag ? turn->nag : "",
				rp->game->sides[t->movers[ply]], h);
		if (turn) {
			size_t x0 = t->xi;

			text_lines(t->b, turn, ply, rp, &t->xi, 1);
			t->xi = x0 + kifu_turn_texts(turn);
		}
		t->next_ply = ply + 1;
	} else
		kifu_buf_printf(t->b, "\nply 0: start, hash %016llx\n", h);
	return rp->game->render_text(t->b, state);
}

static int put_text(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, const char *label, long ply, int *movers)
{
	const struct kifu_game *g = rp->game;
	struct text_ctx t = { b, movers, rec, 1, 0 };
	const char *result, *term;
	int s;

	result_of(rec, &result, &term);
	/* Text for a terminal: what a record (or a file name) holds is escaped. */
	kifu_buf_escaped(b, label);
	kifu_buf_printf(b, ": %s, variant %s\n", g->name, g->variants[rp->variant]);
	/* when and where, as a PGN's Date and Event head it */
	if (rec->date) {
		kifu_buf_puts(b, "date: ");
		kifu_buf_escaped(b, rec->date);
	}
	if (rec->event) {
		kifu_buf_puts(b, rec->date ? "; event: " : "event: ");
		kifu_buf_escaped(b, rec->event);
	}
	if (rec->date || rec->event)
		kifu_buf_putc(b, '\n');
	for (s = 0; g->sides[s]; s++) {
		const char *name = player_name(rec, g->sides[s]);

		kifu_buf_printf(b, "%s%s: ", s ? "; " : "", g->sides[s]);
		kifu_buf_escaped(b, name ? name : "-");
	}
	kifu_buf_printf(b, "\nresult: %s%s%s%s, %zu pl%s\n", result, term ? " (" : "",
			term ? term : "", term ? ")" : "", rp->nplies, rp->nplies == 1 ? "y" : "ies");
	if (ply >= 0)
		return walk_plies(rp, (size_t)ply, (size_t)ply, text_ply, &t);
	return walk_plies(rp, 0, rp->nplies, text_ply, &t);
}

/* ---- svg ---- */

struct svg_ctx {
	struct kifu_buf *b;
};

static int svg_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct svg_ctx *s = ctx;

	return kifu_game_render_svg(s->b, rp->game, state, ply ? &rp->moves[ply - 1] : NULL);
}

int kifu_render_svg(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply)
{
	struct svg_ctx s = { b };

	kifu_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	return walk_plies(rp, ply, ply, svg_ply, &s);
}

/* ---- html ---- */

/*
 * Every ply's picture is in the page, but stored compactly: the parts all
 * plies share (the board drawn before the pieces, the coordinates drawn
 * after) are written once as PRE and SUF, and the rest of each picture is
 * split into lines (one piece a line), each distinct line written once in
 * LINES and each ply as the list of its line numbers. A piece that stays
 * put is the same line in every ply, so a 200-ply page stays small.
 */
struct html_ctx {
	char **svg;         /* one picture per ply */
	struct kifu_figure (*fig)[KIFU_FIGURES_MAX];
	int *nfig;
	const struct kifu_record *rec;
	struct kifu_render_lines_ *rl; /* the positions of format 2's lines */
	const struct kifu_render_review *review; /* NULL: none */
};

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

static int html_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct html_ctx *h = ctx;
	struct kifu_buf b = KIFU_BUF_INIT;

	if (kifu_game_render_svg(&b, rp->game, state, ply ? &rp->moves[ply - 1] : NULL) < 0 ||
	    !b.data || html_best(&b, rp, ply, state, h->review) < 0) {
		kifu_buf_release(&b);
		return KIFU_ENOMEM;
	}
	h->svg[ply] = kifu_buf_detach(&b);
	h->nfig[ply] = rp->game->figures(state, h->fig[ply]);
	if (!h->svg[ply])
		return KIFU_ENOMEM;
	/* the lines of the next ply start from this position */
	return ply < rp->nplies ? kifu_render_lines_add_(h->rl, h->rec, rp, ply + 1, state) : 0;
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

static const char html_script[] =
	"(function () {\n"
	"\"use strict\";\n"
	"var board = document.getElementById(\"board\");\n"
	"var where = document.getElementById(\"where\");\n"
	"var figs = document.getElementById(\"figures\");\n"
	"var items = document.querySelectorAll(\"#moves button\");\n"
	"var last = MAIN, cur = -1, game = document.getElementById(\"game\");\n"
	"function prevOf(p) { return NODE[p] ? NODE[p][0] : Math.max(0, p - 1); }\n"
	"function nextOf(p) { return NODE[p] ? NODE[p][1] : Math.min(last, p + 1); }\n"
	"var chart = document.getElementById(\"chart\");\n"
	"var cols = chart ? chart.querySelectorAll(\".col\") : [];\n"
	"var cursor = document.getElementById(\"chart-cursor\");\n"
	"function picture(p) {\n"
	"\treturn PRE + PLY[p].map(function (i) { return LINES[i]; }).join(\"\\n\") + SUF;\n"
	"}\n"
	"function text(s) { return document.createTextNode(s); }\n"
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
	"\t\twhere.textContent = NODE[p] ? \"line of ply \" + NODE[p][2] + \", ply \" + NODE[p][3]\n"
	"\t\t\t+ \": \" + MOVES[p] : p ? \"ply \" + p + \" of \" + last + \": \" + MOVES[p]\n"
	"\t\t\t: \"start (\" + last + \" plies)\";\n"
	"\t\tif (game) game.hidden = !NODE[p];\n"
	"\t\twhile (figs.firstChild) figs.removeChild(figs.firstChild);\n"
	"\t\tFIG[p].forEach(function (f) {\n"
	"\t\t\tvar tr = document.createElement(\"tr\"), th = document.createElement(\"th\"),\n"
	"\t\t\t    td = document.createElement(\"td\");\n"
	"\t\t\tth.appendChild(text(f[0])); td.appendChild(text(f[1]));\n"
	"\t\t\ttr.appendChild(th); tr.appendChild(td); figs.appendChild(tr);\n"
	"\t\t});\n"
	"\t\tfor (var i = 0; i < items.length; i++) {\n"
	"\t\t\tvar on = +items[i].getAttribute(\"data-ply\") === p;\n"
	"\t\t\titems[i].className = on ? \"current\" : \"\";\n"
	"\t\t\tif (on && items[i].scrollIntoView) items[i].scrollIntoView({ block: \"nearest\" });\n"
	"\t\t}\n"
	"\t\tfor (var j = 0; j < cols.length; j++) {\n"
	"\t\t\tvar c = cols[j], here = +c.getAttribute(\"data-ply\") === p;\n"
	"\t\t\tc.setAttribute(\"class\", here ? \"col on\" : \"col\");\n"
	"\t\t\tif (here && cursor) {\n"
	"\t\t\t\tvar x = +c.getAttribute(\"x\") + c.getAttribute(\"width\") / 2;\n"
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

	result_of(rec, &result, &term);
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

static int put_html(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, long start, const int *movers,
		    const struct kifu_render_review *review, const struct kifu_render_stored *stored)
{
	const struct kifu_game *g = rp->game;
	size_t n = rp->nplies + 1, i, node = 0;
	struct kifu_render_lines_ rl = { NULL, 0, 0, n, 1, 0, 0, 0 };
	struct html_ctx h = { NULL, NULL, NULL, rec, &rl, review };
	char **all = NULL;
	int ret = KIFU_ENOMEM, k, s, names = 0;

	h.svg = calloc(n, sizeof(*h.svg));
	h.fig = calloc(n, sizeof(*h.fig));
	h.nfig = calloc(n, sizeof(*h.nfig));
	if (!h.svg || !h.fig || !h.nfig)
		goto out;
	ret = walk_plies(rp, 0, rp->nplies, html_ply, &h);
	if (ret < 0)
		goto out;
	ret = KIFU_ENOMEM;
	/* every picture: the main line's positions, then those of the lines */
	all = calloc(n + rl.n, sizeof(*all));
	if (!all)
		goto out;
	memcpy(all, h.svg, n * sizeof(*all));
	for (i = 0; i < rl.n; i++)
		all[n + i] = rl.v[i].svg;
	if (start < 0 || (size_t)start > rp->nplies)
		start = 0;

	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	kifu_render_html_text_(b, g->title);
	for (s = 0; g->sides[s]; s++) {
		const char *name = player_name(rec, g->sides[s]);

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
		const char *name = player_name(rec, g->sides[s]);

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
	kifu_buf_printf(b, "<div id=\"board\" data-ply=\"%ld\">\n%s</div>\n", start, h.svg[start]);
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
		const char *name = player_name(rec, g->sides[s]);

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
	ret = kifu_render_pictures_(b, all, n + rl.n);
	if (ret < 0)
		goto out;
	kifu_buf_puts(b, "var MOVES = [''");
	for (i = 1; i < n + rl.n; i++) {
		const char *nag = i < n ? rec->turns[i - 1].nag : rl.v[i - n].turn->nag;
		char text[KIFU_MOVE_TEXT_MAX + 8];

		snprintf(text, sizeof(text), "%s%s", i < n ? kifu_replay_text(rp, i) : rl.v[i - n].text,
			 nag ? nag : "");
		kifu_buf_putc(b, ',');
		kifu_render_js_string_(b, text);
	}
	kifu_buf_puts(b, "];\nvar FIG = [");
	for (i = 0; i < n + rl.n; i++) {
		const struct kifu_figure *fig = i < n ? h.fig[i] : rl.v[i - n].fig;
		int nfig = i < n ? h.nfig[i] : rl.v[i - n].nfig;

		kifu_buf_puts(b, i ? ",\n[" : "\n[");
		for (k = 0; k < nfig; k++) {
			char num[32], label[sizeof(fig[k].key) + 8];
			const struct kifu_figure *f = &fig[k];

			kifu_game_figure_label(label, sizeof(label), rp->game, f->key);
			kifu_buf_puts(b, k ? ",[" : "[");
			kifu_render_js_string_(b, label);
			kifu_buf_putc(b, ',');
			snprintf(num, sizeof(num), "%ld", f->num);
			kifu_render_js_string_(b, f->type == KIFU_FIG_TEXT ? (f->text[0] ? f->text : "-") : num);
			kifu_buf_putc(b, ']');
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_puts(b, "];\n");
	kifu_render_lines_script_(b, &rl);
	kifu_buf_printf(b, "var START = %ld;\n%s</script>\n</body>\n</html>\n", start,
			html_script);
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	if (h.svg)
		for (i = 0; i < n; i++)
			kifu_buf_detached_free(h.svg[i]);
	free(h.svg);
	free(h.fig);
	free(h.nfig);
	free(all);
	kifu_render_lines_release_(&rl);
	return ret;
}

/* The side that played each ply (movers[1..nplies]), or NULL when out of memory. */
static int *movers_of(const struct kifu_replay *rp)
{
	struct mover_ctx mc;

	mc.movers = calloc(rp->nplies + 1, sizeof(*mc.movers));
	if (mc.movers && walk_plies(rp, 0, rp->nplies, note_mover, &mc) < 0) {
		free(mc.movers);
		mc.movers = NULL;
	}
	return mc.movers;
}

int kifu_render_text(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const char *label, long ply)
{
	int *movers = movers_of(rp);
	int ret = movers ? put_text(b, rec, rp, label, ply, movers) : KIFU_ENOMEM;

	free(movers);
	return ret == 0 && b->failed ? KIFU_ENOMEM : ret;
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
	int *movers = movers_of(rp);
	int ret = movers ? put_html(b, rec, rp, start, movers, review, stored) : KIFU_ENOMEM;

	free(movers);
	return ret == 0 && b->failed ? KIFU_ENOMEM : ret;
}
