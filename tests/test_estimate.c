/*
 * Tests of the estimators: Wilson intervals against values worked out by
 * hand, and the rating fit against a case solved by hand and against the
 * defining property of a maximum-likelihood fit (every player's expected
 * score equals its actual score, virtual draw included; mean 1500).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kifu/estimate.h"

static double expect(double ra, double rb)
{
	return 1 / (1 + pow(10, (rb - ra) / 400));
}

static void test_wilson(void **unused)
{
	double lo, hi;

	(void)unused;
	/* 7 of 10: centre (0.7 + z^2/20) / (1 + z^2/10), by hand 0.396778 .. 0.892209 */
	assert_int_equal(kifu_estimate_wilson(&lo, &hi, 7, 10), 0);
	assert_true(fabs(lo - 0.396778147) < 1e-8);
	assert_true(fabs(hi - 0.892208733) < 1e-8);
	/* all lost: the interval starts at 0 and is z^2/(n + z^2) wide */
	assert_int_equal(kifu_estimate_wilson(&lo, &hi, 0, 4), 0);
	assert_true(lo == 0);
	assert_true(fabs(hi - KIFU_WILSON_Z * KIFU_WILSON_Z / (4 + KIFU_WILSON_Z * KIFU_WILSON_Z)) < 1e-12);
	/* a fractional score (draws) is symmetric around one half */
	assert_int_equal(kifu_estimate_wilson(&lo, &hi, 2.5, 5), 0);
	assert_true(fabs(lo + hi - 1) < 1e-12);
	assert_int_equal(kifu_estimate_wilson(&lo, &hi, 1, 0), KIFU_ERANGE);
	assert_int_equal(kifu_estimate_wilson(&lo, &hi, 3, 2), KIFU_ERANGE);
}

static void test_one_game(void **unused)
{
	const struct kifu_pairing p[] = { { 0, 1, 1 } };
	double r[2];

	(void)unused;
	assert_int_equal(kifu_estimate_ratings(r, 2, p, 1, NULL), 0);
	/*
	 * By symmetry r = 1500 +- d, and the winner's 1.5 points (win and
	 * virtual draw) equal E(2d) + E(d): d = 131.384089 (solved by bisection).
	 */
	assert_true(fabs(r[0] - (1500 + 131.384089112)) < 1e-6);
	assert_true(fabs(r[1] - (1500 - 131.384089112)) < 1e-6);
}

/*
 * The likelihood equations hold: actual - expected score (virtual draw
 * against the mean included) is the same for every player, namely 1/2 less
 * the mean expected score of the virtual draws; and the mean is 1500.
 */
static void check_fit(const double *r, size_t n, const struct kifu_pairing *p, size_t np)
{
	double mean = 0, shift = 0.5;
	size_t i, k;

	for (i = 0; i < n; i++)
		mean += r[i] / (double)n;
	assert_true(fabs(mean - 1500) < 1e-6);
	for (i = 0; i < n; i++)
		shift -= expect(r[i], mean) / (double)n;
	for (i = 0; i < n; i++) {
		double actual = 0.5, expected = expect(r[i], mean);

		for (k = 0; k < np; k++) {
			if (p[k].a == i) {
				actual += p[k].score_a;
				expected += expect(r[i], r[p[k].b]);
			} else if (p[k].b == i) {
				actual += 1 - p[k].score_a;
				expected += expect(r[i], r[p[k].a]);
			}
		}
		assert_true(fabs(actual - expected - shift) < 1e-7);
	}
}

static void test_likelihood_and_order(void **unused)
{
	/* A beats B twice, draws C; B beats C; C beats A; D lost its only game to C */
	const struct kifu_pairing p[] = {
		{ 0, 1, 1 }, { 1, 0, 0 }, { 0, 2, 0.5 }, { 1, 2, 1 }, { 2, 0, 1 }, { 3, 2, 0 },
	};
	const struct kifu_pairing q[] = {
		{ 3, 2, 0 }, { 2, 0, 1 }, { 1, 2, 1 }, { 2, 0, 0.5 }, { 0, 1, 1 }, { 0, 1, 1 },
	};
	double r[4], s[4];
	size_t i;

	(void)unused;
	assert_int_equal(kifu_estimate_ratings(r, 4, p, 6, NULL), 0);
	check_fit(r, 4, p, 6);
	/* the same games listed in another order (and sides swapped) give the same ratings */
	assert_int_equal(kifu_estimate_ratings(s, 4, q, 6, NULL), 0);
	for (i = 0; i < 4; i++)
		assert_true(fabs(r[i] - s[i]) < 1e-6);
	/* A scored 3.5 of 4 and leads; D, who only lost, is last but finite */
	assert_true(r[0] > r[1] && r[0] > r[2]);
	assert_true(r[3] < r[1] && r[3] < r[2] && isfinite(r[3]));
}

static void test_bad_input(void **unused)
{
	const struct kifu_pairing p[] = { { 0, 5, 1 } };
	struct kifu_error err;
	double r[2];

	(void)unused;
	assert_int_equal(kifu_estimate_ratings(r, 2, p, 1, &err), KIFU_ERANGE);
	assert_string_equal(err.message, "ratings: pairing 1 names no pair of players");
	/* a player with no games sits at the mean */
	assert_int_equal(kifu_estimate_ratings(r, 1, NULL, 0, &err), 0);
	assert_true(fabs(r[0] - 1500) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_one_game),
		cmocka_unit_test(test_likelihood_and_order),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
