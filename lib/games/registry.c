/*
 * The registry of rules engines. Adding a game means writing its file in
 * lib/games/, declaring it here and listing it below; nothing else in
 * kifu names a game.
 */
#include <stddef.h>

#include "kifu/game.h"
#include "games/eval.h"

extern const struct kifu_game kifu_game_splay_schmidt_;
extern const struct kifu_game kifu_game_splay_kisenwether_;
extern const struct kifu_game kifu_game_splinter_;
extern const struct kifu_game kifu_game_splinter_quad_;
extern const struct kifu_game kifu_game_glaisher_;

const struct kifu_game *const kifu_games[] = {
	&kifu_game_splay_schmidt_,
	&kifu_game_splay_kisenwether_,
	&kifu_game_splinter_,
	&kifu_game_splinter_quad_,
	&kifu_game_glaisher_,
	NULL
};

extern const struct kifu_game_eval_ kifu_game_splay_schmidt_eval_;
extern const struct kifu_game_eval_ kifu_game_splay_kisenwether_eval_;
extern const struct kifu_game_eval_ kifu_game_splinter_eval_;
extern const struct kifu_game_eval_ kifu_game_splinter_quad_eval_;
extern const struct kifu_game_eval_ kifu_game_glaisher_eval_;

/* Every game's evaluation model (games/eval.h), for the fitting tool and the tests. */
const struct kifu_game_eval_ *const kifu_game_evals_[] = {
	&kifu_game_splay_schmidt_eval_,
	&kifu_game_splay_kisenwether_eval_,
	&kifu_game_splinter_eval_,
	&kifu_game_splinter_quad_eval_,
	&kifu_game_glaisher_eval_,
	NULL
};
