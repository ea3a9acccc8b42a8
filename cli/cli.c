/*
 * What every kifu tool does the same way: its name in messages, the error
 * line format of CLI.md, usage errors (exit 2), numeric options, the
 * --version line, the list of games in --help, JSON strings, --from, and the
 * items of the reading pipeline that are not records.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kifu/stats.h"
#include "kifu/text.h"

static const char *progname = "kifu";

static void close_stdout(void);

void cli_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		progname = slash ? slash + 1 : argv0;
	atexit(close_stdout);
}

const char *cli_progname(void)
{
	return progname;
}

/*
 * Writes the text of fmt to fp with kifu_buf_escaped's escapes, then
 * ends the line: the names in messages (files, archive members, database
 * paths and URIs, what libpq echoes of them) are strangers' text as much
 * as a record is, and must not reach a terminal raw.
 */
static void vline(FILE *fp, const char *fmt, va_list ap)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	char small[512], *text = small;
	va_list again;
	int n;

	if (fp == stderr)
		cli_progress_clear_any();
	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n >= 0 && text && kifu_buf_escaped(&b, text) == 0)
		fwrite(b.data, 1, b.len, fp);
	fputc('\n', fp);
	kifu_buf_release(&b);
	if (text != small)
		free(text);
}

void cli_line(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(fp, fmt, ap);
	va_end(ap);
}

void cli_errorf(const char *fmt, ...)
{
	va_list ap;

	cli_progress_clear_any();
	fprintf(stderr, "%s: error: ", progname);
	va_start(ap, fmt);
	vline(stderr, fmt, ap);
	va_end(ap);
}

void cli_error(const struct kifu_error *err)
{
	const char *msg = err->message[0] ? err->message : kifu_strerror(err->code);

	/*
	 * FILE:LINE:COL only for a place in a file; anything else (a database,
	 * a whole file) is the tool's error, its subject named in the message.
	 */
	if (err->source && err->line > 0)
		cli_line(stderr, "%s:%d:%d: error: %s", err->source, err->line,
		     err->col > 0 ? err->col : 1, msg);
	else if (err->source && !strstr(msg, err->source))
		cli_line(stderr, "%s: error: '%s': %s", progname, err->source, msg);
	else
		cli_line(stderr, "%s: error: %s", progname, msg);
}

static int stdout_reported;

int cli_flush_stdout(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	e = errno;
	if (!stdout_reported) {
		stdout_reported = 1;
		if (e) {
			char why[256];

			fprintf(stderr, "%s: error: cannot write to standard output: %s\n", progname,
				cli_errno_text(why, sizeof(why), e));
		} else {
			fprintf(stderr, "%s: error: cannot write to standard output\n", progname);
		}
	}
	return -1;
}

const char *cli_errno_text(char *buf, size_t size, int e)
{
	snprintf(buf, size, "%s", strerror(e ? e : EIO));
	if (buf[0] >= 'A' && buf[0] <= 'Z')
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

int cli_write_in_dir(const char *dir, const char *name, const char *ext, const struct kifu_buf *b)
{
	size_t n = strlen(dir);
	char path[4096], why[256];
	int ok;
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s%s.%s", dir, n && dir[n - 1] == '/' ? "" : "/", name, ext);
	errno = 0;
	fp = fopen(path, "w");
	if (!fp) {
		cli_errorf("cannot write '%s': %s", path, cli_errno_text(why, sizeof(why), errno));
		return -1;
	}
	ok = (!b->len || fwrite(b->data, 1, b->len, fp) == b->len) && fflush(fp) == 0 && !ferror(fp);
	if (fclose(fp) != 0)
		ok = 0;
	if (!ok)
		cli_errorf("cannot write '%s': %s", path, cli_errno_text(why, sizeof(why), errno));
	return ok ? 0 : -1;
}

/*
 * Run at exit: whatever path a tool took, output that did not reach
 * standard output is an I/O error (exit 3), as `>/dev/full` must show.
 */
static void close_stdout(void)
{
	if (cli_flush_stdout() < 0 || fclose(stdout) != 0) {
		if (!stdout_reported)
			fprintf(stderr, "%s: error: cannot write to standard output\n", progname);
		fflush(stderr);
		_exit(EXIT_FAILURE_IO);
	}
	if (stdout_reported)
		_exit(EXIT_FAILURE_IO);
}

void cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", progname);
	va_start(ap, fmt);
	vline(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "usage: %s\n", usage);
	exit(EXIT_USAGE);
}

void cli_option_error(const char *usage, const struct option *options, char **argv, int opt)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o;
	struct kifu_near near;
	char name[64];
	size_t n;

	if (opt == ':')
		cli_usage_error(usage, "option '%s' needs a value", arg);
	if (strncmp(arg, "--", 2) != 0)
		cli_usage_error(usage, "unknown option '%s'", arg);
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1),
		 arg + 2);
	for (o = options; o->name; o++)
		if (!strcmp(o->name, name) && arg[2 + n] == '=' && o->has_arg == no_argument)
			cli_usage_error(usage, "option '--%s' takes no value", name);
	kifu_near_init(&near, name);
	for (o = options; o->name; o++)
		kifu_near_add(&near, o->name);
	if (kifu_near_best(&near))
		cli_usage_error(usage, "unknown option '%s' (did you mean '--%s'?)", arg,
				kifu_near_best(&near));
	cli_usage_error(usage, "unknown option '%s'", arg);
}

