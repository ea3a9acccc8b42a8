/*
 * Finding stored games (kifu-search): the games a filter selects and,
 * given a position, those that reach it at any ply in any move order (by
 * the position hashes the store keeps for every ply), newest first.
 */
#ifndef KIFU_SEARCH_H
#define KIFU_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/store.h"

/* One side of a found game and who played it. */
struct kifu_search_player {
	const char *side;
	const char *name;
};

/* One found game; its strings belong to the result it came from. */
struct kifu_search_hit {
	int64_t id;
	const char *game, *variant;
	const char *date;      /* as written; NULL when the record had none */
	const char *result;    /* a side, "draw" or "unfinished" */
	long plies;
	long ply;              /* first ply reaching the position; -1 in a search without one */
	size_t nplayers;       /* the sides that name a player, in turn order */
	const struct kifu_search_player *players;
};

struct kifu_search_result;

void kifu_search_result_free(struct kifu_search_result *res);
size_t kifu_search_count(const struct kifu_search_result *res);
/* Borrowed; i < kifu_search_count(res). */
const struct kifu_search_hit *kifu_search_hit(const struct kifu_search_result *res, size_t i);
/*
 * Sorts the hits by key: "date" (the search's order reversed unless desc:
 * it is newest first), "id", "plies" or "game" (game, variant), ties by
 * id; desc reverses. KIFU_EPARSE for another key.
 */
int kifu_search_result_sort(struct kifu_search_result *res, const char *key, int desc);
/* Keeps the hits from the offset-th (0-based) on, at most limit of them (0: all): a page. */
void kifu_search_result_window(struct kifu_search_result *res, size_t offset, size_t limit);

/*
 * The position hash after moves (a comma-separated list, as kifu-perft
 * --after takes it; "" is the start) from the start of variant of g, its
 * default first side moving first. On an unparsable or illegal move,
 * KIFU_EPARSE or KIFU_EILLEGAL with "ply P: ..." as the message.
 */
int kifu_search_position(uint64_t *hash, const struct kifu_game *g, int variant,
			 const char *moves, struct kifu_error *err);

/*
 * The games f selects (may be NULL) and, when hash is not NULL, that
 * reach the position *hash at some ply (ply 0 included), newest first: by
 * first-day date, then id, descending, games without a date last. With a
 * hash, f should name the game and variant the position belongs to.
 * *out belongs to the caller (kifu_search_result_free).
 */
int kifu_search_games(struct kifu_search_result **out, struct kifu_store *st,
		      const struct kifu_filter *f, const uint64_t *hash, struct kifu_error *err);

/*
 * kifu_search_position's canonical hash: the smallest hash of the
 * position over the game's board symmetries (kifu_game_canonical_hash).
 */
int kifu_search_position_canonical(uint64_t *hash, const struct kifu_game *g, int variant,
				   const char *moves, struct kifu_error *err);

/*
 * kifu_search_games, and with symmetric, *hash is a canonical hash: the
 * games that reach any position one of the game's board symmetries maps
 * onto it (--symmetric; ply is the first reaching any of them). KIFU_EDB
 * with symmetric on a database older than schema 5.
 */
int kifu_search_games_symmetric(struct kifu_search_result **out, struct kifu_store *st,
				const struct kifu_filter *f, const uint64_t *hash, int symmetric,
				struct kifu_error *err);

/*
 * The hashes of the position after moves (as kifu_search_position) mapped
 * by each of g's board symmetries, out[k] by symmetry k (out[0] the
 * position's own; out has room for KIFU_GAME_SYMMETRIES_MAX), *n of them.
 */
int kifu_search_position_orientations(uint64_t *out, int *n, const struct kifu_game *g,
				      int variant, const char *moves, struct kifu_error *err);

/*
 * kifu_search_games_symmetric with symmetric, given also the hashes of the
 * position's orientations (kifu_search_position_orientations): what a
 * database without a canonical index (schema 7 on SQLite) answers from its
 * plain one, at the speed of a plain search.
 */
