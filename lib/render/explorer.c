/*
 * The tree explorer page of include/kifu/explorer.h. The positions are
 * walked level by level from the one asked for: each position above the
 * depth gets its tree report (kifu_stats_report, so the database is only
 * read through the public report API and the figures are the tool's),
 * each of its moves is played by the engine to find the next position,
 * and positions are shared by their hash, so that lines that transpose
 * lead to one position of the page. The page carries every picture (the
 * board after the move that leads there, drawn by the engine and compacted
 * by render.c) and every table as data for its script, which draws the
 * position the reader is at; nothing from the database is ever written as
 * markup: the script sets it as text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/explorer.h"
#include "kifu/game.h"
#include "render/html.h"
#include "stats/stats_impl.h"

/* One position of the page. */
struct ex_node {
	uint64_t hash;
	int depth;                 /* plies below the first position */
	char *after;               /* canonical moves from the start, comma-separated */
	unsigned char *state;
	struct kifu_report *rep;   /* its tree; NULL at the depth (a board only) */
	long *to;                  /* per row: the position it leads to, -1 none, -2 page full */
	long *pic;                 /* per row: the picture of that position after this move */
	size_t nrows;              /* rows of rep in the page (the first ones: most played) */
	size_t more;               /* rows of rep left out (the page's rows are bounded) */
};

struct explorer {
	const struct kifu_game *g;
	int variant;
	struct ex_node *v;
	size_t n, cap;
	long *slot;                /* open addressing on hash: node index + 1, 0 empty */
	size_t nslots;
	char **pics;               /* pictures; [0] the first position */
	size_t npics, cap_pics;
	struct kifu_explorer_info info;
	size_t rows, max_rows;     /* table rows in the page, and the most it takes */
};

/* A move of a level's tables waiting to be followed. */
struct ex_edge {
	size_t node, row;
	long long games;
	kifu_move move;
};

static void explorer_release(struct explorer *ex)
{
	size_t i;

	for (i = 0; i < ex->n; i++) {
		free(ex->v[i].after);
		free(ex->v[i].state);
		kifu_report_free(ex->v[i].rep);
		free(ex->v[i].to);
		free(ex->v[i].pic);
	}
	free(ex->v);
	free(ex->slot);
	for (i = 0; i < ex->npics; i++)
		kifu_buf_detached_free(ex->pics[i]);
	free(ex->pics);
}

static size_t hash_slot(uint64_t h, size_t nslots)
{
	return (size_t)((h ^ (h >> 31)) * UINT64_C(0x9e3779b97f4a7c15) >> 7) & (nslots - 1);
}

/* The node of position hash h, or -1. */
static long find_node(const struct explorer *ex, uint64_t h)
{
	size_t k;

	if (!ex->nslots)
		return -1;
	for (k = hash_slot(h, ex->nslots); ex->slot[k]; k = (k + 1) & (ex->nslots - 1))
		if (ex->v[ex->slot[k] - 1].hash == h)
			return ex->slot[k] - 1;
	return -1;
}

/* Adds a node (state copied, after taken over); its index, or -1 when out of memory. */
static long add_node(struct explorer *ex, const void *state, int depth, char *after)
{
	const struct kifu_game *g = ex->g;
	struct ex_node *e;
	size_t k, i;

	if (ex->n == ex->cap) {
		size_t cap = ex->cap ? ex->cap * 2 : 64;
		struct ex_node *v = realloc(ex->v, cap * sizeof(*v));

		if (!v)
			goto fail;
		ex->v = v;
		ex->cap = cap;
	}
	if ((ex->n + 1) * 2 > ex->nslots) {
		size_t nslots = ex->nslots ? ex->nslots * 2 : 128;
		long *slot = calloc(nslots, sizeof(*slot));

		if (!slot)
			goto fail;
		for (i = 0; i < ex->n; i++) {
			for (k = hash_slot(ex->v[i].hash, nslots); slot[k]; k = (k + 1) & (nslots - 1))
				;
			slot[k] = (long)i + 1;
		}
		free(ex->slot);
		ex->slot = slot;
		ex->nslots = nslots;
	}
	e = &ex->v[ex->n];
	memset(e, 0, sizeof(*e));
	e->state = malloc(g->state_size);
	if (!e->state)
		goto fail;
	memcpy(e->state, state, g->state_size);
	e->hash = g->hash(state);
	e->depth = depth;
	e->after = after;
	for (k = hash_slot(e->hash, ex->nslots); ex->slot[k]; k = (k + 1) & (ex->nslots - 1))
		;
	ex->slot[k] = (long)ex->n + 1;
	if (depth > ex->info.max_depth)
		ex->info.max_depth = depth;
	return (long)ex->n++;
fail:
	free(after);
	return -1;
}

