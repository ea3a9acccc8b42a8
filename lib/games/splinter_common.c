/*
 * The mechanics the Splinter games share (splinter, splinter-quad): board
 * geometry, pushing a line of pieces (off the edge too), splitting the
 * pieces into groups connected through sides and corners and keeping the
 * largest with the mover's /CELL choice on ties, generating and applying
 * moves, and mapping them by the board's symmetries. Their text (parse and
 * format), the text diagram and the picture are in splinter_common_text.c;
 * the rules that differ between the games (no return, endings,
 * eliminations) stay in their own files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "games/board.h"
#include "games/splinter_common.h"

const int kifu_splinter_opposite_[8] = {
	KIFU_SQ_S, KIFU_SQ_N, KIFU_SQ_W, KIFU_SQ_E, KIFU_SQ_SW, KIFU_SQ_SE, KIFU_SQ_NW, KIFU_SQ_NE
};

/*
 * The eight neighbours of a cell as a ring, clockwise from north. Two ring
 * cells touch when they follow each other on the ring, or are both
 * orthogonal neighbours two steps apart (north and east touch at a corner).
 */
static const int ring_dir[8] = {
	KIFU_SQ_N, KIFU_SQ_NE, KIFU_SQ_E, KIFU_SQ_SE, KIFU_SQ_S, KIFU_SQ_SW, KIFU_SQ_W, KIFU_SQ_NW
};

/* The number of clusters of touching cells of each ring pattern. */
static uint8_t ring_clusters[256];

/*
 * The ring pattern of the neighbours as they lie in the board's bits: SW,
 * S, SE, W, E, NW, N, NE (bits 0-7; see ring_of()).
 */
static uint8_t window_ring[256];

#define SPL_NGEOMS 2
static struct kifu_splinter_geom_ geoms[SPL_NGEOMS]; /* 10 x 9, 10 x 10 */
static once_flag geom_once = ONCE_FLAG_INIT;

static int ring_touch(int i, int j)
{
	int d = (i - j + 8) % 8;

	if (d == 1 || d == 7)
		return 1;
	return (d == 2 || d == 6) && i % 2 == 0;
}

static void build_ring_clusters(void)
{
	/* the ring bit of each window bit */
	static const int ring_bit[8] = { 5, 4, 3, 6, 2, 7, 0, 1 };
	unsigned pat;
	int k;

	for (pat = 0; pat < 256; pat++)
		for (k = 0; k < 8; k++)
			if (pat >> k & 1)
				window_ring[pat] |= (uint8_t)(1u << ring_bit[k]);

	for (pat = 0; pat < 256; pat++) {
		unsigned seen = 0;
		int i, n = 0;

		for (i = 0; i < 8; i++) {
			unsigned todo;

			if (!(pat >> i & 1) || (seen >> i & 1))
				continue;
			n++;
			seen |= 1u << i;
			todo = 1u << i;
			while (todo) {
				int a = __builtin_ctz(todo), b;

				todo &= todo - 1;
				for (b = 0; b < 8; b++)
					if ((pat >> b & 1) && !(seen >> b & 1) &&
					    ring_touch(a, b)) {
						seen |= 1u << b;
						todo |= 1u << b;
					}
			}
		}
		ring_clusters[pat] = (uint8_t)n;
	}
}

static void build_geom(struct kifu_splinter_geom_ *g, int width, int height)
{
	int c, d;

	memset(g, 0, sizeof(*g));
	g->width = width;
	g->height = height;
	g->ncells = width * height;
	g->nsym = width == height ? 8 : 4;
	for (c = 0; c < g->ncells; c++) {
		int f = c % width, r = c / width, k;

		for (k = 0; k < g->nsym; k++)
			g->sym[k][c] = (int8_t)kifu_sq_sym_cell_(width, height, k, c);

		kifu_splinter_bb_set_(&g->bit[c], c);
		kifu_splinter_bb_set_(&g->file[f], c);
		for (d = 0; d < 8; d++) {
			int nf = f + kifu_sq_dfile_[d], nr = r + kifu_sq_drank_[d];

			if (nf < 0 || nf >= width || nr < 0 || nr >= height) {
				g->step[c][d] = -1;
				continue;
			}
			g->step[c][d] = (int8_t)(nr * width + nf);
			kifu_splinter_bb_set_(&g->nb[c], nr * width + nf);
		}
		if (f > 0)
			kifu_splinter_bb_set_(&g->not_first, c);
		if (f < width - 1)
			kifu_splinter_bb_set_(&g->not_last, c);
	}
}

