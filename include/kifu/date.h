/*
 * Dates as records and filters write them: YYYY, YYYY-MM or YYYY-MM-DD,
 * a partial date counting as its first day (how the store orders and
 * filters games, and how tools check a --since or --until).
 */
#ifndef KIFU_DATE_H
#define KIFU_DATE_H

#include "kifu/error.h"

/*
 * Normalises a date as written in a record or a filter (YYYY, YYYY-MM or
 * YYYY-MM-DD, a real calendar date) to its first day "YYYY-MM-DD" in out
 * (11 bytes). Returns 0 or KIFU_EPARSE.
 */
int kifu_date_first_day(char *out, const char *date, struct kifu_error *err);

#endif
