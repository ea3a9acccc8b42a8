/*
 * kifu-stats: reports over the stored games (summary, openings, players,
 * lengths, tree, novelties, balance) as an aligned table, CSV or JSON on
 * stdout, optionally as an SVG chart, and the tree as an explorer page
 * (include/kifu/explorer.h).
 * Everything is computed by libkifu (include/kifu/stats.h); this file
 * reads the options, checks them (unknown games, variants,
 * terminations and malformed dates are usage errors, exit 2) and writes
 * what the library returns.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/explorer.h"
#include "kifu/stats.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-stats [--db FILE] [FILTERS] [--format table|csv|json] [--svg FILE] REPORT\n"
	"       kifu-stats [--db FILE] [FILTERS] tree --html FILE [--depth N] [--after MOVES] "
	"[--min-games K]";

static void help(void)
{
	printf("usage: %s\n\n"
	       "Reports over the games stored by kifu-import.\n\n"
	       "REPORT is one of:\n"
	       "  summary    per game and variant: games, wins_<side> for each side, draws,\n"
	       "             unfinished, draw_rate, first_mover_score with its 95%% Wilson\n"
	       "             interval (ci_low, ci_high), mean_plies, median_plies\n"
	       "  openings [--depth N] [--min-games K] [--by-position]\n"
	       "             one row per distinct line of 1..N plies (default N = 2) played in\n"
	       "             at least K games (default 1), per game and variant: line (the\n"
	       "             canonical moves joined by single spaces; json also gives them as\n"
	       "             the array `moves`), plies, games, wins_<side>, draws, unfinished,\n"
	       "             first_mover_score, ci_low, ci_high. --by-position makes one row per\n"
	       "             position reached after the line's last ply (by the stored position\n"
	       "             hash, also shown as `hash`): lines that transpose into each other\n"
	       "             are one row, labelled with the most common line among them (the\n"
	       "             line most of its games took to reach it first), and a game counts\n"
	       "             once per row\n"
	       "  players [--by-variant] [--name-part TEXT]\n"
	       "             per player: games, wins, draws, losses, unfinished, score, rating\n"
	       "             (over every game FILTERS select: all games and variants together\n"
	       "             unless --game and --variant name one); --by-variant: one row per\n"
	       "             player, game and variant (columns game, variant after player),\n"
	       "             each rating fitted over that game and variant's games alone, as\n"
	       "             lichess keeps one per variant; --name-part: only the players\n"
	       "             whose name holds TEXT, without regard to case\n"
	       "  lengths    per game and variant: the number of games of each length (plies)\n"
	       "  balance    per game, variant and level (for game designers: is the game\n"
	       "             fair, does it stay interesting as play gets stronger?): game,\n"
	       "             variant, level, games, first_mover_score, ci_low, ci_high,\n"
	       "             draw_rate, mean_plies, branching, reviewed, lead_changes, drama,\n"
	       "             decided_at (see below)\n",
	       usage);
	fputs("  tree [--after MOVES] [--min-games K] [--html FILE [--depth N]]\n"
	      "             (needs --game, and --variant where the game has several) the\n"
	      "             moves played from the position after MOVES (comma-separated, as\n"
	      "             kifu-perft --after takes them; default: the start) in the stored\n"
	      "             games that reach it, at any ply and by any move order (the stored\n"
	      "             position hashes): one row per next move with at least K games\n"
	      "             (default 1), most games first (ties: move text in byte order):\n"
	      "             move, games, wins_<side>, draws, unfinished, mover_score (the\n"
	      "             score of the side to move there, as a side's score below) with\n"
	      "             ci_low, ci_high, mean_plies (the whole games, unfinished\n"
	      "             included); json also gives\n"
	      "             the position's hash (16 hex digits) and to_move in every row, and\n"
	      "             at the top level hash, to_move, games (the games that reached the\n"
	      "             position) and ended (those of them that ended there); csv has the\n"
	      "             rows only. A game that reaches the position twice counts once, with\n"
	      "             the move it played the first time; a game that ends there has no\n"
	      "             next move (when every game ended there, the table says \"N games\n"
	      "             ended here\").\n"
	      "             A bad move in MOVES is a usage error.\n"
	      "             --html FILE [--depth N] writes one self-contained explorer page to\n"
	      "             FILE instead (no network needed): the board of the position, its\n"
	      "             moves with win/draw/loss bars of the side to move and the columns\n"
	      "             above; clicking a move shows the next position and its moves, down\n"
	      "             to N plies below the position asked for (default 4; the positions N\n"
	      "             plies below show their board only), a path of the moves clicked\n"
	      "             leads back up, and the address ends in #path=M1,M2,... Positions\n"
	      "             reached by different move orders are one position of the page. A\n"
	      "             page holds at most 2000 positions and 50000 moves in its tables,\n"
	      "             taken level by level, the most played moves first: when it is\n"
	      "             full, the rarer moves lead nowhere or are left out of the tables\n"
	      "             (a warning says how many).\n"
	      "  --symmetric (openings --by-position, tree) positions that one of the game's\n"
	      "             board symmetries maps onto each other (its page in the spec says\n"
	      "             which) count as one: moves are shown as seen from the position\n"
	      "             asked for (tree) or from the most common line (openings), and\n"
	      "             json's hash is the canonical one (the smallest over the\n"
	      "             symmetries). Where the position asked for is symmetric itself,\n"
	      "             moves one of its symmetries maps onto each other are one row,\n"
	      "             named by the one most games played (ties: byte order).\n",
	      stdout);
	fputs("  novelties  (needs --game, and --variant where the game has several) one row\n"
	      "             per dated game FILTERS select, oldest first (date, then id): id,\n"
	      "             date, players, ply and move of the game's novelty (the first ply\n"
	      "             at which no game of an earlier date had reached the position\n"
	      "             before that ply and played the same move there; null when the\n"
	      "             game never left known moves), earlier (the earlier games that\n"
	      "             reached that position)\n\n",
	      stdout);
	/* In parts: ISO C compilers need not take string literals past 4095 bytes. */
	fputs("Definitions:\n"
	       "  - a finished game is one whose result is not `unfinished`;\n"
	       "  - a side's score = (wins + draws / number of sides) / finished games;\n"
	       "  - the first mover is the side to move at the start of the game (the\n"
	       "    record's `first`, or the game's default); first_mover_score is the first\n"
	       "    mover's score over finished games, and the Wilson 95% interval is\n"
	       "    computed on it;\n"
	       "  - draw_rate = draws / finished games; scores, intervals and draw_rate are\n"
	       "    null (empty in csv, - in a table) when no game is finished;\n"
	       "  - mean and median plies are over all games, unfinished included (the median\n"
	       "    of an even count is the mean of the two middle values);\n"
	       "  - players: only games whose every side names a player count (and not those\n"
	       "    where one player holds two sides); games counts them all, wins, draws and\n"
	       "    losses the finished ones; a player's score is as a side's; the rating is\n"
	       "    an Elo-scale Bradley-Terry maximum-likelihood fit over every finished game\n"
	       "    at once, unfinished games left out, each player also getting one virtual\n"
	       "    draw against an opponent rated at the mean, the mean set to 1500; a\n"
	       "    four-player game counts as its winner beating each other player, a drawn\n"
	       "    one as a draw between every pair; players without a finished game have no\n"
	       "    rating.\n", stdout);
	fputs("  - balance: a player named like kifu-play's, SPEC #k (SPEC random, mcts:N,\n"
	      "    engine or engine:N; compared as text), is a SPEC player; a game is at\n"
	      "    level SPEC when every side is a SPEC player of that SPEC, at level\n"
	      "    players when no side is one, and left out otherwise (levels by strength:\n"
	      "    random, mcts:N by N, engine:N by N, engine, players last); branching =\n"
	      "    the legal moves before each move of the level's games (a forced pass:\n"
	      "    1) / those positions; over the games\n"
	      "    with a stored review (kifu-analyse --store; the run with the most\n"
	      "    playouts, the last stored among equals), reviewed counts them and:\n"
	      "    lead_changes, the mean number of times the first mover's expected score\n"
	      "    (values of exactly 0.5 left out) crosses 0.5; drama, over the games a\n"
	      "    side won, the mean of 0.5 minus the winner's lowest expected score (0\n"
	      "    when it never fell below 0.5); decided_at, the mean of the first ply from\n"
	      "    which the winner's expected score stays at 0.9 or more, over the game's\n"
	      "    plies (1 when none); a side's expected score before a ply is the review's\n"
	      "    when it moves there, else 1 minus it; null without such games, and for\n"
	      "    four-sided games.\n\n", stdout);
	fputs("Options:\n"
	       "  FILTERS           --game G, --variant V, --player NAME (any side; with --as\n"
	       "                    SIDE: only the games where NAME played SIDE),\n"
	       "                    --event TEXT, --since DATE, --until DATE, --termination T\n"
	       "                    (rules, resignation, timeout, agreement or abandoned; the\n"
	       "                    stated or implied one), --level L (balance's level: the\n"
	       "                    games where every side is kifu-play's SPEC L, or players:\n"
	       "                    where none is a kifu-play player). Exact matches. --since\n"
	       "                    and --until are inclusive and a partial date covers its\n"
	       "                    whole period (--since 2024-06 from 1 June, --until 2024-06\n"
	       "                    to 30 June); a record's partial date counts as its\n"
	       "                    first day; games without a date are left out when either\n"
	       "                    is given.\n"
	       "  --format F        table (default: for a terminal, shortened to fit 100\n"
	       "                    columns for one game: the game (and variant) said once\n"
	       "                    above it when every row shares it; each side's wins\n"
	       "                    right after games, headed by the side; unf = unfinished,\n"
	       "                    drawn = draw_rate, fm_score = first_mover_score, 95% ci =\n"
	       "                    ci_low-ci_high, mean and median = the plies; in openings\n"
	       "                    ply = plies; text from records shown escaped), csv (a\n"
	       "                    header row, RFC 4180 quoting, CRLF line ends, a ' before\n"
	       "                    a cell that starts with = + - @ ', a tab or a CR, -0.5\n"
	       "                    included, so that no spreadsheet runs it) or json (one\n"
	       "                    object whose `rows` array holds one object per row, keys\n"
	       "                    the csv header names, numbers as JSON numbers, null where\n"
	       "                    there is no value). When rows of several games mix, the\n"
	       "                    csv header is the union of the rows' columns in order of\n"
	       "                    first appearance, empty where a column does not apply;\n"
	       "                    json leaves such keys out.\n"
	       "  --svg FILE        also draw the report as an SVG chart in FILE: summary,\n"
	       "                    outcome bars per game and variant; openings, the first\n"
	       "                    mover's win/draw/loss bars per line with the Wilson interval\n"
	       "                    of its score; tree, the same for the side to move per next\n"
	       "                    move; lengths, a histogram per game and variant;\n"
	       "                    players, rating bars; balance, the first mover's score\n"
	       "                    with its interval per level, a panel per game and\n"
	       "                    variant (long reports: their largest rows)\n"
	       "  --no-cache        compute from the stored games, without the precomputed\n"
	       "                    tables (slower; the figures are the same)\n"
	       "  --db FILE         the database (default $KIFU_DB, else kifu.db): a SQLite\n"
	       "                    file or a PostgreSQL URI (postgresql://...)\n"
	       "  --help, --version\n\n"
	       "The first report after an import brings precomputed tables up to date with the\n"
	       "new games (players: with every game), which takes a moment on a large import.\n\n"
	       "Exit status: 0 success, 2 usage error, 3 I/O or database error.\n", stdout);
	exit(EXIT_OK);
}

