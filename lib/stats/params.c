/*
 * The checks of what a user asks a question with: the filters of a report
 * or a search, a game and its variant, whole numbers. The tools (their
 * options) and kifu-serve (its parameters) call the same checks, so that
 * the same mistake gets the same message, did-you-mean included, whichever
 * way it was made. Each returns 0, or KIFU_EPARSE with the message in err.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "kifu/text.h"

/* "a, b or c": the names of the known games (of g's variants when g), in out. */
static void name_list(char *out, size_t size, const struct kifu_game *g)
{
	struct kifu_buf list = KIFU_BUF_INIT;
	int k;

	if (g)
		for (k = 0; g->variants[k]; k++)
			kifu_buf_printf(&list, "%s%s", k ? (g->variants[k + 1] ? ", " : " or ") : "",
					g->variants[k]);
	else
		for (k = 0; kifu_games[k]; k++)
			kifu_buf_printf(&list, "%s%s", k ? (kifu_games[k + 1] ? ", " : " or ") : "",
					kifu_games[k]->name);
	snprintf(out, size, "%s", list.data ? list.data : "");
	kifu_buf_release(&list);
}

int kifu_stats_unknown_game(struct kifu_error *err, const char *name)
{
	struct kifu_near near;
	char known[256];
	int k;

	kifu_near_init(&near, name);
	for (k = 0; kifu_games[k]; k++)
		kifu_near_add(&near, kifu_games[k]->name);
	if (kifu_near_best(&near))
		return kifu_error_set(err, KIFU_EPARSE, "unknown game '%s' (did you mean '%s'?)", name,
				      kifu_near_best(&near));
	name_list(known, sizeof(known), NULL);
	return kifu_error_set(err, KIFU_EPARSE, "unknown game '%s' (%s)", name, known);
}

void kifu_stats_report_names(char *out, size_t size)
{
	struct kifu_buf list = KIFU_BUF_INIT;
	int k;

	for (k = 0; k < KIFU_STATS_KINDS; k++)
		kifu_buf_printf(&list, "%s%s", k ? (k + 1 < KIFU_STATS_KINDS ? ", " : " or ") : "",
				kifu_stats_kind_name(k));
	snprintf(out, size, "%s", list.data ? list.data : "");
	kifu_buf_release(&list);
}

int kifu_stats_unknown_report(struct kifu_error *err, const char *name)
{
	struct kifu_near near;
	char known[256];
	int k;

	kifu_near_init(&near, name);
	for (k = 0; k < KIFU_STATS_KINDS; k++)
		kifu_near_add(&near, kifu_stats_kind_name(k));
	if (kifu_near_best(&near))
		return kifu_error_set(err, KIFU_EPARSE, "unknown report '%s' (did you mean '%s'?)",
				      name, kifu_near_best(&near));
	kifu_stats_report_names(known, sizeof(known));
	return kifu_error_set(err, KIFU_EPARSE, "unknown report '%s' (%s)", name, known);
}

int kifu_stats_unknown_variant(struct kifu_error *err, const char *name, const struct kifu_game *g)
{
	struct kifu_near near;
	char known[256];
	int k, v;

	kifu_near_init(&near, name);
	for (k = 0; kifu_games[k]; k++)
		for (v = 0; (!g || kifu_games[k] == g) && kifu_games[k]->variants[v]; v++)
			kifu_near_add(&near, kifu_games[k]->variants[v]);
	if (kifu_near_best(&near) && g)
		return kifu_error_set(err, KIFU_EPARSE, "unknown variant '%s' of '%s' (did you mean "
				      "'%s'?)", name, g->name, kifu_near_best(&near));
	if (kifu_near_best(&near))
		return kifu_error_set(err, KIFU_EPARSE, "unknown variant '%s' (did you mean '%s'?)",
				      name, kifu_near_best(&near));
	if (!g)
		return kifu_error_set(err, KIFU_EPARSE, "unknown variant '%s'", name);
	name_list(known, sizeof(known), g);
	return kifu_error_set(err, KIFU_EPARSE, "unknown variant '%s' of '%s' (%s)", name, g->name,
			      known);
}

