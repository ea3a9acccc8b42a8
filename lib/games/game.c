/*
 * Generic services over the game interface: registry look-ups by name,
 * positions with their game (kifu_pos), playing a comma-separated move list,
 * and perft. Nothing here knows any game's rules.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"

const struct kifu_game *kifu_game_find(const char *name)
{
	const struct kifu_game *const *g;

	for (g = kifu_games; *g; g++)
		if (!strcmp((*g)->name, name))
			return *g;
	return NULL;
}

static int name_index(const char *const *names, const char *name)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int kifu_game_variant_index(const struct kifu_game *g, const char *name)
{
	return name_index(g->variants, name);
}

int kifu_game_side_index(const struct kifu_game *g, const char *name)
{
	return name_index(g->sides, name);
}

int kifu_game_variant_count(const struct kifu_game *g)
{
	int n = 0;

	while (g->variants[n])
		n++;
	return n;
}

int kifu_game_render_svg(struct kifu_buf *out, const struct kifu_game *g, const void *state,
			 const kifu_move *last)
{
	if (last && g->render_svg_last)
		return g->render_svg_last(out, state, *last);
	return g->render_svg(out, state);
}

void kifu_game_evaluate(const struct kifu_game *g, const void *state, double *out)
{
	struct kifu_outcome oc;
	int i;

	g->outcome(state, &oc);
	if (oc.status == KIFU_ONGOING && g->evaluate) {
		g->evaluate(state, out);
		return;
	}
	for (i = 0; i < g->nsides; i++) {
		if (oc.status == KIFU_WIN)
			out[i] = i == oc.winner ? 1.0 : 0.0;
		else
			out[i] = 1.0 / g->nsides;
	}
}

/* The state follows the header, aligned for any type. */
struct pos_block {
	struct kifu_pos pos;
	max_align_t state[];
};

int kifu_pos_new(struct kifu_pos **out, const struct kifu_game *g, int variant,
		 int first, struct kifu_error *err)
{
	struct pos_block *b;
	int ret;

	*out = NULL;
	b = calloc(1, sizeof(*b) + g->state_size);
	if (!b)
		return kifu_error_set(err, KIFU_ENOMEM, "position of '%s': out of memory", g->name);
	b->pos.game = g;
	b->pos.variant = variant;
	b->pos.first = first;
	b->pos.state = b->state;
	ret = g->init(b->pos.state, variant, first, err);
	if (ret < 0) {
		free(b);
		return ret;
	}
	*out = &b->pos;
	return 0;
}

void kifu_pos_free(struct kifu_pos *pos)
{
	free(pos); /* the header is the first member of its block */
}

void kifu_pos_copy(struct kifu_pos *dst, const struct kifu_pos *src)
{
	dst->variant = src->variant;
	dst->first = src->first;
	memcpy(dst->state, src->state, src->game->state_size);
}

int kifu_pos_play_list(struct kifu_pos *pos, const char *list, struct kifu_error *err)
{
	const struct kifu_game *g = pos->game;
	const char *p = list;
	char text[KIFU_MOVE_TEXT_MAX * 2];
	struct kifu_error why;
	int ply = 0;

	if (!*list)
		return 0;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		struct kifu_outcome oc;
		kifu_move m;
		int ret;

		ply++;
		if (n >= sizeof(text))
			return kifu_error_set(err, KIFU_EPARSE, "ply %d: unparsable move '%.*s': too long",
					      ply, 40, p);
		memcpy(text, p, n);
		text[n] = '\0';
		g->outcome(pos->state, &oc);
		if (oc.status != KIFU_ONGOING)
			return kifu_error_set(err, KIFU_EILLEGAL,
					      "ply %d: move '%s' after the end of the game", ply, text);
		ret = g->parse_move(pos->state, text, &m, &why);
		if (ret < 0)
			return kifu_error_set(err, ret, "ply %d: %s", ply, why.message);
		g->apply(pos->state, m);
		if (!end)
			return 0;
		p = end + 1;
	}
}

static uint64_t perft_rec(const struct kifu_game *g, const void *state, int depth,
			  kifu_move *moves, unsigned char *states)
{
	size_t n, i;
	uint64_t total = 0;
	void *child = states;

	if (depth <= 1)
		return g->count_moves ? g->count_moves(state) : g->legal_moves(state, moves);
	n = g->legal_moves(state, moves);
	for (i = 0; i < n; i++) {
		memcpy(child, state, g->state_size);
		g->apply(child, moves[i]);
		total += perft_rec(g, child, depth - 1, moves + g->max_moves,
				   states + g->state_size);
	}
	return total;
}

int kifu_perft(uint64_t *out, const struct kifu_game *g, const void *state, int depth)
{
	kifu_move *moves = NULL;
	unsigned char *states = NULL;
	int ret = KIFU_ENOMEM;

	*out = 1;
	if (depth <= 0)
		return 0;
	moves = malloc(sizeof(*moves) * g->max_moves * (size_t)depth);
	states = malloc(g->state_size * (size_t)depth + 1);
	if (!moves || !states)
		goto out;
	*out = perft_rec(g, state, depth, moves, states);
	ret = 0;
out:
	free(moves);
	free(states);
	return ret;
}

/* Positions up to this size are mapped on the stack; larger ones in the heap. */
#define CANON_STACK_STATE 1024

int kifu_game_canonical_hash(uint64_t *out, int *sym, const struct kifu_game *g,
			     const void *state)
{
	max_align_t stack[CANON_STACK_STATE / sizeof(max_align_t)];
	void *mapped = stack;
	uint64_t best = g->hash(state);
	int k, best_k = 0;

	*out = best;
	if (sym)
		*sym = 0;
	if (g->nsymmetries <= 1)
		return 0;
	if (g->hash_symmetries) {
		uint64_t hs[KIFU_GAME_SYMMETRIES_MAX];

		g->hash_symmetries(hs, state);
		/* strictly smaller only: on equal hashes the smallest k wins, as below */
		for (k = 1; k < g->nsymmetries; k++)
			if (hs[k] < best) {
				best = hs[k];
				best_k = k;
			}
		goto done;
	}
	if (g->state_size > sizeof(stack)) {
		mapped = malloc(g->state_size);
		if (!mapped)
			return KIFU_ENOMEM;
	}
	for (k = 1; k < g->nsymmetries; k++) {
		uint64_t h;

		g->map_state(mapped, state, k);
		h = g->hash(mapped);
		if (h < best) {
			best = h;
			best_k = k;
		}
	}
	if (mapped != (void *)stack)
		free(mapped);
done:
	*out = best;
	if (sym)
		*sym = best_k;
	return 0;
}
