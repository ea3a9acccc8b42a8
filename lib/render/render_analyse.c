/*
 * An engine review (include/kifu/analyse.h) written on its own, as
 * kifu-analyse writes it: the record with each marked move's comment
 * starting with its mark (yaml), kifu-export's json with an `analysis`
 * object and a `plies` array, and a table per game (text). The replay page
 * with the review's chart is kifu_render_html_review (lib/render/render.c,
 * lib/render/render_review.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/player.h"
#include "kifu/record.h"
#include "kifu/render.h"

int kifu_render_review_moves(char **out, const struct kifu_replay *rp,
			     const struct kifu_ply_review *plies)
{
	const struct kifu_game *g = rp->game;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	char *t;
	size_t i;

	*out = NULL;
	t = malloc(KIFU_MOVE_TEXT_MAX * (rp->nplies ? rp->nplies : 1));
	if (!t || kifu_pos_new(&pos, g, rp->variant, rp->first, &err) < 0) {
		free(t);
		return KIFU_ENOMEM;
	}
	for (i = 0; i < rp->nplies; i++) {
		g->format_move(pos->state, plies[i].best, t + i * KIFU_MOVE_TEXT_MAX);
		g->apply(pos->state, rp->moves[i]);
	}
	kifu_pos_free(pos);
	*out = t;
	return 0;
}

int kifu_render_review_yaml(struct kifu_buf *b, struct kifu_record *rec,
			    const struct kifu_replay *rp, const struct kifu_render_review *review)
{
	const struct kifu_ply_review *rv = review->plies;
	const char *best = review->best;
	struct kifu_error err;
	char **saved = calloc(rp->nplies + 1, sizeof(*saved));
	size_t i;
	int ret = 0;

	if (!saved)
		return KIFU_ENOMEM;
	for (i = 0; i < rp->nplies && ret == 0; i++) {
		struct kifu_turn *t = &rec->turns[i];
		struct kifu_buf c = KIFU_BUF_INIT;

		saved[i] = t->comment;
		if (!rv[i].mark)
			continue;
		kifu_buf_printf(&c, "%s best %s %.2f, played %.2f", kifu_analyse_mark_text(rv[i].mark),
				best + i * KIFU_MOVE_TEXT_MAX, rv[i].best_score, rv[i].played_score);
		if (rv[i].played_proof == KIFU_PROOF_LOSS)
			kifu_buf_printf(&c, ", loses by force in %d pl%s", rv[i].played_plies,
						rv[i].played_plies == 1 ? "y" : "ies");
		if (t->comment)
			kifu_buf_printf(&c, "; %s", t->comment);
		if (c.failed) {
			kifu_buf_release(&c);
			ret = KIFU_ENOMEM;
			break;
		}
		t->comment = kifu_buf_detach(&c); /* borrowed until the record is written */
	}
	if (ret == 0)
		ret = kifu_record_write(b, rec, rp, &err);
	for (i = 0; i < rp->nplies; i++) {
		if (rec->turns[i].comment != saved[i])
			kifu_buf_detached_free(rec->turns[i].comment);
		rec->turns[i].comment = saved[i];
	}
	free(saved);
	return ret;
}

/* ,"sides":{SIDE:{accuracy, inaccuracies, mistakes, blunders, mean_loss}} (kifu_analyse_sides). */
static void review_sides_json(struct kifu_buf *b, const struct kifu_game *g,
			      const struct kifu_ply_review *rv, size_t n)
{
	struct kifu_analyse_side sides[KIFU_GAME_SIDES_MAX];
	int s;

	kifu_analyse_sides(sides, g->nsides, rv, n);
	kifu_buf_puts(b, ",\n  \"sides\":{");
	for (s = 0; s < g->nsides; s++) {
		kifu_buf_puts(b, s ? "," : "");
		kifu_buf_json_string(b, g->sides[s]);
		if (sides[s].moves)
			kifu_buf_printf(b, ":{\"accuracy\":%.1f,", sides[s].accuracy);
		else
			kifu_buf_puts(b, ":{\"accuracy\":null,");
		kifu_buf_printf(b, "\"inaccuracies\":%d,\"mistakes\":%d,\"blunders\":%d,",
				sides[s].inaccuracies, sides[s].mistakes, sides[s].blunders);
		if (sides[s].moves)
			kifu_buf_printf(b, "\"mean_loss\":%.4f}", sides[s].mean_loss);
		else
			kifu_buf_puts(b, "\"mean_loss\":null}");
	}
	kifu_buf_putc(b, '}');
}

