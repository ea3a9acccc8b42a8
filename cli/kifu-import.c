/*
 * kifu-import: reads game records (files in any format of INTEROP.md,
 * archives, directories searched recursively, or - for standard input),
 * replays them, and stores the valid games in the database (--db, else
 * $KIFU_DB, else ./kifu.db) and the invalid ones in quarantine, with their
 * raw text and diagnostics. A game already stored counts as a duplicate,
 * and one whose lines, nags or evals differ from the stored game's is
 * counted apart (--update-annotations: they replace the stored ones).
 * Exit 0, 1 when some record was rejected, 2 usage, 3 on I/O or database
 * errors.
 *
 * The library's pipeline (kifu/pipeline.h) reads, parses and replays in a
 * thread of its own; this thread writes to SQLite, the slower half. Writes
 * go in batches (1000 games or one second per transaction), so an
 * interrupted import leaves a consistent database and running it again
 * completes it. The counts printed are those committed: a batch that could
 * not be committed is reported as not imported. A large import drops the
 * search indexes and rebuilds them once at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kifu/pipeline.h"
#include "kifu/record.h"
#include "kifu/replay.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-import [--db FILE] [--from FORMAT] [--json] [--quiet] [--progress]\n"
	"                   [--update-annotations] PATH...";

#define BATCH_GAMES 1000        /* records per transaction at most... */
#define BATCH_SECONDS 1.0       /* ...and seconds per transaction at most */
#define BULK_MIN_GAMES 1000     /* games stored by this run before the indexes are dropped */

/*
 * What a write was: the first three are the summary's; a duplicate whose
 * annotations differ is one of the last two, which count as duplicates too.
 */
enum { IMPORTED, DUPLICATES, REJECTED, DUP_NOT_KEPT, DUP_UPDATED, NKINDS };

struct run {
	int json, quiet;
	unsigned put_flags;         /* --update-annotations: KIFU_STORE_UPDATE_ANNOTATIONS */
	struct kifu_store *st;
	int64_t import_id, file_id;
	long counts[NKINDS];        /* committed, by kind */
	long pending[NKINDS];       /* in the open transaction */
	unsigned char kinds[BATCH_GAMES]; /* ...each write's, in order */
	long long committed_before; /* kifu_store_writes_committed at the batch's start */
	long lost;                  /* records read whose transaction failed */
	int db_error, status;       /* status: the worst of the inputs (cli_print_item) */
	int bulk;                   /* in bulk mode, or indexes left deferred */
	long long existing;         /* games in the database before */
	double batch_started;
	/* Progress. */
	struct cli_progress pr;
	long long total_bytes;      /* -1 when unknown */
	uint64_t bytes;
};

/* Writes of every kind in v (counts or pending). */
static long all_kinds(const long *v)
{
	long n = 0;
	int k;

	for (k = 0; k < NKINDS; k++)
		n += v[k];
	return n;
}

/* The duplicates in v, whatever became of their annotations. */
static long duplicates(const long *v)
{
	return v[DUPLICATES] + v[DUP_NOT_KEPT] + v[DUP_UPDATED];
}

static void progress_clear(struct run *run)
{
	cli_progress_clear(&run->pr);
}

/* Games done, the rate, and the ETA when the input's size is known (cli/progress.c). */
static void progress(struct run *run)
{
	struct cli_progress_counts c = { NULL, 0, 0, -1, 0 };

	c.games = all_kinds(run->counts) + all_kinds(run->pending);
	if (run->total_bytes > 0)
		c.frac = (double)run->bytes / (double)run->total_bytes;
	cli_progress_show(&run->pr, &c);
}

/*
 * The open transaction is lost: what it held is not imported. Writes of the
 * batch that the store committed on its own before (PostgreSQL's groups)
 * stay, and count as what they were.
 */
