/*
 * kifu-validate: checks game records (files, directories searched for
 * *.yaml and *.yml, or - for standard input) against RECORDS.md, replaying
 * every game through its rules engine. Diagnostics go to stderr as
 * FILE:LINE:COL: error: ...; the summary line (or, with --json, one JSON
 * object per game) goes to stdout. Exit 0 all valid, 1 some invalid,
 * 2 usage, 3 a file could not be read.
 *
 * Reading and checking run as a pipeline: a thread parses YAML into records
 * (libyaml), the main thread replays them through the engines and prints,
 * in file order; a bounded ring of records sits between them. A big file
 * is parsed by two reader threads at once, the second from a document
 * near the middle: libyaml is most of the work, and one reader alone
 * would keep the checker waiting. The second reader's records are used
 * only when they are exactly those the first would have read (see
 * struct split); the reports of its games wait until the first part is
 * done.
 */
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kifu/record.h"

static const char usage[] = "kifu-validate [--json] [--quiet] PATH...";

struct run {
	int json, quiet;
	long tally[3];          /* games, valid, invalid */
	int io_error;
	struct kifu_replay replay;
};

/*
 * Records read ahead of the checking thread, and how many either side
 * takes or gives back at a time: the threads meet (a lock, and a wake-up
 * when the other one sleeps) once a batch rather than once a record, which
 * on a busy machine costs more than the record itself.
 */
#define RING 256
#define BATCH 32

/*
 * A file at least SPLIT_MIN bytes long is read as two parts at once, by
 * two readers, the second starting at a document near the middle (see
 * find_split() and scan_split()). No document after that point may span
 * more than SPLIT_MAX_DOC bytes, and nothing is looked back for the
 * document start further than SPLIT_LOOKBACK bytes.
 */
#define SPLIT_MIN (4L << 20)
#define SPLIT_MAX_DOC (1L << 20)
#define SPLIT_LOOKBACK 4096

struct slot {
	struct kifu_record *rec;
	struct kifu_diags diags;
	struct kifu_error err;
	int ret;                /* of kifu_reader_next */
};

struct pipe;

/*
 * One reading thread and its ring. Each side owns its own counter (head:
 * slots the reader filled, tail: slots the checker consumed; both
 * free-running) and tells the other where it stands by copying it to the
 * shared counter under the pipe's lock.
 */
struct feed {
	struct pipe *pipe;
	struct kifu_reader *reader;
	struct slot ring[RING];
	unsigned head, tail;
	/* Under the lock. */
	unsigned shared_head, shared_tail;
	int sleeps;             /* the reader waits for free slots */
	int stop;               /* no more records are wanted */
};

/*
 * Where the second reader starts, and what is known of it. The first
 * reader reads on past that point unless it finds there, as the next
 * record, the document the second reader started with (same line, same
 * number, read without a problem) and the second reader read everything
 * after it without a single diagnostic: only then are the second reader's
 * records those the first would have read.
 */
struct split {
	off_t offset;           /* the byte where the second part starts: a "---" line */
	const unsigned char *map; /* the whole file (mmap), for the scan */
	size_t size;
	FILE *fp;               /* the second reader's stream */
	/* Written by the checker's scan before it sets `scanned`. */
	int usable;             /* the scan allows the split */
	int line;               /* the line of offset */
	int docs;               /* the documents before it */
	atomic_int scanned;
	/* Under the lock. */
	int second;             /* the second reader: 1 read to the end cleanly, -1 gave up, 0 reading */
	int accepted;           /* the first reader stopped at the split point */
};

struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int checker_sleeps;     /* under the lock */
	int nfeeds;
	struct feed feed[2];
	struct split split;
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

/*
 * Makes the reader's records up to f->head visible to the checker; returns
 * whether the checker wants no more. When `full`, first waits until the
 * checker has freed a batch of slots (or wants no more).
 */
