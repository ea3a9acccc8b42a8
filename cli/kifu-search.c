/*
 * kifu-search: lists the stored games that match FILTERS and, with
 * --after MOVES --game G, those that reach the position after MOVES at any
 * ply in any move order, newest first, as a table or a JSON array. The
 * position is replayed through the engine and looked up by its hash
 * (include/kifu/search.h); an illegal move in MOVES is the input being
 * invalid (exit 1), an unknown game, variant or filter value a usage
 * error (exit 2).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kifu/pattern.h"
#include "kifu/search.h"
#include "kifu/stats.h"
#include "kifu/text.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-search [--db FILE] [FILTERS] [--after MOVES --game G [--variant V]\n"
	"       [--symmetric]] [--pattern PATTERN --game G [--variant V] [--symmetric]]\n"
	"       [--limit N] [--offset K] [--json | --csv]";

static void help(void)
{
	printf("usage: %s\n\n"
	       "Lists the stored games matching FILTERS, newest first (by date, then by id,\n"
	       "descending; games without a date last): id, game, variant, players (in turn\n"
	       "order, ? for a side without one), date, result and plies.\n\n"
	       "  --after MOVES  only the games that reach the position after MOVES (a\n"
	       "                 comma-separated move list of game G from its start; spaces\n"
	       "                 inside a move are part of it) at any ply, in any move order;\n"
	       "                 the column ply gives the first ply at which each reaches it.\n"
	       "                 Needs --game G; the variant is --variant V, else G's default.\n"
	       "  --pattern PATTERN  only the games in which some position shows PATTERN,\n"
	       "                 comma-separated CELL=TOKEN items: TOKEN as kifu-export --to\n"
	       "                 text writes the cell (w3, Bk, r6), or . (empty), + (not\n"
	       "                 empty), * (anything), or a side's letter and + (any piece of\n"
	       "                 that side: w+, Y+); ply gives the first ply showing it. Needs\n"
	       "                 --game G, and --variant V where G has several.\n"
	       "  --symmetric    with --after or --pattern: also the games that reach a\n"
	       "                 position one of the game's board symmetries maps onto it (or\n"
	       "                 show an image of the pattern; its page in the spec says\n"
	       "                 which symmetries); ply is the first reaching any of them\n"
	       "  --csv          the same as csv: id, game, variant, a column per side (the\n"
	       "                 player's name), date, result, plies (and ply); RFC 4180\n"
	       "                 quoting, CRLF line ends; a cell that starts with = + - @ ',\n"
	       "                 a tab or a CR gets a ' before it, so that no spreadsheet\n"
	       "                 runs it as a formula (kifu-import takes it off again)\n"
	       "  --limit N      at most N games (N >= 1; default: all)\n"
	       "  --offset K     skip the first K games (K >= 0): --limit 100 --offset 100 is\n"
	       "                 the second page of 100; past the end lists nothing\n"
	       "  --json         a JSON array of objects {id, game, variant, players (an object\n"
	       "                 side -> name), date (null when unknown), result, plies, and ply\n"
	       "                 with --after or --pattern}\n"
	       "  FILTERS        --game G, --variant V, --player NAME (any side; --as SIDE: as\n"
	       "                 that side only), --event TEXT,\n"
	       "                 --since DATE, --until DATE, --termination T (rules,\n"
	       "                 resignation, timeout, agreement or abandoned), --level L\n"
	       "                 (kifu-stats balance's level: a kifu-play SPEC every side\n"
	       "                 played, or players). Exact matches;\n"
	       "                 --since and --until are inclusive, a partial date covering\n"
	       "                 its whole period (--until 2024-06: to 30 June; a record's\n"
	       "                 2024-06 counts as 1 June), and leave out games without a\n"
	       "                 date.\n"
	       "  --db FILE      the database (default $KIFU_DB, else kifu.db): a SQLite file\n"
	       "                 or a PostgreSQL URI (postgresql://...)\n"
	       "  --help, --version\n\n"
	       "The table fits 100 columns: when it would not, each name of a long\n"
	       "players cell is shortened to its share, ending in an ellipsis (--json keeps\n"
	       "every name whole). No match prints an empty table (or []) and exits 0.\n"
	       "Exit status: 0 success, 1 an illegal move in MOVES, 2 usage error, 3 I/O or\n"
	       "database error.\n",
	       usage);
	exit(EXIT_OK);
}

/* The table's width when it holds games of several games (kifu-stats' tables fit as much). */
#define TABLE_COLUMNS 100
/* A shortened players cell keeps at least this much. */
#define PLAYERS_MIN 24
#define MAX_SIDES 16

