/*
 * kifu-serve's JSON API: each answer is made by the library function the
 * tool calls for the same question, after the same checks, so that its
 * bytes are the tool's json and a mistake gets the tool's message:
 *   /api/tree           kifu-stats tree --format json
 *   /api/search         kifu-search --json
 *   /api/stats/REPORT   kifu-stats REPORT --format json
 *   /api/game/ID        kifu-export --id ID --to json
 * Parameters are the tools' options, dashes as underscores (min_games);
 * the filters are game, variant, player, event, since, until, termination.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/format.h"
#include "kifu/game.h"
#include "kifu/pattern.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/search.h"
#include "kifu/site.h"
#include "kifu/stats.h"
#include "kifu/text.h"
#include "serve/serve_impl.h"

const char *kifu_serve_param_(const struct kifu_serve_req_ *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->p[i].name, name))
			return r->p[i].value;
	return NULL;
}

int kifu_serve_fail_(struct kifu_serve_answer *a, int status, const char *message)
{
	char full[160];

	/* (whatever failed, it failed because the answer reached its bound: say so) */
	if (a->body.failed == KIFU_BUF_FULL) {
		snprintf(full, sizeof(full), "the answer would pass %zu MB: narrow the question "
			 "(filters, limit), or ask the tool", a->body.max >> 20);
		status = 500;
		message = full;
	}
	a->status = status;
	if (a->page) {
		a->type = "text/html; charset=utf-8";
		kifu_site_error(&a->body, status, message);
		return -1;
	}
	a->type = "application/json";
	kifu_buf_reset(&a->body);
	kifu_buf_puts(&a->body, "{\"error\": ");
	kifu_buf_json_string(&a->body, message);
	kifu_buf_puts(&a->body, "}\n");
	return -1;
}

int kifu_serve_fail_err_(struct kifu_serve_answer *a, int status, const struct kifu_error *err)
{
	return kifu_serve_fail_(a, status, err->message[0] ? err->message : kifu_strerror(err->code));
}

int kifu_serve_params_check_(struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
			     const char *const *allowed)
{
	struct kifu_error err;
	size_t i, j;
	int k, ok;

	kifu_error_clear(&err);
	for (i = 0; i < r->n; i++) {
		struct kifu_near near;

		for (k = 0, ok = 0; allowed[k] && !ok; k++)
			ok = !strcmp(allowed[k], r->p[i].name);
		/* the nearest name only for a message (edit distances: not on every request) */
		kifu_near_init(&near, r->p[i].name);
		for (k = 0; !ok && allowed[k]; k++)
			kifu_near_add(&near, allowed[k]);
		if (!ok && kifu_near_best(&near))
			kifu_error_set(&err, KIFU_EPARSE, "unknown parameter '%s' (did you mean '%s'?)",
				       r->p[i].name, kifu_near_best(&near));
		else if (!ok)
			kifu_error_set(&err, KIFU_EPARSE, "unknown parameter '%s'", r->p[i].name);
		for (j = 0; ok && j < i; j++)
			if (!strcmp(r->p[j].name, r->p[i].name)) {
				kifu_error_set(&err, KIFU_EPARSE, "parameter '%s' given twice",
					       r->p[i].name);
				ok = 0;
			}
		if (!ok)
			return kifu_serve_fail_err_(a, 400, &err);
	}
	return 0;
}

void kifu_serve_filter_(struct kifu_filter *f, const struct kifu_serve_req_ *r)
{
	const char **slot[] = { &f->game, &f->variant, &f->player, &f->event, &f->since, &f->until,
				&f->termination, &f->player_side, &f->level };
	static const char *const names[] = { "game", "variant", "player", "event", "since", "until",
					     "termination", "as", "level" };
	size_t k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const char *v = kifu_serve_param_(r, names[k]);

		*slot[k] = v && *v ? v : NULL;
	}
}


int kifu_serve_flag_(int *on, struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
		   const char *name)
{
	const char *v = kifu_serve_param_(r, name);
	char msg[160];

	*on = v && !strcmp(v, "1");
	if (!v || !strcmp(v, "0") || *on)
		return 0;
	snprintf(msg, sizeof(msg), "%s expects 1 or 0", name);
	return kifu_serve_fail_(a, 400, msg);
}

int kifu_serve_count_(long *v, struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
		    const char *name, const char *option, long min)
{
	const char *text = kifu_serve_param_(r, name);
	struct kifu_error err;

	kifu_error_clear(&err);
	if (text && kifu_stats_parse_count(v, option, text, min, &err) < 0)
		return kifu_serve_fail_err_(a, 400, &err);
	return 0;
}