static int feed_publish(struct feed *f, unsigned *tail_seen, int full)
{
	struct pipe *p = f->pipe;
	int stop;

	pthread_mutex_lock(&p->lock);
	f->shared_head = f->head;
	if (p->checker_sleeps)
		pthread_cond_broadcast(&p->changed);
	while (full && f->head - f->shared_tail > RING - BATCH && !f->stop) {
		f->sleeps = 1;
		pthread_cond_wait(&p->changed, &p->lock);
		f->sleeps = 0;
	}
	*tail_seen = f->shared_tail;
	stop = f->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

/*
 * The first reader's record sl, read once the scan is done: returns 1 when
 * it is the document the second reader started with and the second reader
 * read the rest cleanly (the first reader stops there), 0 when the split is
 * not used (it reads on), -1 while the split point is still ahead.
 */
static int at_split(struct pipe *p, const struct slot *sl)
{
	struct split *sp = &p->split;
	const struct kifu_record *rec = sl->rec;
	int ok;

	if (sp->usable && rec->at.line < sp->line)
		return -1;
	pthread_mutex_lock(&p->lock);
	while (sp->usable && !sp->second && !p->feed[1].stop)
		pthread_cond_wait(&p->changed, &p->lock);
	ok = sp->usable && sp->second > 0 && !p->feed[1].stop && rec->at.line == sp->line &&
	     rec->number == sp->docs + 1 && !(rec->flags & KIFU_RECORD_SYNTAX_ERROR) &&
	     !sl->diags.n;
	if (ok)
		sp->accepted = 1;
	else
		p->feed[1].stop = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	return ok;
}

/*
 * A reading thread. The first reader of a split file looks for the split
 * point; the second one gives up (its records then count for nothing) at
 * the first problem, which only the first reader, in file order, may
 * report.
 */
static void *read_ahead(void *arg)
{
	struct feed *f = arg;
	struct pipe *p = f->pipe;
	struct split *sp = &p->split;
	unsigned tail_seen = 0, published = 0;
	int first = f == &p->feed[0], deciding = first && p->nfeeds > 1, second = 1;

	for (;;) {
		struct slot *sl;
		int ret;

		if (f->head - tail_seen == RING && feed_publish(f, &tail_seen, 1))
			break;
		/* The slot at head is this thread's until it is published. */
		sl = &f->ring[f->head % RING];
		kifu_error_clear(&sl->err);
		ret = kifu_reader_next(&sl->rec, &sl->diags, f->reader, &sl->err);
		if (deciding && ret > 0 && atomic_load_explicit(&sp->scanned, memory_order_acquire)) {
			int at = at_split(p, sl);

			deciding = at < 0;
			if (at > 0) {
				/* the second reader has this document and the rest */
				kifu_record_free(sl->rec);
				sl->rec = NULL;
				ret = 0;
			}
		}
		if (!first && (ret < 0 || (ret > 0 && sl->diags.n))) {
			if (ret > 0)
				kifu_record_free(sl->rec);
			sl->rec = NULL;
			kifu_diags_reset(&sl->diags);
			second = -1;
			ret = 0;
		}
		sl->ret = ret;
		f->head++;
		if (ret <= 0 || f->head - published >= BATCH) {
			published = f->head;
			if (feed_publish(f, &tail_seen, 0) || ret <= 0)
				break;
		}
	}
	if (!first) {
		pthread_mutex_lock(&p->lock);
		sp->second = f->stop ? -1 : second;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

/* Whether a document start ("---" then a blank or the end) begins at i. */
static int doc_marker(const unsigned char *p, size_t n, size_t i)
{
	return i + 3 <= n && p[i] == '-' && p[i + 1] == '-' && p[i + 2] == '-' &&
	       (i + 3 == n || p[i + 3] == ' ' || p[i + 3] == '\t' || p[i + 3] == '\r' ||
		p[i + 3] == '\n');
}

/*
 * Whether the document starting at i may have directives ("%TAG ..."):
 * the last line before it that is neither blank nor a comment starts with
 * '%', or no such line is found within SPLIT_LOOKBACK bytes.
 */
static int directive_before(const unsigned char *p, size_t i)
{
	size_t end = i, stop = i > SPLIT_LOOKBACK ? i - SPLIT_LOOKBACK : 0;

	while (end > 0) {
		size_t start = end - 1, k;

		while (start > 0 && p[start - 1] != '\n')
			start--;
		if (start < stop)
			return 1;
		for (k = start; k < end && (p[k] == ' ' || p[k] == '\t'); k++)
			;
		if (k < end && p[k] != '\n' && p[k] != '\r' && p[k] != '#')
			return p[start] == '%';
		end = start;
	}
	return 0;
}

/*
 * Looks for the place to split file in two: a regular file of SPLIT_MIN
 * bytes or more, at the first document start ("---" at the start of a
 * line) from the middle on that no directive precedes. Fills sp (the
 * mapping of the file for the scan, the offset and the second reader's
 * stream) and returns 1, or returns 0 to read the file as a whole.
 */
static int find_split(const char *file, struct split *sp)
{
	struct stat st;
	const unsigned char *map;
	size_t i, n;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < SPLIT_MIN ||
	    (uintmax_t)st.st_size > SIZE_MAX) {
		close(fd);
		return 0;
	}
	n = (size_t)st.st_size;
	map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	for (i = n / 2; i < n; i++)
		if (map[i - 1] == '\n' && doc_marker(map, n, i) && !directive_before(map, i))
			break;
	if (i == n || !(sp->fp = fopen(file, "rb")) || fseeko(sp->fp, (off_t)i, SEEK_SET) < 0) {
		if (sp->fp)
			fclose(sp->fp);
		munmap((void *)map, n);
		return 0;
	}
	sp->map = map;
	sp->size = n;
	sp->offset = (off_t)i;
	return 1;
}

/* 0x80 in each byte of x that equals c, 0 in the others (no carry crosses bytes). */
static uint64_t bytes_eq(uint64_t x, unsigned char c)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), low7 = ones * 0x7f;

	x ^= ones * c;
	return ~(((x & low7) + low7) | x) & (ones << 7);
}

