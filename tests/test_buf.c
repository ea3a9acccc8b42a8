/*
 * Tests of the text buffer: appends and formatting, and the JSON string
 * writer every JSON output of kifu goes through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "util/text_impl.h"

static void expect_json(const char *in, const char *want)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	assert_int_equal(kifu_buf_json_string(&b, in), 0);
	assert_string_equal(b.data, want);
	kifu_buf_release(&b);
}

static void test_json_string(void **unused)
{
	(void)unused;
	expect_json("", "\"\"");
	expect_json("a2>se 3+2+1 e5", "\"a2>se 3+2+1 e5\"");
	expect_json("say \"hi\" \\ bye", "\"say \\\"hi\\\" \\\\ bye\"");
	expect_json("l1\nl2\tt\rr", "\"l1\\nl2\\tt\\rr\"");
	expect_json("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	/* valid UTF-8 passes through: é (2 bytes), 棋 (3), 𝄞 (4) */
	expect_json("\xc3\xa9\xe6\xa3\x8b\xf0\x9d\x84\x9e", "\"\xc3\xa9\xe6\xa3\x8b\xf0\x9d\x84\x9e\"");
	/* a lone continuation byte, a cut sequence, an overlong '/', a surrogate */
	expect_json("a\x80z", "\"a\\ufffdz\"");
	expect_json("\xe6\xa3", "\"\\ufffd\\ufffd\"");
	expect_json("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	expect_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
}

static void expect_csv(const char *in, const char *want)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	assert_int_equal(kifu_buf_csv_field(&b, in), 0);
	assert_string_equal(b.data ? b.data : "", want);
	kifu_buf_release(&b);
}

/* RFC 4180 quoting, and INTEROP.md's "'" before what a spreadsheet would run. */
/* One part of an address: the unreserved bytes as they are, every other byte as %XX. */
static void test_url_part(void **unused)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "Ann-Lee_1.2~", "Ann-Lee_1.2~" },
		{ "Ann Lee", "Ann%20Lee" },
		{ "a/b?c#d&e=f%", "a%2Fb%3Fc%23d%26e%3Df%25" },
		{ "\t\r\n\"<'", "%09%0D%0A%22%3C%27" },
		{ "\xc3\xa9", "%C3%A9" },
		{ "", "" },
	};
	struct kifu_buf b = KIFU_BUF_INIT;
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kifu_buf_reset(&b);
		kifu_buf_url_part(&b, cases[i].in);
		assert_false(b.failed);
		assert_string_equal(b.data ? b.data : "", cases[i].out);
	}
	kifu_buf_reset(&b);
	kifu_buf_url_part(&b, NULL);
	assert_int_equal(b.len, 0);
	kifu_buf_release(&b);
}

static void test_csv_field(void **unused)
{
	(void)unused;
	expect_csv("", "");
	expect_csv("Ann", "Ann");
	expect_csv("a,b", "\"a,b\"");
	expect_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
	expect_csv(" x", "\" x\"");
	expect_csv("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
	expect_csv("=1+2", "'=1+2");
	expect_csv("+1", "'+1");
	expect_csv("-0.5", "'-0.5");
	expect_csv("@SUM(A1)", "'@SUM(A1)");
	expect_csv("\tx", "'\tx");
	expect_csv("\rx", "\"'\rx\"");
	expect_csv("'x", "''x");
	expect_csv("'", "''");
	/* only the first character counts */
	expect_csv("a=1", "a=1");
	expect_csv("x-1", "x-1");
	expect_csv("0.5", "0.5");
}

static void test_appends(void **unused)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	char *s;
	int i;

	(void)unused;
	for (i = 0; i < 1000; i++)
		assert_int_equal(kifu_buf_printf(&b, "%d,", i % 10), 0);
	assert_int_equal(b.len, 2000);
	assert_memory_equal(b.data, "0,1,2,", 6);
	kifu_buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	kifu_buf_puts(&b, "ab");
	kifu_buf_putc(&b, 'c');
	s = kifu_buf_detach(&b);
	assert_string_equal(s, "abc");
	assert_null(b.data);
	kifu_buf_detached_free(s);
}

