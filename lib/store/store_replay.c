/*
 * The replay of a stored game's moves (store_impl.h,
 * kifu_store_replay_stored_), one for every reader that replays stored
 * games: the tree's replay to the ply that first reached a position,
 * schema 8's cells summaries, the pattern search. The move list is read
 * where it lies (util/json_list.h), as the import's canonical texts.
 */
#include <string.h>

#include "store/store_impl.h"
#include "util/json_list.h"

/* The longest move text replayed (a longer one does not replay: no game's moves are so long). */
#define MOVE_TEXT_MAX 256

int kifu_store_replay_stored_(const struct kifu_game *g, void *state, const char *moves,
			      int (*each)(void *ctx, const void *state, size_t ply), void *ctx)
{
	struct kifu_json_list l;
	struct kifu_json_item it;
	struct kifu_error why;
	char text[MOVE_TEXT_MAX];
	size_t ply = 0;
	int ret = each(ctx, state, 0);

	if (ret != 0 || !moves || kifu_json_list_open_(&l, moves, strlen(moves)) < 0)
		return ret;
	/* As the import replayed it: up to the first move that does not replay. */
	while (ret == 0 && kifu_json_list_next_(&l, &it) == 1) {
		kifu_move m;

		if (kifu_json_item_decode_(text, sizeof(text), &it) < 0 ||
		    g->parse_move(state, text, &m, &why) < 0)
			break;
		g->apply(state, m);
		ret = each(ctx, state, ++ply);
	}
	return ret;
}
