/*
 * kifu-serve: the database in a browser. A local web server, read-only,
 * with the JSON API of the tools' json and the pages of lib/render (see
 * include/kifu/serve.h); this file reads the options, says where it
 * listens, logs the requests to stderr and stops on SIGINT or SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/serve.h"

static const char usage[] =
	"kifu-serve [--db DB] [--listen ADDR:PORT] [--threads N] [--quiet]";

static void help(void)
{
	printf("usage: %s\n\n"
	       "Serves the database, read-only, to a browser: the database at a glance (/),\n"
	       "the explorer (/explore/GAME/VARIANT) and its pattern search\n"
	       "(/pattern/GAME/VARIANT), a game's replay (/game/ID), a player (/player/NAME),\n"
	       "every game (/games), the balance report for game designers (/balance?FILTERS,\n"
	       "kifu-stats balance with its chart and a link per level to the explorer of its\n"
	       "games), and a JSON API whose answers are the tools' json:\n"
	       "  /api/tree?game=G&variant=V&after=MOVES&symmetric=1&min_games=K&FILTERS\n"
	       "                      kifu-stats tree --format json\n"
	       "  /api/search?game=G&variant=V&after=MOVES&symmetric=1&FILTERS\n"
	       "                      &limit=N&offset=K\n"
	       "                      (pattern=PATTERN instead of after: --pattern)\n"
	       "                      kifu-search --json --limit N (100) --offset K, a Link\n"
	       "                      rel=\"next\" header while more games follow\n"
	       "  /api/stats/REPORT?FILTERS (summary, openings, players, lengths, balance,\n"
	       "                      ...; openings also depth (at most 10), min_games,\n"
	       "                      by_position, symmetric)\n"
	       "                      kifu-stats REPORT --format json\n"
	       "  /api/game/ID        kifu-export --id ID --to json\n"
	       "format=csv on tree, search, stats and game: the tool's csv (text/csv), a '\n"
	       "before each cell that starts with = + - @ ', a tab or a CR (no formulas).\n"
	       "FILTERS are the tools' (player with as=SIDE, event, since, until, termination,\n"
	       "level, game, variant). A bad parameter is 400 with {\"error\": MESSAGE}, the\n"
	       "tool's message; an unknown game id 404; a method other than GET or HEAD 405.\n"
	       "A page's bad filter (the explorer's, the pattern search's, /games',\n"
	       "/balance') is 400 with that page: its form kept, the field marked, why in\n"
	       "words. The pattern search takes the explorer's filters and keeps them.\n"
	       "The Host header must be ADDR:PORT, localhost:PORT, 127.0.0.1:PORT or\n"
	       "[::1]:PORT (else 421).\n\n"
	       "Options:\n"
	       "  --db DB            the database (default $KIFU_DB, else kifu.db): a SQLite\n"
	       "                     file or a PostgreSQL URI; never created, migrated or\n"
	       "                     written (PostgreSQL sessions are read-only)\n"
	       "  --listen ADDR:PORT where to listen (default 127.0.0.1:8080; [ADDR]:PORT for\n"
	       "                     IPv6); port 0 picks a free one. An address other than\n"
	       "                     loopback is said on stderr\n"
	       "  --threads N        worker threads, each with its own database connection\n"
	       "                     (default 4)\n"
	       "  --quiet            no line per request on stderr\n"
	       "  --help, --version\n\n"
	       "Once it listens it prints \"serving DB at http://ADDR:PORT/\" on stdout; SIGINT or\n"
	       "SIGTERM stops it. Exit status: 0 stopped by a signal, 2 usage error, 3 the\n"
	       "database or the address could not be used.\n",
	       usage);
	exit(EXIT_OK);
}

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	pthread_mutex_lock(&log_lock);
	cli_line(stderr, "%s", line);
	pthread_mutex_unlock(&log_lock);
}

/* ADDR:PORT or [ADDR]:PORT into addr (size bytes) and *port; exits 2 when it is neither. */
static void parse_listen(char *addr, size_t size, int *port, const char *text)
{
	const char *colon = strrchr(text, ':'), *a = text;
	size_t n;
	long p;

	if (!colon || cli_whole_number(&p, colon + 1, 0, 65535) < 0)
		cli_usage_error(usage, "--listen expects ADDR:PORT (a port from 0 to 65535), not '%s'",
				text);
	n = (size_t)(colon - text);
	if (n >= 2 && text[0] == '[' && text[n - 1] == ']') {
		a = text + 1;
		n -= 2;
	}
	if (n == 0 || n >= size)
		cli_usage_error(usage, "--listen expects ADDR:PORT, not '%s'", text);
	memcpy(addr, a, n);
	addr[n] = '\0';
	*port = (int)p;
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_LISTEN, O_THREADS, O_QUIET };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		{ "listen", required_argument, NULL, O_LISTEN },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "quiet", no_argument, NULL, O_QUIET },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kifu_serve_options o = KIFU_SERVE_OPTIONS_INIT;
	struct kifu_server *srv = NULL;
	struct kifu_error err;
	char addr[64] = "127.0.0.1";
	sigset_t sigs;
	int opt, sig = 0, quiet = 0;

	cli_init(argv[0]);
	kifu_error_clear(&err);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		switch (opt) {
		case O_DB: o.db = optarg; break;
		case O_LISTEN: parse_listen(addr, sizeof(addr), &o.port, optarg); break;
		case O_THREADS: o.threads = (int)cli_parse_long(usage, "--threads", optarg, 1, 256); break;
		case O_QUIET: quiet = 1; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	o.db = cli_db_path(o.db);
	o.address = addr;
	if (!quiet)
		o.log = log_line;
	/* The signals wait for sigwait here; the server's threads never take them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (kifu_serve_start(&srv, &o, &err) < 0) {
		cli_error(&err);
		return err.code == KIFU_EPARSE ? EXIT_USAGE : EXIT_FAILURE_IO;
	}
	if (strcmp(addr, "127.0.0.1") != 0 && strcmp(addr, "::1") != 0 &&
	    strncmp(addr, "127.", 4) != 0)
		cli_line(stderr, "%s: warning: listening on %s, not on loopback: other machines can "
			 "reach it", cli_progname(), addr);
	cli_line(stdout, "serving %s at http://%s%s%s:%d/", o.db, strchr(addr, ':') ? "[" : "",
		 addr, strchr(addr, ':') ? "]" : "", kifu_serve_port(srv));
	if (cli_flush_stdout() < 0) {
		kifu_serve_stop(srv);
		return EXIT_FAILURE_IO;
	}
	while (sigwait(&sigs, &sig) != 0)
		;
	kifu_serve_stop(srv);
	return EXIT_OK;
}
