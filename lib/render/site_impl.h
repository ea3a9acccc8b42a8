/*
 * Private to kifu-serve's pages (lib/render/site.c, site_pattern.c): the
 * pieces every page shares, defined in site.c.
 */
#ifndef KIFU_RENDER_SITE_IMPL_H
#define KIFU_RENDER_SITE_IMPL_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"
#include "kifu/search.h"
#include "kifu/store.h"

/* The page's end: 0 or KIFU_ENOMEM. */
int kifu_site_foot_(struct kifu_buf *b);
/* A game's page start: "GAME VARIANT PAGE" as its title, its heading then heading. */
void kifu_site_game_head_(struct kifu_buf *b, struct kifu_store *st, const struct kifu_game *g,
			  int variant, const char *page, const char *heading);
/* s percent-encoded for an address (safe in an attribute too). */
void kifu_site_url_part_(struct kifu_buf *b, const char *s);

/* Columns of a games list beside date, players, result and plies. */
#define GAMES_PLY 0x1      /* the hit's ply */
#define GAMES_PLY_LINK 0x2 /* ... as a link to the game page at that ply (#ply=N) */
#define GAMES_NOVELTY 0x4  /* each game's novelty (kifu_stats_novelty, from st), linked likewise */

/* The hits from .. from + n - 1 of res as a table. Returns 0 or the novelty's error. */
int kifu_site_games_(struct kifu_buf *b, const struct kifu_search_result *res, size_t from,
		     size_t n, unsigned flags, struct kifu_store *st, struct kifu_error *err);
/* Links to the newer and older page of a list whose address (with a query) is base. */
void kifu_site_pager_(struct kifu_buf *b, const struct kifu_buf *base, long page, int more);

/* site_pattern.c: the pattern box, to /pattern/GAME/VARIANT, holding pattern (NULL: empty). */
void kifu_site_pattern_form_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *pattern, int symmetric);

#endif
