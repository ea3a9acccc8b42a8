/*
 * The statement layer (lib/store/db.h, private to libkifu) over the
 * store's backend: each call goes to the backend's function of the same
 * name (store_impl.h), so that code above it never knows whether SQLite
 * or PostgreSQL answers.
 * Besides dispatching, it lengthens NUL-terminated text, looks named
 * queries up, words errors the same way for every backend, and sends the
 * BEGIN of a batch that waits for its first statement (st->tx_pending: a
 * game_tx backend's batch begins only when something is written in it).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/date.h"
#include "store/store_impl.h"

const char *kifu_db_backend_(const struct kifu_store *st)
{
	return st->be->name;
}

int kifu_db_prepare_(struct kifu_stmt **out, struct kifu_store *st, const char *sql,
		    struct kifu_error *err)
{
	int ret = st->be->prepare(out, st, sql);

	if (ret < 0) {
		*out = NULL;
		return kifu_db_fail_(st, "cannot prepare a statement", err);
	}
	return 0;
}

const char *kifu_db_sql_(const struct kifu_store *st, const char *name)
{
	const struct kifu_db_query *q;

	for (q = st->be->queries; q && q->name; q++)
		if (!strcmp(q->name, name))
			return q->sql;
	return NULL;
}

int kifu_db_prepare_named_(struct kifu_stmt **out, struct kifu_store *st, const char *name,
			  struct kifu_error *err)
{
	const char *sql = kifu_db_sql_(st, name);

	if (!sql) {
		*out = NULL;
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_ERROR, "database '%s': the %s backend has no query '%s'",
				      st->path, st->be->name, name);
	}
	return kifu_db_prepare_(out, st, sql, err);
}

int kifu_db_json_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		    const char *index)
{
	st->be->json_at(out, array, index);
	return out->failed ? KIFU_ENOMEM : 0;
}

int kifu_db_hash_at_(struct kifu_buf *out, const struct kifu_store *st, const char *array,
		     const char *index)
{
	if (st->be->hash_at && st->version >= 7)
		st->be->hash_at(out, array, index);
	else
		st->be->json_at(out, array, index);
	return out->failed ? KIFU_ENOMEM : 0;
}

const char *kifu_db_game_data_(const struct kifu_store *st)
{
	return st->version >= 7 ? "game_data" : "game_moves";
}

void kifu_db_finalize_(struct kifu_stmt *s)
{
	if (s)
		s->st->be->finalize(s);
}

int kifu_db_bind_int64_(struct kifu_stmt *s, int i, int64_t v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_int_(struct kifu_stmt *s, int i, int v)
{
	return s->st->be->bind_int64(s, i, v);
}

int kifu_db_bind_double_(struct kifu_stmt *s, int i, double v)
{
	return s->st->be->bind_double(s, i, v);
}

int kifu_db_bind_null_(struct kifu_stmt *s, int i)
{
	return s->st->be->bind_null(s, i);
}

static int bind_text(struct kifu_stmt *s, int i, const char *text, long len, int copy)
{
	if (!text)
		return s->st->be->bind_null(s, i);
	return s->st->be->bind_text(s, i, text, len < 0 ? strlen(text) : (size_t)len, copy);
}

int kifu_db_bind_text_(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 1);
}

int kifu_db_bind_text_static_(struct kifu_stmt *s, int i, const char *text, long len)
{
	return bind_text(s, i, text, len, 0);
}

int kifu_db_bind_blob_(struct kifu_stmt *s, int i, const void *data, size_t len)
{
	return s->st->be->bind_blob(s, i, data ? data : "", data ? len : 0);
}

int kifu_db_begin_pending_(struct kifu_store *st)
{
	const char *sql = kifu_db_sql_(st, "begin");

	st->tx_pending = 0;
	return st->be->exec(st, sql);
}

int kifu_db_step_(struct kifu_stmt *s)
{
	if (s->st->tx_pending) {
		int ret = kifu_db_begin_pending_(s->st);

		if (ret < 0)
			return ret;
	}
	return s->st->be->step(s);
}

void kifu_db_reset_(struct kifu_stmt *s)
{
	s->st->be->reset(s);
}

int kifu_db_column_count_(struct kifu_stmt *s)
{
	return s->st->be->column_count(s);
}

int kifu_db_column_is_null_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_is_null(s, i);
}

int64_t kifu_db_column_int64_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_int64(s, i);
}

int kifu_db_column_int_(struct kifu_stmt *s, int i)
{
	return (int)s->st->be->column_int64(s, i);
}

double kifu_db_column_double_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_double(s, i);
}

const char *kifu_db_column_text_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_text(s, i);
}

const void *kifu_db_column_blob_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_blob(s, i);
}

size_t kifu_db_column_bytes_(struct kifu_stmt *s, int i)
{
	return s->st->be->column_bytes(s, i);
}

int kifu_db_exec_(struct kifu_store *st, const char *sql)
{
	if (st->tx_pending) {
		int ret = kifu_db_begin_pending_(st);

		if (ret < 0)
			return ret;
	}
	return st->be->exec(st, sql);
}

int kifu_db_exec_nowait_(struct kifu_store *st, const char *sql, int wait)
{
	/* Nothing sent yet, or nothing ever sent without waiting: no answer to read. */
	if (!sql && (st->tx_pending || !st->be->exec_nowait))
		return 0;
	if (st->tx_pending || !st->be->exec_nowait)
		return kifu_db_exec_(st, sql);
	return st->be->exec_nowait(st, sql, wait);
}

