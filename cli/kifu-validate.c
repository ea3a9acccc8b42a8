/*
 * kifu-validate: checks game records (files in any format of INTEROP.md,
 * archives, directories searched recursively, or - for standard input)
 * against RECORDS.md, replaying every game through its rules engine.
 * Diagnostics go to stderr as FILE:LINE:COL: error: ...; the summary line
 * (or, with --json, one JSON object per game) goes to stdout. Exit 0 all
 * valid, 1 some invalid, 2 usage, 3 an input could not be read.
 *
 * Reading is the library's pipeline (kifu/pipeline.h): a thread reads and
 * parses, this one replays, prints and counts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/diag.h"
#include "kifu/pipeline.h"
#include "kifu/record.h"

static const char usage[] = "kifu-validate [--from FORMAT] [--json] [--quiet] PATH...";

struct run {
	int json, quiet;
	long tally[3];          /* games, valid, invalid */
	int status;             /* the worst exit status of the inputs */
};

static void help(void)
{
	printf("usage: %s\n\n", usage);
	cli_print_wrapped(76, "Checks game records against the record format (format 1), replaying "
			  "every game through its rules engine. PATH is a file, a directory "
			  "(searched recursively, in name order, for %s), an archive or compressed "
			  "file, or - for standard input.", kifu_pipeline_patterns());
	printf("\n"
	       "  --from FORMAT  read every input as FORMAT (yaml, apgr, pgn, csv) instead\n"
	       "                 of telling it by name and content\n"
	       "  --json     one JSON object per game on stdout (JSON Lines):\n"
	       "             {\"file\", \"game\", \"line\", \"valid\", \"plies\", \"result\", \"errors\"};\n"
	       "             the summary goes to stderr\n"
	       "  --quiet    no summary line, no warnings\n"
	       "  --help, --version\n\n"
	       "Diagnostics go to stderr as FILE:LINE:COL: error: game K[, ply P]: MESSAGE\n"
	       "(warnings as FILE:LINE:COL: warning: ...); FILE names an archive's member\n"
	       "as ARCHIVE(MEMBER). The summary line is 'N games, V valid, I invalid'.\n\n"
	       "Exit status: 0 every game is valid, 1 some game is invalid, 2 usage error,\n"
	       "3 an input could not be read or an archive is damaged (3 wins over 1).\n");
	exit(EXIT_OK);
}

static void print_json(FILE *out, const struct kifu_diags *diags, const char *file,
		       const struct kifu_record *rec, int valid)
{
	size_t i;
	int first = 1;

	fputs("{\"file\":", out);
	cli_json_string(out, file);
	fprintf(out, ",\"game\":%d,\"line\":%d,\"valid\":%s,\"plies\":%zu,\"result\":",
		rec->number, rec->at.line, valid ? "true" : "false",
		rec->flags & KIFU_RECORD_SYNTAX_ERROR ? (size_t)0 : rec->plies_written);
	if (rec->result)
		cli_json_string(out, rec->result);
	else if (rec->present & (1u << KIFU_KEY_RESULT))
		fputs("null", out);
	else
		fputs("\"unfinished\"", out);
	fputs(",\"errors\":[", out);
	for (i = 0; i < diags->n; i++) {
		const struct kifu_diag *d = &diags->v[i];

		if (d->severity != KIFU_DIAG_ERROR)
			continue;
		fprintf(out, "%s{\"line\":%d,\"col\":%d,\"ply\":", first ? "" : ",", d->line,
			d->col);
		if (d->ply > 0)
			fprintf(out, "%d", d->ply);
		else
			fputs("null", out);
		fputs(",\"message\":", out);
		cli_json_string(out, d->message);
		putc('}', out);
		first = 0;
	}
	fputs("]}\n", out);
}

static int consume(const struct kifu_item *it, void *ctx)
{
	struct run *run = ctx;
	const struct kifu_record *rec;
	size_t i;
	int valid, st;

	switch (it->kind) {
	case KIFU_ITEM_RECORD:
		rec = *it->rec;
		valid = it->diags->errors == 0;
		for (i = 0; i < it->diags->n; i++)
			cli_print_diag(stderr, it->input, &it->diags->v[i]);
		run->tally[0]++;
		run->tally[valid ? 1 : 2]++;
		if (run->json)
			print_json(stdout, it->diags, it->input, rec, valid);
		break;
	case KIFU_ITEM_ERROR:
	case KIFU_ITEM_WARNING:
		st = cli_print_item(it, run->quiet);
		if (st == EXIT_FAILURE_IO || (st == EXIT_INVALID && run->status != EXIT_FAILURE_IO))
			run->status = st;
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kifu_pipeline_options opt = KIFU_PIPELINE_OPTIONS_INIT;
	struct kifu_pipeline_summary sum;
	struct kifu_error err;
	struct run run;
	int o;

	cli_init(argv[0]);
	memset(&run, 0, sizeof(run));
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (o) {
		case 'f': opt.from = cli_format_option(usage, optarg); break;
		case 'j': run.json = 1; break;
		case 'q': run.quiet = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, o);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage, "expected at least one PATH");
	opt.flags = KIFU_PIPELINE_REPLAY;
	kifu_error_clear(&err);
	if (kifu_pipeline_run((const char *const *)argv + optind, (size_t)(argc - optind), &opt,
			      consume, &run, &sum, &err) < 0) {
		cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
		run.status = EXIT_FAILURE_IO;
	}
	cli_print_skipped(&sum, run.quiet);
	if (!run.quiet)
		fprintf(run.json ? stderr : stdout, "%ld game%s, %ld valid, %ld invalid\n",
			run.tally[0], run.tally[0] == 1 ? "" : "s", run.tally[1], run.tally[2]);
	if (cli_flush_stdout() < 0)
		return EXIT_FAILURE_IO;
	if (run.status == EXIT_FAILURE_IO)
		return EXIT_FAILURE_IO;
	return run.tally[2] || run.status ? EXIT_INVALID : EXIT_OK;
}
