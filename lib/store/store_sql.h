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
 * condition over the games (alias g) and the index (h); symmetric, the
 * orientations bound by kifu_store_reach_bind_ (below); have_index as
 * there (a plain scan needs the index). next: the groups also by the
 * position each game stored after its move (9), with the least game id
 * of the group (10), so that a stored move other than the one the stored
 * positions played (a legal move put in its place) shows as a group
 * whose position is not the move's.
 */
void kifu_store_tree_scan_sql_(struct kifu_buf *sql, struct kifu_store *st, int symmetric,
			      int have_index, int next, const char *where);
/*
 * Checks a row of kifu_store_tree_scan_sql_ at position hash: the games
 * that end there are those with no next move (a move missing from
 * game_data.moves, or one past games.plies, is KIFU_EDB as damage).
 */
int kifu_store_tree_scan_check_(struct kifu_stmt *s, uint64_t hash, struct kifu_error *err);

/*
 * After the games' packed rows were changed by hand (the tree counts are
 * forgotten then, and until they are made again): checks that every
 * game's hashes hold one value per position (games.plies + 1), which the
 * position index follows; the first that does not is KIFU_EDB as damage.
 * 0 at once while the counts are kept (no game was changed since).
 */
int kifu_store_packed_check_(struct kifu_store *st, struct kifu_error *err);

/*
 * Schema 7 on SQLite keeps no canonical index (positions_canon is a view
 * there): the games reaching a canonical position are those the plain
 * index holds at any of its orientations, each once at the first ply
 * reaching any. kifu_store_canon_indexed_ says whether positions_canon is
 * a table to read (versions 5 and 6; backends writing it, PostgreSQL).
 * kifu_store_reach_sql_ appends a FROM item with the columns hash, game_id
 * and ply of the games reaching the position ?1 (symmetric: ?1 its
 * canonical hash, and the hashes of its orientations bound by
 * kifu_store_reach_bind_ as ?REACH_PARAM...), from the position index
 * when have_index, else from the view positions (an index set aside).
 * kifu_store_orient_hashes_ gives the orientations' hashes of a position
 * (out: room for KIFU_GAME_SYMMETRIES_MAX; returns their count, or
 * KIFU_ENOMEM).
 */
#define REACH_PARAM 40
struct kifu_game;
int kifu_store_canon_indexed_(struct kifu_store *st);
void kifu_store_reach_sql_(struct kifu_buf *sql, struct kifu_store *st, int symmetric,
			   int have_index);
void kifu_store_reach_bind_(struct kifu_stmt *s, struct kifu_store *st, int symmetric,
			    const uint64_t *orient, int n);
int kifu_store_orient_hashes_(uint64_t *out, const struct kifu_game *g, const void *state);

/*
 * The sums kifu-stats keeps (store_sums.c): what one stored game adds to
 * stats_outcomes and stats_lines, counted in one place for the store,
 * which keeps them as it writes games, and for the reports' refresh of
 * the games the tables lack. A game's result as a side index (below
 * KIFU_SUMS_MAX_SIDES) or one of KIFU_SUMS_DRAW, _UNFINISHED, _UNKNOWN.
 */
enum { KIFU_SUMS_OUTCOMES, KIFU_SUMS_LINES, KIFU_SUMS_PLAYERS, KIFU_SUMS_BALANCE,
       KIFU_SUMS_NTABLES };
enum { KIFU_SUMS_DRAW = -1, KIFU_SUMS_UNFINISHED = -2, KIFU_SUMS_UNKNOWN = -3 };
#define KIFU_SUMS_MAX_SIDES 4  /* stats_lines has w0..w3 */
#define KIFU_SUMS_LINE_DEPTH 6 /* plies of the lines kept (stats_state 'lines'.depth) */
/* stats_state 'players'.depth (schema 11): the ratings wait to be fitted, or fit last_id. */
#define KIFU_SUMS_RATINGS_DUE 1
#define KIFU_SUMS_RATINGS_FITTED 2