static void build_all(void)
{
	build_ring_clusters();
	build_geom(&geoms[0], 10, 9);
	build_geom(&geoms[1], 10, 10);
}

const struct kifu_splinter_geom_ *kifu_splinter_geom_get_(int width, int height)
{
	int i;

	call_once(&geom_once, build_all);
	for (i = 0; i < SPL_NGEOMS; i++)
		if (geoms[i].width == width && geoms[i].height == height)
			return &geoms[i];
	return NULL;
}

static uint64_t piece_key(uint64_t salt, int cell, int code)
{
	return kifu_zobrist(salt, (uint64_t)cell * 17 + (uint64_t)code);
}

void kifu_splinter_put_(struct kifu_splinter_core_ *c, uint64_t salt, int cell, int code)
{
	c->cell[cell] = (uint8_t)code;
	kifu_splinter_bb_set_(&c->occ, cell);
	c->count[SPL_SIDE(code)][SPL_TYPE(code)]++;
	c->total[SPL_SIDE(code)]++;
	c->hash ^= piece_key(salt, cell, code);
}

static void take(struct kifu_splinter_core_ *c, uint64_t salt, int cell)
{
	int code = c->cell[cell];

	c->cell[cell] = 0;
	kifu_splinter_bb_clear_(&c->occ, cell);
	c->count[SPL_SIDE(code)][SPL_TYPE(code)]--;
	c->total[SPL_SIDE(code)]--;
	if (salt)
		c->hash ^= piece_key(salt, cell, code);
}

uint64_t kifu_splinter_board_hash_(const struct kifu_splinter_geom_ *g,
				   const struct kifu_splinter_core_ *c, uint64_t salt)
{
	uint64_t h = 0;
	int cell;

	for (cell = 0; cell < g->ncells; cell++)
		if (c->cell[cell])
			h ^= piece_key(salt, cell, c->cell[cell]);
	return h;
}

void kifu_splinter_board_hash_symmetries_(uint64_t *out, const struct kifu_splinter_geom_ *g,
					  const struct kifu_splinter_core_ *c, uint64_t salt)
{
	struct kifu_splinter_bb_ rest = c->occ;
	int k;

	for (k = 0; k < g->nsym; k++)
		out[k] = 0;
	while (!kifu_splinter_bb_empty_(&rest)) {
		int cell = kifu_splinter_bb_first_(&rest), code = c->cell[cell];

		kifu_splinter_bb_clear_(&rest, cell);
		for (k = 0; k < g->nsym; k++)
			out[k] ^= piece_key(salt, g->sym[k][cell], code);
	}
}

int kifu_splinter_push_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
			uint64_t salt, int from, int dir, struct kifu_splinter_bb_ *moved)
{
	struct kifu_splinter_bb_ line;
	int after = kifu_splinter_line_(g, &c->occ, from, dir, &line);
	int back = kifu_splinter_opposite_[dir], dst = after, edge = from, src, off = 0;

	*moved = line;
	kifu_splinter_bb_clear_(moved, from);
	if (after < 0) {
		/* the front piece leaves; the others each step into the next cell */
		while (g->step[edge][dir] >= 0)
			edge = g->step[edge][dir];
		off = c->cell[edge];
		take(c, salt, edge);
		dst = edge;
	} else {
		kifu_splinter_bb_set_(moved, after);
	}
	for (; dst != from; dst = src) {
		int code;

		src = g->step[dst][back];
		code = c->cell[src];
		if (salt)
			c->hash ^= piece_key(salt, src, code) ^ piece_key(salt, dst, code);
		c->cell[dst] = (uint8_t)code;
	}
	c->cell[from] = 0;
	kifu_splinter_bb_clear_(&c->occ, from);
	/* after fills; or the edge cell, emptied by take(), got the piece behind */
	kifu_splinter_bb_set_(&c->occ, after >= 0 ? after : edge);
	return off;
}

