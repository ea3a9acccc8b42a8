/*
 * kifu-export: writes games out as canonical YAML (format 1), JSON, text
 * diagrams, an SVG picture of one position, or a self-contained HTML page
 * that replays the game move by move with no network access. Games come
 * from a record file (--file; every game in it) or from the database (--id
 * N, or the stored games matching FILTERS). Every game is validated and
 * replayed first: an invalid record is reported as kifu-validate does and
 * not exported. The pictures come from each engine's render_svg, so the
 * page shows exactly what the engine holds at each ply.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "cli.h"
#include "kifu/record.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-export [--db FILE] (--id N | FILTERS | --file RECORD) --to FORMAT [--ply K] [-o OUT]";

enum format { FMT_YAML, FMT_JSON, FMT_TEXT, FMT_SVG, FMT_HTML };

static const char *const format_names[] = { "yaml", "json", "text", "svg", "html", NULL };

struct export {
	int format;            /* enum format */
	long ply;              /* --ply, -1 when not given */
	const char *out_path;  /* -o, NULL for standard output */
	int dir_mode;          /* svg/html: one file per game into out_path */
	int json_array;        /* json: the games form one array */
	FILE *out;             /* the single output stream, opened on first use */
	long exported;         /* games written */
	int invalid;           /* some game was invalid or a check failed */
	int io_error;          /* writing failed */
	int usage_error;       /* several svg/html games without a directory */
	/* svg/html, one game so far: held until it is known whether more follow */
	struct kifu_buf pending;
	char pending_name[512];
	int has_pending;
	struct kifu_replay replay;
};

static void help(void)
{
	printf("usage: %s\n\n"
	       "Writes games out. Games come from a record file (--file RECORD, every game in\n"
	       "it; - for standard input) or from the database (--id N, or every stored game\n"
	       "matching FILTERS). Each game is validated first; an invalid record is\n"
	       "reported as kifu-validate reports it and is not exported.\n\n"
	       "  --to FORMAT   yaml   canonical record, format 1 (several games: one YAML stream)\n"
	       "                json   headers, players, moves, result, termination, and every\n"
	       "                       ply with its move, position hash and figures (an array of\n"
	       "                       games for --file and FILTERS, one object for --id)\n"
	       "                text   a board diagram per ply, each headed by the ply, the move\n"
	       "                       and the position hash (games one after another)\n"
	       "                svg    a picture of the board at one ply\n"
	       "                html   one self-contained page replaying the game (board, move\n"
	       "                       list, buttons, arrow keys, #ply=N in the address)\n"
	       "  --ply K       text, svg: only ply K (0 is the start; svg defaults to the\n"
	       "                final position); html: the ply the page opens at\n"
	       "  -o OUT        write to OUT instead of standard output; for svg and html with\n"
	       "                several games OUT is a directory (created when missing) that\n"
	       "                gets one file per game: NAME-K.svg (K the game's number in\n"
	       "                its file) or game-ID.svg\n"
	       "  --file RECORD read the games of a record file\n"
	       "  --id N        the stored game with id N\n"
	       "  FILTERS       --game G, --variant V, --player NAME, --event TEXT,\n"
	       "                --since DATE, --until DATE, --termination T\n"
	       "  --db FILE     the database (default $KIFU_DB, else kifu.db)\n"
	       "  --help, --version\n\n"
	       "Exit status: 0 success, 1 a game was invalid (or --ply past its end),\n"
	       "2 usage error, 3 I/O or database error.\n", usage);
	exit(EXIT_OK);
}

static void lower_first(char *s)
{
	if (*s >= 'A' && *s <= 'Z')
		*s = (char)(*s - 'A' + 'a');
}

