/*
 * A measurement for the position index's next design (issue 31): what the
 * postings of a real kifu database's index (positions_hash: each game once
 * per position, with its first ply) would cost written as sorted,
 * compressed runs instead of one B-tree entry each, before any of it is
 * built into libkifu. It reads the index of DB in game order, cuts it into
 * the runs an import would write (one per BATCH games, as the store's
 * transactions group them), and encodes each run, and then the whole index
 * merged into one, as blocks of at most BLOCK bytes: per position its hash
 * (the first of a block whole, in the block's directory entry; the others
 * as the varint gap from the one before, keeping only the top HASH_BITS
 * bits, so that two positions can share a key and a reader must check the
 * game's own hash), the number of its games, then each game as the varint
 * gap from the one before and its ply. Prints, per hash width: bytes per
 * game of the runs unmerged and merged (directory included) against the
 * B-tree's (SQLite's dbstat), the encoding's speed, and the time to read
 * back every game of the most frequent position from the merged run (a
 * binary search of the directory, then its blocks decoded), with a check
 * that every posting read back equals the table's.
 * Usage: posidx-runs DB [BATCH [BLOCK]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

struct posting {
	uint64_t hash; /* the table's signed hash, as unsigned with its sign bit flipped */
	int64_t game;
	int ply;
};

struct enc {
	unsigned char *data;
	size_t len, cap;
	size_t blocks;       /* directory entries: 8-byte key + 4-byte offset each */
	uint64_t *dir_key;   /* each block's first key and where it starts */
	size_t *dir_off, dir_cap;
	size_t block_start;  /* where the current block began */
	uint64_t last_key;
	int open;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put(struct enc *e, const void *p, size_t n)
{
	if (e->len + n > e->cap) {
		e->cap = e->cap ? e->cap * 2 : 1 << 20;
		while (e->cap < e->len + n)
			e->cap *= 2;
		e->data = realloc(e->data, e->cap);
		if (!e->data) {
			perror("realloc");
			exit(3);
		}
	}
	memcpy(e->data + e->len, p, n);
	e->len += n;
}

static void put_varint(struct enc *e, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	put(e, b, n);
}

static uint64_t get_varint(const unsigned char **p)
{
	uint64_t v = 0;
	int shift = 0;

	while (**p & 0x80) {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		(*p)++;
	}
	v |= (uint64_t)**p << shift;
	(*p)++;
	return v;
}

static int cmp_posting(const void *x, const void *y)
{
	const struct posting *a = x, *b = y;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->game > b->game) - (a->game < b->game);
}

/*
 * Encodes v[0..n) (sorted) with keys of the top bits bits of each hash;
 * postings of one key whose games repeat (two positions sharing a key in
 * one game) keep both: the reader tells them apart by the game's hash.
 */
static void encode(struct enc *e, const struct posting *v, size_t n, int bits, size_t block)
{
	size_t i = 0;

	while (i < n) {
		uint64_t key = v[i].hash >> (64 - bits);
		size_t j = i;
		int64_t last = 0;

		while (j < n && v[j].hash >> (64 - bits) == key)
			j++;
		if (!e->open || e->len - e->block_start >= block) {
			if (e->blocks == e->dir_cap) {
				e->dir_cap = e->dir_cap ? e->dir_cap * 2 : 1024;
				e->dir_key = realloc(e->dir_key, e->dir_cap * sizeof(*e->dir_key));
				e->dir_off = realloc(e->dir_off, e->dir_cap * sizeof(*e->dir_off));
				if (!e->dir_key || !e->dir_off) {
					perror("realloc");
					exit(3);
				}
			}
			e->dir_key[e->blocks] = key;
			e->dir_off[e->blocks] = e->len;
			e->blocks++;
			e->block_start = e->len;
			e->open = 1;
		} else
			put_varint(e, key - e->last_key);
		e->last_key = key;
		put_varint(e, j - i);
		for (; i < j; i++) {
			put_varint(e, (uint64_t)(v[i].game - last));
			put_varint(e, (uint64_t)v[i].ply);
			last = v[i].game;
		}
	}
}

static size_t encoded_size(const struct enc *e)
{
	return e->len + e->blocks * 12;
}

