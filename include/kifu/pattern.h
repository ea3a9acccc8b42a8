/*
 * Partial-board patterns: "these cells show these contents, whatever the
 * rest of the board", as Kombilo searches Go games and ChessBase searches
 * partial positions. A pattern is written as comma-separated CELL=TOKEN
 * items, TOKEN being what the game's text diagram (render_text) writes in
 * that cell ("w3", "Bk", "r6"), or "." (empty), "+" (anything but empty),
 * "*" (anything), or a side's letter and "+" (any piece of that side: "w+",
 * "Y+"; the letter is the first of the side's name, either case).
 */
#ifndef KIFU_PATTERN_H
#define KIFU_PATTERN_H

#include "kifu/error.h"
#include "kifu/game.h"

/* Longest pattern text accepted, in bytes. */
#define KIFU_PATTERN_TEXT_MAX 4096

struct kifu_pattern;

/*
 * Parses text for variant of game g (which must have the cell entries of
 * its interface). With symmetric, kifu_pattern_match also accepts the
 * pattern's images under the game's board symmetries. Returns 0, or
 * KIFU_EPARSE with a message naming the item and the valid cells or tokens
 * ("unknown cell 'z9' in pattern (did you mean 'e9'?)"), KIFU_ENOTFOUND for
 * a game without cells, KIFU_ENOMEM. *out belongs to the caller
 * (kifu_pattern_free).
 */
int kifu_pattern_parse(struct kifu_pattern **out, const struct kifu_game *g, int variant,
		       const char *text, int symmetric, struct kifu_error *err);
void kifu_pattern_free(struct kifu_pattern *p);

/* Number of CELL=TOKEN items. */
int kifu_pattern_size(const struct kifu_pattern *p);

/*
 * 1 when state (a position of the pattern's game and variant) shows the
 * pattern, or with symmetric one of its images; 0 otherwise.
 */
int kifu_pattern_match(const struct kifu_pattern *p, const void *state);

/*
 * A game's pattern summary, kept at import so that a search replays only
 * the games that may show a pattern: for every side, the cells its pieces
 * stood on at some ply, KIFU_CELL_WORDS words per side
 * (KIFU_PATTERN_SUMMARY_WORDS(g) in all, zeroed before the first ply).
 * kifu_pattern_summary_add adds one position (side_cells, else cell_token).
 */
#define KIFU_PATTERN_SUMMARY_WORDS(g) ((size_t)(g)->nsides * KIFU_CELL_WORDS)
void kifu_pattern_summary_add(uint64_t *sum, const struct kifu_game *g, const void *state);

/*
 * The summary of the game playing moves[0..n) from the start of variant
 * with side first to move (every position, the start included), into sum
 * (zeroed here). scratch: g->state_size bytes. Returns 0, or KIFU_ENOTFOUND
 * (a game without cells, a variant or side out of range).
 */
int kifu_pattern_summary_moves(uint64_t *sum, const struct kifu_game *g, int variant, int first,
			       const kifu_move *moves, size_t n, void *scratch);

/*
 * A summary as the store keeps it: for each side, (ncells + 7) / 8 bytes,
 * cell c in bit c % 8 of byte c / 8. pack writes
 * KIFU_PATTERN_PACKED_SIZE(g, ncells) bytes; unpack reads them back, and
 * returns KIFU_ERANGE when len is not that size (a damaged database).
 */
#define KIFU_PATTERN_PACKED_SIZE(g, ncells) ((size_t)(g)->nsides * (((size_t)(ncells) + 7) / 8))
void kifu_pattern_summary_pack(unsigned char *out, const struct kifu_game *g, int ncells,
			       const uint64_t *sum);
int kifu_pattern_summary_unpack(uint64_t *sum, const struct kifu_game *g, int ncells,
				const unsigned char *in, size_t len);

/*
 * 0 when no position of a game with summary sum can show p (an item needs
 * a side on a cell no piece of that side ever stood on, in every image); 1
 * when one may.
 */
int kifu_pattern_may_match(const struct kifu_pattern *p, const uint64_t *sum);

#endif
