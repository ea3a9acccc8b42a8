/*
 * Private to kifu-serve's pages (lib/render/site.c, site_explore.c,
 * site_pattern.c): the pieces every page shares, defined in site.c.
 */
#ifndef KIFU_RENDER_SITE_IMPL_H
#define KIFU_RENDER_SITE_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/search.h"
#include "kifu/store.h"
#include "render/render_impl.h"

struct kifu_report;
struct kifu_filter;

/* s (NULL: nothing) escaped for HTML text and attributes. */
void kifu_site_text_(struct kifu_buf *b, const char *s);
struct kifu_search_hit;
/* A games list's date, game and players cells (each player a link to its page). */
void kifu_site_game_cells_(struct kifu_buf *b, const struct kifu_search_hit *h);
/* The page's end: 0 or KIFU_ENOMEM. */
int kifu_site_foot_(struct kifu_buf *b);
/* A game's page start: "GAME VARIANT PAGE" as its title, its heading then heading. */
void kifu_site_game_head_(struct kifu_buf *b, struct kifu_store *st, const struct kifu_game *g,
			  int variant, const char *page, const char *heading);
/* A page's start without a game: "TITLE - kifu" and the site's header. */
void kifu_site_page_head_(struct kifu_buf *b, struct kifu_store *st, const char *title);
/* s percent-encoded for an address (safe in an attribute too). */
void kifu_site_url_part_(struct kifu_buf *b, const char *s);

/* Row row's cells of the columns cols (NULL-terminated), as kifu-stats prints them. */
void kifu_site_cells_(struct kifu_buf *b, const struct kifu_report *rep, size_t row,
		      const char *const *cols);
/* Row row's value of column col: a whole number (0 when none), or its text ("" when none). */
long long kifu_site_cell_int_(const struct kifu_report *rep, size_t row, const char *col);
const char *kifu_site_cell_text_(const struct kifu_report *rep, size_t row, const char *col);
/* The report head's whole number name (0 when none). */
long long kifu_site_head_int_(const struct kifu_report *rep, const char *name);
/* The chart of rep as kifu-stats --svg draws it, inline (nothing when it has none). */
void kifu_site_chart_(struct kifu_buf *b, const struct kifu_report *rep);
/* A win/draw/loss/unfinished bar of those counts. */
void kifu_site_bar_(struct kifu_buf *b, long long w, long long d, long long l, long long u);
/* The explorer's address of a position (its moves after, the switch and the filters). */
void kifu_site_explore_link_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *after, int symmetric, const struct kifu_filter *f);

/* The filters of f as an address's "&amp;name=value" parameters (player, as, event, dates, termination). */
void kifu_site_filter_query_(struct kifu_buf *b, const struct kifu_filter *f);
/* The same with f's game and variant first: a report's or a list's whole scope (site_games.c). */
void kifu_site_scope_query_(struct kifu_buf *b, const struct kifu_filter *f);
/*
 * A filter form's text fields (site_games.c): game, variant, player, with as
 * the player's side, event, dates and level, each labelled by its name, its
 * id FORM-NAME, holding f's value or showing an example.
 */
void kifu_site_filter_fields_(struct kifu_buf *b, char form, const struct kifu_filter *f, int as);
/*
 * The line "WHAT as JSON CSV" (id its element's id) linking the API
 * address api (escaped for an attribute), and with csv its format=csv.
 */
void kifu_site_data_links_(struct kifu_buf *b, const char *id, const char *what,
			   const struct kifu_buf *api, int csv);

/* Columns of a games list beside date, players, result and plies. */
#define GAMES_PLY 0x1      /* the hit's ply */
#define GAMES_PLY_LINK 0x2 /* ... as a link to the game page at that ply (#ply=N) */
#define GAMES_NOVELTY 0x4  /* each game's novelty (kifu_stats_novelty, from st), linked likewise */
#define GAMES_PICTURE 0x8  /* a small picture of the game at the hit's ply (loaded from st) */

/*
 * The hits from .. from + n - 1 of res as a table; player (NULL: none):
 * each result as that player's win, draw or loss. Returns 0 or the
 * novelty's error.
 */
int kifu_site_games_(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
		     size_t n, unsigned flags, const char *player, struct kifu_store *st,
		     struct kifu_error *err);
/* Links to the newer and older page of a list whose address (with a query) is base. */
void kifu_site_pager_(struct kifu_buf *b, const struct kifu_buf *base, long page, int more);

/* site_pattern.c: the pattern box, to /pattern/GAME/VARIANT, holding pattern (NULL: empty). */
void kifu_site_pattern_form_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *pattern, int symmetric);

/* site.c: a count with thousands separators (12,000), for people; a whole percent of n in of. */
void kifu_site_count_(struct kifu_buf *b, long long n);
void kifu_site_percent_(struct kifu_buf *b, long long n, long long of);

/*
 * A players table's cell (site_players.c): the rating of name in each game and
 * variant, with its games, from byv (kifu-stats players --by-variant).
 */
void kifu_site_variant_ratings_(struct kifu_buf *b, const struct kifu_report *byv,
				const char *name);

#endif