long long kifu_db_changes_(struct kifu_store *st)
{
	return st->be->changes(st);
}

int kifu_db_query_int_(long long *out, struct kifu_store *st, const char *sql,
		      struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*out = 0;
	ret = kifu_db_prepare_(&s, st, sql, err);
	if (ret < 0)
		return ret;
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW)
		*out = kifu_db_column_int64_(s, 0);
	else if (rc < 0)
		ret = kifu_db_fail_(st, "cannot read", err);
	kifu_db_finalize_(s);
	return ret;
}

int kifu_db_has_(int *found, struct kifu_store *st, const char *name, struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	int ret, rc;

	*found = 0;
	ret = kifu_db_prepare_named_(&s, st, "has", err);
	if (ret < 0)
		return ret;
	kifu_db_bind_text_static_(s, 1, name, -1);
	rc = kifu_db_step_(s);
	*found = rc == KIFU_DB_ROW;
	if (rc < 0)
		ret = kifu_db_fail_(st, "cannot read the schema", err);
	kifu_db_finalize_(s);
	return ret;
}

int kifu_db_errcode_(struct kifu_store *st)
{
	return st->conn ? st->be->errcode(st) : KIFU_EDB;
}

const char *kifu_db_errmsg_(struct kifu_store *st)
{
	return st->conn ? st->be->errmsg(st) : "not connected";
}

int kifu_db_retryable_(struct kifu_store *st)
{
	return st->conn && st->be->retryable(st);
}

int kifu_db_record_error_(struct kifu_store *st)
{
	return st->conn && st->be->record_error && st->be->record_error(st);
}

int kifu_db_cannot_write_(struct kifu_store *st)
{
	return st->conn && st->be->cannot_write(st);
}

int kifu_db_fail_(struct kifu_store *st, const char *what, struct kifu_error *err)
{
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, kifu_db_errcode_(st), "database '%s': %s: %s", st->path, what,
			      kifu_db_errmsg_(st));
}

int kifu_db_damaged_(struct kifu_store *st, struct kifu_error *err, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	st->damaged++;
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, KIFU_EDB, "database '%s' is damaged: %s", st->path, why);
}

/*
 * Fills err as damage: "WHERE is 'VALUE', not WANT" (the value clipped and
 * its control bytes shown as '?': it is what a damaged file holds).
 */
static int damaged_value(struct kifu_stmt *s, int i, struct kifu_error *err, const char *want,
			 const char *where)
{
	const char *v = kifu_db_column_text_(s, i);
	char shown[48];
	size_t k;

	if (!v)
		return kifu_db_damaged_(s->st, err, "%s is NULL, not %s", where, want);
	for (k = 0; v[k] && k < 40; k++)
		shown[k] = (unsigned char)v[k] < 0x20 || v[k] == 0x7f ? '?' : v[k];
	/* clipped between two UTF-8 characters, not inside one */
	while (v[k] && k > 0 && ((unsigned char)v[k] & 0xc0) == 0x80)
		k--;
	shown[k] = '\0';
	return kifu_db_damaged_(s->st, err, "%s is '%s%s', not %s", where, shown,
				v[k] ? "..." : "", want);
}

/*
 * Whether column i is a whole number in [min, max] (into *out): an
 * integer as the backend holds it, else its text in decimal.
 */
static int whole_ok(long long *out, struct kifu_stmt *s, int i, long long min, long long max)
{
	const char *v;
	char *end;
	int64_t x;
	long long n;

	/* (what a report reads row after row: no integer made text to be parsed back) */
	if (s->st->be->column_integer && s->st->be->column_integer(s, i, &x)) {
		if (x < min || x > max)
			return 0;
		*out = x;
		return 1;
	}
	v = kifu_db_column_text_(s, i);
	if (v && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))) {
		errno = 0;
		n = strtoll(v, &end, 10);
		if (!*end && errno == 0 && end != v && n >= min && n <= max) {
			*out = n;
			return 1;
		}
	}
	return 0;
}