static int db_fail(struct run *run, const struct kifu_error *err)
{
	long long stayed = kifu_store_writes_committed(run->st) - run->committed_before;
	long n = all_kinds(run->pending), i;
	int k;

	progress_clear(run);
	cli_errorf("%s", err->message[0] ? err->message : kifu_strerror(err->code));
	run->db_error = 1;
	for (i = 0; i < n && i < stayed && i < BATCH_GAMES; i++) {
		run->counts[run->kinds[i]]++;
		run->pending[run->kinds[i]]--;
	}
	for (k = 0; k < NKINDS; k++) {
		run->lost += run->pending[k];
		run->pending[k] = 0;
	}
	return -1;
}

/* A write made in the open batch, of kind k (IMPORTED, ...). */
static void pending_add(struct run *run, int k)
{
	long n = all_kinds(run->pending);

	if (n < BATCH_GAMES)
		run->kinds[n] = (unsigned char)k;
	run->pending[k]++;
}

static int ensure_tx(struct run *run, struct kifu_error *err)
{
	if (kifu_store_in_transaction(run->st))
		return 0;
	run->batch_started = cli_now();
	run->committed_before = kifu_store_writes_committed(run->st);
	return kifu_store_begin(run->st, err) < 0 ? db_fail(run, err) : 0;
}

/*
 * Commits the batch, and switches to bulk mode past the threshold. Adding
 * to the search indexes costs about a page write per position once they
 * outgrow the cache; rebuilding them costs a sort of every position in the
 * database. Like renting skis until the rent would have bought them, the
 * import stays incremental until it has stored a fiftieth of the database
 * (at least BULK_MIN_GAMES games), which bounds the total to about twice
 * the better of the two.
 */
static int end_batch(struct run *run, struct kifu_error *err)
{
	long long threshold = run->existing / 50;
	int k;

	if (kifu_store_in_transaction(run->st) && kifu_store_commit(run->st, err) < 0)
		return db_fail(run, err);
	run->committed_before = kifu_store_writes_committed(run->st);
	for (k = 0; k < NKINDS; k++) {
		run->counts[k] += run->pending[k];
		run->pending[k] = 0;
	}
	if (threshold < BULK_MIN_GAMES)
		threshold = BULK_MIN_GAMES;
	if (!run->bulk && run->counts[IMPORTED] >= threshold) {
		if (kifu_store_bulk_begin(run->st, err) < 0)
			return db_fail(run, err);
		run->bulk = 1;
	}
	return 0;
}

/*
 * A valid record the database could not hold (err says why; nothing of it
 * was written): quarantined with that reason as its error, so that the
 * rest of the input goes in, and said as FILE:LINE:COL: error: game K: ...
 */
static int quarantine_unstored(struct run *run, const struct kifu_item *it,
			       const struct kifu_origin *from, struct kifu_error *err)
{
	const struct kifu_record *rec = *it->rec;
	struct kifu_diags d = KIFU_DIAGS_INIT;
	int ret;

	if (kifu_diags_add(&d, KIFU_DIAG_ERROR, rec->number, 0, rec->at, "cannot be stored: %s",
			   err->message[0] ? err->message : kifu_strerror(err->code)) < 0) {
		kifu_diags_release(&d);
		kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		return db_fail(run, err);
	}
	progress_clear(run);
	cli_print_diag(stderr, it->input, &d.v[0]);
	kifu_error_clear(err);
	ret = kifu_store_quarantine_add(NULL, run->st, it->raw ? it->raw : "",
					it->raw ? it->raw_len : 0, it->raw_truncated, rec, &d, from, err);
	kifu_diags_release(&d);
	if (ret < 0)
		return db_fail(run, err);
	pending_add(run, REJECTED);
	return 0;
}

