/*
 * Perft suite: move-generator counts from the start of every game and
 * variant (the figures of the engines issue, from independent
 * implementations of the spec) and from the 35 mid-game positions of
 * tests/data/perft/positions.yaml (a verbatim copy of the spec's file).
 * Deeper start-position counts run in `make bench`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <yaml.h>

#include "kifu/buf.h"
#include "kifu/game.h"
#include "helpers.h"

struct start_case {
	const char *game, *variant, *first;
	uint64_t counts[4];
};

/* The table of the engines issue, as deep as a test should go. */
static const struct start_case start_cases[] = {
	{ "splay-schmidt", "standard", "white", { 61, 3660, 219600, 0 } },
	{ "splay-kisenwether", "standard", "white", { 122, 14884, 1742404, 0 } },
	{ "splinter", "knockout", "blue", { 120, 14319, 1704942, 0 } },
	{ "splinter", "survival", "blue", { 120, 14319, 1704942, 0 } },
	{ "splinter-quad", "standard", "red", { 72, 5184, 373194, 0 } },
	{ "glaisher", "standard", "red", { 1125, 1169169, 0, 0 } },
	{ "glaisher", "advanced", "red", { 61, 3660, 215940, 12524520 } },
};

static struct kifu_pos *start(const char *game, const char *variant, const char *first)
{
	const struct kifu_game *g = kifu_game_find(game);
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	int v, f;

	assert_non_null(g);
	v = variant ? kifu_game_variant_index(g, variant) : 0;
	f = first ? kifu_game_side_index(g, first) : 0;
	assert_true(v >= 0 && f >= 0);
	if (kifu_pos_new(&pos, g, v, f, &err) < 0)
		fail_msg("%s: %s", game, err.message);
	return pos;
}

static void test_start_positions(void **unused)
{
	size_t i;
	int d;

	(void)unused;
	for (i = 0; i < sizeof(start_cases) / sizeof(start_cases[0]); i++) {
		const struct start_case *c = &start_cases[i];
		struct kifu_pos *pos = start(c->game, c->variant, c->first);

		for (d = 1; d <= 4 && c->counts[d - 1]; d++) {
			uint64_t n;

			assert_int_equal(kifu_perft(&n, pos->game, pos->state, d), 0);
			if (n != c->counts[d - 1])
				fail_msg("%s %s depth %d: %llu, expected %llu", c->game, c->variant,
					 d, (unsigned long long)n,
					 (unsigned long long)c->counts[d - 1]);
		}
		kifu_pos_free(pos);
	}
}

/* One entry of positions.yaml, filled while its document is read. */
struct entry {
	char game[32], variant[32], first[16];
	struct kifu_buf moves; /* comma-separated */
	uint64_t perft[8];
	int nperft;
};

static void run_entry(struct entry *e, int index)
{
	struct kifu_pos *pos = start(e->game, e->variant[0] ? e->variant : NULL,
				     e->first[0] ? e->first : NULL);
	struct kifu_error err;
	int d;

	if (kifu_pos_play_list(pos, e->moves.data ? e->moves.data : "", &err) < 0)
		fail_msg("position %d (%s): %s", index, e->game, err.message);
	for (d = 1; d <= e->nperft; d++) {
		uint64_t n;

		assert_int_equal(kifu_perft(&n, pos->game, pos->state, d), 0);
		if (n != e->perft[d - 1])
			fail_msg("position %d (%s %s) depth %d: %llu, expected %llu", index,
				 e->game, e->variant, d, (unsigned long long)n,
				 (unsigned long long)e->perft[d - 1]);
	}
	kifu_pos_free(pos);
}

static void test_midgame_positions(void **unused)
{
	const char *path = KIFU_SOURCE_DIR "/tests/data/perft/positions.yaml";
	FILE *f = fopen(path, "rb");
	yaml_parser_t parser;
	yaml_event_t ev;
	struct entry e;
	char key[32] = "";
	int depth = 0, in_seq = 0, entries = 0, done = 0;

	(void)unused;
	if (!f)
		fail_msg("cannot open '%s'", path);
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, f);
	memset(&e, 0, sizeof(e));
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev))
			fail_msg("%s:%zu: %s", path, parser.problem_mark.line + 1, parser.problem);
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			kifu_buf_release(&e.moves);
			memset(&e, 0, sizeof(e));
			break;
		case YAML_DOCUMENT_END_EVENT:
			run_entry(&e, ++entries);
			break;
		case YAML_MAPPING_START_EVENT: depth++; break;
		case YAML_MAPPING_END_EVENT: depth--; break;
		case YAML_SEQUENCE_START_EVENT: in_seq = 1; break;
		case YAML_SEQUENCE_END_EVENT: in_seq = 0; key[0] = '\0'; break;
		case YAML_SCALAR_EVENT: {
			const char *v = (const char *)ev.data.scalar.value;

			if (in_seq && !strcmp(key, "moves")) {
				if (e.moves.len)
					kifu_buf_putc(&e.moves, ',');
				kifu_buf_puts(&e.moves, v);
			} else if (in_seq && !strcmp(key, "perft")) {
				assert_true(e.nperft < 8);
				e.perft[e.nperft++] = strtoull(v, NULL, 10);
			} else if (!key[0]) {
				snprintf(key, sizeof(key), "%s", v);
			} else {
				if (!strcmp(key, "game"))
					snprintf(e.game, sizeof(e.game), "%s", v);
				else if (!strcmp(key, "variant"))
					snprintf(e.variant, sizeof(e.variant), "%s", v);
				else if (!strcmp(key, "first"))
					snprintf(e.first, sizeof(e.first), "%s", v);
				key[0] = '\0';
			}
			break;
		}
		case YAML_STREAM_END_EVENT: done = 1; break;
		default: break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	fclose(f);
	kifu_buf_release(&e.moves);
	assert_int_equal(depth, 0);
	assert_int_equal(entries, 35);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_positions),
		cmocka_unit_test(test_midgame_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
