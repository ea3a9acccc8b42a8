/*
 * Numbers as text without printf, for writers of many rows (a report of
 * 250,000 rows spent most of its time in vfprintf): integers, reals with a
 * fixed number of decimals written exactly as printf's "%.*f" writes them
 * (the binary value rounded, ties to even), and whether such a text reads
 * back (strtod) as the same double. Both work on the exact value of the
 * double (its 53-bit integer times a power of two) in 128-bit integers, so
 * they agree with printf and strtod to the last digit, not just almost;
 * what does not fit (huge values, many decimals, NaN and infinities) goes
 * to printf and strtod themselves. tests/test_text.c compares them with
 * snprintf and strtod over many values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text_impl.h"

__extension__ typedef unsigned __int128 u128;

/* 5^0 .. 5^KIFU_TEXT_FIXED_MAX (5^22 < 2^52). */
static const uint64_t pow5[] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL,
	1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL,
	30517578125ULL, 152587890625ULL, 762939453125ULL, 3814697265625ULL,
	19073486328125ULL, 95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
};

static const uint64_t pow10[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

/* "00" .. "99" */
static const char two_digits[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes the decimal digits of v (at least `width` of them, zeros before); the count. */
static size_t put_digits(char *dst, uint64_t v, size_t width)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	size_t n;

	/* from the end, two digits a division */
	while (v >= 100) {
		const char *d = two_digits + 2 * (v % 100);

		v /= 100;
		*--p = d[1];
		*--p = d[0];
	}
	if (v >= 10) {
		*--p = two_digits[2 * v + 1];
		*--p = two_digits[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
	while ((size_t)(tmp + sizeof(tmp) - p) < width && p > tmp)
		*--p = '0';
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(dst, p, n);
	return n;
}

size_t kifu_text_int_(char dst[KIFU_TEXT_INT_SIZE], long long v)
{
	size_t n = 0;
	uint64_t u = (uint64_t)v;

	if (v < 0) {
		dst[n++] = '-';
		u = 0 - u;
	}
	n += put_digits(dst + n, u, 1);
	dst[n] = '\0';
	return n;
}

/*
 * a (finite, >= 0) as m * 2^e, m an integer below 2^53: exact, since
 * frexp and ldexp by a power of two lose nothing.
 */
static void split(double a, uint64_t *m, int *e)
{
	int ex;
	double f = frexp(a, &ex);

	*m = (uint64_t)ldexp(f, 53);
	*e = ex - 53;
}

/*
 * N = a * 10^prec rounded to an integer, ties to even (printf's rounding
 * of the exact binary value); 0 when it does not fit in 64 bits or the
 * arithmetic would overflow (the caller then uses printf).
 */
static int fixed_digits(uint64_t *out, double a, int prec)
{
	uint64_t m;
	int e, s;
	u128 x, q, r, half;

	split(a, &m, &e);
	x = (u128)m * pow5[prec];   /* below 2^53 * 5^22 < 2^105 */
	s = e + prec;               /* a * 10^prec = x * 2^s */
	if (s >= 0) {
		if (s > 127 - 105 || (x << s) >> 64)
			return 0;
		*out = (uint64_t)(x << s);
		return 1;
	}
	s = -s;
	if (s >= 127) {
		*out = 0;  /* x * 2^-s < 2^105 / 2^127: below a half */
		return 1;
	}
	q = x >> s;
	r = x & (((u128)1 << s) - 1);
	half = (u128)1 << (s - 1);
	if (r > half || (r == half && (q & 1)))
		q++;
	if (q >> 64)
		return 0;
	*out = (uint64_t)q;
	return 1;
}

size_t kifu_text_fixed_(char *dst, size_t size, double v, int prec)
{
	char buf[64];
	size_t n = 0;
	uint64_t N;
	int len;

	if (isfinite(v) && prec >= 0 && prec <= KIFU_TEXT_FIXED_MAX &&
	    fixed_digits(&N, fabs(v), prec) && size >= 64) {
		if (signbit(v))
			dst[n++] = '-';
		/* (from 20 decimals on, N < 2^64 < 10^prec: no integer part) */
		n += put_digits(dst + n, prec < 20 ? N / pow10[prec] : 0, 1);
		if (prec) {
			dst[n++] = '.';
			n += put_digits(dst + n, prec < 20 ? N % pow10[prec] : N, (size_t)prec);
		}
		dst[n] = '\0';
		return n;
	}
	len = snprintf(buf, sizeof(buf), "%.*f", prec, v);
	if (len < 0 || (size_t)len >= size || (size_t)len >= sizeof(buf)) {
		len = snprintf(dst, size, "%.*f", prec, v);
		return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
	}
	memcpy(dst, buf, (size_t)len + 1);
	return (size_t)len;
}

/*
 * Whether N * 10^-prec (N below 2^64) rounds to a (finite, > 0) as strtod
 * rounds: to the nearest double, ties to even. a = m * 2^e stands for the
 * doubles between its neighbours' midpoints, (2m - 1) * 2^(e-1) and
 * (2m + 1) * 2^(e-1) (below a power of two the lower neighbour is half as
 * far: (4m - 1) * 2^(e-2)), the midpoints included when m is even. -1 when
 * the comparison would not fit in 128 bits.
 */
static int rounds_to(uint64_t N, int prec, double a)
{
	uint64_t m;
	int e, t, sh, cmp_lo, cmp_hi, k;
	u128 lhs, lo, hi;

	split(a, &m, &e);
	/* normalised: m in [2^52, 2^53) (subnormals take the slow way) */
	if (m < (1ULL << 52))
		return -1;
	/* N / (5^prec 2^prec) against k * 2^(e-sh): N * 2^(sh-e-prec) against k * 5^prec */
	sh = m == (1ULL << 52) ? 2 : 1;
	t = sh - e - prec;
	lo = (u128)((m << sh) - 1) * pow5[prec];   /* below 2^55 * 5^22 < 2^107 */
	hi = (u128)((m << 1) + 1) * pow5[prec];
	if (sh == 2)
		hi <<= 1;                              /* the upper bound at the same scale */
	if (t >= 0) {
		if (t > 63)
			return -1;
		lhs = (u128)N << t;
	} else {
		if (-t > 18)
			return -1;
		lhs = N;
		lo <<= -t;
		hi <<= -t;
	}
	cmp_lo = lhs > lo ? 1 : lhs == lo ? 0 : -1;
	cmp_hi = lhs < hi ? 1 : lhs == hi ? 0 : -1;
	if (cmp_lo < 0 || cmp_hi < 0)
		return 0;
	k = cmp_lo > 0 && cmp_hi > 0;
	return k || !(m & 1);
}

int kifu_text_fixed_reads_back_(char *dst, size_t size, double v, int prec)
{
	uint64_t N;
	int r;

	kifu_text_fixed_(dst, size, v, prec);
	if (v == 0)
		return 1;  /* "0", "-0.00", ... read back as a zero, which == v */
	if (isfinite(v) && v != 0 && prec >= 0 && prec <= KIFU_TEXT_FIXED_MAX &&
	    fixed_digits(&N, fabs(v), prec) && (r = rounds_to(N, prec, fabs(v))) >= 0)
		return r;
	return strtod(dst, NULL) == v;
}
