/*
 * Unit tests of the explorer page (lib/render/explorer.c) on the small
 * database of tests/helpers.c (th_stats_games): what the page holds.
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

#include "kifu/buf.h"
#include "kifu/explorer.h"
#include "kifu/stats.h"
#include "kifu/store.h"
#include "helpers.h"

/* The explorer page (lib/render/explorer.c) of the schmidt games: what it holds. */
static int explorer(struct kifu_buf *page, struct kifu_explorer_info *info, struct kifu_store *st,
		    const char *player, int depth, size_t max)
{
	struct kifu_explorer_options opt = KIFU_EXPLORER_OPTIONS_INIT;
	struct kifu_filter f;
	struct kifu_error err;
	int ret;

	memset(&f, 0, sizeof(f));
	f.game = "splay-schmidt";
	f.player = player;
	opt.depth = depth;
	opt.max_positions = max;
	kifu_error_clear(&err);
	kifu_buf_reset(page);
	ret = kifu_explorer_html(page, info, st, &f, &opt, &err);
	if (ret == 0)
		assert_non_null(strstr(page->data, "</html>"));
	return ret;
}

static void test_explorer(void **state)
{
	struct kifu_store *st = *state;
	struct kifu_buf page = KIFU_BUF_INIT;
	struct kifu_explorer_info info;
	struct kifu_explorer_options opt = KIFU_EXPLORER_OPTIONS_INIT;
	struct kifu_filter f;
	struct kifu_error err;

	/*
	 * Depth 3: the start; d4, e5; d4 f6 (S1, S3), d4 e7 (S4), e5 f6 (S2),
	 * e5 e7 (S5); then only S1 (d4 f6 e5) and S2 (e5 f6 d4) go on, into
	 * one position: 8 positions, 7 tables (the last level has none), 8
	 * moves followed, two of them into the shared one.
	 */
	assert_int_equal(explorer(&page, &info, st, NULL, 3, 0), 0);
	assert_int_equal(info.positions, 8);
	assert_int_equal(info.tables, 7);
	assert_int_equal(info.links, 8);
	assert_int_equal(info.left_out, 0);
	assert_int_equal(info.max_depth, 3);
	/* Depth 1: the start and its two moves' positions. */
	assert_int_equal(explorer(&page, &info, st, NULL, 1, 0), 0);
	assert_int_equal(info.positions, 3);
	assert_int_equal(info.tables, 1);
	assert_int_equal(info.max_depth, 1);
	/*
	 * Room for 4: the start, d4, e5, then the level's most played move
	 * d4 f6 (2 games); d4 e7, e5 f6, e5 e7 are left out, and so is e5
	 * from d4 f6 on the next level.
	 */
	assert_int_equal(explorer(&page, &info, st, NULL, 3, 4), 0);
	assert_int_equal(info.positions, 4);
	assert_int_equal(info.left_out, 4);
	assert_int_equal(info.max_depth, 2);
	assert_non_null(strstr(page.data, "\"left_out\":4"));
	/*
	 * Room for 3 rows: the start's d4 and e5, then d4's f6 (e7 and e5's
	 * two left out), then none of d4 f6's: 4 positions, 4 rows left out.
	 */
	memset(&f, 0, sizeof(f));
	f.game = "splay-schmidt";
	opt.depth = 3;
	opt.max_rows = 3;
	kifu_error_clear(&err);
	kifu_buf_reset(&page);
	assert_int_equal(kifu_explorer_html(&page, &info, st, &f, &opt, &err), 0);
	assert_int_equal(info.positions, 4);
	assert_int_equal(info.tables, 4);
	assert_int_equal(info.rows_left_out, 4);
	assert_int_equal(info.left_out, 0);
	assert_non_null(strstr(page.data, "\"more\":2}"));
	opt = (struct kifu_explorer_options)KIFU_EXPLORER_OPTIONS_INIT;
	/* A filter is shown as text; '<' never reaches the script as markup. */
	assert_int_equal(explorer(&page, &info, st, "<b>Ann</b>", 2, 0), 0);
	assert_int_equal(info.positions, 1);
	assert_non_null(strstr(page.data, "player &lt;b&gt;Ann&lt;/b&gt;"));
	assert_non_null(strstr(page.data, "\\u003cb>Ann\\u003c/b>"));
	assert_null(strstr(page.data, "<b>Ann"));
	/* Errors: those of the tree report, and a depth below 1. */
	assert_int_equal(explorer(&page, &info, st, NULL, 0, 0), KIFU_ERANGE);
	memset(&f, 0, sizeof(f));
	kifu_error_clear(&err);
	assert_int_equal(kifu_explorer_html(&page, NULL, st, &f, &opt, &err), KIFU_ERANGE);
	f.game = "splay-schmidt";
	opt.stats.after = "d4,d4";
	assert_int_equal(kifu_explorer_html(&page, NULL, st, &f, &opt, &err), KIFU_EILLEGAL);
	kifu_buf_release(&page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_explorer, th_stats_setup, th_stats_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
