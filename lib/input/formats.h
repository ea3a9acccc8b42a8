/*
 * The formats of the registry (lib/input/format.c), declared for it alone: every
 * other part of kifu reaches a format through kifu_formats[] and
 * kifu_format_find(). A new format adds its declaration here and its line
 * in kifu_formats[].
 */
#ifndef KIFU_FORMATS_H
#define KIFU_FORMATS_H

#include "kifu/format.h"

extern const struct kifu_format kifu_format_yaml;   /* lib/input/format.c */
extern const struct kifu_format kifu_format_apgr;   /* import/apgr.c */
extern const struct kifu_format kifu_format_pgn;    /* import/pgn.c */
extern const struct kifu_format kifu_format_csv;    /* import/csv.c */

#endif