static int write_record(struct run *run, const struct kifu_item *it, struct kifu_error *err)
{
	const struct kifu_record *rec = *it->rec;
	struct kifu_origin from;
	int ret, ann;
	size_t i;

	if (ensure_tx(run, err) < 0)
		return -1;
	from.import_id = run->import_id;
	from.file_id = run->file_id;
	from.file = it->input;
	from.line = rec->at.line;
	from.number = rec->number;
	if (it->valid) {
		ret = kifu_store_game_put(NULL, &ann, run->st, rec, it->replay, &from,
					  run->put_flags, err);
		if (ret == KIFU_EINVALID)
			ret = quarantine_unstored(run, it, &from, err);
		else if (ret < 0)
			return db_fail(run, err);
		else
			pending_add(run, ret > 0 ? IMPORTED
					 : ann == KIFU_ANNOTATIONS_NOT_KEPT ? DUP_NOT_KEPT
					 : ann == KIFU_ANNOTATIONS_REPLACED ? DUP_UPDATED : DUPLICATES);
		if (ret < 0)
			return -1;
	} else {
		if (!run->quiet) {
			progress_clear(run);
			for (i = 0; i < it->diags->n; i++)
				cli_print_diag(stderr, it->input, &it->diags->v[i]);
		}
		ret = kifu_store_quarantine_add(NULL, run->st, it->raw ? it->raw : "",
						it->raw ? it->raw_len : 0, it->raw_truncated, rec,
						it->diags, &from, err);
		if (ret < 0)
			return db_fail(run, err);
		pending_add(run, REJECTED);
	}
	if (all_kinds(run->pending) >= BATCH_GAMES ||
	    cli_now() - run->batch_started >= BATCH_SECONDS)
		return end_batch(run, err);
	return 0;
}

static int consume(const struct kifu_item *it, void *ctx)
{
	struct run *run = ctx;
	struct kifu_error err;
	int st;

	kifu_error_clear(&err);
	switch (it->kind) {
	case KIFU_ITEM_INPUT:
		if (ensure_tx(run, &err) < 0 ||
		    kifu_store_file_add(&run->file_id, run->st, run->import_id, it->input, it->size,
					&err) < 0)
			return run->db_error ? -1 : db_fail(run, &err);
		return 0;
	case KIFU_ITEM_RECORD:
		run->bytes = it->bytes;
		if (write_record(run, it, &err) < 0)
			return -1;
		progress(run);
		return 0;
	default:
		progress_clear(run);
		st = cli_print_item(it, run->quiet);
		if (st == EXIT_FAILURE_IO || (st == EXIT_INVALID && run->status != EXIT_FAILURE_IO))
			run->status = st;
		return 0;
	}
}

static void help(void)
{
	printf("usage: %s\n\n", usage);
	cli_print_wrapped(78, "Replays game records and stores them in the game database. PATH is a "
			  "file, a directory (searched recursively, in name order, for %s), an "
			  "archive or compressed file, or - for standard input.",
			  kifu_pipeline_patterns());
	printf("\n"
	       "  --db FILE      the database (default: $KIFU_DB, else kifu.db here): a SQLite\n"
	       "                 file, created on first use, or a PostgreSQL URI\n"
	       "                 (postgresql://...); its schema brought up to date\n"
	       "  --from FORMAT  read every input as FORMAT (yaml, apgr, pgn, csv)\n"
	       "  --json         print the summary as {\"imported\":N,\"duplicates\":D,\"rejected\":R}\n"
	       "                 (printed even with --quiet), with \"annotations_not_kept\":K or\n"
	       "                 \"annotations_updated\":U when some duplicates had other\n"
	       "                 annotations, and \"not_imported\":X when a batch could not be\n"
	       "                 committed\n"
	       "  --quiet        no progress bar, no diagnostics, no summary line\n"
	       "  --progress     show progress on stderr even when it is not a terminal\n"
	       "                 (nohup, a pipe, a CI log: a line every 5 seconds at most;\n"
	       "                 also with --quiet)\n"
	       "  --update-annotations\n"
	       "                 a duplicate's lines, nags and evals (format 2) replace the\n"
	       "                 stored game's (a copy without any removes them); nothing\n"
	       "                 else of the stored game changes\n"
	       "  --help, --version\n\n"
	       "Valid games are stored with every position; a game already in the\n"
	       "database (same game, variant, players, date and positions, however the\n"
	       "moves were spelt) is counted as a duplicate, and its lines, nags and evals\n"
	       "are not stored: 'duplicates D (annotations not kept: K)' counts the K\n"
	       "whose annotations differ from the stored game's (with\n"
	       "--update-annotations, 'annotations updated: K': they replaced them).\n"
	       "Invalid records go to the\n"
	       "quarantine table with their text and diagnostics, which are also printed\n"
	       "on stderr as FILE:LINE:COL: error: ... (FILE is ARCHIVE(MEMBER) inside an\n"
	       "archive). Games are written in batches, so an interrupted import can simply\n"
	       "be run again. The summary line 'imported N, duplicates D, rejected R' counts\n"
	       "what was committed; records whose batch failed (a full disk) are reported\n"
	       "as not imported. A progress bar goes to stderr when it is a terminal\n"
	       "(--progress: always).\n\n"
	       "Exit status: 0 nothing rejected, 1 some records rejected (the others are\n"
	       "stored), 2 usage error, 3 I/O or database error (3 wins over 1).\n");
	exit(EXIT_OK);
}

