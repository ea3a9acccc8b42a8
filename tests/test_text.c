/*
 * Unit tests of lib/util/text.c: the edit distance and the nearest known name
 * behind every "did you mean" hint.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kifu/text.h"

static void test_distance(void **unused)
{
	char long_name[100];

	(void)unused;
	assert_int_equal(kifu_edit_distance("", ""), 0);
	assert_int_equal(kifu_edit_distance("result", "result"), 0);
	assert_int_equal(kifu_edit_distance("reslt", "result"), 1);     /* a deletion */
	assert_int_equal(kifu_edit_distance("resullt", "result"), 1);   /* an insertion */
	assert_int_equal(kifu_edit_distance("resuLt", "result"), 1);    /* a substitution */
	assert_int_equal(kifu_edit_distance("rseult", "result"), 1);    /* a swap */
	assert_int_equal(kifu_edit_distance("rslt", "result"), 2);
	assert_int_equal(kifu_edit_distance("", "abc"), 3);
	assert_int_equal(kifu_edit_distance("kitten", "sitting"), 3);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_true(kifu_edit_distance(long_name, "a") == SIZE_MAX);
}

static const char *nearest(const char *name, const char *const *known)
{
	struct kifu_near n;

	kifu_near_init(&n, name);
	for (; *known; known++)
		kifu_near_add(&n, *known);
	return kifu_near_best(&n);
}

static void test_near(void **unused)
{
	static const char *const keys[] = { "format", "game", "variant", "event", "site", "round",
					    "source", "date", "result", "moves", NULL };
	static const char *const sides[] = { "red", "blue", "green", "yellow", NULL };
	static const char *const two[] = { "abcd", "abce", NULL };

	(void)unused;
	assert_string_equal(nearest("reslt", keys), "result");
	assert_string_equal(nearest("evnt", keys), "event");
	assert_string_equal(nearest("varaint", keys), "variant");
	assert_null(nearest("xyzzy", keys));         /* nothing within 2 */
	assert_null(nearest("abcf", two));           /* two equally close: no guess */
	assert_null(nearest("bl", sides));           /* as far as the name is long */
	assert_string_equal(nearest("rd", sides), "red");
	assert_string_equal(nearest("gren", sides), "green");
	assert_null(nearest("result", keys));        /* a known name is no typo */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_near),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