/* The cells of x moved k cells up the indices (0 < k < 64), or down. */
static inline struct kifu_splinter_bb_ bb_up(struct kifu_splinter_bb_ x, int k)
{
	x.w[1] = x.w[1] << k | x.w[0] >> (64 - k);
	x.w[0] <<= k;
	return x;
}

static inline struct kifu_splinter_bb_ bb_down(struct kifu_splinter_bb_ x, int k)
{
	x.w[0] = x.w[0] >> k | x.w[1] << (64 - k);
	x.w[1] >>= k;
	return x;
}

/*
 * Grows *comp (cells of occ) to the whole group of occ holding it, or stops
 * as soon as it holds every cell of target (when not NULL): returns 1 when
 * it did (*comp is then part of the group), else 0. The group grows by whole rings of
 * neighbours at a time, all cells at once (a cell's neighbours are the cells
 * one file and one rank away: shifts by 1 and by the width), as many rounds
 * as the group is wide rather than one round per cell.
 */
static int grow(const struct kifu_splinter_geom_ *g, const struct kifu_splinter_bb_ *occ,
		struct kifu_splinter_bb_ *comp, const struct kifu_splinter_bb_ *target)
{
	struct kifu_splinter_bb_ c = *comp;

	for (;;) {
		struct kifu_splinter_bb_ e =
			{ { c.w[0] & g->not_last.w[0], c.w[1] & g->not_last.w[1] } };
		struct kifu_splinter_bb_ w =
			{ { c.w[0] & g->not_first.w[0], c.w[1] & g->not_first.w[1] } };
		struct kifu_splinter_bb_ row, n, s, next;

		e = bb_up(e, 1);
		w = bb_down(w, 1);
		row.w[0] = c.w[0] | e.w[0] | w.w[0];
		row.w[1] = c.w[1] | e.w[1] | w.w[1];
		n = bb_up(row, g->width);
		s = bb_down(row, g->width);
		next.w[0] = (row.w[0] | n.w[0] | s.w[0]) & occ->w[0];
		next.w[1] = (row.w[1] | n.w[1] | s.w[1]) & occ->w[1];
		if (kifu_splinter_bb_equal_(&next, &c)) {
			*comp = c;
			return 0;
		}
		c = next;
		if (target && !(target->w[0] & ~c.w[0]) && !(target->w[1] & ~c.w[1])) {
			*comp = c;
			return 1;
		}
	}
}

/* The group of occ holding cell start. */
static struct kifu_splinter_bb_ flood(const struct kifu_splinter_geom_ *g,
				      const struct kifu_splinter_bb_ *occ, int start)
{
	struct kifu_splinter_bb_ comp = g->bit[start];

	grow(g, occ, &comp, NULL);
	return comp;
}

/*
 * The ring pattern of the occupied neighbours nbs of cell: the board's
 * bits from the south-west neighbour on, shifted down to bit 0, hold the
 * three southern neighbours at bits 0-2, the western and eastern ones at
 * width and width + 2, the three northern ones from 2 * width on.
 */
static unsigned ring_of(const struct kifu_splinter_geom_ *g, const struct kifu_splinter_bb_ *nbs,
			int cell)
{
	int w = g->width, base = cell - w - 1;
	uint64_t win;

	if (base < 0)
		win = nbs->w[0] << -base;
	else if (base == 0)
		win = nbs->w[0];
	else if (base < 64)
		win = nbs->w[0] >> base | nbs->w[1] << (64 - base);
	else
		win = nbs->w[1] >> (base - 64);
	return window_ring[(win & 7) | (win >> (w - 3) & 8) | (win >> (w - 2) & 16) |
			   (win >> (2 * w - 5) & 0xe0)];
}