/* The PATH arguments, one per line, for the imports table. */
static char *joined(char **paths, int n)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			kifu_buf_putc(&b, '\n');
		kifu_buf_puts(&b, paths[i]);
	}
	return kifu_buf_detach(&b);
}

static void run_import(struct run *run, char **paths, int npaths,
		       const struct kifu_pipeline_options *opt)
{
	struct kifu_pipeline_summary sum;
	struct kifu_error err;
	char *list = joined(paths, npaths);
	int deferred = 0;

	kifu_error_clear(&err);
	memset(&sum, 0, sizeof(sum));
	if (!list) {
		cli_errorf("out of memory");
		run->db_error = 1;
		return;
	}
	if (kifu_store_game_count(&run->existing, run->st, &err) < 0 ||
	    kifu_store_indexes_deferred(&deferred, run->st, &err) < 0 ||
	    kifu_store_import_begin(&run->import_id, run->st, list, &err) < 0) {
		db_fail(run, &err);
		kifu_buf_detached_free(list);
		return;
	}
	kifu_buf_detached_free(list);
	/* An import interrupted in bulk mode left indexes dropped: rebuild them at the end. */
	run->bulk = deferred > 0;
	cli_progress_restart(&run->pr);
	if (kifu_pipeline_run((const char *const *)paths, (size_t)npaths, opt, consume, run, &sum,
			      &err) < 0 && !run->db_error) {
		cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
		run->status = EXIT_FAILURE_IO;
	}
	cli_print_skipped(&sum, run->quiet);
	if (!run->db_error)
		end_batch(run, &err);
	if (!run->db_error && run->bulk) {
		cli_progress_note(&run->pr, "building the search indexes...");
		if (kifu_store_bulk_end(run->st, &err) < 0)
			db_fail(run, &err);
	}
	if (!run->db_error &&
	    kifu_store_import_end(run->st, run->import_id, run->counts[IMPORTED],
				  duplicates(run->counts), run->counts[REJECTED], &err) < 0)
		db_fail(run, &err);
	if (run->db_error)
		kifu_store_rollback(run->st);
	progress_clear(run);
}

/*
 * The summary line (RECORDS.md, CLI.md): "imported N, duplicates D,
 * rejected R", the duplicates whose lines, nags or evals differ from the
 * stored game's said after D ("duplicates 3 (annotations not kept: 1)");
 * or its JSON, with "annotations_not_kept", "annotations_updated" and
 * "not_imported" where they are not 0.
 */