struct kifu_game;
struct kifu_store_sums_;

/*
 * A game's sides as its rows of sides come, in side order: ok while each
 * side has exactly one player so far (kifu_store_sides_add_ of side
 * index side and player pid; start from { 0, 1 }).
 */
struct kifu_store_sides_ {
	int n, ok;
	int64_t pid[KIFU_SUMS_MAX_SIDES];
};
void kifu_store_sides_add_(struct kifu_store_sides_ *s, int side, int64_t pid);

/*
 * One stored game as the sums count it (players: only one whose sides
 * all name a player, no player holding two, with a known result): its game (NULL, or a variant
 * < 0: counted nowhere), its first side (the lines need its index, else
 * they count nothing; the outcomes take games.first as written from
 * first_name where it is not NULL), games.result and .termination (NULL
 * as ''), its plies, and its line: the canonical moves of plies
 * 1..nlines joined by ',', ends[k] the length of the line of k + 1
 * plies, hashes[k] the position after it.
 */
struct kifu_store_sums_game_ {
	int64_t id;                             /* players: the game's id */
	const struct kifu_store_sides_ *sides;  /* players: its sides (NULL: none) */
	const struct kifu_game *g;
	int variant, first;
	const char *first_name;
	const char *result, *termination;
	long plies;
	size_t nlines;
	const char *line;
	const size_t *ends;
	const uint64_t *hashes;
	/*
	 * balance (schema 12): the game's level as kifu_store_sums_level_
	 * gives it (KIFU_SUMS_LEVEL_OUT: counted nowhere; a SPEC: the first
	 * spec_len bytes of spec), and the legal moves before each of its
	 * plies summed (kifu_store_sums_legal_).
	 */
	int level;
	const char *spec;
	size_t spec_len;
	uint64_t legal;
};

/*
 * The level of a game whose sides 0..nsides) have the players names[]
 * (NULL: none), as kifu-stats balance says it: KIFU_SUMS_LEVEL_SPEC (*spec
 * and *len the SPEC, a prefix of a name) when every side has a player of
 * that SPEC, _PLAYERS when no side has a SPEC player, else _OUT (a side
 * with two players is told with ok 0: out too).
 */
enum { KIFU_SUMS_LEVEL_OUT, KIFU_SUMS_LEVEL_PLAYERS, KIFU_SUMS_LEVEL_SPEC };
#define KIFU_SUMS_LEVEL_PLAYERS_NAME "players"
int kifu_store_sums_level_(const char **spec, size_t *len, const char *const *names, int nsides,
			   int ok);
/*
 * The legal moves of the side to move in state, a position of g (one
 * whose only move is pass counts 1; buf: room for g->max_moves, needed
 * only where g has no count_moves); *out, those summed over the positions
 * before each of the n moves of a game of g from its start (variant,
 * first): 0, or KIFU_ENOMEM.
 */
size_t kifu_store_sums_legal_at_(const struct kifu_game *g, const void *state, kifu_move *buf);
int kifu_store_sums_legal_(uint64_t *out, const struct kifu_game *g, int variant, int first,
			   const kifu_move *moves, size_t n, struct kifu_error *err);

/*
 * store_balance.c: the stored games with an id in (after, upto] counted
 * into stats_balance (added to what it holds), each game's level from its
 * players' names and its legal moves from its stored moves replayed;
 * damage (KIFU_EDB) for a game whose stored moves do not replay as its
 * plies.
 */
int kifu_store_balance_count_(struct kifu_store *st, int64_t after, int64_t upto,
			      struct kifu_error *err);
/*
 * The check of a current stats_balance (it counts every stored game) the
 * balance report makes before it answers from it: per game and variant,
 * the games its levels sum are the stored games it counts (with a result,
 * at a level: no SPEC player, or one SPEC on every side), else damage
 * (KIFU_EDB) naming the game, the variant and both counts: rows deleted or
 * counts changed by hand. One scan of games; the sides and players too
 * only where some games are at no level (kifu-play with mixed players).
 */
