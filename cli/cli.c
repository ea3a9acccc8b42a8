/*
 * What every kifu tool does the same way: its name in messages, the error
 * line format of CLI.md, usage errors (exit 2), the --version line, JSON
 * strings, --from, and the items of the reading pipeline that are not records.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *progname = "kifu";

void cli_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		progname = slash ? slash + 1 : argv0;
}

const char *cli_progname(void)
{
	return progname;
}

void cli_errorf(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_error(const struct kifu_error *err)
{
	const char *msg = err->message[0] ? err->message : kifu_strerror(err->code);

	if (err->source && err->line > 0)
		fprintf(stderr, "%s:%d:%d: error: %s\n", err->source, err->line,
			err->col > 0 ? err->col : 1, msg);
	else if (err->source)
		fprintf(stderr, "%s: error: %s\n", err->source, msg);
	else
		fprintf(stderr, "%s: error: %s\n", progname, msg);
}

void cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: %s\n", usage);
	exit(EXIT_USAGE);
}

void cli_version(void)
{
	printf("%s (kifu) %s\n", progname, KIFU_VERSION);
	exit(EXIT_OK);
}

void cli_resolve_game(const char *usage, const char *game_name, const char *variant,
		      const char *first, const struct kifu_game **game, int *variant_index,
		      int *first_index)
{
	const struct kifu_game *g = kifu_game_find(game_name);

	if (!g)
		cli_usage_error(usage, "unknown game '%s'", game_name);
	*variant_index = variant ? kifu_game_variant_index(g, variant) : 0;
	if (*variant_index < 0)
		cli_usage_error(usage, "unknown variant '%s' of '%s'", variant, g->name);
	*first_index = first ? kifu_game_side_index(g, first) : 0;
	if (*first_index < 0)
		cli_usage_error(usage, "unknown side '%s' of '%s'", first, g->name);
	if (*first_index != 0 && !(g->flags & KIFU_GAME_CHOOSE_FIRST))
		cli_usage_error(usage, "'%s' does not let players choose who starts", g->name);
	*game = g;
}

void cli_json_string(FILE *fp, const char *s)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	if (kifu_buf_json_string(&b, s) == 0)
		fwrite(b.data, 1, b.len, fp);
	kifu_buf_release(&b);
}

void cli_print_diag(FILE *fp, const char *file, const struct kifu_diag *d)
{
	const char *sev = d->severity == KIFU_DIAG_WARNING ? "warning" : "error";

	if (d->line > 0)
		fprintf(fp, "%s:%d:%d: %s: %s\n", file, d->line, d->col > 0 ? d->col : 1, sev,
			d->message);
	else
		fprintf(fp, "%s: %s: %s\n", file, sev, d->message);
}

const struct kifu_format *cli_format_option(const char *usage, const char *name)
{
	const struct kifu_format *f = kifu_format_find(name);
	char list[256] = "";
	size_t i;

	if (f)
		return f;
	for (i = 0; kifu_formats[i]; i++) {
		size_t n = strlen(list);

		snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", kifu_formats[i]->name);
	}
	cli_usage_error(usage, "unknown format '%s' (known: %s)", name, list);
}

int cli_print_item(const struct kifu_item *it, int quiet)
{
	const char *msg = it->err->message[0] ? it->err->message : kifu_strerror(it->err->code);

	if (it->kind == KIFU_ITEM_WARNING) {
		if (!quiet)
			fprintf(stderr, "%s: warning: %s\n", progname, msg);
		return EXIT_OK;
	}
	if (it->err->code == KIFU_ERANGE && it->input) {
		fprintf(stderr, "%s: error: %s\n", it->input, msg);
		return EXIT_INVALID;
	}
	fprintf(stderr, "%s: error: %s\n", progname, msg);
	return EXIT_FAILURE_IO;
}

void cli_print_skipped(const struct kifu_pipeline_summary *sum, int quiet)
{
	if (sum->skipped && !quiet)
		fprintf(stderr, "%s: warning: skipped %ld archive member%s whose name%s no record "
			"pattern\n", progname, sum->skipped, sum->skipped == 1 ? "" : "s",
			sum->skipped == 1 ? " matches" : "s match");
}

const char *cli_db_path(const char *db_option)
{
	const char *env = getenv("KIFU_DB");

	if (db_option)
		return db_option;
	return env && *env ? env : "kifu.db";
}

int cli_filter_option(struct kifu_filter *f, int opt, const char *arg)
{
	switch (opt) {
	case CLI_OPT_GAME: f->game = arg; return 1;
	case CLI_OPT_VARIANT: f->variant = arg; return 1;
	case CLI_OPT_PLAYER: f->player = arg; return 1;
	case CLI_OPT_EVENT: f->event = arg; return 1;
	case CLI_OPT_SINCE: f->since = arg; return 1;
	case CLI_OPT_UNTIL: f->until = arg; return 1;
	case CLI_OPT_TERMINATION: f->termination = arg; return 1;
	default: return 0;
	}
}

static const char *const terminations[] = { "rules", "resignation", "timeout", "agreement",
					    "abandoned", NULL };

void cli_filter_check(const char *usage, const struct kifu_filter *f)
{
	const struct kifu_game *g = NULL;
	struct kifu_error err;
	char day[11];
	int k, ok;

	if (f->game && !(g = kifu_game_find(f->game)))
		cli_usage_error(usage, "unknown game '%s'", f->game);
	if (f->variant) {
		ok = 0;
		for (k = 0; kifu_games[k]; k++)
			if ((!g || kifu_games[k] == g) &&
			    kifu_game_variant_index(kifu_games[k], f->variant) >= 0)
				ok = 1;
		if (!ok && g)
			cli_usage_error(usage, "unknown variant '%s' of '%s'", f->variant, g->name);
		if (!ok)
			cli_usage_error(usage, "unknown variant '%s'", f->variant);
	}
	if (f->termination) {
		for (k = 0, ok = 0; terminations[k]; k++)
			ok |= !strcmp(f->termination, terminations[k]);
		if (!ok)
			cli_usage_error(usage, "unknown termination '%s' (rules, resignation, timeout, "
					"agreement or abandoned)", f->termination);
	}
	kifu_error_clear(&err);
	if (f->since && kifu_date_first_day(day, f->since, &err) < 0)
		cli_usage_error(usage, "--since: %s", err.message);
	if (f->until && kifu_date_first_day(day, f->until, &err) < 0)
		cli_usage_error(usage, "--until: %s", err.message);
}
