/*
 * kifu-serve's pages (include/kifu/site.h). Each is made on request from
 * the public reports and searches (the figures are kifu-stats' and
 * kifu-search's), as plain HTML with links: the explorer's address holds
 * the path of moves, so a link shares a position and the browser's back
 * button goes back up, without a script. The board is the game's own
 * picture (kifu_game_render_svg, last move marked); the charts are
 * kifu-stats --svg's; a game is kifu-export's replay page. Every text
 * from the database or the request is escaped for HTML (html.c) and, in
 * an address, percent-encoded first. Here: the pieces every page shares
 * (render/site_impl.h) and the home page; a game's is site_game.c, the
 * explorer site_explore.c, the pattern page site_pattern.c, a player's
 * page site_player.c, /players site_players.c.
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
	"form.filters select{font:inherit}form.filters .hint{color:#6b5f4a;font-size:12px}\n"
	"form.filters .bad input,form.filters .bad select{border:2px solid #a0302a;"
	"background:#fff0ee}\n"
	"form.filters .field-error{color:#a0302a;font-weight:bold;font-size:13px}\n"
	"form.filters .field-error::before{content:\"\\26A0  \"}\n"
	"#form-error{border:1px solid #a0302a;background:#fff0ee;padding:4px 10px;margin:8px 0}\n"
	"form.filters .field{white-space:nowrap}\n"
	".note{color:#6b5f4a;font-size:13px}\n"
	"form.filters input.wide{width:16em}.hint{color:#6b5f4a;font-size:13px}\n"
	"td.ratings{font-size:13px;line-height:1.45}td.ratings .gv{color:#6b5f4a}td.rank{color:#6b5f4a}\n"
	".chart svg{max-width:100%;height:auto;background:#fff;border:1px solid #d8ccb0}\n"
	".pages a{margin-right:10px}\n"
	"#p-pattern{width:18em}form.filters input[type=checkbox]{width:auto}\n"
	".error{color:#a0302a;font-weight:bold}\n"
	"#moves tr.more td{background:#fffaf0}\n"
	".r-w{color:#2f7a3f;font-weight:bold}.r-l{color:#a0302a;font-weight:bold}.r-d{color:#6b5f4a}\n"
	"p.data{font-size:13px;color:#6b5f4a;margin:4px 0}p.data a{margin:0 3px}\n"
	"td.thumb svg{width:150px;height:auto;display:block}\n"
	"#pattern-editor svg{max-width:100%;height:auto;background:#fffaf0;border:1px solid #d8ccb0}\n"
	"#pattern-board g.pc{cursor:pointer}#pattern-board g.pc polygon,#pattern-board g.pc rect{"
	"fill:#e8d9b5;stroke:#6b5a3e;stroke-width:1}\n"
	"#pattern-board g.pc:hover polygon,#pattern-board g.pc:hover rect{fill:#f4e9cc}\n"
	"#pattern-board g.on polygon,#pattern-board g.on rect{fill:#ffe08a}\n"
	"#pattern-board text{font-size:12px;font-weight:bold;pointer-events:none;fill:#2b2418}\n"
	"#pattern-board text.nm{font-size:7px;font-weight:normal;fill:#8a7a5a}\n"
	"td.share{color:#6b5f4a}form.filters input.short{width:5em}\n"
	"#board a .hit{fill:#1d4f91;fill-opacity:0;stroke:none;pointer-events:all}\n"
	"#board a line.hit{stroke:#1d4f91;stroke-opacity:0}\n"
	"#board a .spot{fill:#1d4f91;fill-opacity:.55;stroke:#fff;stroke-width:1.5;"
	"pointer-events:none}\n"
	"#board a line.arrow{stroke:#1d4f91;stroke-opacity:.45;stroke-linecap:round;"
	"pointer-events:none}\n"
	"#board a:hover .hit{fill-opacity:.25}#board a:hover .spot,#board a:hover line.arrow{"
	"fill:#c0504d;stroke:#c0504d;stroke-opacity:.9}\n";

const char *kifu_site_asset(const char *name, size_t *len, const char **type)
{
	if (strcmp(name, "kifu.css") != 0)
		return NULL;
	*len = sizeof(style) - 1;
	*type = "text/css; charset=utf-8";
	return style;
}

void kifu_site_text_(struct kifu_buf *b, const char *s)
{
	kifu_render_html_text_(b, s ? s : "");
}

/* n with a comma between each group of three digits, as people write counts. */
void kifu_site_count_(struct kifu_buf *b, long long n)
{
	char digits[32];
	int len, k;

	len = snprintf(digits, sizeof(digits), "%lld", n < 0 ? -n : n);
	if (n < 0)
		kifu_buf_putc(b, '-');
	for (k = 0; k < len; k++) {
		if (k && (len - k) % 3 == 0)
			kifu_buf_putc(b, ',');
		kifu_buf_putc(b, digits[k]);
	}
}

