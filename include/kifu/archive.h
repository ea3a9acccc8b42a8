/*
 * Packed and compressed archives (INTEROP.md "Packed and compressed
 * archives"), read through libarchive: .gz .bz2 .xz .zst (one compressed
 * file), .zip .tar .tar.gz .tgz .tar.bz2 .tar.xz .tar.zst .7z (members).
 * Members are streamed one at a time as a struct kifu_source, never
 * unpacked to disk, and each is held to the expansion limits. The reading
 * pipeline (kifu/pipeline.h) is the usual user; this interface is for
 * programs that want the members themselves.
 *
 *     struct kifu_archive *ar;
 *     struct kifu_archive_member m;
 *
 *     kifu_archive_open_path(&ar, "games.zip", kifu_archive_kind("games.zip"), NULL, &err);
 *     while ((ret = kifu_archive_next(&m, ar, &err)) > 0)
 *             ... read m.src until it returns 0 ...
 *     kifu_archive_free(ar);
 */
#ifndef KIFU_ARCHIVE_H
#define KIFU_ARCHIVE_H

#include "kifu/error.h"
#include "kifu/format.h"

enum kifu_archive_kind {
	KIFU_ARCHIVE_NONE = 0,
	KIFU_ARCHIVE_COMPRESSED, /* one compressed file: games.pgn.gz */
	KIFU_ARCHIVE_MEMBERS     /* an archive of members: zip, tar (compressed or not), 7z */
};

/* The kind an input's name says (case-insensitive suffix). */
int kifu_archive_kind(const char *name);

/* The kind the first bytes of an input say (magic numbers); NONE when they say nothing. */
int kifu_archive_sniff(const void *head, size_t n);

/*
 * name without its compression suffix ("games.pgn.gz" -> "games.pgn"),
 * written to buf; name itself when it has none.
 */
const char *kifu_archive_inner_name(char *buf, size_t size, const char *name);

struct kifu_archive_limits {
	long long max_member;  /* bytes one member may expand to */
	long max_ratio;        /* expanded : compressed bytes of one member */
};

struct kifu_archive;

struct kifu_archive_member {
	const char *name;      /* as stored ("2024/r1.pgn"); the archive's inner name for COMPRESSED */
	long long size;        /* expanded bytes, -1 when the archive does not say */
	struct kifu_source *src; /* its bytes, until the next call */
	int whole;             /* the member is the whole content of a compressed file */
};

/*
 * Opens the archive at path (kind from kifu_archive_kind or _sniff; NONE
 * is taken as MEMBERS), or over a byte stream src (borrowed; a member of
 * another archive, standard input) that diagnostics call name. limits may
 * be NULL for INTEROP.md's (1 GiB, 1000:1).
 */
int kifu_archive_open_path(struct kifu_archive **out, const char *path, int kind,
			   const struct kifu_archive_limits *limits, struct kifu_error *err);
int kifu_archive_open_source(struct kifu_archive **out, const struct kifu_source *src,
			     const char *name, int kind, const struct kifu_archive_limits *limits,
			     struct kifu_error *err);

/*
 * The next regular member (directories and links are passed over):
 * returns 1 and fills *m, 0 at the end, or KIFU_EIO when the archive is
 * damaged (a bad checksum, truncated: err says which), after which it
 * returns 0. A member's source returns KIFU_ERANGE once the member expands
 * past the limits, and KIFU_EIO when the archive is damaged inside it
 * (then the next call returns 0: the damage has been told).
 */
int kifu_archive_next(struct kifu_archive_member *m, struct kifu_archive *ar,
		      struct kifu_error *err);

void kifu_archive_free(struct kifu_archive *ar);

#endif