/* Adds the picture of state (last: the move that led there, or NULL); its index or -1. */
static long add_picture(struct explorer *ex, const void *state, const kifu_move *last)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	char *pic;

	if (ex->npics == ex->cap_pics) {
		size_t cap = ex->cap_pics ? ex->cap_pics * 2 : 64;
		char **v = realloc(ex->pics, cap * sizeof(*v));

		if (!v)
			return -1;
		ex->pics = v;
		ex->cap_pics = cap;
	}
	if (kifu_game_render_svg(&b, ex->g, state, last) < 0 || !b.data) {
		kifu_buf_release(&b);
		return -1;
	}
	pic = kifu_buf_detach(&b);
	if (!pic)
		return -1;
	ex->pics[ex->npics] = pic;
	return (long)ex->npics++;
}

/* after + "," + move (or move alone), or NULL when out of memory. */
static char *join_moves(const char *after, const char *move)
{
	size_t a = strlen(after), m = strlen(move);
	char *s = malloc(a + m + 2);

	if (!s)
		return NULL;
	memcpy(s, after, a);
	if (a)
		s[a++] = ',';
	memcpy(s + a, move, m + 1);
	return s;
}

/*
 * The first position: opt->after replayed (kifu_stats_report has already
 * accepted it), its moves in canonical text in *after, and its picture
 * with the last move marked.
 */
static int first_position(struct explorer *ex, const char *list, struct kifu_error *err)
{
	const struct kifu_game *g = ex->g;
	struct kifu_pos *pos = NULL;
	char text[KIFU_MOVE_TEXT_MAX * 2], canon[KIFU_MOVE_TEXT_MAX];
	char *after = NULL;
	kifu_move m = 0;
	int ret, played = 0;

	ret = kifu_pos_new(&pos, g, ex->variant, 0, err);
	if (ret < 0)
		return ret;
	after = join_moves("", "");
	while (after && list && *list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);
		char *longer;

		if (n >= sizeof(text)) {
			ret = kifu_error_set(err, KIFU_EPARSE, "unparsable move: too long");
			goto out;
		}
		memcpy(text, list, n);
		text[n] = '\0';
		ret = g->parse_move(pos->state, text, &m, err);
		if (ret < 0)
			goto out;
		g->format_move(pos->state, m, canon);
		g->apply(pos->state, m);
		played = 1;
		longer = join_moves(after, canon);
		free(after);
		after = longer;
		list = end ? end + 1 : NULL;
	}
	if (!after || add_picture(ex, pos->state, played ? &m : NULL) < 0) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	/* add_node owns after from here, freed even when it fails. */
	ret = add_node(ex, pos->state, 0, after) < 0 ?
		kifu_error_set(err, KIFU_ENOMEM, "out of memory") : 0;
	after = NULL;
out:
	free(after);
	kifu_pos_free(pos);
	return ret;
}

