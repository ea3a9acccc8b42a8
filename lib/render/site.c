/*
 * kifu-serve's pages (include/kifu/site.h). Each is made on request from
 * the public reports and searches (the figures are kifu-stats' and
 * kifu-search's), as plain HTML with links: the explorer's address holds
 * the path of moves, so a link shares a position and the browser's back
 * button goes back up, without a script. The board is the game's own
 * picture (kifu_game_render_svg, last move marked); the charts are
 * kifu-stats --svg's; a game is kifu-export's replay page. Every text
 * from the database or the request is escaped for HTML (html.c) and, in
 * an address, percent-encoded first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/html.h"
#include "render/site_impl.h"
#include "stats/stats_impl.h"

static const char style[] =
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 \"DejaVu Sans\",Verdana,Arial,sans-serif;color:#2b2418;"
	"background:#f3eee2}\n"
	"header{padding:10px 20px;background:#fffaf0;border-bottom:1px solid #d8ccb0;display:flex;"
	"gap:18px;align-items:baseline;flex-wrap:wrap}\n"
	"header a.home{font-weight:bold;font-size:18px;color:#2b2418;text-decoration:none}\n"
	"header .db{color:#6b5f4a;font-size:13px}\n"
	"h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:18px 0 6px}\n"
	"main{padding:14px 20px}\n"
	".cols{display:flex;flex-wrap:wrap;gap:20px;align-items:flex-start}\n"
	"#board{flex:0 1 440px;min-width:260px}\n"
	"#board svg{display:block;width:100%;height:auto;border:1px solid #d8ccb0;background:#fff}\n"
	".side{flex:1 1 560px;min-width:300px;max-width:960px}\n"
	"nav.path{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:0 0 8px}\n"
	"nav.path a,nav.path span.here{padding:1px 8px;border:1px solid #b9aa88;border-radius:4px;"
	"background:#fffaf0;color:inherit;text-decoration:none}\n"
	"nav.path span.here{background:#ffe08a;font-weight:bold}\n"
	"#orders span.here{background:#ffe08a;font-weight:bold;padding:1px 4px}\n"
	"table{border-collapse:collapse;background:#fff;font-size:14px}\n"
	"th,td{padding:3px 6px;border-bottom:1px solid #f0e9d8;white-space:nowrap}\n"
	"th{font-weight:normal;color:#6b5f4a;text-align:right;background:#fffaf0;"
	"border-bottom:1px solid #d8ccb0}\n"
	"th.text,td.text{text-align:left}td{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.move a{color:#1d4f91;font-weight:bold}\n"
	"td.bar{width:140px;min-width:100px}\n"
	".wdl{display:flex;height:18px;border-radius:3px;overflow:hidden;border:1px solid #bcb09a;"
	"font-size:11px;line-height:16px;color:#fff}\n"
	".wdl span{display:block;text-align:center;overflow:hidden}\n"
	".wdl .w{background:#4f9a5f}.wdl .d{background:#a59d8c}.wdl .l{background:#c0504d}"
	".wdl .u{background:#e4dfd2;color:#6b5f4a}\n"
	"form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}\n"
	"form.filters input{font:inherit;padding:1px 4px;width:9em}\n"
	".note{color:#6b5f4a;font-size:13px}\n"
	".chart svg{max-width:100%;height:auto;background:#fff;border:1px solid #d8ccb0}\n"
	".pages a{margin-right:10px}\n"
	"#p-pattern{width:18em}form.filters input[type=checkbox]{width:auto}\n"
	".error{color:#a0302a;font-weight:bold}\n";

const char *kifu_site_asset(const char *name, size_t *len, const char **type)
{
	if (strcmp(name, "kifu.css") != 0)
		return NULL;
	*len = sizeof(style) - 1;
	*type = "text/css; charset=utf-8";
	return style;
}

static void text(struct kifu_buf *b, const char *s)
{
	kifu_render_html_text_(b, s ? s : "");
}

/* s percent-encoded for an address (all but A-Z a-z 0-9 - . _ ~): safe in an attribute too. */
static void url_part(struct kifu_buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~')
			kifu_buf_putc(b, (char)c);
		else
			kifu_buf_printf(b, "%%%02X", c);
	}
}

