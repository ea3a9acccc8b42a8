/*
 * kifu-import: reads game records (files, directories searched for *.yaml
 * and *.yml, or - for standard input), replays them, and stores the valid
 * games in the database (--db, else $KIFU_DB, else ./kifu.db) and the
 * invalid ones in quarantine, with their raw text and diagnostics. A game
 * already stored counts as a duplicate. Exit 0, 1 when some record was
 * rejected, 2 usage, 3 on I/O or database errors.
 *
 * Two threads: one reads, parses and validates (libyaml and the engines),
 * the other writes to SQLite, which is the slower half; a ring of slots
 * sits between them. Writes go in batches (1000 games or one second per
 * transaction), so an interrupted import leaves a consistent database and
 * running it again completes it: stored games come back as duplicates and
 * quarantined records are keyed so that they do not double. A large import
 * drops the search indexes and rebuilds them once at the end.
 *
 * The raw text of a rejected record is cut from a copy of the input kept
 * while it is read (the reader reads through a stdio cookie that tees into
 * a spool), from the line where its document starts to the line where the
 * next one does: the reader reports lines, not byte offsets.
 */
#define _GNU_SOURCE /* fopencookie */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kifu/record.h"
#include "kifu/store.h"

static const char usage[] = "kifu-import [--db FILE] [--json] [--quiet] PATH...";

#define RING 128                /* records read ahead of the writer */
#define BATCH_GAMES 1000        /* records per transaction at most... */
#define BATCH_SECONDS 1.0       /* ...and seconds per transaction at most */
#define RAW_MAX (1 << 20)       /* bytes of a rejected record's text kept */
#define BULK_MIN_GAMES 1000     /* games stored by this run before the indexes are dropped */
#define SPOOL_TRIM (64 << 10)   /* dead bytes at the front of the spool worth moving */

static const char *const exts[] = { ".yaml", ".yml", NULL };

/* ---- The spool: what the reader has read of one input, from the pending document on ---- */

struct spool {
	int fd;
	char *buf;              /* input bytes [base, base + len) */
	size_t len, cap;
	uint64_t base;
	long line;              /* line `line` (1-based) starts at offset line_off */
	uint64_t line_off;
	int eof;
	int error;              /* errno of a failed read */
};

static int spool_append(struct spool *sp, const char *data, size_t n)
{
	if (sp->len + n > sp->cap) {
		size_t cap = sp->cap ? sp->cap : 256 << 10;
		char *nb;

		while (cap < sp->len + n)
			cap *= 2;
		nb = realloc(sp->buf, cap);
		if (!nb)
			return -1;
		sp->buf = nb;
		sp->cap = cap;
	}
	memcpy(sp->buf + sp->len, data, n);
	sp->len += n;
	return 0;
}

static ssize_t spool_read(void *cookie, char *buf, size_t size)
{
	struct spool *sp = cookie;
	ssize_t n;

	do
		n = read(sp->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		sp->error = errno;
		return -1;
	}
	if (n == 0) {
		sp->eof = 1;
		return 0;
	}
	if (spool_append(sp, buf, (size_t)n) < 0) {
		sp->error = ENOMEM;
		errno = ENOMEM;
		return -1;
	}
	return n;
}

static uint64_t spool_end(const struct spool *sp)
{
	return sp->base + sp->len;
}

/*
 * The offset where line L starts, counting line breaks as libyaml does
 * (LF, CRLF, CR, NEL, LS, PS); the end of what was read when the spool does
 * not reach line L.
 */
static uint64_t spool_line(struct spool *sp, long L)
{
	const unsigned char *b = (const unsigned char *)sp->buf;
	size_t i = (size_t)(sp->line_off - sp->base), n = sp->len;

	while (sp->line < L) {
		size_t next = 0;

		for (; i < n; i++) {
			unsigned char c = b[i];

			if (c > '\r' && c != 0xc2 && c != 0xe2)
				continue;
			if (c == '\n') {
				next = i + 1;
			} else if (c == '\r') {
				if (i + 1 == n && !sp->eof)
					return spool_end(sp);
				next = i + 1 < n && b[i + 1] == '\n' ? i + 2 : i + 1;
			} else if (c == 0xc2 && i + 1 < n && b[i + 1] == 0x85) {
				next = i + 2;
			} else if (c == 0xe2 && i + 2 < n && b[i + 1] == 0x80 &&
				   (b[i + 2] == 0xa8 || b[i + 2] == 0xa9)) {
				next = i + 3;
			}
			if (next)
				break;
		}
		if (!next)
			return spool_end(sp);
		sp->line++;
		sp->line_off = sp->base + next;
		i = next;
	}
	return sp->line_off;
}

