/*
 * FNV-1a, the byte hash of the library (the splitmix64 parts are inline in
 * hash.h). Its values are stored in databases: never change them.
 */
#include "util/hash.h"

#define FNV_PRIME UINT64_C(0x100000001b3)

uint64_t kifu_hash_fnv1a_(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return h;
}
