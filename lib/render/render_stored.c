/*
 * What the store knows of a game beside its record, gathered for the
 * renderers (struct kifu_render_stored): its novelty, as kifu-export,
 * kifu-analyse and kifu-serve show it for a stored game (the review is
 * the caller's: left as it is).
 */
#include "kifu/render.h"
#include "kifu/stats.h"

void kifu_render_stored_novelty(struct kifu_render_stored *out, const struct kifu_novelty *nov)
{
	out->has_novelty = nov->has_novelty;
	out->novelty_ply = nov->ply;
	out->novelty_earlier = nov->earlier;
	out->novelty_move = nov->has_novelty ? nov->move : NULL;
}