/* Forgets the bytes before offset off (never past the line cursor). */
static void spool_trim(struct spool *sp, uint64_t off)
{
	size_t dead;

	if (off > sp->line_off)
		off = sp->line_off;
	if (off <= sp->base)
		return;
	dead = (size_t)(off - sp->base);
	/* Moving costs; move only when the dead part is large and most of the buffer. */
	if (dead < SPOOL_TRIM || dead < sp->len / 2)
		return;
	memmove(sp->buf, sp->buf + dead, sp->len - dead);
	sp->len -= dead;
	sp->base = off;
}

/* Reads on from the file, past where the reader stopped, until offset `until` or the end. */
static void spool_drain(struct spool *sp, uint64_t until)
{
	char chunk[16384];

	while (!sp->eof && !sp->error && spool_end(sp) < until)
		spool_read(sp, chunk, sizeof(chunk));
}

/* ---- The ring between the reading thread and the writer ---- */

enum slot_kind { SLOT_FILE, SLOT_RECORD, SLOT_FAIL, SLOT_END };

struct slot {
	int kind;
	char *file;                 /* SLOT_FILE: its name (owned) */
	long long size;             /* SLOT_FILE: bytes, -1 when unknown */
	struct kifu_record *rec;    /* SLOT_RECORD */
	struct kifu_diags diags;
	struct kifu_replay replay;
	int valid;
	struct kifu_buf raw;        /* the text of a rejected record */
	int raw_truncated;
	uint64_t bytes;             /* input read in all when the slot was filled */
	struct kifu_error err;      /* SLOT_FAIL */
	char message[KIFU_ERROR_MSG_MAX + 64];
};

struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct slot ring[RING];
	unsigned head, tail;        /* published / consumed (free-running) */
	int stop;                   /* the writer gave up */
	/* The reading thread's own. */
	char **paths;
	int npaths;
	uint64_t bytes_done;        /* of the inputs finished */
	int io_error;               /* something could not be read */
};

/* Waits for room for slot number head + ahead; NULL when the writer stopped. */
static struct slot *slot_acquire(struct pipe *p, unsigned ahead)
{
	struct slot *sl = NULL;

	pthread_mutex_lock(&p->lock);
	while (p->head + ahead - p->tail >= RING && !p->stop)
		pthread_cond_wait(&p->changed, &p->lock);
	if (!p->stop)
		sl = &p->ring[(p->head + ahead) % RING];
	pthread_mutex_unlock(&p->lock);
	if (sl) {
		free(sl->file);
		sl->file = NULL;
		kifu_diags_reset(&sl->diags);
		kifu_buf_reset(&sl->raw);
		kifu_error_clear(&sl->err);
		sl->rec = NULL;
		sl->valid = 0;
		sl->raw_truncated = 0;
		sl->message[0] = '\0';
	}
	return sl;
}

