/*
 * Private to store_sums.c and store_ratings.c: the accumulator of the
 * sums kifu-stats keeps (store_sql.h declares what lib/stats and the rest
 * of the store use), its maps, and the helpers the ratings share.
 */
#ifndef KIFU_STORE_SUMS_IMPL_H
#define KIFU_STORE_SUMS_IMPL_H

#include <stdint.h>

#include "kifu/buf.h"
#include "store/store_sql.h"

/* One row of a table being summed: the key's columns and the counts. */
struct sum {
	uint64_t key;      /* hash of the key's columns */
	const struct kifu_game *g;
	int variant, first, repeat, plies;
	size_t text, len;  /* in the pool: the line; outcomes: first, result, termination, each ended by '\0' */
	uint64_t hash;     /* lines: the position after the line */
	int64_t n[7];      /* games; lines: then w0..w3, draws, unfinished; balance: then
			      first mover's wins, draws, unfinished, plies, legal moves */
};

struct sumtab {
	struct sum *v;
	size_t n, cap;
	size_t *slot;      /* open addressing: index + 1, 0 when empty */
	size_t nslot;
	struct kifu_buf pool;
};

/*
 * The tables of rows with text keys (outcomes, lines, balance: the level):
 * t[0..NTEXT), by KIFU_SUMS_*; t[KIFU_SUMS_PLAYERS] stays empty.
 */
#define NTEXT KIFU_SUMS_NTABLES

/* Integer keys (a player id, or a pair of them) to the index of their row. */
struct islot {
	int64_t a, b;
	size_t i;          /* index + 1, 0 when empty */
};

struct imap {
	struct islot *slot;
	size_t nslot, n;
};

struct kifu_store_sums_ {
	struct sumtab t[NTEXT];
	struct kifu_store_sums_player_ *pl;
	size_t npl, cappl;
	struct imap plmap;
	struct kifu_store_sums_pair_ *pr;
	size_t npr, cappr;
	struct imap prmap;
	int pl_stale, pr_stale; /* the rows were sorted or pushed: a map made again when next used */
};

/*
 * Player pid's row, made when new (first: its first game and side); NULL
 * when out of memory. A pair (lo < hi) a does not hold yet appended
 * without its map entry (a table's rows are distinct: its map is made
 * again when next used); the index of key (a, b) in map m, or -1; a's map
 * of players (pairs 0) or of pairs (1) made again.
 */
struct kifu_store_sums_player_ *kifu_store_sums_player_get_(struct kifu_store_sums_ *a,
							     int64_t pid, int64_t first_game,
							     int first_side);
int kifu_store_sums_pair_push_(struct kifu_store_sums_ *a, int64_t lo, int64_t hi,
				long long games);
long kifu_store_sums_find_(const struct imap *m, int64_t a, int64_t b);
int kifu_store_sums_reindex_(struct kifu_store_sums_ *a, int pairs);

#endif
