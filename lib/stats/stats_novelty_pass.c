/*
 * The novelties of every dated game of one game and variant in one pass,
 * for kifu-stats novelties' listing: the games are read once each, in
 * (first day, id) order, their moves and hashes held as two tables in
 * memory: each position with how many games reached it, and each position
 * and move with the first date a game played it from there (each game
 * counted at the first ply it reached the position, as the position index
 * holds it). A game's novelty is found against what games of strictly
 * earlier dates put there: a date's games enter the tables stamped with
 * the date's rank and only count from the next date on, so no date's games
 * need holding. It gives what stats_novelties.c's walk over the position
 * index gives, reading each game once where that walk reads every game of
 * every popular position (a random row and a JSON extraction each).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "stats/stats_impl.h"
#include "store/store_impl.h"
#include "util/hash.h"
#include "util/json_list.h"

#define DATE_LEN 11 /* YYYY-MM-DD and its NUL */

/*
 * A position: the games that reached it, those of the date being read
 * apart, and the first move played from it (most positions past the
 * opening have one: the others go to the table of plays).
 */
struct pos {
	uint64_t hash;
	uint32_t count;     /* games of dates before pend_rank */
	uint32_t pend;      /* games of date pend_rank */
	uint32_t pend_rank; /* 1 + a date's rank (0: empty slot) */
	uint32_t move;      /* 1 + the first move played from it (0: none), with the flags: */
};

#define MORE UINT32_C(0x80000000)  /* other moves were played from it too (the plays) */
#define FRESH UINT32_C(0x40000000) /* move was first played on date pend_rank */
#define MOVE(p) ((p)->move & ~(MORE | FRESH))

/* A position and a move played from it, with the rank of the first date it was. */
struct play {
	uint64_t hash;
	uint32_t move; /* 1 + an interned move (0: empty slot) */
	uint32_t rank;
};

struct kifu_novelty_pass_ {
	struct pos *pos;
	size_t npos, pos_slots;
	struct play *plays;
	size_t nplays, play_slots;
	/* the moves, interned: texts at offsets into text, found through slots */
	char *text;
	size_t text_len, text_cap;
	size_t *move_off; /* move i's offset */
	size_t nmoves, moves_cap;
	uint32_t *move_slot; /* 1 + a move, 0: empty */
	size_t move_slots;
	char date[DATE_LEN]; /* the date being read, of rank rank */
	uint32_t rank;
	uint32_t games;
	/* one game's positions reached (seen_game[k] the game whose seen_key[k] it is) */
	uint64_t *seen_key;
	uint32_t *seen_game;
	size_t seen_slots;
	/* one game's slots and moves */
	size_t *slot;
	uint32_t *mv;
	size_t scratch_cap;
};

static uint64_t text_hash(const char *s)
{
	uint64_t h = KIFU_HASH_FNV_OFFSET;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
	return h;
}

/* Doubles the move slots (the moves rehashed). */
static int moves_rehash(struct kifu_novelty_pass_ *np)
{
	size_t n = np->move_slots ? 2 * np->move_slots : 1024, i, k;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return KIFU_ENOMEM;
	for (i = 0; i < np->nmoves; i++) {
		for (k = text_hash(np->text + np->move_off[i]) & (n - 1); slot[k]; k = (k + 1) & (n - 1))
			;
		slot[k] = (uint32_t)i + 1;
	}
	free(np->move_slot);
	np->move_slot = slot;
	np->move_slots = n;
	return 0;
}

