/*
 * Unit tests of lib/util/hash.c: the values of splitmix64 and FNV-1a, and of
 * every way the library composes them, pinned as they were when the copies
 * scattered over the library were merged into one module. Position hashes,
 * game keys and raw-input hashes are stored in databases, so none of these
 * values may ever change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kifu/analyse.h"
#include "kifu/record.h"
#include "kifu/store.h"
#include "util/hash.h"

#define assert_u64(a, b) assert_true((uint64_t)(a) == (uint64_t)(b))

static void test_mix64(void **unused)
{
	(void)unused;
	assert_u64(kifu_hash_mix64_(0), UINT64_C(0x0000000000000000));
	assert_u64(kifu_hash_mix64_(1), UINT64_C(0x5692161d100b05e5));
	assert_u64(kifu_hash_mix64_(UINT64_C(0x0123456789abcdef)), UINT64_C(0xb2c058e4ebb5112c));
	assert_u64(kifu_hash_mix64_(UINT64_MAX), UINT64_C(0xb4d055fcf2cbbd7b));
}

/* The generator, as the players spread a seed over their state. */
static void test_splitmix64(void **unused)
{
	uint64_t s = 0;

	(void)unused;
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0xe220a8397b1dcdaf));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x6e789e6aa1b965f4));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x06c45d188009454f));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0xf88bb8a8724c81ec));
	assert_u64(s, UINT64_C(0x78dde6e5fd29f054));
	s = 12345;
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x22118258a9d111a0));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x346edce5f713f8ed));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x1e9a57bc80e6721d));
	assert_u64(kifu_hash_splitmix64_(&s), UINT64_C(0x2d160e7e5c3f42ca));
}

static void test_fnv1a(void **unused)
{
	uint64_t h;

	(void)unused;
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "", 0), UINT64_C(0xcbf29ce484222325));
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "a", 1), UINT64_C(0xaf63dc4c8601ec8c));
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "foobar", 6),
		   UINT64_C(0x85944171f73967e8));
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "g4 h4", 5),
		   UINT64_C(0xe9d4770337b2d91e));
	assert_u64(kifu_hash_fnv1a_(42, "abc", 3), UINT64_C(0x886776016ee7fe5e));
	/* Pieces hash as their concatenation. */
	h = kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "foo", 3);
	assert_u64(kifu_hash_fnv1a_(h, "bar", 3), UINT64_C(0x85944171f73967e8));
}

