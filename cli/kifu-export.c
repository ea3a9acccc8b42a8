/*
 * kifu-export: writes games out in a record format of the registry (yaml,
 * apgr, pgn, csv: kifu/format.h) or as JSON, text diagrams, an SVG picture
 * of one position, or a self-contained HTML replay page (kifu/render.h).
 * Games come from records (--file: any format or archive, read through the
 * library's pipeline) or from the database (--id N, or the stored games
 * matching FILTERS). Every game is validated and replayed first: an invalid
 * record is reported as kifu-validate does and not exported. This file is
 * the options and where the output goes: standard output, one file, or a
 * directory with one file per game.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "kifu/analyse.h"
#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/record.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/stats.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-export [--db FILE] (--id N | FILTERS | --file RECORD) [--from FORMAT]\n"
	"                   --to FORMAT [--ply K] [-o OUT]";

enum kind { K_RECORD, K_JSON, K_TEXT, K_SVG, K_HTML };
static const char *const render_names[] = { "", "json", "text", "svg", "html", NULL };
static const char *const render_exts[] = { "", "json", "txt", "svg", "html", NULL };

struct export {
	int kind;                     /* enum kind */
	const struct kifu_format *fmt;/* K_RECORD */
	const char *to;
	long ply;                     /* --ply, -1 when not given */
	const char *out_path;         /* -o, NULL for standard output */
	int dir_mode;                 /* one file per game into out_path */
	int json_array;               /* json: the games form one array */
	FILE *out;                    /* the single output stream, opened on first use */
	long exported;
	int invalid, io_error, usage_error;
	int damaged;                  /* the database: what is held is not written */
	/* svg/html: one game so far, held until it is known whether more follow */
	struct kifu_buf pending;
	char pending_name[540];
	int has_pending;
	/* record formats that are not streams: the games, written together at the end */
	struct kifu_record **recs;
	struct kifu_replay **rps;
	size_t n, cap;
	struct kifu_replay replay;    /* of a stored game */
};

static void help(void)
{
	size_t i;

	printf("usage: %s\n\n"
	       "Writes games out. Games come from records (--file RECORD: a file in any record\n"
	       "format, an archive, a directory, or - for standard input) or from the database\n"
	       "(--id N, or every stored game matching FILTERS). Each game is validated first;\n"
	       "an invalid record is reported as kifu-validate reports it and is not exported.\n\n"
	       "  --to FORMAT   a record format:\n", usage);
	for (i = 0; kifu_formats[i]; i++)
		printf("                %-6s %s\n", kifu_formats[i]->name, kifu_formats[i]->description);
	printf("                (csv: a ' before a cell that starts with = + - @ ', a tab\n"
	       "                or a CR, so that no spreadsheet runs it as a formula)\n"
	       "                or\n"
	       "                json   headers, players, moves, result, termination, a stored\n"
	       "                       game's novelty_ply (kifu-stats novelties' ply, or\n"
	       "                       null), and every ply with its move, position hash and\n"
	       "                       figures (an array of games for --file and FILTERS, one\n"
	       "                       object for --id)\n"
	       "                text   a board diagram per ply, each headed by the ply, the move\n"
	       "                       and the position hash (games one after another)\n"
	       "                svg    a picture of the board at one ply\n"
	       "                html   one self-contained page replaying the game (board, move\n"
	       "                       list, buttons, arrow keys, #ply=N in the address; a\n"
	       "                       stored game's novelty marked N)\n"
	       "  --ply K       text, svg: only ply K (0 is the start; svg defaults to the\n"
	       "                final position); html: the ply the page opens at\n"
	       "  -o OUT        write to OUT instead of standard output (- is standard output).\n"
	       "                An OUT ending in / or naming a directory is a directory\n"
	       "                (created when missing) with one file per game, for any number\n"
	       "                of games: NAME-KKK.EXT (KKK the game's number in its input,\n"
	       "                zero-padded so that the names sort) or game-ID.EXT. svg and\n"
	       "                html hold one game: several need a directory (an OUT ending in\n"
	       "                .svg or .html names one file: several games are a usage error).\n"
	       "  --file RECORD read the games of records (see kifu-validate)\n"
	       "  --from FORMAT read --file as FORMAT instead of telling it by name and content\n"
	       "  --id N        the stored game with id N\n"
	       "  FILTERS       --game G, --variant V, --player NAME, --event TEXT,\n"
	       "                --since DATE, --until DATE, --termination T, --level L\n"
	       "  --db FILE     the database (default $KIFU_DB, else kifu.db): a SQLite file\n"
	       "                or a PostgreSQL URI (postgresql://...)\n"
	       "  --help, --version\n\n"
	       "Exit status: 0 success, 1 a game was invalid (or --ply past its end),\n"
	       "2 usage error, 3 I/O or database error.\n");
	exit(EXIT_OK);
}