int kifu_store_balance_check_(struct kifu_store *st, struct kifu_error *err);

/* A line summed (n: games, wins of side 0..3, draws, unfinished). */
struct kifu_store_sums_line_ {
	const struct kifu_game *g;
	int variant, first, repeat, plies;
	const char *line;
	size_t len;
	uint64_t hash;
	int64_t n[7];
};

/*
 * A player summed: its games, results, draw points (1 / sides per draw),
 * points in its pairings (the rating fit's score) and its first game
 * counted (and side there); a pair of players (a < b) and its pairings.
 */
struct kifu_store_sums_player_ {
	int64_t pid, first_game;
	int first_side;
	long long games, wins, draws, losses, unfinished;
	double draw_points, points;
	int rated;             /* with a finished game: rating set by kifu_store_sums_fit_ */
	double rating;
};
struct kifu_store_sums_pair_ {
	int64_t a, b;
	long long games;
};

int kifu_store_sums_classify_(const struct kifu_game *g, const char *result);
int kifu_store_sums_new_(struct kifu_store_sums_ **out);
void kifu_store_sums_free_(struct kifu_store_sums_ *a);
void kifu_store_sums_clear_(struct kifu_store_sums_ *a);
/* Adds game x to the tables of which (bits 1 << KIFU_SUMS_*): 0 or KIFU_ENOMEM. */
int kifu_store_sums_add_(struct kifu_store_sums_ *a, const struct kifu_store_sums_game_ *x,
			 unsigned which);
/*
 * The rows summed for table t (players: the players); line i of them (i
 * below the count of KIFU_SUMS_LINES), player i, and pair i of npairs.
 */
size_t kifu_store_sums_count_(const struct kifu_store_sums_ *a, int t);
void kifu_store_sums_line_(struct kifu_store_sums_line_ *out, const struct kifu_store_sums_ *a,
			   size_t i);
const struct kifu_store_sums_player_ *kifu_store_sums_player_(const struct kifu_store_sums_ *a,
							      size_t i);
size_t kifu_store_sums_npairs_(const struct kifu_store_sums_ *a);
const struct kifu_store_sums_pair_ *kifu_store_sums_pair_(const struct kifu_store_sums_ *a,
							  size_t i);
/* Adds the sums of the tables of which to them (upserts); a stays as it is. */
int kifu_store_sums_write_(struct kifu_store *st, struct kifu_store_sums_ *a, unsigned which,
			   struct kifu_error *err);
/*
 * The players' ratings: fitted from a's players and pairs (each player
 * with a finished game rated, the players taken in the order of their
 * first game, as they came when every game was read in id order: the same
 * figures to the last bit however the sums were gathered); written into
 * stats_players with stats_state 'players' at last (depth: the state's,
 * 0 before schema 11). kifu_store_sums_ratings_: the whole of it from the
 * kept tables (schema 11) into a (empty), inside the caller's refresh
 * transaction, and the state's depth set to KIFU_SUMS_RATINGS_FITTED.
 */
int kifu_store_sums_fit_(struct kifu_store_sums_ *a, struct kifu_error *err);
int kifu_store_sums_ratings_write_(struct kifu_store *st, const struct kifu_store_sums_ *a,
				   int64_t last, int depth, struct kifu_error *err);
int kifu_store_sums_ratings_(struct kifu_store_sums_ *a, struct kifu_store *st, int64_t last,
			     struct kifu_error *err);

/* Empties stats_player_sums and stats_pairs (schema 11), which follow stats_players. */
int kifu_store_sums_players_clear_(struct kifu_store *st, struct kifu_error *err);
/* Sets stats_state name's last_id, and depth (NULL when 0). */
int kifu_store_sums_state_set_(struct kifu_store *st, const char *name, int64_t last, int depth,
			       struct kifu_error *err);

#endif
