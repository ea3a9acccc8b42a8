/*
 * Format 2's lines on the replay page (kifu-export html, kifu-serve's game
 * page): every move of every line becomes a position of its own, numbered
 * after the main line's (nplies + 1 on, in the order the move list shows
 * them), with its picture and figures (written as changes from the position
 * before it, render_page.c), text and its neighbours in its line, so
 * that the page's script can follow a line on the board and return to the
 * game. The move list shows each line under the move it replaces, nested
 * lines under their move, nags beside every move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "render/html.h"
#include "render/render_impl.h"

static int grow(struct kifu_render_lines_ *rl)
{
	if (rl->n == rl->cap) {
		size_t cap = rl->cap ? rl->cap * 2 : 16;
		struct kifu_render_node_ *v = realloc(rl->v, cap * sizeof(*v));

		if (!v)
			return KIFU_ENOMEM;
		rl->v = v;
		rl->cap = cap;
	}
	memset(&rl->v[rl->n], 0, sizeof(rl->v[0]));
	return 0;
}

static int add_turns(struct kifu_render_lines_ *rl, const struct kifu_game *g,
		     const struct kifu_replay *rp, const struct kifu_turn *t, const void *before,
		     const struct kifu_render_shown_ *shown, size_t ply, size_t main, size_t *xi);

/*
 * The nodes of line l, played from before (the position before the move it
 * replaces, at ply, showing shown), its moves' texts from the replay's walk
 * (*xi).
 */
static int add_line(struct kifu_render_lines_ *rl, const struct kifu_game *g,
		    const struct kifu_replay *rp, const struct kifu_line *l, const void *before,
		    const struct kifu_render_shown_ *shown, size_t ply, size_t main, size_t *xi)
{
	void *state;
	struct kifu_render_shown_ *here; /* what the line's position shows, move by move */
	long prev = rl->prev_of_line; /* the position before the move it replaces */
	size_t k;
	int ret;

	/* (the record's reader allows KIFU_RECORD_MAX_LEVELS levels of lines) */
	if (rl->level >= KIFU_RECORD_MAX_LEVELS + 1)
		return KIFU_EINVALID;
	if (!rl->at[rl->level].state && !(rl->at[rl->level].state = malloc(g->state_size)))
		return KIFU_ENOMEM;
	state = rl->at[rl->level].state;
	here = &rl->at[rl->level].shown;
	rl->level++;
	memcpy(state, before, g->state_size);
	ret = kifu_render_shown_copy_(here, shown);
	for (k = 0; k < l->nturns && ret == 0; k++) {
		const struct kifu_turn *lt = &l->turns[k];
		const char *text = kifu_replay_xtext(rp, (*xi)++);
		struct kifu_render_node_ *nd;
		struct kifu_error err;
		kifu_move m;
		size_t idx;

		if (!text || g->parse_move(state, text, &m, &err) < 0) {
			ret = KIFU_EINVALID; /* only a complete replay draws a page */
			break;
		}
		if (lt->eval || lt->nlines) {
			/* its own lines first: they start from this position */
			long saved = rl->prev_of_line;

			rl->prev_of_line = prev;
			if ((ret = grow(rl)) < 0)
				break;
			/* reserve this move's node, so that the list keeps the move before its lines */
			idx = rl->n++;
			ret = add_turns(rl, g, rp, lt, state, here, ply + k, main, xi);
			rl->prev_of_line = saved;
		} else {
			if ((ret = grow(rl)) < 0)
				break;
			idx = rl->n++;
		}
		if (ret < 0)
			break;
		nd = &rl->v[idx];
		nd->turn = lt;
		nd->mover = g->side_to_move(state);
		nd->text = text;
		g->apply(state, m);
		ret = kifu_render_page_position_(rl->page, rl->base + idx, state, &m, NULL, here);
		nd->ply = ply + k;
		nd->main = main;
		nd->prev = prev;
		nd->next = -1;
		nd->first = k == 0;
		if (k > 0)
			rl->v[rl->last_of_line].next = (long)(rl->base + idx);
		rl->last_of_line = idx;
		prev = (long)(rl->base + idx);
	}
	rl->level--;
	return ret;
}

/* The nodes of turn t's lines (t played at ply from before); skips its eval's text. */
static int add_turns(struct kifu_render_lines_ *rl, const struct kifu_game *g,
		     const struct kifu_replay *rp, const struct kifu_turn *t, const void *before,
		     const struct kifu_render_shown_ *shown, size_t ply, size_t main, size_t *xi)
{
	size_t j, saved_last = rl->last_of_line;
	int ret = 0;

	if (t->eval)
		(*xi)++;
	for (j = 0; j < t->nlines && ret == 0; j++)
		ret = add_line(rl, g, rp, &t->lines[j], before, shown, ply, main, xi);
	rl->last_of_line = saved_last;
	return ret;
}

