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
 * (render/site_impl.h), the home, game and player pages; the explorer is
 * site_explore.c, the pattern page site_pattern.c.
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

void kifu_site_text_(struct kifu_buf *b, const char *s)
{
	kifu_render_html_text_(b, s ? s : "");
}

/* s percent-encoded for an address (all but A-Z a-z 0-9 - . _ ~): safe in an attribute too. */
void kifu_site_url_part_(struct kifu_buf *b, const char *s)
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
	kifu_site_text_(b, title);
	kifu_buf_puts(b, " - kifu</title>\n<link rel=\"stylesheet\" href=\"/assets/kifu.css\">\n"
		      "</head>\n<body>\n<header><a class=\"home\" href=\"/\">kifu</a>");
	if (db) {
		kifu_buf_puts(b, "<span class=\"db\">");
		kifu_site_text_(b, db);
		kifu_buf_puts(b, "</span>");
	}
	kifu_buf_puts(b, "</header>\n<main>\n");
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
	case KIFU_CELL_INT: kifu_buf_printf(b, "%lld", x->i); break;
	case KIFU_CELL_REAL: kifu_report_real_text_(b, x->r, rep->cols[c].prec); break;
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
	if (f) {
		const char *names[] = { "player", "event", "since", "until", "termination" };
		const char *vals[] = { f->player, f->event, f->since, f->until, f->termination };
		int k;

		for (k = 0; k < 5; k++)
			if (vals[k]) {
				kifu_buf_printf(b, "&amp;%s=", names[k]);
				kifu_site_url_part_(b, vals[k]);
			}
	}
}


/* A game page's address at ply: the replay page opens at #ply=N. */
static void game_at(struct kifu_buf *b, int64_t id, long ply, const char *label)
{
	kifu_buf_printf(b, "<a href=\"/game/%" PRId64 "#ply=%ld\">", id, ply);
	kifu_site_text_(b, label);
	kifu_buf_puts(b, "</a>");
}

/* A list of found games: date, players (links), result, plies, and what flags add. */
int kifu_site_games_(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
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
		kifu_site_text_(b, h->date ? h->date : "-");
		kifu_buf_puts(b, "</td><td class=\"text\">");
		kifu_site_text_(b, h->game);
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, h->variant);
		kifu_buf_puts(b, "</td><td class=\"text\">");
		for (k = 0; k < h->nplayers; k++) {
			kifu_buf_puts(b, k ? " - " : "");
			kifu_buf_puts(b, "<a href=\"/player/");
			kifu_site_url_part_(b, h->players[k].name);
			kifu_buf_puts(b, "\">");
			kifu_site_text_(b, h->players[k].name);
			kifu_buf_puts(b, "</a>");
		}
		kifu_buf_puts(b, "</td><td class=\"text\">");
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
	kifu_site_games_(b, res, 0, n, with_ply ? GAMES_PLY : 0, NULL, NULL);
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
		const char *g = kifu_site_cell_text_(sum, r, "game");
		const char *v = kifu_site_cell_text_(sum, r, "variant");

		static const char *const cols[] = { "game", "variant", "games", "draws", "draw_rate",
						    "first_mover_score", "ci", "mean_plies", NULL };

		kifu_buf_puts(b, "<tr>");
		kifu_site_cells_(b, sum, r, cols);
		kifu_buf_puts(b, "<td class=\"text\"><a href=\"");
		kifu_site_explore_link_(b, g, v, "", 0, NULL);
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
		kifu_site_url_part_(b, kifu_site_cell_text_(pl, r, "player"));
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, kifu_site_cell_text_(pl, r, "player"));
		kifu_buf_puts(b, "</a></td>");
		kifu_site_cells_(b, pl, r, pcols);
		kifu_buf_puts(b, "</tr>\n");
	}
	kifu_buf_printf(b, "</table>\n<p class=\"note\">%zu players; the 30 best rated shown</p>\n",
			kifu_report_nrows(pl));
	ret = kifu_site_foot_(b);
out:
	kifu_report_free(sum);
	kifu_report_free(len);
	kifu_report_free(pl);
	return ret;
}

/* Links to the page before and after of a list. */
void kifu_site_pager_(struct kifu_buf *b, const struct kifu_buf *base, long page, int more)
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
					    "mistakes", "accuracy" };
	size_t r, k;

	for (r = 0; r < kifu_report_nrows(pl); r++)
		if (!strcmp(kifu_site_cell_text_(pl, r, "player"), name))
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
	kifu_site_text_(b, v->game);
	kifu_buf_puts(b, bb);
	kifu_site_text_(b, v->variant);
	kifu_buf_puts(b, c);
	kifu_site_text_(b, v->side);
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
		const char *line = kifu_site_cell_text_(rep, r, "line");
		long long n = kifu_site_cell_int_(rep, r, "games");
		long long w = kifu_site_cell_int_(rep, r, wins);
		long long d = kifu_site_cell_int_(rep, r, "draws");
		long long u = kifu_site_cell_int_(rep, r, "unfinished");
		long c = kifu_report_find_col(rep, "moves");
		const struct kifu_cell *moves = kifu_report_cell(rep, r, c < 0 ? (size_t)-1 : (size_t)c);
		const char *m = moves->text;
		size_t i;

		if (kifu_site_cell_int_(rep, r, "plies") != KIFU_SITE_LINE_PLIES ||
		    moves->type != KIFU_CELL_LIST)
			continue;
		/* the moves one by one: a move's text may hold spaces (glaisher's) */
		kifu_buf_reset(&after);
		for (i = 0; i < moves->count; i++, m += strlen(m) + 1) {
			if (i)
				kifu_buf_putc(&after, ',');
			kifu_buf_puts(&after, m);
		}
		kifu_buf_puts(b, "<tr><td class=\"text move\"><a href=\"");
		kifu_site_explore_link_(b, v->game, v->variant, after.data, 0, &link);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, line);
		kifu_buf_printf(b, "</a></td><td>%lld</td><td class=\"bar\">", n);
		kifu_site_bar_(b, w, d, n - w - d - u, u);
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
	kifu_site_text_(b, name);
	kifu_buf_puts(b, "</h1>\n");
	player_record(b, pl, name);
	kifu_buf_puts(b, "<h2>As each side</h2>\n<table id=\"sides\">\n<tr><th class=\"text\">game"
		      "</th><th class=\"text\">side</th><th>games</th><th class=\"text\">win / draw "
		      "/ loss</th><th>score</th></tr>\n");
	for (i = 0; i < n; i++) {
		long fin = sides[i].games - sides[i].unfinished;

		kifu_buf_puts(b, "<tr><td class=\"text\">");
		kifu_site_text_(b, sides[i].game);
		kifu_buf_puts(b, " ");
		kifu_site_text_(b, sides[i].variant);
		kifu_buf_puts(b, "</td><td class=\"text\">");
		kifu_site_text_(b, sides[i].side);
		kifu_buf_printf(b, "</td><td>%ld</td><td class=\"bar\">", sides[i].games);
		kifu_site_bar_(b, sides[i].wins, sides[i].draws, sides[i].losses, sides[i].unfinished);
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
	kifu_site_url_part_(&base, name);
	kifu_buf_puts(&base, "?");
	kifu_site_pager_(b, &base, page, kifu_search_count(shown) > KIFU_SITE_PAGE_GAMES);
	ret = kifu_site_foot_(b);
out:
	kifu_buf_release(&base);
	kifu_search_result_free(res);
	kifu_search_result_free(shown);
	kifu_report_free(pl);
	return ret;
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