/*
 * "name - name" in turn order, ? for a side without a player, appended to
 * b; within budget columns (0: no limit), each name shortened to a fair
 * share of them (the short ones keep all of theirs) and ending in an
 * ellipsis (U+2026).
 */
static void players_text(struct kifu_buf *b, struct kifu_buf *scratch, const struct kifu_game *g,
			 const struct kifu_search_hit *h, size_t budget)
{
	struct kifu_buf esc = *scratch;  /* (its memory reused from row to row) */
	size_t i, start[MAX_SIDES + 1], w[MAX_SIDES], cap = 0, total, seps;
	int s, n = g ? (g->nsides < MAX_SIDES ? g->nsides : MAX_SIDES) : 0;

	kifu_buf_reset(&esc);
	/* A name is a stranger's text: escaped for the terminal. */
	for (s = 0; s < n; s++) {
		const char *name = "?";

		for (i = 0; i < h->nplayers; i++)
			if (!strcmp(h->players[i].side, g->sides[s]))
				name = h->players[i].name;
		start[s] = esc.len;
		kifu_buf_escaped(&esc, name);
		w[s] = kifu_text_width(esc.data + start[s], esc.len - start[s]);
	}
	start[n] = esc.len;
	seps = n > 1 ? 3 * (size_t)(n - 1) : 0;
	for (total = seps, s = 0; s < n; s++)
		total += w[s];
	if (budget && total > budget) {
		/* The largest share every name may have, the shorter ones keeping theirs. */
		for (;;) {
			size_t sum = seps;

			for (s = 0; s < n; s++)
				sum += w[s] < cap + 1 ? w[s] : cap + 1;
			if (sum > budget)
				break;
			cap++;
		}
		if (cap < 2)
			cap = 2;
	} else {
		cap = (size_t)-1;
	}
	for (s = 0; s < n; s++) {
		const char *p = esc.data + start[s];
		size_t len = start[s + 1] - start[s], k, cut;

		kifu_buf_puts(b, s ? " - " : "");
		if (w[s] <= cap) {
			kifu_buf_add(b, p, len);
			continue;
		}
		/* cap - 1 code points, then the mark */
		for (cut = 0, k = 0; cut < len; cut++)
			if ((((unsigned char)p[cut] & 0xc0) != 0x80) && k++ == cap - 1)
				break;
		/* "Chen…", not "Chen …" */
		while (cut > 0 && p[cut - 1] == ' ')
			cut--;
		kifu_buf_add(b, p, cut);
		kifu_buf_puts(b, "\u2026");
	}
	*scratch = esc;
}

#define NCOLS 8

/*
 * Appends s escaped for the terminal (the database is untrusted input
 * too), cut at 63 bytes as a cell of the table always was, unless whole.
 */
static void cell_text(struct kifu_buf *b, const char *s, int whole)
{
	size_t start = b->len;

	kifu_buf_escaped(b, s);
	if (!whole && b->len - start > 63)
		b->len = start + 63;
}

/*
 * The table, its players shortened when it would be wider than
 * TABLE_COLUMNS: every cell written once into one buffer (its end in
 * ends[]; the players' cells in their own), the widths taken on the way;
 * when the table is too wide with its players whole, the players' cells
 * alone are made again within their share of the columns; then printed
 * padded.
 */
