/*
 * Tests of the text buffer: appends and formatting, and the JSON string
 * writer every JSON output of kifu goes through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kifu/buf.h"
#include "kifu/error.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