/* The pieces but a mover, in groups: what all its slides share. */
struct rest {
	struct kifu_splinter_bb_ occ;
	int n;
	struct kifu_splinter_bb_ comp[8];
	int size[8];
};

/*
 * Before a move the pieces form one group (every splinter leaves one), so
 * every group of the others holds a neighbour of the mover: when those
 * neighbours touch one another around the ring, they are one group and no
 * search is needed.
 */
static inline void rest_init(const struct kifu_splinter_geom_ *g,
			     const struct kifu_splinter_bb_ *occ, int pieces, int from,
			     struct rest *r)
{
	struct kifu_splinter_bb_ seen = { { 0, 0 } }, nbs = { { g->nb[from].w[0] & occ->w[0],
						    g->nb[from].w[1] & occ->w[1] } };
	unsigned ring = ring_of(g, &nbs, from);
	int i;

	r->occ = *occ;
	kifu_splinter_bb_clear_(&r->occ, from);
	r->n = 0;
	if (ring_clusters[ring] <= 1) {
		r->comp[0] = r->occ;
		r->size[0] = pieces - 1;
		r->n = r->size[0] > 0;
		return;
	}
	/*
	 * The neighbours usually meet again close by: growing the group of
	 * the first one stops as soon as it has reached every neighbour, the
	 * rest then being one group, long before it has covered it.
	 */
	for (i = 0; i < 8; i++) {
		int c = g->step[from][ring_dir[i]];
		struct kifu_splinter_bb_ comp;

		if (!(ring >> i & 1) || kifu_splinter_bb_has_(&seen, c))
			continue;
		comp = g->bit[c];
		if (!r->n && grow(g, &r->occ, &comp, &nbs)) {
			r->comp[0] = r->occ;
			r->size[0] = pieces - 1;
			r->n = 1;
			return;
		}
		if (r->n)
			grow(g, &r->occ, &comp, NULL);
		r->comp[r->n] = comp;
		r->size[r->n] = kifu_splinter_bb_count_(&comp);
		seen.w[0] |= comp.w[0];
		seen.w[1] |= comp.w[1];
		r->n++;
	}
}

/*
 * The slide only empties the mover's cell and fills sl->after (nothing when
 * the front piece is pushed off), so its groups are those of the rest, the
 * ones touching the new cell merged with it.
 */
static inline void look_ahead(const struct kifu_splinter_geom_ *g, const struct rest *r,
			      struct kifu_splinter_slide_ *sl)
{
	struct kifu_splinter_bb_ merged = { { 0, 0 } };
	int sizes[9], n = 0, best = 0, i, j, msize = 1;

	if (sl->after >= 0) {
		const struct kifu_splinter_bb_ *nb = &g->nb[sl->after];

		merged = g->bit[sl->after];
		for (i = 0; i < r->n; i++) {
			if ((nb->w[0] & r->comp[i].w[0]) | (nb->w[1] & r->comp[i].w[1])) {
				merged.w[0] |= r->comp[i].w[0];
				merged.w[1] |= r->comp[i].w[1];
				msize += r->size[i];
			} else {
				sizes[n++] = i;
			}
		}
		if (!n) {
			sl->groups = sl->ties = 1;
			return;
		}
	} else {
		if (r->n <= 1) {
			sl->groups = sl->ties = 1;
			return;
		}
		for (i = 0; i < r->n; i++)
			sizes[n++] = i;
		msize = 0;
	}
	/* sizes[] holds the indices of the untouched groups; the merged one has msize */
	sl->groups = n + (msize > 0);
	sl->ties = 0;
	if (msize > 0) {
		best = msize;
		sl->ties = 1;
		sl->keep = merged;
	}
	for (j = 0; j < n; j++) {
		int sz = r->size[sizes[j]];

		if (sz > best) {
			best = sz;
			sl->ties = 0;
		}
		if (sz == best) {
			sl->ties++;
			sl->keep = r->comp[sizes[j]];
		}
	}
}

/*
 * The last look-ahead kifu_splinter_slide_ahead_() made in this thread: a record is
 * replayed by parsing each move and then applying it, which asks for the
 * same slide from the same pieces twice.
 */