int kifu_db_column_whole_(long long *out, struct kifu_stmt *s, int i, long long min, long long max,
			  struct kifu_error *err, const char *fmt, ...)
{
	char want[96], where[256];
	va_list ap;
	int ret;

	if (whole_ok(out, s, i, min, max))
		return 0;
	if (max == LLONG_MAX)
		snprintf(want, sizeof(want), "a whole number of %lld or more", min);
	else
		snprintf(want, sizeof(want), "a whole number from %lld to %lld", min, max);
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	ret = damaged_value(s, i, err, want, where);
	*out = 0;
	return ret;
}

int kifu_db_column_real_(double *out, struct kifu_stmt *s, int i, double min, double max,
			 struct kifu_error *err, const char *fmt, ...)
{
	const char *v = kifu_db_column_text_(s, i);
	char want[96], where[256], *end;
	va_list ap;
	double x;
	int ret;

	/* The text says what the value is (not text, NULL); the exact value is the column's. */
	if (v && *v && !strchr(" \t\n\r\f\v", v[0])) {
		errno = 0;
		x = strtod(v, &end);
		if (!*end && isfinite(x)) {
			/*
			 * A rounding's worth past a bound is the writer's arithmetic
			 * (a won position's score summed to 1.0000000000000002, which
			 * SQLite's text shows as 1.0), not damage: clamped.
			 */
			x = kifu_db_column_double_(s, i);
			if (isfinite(x) && x >= min - 1e-9 && x <= max + 1e-9) {
				*out = x < min ? min : x > max ? max : x;
				return 0;
			}
		}
	}
	snprintf(want, sizeof(want), "a number from %g to %g", min, max);
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	ret = damaged_value(s, i, err, want, where);
	*out = 0;
	return ret;
}

int kifu_db_sum_(long long *sum, long long v, struct kifu_store *st, struct kifu_error *err,
		 const char *fmt, ...)
{
	char where[256];
	va_list ap;

	if (!__builtin_add_overflow(*sum, v, sum))
		return 0;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	return kifu_db_damaged_(st, err, "%s add up past 2^63", where);
}

int kifu_db_column_date_(struct kifu_stmt *s, int i, int i_first, struct kifu_error *err,
			 const char *fmt, ...)
{
	const char *date = kifu_db_column_text_(s, i);
	const char *first = i_first >= 0 ? kifu_db_column_text_(s, i_first) : NULL;
	char day[11], where[256];
	const char *why = NULL;
	va_list ap;

	if (!date && !first)
		return 0;
	if (!date)
		why = "no date but a first day";
	else if (kifu_date_first_day(day, date, NULL) < 0)
		why = "a calendar date as records write it";
	else if (i_first >= 0 && (!first || strcmp(first, day)))
		why = "the date its first day (date_first) says";
	if (!why)
		return 0;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	if (!date)
		return kifu_db_damaged_(s->st, err, "%s has %s", where, why);
	return damaged_value(s, i, err, why, where);
}

int kifu_db_column_seen_(struct kifu_stmt *s, int i, struct kifu_error *err, const char *fmt, ...)
{
	const char *seen = kifu_db_column_text_(s, i);
	char day[11], where[256];
	va_list ap;

	if (!seen || (strlen(seen) > 11 && seen[10] == ' ' &&
		      kifu_date_first_day(day, seen + 11, NULL) == 0 && !memcmp(seen, day, 10)))
		return 0;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	return damaged_value(s, i, err, "a first day and a calendar date", where);
}

int kifu_db_column_counts_(long long *v, struct kifu_stmt *s, int i, int n,
			   const char *const *names, int exact, struct kifu_error *err,
			   const char *fmt, ...)
{
	char where[256];
	long long sum = 0;
	va_list ap;
	int k, ret = 0;

	/* The common case, quietly: whole counts that add up (the words only for damage). */
	for (k = 0; k < n && whole_ok(&v[k], s, i + k, k == 0, KIFU_DB_COUNT_MAX); k++)
		if (k && __builtin_add_overflow(sum, v[k], &sum))
			break;
	if (k == n && (exact ? sum == v[0] : sum <= v[0]))
		return 0;
	sum = 0;
	va_start(ap, fmt);
	vsnprintf(where, sizeof(where), fmt, ap);
	va_end(ap);
	for (k = 0; k < n && ret == 0; k++)
		ret = kifu_db_column_whole_(&v[k], s, i + k, k == 0, KIFU_DB_COUNT_MAX, err, "%s: %s",
					    where, names[k]);
	for (k = 1; k < n && ret == 0; k++)
		ret = kifu_db_sum_(&sum, v[k], s->st, err, "%s: the %s", where, names[0]);
	if (ret == 0 && (exact ? sum != v[0] : sum > v[0]))
		ret = kifu_db_damaged_(s->st, err, "%s: results of %lld %s for %lld %s", where, sum,
				       names[0], v[0], names[0]);
	return ret;
}
