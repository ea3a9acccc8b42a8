/*
 * Private to libkifu (and its tests; not installed): the SQL the store
 * builds for the reports above it (lib/stats, lib/engine), which run it
 * through the statement layer (store/db.h, included here): the games a
 * struct kifu_filter selects (store_select.c), and the tree's scan of a
 * position index (store_symm.c).
 */
#ifndef KIFU_STORE_SQL_H
#define KIFU_STORE_SQL_H

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/store.h"
#include "store/db.h"

/*
 * Appends to out a boolean SQL expression over the games table under the
 * alias games_alias (an SQL identifier, e.g. "g"; NULL means "games") that
 * is true for the games f selects ("1 = 1" when f selects everything). Values
 * are never pasted in: the expression uses numbered parameters ?first,
 * ?first+1, ..., which kifu_filter_bind_ then binds. Returns the number of
 * parameters used, or KIFU_EPARSE (a since/until that is not a date),
 * KIFU_ERANGE (a bad alias) or KIFU_ENOMEM.
 */
int kifu_filter_sql_(struct kifu_buf *out, const struct kifu_filter *f, const char *games_alias,
		    int first, struct kifu_error *err);

/* Binds f's values to ?first... of stmt; returns the count bound or a negative KIFU_E* code. */
int kifu_filter_bind_(struct kifu_stmt *stmt, int first, const struct kifu_filter *f,
		     struct kifu_error *err);

/*
 * Appends the query that reads the games reaching a position from the
 * position index (symmetric: the canonical one), grouped by next move
 * (column 1), result (2), with their count (3), sum of plies (4) and, when
 * symmetric, the plain hash the game had there (5, else NULL): ?1 the
 * hash, ?2 the ply the games' first arrival must be after, where an SQL
 * condition over the games (alias g) and the index (h).
 */
void kifu_store_tree_scan_sql_(struct kifu_buf *sql, struct kifu_store *st, int symmetric,
			      const char *where);

#endif