/* A whole number is digits alone: no sign, no spaces (which strtol would take). */
static int digits_first(const char *text)
{
	return text[0] >= '0' && text[0] <= '9';
}

int cli_whole_number(long *v, const char *text, long min, long max)
{
	return kifu_stats_whole_number(v, text, min, max);
}

long cli_parse_long(const char *usage, const char *name, const char *text, long min, long max)
{
	long v;

	if (cli_whole_number(&v, text, min, max) < 0)
		cli_usage_error(usage, "%s must be a whole number from %ld to %ld, not '%s'", name, min,
				max, text);
	return v;
}

uint64_t cli_parse_seed(const char *usage, const char *text)
{
	unsigned long long u;
	char *end;

	errno = 0;
	u = strtoull(text, &end, 10);
	if (errno || *end || !digits_first(text))
		cli_usage_error(usage, "--seed must be a whole number from 0 to "
				"18446744073709551615, not '%s'", text);
	return (uint64_t)u;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_print_wrapped(int width, const char *fmt, ...)
{
	char *text = NULL;
	const char *p, *end;
	int col = 0, n;
	va_list ap;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n >= 0 && (text = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	/* greedy: each word on the line while it fits, words longer than a line alone */
	for (p = text ? text : ""; *p; p = end) {
		while (*p == ' ')
			p++;
		for (end = p; *end && *end != ' '; end++)
			;
		if (end == p)
			break;
		if (col && col + 1 + (end - p) > width) {
			putchar('\n');
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, (size_t)(end - p), stdout);
		col += (int)(end - p);
	}
	putchar('\n');
	free(text);
}

void cli_print_games(int sides)
{
	const struct kifu_game *const *g;

	for (g = kifu_games; *g; g++) {
		int v;

		printf("  %-18s ", (*g)->name);
		if (sides) {
			printf("sides:");
			for (v = 0; (*g)->sides[v]; v++)
				printf(" %s", (*g)->sides[v]);
			printf("; ");
		}
		printf("variants:");
		for (v = 0; (*g)->variants[v]; v++)
			printf(" %s%s", (*g)->variants[v], v == 0 ? " (default)" : "");
		printf("\n");
	}
}

void cli_version(void)
{
	printf("%s (kifu) %s\n", progname, KIFU_VERSION);
	exit(EXIT_OK);
}

void cli_unknown_game(const char *usage, const char *name)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	kifu_stats_unknown_game(&err, name);
	cli_usage_error(usage, "%s", err.message);
}

void cli_unknown_variant(const char *usage, const char *name, const struct kifu_game *g)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	kifu_stats_unknown_variant(&err, name, g);
	cli_usage_error(usage, "%s", err.message);
}

void cli_resolve_game(const char *usage, const char *game_name, const char *variant,
		      const char *first, const struct kifu_game **game, int *variant_index,
		      int *first_index)
{
	const struct kifu_game *g = kifu_game_find(game_name);

	if (!g)
		cli_unknown_game(usage, game_name);
	*variant_index = variant ? kifu_game_variant_index(g, variant) : 0;
	if (*variant_index < 0)
		cli_unknown_variant(usage, variant, g);
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
		cli_line(fp, "%s:%d:%d: %s: %s", file, d->line, d->col > 0 ? d->col : 1, sev,
		     d->message);
	else
		cli_line(fp, "%s: %s: %s", file, sev, d->message);
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
			cli_line(stderr, "%s: warning: %s", progname, msg);
		return EXIT_OK;
	}
	if (it->err->code == KIFU_ERANGE && it->input) {
		cli_line(stderr, "%s: error: %s", it->input, msg);
		return EXIT_INVALID;
	}
	cli_line(stderr, "%s: error: %s", progname, msg);
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

	/* An empty name would make SQLite use a temporary database, thrown away at exit. */
	if (db_option && !*db_option) {
		cli_errorf("--db needs a database name, not ''");
		exit(EXIT_USAGE);
	}
	if (db_option)
		return db_option;
	if (env && !*env) {
		cli_errorf("KIFU_DB is set but empty: name a database, or unset it");
		exit(EXIT_USAGE);
	}
	return env ? env : "kifu.db";
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
	case CLI_OPT_AS: f->player_side = arg; return 1;
	case CLI_OPT_LEVEL: f->level = arg; return 1;
	default: return 0;
	}
}

void cli_filter_check(const char *usage, const struct kifu_filter *f)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_stats_check_filter(f, &err) < 0)
		cli_usage_error(usage, "%s", err.message);
}
