/*
 * Finding a player by the name a user typed (--player NAME, /player/NAME,
 * the player filter of every tool and page): the stored name itself where
 * one is exactly NAME, else the stored name equal to it without regard to
 * case, else none, with up to three nearest stored names as hints. The
 * store may hold hundreds of thousands of players: SQL narrows the names
 * (a case-folded prefix or part; about its length with its first letter
 * or its last three), each query with a LIMIT, and only that bounded set
 * is folded and ranked here. Case is folded in C, not by the backend's lower(), so that
 * SQLite (ASCII only) and PostgreSQL (the locale's) find the same names.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/stats.h"
#include "kifu/text.h"
#include "stats/stats_impl.h"

/* Names each narrowing query may hand over (the work stays bounded), as SQL text. */
#define FIND_LIMIT "400"
/* The longest name folded and compared (longer ones are never a hint). */
#define FIND_NAME_MAX 1024

/* The lower case of code point c: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals. */
static uint32_t fold_cp(uint32_t c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7) ||
	    (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
		return c + 0x20;
	if (c >= 0x400 && c <= 0x40F)
		return c + 0x50;
	/* Latin Extended-A: capital, small in pairs, the pairing shifted by one in two runs */
	if ((c >= 0x100 && c <= 0x137 && !(c & 1) && c != 0x130) ||
	    (c >= 0x14A && c <= 0x177 && !(c & 1)) ||
	    (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && (c & 1)))
		return c + 1;
	if (c == 0x178)
		return 0xFF;
	return c;
}

/* s case-folded into out (size bytes, NUL-terminated); -1 when it does not fit. */
int kifu_stats_fold_(char *out, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		uint32_t c = *p;
		int len = 1, k;

		/* a well-formed 2-byte sequence is folded; anything else is copied as it is */
		if ((c & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
			c = ((c & 0x1F) << 6) | (p[1] & 0x3F);
			len = 2;
		}
		if (len == 2 && c >= 0x80) {
			c = fold_cp(c);
			if (n + 3 > size)
				return -1;
			out[n++] = (char)(0xC0 | (c >> 6));
			out[n++] = (char)(0x80 | (c & 0x3F));
		} else {
			if (n + (size_t)len + 1 > size)
				return -1;
			/* ASCII folded; a stray byte of a longer or broken sequence kept */
			for (k = 0; k < len; k++)
				out[n++] = (char)(p[k] < 0x80 ? fold_cp(p[k]) : p[k]);
		}
		p += len;
	}
	out[n] = '\0';
	return 0;
}

