/*
 * Archives and compressed files through libarchive (include/kifu/archive.h):
 * telling them by name and by magic number, opening them over a path (with
 * seeking, which 7z needs) or over any byte source (standard input, a member
 * of another archive), and streaming their regular members one by one, each
 * held to the expansion limits. libarchive does all the parsing and
 * decompression; this file only drives it, so it parses nothing itself.
 * The compressed bytes come in through our own read callbacks, also for a
 * path: each time libarchive wants more of them, the bytes decompressed so
 * far are held to the limits, so that a bomb is stopped wherever libarchive
 * decompresses it (telling the format, a header, a skipped member), not
 * only in a member's data.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kifu/archive.h"
#include "kifu/pipeline.h"

/* The expanded size from which a member's compression ratio is checked. */
#define RATIO_FROM (1 << 20)
#define BLOCK (64 << 10)

static const char *const compressed_suffixes[] = { ".gz", ".bz2", ".xz", ".zst", NULL };
static const char *const member_suffixes[] = {
	".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst",
	".tzst", ".7z", NULL
};

struct kifu_archive {
	struct archive *a;
	char *name;                   /* the archive, for messages */
	int kind;
	struct kifu_archive_limits lim;
	const struct kifu_source *under; /* open_source: what the archive is read from */
	int fd;                       /* open_path: the file, else -1 */
	unsigned char *block;         /* libarchive's read buffer */
	struct kifu_error under_err;  /* why a read callback failed: under, the file, the limits */
	int under_code;
	int in_member;                /* member_read is reading: it checks the limits itself */
	int refused;                  /* the limits refused the current member */
	int refused_before;           /* ... the one before: what is skipped of it is not held to the ratio */
	char *member;                 /* the current member's name */
	struct kifu_source src;       /* the current member's bytes */
	long long expanded;           /* of the current member */
	long long raw_start;          /* archive bytes read before the member's header */
	long long out_start;          /* bytes out of the filters before the member's header */
	int damaged;                  /* told through a member's source: the archive ends */
	int done;
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcasecmp(s + n - k, suffix);
}

int kifu_archive_kind(const char *name)
{
	size_t i;

	for (i = 0; member_suffixes[i]; i++)
		if (ends_with(name, member_suffixes[i]))
			return KIFU_ARCHIVE_MEMBERS;
	for (i = 0; compressed_suffixes[i]; i++)
		if (ends_with(name, compressed_suffixes[i]))
			return KIFU_ARCHIVE_COMPRESSED;
	return KIFU_ARCHIVE_NONE;
}

int kifu_archive_sniff(const void *head, size_t n)
{
	const unsigned char *p = head;

	if ((n >= 4 && !memcmp(p, "PK\3\4", 4)) || (n >= 4 && !memcmp(p, "PK\5\6", 4)) ||
	    (n >= 6 && !memcmp(p, "7z\xbc\xaf\x27\x1c", 6)) ||
	    (n >= 262 && !memcmp(p + 257, "ustar", 5)))
		return KIFU_ARCHIVE_MEMBERS;
	if ((n >= 2 && p[0] == 0x1f && p[1] == 0x8b) || (n >= 3 && !memcmp(p, "BZh", 3)) ||
	    (n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6)) ||
	    (n >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4)))
		return KIFU_ARCHIVE_COMPRESSED;
	return KIFU_ARCHIVE_NONE;
}

const char *kifu_archive_inner_name(char *buf, size_t size, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; compressed_suffixes[i]; i++) {
		size_t k = strlen(compressed_suffixes[i]);

		if (ends_with(name, compressed_suffixes[i]) && n - k < size) {
			memcpy(buf, name, n - k);
			buf[n - k] = '\0';
			return buf;
		}
	}
	return name;
}

/* libarchive's message, lower-cased at the front as ours are. */
static int fail(struct kifu_error *err, int code, const char *what, struct kifu_archive *ar)
{
	const char *why = archive_error_string(ar->a);
	char low[256];

	snprintf(low, sizeof(low), "%s", why ? why : "unknown error");
	if (low[0] >= 'A' && low[0] <= 'Z' && !(low[1] >= 'A' && low[1] <= 'Z'))
		low[0] = (char)(low[0] - 'A' + 'a');
	return kifu_error_set(err, code, "%s '%s': %s", what, ar->name, low);
}

/* libarchive reads 7z only with seeking, which a stream does not allow. */
static int no_seek(struct kifu_error *err, const struct kifu_archive *ar)
{
	return kifu_error_set(err, KIFU_EIO, "cannot read '%s': a 7z archive is read from a file, "
			      "not from a stream or from inside another archive (it needs seeking)",
			      ar->name);
}