static void head(struct kifu_buf *b, const char *title, const char *db)
{
	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	text(b, title);
	kifu_buf_puts(b, " - kifu</title>\n<link rel=\"stylesheet\" href=\"/assets/kifu.css\">\n"
		      "</head>\n<body>\n<header><a class=\"home\" href=\"/\">kifu</a>");
	if (db) {
		kifu_buf_puts(b, "<span class=\"db\">");
		text(b, db);
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</header>\n<main>\n");
}

static int foot(struct kifu_buf *b)
{
	kifu_buf_puts(b, "</main>\n</body>\n</html>\n");
	return b->failed ? KIFU_ENOMEM : 0;
}

void kifu_site_error(struct kifu_buf *b, int status, const char *message)
{
	char title[32];

	kifu_buf_reset(b);
	snprintf(title, sizeof(title), "error %d", status);
	head(b, title, NULL);
	kifu_buf_puts(b, "<h1>");
	text(b, title);
	kifu_buf_puts(b, "</h1>\n<p id=\"error\">");
	text(b, message);
	kifu_buf_puts(b, "</p>\n");
	foot(b);
}

/* The text of a report's cell as kifu-stats' table shows it (mean plies 1 decimal, scores 3). */
static void cell(struct kifu_buf *b, const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	switch (x->type) {
	case KIFU_CELL_INT: kifu_buf_printf(b, "%lld", x->i); break;
	case KIFU_CELL_REAL: kifu_report_real_text_(b, x->r, rep->cols[c].prec); break;
	case KIFU_CELL_TEXT: text(b, x->text); break;
	default: kifu_buf_puts(b, "-"); break;
	}
}

/*
 * Cells of row r, each "<td>TEXT</td>" (text columns: class text); "ci"
 * is the interval ci_low-ci_high. cols ends with NULL.
 */
static void cells(struct kifu_buf *b, const struct kifu_report *rep, size_t r,
		  const char *const *cols)
{
	for (; *cols; cols++) {
		int is_text = !strcmp(*cols, "game") || !strcmp(*cols, "variant");

		kifu_buf_puts(b, is_text ? "<td class=\"text\">" : "<td>");
		if (!strcmp(*cols, "ci")) {
			cell(b, rep, r, "ci_low");
			kifu_buf_puts(b, "-");
			cell(b, rep, r, "ci_high");
		} else {
			cell(b, rep, r, *cols);
		}
		kifu_buf_puts(b, "</td>");
	}
}

static long long cell_int(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	return x->type == KIFU_CELL_INT ? x->i : 0;
}

static const char *cell_text(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	return x->type == KIFU_CELL_TEXT ? x->text : "";
}

static long long head_int(const struct kifu_report *rep, const char *name)
{
	size_t i;

	for (i = 0; i < rep->nhead; i++)
		if (!strcmp(rep->head[i].name, name) && rep->head[i].cell.type == KIFU_CELL_INT)
			return rep->head[i].cell.i;
	return 0;
}

/* A win/draw/loss bar of games (w, d, l, unfinished u): percentages of the whole. */
static void bar(struct kifu_buf *b, long long w, long long d, long long l, long long u)
{
	long long n = w + d + l + u;
	const char *cls[] = { "w", "d", "l", "u" };
	long long v[] = { w, d, l, u };
	int k;

	kifu_buf_puts(b, "<div class=\"wdl\">");
	for (k = 0; n > 0 && k < 4; k++)
		if (v[k] > 0)
			kifu_buf_printf(b, "<span class=\"%s\" style=\"width:%.1f%%\">%.0f</span>",
					cls[k], 100.0 * (double)v[k] / (double)n,
					100.0 * (double)v[k] / (double)n);
	kifu_buf_puts(b, "</div>");
}

/* The chart of kifu-stats --svg, inline (without its XML declaration). */
static void chart(struct kifu_buf *b, const struct kifu_report *rep)
{
	struct kifu_buf svg = KIFU_BUF_INIT;
	struct kifu_error err;
	const char *s;

	kifu_error_clear(&err);
	if (kifu_report_svg(&svg, rep, &err) == 0 && svg.data && (s = strstr(svg.data, "<svg"))) {
		kifu_buf_puts(b, "<div class=\"chart\">");
		kifu_buf_puts(b, s);
		kifu_buf_puts(b, "</div>\n");
	}
	kifu_buf_release(&svg);
}

/* A link to the explorer of game/variant at after, with the filter's values. */
static void explore_link(struct kifu_buf *b, const char *game, const char *variant,
			 const char *after, int symmetric, const struct kifu_filter *f)
{
	kifu_buf_puts(b, "/explore/");
	url_part(b, game);
	kifu_buf_putc(b, '/');
	url_part(b, variant);
	kifu_buf_puts(b, "?after=");
	url_part(b, after);
	if (symmetric)
		kifu_buf_puts(b, "&amp;symmetric=1");
	if (f) {
		const char *names[] = { "player", "event", "since", "until", "termination" };
		const char *vals[] = { f->player, f->event, f->since, f->until, f->termination };
		int k;

		for (k = 0; k < 5; k++)
			if (vals[k]) {
				kifu_buf_printf(b, "&amp;%s=", names[k]);
				url_part(b, vals[k]);
			}
	}
}


/* A game page's address at ply: the replay page opens at #ply=N. */
static void game_at(struct kifu_buf *b, int64_t id, long ply, const char *label)
{
	kifu_buf_printf(b, "<a href=\"/game/%" PRId64 "#ply=%ld\">", id, ply);
	text(b, label);
	kifu_buf_puts(b, "</a>");
}

/* A list of found games: date, players (links), result, plies, and what flags add. */
static int games_rows(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
		      size_t n, unsigned flags, struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_novelty_finder *nf = NULL;
	size_t i, k;
	int ret = 0;

	kifu_buf_printf(b, "<table class=\"games\">\n<tr><th>id</th><th class=\"text\">date</th>"
			"<th class=\"text\">game</th><th class=\"text\">players</th>"
			"<th class=\"text\">result</th><th>plies</th>%s%s</tr>\n",
			flags & GAMES_PLY ? "<th>ply</th>" : "",
			flags & GAMES_NOVELTY ? "<th class=\"text\">novelty</th>" : "");
	for (i = from; i < from + n && i < kifu_search_count(res); i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		kifu_buf_printf(b, "<tr><td><a href=\"/game/%" PRId64 "\">%" PRId64 "</a></td>"
				"<td class=\"text\">", h->id, h->id);
		text(b, h->date ? h->date : "-");
		kifu_buf_puts(b, "</td><td class=\"text\">");
		text(b, h->game);
		kifu_buf_puts(b, " ");
		text(b, h->variant);
		kifu_buf_puts(b, "</td><td class=\"text\">");
		for (k = 0; k < h->nplayers; k++) {
			kifu_buf_puts(b, k ? " - " : "");
			kifu_buf_puts(b, "<a href=\"/player/");
			url_part(b, h->players[k].name);
			kifu_buf_puts(b, "\">");
			text(b, h->players[k].name);
			kifu_buf_puts(b, "</a>");
		}
		kifu_buf_puts(b, "</td><td class=\"text\">");
		text(b, h->result);
		kifu_buf_printf(b, "</td><td>%ld</td>", h->plies);
		if (flags & GAMES_PLY) {
			char num[32];

			snprintf(num, sizeof(num), "%ld", h->ply);
			kifu_buf_puts(b, "<td class=\"ply\">");
			if (flags & GAMES_PLY_LINK)
				game_at(b, h->id, h->ply, num);
			else
				kifu_buf_puts(b, num);
			kifu_buf_puts(b, "</td>");
		}
		if (flags & GAMES_NOVELTY) {
			struct kifu_novelty nov;
			char label[KIFU_MOVE_TEXT_MAX + 32];

			if (!nf)
				ret = kifu_stats_novelty_open(&nf, st, err);
			if (ret == 0)
				ret = kifu_stats_novelty_find(&nov, nf, h->id, 0, err);
			if (ret < 0)
				break;
			kifu_buf_puts(b, "<td class=\"text novelty\">");
			snprintf(label, sizeof(label), "%ld %s", nov.ply, nov.move);
			if (nov.has_novelty)
				game_at(b, h->id, nov.ply, label);
			else
				kifu_buf_puts(b, "-");
			kifu_buf_puts(b, "</td>");
		}
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_puts(b, "</table>\n");
	kifu_stats_novelty_close(nf);
	return ret;
}

static void games_table(struct kifu_buf *b, const struct kifu_search_result *res, size_t n,
			int with_ply)
{
	games_rows(b, res, 0, n, with_ply ? GAMES_PLY : 0, NULL, NULL);
}

/* ---- / ---- */

int kifu_site_home(struct kifu_buf *b, struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *sum = NULL, *len = NULL, *pl = NULL;
	struct kifu_filter f;
	size_t r;
	int ret;

	memset(&f, 0, sizeof(f));
	ret = kifu_stats_report(&sum, st, KIFU_STATS_SUMMARY, &f, &opt, err);
	if (ret == 0)
		ret = kifu_stats_report(&len, st, KIFU_STATS_LENGTHS, &f, &opt, err);
	if (ret == 0)
		ret = kifu_stats_report(&pl, st, KIFU_STATS_PLAYERS, &f, &opt, err);
	if (ret < 0)
		goto out;
	head(b, "the database", kifu_store_path(st));
	kifu_buf_puts(b, "<h1>The database at a glance</h1>\n<table id=\"summary\">\n<tr>"
		      "<th class=\"text\">game</th><th class=\"text\">variant</th><th>games</th>"
		      "<th>draws</th><th>draw rate</th><th>first mover</th><th>95% ci</th>"
		      "<th>mean plies</th><th class=\"text\">explore</th></tr>\n");
	for (r = 0; r < kifu_report_nrows(sum); r++) {
		const char *g = cell_text(sum, r, "game"), *v = cell_text(sum, r, "variant");

		static const char *const cols[] = { "game", "variant", "games", "draws", "draw_rate",
						    "first_mover_score", "ci", "mean_plies", NULL };

		kifu_buf_puts(b, "<tr>");
		cells(b, sum, r, cols);
		kifu_buf_puts(b, "<td class=\"text\"><a href=\"");
		explore_link(b, g, v, "", 0, NULL);
		kifu_buf_puts(b, "\">explorer</a></td></tr>\n");
	}
	kifu_buf_puts(b, "</table>\n<p class=\"note\">first mover: the score of the side that "
		      "moves first over the finished games, with its 95% Wilson interval</p>\n"
		      "<h2>Outcomes</h2>\n");
	chart(b, sum);
	kifu_buf_puts(b, "<h2>Lengths</h2>\n");
	chart(b, len);
	kifu_buf_puts(b, "<h2>Players</h2>\n<table id=\"players\">\n<tr><th class=\"text\">player"
		      "</th><th>games</th><th>wins</th><th>draws</th><th>losses</th><th>score</th>"
		      "<th>rating</th></tr>\n");
	for (r = 0; r < kifu_report_nrows(pl) && r < 30; r++) {
		static const char *const pcols[] = { "games", "wins", "draws", "losses", "score",
						     "rating", NULL };

		kifu_buf_puts(b, "<tr><td class=\"text\"><a href=\"/player/");
		url_part(b, cell_text(pl, r, "player"));
		kifu_buf_puts(b, "\">");
		text(b, cell_text(pl, r, "player"));
		kifu_buf_puts(b, "</a></td>");
		cells(b, pl, r, pcols);
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_printf(b, "</table>\n<p class=\"note\">%zu players; the 30 best rated shown</p>\n",
			kifu_report_nrows(pl));
	ret = foot(b);
out:
	kifu_report_free(sum);
	kifu_report_free(len);
	kifu_report_free(pl);
	return ret;
}

/* ---- /explore/GAME/VARIANT ---- */

/* The position after the moves of list: its state, last move, and the moves in canonical text. */
struct walked {
	struct kifu_pos *pos;
	kifu_move last;
	int plies;
	struct kifu_buf moves;  /* canonical moves, each NUL-terminated */
};

static int walk(struct walked *w, const struct kifu_game *g, int variant, const char *list,
		struct kifu_error *err)
{
	char move[KIFU_MOVE_TEXT_MAX * 2], canon[KIFU_MOVE_TEXT_MAX];
	int ret = kifu_pos_new(&w->pos, g, variant, 0, err);

	while (ret == 0 && list && *list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (n >= sizeof(move))
			return kifu_error_set(err, KIFU_EPARSE, "--after: a move is too long");
		memcpy(move, list, n);
		move[n] = '\0';
		ret = g->parse_move(w->pos->state, move, &w->last, err);
		if (ret < 0)
			return ret;
		g->format_move(w->pos->state, w->last, canon);
		g->apply(w->pos->state, w->last);
		kifu_buf_add(&w->moves, canon, strlen(canon) + 1);
		w->plies++;
		list = end ? end + 1 : NULL;
	}
	return ret;
}

/* The canonical moves of w up to ply k, comma-separated. */
static void moves_upto(struct kifu_buf *out, const struct walked *w, int k)
{
	const char *s = w->moves.data;
	int i;

	kifu_buf_reset(out);
	for (i = 0; i < k; i++) {
		kifu_buf_puts(out, i ? "," : "");
		kifu_buf_puts(out, s);
		s += strlen(s) + 1;
	}
	kifu_buf_puts(out, "");
}

static void path_nav(struct kifu_buf *b, const struct kifu_site_position *p,
		     const struct walked *w)
{
	struct kifu_buf upto = KIFU_BUF_INIT;
	const char *s = w->moves.data;
	int k;

	kifu_buf_puts(b, "<nav class=\"path\" id=\"path\">");
	for (k = 0; k <= w->plies; k++) {
		const char *label = k ? s : "start";

		moves_upto(&upto, w, k);
		if (k == w->plies) {
			kifu_buf_puts(b, "<span class=\"here\">");
			text(b, label);
			kifu_buf_puts(b, "</span>");
		} else {
			kifu_buf_puts(b, "<a href=\"");
			explore_link(b, p->game, p->variant, upto.data, p->symmetric, p->filter);
			kifu_buf_puts(b, "\">");
			text(b, label);
			kifu_buf_puts(b, "</a>");
		}
		if (k)
			s += strlen(s) + 1;
	}
	kifu_buf_puts(b, "</nav>\n");
	kifu_buf_release(&upto);
}

static void filter_form(struct kifu_buf *b, const struct kifu_site_position *p, const char *after)
{
	const struct kifu_filter *f = p->filter;

	kifu_buf_puts(b, "<form class=\"filters\" method=\"get\" action=\"/explore/");
	url_part(b, p->game);
	kifu_buf_putc(b, '/');
	url_part(b, p->variant);
	kifu_buf_puts(b, "\"><input type=\"hidden\" name=\"after\" value=\"");
	text(b, after);
	kifu_buf_puts(b, "\">");
	if (p->symmetric)
		kifu_buf_puts(b, "<input type=\"hidden\" name=\"symmetric\" value=\"1\">");
	kifu_buf_puts(b, "<label>player <input name=\"player\" id=\"f-player\" value=\"");
	text(b, f->player);
	kifu_buf_puts(b, "\"></label><label>since <input name=\"since\" id=\"f-since\" "
		      "placeholder=\"2020\" value=\"");
	text(b, f->since);
	kifu_buf_puts(b, "\"></label><label>until <input name=\"until\" id=\"f-until\" "
		      "placeholder=\"2024-12\" value=\"");
	text(b, f->until);
	kifu_buf_puts(b, "\"></label><button type=\"submit\" id=\"f-apply\">filter</button> <a "
		      "href=\"");
	explore_link(b, p->game, p->variant, after, p->symmetric, NULL);
	kifu_buf_puts(b, "\">no filter</a></form>\n");
}

/* A date column's year, as kifu-stats' table prints it ("-": no dated game). */
static void year_cell(struct kifu_buf *b, const struct kifu_report *rep, size_t row,
		      const char *col)
{
	const char *d = cell_text(rep, row, col);
	char year[5];

	snprintf(year, sizeof(year), "%s", *d ? d : "-");
	kifu_buf_printf(b, "<td class=\"%s\">", col);
	text(b, year);
	kifu_buf_puts(b, "</td>");
}

static void move_table(struct kifu_buf *b, const struct kifu_site_position *p,
		       const struct kifu_report *rep, const char *after, const char *mover)
{
	static const char *const games_col[] = { "games", NULL };
	static const char *const rest_cols[] = { "mover_score", "ci", "mean_plies", NULL };
	struct kifu_buf next = KIFU_BUF_INIT;
	char wins[64];
	size_t r;

	snprintf(wins, sizeof(wins), "wins_%s", mover);
	kifu_buf_puts(b, "<table id=\"moves\">\n<tr><th class=\"text\">move</th><th>games</th>"
		      "<th class=\"text\">win / draw / loss</th><th>score</th><th>95% ci</th>"
		      "<th>mean plies</th><th>first</th><th>last</th></tr>\n");
	for (r = 0; r < kifu_report_nrows(rep); r++) {
		const char *move = cell_text(rep, r, "move");
		long long n = cell_int(rep, r, "games"), w = cell_int(rep, r, wins),
			  d = cell_int(rep, r, "draws"), u = cell_int(rep, r, "unfinished");

		kifu_buf_reset(&next);
		kifu_buf_printf(&next, "%s%s%s", after, *after ? "," : "", move);
		kifu_buf_puts(b, "<tr><td class=\"text move\"><a href=\"");
		explore_link(b, p->game, p->variant, next.data, p->symmetric, p->filter);
		kifu_buf_puts(b, "\">");
		text(b, move);
		kifu_buf_puts(b, "</a></td>");
		cells(b, rep, r, games_col);
		kifu_buf_puts(b, "<td class=\"bar\">");
		bar(b, w, d, n - w - d - u, u);
		kifu_buf_puts(b, "</td>");
		cells(b, rep, r, rest_cols);
		year_cell(b, rep, r, "first_date");
		year_cell(b, rep, r, "last_date");
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_puts(b, "</table>\n");
	kifu_buf_release(&next);
}

/*
 * Transpositions: the move orders by which the newest games that reached
 * the position came (KIFU_SITE_ORDER_GAMES read at most: a bounded cost at
 * any position), most played first, each a link to its path; the order
 * of the address is marked.
 */
static int move_orders(struct kifu_buf *b, struct kifu_store *st,
		       const struct kifu_site_position *p, const struct kifu_filter *f,
		       const uint64_t *hash, const uint64_t *orient, int norient,
		       const char *after, long long reached, struct kifu_error *err)
{
	struct kifu_search_orders *o = NULL;
	struct kifu_buf one = KIFU_BUF_INIT;
	size_t k;
	int ret = kifu_search_move_orders(&o, st, f, hash, p->symmetric, orient, norient,
					  KIFU_SITE_ORDER_GAMES, err);

	if (ret < 0)
		return ret;
	kifu_buf_puts(b, "<h2>Move orders</h2>\n<p class=\"note\" id=\"orders-note\">");
	if (o->more)
		kifu_buf_printf(b, "How the newest %ld of the %lld games that reached it got there "
				"(the others are not read).", o->read, reached);
	else
		kifu_buf_printf(b, "How the %ld game%s that reached it got there.", o->read,
				o->read == 1 ? "" : "s");
	kifu_buf_puts(b, "</p>\n<table id=\"orders\">\n<tr><th class=\"text\">move order</th>"
		      "<th>games</th></tr>\n");
	for (k = 0; k < o->n && k < KIFU_SITE_ORDERS; k++) {
		const char *m = o->v[k].moves, *comma;
		int here = !strcmp(m, after);

		kifu_buf_puts(b, "<tr data-moves=\"");
		text(b, m);
		kifu_buf_puts(b, here ? "\"><td class=\"text move\"><span class=\"here\">"
				      : "\"><td class=\"text move\"><a href=\"");
		if (!here) {
			explore_link(b, p->game, p->variant, m, p->symmetric, p->filter);
			kifu_buf_puts(b, "\">");
		}
		/* the moves apart: a move's text may hold spaces */
		for (; (comma = strchr(m, ',')) != NULL; m = comma + 1) {
			kifu_buf_reset(&one);
			kifu_buf_add(&one, m, (size_t)(comma - m));
			text(b, one.data);
			kifu_buf_puts(b, " &middot; ");
		}
		text(b, m);
		kifu_buf_printf(b, "%s</td><td>%ld</td></tr>\n", here ? "</span>" : "</a>",
				o->v[k].games);
	}
	kifu_buf_puts(b, "</table>\n");
	if (o->n > KIFU_SITE_ORDERS)
		kifu_buf_printf(b, "<p class=\"note\">and %zu other orders.</p>\n",
				o->n - KIFU_SITE_ORDERS);
	kifu_search_orders_free(o);
	kifu_buf_release(&one);
	return b->failed || one.failed ? kifu_error_set(err, KIFU_ENOMEM, "out of memory") : 0;
}

/* Links to the page before and after of a list. */
static void pager(struct kifu_buf *b, const struct kifu_buf *base, long page, int more)
{
	kifu_buf_puts(b, "<p class=\"pages\">");
	if (page > 0)
		kifu_buf_printf(b, "<a id=\"newer\" href=\"%s&amp;page=%ld\">newer</a>", base->data,
				page - 1);
	if (more)
		kifu_buf_printf(b, "<a id=\"older\" href=\"%s&amp;page=%ld\">older</a>", base->data,
				page + 1);
	kifu_buf_puts(b, "</p>\n");
}

int kifu_site_explore(struct kifu_buf *b, struct kifu_store *st,
		      const struct kifu_site_position *p, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct walked w = { NULL, 0, 0, KIFU_BUF_INIT };
	struct kifu_search_result *res = NULL;
	struct kifu_report *rep = NULL;
	struct kifu_buf svg = KIFU_BUF_INIT, after = KIFU_BUF_INIT, base = KIFU_BUF_INIT;
	const struct kifu_game *g;
	struct kifu_filter f = *p->filter;
	const char *mover;
	uint64_t hash, orient[KIFU_GAME_SYMMETRIES_MAX];
	int norient = 0;
	int ret, variant;

	ret = kifu_stats_resolve_game(&g, &variant, p->game, p->variant, err);
	if (ret < 0)
		return ret == KIFU_EPARSE ? (err->code = KIFU_ENOTFOUND) : ret;
	f.game = g->name;
	f.variant = g->variants[variant];
	ret = kifu_stats_check_filter(&f, err);
	if (ret < 0)
		return ret;
	opt.after = p->after;
	opt.symmetric = p->symmetric;
	ret = kifu_stats_report(&rep, st, KIFU_STATS_TREE, &f, &opt, err);
	if (ret == KIFU_EPARSE || ret == KIFU_EILLEGAL) {
		char msg[KIFU_ERROR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err->message);
		kifu_error_set(err, ret, "--after: %s", msg);
	}
	if (ret == 0)
		ret = walk(&w, g, variant, p->after, err);
	if (ret == 0)
		ret = (p->symmetric ? kifu_search_position_canonical : kifu_search_position)(
			&hash, g, variant, p->after ? p->after : "", err);
	/* Symmetric: the position's orientations, for a database without a canonical index. */
	if (ret == 0 && p->symmetric)
		ret = kifu_search_position_orientations(orient, &norient, g, variant,
							p->after ? p->after : "", err);
	if (ret == 0)
		ret = kifu_search_games_page(&res, st, &f, &hash, p->symmetric,
					     p->symmetric ? orient : NULL, norient,
					     (size_t)p->page * KIFU_SITE_PAGE_GAMES,
					     KIFU_SITE_PAGE_GAMES + 1, err);
	if (ret == 0 && kifu_game_render_svg(&svg, g, w.pos->state, w.plies ? &w.last : NULL) < 0)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret < 0)
		goto out;
	moves_upto(&after, &w, w.plies);
	mover = g->sides[g->side_to_move(w.pos->state) >= 0 ? g->side_to_move(w.pos->state) : 0];
	kifu_site_game_head_(b, st, g, variant, "explorer", "");
	path_nav(b, p, &w);
	kifu_buf_puts(b, "<div class=\"cols\">\n");
	kifu_buf_printf(b, "<div id=\"board\" data-ply=\"%d\">", w.plies);
	kifu_buf_puts(b, strstr(svg.data, "<svg") ? strstr(svg.data, "<svg") : svg.data);
	kifu_buf_puts(b, "</div>\n<div class=\"side\">\n<p id=\"status\">");
	kifu_buf_printf(b, "ply %d, <b>", w.plies);
	text(b, mover);
	kifu_buf_printf(b, "</b> to move. Reached in <b id=\"reached\">%lld</b> game%s by any move "
			"order (transpositions included), %lld ended here.</p>\n",
			head_int(rep, "games"), head_int(rep, "games") == 1 ? "" : "s",
			head_int(rep, "ended"));
	kifu_buf_puts(b, "<p class=\"note\">");
	kifu_buf_puts(b, p->symmetric ? "Positions equal under a board symmetry count as one: <a "
					"id=\"symmetric\" href=\""
				      : "Positions told apart from their mirror images: <a "
					"id=\"symmetric\" href=\"");
	explore_link(b, p->game, p->variant, after.data, !p->symmetric, p->filter);
	kifu_buf_puts(b, p->symmetric ? "\">tell them apart</a></p>\n"
				      : "\">count symmetric positions as one</a></p>\n");
	filter_form(b, p, after.data);
	kifu_site_pattern_form_(b, p->game, p->variant, NULL, 0);
	if (kifu_report_nrows(rep))
		move_table(b, p, rep, after.data, mover);
	else
		kifu_buf_puts(b, "<p id=\"moves\">No game goes on from here.</p>\n");
	if (w.plies > 0 && head_int(rep, "games") > 0 &&
	    (ret = move_orders(b, st, p, &f, &hash, orient, norient, after.data,
			       head_int(rep, "games"), err)) < 0)
		goto out;
	kifu_buf_puts(b, "<h2>Games that reached it</h2>\n<p class=\"note\">newest first</p>\n");
	ret = games_rows(b, res, 0, KIFU_SITE_PAGE_GAMES, GAMES_PLY | GAMES_NOVELTY, st, err);
	if (ret < 0)
		goto out;
	explore_link(&base, p->game, p->variant, after.data, p->symmetric, p->filter);
	pager(b, &base, p->page, kifu_search_count(res) > KIFU_SITE_PAGE_GAMES);
	kifu_buf_puts(b, "</div>\n</div>\n");
	ret = foot(b);
out:
	kifu_pos_free(w.pos);
	kifu_buf_release(&w.moves);
	kifu_buf_release(&svg);
	kifu_buf_release(&after);
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_report_free(rep);
	return ret;
}

/* ---- /game/ID ---- */

int kifu_site_game(struct kifu_buf *b, struct kifu_store *st, int64_t id, const char *nonce,
		   struct kifu_error *err)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_buf page = KIFU_BUF_INIT;
	struct kifu_analyse_stored review;
	struct kifu_render_stored known = { NULL };
	struct kifu_novelty nov;
	const char *s, *at;
	int ret;

	memset(&review, 0, sizeof(review));

	ret = kifu_store_game_load(&rec, st, id, err);
	if (ret == KIFU_ENOTFOUND)
		kifu_error_set(err, ret, "no game with id %" PRId64, id);
	if (ret == 0)
		ret = kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT, err);
	if (ret == 0 && diags.errors)
		ret = kifu_error_set(err, KIFU_EINVALID, "game %" PRId64 " is not valid", id);
	/* With its stored review (chart and marks), as kifu-analyse --to html draws it. */
	if (ret == 0)
		ret = kifu_analyse_load(&review, st, id, rp.nplies, err);
	if (ret == 0)
		ret = kifu_stats_novelty(&nov, st, id, KIFU_NOVELTY_EARLIER, err);
	if (ret == 0) {
		kifu_render_stored_novelty(&known, &nov);
		known.review = review.n ? &review.view : NULL;
		ret = kifu_render_html(&page, rec, &rp, -1, &known);
	}
	if (ret == 0 && page.failed)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (ret < 0)
		goto out;
	/*
	 * The page's own elements carry the nonce: the records' texts in it are
	 * escaped, so every "<script>" and "<body>" in it is the page's.
	 */
	for (s = page.data; (at = strstr(s, "<script>")) != NULL; s = at + 8) {
		kifu_buf_add(b, s, (size_t)(at - s));
		kifu_buf_printf(b, "<script nonce=\"%s\">", nonce);
	}
	kifu_buf_puts(b, s);
	if ((at = strstr(b->data, "<body>\n")) != NULL) {
		static const char nav[] = "<nav class=\"site\"><a href=\"/\">kifu</a></nav>\n";
		size_t pos = (size_t)(at - b->data) + 7, n = sizeof(nav) - 1;

		if (kifu_buf_add(b, nav, n) == 0) {
			memmove(b->data + pos + n, b->data + pos, b->len - n - pos);
			memcpy(b->data + pos, nav, n);
		}
	}
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	kifu_analyse_stored_release(&review);
	kifu_buf_release(&page);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
	return ret;
}

/* ---- /player/NAME ---- */

/* A player's games as one side of one game and variant. */
struct as_side {
	const char *game, *variant, *side;
	long games, wins, draws, losses, unfinished;
	int nsides;
};

static void tally(struct as_side *v, size_t *n, size_t max, const struct kifu_search_hit *h,
		  const char *side)
{
	const struct kifu_game *g = kifu_game_find(h->game);
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(v[i].game, h->game) && !strcmp(v[i].variant, h->variant) &&
		    !strcmp(v[i].side, side))
			break;
	if (i == *n) {
		if (*n == max)
			return;
		memset(&v[i], 0, sizeof(v[i]));
		v[i].game = h->game;
		v[i].variant = h->variant;
		v[i].side = side;
		v[i].nsides = g ? g->nsides : 2;
		(*n)++;
	}
	v[i].games++;
	if (!strcmp(h->result, "unfinished"))
		v[i].unfinished++;
	else if (!strcmp(h->result, "draw"))
		v[i].draws++;
	else if (!strcmp(h->result, side))
		v[i].wins++;
	else
		v[i].losses++;
}