int kifu_stats_resolve_game(const struct kifu_game **game, int *variant_index, const char *name,
			    const char *variant, struct kifu_error *err)
{
	const struct kifu_game *g = kifu_game_find(name);

	if (!g)
		return kifu_stats_unknown_game(err, name);
	*variant_index = variant ? kifu_game_variant_index(g, variant) : 0;
	if (*variant_index < 0)
		return kifu_stats_unknown_variant(err, variant, g);
	*game = g;
	return 0;
}

static const char *const terminations[] = { "rules", "resignation", "timeout", "agreement",
					    "abandoned", NULL };

int kifu_stats_check_filter(const struct kifu_filter *f, struct kifu_error *err)
{
	const struct kifu_game *g = NULL;
	char day[11];
	int k, ok;

	if (f->game && !(g = kifu_game_find(f->game)))
		return kifu_stats_unknown_game(err, f->game);
	if (f->variant) {
		for (k = 0, ok = 0; kifu_games[k]; k++)
			if ((!g || kifu_games[k] == g) &&
			    kifu_game_variant_index(kifu_games[k], f->variant) >= 0)
				ok = 1;
		if (!ok)
			return kifu_stats_unknown_variant(err, f->variant, g);
	}
	/* --as SIDE: NAME's games as that side, a side of --game (or of some game without it) */
	if (f->player_side && !f->player)
		return kifu_error_set(err, KIFU_EPARSE, "--as needs --player NAME");
	if (f->player_side) {
		char sides[256] = "";
		size_t used = 0;
		int s;

		for (k = 0, ok = 0; kifu_games[k]; k++) {
			if (g && kifu_games[k] != g)
				continue;
			for (s = 0; kifu_games[k]->sides[s]; s++) {
				const char *side = kifu_games[k]->sides[s];

				ok |= !strcmp(side, f->player_side);
				if (!strstr(sides, side) && used + strlen(side) + 3 < sizeof(sides))
					used += (size_t)snprintf(sides + used, sizeof(sides) - used,
								 "%s%s", used ? ", " : "", side);
			}
		}
		if (!ok)
			return kifu_error_set(err, KIFU_EPARSE, "--as: '%s' is not a side of %s (%s)",
					      f->player_side, g ? g->name : "any game", sides);
	}
	if (f->termination) {
		for (k = 0, ok = 0; terminations[k]; k++)
			ok |= !strcmp(f->termination, terminations[k]);
		if (!ok)
			return kifu_error_set(err, KIFU_EPARSE, "unknown termination '%s' (rules, "
					      "resignation, timeout, agreement or abandoned)",
					      f->termination);
	}
	/* a level as kifu-stats balance names them: "players" or a SPEC whose player is "SPEC #1" */
	if (f->level && !kifu_store_level_valid(f->level))
		return kifu_error_set(err, KIFU_EPARSE, "unknown level '%s' (a kifu-play SPEC: "
				      "random, mcts:N, engine or engine:N; or players)", f->level);
	for (k = 0; k < 2; k++) {
		const char *date = k ? f->until : f->since;
		struct kifu_error why;

		kifu_error_clear(&why);
		if (date && kifu_date_first_day(day, date, &why) < 0)
			return kifu_error_set(err, KIFU_EPARSE, "--%s: %s", k ? "until" : "since",
					      why.message);
	}
	return 0;
}

int kifu_stats_whole_number(long *v, const char *text, long min, long max)
{
	char *end;
	long l;

	errno = 0;
	l = strtol(text, &end, 10);
	/* Digits alone: no sign, no spaces (which strtol would take). */
	if (errno || *end || text[0] < '0' || text[0] > '9' || l < min || l > max)
		return -1;
	*v = l;
	return 0;
}

int kifu_stats_parse_count(long *v, const char *opt, const char *text, long min,
			   struct kifu_error *err)
{
	if (kifu_stats_whole_number(v, text, min, LONG_MAX) < 0)
		return kifu_error_set(err, KIFU_EPARSE, "%s expects a whole number of %ld or more, "
				      "not '%s'", opt, min, text);
	return 0;
}