/* Reports a failed system call on path. */
static void report_errno(const char *what, const char *path)
{
	char why[256];

	snprintf(why, sizeof(why), "%s", strerror(errno));
	lower_first(why);
	cli_errorf("cannot %s '%s': %s", what, path, why);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- escaping ---- */

/*
 * Appends s as a single-quoted JavaScript string literal for a <script>
 * element ("</" and "<!" broken up, so that the HTML parser never ends the
 * script early). Single quotes, because the pictures are full of double
 * ones and hold none of their own.
 */
static void js_string(struct kifu_buf *b, const char *s)
{
	const char *p;

	kifu_buf_putc(b, '\'');
	for (p = s; *p; p++) {
		if (*p == '<' && (p[1] == '/' || p[1] == '!'))
			kifu_buf_puts(b, "\\x3c");
		else if (*p == '\'' || *p == '\\')
			kifu_buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			kifu_buf_puts(b, "\\n");
		else if ((unsigned char)*p < 0x20)
			kifu_buf_printf(b, "\\u%04x", (unsigned char)*p);
		else
			kifu_buf_putc(b, *p);
	}
	kifu_buf_putc(b, '\'');
}

/* Appends s escaped for HTML text and attribute values. */
static void html_text(struct kifu_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': kifu_buf_puts(b, "&amp;"); break;
		case '<': kifu_buf_puts(b, "&lt;"); break;
		case '>': kifu_buf_puts(b, "&gt;"); break;
		case '"': kifu_buf_puts(b, "&quot;"); break;
		case '\'': kifu_buf_puts(b, "&#39;"); break;
		default: kifu_buf_putc(b, *s); break;
		}
	}
}


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

/* ---- yaml ---- */

static int put_yaml(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp)
{
	struct kifu_error err;

	return kifu_record_write(b, rec, rp, &err);
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

static int put_json(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp)
{
	int ret;

	ret = kifu_record_write_json_head(b, rec, rp);
	if (ret < 0)
		return ret;
	kifu_buf_puts(b, ",\n  \"plies\":[");
	ret = walk_plies(rp, 0, rp->nplies, json_ply, b);
	kifu_buf_puts(b, "\n  ]\n}");
	return ret < 0 ? ret : b->failed ? KIFU_ENOMEM : 0;
}

/* ---- text ---- */

struct text_ctx {
	struct kifu_buf *b;
	int *movers;
};

/*
 * The hash printed is the one of the position replayed here, not the
 * validator's: the two replays are compared by the tests.
 */
static int text_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct text_ctx *t = ctx;
	unsigned long long h = rp->game->hash(state);

	if (ply)
		kifu_buf_printf(t->b, "\nply %zu: %s (%s), hash %016llx\n", ply,
				kifu_replay_text(rp, ply), rp->game->sides[t->movers[ply]], h);
	else
		kifu_buf_printf(t->b, "\nply 0: start, hash %016llx\n", h);
	return rp->game->render_text(state, t->b);
}

static int put_text(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, const char *label, long ply, int *movers)
{
	const struct kifu_game *g = rp->game;
	struct text_ctx t = { b, movers };
	const char *result, *term;
	int s;

	result_of(rec, &result, &term);
	/* Text for a terminal: what a record (or a file name) holds is escaped. */
	kifu_buf_escaped(b, label);
	kifu_buf_printf(b, ": %s, variant %s\n", g->name, g->variants[rp->variant]);
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

	return kifu_game_render_svg(rp->game, state, ply ? &rp->moves[ply - 1] : NULL, s->b);
}

static int put_svg(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply)
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
};

static int html_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct html_ctx *h = ctx;
	struct kifu_buf b = KIFU_BUF_INIT;

	if (kifu_game_render_svg(rp->game, state, ply ? &rp->moves[ply - 1] : NULL, &b) < 0 ||
	    !b.data) {
		kifu_buf_release(&b);
		return KIFU_ENOMEM;
	}
	h->svg[ply] = kifu_buf_detach(&b);
	h->nfig[ply] = rp->game->figures(state, h->fig[ply]);
	return h->svg[ply] ? 0 : KIFU_ENOMEM;
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
	".keys{color:#6b5f4a;font-size:13px}\n";