/* The compositions the library makes of the two, each as written at its place. */
static void test_variants(void **unused)
{
	uint64_t s, h;
	int head[3] = { 1, 0, 2 };

	(void)unused;
	/* stats_openings.c: an opening line's key. */
	h = kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, head, sizeof(head));
	assert_u64(kifu_hash_mix64_(kifu_hash_fnv1a_(h, "a1,b2", 5)), UINT64_C(0x58768d7aa0428d8b));
	/* play.c: the finaliser over a + K * (b + 1). */
	assert_u64(kifu_hash_mix64_(7 + KIFU_HASH_GOLDEN * (0 + 1)), UINT64_C(0x63cbe1e459320dd7));
	assert_u64(kifu_hash_mix64_(7 + KIFU_HASH_GOLDEN * (3 + 1)), UINT64_C(0x953aeb70673e29cb));
	/* analyse.c: the finaliser over seed ^ ply * K (the public kifu_analyse_ply_seed). */
	assert_u64(kifu_analyse_ply_seed(0, 0), UINT64_C(0x0000000000000000));
	assert_u64(kifu_analyse_ply_seed(42, 1), UINT64_C(0xbdd732262feb6e95));
	assert_u64(kifu_analyse_ply_seed(42, 100), UINT64_C(0x7dff3b660124b0e5));
	assert_u64(kifu_hash_mix64_(42 ^ (uint64_t)100 * KIFU_HASH_GOLDEN),
		   UINT64_C(0x7dff3b660124b0e5));
	/* store_tx.c: a state that keeps the finaliser's output. */
	s = 99;
	s = kifu_hash_mix64_(s + KIFU_HASH_GOLDEN);
	assert_u64(s, UINT64_C(0x42f3a9364c476be3));
	s = kifu_hash_mix64_(s + KIFU_HASH_GOLDEN);
	assert_u64(s, UINT64_C(0x821052991f535b66));
	s = kifu_hash_mix64_(s + KIFU_HASH_GOLDEN);
	assert_u64(s, UINT64_C(0x733be27f02e60f05));
	/* store_symm_sets.c: FNV-1a of a move from a seed of the position, folded. */
	h = (uint64_t)123 * KIFU_HASH_GOLDEN ^ UINT64_C(0x1000) ^ (uint64_t)(1 * 2 + 1) << 56;
	assert_u64(h, UINT64_C(0x07a77c2028c98e17));
	h = kifu_hash_fnv1a_(h, "g4", 2);
	assert_u64(h ^ (h >> 29), UINT64_C(0xaf346ae127d616ce));
	h = (uint64_t)-5 * KIFU_HASH_GOLDEN;
	assert_u64(h ^ (h >> 29), UINT64_C(0xe8ea9f67c4df6893));
	/* store.c: strings with their terminator, NULL as 0xff; player slots; raw input. */
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "kifu game key 1", 16),
		   UINT64_C(0xf48e768a351393fe));
	assert_u64(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "\xff", 1), UINT64_C(0xaf64724c8602eb6e));
	assert_u64(kifu_hash_mix64_(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "Bo", 3)),
		   UINT64_C(0x1fd973d5d81a299b));
	assert_u64(kifu_hash_mix64_(kifu_hash_fnv1a_(KIFU_HASH_FNV_OFFSET, "abc", 3)),
		   UINT64_C(0x0dd490490804b508));
	/* games/board.h: Zobrist keys, the finaliser over salt + (index + 1) * K. */
	assert_u64(kifu_hash_mix64_(0 + (0 + 1) * KIFU_HASH_GOLDEN), UINT64_C(0xe220a8397b1dcdaf));
	assert_u64(kifu_hash_mix64_(0x5a17 + (5 + 1) * KIFU_HASH_GOLDEN),
		   UINT64_C(0x7db87673120bba6b));
	assert_u64(kifu_hash_mix64_(UINT64_MAX + (UINT64_MAX - 1 + 1) * KIFU_HASH_GOLDEN),
		   UINT64_C(0xde0a564cbcd060c4));
}

static const char game_text[] =
	"game: splay-schmidt\n"
	"event: Hash pins\n"
	"date: 2023-11-05\n"
	"players:\n"
	"  white: Cy\n"
	"  black: {name: Di, rating: 1650}\n"
	"moves: [d4, e4, d6, f5]\n";

/*
 * What is stored: the position hashes of a game (Zobrist keys) and its key,
 * as kifu-import wrote them into the games and positions tables.
 */
static void test_stored(void **unused)
{
	static const uint64_t positions[] = {
		UINT64_C(0x76955dc7237eb652), UINT64_C(0x8bd592c12c51a7b5),
		UINT64_C(0x911596a2a4c915c6), UINT64_C(0x302839aa1bb7d040),
		UINT64_C(0x939cc97d32ee6597),
	};
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_reader *r;
	struct kifu_record *rec = NULL;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_error err;
	size_t i;

	(void)unused;
	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&r, game_text, strlen(game_text), "test", &err), 0);
	assert_int_equal(kifu_reader_next(&rec, &diags, r, &err), 1);
	assert_int_equal(kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT |
					      KIFU_VALIDATE_NO_CLOCK, &err), 0);
	assert_int_equal(diags.errors, 0);
	assert_int_equal(rp.nplies, 4);
	for (i = 0; i <= 4; i++)
		assert_u64(rp.hashes[i], positions[i]);
	assert_u64(kifu_store_game_key(rec, &rp), UINT64_C(0xecc95aeeaaebf6d5));
	kifu_diags_release(&diags);
	kifu_reader_free(r);
	kifu_record_free(rec);
	kifu_replay_release(&rp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix64),
		cmocka_unit_test(test_splitmix64),
		cmocka_unit_test(test_fnv1a),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_stored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
