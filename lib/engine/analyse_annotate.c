/*
 * An engine review written into its game's record (kifu-analyse
 * --annotate, CLI.md), as format 2 of RECORDS.md: every analysed move's
 * `eval` (the reviewing spec, the mover's expected score, the engine's
 * move), each marked move's mark as its `nag`, and at each ? or ?? a line
 * of the engine's principal line from the position before the move, after
 * the lines the move had unless one of them already starts with the same
 * moves, as long as the game's turns, its lines included, stay within
 * RECORDS.md's limit (a line that would pass it is left out, and counted,
 * so that the record always reads back). Comments stay as they were. The
 * record's own writers (yaml, pgn) and kifu-export's json then write it:
 * nothing here writes text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/replay.h"

/* Whether line l, replayed from state (copied into scratch), starts with the n moves m. */
static int starts_with(const struct kifu_game *g, void *scratch, const void *state,
		       const struct kifu_line *l, const kifu_move *m, int n)
{
	struct kifu_error err;
	kifu_move mv;
	int k;

	if (l->nturns < (size_t)n)
		return 0;
	memcpy(scratch, state, g->state_size);
	for (k = 0; k < n; k++) {
		/* the record was validated, so its lines parse; what does not is no match */
		if (!l->turns[k].text || g->parse_move(scratch, l->turns[k].text, &mv, &err) < 0 ||
		    mv != m[k])
			return 0;
		g->apply(scratch, mv);
	}
	return 1;
}

/*
 * Turn t's new line: p's principal line from state (the position before
 * the move), cut where the game ends; nothing when a line of t already
 * starts with those moves. Returns 1 when the line was left out because
 * the record would then pass KIFU_RECORD_MAX_TURNS.
 */
static int add_line(struct kifu_record *rec, struct kifu_turn *t, const struct kifu_game *g,
		    const void *state, void *scratch, const struct kifu_ply_review *p,
		    struct kifu_error *err)
{
	char text[KIFU_MOVE_TEXT_MAX];
	const kifu_move *m = p->line;
	struct kifu_outcome oc;
	struct kifu_line *l;
	size_t j;
	int n = 0, k;

	/* a review without its line (none kept) still names the engine's move */
	if (p->nline < 1 || p->line[0] != p->best)
		m = &p->best;
	memcpy(scratch, state, g->state_size);
	while (n < (m == p->line ? p->nline : 1)) {
		g->apply(scratch, m[n++]);
		g->outcome(scratch, &oc);
		if (oc.status != KIFU_ONGOING)
			break;
	}
	for (j = 0; j < t->nlines; j++)
		if (starts_with(g, scratch, state, &t->lines[j], m, n))
			return 0;
	/* RECORDS.md counts every turn of a game, its lines included: the record must read back */
	if (rec->nturns + rec->line_turns + (size_t)n > KIFU_RECORD_MAX_TURNS)
		return 1;
	l = kifu_record_turn_add_line(rec, t, err);
	if (!l)
		return KIFU_ENOMEM;
	memcpy(scratch, state, g->state_size);
	for (k = 0; k < n; k++) {
		g->format_move(scratch, m[k], text);
		if (!kifu_record_line_add_turn(rec, l, text, NULL, NULL))
			return kifu_error_set(err, KIFU_ENOMEM, "annotation: out of memory");
		g->apply(scratch, m[k]);
	}
	return 0;
}

int kifu_analyse_annotate(struct kifu_record *rec, const struct kifu_replay *rp,
			  const struct kifu_ply_review *rv, const char *spec, struct kifu_error *err)
{
	const struct kifu_game *g = rp->game;
	struct kifu_pos *pos = NULL;
	void *scratch = NULL;
	char best[KIFU_MOVE_TEXT_MAX], expected[32];
	size_t i;
	int ret, left_out = 0;

	ret = kifu_pos_new(&pos, g, rp->variant, rp->first, err);
	if (ret < 0)
		return ret;
	scratch = malloc(g->state_size ? g->state_size : 1);
	if (!scratch) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "annotation: out of memory");
		goto out;
	}
	for (i = 0; ret == 0 && i < rp->nplies && i < rec->nturns; i++) {
		struct kifu_turn *t = &rec->turns[i];
		const struct kifu_ply_review *p = &rv[i];

		g->format_move(pos->state, p->best, best);
		/* as the review's json writes it, so that the two read alike */
		snprintf(expected, sizeof(expected), "%.4f", p->expected);
		ret = kifu_record_turn_eval(rec, t, spec, expected, best, err);
		if (ret == 0 && p->mark)
			ret = kifu_record_turn_nag(rec, t, kifu_analyse_mark_text(p->mark), err);
		if (ret == 0 && p->mark >= KIFU_REVIEW_MISTAKE) {
			ret = add_line(rec, t, g, pos->state, scratch, p, err);
			if (ret > 0)
				left_out++;
			ret = ret > 0 ? 0 : ret;
		}
		g->apply(pos->state, rp->moves[i]);
	}
	if (ret == 0)
		rec->format = 2;
out:
	free(scratch);
	kifu_pos_free(pos);
	return ret < 0 ? ret : left_out;
}