static const char html_script[] =
	"(function () {\n"
	"\"use strict\";\n"
	"var board = document.getElementById(\"board\");\n"
	"var where = document.getElementById(\"where\");\n"
	"var figs = document.getElementById(\"figures\");\n"
	"var items = document.querySelectorAll(\"#moves button\");\n"
	"var last = PLY.length - 1, cur = -1;\n"
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
	"\tp = Math.max(0, Math.min(last, p | 0));\n"
	"\tif (p !== cur) {\n"
	"\t\tcur = p;\n"
	"\t\tboard.innerHTML = picture(p);\n"
	"\t\tboard.setAttribute(\"data-ply\", String(p));\n"
	"\t\twhere.textContent = p ? \"ply \" + p + \" of \" + last + \": \" + MOVES[p]\n"
	"\t\t\t: \"start (\" + last + \" plies)\";\n"
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
	"\t\tdocument.getElementById(\"first\").disabled = p === 0;\n"
	"\t\tdocument.getElementById(\"back\").disabled = p === 0;\n"
	"\t\tdocument.getElementById(\"forward\").disabled = p === last;\n"
	"\t\tdocument.getElementById(\"end\").disabled = p === last;\n"
	"\t}\n"
	"\tif (!keepHash) setHash(p);\n"
	"}\n"
	"function fromHash() {\n"
	"\tvar m = /^#ply=(\\d+)$/.exec(location.hash);\n"
	"\treturn m ? parseInt(m[1], 10) : null;\n"
	"}\n"
	"document.getElementById(\"first\").onclick = function () { show(0); };\n"
	"document.getElementById(\"back\").onclick = function () { show(cur - 1); };\n"
	"document.getElementById(\"forward\").onclick = function () { show(cur + 1); };\n"
	"document.getElementById(\"end\").onclick = function () { show(last); };\n"
	"for (var i = 0; i < items.length; i++)\n"
	"\titems[i].onclick = function () { show(+this.getAttribute(\"data-ply\")); };\n"
	"document.addEventListener(\"keydown\", function (e) {\n"
	"\tif (e.altKey || e.ctrlKey || e.metaKey) return;\n"
	"\tvar k = e.key, to = k === \"ArrowLeft\" ? cur - 1 : k === \"ArrowRight\" ? cur + 1\n"
	"\t\t: k === \"Home\" ? 0 : k === \"End\" ? last : null;\n"
	"\tif (to === null) return;\n"
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
	html_text(b, key);
	kifu_buf_puts(b, "</th><td>");
	html_text(b, value);
	kifu_buf_puts(b, "</td></tr>\n");
}

static void html_result(struct kifu_buf *b, const struct kifu_record *rec)
{
	const char *result, *term;

	result_of(rec, &result, &term);
	if (!strcmp(result, "draw") || !strcmp(result, "unfinished"))
		html_text(b, result);
	else {
		html_text(b, result);
		kifu_buf_puts(b, " wins");
	}
	if (term) {
		kifu_buf_puts(b, " (");
		html_text(b, term);
		kifu_buf_puts(b, ")");
	}
}

static size_t common_prefix(char **s, size_t n)
{
	size_t len = strlen(s[0]), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && s[i][k] == s[0][k]; k++)
			;
		len = k;
	}
	/* Cut at a tag boundary, so that no ply's part starts inside a tag. */
	while (len > 0 && s[0][len - 1] != '>')
		len--;
	return len;
}

static size_t common_suffix(char **s, size_t n, size_t prefix)
{
	size_t len = strlen(s[0]) - prefix, i, k;

	for (i = 1; i < n; i++) {
		size_t a = strlen(s[0]), c = strlen(s[i]);
		size_t max = c - prefix < len ? c - prefix : len;

		for (k = 0; k < max && s[i][c - 1 - k] == s[0][a - 1 - k]; k++)
			;
		len = k;
	}
	while (len > 0 && s[0][strlen(s[0]) - len] != '<')
		len--;
	return len;
}

