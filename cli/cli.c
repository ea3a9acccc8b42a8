/*
 * What every kifu tool does the same way: its name in messages, the error
 * line format of CLI.md, usage errors (exit 2) and the --version line.
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
