/*
 * The library's one hash module (private, not installed): splitmix64 (the
 * generator step and its finaliser) and FNV-1a. Position hashes, game keys
 * and raw-input hashes stored in databases are built from these, so their
 * values must never change: tests/test_hash.c pins them.
 *
 * The finaliser and the step are inline because the rules engines compute
 * a Zobrist key (kifu_zobrist) with them on every move.
 */
#ifndef KIFU_UTIL_HASH_H
#define KIFU_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64's increment, 2^64 divided by the golden ratio (odd). */
#define KIFU_HASH_GOLDEN UINT64_C(0x9e3779b97f4a7c15)
/* FNV-1a's offset basis (64 bits): the hash of no bytes. */
#define KIFU_HASH_FNV_OFFSET UINT64_C(0xcbf29ce484222325)

/* splitmix64's finaliser: every input bit reaches every output bit; 0 stays 0. */
static inline uint64_t kifu_hash_mix64_(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* One step of the splitmix64 generator: advances *state, returns the next output. */
static inline uint64_t kifu_hash_splitmix64_(uint64_t *state)
{
	*state += KIFU_HASH_GOLDEN;
	return kifu_hash_mix64_(*state);
}

/*
 * FNV-1a over n bytes, continuing from h (KIFU_HASH_FNV_OFFSET to start),
 * so that several pieces hash as their concatenation.
 */
uint64_t kifu_hash_fnv1a_(uint64_t h, const void *data, size_t n);

#endif
