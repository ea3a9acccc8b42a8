/*
 * Partial-board patterns (include/kifu/pattern.h): parsing CELL=TOKEN lists
 * against a game's cells and tokens, and matching a position. The game says
 * through its interface what a cell shows (cell_token, the text diagram's
 * token) and which tokens exist (token_side), so this file knows no game.
 * A symmetric pattern is the list of its distinct images under the board
 * symmetries (map_cell), each matched as a plain pattern: a position shows
 * an image of the pattern exactly when it shows one of these.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/pattern.h"
#include "kifu/text.h"

enum item_kind {
	ITEM_EMPTY,   /* "." */
	ITEM_PIECE,   /* "+" */
	ITEM_ANY,     /* "*" */
	ITEM_SIDE,    /* "w+": any piece of one side */
	ITEM_TOKEN    /* exactly this token */
};

struct item {
	int cell;
	int kind;  /* enum item_kind */
	int side;  /* ITEM_SIDE, ITEM_TOKEN: the side it belongs to */
	char token[KIFU_CELL_TOKEN_MAX];
};

struct kifu_pattern {
	const struct kifu_game *game;
	int nitems;
	int nimages;        /* 1, or the distinct images of a symmetric pattern */
	struct item *items; /* nimages runs of nitems, image 0 as written */
};

/* Cell names of a variant, kept so that "did you mean" can point into them. */
struct cells {
	int n;
	char (*name)[KIFU_CELL_NAME_MAX];
};

static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static int find_cell(const struct cells *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return i;
	return -1;
}

/* The side whose name starts with letter (either case), or -1. */
static int side_of_letter(const struct kifu_game *g, char letter)
{
	int i;

	for (i = 0; i < g->nsides; i++)
		if (tolower((unsigned char)g->sides[i][0]) == tolower((unsigned char)letter))
			return i;
	return -1;
}

/* Room for nimages runs of nitems (the first kept); NULL when out of memory. */
static struct item *realloc_items(struct item *items, int nitems, int nimages)
{
	struct item *bigger = realloc(items, sizeof(*items) * (size_t)nitems * (size_t)nimages);

	if (!bigger)
		free(items);
	return bigger;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->cell > y->cell) - (x->cell < y->cell);
}

/*
 * Appends the images of image 0 under symmetries 1.. that differ from
 * every image kept (each image's items sorted by cell, so equal images
 * compare equal with memcmp: items are zeroed before they are filled).
 */
static void add_images(struct kifu_pattern *p, const void *state)
{
	const struct kifu_game *g = p->game;
	size_t size = sizeof(struct item) * (size_t)p->nitems;
	int k, j, i;

	qsort(p->items, (size_t)p->nitems, sizeof(struct item), cmp_item);
	for (k = 1; k < g->nsymmetries; k++) {
		struct item *img = &p->items[p->nimages * p->nitems];

		memcpy(img, p->items, size);
		for (i = 0; i < p->nitems; i++)
			img[i].cell = g->map_cell(state, p->items[i].cell, k);
		qsort(img, (size_t)p->nitems, sizeof(struct item), cmp_item);
		for (j = 0; j < p->nimages; j++)
			if (!memcmp(&p->items[j * p->nitems], img, size))
				break;
		if (j == p->nimages)
			p->nimages++;
	}
}

static int parse_token(struct item *it, const struct kifu_game *g, const void *start,
		       const char *tok, const char *cell, struct kifu_error *err)
{
	size_t n = strlen(tok);

	if (!strcmp(tok, ".")) {
		it->kind = ITEM_EMPTY;
	} else if (!strcmp(tok, "+")) {
		it->kind = ITEM_PIECE;
	} else if (!strcmp(tok, "*")) {
		it->kind = ITEM_ANY;
	} else if (n == 2 && tok[1] == '+' && side_of_letter(g, tok[0]) >= 0) {
		it->kind = ITEM_SIDE;
		it->side = side_of_letter(g, tok[0]);
	} else if (n < KIFU_CELL_TOKEN_MAX && (it->side = g->token_side(start, tok)) >= 0) {
		it->kind = ITEM_TOKEN;
		memcpy(it->token, tok, n + 1);
	} else {
		return kifu_error_set(err, KIFU_EPARSE,
				      "unknown token '%.32s' for cell '%s' in pattern: a cell is ., +, "
				      "*, a side's letter and + (%c+ ...), or %s",
				      tok, cell, tolower((unsigned char)g->sides[0][0]),
				      g->tokens_help(start));
	}
	return 0;
}

