/*
 * Dates as records and filters write them (include/kifu/date.h): checked
 * against the calendar and normalised to their first day, the form the
 * store keeps in games.date_first and compares filters with, or, for the
 * end of a filter's period (--until), to their last day.
 */
#include <stdio.h>
#include <string.h>

#include "kifu/date.h"

static int digits(const char *s, int n)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days of each month in a common year. */
static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

int kifu_date_parse(int *y, int *m, int *d, const char *date)
{
	size_t n = date ? strlen(date) : 0;
	int leap;

	*m = *d = 1;
	*y = n >= 4 ? digits(date, 4) : -1;
	if (n == 7 || n == 10) {
		*m = date[4] == '-' ? digits(date + 5, 2) : -1;
		if (n == 10)
			*d = date[7] == '-' ? digits(date + 8, 2) : -1;
	} else if (n != 4) {
		*y = -1;
	}
	if (*y < 0 || *m < 0 || *d < 0)
		return KIFU_EPARSE;
	leap = *y % 4 == 0 && (*y % 100 != 0 || *y % 400 == 0);
	if (*y < 1 || *m < 1 || *m > 12 || *d < 1 || *d > mdays[*m - 1] + (*m == 2 && leap))
		return KIFU_ERANGE;
	return 0;
}

/* "%04u-%02u-%02u" (four digits of year at most), without printf: a search checks every game's */
static void put_day(char *out, int y, int m, int d)
{
	out[0] = (char)('0' + y / 1000 % 10);
	out[1] = (char)('0' + y / 100 % 10);
	out[2] = (char)('0' + y / 10 % 10);
	out[3] = (char)('0' + y % 10);
	out[4] = '-';
	out[5] = (char)('0' + m / 10 % 10);
	out[6] = (char)('0' + m % 10);
	out[7] = '-';
	out[8] = (char)('0' + d / 10 % 10);
	out[9] = (char)('0' + d % 10);
	out[10] = '\0';
}

/* kifu_date_parse with the message a filter's or a record's date gets. */
static int parse(int *y, int *m, int *d, const char *date, struct kifu_error *err)
{
	int ret = kifu_date_parse(y, m, d, date);

	if (ret == KIFU_ERANGE)
		return kifu_error_set(err, KIFU_EPARSE, "invalid date '%s': not a calendar date",
				      date);
	if (ret < 0)
		return kifu_error_set(err, KIFU_EPARSE,
				      "invalid date '%s': expected YYYY, YYYY-MM or YYYY-MM-DD",
				      date ? date : "");
	return 0;
}

int kifu_date_first_day(char *out, const char *date, struct kifu_error *err)
{
	int y, m, d, ret = parse(&y, &m, &d, date, err);

	if (ret == 0)
		put_day(out, y, m, d);
	return ret;
}

int kifu_date_last_day(char *out, const char *date, struct kifu_error *err)
{
	size_t n = date ? strlen(date) : 0;
	int y, m, d, leap, ret = parse(&y, &m, &d, date, err);

	if (ret < 0)
		return ret;
	/* a year ends on 31 December, a month on its own last day (parse checked the shape) */
	if (n == 4)
		m = 12;
	if (n == 4 || n == 7) {
		leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
		d = mdays[m - 1] + (m == 2 && leap);
	}
	put_day(out, y, m, d);
	return 0;
}
