/*
 * Unit tests of the format registry (lib/input/format.c): finding a format by
 * its name, by a file name and by content, the stdio source, and the yaml
 * format read and written through the registry's table alone.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/format.h"

static void test_registry(void **state)
{
	size_t i;

	(void)state;
	assert_non_null(kifu_formats[0]);
	assert_string_equal(kifu_formats[0]->name, "yaml");
	for (i = 0; kifu_formats[i]; i++) {
		const struct kifu_format *f = kifu_formats[i];

		assert_ptr_equal(kifu_format_find(f->name), f);
		assert_non_null(f->open);
		assert_non_null(f->next);
		assert_non_null(f->close);
		assert_non_null(f->write);
		assert_non_null(f->suffixes);
		assert_non_null(f->suffixes[0]);
	}
	assert_null(kifu_format_find("yml"));
	assert_null(kifu_format_find(NULL));
}

static void test_by_name(void **state)
{
	(void)state;
	assert_string_equal(kifu_format_by_name("a/b.yaml")->name, "yaml");
	assert_string_equal(kifu_format_by_name("B.YML")->name, "yaml");
	assert_null(kifu_format_by_name(".yaml"));
	assert_null(kifu_format_by_name("games.txt"));
	assert_null(kifu_format_by_name("yaml"));
}

static void test_sniff(void **state)
{
	static const char yaml[] = "---\nformat: 1\n";

	(void)state;
	assert_string_equal(kifu_format_sniff(yaml, sizeof(yaml) - 1)->name, "yaml");
	assert_string_equal(kifu_format_sniff("", 0)->name, "yaml");
	if (kifu_format_find("pgn")) {
		static const char pgn[] = "\n[Game \"splinter\"]\n";

		assert_string_equal(kifu_format_sniff(pgn, sizeof(pgn) - 1)->name, "pgn");
	}
	if (kifu_format_find("apgr")) {
		static const char apgr[] = "  [{\"header\": {}}]";

		assert_string_equal(kifu_format_sniff(apgr, sizeof(apgr) - 1)->name, "apgr");
	}
}

/* The yaml format reads a stream through a stdio source and writes it back identically. */
static void test_yaml_through_table(void **state)
{
	static const char text[] =
		"---\nformat: 1\ngame: splinter\nplayers:\n  white: Ann\n  black: Bo\nmoves: []\n";
	const struct kifu_format *f = kifu_format_find("yaml");
	struct kifu_source src;
	struct kifu_record *rec;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_error err;
	struct kifu_buf out = KIFU_BUF_INIT;
	const struct kifu_record *recs[1];
	void *st;
	FILE *fp = fmemopen((void *)text, sizeof(text) - 1, "r");

	(void)state;
	assert_non_null(fp);
	kifu_error_clear(&err);
	kifu_source_from_fp(&src, fp, "mem.yaml");
	assert_int_equal(f->open(&st, &src, &err), 0);
	assert_int_equal(f->next(&rec, &diags, st, &err), 1);
	assert_int_equal(diags.errors, 0);
	assert_string_equal(rec->game, "splinter");
	recs[0] = rec;
	assert_int_equal(f->write(&out, recs, NULL, 1, &err), 0);
	assert_int_equal(f->next(&rec, &diags, st, &err), 0);
	f->close(st);
	fclose(fp);
	kifu_record_free((struct kifu_record *)recs[0]);
	kifu_diags_release(&diags);
	assert_non_null(strstr(out.data, "game: splinter\n"));
	assert_non_null(strstr(out.data, "white: Ann"));
	kifu_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_yaml_through_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