int kifu_render_review_json(struct kifu_buf *b, const struct kifu_record *rec,
			    const struct kifu_replay *rp, const struct kifu_render_review *review)
{
	const struct kifu_game *g = rp->game;
	const struct kifu_ply_review *rv = review->plies;
	const char *best = review->best;
	size_t i;
	int ret = kifu_record_write_json_head(b, rec, rp);

	if (ret < 0)
		return ret;
	kifu_buf_puts(b, ",\n  \"analysis\":{\"engine\":");
	kifu_buf_json_string(b, review->spec ? review->spec : "mcts");
	kifu_buf_printf(b, ",\"playouts\":%ld,\"seed\":%llu}", review->playouts,
			(unsigned long long)review->seed);
	kifu_buf_puts(b, ",\n  \"plies\":[");
	for (i = 0; i < rp->nplies; i++) {
		const struct kifu_ply_review *p = &rv[i];
		const char *mark = kifu_analyse_mark_text(p->mark);

		kifu_buf_printf(b, "%s\n    {\"ply\":%zu,\"side\":", i ? "," : "", p->ply);
		kifu_buf_json_string(b, g->sides[p->side]);
		kifu_buf_puts(b, ",\"move\":");
		kifu_buf_json_string(b, kifu_replay_text(rp, i + 1));
		kifu_buf_printf(b, ",\"expected\":%.4f,\"best\":", p->expected);
		kifu_buf_json_string(b, best + i * KIFU_MOVE_TEXT_MAX);
		kifu_buf_printf(b, ",\"best_score\":%.4f,\"played_score\":%.4f,\"loss\":%.4f,\"mark\":",
				p->best_score, p->played_score, p->loss);
		if (mark)
			kifu_buf_json_string(b, mark);
		else
			kifu_buf_puts(b, "null");
		if (p->best_proof == KIFU_PROOF_WIN)
			kifu_buf_printf(b, ",\"won_in\":%d", p->best_plies);
		else
			kifu_buf_puts(b, ",\"won_in\":null");
		if (p->played_proof == KIFU_PROOF_LOSS)
			kifu_buf_printf(b, ",\"loses_in\":%d", p->played_plies);
		else
			kifu_buf_puts(b, ",\"loses_in\":null");
		kifu_buf_putc(b, '}');
	}
	kifu_buf_puts(b, rp->nplies ? "\n  ]" : "]");
	review_sides_json(b, g, rv, rp->nplies);
	kifu_buf_puts(b, "\n}");
	return b->failed ? KIFU_ENOMEM : 0;
}

int kifu_render_review_text(struct kifu_buf *b, const struct kifu_replay *rp,
			    const struct kifu_render_review *review, const char *label)
{
	const struct kifu_game *g = rp->game;
	const struct kifu_ply_review *rv = review->plies;
	const char *best = review->best;
	struct kifu_analyse_side sides[KIFU_GAME_SIDES_MAX];
	size_t i;
	int s;

	kifu_buf_printf(b, "%s: %s, variant %s; %s, seed %llu\n", label, g->name,
			g->variants[rp->variant], review->spec ? review->spec : "mcts",
			(unsigned long long)review->seed);
	kifu_buf_printf(b, "%5s  %-8s %-18s %8s  %-18s %10s %12s %6s  %s\n", "ply", "side", "move",
			"expected", "best", "best_score", "played_score", "loss", "mark");
	for (i = 0; i < rp->nplies; i++) {
		const struct kifu_ply_review *p = &rv[i];
		const char *mark = kifu_analyse_mark_text(p->mark);
		char expected[32];

		/* the solver's word where it has one: the mover's best move won, or every move lost */
		if (p->best_proof == KIFU_PROOF_WIN)
			snprintf(expected, sizeof(expected), "won in %d", p->best_plies);
		else if (p->best_proof == KIFU_PROOF_LOSS)
			snprintf(expected, sizeof(expected), "lost in %d", p->best_plies);
		else
			snprintf(expected, sizeof(expected), "%.3f", p->expected);
		kifu_buf_printf(b, "%5zu  %-8s %-18s %8s  %-18s %10.3f %12.3f %6.3f  %s", p->ply,
				g->sides[p->side], kifu_replay_text(rp, i + 1), expected,
				best + i * KIFU_MOVE_TEXT_MAX, p->best_score, p->played_score, p->loss,
				mark ? mark : "");
		if (p->played_proof == KIFU_PROOF_LOSS)
			kifu_buf_printf(b, " loses by force in %d pl%s", p->played_plies,
					p->played_plies == 1 ? "y" : "ies");
		kifu_buf_putc(b, '\n');
	}
	/* a line per side: its accuracy, marks and mean loss */
	kifu_analyse_sides(sides, g->nsides, rv, rp->nplies);
	for (s = 0; s < g->nsides; s++) {
		if (!sides[s].moves) {
			kifu_buf_printf(b, "%s: no move reviewed\n", g->sides[s]);
			continue;
		}
		kifu_buf_printf(b, "%s: accuracy %.1f, %d ?!, %d ?, %d ??, mean loss %.3f over %zu "
				"moves\n", g->sides[s], sides[s].accuracy, sides[s].inaccuracies,
				sides[s].mistakes, sides[s].blunders, sides[s].mean_loss,
				sides[s].moves);
	}
	return b->failed ? KIFU_ENOMEM : 0;
}
