/*
 * The reading thread of the pipeline (lib/input/pipeline.c): finds the inputs
 * under each PATH (files as given, directories searched recursively in
 * name order for the record and archive patterns, "-" for standard input),
 * opens archives and streams their members (one level of archive inside
 * an archive), chooses each input's format (--from, else by name, else by
 * content), and puts every record into the ring, replayed when the
 * pipeline asks for it early.
 *
 * With KIFU_PIPELINE_RAW the bytes read are teed into a spool, from which
 * the text of an invalid record is cut: from the line where it starts to
 * the line where the next one does (readers report lines, not offsets).
 */
#define _DEFAULT_SOURCE /* DT_* names are not used, but lstat and readdir are */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kifu/archive.h"
#include "kifu/format.h"
#include "kifu/pipeline.h"
#include "input/pipeline_impl.h"

#define HEAD 4096               /* bytes looked at to tell a format or an archive */
#define SPOOL_TRIM (64 << 10)   /* dead bytes at the front of the spool worth moving */
#define MAX_DEPTH 2             /* an archive inside an archive, no deeper */

/* ---- a byte source over a file descriptor ---- */

struct fd_source {
	struct kifu_source src;
	int fd;
};

static void lower_first(char *s)
{
	if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
		s[0] = (char)(s[0] - 'A' + 'a');
}

static long fd_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct fd_source *f = ctx;
	ssize_t got;

	do
		got = read(f->fd, buf, n);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		char why[128];

		snprintf(why, sizeof(why), "%s", strerror(errno));
		lower_first(why);
		return kifu_error_set(err, KIFU_EIO, "cannot read '%s': %s", f->src.name, why);
	}
	return (long)got;
}

/* ---- the stream a reader reads: the bytes looked at first, then the rest, teed into a spool ---- */

struct stream {
	struct kifu_source src;
	const struct kifu_source *under;
	struct kifu_ring *p;
	unsigned char head[HEAD];
	size_t head_len, head_pos;
	int eof;
	/* The spool (KIFU_PIPELINE_RAW): input bytes [base, base + len), line `line` at line_off. */
	int tee;
	char *buf;
	size_t len, cap;
	uint64_t base, line_off;
	long line;
};

static long stream_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct stream *s = ctx;
	long got;

	if (s->head_pos < s->head_len) {
		got = (long)(s->head_len - s->head_pos < n ? s->head_len - s->head_pos : n);
		memcpy(buf, s->head + s->head_pos, (size_t)got);
		s->head_pos += (size_t)got;
	} else {
		/* Before waiting on the input, let the consumer have what is read. */
		if (kifu_ring_flush_(s->p))
			return 0;
		got = s->under->read(s->under->ctx, buf, n, err);
		if (got < 0)
			return got;
		if (got == 0)
			s->eof = 1;
		s->p->bytes += (uint64_t)got;
	}
	if (s->tee && got > 0) {
		if (s->len + (size_t)got > s->cap) {
			size_t cap = s->cap ? s->cap : 256 << 10;
			char *nb;

			while (cap < s->len + (size_t)got)
				cap *= 2;
			nb = realloc(s->buf, cap);
			if (!nb)
				return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory",
						      s->src.name);
			s->buf = nb;
			s->cap = cap;
		}
		memcpy(s->buf + s->len, buf, (size_t)got);
		s->len += (size_t)got;
	}
	return got;
}

/* Reads up to HEAD bytes ahead, to be read again; returns 0 or a KIFU_E* code. */
static int stream_peek(struct stream *s, struct kifu_error *err)
{
	while (s->head_len < HEAD) {
		long got = s->under->read(s->under->ctx, s->head + s->head_len, HEAD - s->head_len, err);

		if (got < 0)
			return (int)got;
		if (got == 0)
			break;
		s->head_len += (size_t)got;
		s->p->bytes += (uint64_t)got;
	}
	return 0;
}

