/*
 * kifu-validate: checks game records (files, directories searched for
 * *.yaml and *.yml, or - for standard input) against RECORDS.md, replaying
 * every game through its rules engine. Diagnostics go to stderr as
 * FILE:LINE:COL: error: ...; the summary line (or, with --json, one JSON
 * object per game) goes to stdout. Exit 0 all valid, 1 some invalid,
 * 2 usage, 3 a file could not be read.
 *
 * Reading and checking run as a pipeline of two threads: one parses YAML
 * into records (libyaml), the other replays them through the engines and
 * prints, in file order; a bounded ring of records sits between them.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/record.h"

static const char usage[] = "kifu-validate [--json] [--quiet] PATH...";

struct run {
	int json, quiet;
	long games, valid, invalid;
	int io_error;
	struct kifu_replay replay;
};

/* Records read ahead of the checking thread. */
#define RING 64

struct slot {
	struct kifu_record *rec;
	struct kifu_diags diags;
	struct kifu_error err;
	int ret;                /* of kifu_reader_next */
};

struct pipe {
	struct kifu_reader *reader;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct slot ring[RING];
	unsigned head, tail;    /* slots filled / consumed (free-running counters) */
	int stop;               /* the checking thread gave up */
};

static void help(void)
{
	printf("usage: %s\n\n"
	       "Checks game records against the record format (format 1), replaying every\n"
	       "game through its rules engine. PATH is a file, a directory (searched\n"
	       "recursively for *.yaml and *.yml, in name order) or - for standard input.\n\n"
	       "  --json     one JSON object per game on stdout (JSON Lines):\n"
	       "             {\"file\", \"game\", \"line\", \"valid\", \"plies\", \"result\", \"errors\"};\n"
	       "             the summary goes to stderr\n"
	       "  --quiet    no summary line\n"
	       "  --help, --version\n\n"
	       "Diagnostics go to stderr as FILE:LINE:COL: error: game K[, ply P]: MESSAGE\n"
	       "(warnings as FILE:LINE:COL: warning: ...). The summary line is\n"
	       "'N games, V valid, I invalid'.\n\n"
	       "Exit status: 0 every game is valid, 1 some game is invalid, 2 usage error,\n"
	       "3 a file could not be read (3 wins over 1).\n", usage);
	exit(EXIT_OK);
}

static void print_diag(const char *file, const struct kifu_diag *d)
{
	const char *sev = d->severity == KIFU_DIAG_WARNING ? "warning" : "error";

	if (d->line > 0)
		fprintf(stderr, "%s:%d:%d: %s: %s\n", file, d->line, d->col > 0 ? d->col : 1, sev,
			d->message);
	else
		fprintf(stderr, "%s: %s: %s\n", file, sev, d->message);
}

static void print_json(const struct kifu_diags *diags, const char *file,
		       const struct kifu_record *rec, int valid)
{
	size_t i;
	int first = 1;

	fputs("{\"file\":", stdout);
	cli_json_string(stdout, file);
	printf(",\"game\":%d,\"line\":%d,\"valid\":%s,\"plies\":%zu,\"result\":", rec->number,
	       rec->at.line, valid ? "true" : "false",
	       rec->flags & KIFU_RECORD_SYNTAX_ERROR ? (size_t)0 : rec->plies_written);
	if (rec->result)
		cli_json_string(stdout, rec->result);
	else if (rec->present & (1u << KIFU_KEY_RESULT))
		fputs("null", stdout);
	else
		fputs("\"unfinished\"", stdout);
	fputs(",\"errors\":[", stdout);
	for (i = 0; i < diags->n; i++) {
		const struct kifu_diag *d = &diags->v[i];

		if (d->severity != KIFU_DIAG_ERROR)
			continue;
		printf("%s{\"line\":%d,\"col\":%d,\"ply\":", first ? "" : ",", d->line, d->col);
		if (d->ply > 0)
			printf("%d", d->ply);
		else
			fputs("null", stdout);
		fputs(",\"message\":", stdout);
		cli_json_string(stdout, d->message);
		putchar('}');
		first = 0;
	}
	fputs("]}\n", stdout);
}

static void *read_ahead(void *arg)
{
	struct pipe *p = arg;

	for (;;) {
		struct slot *sl;
		int ret, stop;

		pthread_mutex_lock(&p->lock);
		while (p->head - p->tail == RING && !p->stop)
			pthread_cond_wait(&p->changed, &p->lock);
		stop = p->stop;
		pthread_mutex_unlock(&p->lock);
		if (stop)
			return NULL;
		/* The slot at head is this thread's until it is published. */
		sl = &p->ring[p->head % RING];
		kifu_error_clear(&sl->err);
		ret = kifu_reader_next(&sl->rec, &sl->diags, p->reader, &sl->err);
		sl->ret = ret;
		pthread_mutex_lock(&p->lock);
		p->head++;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		if (ret <= 0)
			return NULL;
	}
}

