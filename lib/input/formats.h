/*
 * The formats of the registry (lib/input/format.c), declared for it alone: every
 * other part of kifu reaches a format through kifu_formats[] and
 * kifu_format_find(). A new format adds its declaration here and its line
 * in kifu_formats[].
 */
#ifndef KIFU_FORMATS_H
#define KIFU_FORMATS_H

#include "kifu/format.h"

extern const struct kifu_format kifu_format_yaml_;   /* lib/input/format.c */
extern const struct kifu_format kifu_format_apgr_;   /* import/apgr.c */
extern const struct kifu_format kifu_format_pgn_;    /* import/pgn.c */
extern const struct kifu_format kifu_format_csv_;    /* import/csv.c */

#endif
