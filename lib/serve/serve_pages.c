/*
 * kifu-serve's pages: their addresses and parameters, checked as the API
 * checks its own, then made by lib/render/site.c. A request's mistake is
 * an HTML error page: 400 (a bad parameter, with the tools' message; a bad
 * filter is the page itself, its form kept and the field marked), 404 (no
 * such game, variant, game id or player).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/site.h"
#include "kifu/stats.h"
#include "serve/serve_impl.h"

/* A library error as the page's status: the request's mistake, or the server's failure. */
static void page_error(struct kifu_serve_answer *a, const struct kifu_error *err)
{
	int code = err->code;

	kifu_serve_fail_err_(a, code == KIFU_ENOTFOUND ? 404 : code == KIFU_EPARSE ||
			     code == KIFU_EILLEGAL || code == KIFU_ERANGE ? 400 : 500, err);
}

/*
 * The player filter as --player matches it (kifu_stats_match_player): f's
 * player then the stored spelling (*spelling, to free); none is a 404
 * page with the nearest names.
 */
static int match_player(char **spelling, struct kifu_serve_answer *a, struct kifu_store *st,
			struct kifu_filter *f)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_stats_match_player(spelling, f, st, &err) < 0) {
		page_error(a, &err);
		return -1;
	}
	return 0;
}

#define GAME_NAME_MAX 64

/* GAME/VARIANT, the rest of an address, into game and variant; else a 404 saying what. */
static int game_variant(char *game, char *variant, struct kifu_serve_answer *a, const char *rest,
			const char *what)
{
	const char *slash = strchr(rest, '/');

	if (!slash || strchr(slash + 1, '/') || (size_t)(slash - rest) >= GAME_NAME_MAX ||
	    strlen(slash + 1) >= GAME_NAME_MAX) {
		kifu_serve_fail_(a, 404, what);
		return -1;
	}
	memcpy(game, rest, (size_t)(slash - rest));
	game[slash - rest] = '\0';
	strcpy(variant, slash + 1);
	return 0;
}

static void explore(struct kifu_serve_answer *a, struct kifu_store *st, const char *rest,
		    const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { "player", "as", "event", "since", "until",
					      "termination", "level", "after", "symmetric", "page",
					      "min_games", "all", NULL };
	struct kifu_site_position p;
	struct kifu_filter f;
	struct kifu_error err;
	char game[GAME_NAME_MAX], variant[GAME_NAME_MAX];
	char *spelling = NULL;
	long page = 1;
	int ret;

	kifu_error_clear(&err);
	if (game_variant(game, variant, a, rest,
			 "the explorer's address is /explore/GAME/VARIANT") < 0)
		return;
	memset(&p, 0, sizeof(p));
	if (kifu_serve_params_check_(a, r, params) < 0 ||
	    kifu_serve_flag_(&p.symmetric, a, r, "symmetric") < 0 ||
	    kifu_serve_count_(&page, a, r, "page", "page", 1) < 0 ||
	    /* the form's empty field is no minimum */
	    (kifu_serve_param_(r, "min_games") && *kifu_serve_param_(r, "min_games") &&
	     kifu_serve_count_(&p.min_games, a, r, "min_games", "min_games", 1) < 0) ||
	    kifu_serve_flag_(&p.all, a, r, "all") < 0)
		return;
	kifu_serve_filter_(&f, r);
	if (match_player(&spelling, a, st, &f) < 0)
		return;
	p.game = game;
	p.variant = variant;
	p.after = kifu_serve_param_(r, "after");
	p.filter = &f;
	/* pages count from 1 in the address, from 0 below */
	p.page = (page > 100000 ? 100000 : page) - 1;
	ret = kifu_site_explore(&a->body, st, &p, &err);
	if (ret == KIFU_SITE_MISSING)
		a->status = 404;
	else if (ret == KIFU_SITE_REJECTED)
		a->status = 400;
	else if (ret < 0)
		page_error(a, &err);
	free(spelling);
}

/* /pattern/GAME/VARIANT?pattern=P[&symmetric=1][&page=N]. */
static void pattern(struct kifu_serve_answer *a, struct kifu_store *st, const char *rest,
		    const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { "pattern", "symmetric", "page", "player", "as",
					      "event", "since", "until", "termination", "level",
					      NULL };
	struct kifu_site_pattern_query q;
	struct kifu_filter f;
	struct kifu_error err;
	char game[GAME_NAME_MAX], variant[GAME_NAME_MAX];
	char *spelling = NULL;
	int rejected = 0;

	kifu_error_clear(&err);
	if (game_variant(game, variant, a, rest,
			 "the pattern search's address is /pattern/GAME/VARIANT") < 0)
		return;
	memset(&q, 0, sizeof(q));
	if (kifu_serve_params_check_(a, r, params) < 0 ||
	    kifu_serve_flag_(&q.symmetric, a, r, "symmetric") < 0 ||
	    kifu_serve_count_(&q.page, a, r, "page", "page", 1) < 0)
		return;
	q.page = q.page ? q.page - 1 : 0;
	q.game = game;
	q.variant = variant;
	q.pattern = kifu_serve_param_(r, "pattern");
	q.nonce = a->nonce;
	/* the explorer's filters, kept */
	kifu_serve_filter_(&f, r);
	if (match_player(&spelling, a, st, &f) < 0)
		return;
	q.filter = &f;
	if (q.page > 100000)
		q.page = 100000;
	if (kifu_site_pattern(&a->body, &rejected, st, &q, &err) < 0)
		page_error(a, &err);
	else if (rejected)
		a->status = 400;
	free(spelling);
}

