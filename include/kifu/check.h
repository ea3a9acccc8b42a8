/*
 * The game database's integrity check (kifu-check; lib/stats/check.c),
 * as `git fsck` and SQLite's `PRAGMA integrity_check` are for theirs:
 * every stored game (or a sample of them) loaded back and replayed, and
 * what the database answers about it compared with that replay: the
 * game's row, its lines, its hashes, its entries in the position indexes;
 * and every sum the database keeps for the reports compared with a recount
 * from the games. It reads only, through the store's interface, so it
 * holds on every backend and for any layout of the stored bytes.
 *
 *     struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
 *     struct kifu_check_summary sum;
 *
 *     ret = kifu_stats_check(&sum, st, &opt, say, ctx, &err);
 *     ... say(ctx, "index", 12, "position index misses game 12 at ...") per problem;
 *     ... ret < 0: the database or memory failed (err); else sum.problems.
 */
#ifndef KIFU_CHECK_H
#define KIFU_CHECK_H

#include <stdint.h>

#include "kifu/error.h"
#include "kifu/store.h"

struct kifu_check_options {
	/*
	 * 0: every game, and every kept table recounted in full. N > 0: N
	 * games drawn at random (every game when there are no more), and of
	 * the kept sums only the tree's counts at their positions.
	 */
	long sample;
	uint64_t seed;      /* the sample's draw: the same seed, the same games */
	/*
	 * The tree's counts are checked at the first plies of this many of
	 * the checked games, spread over them (0: KIFU_CHECK_TREES; < 0: of
	 * every one of them).
	 */
	long trees;
};

#define KIFU_CHECK_TREES 200
#define KIFU_CHECK_OPTIONS_INIT { 0, 0, 0 }

struct kifu_check_summary {
	long long games;      /* stored */
	long long checked;    /* loaded and replayed */
	long long positions;  /* index entries of the checked games looked up */
	long long trees;      /* positions whose tree counts were recounted */
	int tables;           /* reports whose kept sums were recounted */
	long long problems;   /* what was wrong (each given to the callback) */
};

/*
 * What is wrong, one call each: check is the kind ("game": a game that does
 * not load, replay or match its row as stored, format 2's lines included;
 * "hashes": stored hashes that are not the replay's; "position index", "canonical
 * index": a position missing or extra in a position index; "pattern
 * summary": what kifu-search --pattern reads of the game, missing or not
 * its replay's; "sums": a
 * report's kept sums that are not their recount; "tree": the tree's
 * counts at a position), id the game it concerns (-1: none in
 * particular; "file": the backend's own check of its storage, SQLite's
 * PRAGMA integrity_check), message what is wrong, naming it. A non-zero return
 * stops the check and is returned.
 */
typedef int (*kifu_check_fn)(void *ctx, const char *check, int64_t id, const char *message);

/*
 * Checks st (opened with KIFU_STORE_READ or for writing) with opt (NULL:
 * every game). Kept tables that are behind the games are brought up to
 * date first where the database can be written (as a report would),
 * then everything is read in one snapshot. Returns 0 (sum->problems
 * says whether anything was wrong), fn's non-zero return, or a negative
 * KIFU_E* code (err) when the database or memory failed.
 */
int kifu_stats_check(struct kifu_check_summary *sum, struct kifu_store *st,
		     const struct kifu_check_options *opt, kifu_check_fn fn, void *ctx,
		     struct kifu_error *err);

#endif
