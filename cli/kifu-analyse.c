/*
 * kifu-analyse: reviews games with a built-in searching player, the engine
 * by default (CLI.md). Games come
 * from a record file or from the database; each valid game is replayed, its
 * plies are analysed by lib/engine/analyse.c (in parallel, the same output for a
 * seed whatever --threads), and the review is written as the record with
 * marked comments (yaml), kifu-export's json with a `plies` array, a
 * table per game (text), or kifu-export's replay page with the chart of
 * expected scores and the marks (html, one page per game); --annotate
 * writes it into the record instead, as format 2 (lib/engine/analyse_annotate.c),
 * through the record's own writers (yaml, pgn) or kifu-export's json;
 * --store also keeps it in the database (lib/engine/analyse_store.c).
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kifu/analyse.h"
#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/player.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/stats.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-analyse [--db DB] (--id N | FILTERS | --file RECORD) [--engine SPEC] [--playouts N]\n"
	"                    [--threads T] [--seed S] [--values tree|positions] [--store]\n"
	"                    [--annotate] [--to yaml|json|text|html|pgn] [--progress] [-o OUT]";

enum format { FMT_YAML, FMT_JSON, FMT_TEXT, FMT_HTML, FMT_PGN };

/* Games a --store run names in its closing line; more are "...". */
#define STORED_NAMED 10

struct run {
	int format;
	struct kifu_analyse_opts opts;
	int json_array;        /* json: the games form one array */
	const char *out_path;  /* NULL or "-": standard output */
	int dir_mode;          /* html: out_path is a directory of one page per game */
	FILE *out;
	long done;             /* games written */
	int invalid, io_error, usage_error;
	int store;             /* --store: keep each review in the database */
	int annotate;          /* --annotate: the review written into the record (format 2) */
	struct kifu_replay replay;
	struct kifu_replay annotated; /* --annotate: the replay of the annotated record */
	long stored;           /* reviews kept */
	struct kifu_buf stored_ids; /* "12, 13, 14": the games of the first ones */
	char *stored_in;       /* the database they went into (as messages quote it) */
	struct cli_progress pr; /* the progress line, per game reviewed (cli/progress.c) */
	struct cli_progress_counts counts;
};