int kifu_search_games_oriented(struct kifu_search_result **out, struct kifu_store *st,
			       const struct kifu_filter *f, const uint64_t *hash,
			       const uint64_t *orient, int n, struct kifu_error *err);

/*
 * kifu_search_games_symmetric's games from the offset-th (0-based) on, at
 * most limit of them (0: all): a page of a long list, read without the
 * rest where the listing table answers for f. With symmetric, orient
 * (norient hashes, kifu_search_position_orientations) lets a database
 * without a canonical index answer at a plain search's speed (NULL: read
 * the canonical index, or on schema 7 its view, slowly).
 */
int kifu_search_games_page(struct kifu_search_result **out, struct kifu_store *st,
			   const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			   const uint64_t *orient, int norient, size_t offset, size_t limit,
			   struct kifu_error *err);

/* One move order of kifu_search_move_orders: its moves and how many games played it. */
struct kifu_search_order {
	const char *moves; /* canonical, comma-separated, from the start */
	long games;
};

struct kifu_search_orders {
	struct kifu_search_order *v; /* most played first, then by moves in byte order */
	size_t n;
	long read;                   /* the games read: the newest that reached the position */
	int more;                    /* more games reached it than were read */
	struct kifu_buf pool_;       /* the moves' texts */
};

/*
 * The move orders by which the newest `sample` games (at most; 0 is taken
 * as 1) that kifu_search_games_page finds reached the position (its
 * arguments), each game's first moves up to its ply of reaching it. The
 * cost is bounded by sample whatever the number of games reaching it.
 * *out belongs to the caller (kifu_search_orders_free). Returns 0 or a
 * negative KIFU_E* code.
 */
int kifu_search_move_orders(struct kifu_search_orders **out, struct kifu_store *st,
			    const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			    const uint64_t *orient, int norient, size_t sample,
			    struct kifu_error *err);
void kifu_search_orders_free(struct kifu_search_orders *o);

/*
 * Appends res as kifu-search --json writes it: an array of objects {id,
 * game, variant, players (side -> name), date (null when unknown), result,
 * plies, and ply when with_ply}, one a line. Returns 0 or KIFU_ENOMEM.
 */
int kifu_search_json(struct kifu_buf *b, const struct kifu_search_result *res, int with_ply);
/*
 * The same as kifu-search --csv writes it: a header id, game, variant, a
 * column per side (in order of first appearance: a player's name, empty
 * where none), date, result, plies (and ply); RFC 4180 quoting, CRLF line
 * ends. Returns 0 or KIFU_ENOMEM.
 */
int kifu_search_csv(struct kifu_buf *b, const struct kifu_search_result *res, int with_ply);

struct kifu_pattern;

/*
 * kifu_search_games for a partial-board pattern (kifu/pattern.h): the
 * games f selects (f must name the pattern's game and variant) in which
 * some position shows p, each with the first ply at which one does, newest
 * first. Only games whose summary (schema 8's game_cells) lets the pattern
 * through are replayed. KIFU_EDB on a database older than schema 8.
 */
int kifu_search_games_pattern(struct kifu_search_result **out, struct kifu_store *st,
			      const struct kifu_filter *f, const struct kifu_pattern *p,
			      struct kifu_error *err);

/*
 * kifu-search --pattern TEXT's checks and pattern, for the tool and for
 * kifu-serve alike: f must name the game, and the variant where the game
 * has several; on success *out is the pattern (kifu_pattern_free) and
 * f->variant the variant searched. KIFU_EPARSE (a usage error: "--pattern
 * needs --game G (the game whose board it shows)", "--pattern needs
 * --variant V: G has several", an unknown game or variant as
 * kifu_stats_resolve_game says it, "--pattern: " and the pattern's own) or
 * KIFU_ENOMEM.
 */
int kifu_search_pattern_prepare(struct kifu_pattern **out, struct kifu_filter *f,
				const char *text, int symmetric, struct kifu_error *err);

#endif
