/*
 * Dates as records and filters write them: YYYY, YYYY-MM or YYYY-MM-DD,
 * a record's partial date counting as its first day (how the store orders
 * and filters games, and how tools check a --since or --until); a filter's
 * partial date covers its whole period (CLI.md: --since 2024-06 from 1
 * June, --until 2024-06 to 30 June).
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

/*
 * The same date's last day "YYYY-MM-DD" in out (11 bytes): 31 December of a
 * year, the last day of a month (29 February in a leap year), a full date
 * itself. What a filter's end (until) compares records' first days with,
 * so that a partial until covers its whole period. Returns 0 or KIFU_EPARSE.
 */
int kifu_date_last_day(char *out, const char *date, struct kifu_error *err);

#endif