static int parse_item(struct item *it, const struct kifu_game *g, const void *start,
		      const struct cells *c, const char *s, const char *e, struct kifu_error *err)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));
	const char *ce, *ts;
	char cell[KIFU_CELL_NAME_MAX * 2], tok[64];
	struct kifu_near near;

	trim(&s, &e);
	if (!eq)
		return kifu_error_set(err, KIFU_EPARSE,
				      "pattern item '%.*s' has no '=': write CELL=TOKEN (e4=w1)",
				      (int)(e - s > 32 ? 32 : e - s), s);
	ce = eq;
	ts = eq + 1;
	trim(&s, &ce);
	trim(&ts, &e);
	if ((size_t)(ce - s) >= sizeof(cell) || (size_t)(e - ts) >= sizeof(tok))
		return kifu_error_set(err, KIFU_EPARSE, "pattern item '%.*s' is too long",
				      (int)(e - s > 32 ? 32 : e - s), s);
	memcpy(cell, s, (size_t)(ce - s));
	cell[ce - s] = '\0';
	memcpy(tok, ts, (size_t)(e - ts));
	tok[e - ts] = '\0';
	it->cell = find_cell(c, cell);
	if (it->cell < 0) {
		int i;

		kifu_near_init(&near, cell);
		for (i = 0; i < c->n; i++)
			kifu_near_add(&near, c->name[i]);
		if (kifu_near_best(&near))
			return kifu_error_set(err, KIFU_EPARSE,
					      "unknown cell '%s' in pattern (did you mean '%s'?)",
					      cell, kifu_near_best(&near));
		return kifu_error_set(err, KIFU_EPARSE,
				      "unknown cell '%s' in pattern: cells are named as in moves "
				      "(%s to %s)",
				      cell, c->name[0], c->name[c->n - 1]);
	}
	return parse_token(it, g, start, tok, cell, err);
}

int kifu_pattern_parse(struct kifu_pattern **out, const struct kifu_game *g, int variant,
		       const char *text, int symmetric, struct kifu_error *err)
{
	struct kifu_pattern *p = NULL;
	struct kifu_pos *start = NULL;
	struct cells c = { 0, NULL };
	const char *s, *e;
	int ret, i, j, nitems = 1;

	*out = NULL;
	if (!g->ncells || !g->cell_name || !g->cell_token || !g->token_side || !g->tokens_help)
		return kifu_error_set(err, KIFU_ENOTFOUND, "%s has no cells to search patterns in",
				      g->name);
	if (strlen(text) > KIFU_PATTERN_TEXT_MAX)
		return kifu_error_set(err, KIFU_EPARSE, "pattern longer than %d bytes",
				      KIFU_PATTERN_TEXT_MAX);
	ret = kifu_pos_new(&start, g, variant, 0, err);
	if (ret)
		goto out;
	c.n = g->ncells(start->state);
	p = calloc(1, sizeof(*p));
	c.name = calloc((size_t)c.n, sizeof(*c.name));
	for (s = text; *s; s++)
		nitems += *s == ',';
	if (p)
		p->items = calloc((size_t)nitems, sizeof(*p->items));
	if (p && symmetric && g->nsymmetries > 1 && g->map_cell)
		p->items = realloc_items(p->items, nitems, g->nsymmetries);
	if (!p || !c.name || !p->items) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "pattern: out of memory");
		goto out;
	}
	for (i = 0; i < c.n; i++)
		g->cell_name(start->state, i, c.name[i]);
	p->game = g;
	p->nimages = 1;
	for (s = text;; s = e + 1) {
		e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		ret = parse_item(&p->items[p->nitems], g, start->state, &c, s, e, err);
		if (ret)
			goto out;
		for (j = 0; j < p->nitems; j++)
			if (p->items[j].cell == p->items[p->nitems].cell) {
				ret = kifu_error_set(err, KIFU_EPARSE,
						     "cell '%s' is named twice in pattern",
						     c.name[p->items[j].cell]);
				goto out;
			}
		p->nitems++;
		if (!*e)
			break;
	}
	if (symmetric && g->nsymmetries > 1 && g->map_cell)
		add_images(p, start->state);
	*out = p;
	p = NULL;
out:
	kifu_pattern_free(p);
	free(c.name);
	kifu_pos_free(start);
	return ret;
}

void kifu_pattern_free(struct kifu_pattern *p)
{
	if (!p)
		return;
	free(p->items);
	free(p);
}

int kifu_pattern_size(const struct kifu_pattern *p)
{
	return p->nitems;
}