/* A set of distinct lines, each with its number in order of first appearance. */
struct lines {
	const char **v;      /* by number; pointers into the pictures */
	size_t *len;
	size_t n, cap;
	size_t *slot;        /* open addressing: 1 + number, 0 empty */
	size_t nslots;
};

static uint64_t line_hash(const char *s, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return h;
}

static int lines_grow(struct lines *l)
{
	size_t cap = l->cap ? l->cap * 2 : 256, i;
	const char **v = realloc(l->v, cap * sizeof(*v));
	size_t *len, *slot;

	if (!v)
		return KIFU_ENOMEM;
	l->v = v;
	len = realloc(l->len, cap * sizeof(*len));
	if (!len)
		return KIFU_ENOMEM;
	l->len = len;
	slot = calloc(cap * 2, sizeof(*slot));
	if (!slot)
		return KIFU_ENOMEM;
	free(l->slot);
	l->slot = slot;
	l->nslots = cap * 2;
	l->cap = cap;
	for (i = 0; i < l->n; i++) {
		size_t k = line_hash(l->v[i], l->len[i]) % l->nslots;

		while (l->slot[k])
			k = (k + 1) % l->nslots;
		l->slot[k] = i + 1;
	}
	return 0;
}

/* The number of line s (n bytes), added when new; -1 when out of memory. */
static long lines_add(struct lines *l, const char *s, size_t n)
{
	size_t k;

	if (l->n == l->cap && lines_grow(l) < 0)
		return -1;
	for (k = line_hash(s, n) % l->nslots; l->slot[k]; k = (k + 1) % l->nslots) {
		size_t i = l->slot[k] - 1;

		if (l->len[i] == n && !memcmp(l->v[i], s, n))
			return (long)i;
	}
	l->v[l->n] = s;
	l->len[l->n] = n;
	l->slot[k] = ++l->n;
	return (long)(l->n - 1);
}

static void lines_release(struct lines *l)
{
	free(l->v);
	free(l->len);
	free(l->slot);
}

