/*
 * The registry of rules engines. Adding a game means writing its file in
 * lib/games/, declaring it here and listing it below; nothing else in
 * kifu names a game.
 */
#include <stddef.h>

#include "kifu/game.h"

extern const struct kifu_game kifu_game_splay_schmidt;
extern const struct kifu_game kifu_game_splay_kisenwether;
extern const struct kifu_game kifu_game_splinter;
extern const struct kifu_game kifu_game_splinter_quad;
extern const struct kifu_game kifu_game_glaisher;

const struct kifu_game *const kifu_games[] = {
	&kifu_game_splay_schmidt,
	&kifu_game_splay_kisenwether,
	&kifu_game_splinter,
	&kifu_game_splinter_quad,
	&kifu_game_glaisher,
	NULL
};