/* n of `of` as a whole percent ("&lt;1%" for a share above 0 that rounds to 0). */
void kifu_site_percent_(struct kifu_buf *b, long long n, long long of)
{
	double pc = of > 0 ? 100.0 * (double)n / (double)of : 0;

	if (n > 0 && pc < 0.5)
		kifu_buf_puts(b, "&lt;1%");
	else
		kifu_buf_printf(b, "%.0f%%", pc);
}

/* s percent-encoded for an address (all but A-Z a-z 0-9 - . _ ~): safe in an attribute too. */
void kifu_site_url_part_(struct kifu_buf *b, const char *s)
{
	kifu_buf_url_part(b, s);
}

/* A games list's date, game and players cells (each player a link to its page). */
void kifu_site_game_cells_(struct kifu_buf *b, const struct kifu_search_hit *h, int game)
{
	size_t k;

	kifu_buf_puts(b, "<td class=\"text\">");
	kifu_site_text_(b, h->date ? h->date : "-");
	if (game) {
		kifu_buf_puts(b, "</td><td class=\"text\">");
		kifu_site_text_(b, h->game);
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, h->variant);
	}
	kifu_buf_puts(b, "</td><td class=\"text\">");
	for (k = 0; k < h->nplayers; k++) {
		kifu_buf_puts(b, k ? " - <a href=\"/player/" : "<a href=\"/player/");
		kifu_site_url_part_(b, h->players[k].name);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, h->players[k].name);
		kifu_buf_puts(b, "</a>");
	}
	kifu_buf_puts(b, "</td>");
}

static void head(struct kifu_buf *b, const char *title, const char *db)
{
	kifu_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<title>");
	kifu_site_text_(b, title);
	kifu_buf_puts(b, " - kifu</title>\n<link rel=\"stylesheet\" href=\"/assets/kifu.css\">\n"
		      "</head>\n<body>\n<header><a class=\"home\" href=\"/\">kifu</a>"
		      "<a href=\"/games\" id=\"all-games\">games</a>"
		      "<a href=\"/players\" id=\"all-players\">players</a>");
	if (db) {
		kifu_buf_puts(b, "<span class=\"db\">");
		kifu_site_text_(b, db);
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</header>\n<main>\n");
}

void kifu_site_page_head_(struct kifu_buf *b, struct kifu_store *st, const char *title)
{
	head(b, title, kifu_store_path(st));
}

int kifu_site_foot_(struct kifu_buf *b)
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
	kifu_site_text_(b, title);
	kifu_buf_puts(b, "</h1>\n<p id=\"error\">");
	kifu_site_text_(b, message);
	kifu_buf_puts(b, "</p>\n");
	kifu_site_foot_(b);
}

/* The text of a report's cell as kifu-stats' table shows it (mean plies 1 decimal, scores 3). */
static void cell(struct kifu_buf *b, const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	switch (x->type) {
	case KIFU_CELL_INT:
		/* counts for people (12,000); plies and ids as numbers */
		if (strstr(col, "pl") || !strcmp(col, "id"))
			kifu_buf_printf(b, "%lld", x->i);
		else
			kifu_site_count_(b, x->i);
		break;
	case KIFU_CELL_REAL:
		/* a rate is a share: whole percent */
		if (strstr(col, "_rate"))
			kifu_buf_printf(b, "%.0f%%", 100 * x->r);
		else
			kifu_report_real_text_(b, x->r, rep->cols[c].prec);
		break;
	case KIFU_CELL_TEXT: kifu_site_text_(b, x->text); break;
	default: kifu_buf_puts(b, "-"); break;
	}
}