/*
 * Whether out bytes expanded since the current member's header are past
 * the limits: the archive bytes read since then, and one block more
 * (libarchive reads ahead by blocks, so part of the member may have come
 * in with what went before), against the ratio.
 */
static int over_limits(struct kifu_archive *ar, long long out, int ratio, struct kifu_error *err)
{
	long long raw = (long long)archive_filter_bytes(ar->a, -1) - ar->raw_start + BLOCK;

	if (out > ar->lim.max_member)
		return kifu_error_set(err, KIFU_ERANGE,
				      "member expands past %lld bytes: not read further (a hostile archive?)",
				      ar->lim.max_member);
	if (ratio && out > RATIO_FROM && out / raw >= ar->lim.max_ratio)
		return kifu_error_set(err, KIFU_ERANGE,
				      "member expands more than %ld:1: not read further (a hostile archive?)",
				      ar->lim.max_ratio);
	return 0;
}

/* ---- the compressed bytes, from a byte source or a file ---- */

static la_ssize_t under_read(struct archive *a, void *ctx, const void **buf)
{
	struct kifu_archive *ar = ctx;
	long got;
	int ret;

	/*
	 * What the filters gave out since the member's header (what
	 * decompressing a tar.gz gives; zip and 7z decompress inside the
	 * format, which member_read checks).
	 */
	if (!ar->in_member &&
	    (ret = over_limits(ar, (long long)archive_filter_bytes(a, 0) - ar->out_start,
			       !ar->refused_before, &ar->under_err)) < 0) {
		ar->under_code = ret;
		archive_set_error(a, -1, "%s", ar->under_err.message);
		return -1;
	}
	*buf = ar->block;
	if (ar->fd >= 0) {
		ssize_t n = read(ar->fd, ar->block, BLOCK);

		if (n < 0)
			archive_set_error(a, errno, "read error");
		return n;
	}
	got = ar->under->read(ar->under->ctx, ar->block, BLOCK, &ar->under_err);
	if (got < 0) {
		ar->under_code = (int)got;
		archive_set_error(a, -1, "%s", ar->under_err.message);
		return -1;
	}
	return got;
}

/* A file skips and seeks (7z needs seeking). */
static la_int64_t file_seek(struct archive *a, void *ctx, la_int64_t offset, int whence)
{
	struct kifu_archive *ar = ctx;
	off_t at = lseek(ar->fd, (off_t)offset, whence);

	if (at < 0)
		archive_set_error(a, errno, "seek error");
	return at < 0 ? ARCHIVE_FATAL : (la_int64_t)at;
}

static la_int64_t file_skip(struct archive *a, void *ctx, la_int64_t request)
{
	struct kifu_archive *ar = ctx;
	off_t from = lseek(ar->fd, 0, SEEK_CUR);

	(void)a;
	if (from < 0 || lseek(ar->fd, (off_t)request, SEEK_CUR) < 0)
		return 0; /* libarchive reads over it instead */
	return request;
}

static int setup(struct kifu_archive **out, const char *name, int kind,
		 const struct kifu_archive_limits *limits, struct kifu_error *err)
{
	struct kifu_archive *ar = calloc(1, sizeof(*ar));

	*out = NULL;
	if (ar)
		ar->fd = -1;
	if (!ar || !(ar->name = strdup(name)) || !(ar->a = archive_read_new()) ||
	    !(ar->block = malloc(BLOCK))) {
		kifu_archive_free(ar);
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", name);
	}
	ar->kind = kind;
	ar->lim.max_member = limits && limits->max_member > 0 ? limits->max_member
							      : KIFU_ARCHIVE_MAX_MEMBER;
	ar->lim.max_ratio = limits && limits->max_ratio > 0 ? limits->max_ratio
							    : KIFU_ARCHIVE_MAX_RATIO;
	/*
	 * Only what INTEROP.md lists: telling the format runs every bidder
	 * enabled over the decompressed start, and some of the others read
	 * far ahead (a bomb's whole content, into memory).
	 */
	archive_read_support_filter_gzip(ar->a);
	archive_read_support_filter_bzip2(ar->a);
	archive_read_support_filter_xz(ar->a);
	archive_read_support_filter_zstd(ar->a);
	archive_read_support_format_tar(ar->a);
	archive_read_support_format_zip(ar->a);
	archive_read_support_format_7zip(ar->a);
	/* a compressed file may hold a tar (games.gz): raw only when no format claims it */
	if (kind == KIFU_ARCHIVE_COMPRESSED)
		archive_read_support_format_raw(ar->a);
	*out = ar;
	return 0;
}

