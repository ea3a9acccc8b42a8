/*
 * The tree explorer (kifu-stats tree --html): one self-contained HTML page
 * to walk the stored games from a position, as the opening explorers of
 * SCID and lichess do. The page holds the board of every position within
 * `depth` plies below the position asked for, and the tree report
 * (kifu/stats.h) of each position above that depth: clicking a move goes
 * down to its position, a path of the moves clicked leads back up. Every
 * position is computed by the engine and its table by kifu_stats_report,
 * so what the page shows is what `kifu-stats tree --after PATH` says.
 *
 * Typical use:
 *
 *     struct kifu_explorer_options opt = KIFU_EXPLORER_OPTIONS_INIT;
 *     struct kifu_explorer_info info;
 *     struct kifu_buf page = KIFU_BUF_INIT;
 *
 *     opt.stats.after = "f2,g7";
 *     kifu_explorer_html(&page, &info, st, &filter, &opt, &err);
 */
#ifndef KIFU_EXPLORER_H
#define KIFU_EXPLORER_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/stats.h"
#include "kifu/store.h"

/* The default depth, and the most positions and table rows (moves) one page holds. */
#define KIFU_EXPLORER_DEPTH 4
#define KIFU_EXPLORER_MAX_POSITIONS 2000
#define KIFU_EXPLORER_MAX_ROWS 50000

struct kifu_explorer_options {
	/* Passed to every tree report: after (the first position), min_games, flags. */
	struct kifu_stats_options stats;
	int depth;            /* plies below stats.after the page goes down to (>= 1) */
	size_t max_positions; /* at most this many positions (0: KIFU_EXPLORER_MAX_POSITIONS) */
	size_t max_rows;      /* at most this many rows in all tables (0: KIFU_EXPLORER_MAX_ROWS) */
};

#define KIFU_EXPLORER_OPTIONS_INIT { KIFU_STATS_OPTIONS_INIT, KIFU_EXPLORER_DEPTH, 0, 0 }

/* What a page holds. */
struct kifu_explorer_info {
	size_t positions;     /* distinct positions (transpositions are one) */
	size_t tables;        /* of them, those with a move table (above the depth) */
	size_t links;         /* moves that lead to a position of the page */
	size_t left_out;      /* moves not followed because the page was full */
	size_t rows_left_out; /* table rows (the rarest moves of the last tables) left out */
	int max_depth;        /* the deepest position's plies below the first */
};

/*
 * Appends the explorer page of the games f selects (f->game needed, and
 * f->variant where the game has several) to out, and (info may be NULL)
 * says what it holds. Positions are taken level by level, the most played
 * moves of a level first, so that a full page (max_positions) leaves out
 * the rarest lines of the deepest level; tables are filled in the same
 * order, each with its most played moves first, until max_rows. Identical positions reached by
 * different move orders are one position of the page. Returns 0, or what
 * kifu_stats_report returns (KIFU_ERANGE, KIFU_EPARSE, KIFU_EILLEGAL for a
 * bad opt->stats.after, KIFU_EDB, KIFU_ENOMEM).
 */
int kifu_explorer_html(struct kifu_buf *out, struct kifu_explorer_info *info,
		       struct kifu_store *st, const struct kifu_filter *f,
		       const struct kifu_explorer_options *opt, struct kifu_error *err);

#endif