/* /games?FILTERS&sort=KEY&desc=1&page=N (from 1). */
static void list_games(struct kifu_serve_answer *a, struct kifu_store *st,
		       const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { FILTER_PARAMS, "sort", "desc", "page", NULL };
	struct kifu_site_games_query q;
	struct kifu_filter f;
	struct kifu_error err;
	char *spelling = NULL;
	int ret;

	kifu_error_clear(&err);
	memset(&q, 0, sizeof(q));
	q.page = 1;
	if (kifu_serve_params_check_(a, r, params) < 0 || kifu_serve_flag_(&q.desc, a, r, "desc") < 0 ||
	    kifu_serve_count_(&q.page, a, r, "page", "page", 1) < 0)
		return;
	kifu_serve_filter_(&f, r);
	if (match_player(&spelling, a, st, &f) < 0)
		return;
	q.filter = &f;
	q.sort = kifu_serve_param_(r, "sort") && *kifu_serve_param_(r, "sort")
		 ? kifu_serve_param_(r, "sort") : "date";
	if (!kifu_serve_param_(r, "sort") && !kifu_serve_param_(r, "desc"))
		q.desc = 1;
	ret = kifu_site_games(&a->body, st, &q, &err);
	if (ret == KIFU_SITE_REJECTED)
		a->status = 400;
	else if (ret < 0)
		page_error(a, &err);
	free(spelling);
}

/* A parameter's text, NULL when absent or empty (a form's empty field is no choice). */
static const char *given(const struct kifu_serve_req_ *r, const char *name)
{
	const char *v = kifu_serve_param_(r, name);

	return v && *v ? v : NULL;
}

/*
 * gv=GAME/VARIANT (the page's one select) as game and variant, into buf;
 * game= and variant= (the page's links) win over it.
 */
static void game_and_variant(const char **game, const char **variant, char *buf, size_t size,
			     const struct kifu_serve_req_ *r)
{
	const char *gv = given(r, "gv"), *slash = gv ? strchr(gv, '/') : NULL;

	*game = given(r, "game");
	*variant = given(r, "variant");
	if (!*game && slash && strlen(gv) < size) {
		memcpy(buf, gv, strlen(gv) + 1);
		buf[slash - gv] = '\0';
		*game = buf;
		*variant = buf + (slash - gv) + 1;
	} else if (!*game && gv && strlen(gv) < size) {
		memcpy(buf, gv, strlen(gv) + 1);
		*game = buf;
	}
}

/* /players?q=PART&game=G&variant=V&sort=rating|games&page=N (from 1). */
static void players(struct kifu_serve_answer *a, struct kifu_store *st,
		    const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { "q", "game", "variant", "gv", "sort", "page", NULL };
	struct kifu_site_players_query q;
	struct kifu_error err;
	char gv[2 * GAME_NAME_MAX];

	kifu_error_clear(&err);
	memset(&q, 0, sizeof(q));
	q.page = 1;
	if (kifu_serve_params_check_(a, r, params) < 0 ||
	    kifu_serve_count_(&q.page, a, r, "page", "page", 1) < 0)
		return;
	q.part = given(r, "q");
	game_and_variant(&q.game, &q.variant, gv, sizeof(gv), r);
	q.sort = given(r, "sort") ? given(r, "sort") : "rating";
	if (kifu_site_players(&a->body, st, &q, &err) < 0)
		page_error(a, &err);
}


/*
 * /player/NAME[?game=G&variant=V][&page=N]: NAME matched as --player is; a
 * name found only without regard to case is a 308 to the stored spelling
 * (the parameters kept, encoded again), none a 404 with the nearest names.
 */
static void player(struct kifu_serve_answer *a, struct kifu_store *st, const char *name,
		   const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { "game", "variant", "gv", "page", NULL };
	static const char *const kept[] = { "game", "variant", "page" };
	struct kifu_site_player_query q;
	struct kifu_error err;
	char gv[2 * GAME_NAME_MAX];
	char *spelling = NULL;
	long n = 1;
	size_t k;
	int sep = '?';

	kifu_error_clear(&err);
	if (kifu_serve_params_check_(a, r, params) < 0 ||
	    kifu_serve_count_(&n, a, r, "page", "page", 1) < 0)
		return;
	if (kifu_stats_find_player(&spelling, st, name, &err) < 0) {
		page_error(a, &err);
		return;
	}
	if (strcmp(spelling, name)) {
		a->status = 308;
		a->header = "Location";
		kifu_buf_puts(&a->header_value, "/player/");
		kifu_buf_url_part(&a->header_value, spelling);
		for (k = 0; k < sizeof(kept) / sizeof(kept[0]); k++)
			if (given(r, kept[k])) {
				kifu_buf_printf(&a->header_value, "%c%s=", sep, kept[k]);
				kifu_buf_url_part(&a->header_value, given(r, kept[k]));
				sep = '&';
			}
		kifu_buf_puts(&a->body, "moved to /player/");
		kifu_buf_url_part(&a->body, spelling);
		a->type = "text/plain; charset=utf-8";
		free(spelling);
		return;
	}
	memset(&q, 0, sizeof(q));
	q.name = spelling;
	game_and_variant(&q.game, &q.variant, gv, sizeof(gv), r);
	q.page = (n > 100000 ? 100000 : n) - 1;
	if (kifu_site_player(&a->body, st, &q, &err) < 0)
		page_error(a, &err);
	free(spelling);
}

