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
/* A games list's date, game (when game) and players cells (each player a link to its page). */
void kifu_site_game_cells_(struct kifu_buf *b, const struct kifu_search_hit *h, int game);
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
/* The filters' page parameters, k from 0 to KIFU_SITE_FILTER_PARAMS - 1: f's value (or NULL) and *name. */
#define KIFU_SITE_FILTER_PARAMS 7
const char *kifu_site_filter_param_(const struct kifu_filter *f, int k, const char **name);
/* The same with f's game and variant first: a report's or a list's whole scope (site_games.c). */
void kifu_site_scope_query_(struct kifu_buf *b, const struct kifu_filter *f);
/* forms.c: a request's filter values that are not right, each its field's name and why in words. */
#define KIFU_SITE_FORM_FIELDS 8
#define KIFU_SITE_FORM_WHY (KIFU_ERROR_MSG_MAX + 64) /* a library message and a few words */
struct kifu_site_form_bad {
	int n;
	const char *field[KIFU_SITE_FORM_FIELDS]; /* "since", "as", ... (static strings) */
	char why[KIFU_SITE_FORM_FIELDS][KIFU_SITE_FORM_WHY];
};
/* f's values field by field: 0, or KIFU_EPARSE with bad filled (a page answers it, 400). */
int kifu_site_form_check_(struct kifu_site_form_bad *bad, const struct kifu_filter *f);
/* Which fields a form has besides player, dates and level. */
#define FORM_SCOPE 0x1 /* game and variant (selects) */
#define FORM_AS 0x2    /* the player's side (a select) */
#define FORM_EVENT 0x4 /* the event */
struct kifu_site_form {
	char id;                             /* the fields' ids: ID-NAME (g-since) */
	unsigned fields;                     /* FORM_* */
	const struct kifu_filter *filter;    /* the values held */
	const struct kifu_game *game;        /* the side select's game (NULL: f's game, or every game's) */
	const struct kifu_site_form_bad *bad; /* fields marked (NULL: none) */
};
/*
 * A filter form's fields, the one builder every page's form uses: each
 * labelled by its name, empty or holding its value, a hint in words beside
 * a text field, a select for the fixed choices (game, variant, side,
 * level); a bad field marked (aria-invalid, class bad) with why beside it.
 */
void kifu_site_filter_fields_(struct kifu_buf *b, const struct kifu_site_form *fm);
/* The message above a form whose fields fm->bad marks (id form-error; nothing when none is). */
void kifu_site_form_error_(struct kifu_buf *b, const struct kifu_site_form *fm);
/* f's filters as hidden inputs: another form (the pattern box) keeps the page's. */
void kifu_site_filter_hidden_(struct kifu_buf *b, const struct kifu_filter *f);
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
#define GAMES_ONE_GAME 0x10 /* no game column: the list is of one game and variant */

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

/*
 * site_pattern.c: the pattern box, to /pattern/GAME/VARIANT, holding
 * pattern (NULL: empty) and fm's filters: its fields (the pattern page),
 * or hidden (fm->fields 0: the explorer's, kept).
 */
void kifu_site_pattern_form_(struct kifu_buf *b, const char *game, const char *variant,
			     const char *pattern, int symmetric, const struct kifu_site_form *fm);

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
