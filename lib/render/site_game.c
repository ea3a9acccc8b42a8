/*
 * kifu-serve's page of a stored game, /game/ID (include/kifu/site.h):
 * kifu-export's replay page (render_page.c) with the site's bar above it
 * (home, the players, the explorer at the position shown, the data), its
 * stored review and novelty. A page that would pass the answer's bound is
 * refused before it is made.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "render/site_impl.h"

/* ---- /game/ID ---- */

static const char game_nav_style[] =
	"nav.site{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:baseline;padding:8px 20px;"
	"background:#2b2418;color:#e8dfc8;font-size:14px}\n"
	"nav.site a{color:#ffe08a}nav.site a.home{font-weight:bold;font-size:17px;color:#fffaf0;"
	"text-decoration:none;margin-right:6px}\n"
	"nav.site .data{margin-left:auto}nav.site .data a{margin-left:8px}\n";

/*
 * The site's bar above a game's replay: home, each player's page, the
 * explorer at the ply shown (its script follows the replay's board), the
 * data as JSON and CSV.
 */
static void game_nav(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, int64_t id, long ply, const char *nonce)
{
	const struct kifu_game *g = rp->game;
	long i;
	size_t k;

	kifu_buf_printf(b, "<style>%s</style>\n<nav class=\"site\"><a class=\"home\" href=\"/\">"
			"kifu</a><span>game %" PRId64 "</span>", game_nav_style, id);
	for (k = 0; k < rec->nplayers; k++) {
		if (!rec->players[k].name || !rec->players[k].side)
			continue;
		kifu_buf_puts(b, "<span class=\"player\">");
		kifu_site_text_(b, rec->players[k].side);
		kifu_buf_puts(b, ": <a href=\"/player/");
		kifu_site_url_part_(b, rec->players[k].name);
		kifu_buf_puts(b, "\">");
		kifu_site_text_(b, rec->players[k].name);
		kifu_buf_puts(b, "</a></span>");
	}
	/* the explorer's positions start with the game's first side to move (index 0) */
	if (rp->first != 0)
		goto data;
	kifu_buf_puts(b, "<a id=\"to-explorer\" data-base=\"/explore/");
	kifu_site_url_part_(b, g->name);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, g->variants[rp->variant]);
	kifu_buf_puts(b, "?after=\" href=\"/explore/");
	kifu_site_url_part_(b, g->name);
	kifu_buf_putc(b, '/');
	kifu_site_url_part_(b, g->variants[rp->variant]);
	kifu_buf_puts(b, "?after=");
	for (i = 1; i <= ply && (size_t)i <= rp->nplies; i++) {
		if (i > 1)
			kifu_buf_puts(b, "%2C");
		kifu_site_url_part_(b, kifu_replay_text(rp, (size_t)i));
	}
	kifu_buf_puts(b, "\">this position in the explorer</a>");
data:
	kifu_buf_printf(b, "<span class=\"data\">data:"
			"<a id=\"data-json\" href=\"/api/game/%" PRId64 "\">JSON</a><a id=\"data-csv\" "
			"href=\"/api/game/%" PRId64 "?format=csv\">CSV</a></span></nav>\n", id, id);
	/*
	 * the replay moves its board without a new page: the link follows its
	 * data-ply, to the path of the position shown (kifuPath: the replay's
	 * canonical moves, a line's own included, without their nags)
	 */
	kifu_buf_printf(b, "<script nonce=\"%s\">\n", nonce);
	kifu_buf_puts(b, "(function () {\n"
		      "var a = document.getElementById(\"to-explorer\");\n"
		      "if (!a) return;\n"
		      "function follow() {\n"
		      "\tvar board = document.getElementById(\"board\");\n"
		      "\tif (!board || typeof kifuPath !== \"function\") return;\n"
		      "\tvar p = +board.getAttribute(\"data-ply\");\n"
		      "\ta.href = a.getAttribute(\"data-base\") + kifuPath(p)"
		      ".map(encodeURIComponent).join(\"%2C\");\n"
		      "}\n"
		      "document.addEventListener(\"DOMContentLoaded\", function () {\n"
		      "\tfollow();\n"
		      "\tnew MutationObserver(follow).observe(document.getElementById(\"board\"), "
		      "{ attributes: true, attributeFilter: [\"data-ply\"] });\n"
		      "});\n"
		      "})();\n</script>\n");
}