/* Checks and reports one record read by the other thread; returns 0 or a KIFU_E* code. */
static int check_record(struct run *run, struct slot *sl, const char *file)
{
	struct kifu_record *rec = sl->rec;
	size_t i;
	int valid;

	if (kifu_record_validate(&run->replay, &sl->diags, rec, 0, &sl->err) < 0)
		return sl->err.code;
	valid = sl->diags.errors == 0;
	for (i = 0; i < sl->diags.n; i++)
		print_diag(file, &sl->diags.v[i]);
	run->games++;
	if (valid)
		run->valid++;
	else
		run->invalid++;
	if (run->json)
		print_json(&sl->diags, file, rec, valid);
	return 0;
}

/* Validates every game of one stream; returns 0, or -1 to stop everything (out of memory). */
static int validate_reader(struct run *run, struct kifu_reader *r, const char *file)
{
	struct pipe *p = calloc(1, sizeof(*p));
	pthread_t thread;
	int ret = 0, i;

	if (!p) {
		cli_errorf("out of memory");
		run->io_error = 1;
		return -1;
	}
	p->reader = r;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (pthread_create(&thread, NULL, read_ahead, p) != 0) {
		cli_errorf("cannot start a thread");
		run->io_error = 1;
		free(p);
		return -1;
	}
	for (;;) {
		struct slot *sl;

		pthread_mutex_lock(&p->lock);
		while (p->head == p->tail)
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		sl = &p->ring[p->tail % RING];
		ret = sl->ret;
		if (ret > 0) {
			int checked = check_record(run, sl, file);

			kifu_record_free(sl->rec);
			sl->rec = NULL;
			if (checked < 0)
				ret = checked;
		} else if (ret < 0) {
			for (i = 0; (size_t)i < sl->diags.n; i++)
				print_diag(file, &sl->diags.v[i]);
		}
		kifu_diags_reset(&sl->diags);
		pthread_mutex_lock(&p->lock);
		p->tail++;
		if (ret < 0)
			p->stop = 1;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		if (ret <= 0)
			break;
	}
	pthread_join(thread, NULL);
	/* Records read ahead past a failure are dropped. */
	for (; p->tail != p->head; p->tail++) {
		kifu_record_free(p->ring[p->tail % RING].rec);
	}
	for (i = 0; i < RING; i++)
		kifu_diags_release(&p->ring[i].diags);
	if (ret < 0) {
		struct kifu_error *err = &p->ring[(p->tail - 1) % RING].err;

		cli_errorf("%s", err->message[0] ? err->message : kifu_strerror(ret));
		run->io_error = 1;
		if (ret == KIFU_ENOMEM)
			ret = -1;
		else
			ret = 0;
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p);
	return ret;
}

static int validate_file(const char *file, void *ctx)
{
	struct run *run = ctx;
	struct kifu_reader *r;
	struct kifu_error err;
	int ret;

	kifu_error_clear(&err);
	if (kifu_reader_open_file(&r, file, &err) < 0) {
		cli_errorf("%s", err.message);
		run->io_error = 1;
		return err.code == KIFU_ENOMEM ? -1 : 0;
	}
	ret = validate_reader(run, r, file);
	kifu_reader_free(r);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const exts[] = { ".yaml", ".yml", NULL };
	struct run run;
	int opt, i;

	cli_init(argv[0]);
	memset(&run, 0, sizeof(run));
	run.replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'j': run.json = 1; break;
		case 'q': run.quiet = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_usage_error(usage, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage, "expected at least one PATH");
	for (i = optind; i < argc; i++) {
		int ret;

		if (!strcmp(argv[i], "-")) {
			struct kifu_reader *r;
			struct kifu_error err;

			kifu_error_clear(&err);
			if (kifu_reader_open_fp(&r, stdin, "<stdin>", &err) < 0) {
				cli_errorf("%s", err.message);
				run.io_error = 1;
				break;
			}
			ret = validate_reader(&run, r, "<stdin>");
			kifu_reader_free(r);
		} else {
			ret = cli_walk(argv[i], exts, validate_file, &run);
			if (ret > 0)
				run.io_error = 1;
		}
		if (ret < 0)
			break;
	}
	if (!run.quiet)
		fprintf(run.json ? stderr : stdout, "%ld games, %ld valid, %ld invalid\n", run.games,
			run.valid, run.invalid);
	kifu_replay_release(&run.replay);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_errorf("cannot write to standard output");
		return EXIT_FAILURE_IO;
	}
	return run.io_error ? EXIT_FAILURE_IO : run.invalid ? EXIT_INVALID : EXIT_OK;
}