static _Thread_local struct {
	const struct kifu_splinter_geom_ *g;
	struct kifu_splinter_bb_ occ;
	struct kifu_splinter_slide_ sl;
} last_ahead;

void kifu_splinter_slide_ahead_(const struct kifu_splinter_geom_ *g,
				const struct kifu_splinter_bb_ *occ, int from, int dir,
				struct kifu_splinter_slide_ *sl)
{
	struct rest r;

	if (last_ahead.g == g && last_ahead.sl.from == from && last_ahead.sl.dir == dir &&
	    kifu_splinter_bb_equal_(&last_ahead.occ, occ)) {
		*sl = last_ahead.sl;
		return;
	}
	sl->from = from;
	sl->dir = dir;
	sl->after = kifu_splinter_line_(g, occ, from, dir, &sl->line);
	rest_init(g, occ, kifu_splinter_bb_count_(occ), from, &r);
	look_ahead(g, &r, sl);
	last_ahead.g = g;
	last_ahead.occ = *occ;
	last_ahead.sl = *sl;
}

size_t kifu_splinter_generate_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_core_ *c, int side,
			       kifu_splinter_slide_fn_ fn, const void *state, kifu_move *moves)
{
	struct kifu_splinter_bb_ own = c->occ;
	struct kifu_splinter_slide_ sl;
	struct rest r;
	size_t n = 0;
	int pieces = kifu_splinter_bb_count_(&c->occ);

	while (!kifu_splinter_bb_empty_(&own)) {
		sl.from = kifu_splinter_bb_first_(&own);
		kifu_splinter_bb_clear_(&own, sl.from);
		if (SPL_SIDE(c->cell[sl.from]) != side)
			continue;
		rest_init(g, &c->occ, pieces, sl.from, &r);
		for (sl.dir = 0; sl.dir < 8; sl.dir++) {
			if (g->step[sl.from][sl.dir] < 0)
				continue;
			sl.after = kifu_splinter_line_(g, &c->occ, sl.from, sl.dir, &sl.line);
			look_ahead(g, &r, &sl);
			n += fn(g, state, &sl, moves ? moves + n : NULL);
		}
	}
	/* never in practice: a side with a piece always has a slide the rules allow */
	if (!n) {
		if (moves)
			moves[0] = SPL_PASS;
		n = 1;
	}
	return n;
}

int kifu_splinter_connected_(const struct kifu_splinter_geom_ *g,
			     const struct kifu_splinter_bb_ *occ)
{
	struct kifu_splinter_bb_ comp;

	if (kifu_splinter_bb_empty_(occ))
		return 1;
	comp = flood(g, occ, kifu_splinter_bb_first_(occ));
	return kifu_splinter_bb_equal_(&comp, occ);
}

int kifu_splinter_canon_cell_(const struct kifu_splinter_geom_ *g,
			      const struct kifu_splinter_bb_ *grp)
{
	int f;

	for (f = 0; f < g->width; f++) {
		struct kifu_splinter_bb_ x =
			{ { grp->w[0] & g->file[f].w[0], grp->w[1] & g->file[f].w[1] } };

		if (!kifu_splinter_bb_empty_(&x))
			return kifu_splinter_bb_first_(&x);
	}
	return -1;
}

/* Canonical order of cells: by file, then by rank. */
static int canon_key(const struct kifu_splinter_geom_ *g, int cell)
{
	return (cell % g->width) * g->height + cell / g->width;
}

int kifu_splinter_tied_(const struct kifu_splinter_geom_ *g, const struct kifu_splinter_bb_ *occ,
			struct kifu_splinter_bb_ *tied, int *ngroups)
{
	struct kifu_splinter_bb_ rest = *occ;
	int best = 0, ties = 0, groups = 0, i, j;