/* Reports a failed write or creation once: later games are not attempted. */
static void io_fail(struct export *ex, const char *what, const char *path)
{
	char why[256];

	if (ex->io_error)
		return;
	cli_errorf("cannot %s '%s': %s", what, path, cli_errno_text(why, sizeof(why), errno));
	ex->io_error = 1;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *ext_of(const struct export *ex)
{
	return ex->kind == K_RECORD ? ex->fmt->suffixes[0] + 1 : render_exts[ex->kind];
}

/* Whether -o names one picture or page (game.svg, game.html), not a directory to make. */
static int out_is_file(const struct export *ex)
{
	const char *ext = ext_of(ex);
	size_t n = strlen(ex->out_path), k = strlen(ext);

	return n > k + 1 && ex->out_path[n - k - 1] == '.' && !strcasecmp(ex->out_path + n - k, ext);
}

/* ---- output ---- */

static void write_out(struct export *ex, const struct kifu_buf *b)
{
	if (ex->io_error || !b->len)
		return;
	if (!ex->out) {
		ex->out = ex->out_path ? fopen(ex->out_path, "w") : stdout;
		if (!ex->out) {
			io_fail(ex, "write", ex->out_path);
			return;
		}
	}
	if (fwrite(b->data, 1, b->len, ex->out) != b->len)
		io_fail(ex, "write", ex->out_path ? ex->out_path : "standard output");
}

static void write_file(struct export *ex, const char *name, const struct kifu_buf *b)
{
	if (!ex->io_error && cli_write_in_dir(ex->out_path, name, ext_of(ex), b) < 0)
		ex->io_error = 1;
}

/* Makes out_path the directory of one file per game (created when missing). */
static int enter_dir_mode(struct export *ex)
{
	if (ex->dir_mode)
		return 0;
	if (!is_dir(ex->out_path) && mkdir(ex->out_path, 0777) < 0) {
		io_fail(ex, "create", ex->out_path);
		return -1;
	}
	ex->dir_mode = 1;
	return 0;
}

/* Writes what is held at the end: the record formats' games, a single picture or page. */
static void finish(struct export *ex)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (ex->n && !ex->usage_error && !ex->damaged) {
		if (ex->fmt->write(&b, (const struct kifu_record *const *)ex->recs,
				   (const struct kifu_replay *const *)ex->rps, ex->n, &err) < 0) {
			cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
			if (err.code == KIFU_EINVALID)
				ex->invalid = 1;
			else
				ex->io_error = 1;
		} else {
			write_out(ex, &b);
		}
	}
	kifu_buf_reset(&b);
	if (ex->kind == K_JSON && ex->json_array && !ex->dir_mode && !ex->usage_error) {
		kifu_buf_puts(&b, ex->exported ? "\n]\n" : "[]\n");
		write_out(ex, &b);
	}
	if (ex->has_pending && !ex->usage_error && !ex->damaged)
		write_out(ex, &ex->pending);
	kifu_buf_release(&b);
	if (ex->out && ex->out != stdout && fclose(ex->out) != 0)
		io_fail(ex, "write", ex->out_path);
	else if (ex->out == stdout && !ex->io_error && cli_flush_stdout() < 0)
		ex->io_error = 1;
	ex->out = NULL;
}