/* /balance?FILTERS: kifu-stats balance as a page. */
static void balance(struct kifu_serve_answer *a, struct kifu_store *st,
		    const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { FILTER_PARAMS, NULL };
	struct kifu_filter f;
	struct kifu_error err;
	char *spelling = NULL;
	int ret;

	kifu_error_clear(&err);
	if (kifu_serve_params_check_(a, r, params) < 0)
		return;
	kifu_serve_filter_(&f, r);
	if (match_player(&spelling, a, st, &f) < 0)
		return;
	ret = kifu_site_balance(&a->body, st, &f, &err);
	if (ret == KIFU_SITE_REJECTED)
		a->status = 400;
	else if (ret < 0)
		page_error(a, &err);
	free(spelling);
}

void kifu_serve_page_(struct kifu_serve_answer *a, struct kifu_store *st, const char *path,
		      const struct kifu_serve_req_ *r)
{
	static const char *const none[] = { NULL };
	static const char *const at_ply[] = { "ply", NULL };
	struct kifu_error err;
	const char *asset;
	size_t len;
	long n = 0;

	kifu_error_clear(&err);
	if (!strcmp(path, "/")) {
		if (kifu_serve_params_check_(a, r, none) == 0 &&
		    kifu_site_home(&a->body, st, &err) < 0)
			page_error(a, &err);
	} else if (!strncmp(path, "/assets/", 8)) {
		asset = kifu_site_asset(path + 8, &len, &a->type);
		if (!asset)
			kifu_serve_fail_(a, 404, "no such asset");
		else
			kifu_buf_add(&a->body, asset, len);
	} else if (!strncmp(path, "/explore/", 9)) {
		explore(a, st, path + 9, r);
	} else if (!strncmp(path, "/pattern/", 9)) {
		pattern(a, st, path + 9, r);
	} else if (!strncmp(path, "/game/", 6) && path[6] && path[strlen(path) - 1] == '/' &&
		   !strchr(path + 6, '/')[1]) {
		/* /game/ID/ is /game/ID, as a browser or a hand-typed address may ask */
		size_t i, plen = strlen(path);

		a->status = 308;
		a->header = "Location";
		/* (what was decoded encoded again: a header is one line, ? and # not the path's) */
		for (i = 0; i + 1 < plen; i++)
			if ((unsigned char)path[i] <= 0x20 || path[i] == 0x7f || strchr("%?#", path[i]))
				kifu_buf_printf(&a->header_value, "%%%02X", (unsigned char)path[i]);
			else
				kifu_buf_putc(&a->header_value, path[i]);
		/* the ply kept (digits only: nothing else of the request reaches the header) */
		if (kifu_serve_param_(r, "ply") && *kifu_serve_param_(r, "ply") &&
		    strspn(kifu_serve_param_(r, "ply"), "0123456789") ==
			    strlen(kifu_serve_param_(r, "ply")))
			kifu_buf_printf(&a->header_value, "?ply=%s", kifu_serve_param_(r, "ply"));
		kifu_buf_puts(&a->body, "moved to ");
		kifu_buf_add(&a->body, path, strlen(path) - 1);
		a->type = "text/plain; charset=utf-8";
	} else if (!strncmp(path, "/game/", 6)) {
		long ply = -1;

		if (kifu_serve_params_check_(a, r, at_ply) < 0 ||
		    kifu_serve_count_(&ply, a, r, "ply", "ply", 0) < 0)
			return;
		if (kifu_stats_whole_number(&n, path + 6, 0, LONG_MAX) < 0) {
			kifu_error_set(&err, KIFU_EPARSE, "a game's address is /game/ and its number, "
				       "not '%s'", path + 6);
			kifu_serve_fail_err_(a, 400, &err);
		} else if (kifu_site_game(&a->body, st, n, ply, a->nonce, &err) < 0) {
			page_error(a, &err);
		}
	} else if (!strcmp(path, "/games")) {
		list_games(a, st, r);
	} else if (!strcmp(path, "/balance")) {
		balance(a, st, r);
	} else if (!strncmp(path, "/player/", 8) && path[8]) {
		player(a, st, path + 8, r);
	} else if (!strcmp(path, "/players")) {
		players(a, st, r);
	} else {
		kifu_serve_fail_(a, 404, "no such page");
	}
}