/*
 * What every move of the game or of its lines costs the page at least (its
 * button in the move list, its text and its picture's change for the
 * script), its comment besides: a page whose floor passes the answer's
 * bound is refused before anything is drawn.
 */
#define PAGE_TURN_FLOOR 64

static size_t page_floor(const struct kifu_turn *t, size_t n)
{
	size_t sum = 0, i, j;

	for (i = 0; i < n; i++) {
		sum += PAGE_TURN_FLOOR + (t[i].comment ? strlen(t[i].comment) : 0);
		for (j = 0; j < t[i].nlines; j++)
			sum += page_floor(t[i].lines[j].turns, t[i].lines[j].nturns);
	}
	return sum;
}

int kifu_site_game(struct kifu_buf *b, struct kifu_store *st, int64_t id, long ply,
		   const char *nonce, struct kifu_error *err)
{
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_buf page = KIFU_BUF_INIT, nav = KIFU_BUF_INIT;
	struct kifu_analyse_stored review;
	struct kifu_render_stored known = { 0 };
	struct kifu_novelty nov;
	const char *s, *at;
	int ret;

	memset(&review, 0, sizeof(review));

	ret = kifu_store_game_load(&rec, st, id, err);
	if (ret == KIFU_ENOTFOUND)
		kifu_error_set(err, ret, "no game with id %" PRId64, id);
	/* the page is made whole before it is copied into the answer: both within its bound */
	page.max = b->max;
	if (ret == 0 && b->max && page_floor(rec->turns, rec->nturns) > b->max)
		ret = kifu_error_set(err, KIFU_ENOMEM, "game %" PRId64 "'s page would pass the "
				     "answer's %zu MB: kifu-export --id %" PRId64 " --to html writes it",
				     id, b->max >> 20, id);
	if (ret == 0)
		ret = kifu_store_game_validate(&rp, &diags, st, id, rec, err);
	if (ret == 0 && ply > (long)rp.nplies)
		ret = kifu_error_set(err, KIFU_ERANGE, "game %" PRId64 " has %zu plies: there is no "
				     "ply %ld", id, rp.nplies, ply);
	/* With its stored review (chart and marks), as kifu-analyse --to html draws it. */
	if (ret == 0)
		ret = kifu_analyse_load(&review, st, id, rp.nplies, err);
	if (ret == 0)
		ret = kifu_stats_novelty(&nov, st, id, KIFU_NOVELTY_EARLIER, err);
	if (ret == 0) {
		kifu_render_stored_novelty(&known, &nov);
		known.review = review.n ? &review.view : NULL;
		ret = kifu_render_html(&page, rec, &rp, ply, &known);
	}
	if (ret == 0 && page.failed == KIFU_BUF_FULL)
		ret = kifu_error_set(err, KIFU_ENOMEM, "game %" PRId64 "'s page would pass the "
				     "answer's %zu MB: kifu-export --id %" PRId64 " --to html writes it",
				     id, b->max >> 20, id);
	else if (ret == 0 && page.failed)
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
		size_t pos = (size_t)(at - b->data) + 7;

		game_nav(&nav, rec, &rp, id, ply < 0 ? 0 : ply, nonce);
		if (!nav.failed && kifu_buf_add(b, nav.data, nav.len) == 0) {
			memmove(b->data + pos + nav.len, b->data + pos, b->len - nav.len - pos);
			memcpy(b->data + pos, nav.data, nav.len);
		}
	}
	ret = b->failed ? KIFU_ENOMEM : 0;
out:
	kifu_analyse_stored_release(&review);
	kifu_buf_release(&page);
	kifu_buf_release(&nav);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
	return ret;
}