/*
 * Exports one replayed, valid game; takes rp's contents when it keeps the
 * game for the end. label: "game 2 of FILE", "game 17 in DB"; name: its
 * file name in a directory. Returns -1 to stop everything.
 */
static int export_game(struct export *ex, struct kifu_record **rec, struct kifu_replay *rp,
		       const char *label, const char *name, const struct kifu_render_stored *stored)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	size_t ply = rp->nplies;
	int ret = 0;

	kifu_error_clear(&err);
	if (ex->ply >= 0 && (size_t)ex->ply > rp->nplies) {
		cli_errorf("%s: ply %ld is past the end of the game (%zu pl%s)", label, ex->ply,
			   rp->nplies, rp->nplies == 1 ? "y" : "ies");
		ex->invalid = 1;
		return 0;
	}
	if (ex->ply >= 0)
		ply = (size_t)ex->ply;
	if (ex->kind == K_RECORD && !ex->dir_mode && !(ex->fmt->flags & KIFU_FORMAT_STREAM)) {
		if (ex->n == ex->cap) {
			size_t cap = ex->cap ? 2 * ex->cap : 64;
			struct kifu_record **r = realloc(ex->recs, cap * sizeof(*r));
			struct kifu_replay **p = r ? realloc(ex->rps, cap * sizeof(*p)) : NULL;

			if (r)
				ex->recs = r;
			if (p) {
				ex->rps = p;
				ex->cap = cap;
			}
		}
		if (ex->n == ex->cap || !(ex->rps[ex->n] = malloc(sizeof(*rp)))) {
			cli_errorf("out of memory");
			ex->io_error = 1;
			return -1;
		}
		*ex->rps[ex->n] = *rp;
		*rp = (struct kifu_replay)KIFU_REPLAY_INIT;
		ex->recs[ex->n++] = *rec;
		*rec = NULL;
		ex->exported++;
		return 0;
	}
	switch (ex->kind) {
	case K_RECORD:
		ret = ex->fmt->write(&b, (const struct kifu_record *const *)rec,
				     (const struct kifu_replay *const *)&rp, 1, &err);
		break;
	case K_JSON:
		if (ex->json_array && !ex->dir_mode)
			kifu_buf_puts(&b, ex->exported ? ",\n" : "[\n");
		ret = kifu_render_json(&b, *rec, rp, stored);
		if (!ex->json_array || ex->dir_mode)
			kifu_buf_putc(&b, '\n');
		break;
	case K_TEXT:
		if (ex->exported && !ex->dir_mode)
			kifu_buf_putc(&b, '\n');
		ret = kifu_render_text(&b, *rec, rp, label, ex->ply);
		break;
	case K_SVG:
		ret = kifu_render_svg(&b, rp, ply);
		break;
	case K_HTML:
		ret = kifu_render_html(&b, *rec, rp, ex->ply, stored);
		break;
	}
	if (ret == 0 && b.failed)
		ret = KIFU_ENOMEM;
	if (ret < 0) {
		cli_errorf("%s: %s", label, err.message[0] ? err.message : kifu_strerror(ret));
		if (ret == KIFU_EINVALID) {
			ex->invalid = 1;
			ret = 0;
		} else {
			ex->io_error = 1;
		}
	} else if (ex->dir_mode) {
		write_file(ex, name, &b);
	} else if ((ex->kind == K_SVG || ex->kind == K_HTML) && ex->has_pending &&
		   (!ex->out_path || out_is_file(ex))) {
		cli_errorf("several games to write as '%s': give -o DIR/ for one file per game",
			   ex->to);
		ex->usage_error = 1;
		ret = -1;
	} else if ((ex->kind == K_SVG || ex->kind == K_HTML) && ex->has_pending) {
		/* a second picture: -o names the directory of one file per game (as before) */
		if (enter_dir_mode(ex) == 0) {
			write_file(ex, ex->pending_name, &ex->pending);
			write_file(ex, name, &b);
		}
		ex->has_pending = 0;
	} else if (ex->kind == K_SVG || ex->kind == K_HTML) {
		/* held: nothing is written until it is known that this is the only game */
		ex->pending = b;
		b = (struct kifu_buf)KIFU_BUF_INIT;
		ex->has_pending = 1;
		snprintf(ex->pending_name, sizeof(ex->pending_name), "%s", name);
	} else {
		write_out(ex, &b);
	}
	if (ret == 0)
		ex->exported++;
	kifu_buf_release(&b);
	return ret < 0 || ex->io_error ? -1 : 0;
}