static void print_table(const struct kifu_search_result *res, int with_ply)
{
	static const char *const heads[NCOLS] = { "id", "game", "variant", "players", "date",
						  "result", "plies", "ply" };
	static const int right[NCOLS] = { 1, 0, 0, 0, 0, 0, 1, 1 };
	size_t width[NCOLS], i, n = kifu_search_count(res), *ends, *widths, *pends, total;
	size_t budget = 0;
	/* the players' cells apart (ptext, pends), to be made again shorter alone */
	struct kifu_buf text = KIFU_BUF_INIT, line = KIFU_BUF_INIT, scratch = KIFU_BUF_INIT;
	struct kifu_buf ptext = KIFU_BUF_INIT;
	const struct kifu_game *g = NULL;
	int c, ncols = with_ply ? NCOLS : NCOLS - 1;

	/* each cell's end in text and its width, taken once */
	ends = malloc((n + 1) * NCOLS * sizeof(*ends));
	widths = malloc((n + 1) * NCOLS * sizeof(*widths));
	pends = malloc((n + 1) * sizeof(*pends));
	if (!ends || !widths || !pends) {
		cli_errorf("out of memory");
		exit(EXIT_FAILURE_IO);
	}
	for (c = 0; c < NCOLS; c++) {
		kifu_buf_puts(c == 3 ? &ptext : &text, heads[c]);
		ends[c] = text.len;
		width[c] = widths[c] = strlen(heads[c]);
	}
	pends[0] = ptext.len;
	for (i = 0; i < n; i++) {
		const struct kifu_search_hit *h = kifu_search_hit(res, i);
		size_t *e = ends + (i + 1) * NCOLS, from = text.len;

		if (!g || strcmp(g->name, h->game) != 0)
			g = kifu_game_find(h->game);
		for (c = 0; c < NCOLS; c++) {
			switch (c) {
			case 0: kifu_buf_int(&text, h->id); break;
			case 1: cell_text(&text, h->game, 0); break;
			case 2: cell_text(&text, h->variant, 0); break;
			case 3: players_text(&ptext, &scratch, g, h, budget); break;
			case 4: cell_text(&text, h->date ? h->date : "-", 0); break;
			case 5: cell_text(&text, h->result, 0); break;
			case 6: kifu_buf_int(&text, h->plies); break;
			default: kifu_buf_int(&text, h->ply); break;
			}
			e[c] = text.len;
			if (c == 3) {
				pends[i + 1] = ptext.len;
				widths[(i + 1) * NCOLS + c] = kifu_text_width(ptext.data + pends[i],
								     pends[i + 1] - pends[i]);
			} else
				widths[(i + 1) * NCOLS + c] = kifu_text_width(text.data + from, e[c] - from);
			if (c < ncols && widths[(i + 1) * NCOLS + c] > width[c])
				width[c] = widths[(i + 1) * NCOLS + c];
			from = e[c];
		}
	}
	for (total = 0, c = 0; c < ncols; c++)
		total += width[c] + (c ? 2 : 0);
	if (total > TABLE_COLUMNS && width[3] > PLAYERS_MIN) {
		budget = width[3] - (total - TABLE_COLUMNS);
		if (budget < PLAYERS_MIN)
			budget = PLAYERS_MIN;
		/* the players again, shortened (the other cells stay) */
		kifu_buf_reset(&ptext);
		kifu_buf_puts(&ptext, heads[3]);
		width[3] = strlen(heads[3]);
		for (i = 0, g = NULL; i < n; i++) {
			const struct kifu_search_hit *h = kifu_search_hit(res, i);
			size_t *w = &widths[(i + 1) * NCOLS + 3];

			if (!g || strcmp(g->name, h->game) != 0)
				g = kifu_game_find(h->game);
			players_text(&ptext, &scratch, g, h, budget);
			pends[i + 1] = ptext.len;
			*w = kifu_text_width(ptext.data + pends[i], pends[i + 1] - pends[i]);
			if (*w > width[3])
				width[3] = *w;
		}
	}
	kifu_buf_release(&scratch);
	if (text.failed || ptext.failed) {
		cli_errorf("out of memory");
		exit(EXIT_FAILURE_IO);
	}
	for (i = 0; i <= n; i++) {
		size_t from = i ? ends[i * NCOLS - 1] : 0;

		size_t room = 1;
		char *p;

		/* the row's room at once, then its cells copied in (no call per cell) */
		for (c = 0; c < ncols; c++)
			room += width[c] + 2 + (ends[i * NCOLS + c] - (c || i ? ends[i * NCOLS + c - 1] : 0));
		room += pends[i] - (i ? pends[i - 1] : 0);
		if (kifu_buf_reserve(&line, room) < 0) {
			cli_errorf("out of memory");
			exit(EXIT_FAILURE_IO);
		}
		p = line.data + line.len;
		for (c = 0; c < ncols; c++) {
			const char *s = text.data + from;
			size_t len = ends[i * NCOLS + c] - from, w = widths[i * NCOLS + c];

			if (c == 3) {
				s = ptext.data + (i ? pends[i - 1] : 0);
				len = pends[i] - (i ? pends[i - 1] : 0);
			}
			if (right[c]) {
				memset(p, ' ', width[c] - w);
				p += width[c] - w;
			}
			memcpy(p, s, len);
			p += len;
			if (!right[c] && c != ncols - 1) {
				memset(p, ' ', width[c] - w);
				p += width[c] - w;
			}
			if (c != ncols - 1) {
				memcpy(p, "  ", 2);
				p += 2;
			}
			from = ends[i * NCOLS + c];
		}
		*p++ = '\n';
		line.len = (size_t)(p - line.data);
		line.data[line.len] = '\0';
		/* Written in blocks: one call per row costs more than the row. */
		if (line.len >= 65536 || i == n) {
			fwrite(line.data, 1, line.len, stdout);
			kifu_buf_reset(&line);
		}
	}
	free(ends);
	free(widths);
	free(pends);
	kifu_buf_release(&line);
	kifu_buf_release(&text);
	kifu_buf_release(&ptext);
}