/*
 * Cells of row r, each "<td>TEXT</td>" (text columns: class text); "ci"
 * is the interval ci_low-ci_high. cols ends with NULL.
 */
void kifu_site_cells_(struct kifu_buf *b, const struct kifu_report *rep, size_t r,
		      const char *const *cols)
{
	for (; *cols; cols++) {
		int is_text = !strcmp(*cols, "game") || !strcmp(*cols, "variant") ||
			      !strcmp(*cols, "level");
		long lo = kifu_report_find_col(rep, "ci_low");

		kifu_buf_puts(b, is_text ? "<td class=\"text\">" : "<td>");
		if (!strcmp(*cols, "ci") &&
		    kifu_report_cell(rep, r, lo < 0 ? (size_t)-1 : (size_t)lo)->type != KIFU_CELL_REAL) {
			/* no finished game: no interval */
			kifu_buf_puts(b, "-");
		} else if (!strcmp(*cols, "ci")) {
			cell(b, rep, r, "ci_low");
			kifu_buf_puts(b, "-");
			cell(b, rep, r, "ci_high");
		} else {
			cell(b, rep, r, *cols);
		}
		kifu_buf_puts(b, "</td>");
	}
}

long long kifu_site_cell_int_(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	return x->type == KIFU_CELL_INT ? x->i : 0;
}

const char *kifu_site_cell_text_(const struct kifu_report *rep, size_t row, const char *col)
{
	long c = kifu_report_find_col(rep, col);
	const struct kifu_cell *x = kifu_report_cell(rep, row, c < 0 ? (size_t)-1 : (size_t)c);

	return x->type == KIFU_CELL_TEXT ? x->text : "";
}

long long kifu_site_head_int_(const struct kifu_report *rep, const char *name)
{
	size_t i;

	for (i = 0; i < rep->nhead; i++)
		if (!strcmp(rep->head[i].name, name) && rep->head[i].cell.type == KIFU_CELL_INT)
			return rep->head[i].cell.i;
	return 0;
}

/* A win/draw/loss bar of games (w, d, l, unfinished u): percentages of the whole. */
void kifu_site_bar_(struct kifu_buf *b, long long w, long long d, long long l, long long u)
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
void kifu_site_chart_(struct kifu_buf *b, const struct kifu_report *rep)
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
void kifu_site_explore_link_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *after, int symmetric, const struct kifu_filter *f)
{
	kifu_buf_puts(b, "/explore/");
	kifu_site_url_part_(b, game);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, variant);
	kifu_buf_puts(b, "?after=");
	kifu_site_url_part_(b, after);
	if (symmetric)
		kifu_buf_puts(b, "&amp;symmetric=1");
	kifu_site_filter_query_(b, f);
}

const char *kifu_site_filter_param_(const struct kifu_filter *f, int k, const char **name)
{
	static const char *const names[KIFU_SITE_FILTER_PARAMS] = {
		"player", "as", "event", "since", "until", "termination", "level"
	};

	*name = names[k];
	return k == 0 ? f->player : k == 1 ? f->player_side : k == 2 ? f->event
	     : k == 3 ? f->since : k == 4 ? f->until : k == 5 ? f->termination : f->level;
}

void kifu_site_filter_query_(struct kifu_buf *b, const struct kifu_filter *f)
{
	const char *name;
	int k;

	for (k = 0; f && k < KIFU_SITE_FILTER_PARAMS; k++) {
		const char *v = kifu_site_filter_param_(f, k, &name);

		if (v) {
			kifu_buf_printf(b, "&amp;%s=", name);
			kifu_site_url_part_(b, v);
		}
	}
}