static int has_lines(const struct kifu_record *rec)
{
	size_t i;

	for (i = 0; i < rec->nturns; i++)
		if (rec->turns[i].nlines)
			return 1;
	return 0;
}

/*
 * Validates a record read from a file or the database (a cli_game_fn),
 * prints its diagnostics and exports it when valid; a stored game's json
 * and page carry its novelty and stored review. Returns -1 to stop everything.
 */
static int export_record(void *ctx, struct kifu_record **rec, struct kifu_diags *diags,
			 const char *source, const char *label, const char *name,
			 const struct cli_stored *stored)
{
	struct export *ex = ctx;
	struct kifu_analyse_stored review;
	struct kifu_render_stored known = { NULL };
	struct kifu_novelty nov;
	struct kifu_error err;
	size_t i;
	int ret;

	kifu_error_clear(&err);
	/* a stored game that is not valid is damage: exit 3, nothing more written */
	if ((stored ? kifu_store_game_validate(&ex->replay, diags, stored->st, stored->id, *rec,
					       &err)
		    : kifu_record_validate(&ex->replay, diags, *rec, KIFU_VALIDATE_TEXT, &err)) < 0) {
		cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
		ex->io_error = 1;
		ex->damaged = stored && err.code == KIFU_EDB;
		return -1;
	}
	/* a format that cannot hold format 2's lines says so once per game that has any */
	if (!diags->errors && ex->kind == K_RECORD && ex->fmt->flags & KIFU_FORMAT_NO_LINES &&
	    has_lines(*rec) &&
	    kifu_diags_add(diags, KIFU_DIAG_WARNING, (*rec)->number, 0, (*rec)->at,
			   "variations are left out (%s has none)", ex->fmt->name) < 0) {
		cli_errorf("out of memory");
		ex->io_error = 1;
		return -1;
	}
	for (i = 0; i < diags->n; i++)
		cli_print_diag(stderr, source, &diags->v[i]);
	if (diags->errors) {
		ex->invalid = 1;
		return 0;
	}
	if (!stored || (ex->kind != K_JSON && ex->kind != K_HTML))
		return export_game(ex, rec, &ex->replay, label, name, NULL);
	/* A stored game's json and page show its novelty (the page with its earlier games). */
	if (cli_stored_novelty(&known, &nov, stored, ex->kind == K_HTML ? KIFU_NOVELTY_EARLIER : 0,
			       &err) < 0 ||
	    kifu_analyse_load(&review, stored->st, stored->id, ex->replay.nplies, &err) < 0) {
		cli_errorf("%s: %s", label, err.message[0] ? err.message : kifu_strerror(err.code));
		ex->io_error = 1;
		return -1;
	}
	known.review = review.n ? &review.view : NULL;
	ret = export_game(ex, rec, &ex->replay, label, name, &known);
	kifu_analyse_stored_release(&review);
	return ret;
}

static long parse_count(const char *opt, const char *text)
{
	long v;

	if (cli_whole_number(&v, text, 0, LONG_MAX) < 0)
		cli_usage_error(usage, "%s expects a number of 0 or more, not '%s'", opt, text);
	return v;
}