int kifu_render_lines_add_(struct kifu_render_lines_ *rl, const struct kifu_record *rec,
			   const struct kifu_replay *rp, size_t ply, const void *before,
			   const struct kifu_render_shown_ *shown)
{
	const struct kifu_turn *t = ply >= 1 && ply <= rec->nturns ? &rec->turns[ply - 1] : NULL;
	size_t i;

	if (ply != rl->next_ply)
		for (rl->xi = 0, i = 1; i < ply && i <= rec->nturns; i++)
			rl->xi += kifu_turn_texts(&rec->turns[i - 1]);
	rl->next_ply = ply + 1;
	if (!t || (!t->nlines && !t->eval))
		return 0;
	rl->prev_of_line = (long)ply - 1;
	{
		size_t x0 = rl->xi;
		int ret = add_turns(rl, rp->game, rp, t, before, shown, ply, ply, &rl->xi);

		rl->xi = x0 + kifu_turn_texts(t);
		return ret;
	}
}

void kifu_render_lines_release_(struct kifu_render_lines_ *rl)
{
	int i;

	for (i = 0; i <= KIFU_RECORD_MAX_LEVELS; i++) {
		free(rl->at[i].state);
		kifu_render_shown_release_(&rl->at[i].shown);
	}
	free(rl->v);
	memset(rl, 0, sizeof(*rl));
}

static void put_nag(struct kifu_buf *b, const char *nag)
{
	if (!nag)
		return;
	kifu_buf_puts(b, "<span class=\"nag\">");
	kifu_render_html_text_(b, nag);
	kifu_buf_puts(b, "</span>");
}

void kifu_render_nag_(struct kifu_buf *b, const char *nag)
{
	put_nag(b, nag);
}

/* The lines of turn t, from node *k on (in the order they were added). */
static void put_lines(struct kifu_buf *b, const struct kifu_render_lines_ *rl,
		      const struct kifu_game *g, const struct kifu_turn *t, size_t *k)
{
	size_t j, i;
	int after;

	if (!t->nlines)
		return;
	kifu_buf_puts(b, "<div class=\"lines\">");
	for (j = 0; j < t->nlines; j++) {
		kifu_buf_puts(b, "<div class=\"line\">");
		/* numbered as PGN numbers them: a line's first move, and after a comment or a line */
		for (i = 0, after = 1; i < t->lines[j].nturns && *k < rl->n; i++) {
			const struct kifu_render_node_ *nd = &rl->v[(*k)++];
			const struct kifu_turn *lt = nd->turn;

			kifu_buf_printf(b, "<button data-ply=\"%zu\" title=\"%s\">", rl->base + *k - 1,
					g->sides[nd->mover]);
			if (g->nsides == 2 && (nd->ply % 2 == 1 || after))
				kifu_buf_printf(b, "<span class=\"n\">%zu.%s</span>", (nd->ply + 1) / 2,
						nd->ply % 2 ? "" : "..");
			kifu_render_html_text_(b, nd->text);
			put_nag(b, lt->nag);
			if (lt->comment) {
				kifu_buf_puts(b, " <span class=\"c\">");
				kifu_render_html_text_(b, lt->comment);
				kifu_buf_puts(b, "</span>");
			}
			kifu_buf_puts(b, "</button>");
			put_lines(b, rl, g, lt, k);
			after = lt->comment || lt->nlines;
		}
		kifu_buf_puts(b, "</div>");
	}
	kifu_buf_puts(b, "</div>");
}

void kifu_render_lines_list_(struct kifu_buf *b, const struct kifu_render_lines_ *rl,
			     const struct kifu_game *g, const struct kifu_turn *t, size_t *k)
{
	put_lines(b, rl, g, t, k);
}

void kifu_render_lines_script_(struct kifu_buf *b, const struct kifu_render_lines_ *rl)
{
	size_t i;

	kifu_buf_printf(b, "var MAIN = %zu;\nvar NODE = {", rl->base - 1);
	for (i = 0; i < rl->n; i++)
		kifu_buf_printf(b, "%s\n%zu:[%ld,%ld,%zu,%zu]", i ? "," : "", rl->base + i,
				rl->v[i].prev, rl->v[i].next, rl->v[i].main, rl->v[i].ply);
	kifu_buf_puts(b, "};\n");
}
