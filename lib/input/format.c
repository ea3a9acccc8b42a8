/*
 * The registry of record formats (include/kifu/format.h), finding the format
 * of an input (INTEROP.md "Finding the format of an input": by name, then by
 * content, pgn tried before apgr), the stdio byte source, and kifu's own
 * YAML as a format over a struct kifu_source.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/formats.h"
#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"

const struct kifu_format *const kifu_formats[] = {
	&kifu_format_yaml_,
	&kifu_format_apgr_,
	&kifu_format_pgn_,
	&kifu_format_csv_,
	NULL
};

const struct kifu_format *kifu_format_find(const char *name)
{
	size_t i;

	for (i = 0; name && kifu_formats[i]; i++)
		if (!strcmp(kifu_formats[i]->name, name))
			return kifu_formats[i];
	return NULL;
}

/* Whether path ends in suffix, ignoring case, with something before it. */
static int ends_with(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	return n > k && !strcasecmp(path + n - k, suffix);
}

const struct kifu_format *kifu_format_by_name(const char *path)
{
	const char *const *s;
	size_t i;

	for (i = 0; path && kifu_formats[i]; i++)
		for (s = kifu_formats[i]->suffixes; s && *s; s++)
			if (ends_with(path, *s))
				return kifu_formats[i];
	return NULL;
}

const struct kifu_format *kifu_format_sniff(const char *head, size_t n)
{
	const struct kifu_format *pgn = kifu_format_find("pgn");
	size_t i;

	/* pgn and apgr may both start with '[': pgn's test is the stricter one */
	if (pgn && pgn->sniff && pgn->sniff(head, n))
		return pgn;
	for (i = 0; kifu_formats[i]; i++)
		if (kifu_formats[i] != pgn && kifu_formats[i]->sniff &&
		    kifu_formats[i]->sniff(head, n))
			return kifu_formats[i];
	return &kifu_format_yaml_;
}

/* ---- stdio source ---- */

static long fp_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	FILE *fp = ctx;
	size_t got = fread(buf, 1, n, fp);

	if (got == 0 && ferror(fp)) {
		char why[128];

		snprintf(why, sizeof(why), "%s", strerror(errno ? errno : EIO));
		if (why[0] >= 'A' && why[0] <= 'Z')
			why[0] = (char)(why[0] - 'A' + 'a');
		return kifu_error_set(err, KIFU_EIO, "cannot read the stream: %s", why);
	}
	return (long)got;
}

void kifu_source_from_fp(struct kifu_source *src, FILE *fp, const char *name)
{
	src->read = fp_read;
	src->ctx = fp;
	src->name = name;
}

/* ---- yaml: kifu's own format (RECORDS.md) ---- */

static int yaml_open(void **state, const struct kifu_source *src, struct kifu_error *err)
{
	struct kifu_reader *r;
	int ret = kifu_reader_open_source(&r, src, err);

	*state = ret < 0 ? NULL : r;
	return ret;
}

static int yaml_next(struct kifu_record **out, struct kifu_diags *diags, void *state,
		     struct kifu_error *err)
{
	return kifu_reader_next(out, diags, state, err);
}

static void yaml_close(void *state)
{
	kifu_reader_free(state);
}

static int yaml_write(struct kifu_buf *out, const struct kifu_record *const *recs,
		      const struct kifu_replay *const *rps, size_t n, struct kifu_error *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n && ret == 0; i++)
		ret = kifu_record_write(out, recs[i], rps ? rps[i] : NULL, err);
	return ret;
}

static const char *const yaml_suffixes[] = { ".yaml", ".yml", NULL };

const struct kifu_format kifu_format_yaml_ = {
	.name = "yaml",
	.description = "kifu records: YAML, format 1 or 2 (RECORDS.md)",
	.suffixes = yaml_suffixes,
	.sniff = NULL, /* the fallback when no other format recognises the content */
	.open = yaml_open,
	.next = yaml_next,
	.close = yaml_close,
	.write = yaml_write,
	.flags = KIFU_FORMAT_STREAM,
};