static void help(void)
{
	printf("usage: %s\n\n"
	       "Reviews games with a built-in player of kifu-play, the engine by default: for\n"
	       "each ply, from the position before the move, the mover's expected score, the\n"
	       "engine's choice and its expected score, the played move's expected score and\n"
	       "loss = max(0, best_score - played_score), all in [0, 1] for the mover. A loss\n"
	       "of at least 0.10 marks the move ?!, 0.20 ?, 0.35 ??. The engine's solver\n"
	       "proves wins and losses: a move proven lost where a move not proven lost\n"
	       "existed is ?? whatever its loss ('loses by force in K plies'), and a position\n"
	       "whose best move is proven won shows 'won in K' as its expected score.\n"
	       "Each game's review ends with each side's accuracy (0-100, lichess's, from\n"
	       "its moves' losses), its counts of ?!, ? and ??, and its mean loss.\n\n"
	       "  --engine SPEC the reviewing player: engine (the default), engine:N or\n"
	       "                mcts:N (kifu-play's players)\n"
	       "  --playouts N  iterations per position of a SPEC without a count (default\n"
	       "                %ld; bench/README.md gives the CPU time per game); the\n"
	       "                engine's move and the played move then get N/4 more each\n"
	       "  --threads T   positions analysed at once (default: the number of cores)\n"
	       "  --seed S      0 to 2^64-1 (default 1): the same seed gives the same\n"
	       "                analysis for any --threads\n"
	       "  --values HOW  tree (the default): both moves valued in the search of the\n"
	       "                position before; positions: each valued by its own search\n"
	       "                of the position after it (lichess's way; measured against\n"
	       "                tree in bench/README.md; not with --store)\n"
	       "  --to FORMAT   text   a table per game (the default)\n"
	       "                yaml   the record, each marked move's comment starting with\n"
	       "                       its mark, the engine's move and both scores\n"
	       "                json   kifu-export's json with a `plies` array of {ply, side,\n"
	       "                       move, expected, best, best_score, played_score, loss,\n"
	       "                       mark} (an array of games; --id: one object)\n"
	       "                html   the replay page of kifu-export --to html with a chart\n"
	       "                       of each side's expected score per ply (click a ply\n"
	       "                       to open it) and the marks in the move list; one game\n"
	       "                       per page: several games need -o DIR/\n"
	       "                pgn    with --annotate only\n", usage, KIFU_ANALYSE_PLAYOUTS);
	/* In parts: ISO C bounds one string literal's length. */
	printf("  --annotate    write the review into the record as format 2, to yaml (the\n"
	       "                default then), json (kifu-export's) or pgn: every move's\n"
	       "                eval {engine: SPEC, expected, best: the engine's move}, a\n"
	       "                marked move's mark as its nag (?! ? ??; PGN $6 $2 $4), and\n"
	       "                at each ? or ?? a line of the engine's move and up to 5\n"
	       "                more plies of its principal line (not where a line of the\n"
	       "                move already starts with them, nor one that would take the\n"
	       "                game past 100,000 turns, its lines included: a warning\n"
	       "                says so); comments are kept as they are; pgn leaves eval\n"
	       "                out. Not with --to text or html\n"
	       "  --store       also keep the review in the database, with the SPEC, its count\n"
	       "                and seed (a review of the same game with the same settings\n"
	       "                replaces the last one); kifu-stats players then gives each\n"
	       "                player's analysed_moves, mean_loss and mistakes (loss >= 0.20).\n"
	       "                Games of the database only (--id or FILTERS)\n"
	       "  -o OUT        write to OUT instead of standard output (- is stdout); an\n"
	       "                OUT ending in / or naming a directory: html pages there,\n"
	       "                one per game, named as kifu-export names them\n"
	       "  --file RECORD the games of a record file (- for standard input)\n"
	       "  --id N        the stored game with id N\n"
	       "  FILTERS       --game G, --variant V, --player NAME, --event TEXT,\n"
	       "                --since DATE, --until DATE, --termination T, --level L\n"
	       "  --db FILE     the database (default $KIFU_DB, else kifu.db): a SQLite file\n"
	       "                or a PostgreSQL URI (postgresql://...)\n"
	       "  --progress    show progress on stderr even when it is not a terminal (a\n"
	       "                line every 5 seconds at most)\n"
	       "  --help, --version\n\n");
	fputs("A progress line goes to stderr when it is a terminal (--progress: always),\n"
	      "redrawn as each game's review is done: the games reviewed (of how many,\n"
	      "for stored games), their plies, plies per second and, for stored games,\n"
	      "the time left at the pace of the games so far.\n\n"
	      "Exit status: 0 success, 1 a game was invalid, 2 usage error, 3 I/O or\n"
	      "database error.\n", stdout);
	exit(EXIT_OK);
}

/* ---- output ---- */

static void write_out(struct run *r, struct kifu_buf *b)
{
	if (b->failed) {
		cli_errorf("out of memory");
		r->io_error = 1;
		return;
	}
	if (!r->out) {
		if (r->out_path && strcmp(r->out_path, "-")) {
			r->out = fopen(r->out_path, "w");
			if (!r->out) {
				char why[256];

				cli_errorf("cannot write '%s': %s", r->out_path,
					   cli_errno_text(why, sizeof(why), errno));
				r->io_error = 1;
				return;
			}
		} else {
			r->out = stdout;
		}
	}
	if (b->len && fwrite(b->data, 1, b->len, r->out) != b->len)
		r->io_error = 1;
}

/* ---- one game ---- */