void kifu_site_data_links_(struct kifu_buf *b, const char *id, const char *what,
			   const struct kifu_buf *api, int csv)
{
	kifu_buf_printf(b, "<p class=\"data\" id=\"%s\">%s as <a class=\"json\" href=\"%s\">JSON"
			"</a>", id, what, api->data);
	if (csv)
		kifu_buf_printf(b, " <a class=\"csv\" href=\"%s%sformat=csv\">CSV</a>", api->data,
				strchr(api->data, '?') ? "&amp;" : "?");
	kifu_buf_puts(b, "</p>\n");
}


/* A game page's address at ply: the replay page opens at ?ply=N. */
static void game_at(struct kifu_buf *b, int64_t id, long ply, const char *label)
{
	kifu_buf_printf(b, "<a href=\"/game/%" PRId64 "?ply=%ld\">", id, ply);
	kifu_site_text_(b, label);
	kifu_buf_puts(b, "</a>");
}

/* A cell with a small picture of game id at ply (the game's own, kifu-export --to svg --ply). */
static int thumb(struct kifu_buf *b, struct kifu_store *st, int64_t id, long ply,
		 struct kifu_error *err)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_buf pic = KIFU_BUF_INIT;
	const char *svg;
	int ret;

	ret = kifu_store_game_load(&rec, st, id, err);
	if (ret == 0)
		ret = kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT, err);
	kifu_buf_printf(b, "<td class=\"thumb\"><a href=\"/game/%" PRId64 "?ply=%ld\">", id, ply);
	if (ret == 0 && !diags.errors && ply >= 0 && (size_t)ply <= rp.nplies &&
	    kifu_render_svg(&pic, &rp, (size_t)ply) == 0 && pic.data &&
	    (svg = strstr(pic.data, "<svg")) != NULL)
		kifu_buf_puts(b, svg);
	kifu_buf_puts(b, "</a></td>");
	kifu_buf_release(&pic);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
	return ret == KIFU_ENOMEM ? ret : 0;
}

/* A game's result for player: win, draw, loss (or unfinished), and as which side. */
static void player_result(struct kifu_buf *b, const struct kifu_search_hit *h, const char *player)
{
	const char *side = NULL;
	size_t k;
	int won = 0;

	for (k = 0; k < h->nplayers; k++)
		if (!strcmp(h->players[k].name, player)) {
			side = side ? side : h->players[k].side;
			won |= !strcmp(h->result, h->players[k].side);
		}
	kifu_buf_printf(b, "<span class=\"r-%s\">%s</span>",
			!strcmp(h->result, "unfinished") ? "u" : !strcmp(h->result, "draw") ? "d"
			: won ? "w" : "l",
			!strcmp(h->result, "unfinished") ? "unfinished" : !strcmp(h->result, "draw")
			? "draw" : won ? "win" : "loss");
	if (side) {
		kifu_buf_puts(b, " <span class=\"note\">as ");
		kifu_site_text_(b, side);
		kifu_buf_puts(b, "</span>");
	}
}

/* A list of found games: date, players (links), result, plies, and what flags add. */
int kifu_site_games_(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
		     size_t n, unsigned flags, const char *player, struct kifu_store *st,
		     struct kifu_error *err)
{
	struct kifu_novelty_finder *nf = NULL;
	size_t i;
	int ret = 0;

