/*
 * The renderers of include/kifu/render.h: JSON, text diagrams and SVG (the
 * self-contained HTML replay page is render_page.c's). The pictures come
 * from each engine's render_svg and render_text, walked ply by ply over a
 * fresh position, so that what is shown is exactly what the engine holds
 * at each ply.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/analyse.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "render/html.h"
#include "render/render_impl.h"

/* ---- what every format needs from a game ---- */

void kifu_render_result_of_(const struct kifu_record *rec, const char **result, const char **term)
{
	*result = rec->result ? rec->result : "unfinished";
	*term = rec->termination;
	if (!*term && strcmp(*result, "unfinished") != 0)
		*term = "rules";
}

const char *kifu_render_player_name_(const struct kifu_record *rec, const char *side)
{
	size_t i;

	for (i = 0; i < rec->nplayers; i++)
		if (!strcmp(rec->players[i].side, side) && rec->players[i].name)
			return rec->players[i].name;
	return NULL;
}

/*
 * Walks the replay: calls fn for every ply from `from` to `to` with the
 * position after that ply (ply 0: the start). Returns 0, KIFU_ENOMEM, or
 * what fn returned when negative.
 */
static int walk_plies(const struct kifu_replay *rp, size_t from, size_t to,
		      int (*fn)(void *ctx, const struct kifu_replay *rp, size_t ply,
				const void *state),
		      void *ctx)
{
	const struct kifu_game *g = rp->game;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	size_t ply;
	int ret;

	ret = kifu_pos_new(&pos, g, rp->variant, rp->first, &err);
	if (ret < 0)
		goto out;
	for (ply = 0; ply <= to; ply++) {
		if (ply > 0)
			g->apply(pos->state, rp->moves[ply - 1]);
		if (ply < from)
			continue;
		ret = fn(ctx, rp, ply, pos->state);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	kifu_pos_free(pos);
	return ret;
}

/* The side that played ply (1-based): the side to move before it. */
struct mover_ctx {
	int *movers;
};

static int note_mover(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct mover_ctx *m = ctx;

	if (ply < rp->nplies)
		m->movers[ply + 1] = rp->game->side_to_move(state);
	return 0;
}

/* ---- json ---- */

static void json_figures(struct kifu_buf *b, const struct kifu_figure *f, int n)
{
	int i;

	kifu_buf_putc(b, '{');
	for (i = 0; i < n; i++) {
		if (i)
			kifu_buf_putc(b, ',');
		kifu_buf_json_string(b, f[i].key);
		kifu_buf_putc(b, ':');
		if (f[i].type == KIFU_FIG_TEXT)
			kifu_buf_json_string(b, f[i].text);
		else
			kifu_buf_printf(b, "%ld", f[i].num);
	}
	kifu_buf_putc(b, '}');
}

static int json_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct kifu_buf *b = ctx;
	struct kifu_figure f[KIFU_FIGURES_MAX];
	int n = rp->game->figures(state, f);

	kifu_buf_printf(b, "%s\n    {\"ply\":%zu,\"move\":", ply ? "," : "", ply);
	if (ply)
		kifu_buf_json_string(b, kifu_replay_text(rp, ply));
	else
		kifu_buf_puts(b, "null");
	kifu_buf_printf(b, ",\"hash\":\"%016llx\",\"figures\":",
			(unsigned long long)rp->hashes[ply]);
	json_figures(b, f, n);
	return kifu_buf_putc(b, '}');
}

int kifu_render_json(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const struct kifu_render_stored *stored)
{
	int ret;

	ret = kifu_record_write_json_head(b, rec, rp);
	if (ret < 0)
		return ret;
	if (stored && stored->has_novelty)
		kifu_buf_printf(b, ",\n  \"novelty_ply\":%ld", stored->novelty_ply);
	else if (stored)
		kifu_buf_puts(b, ",\n  \"novelty_ply\":null");
	kifu_buf_puts(b, ",\n  \"plies\":[");
	ret = walk_plies(rp, 0, rp->nplies, json_ply, b);
	kifu_buf_puts(b, "\n  ]");
	if (ret == 0 && stored && stored->review) {
		kifu_buf_puts(b, ",\n  \"review\":");
		ret = kifu_render_review_json(b, rec, rp, stored->review);
	}
	kifu_buf_puts(b, "\n}");
	return ret < 0 ? ret : b->failed ? KIFU_ENOMEM : 0;
}

/* ---- text ---- */

struct text_ctx {
	struct kifu_buf *b;
	int *movers;
	const struct kifu_record *rec;
	size_t next_ply, xi; /* the first text of ply next_ply's lines in the replay's walk */
};

/*
 * The lines of turn t (played at ply), each on a line of its own indented
 * under its move, two more spaces for each level: "line 1: 2. d4! 3. c2";
 * a line's own lines follow it, naming the move they replace.
 */