/* Publishes the slot at head. */
static void slot_publish(struct pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->head++;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

static int stopped(struct pipe *p)
{
	int stop;

	pthread_mutex_lock(&p->lock);
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

static void why_lower(char *why, size_t n, int e)
{
	snprintf(why, n, "%s", strerror(e));
	if (why[0] >= 'A' && why[0] <= 'Z')
		why[0] = (char)(why[0] - 'A' + 'a');
}

/* A record whose extent is now known: keeps its text when it was rejected. */
static void finish_record(struct slot *sl, struct spool *sp, uint64_t start, uint64_t end)
{
	uint64_t keep;

	if (sl->valid)
		return;
	if (start < sp->base)
		start = sp->base;
	if (end > spool_end(sp))
		end = spool_end(sp);
	if (end < start)
		end = start;
	keep = end - start > RAW_MAX ? RAW_MAX : end - start;
	sl->raw_truncated = end - start > RAW_MAX;
	kifu_buf_add(&sl->raw, sp->buf + (start - sp->base), (size_t)keep);
	/* kifu_buf keeps no data for zero bytes; the store wants a pointer. */
	kifu_buf_add(&sl->raw, "", 0);
}

/* Reads, validates and queues every record of one input; returns -1 to stop everything. */
static int read_input(struct pipe *p, int fd, const char *name, long long size)
{
	static const cookie_io_functions_t io = { .read = spool_read };
	struct spool sp;
	struct kifu_reader *r = NULL;
	struct slot *sl, *pend = NULL;
	uint64_t pend_start = 0;
	struct kifu_error err;
	FILE *fp = NULL;
	int ret = 0, got;

	memset(&sp, 0, sizeof(sp));
	sp.fd = fd;
	sp.line = 1;
	sl = slot_acquire(p, 0);
	if (!sl)
		return -1;
	sl->kind = SLOT_FILE;
	sl->file = strdup(name);
	sl->size = size;
	sl->bytes = p->bytes_done;
	if (!sl->file) {
		cli_errorf("out of memory");
		return -1;
	}
	slot_publish(p);
	kifu_error_clear(&err);
	fp = fopencookie(&sp, "r", io);
	if (!fp || kifu_reader_open_fp(&r, fp, name, &err) < 0) {
		cli_errorf("%s", fp ? err.message : "out of memory");
		p->io_error = 1;
		/* Out of memory stops everything; another file may still be read. */
		ret = !fp || err.code == KIFU_ENOMEM ? -1 : 0;
		goto out;
	}
	for (;;) {
		sl = slot_acquire(p, pend ? 1 : 0);
		if (!sl) {
			/* The writer gave up: the pending record will never be published. */
			if (pend) {
				kifu_record_free(pend->rec);
				pend->rec = NULL;
			}
			ret = -1;
			break;
		}
		got = kifu_reader_next(&sl->rec, &sl->diags, r, &sl->err);
		if (got > 0) {
			struct kifu_record *rec = sl->rec;
			uint64_t start;

			if (kifu_record_validate(&sl->replay, &sl->diags, rec,
						 KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK,
						 &sl->err) < 0) {
				got = sl->err.code;
				kifu_record_free(rec);
				sl->rec = NULL;
			} else {
				sl->kind = SLOT_RECORD;
				sl->valid = sl->diags.errors == 0 && sl->replay.complete &&
					    !(rec->flags & KIFU_RECORD_SYNTAX_ERROR);
				/* The first document owns the comments above it. */
				start = !pend && rec->number == 1 ? sp.base
					: rec->at.line > 0 ? spool_line(&sp, rec->at.line)
					: spool_end(&sp);
				if (pend) {
					finish_record(pend, &sp, pend_start, start);
					pend->bytes = p->bytes_done + spool_end(&sp);
					slot_publish(p);
				}
				pend = sl;
				pend_start = start;
				spool_trim(&sp, start);
				continue;
			}
		}
		/* The end of the input, or a failure: the pending record ends here. */
		if (pend) {
			/* After a syntax error the reader stops; the record is the rest of the file. */
			if (pend->rec->flags & KIFU_RECORD_SYNTAX_ERROR && !pend->valid)
				spool_drain(&sp, pend_start + RAW_MAX + 1);
			finish_record(pend, &sp, pend_start, spool_end(&sp));
			pend->bytes = p->bytes_done + spool_end(&sp);
			slot_publish(p);
			pend = NULL;
		}
		if (got < 0) {
			sl->kind = SLOT_FAIL;
			snprintf(sl->message, sizeof(sl->message), "%s",
				 sl->err.message[0] ? sl->err.message : kifu_strerror(got));
			slot_publish(p);
			if (got == KIFU_ENOMEM)
				ret = -1;
		}
		break;
	}
out:
	p->bytes_done += spool_end(&sp);
	kifu_reader_free(r);
	if (fp)
		fclose(fp);
	free(sp.buf);
	return ret;
}

static int read_file(const char *file, void *ctx)
{
	struct pipe *p = ctx;
	struct stat st;
	char why[128];
	int fd, ret;

	if (stopped(p))
		return -1;
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		why_lower(why, sizeof(why), errno);
		cli_errorf("cannot open '%s': %s", file, why);
		p->io_error = 1;
		return 0;
	}
	ret = read_input(p, fd, file, fstat(fd, &st) == 0 ? (long long)st.st_size : -1);
	close(fd);
	return ret;
}

static void *reading_thread(void *arg)
{
	struct pipe *p = arg;
	struct slot *sl;
	int i, ret = 0;

	for (i = 0; i < p->npaths && ret >= 0; i++) {
		if (!strcmp(p->paths[i], "-")) {
			ret = read_input(p, 0, "<stdin>", -1);
		} else {
			ret = cli_walk(p->paths[i], exts, read_file, p);
			if (ret > 0)
				p->io_error = 1;
		}
	}
	sl = slot_acquire(p, 0);
	if (sl) {
		sl->kind = SLOT_END;
		slot_publish(p);
	}
	return NULL;
}

/* ---- The writer ---- */

struct run {
	int json, quiet, progress;
	struct kifu_store *st;
	int64_t import_id, file_id;
	char *file;                 /* of the records being written */
	long imported, duplicates, rejected;
	int db_error, io_error;
	int bulk;                   /* in bulk mode, or indexes left deferred */
	long long existing;         /* games in the database before */
	long batch;                 /* records in the open transaction */
	double batch_started;
	/* Progress. */
	long long total_bytes;      /* -1 when unknown */
	uint64_t bytes;
	double started, shown;
	int shown_any;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_clear(struct run *run)
{
	if (run->shown_any) {
		fputs("\r\033[K", stderr);
		run->shown_any = 0;
	}
}

/* At most four times a second: games done, rate, and the ETA when the input's size is known. */
static void progress(struct run *run)
{
	double t = now(), el = t - run->started;
	long done = run->imported + run->duplicates + run->rejected;
	char eta[64] = "";

	if (!run->progress || t - run->shown < 0.25)
		return;
	run->shown = t;
	if (run->total_bytes > 0 && run->bytes > 0 && el > 0.5) {
		double frac = (double)run->bytes / (double)run->total_bytes;
		double left = frac > 0 ? el / frac - el : 0;

		if (frac > 1)
			frac = 1;
		if (left < 0)
			left = 0;
		snprintf(eta, sizeof(eta), ", %.0f%%, ETA %ld:%02ld", frac * 100, (long)left / 60,
			 (long)left % 60);
	}
	fprintf(stderr, "\rkifu-import: %ld game%s, %.0f games/s%s\033[K", done,
		done == 1 ? "" : "s", el > 0 ? (double)done / el : 0.0, eta);
	run->shown_any = 1;
}

static int db_fail(struct run *run, const struct kifu_error *err)
{
	progress_clear(run);
	cli_errorf("%s", err->message[0] ? err->message : kifu_strerror(err->code));
	run->db_error = 1;
	return -1;
}

static int ensure_tx(struct run *run, struct kifu_error *err)
{
	if (kifu_store_in_transaction(run->st))
		return 0;
	run->batch = 0;
	run->batch_started = now();
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

	if (kifu_store_commit(run->st, err) < 0)
		return db_fail(run, err);
	run->batch = 0;
	if (threshold < BULK_MIN_GAMES)
		threshold = BULK_MIN_GAMES;
	if (!run->bulk && run->imported >= threshold) {
		if (kifu_store_bulk_begin(run->st, err) < 0)
			return db_fail(run, err);
		run->bulk = 1;
	}
	return 0;
}

static int write_record(struct run *run, struct slot *sl, struct kifu_error *err)
{
	struct kifu_origin from;
	int ret;
	size_t i;

	if (ensure_tx(run, err) < 0)
		return -1;
	from.import_id = run->import_id;
	from.file_id = run->file_id;
	from.file = run->file;
	from.line = sl->rec->at.line;
	from.number = sl->rec->number;
	if (sl->valid) {
		ret = kifu_store_game_add(NULL, run->st, sl->rec, &sl->replay, &from, err);
		if (ret < 0)
			return db_fail(run, err);
		if (ret > 0)
			run->imported++;
		else
			run->duplicates++;
	} else {
		if (!run->quiet) {
			progress_clear(run);
			for (i = 0; i < sl->diags.n; i++)
				cli_print_diag(stderr, run->file, &sl->diags.v[i]);
		}
		ret = kifu_store_quarantine_add(NULL, run->st, sl->raw.data, sl->raw.len,
						sl->raw_truncated, sl->rec, &sl->diags, &from, err);
		if (ret < 0)
			return db_fail(run, err);
		run->rejected++;
	}
	run->batch++;
	if (run->batch >= BATCH_GAMES || now() - run->batch_started >= BATCH_SECONDS)
		return end_batch(run, err);
	return 0;
}

/* Consumes the ring until the reading thread is done or the database fails. */
static void write_all(struct run *run, struct pipe *p)
{
	struct kifu_error err;
	int done = 0;

	kifu_error_clear(&err);
	while (!done && !run->db_error) {
		struct slot *sl;

		pthread_mutex_lock(&p->lock);
		while (p->head == p->tail)
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		sl = &p->ring[p->tail % RING];
		switch (sl->kind) {
		case SLOT_FILE:
			/* A copy: the reading thread reuses the slot while this file is written. */
			free(run->file);
			run->file = strdup(sl->file);
			if (!run->file) {
				cli_errorf("out of memory");
				run->db_error = 1;
			} else if (ensure_tx(run, &err) == 0 &&
				   kifu_store_file_add(&run->file_id, run->st, run->import_id,
						       sl->file, sl->size, &err) < 0) {
				db_fail(run, &err);
			}
			break;
		case SLOT_RECORD:
			write_record(run, sl, &err);
			kifu_record_free(sl->rec);
			sl->rec = NULL;
			run->bytes = sl->bytes;
			progress(run);
			break;
		case SLOT_FAIL:
			progress_clear(run);
			cli_errorf("%s", sl->message);
			run->io_error = 1;
			break;
		case SLOT_END:
			done = 1;
			break;
		}
		pthread_mutex_lock(&p->lock);
		p->tail++;
		if (run->db_error)
			p->stop = 1;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Bytes under path (for the progress bar's ETA), quietly: the walk itself reports problems. */
static long long input_size(const char *path, int top)
{
	struct stat st;
	long long total = 0;
	DIR *dir;
	struct dirent *de;
	size_t n = strlen(path), k;

	if ((top ? stat(path, &st) : lstat(path, &st)) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		if (!top) {
			const char *const *e;
			int ok = 0;

			for (e = exts; *e; e++) {
				k = strlen(*e);
				ok |= n > k && !strcmp(path + n - k, *e);
			}
			if (!ok || (S_ISLNK(st.st_mode) && stat(path, &st) != 0) ||
			    !S_ISREG(st.st_mode))
				return 0;
		}
		return (long long)st.st_size;
	}
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) != NULL) {
		char *full;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		full = malloc(n + strlen(de->d_name) + 2);
		if (!full)
			break;
		sprintf(full, "%s/%s", path, de->d_name);
		total += input_size(full, 0);
		free(full);
	}
	closedir(dir);
	return total;
}

static void help(void)
{
	printf("usage: %s\n\n"
	       "Replays game records and stores them in the game database. PATH is a file,\n"
	       "a directory (searched recursively for *.yaml and *.yml, in name order) or\n"
	       "- for standard input.\n\n"
	       "  --db FILE  the database (default: $KIFU_DB, else kifu.db here); created\n"
	       "             on first use, its schema brought up to date\n"
	       "  --json     print the summary as {\"imported\":N,\"duplicates\":D,\"rejected\":R}\n"
	       "             (printed even with --quiet)\n"
	       "  --quiet    no progress bar, no diagnostics, no summary line\n"
	       "  --help, --version\n\n"
	       "Valid games are stored with every position; a game already in the\n"
	       "database (same game, variant, players, date and positions, however the\n"
	       "moves were spelt) is counted as a duplicate. Invalid records go to the\n"
	       "quarantine table with their text and diagnostics, which are also printed\n"
	       "on stderr as FILE:LINE:COL: error: .... Games are written in batches, so\n"
	       "an interrupted import can simply be run again. The summary line is\n"
	       "'imported N, duplicates D, rejected R'; a progress bar goes to stderr\n"
	       "when it is a terminal.\n\n"
	       "Exit status: 0 nothing rejected, 1 some records rejected (the others are\n"
	       "stored), 2 usage error, 3 I/O or database error (3 wins over 1).\n", usage);
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

static int run_import(struct run *run, char **paths, int npaths, int *io_error)
{
	struct pipe *p = calloc(1, sizeof(*p));
	struct kifu_error err;
	pthread_t thread;
	char *list = joined(paths, npaths);
	int deferred = 0, i;

	kifu_error_clear(&err);
	if (!p || !list) {
		cli_errorf("out of memory");
		free(p);
		free(list);
		return -1;
	}
	if (kifu_store_game_count(&run->existing, run->st, &err) < 0 ||
	    kifu_store_indexes_deferred(&deferred, run->st, &err) < 0 ||
	    kifu_store_import_begin(&run->import_id, run->st, list, &err) < 0) {
		db_fail(run, &err);
		goto out;
	}
	/* An import interrupted in bulk mode left indexes dropped: rebuild them at the end. */
	run->bulk = deferred > 0;
	for (i = 0; i < RING; i++)
		p->ring[i].replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	p->paths = paths;
	p->npaths = npaths;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	run->started = now();
	if (pthread_create(&thread, NULL, reading_thread, p) != 0) {
		cli_errorf("cannot start a thread");
		run->db_error = 1;
		goto out_sync;
	}
	write_all(run, p);
	pthread_join(thread, NULL);
	*io_error |= p->io_error | run->io_error;
	if (!run->db_error && kifu_store_commit(run->st, &err) < 0)
		db_fail(run, &err);
	if (!run->db_error && run->bulk) {
		if (run->progress) {
			progress_clear(run);
			fputs("kifu-import: building the search indexes...", stderr);
			run->shown_any = 1;
		}
		if (kifu_store_bulk_end(run->st, &err) < 0)
			db_fail(run, &err);
	}
	if (!run->db_error && kifu_store_import_end(run->st, run->import_id, run->imported,
						    run->duplicates, run->rejected, &err) < 0)
		db_fail(run, &err);
	if (run->db_error)
		kifu_store_rollback(run->st);
	progress_clear(run);
	/* Records left in the ring when the writer gave up. */
	for (; p->tail != p->head; p->tail++)
		kifu_record_free(p->ring[p->tail % RING].rec);
out_sync:
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	for (i = 0; i < RING; i++) {
		kifu_diags_release(&p->ring[i].diags);
		kifu_replay_release(&p->ring[i].replay);
		kifu_buf_release(&p->ring[i].raw);
		free(p->ring[i].file);
	}
out:
	free(p);
	free(list);
	return run->db_error ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *db = NULL;
	struct run run;
	struct kifu_error err;
	int opt, i, io_error = 0, status;

	cli_init(argv[0]);
	memset(&run, 0, sizeof(run));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (opt) {
		case 'd': db = optarg; break;
		case 'j': run.json = 1; break;
		case 'q': run.quiet = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage, "expected at least one PATH");
	db = cli_db_path(db);
	run.progress = !run.quiet && isatty(2);
	run.total_bytes = 0;
	for (i = optind; i < argc && run.progress; i++)
		run.total_bytes = !strcmp(argv[i], "-") || run.total_bytes < 0 ? -1
				  : run.total_bytes + input_size(argv[i], 1);
	kifu_error_clear(&err);
	if (kifu_store_open(&run.st, db, 0, &err) < 0) {
		cli_errorf("%s", err.message);
		return EXIT_FAILURE_IO;
	}
	run_import(&run, argv + optind, argc - optind, &io_error);
	kifu_store_free(run.st);
	free(run.file);
	if (run.json)
		printf("{\"imported\":%ld,\"duplicates\":%ld,\"rejected\":%ld}\n", run.imported,
		       run.duplicates, run.rejected);
	else if (!run.quiet)
		printf("imported %ld, duplicates %ld, rejected %ld\n", run.imported, run.duplicates,
		       run.rejected);
	status = run.db_error || io_error ? EXIT_FAILURE_IO : run.rejected ? EXIT_INVALID : EXIT_OK;
	if (cli_flush_stdout() < 0) {
		status = EXIT_FAILURE_IO;
	}
	return status;
}