static void player_record(struct kifu_buf *b, const struct kifu_report *pl, const char *name)
{
	static const char *const cols[] = { "games", "wins", "draws", "losses", "unfinished",
					    "score", "rating", "analysed_moves", "mean_loss",
					    "mistakes" };
	size_t r, k;

	for (r = 0; r < kifu_report_nrows(pl); r++)
		if (!strcmp(cell_text(pl, r, "player"), name))
			break;
	if (r == kifu_report_nrows(pl)) {
		kifu_buf_puts(b, "<p class=\"note\">Not in the players report (it counts the games "
			      "whose every side names a player).</p>\n");
		return;
	}
	kifu_buf_puts(b, "<table id=\"record\">\n<tr>");
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if (kifu_report_find_col(pl, cols[k]) >= 0)
			kifu_buf_printf(b, "<th>%s</th>", cols[k]);
	kifu_buf_puts(b, "</tr>\n<tr>");
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if (kifu_report_find_col(pl, cols[k]) >= 0) {
			kifu_buf_puts(b, "<td>");
			cell(b, pl, r, cols[k]);
			kifu_buf_puts(b, "</td>");
		}
	kifu_buf_puts(b, "</tr>\n</table>\n");
}

/* v's game, variant and side (escaped) after each of the texts a, b, c, then d. */
static void game_side(struct kifu_buf *b, const struct as_side *v, const char *a, const char *bb,
		      const char *c, const char *d)
{
	kifu_buf_puts(b, a);
	text(b, v->game);
	kifu_buf_puts(b, bb);
	text(b, v->variant);
	kifu_buf_puts(b, c);
	text(b, v->side);
	kifu_buf_puts(b, d);
}