/* Appends bytes s..s+n as a JavaScript string. */
static void js_string_n(struct kifu_buf *b, const char *s, size_t n)
{
	char *copy = malloc(n + 1);

	if (!copy) {
		b->failed = 1;
		return;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	js_string(b, copy);
	free(copy);
}

/* Appends PRE, SUF, LINES and PLY: the pictures of n plies, compacted. */
static int put_pictures(struct kifu_buf *b, char **svg, size_t n)
{
	struct lines l = { NULL, NULL, 0, 0, NULL, 0 };
	size_t pre = common_prefix(svg, n), suf = common_suffix(svg, n, pre), i, j;
	int ret = KIFU_ENOMEM;

	kifu_buf_puts(b, "var PRE = ");
	js_string_n(b, svg[0], pre);
	kifu_buf_puts(b, ";\nvar SUF = ");
	js_string(b, svg[0] + strlen(svg[0]) - suf);
	kifu_buf_puts(b, ";\nvar PLY = [");
	for (i = 0; i < n; i++) {
		const char *p = svg[i] + pre, *end = svg[i] + strlen(svg[i]) - suf;

		kifu_buf_puts(b, i ? ",\n[" : "\n[");
		for (j = 0;; j++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			long k = lines_add(&l, p, len);

			if (k < 0)
				goto out;
			kifu_buf_printf(b, j ? ",%ld" : "%ld", k);
			if (!nl)
				break;
			p = nl + 1;
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_puts(b, "];\nvar LINES = [");
	for (i = 0; i < l.n; i++) {
		kifu_buf_puts(b, i ? ",\n" : "\n");
		js_string_n(b, l.v[i], l.len[i]);
	}
	kifu_buf_puts(b, "];\n");
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	lines_release(&l);
	return ret;
}

static int put_html(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, long start, const int *movers)
{
	const struct kifu_game *g = rp->game;
	size_t n = rp->nplies + 1, i;
	struct html_ctx h = { NULL, NULL, NULL };
	int ret = KIFU_ENOMEM, k, s, names = 0;

	h.svg = calloc(n, sizeof(*h.svg));
	h.fig = calloc(n, sizeof(*h.fig));
	h.nfig = calloc(n, sizeof(*h.nfig));
	if (!h.svg || !h.fig || !h.nfig)
		goto out;
	ret = walk_plies(rp, 0, rp->nplies, html_ply, &h);
	if (ret < 0)
		goto out;
	if (start < 0 || (size_t)start > rp->nplies)
		start = 0;

	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	html_text(b, g->title);
	for (s = 0; g->sides[s]; s++) {
		const char *name = player_name(rec, g->sides[s]);

		if (!name)
			continue;
		kifu_buf_puts(b, names++ ? " vs " : ": ");
		html_text(b, name);
	}
	kifu_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>",
			html_style);
	html_text(b, g->title);
	kifu_buf_puts(b, " <span class=\"sub\">(");
	html_text(b, g->variants[rp->variant]);
	kifu_buf_puts(b, ")</span></h1>\n<p class=\"sub\">");
	for (s = 0; g->sides[s]; s++) {
		const char *name = player_name(rec, g->sides[s]);

		kifu_buf_printf(b, "%s<span class=\"dot side-%s\"></span> ", s ? " &middot; " : "",
				g->sides[s]);
		html_text(b, name ? name : g->sides[s]);
		if (name) {
			kifu_buf_puts(b, " (");
			html_text(b, g->sides[s]);
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
		      "<button id=\"end\" title=\"last position (End)\">&#x25B6;|</button></div>\n"
		      "<p class=\"keys\">keys: &larr; &rarr; Home End; the address ends in "
		      "#ply=N</p>\n"
		      "<noscript><p>This page needs JavaScript to step through the moves; "
		      "the board above shows one position.</p></noscript>\n"
		      "</section>\n<aside>\n<h2>Moves</h2>\n<ol id=\"moves\">\n"
		      "<li><button data-ply=\"0\"><span class=\"n\">0</span>"
		      "<span>start</span></button></li>\n");
	for (i = 1; i <= rp->nplies; i++) {
		const char *comment = rec->turns[i - 1].comment;

		kifu_buf_printf(b, "<li><button data-ply=\"%zu\"><span class=\"n\">%zu</span>"
				"<span class=\"dot side-%s\" title=\"%s\"></span><span>", i, i,
				g->sides[movers[i]], g->sides[movers[i]]);
		html_text(b, kifu_replay_text(rp, i));
		kifu_buf_puts(b, "</span>");
		if (comment) {
			kifu_buf_puts(b, "<span class=\"c\">");
			html_text(b, comment);
			kifu_buf_puts(b, "</span>");
		}
		kifu_buf_puts(b, "</button></li>\n");
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
	ret = put_pictures(b, h.svg, n);
	if (ret < 0)
		goto out;
	kifu_buf_puts(b, "var MOVES = [''");
	for (i = 1; i <= rp->nplies; i++) {
		kifu_buf_putc(b, ',');
		js_string(b, kifu_replay_text(rp, i));
	}
	kifu_buf_puts(b, "];\nvar FIG = [");
	for (i = 0; i < n; i++) {
		kifu_buf_puts(b, i ? ",\n[" : "\n[");
		for (k = 0; k < h.nfig[i]; k++) {
			char num[32];
			const struct kifu_figure *f = &h.fig[i][k];

			kifu_buf_puts(b, k ? ",[" : "[");
			js_string(b, f->key);
			kifu_buf_putc(b, ',');
			snprintf(num, sizeof(num), "%ld", f->num);
			js_string(b, f->type == KIFU_FIG_TEXT ? (f->text[0] ? f->text : "-") : num);
			kifu_buf_putc(b, ']');
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_printf(b, "];\nvar START = %ld;\n%s</script>\n</body>\n</html>\n", start,
			html_script);
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	if (h.svg)
		for (i = 0; i < n; i++)
			free(h.svg[i]);
	free(h.svg);
	free(h.fig);
	free(h.nfig);
	return ret;
}

/* ---- output ---- */

/* The stream of single-output formats, opened on first use; NULL after reporting a failure. */
static FILE *output(struct export *ex)
{
	if (ex->out || ex->io_error)
		return ex->out;
	if (!ex->out_path) {
		ex->out = stdout;
		return ex->out;
	}
	ex->out = fopen(ex->out_path, "w");
	if (!ex->out) {
		report_errno("write", ex->out_path);
		ex->io_error = 1;
	}
	return ex->out;
}

static void write_out(struct export *ex, const struct kifu_buf *b)
{
	FILE *fp = output(ex);

	if (fp && b->len && fwrite(b->data, 1, b->len, fp) != b->len) {
		report_errno("write", ex->out_path ? ex->out_path : "standard output");
		ex->io_error = 1;
	}
}

static void write_file(struct export *ex, const char *path, const struct kifu_buf *b)
{
	FILE *fp = fopen(path, "w");

	if (!fp) {
		report_errno("write", path);
		ex->io_error = 1;
		return;
	}
	if (fwrite(b->data, 1, b->len, fp) != b->len || fflush(fp) != 0 || ferror(fp)) {
		report_errno("write", path);
		ex->io_error = 1;
	}
	if (fclose(fp) != 0 && !ex->io_error) {
		report_errno("write", path);
		ex->io_error = 1;
	}
}

/* Switches svg/html output to one file per game in out_path (created when missing). */
static int enter_dir_mode(struct export *ex)
{
	if (ex->dir_mode)
		return 0;
	if (!ex->out_path) {
		cli_errorf("several games to write as '%s': give -o DIR for one file per game",
			   format_names[ex->format]);
		ex->usage_error = 1;
		return -1;
	}
	if (!is_dir(ex->out_path) && mkdir(ex->out_path, 0777) < 0) {
		if (errno == EEXIST) {
			cli_errorf("several games to write as '%s': '%s' is not a directory",
				   format_names[ex->format], ex->out_path);
			ex->usage_error = 1;
		} else {
			report_errno("create", ex->out_path);
			ex->io_error = 1;
		}
		return -1;
	}
	ex->dir_mode = 1;
	return 0;
}

static void file_in_dir(char *path, size_t size, const struct export *ex, const char *name)
{
	size_t n = strlen(ex->out_path);

	snprintf(path, size, "%s%s%s.%s", ex->out_path,
		 n && ex->out_path[n - 1] == '/' ? "" : "/", name, format_names[ex->format]);
}

/*
 * Hands the picture or page of one game to its destination: a file in the
 * directory, or, while it may be the only game, the pending slot. Returns
 * -1 when export must stop.
 */
static int deliver_file(struct export *ex, struct kifu_buf *b, const char *name)
{
	char path[4096];

	if (!ex->dir_mode && !ex->has_pending) {
		kifu_buf_release(&ex->pending);
		ex->pending = *b;
		*b = (struct kifu_buf)KIFU_BUF_INIT;
		snprintf(ex->pending_name, sizeof(ex->pending_name), "%s", name);
		ex->has_pending = 1;
		return 0;
	}
	if (enter_dir_mode(ex) < 0)
		return -1;
	if (ex->has_pending) {
		file_in_dir(path, sizeof(path), ex, ex->pending_name);
		write_file(ex, path, &ex->pending);
		kifu_buf_release(&ex->pending);
		ex->has_pending = 0;
	}
	file_in_dir(path, sizeof(path), ex, name);
	write_file(ex, path, b);
	return 0;
}

/* Writes what is still held at the end: a single picture or page goes to -o or stdout. */
static void finish(struct export *ex)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	if (ex->format == FMT_JSON && ex->json_array && !ex->usage_error) {
		kifu_buf_puts(&b, ex->exported ? "\n]\n" : "[]\n");
		write_out(ex, &b);
	}
	if (ex->has_pending) {
		if (ex->dir_mode) {
			char path[4096];

			file_in_dir(path, sizeof(path), ex, ex->pending_name);
			write_file(ex, path, &ex->pending);
		} else {
			write_out(ex, &ex->pending);
		}
		kifu_buf_release(&ex->pending);
		ex->has_pending = 0;
	}
	kifu_buf_release(&b);
	if (ex->out && ex->out != stdout) {
		if (fclose(ex->out) != 0 && !ex->io_error) {
			report_errno("write", ex->out_path);
			ex->io_error = 1;
		}
	} else if (ex->out == stdout && cli_flush_stdout() < 0) {
		ex->io_error = 1;
	}
	ex->out = NULL;
}

/*
 * Exports one replayed, valid game. label: the game and where it came from
 * ("game 2 of FILE", "game 17 in DB"), for headers and messages; name: its
 * file name in a directory (without extension). Returns -1 to stop
 * everything (out of memory, usage).
 */
static int export_game(struct export *ex, const struct kifu_record *rec, const char *label,
		       const char *name)
{
	const struct kifu_replay *rp = &ex->replay;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct mover_ctx mc = { NULL };
	size_t ply = rp->nplies;
	int ret = 0;

	if (ex->ply >= 0 && (size_t)ex->ply > rp->nplies) {
		cli_errorf("%s: ply %ld is past the end of the game (%zu plies)", label, ex->ply,
			   rp->nplies);
		ex->invalid = 1;
		return 0;
	}
	if (ex->ply >= 0)
		ply = (size_t)ex->ply;
	mc.movers = calloc(rp->nplies + 1, sizeof(*mc.movers));
	if (!mc.movers || walk_plies(rp, 0, rp->nplies, note_mover, &mc) < 0) {
		ret = KIFU_ENOMEM;
		goto out;
	}
	switch (ex->format) {
	case FMT_YAML:
		ret = put_yaml(&b, rec, rp);
		break;
	case FMT_JSON:
		if (ex->json_array)
			kifu_buf_puts(&b, ex->exported ? ",\n" : "[\n");
		ret = put_json(&b, rec, rp);
		if (!ex->json_array)
			kifu_buf_putc(&b, '\n');
		break;
	case FMT_TEXT:
		if (ex->exported)
			kifu_buf_putc(&b, '\n');
		ret = put_text(&b, rec, rp, label, ex->ply, mc.movers);
		break;
	case FMT_SVG:
		ret = put_svg(&b, rp, ply);
		break;
	case FMT_HTML:
		ret = put_html(&b, rec, rp, ex->ply, mc.movers);
		break;
	}
	if (ret == 0 && b.failed)
		ret = KIFU_ENOMEM;
	if (ret < 0)
		goto out;
	if (ex->format == FMT_SVG || ex->format == FMT_HTML) {
		if (deliver_file(ex, &b, name) < 0) {
			ret = -1;
			goto out;
		}
	} else {
		write_out(ex, &b);
	}
	ex->exported++;
out:
	if (ret < -1)
		cli_errorf("%s", kifu_strerror(ret));
	free(mc.movers);
	kifu_buf_release(&b);
	return ret < 0 ? -1 : 0;
}

/*
 * Validates rec and, when valid, exports it; diagnostics go to stderr as
 * kifu-validate prints them, with source as the file. Returns -1 to stop
 * everything.
 */
static int check_and_export(struct export *ex, const struct kifu_record *rec,
			    struct kifu_diags *diags, const char *source, const char *label,
			    const char *name)
{
	struct kifu_error err;
	size_t i;

	kifu_error_clear(&err);
	if (kifu_record_validate(&ex->replay, diags, rec, KIFU_VALIDATE_TEXT, &err) < 0) {
		cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
		ex->io_error = 1;
		return -1;
	}
	for (i = 0; i < diags->n; i++)
		cli_print_diag(stderr, source, &diags->v[i]);
	if (diags->errors) {
		ex->invalid = 1;
		return 0;
	}
	return export_game(ex, rec, label, name);
}

/* cli_game_fn over check_and_export. */
static int export_one(void *ctx, struct kifu_record *rec, struct kifu_diags *diags,
		      const char *source, const char *label, const char *name)
{
	return check_and_export(ctx, rec, diags, source, label, name);
}

static long parse_count(const char *opt, const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || end == text || text[0] == '-' || text[0] == '+' || text[0] == ' ')
		cli_usage_error(usage, "%s expects a number of 0 or more, not '%s'", opt, text);
	return v;
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_ID, O_FILE, O_TO, O_PLY };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		{ "id", required_argument, NULL, O_ID },
		{ "file", required_argument, NULL, O_FILE },
		{ "to", required_argument, NULL, O_TO },
		{ "ply", required_argument, NULL, O_PLY },
		{ "output", required_argument, NULL, 'o' },
		CLI_FILTER_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct export ex;
	struct cli_status status = { 0, 0, 0 };
	struct kifu_filter f;
	int any_filter = 0;
	const char *db = NULL, *file = NULL, *to = NULL;
	long id = -1;
	int opt, i, sources;

	cli_init(argv[0]);
	memset(&ex, 0, sizeof(ex));
	memset(&f, 0, sizeof(f));
	ex.ply = -1;
	ex.format = -1;
	ex.replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", options, NULL)) != -1) {
		if (cli_filter_option(&f, opt, optarg)) {
			any_filter = 1;
			continue;
		}
		switch (opt) {
		case O_DB: db = optarg; break;
		case O_ID: id = parse_count("--id", optarg); break;
		case O_FILE: file = optarg; break;
		case O_TO: to = optarg; break;
		case O_PLY: ex.ply = parse_count("--ply", optarg); break;
		case 'o': ex.out_path = optarg; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (!to)
		cli_usage_error(usage, "expected --to FORMAT (yaml, json, text, svg or html)");
	for (i = 0; format_names[i]; i++)
		if (!strcmp(to, format_names[i]))
			ex.format = i;
	if (ex.format < 0)
		cli_usage_error(usage, "unknown format '%s' (yaml, json, text, svg or html)", to);
	sources = (file != NULL) + (id >= 0) + any_filter;
	if (sources == 0)
		cli_usage_error(usage, "expected --file RECORD, --id N or FILTERS");
	if (sources > 1)
		cli_usage_error(usage, "give only one of --file, --id and FILTERS");
	if (any_filter)
		cli_filter_check(usage, &f);
	if (ex.ply >= 0 && (ex.format == FMT_YAML || ex.format == FMT_JSON))
		cli_usage_error(usage, "--ply applies to text, svg and html, not '%s'", to);
	if (db && file)
		cli_usage_error(usage, "--db applies to --id and FILTERS, not --file");
	if (ex.out_path && is_dir(ex.out_path)) {
		if (ex.format != FMT_SVG && ex.format != FMT_HTML)
			cli_usage_error(usage, "-o '%s' is a directory: only svg and html write one "
					"file per game", ex.out_path);
		ex.dir_mode = 1;
	}
	ex.json_array = id < 0;

	if (file)
		cli_games_file(file, export_one, &ex, &status);
	else
		cli_games_store(db, id, &f, 0, export_one, &ex, &status);
	ex.invalid |= status.invalid;
	ex.io_error |= status.io_error;
	ex.usage_error |= status.usage_error;
	finish(&ex);
	kifu_replay_release(&ex.replay);
	kifu_buf_release(&ex.pending);
	if (ex.usage_error)
		return EXIT_USAGE;
	return ex.io_error ? EXIT_FAILURE_IO : ex.invalid ? EXIT_INVALID : EXIT_OK;
}