	while (!kifu_splinter_bb_empty_(&rest)) {
		struct kifu_splinter_bb_ comp = flood(g, &rest, kifu_splinter_bb_first_(&rest));
		int n = kifu_splinter_bb_count_(&comp);

		groups++;
		rest.w[0] &= ~comp.w[0];
		rest.w[1] &= ~comp.w[1];
		if (n > best) {
			best = n;
			ties = 0;
		}
		if (n == best)
			tied[ties++] = comp;
	}
	/* insertion sort by canonical cell: there are few */
	for (i = 1; i < ties; i++) {
		struct kifu_splinter_bb_ x = tied[i];
		int k = canon_key(g, kifu_splinter_canon_cell_(g, &x));

		for (j = i; j > 0 && canon_key(g, kifu_splinter_canon_cell_(g, &tied[j - 1])) > k;
		     j--)
			tied[j] = tied[j - 1];
		tied[j] = x;
	}
	if (ngroups)
		*ngroups = groups;
	return ties;
}

void kifu_splinter_keep_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *c,
			 uint64_t salt, const struct kifu_splinter_bb_ *keep)
{
	struct kifu_splinter_bb_ gone =
		{ { c->occ.w[0] & ~keep->w[0], c->occ.w[1] & ~keep->w[1] } };

	(void)g;
	while (!kifu_splinter_bb_empty_(&gone)) {
		int cell = kifu_splinter_bb_first_(&gone);

		kifu_splinter_bb_clear_(&gone, cell);
		take(c, salt, cell);
	}
}

void kifu_splinter_remove_sides_(struct kifu_splinter_core_ *c, uint64_t salt, unsigned sides)
{
	struct kifu_splinter_bb_ all = c->occ;

	while (!kifu_splinter_bb_empty_(&all)) {
		int cell = kifu_splinter_bb_first_(&all);

		kifu_splinter_bb_clear_(&all, cell);
		if (sides >> SPL_SIDE(c->cell[cell]) & 1)
			take(c, salt, cell);
	}
}

int kifu_splinter_apply_splinter_(const struct kifu_splinter_geom_ *g,
				  struct kifu_splinter_core_ *c, uint64_t salt, kifu_move m,
				  int *used)
{
	struct kifu_splinter_bb_ tied[SPL_MAX_CELLS];
	int groups, n = kifu_splinter_tied_(g, &c->occ, tied, &groups), i;

	if (groups <= 1)
		return n;
	if (n == 1) {
		kifu_splinter_keep_(g, c, salt, &tied[0]);
		return n;
	}
	for (i = 0; i < n; i++)
		if (kifu_splinter_bb_has_(&tied[i], kifu_splinter_move_suf_(m, *used)))
			break;
	(*used)++;
	if (i < n) /* always, for a listed move */
		kifu_splinter_keep_(g, c, salt, &tied[i]);
	return n;
}

int kifu_splinter_apply_slide_(const struct kifu_splinter_geom_ *g,
			       const struct kifu_splinter_slide_ *sl, struct kifu_splinter_core_ *c,
			       uint64_t salt, kifu_move m, int *used)
{
	if (sl->groups <= 1)
		return 1;
	if (sl->ties == 1) {
		kifu_splinter_keep_(g, c, salt, &sl->keep);
		return 1;
	}
	return kifu_splinter_apply_splinter_(g, c, salt, m, used);
}

void kifu_splinter_map_core_(const struct kifu_splinter_geom_ *g, struct kifu_splinter_core_ *dst,
			     const struct kifu_splinter_core_ *src, int k)
{
	int c;

	memset(dst, 0, sizeof(*dst));
	for (c = 0; c < g->ncells; c++) {
		int t = kifu_sq_sym_cell_(g->width, g->height, k, c);

		dst->cell[t] = src->cell[c];
		if (src->cell[c])
			kifu_splinter_bb_set_(&dst->occ, t);
	}
	memcpy(dst->count, src->count, sizeof(dst->count));
	memcpy(dst->total, src->total, sizeof(dst->total));
}