/*
 * The player's most played lines as one side of one game and variant (v):
 * the openings report of the player's newest KIFU_SITE_LINE_GAMES games
 * on that side, with games and the player's score, each line a link to
 * the explorer filtered to the player (it has no side filter).
 */
static int player_lines(struct kifu_buf *b, struct kifu_store *st, const char *name,
			const struct as_side *v, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_filter f, link;
	struct kifu_buf after = KIFU_BUF_INIT;
	char wins[80];
	size_t r, shown = 0;
	int ret;

	memset(&f, 0, sizeof(f));
	f.game = v->game;
	f.variant = v->variant;
	f.player = name;
	f.player_side = v->side;
	memset(&link, 0, sizeof(link));
	link.player = name;
	opt.depth = KIFU_SITE_LINE_PLIES;
	opt.newest = KIFU_SITE_LINE_GAMES;
	ret = kifu_stats_report(&rep, st, KIFU_STATS_OPENINGS, &f, &opt, err);
	if (ret < 0)
		return ret;
	snprintf(wins, sizeof(wins), "wins_%s", v->side);
	game_side(b, v, "<h3>", " ", " as ", "</h3>\n");
	if (v->games > KIFU_SITE_LINE_GAMES)
		kifu_buf_printf(b, "<p class=\"note\">From the newest %d of these %ld games.</p>\n",
				KIFU_SITE_LINE_GAMES, v->games);
	game_side(b, v, "<table class=\"lines\" data-game=\"", "\" data-variant=\"",
		  "\" data-side=\"", "\">");
	kifu_buf_printf(b, "\n<tr><th class=\"text\">line (%d plies)</th><th>games</th>"
			"<th class=\"text\">win / draw / loss</th><th>score</th></tr>\n",
			KIFU_SITE_LINE_PLIES);
	/* The rows come most played first within each length. */
	for (r = 0; r < kifu_report_nrows(rep) && shown < KIFU_SITE_LINES; r++) {
		const char *line = cell_text(rep, r, "line");
		long long n = cell_int(rep, r, "games"), w = cell_int(rep, r, wins),
			  d = cell_int(rep, r, "draws"), u = cell_int(rep, r, "unfinished");
		long c = kifu_report_find_col(rep, "moves");
		const struct kifu_cell *moves = kifu_report_cell(rep, r, c < 0 ? (size_t)-1 : (size_t)c);
		const char *m = moves->text;
		size_t i;

		if (cell_int(rep, r, "plies") != KIFU_SITE_LINE_PLIES || moves->type != KIFU_CELL_LIST)
			continue;
		/* the moves one by one: a move's text may hold spaces (glaisher's) */
		kifu_buf_reset(&after);
		for (i = 0; i < moves->count; i++, m += strlen(m) + 1) {
			if (i)
				kifu_buf_putc(&after, ',');
			kifu_buf_puts(&after, m);
		}
		kifu_buf_puts(b, "<tr><td class=\"text move\"><a href=\"");
		explore_link(b, v->game, v->variant, after.data, 0, &link);
		kifu_buf_puts(b, "\">");
		text(b, line);
		kifu_buf_printf(b, "</a></td><td>%lld</td><td class=\"bar\">", n);
		bar(b, w, d, n - w - d - u, u);
		if (n - u > 0)
			kifu_buf_printf(b, "</td><td>%.3f</td></tr>\n",
					((double)w + (double)d / v->nsides) / (double)(n - u));
		else
			kifu_buf_puts(b, "</td><td>-</td></tr>\n");
		shown++;
	}
	kifu_buf_puts(b, "</table>\n");
	kifu_buf_release(&after);
	kifu_report_free(rep);
	return b->failed || after.failed ? KIFU_ENOMEM : 0;
}