static void summary(const struct run *run)
{
	long kept = run->counts[DUP_NOT_KEPT], updated = run->counts[DUP_UPDATED];

	if (run->json) {
		printf("{\"imported\":%ld,\"duplicates\":%ld,\"rejected\":%ld",
		       run->counts[IMPORTED], duplicates(run->counts), run->counts[REJECTED]);
		if (kept)
			printf(",\"annotations_not_kept\":%ld", kept);
		if (updated)
			printf(",\"annotations_updated\":%ld", updated);
		if (run->lost)
			printf(",\"not_imported\":%ld", run->lost);
		printf("}\n");
		return;
	}
	printf("imported %ld, duplicates %ld", run->counts[IMPORTED], duplicates(run->counts));
	if (kept || updated) {
		printf(" (");
		if (kept)
			printf("annotations not kept: %ld%s", kept, updated ? ", " : "");
		if (updated)
			printf("annotations updated: %ld", updated);
		printf(")");
	}
	printf(", rejected %ld\n", run->counts[REJECTED]);
}

/* Removes the database file this run created, and SQLite's files beside it. */
static void remove_created(const char *db)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal", NULL };
	char path[4096];
	int k;

	for (k = 0; ext[k]; k++)
		if (snprintf(path, sizeof(path), "%s%s", db, ext[k]) < (int)sizeof(path))
			unlink(path);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "from", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'p' },
		{ "update-annotations", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kifu_pipeline_options opt = KIFU_PIPELINE_OPTIONS_INIT;
	const char *db = NULL;
	struct run run;
	struct kifu_error err;
	struct stat sb;
	int o, status, created, force_progress = 0;

	cli_init(argv[0]);
	memset(&run, 0, sizeof(run));
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (o) {
		case 'd': db = optarg; break;
		case 'f': opt.from = cli_format_option(usage, optarg); break;
		case 'j': run.json = 1; break;
		case 'q': run.quiet = 1; break;
		case 'p': force_progress = 1; break;
		case 'u': run.put_flags |= KIFU_STORE_UPDATE_ANNOTATIONS; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, o);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage, "expected at least one PATH");
	db = cli_db_path(db);
	cli_progress_init(&run.pr, force_progress, run.quiet);
	if (run.pr.on)
		run.total_bytes = kifu_pipeline_size((const char *const *)argv + optind,
						     (size_t)(argc - optind));
	kifu_error_clear(&err);
	created = kifu_store_is_file(db) && stat(db, &sb) < 0 && errno == ENOENT;
	if (kifu_store_open(&run.st, db, 0, &err) < 0) {
		cli_errorf("%s", err.message);
		if (created)
			remove_created(db);
		return EXIT_FAILURE_IO;
	}
	opt.flags = KIFU_PIPELINE_REPLAY | KIFU_PIPELINE_REPLAY_EARLY | KIFU_PIPELINE_RAW;
	/*
	 * canonical hashes, cells and the legal moves (balance) in the reading
	 * thread: the store, in this one, uses them
	 */
	opt.validate_flags = KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK | KIFU_VALIDATE_CANON |
			     KIFU_VALIDATE_CELLS | KIFU_VALIDATE_BRANCHING;
	run_import(&run, argv + optind, argc - optind, &opt);
	kifu_store_free(run.st);
	/* A failed run that stored nothing leaves no database of its own behind (as sqlite3 would). */
	if (created && (run.db_error || run.status == EXIT_FAILURE_IO) && !all_kinds(run.counts) &&
	    !run.lost)
		remove_created(db);
	if (run.lost)
		cli_errorf("%ld record%s read but not imported: %s rolled back", run.lost,
			   run.lost == 1 ? "" : "s", run.lost == 1 ? "its transaction was" :
			   "their transactions were");
	if (run.json || !run.quiet)
		summary(&run);
	status = run.db_error || run.status == EXIT_FAILURE_IO ? EXIT_FAILURE_IO
		 : run.counts[REJECTED] || run.status ? EXIT_INVALID : EXIT_OK;
	if (cli_flush_stdout() < 0)
		status = EXIT_FAILURE_IO;
	return status;
}
