/*
 * Transpositions for kifu-serve's explorer: the move orders by which the
 * games that reached a position got there. The position index says which
 * games reached it and at which ply, not how; each game's record says how.
 * A popular position is reached by a large part of a database, so only the
 * newest games of the search's list are read, as many as the caller
 * allows, and the result says when there were more.
 */
#include <stdlib.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/search.h"

/* Offsets into the pool while it may still move. */
struct order_at {
	size_t at;
	long games;
};

static int cmp_order(const void *x, const void *y)
{
	const struct kifu_search_order *a = x, *b = y;

	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return strcmp(a->moves, b->moves);
}

/* The first ply moves of stored game id, comma-separated, into line. */
static int game_order(struct kifu_buf *line, struct kifu_store *st, int64_t id, long ply,
		      struct kifu_error *err)
{
	struct kifu_record *rec = NULL;
	long i;
	int ret = kifu_store_game_load(&rec, st, id, err);

	kifu_buf_reset(line);
	for (i = 0; ret == 0 && i < ply; i++) {
		if ((size_t)i >= rec->nturns || !rec->turns[i].text) {
			ret = kifu_error_set(err, KIFU_EDB, "game %lld has no ply %ld", (long long)id,
					     i + 1);
			break;
		}
		if (i)
			kifu_buf_putc(line, ',');
		kifu_buf_puts(line, rec->turns[i].text);
	}
	if (ret == 0 && line->failed)
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	kifu_record_free(rec);
	return ret;
}

int kifu_search_move_orders(struct kifu_search_orders **out, struct kifu_store *st,
			    const struct kifu_filter *f, const uint64_t *hash, int symmetric,
			    const uint64_t *orient, int norient, size_t sample,
			    struct kifu_error *err)
{
	struct kifu_search_result *res = NULL;
	struct kifu_search_orders *o = calloc(1, sizeof(*o));
	struct order_at *at = NULL;
	struct kifu_buf line = KIFU_BUF_INIT;
	size_t i, k, n, nat = 0;
	int ret;

	*out = NULL;
	if (!o)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	if (sample == 0)
		sample = 1;
	/* one more than read: whether there are more */
	ret = kifu_search_games_page(&res, st, f, hash, symmetric, orient, norient, 0, sample + 1,
				     err);
	if (ret < 0)
		goto out;
	n = kifu_search_count(res);
	o->more = n > sample;
	if (n > sample)
		n = sample;
	at = calloc(n ? n : 1, sizeof(*at));
	if (!at) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);

		ret = game_order(&line, st, h->id, h->ply, err);
		if (ret < 0)
			goto out;
		o->read++;
		for (k = 0; k < nat; k++)
			if (!strcmp(o->pool_.data + at[k].at, line.data ? line.data : ""))
				break;
		if (k == nat) {
			at[nat].at = o->pool_.len;
			kifu_buf_puts(&o->pool_, line.data ? line.data : "");
			kifu_buf_add(&o->pool_, "", 1); /* its NUL */
			nat++;
		}
		at[k].games++;
	}
	if (o->pool_.failed || !(o->v = calloc(nat ? nat : 1, sizeof(*o->v)))) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < nat; k++) {
		o->v[k].moves = o->pool_.data + at[k].at;
		o->v[k].games = at[k].games;
	}
	o->n = nat;
	qsort(o->v, o->n, sizeof(*o->v), cmp_order);
out:
	free(at);
	kifu_buf_release(&line);
	kifu_search_result_free(res);
	if (ret < 0)
		kifu_search_orders_free(o);
	else
		*out = o;
	return ret;
}

void kifu_search_orders_free(struct kifu_search_orders *o)
{
	if (!o)
		return;
	free(o->v);
	kifu_buf_release(&o->pool_);
	free(o);
}