/* 1 + move's number, interned the first time (0: out of memory). */
static uint32_t intern(struct kifu_novelty_pass_ *np, const char *move)
{
	size_t len = strlen(move) + 1, k;

	if (np->nmoves >= FRESH - 1 ||
	    (2 * (np->nmoves + 1) > np->move_slots && moves_rehash(np) < 0))
		return 0;
	for (k = text_hash(move) & (np->move_slots - 1); np->move_slot[k];
	     k = (k + 1) & (np->move_slots - 1))
		if (!strcmp(np->text + np->move_off[np->move_slot[k] - 1], move))
			return np->move_slot[k];
	if (np->nmoves == np->moves_cap) {
		size_t cap = np->moves_cap ? 2 * np->moves_cap : 256;
		size_t *off = realloc(np->move_off, cap * sizeof(*off));

		if (!off)
			return 0;
		np->move_off = off;
		np->moves_cap = cap;
	}
	if (np->text_len + len > np->text_cap) {
		size_t cap = 2 * (np->text_len + len) + 4096;
		char *t = realloc(np->text, cap);

		if (!t)
			return 0;
		np->text = t;
		np->text_cap = cap;
	}
	memcpy(np->text + np->text_len, move, len);
	np->move_off[np->nmoves] = np->text_len;
	np->text_len += len;
	np->move_slot[k] = (uint32_t)++np->nmoves;
	return (uint32_t)np->nmoves;
}

__extension__ typedef unsigned __int128 wide;

/* hash's home slot among n: the mixed hash scaled to [0, n) (any n, no division). */
static size_t home(uint64_t hash, size_t n)
{
	return (size_t)(((wide)kifu_hash_mix64_(hash) * n) >> 64);
}

/*
 * The positions' slots, zeroed: mapped, in huge pages where the system
 * gives them (a table of hundreds of megabytes read at random spends most
 * of its time on page-table misses in 4 KB pages).
 */
static struct pos *pos_alloc(size_t slots)
{
	void *p = mmap(NULL, slots * sizeof(struct pos), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, slots * sizeof(struct pos), MADV_HUGEPAGE);
#endif
	return p;
}

static void pos_free(struct pos *v, size_t slots)
{
	if (v)
		munmap(v, slots * sizeof(*v));
}

/* Room for n positions (at most 85% of the slots full), the positions moved. */
static int pos_reserve(struct kifu_novelty_pass_ *np, size_t n)
{
	size_t slots, i, k;
	struct pos *v;

	if (20 * n <= 17 * np->pos_slots)
		return 0;
	slots = n + n / 4 + 65536;
	if (slots < 2 * np->pos_slots)
		slots = 2 * np->pos_slots;
	v = pos_alloc(slots);
	if (!v)
		return KIFU_ENOMEM;
	/* the slots a few entries ahead fetched while this one moves */
	for (i = 0; i < np->pos_slots; i++) {
		if (i + 16 < np->pos_slots && np->pos[i + 16].pend_rank)
			__builtin_prefetch(&v[home(np->pos[i + 16].hash, slots)], 1);
		if (!np->pos[i].pend_rank)
			continue;
		for (k = home(np->pos[i].hash, slots); v[k].pend_rank; k = k + 1 == slots ? 0 : k + 1)
			;
		v[k] = np->pos[i];
	}
	pos_free(np->pos, np->pos_slots);
	np->pos = v;
	np->pos_slots = slots;
	return 0;
}

/* The position's entry from its home slot k, made (nothing counted) at date rank when new. */
static struct pos *pos_get(struct kifu_novelty_pass_ *np, size_t k, uint64_t hash, uint32_t rank)
{
	struct pos *v = np->pos;

	for (; v[k].pend_rank; k = k + 1 == np->pos_slots ? 0 : k + 1)
		if (v[k].hash == hash)
			return &v[k];
	np->npos++;
	v[k].hash = hash;
	v[k].pend_rank = rank;
	return &v[k];
}

static int plays_rehash(struct kifu_novelty_pass_ *np)
{
	size_t n = np->play_slots ? 2 * np->play_slots : 4096, i, k;
	struct play *v = calloc(n, sizeof(*v));

	if (!v)
		return KIFU_ENOMEM;
	for (i = 0; i < np->play_slots; i++) {
		if (!np->plays[i].move)
			continue;
		for (k = kifu_hash_mix64_(np->plays[i].hash ^ np->plays[i].move) & (n - 1);
		     v[k].move; k = (k + 1) & (n - 1))
			;
		v[k] = np->plays[i];
	}
	free(np->plays);
	np->plays = v;
	np->play_slots = n;
	return 0;
}