static uint64_t load8(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

/*
 * The line feeds in p[i..end) and, through *docs and *span, the document
 * starts after one of them (see doc_marker()): their number, and the
 * longest distance from one to the next (the first measured from
 * span_from, the last to end). Eight bytes at a time: line feeds counted,
 * "\n---" looked for, with no branch but on the rare "\n---".
 */
static long scan_lines(const unsigned char *p, size_t n, size_t i, size_t end, long *docs,
		       size_t span_from, size_t *span)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	size_t last = span_from;
	long lines = 0;

	*span = 0;
	for (;;) {
		uint64_t lf = 0, m = 0;
		size_t k, stop;

		if (i + 11 <= end) {
			lf = bytes_eq(load8(p + i), '\n');
			m = lf & bytes_eq(load8(p + i + 1), '-') & bytes_eq(load8(p + i + 2), '-') &
			    bytes_eq(load8(p + i + 3), '-');
			lines += (long)(((lf >> 7) * ones) >> 56);
			if (!m) {
				i += 8;
				continue;
			}
			stop = i + 8;
		} else {
			stop = end;
		}
		for (k = i; k < stop; k++) {
			if (p[k] != '\n')
				continue;
			if (!m)
				lines++;
			if (k + 1 < end && doc_marker(p, n, k + 1)) {
				(*docs)++;
				if (k + 1 - last > *span)
					*span = k + 1 - last;
				last = k + 1;
			}
		}
		if (stop == end)
			break;
		i = stop;
	}
	if (end - last > *span)
		*span = end - last;
	return lines;
}

/*
 * The scan that tells the second reader's records apart from a guess: the
 * line of the split point (the line breaks before it, counted as libyaml
 * does: \r\n, \r, \n, U+0085, U+2028 and U+2029), the documents before it
 * (a "---" line each, and one more when the first has none), and whether
 * every document after it is short enough that libyaml's input never runs
 * past MAX_GAP without an event, which the two readers, cutting the input
 * differently, might tell apart. A wrong count only means that the first
 * reader reads on.
 */
static void scan_split(struct split *sp)
{
	const unsigned char *p = sp->map, *q;
	size_t n = sp->size, split = (size_t)sp->offset, i, span, bom = 0;
	long lines, docs = 0, after = 0;

	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		bom = 3;
	lines = scan_lines(p, n, 0, split, &docs, 0, &span);
	/* the other line breaks are rare: looked for one by one */
	for (q = memchr(p, '\r', split); q; q = memchr(q + 1, '\r', split - (size_t)(q + 1 - p)))
		lines += (size_t)(q + 1 - p) >= n || q[1] != '\n';
	for (q = memchr(p, 0xc2, split); q; q = memchr(q + 1, 0xc2, split - (size_t)(q + 1 - p)))
		lines += (size_t)(q + 1 - p) < n && q[1] == 0x85;
	for (q = memchr(p, 0xe2, split); q; q = memchr(q + 1, 0xe2, split - (size_t)(q + 1 - p)))
		lines += (size_t)(q + 2 - p) < n && q[1] == 0x80 && (q[2] == 0xa8 || q[2] == 0xa9);
	if (doc_marker(p, n, bom))
		docs++;
	/* the first document needs no "---": anything but blank, comment and directive lines */
	for (i = bom; i < split;) {
		size_t e = i, k;

		while (e < split && p[e] != '\n')
			e++;
		for (k = i; k < e && (p[k] == ' ' || p[k] == '\t'); k++)
			;
		if (k < e && p[k] != '\r' && p[k] != '#' && p[i] != '%') {
			docs += !doc_marker(p, n, i);
			break;
		}
		i = e + 1;
	}
	scan_lines(p, n, split, n, &after, split, &span);
	sp->usable = span <= SPLIT_MAX_DOC && docs < INT_MAX && lines < INT_MAX;
	sp->line = (int)lines + 1;
	sp->docs = (int)docs;
}