/*
 * The pattern of --pattern for f's game and variant (a usage error when f
 * names no game, or no variant of a game that has several, or the pattern
 * does not parse); f->variant is set to the variant searched.
 */
static struct kifu_pattern *parse_pattern(struct kifu_filter *f, const char *text, int symmetric)
{
	struct kifu_pattern *p;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_search_pattern_prepare(&p, f, text, symmetric, &err) < 0) {
		if (err.code == KIFU_ENOMEM) {
			cli_errorf("--pattern: %s", err.message);
			exit(EXIT_FAILURE_IO);
		}
		cli_usage_error(usage, "%s", err.message);
	}
	return p;
}

int main(int argc, char **argv)
{
	enum { O_DB = 256, O_AFTER, O_JSON, O_SYMM, O_PATTERN, O_LIMIT, O_OFFSET, O_CSV };
	static const struct option options[] = {
		{ "db", required_argument, NULL, O_DB },
		CLI_FILTER_OPTIONS,
		{ "after", required_argument, NULL, O_AFTER },
		{ "json", no_argument, NULL, O_JSON },
		{ "csv", no_argument, NULL, O_CSV },
		{ "symmetric", no_argument, NULL, O_SYMM },
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "offset", required_argument, NULL, O_OFFSET },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kifu_search_result *res = NULL;
	struct kifu_store *st = NULL;
	struct kifu_filter f;
	char *spelling = NULL; /* --player as stored */
	int matched = 0;       /* kifu_stats_match_player's: KIFU_ENOTFOUND, no such player */
	struct kifu_error err;
	const char *db = NULL, *after = NULL, *pattern_text = NULL;
	struct kifu_pattern *pattern = NULL;
	uint64_t hash, orient[KIFU_GAME_SYMMETRIES_MAX];
	int norient = 0;
	int opt, json = 0, status = EXIT_OK, symmetric = 0, paged = 0;
	long limit = 0, offset = 0;

	cli_init(argv[0]);
	memset(&f, 0, sizeof(f));
	kifu_error_clear(&err);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (cli_filter_option(&f, opt, optarg))
			continue;
		switch (opt) {
		case O_DB: db = optarg; break;
		case O_AFTER: after = optarg; break;
		case O_JSON: json = 1; break;
		case O_CSV: json = 2; break;
		case O_SYMM: symmetric = 1; break;
		case O_PATTERN: pattern_text = optarg; break;
		case O_LIMIT:
		case O_OFFSET:
			if (kifu_stats_parse_count(opt == O_LIMIT ? &limit : &offset,
						   opt == O_LIMIT ? "--limit" : "--offset", optarg,
						   opt == O_LIMIT ? 1 : 0, &err) < 0)
				cli_usage_error(usage, "%s", err.message);
			paged = 1;
			break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (optind < argc)
		cli_usage_error(usage, "unexpected argument '%s'", argv[optind]);
	if (symmetric && !after && !pattern_text)
		cli_usage_error(usage, "--symmetric applies to --after or --pattern");
	if (after && pattern_text)
		cli_usage_error(usage, "--after and --pattern cannot be combined");
	if (pattern_text)
		pattern = parse_pattern(&f, pattern_text, symmetric);
	if (after && !f.game)
		cli_usage_error(usage, "--after needs --game G (the game MOVES belong to)");
	cli_filter_check(usage, &f);
	if (after) {
		const struct kifu_game *g;
		int variant, first;

		cli_resolve_game(usage, f.game, f.variant, NULL, &g, &variant, &first);
		/* The position belongs to one variant: the default one unless named. */
		f.variant = g->variants[variant];
		if ((symmetric ? kifu_search_position_canonical(&hash, g, variant, after, &err)
			       : kifu_search_position(&hash, g, variant, after, &err)) < 0 ||
		    (symmetric && kifu_search_position_orientations(orient, &norient, g, variant,
								    after, &err) < 0)) {
			cli_errorf("--after: %s", err.message);
			return err.code == KIFU_ENOMEM ? EXIT_FAILURE_IO : EXIT_INVALID;
		}
	}

	db = cli_db_path(db);
	/*
	 * A page (--limit) is read alone where the store can; a pattern's, or
	 * an offset alone, is cut. The file is read once, not mapped, but for
	 * a pattern search (unmeasured: kept as it was).
	 */
	if (kifu_store_open(&st, db, KIFU_STORE_READ | (pattern ? 0 : KIFU_STORE_READ_ONCE),
			    &err) < 0 ||
	    (matched = kifu_stats_match_player(&spelling, &f, st, &err)) < 0 ||
	    (limit && !pattern
	     ? kifu_search_games_page(&res, st, &f, after ? &hash : NULL, symmetric,
				      symmetric && after ? orient : NULL, norient, (size_t)offset,
				      (size_t)limit, &err)
	     : symmetric && after
	     ? kifu_search_games_oriented(&res, st, &f, &hash, orient, norient, &err)
	     : pattern ? kifu_search_games_pattern(&res, st, &f, pattern, &err)
	     : kifu_search_games_symmetric(&res, st, &f, after ? &hash : NULL, symmetric, &err)) < 0) {
		cli_error(&err);
		/* no such player is a question answered (exit 1); no database is not */
		status = matched == KIFU_ENOTFOUND ? EXIT_INVALID : EXIT_FAILURE_IO;
		goto out;
	}
	if (paged && (pattern || !limit))
		kifu_search_result_window(res, (size_t)offset, (size_t)limit);
	if (json) {
		struct kifu_buf b = KIFU_BUF_INIT;

		if ((json == 2 ? kifu_search_csv : kifu_search_json)(&b, res, after || pattern) < 0) {
			cli_errorf("out of memory");
			status = EXIT_FAILURE_IO;
		} else {
			fwrite(b.data, 1, b.len, stdout);
		}
		kifu_buf_release(&b);
	} else
		print_table(res, after || pattern);
	if (cli_flush_stdout() < 0) {
		status = EXIT_FAILURE_IO;
	}
out:
	kifu_search_result_free(res);
	kifu_store_free(st);
	kifu_pattern_free(pattern);
	free(spelling);
	return status;
}
