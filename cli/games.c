/*
 * The games a tool reads, wherever they come from (kifu-export and
 * kifu-analyse): every record of a file (or standard input), or the stored
 * games chosen by --id or FILTERS. Each game is handed to the tool's
 * function with its diagnostics so far, where it came from, a label for
 * messages and a name for files; failures are reported here in the tools'
 * format and noted in a struct cli_status.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The name of a file's games in a directory: its base name without .yaml/.yml. */
static void base_name(char *out, size_t size, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!strcmp(path, "-")) {
		snprintf(out, size, "stdin");
		return;
	}
	snprintf(out, size, "%s", slash ? slash + 1 : path);
	n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, ".yaml"))
		out[n - 5] = '\0';
	else if (n > 4 && !strcmp(out + n - 4, ".yml"))
		out[n - 4] = '\0';
	if (!out[0])
		snprintf(out, size, "game");
}

void cli_games_file(const char *path, cli_game_fn fn, void *ctx, struct cli_status *status)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_reader *r = NULL;
	struct kifu_record *rec;
	struct kifu_error err;
	const char *source = strcmp(path, "-") ? path : "<stdin>";
	char base[256];
	int ret;

	base_name(base, sizeof(base), path);
	kifu_error_clear(&err);
	if (!strcmp(path, "-"))
		ret = kifu_reader_open_fp(&r, stdin, source, &err);
	else
		ret = kifu_reader_open_file(&r, path, &err);
	if (ret < 0) {
		cli_errorf("%s", err.message);
		status->io_error = 1;
		goto out;
	}
	for (;;) {
		char name[300], label[600];

		kifu_diags_reset(&diags);
		ret = kifu_reader_next(&rec, &diags, r, &err);
		if (ret < 0) {
			cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(ret));
			status->io_error = 1;
			break;
		}
		if (ret == 0)
			break;
		snprintf(name, sizeof(name), "%s-%d", base, rec->number);
		snprintf(label, sizeof(label), "game %d of %s", rec->number, source);
		ret = fn(ctx, rec, &diags, source, label, name);
		kifu_record_free(rec);
		if (ret < 0)
			break;
	}
out:
	kifu_diags_release(&diags);
	kifu_reader_free(r);
}

/* Hands stored game id to fn; returns -1 to stop everything. */
static int stored(struct kifu_store *st, int64_t id, cli_game_fn fn, void *ctx,
		  struct cli_status *status)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_record *rec = NULL;
	struct kifu_error err;
	const char *db = kifu_store_path(st);
	char name[64], label[600];
	int ret;

	kifu_error_clear(&err);
	ret = kifu_store_game_load(&rec, st, id, &err);
	if (ret == KIFU_ENOTFOUND) {
		cli_errorf("no game with id %lld in '%s'", (long long)id, db);
		status->invalid = 1;
		ret = 0;
		goto out;
	}
	if (ret < 0) {
		cli_error(&err);
		status->io_error = 1;
		ret = -1;
		goto out;
	}
	snprintf(name, sizeof(name), "game-%lld", (long long)id);
	snprintf(label, sizeof(label), "game %lld in %s", (long long)id, db);
	ret = fn(ctx, rec, &diags, db, label, name);
out:
	kifu_record_free(rec);
	kifu_diags_release(&diags);
	return ret;
}

void cli_games_store(const char *db, long id, const struct kifu_filter *f, unsigned flags,
		     cli_game_fn fn, void *ctx, struct cli_status *status)
{
	struct kifu_store *st = NULL;
	struct kifu_error err;
	int64_t *ids = NULL;
	size_t n = 0, i;

	kifu_error_clear(&err);
	db = cli_db_path(db);
	if ((flags & CLI_GAMES_MUST_EXIST) && access(db, F_OK) != 0) {
		cli_errorf("no database at '%s'", db);
		status->io_error = 1;
		return;
	}
	if (kifu_store_open(&st, db, KIFU_STORE_READ, &err) < 0) {
		cli_error(&err);
		status->io_error = 1;
		goto out;
	}
	if (id >= 0) {
		stored(st, id, fn, ctx, status);
		goto out;
	}
	if (kifu_store_game_ids(&ids, &n, st, f, &err) < 0) {
		cli_error(&err);
		if (err.code == KIFU_EPARSE)
			status->usage_error = 1;
		else
			status->io_error = 1;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (stored(st, ids[i], fn, ctx, status) < 0)
			break;
out:
	free(ids);
	kifu_store_free(st);
}

uint64_t cli_parse_seed(const char *usage, const char *text)
{
	unsigned long long u;
	char *end;

	errno = 0;
	u = strtoull(text, &end, 10);
	if (errno || *end || end == text || text[0] < '0' || text[0] > '9')
		cli_usage_error(usage, "--seed must be a whole number from 0 to "
				"18446744073709551615, not '%s'", text);
	return (uint64_t)u;
}