static void test_escaped(void **unused)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	(void)unused;
	/* ESC, BEL, CR, TAB, newline, DEL, C1 CSI (U+009B), U+2028; UTF-8 kept. */
	assert_int_equal(kifu_buf_escaped(&b, "a\033[31mb\a\r\t\n\x7f\xc2\x9b\xe2\x80\xa8\xc3\xa9"), 0);
	assert_string_equal(b.data, "a\\x1b[31mb\\x07\\r\\t\\n\\x7f\\u009b\\u2028\xc3\xa9");
	kifu_buf_reset(&b);
	assert_int_equal(kifu_buf_escaped(&b, "plain text"), 0);
	assert_string_equal(b.data, "plain text");
	kifu_buf_reset(&b);
	/* the bidirectional embeddings, overrides and isolates; their neighbours kept */
	assert_int_equal(kifu_buf_escaped(&b, "\xe2\x80\xaa\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9"
					      "\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"), 0);
	assert_string_equal(b.data, "\\u202a\\u202e\\u2066\\u2069"
				    "\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
	kifu_buf_reset(&b);
	/* the marks (U+200E, U+200F, U+061C); U+200D and U+061B beside them kept */
	assert_int_equal(kifu_buf_escaped(&b, "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xe2\x80\x8d\xd8\x9b"), 0);
	assert_string_equal(b.data, "\\u200e\\u200f\\u061c\xe2\x80\x8d\xd8\x9b");
	kifu_buf_reset(&b);
	/* json: the same characters as escapes (the same string once parsed) */
	assert_int_equal(kifu_buf_json_string(&b, "a\xe2\x80\xae" "b\xd8\x9c\xc2\x85\xc3\xa9"), 0);
	assert_string_equal(b.data, "\"a\\u202eb\\u061c\\u0085" "\xc3\xa9\"");
	kifu_buf_release(&b);
}

/* A bound on the size: an append past it fails, marked KIFU_BUF_FULL; reset keeps the bound. */
static void test_max(void **unused)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	(void)unused;
	b.max = 8;
	assert_int_equal(kifu_buf_puts(&b, "12345678"), 0);
	assert_int_equal(kifu_buf_putc(&b, '9'), KIFU_ENOMEM);
	assert_int_equal(b.failed, KIFU_BUF_FULL);
	kifu_buf_reset(&b);
	assert_int_equal(b.max, 8);
	assert_int_equal(kifu_buf_printf(&b, "%d", 123456789), KIFU_ENOMEM);
	assert_int_equal(b.failed, KIFU_BUF_FULL);
	kifu_buf_release(&b);
	assert_int_equal(kifu_buf_printf(&b, "%s", "x"), 0);
	assert_string_equal(b.data, "x");
	kifu_buf_release(&b);
}

/*
 * kifu_buf_escaped and kifu_buf_json_string copy runs of plain bytes at
 * once: against the byte at a time they replaced, on random texts of
 * plain ASCII with every kind of byte among it (controls, quotes,
 * backslashes, DEL, UTF-8 good and bad, the unseen characters).
 */
static void escaped_by_bytes(struct kifu_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	size_t n;

	for (; *p; p++) {
		if (*p == '\n')
			kifu_buf_puts(b, "\\n");
		else if (*p == '\t')
			kifu_buf_puts(b, "\\t");
		else if (*p == '\r')
			kifu_buf_puts(b, "\\r");
		else if (*p < 0x20 || *p == 0x7f)
			kifu_buf_printf(b, "\\x%02x", *p);
		else if ((n = kifu_text_unseen_((const char *)p, &cp)) > 0) {
			kifu_buf_printf(b, "\\u%04x", cp);
			p += n - 1;
		} else
			kifu_buf_putc(b, (char)*p);
	}
}