/* Moves a record of the second part to its place in the file. */
static void shift_record(struct kifu_record *rec, int docs, int lines)
{
	size_t i;
	int k;

	rec->number += docs;
	rec->at.line += lines;
	for (k = 0; k < KIFU_KEY_COUNT; k++) {
		if (rec->key_at[k].line)
			rec->key_at[k].line += lines;
		if (rec->value_at[k].line)
			rec->value_at[k].line += lines;
	}
	for (i = 0; i < rec->nplayers; i++)
		rec->players[i].at.line += lines;
	for (i = 0; i < rec->nturns; i++)
		rec->turns[i].at.line += lines;
	for (i = 0; i < rec->ntags; i++)
		rec->tags[i].at.line += lines;
}

/*
 * The reports of the second part's games while the first part is being
 * checked: what each game wrote to each stream, written out in the same
 * order once the first part is done (or dropped if the split fails).
 */
struct deferred {
	FILE *out, *err;        /* open_memstream() */
	char *outbuf, *errbuf;
	size_t outlen, errlen;
	long *ends;             /* per game: the end of its text in err, then in out */
	size_t n, cap;
	long tally[3];
	int failed;             /* a game could not be checked: fail_err says why */
	struct kifu_error fail_err;
};

static int deferred_open(struct deferred *d)
{
	memset(d, 0, sizeof(*d));
	d->out = open_memstream(&d->outbuf, &d->outlen);
	d->err = open_memstream(&d->errbuf, &d->errlen);
	return d->out && d->err ? 0 : -1;
}

/* Notes where the last game's text ends; returns -1 when out of memory. */
static int deferred_cut(struct deferred *d)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		long *v = realloc(d->ends, cap * 2 * sizeof(*v));

		if (!v)
			return -1;
		d->ends = v;
		d->cap = cap;
	}
	d->ends[2 * d->n] = ftell(d->err);
	d->ends[2 * d->n + 1] = ftell(d->out);
	d->n++;
	return 0;
}

static void deferred_write(struct deferred *d, struct run *run)
{
	long e = 0, o = 0;
	size_t i;
	int k;

	fflush(d->err);
	fflush(d->out);
	for (i = 0; i < d->n; i++) {
		if (d->ends[2 * i] > e)
			fwrite(d->errbuf + e, 1, (size_t)(d->ends[2 * i] - e), stderr);
		if (d->ends[2 * i + 1] > o)
			fwrite(d->outbuf + o, 1, (size_t)(d->ends[2 * i + 1] - o), stdout);
		e = d->ends[2 * i];
		o = d->ends[2 * i + 1];
	}
	for (k = 0; k < 3; k++)
		run->tally[k] += d->tally[k];
}

static void deferred_close(struct deferred *d)
{
	if (d->out)
		fclose(d->out);
	if (d->err)
		fclose(d->err);
	free(d->outbuf);
	free(d->errbuf);
	free(d->ends);
}

/*
 * Checks and reports one record read by a reader thread, to out and err,
 * counting it in tally (games, valid, invalid); returns 0 or a KIFU_E* code.
 */
static int check_record(struct run *run, struct slot *sl, const char *file, FILE *out, FILE *err,
			long *tally)
{
	struct kifu_record *rec = sl->rec;
	size_t i;
	int valid;

	if (kifu_record_validate(&run->replay, &sl->diags, rec, 0, &sl->err) < 0)
		return sl->err.code;
	valid = sl->diags.errors == 0;
	for (i = 0; i < sl->diags.n; i++)
		cli_print_diag(err, file, &sl->diags.v[i]);
	tally[0]++;
	tally[valid ? 1 : 2]++;
	if (run->json)
		print_json(out, &sl->diags, file, rec, valid);
	return 0;
}