/* The number of code points of s (as SQL's length() counts a text). */
static long chars(const char *s)
{
	long n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

struct hint {
	char *name;
	size_t dist;
};

struct finder {
	struct kifu_store *st;
	struct kifu_error *err;
	const char *name;
	char folded[FIND_NAME_MAX];
	char *exact;            /* the one name equal without regard to case, first in byte order */
	struct hint best[3];    /* the nearest, nearest first */
	int nbest;
};

/* How near candidate is: its edit distance from the name, folded; SIZE_MAX when not near. */
static size_t nearness(const struct finder *fd, const char *folded)
{
	size_t d = kifu_edit_distance(fd->folded, folded), n = strlen(fd->folded);
	size_t allowed = n / 3 > KIFU_NEAR_MAX ? n / 3 : KIFU_NEAR_MAX;

	if (d <= allowed && d < n)
		return d;
	/* a part of the name (three letters or more): near by what it lacks */
	if (n >= 3 && strstr(folded, fd->folded))
		return strlen(folded) - n + allowed;
	return SIZE_MAX;
}

static int offer(struct finder *fd, const char *name)
{
	char folded[FIND_NAME_MAX];
	size_t d;
	int k, i;

	if (!strcmp(name, fd->name)) {
		/* the name itself (found by the first query, however long) */
		free(fd->exact);
		fd->exact = strdup(name);
		return fd->exact ? 0 : KIFU_ENOMEM;
	}
	if (kifu_stats_fold_(folded, sizeof(folded), name) < 0)
		return 0;
	if (!strcmp(folded, fd->folded)) {
		if (!fd->exact || strcmp(name, fd->exact) < 0) {
			char *copy = strdup(name);

			if (!copy)
				return KIFU_ENOMEM;
			free(fd->exact);
			fd->exact = copy;
		}
		return 0;
	}
	d = nearness(fd, folded);
	if (d == SIZE_MAX)
		return 0;
	for (k = 0; k < fd->nbest; k++)
		if (!strcmp(fd->best[k].name, name))
			return 0;
	for (k = 0; k < fd->nbest; k++)
		if (d < fd->best[k].dist || (d == fd->best[k].dist && strcmp(name, fd->best[k].name) < 0))
			break;
	if (k == 3)
		return 0;
	if (fd->nbest == 3)
		free(fd->best[--fd->nbest].name);
	for (i = fd->nbest; i > k; i--)
		fd->best[i] = fd->best[i - 1];
	fd->best[k].name = strdup(name);
	fd->best[k].dist = d;
	fd->nbest++;
	return fd->best[k].name ? 0 : KIFU_ENOMEM;
}

/* A parameter of a narrowing query: text, or a whole number when text is NULL. */
struct param {
	const char *text;
	long n;
};

/* Offers each name sql gives, its parameters ?1 .. ?np from p. */
static int scan(struct finder *fd, const char *sql, const struct param *p, int np)
{
	struct kifu_stmt *s = NULL;
	int ret, rc = 0, k;

	ret = kifu_db_prepare_(&s, fd->st, sql, fd->err);
	if (ret < 0)
		return ret;
	for (k = 0; k < np && rc >= 0; k++)
		rc = p[k].text ? kifu_db_bind_text_(s, k + 1, p[k].text, -1)
			       : kifu_db_bind_int64_(s, k + 1, p[k].n);
	if (rc < 0) {
		kifu_db_finalize_(s);
		return kifu_error_set(fd->err, rc, "cannot look up players: %s", kifu_strerror(rc));
	}
	while (ret == 0 && (rc = kifu_db_step_(s)) == KIFU_DB_ROW)
		ret = offer(fd, kifu_stats_col_text_(s, 0));
	if (ret == KIFU_ENOMEM)
		ret = kifu_error_set(fd->err, KIFU_ENOMEM, "out of memory");
	else if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_search_fail_db_(fd->st, "cannot look up players", fd->err);
	kifu_db_finalize_(s);
	return ret;
}

/* text with LIKE's %, _ and \ escaped (ESCAPE '\'), then suffix. */
static int like_text(struct kifu_buf *out, const char *text, const char *suffix)
{
	for (; *text; text++) {
		if (*text == '%' || *text == '_' || *text == '\\')
			kifu_buf_putc(out, '\\');
		kifu_buf_putc(out, *text);
	}
	kifu_buf_puts(out, suffix);
	return out->failed ? KIFU_ENOMEM : 0;
}

/* The first character of s (UTF-8, up to 4 bytes) into out, with its other case into other. */
static void first_char(char *out, char *other, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
	uint32_t c = *p, k;

	len = strnlen(s, len);
	memcpy(out, s, len);
	out[len] = '\0';
	strcpy(other, out);
	if (len == 2)
		c = ((c & 0x1F) << 6) | (p[1] & 0x3F);
	else if (len != 1)
		return;
	/* the capital folding to c, if any (fold_cp's ranges are small: a search is cheap) */
	for (k = c > 0x60 ? c - 0x60 : 0; k < c; k++)
		if (fold_cp(k) == c) {
			if (k < 0x80) {
				other[0] = (char)k;
				other[1] = '\0';
			} else {
				other[0] = (char)(0xC0 | (k >> 6));
				other[1] = (char)(0x80 | (k & 0x3F));
				other[2] = '\0';
			}
			return;
		}
	c = fold_cp(c);
	if (c < 0x80) {
		other[0] = (char)c;
	} else if (c < 0x800) {
		other[0] = (char)(0xC0 | (c >> 6));
		other[1] = (char)(0x80 | (c & 0x3F));
	}
}

int kifu_stats_find_player(char **out, struct kifu_store *st, const char *name,
			   struct kifu_error *err)
{
	struct finder fd;
	struct kifu_buf like = KIFU_BUF_INIT;
	struct param p[5];
	char first[8], other[8];
	long n = chars(name), spread = KIFU_NEAR_MAX + chars(name) / 3;
	int ret, k, ascii = 1;

	*out = NULL;
	memset(&fd, 0, sizeof(fd));
	fd.st = st;
	fd.err = err;
	fd.name = name;
	for (k = 0; name[k]; k++)
		ascii &= (unsigned char)name[k] < 0x80;
	if (!name[0] || kifu_stats_fold_(fd.folded, sizeof(fd.folded), name) < 0)
		fd.folded[0] = '\0'; /* nothing to fold or hint from: the name itself, or none */
	/* 1. exactly the name */
	p[0].text = name;
	ret = scan(&fd, "SELECT name FROM players WHERE name = ?1", p, 1);
	if (ret < 0)
		goto out;
	if (fd.exact && !strcmp(fd.exact, name)) {
		*out = fd.exact;
		fd.exact = NULL;
		goto out;
	}
	if (!fd.folded[0]) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no player '%s'", name);
		goto out;
	}
	/* 2. equal without regard to case: lower() folds ASCII on every backend; a name with
	 * other letters also among those of its length and first letter (either case) */
	p[0].text = fd.folded;
	ret = scan(&fd, "SELECT name FROM players WHERE lower(name) = ?1", p, 1);
	if (ret == 0 && !ascii) {
		first_char(first, other, name);
		p[0].text = first;
		p[1].text = other;
		p[2].text = NULL;
		p[2].n = n;
		ret = scan(&fd, "SELECT name FROM players WHERE substr(name, 1, 1) IN (?1, ?2) AND "
				"length(name) = ?3 ORDER BY name LIMIT " FIND_LIMIT, p, 3);
	}
	if (ret < 0 || fd.exact)
		goto out;
	/* 3. hints: names it begins or is a part of, then names of about its length that share
	 * its first character (either case); each query's names bounded */
	like_text(&like, fd.folded, "%");
	p[0].text = like.data;
	ret = like.failed ? kifu_error_set(err, KIFU_ENOMEM, "out of memory")
			  : scan(&fd, "SELECT name FROM players WHERE lower(name) LIKE ?1 ESCAPE '\\' "
				      "ORDER BY length(name), name LIMIT " FIND_LIMIT, p, 1);
	if (ret == 0 && n >= 3) {
		kifu_buf_reset(&like);
		kifu_buf_putc(&like, '%');
		like_text(&like, fd.folded, "%");
		p[0].text = like.data;
		ret = like.failed ? kifu_error_set(err, KIFU_ENOMEM, "out of memory")
				  : scan(&fd, "SELECT name FROM players WHERE lower(name) LIKE ?1 "
					      "ESCAPE '\\' ORDER BY length(name), name LIMIT "
					      FIND_LIMIT, p, 1);
	}
	if (ret == 0) {
		first_char(first, other, name);
		p[0].text = first;
		p[1].text = other;
		p[2].text = NULL;
		p[2].n = n - spread;
		p[3].text = NULL;
		p[3].n = n + spread;
		ret = scan(&fd, "SELECT name FROM players WHERE substr(name, 1, 1) IN (?1, ?2) AND "
				"length(name) BETWEEN ?3 AND ?4 ORDER BY name LIMIT " FIND_LIMIT, p, 4);
	}
	if (ret == 0 && n >= 6) {
		/* a slip at the start (an accent, a capital): names of about its length that end
		 * as it does (its last three characters) */
		const char *end = fd.folded + strlen(fd.folded);
		int c;

		for (c = 0; c < 3 && end > fd.folded;)
			c += ((unsigned char)*--end & 0xC0) != 0x80;
		kifu_buf_reset(&like);
		kifu_buf_putc(&like, '%');
		like_text(&like, end, "");
		p[0].text = like.data;
		p[1].text = NULL;
		p[1].n = n - spread;
		p[2].text = NULL;
		p[2].n = n + spread;
		ret = like.failed ? kifu_error_set(err, KIFU_ENOMEM, "out of memory")
				  : scan(&fd, "SELECT name FROM players WHERE lower(name) LIKE ?1 "
					      "ESCAPE '\\' AND length(name) BETWEEN ?2 AND ?3 "
					      "ORDER BY name LIMIT " FIND_LIMIT, p, 3);
	}
	if (ret < 0)
		goto out;
	if (fd.nbest == 0) {
		ret = kifu_error_set(err, KIFU_ENOTFOUND, "no player '%s'", name);
	} else {
		struct kifu_buf msg = KIFU_BUF_INIT;

		kifu_buf_printf(&msg, "no player '%s' (did you mean ", name);
		for (k = 0; k < fd.nbest; k++)
			kifu_buf_printf(&msg, "%s'%s'", !k ? "" : k + 1 < fd.nbest ? ", " : " or ",
					fd.best[k].name);
		kifu_buf_puts(&msg, "?)");
		ret = kifu_error_set(err, msg.failed ? KIFU_ENOMEM : KIFU_ENOTFOUND, "%s",
				     msg.failed ? "out of memory" : msg.data);
		kifu_buf_release(&msg);
	}
out:
	if (ret == 0 && !*out && fd.exact) {
		*out = fd.exact;
		fd.exact = NULL;
	}
	for (k = 0; k < fd.nbest; k++)
		free(fd.best[k].name);
	free(fd.exact);
	kifu_buf_release(&like);
	return ret;
}

int kifu_stats_match_player(char **spelling, struct kifu_filter *f, struct kifu_store *st,
			    struct kifu_error *err)
{
	int ret;

	*spelling = NULL;
	if (!f || !f->player)
		return 0;
	ret = kifu_stats_find_player(spelling, st, f->player, err);
	if (ret == 0)
		f->player = *spelling;
	return ret;
}
