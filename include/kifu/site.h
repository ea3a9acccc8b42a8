/*
 * kifu-serve's pages (lib/render/site.c): HTML made from the reports and
 * searches of include/kifu/stats.h and search.h over an open store. Each
 * page is whole and self-contained but for the style sheet it links
 * (/assets/kifu.css, kifu_site_asset); every value from the database or
 * the request is escaped for where it goes (HTML text, attribute, URL).
 * Functions append to b and return 0, or a negative KIFU_E* code with err
 * set: KIFU_EPARSE, KIFU_EILLEGAL or KIFU_ENOTFOUND for what the request
 * asked wrong (the server's 400 or 404), anything else its failure.
 */
#ifndef KIFU_SITE_H
#define KIFU_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/store.h"

/* What an explorer page shows. */
struct kifu_site_position {
	const char *game, *variant;  /* from the address */
	const char *after;           /* comma-separated moves from the start ("" or NULL: the start) */
	int symmetric;
	const struct kifu_filter *filter; /* player, event, since, until, termination (game and variant unused) */
	long page;                   /* of the games that reached it, 0-based (past the last: 404) */
	long min_games;              /* moves played in fewer games are left out (0: as 1) */
	int all;                     /* every move in the table, not the KIFU_SITE_MOVES most played */
};

/* The explorer's move table: the most played moves shown, the rest folded. */
#define KIFU_SITE_MOVES 30

/* The games listed per page (explorer, player). */
#define KIFU_SITE_PAGE_GAMES 25
/*
 * A player's most played lines: KIFU_SITE_LINES lines of
 * KIFU_SITE_LINE_PLIES plies per game, variant and side, counted over the
 * player's newest KIFU_SITE_LINE_GAMES games there (a bounded cost).
 */
#define KIFU_SITE_LINES 6
#define KIFU_SITE_LINE_PLIES 4
#define KIFU_SITE_LINE_GAMES 2000
/* The explorer's move orders: KIFU_SITE_ORDERS of those of the newest KIFU_SITE_ORDER_GAMES games. */
#define KIFU_SITE_ORDERS 8
#define KIFU_SITE_ORDER_GAMES 200

/* What kifu_site_explore returns when b holds the 404 page of an illegal move in the path. */
#define KIFU_SITE_MISSING 1
/*
 * What a page with a filter form returns when a filter's value is not
 * right: b holds the page with its form, the field marked and why in
 * words (the server's 400).
 */
#define KIFU_SITE_REJECTED 2

/* /: games per game and variant, the summary, the charts of lengths, the best rated players. */
int kifu_site_home(struct kifu_buf *b, struct kifu_store *st, struct kifu_error *err);
/*
 * /explore/GAME/VARIANT: the board, the moves, the games that reached the
 * position. A path with an illegal move: KIFU_SITE_MISSING, b holding a page
 * that says so and links the explorer at the longest legal start of it; a
 * filter's value that is not right KIFU_SITE_REJECTED; a page of games past
 * the last KIFU_ENOTFOUND.
 */
int kifu_site_explore(struct kifu_buf *b, struct kifu_store *st,
		      const struct kifu_site_position *p, struct kifu_error *err);
/*
 * /game/ID[?ply=K]: kifu-export's replay page opened at ply (-1: the start, or #ply=N;
 * past the end KIFU_ERANGE); its scripts carry nonce (the server's
 * Content-Security-Policy lets those run and no other).
 */
int kifu_site_game(struct kifu_buf *b, struct kifu_store *st, int64_t id, long ply,
		   const char *nonce, struct kifu_error *err);
/* What a pattern page shows. */
struct kifu_site_pattern_query {
	const char *game, *variant; /* from the address */
	const char *pattern;        /* as kifu-search --pattern takes it (NULL or "": the form alone) */
	int symmetric;              /* its images under the board's symmetries too */
	long page;                  /* of the matching games, 0-based */
	const char *nonce;          /* the editor's script carries it (the server's policy) */
	const struct kifu_filter *filter; /* player, side, dates, level (NULL: none) */
};

/*
 * /pattern/GAME/VARIANT: the pattern box and the games whose positions
 * show the pattern, newest first, each linked to its page at the first
 * ply that does. A pattern kifu-search refuses, or a filter's value that is
 * not right, is a page with its message and *rejected set (the server's
 * 400); an unknown game KIFU_ENOTFOUND.
 */
int kifu_site_pattern(struct kifu_buf *b, int *rejected, struct kifu_store *st,
		      const struct kifu_site_pattern_query *q, struct kifu_error *err);
/* What /player/NAME shows. */
struct kifu_site_player_query {
	const char *name;           /* as stored */
	const char *game, *variant; /* only that game (and variant); NULL: every one */
	long page;                  /* of the games, 0-based */
};

/*
 * /player/NAME: the player's record (the all-games rating), the rating per
 * game and variant, the score per game, variant and side (in that order:
 * the registry's games and variants, the game's sides), lines, games; with
 * q->game (and variant) those of that game (and variant) alone. An unknown
 * game or variant, a player with no games there, or a page past the last
 * KIFU_ENOTFOUND.
 */
int kifu_site_player(struct kifu_buf *b, struct kifu_store *st,
		     const struct kifu_site_player_query *q, struct kifu_error *err);
/* What /players shows. */
struct kifu_site_players_query {
	const char *part;           /* a part of the name, any case (NULL or "": every player) */
	const char *game, *variant; /* ratings in this game and variant alone (NULL: all games) */
	const char *sort;           /* "rating" (best first) or "games" (most first) */
	long page;                  /* from 1 */
};

/* The players of /players a page. */
#define KIFU_SITE_LIST_PLAYERS 50

/*
 * /players: every player the players report counts (kifu-stats players
 * --name-part), sorted, KIFU_SITE_LIST_PLAYERS a page, each with the
 * all-games rating and the rating per game and variant (--by-variant), or
 * with a game and variant the rating there; an unknown game or variant,
 * or a page past the last (page 1 always exists), KIFU_ENOTFOUND.
 */
int kifu_site_players(struct kifu_buf *b, struct kifu_store *st,
		      const struct kifu_site_players_query *q, struct kifu_error *err);
/* What /games shows: the filters, the order, the page. */
struct kifu_site_games_query {
	const struct kifu_filter *filter; /* game, variant, player (as), event, dates, termination */
	const char *sort;                 /* "date", "id", "game" or "plies" */
	int desc;                         /* the other way: newest, highest first */
	long page;                        /* from 1 */
};

/* The games of /games a page. */
#define KIFU_SITE_LIST_GAMES 50

/*
 * /games: every game the filters select, sortable, KIFU_SITE_LIST_GAMES a
 * page; a page past the last (page 1 always exists) KIFU_ENOTFOUND; a
 * filter's value that is not right KIFU_SITE_REJECTED.
 */
int kifu_site_games(struct kifu_buf *b, struct kifu_store *st,
		    const struct kifu_site_games_query *q, struct kifu_error *err);
/*
 * /balance: kifu-stats balance for the games f selects (any filter, level
 * included), with its chart and a link per row to the explorer of that
 * level's games; a filter's value that is not right KIFU_SITE_REJECTED, an
 * unknown game KIFU_ENOTFOUND.
 */
int kifu_site_balance(struct kifu_buf *b, struct kifu_store *st, const struct kifu_filter *f,
		      struct kifu_error *err);
/* An error page: status's title and message, escaped. */
void kifu_site_error(struct kifu_buf *b, int status, const char *message);
/* The embedded asset called name ("kifu.css"): its text, length and type; NULL when none. */
const char *kifu_site_asset(const char *name, size_t *len, const char **type);

#endif