int kifu_site_player(struct kifu_buf *b, struct kifu_store *st, const char *name, long page,
		     struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_search_result *res = NULL, *shown = NULL;
	struct kifu_report *pl = NULL;
	struct as_side sides[64];
	struct kifu_buf base = KIFU_BUF_INIT;
	struct kifu_filter f, none;
	size_t i, k, n = 0;
	int ret;

	memset(&f, 0, sizeof(f));
	memset(&none, 0, sizeof(none));
	f.player = name;
	ret = kifu_search_games(&res, st, &f, NULL, err);
	if (ret == 0 && kifu_search_count(res) == 0)
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no games of a player called '%s'", name);
	if (ret == 0)
		ret = kifu_stats_report(&pl, st, KIFU_STATS_PLAYERS, &none, &opt, err);
	if (ret == 0)
		ret = kifu_search_games_page(&shown, st, &f, NULL, 0, NULL, 0,
					     (size_t)page * KIFU_SITE_PAGE_GAMES,
					     KIFU_SITE_PAGE_GAMES + 1, err);
	if (ret < 0)
		goto out;
	for (i = 0; i < kifu_search_count(res); i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		for (k = 0; k < h->nplayers; k++)
			if (!strcmp(h->players[k].name, name))
				tally(sides, &n, sizeof(sides) / sizeof(sides[0]), h,
				      h->players[k].side);
	}
	head(b, name, kifu_store_path(st));
	kifu_buf_puts(b, "<h1 id=\"player\">");
	text(b, name);
	kifu_buf_puts(b, "</h1>\n");
	player_record(b, pl, name);
	kifu_buf_puts(b, "<h2>As each side</h2>\n<table id=\"sides\">\n<tr><th class=\"text\">game"
		      "</th><th class=\"text\">side</th><th>games</th><th class=\"text\">win / draw "
		      "/ loss</th><th>score</th></tr>\n");
	for (i = 0; i < n; i++) {
		long fin = sides[i].games - sides[i].unfinished;

		kifu_buf_puts(b, "<tr><td class=\"text\">");
		text(b, sides[i].game);
		kifu_buf_puts(b, " ");
		text(b, sides[i].variant);
		kifu_buf_puts(b, "</td><td class=\"text\">");
		text(b, sides[i].side);
		kifu_buf_printf(b, "</td><td>%ld</td><td class=\"bar\">", sides[i].games);
		bar(b, sides[i].wins, sides[i].draws, sides[i].losses, sides[i].unfinished);
		if (fin > 0)
			kifu_buf_printf(b, "</td><td>%.3f</td></tr>\n",
					((double)sides[i].wins +
					 (double)sides[i].draws / sides[i].nsides) / (double)fin);
		else
			kifu_buf_puts(b, "</td><td>-</td></tr>\n");
	}
	kifu_buf_puts(b, "</table>\n<h2>Most played lines as each side</h2>\n");
	for (i = 0; ret == 0 && i < n; i++)
		ret = player_lines(b, st, name, &sides[i], err);
	if (ret < 0)
		goto out;
	kifu_buf_printf(b, "<h2>Games</h2>\n<p class=\"note\">%zu, newest first</p>\n",
			kifu_search_count(res));
	games_table(b, shown, KIFU_SITE_PAGE_GAMES, 0);
	kifu_buf_puts(&base, "/player/");
	url_part(&base, name);
	kifu_buf_puts(&base, "?");
	pager(b, &base, page, kifu_search_count(shown) > KIFU_SITE_PAGE_GAMES);
	ret = foot(b);
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_search_result_free(shown);
	kifu_report_free(pl);
	return ret;
}

/* ---- for the other pages of the site (render/site_impl.h) ---- */

int kifu_site_foot_(struct kifu_buf *b)
{
	return foot(b);
}

void kifu_site_game_head_(struct kifu_buf *b, struct kifu_store *st, const struct kifu_game *g,
			  int variant, const char *page, const char *heading)
{
	char title[200];

	snprintf(title, sizeof(title), "%s %s %s", g->name, g->variants[variant], page);
	head(b, title, kifu_store_path(st));
	kifu_buf_puts(b, "<h1>");
	text(b, g->title);
	kifu_buf_puts(b, " <span class=\"note\">");
	text(b, g->variants[variant]);
	kifu_buf_puts(b, "</span>");
	text(b, heading);
	kifu_buf_puts(b, "</h1>\n");
}

void kifu_site_url_part_(struct kifu_buf *b, const char *s)
{
	url_part(b, s);
}

int kifu_site_games_(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
		     size_t n, unsigned flags, struct kifu_store *st, struct kifu_error *err)
{
	return games_rows(b, res, from, n, flags, st, err);
}

void kifu_site_pager_(struct kifu_buf *b, const struct kifu_buf *base, long page, int more)
{
	pager(b, base, page, more);
}