static int cmp_edge(const void *x, const void *y)
{
	const struct ex_edge *a = x, *b = y;

	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/*
 * The tables of nodes [lo, hi) (one level) and the moves they list, in
 * *edges: each move the engine accepts in its position. A move it does
 * not accept (a damaged database) stays in the table, leading nowhere.
 */
static int level_tables(struct explorer *ex, size_t lo, size_t hi, struct kifu_store *st,
			const struct kifu_filter *f, const struct kifu_explorer_options *opt,
			struct ex_edge **edges, size_t *nedges, struct kifu_error *err)
{
	const struct kifu_game *g = ex->g;
	size_t i, r, cap = 0;
	int ret;

	*nedges = 0;
	for (i = lo; i < hi; i++) {
		struct kifu_stats_options so = opt->stats;
		struct ex_node *e = &ex->v[i];
		long move_col;
		size_t nrows;

		so.after = e->after;
		ret = e->rep ? 0 : kifu_stats_report(&e->rep, st, KIFU_STATS_TREE, f, &so, err);
		if (ret < 0)
			return ret;
		ex->info.tables++;
		nrows = kifu_report_nrows(e->rep);
		if (nrows > ex->max_rows - ex->rows) {
			e->more = nrows - (ex->max_rows - ex->rows);
			ex->info.rows_left_out += e->more;
			nrows = ex->max_rows - ex->rows;
		}
		e->nrows = nrows;
		ex->rows += nrows;
		e->to = malloc((nrows ? nrows : 1) * sizeof(*e->to));
		e->pic = malloc((nrows ? nrows : 1) * sizeof(*e->pic));
		if (!e->to || !e->pic)
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		move_col = kifu_report_find_col(e->rep, "move");
		for (r = 0; r < nrows; r++) {
			const struct kifu_cell *mc = kifu_report_cell(e->rep, r, (size_t)move_col);
			const struct kifu_cell *gc = kifu_report_cell(e->rep, r,
				(size_t)kifu_report_find_col(e->rep, "games"));
			struct kifu_error why;
			kifu_move m;

			e->to[r] = -1;
			e->pic[r] = -1;
			if (move_col < 0 || mc->type != KIFU_CELL_TEXT ||
			    g->parse_move(e->state, mc->text, &m, &why) < 0)
				continue;
			if (*nedges == cap) {
				size_t c = cap ? cap * 2 : 256;
				struct ex_edge *v = realloc(*edges, c * sizeof(*v));

				if (!v)
					return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
				*edges = v;
				cap = c;
			}
			(*edges)[*nedges].node = i;
			(*edges)[*nedges].row = r;
			(*edges)[*nedges].games = gc->type == KIFU_CELL_INT ? gc->i : 0;
			(*edges)[*nedges].move = m;
			(*nedges)++;
		}
	}
	return 0;
}

/* Follows the level's moves, most played first, while the page has room. */
static int level_links(struct explorer *ex, struct ex_edge *edges, size_t nedges, size_t max,
		       unsigned char *child, struct kifu_error *err)
{
	const struct kifu_game *g = ex->g;
	size_t i;

	if (nedges)
		qsort(edges, nedges, sizeof(*edges), cmp_edge);
	for (i = 0; i < nedges; i++) {
		struct ex_node *e = &ex->v[edges[i].node];
		size_t row = edges[i].row;
		long to, pic;

		memcpy(child, e->state, g->state_size);
		g->apply(child, edges[i].move);
		to = find_node(ex, g->hash(child));
		/* Links into the page stay bounded too: at most two per position. */
		if ((to < 0 && ex->n >= max) || ex->npics >= 2 * max) {
			e->to[row] = -2;
			ex->info.left_out++;
			continue;
		}
		if (to < 0) {
			char canon[KIFU_MOVE_TEXT_MAX], *after;

			g->format_move(e->state, edges[i].move, canon);
			after = join_moves(e->after, canon);
			/* e moves when the array grows: nothing of it is used below. */
			to = after ? add_node(ex, child, e->depth + 1, after) : -1;
			if (to < 0)
				return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
			e = &ex->v[edges[i].node];
		}
		pic = add_picture(ex, child, &edges[i].move);
		if (pic < 0)
			return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		e->to[row] = to;
		e->pic[row] = pic;
		ex->info.links++;
	}
	return 0;
}

static int explore(struct explorer *ex, struct kifu_store *st, const struct kifu_filter *f,
		   const struct kifu_explorer_options *opt, struct kifu_error *err)
{
	size_t lo = 0, hi, nedges = 0;
	size_t max = opt->max_positions ? opt->max_positions : KIFU_EXPLORER_MAX_POSITIONS;
	struct ex_edge *edges = NULL;
	unsigned char *child = malloc(ex->g->state_size);
	int depth, ret = 0;

	if (!child)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	for (depth = 0; depth < opt->depth && lo < ex->n; depth++) {
		hi = ex->n;
		ret = level_tables(ex, lo, hi, st, f, opt, &edges, &nedges, err);
		if (ret == 0)
			ret = level_links(ex, edges, nedges, max, child, err);
		if (ret < 0)
			break;
		lo = hi;
	}
	free(edges);
	free(child);
	return ret;
}

/* ---- the page ---- */

/* Appends the JSON in j to b as a script value: '<' only occurs in its strings. */
static void put_script_json(struct kifu_buf *b, const struct kifu_buf *j)
{
	size_t i;

	for (i = 0; i < j->len; i++) {
		if (j->data[i] == '<')
			kifu_buf_puts(b, "\\u003c");
		else
			kifu_buf_putc(b, j->data[i]);
	}
}

static long long cell_int(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *k = c < 0 ? NULL : kifu_report_cell(rep, row, (size_t)c);

	return k && k->type == KIFU_CELL_INT ? k->i : 0;
}

/* One table row: the cells as the text table shows them, and the bar's counts. */
static void json_row(struct kifu_buf *j, const struct explorer *ex, const struct ex_node *e,
		     size_t r, const struct kifu_report_tcol_ *t, size_t nt, struct kifu_buf *cell)
{
	const struct kifu_game *g = ex->g;
	const struct kifu_report *rep = e->rep;
	long move_col = kifu_report_find_col(rep, "move");
	const struct kifu_cell *mc = kifu_report_cell(rep, r, (size_t)(move_col < 0 ? 0 : move_col));
	int mover = g->side_to_move(e->state), s;
	long long games = cell_int(rep, r, "games"), draws = cell_int(rep, r, "draws");
	long long unf = cell_int(rep, r, "unfinished"), wins = 0, other = 0;
	size_t c;

	for (s = 0; s < g->nsides; s++) {
		char name[64];

		snprintf(name, sizeof(name), "wins_%s", g->sides[s]);
		if (s == mover)
			wins = cell_int(rep, r, name);
		else
			other += cell_int(rep, r, name);
	}
	kifu_buf_puts(j, r ? ",\n{\"m\":" : "\n{\"m\":");
	kifu_buf_json_string(j, mc->type == KIFU_CELL_TEXT ? mc->text : "");
	kifu_buf_puts(j, ",\"c\":[");
	for (c = 0; c < nt; c++) {
		kifu_report_tcol_text_(cell, rep, &t[c], (long)r);
		kifu_buf_puts(j, c ? "," : "");
		kifu_buf_json_string(j, cell->data ? cell->data : "");
	}
	kifu_buf_printf(j, "],\"g\":%lld,\"w\":%lld,\"d\":%lld,\"l\":%lld,\"u\":%lld,\"to\":%ld,"
			"\"p\":%ld}", games, wins, draws, other, unf, e->to[r], e->pic[r]);
}

/* The header cells and the columns' names (for the test hooks) of the first table. */
static void json_columns(struct kifu_buf *j, const struct kifu_report *rep,
			 const struct kifu_report_tcol_ *t, size_t nt, struct kifu_buf *cell)
{
	size_t c;

	kifu_buf_puts(j, ",\n\"head\":[");
	for (c = 0; c < nt; c++) {
		kifu_report_tcol_text_(cell, rep, &t[c], -1);
		kifu_buf_puts(j, c ? "," : "");
		kifu_buf_json_string(j, cell->data ? cell->data : "");
	}
	kifu_buf_puts(j, "],\n\"cols\":[");
	for (c = 0; c < nt; c++) {
		kifu_buf_puts(j, c ? "," : "");
		kifu_buf_json_string(j, kifu_report_col(rep, t[c].col));
	}
	kifu_buf_puts(j, "]");
}

/* The filters a page shows (game and variant are its title), as the options name them. */
static const char *const filter_keys[] = { "player", "event", "since", "until", "termination",
					   "level" };
#define NFILTERS (sizeof(filter_keys) / sizeof(filter_keys[0]))

static void filter_values(const char *vals[NFILTERS], const struct kifu_filter *f)
{
	vals[0] = f->player;
	vals[1] = f->event;
	vals[2] = f->since;
	vals[3] = f->until;
	vals[4] = f->termination;
	vals[5] = f->level;
}

static void json_filter(struct kifu_buf *j, const struct kifu_filter *f)
{
	const char *vals[NFILTERS];
	size_t i, n = 0;

	filter_values(vals, f);
	kifu_buf_puts(j, ",\n\"filters\":[");
	for (i = 0; i < NFILTERS; i++) {
		if (!vals[i])
			continue;
		kifu_buf_puts(j, n++ ? ",[" : "[");
		kifu_buf_json_string(j, filter_keys[i]);
		kifu_buf_putc(j, ',');
		kifu_buf_json_string(j, vals[i]);
		kifu_buf_putc(j, ']');
	}
	kifu_buf_puts(j, "]");
}

/* The page's data: DATA (see the script) as JSON. */
static int put_data(struct kifu_buf *j, const struct explorer *ex, const struct kifu_filter *f,
		    const struct kifu_explorer_options *opt)
{
	const struct kifu_game *g = ex->g;
	struct kifu_report_tcol_ *t = NULL;
	struct kifu_buf cell = KIFU_BUF_INIT;
	size_t nt = 0, i, r;
	int s;

	/* Every table has the same columns: the first's. */
	if (ex->v[0].rep) {
		t = calloc(kifu_report_ncols(ex->v[0].rep) + 1, sizeof(*t));
		if (!t)
			return KIFU_ENOMEM;
		nt = kifu_report_table_plan_(t, ex->v[0].rep, 0, 0);
	}
	kifu_buf_puts(j, "{\"game\":");
	kifu_buf_json_string(j, g->name);
	kifu_buf_puts(j, ",\"title\":");
	kifu_buf_json_string(j, g->title);
	kifu_buf_puts(j, ",\"variant\":");
	kifu_buf_json_string(j, g->variants[ex->variant]);
	kifu_buf_printf(j, ",\"variants\":%d,\"sides\":[", kifu_game_variant_count(g));
	for (s = 0; s < g->nsides; s++) {
		kifu_buf_puts(j, s ? "," : "");
		kifu_buf_json_string(j, g->sides[s]);
	}
	kifu_buf_printf(j, "],\"depth\":%d,\"min_games\":%ld,\"max_positions\":%zu,"
			"\"left_out\":%zu,\"max_rows\":%zu", opt->depth, opt->stats.min_games,
			opt->max_positions ? opt->max_positions : (size_t)KIFU_EXPLORER_MAX_POSITIONS,
			ex->info.left_out, ex->max_rows);
	json_filter(j, f);
	if (ex->v[0].rep)
		json_columns(j, ex->v[0].rep, t, nt, &cell);
	else
		kifu_buf_puts(j, ",\n\"head\":[],\"cols\":[]");
	kifu_buf_puts(j, ",\n\"nodes\":[");
	for (i = 0; i < ex->n; i++) {
		const struct ex_node *e = &ex->v[i];

		kifu_buf_printf(j, "%s{\"d\":%d,\"hash\":\"%016" PRIx64 "\",\"side\":%d,\"after\":",
				i ? ",\n" : "\n", e->depth, e->hash, g->side_to_move(e->state));
		kifu_buf_json_string(j, e->after);
		if (!e->rep) {
			kifu_buf_puts(j, ",\"rows\":null}");
			continue;
		}
		kifu_buf_puts(j, ",\"rows\":[");
		for (r = 0; r < e->nrows; r++)
			json_row(j, ex, e, r, t, nt, &cell);
		kifu_buf_printf(j, "],\"more\":%zu}", e->more);
	}
	kifu_buf_puts(j, "]}");
	free(t);
	kifu_buf_release(&cell);
	return j->failed || cell.failed ? KIFU_ENOMEM : 0;
}

static const char page_style[] =
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 \"DejaVu Sans\",Verdana,Arial,sans-serif;color:#2b2418;"
	"background:#f3eee2}\n"
	"header{padding:12px 20px;background:#fffaf0;border-bottom:1px solid #d8ccb0}\n"
	"h1{font-size:20px;margin:0}\n"
	".sub{margin:3px 0 0;color:#6b5f4a;font-weight:normal}\n"
	"main{display:flex;flex-wrap:wrap;gap:20px;padding:16px 20px;align-items:flex-start}\n"
	"#board{flex:0 1 440px;min-width:260px}\n"
	"#board svg{display:block;width:100%;height:auto;border:1px solid #d8ccb0}\n"
	"aside{flex:1 1 560px;min-width:300px;max-width:900px}\n"
	"#wrap{overflow:auto;max-height:calc(100vh - 190px);"
	"border:1px solid #d8ccb0}\n"
	"#path{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:0 0 8px}\n"
	"#path button{font:inherit;padding:2px 9px;cursor:pointer;border:1px solid #b9aa88;"
	"border-radius:4px;background:#fffaf0;color:inherit}\n"
	"#path button:hover{background:#f6efdc}\n"
	"#path button.here{background:#ffe08a;font-weight:bold;cursor:default}\n"
	"#path .sep{color:#9a8d72}\n"
	"#status{margin:0 0 8px;color:#4a3f2c}\n"
	".dot{display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:5px;"
	"border:1px solid #333;background:#9a9a9a;vertical-align:-1px}\n"
	".side-white{background:#f7f5ee}.side-black{background:#2a2a2a}"
	".side-red{background:#cf3b2e}.side-yellow{background:#f2c416}"
	".side-blue{background:#2f63c4}.side-green{background:#2f9a4b}\n"
	"table{border-collapse:collapse;background:#fff;width:100%;font-size:14px}\n"
	"th,td{padding:3px 5px;border-bottom:1px solid #f0e9d8;white-space:nowrap}\n"
	"th{font-weight:normal;color:#6b5f4a;text-align:right;background:#fffaf0;position:sticky;"
	"top:0;border-bottom:1px solid #d8ccb0}\n"
	"th.text,td.text{text-align:left}\n"
	"td{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tbody tr.go{cursor:pointer}\n"
	"tbody tr.go:hover{background:#f6efdc}\n"
	"tbody tr.go td.move{color:#1d4f91;font-weight:bold;text-decoration:underline dotted}\n"
	"tbody tr.off{color:#8a8170}\n"
	"td.bar{width:120px;min-width:90px}\n"
	".wdl{display:flex;height:18px;border-radius:3px;overflow:hidden;border:1px solid #bcb09a;"
	"font-size:11px;line-height:16px;color:#fff}\n"
	".wdl span{display:block;text-align:center;overflow:hidden}\n"
	".wdl .w{background:#4f9a5f}.wdl .d{background:#a59d8c}.wdl .l{background:#c0504d}"
	".wdl .u{background:#e4dfd2;color:#6b5f4a}\n"
	".note{color:#6b5f4a;font-size:13px}\n"
	"code{display:block;margin-top:4px;background:#fffaf0;border:1px solid #e3d9c2;"
	"padding:4px 6px;border-radius:3px;white-space:pre-wrap;overflow-wrap:anywhere;color:#2b2418}\n";

/*
 * DATA.nodes[i]: a position (d: plies below the first, side: the side to
 * move, after: the moves from the start, rows: its table or null below
 * the depth); a row: m the move, c the cells, g/w/d/l/u games, wins of
 * the side to move, draws, other sides' wins, unfinished; to the position
 * it leads to (-1 none, -2 left out of a full page), p its picture.
 * The reader's path is a list of [node, picture, move].
 */
static const char page_script1[] =
	"(function () {\n"
	"\"use strict\";\n"
	"var D = DATA, N = D.nodes;\n"
	"var board = document.getElementById(\"board\"), crumbs = document.getElementById(\"path\");\n"
	"var status = document.getElementById(\"status\"), body = document.getElementById(\"rows\");\n"
	"var note = document.getElementById(\"note\");\n"
	"var path = [[0, 0, null]];\n"
	"function picture(p) {\n"
	"\treturn PRE + PLY[p].map(function (i) { return LINES[i]; }).join(\"\\n\") + SUF;\n"
	"}\n"
	"function el(tag, cls, text) {\n"
	"\tvar e = document.createElement(tag);\n"
	"\tif (cls) e.className = cls;\n"
	"\tif (text !== undefined) e.textContent = text;\n"
	"\treturn e;\n"
	"}\n"
	"function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }\n"
	"function pct(n, of) { return of ? Math.round(1000 * n / of) / 10 : 0; }\n"
	"function moves() { return path.slice(1).map(function (s) { return s[2]; }); }\n"
	"function setHash() {\n"
	"\tvar h = \"#path=\" + moves().map(encodeURIComponent).join(\",\");\n"
	"\tif (location.hash === h) return;\n"
	"\t/* A history entry per step, so that the browser's Back goes back up. */\n"
	"\ttry { history.pushState(null, \"\", h); } catch (e) { location.hash = h; }\n"
	"}\n"
	"function bar(r) {\n"
	"\tvar b = el(\"div\", \"wdl\");\n"
	"\t[[\"w\", r.w, \"wins of the side to move\"], [\"d\", r.d, \"draws\"],\n"
	"\t [\"l\", r.l, \"wins of the other side\" + (D.sides.length > 2 ? \"s\" : \"\")],\n"
	"\t [\"u\", r.u, \"unfinished\"]].forEach(function (k) {\n"
	"\t\tif (!k[1]) return;\n"
	"\t\tvar p = pct(k[1], r.g), s = el(\"span\", k[0], p >= 18 ? Math.round(p) + \"%\" : \"\");\n"
	"\t\ts.style.width = p + \"%\";\n"
	"\t\ts.title = k[2] + \": \" + k[1] + \" of \" + r.g + \" (\" + p + \"%)\";\n"
	"\t\tb.appendChild(s);\n"
	"\t});\n"
	"\treturn b;\n"
	"}\n"
	"function go(k) { path.length = k + 1; show(); }\n"
	"function sh(s) { return \"'\" + s.replace(/'/g, \"'\\\\''\") + \"'\"; }\n"
	"function short(s) { return s.length > 40 ? \"\\u2026\" + s.slice(s.length - 39) : s; }\n";

static const char page_script2[] =
	"function show() {\n"
	"\tvar top = path[path.length - 1], node = N[top[0]], i;\n"
	"\tboard.innerHTML = picture(top[1]);\n"
	"\tboard.setAttribute(\"data-node\", String(top[0]));\n"
	"\tboard.setAttribute(\"data-path\", moves().join(\",\"));\n"
	"\tclear(crumbs);\n"
	"\tpath.forEach(function (s, k) {\n"
	"\t\tif (k) crumbs.appendChild(el(\"span\", \"sep\", \"\\u203a\"));\n"
	"\t\tvar b = el(\"button\", k === path.length - 1 ? \"here\" : \"\",\n"
	"\t\t\tk ? s[2] : N[0].after ? \"after \" + short(N[0].after.split(\",\").join(\", \"))\n"
	"\t\t\t: \"start\");\n"
	"\t\tb.setAttribute(\"data-depth\", String(k));\n"
	"\t\tif (!k && N[0].after) b.title = N[0].after;\n"
	"\t\tb.onclick = function () { go(k); setHash(); };\n"
	"\t\tcrumbs.appendChild(b);\n"
	"\t});\n"
	"\tclear(status);\n"
	"\tvar side = D.sides[node.side];\n"
	"\tstatus.appendChild(el(\"span\", \"dot side-\" + side));\n"
	"\tvar games = 0;\n"
	"\t(node.rows || []).forEach(function (r) { games += r.g; });\n"
	"\tstatus.appendChild(document.createTextNode(side + \" to move\" + (node.rows && games ?\n"
	"\t\t\" \\u00b7 \" + node.rows.length + \" move\" + (node.rows.length === 1 ? \"\" : \"s\") +\n"
	"\t\t\" in \" + games + \" game\" + (games === 1 ? \"\" : \"s\") : \"\")));\n"
	"\tclear(body);\n"
	"\tclear(note);\n"
	"\tvar out = (node.rows || []).filter(function (r) { return r.to === -2; }).length;\n"
	"\tif (!node.rows) {\n"
	"\t\tsay(\"This page goes \" + D.depth + \" pl\" + (D.depth === 1 ? \"y\" : \"ies\") +\n"
	"\t\t\t\" deep. The moves from here: \");\n"
	"\t} else if (node.more || out) {\n"
	"\t\tsay((node.more ? node.more + \" rarer move\" + (node.more === 1 ? \" is\" : \"s are\") +\n"
	"\t\t\t\" left out of this table\" : \"\") + (node.more && out ? \"; \" : \"\") +\n"
	"\t\t\t(out ? out + \" greyed move\" + (out === 1 ? \" leads\" : \"s lead\") + \" out of this page\" : \"\") +\n"
	"\t\t\t\" (a page holds \" + D.max_positions + \" positions and \" + D.max_rows +\n"
	"\t\t\t\" moves at most). \" + (node.more ? \"All the moves from here: \" :\n"
	"\t\t\t\"To go on after one of them: \"), node.more ? \"\" : \"MOVE\");\n"
	"\t} else if (!node.rows.length) {\n"
	"\t\tnote.textContent = \"No game continues from here\" +\n"
	"\t\t\t(D.min_games > 1 ? \" with a move played in \" + D.min_games + \" games or more.\" : \".\");\n"
	"\t}\n"
	"\tfunction say(text, next) {\n"
	"\t\tnote.appendChild(document.createTextNode(text));\n"
	"\t\tnote.appendChild(el(\"code\", \"\", \"kifu-stats tree --game \" + D.game +\n"
	"\t\t\t(D.variants > 1 ? \" --variant \" + D.variant : \"\") +\n"
	"\t\t\tD.filters.map(function (f) { return \" --\" + f[0] + \" \" + sh(f[1]); }).join(\"\") +\n"
	"\t\t\t(D.min_games > 1 ? \" --min-games \" + D.min_games : \"\") +\n"
	"\t\t\t(node.after || next ? \" --after \" + sh(node.after + (node.after && next ? \",\" : \"\") +\n"
	"\t\t\t(next || \"\")) : \"\")));\n"
	"\t}\n"
	"\t(node.rows || []).forEach(function (r) {\n"
	"\t\tvar tr = el(\"tr\", r.to >= 0 ? \"go\" : \"off\");\n"
	"\t\ttr.setAttribute(\"data-move\", r.m);\n"
	"\t\tfor (i = 0; i < r.c.length; i++) {\n"
	"\t\t\tvar td = el(\"td\", D.cols[i] === \"move\" ? \"text move\" : \"\", r.c[i]);\n"
	"\t\t\ttd.setAttribute(\"data-col\", D.cols[i]);\n"
	"\t\t\ttr.appendChild(td);\n"
	"\t\t\tif (D.cols[i] === \"games\") {\n"
	"\t\t\t\tvar bt = el(\"td\", \"bar\");\n"
	"\t\t\t\tbt.appendChild(bar(r));\n"
	"\t\t\t\ttr.appendChild(bt);\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tif (r.to >= 0) {\n"
	"\t\t\ttr.title = \"go to the position after \" + r.m;\n"
	"\t\t\ttr.onclick = function () { path.push([r.to, r.p, r.m]); show(); setHash(); };\n"
	"\t\t\ttr.tabIndex = 0;\n"
	"\t\t\ttr.onkeydown = function (e) { if (e.key === \"Enter\") { e.stopPropagation(); tr.onclick(); } };\n"
	"\t\t} else {\n"
	"\t\t\ttr.title = r.to === -2 ? \"not in this page: it holds \" + D.max_positions +\n"
	"\t\t\t\t\" positions at most\" : \"the engine does not accept this move here\";\n"
	"\t\t}\n"
	"\t\tbody.appendChild(tr);\n"
	"\t});\n"
	"\tdocument.getElementById(\"wrap\").style.display =\n"
	"\t\tnode.rows && node.rows.length ? \"\" : \"none\";\n"
	"}\n";

static const char page_script3[] =
	"/* #path=M1,M2,...: the moves from the position asked for, each URI-encoded. */\n"
	"function fromHash() {\n"
	"\tvar m = /^#path=(.*)$/.exec(location.hash), p = [[0, 0, null]];\n"
	"\tif (m && m[1]) m[1].split(\",\").some(function (t) {\n"
	"\t\tvar mv, node = N[p[p.length - 1][0]], r;\n"
	"\t\ttry { mv = decodeURIComponent(t); } catch (e) { return true; }\n"
	"\t\tr = (node.rows || []).filter(function (x) { return x.m === mv && x.to >= 0; })[0];\n"
	"\t\tif (!r) return true;\n"
	"\t\tp.push([r.to, r.p, r.m]);\n"
	"\t\treturn false;\n"
	"\t});\n"
	"\tpath = p;\n"
	"\tshow();\n"
	"}\n"
	"document.addEventListener(\"keydown\", function (e) {\n"
	"\tif (e.altKey || e.ctrlKey || e.metaKey) return;\n"
	"\tif (e.key === \"ArrowLeft\" || e.key === \"Backspace\") {\n"
	"\t\tif (path.length > 1) { go(path.length - 2); setHash(); }\n"
	"\t} else if (e.key === \"Home\") {\n"
	"\t\tgo(0); setHash();\n"
	"\t} else return;\n"
	"\te.preventDefault();\n"
	"});\n"
	"var head = document.getElementById(\"head\");\n"
	"D.head.forEach(function (h, i) {\n"
	"\thead.appendChild(el(\"th\", D.cols[i] === \"move\" ? \"text\" : \"\", h));\n"
	"\tif (D.cols[i] === \"games\") head.appendChild(el(\"th\", \"text\", \"won \\u00b7 drawn \\u00b7 lost\"));\n"
	"});\n"
	"window.addEventListener(\"hashchange\", fromHash);\n"
	"window.addEventListener(\"popstate\", fromHash);\n"
	"fromHash();\n"
	"})();\n";

/* The header: game, variant, the position asked for, the filters and limits (all escaped). */
static void put_header(struct kifu_buf *b, const struct explorer *ex, const struct kifu_filter *f,
		       const struct kifu_explorer_options *opt)
{
	const struct kifu_game *g = ex->g;
	const char *vals[NFILTERS];
	size_t i;

	filter_values(vals, f);
	kifu_buf_puts(b, "<header>\n<h1>");
	kifu_render_html_text_(b, g->title);
	kifu_buf_puts(b, " <span class=\"sub\">(");
	kifu_render_html_text_(b, g->variants[ex->variant]);
	kifu_buf_puts(b, ") &middot; the moves played in the stored games</span></h1>\n"
		      "<p class=\"sub\" id=\"about\">from ");
	if (ex->v[0].after[0]) {
		kifu_buf_puts(b, "the position after <b>");
		kifu_render_html_text_(b, ex->v[0].after);
		kifu_buf_puts(b, "</b>");
	} else {
		kifu_buf_puts(b, "the start");
	}
	kifu_buf_printf(b, ", %d pl%s deep, moves played in at least %ld game%s", opt->depth,
			opt->depth == 1 ? "y" : "ies", opt->stats.min_games,
			opt->stats.min_games == 1 ? "" : "s");
	for (i = 0; i < NFILTERS; i++) {
		if (!vals[i])
			continue;
		kifu_buf_printf(b, "; %s ", filter_keys[i]);
		kifu_render_html_text_(b, vals[i]);
	}
	kifu_buf_printf(b, "; %zu position%s", ex->n, ex->n == 1 ? "" : "s");
	if (ex->info.left_out)
		kifu_buf_printf(b, " (the page is full: %zu of the rarer move%s lead nowhere)",
				ex->info.left_out, ex->info.left_out == 1 ? "" : "s");
	kifu_buf_puts(b, ". Click a move to follow it; &larr; or Backspace goes back.</p>\n"
		      "</header>\n");
}

static int put_page(struct kifu_buf *b, const struct explorer *ex, const struct kifu_filter *f,
		    const struct kifu_explorer_options *opt)
{
	struct kifu_buf j = KIFU_BUF_INIT;
	int ret;

	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	kifu_render_html_text_(b, ex->g->title);
	kifu_buf_puts(b, ": tree");
	if (ex->v[0].after[0]) {
		kifu_buf_puts(b, " after ");
		kifu_render_html_text_(b, ex->v[0].after);
	}
	kifu_buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
	put_header(b, ex, f, opt);
	/* The first position is in the page itself (without script, it is what shows). */
	kifu_buf_printf(b, "<main>\n<section id=\"board\" data-node=\"0\" data-path=\"\">\n%s"
			"</section>\n<aside>\n<nav id=\"path\"></nav>\n<p id=\"status\"></p>\n"
			"<div id=\"wrap\"><table id=\"tree\"><thead><tr id=\"head\"></tr></thead>"
			"<tbody id=\"rows\"></tbody></table></div>\n<p class=\"note\" id=\"note\"></p>\n"
			"<noscript><p>This page needs JavaScript to show the moves.</p></noscript>\n"
			"</aside>\n</main>\n<script>\n", ex->pics[0]);
	ret = kifu_render_pictures_(b, ex->pics, ex->npics);
	if (ret == 0)
		ret = put_data(&j, ex, f, opt);
	if (ret < 0)
		goto out;
	kifu_buf_puts(b, "var DATA = ");
	put_script_json(b, &j);
	kifu_buf_printf(b, ";\n%s", page_script1);
	kifu_buf_puts(b, page_script2);
	kifu_buf_printf(b, "%s</script>\n</body>\n</html>\n", page_script3);
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	kifu_buf_release(&j);
	return ret;
}

int kifu_explorer_html(struct kifu_buf *out, struct kifu_explorer_info *info,
		       struct kifu_store *st, const struct kifu_filter *f,
		       const struct kifu_explorer_options *opt, struct kifu_error *err)
{
	struct explorer ex;
	struct kifu_report *first = NULL;
	int ret;

	memset(&ex, 0, sizeof(ex));
	if (opt->depth < 1)
		return kifu_error_set(err, KIFU_ERANGE, "the explorer's depth must be 1 or more");
	/*
	 * The first table comes first: the tree report checks the game, the
	 * variant and the moves, with its own messages.
	 */
	ret = kifu_stats_report(&first, st, KIFU_STATS_TREE, f, &opt->stats, err);
	if (ret < 0)
		return ret;
	ex.g = kifu_game_find(f->game);
	ex.variant = f->variant ? kifu_game_variant_index(ex.g, f->variant) : 0;
	ret = first_position(&ex, opt->stats.after, err);
	ex.max_rows = opt->max_rows ? opt->max_rows : KIFU_EXPLORER_MAX_ROWS;
	if (ret == 0) {
		ex.v[0].rep = first;
		first = NULL;
		ret = explore(&ex, st, f, opt, err);
	}
	kifu_report_free(first);
	if (ret == 0) {
		ret = put_page(out, &ex, f, opt);
		if (ret < 0)
			ret = kifu_error_set(err, ret, "out of memory");
	}
	ex.info.positions = ex.n;
	if (info)
		*info = ex.info;
	explorer_release(&ex);
	return ret;
}
