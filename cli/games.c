/*
 * The games a tool reads, wherever they come from (kifu-export,
 * kifu-analyse): every
 * record under a path (any format, archive or directory, read through the
 * library's pipeline; - for standard input), or the stored
 * games chosen by --id or FILTERS. Each game is handed to the tool's
 * function with its diagnostics so far, where it came from, a label for
 * messages and a name for files; failures are reported here in the tools'
 * format and noted in a struct cli_status.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "kifu/archive.h"
#include "kifu/pipeline.h"
#include "kifu/render.h"
#include "kifu/stats.h"

/* The name of an input's games in a directory: its (member's) base name without suffixes. */
void cli_base_name(char *out, size_t size, const char *input)
{
	const char *open = strrchr(input, '('), *slash;
	const struct kifu_format *f;
	char inner[512];
	size_t n;

	snprintf(inner, sizeof(inner), "%s", open && input[strlen(input) - 1] == ')' ? open + 1
		 : !strcmp(input, "<stdin>") ? "stdin" : input);
	n = strlen(inner);
	if (n && inner[n - 1] == ')')
		inner[n - 1] = '\0';
	slash = strrchr(inner, '/');
	snprintf(out, size, "%s", slash ? slash + 1 : inner);
	if (kifu_archive_inner_name(inner, sizeof(inner), out) == inner)
		snprintf(out, size, "%s", inner);
	if ((f = kifu_format_by_name(out)) != NULL) {
		const char *const *sfx;

		for (sfx = f->suffixes; *sfx; sfx++) {
			n = strlen(out);
			if (n > strlen(*sfx) && !strcasecmp(out + n - strlen(*sfx), *sfx)) {
				out[n - strlen(*sfx)] = '\0';
				break;
			}
		}
	}
	if (!out[0])
		snprintf(out, size, "game");
}

struct file_games {
	cli_game_fn fn;
	void *ctx;
	struct cli_status *status;
};

static int file_game(const struct kifu_item *it, void *ctx)
{
	struct file_games *fg = ctx;
	char base[512], name[540], label[600];
	int st;

	if (it->kind == KIFU_ITEM_RECORD) {
		cli_base_name(base, sizeof(base), it->input);
		snprintf(name, sizeof(name), "%s-%03d", base, (*it->rec)->number);
		snprintf(label, sizeof(label), "game %d of %s", (*it->rec)->number, it->input);
		return fg->fn(fg->ctx, it->rec, it->diags, it->input, label, name, NULL) < 0 ? -1 : 0;
	}
	if (it->kind == KIFU_ITEM_ERROR || it->kind == KIFU_ITEM_WARNING) {
		st = cli_print_item(it, 0);
		if (st == EXIT_FAILURE_IO)
			fg->status->io_error = 1;
		else if (st == EXIT_INVALID)
			fg->status->invalid = 1;
	}
	return 0;
}

void cli_games_file(const char *path, const struct kifu_format *from, cli_game_fn fn, void *ctx,
		    struct cli_status *status)
{
	struct kifu_pipeline_options opt = KIFU_PIPELINE_OPTIONS_INIT;
	struct kifu_pipeline_summary sum;
	struct file_games fg = { fn, ctx, status };
	struct kifu_error err;
	const char *paths[1];

	paths[0] = path;
	opt.from = from;
	kifu_error_clear(&err);
	if (kifu_pipeline_run(paths, 1, &opt, file_game, &fg, &sum, &err) < 0 && err.message[0] &&
	    !status->io_error && !status->usage_error) {
		cli_errorf("%s", err.message);
		status->io_error = 1;
	}
	cli_print_skipped(&sum, 0);
}

int cli_stored_novelty(struct kifu_render_stored *out, struct kifu_novelty *nov,
		       const struct cli_stored *s, unsigned flags, struct kifu_error *err)
{
	int ret = 0;

	if (!*s->novelty)
		ret = kifu_stats_novelty_open(s->novelty, s->st, err);
	if (ret == 0)
		ret = kifu_stats_novelty_find(nov, *s->novelty, s->id, flags, err);
	if (ret == 0)
		kifu_render_stored_novelty(out, nov);
	return ret;
}

/* Hands stored game id (of count read) to fn; returns -1 to stop everything. */
static int stored(struct kifu_store *st, int64_t id, long count,
		  struct kifu_novelty_finder **novelty, cli_game_fn fn, void *ctx,
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
	snprintf(name, sizeof(name), "game-%03lld", (long long)id);
	snprintf(label, sizeof(label), "game %lld in %s", (long long)id, db);
	ret = fn(ctx, &rec, &diags, db, label, name, &(struct cli_stored){ st, id, novelty, count });
out:
	kifu_record_free(rec);
	kifu_diags_release(&diags);
	return ret;
}

void cli_games_store(const char *db, long id, const struct kifu_filter *f, unsigned flags,
		     cli_game_fn fn, void *ctx, struct cli_status *status)
{
	struct kifu_store *st = NULL;
	struct kifu_novelty_finder *novelty = NULL;
	struct kifu_filter matched;
	struct kifu_error err;
	char *spelling = NULL; /* --player as stored */
	int64_t *ids = NULL;
	size_t n = 0, i;

	kifu_error_clear(&err);
	db = cli_db_path(db);
	/* A file, that is: a server's database (a URI) is looked for by connecting. */
	if ((flags & CLI_GAMES_MUST_EXIST) && !strstr(db, "://") && access(db, F_OK) != 0) {
		cli_errorf("no database at '%s'", db);
		status->io_error = 1;
		return;
	}
	if (kifu_store_open(&st, db, flags & CLI_GAMES_WRITE ? 0 : KIFU_STORE_READ, &err) < 0) {
		cli_error(&err);
		status->io_error = 1;
		goto out;
	}
	if (id >= 0) {
		stored(st, id, 1, &novelty, fn, ctx, status);
		goto out;
	}
	memset(&matched, 0, sizeof(matched));
	if (f) {
		matched = *f;
		f = &matched;
	}
	if (kifu_stats_match_player(&spelling, &matched, st, &err) < 0 ||
	    kifu_store_game_ids(&ids, &n, st, f, &err) < 0) {
		cli_error(&err);
		if (err.code == KIFU_ENOTFOUND)
			status->invalid = 1;
		else if (err.code == KIFU_EPARSE)
			status->usage_error = 1;
		else
			status->io_error = 1;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (stored(st, ids[i], (long)n, &novelty, fn, ctx, status) < 0)
			break;
out:
	kifu_store_game_ids_free(ids);
	kifu_stats_novelty_close(novelty);
	kifu_store_free(st);
	free(spelling);
}