int main(int argc, char **argv)
{
	static const int widths[] = { 64, 40, 32 };
	sqlite3 *db;
	sqlite3_stmt *s;
	struct posting *v = NULL, *tmp;
	size_t n = 0, cap = 0, batch, block, i, w;
	int64_t games = 0, btree = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: posidx-runs DB [BATCH [BLOCK]]\n");
		return 2;
	}
	batch = argc > 2 ? (size_t)atol(argv[2]) : 2000;
	block = argc > 3 ? (size_t)atol(argv[3]) : 4096;
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "posidx-runs: cannot open '%s'\n", argv[1]);
		return 3;
	}
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM games", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		games = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(db, "SELECT sum(pgsize) FROM dbstat WHERE name = 'positions_hash'",
			       -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		btree = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	/* In game order: the order an import adds them in. */
	if (sqlite3_prepare_v2(db, "SELECT hash, game_id, ply FROM positions_hash ORDER BY game_id",
			       -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "posidx-runs: %s\n", sqlite3_errmsg(db));
		return 3;
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				return 3;
		}
		v[n].hash = (uint64_t)sqlite3_column_int64(s, 0) ^ (UINT64_C(1) << 63);
		v[n].game = sqlite3_column_int64(s, 1);
		v[n].ply = sqlite3_column_int(s, 2);
		n++;
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	if (!games || !n) {
		fprintf(stderr, "posidx-runs: no games or no index in '%s'\n", argv[1]);
		return 1;
	}
	printf("posidx-runs: %lld games, %zu postings (%.1f a game); B-tree %.0f bytes a game\n",
	       (long long)games, n, (double)n / (double)games, (double)btree / (double)games);
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return 3;
	for (w = 0; w < sizeof(widths) / sizeof(*widths); w++) {
		struct enc runs = { 0 }, merged = { 0 };
		size_t start = 0, nruns = 0, found = 0, best = 0, cnt = 0, k;
		double t0, t_runs, t_merge, t_read;
		uint64_t top = 0, key;
		const unsigned char *p, *end;
		int bits = widths[w];

		/* The runs an import writes: each batch of games sorted and encoded. */
		memcpy(tmp, v, n * sizeof(*tmp));
		t0 = now();
		while (start < n) {
			size_t end_i = start;
			int64_t first = tmp[start].game;

			while (end_i < n && tmp[end_i].game < first + (int64_t)batch)
				end_i++;
			qsort(tmp + start, end_i - start, sizeof(*tmp), cmp_posting);
			runs.open = 0;
			encode(&runs, tmp + start, end_i - start, bits, block);
			nruns++;
			start = end_i;
		}
		t_runs = now() - t0;
		/* The whole index merged into one run. */
		t0 = now();
		qsort(tmp, n, sizeof(*tmp), cmp_posting);
		encode(&merged, tmp, n, bits, block);
		t_merge = now() - t0;
		/* The most frequent key, and every posting of it read back. */
		for (i = 0; i < n; i = k) {
			for (k = i; k < n && tmp[k].hash >> (64 - bits) == tmp[i].hash >> (64 - bits); k++)
				;
			if (k - i > cnt) {
				cnt = k - i;
				best = i;
				top = tmp[i].hash >> (64 - bits);
			}
		}
		t0 = now();
		/* A reader: the last block whose first key is <= top, then its keys in order. */
		{
			size_t lo = 0, hi = merged.blocks;

			while (hi - lo > 1) {
				size_t mid = (lo + hi) / 2;

				if (merged.dir_key[mid] <= top)
					lo = mid;
				else
					hi = mid;
			}
			p = merged.data + merged.dir_off[lo];
			end = lo + 1 < merged.blocks ? merged.data + merged.dir_off[lo + 1]
						     : merged.data + merged.len;
			key = merged.dir_key[lo];
			for (k = 0; p < end && key <= top; k++) {
				uint64_t m, j;
				int64_t g = 0;

				if (k)
					key += get_varint(&p);
				m = get_varint(&p);
				for (j = 0; j < m; j++) {
					int ply;

					g += (int64_t)get_varint(&p);
					ply = (int)get_varint(&p);
					if (key != top)
						continue;
					if (tmp[best + found].game != g || tmp[best + found].ply != ply) {
						fprintf(stderr, "posidx-runs: posting %zu read back wrong\n",
							found);
						return 1;
					}
					found++;
				}
			}
		}
		t_read = now() - t0;
		printf("posidx-runs: %2d-bit keys: %zu runs of %zu games %.0f bytes a game; merged "
		       "%.0f bytes a game (%zu blocks); sorting and encoding %.0f ns a posting "
		       "(merged at once %.0f); most frequent key: %zu games read back %s in %.2f ms\n",
		       bits, nruns, batch, (double)encoded_size(&runs) / (double)games,
		       (double)encoded_size(&merged) / (double)games, merged.blocks,
		       t_runs * 1e9 / (double)n, t_merge * 1e9 / (double)n, cnt,
		       found == cnt ? "exactly" : "WRONG", t_read * 1e3);
		free(runs.data);
		free(runs.dir_key);
		free(runs.dir_off);
		free(merged.data);
		free(merged.dir_key);
		free(merged.dir_off);
	}
	free(tmp);
	free(v);
	return 0;
}