/* The deepest openings report the API makes (CLI.md); the tool has no bound. */
#define API_DEPTH_MAX 10
#define API_DEPTH_MAX_TEXT "10"

/* A report as json: kifu-stats REPORT --format json. */
static void report(struct kifu_serve_answer *a, struct kifu_store *st, int kind,
		   const struct kifu_serve_req_ *r)
{
	static const char *const tree_params[] = { FILTER_PARAMS, "after", "symmetric", "min_games",
						   "format", NULL };
	static const char *const openings_params[] = { FILTER_PARAMS, "depth", "min_games",
						       "by_position", "symmetric", "format", NULL };
	static const char *const plain_params[] = { FILTER_PARAMS, "format", NULL };
	static const char *const players_params[] = { FILTER_PARAMS, "by_variant", "name_part",
						       "format", NULL };
	const char *format;
	char *spelling = NULL; /* player as stored */
	int csv;
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_filter f;
	struct kifu_error err;
	long depth = opt.depth;
	int ret;

	kifu_error_clear(&err);
	if (kifu_serve_params_check_(a, r, kind == KIFU_STATS_TREE ? tree_params
					   : kind == KIFU_STATS_OPENINGS ? openings_params
					   : kind == KIFU_STATS_PLAYERS ? players_params
									 : plain_params) < 0 ||
	    kifu_serve_flag_(&opt.by_variant, a, r, "by_variant") < 0 ||
	    kifu_serve_count_(&depth, a, r, "depth", "--depth", 1) < 0 ||
	    kifu_serve_count_(&opt.min_games, a, r, "min_games", "--min-games", 0) < 0 ||
	    kifu_serve_flag_(&opt.by_position, a, r, "by_position") < 0 ||
	    kifu_serve_flag_(&opt.symmetric, a, r, "symmetric") < 0)
		return;
	/* The bound of CLI.md: the lines grow with the depth, and so would the answer. */
	if (depth > API_DEPTH_MAX) {
		kifu_error_set(&err, KIFU_ERANGE, "--depth %s is too deep (" API_DEPTH_MAX_TEXT " at most)",
			       kifu_serve_param_(r, "depth"));
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	/* (the tool's 0 is its 1: a line is played in one game at least) */
	if (opt.min_games < 1) {
		kifu_error_set(&err, KIFU_ERANGE, "--min-games expects a whole number of 1 or more here, "
			       "not '%s'", kifu_serve_param_(r, "min_games"));
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	/* format=csv: the tool's --format csv, as text/csv */
	format = kifu_serve_param_(r, "format");
	csv = format && !strcmp(format, "csv");
	if (format && !csv && strcmp(format, "json") != 0) {
		kifu_error_set(&err, KIFU_EPARSE, "format expects json or csv, not '%s'", format);
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	opt.depth = (int)depth;
	opt.after = kifu_serve_param_(r, "after");
	opt.name_part = kifu_serve_param_(r, "name_part");
	kifu_serve_filter_(&f, r);
	if (opt.symmetric && kind == KIFU_STATS_OPENINGS && !opt.by_position) {
		kifu_serve_fail_(a, 400, "--symmetric applies to openings --by-position and tree, "
				 "not 'openings'");
		return;
	}
	if (kind == KIFU_STATS_TREE && !f.game) {
		kifu_serve_fail_(a, 400, "tree needs --game");
		return;
	}
	if (kifu_stats_check_filter(&f, &err) < 0) {
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	ret = kifu_stats_match_player(&spelling, &f, st, &err);
	if (ret == 0)
		ret = kifu_stats_report(&rep, st, kind, &f, &opt, &err);
	if (ret == 0)
		ret = kifu_report_write(&a->body, rep, csv ? KIFU_REPORT_CSV : KIFU_REPORT_JSON, &err);
	if (ret == 0 && csv)
		a->type = "text/csv; charset=utf-8";
	if (ret < 0 && kind == KIFU_STATS_TREE && (ret == KIFU_EPARSE || ret == KIFU_EILLEGAL)) {
		char msg[KIFU_ERROR_MSG_MAX + 16];

		/* The tool's usage error for a bad move in --after. */
		snprintf(msg, sizeof(msg), "--after: %s", err.message);
		kifu_serve_fail_(a, 400, msg);
	} else if (ret < 0) {
		kifu_serve_fail_err_(a, ret == KIFU_EPARSE || ret == KIFU_ERANGE || ret == KIFU_EILLEGAL ? 400
					: ret == KIFU_ENOTFOUND ? 404 : 500,
			 &err);
	}
	kifu_report_free(rep);
	free(spelling);
}

/* /api/search's page: limit by default, at most SEARCH_LIMIT_MAX. */
#define SEARCH_LIMIT 100
#define SEARCH_LIMIT_MAX 10000


/* A Link header to the next page: the request's parameters with offset moved on. */
static void next_link(struct kifu_serve_answer *a, const struct kifu_serve_req_ *r, long offset)
{
	size_t i;

	a->header = "Link";
	kifu_buf_puts(&a->header_value, "</api/search?");
	for (i = 0; i < r->n; i++) {
		if (!strcmp(r->p[i].name, "offset"))
			continue;
		kifu_buf_url_part(&a->header_value, r->p[i].name);
		kifu_buf_putc(&a->header_value, '=');
		kifu_buf_url_part(&a->header_value, r->p[i].value);
		kifu_buf_putc(&a->header_value, '&');
	}
	kifu_buf_printf(&a->header_value, "offset=%ld>; rel=\"next\"", offset);
}

/* kifu-search --json, with its checks in its order. */
static void search(struct kifu_serve_answer *a, struct kifu_store *st,
		   const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { FILTER_PARAMS, "after", "symmetric", "pattern", "limit",
					      "offset", "format", NULL };
	const char *format = kifu_serve_param_(r, "format");
	struct kifu_search_result *res = NULL;
	struct kifu_pattern *pattern = NULL;
	const char *pattern_text;
	const struct kifu_game *g;
	const char *after;
	char *spelling = NULL; /* player as stored */
	struct kifu_filter f;
	struct kifu_error err;
	uint64_t hash = 0, orient[KIFU_GAME_SYMMETRIES_MAX];
	int norient = 0;
	int symmetric, variant;
	long limit = SEARCH_LIMIT, offset = 0;
	size_t count;

	kifu_error_clear(&err);
	if (kifu_serve_params_check_(a, r, params) < 0 || kifu_serve_flag_(&symmetric, a, r, "symmetric") < 0 ||
	    kifu_serve_count_(&limit, a, r, "limit", "--limit", 1) < 0 ||
	    kifu_serve_count_(&offset, a, r, "offset", "--offset", 0) < 0)
		return;
	if (format && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
		kifu_error_set(&err, KIFU_EPARSE, "format expects json or csv, not '%s'", format);
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	if (limit > SEARCH_LIMIT_MAX) {
		kifu_error_set(&err, KIFU_ERANGE, "--limit %ld is too many (%d at most)",
			       limit, SEARCH_LIMIT_MAX);
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	after = kifu_serve_param_(r, "after");
	pattern_text = kifu_serve_param_(r, "pattern");
	kifu_serve_filter_(&f, r);
	if (symmetric && !after && !pattern_text) {
		kifu_serve_fail_(a, 400, "--symmetric applies to --after or --pattern");
		return;
	}
	if (after && pattern_text) {
		kifu_serve_fail_(a, 400, "--after and --pattern cannot be combined");
		return;
	}
	if (pattern_text &&
	    kifu_search_pattern_prepare(&pattern, &f, pattern_text, symmetric, &err) < 0) {
		kifu_serve_fail_err_(a, err.code == KIFU_ENOMEM ? 500 : 400, &err);
		return;
	}
	if (after && !f.game) {
		kifu_serve_fail_(a, 400, "--after needs --game G (the game MOVES belong to)");
		return;
	}
	if (kifu_stats_check_filter(&f, &err) < 0) {
		kifu_serve_fail_err_(a, 400, &err);
		kifu_pattern_free(pattern);
		return;
	}
	if (kifu_stats_match_player(&spelling, &f, st, &err) < 0) {
		kifu_serve_fail_err_(a, err.code == KIFU_ENOTFOUND ? 404 : 500, &err);
		kifu_pattern_free(pattern);
		return;
	}
	if (after) {
		if (kifu_stats_resolve_game(&g, &variant, f.game, f.variant, &err) < 0) {
			kifu_serve_fail_err_(a, 400, &err);
			goto out;
		}
		f.variant = g->variants[variant];
		if ((symmetric ? kifu_search_position_canonical(&hash, g, variant, after, &err)
			       : kifu_search_position(&hash, g, variant, after, &err)) < 0 ||
		    (symmetric && kifu_search_position_orientations(orient, &norient, g, variant,
								    after, &err) < 0)) {
			char msg[KIFU_ERROR_MSG_MAX + 16];

			snprintf(msg, sizeof(msg), "--after: %s", err.message);
			kifu_serve_fail_(a, err.code == KIFU_ENOMEM ? 500 : 400, msg);
			goto out;
		}
	}
	/* kifu-search --limit --offset: one more game read says whether more follow */
	if ((pattern ? kifu_search_games_pattern(&res, st, &f, pattern, &err)
	     : kifu_search_games_page(&res, st, &f, after ? &hash : NULL, symmetric,
				      symmetric && after ? orient : NULL, norient, (size_t)offset,
				      (size_t)limit + 1, &err)) < 0) {
		kifu_serve_fail_err_(a, 500, &err);
		goto out;
	}
	if (pattern)
		kifu_search_result_window(res, (size_t)offset, (size_t)limit + 1);
	count = kifu_search_count(res);
	kifu_search_result_window(res, 0, (size_t)limit);
	if ((format && !strcmp(format, "csv") ? kifu_search_csv : kifu_search_json)(
		    &a->body, res, after || pattern) < 0) {
		kifu_serve_fail_(a, 500, "out of memory");
		goto out;
	}
	if (format && !strcmp(format, "csv"))
		a->type = "text/csv; charset=utf-8";
	if (count > (size_t)limit)
		next_link(a, r, offset + limit);
out:
	kifu_search_result_free(res);
	kifu_pattern_free(pattern);
	free(spelling);
}

/* kifu-export --id ID --to json. */
static void game(struct kifu_serve_answer *a, struct kifu_store *st, const char *id_text,
		 const struct kifu_serve_req_ *r)
{
	static const char *const params[] = { "format", NULL };
	const char *format;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_analyse_stored review;
	struct kifu_render_stored known = { 0 };
	struct kifu_novelty nov;
	struct kifu_error err;
	char msg[128];
	long id;
	int ret;

	kifu_error_clear(&err);
	memset(&review, 0, sizeof(review));
	if (kifu_serve_params_check_(a, r, params) < 0)
		return;
	format = kifu_serve_param_(r, "format");
	if (format && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0) {
		snprintf(msg, sizeof(msg), "format expects json or csv");
		kifu_serve_fail_(a, 400, msg);
		return;
	}
	if (kifu_stats_whole_number(&id, id_text, 0, LONG_MAX) < 0) {
		kifu_error_set(&err, KIFU_EPARSE, "--id expects a number of 0 or more, not '%s'",
			       id_text);
		kifu_serve_fail_err_(a, 400, &err);
		return;
	}
	ret = kifu_store_game_load(&rec, st, id, &err);
	if (ret == KIFU_ENOTFOUND) {
		snprintf(msg, sizeof(msg), "no game with id %ld", id);
		kifu_serve_fail_(a, 404, msg);
	} else if (ret < 0 || kifu_store_game_validate(&rp, &diags, st, id, rec, &err) < 0) {
		kifu_serve_fail_err_(a, 500, &err);
	} else if (format && !strcmp(format, "csv")) {
		/* kifu-export --id ID --to csv */
		const struct kifu_record *one = rec;
		const struct kifu_replay *one_rp = &rp;

		if (kifu_format_find("csv")->write(&a->body, &one, &one_rp, 1, &err) < 0)
			kifu_serve_fail_err_(a, 500, &err);
		else
			a->type = "text/csv; charset=utf-8";
	} else if (kifu_stats_novelty(&nov, st, id, 0, &err) < 0 ||
		   kifu_analyse_load(&review, st, id, rp.nplies, &err) < 0) {
		kifu_serve_fail_err_(a, 500, &err);
	} else {
		/* kifu-export's json: with the novelty and the stored review */
		kifu_render_stored_novelty(&known, &nov);
		known.review = review.n ? &review.view : NULL;
		if (kifu_render_json(&a->body, rec, &rp, &known) < 0 ||
		    kifu_buf_putc(&a->body, '\n') < 0)
			kifu_serve_fail_(a, 500, "out of memory");
	}
	kifu_analyse_stored_release(&review);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
}

void kifu_serve_api_(struct kifu_serve_answer *a, struct kifu_store *st, const char *rest,
		     const struct kifu_serve_req_ *r)
{
	a->status = 200;
	a->type = "application/json";
	if (!strcmp(rest, "tree")) {
		report(a, st, KIFU_STATS_TREE, r);
	} else if (!strcmp(rest, "search")) {
		search(a, st, r);
	} else if (!strncmp(rest, "stats/", 6)) {
		int kind = kifu_stats_kind_find(rest + 6);
		struct kifu_error err;

		if (kind < 0) {
			kifu_error_clear(&err);
			kifu_stats_unknown_report(&err, rest + 6);
			kifu_serve_fail_err_(a, 404, &err);
			return;
		}
		report(a, st, kind, r);
	} else if (!strncmp(rest, "game/", 5)) {
		game(a, st, rest + 5, r);
	} else {
		kifu_serve_fail_(a, 404, "no such page");
	}
}