/* The names of the reports, for a usage message. */
static const char *report_names(char *out, size_t size)
{
	kifu_stats_report_names(out, size);
	return out;
}

static void unknown_report(const char *name)
{
	struct kifu_error err;

	kifu_error_clear(&err);
	kifu_stats_unknown_report(&err, name);
	cli_usage_error(usage, "%s", err.message);
}

static long parse_number(const char *opt, const char *text, long min)
{
	long v;

	if (cli_whole_number(&v, text, min, LONG_MAX) < 0)
		cli_usage_error(usage, "%s expects a whole number of %ld or more, not '%s'", opt, min,
				text);
	return v;
}

static int write_file(const char *path, const struct kifu_buf *b)
{
	FILE *fp = fopen(path, "w");
	int ok;

	if (!fp) {
		char why[256];

		snprintf(why, sizeof(why), "%s", strerror(errno));
		if (why[0] >= 'A' && why[0] <= 'Z')
			why[0] = (char)(why[0] - 'A' + 'a');
		cli_errorf("cannot open '%s': %s", path, why);
		return -1;
	}
	ok = fwrite(b->data ? b->data : "", 1, b->len, fp) == b->len;
	if (fclose(fp) != 0)
		ok = 0;
	if (!ok) {
		cli_errorf("cannot write '%s'", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_FORMAT, O_SVG, O_DEPTH, O_MIN, O_BYPOS, O_NOCACHE, O_AFTER, O_HTML, O_SYMM,
	       O_BYVAR, O_PART };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		CLI_FILTER_OPTIONS,
		{ "format", required_argument, NULL, O_FORMAT },
		{ "svg", required_argument, NULL, O_SVG },
		{ "depth", required_argument, NULL, O_DEPTH },
		{ "min-games", required_argument, NULL, O_MIN },
		{ "by-position", no_argument, NULL, O_BYPOS },
		{ "no-cache", no_argument, NULL, O_NOCACHE },
		{ "after", required_argument, NULL, O_AFTER },
		{ "html", required_argument, NULL, O_HTML },
		{ "symmetric", no_argument, NULL, O_SYMM },
		{ "by-variant", no_argument, NULL, O_BYVAR },
		{ "name-part", required_argument, NULL, O_PART },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const formats[] = { "table", "csv", "json", NULL };
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_explorer_options xopt = KIFU_EXPLORER_OPTIONS_INIT;
	struct kifu_explorer_info info;
	struct kifu_filter f;
	char *spelling = NULL; /* --player as stored */
	int matched = 0;       /* kifu_stats_match_player's: KIFU_ENOTFOUND, no such player */
	struct kifu_store *st = NULL;
	struct kifu_report *rep = NULL;
	char names[128];
	struct kifu_buf out = KIFU_BUF_INIT, svg = KIFU_BUF_INIT;
	struct kifu_error err;
	const char *db = NULL, *svg_path = NULL, *format = "table";
	int opt_c, kind, fmt = -1, k, status = EXIT_OK, openings_only = 0, min_given = 0;
	int tree_only = 0, depth_given = 0, format_given = 0, players_only = 0;
	const char *html = NULL;

	cli_init(argv[0]);
	memset(&f, 0, sizeof(f));
	kifu_error_clear(&err);
	opterr = 0;
	while ((opt_c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (cli_filter_option(&f, opt_c, optarg))
			continue;
		switch (opt_c) {
		case O_DB: db = optarg; break;
		case O_FORMAT: format = optarg; format_given = 1; break;
		case O_SVG: svg_path = optarg; break;
		case O_DEPTH:
			opt.depth = (int)parse_number("--depth", optarg, 1);
			if (opt.depth > 10000)
				cli_usage_error(usage, "--depth %s is too deep (10000 at most)",
						optarg);
			depth_given = 1;
			break;
		case O_MIN:
			opt.min_games = parse_number("--min-games", optarg, 0);
			min_given = 1;
			break;
		case O_AFTER: opt.after = optarg; tree_only = 1; break;
		case O_HTML:
			if (!*optarg)
				cli_usage_error(usage, "--html expects a file name");
			html = optarg;
			tree_only = 1;
			break;
		case O_BYPOS: opt.by_position = 1; openings_only = 1; break;
		case O_NOCACHE: opt.flags |= KIFU_STATS_NO_CACHE; break;
		case O_SYMM: opt.symmetric = 1; break;
		case O_BYVAR: opt.by_variant = 1; players_only = 1; break;
		case O_PART: opt.name_part = optarg; players_only = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt_c);
		}
	}
	if (optind >= argc)
		cli_usage_error(usage, "expected a REPORT (%s)", report_names(names, sizeof(names)));
	if (optind + 1 < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind + 1]);
	kind = kifu_stats_kind_find(argv[optind]);
	if (kind < 0)
		unknown_report(argv[optind]);
	if (players_only && kind != KIFU_STATS_PLAYERS)
		cli_usage_error(usage, "--by-variant and --name-part apply to players, not '%s'",
				argv[optind]);
	if (openings_only && kind != KIFU_STATS_OPENINGS)
		cli_usage_error(usage, "--by-position applies to openings, not '%s'", argv[optind]);
	if (depth_given && kind != KIFU_STATS_OPENINGS && !(kind == KIFU_STATS_TREE && html))
		cli_usage_error(usage, "--depth applies to openings and tree --html, not '%s'%s",
				argv[optind], kind == KIFU_STATS_TREE ? " without --html" : "");
	if (min_given && kind != KIFU_STATS_OPENINGS && kind != KIFU_STATS_TREE)
		cli_usage_error(usage, "--min-games applies to openings and tree, not '%s'",
				argv[optind]);
	if (tree_only && kind != KIFU_STATS_TREE)
		cli_usage_error(usage, "--after and --html apply to tree, not '%s'", argv[optind]);
	if (html && (svg_path || format_given))
		cli_usage_error(usage, "tree --html writes a page instead of a report: no %s",
				svg_path ? "--svg" : "--format");
	if (opt.symmetric && kind != KIFU_STATS_TREE &&
	    (kind != KIFU_STATS_OPENINGS || !opt.by_position))
		cli_usage_error(usage, "--symmetric applies to openings --by-position and tree, "
				"not '%s'", argv[optind]);
	if (kind == KIFU_STATS_TREE && !f.game)
		cli_usage_error(usage, "tree needs --game");
	for (k = 0; formats[k]; k++)
		if (!strcmp(format, formats[k]))
			fmt = k;
	if (fmt < 0)
		cli_usage_error(usage, "unknown format '%s' (table, csv or json)", format);
	cli_filter_check(usage, &f);

	db = cli_db_path(db);
	xopt.stats = opt;
	if (depth_given)
		xopt.depth = opt.depth;
	/* a tree (not a page of trees) reads each page about once: not mapped */
	if (kifu_store_open(&st, db, KIFU_STORE_READ | (kind == KIFU_STATS_TREE && !html
							 ? KIFU_STORE_READ_ONCE : 0), &err) < 0 ||
	    (matched = kifu_stats_match_player(&spelling, &f, st, &err)) < 0 ||
	    (html ? kifu_explorer_html(&out, &info, st, &f, &xopt, &err)
		  : kifu_stats_report(&rep, st, kind, &f, &opt, &err)) < 0) {
		/* tree: a bad move in --after is a usage error (dates were checked above). */
		if (kind == KIFU_STATS_TREE && (err.code == KIFU_EPARSE || err.code == KIFU_EILLEGAL))
			cli_errorf("--after: %s", err.message);
		else
			cli_error(&err);
		status = err.code == KIFU_EPARSE || err.code == KIFU_ERANGE ||
				 err.code == KIFU_EILLEGAL ? EXIT_USAGE
			 : matched == KIFU_ENOTFOUND ? EXIT_INVALID : EXIT_FAILURE_IO;
		goto out;
	}
	if (html) {
		if (write_file(html, &out) < 0)
			status = EXIT_FAILURE_IO;
		else if (info.left_out)
			fprintf(stderr, "%s: warning: the page is full (%zu positions): %zu of the "
				"rarer move%s lead nowhere\n", cli_progname(), info.positions,
				info.left_out, info.left_out == 1 ? "" : "s");
		if (status == EXIT_OK && info.rows_left_out)
			fprintf(stderr, "%s: warning: the page is full (%d moves in its tables): %zu of "
				"the rarer moves are left out of them\n", cli_progname(),
				KIFU_EXPLORER_MAX_ROWS, info.rows_left_out);
		goto out;
	}
	if (kifu_report_write(&out, rep, fmt == 0 ? KIFU_REPORT_TABLE : fmt == 1 ? KIFU_REPORT_CSV
										: KIFU_REPORT_JSON,
			      &err) < 0) {
		cli_error(&err);
		status = EXIT_FAILURE_IO;
		goto out;
	}
	if (out.len && fwrite(out.data, 1, out.len, stdout) != out.len) {
		cli_flush_stdout();
		status = EXIT_FAILURE_IO;
		goto out;
	}
	if (svg_path) {
		if (kifu_report_svg(&svg, rep, &err) < 0) {
			cli_error(&err);
			status = EXIT_FAILURE_IO;
			goto out;
		}
		if (write_file(svg_path, &svg) < 0)
			status = EXIT_FAILURE_IO;
	}
out:
	if (cli_flush_stdout() < 0)
		status = EXIT_FAILURE_IO;
	kifu_buf_release(&out);
	kifu_buf_release(&svg);
	kifu_report_free(rep);
	kifu_store_free(st);
	free(spelling);
	return status;
}