/* The play of move from hash, made at rank when new; NULL: out of memory. */
static struct play *play_get(struct kifu_novelty_pass_ *np, uint64_t hash, uint32_t move,
			     uint32_t rank)
{
	size_t k;

	if (4 * (np->nplays + 1) > 3 * np->play_slots && plays_rehash(np) < 0)
		return NULL;
	for (k = kifu_hash_mix64_(hash ^ move) & (np->play_slots - 1); np->plays[k].move;
	     k = (k + 1) & (np->play_slots - 1))
		if (np->plays[k].hash == hash && np->plays[k].move == move)
			return &np->plays[k];
	np->nplays++;
	np->plays[k].hash = hash;
	np->plays[k].move = move;
	np->plays[k].rank = rank;
	return &np->plays[k];
}

/* Whether a game of a date before rank played move from p's position. */
static int known(const struct kifu_novelty_pass_ *np, const struct pos *p, uint32_t move,
		 uint32_t rank)
{
	size_t k;

	if (MOVE(p) == move)
		return !(p->move & FRESH); /* (p was brought to rank: pend_rank is rank) */
	if (!(p->move & MORE))
		return 0;
	for (k = kifu_hash_mix64_(p->hash ^ move) & (np->play_slots - 1); np->plays[k].move;
	     k = (k + 1) & (np->play_slots - 1))
		if (np->plays[k].hash == p->hash && np->plays[k].move == move)
			return np->plays[k].rank < rank;
	return 0;
}

/* Records that a game of date rank played move from p's position (the first such date kept). */
static int play(struct kifu_novelty_pass_ *np, struct pos *p, uint32_t move, uint32_t rank)
{
	if (!p->move) {
		p->move = move;
		p->move |= FRESH;
		return 0;
	}
	if (MOVE(p) == move)
		return 0;
	p->move |= MORE;
	return play_get(np, p->hash, move, rank) ? 0 : KIFU_ENOMEM;
}

/* Room for n of a game's positions in the set of those it reached (cleared: stamps 0). */
static int seen_reserve(struct kifu_novelty_pass_ *np, size_t n)
{
	size_t slots = np->seen_slots ? np->seen_slots : 256;

	while (slots < 2 * n)
		slots *= 2;
	if (slots == np->seen_slots)
		return 0;
	free(np->seen_key);
	free(np->seen_game);
	np->seen_key = malloc(slots * sizeof(*np->seen_key));
	np->seen_game = calloc(slots, sizeof(*np->seen_game));
	np->seen_slots = np->seen_key && np->seen_game ? slots : 0;
	return np->seen_slots ? 0 : KIFU_ENOMEM;
}

/* Whether game reaches hash for the first time (a game counts once a position, as the index). */
static int first_reach(struct kifu_novelty_pass_ *np, uint64_t hash, uint32_t game)
{
	size_t k, mask = np->seen_slots - 1;

	for (k = kifu_hash_mix64_(hash) & mask; np->seen_game[k] == game; k = (k + 1) & mask)
		if (np->seen_key[k] == hash)
			return 0;
	np->seen_game[k] = game;
	np->seen_key[k] = hash;
	return 1;
}

/* Room for n of a game's positions in the scratch arrays. */
static int scratch_reserve(struct kifu_novelty_pass_ *np, size_t n)
{
	if (n > np->scratch_cap) {
		size_t cap = n + 64;
		size_t *slot = realloc(np->slot, cap * sizeof(*slot));
		uint32_t *mv;

		if (!slot)
			return KIFU_ENOMEM;
		np->slot = slot;
		mv = realloc(np->mv, cap * sizeof(*mv));
		if (!mv)
			return KIFU_ENOMEM;
		np->mv = mv;
		np->scratch_cap = cap;
	}
	return 0;
}