/* --to: a record format of the registry or a renderer; a usage error otherwise. */
static void choose_format(struct export *ex, const char *to)
{
	char list[256] = "";
	size_t i, n;

	ex->to = to;
	if ((ex->fmt = kifu_format_find(to)) != NULL) {
		ex->kind = K_RECORD;
		return;
	}
	for (i = 1; render_names[i]; i++)
		if (!strcmp(to, render_names[i])) {
			ex->kind = (int)i;
			return;
		}
	for (i = 0; kifu_formats[i]; i++) {
		n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s, ", kifu_formats[i]->name);
	}
	cli_usage_error(usage, "unknown format '%s' (%sjson, text, svg or html)", to, list);
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_ID, O_FILE, O_TO, O_PLY, O_FROM };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		{ "id", required_argument, NULL, O_ID },
		{ "file", required_argument, NULL, O_FILE },
		{ "from", required_argument, NULL, O_FROM },
		{ "to", required_argument, NULL, O_TO },
		{ "ply", required_argument, NULL, O_PLY },
		{ "output", required_argument, NULL, 'o' },
		CLI_FILTER_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct export ex;
	struct kifu_filter f;
	struct cli_status status = { 0, 0, 0 };
	const struct kifu_format *from = NULL;
	const char *db = NULL, *file = NULL, *to = NULL;
	long id = -1;
	int opt, filters = 0, sources;
	size_t i;

	cli_init(argv[0]);
	memset(&ex, 0, sizeof(ex));
	memset(&f, 0, sizeof(f));
	ex.ply = -1;
	ex.replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", options, NULL)) != -1) {
		if (cli_filter_option(&f, opt, optarg)) {
			filters = 1;
			continue;
		}
		switch (opt) {
		case O_DB: db = optarg; break;
		case O_ID: id = parse_count("--id", optarg); break;
		case O_FILE: file = optarg; break;
		case O_FROM: from = cli_format_option(usage, optarg); break;
		case O_TO: to = optarg; break;
		case O_PLY: ex.ply = parse_count("--ply", optarg); break;
		case 'o': ex.out_path = optarg; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (!to)
		cli_usage_error(usage, "expected --to FORMAT");
	choose_format(&ex, to);
	sources = (file != NULL) + (id >= 0) + filters;
	if (sources == 0)
		cli_usage_error(usage, "expected --file RECORD, --id N or FILTERS");
	if (sources > 1)
		cli_usage_error(usage, "give only one of --file, --id and FILTERS");
	if (filters)
		cli_filter_check(usage, &f);
	if (ex.ply >= 0 && ex.kind != K_TEXT && ex.kind != K_SVG && ex.kind != K_HTML)
		cli_usage_error(usage, "--ply applies to text, svg and html, not '%s'", to);
	if (db && file)
		cli_usage_error(usage, "--db applies to --id and FILTERS, not --file");
	if (from && !file)
		cli_usage_error(usage, "--from applies to --file");
	if (ex.out_path && !strcmp(ex.out_path, "-"))
		ex.out_path = NULL;
	if (ex.out_path && (is_dir(ex.out_path) || ex.out_path[strlen(ex.out_path) - 1] == '/') &&
	    enter_dir_mode(&ex) < 0)
		return EXIT_FAILURE_IO;
	ex.json_array = id < 0;

	if (file)
		cli_games_file(file, from, export_record, &ex, &status);
	else
		cli_games_store(db, id, &f, 0, export_record, &ex, &status);
	ex.invalid |= status.invalid;
	ex.io_error |= status.io_error;
	/* a stored game that could not be read: the held games are not the answer */
	ex.damaged |= !file && status.io_error;
	ex.usage_error |= status.usage_error;
	finish(&ex);
	kifu_replay_release(&ex.replay);
	kifu_buf_release(&ex.pending);
	for (i = 0; i < ex.n; i++) {
		kifu_record_free(ex.recs[i]);
		kifu_replay_release(ex.rps[i]);
		free(ex.rps[i]);
	}
	free(ex.recs);
	free(ex.rps);
	if (ex.usage_error)
		return EXIT_USAGE;
	return ex.io_error ? EXIT_FAILURE_IO : ex.invalid ? EXIT_INVALID : EXIT_OK;
}
