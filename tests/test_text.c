/*
 * Unit tests of lib/util/text.c: the edit distance and the nearest known name
 * behind every "did you mean" hint; and of lib/util/numtext.c: numbers
 * written without printf, checked against snprintf and strtod.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kifu/text.h"
#include "util/text_impl.h"

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

static void check_int(long long v)
{
	char want[64], got[KIFU_TEXT_INT_SIZE];
	size_t n = kifu_text_int_(got, v);

	snprintf(want, sizeof(want), "%lld", v);
	if (strcmp(got, want) != 0 || n != strlen(want))
		fail_msg("%s: '%s'", want, got);
}

/* Display width: code points, whatever the run of eight bytes they fall in. */
static void test_width(void **unused)
{
	/* "Zo\u00eb K\u014dji \u674e" twice: 2- and 3-byte characters across the 8-byte steps */
	static const char s[] = "Zo\xc3\xab K\xc5\x8dji \xe6\x9d\x8e, Zo\xc3\xab K\xc5\x8dji \xe6\x9d\x8e";
	size_t n, want, i;

	(void)unused;
	assert_int_equal(kifu_text_width("", 0), 0);
	assert_int_equal(kifu_text_width("Player 0149", 11), 11);
	for (n = 0; n <= sizeof(s) - 1; n++) {
		for (want = 0, i = 0; i < n; i++)
			want += ((unsigned char)s[i] & 0xc0) != 0x80;
		assert_int_equal(kifu_text_width(s, n), want);
	}
	assert_int_equal(kifu_text_width(s, sizeof(s) - 1), 22);
}

static void test_int_text(void **unused)
{
	unsigned long long x = 88172645463325252ULL;
	long long v;
	int i;

	(void)unused;
	check_int(LLONG_MIN);
	check_int(LLONG_MAX);
	for (v = -1000; v <= 1000; v++)
		check_int(v);
	for (v = 1; v > 0 && v < LLONG_MAX / 10; v *= 10) {
		check_int(v);
		check_int(v - 1);
		check_int(-v);
		check_int(-v + 1);
	}
	for (i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_int((long long)x >> (i % 64));
	}
}

/* kifu_text_fixed_ and kifu_text_fixed_reads_back_ against snprintf "%.*f" and strtod. */
static void check_fixed(double v, int prec)
{
	char want[512], got[512], back[512];
	size_t n;
	int rb;

	snprintf(want, sizeof(want), "%.*f", prec, v);
	n = kifu_text_fixed_(got, sizeof(got), v, prec);
	if (strcmp(got, want) != 0 || n != strlen(want))
		fail_msg("%.17g with %d decimals: '%s', not '%s'", v, prec, got, want);
	rb = kifu_text_fixed_reads_back_(back, sizeof(back), v, prec);
	if (strcmp(back, want) != 0)
		fail_msg("%.17g with %d decimals: '%s', not '%s'", v, prec, back, want);
	if (rb != (strtod(want, NULL) == v))
		fail_msg("%.17g with %d decimals: '%s' reads back: %d", v, prec, want, rb);
}

static void check_fixed_all(double v)
{
	int prec;

	for (prec = 0; prec <= 24; prec++) {
		check_fixed(v, prec);
		check_fixed(-v, prec);
	}
}

static void test_fixed_text(void **unused)
{
	static const double edge[] = {
		0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 0.0625, 0.9995, 0.9994999999999999,
		0.00049999999999999, 0.0005, 0.0015, 1e-4, 1e-5, 123456.5, 1e15, 1e15 + 0.5,
		9007199254740992.0, 9007199254740993.0, 1e18, 1.8446744073709552e19, 1e19, 1e22,
		1e300, DBL_MIN, DBL_MAX, DBL_TRUE_MIN, 4503599627370496.5, 0.1, 0.2, 0.3,
		1.0 / 3, 2.0 / 3, 0.05, 0.005, 0.045, 0.0045, 1.005, 2.675,
	};
	unsigned long long x = 88172645463325252ULL;
	size_t i;
	long n, d;
	char got[64];

	(void)unused;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		check_fixed_all(edge[i]);
	check_fixed(NAN, 3);
	check_fixed(INFINITY, 3);
	check_fixed(-INFINITY, 0);
	/* the shares and scores reports write, their halves and their neighbours */
	for (n = 0; n <= 400; n++)
		for (d = 1; d <= 400; d++) {
			double v = (double)n / (double)d;

			check_fixed(v, 3);
			check_fixed(nextafter(v, 0), 3);
			check_fixed(nextafter(v, 2), 3);
			check_fixed(v, (int)((n + d) % 21));
		}
	for (n = -20000; n <= 20000; n++) {
		check_fixed((double)n / 2000 + 0.00025, 3);
		check_fixed((double)n / 16, 3);
		check_fixed((double)n / 1024, 3);
	}
	/* random bit patterns (finite), every count of decimals */
	for (i = 0; i < 100000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		check_fixed(v, (int)(i % 25));
		/* and the magnitudes reports have */
		v = ldexp((double)(x >> 11), -53 - (int)(i % 40));
		check_fixed(v, (int)(i % 23));
		check_fixed(v * 1e6, (int)(i % 23));
	}
	/* a small buffer is cut as snprintf cuts it */
	assert_int_equal(kifu_text_fixed_(got, 4, 123.456, 3), 3);
	assert_string_equal(got, "123");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_near),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_int_text),
		cmocka_unit_test(test_fixed_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
