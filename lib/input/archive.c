/*
 * Archives and compressed files through libarchive (include/kifu/archive.h):
 * telling them by name and by magic number, opening them over a path (with
 * seeking, which 7z needs) or over any byte source (standard input, a member
 * of another archive), and streaming their regular members one by one, each
 * held to the expansion limits. libarchive does all the parsing and
 * decompression; this file only drives it, so it parses nothing itself.
 */
#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	unsigned char *block;         /* open_source: libarchive's read buffer */
	struct kifu_error under_err;  /* why under failed */
	int under_code;
	char *member;                 /* the current member's name */
	struct kifu_source src;       /* the current member's bytes */
	long long expanded;           /* of the current member */
	long long raw_start;          /* archive bytes read before the member's header */
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

/* ---- reading an archive from a byte source ---- */

static la_ssize_t under_read(struct archive *a, void *ctx, const void **buf)
{
	struct kifu_archive *ar = ctx;
	long got;

	*buf = ar->block;
	got = ar->under->read(ar->under->ctx, ar->block, BLOCK, &ar->under_err);
	if (got < 0) {
		ar->under_code = (int)got;
		archive_set_error(a, -1, "%s", ar->under_err.message);
		return -1;
	}
	return got;
}

static int setup(struct kifu_archive **out, const char *name, int kind,
		 const struct kifu_archive_limits *limits, struct kifu_error *err)
{
	struct kifu_archive *ar = calloc(1, sizeof(*ar));

	*out = NULL;
	if (!ar || !(ar->name = strdup(name)) || !(ar->a = archive_read_new())) {
		if (ar)
			free(ar->name);
		free(ar);
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", name);
	}
	ar->kind = kind;
	ar->lim.max_member = limits && limits->max_member > 0 ? limits->max_member
							      : KIFU_ARCHIVE_MAX_MEMBER;
	ar->lim.max_ratio = limits && limits->max_ratio > 0 ? limits->max_ratio
							    : KIFU_ARCHIVE_MAX_RATIO;
	archive_read_support_filter_all(ar->a);
	archive_read_support_format_all(ar->a);
	/* a compressed file may hold a tar (games.gz): raw only when no format claims it */
	if (kind == KIFU_ARCHIVE_COMPRESSED)
		archive_read_support_format_raw(ar->a);
	*out = ar;
	return 0;
}

int kifu_archive_open_path(struct kifu_archive **out, const char *path, int kind,
			   const struct kifu_archive_limits *limits, struct kifu_error *err)
{
	int ret = setup(out, path, kind, limits, err);

	if (ret < 0)
		return ret;
	if (archive_read_open_filename((*out)->a, path, BLOCK) != ARCHIVE_OK) {
		ret = fail(err, KIFU_EIO, "cannot read", *out);
		kifu_archive_free(*out);
		*out = NULL;
	}
	return ret;
}

int kifu_archive_open_source(struct kifu_archive **out, const struct kifu_source *src,
			     const char *name, int kind, const struct kifu_archive_limits *limits,
			     struct kifu_error *err)
{
	struct kifu_archive *ar;
	int ret = setup(out, name, kind, limits, err);

	if (ret < 0)
		return ret;
	ar = *out;
	ar->under = src;
	ar->block = malloc(BLOCK);
	if (!ar->block) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", name);
	} else if (archive_read_open2(ar->a, ar, NULL, under_read, NULL, NULL) != ARCHIVE_OK) {
		if (ar->under_code) {
			*err = ar->under_err;
			ret = ar->under_code;
		} else {
			ret = fail(err, KIFU_EIO, "cannot read", ar);
		}
	}
	if (ret < 0) {
		kifu_archive_free(ar);
		*out = NULL;
	}
	return ret;
}

/* ---- members ---- */

static long member_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct kifu_archive *ar = ctx;
	long long raw;
	la_ssize_t got;

	if (ar->damaged)
		return kifu_error_set(err, KIFU_EIO, "damaged archive '%s'", ar->name);
	got = archive_read_data(ar->a, buf, n);
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
	if (ar->expanded > ar->lim.max_member)
		return kifu_error_set(err, KIFU_ERANGE,
				      "member expands past %lld bytes: not read further (a hostile archive?)",
				      ar->lim.max_member);
	/*
	 * The archive bytes read since the member's header was asked for, and
	 * one block more: libarchive reads ahead by blocks, so part of the
	 * member may have come in with what went before.
	 */
	raw = (long long)archive_filter_bytes(ar->a, -1) - ar->raw_start + BLOCK;
	if (ar->expanded > RATIO_FROM && ar->expanded / raw >= ar->lim.max_ratio)
		return kifu_error_set(err, KIFU_ERANGE,
				      "member expands more than %ld:1: not read further (a hostile archive?)",
				      ar->lim.max_ratio);
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
	free(ar->block);
	free(ar->member);
	free(ar->name);
	free(ar);
}