/*
 * --annotate: the review rv written into rec (kifu_analyse_annotate), which
 * is validated again for the replay its writer needs, then written to b as
 * the format asks; lines left out for the limit on a game's turns are said
 * as a warning on label's game. Returns 0 or a negative KIFU_E* code (err
 * says why).
 */
static int write_annotated(struct run *r, struct kifu_buf *b, struct kifu_record *rec,
			   const struct kifu_ply_review *rv, const char *spec, const char *label,
			   struct kifu_error *err)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	const struct kifu_record *one[1] = { rec };
	const struct kifu_replay *rps[1] = { &r->annotated };
	int ret = kifu_analyse_annotate(rec, &r->replay, rv, spec, err);

	if (ret > 0) {
		cli_line(stderr, "%s: warning: %s: %d line%s of the review left out: the game would "
			 "pass %d turns, its lines included", cli_progname(), label, ret,
			 ret == 1 ? "" : "s", KIFU_RECORD_MAX_TURNS);
		ret = 0;
	}
	if (ret == 0)
		ret = kifu_record_validate(&r->annotated, &diags, rec,
					   KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, err);
	/* what the review adds is legal by construction: an error here is kifu's own */
	if (ret == 0 && diags.errors)
		ret = kifu_error_set(err, KIFU_EINVALID, "the annotated record does not validate: %s",
				     diags.v[0].message);
	kifu_diags_release(&diags);
	if (ret < 0)
		return ret;
	if (r->format == FMT_JSON) {
		if (r->json_array)
			kifu_buf_puts(b, r->done ? ",\n" : "[\n");
		ret = kifu_render_json(b, rec, &r->annotated, NULL);
		if (!r->json_array)
			kifu_buf_putc(b, '\n');
		return ret;
	}
	return kifu_format_find(r->format == FMT_PGN ? "pgn" : "yaml")->write(b, one, rps, 1, err);
}

/*
 * The progress line with the games reviewed so far (of stored->count,
 * where known); step: a game's review is done, shown at once.
 */
static void progress(struct run *r, const struct cli_stored *stored, int step)
{
	if (stored)
		r->counts.total = stored->count;
	r->counts.frac = r->counts.total > 0 ? (double)r->counts.games / (double)r->counts.total : 0;
	if (step)
		cli_progress_step(&r->pr, &r->counts);
	else
		cli_progress_show(&r->pr, &r->counts);
}

