/*
 * Dates as records and filters write them: YYYY, YYYY-MM or YYYY-MM-DD,
 * a partial date counting as its first day (how the store orders and
 * filters games, and how tools check a --since or --until).
 */
#ifndef KIFU_DATE_H
#define KIFU_DATE_H

#include "kifu/error.h"

/*
 * The one rule for dates, a record's and a filter's alike: YYYY, YYYY-MM or
 * YYYY-MM-DD (*y, *m, *d; 1 for a part not written) that is a calendar date
 * (year 0001 on). Returns 0, KIFU_EPARSE for another shape, KIFU_ERANGE for
 * a shape that names no day ('0000', '2023-02-30').
 */
int kifu_date_parse(int *y, int *m, int *d, const char *date);

/*
 * Normalises a date as written in a record or a filter (YYYY, YYYY-MM or
 * YYYY-MM-DD, a real calendar date) to its first day "YYYY-MM-DD" in out
 * (11 bytes). Returns 0 or KIFU_EPARSE.
 */
int kifu_date_first_day(char *out, const char *date, struct kifu_error *err);

#endif