	kifu_buf_printf(b, "<table class=\"games\">\n<tr><th>id</th><th class=\"text\">date</th>"
			"%s<th class=\"text\">players</th>"
			"<th class=\"text\">result</th><th>plies</th>%s%s</tr>\n",
			flags & GAMES_ONE_GAME ? "" : "<th class=\"text\">game</th>",
			flags & GAMES_PLY ? "<th>ply</th>" : "",
			flags & GAMES_NOVELTY ? "<th class=\"text\">novelty</th>"
			: flags & GAMES_PICTURE ? "<th class=\"text\">position</th>" : "");
	for (i = from; i < from + n && i < kifu_search_count(res); i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		/* a hit at a ply (the explorer's, a pattern's) opens there */
		if (flags & GAMES_PLY)
			kifu_buf_printf(b, "<tr><td><a href=\"/game/%" PRId64 "?ply=%ld\">%" PRId64
					"</a></td>", h->id, h->ply, h->id);
		else
			kifu_buf_printf(b, "<tr><td><a href=\"/game/%" PRId64 "\">%" PRId64 "</a></td>",
					h->id, h->id);
		kifu_site_game_cells_(b, h, !(flags & GAMES_ONE_GAME));
		kifu_buf_puts(b, "<td class=\"text result\">");
		if (player)
			player_result(b, h, player);
		else
			kifu_site_text_(b, h->result);
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
		if (flags & GAMES_PICTURE && (ret = thumb(b, st, h->id, h->ply, err)) < 0)
			break;
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

/* ---- / ---- */

int kifu_site_home(struct kifu_buf *b, struct kifu_store *st, struct kifu_error *err)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT, vopt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *sum = NULL, *len = NULL, *pl = NULL, *byv = NULL;
	struct kifu_buf api = KIFU_BUF_INIT;
	struct kifu_filter f;
	size_t r;
	int ret;

	memset(&f, 0, sizeof(f));
	ret = kifu_stats_report(&sum, st, KIFU_STATS_SUMMARY, &f, &opt, err);
	if (ret == 0)
		ret = kifu_stats_report(&len, st, KIFU_STATS_LENGTHS, &f, &opt, err);
	if (ret == 0)
		ret = kifu_stats_report(&pl, st, KIFU_STATS_PLAYERS, &f, &opt, err);
	vopt.by_variant = 1;
	if (ret == 0)
		ret = kifu_stats_report(&byv, st, KIFU_STATS_PLAYERS, &f, &vopt, err);
	if (ret < 0)
		goto out;
	head(b, "the database", kifu_store_path(st));
	kifu_buf_puts(b, "<h1>The database at a glance</h1>\n");
	kifu_buf_puts(b, "<form class=\"filters\" id=\"find-player\" method=\"get\" "
		      "action=\"/players\"><label for=\"home-q\">find a player</label>"
		      "<input type=\"search\" id=\"home-q\" name=\"q\" class=\"wide\">"
		      "<span class=\"hint\">any part of the name, any case</span>"
		      "<button type=\"submit\" id=\"home-find\">find</button></form>\n");
	kifu_buf_puts(b, "<table id=\"summary\">\n<tr>"
		      "<th class=\"text\">game</th><th class=\"text\">variant</th><th>games</th>"
		      "<th>draws</th><th>draw rate</th><th>first mover</th><th>95% interval</th>"
		      "<th>mean plies</th><th class=\"text\">explore</th></tr>\n");
	for (r = 0; r < kifu_report_nrows(sum); r++) {
		const char *g = kifu_site_cell_text_(sum, r, "game");
		const char *v = kifu_site_cell_text_(sum, r, "variant");

		static const char *const cols[] = { "game", "variant", "games", "draws", NULL };
		static const char *const rest[] = { "first_mover_score", "ci", "mean_plies", NULL };
		long c = kifu_report_find_col(sum, "draw_rate");
		const struct kifu_cell *x = kifu_report_cell(sum, r, c < 0 ? (size_t)-1 : (size_t)c);

		kifu_buf_puts(b, "<tr>");
		kifu_site_cells_(b, sum, r, cols);
		/* the rates in one form: the draw rate written as the first mover's score is (0.250) */
		kifu_buf_puts(b, "<td class=\"draw-rate\">");
		if (x->type == KIFU_CELL_REAL)
			kifu_report_real_text_(b, x->r, 3);
		else
			kifu_buf_puts(b, "-");
		kifu_buf_puts(b, "</td>");
		kifu_site_cells_(b, sum, r, rest);
		kifu_buf_puts(b, "<td class=\"text\"><a href=\"");
		kifu_site_explore_link_(b, g, v, "", 0, NULL);
		kifu_buf_puts(b, "\">explorer</a></td></tr>\n");
	}
	kifu_buf_puts(b, "</table>\n<p class=\"note\">first mover: the score of the side that "
		      "moves first over the finished games, with its 95% Wilson interval</p>\n");
	kifu_buf_reset(&api);
	kifu_buf_puts(&api, "/api/stats/summary");
	kifu_site_data_links_(b, "data-summary", "The summary", &api, 1);
	kifu_buf_puts(b, "<p><a id=\"balance\" href=\"/balance\">Is the game fair?</a> The "
		      "first mover's score, draws and tension per playing level (kifu-stats "
		      "balance)</p>\n");
	kifu_buf_puts(b, "<h2>Outcomes</h2>\n");
	kifu_site_chart_(b, sum);
	kifu_buf_puts(b, "<h2>Lengths</h2>\n");
	kifu_site_chart_(b, len);
	kifu_buf_reset(&api);
	kifu_buf_puts(&api, "/api/stats/lengths");
	kifu_site_data_links_(b, "data-lengths", "The lengths", &api, 1);
	kifu_buf_puts(b, "<h2>Players</h2>\n<table id=\"players\" class=\"players\">\n<tr>"
		      "<th class=\"text\">player</th><th>games</th><th>wins</th><th>draws</th>"
		      "<th>losses</th><th>score</th><th>rating<br><span class=\"note\">all games"
		      "</span></th><th class=\"text\">rating per game and variant <span "
		      "class=\"note\">(games)</span></th></tr>\n");
	for (r = 0; r < kifu_report_nrows(pl) && r < 30; r++) {
		static const char *const pcols[] = { "games", "wins", "draws", "losses", "score",
						     "rating", NULL };

		kifu_buf_puts(b, "<tr><td class=\"text\"><a href=\"/player/");
		kifu_site_url_part_(b, kifu_site_cell_text_(pl, r, "player"));
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, kifu_site_cell_text_(pl, r, "player"));
		kifu_buf_puts(b, "</a></td>");
		kifu_site_cells_(b, pl, r, pcols);
		kifu_site_variant_ratings_(b, byv, kifu_site_cell_text_(pl, r, "player"));
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_puts(b, "</table>\n<p class=\"note\">");
	kifu_site_count_(b, (long long)kifu_report_nrows(pl));
	kifu_buf_puts(b, " players; the 30 best rated over all games shown (each game and "
		      "variant also rated alone, beside it): <a id=\"every-player\" "
		      "href=\"/players\">every player</a></p>\n");
	kifu_buf_reset(&api);
	kifu_buf_puts(&api, "/api/stats/players");
	kifu_site_data_links_(b, "data-players", "Every player", &api, 1);
	ret = kifu_site_foot_(b);
	if (ret == 0 && api.failed)
		ret = KIFU_ENOMEM;
out:
	kifu_buf_release(&api);
	kifu_report_free(sum);
	kifu_report_free(len);
	kifu_report_free(pl);
	kifu_report_free(byv);
	return ret;
}

/* Links to the page before and after of a list. */
void kifu_site_pager_(struct kifu_buf *b, const struct kifu_buf *base, long page, int more)
{
	kifu_buf_puts(b, "<p class=\"pages\">");
	/* page counts from 0 here, from 1 in the address */
	if (page > 0)
		kifu_buf_printf(b, "<a id=\"newer\" href=\"%s&amp;page=%ld\">newer</a>", base->data,
				page);
	if (more)
		kifu_buf_printf(b, "<a id=\"older\" href=\"%s&amp;page=%ld\">older</a>", base->data,
				page + 2);
	kifu_buf_puts(b, "</p>\n");
}

/* ---- for the other pages of the site (render/site_impl.h) ---- */

void kifu_site_game_head_(struct kifu_buf *b, struct kifu_store *st, const struct kifu_game *g,
			  int variant, const char *page, const char *heading)
{
	char title[200];

	snprintf(title, sizeof(title), "%s %s %s", g->name, g->variants[variant], page);
	head(b, title, kifu_store_path(st));
	kifu_buf_puts(b, "<h1>");
	kifu_site_text_(b, g->title);
	kifu_buf_puts(b, " <span class=\"note\">");
	kifu_site_text_(b, g->variants[variant]);
	kifu_buf_puts(b, "</span>");
	kifu_site_text_(b, heading);
	kifu_buf_puts(b, "</h1>\n");
}