/* Opens ar through under_read (and a file's seeking); frees it on failure. */
static int start(struct kifu_archive **out, struct kifu_error *err)
{
	struct kifu_archive *ar = *out;
	int ret = 0;

	archive_read_set_callback_data(ar->a, ar);
	archive_read_set_read_callback(ar->a, under_read);
	if (ar->fd >= 0) {
		archive_read_set_seek_callback(ar->a, file_seek);
		archive_read_set_skip_callback(ar->a, file_skip);
	}
	if (archive_read_open1(ar->a) != ARCHIVE_OK) {
		if (ar->under_code) {
			*err = ar->under_err;
			ret = ar->under_code;
		} else {
			ret = fail(err, KIFU_EIO, "cannot read", ar);
		}
		kifu_archive_free(ar);
		*out = NULL;
	}
	return ret;
}

int kifu_archive_open_path(struct kifu_archive **out, const char *path, int kind,
			   const struct kifu_archive_limits *limits, struct kifu_error *err)
{
	int ret = setup(out, path, kind, limits, err);

	if (ret < 0)
		return ret;
	if (((*out)->fd = open(path, O_RDONLY)) < 0) {
		ret = kifu_error_set(err, KIFU_EIO, "cannot read '%s': failed to open '%s'", path, path);
		kifu_archive_free(*out);
		*out = NULL;
		return ret;
	}
	return start(out, err);
}

int kifu_archive_open_source(struct kifu_archive **out, const struct kifu_source *src,
			     const char *name, int kind, const struct kifu_archive_limits *limits,
			     struct kifu_error *err)
{
	int ret = setup(out, name, kind, limits, err);

	if (ret < 0)
		return ret;
	(*out)->under = src;
	return start(out, err);
}

/* ---- members ---- */

static long member_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct kifu_archive *ar = ctx;
	la_ssize_t got;
	int ret;

	if (ar->damaged)
		return kifu_error_set(err, KIFU_EIO, "damaged archive '%s'", ar->name);
	ar->in_member = 1;
	got = archive_read_data(ar->a, buf, n);
	ar->in_member = 0;
	if (got < 0) {
		ar->damaged = 1;
		if (ar->under_code) {
			*err = ar->under_err;
			return ar->under_code;
		}
		if (ar->under && archive_format(ar->a) == ARCHIVE_FORMAT_7ZIP)
			return no_seek(err, ar);
		return fail(err, KIFU_EIO, "damaged archive", ar);
	}
	ar->expanded += got;
	if ((ret = over_limits(ar, ar->expanded, 1, err)) < 0) {
		ar->refused = 1;
		return ret;
	}
	return (long)got;
}

int kifu_archive_next(struct kifu_archive_member *m, struct kifu_archive *ar,
		      struct kifu_error *err)
{
	struct archive_entry *e;
	int r;

	memset(m, 0, sizeof(*m));
	for (;;) {
		if (ar->done || ar->damaged)
			return 0;
		ar->raw_start = (long long)archive_filter_bytes(ar->a, -1);
		ar->out_start = (long long)archive_filter_bytes(ar->a, 0);
		/*
		 * The rest of a member refused is skipped, so that the run goes
		 * on with the next member: up to the size limit only.
		 */
		ar->refused_before = ar->refused;
		ar->refused = 0;
		r = archive_read_next_header(ar->a, &e);
		if (r == ARCHIVE_EOF) {
			ar->done = 1;
			return 0;
		}
		if (r < ARCHIVE_WARN) {
			ar->done = 1;
			if (ar->under_code) {
				*err = ar->under_err;
				return ar->under_code;
			}
			if (ar->under && archive_format(ar->a) == ARCHIVE_FORMAT_7ZIP)
				return no_seek(err, ar);
			return fail(err, KIFU_EIO, "damaged archive", ar);
		}
		m->whole = archive_format(ar->a) == ARCHIVE_FORMAT_RAW;
		if (archive_entry_filetype(e) == AE_IFREG || m->whole)
			break;
	}
	free(ar->member);
	if (m->whole) {
		char buf[4096];

		ar->member = strdup(kifu_archive_inner_name(buf, sizeof(buf), ar->name));
	} else {
		const char *p = archive_entry_pathname(e);

		ar->member = strdup(p ? p : "?");
	}
	if (!ar->member)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", ar->name);
	ar->expanded = 0;
	ar->src.read = member_read;
	ar->src.ctx = ar;
	ar->src.name = ar->member;
	m->name = ar->member;
	m->size = archive_entry_size_is_set(e) ? (long long)archive_entry_size(e) : -1;
	m->src = &ar->src;
	return 1;
}

void kifu_archive_free(struct kifu_archive *ar)
{
	if (!ar)
		return;
	if (ar->a)
		archive_read_free(ar->a);
	if (ar->fd >= 0)
		close(ar->fd);
	free(ar->block);
	free(ar->member);
	free(ar->name);
	free(ar);
}