static void text_lines(struct kifu_buf *b, const struct kifu_turn *t, size_t ply,
		       const struct kifu_replay *rp, size_t *xi, int depth)
{
	size_t j, k;

	if (t->eval)
		(*xi)++;
	for (j = 0; j < t->nlines; j++) {
		const struct kifu_line *l = &t->lines[j];
		size_t x0 = *xi;

		kifu_buf_printf(b, "%*sline %zu: ", 2 * depth, "", j + 1);
		for (k = 0; k < l->nturns; k++) {
			const struct kifu_turn *lt = &l->turns[k];
			const char *text = kifu_replay_xtext(rp, (*xi)++);

			kifu_buf_printf(b, "%s%zu. ", k ? " " : "", ply + k);
			kifu_buf_escaped(b, text ? text : lt->text ? lt->text : "");
			kifu_buf_puts(b, lt->nag ? lt->nag : "");
			if (lt->comment) {
				kifu_buf_puts(b, " {");
				kifu_buf_escaped(b, lt->comment);
				kifu_buf_putc(b, '}');
			}
			*xi += kifu_turn_texts(lt);
		}
		kifu_buf_putc(b, '\n');
		/* again, for the lines of the line's moves, now that the line is written */
		*xi = x0;
		for (k = 0; k < l->nturns; k++) {
			(*xi)++;
			text_lines(b, &l->turns[k], ply + k, rp, xi, depth + 1);
		}
	}
}

/*
 * The hash printed is the one of the position replayed here, not the
 * validator's: the two replays are compared by the tests.
 */
static int text_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct text_ctx *t = ctx;
	unsigned long long h = rp->game->hash(state);

	if (ply) {
		const struct kifu_turn *turn = ply <= t->rec->nturns ? &t->rec->turns[ply - 1] : NULL;
		size_t i;

		if (ply != t->next_ply)
			for (t->xi = 0, i = 1; i < ply && i <= t->rec->nturns; i++)
				t->xi += kifu_turn_texts(&t->rec->turns[i - 1]);
		kifu_buf_printf(t->b, "\nply %zu: %s%s (%s), hash %016llx\n", ply,
				kifu_replay_text(rp, ply), turn && turn->nag ? turn->nag : "",
				rp->game->sides[t->movers[ply]], h);
		if (turn) {
			size_t x0 = t->xi;

			text_lines(t->b, turn, ply, rp, &t->xi, 1);
			t->xi = x0 + kifu_turn_texts(turn);
		}
		t->next_ply = ply + 1;
	} else
		kifu_buf_printf(t->b, "\nply 0: start, hash %016llx\n", h);
	return rp->game->render_text(t->b, state);
}

static int put_text(struct kifu_buf *b, const struct kifu_record *rec,
		    const struct kifu_replay *rp, const char *label, long ply, int *movers)
{
	const struct kifu_game *g = rp->game;
	struct text_ctx t = { b, movers, rec, 1, 0 };
	const char *result, *term;
	int s;

	kifu_render_result_of_(rec, &result, &term);
	/* Text for a terminal: what a record (or a file name) holds is escaped. */
	kifu_buf_escaped(b, label);
	kifu_buf_printf(b, ": %s, variant %s\n", g->name, g->variants[rp->variant]);
	/* when and where, as a PGN's Date and Event head it */
	if (rec->date) {
		kifu_buf_puts(b, "date: ");
		kifu_buf_escaped(b, rec->date);
	}
	if (rec->event) {
		kifu_buf_puts(b, rec->date ? "; event: " : "event: ");
		kifu_buf_escaped(b, rec->event);
	}
	if (rec->date || rec->event)
		kifu_buf_putc(b, '\n');
	for (s = 0; g->sides[s]; s++) {
		const char *name = kifu_render_player_name_(rec, g->sides[s]);

		kifu_buf_printf(b, "%s%s: ", s ? "; " : "", g->sides[s]);
		kifu_buf_escaped(b, name ? name : "-");
	}
	kifu_buf_printf(b, "\nresult: %s%s%s%s, %zu pl%s\n", result, term ? " (" : "",
			term ? term : "", term ? ")" : "", rp->nplies, rp->nplies == 1 ? "y" : "ies");
	if (ply >= 0)
		return walk_plies(rp, (size_t)ply, (size_t)ply, text_ply, &t);
	return walk_plies(rp, 0, rp->nplies, text_ply, &t);
}

/* ---- svg ---- */

struct svg_ctx {
	struct kifu_buf *b;
};

static int svg_ply(void *ctx, const struct kifu_replay *rp, size_t ply, const void *state)
{
	struct svg_ctx *s = ctx;

	return kifu_game_render_svg(s->b, rp->game, state, ply ? &rp->moves[ply - 1] : NULL);
}

int kifu_render_svg(struct kifu_buf *b, const struct kifu_replay *rp, size_t ply)
{
	struct svg_ctx s = { b };

	kifu_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	return walk_plies(rp, ply, ply, svg_ply, &s);
}

/* The side that played each ply (movers[1..nplies]), or NULL when out of memory. */
static int *movers_of(const struct kifu_replay *rp)
{
	struct mover_ctx mc;

	mc.movers = calloc(rp->nplies + 1, sizeof(*mc.movers));
	if (mc.movers && walk_plies(rp, 0, rp->nplies, note_mover, &mc) < 0) {
		free(mc.movers);
		mc.movers = NULL;
	}
	return mc.movers;
}

int kifu_render_text(struct kifu_buf *b, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const char *label, long ply)
{
	int *movers = movers_of(rp);
	int ret = movers ? put_text(b, rec, rp, label, ply, movers) : KIFU_ENOMEM;

	free(movers);
	return ret == 0 && b->failed ? KIFU_ENOMEM : ret;
}
