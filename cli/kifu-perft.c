/*
 * kifu-perft: counts legal move sequences from a game's start position or
 * from the position after a move list, the way chess engines check their
 * move generators. Counts go to stdout, timing to stderr.
 */
#define _DEFAULT_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/game.h"

static const char usage[] =
	"kifu-perft GAME [--variant V] [--first SIDE] [--after MOVES] [--divide] DEPTH";

static void help(void)
{
	printf("usage: %s\n\n"
	       "Prints 'depth D: N' for D = 1..DEPTH: N is the number of legal move\n"
	       "sequences of length D from the start position, or from the position\n"
	       "reached by MOVES (comma-separated; spaces inside a move are part of it).\n"
	       "A position where the game is over has no moves.\n\n"
	       "  --variant V    a variant of GAME (default: its first)\n"
	       "  --first SIDE   the side that moves first, where the game allows a choice\n"
	       "  --after MOVES  start from the position after MOVES\n"
	       "  --divide       for DEPTH, print each first move and its count\n"
	       "  --help, --version\n\n"
	       "Timing (nodes per second) goes to stderr. Games:\n", usage);
	cli_print_games(0);
	exit(EXIT_OK);
}

static void report_speed(int depth, uint64_t nodes, double seconds)
{
	if (seconds > 0)
		fprintf(stderr, "kifu-perft: depth %d: %.3f s, %.1f million nodes/s\n", depth,
			seconds, (double)nodes / seconds / 1e6);
}

static int divide(const struct kifu_game *g, const void *state, int depth)
{
	kifu_move *moves = malloc(sizeof(*moves) * g->max_moves);
	void *child = malloc(g->state_size);
	uint64_t total = 0, n;
	size_t count, i;
	char text[KIFU_MOVE_TEXT_MAX];
	int ret = EXIT_FAILURE_IO;
	double t0 = cli_now();

	if (!moves || !child) {
		cli_errorf("out of memory");
		goto out;
	}
	count = g->legal_moves(state, moves);
	for (i = 0; i < count; i++) {
		memcpy(child, state, g->state_size);
		g->apply(child, moves[i]);
		if (kifu_perft(&n, g, child, depth - 1) < 0) {
			cli_errorf("out of memory");
			goto out;
		}
		g->format_move(state, moves[i], text);
		printf("%s: %llu\n", text, (unsigned long long)n);
		total += n;
	}
	printf("moves: %zu\ntotal: %llu\n", count, (unsigned long long)total);
	report_speed(depth, total, cli_now() - t0);
	ret = EXIT_OK;
out:
	free(moves);
	free(child);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "first", required_argument, NULL, 'f' },
		{ "after", required_argument, NULL, 'a' },
		{ "divide", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *variant = NULL, *first = NULL, *after = NULL;
	const struct kifu_game *g;
	struct kifu_pos *pos = NULL;
	struct kifu_error err;
	int opt, do_divide = 0, depth, d, vi, fi, ret = EXIT_OK;

	cli_init(argv[0]);
	kifu_error_clear(&err);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (opt) {
		case 'v': variant = optarg; break;
		case 'f': first = optarg; break;
		case 'a': after = optarg; break;
		case 'd': do_divide = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (argc - optind != 2)
		cli_usage_error(usage, "expected GAME and DEPTH");
	depth = (int)cli_parse_long(usage, "DEPTH", argv[optind + 1], 1, 64);
	cli_resolve_game(usage, argv[optind], variant, first, &g, &vi, &fi);

	if (kifu_pos_new(&pos, g, vi, fi, &err) < 0) {
		cli_error(&err);
		ret = err.code == KIFU_ENOMEM ? EXIT_FAILURE_IO : EXIT_USAGE;
		goto out;
	}
	if (after && kifu_pos_play_list(pos, after, &err) < 0) {
		cli_errorf("--after: %s", err.message);
		ret = EXIT_INVALID;
		goto out;
	}
	if (do_divide) {
		ret = divide(g, pos->state, depth);
		goto out;
	}
	for (d = 1; d <= depth; d++) {
		uint64_t n;
		double t0 = cli_now();

		if (kifu_perft(&n, g, pos->state, d) < 0) {
			cli_errorf("out of memory");
			ret = EXIT_FAILURE_IO;
			goto out;
		}
		printf("depth %d: %llu\n", d, (unsigned long long)n);
		fflush(stdout);
		report_speed(d, n, cli_now() - t0);
	}
out:
	kifu_pos_free(pos);
	return ret;
}