/* Validates, analyses and writes one record (a cli_game_fn). Returns -1 to stop everything. */
static int analyse_record(void *ctx, struct kifu_record **recp, struct kifu_diags *diags,
			  const char *source, const char *label, const char *name,
			  const struct cli_stored *stored)
{
	struct run *r = ctx;
	struct kifu_record *rec = *recp;
	struct kifu_replay *rp = &r->replay;
	struct kifu_ply_review *rv = NULL;
	struct kifu_render_review review;
	struct kifu_render_stored known = { NULL };
	struct kifu_novelty nov;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	char *best = NULL, engine[96], spec[KIFU_ANALYSE_SPEC_MAX];
	size_t i;
	int ret;

	kifu_error_clear(&err);
	progress(r, stored, 0);
	/* a stored game that is not valid is damage (exit 3), as kifu-export says */
	if ((stored ? kifu_store_game_validate(rp, diags, stored->st, stored->id, rec, &err)
		    : kifu_record_validate(rp, diags, rec, KIFU_VALIDATE_TEXT, &err)) < 0) {
		cli_errorf("%s", err.message[0] ? err.message : kifu_strerror(err.code));
		r->io_error = 1;
		return -1;
	}
	if (diags->n)
		cli_progress_clear(&r->pr);
	for (i = 0; i < diags->n; i++)
		cli_print_diag(stderr, source, &diags->v[i]);
	if (diags->errors) {
		r->invalid = 1;
		return 0;
	}
	ret = kifu_analyse_game(&rv, rp->game, rp->variant, rp->first, rp->moves, rp->nplies,
				&r->opts, &err);
	if (ret == 0)
		ret = kifu_render_review_moves(&best, rp, rv);
	if (ret == 0 && r->store)
		ret = kifu_analyse_store(stored->st, stored->id, rv, rp->nplies, rp->canonical, best,
					 &r->opts, &err);
	if (ret == 0 && r->store) {
		if (r->stored < STORED_NAMED)
			kifu_buf_printf(&r->stored_ids, "%s%lld", r->stored ? ", " : "",
					(long long)stored->id);
		if (!r->stored_in)
			r->stored_in = strdup(kifu_store_path(stored->st));
		r->stored++;
	}
	if (ret < 0) {
		cli_errorf("%s: %s", label, err.message[0] ? err.message : kifu_strerror(ret));
		r->io_error = 1;
		ret = -1;
		goto out;
	}
	/* the spec was checked before any game */
	kifu_analyse_spec(spec, &r->opts, &err);
	review.plies = rv;
	review.best = best;
	review.engine = engine;
	review.spec = spec;
	review.playouts = kifu_analyse_spec_count(spec);
	review.seed = r->opts.seed;
	snprintf(engine, sizeof(engine), "%s, seed %llu", spec, (unsigned long long)r->opts.seed);
	if (r->annotate) {
		ret = write_annotated(r, &b, rec, rv, spec, label, &err);
	} else if (r->format == FMT_JSON) {
		if (r->json_array)
			kifu_buf_puts(&b, r->done ? ",\n" : "[\n");
		ret = kifu_render_review_json(&b, rec, rp, &review);
		if (!r->json_array)
			kifu_buf_putc(&b, '\n');
	} else if (r->format == FMT_YAML) {
		ret = kifu_render_review_yaml(&b, rec, rp, &review);
	} else if (r->format == FMT_HTML) {
		if (r->done && !r->dir_mode) {
			cli_errorf("several games to write as html: give -o DIR/ for one page per game");
			r->usage_error = 1;
			ret = -1;
			goto out;
		}
		/* a stored game's page marks its novelty, as kifu-export's does */
		if (stored)
			ret = cli_stored_novelty(&known, &nov, stored, KIFU_NOVELTY_EARLIER, &err);
		if (ret == 0)
			ret = kifu_render_html_review(&b, rec, rp, 0, &review,
						      stored ? &known : NULL);
	} else {
		if (r->done)
			kifu_buf_putc(&b, '\n');
		ret = kifu_render_review_text(&b, rp, &review, label);
	}
	if (ret < 0) {
		cli_errorf("%s: %s", label, err.message[0] ? err.message : kifu_strerror(ret));
		r->io_error = 1;
		ret = -1;
		goto out;
	}
	if (r->dir_mode && cli_write_in_dir(r->out_path, name, "html", &b) < 0)
		r->io_error = 1;
	else if (!r->dir_mode) {
		/* standard output may be the terminal the progress line stands on */
		if (!r->out_path || !strcmp(r->out_path, "-"))
			cli_progress_clear(&r->pr);
		write_out(r, &b);
	}
	r->done++;
	r->counts.games++;
	r->counts.plies += (long long)rp->nplies;
	progress(r, stored, 1);
out:
	kifu_analyse_game_free(rv);
	free(best);
	kifu_buf_release(&b);
	return ret;
}

/* --engine: a spec a review can use, whose player can be made. */
static void check_engine(const struct kifu_analyse_opts *o)
{
	char spec[KIFU_ANALYSE_SPEC_MAX];
	struct kifu_player *p = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_analyse_spec(spec, o, &err) < 0 ||
	    kifu_player_new(&p, kifu_games[0], spec, 0, &err) < 0) {
		if (err.code == KIFU_ENOMEM) {
			cli_error(&err);
			exit(EXIT_FAILURE_IO);
		}
		cli_usage_error(usage, "--engine: %s", err.message);
	}
	kifu_player_free(p);
}