struct kifu_splinter_bb_ kifu_splinter_map_bb_(const struct kifu_splinter_geom_ *g,
					       const struct kifu_splinter_bb_ *src, int k)
{
	struct kifu_splinter_bb_ out = { { 0, 0 } }, rest = *src;

	while (!kifu_splinter_bb_empty_(&rest)) {
		int c = kifu_splinter_bb_first_(&rest);

		kifu_splinter_bb_clear_(&rest, c);
		kifu_splinter_bb_set_(&out, kifu_sq_sym_cell_(g->width, g->height, k, c));
	}
	return out;
}

kifu_move kifu_splinter_map_move_(const struct kifu_splinter_geom_ *g, const struct kifu_game *game,
				  const void *mapped, kifu_move m, int k)
{
	char text[KIFU_MOVE_TEXT_MAX];
	struct kifu_error err;
	kifu_move out, canon;
	int i, n;

	if (m == SPL_PASS)
		return m;
	n = kifu_splinter_move_nsuf_(m);
	out = kifu_splinter_move_(
		kifu_sq_sym_cell_(g->width, g->height, k, kifu_splinter_move_from_(m)),
		kifu_sq_sym_dir_(k, kifu_splinter_move_dir_(m)));
	if (!n)
		return out;
	for (i = 0; i < n; i++)
		out = kifu_splinter_move_add_suf_(
			out,
			kifu_sq_sym_cell_(g->width, g->height, k, kifu_splinter_move_suf_(m, i)));
	/* the mapped cells name the mapped groups, not always by their canonical cell */
	kifu_splinter_format_(g, out, text);
	if (game->parse_move(mapped, text, &canon, &err) < 0)
		return out; /* m was not legal where the caller said: nothing better to give */
	return canon;
}


/* Whether the piece on edge cell `cell` can be pushed off the board by a piece of side mover. */
static int pushable(const struct kifu_splinter_geom_ *g, const struct kifu_splinter_core_ *c,
		    int cell, int mover)
{
	int d;

	for (d = 0; d < 8; d++) {
		int back = kifu_splinter_opposite_[d], at;

		if (g->step[cell][d] >= 0)
			continue;
		for (at = g->step[cell][back]; at >= 0 && c->cell[at]; at = g->step[at][back])
			if (SPL_SIDE(c->cell[at]) == mover)
				return 1;
	}
	return 0;
}

void kifu_splinter_features_(const struct kifu_splinter_geom_ *g,
			     const struct kifu_splinter_core_ *c, int nsides, int ntypes,
			     int lose_at, int mover, int nfeatures, double *f)
{
	int edge[SPL_MAX_SIDES] = { 0 }, threat[SPL_MAX_SIDES] = { 0 };
	int threat_lone[SPL_MAX_SIDES] = { 0 };
	struct kifu_splinter_bb_ occ = c->occ;
	int side, t;

	while (!kifu_splinter_bb_empty_(&occ)) {
		int cell = kifu_splinter_bb_first_(&occ), x = cell % g->width, y = cell / g->width;
		int code = c->cell[cell], side_of = SPL_SIDE(code);

		kifu_splinter_bb_clear_(&occ, cell);
		if (x != 0 && y != 0 && x != g->width - 1 && y != g->height - 1)
			continue;
		edge[side_of]++;
		if (side_of != mover && pushable(g, c, cell, mover)) {
			threat[side_of]++;
			threat_lone[side_of] += c->count[side_of][SPL_TYPE(code)] == 1;
		}
	}
	for (side = 0; side < nsides; side++) {
		double *h = f + side * nfeatures;
		int missing = 0, one = 0, two = 0;

		for (t = 0; t < ntypes; t++) {
			missing += c->count[side][t] == 0;
			one += c->count[side][t] == 1;
			two += c->count[side][t] == 2;
		}
		h[SPLF_PIECES] = c->total[side] / 10.0;
		h[SPLF_MISSING] = missing;
		h[SPLF_ONE] = one;
		h[SPLF_TWO] = two;
		h[SPLF_EDGE] = edge[side] / 10.0;
		h[SPLF_THREAT] = threat[side] / 10.0;
		h[SPLF_THREAT_LONE] = threat_lone[side];
		h[SPLF_DOOMED] = threat_lone[side] && missing + 1 >= lose_at;
	}
}