/*
 * Gives the consumed slots of f (and g, when not NULL) back to the readers
 * and, when `wait`, waits until one of them has published more records;
 * updates the heads seen.
 */
static void checker_sync(struct pipe *p, struct feed *f, unsigned *fseen, struct feed *g,
			 unsigned *gseen, int wait)
{
	pthread_mutex_lock(&p->lock);
	f->shared_tail = f->tail;
	if (g)
		g->shared_tail = g->tail;
	if (f->sleeps || (g && g->sleeps))
		pthread_cond_broadcast(&p->changed);
	while (wait && f->shared_head == f->tail && (!g || g->shared_head == g->tail)) {
		p->checker_sleeps = 1;
		pthread_cond_wait(&p->changed, &p->lock);
		p->checker_sleeps = 0;
	}
	*fseen = f->shared_head;
	if (g)
		*gseen = g->shared_head;
	pthread_mutex_unlock(&p->lock);
}

static void stop_feed(struct pipe *p, struct feed *f)
{
	pthread_mutex_lock(&p->lock);
	f->stop = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/*
 * Validates every game read by the readers of p (one, or the two parts of a
 * split file); returns 0, or -1 to stop everything (out of memory).
 */
static int validate_pipe(struct run *run, struct pipe *p, const char *file)
{
	struct feed *a = &p->feed[0], *b = &p->feed[1];
	struct split *sp = &p->split;
	struct deferred def;
	struct kifu_error *fail = NULL;
	pthread_t threads[2];
	unsigned seen[2] = { 0, 0 }, given[2] = { 0, 0 };
	int started = 0, ret = 0, a_done = 0, b_done = p->nfeeds < 2, b_direct = 0, i;

	memset(&def, 0, sizeof(def));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (p->nfeeds > 1 && deferred_open(&def) < 0) {
		deferred_close(&def);
		p->nfeeds = 1;
		b_done = 1;
	}
	for (; started < p->nfeeds; started++) {
		p->feed[started].pipe = p;
		if (pthread_create(&threads[started], NULL, read_ahead, &p->feed[started]) != 0)
			break;
	}
	if (started < p->nfeeds) {
		cli_errorf("cannot start a thread");
		run->io_error = 1;
		ret = -1;
		goto out;
	}
	if (p->nfeeds > 1) {
		scan_split(sp);
		pthread_mutex_lock(&p->lock);
		if (!sp->usable)
			b->stop = 1;
		atomic_store_explicit(&sp->scanned, 1, memory_order_release);
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
	for (;;) {
		struct feed *f;
		struct slot *sl;
		int from_b, r;

		/*
		 * The first part's records in order; the second part's, their
		 * reports kept aside, when the first part has none ready or the
		 * second reader's ring fills up.
		 */
		if (!a_done && a->tail != seen[0] &&
		    (b_done || def.failed || seen[1] - b->tail < RING / 2))
			f = a;
		else if (!b_done && (b_direct || !def.failed) && b->tail != seen[1])
			f = b;
		else if (!a_done && a->tail != seen[0])
			f = a;
		else if (a_done && (b_done || !b_direct))
			break;
		else {
			if (!a_done && !b_done && !def.failed)
				checker_sync(p, a, &seen[0], b, &seen[1], 1);
			else if (!a_done)
				checker_sync(p, a, &seen[0], NULL, NULL, 1);
			else
				checker_sync(p, b, &seen[1], NULL, NULL, 1);
			continue;
		}
		from_b = f == b;
		sl = &f->ring[f->tail % RING];
		r = sl->ret;
		if (r > 0 && from_b && !b_direct) {
			int c;

			shift_record(sl->rec, sp->docs, sp->line - 1);
			c = check_record(run, sl, file, def.out, def.err, def.tally);
			if (c == 0 && deferred_cut(&def) < 0)
				c = kifu_error_set(&sl->err, KIFU_ENOMEM, "out of memory");
			if (c < 0) {
				/* reported in its place if the split holds */
				def.failed = 1;
				def.fail_err = sl->err;
				def.fail_err.code = c;
				stop_feed(p, b);
			}
		} else if (r > 0) {
			int c;

			if (from_b)
				shift_record(sl->rec, sp->docs, sp->line - 1);
			c = check_record(run, sl, file, stdout, stderr, run->tally);
			if (c < 0) {
				fail = &sl->err;
				r = c;
			}
		} else if (r < 0) {
			for (i = 0; (size_t)i < sl->diags.n; i++)
				cli_print_diag(stderr, file, &sl->diags.v[i]);
			fail = &sl->err;
		}
		kifu_record_free(sl->rec);
		sl->rec = NULL;
		kifu_diags_reset(&sl->diags);
		f->tail++;
		if (r < 0) {
			ret = r;
			break;
		}
		if (r == 0 && !from_b) {
			int accepted;

			a_done = 1;
			pthread_mutex_lock(&p->lock);
			accepted = sp->accepted;
			pthread_mutex_unlock(&p->lock);
			if (!accepted) {
				if (!b_done)
					stop_feed(p, b);
				b_done = 1;
				continue;
			}
			/* the second part follows: its reports so far, then the rest as it comes */
			deferred_write(&def, run);
			b_direct = 1;
			if (def.failed) {
				fail = &def.fail_err;
				ret = def.fail_err.code;
				break;
			}
			continue;
		}
		if (r == 0)
			b_done = 1;
		if (f->tail - given[from_b] >= BATCH) {
			given[from_b] = f->tail;
			checker_sync(p, f, &seen[from_b], NULL, NULL, 0);
		}
	}
out:
	for (i = 0; i < p->nfeeds; i++)
		stop_feed(p, &p->feed[i]);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	/* Records read ahead past the end or a failure are dropped. */
	for (i = 0; i < p->nfeeds; i++) {
		struct feed *f = &p->feed[i];
		unsigned k;

		for (; f->tail != f->head; f->tail++)
			kifu_record_free(f->ring[f->tail % RING].rec);
		for (k = 0; k < RING; k++)
			kifu_diags_release(&f->ring[k].diags);
	}
	if (p->nfeeds > 1)
		deferred_close(&def);
	if (ret < 0 && fail) {
		cli_errorf("%s", fail->message[0] ? fail->message : kifu_strerror(ret));
		run->io_error = 1;
		ret = ret == KIFU_ENOMEM ? -1 : 0;
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	return ret;
}

/* Validates every game of one stream, or of two readers of one file. */
static int validate_reader(struct run *run, struct kifu_reader *r, struct kifu_reader *r2,
			   struct split *sp, const char *file)
{
	struct pipe *p = calloc(1, sizeof(*p));
	int ret;

	if (!p) {
		cli_errorf("out of memory");
		run->io_error = 1;
		return -1;
	}
	p->nfeeds = r2 ? 2 : 1;
	p->feed[0].reader = r;
	p->feed[1].reader = r2;
	if (sp)
		p->split = *sp;
	ret = validate_pipe(run, p, file);
	free(p);
	return ret;
}

static int validate_file(const char *file, void *ctx)
{
	struct run *run = ctx;
	struct kifu_reader *r, *r2 = NULL;
	struct split sp;
	struct kifu_error err;
	int ret, split;

	kifu_error_clear(&err);
	if (kifu_reader_open_file(&r, file, &err) < 0) {
		cli_errorf("%s", err.message);
		run->io_error = 1;
		return err.code == KIFU_ENOMEM ? -1 : 0;
	}
	memset(&sp, 0, sizeof(sp));
	split = find_split(file, &sp);
	if (split && kifu_reader_open_fp(&r2, sp.fp, file, &err) < 0)
		r2 = NULL;
	ret = validate_reader(run, r, r2, r2 ? &sp : NULL, file);
	kifu_reader_free(r);
	kifu_reader_free(r2);
	if (split) {
		fclose(sp.fp);
		munmap((void *)sp.map, sp.size);
	}
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
	while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (opt) {
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
			ret = validate_reader(&run, r, NULL, NULL, "<stdin>");
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
		fprintf(run.json ? stderr : stdout, "%ld game%s, %ld valid, %ld invalid\n",
			run.tally[0], run.tally[0] == 1 ? "" : "s", run.tally[1], run.tally[2]);
	kifu_replay_release(&run.replay);
	if (cli_flush_stdout() < 0) {
		return EXIT_FAILURE_IO;
	}
	return run.io_error ? EXIT_FAILURE_IO : run.tally[2] ? EXIT_INVALID : EXIT_OK;
}
