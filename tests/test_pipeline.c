/*
 * Unit tests of the reading pipeline (lib/input/pipeline.c, lib/input/input.c) and the
 * archive reader (lib/input/archive.c): the items of a directory in name order,
 * records across many ring wrap-arounds in order, replays done early or in
 * the consumer's thread alike, the raw text of invalid records, a consumer
 * that stops the run, a missing path, compressed input written here with
 * libarchive's writer, and the expansion limits lowered to test them.
 */
#define _DEFAULT_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "kifu/archive.h"
#include "kifu/pipeline.h"

static const char game[] =
	"---\ngame: splinter\nplayers:\n  white: Ann\n  blue: Bo\nmoves: []\n";
static const char bad[] = "---\ngame: splinter\nmoves: [zz9]\n";

struct seen {
	struct kifu_buf log;     /* one line per item: KIND NAME [valid] */
	long records, valid;
	int stop_after;          /* stop the run after this many records (0: never) */
	char raw[256];           /* the raw text of the last invalid record */
	int replayed;            /* records that came with a replay of the right length */
};

static int consume(const struct kifu_item *it, void *ctx)
{
	struct seen *s = ctx;
	static const char *const kinds[] = { "input", "record", "error", "warning" };

	kifu_buf_printf(&s->log, "%s %s", kinds[it->kind], it->input ? it->input : "-");
	if (it->kind == KIFU_ITEM_RECORD) {
		s->records++;
		s->valid += it->valid;
		kifu_buf_printf(&s->log, " %d", it->valid);
		if (it->replay && it->replay->game &&
		    (!it->valid || it->replay->nplies == (*it->rec)->nturns))
			s->replayed++;
		if (it->raw && !it->valid)
			snprintf(s->raw, sizeof(s->raw), "%.*s", (int)it->raw_len, it->raw);
	}
	if (it->err)
		kifu_buf_printf(&s->log, " [%s]", it->err->message);
	kifu_buf_putc(&s->log, '\n');
	if (s->stop_after && s->records == s->stop_after)
		return -42;
	return 0;
}

static char dir[64];

static void put(const char *name, const char *text, size_t n)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, n, fp), n);
	fclose(fp);
}