static void json_by_bytes(struct kifu_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	kifu_buf_putc(b, '"');
	while (*p) {
		unsigned char c = *p;
		int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			: (c & 0xf8) == 0xf0 ? 4 : 0;
		unsigned unseen;
		size_t k;
		int i;

		if (c == '"' || c == '\\') {
			kifu_buf_putc(b, '\\');
			kifu_buf_putc(b, (char)c);
		} else if (c == '\n') {
			kifu_buf_puts(b, "\\n");
		} else if (c == '\t') {
			kifu_buf_puts(b, "\\t");
		} else if (c == '\r') {
			kifu_buf_puts(b, "\\r");
		} else if (c < 0x20 || c == 0x7f) {
			kifu_buf_printf(b, "\\u%04x", c);
		} else if ((k = kifu_text_unseen_((const char *)p, &unseen)) > 0) {
			kifu_buf_printf(b, "\\u%04x", unseen);
			p += k;
			continue;
		} else if (n == 1) {
			kifu_buf_putc(b, (char)c);
		} else {
			unsigned long cp = n == 2 ? c & 0x1fu : n == 3 ? c & 0x0fu : c & 0x07u;

			for (i = 1; n && i < n; i++) {
				if ((p[i] & 0xc0) != 0x80)
					n = 0;
				else
					cp = cp << 6 | (p[i] & 0x3f);
			}
			if (n && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
				  (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
				  (cp >= 0xd800 && cp <= 0xdfff)))
				n = 0;
			if (!n) {
				kifu_buf_puts(b, "\\ufffd");
				p++;
				continue;
			}
			kifu_buf_add(b, (const char *)p, (size_t)n);
			p += n;
			continue;
		}
		p++;
	}
	kifu_buf_putc(b, '"');
}

static void test_runs(void **unused)
{
	static const char *const pieces[] = {
		"a", "Player 0001", " ", "\"", "\\", "\n", "\t", "\r", "\x01", "\x1f", "\x7f",
		"\xc3\xab", "\xe2\x80\xae", "\xe2\x81\xa6", "\xc2\x85", "\xe2\x80\xa8", "\xf0\x9f\x98\x80",
		"\xc3", "\xe2\x80", "\xff", "\x80", "\xed\xa0\x80", "~", "0123456789abcdef",
	};
	unsigned long long x = 88172645463325252ULL;
	char text[256];
	int i, k;

	(void)unused;
	for (i = 0; i < 20000; i++) {
		struct kifu_buf a = KIFU_BUF_INIT, b = KIFU_BUF_INIT;
		size_t n = 0;

		for (k = 0; k < 12; k++) {
			const char *piece;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			piece = pieces[x % (sizeof(pieces) / sizeof(pieces[0]))];
			if (n + strlen(piece) + 1 > sizeof(text))
				break;
			memcpy(text + n, piece, strlen(piece));
			n += strlen(piece);
		}
		text[n] = '\0';
		kifu_buf_escaped(&a, text);
		escaped_by_bytes(&b, text);
		assert_string_equal(a.data ? a.data : "", b.data ? b.data : "");
		kifu_buf_reset(&a);
		kifu_buf_reset(&b);
		kifu_buf_json_string(&a, text);
		json_by_bytes(&b, text);
		assert_string_equal(a.data, b.data);
		kifu_buf_release(&a);
		kifu_buf_release(&b);
	}
}

/* kifu_buf_int as "%lld"; kifu_buf_reserve's room, filled by hand. */
static void test_int_reserve(void **unused)
{
	static const long long v[] = { 0, 7, -7, 10, 99, 100, -100, 123456789, -987654321012LL,
				       9223372036854775807LL, -9223372036854775807LL - 1 };
	struct kifu_buf b = KIFU_BUF_INIT;
	char want[512];
	size_t i, at = 0;

	(void)unused;
	want[0] = '\0';
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(kifu_buf_int(&b, v[i]), 0);
		kifu_buf_putc(&b, ',');
		at += (size_t)snprintf(want + at, sizeof(want) - at, "%lld,", v[i]);
	}
	assert_string_equal(b.data, want);
	assert_int_equal(kifu_buf_reserve(&b, 1000), 0);
	assert_true(b.cap >= b.len + 1001);
	memset(b.data + b.len, 'x', 1000);
	b.len += 1000;
	b.data[b.len] = '\0';
	assert_int_equal(strlen(b.data), strlen(want) + 1000);
	kifu_buf_release(&b);
	/* past a bound it fails, as an append would */
	b.max = 10;
	assert_int_equal(kifu_buf_reserve(&b, 11), KIFU_ENOMEM);
	assert_int_equal(b.failed, KIFU_BUF_FULL);
	kifu_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_url_part),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_int_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