/*
 * Says what --store kept, on stderr: "stored 2 reviews (engine, seed 1) in
 * 'kifu.db': games 12, 13" (the first STORED_NAMED games named).
 */
static void say_stored(struct run *r)
{
	char spec[KIFU_ANALYSE_SPEC_MAX];
	struct kifu_error err;

	if (!r->stored)
		return;
	kifu_error_clear(&err);
	kifu_analyse_spec(spec, &r->opts, &err);
	cli_line(stderr, "%s: stored %ld review%s (%s, seed %llu) in '%s': game%s %s%s", cli_progname(),
		 r->stored, r->stored == 1 ? "" : "s", spec, (unsigned long long)r->opts.seed,
		 r->stored_in ? r->stored_in : "", r->stored == 1 ? "" : "s",
		 r->stored_ids.data ? r->stored_ids.data : "", r->stored > STORED_NAMED ? ", ..." : "");
}

static void finish(struct run *r)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	if (r->format == FMT_JSON && r->json_array) {
		kifu_buf_puts(&b, r->done ? "\n]\n" : "[]\n");
		write_out(r, &b);
	}
	kifu_buf_release(&b);
	if (r->out && r->out != stdout && (ferror(r->out) | fclose(r->out)) != 0) {
		cli_errorf("cannot write to '%s'", r->out_path);
		r->io_error = 1;
	} else if (r->out == stdout && cli_flush_stdout() < 0) {
		r->io_error = 1;
	}
	r->out = NULL;
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_ID, O_FILE, O_TO, O_ENGINE, O_PLAYOUTS, O_THREADS, O_SEED, O_STORE,
	       O_VALUES, O_ANNOTATE, O_PROGRESS };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		{ "id", required_argument, NULL, O_ID },
		{ "file", required_argument, NULL, O_FILE },
		{ "to", required_argument, NULL, O_TO },
		{ "engine", required_argument, NULL, O_ENGINE },
		{ "playouts", required_argument, NULL, O_PLAYOUTS },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "seed", required_argument, NULL, O_SEED },
		{ "store", no_argument, NULL, O_STORE },
		{ "annotate", no_argument, NULL, O_ANNOTATE },
		{ "values", required_argument, NULL, O_VALUES },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "output", required_argument, NULL, 'o' },
		CLI_FILTER_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct run r;
	struct cli_status status = { 0, 0, 0 };
	struct kifu_filter f;
	const char *db = NULL, *file = NULL, *to = NULL;
	long id = -1;
	int opt, any_filter = 0, store = 0, sources, force_progress = 0;

	cli_init(argv[0]);
	memset(&r, 0, sizeof(r));
	memset(&f, 0, sizeof(f));
	r.replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	r.annotated = (struct kifu_replay)KIFU_REPLAY_INIT;
	r.opts.playouts = KIFU_ANALYSE_PLAYOUTS;
	r.opts.seed = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", options, NULL)) != -1) {
		if (cli_filter_option(&f, opt, optarg)) {
			any_filter = 1;
			continue;
		}
		switch (opt) {
		case O_DB: db = optarg; break;
		case O_ID: id = cli_parse_long(usage, "--id", optarg, 0, LONG_MAX); break;
		case O_FILE: file = optarg; break;
		case O_TO: to = optarg; break;
		case O_ENGINE: r.opts.engine = optarg; break;
		case O_PLAYOUTS:
			r.opts.playouts = cli_parse_long(usage, "--playouts", optarg, 1, KIFU_PLAYER_MAX_PLAYOUTS);
			break;
		case O_THREADS: r.opts.threads = (int)cli_parse_long(usage, "--threads", optarg, 1, 256); break;
		case O_SEED: r.opts.seed = cli_parse_seed(usage, optarg); break;
		case O_STORE: store = 1; break;
		case O_ANNOTATE: r.annotate = 1; break;
		case O_PROGRESS: force_progress = 1; break;
		case O_VALUES:
			if (!strcmp(optarg, "tree"))
				r.opts.values = KIFU_ANALYSE_VALUES_TREE;
			else if (!strcmp(optarg, "positions"))
				r.opts.values = KIFU_ANALYSE_VALUES_POSITIONS;
			else
				cli_usage_error(usage, "--values: '%s' is not tree or positions", optarg);
			break;
		case 'o': r.out_path = optarg; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	check_engine(&r.opts);
	/* the annotated record is a record: yaml unless asked otherwise */
	if (!to)
		to = r.annotate ? "yaml" : "text";
	if (!strcmp(to, "yaml"))
		r.format = FMT_YAML;
	else if (!strcmp(to, "json"))
		r.format = FMT_JSON;
	else if (!strcmp(to, "text"))
		r.format = FMT_TEXT;
	else if (!strcmp(to, "html"))
		r.format = FMT_HTML;
	else if (!strcmp(to, "pgn"))
		r.format = FMT_PGN;
	else
		cli_usage_error(usage, "unknown format '%s' (yaml, json, text, html or pgn)", to);
	if (r.annotate && (r.format == FMT_TEXT || r.format == FMT_HTML))
		cli_usage_error(usage, "--annotate writes a record: --to yaml, json or pgn, not %s", to);
	if (!r.annotate && r.format == FMT_PGN)
		cli_usage_error(usage, "--to pgn writes the annotated record: give --annotate");
	sources = (file != NULL) + (id >= 0) + any_filter;
	if (sources == 0)
		cli_usage_error(usage, "expected --file RECORD, --id N or FILTERS");
	if (sources > 1)
		cli_usage_error(usage, "give only one of --file, --id and FILTERS");
	if (any_filter)
		cli_filter_check(usage, &f);
	if (db && file)
		cli_usage_error(usage, "--db applies to --id and FILTERS, not --file");
	if (store && r.opts.values != KIFU_ANALYSE_VALUES_TREE)
		cli_usage_error(usage, "--store keeps reviews made with --values tree, not positions");
	if (store && file)
		cli_usage_error(usage, "--store keeps reviews of stored games (--id or FILTERS), not "
				"of --file: import the records first");
	r.store = store;
	r.json_array = id < 0;
	if (r.format == FMT_HTML && r.out_path && strcmp(r.out_path, "-")) {
		struct stat st;
		size_t n = strlen(r.out_path);
		char why[256];

		if (r.out_path[n - 1] == '/' || (stat(r.out_path, &st) == 0 && S_ISDIR(st.st_mode))) {
			if (stat(r.out_path, &st) < 0 && mkdir(r.out_path, 0777) < 0) {
				cli_errorf("cannot create '%s': %s", r.out_path,
					   cli_errno_text(why, sizeof(why), errno));
				return EXIT_FAILURE_IO;
			}
			r.dir_mode = 1;
		}
	}

	cli_progress_init(&r.pr, force_progress, 0);
	r.counts.plies = 0;
	if (file)
		cli_games_file(file, NULL, analyse_record, &r, &status);
	else
		cli_games_store(db, id, &f, store ? CLI_GAMES_WRITE : CLI_GAMES_MUST_EXIST,
				analyse_record, &r, &status);
	cli_progress_end(&r.pr, &r.counts);
	finish(&r);
	say_stored(&r);
	kifu_buf_release(&r.stored_ids);
	free(r.stored_in);
	kifu_replay_release(&r.replay);
	kifu_replay_release(&r.annotated);
	if (status.usage_error || r.usage_error)
		return EXIT_USAGE;
	if (r.io_error || status.io_error)
		return EXIT_FAILURE_IO;
	return r.invalid || status.invalid ? EXIT_INVALID : EXIT_OK;
}