static int setup(void **state)
{
	char path[256];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/kifu-pipeline-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static int run(struct seen *s, const char *path, unsigned flags, long long max_member)
{
	struct kifu_pipeline_options opt = KIFU_PIPELINE_OPTIONS_INIT;
	struct kifu_pipeline_summary sum;
	struct kifu_error err;
	const char *paths[1];

	paths[0] = path;
	opt.flags = flags;
	opt.max_member = max_member;
	kifu_error_clear(&err);
	return kifu_pipeline_run(paths, 1, &opt, consume, s, &sum, &err);
}

static void test_directory_in_name_order(void **state)
{
	struct seen s;
	char want[1024];

	(void)state;
	memset(&s, 0, sizeof(s));
	put("b.yaml", game, sizeof(game) - 1);
	put("a.yml", game, sizeof(game) - 1);
	put("sub/c.yaml", bad, sizeof(bad) - 1);
	put("notes.txt", "hello\n", 6);
	assert_int_equal(run(&s, dir, KIFU_PIPELINE_REPLAY, 0), 0);
	snprintf(want, sizeof(want),
		 "input %s/a.yml\nrecord %s/a.yml 1\ninput %s/b.yaml\nrecord %s/b.yaml 1\n"
		 "input %s/sub/c.yaml\nrecord %s/sub/c.yaml 0\n",
		 dir, dir, dir, dir, dir, dir);
	assert_string_equal(s.log.data, want);
	assert_int_equal(s.replayed, 3);
	kifu_buf_release(&s.log);
}

/* Many records: order and counts across ring wrap-arounds, replayed early and late alike. */
static void test_many_records(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct seen early, late;
	char path[256];
	int i;

	(void)state;
	for (i = 0; i < 5000; i++)
		kifu_buf_puts(&b, i % 7 == 3 ? bad : game);
	put("many.yaml", b.data, b.len);
	snprintf(path, sizeof(path), "%s/many.yaml", dir);
	memset(&early, 0, sizeof(early));
	memset(&late, 0, sizeof(late));
	assert_int_equal(run(&early, path, KIFU_PIPELINE_REPLAY | KIFU_PIPELINE_REPLAY_EARLY, 0), 0);
	assert_int_equal(run(&late, path, KIFU_PIPELINE_REPLAY, 0), 0);
	assert_int_equal(early.records, 5000);
	assert_int_equal(early.valid, 5000 - 714);
	assert_int_equal(early.replayed, 5000);
	assert_string_equal(early.log.data, late.log.data);
	kifu_buf_release(&early.log);
	kifu_buf_release(&late.log);
	kifu_buf_release(&b);
}

static void test_raw_text_of_invalid_records(void **state)
{
	struct seen s;
	char path[256], text[512];

	(void)state;
	memset(&s, 0, sizeof(s));
	snprintf(text, sizeof(text), "%s%s%s", game, bad, game);
	put("raw.yaml", text, strlen(text));
	snprintf(path, sizeof(path), "%s/raw.yaml", dir);
	assert_int_equal(run(&s, path, KIFU_PIPELINE_REPLAY | KIFU_PIPELINE_REPLAY_EARLY |
				     KIFU_PIPELINE_RAW, 0), 0);
	assert_int_equal(s.records, 3);
	assert_string_equal(s.raw, bad);
	kifu_buf_release(&s.log);
}

/* Records that start inside a line (a JSON array on one line): the raw text starts at the record. */
static void test_raw_text_inside_a_line(void **state)
{
	static const char json[] =
		"[{\"header\":{\"game\":{\"name\":\"nosuch\"}},\"moves\":[]},"
		"{\"header\":{\"game\":{\"name\":\"other\"}},\"moves\":[]}]";
	struct seen s;
	char path[256];

	(void)state;
	memset(&s, 0, sizeof(s));
	put("line.json", json, sizeof(json) - 1);
	snprintf(path, sizeof(path), "%s/line.json", dir);
	assert_int_equal(run(&s, path, KIFU_PIPELINE_REPLAY | KIFU_PIPELINE_REPLAY_EARLY |
				     KIFU_PIPELINE_RAW, 0), 0);
	assert_int_equal(s.records, 2);
	assert_string_equal(s.raw, "{\"header\":{\"game\":{\"name\":\"other\"}},\"moves\":[]}]");
	kifu_buf_release(&s.log);
}

static void test_consumer_stops(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct seen s;
	char path[256];
	int i;

	(void)state;
	for (i = 0; i < 2000; i++)
		kifu_buf_puts(&b, game);
	put("stop.yaml", b.data, b.len);
	snprintf(path, sizeof(path), "%s/stop.yaml", dir);
	memset(&s, 0, sizeof(s));
	s.stop_after = 10;
	assert_int_equal(run(&s, path, KIFU_PIPELINE_REPLAY | KIFU_PIPELINE_RAW, 0), -42);
	assert_int_equal(s.records, 10);
	kifu_buf_release(&s.log);
	kifu_buf_release(&b);
}

static void test_missing_path(void **state)
{
	struct seen s;
	char path[128], want[1024];

	(void)state;
	memset(&s, 0, sizeof(s));
	snprintf(path, sizeof(path), "%s/none.yaml", dir);
	assert_int_equal(run(&s, path, 0, 0), 0);
	snprintf(want, sizeof(want), "error %s [cannot open '%s': no such file or directory]\n", path,
		 path);
	assert_string_equal(s.log.data, want);
	kifu_buf_release(&s.log);
}

/* Writes a gzip-compressed file holding text, through libarchive's writer. */
static void put_gz(const char *name, const char *text, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_set_format_raw(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	archive_entry_set_filetype(e, AE_IFREG);
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	assert_int_equal(archive_write_data(a, text, n), (la_ssize_t)n);
	archive_entry_free(e);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

static void test_compressed_and_limits(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct seen s;
	char path[128], want[1024];
	int i;

	(void)state;
	for (i = 0; i < 40000; i++)
		kifu_buf_puts(&b, game);
	put_gz("big.yaml.gz", b.data, b.len);
	snprintf(path, sizeof(path), "%s/big.yaml.gz", dir);
	memset(&s, 0, sizeof(s));
	assert_int_equal(run(&s, path, 0, 0), 0);
	assert_int_equal(s.records, 40000);
	kifu_buf_release(&s.log);
	/* the same member held to 1 MiB: an error naming it, after the records read before */
	memset(&s, 0, sizeof(s));
	assert_int_equal(run(&s, path, 0, 1 << 20), 0);
	assert_true(s.records > 10000 && s.records < 40000);
	snprintf(want, sizeof(want), "error %s [member expands past 1048576 bytes", path);
	assert_non_null(strstr(s.log.data, want));
	kifu_buf_release(&s.log);
	kifu_buf_release(&b);
}

static void test_archive_names(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(kifu_archive_kind("a.TAR.GZ"), KIFU_ARCHIVE_MEMBERS);
	assert_int_equal(kifu_archive_kind("a.7z"), KIFU_ARCHIVE_MEMBERS);
	assert_int_equal(kifu_archive_kind("a.pgn.zst"), KIFU_ARCHIVE_COMPRESSED);
	assert_int_equal(kifu_archive_kind("a.yaml"), KIFU_ARCHIVE_NONE);
	assert_int_equal(kifu_archive_kind(".gz"), KIFU_ARCHIVE_NONE);
	assert_string_equal(kifu_archive_inner_name(buf, sizeof(buf), "d/g.pgn.bz2"), "d/g.pgn");
	assert_string_equal(kifu_archive_inner_name(buf, sizeof(buf), "g.pgn"), "g.pgn");
	assert_int_equal(kifu_archive_sniff("\x1f\x8b\x08", 3), KIFU_ARCHIVE_COMPRESSED);
	assert_int_equal(kifu_archive_sniff("PK\3\4", 4), KIFU_ARCHIVE_MEMBERS);
	assert_int_equal(kifu_archive_sniff("---\n", 4), KIFU_ARCHIVE_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directory_in_name_order),
		cmocka_unit_test(test_many_records),
		cmocka_unit_test(test_raw_text_of_invalid_records),
		cmocka_unit_test(test_raw_text_inside_a_line),
		cmocka_unit_test(test_consumer_stops),
		cmocka_unit_test(test_missing_path),
		cmocka_unit_test(test_compressed_and_limits),
		cmocka_unit_test(test_archive_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
