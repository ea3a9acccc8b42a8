/*
 * kifu-check: the game database's integrity, checked against a replay of
 * its games (as git fsck and SQLite's PRAGMA integrity_check check
 * theirs), after a crash, a copy or a change by hand. libkifu does the
 * checking (kifu/check.h); this file reads the options, prints each
 * problem on stderr (or, with --json, one JSON object per problem on
 * stdout) and the summary, and exits 0 when nothing is wrong, 1 when
 * something is, 2 on a usage error, 3 when the database cannot be read.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kifu/check.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-check [--db DB] [--sample N [--seed S]] [--trees N|all] [--json] [--quiet]";

static void help(void)
{
	printf("usage: %s\n\n"
	       "Checks the game database against a replay of its games, reading only.\n"
	       "Every stored game must load back (headers, moves, comments, format 2's\n"
	       "lines, nags and evals) and replay through its rules engine, in the plies\n"
	       "its row says, to the duplicate key it was stored under; its stored\n"
	       "position hashes and canonical hashes must be its replay's, ply for ply,\n"
	       "and so must the summary of its pieces' cells that kifu-search --pattern\n"
	       "reads; every position it reaches must be in the position index at the\n"
	       "first ply it reached it (and in the canonical index, where the backend\n"
	       "keeps one), and the indexes must hold nothing else (told by their counts,\n"
	       "when every game is checked). Every sum kept for the reports must equal\n"
	       "its recount from the games: each report that reads them (summary,\n"
	       "lengths, openings to 6 plies by line and by position, players, balance)\n"
	       "is made from the kept sums and from the games, and the two must be the\n"
	       "same; so must the tree (plain and by symmetry) at the positions of the\n"
	       "first 4 plies of up to 200 of the checked games (--trees), spread over\n"
	       "them, from its kept counts and from the position index. The backend's\n"
	       "own check of its storage runs too (SQLite: PRAGMA integrity_check).\n\n"
	       "Kept sums behind the games are brought up to date first where the database\n"
	       "can be written (as kifu-stats would), then all is read in one snapshot.\n\n"
	       "  --db DB        the database (SQLite file or postgresql:// URI); default\n"
	       "                 $KIFU_DB, else kifu.db\n"
	       "  --sample N     check N games drawn at random (all when there are fewer),\n"
	       "                 and of the kept sums only the tree's at their positions\n"
	       "  --seed S       the sample's draw (0 to 2^64-1; default: from the clock,\n"
	       "                 printed in the summary): the same seed, the same games\n"
	       "  --trees N|all  check the tree's counts at the first plies of N of the\n"
	       "                 checked games (default 200), or of all of them (a report\n"
	       "                 or two per position: slow on large databases)\n"
	       "  --json         one JSON object per problem on stdout (JSON Lines):\n"
	       "                 {\"check\", \"game\" (its id, or null), \"message\"};\n"
	       "                 the summary goes to stderr\n"
	       "  --quiet        no summary line\n"
	       "  --help, --version\n\n"
	       "Each problem goes to stderr as\n"
	       "  kifu-check: error: 'DB': MESSAGE\n"
	       "naming what is wrong: the game and ply, the position (16 hex digits), or the\n"
	       "report's rows kept and recounted. The checks (\"check\" in json): game,\n"
	       "file, hashes, pattern summary, position index, canonical index, sums, tree.\n"
	       "The summary line is\n"
	       "'N games, C checked, P positions, R reports, T tree positions, K problems'\n"
	       "(and ', seed S' with --sample).\n\n"
	       "Exit status: 0 nothing is wrong, 1 something is, 2 usage error, 3 the\n"
	       "database cannot be opened or read (3 wins over 1).\n",
	       usage);
	exit(EXIT_OK);
}

struct run {
	const char *db;
	int json;
};

static int say(void *ctx, const char *check, int64_t id, const char *message)
{
	struct run *r = ctx;

	if (r->json) {
		fputs("{\"check\":", stdout);
		cli_json_string(stdout, check);
		if (id >= 0)
			printf(",\"game\":%lld,\"message\":", (long long)id);
		else
			fputs(",\"game\":null,\"message\":", stdout);
		cli_json_string(stdout, message);
		fputs("}\n", stdout);
	} else {
		cli_line(stderr, "%s: error: '%s': %s", cli_progname(), r->db, message);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "sample", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "trees", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
	struct kifu_check_summary sum;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	struct run r = { NULL, 0 };
	const char *db = NULL;
	int o, quiet = 0, seeded = 0, status = EXIT_OK;

	cli_init(argv[0]);
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (o) {
		case 'd': db = optarg; break;
		case 'n': opt.sample = cli_parse_long(usage, "--sample", optarg, 1, LONG_MAX); break;
		case 's': opt.seed = cli_parse_seed(usage, optarg); seeded = 1; break;
		case 't':
			opt.trees = strcmp(optarg, "all") ? cli_parse_long(usage, "--trees", optarg, 1,
									    LONG_MAX) : -1;
			break;
		case 'j': r.json = 1; break;
		case 'q': quiet = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, o);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (seeded && !opt.sample)
		cli_usage_error(usage, "--seed needs --sample");
	if (opt.sample && !seeded)
		opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
	r.db = db = cli_db_path(db);
	kifu_error_clear(&err);
	memset(&sum, 0, sizeof(sum));
	if (kifu_store_open(&st, db, KIFU_STORE_READ, &err) < 0 ||
	    kifu_stats_check(&sum, st, &opt, say, &r, &err) < 0) {
		cli_error(&err);
		status = EXIT_FAILURE_IO;
	} else if (sum.problems) {
		status = EXIT_INVALID;
	}
	if (!quiet && status != EXIT_FAILURE_IO) {
		fprintf(r.json ? stderr : stdout, "%lld game%s, %lld checked, %lld positions, %d "
			"reports, %lld tree positions, %lld problem%s", sum.games,
			sum.games == 1 ? "" : "s", sum.checked, sum.positions, sum.tables,
			sum.trees, sum.problems, sum.problems == 1 ? "" : "s");
		if (opt.sample)
			fprintf(r.json ? stderr : stdout, ", seed %llu",
				(unsigned long long)opt.seed);
		fputc('\n', r.json ? stderr : stdout);
	}
	if (cli_flush_stdout() < 0)
		status = EXIT_FAILURE_IO;
	kifu_store_free(st);
	return status;
}