static int match_image(const struct kifu_pattern *p, const struct item *items,
		       const void *state)
{
	const struct kifu_game *g = p->game;
	char tok[KIFU_CELL_TOKEN_MAX];
	int i, side;

	for (i = 0; i < p->nitems; i++) {
		const struct item *it = &items[i];

		if (it->kind == ITEM_ANY)
			continue;
		side = g->cell_token(state, it->cell, tok);
		switch (it->kind) {
		case ITEM_EMPTY:
			if (side >= 0)
				return 0;
			break;
		case ITEM_PIECE:
			if (side < 0)
				return 0;
			break;
		case ITEM_SIDE:
			if (side != it->side)
				return 0;
			break;
		default:
			if (side != it->side || strcmp(tok, it->token) != 0)
				return 0;
			break;
		}
	}
	return 1;
}

void kifu_pattern_summary_add(uint64_t *sum, const struct kifu_game *g, const void *state)
{
	uint64_t cells[KIFU_GAME_SIDES_MAX * KIFU_CELL_WORDS];
	char tok[KIFU_CELL_TOKEN_MAX];
	size_t i;
	int c, n, side;

	if (g->side_cells) {
		g->side_cells(state, cells);
		for (i = 0; i < KIFU_PATTERN_SUMMARY_WORDS(g); i++)
			sum[i] |= cells[i];
		return;
	}
	n = g->ncells(state);
	for (c = 0; c < n; c++)
		if ((side = g->cell_token(state, c, tok)) >= 0)
			sum[side * KIFU_CELL_WORDS + c / 64] |= UINT64_C(1) << (c % 64);
}

int kifu_pattern_summary_moves(uint64_t *sum, const struct kifu_game *g, int variant, int first,
			       const kifu_move *moves, size_t n, void *scratch)
{
	struct kifu_error err;
	size_t i;

	memset(sum, 0, sizeof(*sum) * KIFU_PATTERN_SUMMARY_WORDS(g));
	if (!g->ncells || g->init(scratch, variant, first, &err) < 0)
		return KIFU_ENOTFOUND;
	kifu_pattern_summary_add(sum, g, scratch);
	for (i = 0; i < n; i++) {
		g->apply(scratch, moves[i]);
		kifu_pattern_summary_add(sum, g, scratch);
	}
	return 0;
}

void kifu_pattern_summary_pack(unsigned char *out, const struct kifu_game *g, int ncells,
			       const uint64_t *sum)
{
	size_t per = ((size_t)ncells + 7) / 8, b;
	int s;

	for (s = 0; s < g->nsides; s++)
		for (b = 0; b < per; b++)
			out[s * per + b] = (unsigned char)(sum[s * KIFU_CELL_WORDS + b / 8] >>
							   (8 * (b % 8)));
}

int kifu_pattern_summary_unpack(uint64_t *sum, const struct kifu_game *g, int ncells,
				const unsigned char *in, size_t len)
{
	size_t per = ((size_t)ncells + 7) / 8, b;
	int s;

	if (len != KIFU_PATTERN_PACKED_SIZE(g, ncells))
		return KIFU_ERANGE;
	memset(sum, 0, sizeof(*sum) * KIFU_PATTERN_SUMMARY_WORDS(g));
	for (s = 0; s < g->nsides; s++)
		for (b = 0; b < per; b++)
			sum[s * KIFU_CELL_WORDS + b / 8] |= (uint64_t)in[s * per + b] << (8 * (b % 8));
	return 0;
}

static int has(const uint64_t *sum, int side, int cell)
{
	return (int)(sum[side * KIFU_CELL_WORDS + cell / 64] >> (cell % 64) & 1);
}

static int image_may_match(const struct kifu_pattern *p, const struct item *items,
			   const uint64_t *sum)
{
	int i, s;

	for (i = 0; i < p->nitems; i++) {
		const struct item *it = &items[i];

		switch (it->kind) {
		case ITEM_SIDE:
		case ITEM_TOKEN:
			if (!has(sum, it->side, it->cell))
				return 0;
			break;
		case ITEM_PIECE:
			for (s = 0; s < p->game->nsides && !has(sum, s, it->cell); s++)
				;
			if (s == p->game->nsides)
				return 0;
			break;
		default:
			break;
		}
	}
	return 1;
}

int kifu_pattern_may_match(const struct kifu_pattern *p, const uint64_t *sum)
{
	int k;

	for (k = 0; k < p->nimages; k++)
		if (image_may_match(p, &p->items[k * p->nitems], sum))
			return 1;
	return 0;
}

int kifu_pattern_match(const struct kifu_pattern *p, const void *state)
{
	int k;

	for (k = 0; k < p->nimages; k++)
		if (match_image(p, &p->items[k * p->nitems], state))
			return 1;
	return 0;
}