/*
 * One game of date rank (ranks start at 1) read into the tables, its
 * novelty into *r on the way: at each ply, whether an earlier date's game
 * played its move from the position before it (as novelty_walk asks it).
 * Its moves are read first and its positions' slots fetched ahead, the
 * tables being far larger than the caches.
 */
static int read_game(struct kifu_novelty_pass_ *np, struct kifu_novelty *r, const char *moves,
		     const uint64_t *hashes, size_t nhashes, uint32_t rank, uint32_t game)
{
	struct kifu_json_list l;
	struct kifu_json_item it;
	char move[KIFU_MOVE_TEXT_MAX];
	size_t k, nmoves = 0;
	int walking = 1;

	if (pos_reserve(np, np->npos + nhashes) < 0 || scratch_reserve(np, nhashes) < 0 ||
	    seen_reserve(np, nhashes) < 0)
		return KIFU_ENOMEM;
	for (k = 0; k < nhashes; k++) {
		np->slot[k] = home(hashes[k], np->pos_slots);
		__builtin_prefetch(&np->pos[np->slot[k]], 1);
	}
	/* its moves (none once the list ends: the game ended there) */
	if (moves && kifu_json_list_open_(&l, moves, strlen(moves)) == 0) {
		while (nmoves < nhashes && kifu_json_list_next_(&l, &it) == 1 &&
		       kifu_json_item_decode_(move, sizeof(move), &it) == 0) {
			np->mv[nmoves] = intern(np, move);
			if (!np->mv[nmoves++])
				return KIFU_ENOMEM;
		}
	}
	for (k = 0; k < nhashes; k++) {
		struct pos *p = pos_get(np, np->slot[k], hashes[k], rank);
		int first;

		/* the games of earlier dates become counted ones */
		if (p->pend_rank != rank) {
			p->count += p->pend;
			p->pend = 0;
			p->pend_rank = rank;
			p->move &= ~FRESH;
		}
		first = first_reach(np, hashes[k], game);
		if (first)
			p->pend++;
		if (k >= nmoves)
			continue;
		if (walking && k + 1 < nhashes && !known(np, p, np->mv[k], rank)) {
			walking = 0;
			r->has_novelty = 1;
			r->ply = (long)k + 1;
			snprintf(r->move, sizeof(r->move), "%s", np->text + np->move_off[np->mv[k] - 1]);
			r->earlier = (long)p->count;
		}
		if (first && play(np, p, np->mv[k], rank) < 0)
			return KIFU_ENOMEM;
	}
	return 0;
}

void kifu_stats_novelty_pass_free_(struct kifu_novelty_pass_ *np)
{
	if (!np)
		return;
	pos_free(np->pos, np->pos_slots);
	free(np->plays);
	free(np->text);
	free(np->move_off);
	free(np->move_slot);
	free(np->slot);
	free(np->mv);
	free(np->seen_key);
	free(np->seen_game);
	free(np);
}

int kifu_stats_novelty_pass_open_(struct kifu_novelty_pass_ **out, size_t positions)
{
	struct kifu_novelty_pass_ *np = calloc(1, sizeof(*np));

	*out = NULL;
	if (!np || pos_reserve(np, positions) < 0) {
		kifu_stats_novelty_pass_free_(np);
		return KIFU_ENOMEM;
	}
	*out = np;
	return 0;
}

int kifu_stats_novelty_pass_game_(struct kifu_novelty *out, struct kifu_novelty_pass_ *np,
				  const char *moves, const uint64_t *hashes, size_t nhashes,
				  const char *date)
{
	char d[DATE_LEN];

	memset(out, 0, sizeof(*out));
	out->earlier = -1;
	snprintf(d, sizeof(d), "%s", date);
	/* a new date: the games of the one before now count as earlier */
	if (!np->rank || strcmp(d, np->date)) {
		memcpy(np->date, d, sizeof(d));
		np->rank++;
	}
	return read_game(np, out, moves, hashes, nhashes, np->rank, ++np->games);
}