static void stream_init(struct stream *s, struct kifu_ring *p, const struct kifu_source *under,
			const char *name)
{
	memset(s, 0, sizeof(*s));
	s->src.read = stream_read;
	s->src.ctx = s;
	s->src.name = name;
	s->under = under;
	s->p = p;
	s->line = 1;
	s->tee = (p->opt.flags & KIFU_PIPELINE_RAW) != 0;
}

static uint64_t spool_end(const struct stream *s)
{
	return s->base + s->len;
}

/*
 * The offset where line L starts, counting line breaks as libyaml does
 * (LF, CRLF, CR, NEL, LS, PS); the end of what was read when the spool
 * does not reach line L.
 */
static uint64_t spool_line(struct stream *s, long L)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t i = (size_t)(s->line_off - s->base), n = s->len;

	while (s->line < L) {
		size_t next = 0;

		for (; i < n; i++) {
			unsigned char c = b[i];

			if (c > '\r' && c != 0xc2 && c != 0xe2)
				continue;
			if (c == '\n') {
				next = i + 1;
			} else if (c == '\r') {
				if (i + 1 == n && !s->eof)
					return spool_end(s);
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
			return spool_end(s);
		s->line++;
		s->line_off = s->base + next;
		i = next;
	}
	return s->line_off;
}

/*
 * The offset of line L, column C (characters, as readers count them): a
 * record may start inside a line (a JSON array on one line). Within what was
 * read; the line cursor stays at the line's start.
 */
static uint64_t spool_at(struct stream *s, long L, long C)
{
	uint64_t off = spool_line(s, L);
	size_t i = (size_t)(off - s->base);

	if (s->line != L)
		return off;
	for (; C > 1 && i < s->len; C--) {
		if (s->buf[i] == '\n' || s->buf[i] == '\r')
			break;
		/* one character: a lead byte and its continuation bytes */
		i++;
		while (i < s->len && ((unsigned char)s->buf[i] & 0xc0) == 0x80)
			i++;
	}
	return s->base + i;
}

/* Forgets the bytes before offset off (never past the line cursor). */
static void spool_trim(struct stream *s, uint64_t off)
{
	size_t dead;

	if (off > s->line_off)
		off = s->line_off;
	if (off <= s->base)
		return;
	dead = (size_t)(off - s->base);
	/* Moving costs; move only when the dead part is large and most of the buffer. */
	if (dead < SPOOL_TRIM || dead < s->len / 2)
		return;
	memmove(s->buf, s->buf + dead, s->len - dead);
	s->len -= dead;
	s->base = off;
}

/* Reads on, past where the reader stopped, until offset `until` or the end. */
static void spool_drain(struct stream *s, uint64_t until)
{
	char chunk[16384];
	struct kifu_error err;

	while (!s->eof && spool_end(s) < until)
		if (stream_read(s, chunk, sizeof(chunk), &err) <= 0)
			break;
}

/* A record whose extent is now known: keeps its text unless it was found valid. */
static void finish_record(struct kifu_slot *sl, struct stream *s, uint64_t start, uint64_t end)
{
	uint64_t keep;

	if (sl->replayed && sl->valid)
		return;
	if (start < s->base)
		start = s->base;
	if (end > spool_end(s))
		end = spool_end(s);
	if (end < start)
		end = start;
	keep = end - start > KIFU_PIPELINE_RAW_MAX ? KIFU_PIPELINE_RAW_MAX : end - start;
	sl->raw_truncated = end - start > KIFU_PIPELINE_RAW_MAX;
	kifu_buf_add(&sl->raw, s->buf + (start - s->base), (size_t)keep);
	/* kifu_buf keeps no data for zero bytes; consumers want a pointer. */
	kifu_buf_add(&sl->raw, "", 0);
}

/* ---- items that are not records ---- */

/* Queues an ERROR or WARNING about name; returns -1 when the consumer wants no more. */
static int note(struct kifu_ring *p, int kind, int code, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int note(struct kifu_ring *p, int kind, int code, const char *name, const char *fmt, ...)
{
	struct kifu_slot *sl = kifu_ring_acquire_(p, 0);
	va_list ap;

	if (!sl)
		return -1;
	sl->kind = kind;
	p->errors += kind == KIFU_SLOT_ERROR;
	sl->input = name ? strdup(name) : NULL;
	va_start(ap, fmt);
	kifu_error_setv(&sl->err, code, fmt, ap);
	va_end(ap);
	sl->bytes = p->bytes;
	kifu_ring_publish_(p);
	return 0;
}

/* Queues an ERROR from err. */
static int fail(struct kifu_ring *p, const char *name, const struct kifu_error *err, int code)
{
	return note(p, KIFU_SLOT_ERROR, code, name, "%s",
		    err->message[0] ? err->message : kifu_strerror(code));
}

/* ---- records ---- */

/*
 * Reads every record of one input (under, called name) in format f (NULL:
 * by content) into the ring. Returns 0, or -1 when the consumer wants no
 * more or memory ran out.
 */
static int read_records(struct kifu_ring *p, const struct kifu_source *under, const char *name,
			const struct kifu_format *f, long long size, long *found)
{
	struct stream *s = malloc(sizeof(*s));
	struct kifu_slot *sl, *pend = NULL;
	struct kifu_error err;
	uint64_t pend_start = 0;
	void *state = NULL;
	int ret = 0, got, raw;

	kifu_error_clear(&err);
	if (!s)
		return -1;
	stream_init(s, p, under, name);
	raw = s->tee;
	if (!f) {
		if ((got = stream_peek(s, &err)) < 0) {
			ret = fail(p, name, &err, got);
			goto out;
		}
		f = kifu_format_sniff((const char *)s->head, s->head_len);
	}
	sl = kifu_ring_acquire_(p, 0);
	if (!sl) {
		ret = -1;
		goto out;
	}
	sl->kind = KIFU_SLOT_INPUT;
	sl->input = strdup(name);
	sl->format = f;
	sl->size = size;
	sl->bytes = p->bytes;
	if (!sl->input) {
		ret = -1;
		goto out;
	}
	kifu_ring_publish_(p);
	if ((got = f->open(&state, &s->src, &err)) < 0) {
		ret = fail(p, name, &err, got);
		if (got == KIFU_ENOMEM)
			ret = -1;
		goto out;
	}
	for (;;) {
		sl = kifu_ring_acquire_(p, pend ? 1 : 0);
		if (!sl) {
			/* The consumer stopped: the pending record will never be published. */
			if (pend) {
				kifu_record_free(pend->rec);
				pend->rec = NULL;
			}
			ret = -1;
			break;
		}
		got = f->next(&sl->rec, &sl->diags, state, &sl->err);
		if (got > 0 && (p->opt.flags & KIFU_PIPELINE_REPLAY_EARLY) &&
		    (p->opt.flags & KIFU_PIPELINE_REPLAY)) {
			if (kifu_record_validate(&sl->replay, &sl->diags, sl->rec, p->opt.validate_flags,
						 &sl->err) < 0) {
				got = sl->err.code;
				kifu_record_free(sl->rec);
				sl->rec = NULL;
			} else {
				kifu_ring_judge_(sl);
			}
		}
		if (got > 0) {
			struct kifu_record *rec = sl->rec;
			uint64_t start;

			sl->kind = KIFU_SLOT_RECORD;
			sl->format = f;
			(*found)++;
			if (!raw) {
				sl->bytes = p->bytes;
				kifu_ring_publish_(p);
				continue;
			}
			/* The first record owns the comments above it. */
			start = !pend && rec->number == 1 ? s->base
				: rec->at.line > 0 ? spool_at(s, rec->at.line, rec->at.col) : spool_end(s);
			if (pend) {
				finish_record(pend, s, pend_start, start);
				pend->bytes = p->bytes;
				kifu_ring_publish_(p);
			}
			pend = sl;
			pend_start = start;
			spool_trim(s, start);
			continue;
		}
		/* The end of the input, or a failure: the pending record ends here. */
		if (pend) {
			/* After a syntax error the reader stops: the record is the rest of the input. */
			if (pend->rec->flags & KIFU_RECORD_SYNTAX_ERROR)
				spool_drain(s, pend_start + KIFU_PIPELINE_RAW_MAX + 1);
			finish_record(pend, s, pend_start, spool_end(s));
			pend->bytes = p->bytes;
			kifu_ring_publish_(p);
			pend = NULL;
		}
		if (got < 0) {
			sl->kind = KIFU_SLOT_ERROR;
			p->errors++;
			sl->input = strdup(name);
			if (!sl->err.message[0])
				kifu_error_set(&sl->err, got, "reading '%s': %s", name, kifu_strerror(got));
			sl->err.code = got;
			sl->bytes = p->bytes;
			kifu_ring_publish_(p);
			if (got == KIFU_ENOMEM)
				ret = -1;
		}
		break;
	}
out:
	if (state)
		f->close(state);
	free(s->buf);
	free(s);
	return ret;
}

/* ---- archives ---- */

static int read_archive(struct kifu_ring *p, struct kifu_archive *ar, const char *name,
			int depth, long *found);

/* The format a name says, --from first. */
static const struct kifu_format *named_format(const struct kifu_ring *p, const char *name)
{
	return p->opt.from ? p->opt.from : kifu_format_by_name(name);
}

static int read_member(struct kifu_ring *p, const struct kifu_archive_member *m,
		       const char *arname, int depth, long *found)
{
	size_t n = strlen(arname) + strlen(m->name) + 3;
	char *name = malloc(n);
	int inner = kifu_archive_kind(m->name), ret = 0;
	const struct kifu_format *f = named_format(p, m->name);

	if (!name)
		return -1;
	if (m->whole)
		snprintf(name, n, "%s", arname);
	else
		snprintf(name, n, "%s(%s)", arname, m->name);
	if (inner != KIFU_ARCHIVE_NONE) {
		struct kifu_archive *sub;
		struct kifu_error err;
		struct kifu_archive_limits lim = { p->opt.max_member, p->opt.max_ratio };

		kifu_error_clear(&err);
		if (depth >= MAX_DEPTH) {
			ret = note(p, KIFU_SLOT_WARNING, 0, name,
				   "skipping '%s': an archive inside an archive inside an archive is not read",
				   name);
		} else if ((ret = kifu_archive_open_source(&sub, m->src, name, inner, &lim, &err)) < 0) {
			ret = fail(p, name, &err, ret) < 0 || ret == KIFU_ENOMEM ? -1 : 0;
		} else {
			ret = read_archive(p, sub, name, depth + 1, found);
			kifu_archive_free(sub);
		}
	} else if (f || m->whole) {
		char buf[4096];

		/* a compressed file's format is that of its name without the suffix, else its content */
		if (!f && m->whole)
			f = kifu_format_by_name(kifu_archive_inner_name(buf, sizeof(buf), m->name));
		ret = read_records(p, m->src, name, f, m->size, found);
	} else {
		p->skipped++;
	}
	free(name);
	return ret;
}

/* Reads every member of ar (called name); returns 0, or -1 to stop everything. */
static int read_archive(struct kifu_ring *p, struct kifu_archive *ar, const char *name,
			int depth, long *found)
{
	struct kifu_archive_member m;
	struct kifu_error err;
	int ret;

	kifu_error_clear(&err);
	while ((ret = kifu_archive_next(&m, ar, &err)) > 0)
		if (read_member(p, &m, name, depth, found) < 0)
			return -1;
	if (ret < 0)
		return fail(p, name, &err, ret) < 0 || ret == KIFU_ENOMEM ? -1 : 0;
	return 0;
}

/* ---- files and directories ---- */

static int errno_note(struct kifu_ring *p, const char *path, int e)
{
	char why[128];

	snprintf(why, sizeof(why), "%s", strerror(e));
	lower_first(why);
	return note(p, KIFU_SLOT_ERROR, KIFU_EIO, path, "cannot open '%s': %s", path, why);
}

/* Reads the file at path (called name; "-" is standard input). */
static int read_path(struct kifu_ring *p, const char *path, const char *name, long *found)
{
	struct fd_source fs;
	struct stream *s;
	struct stat st;
	struct kifu_error err;
	const struct kifu_format *f;
	int kind, ret = 0, is_stdin = !strcmp(path, "-");
	long long size = -1;

	kifu_error_clear(&err);
	fs.fd = is_stdin ? 0 : open(path, O_RDONLY);
	if (fs.fd < 0)
		return errno_note(p, path, errno);
	fs.src.read = fd_read;
	fs.src.ctx = &fs;
	fs.src.name = name;
	if (fstat(fs.fd, &st) == 0 && S_ISREG(st.st_mode))
		size = (long long)st.st_size;
	kind = kifu_archive_kind(name);
	f = named_format(p, name);
	if (kind == KIFU_ARCHIVE_NONE && !kifu_format_by_name(name)) {
		/* the name says nothing: look at the content */
		unsigned char head[512];
		ssize_t got = size >= 0 ? pread(fs.fd, head, sizeof(head), 0) : -1;

		if (got > 0)
			kind = kifu_archive_sniff(head, (size_t)got);
		else if (size < 0 && (s = malloc(sizeof(*s))) != NULL) {
			/* a pipe: what is looked at must be read again through a stream */
			stream_init(s, p, &fs.src, name);
			s->tee = 0;
			if ((ret = stream_peek(s, &err)) < 0) {
				ret = fail(p, name, &err, ret);
			} else if ((kind = kifu_archive_sniff(s->head, s->head_len)) != KIFU_ARCHIVE_NONE) {
				struct kifu_archive *ar;
				struct kifu_archive_limits lim = { p->opt.max_member, p->opt.max_ratio };

				if ((ret = kifu_archive_open_source(&ar, &s->src, name, kind, &lim, &err)) < 0) {
					ret = fail(p, name, &err, ret);
				} else {
					ret = read_archive(p, ar, name, 1, found);
					kifu_archive_free(ar);
				}
			} else {
				ret = read_records(p, &s->src, name, f, size, found);
			}
			free(s);
			goto out;
		}
	}
	if (kind != KIFU_ARCHIVE_NONE && !is_stdin && size >= 0) {
		struct kifu_archive *ar;
		struct kifu_archive_limits lim = { p->opt.max_member, p->opt.max_ratio };

		if ((ret = kifu_archive_open_path(&ar, path, kind, &lim, &err)) < 0) {
			ret = fail(p, name, &err, ret);
		} else {
			ret = read_archive(p, ar, name, 1, found);
			kifu_archive_free(ar);
		}
	} else if (kind != KIFU_ARCHIVE_NONE) {
		struct kifu_archive *ar;
		struct kifu_archive_limits lim = { p->opt.max_member, p->opt.max_ratio };

		if ((ret = kifu_archive_open_source(&ar, &fs.src, name, kind, &lim, &err)) < 0) {
			ret = fail(p, name, &err, ret);
		} else {
			ret = read_archive(p, ar, name, 1, found);
			kifu_archive_free(ar);
		}
	} else {
		ret = read_records(p, &fs.src, name, f, size, found);
	}
out:
	if (!is_stdin)
		close(fs.fd);
	return ret;
}

/* Whether a file in a directory is read: a record or archive name. */
static int wanted(const char *name)
{
	return kifu_format_by_name(name) || kifu_archive_kind(name) != KIFU_ARCHIVE_NONE;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads every wanted file under the directory path, in name order. */
static int walk_dir(struct kifu_ring *p, const char *path, long *found, long *files)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0;

	if (!dir)
		return errno_note(p, path, errno);
	while ((de = readdir(dir)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			char **nv = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*nv));

			if (!nv)
				break;
			names = nv;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n && ret >= 0; i++) {
		size_t len = strlen(path) + strlen(names[i]) + 2;
		char *full = malloc(len);
		struct stat st, lst;

		if (!full) {
			ret = -1;
			break;
		}
		snprintf(full, len, "%s%s%s", path,
			 path[0] && path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		if (lstat(full, &lst) != 0) {
			ret = errno_note(p, full, errno);
		} else if (S_ISDIR(lst.st_mode)) {
			ret = walk_dir(p, full, found, files);
		} else if (wanted(names[i])) {
			if (stat(full, &st) != 0) {
				if (S_ISLNK(lst.st_mode) && errno == ENOENT)
					ret = note(p, KIFU_SLOT_WARNING, 0, full,
						   "skipping '%s': a dangling symbolic link", full);
				else
					ret = errno_note(p, full, errno);
			} else if (S_ISREG(st.st_mode)) {
				(*files)++;
				ret = read_path(p, full, full, found);
			}
		}
		free(full);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* The bytes of the wanted files under path (path itself when top, whatever its name). */
static long long size_under(const char *path, int top)
{
	struct stat st;
	long long total = 0;
	DIR *dir;
	struct dirent *de;
	size_t n = strlen(path);
	const char *base = strrchr(path, '/');

	if ((top ? stat(path, &st) : lstat(path, &st)) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		if (!top && (!wanted(base ? base + 1 : path) ||
			     (S_ISLNK(st.st_mode) && stat(path, &st) != 0) || !S_ISREG(st.st_mode)))
			return 0;
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
		snprintf(full, n + strlen(de->d_name) + 2, "%s/%s", path, de->d_name);
		total += size_under(full, 0);
		free(full);
	}
	closedir(dir);
	return total;
}

long long kifu_pipeline_size(const char *const *paths, size_t n)
{
	long long total = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(paths[i], "-"))
			return -1;
		total += size_under(paths[i], 1);
	}
	return total;
}

const char *kifu_pipeline_patterns(void)
{
	return "*.yaml, *.yml, *.json, *.pgn, *.csv and archives (*.zip, *.tar, *.7z, *.gz, *.bz2, "
	       "*.xz, *.zst)";
}

void kifu_input_read_all_(struct kifu_ring *p)
{
	size_t i;

	for (i = 0; i < p->npaths; i++) {
		const char *path = p->paths[i];
		long found = 0, files = 0, errors = p->errors;
		struct stat st, lst;
		int ret, e;

		if (!strcmp(path, "-")) {
			files = 1;
			ret = read_path(p, "-", "<stdin>", &found);
		} else if (stat(path, &st) != 0) {
			e = errno;
			if (e == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
				ret = note(p, KIFU_SLOT_ERROR, KIFU_EIO, path,
					   "cannot open '%s': a dangling symbolic link", path);
			else
				ret = errno_note(p, path, e);
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk_dir(p, path, &found, &files);
		} else {
			files = 1;
			ret = read_path(p, path, path, &found);
		}
		if (ret < 0)
			return;
		if (found || p->errors > errors)
			continue;
		if (files)
			ret = note(p, KIFU_SLOT_WARNING, 0, path, "no records in '%s'",
				   !strcmp(path, "-") ? "<stdin>" : path);
		else
			ret = note(p, KIFU_SLOT_WARNING, 0, path, "no records under '%s' (looked for %s)",
				   path, kifu_pipeline_patterns());
		if (ret < 0)
			return;
	}
}
