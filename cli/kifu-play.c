/*
 * kifu-play: plays games between the built-in players (random, mcts:N) and
 * writes them as format-1 records, one file per game with -o DIR or one
 * YAML stream on stdout. Seats rotate from game to game, every game's
 * seeds come from --seed and the game's number alone, and each record is
 * validated before it is written, so the same command always writes the
 * same valid games. With --levels, one series of mirror games (every side
 * the same SPEC) per level, each exactly the series --players SPEC would
 * play, and with --review each stored game's review kept beside it as
 * kifu-analyse --store keeps it (kifu-stats balance reads both). --names,
 * --event and --date give the records' players, event and dates instead of
 * kifu-play's own, so that a realistic database needs no rewriting.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "play_summary.h"
#include "kifu/analyse.h"
#include "kifu/date.h"
#include "kifu/diag.h"
#include "kifu/game.h"
#include "kifu/player.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/render.h"
#include "kifu/replay.h"
#include "kifu/store.h"

static const char usage[] =
	"kifu-play GAME [--variant V] [--first SIDE] --players SPEC,SPEC[,...] [--games N]\n"
	"                 [--seed S] [--max-plies N] [--names NAME,NAME,...] [--event TEXT]\n"
	"                 [--date DATE] [--quiet] [--progress] [--json] [-o DIR | --db FILE]\n"
	"       kifu-play GAME [--variant V] [--first SIDE] --levels SPEC,SPEC,...\n"
	"                 [--games N] [--seed S] [--max-plies N] [--event TEXT] [--date DATE]\n"
	"                 [--quiet] [--progress] [--json] [-o DIR | --db FILE [--review]]";

/* Most sides a game may have here, and so most SPECs. */
#define MAX_SPECS 16
/* Most levels of --levels. */
#define MAX_LEVELS 64

#define DEFAULT_MAX_PLIES 1000

struct options {
	const struct kifu_game *game;
	int variant, first;
	char *specs[MAX_SPECS]; /* point into specs_text */
	char *specs_text;
	int nspecs;
	long games;
	uint64_t seed;
	long max_plies;
	const char *dir;
	const char *db;
	int quiet;
	int json;           /* the summary as JSON on stdout */
	char *levels[MAX_LEVELS]; /* --levels, pointing into levels_text; nlevels 0 without */
	char *levels_text;
	int nlevels;
	int review;         /* --review: each stored game's review stored too */
	int progress;       /* --progress: the progress line even off a terminal */
	char *names[MAX_SPECS]; /* --names, pointing into names_text; nnames 0 without */
	char *names_text;
	int nnames;
	const char *event;  /* --event, or NULL */
	long date_day;      /* --date: round 1's day (days since 1970-01-01); has_date */
	int has_date;
};

/* What the summary reports besides the match's figures. */
struct tally {
	struct kifu_match match;
	long stored, duplicates;
};

static void help(void)
{
	printf("usage: %s\n\n"
	       "Plays games between built-in players and writes them as format-1 records:\n"
	       "one file per game in DIR with -o (DIR/GAME-VARIANT-00001.yaml, ...),\n"
	       "straight into the database with --db FILE (or, without -o and --db, the\n"
	       "database $KIFU_DB names when it is set), else one YAML stream on stdout.\n"
	       "A game the database already holds is counted as a duplicate, not stored.\n\n"
	       "  --players SPECS  one SPEC per side of GAME, or one for all sides, comma-\n"
	       "                   separated. SPEC: 'random' (uniform over legal moves),\n"
	       "                   'mcts:N' (Monte Carlo tree search, N playouts per move)\n"
	       "                   or 'engine[:N]' (kifu's strongest player: search with a\n"
	       "                   solver and an evaluation per game, N iterations; without\n"
	       "                   N, its default budget)\n"
	       "  --levels SPECS   instead of --players: for each SPEC in turn (a level),\n"
	       "                   --games N mirror games, every side that SPEC, named as\n"
	       "                   --players SPEC names them (kifu-stats balance reads the\n"
	       "                   level from the names); each level's games are the ones\n"
	       "                   --players SPEC would play with the same seed; with -o,\n"
	       "                   files are numbered on across the levels\n"
	       "  --review         with --db and --levels: review each game as it is stored\n"
	       "                   and store the review, as kifu-analyse --store does with\n"
	       "                   its defaults (the engine, 1000 playouts, seed 1); a\n"
	       "                   duplicate game is reviewed again (the same review)\n"
	       "  --variant V      a variant of GAME (default: its first)\n"
	       "  --first SIDE     the side that moves first, where the game allows a choice\n"
	       "  --games N        games to play (default 1; with --levels, per level)\n"
	       "  --seed S         0 to 2^64-1 (default 1): same seed, same games\n"
	       "  --max-plies N    stop a game after N plies and write it as 'result:\n"
	       "                   unfinished' (default %d)\n"
	       "  --names NAMES    the players' names instead of 'SPEC #k', comma-separated:\n"
	       "                   one per SPEC of --players, seated with it as seats\n"
	       "                   rotate (one SPEC for every side: one per side, in the\n"
	       "                   game's side order); names the record reader takes, none\n"
	       "                   empty or given twice\n"
	       "  --event TEXT     the records' event (default 'kifu-play')\n"
	       "  --date DATE      YYYY-MM-DD, the date of round 1; round r is dated DATE\n"
	       "                   + r - 1 days (default: no date)\n"
	       "  -o, --output DIR write one file per game into DIR (created if missing)\n"
	       "  --db FILE        store the games in the database FILE (created if missing),\n"
	       "                   or a PostgreSQL URI (postgresql://...)\n"
	       "  --quiet          no progress line and no summary on stderr\n"
	       "  --progress       the progress line on stderr even when it is not a\n"
	       "                   terminal (a line every 5 seconds at most; also with\n"
	       "                   --quiet)\n"
	       "  --json           the summary as one JSON object on stdout (the games are\n"
	       "                   then written only with -o or --db)\n"
	       "  --help, --version\n\n", usage, DEFAULT_MAX_PLIES);
	/* In parts: ISO C bounds one string literal's length. */
	printf("Game i (from 0) gives side j the SPEC at position (i + j) mod n of the list,\n"
	       "so seats rotate; the player name written is the SPEC and ' #k', k its\n"
	       "1-based position ('mcts:200 #1'), or with one SPEC for all sides the\n"
	       "side's 1-based index in the game's side order, whatever --first says\n"
	       "('random #1' for white, 'random #2' for black): each side is then a\n"
	       "player of its own. A summary goes to stderr: per distinct SPEC (or side)\n"
	       "its games, wins, draws, losses, unfinished games, score (wins and\n"
	       "a 1/sides share of draws, over finished games) and mean CPU time per\n"
	       "move; with two SPECs in a two-sided game, the first one's Elo difference\n"
	       "with its 95%% interval (as cutechess computes it; \"every game won by\n"
	       "SPEC\" when one side won them all). A progress line goes to stderr when\n"
	       "it is a terminal (--progress: always): games, plies, plies\n"
	       "per second and, once a game is played, the time left at the pace of the\n"
	       "games so far (with --levels: the level, and the time left at that level;\n"
	       "other levels play at other strengths). With --levels the summary is one\n"
	       "per level, and --json gives {\"levels\": [one object per level]}.\n\n"
	       "Games:\n");
	cli_print_games(1);
	exit(EXIT_OK);
}

/*
 * Splits the SPECs of option (--players, --levels) into out[0..*n) (at
 * most max, pointing into *text, a copy of list) and checks every SPEC by
 * making a player of it.
 */
static void split_specs(const struct options *o, const char *option, const char *list,
			char **text, char **out, int max, int *n)
{
	struct kifu_error err;
	char *p;
	int k;

	*text = malloc(strlen(list) + 1);
	if (!*text) {
		cli_errorf("out of memory");
		exit(EXIT_FAILURE_IO);
	}
	strcpy(*text, list);
	*n = 0;
	p = *text;
	for (;;) {
		char *comma = strchr(p, ',');

		if (*n == max)
			cli_usage_error(usage, "%s: more than %d %s in '%s'", option, max,
					max == MAX_SPECS ? "players" : "levels", list);
		out[(*n)++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	for (k = 0; k < *n; k++) {
		struct kifu_player *bot = NULL;

		kifu_error_clear(&err);
		if (kifu_player_new(&bot, o->game, out[k], 0, &err) < 0) {
			if (err.code == KIFU_ENOMEM) {
				cli_error(&err);
				exit(EXIT_FAILURE_IO);
			}
			cli_usage_error(usage, "%s: %s", option, err.message);
		}
		kifu_player_free(bot);
	}
}

static void check_sides(const struct options *o)
{
	if (o->game->nsides > MAX_SPECS) {
		cli_errorf("'%s' has %d sides; kifu-play handles up to %d", o->game->name,
			   o->game->nsides, MAX_SPECS);
		exit(EXIT_FAILURE_IO);
	}
}

/* Splits --players and checks every SPEC by making a player of it. */
static void parse_players(struct options *o, const char *text)
{
	check_sides(o);
	split_specs(o, "--players", text, &o->specs_text, o->specs, MAX_SPECS, &o->nspecs);
	if (o->nspecs != 1 && o->nspecs != o->game->nsides)
		cli_usage_error(usage, "--players: '%s' gives %d players; %s needs %d (one per "
				"side) or 1 (for all sides)", text, o->nspecs, o->game->name,
				o->game->nsides);
}

/* Splits --levels: SPECs each given once. */
static void parse_levels(struct options *o, const char *text)
{
	int k, j;

	check_sides(o);
	split_specs(o, "--levels", text, &o->levels_text, o->levels, MAX_LEVELS, &o->nlevels);
	for (k = 0; k < o->nlevels; k++)
		for (j = 0; j < k; j++)
			if (!strcmp(o->levels[k], o->levels[j]))
				cli_usage_error(usage, "--levels: '%s' is given twice", o->levels[k]);
}

/*
 * Whether text (of option, for the player of side or the event) reads back
 * from a record as itself: it is written into a record of o->game and read
 * again by the record reader, so that what the reader refuses in a file
 * (text that is not UTF-8, a scalar past its limit) is refused here, before
 * any game is played. A usage error (exit 2) otherwise.
 */
static void check_text(const struct options *o, const char *option, const char *text, int player)
{
	struct kifu_buf doc = KIFU_BUF_INIT, shown = KIFU_BUF_INIT;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_reader *r = NULL;
	struct kifu_record *rec = NULL;
	struct kifu_error err;
	const char *back = NULL, *why = NULL;
	size_t d;

	kifu_error_clear(&err);
	kifu_buf_printf(&doc, "game: %s\n%s", o->game->name, player ? "players:\n  " : "event: ");
	if (player)
		kifu_buf_printf(&doc, "%s: ", o->game->sides[0]);
	kifu_yaml_put_string(&doc, text, 0);
	kifu_buf_puts(&doc, "\nmoves: []\n");
	if (doc.failed || kifu_reader_open_mem(&r, doc.data, doc.len, option, &err) < 0 ||
	    kifu_reader_next(&rec, &diags, r, &err) < 0) {
		cli_errorf("%s: %s", option, err.message[0] ? err.message : "out of memory");
		exit(EXIT_FAILURE_IO);
	}
	for (d = 0; d < diags.n && !why; d++)
		if (diags.v[d].severity == KIFU_DIAG_ERROR)
			why = diags.v[d].message;
	if (rec && player && rec->nplayers == 1)
		back = rec->players[0].name;
	else if (rec && !player)
		back = rec->event;
	if (!why && (!back || strcmp(back, text)))
		why = "a record would not read it back as written (text that is not UTF-8)";
	if (why) {
		/* the terminal sees the text escaped */
		kifu_buf_escaped(&shown, text);
		cli_usage_error(usage, "%s: '%.60s%s' cannot be %s: %s", option,
				shown.data ? shown.data : "", shown.len > 60 ? "..." : "",
				player ? "a player's name" : "an event", why);
	}
	kifu_record_free(rec);
	kifu_reader_free(r);
	kifu_diags_release(&diags);
	kifu_buf_release(&doc);
	kifu_buf_release(&shown);
}

/*
 * --names: one name per SPEC of --players (with one SPEC for every side,
 * one per side), each a name the record reader takes, none empty or given
 * twice (one player on two seats would be counted as one).
 */
static void parse_names(struct options *o, const char *text)
{
	int n = o->nspecs == 1 ? o->game->nsides : o->nspecs, k, j;
	char *p;

	o->names_text = malloc(strlen(text) + 1);
	if (!o->names_text) {
		cli_errorf("out of memory");
		exit(EXIT_FAILURE_IO);
	}
	strcpy(o->names_text, text);
	for (p = o->names_text;; p++) {
		char *comma = strchr(p, ',');

		if (o->nnames < MAX_SPECS)
			o->names[o->nnames] = p;
		o->nnames++;
		if (!comma)
			break;
		*comma = '\0';
		p = comma;
	}
	if (o->nnames != n && o->nspecs == 1)
		cli_usage_error(usage, "--names: '%s' gives %d name%s; %s needs %d, one per side "
				"(--players gives one SPEC for every side)", text, o->nnames,
				o->nnames == 1 ? "" : "s", o->game->name, n);
	if (o->nnames != n)
		cli_usage_error(usage, "--names: '%s' gives %d name%s; --players gives %d SPECs, "
				"one name each", text, o->nnames, o->nnames == 1 ? "" : "s", n);
	for (k = 0; k < n; k++) {
		if (!o->names[k][0])
			cli_usage_error(usage, "--names: name %d of '%s' is empty", k + 1, text);
		for (j = 0; j < k; j++)
			if (!strcmp(o->names[k], o->names[j]))
				cli_usage_error(usage, "--names: '%s' is given twice", o->names[k]);
		check_text(o, "--names", o->names[k], 1);
	}
}

/* Days since 1970-01-01 of a calendar date, and back (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(long z, long *y, long *m, long *d)
{
	long era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

/* The date of round `round` (from 1) as YYYY-MM-DD: --date's day and round - 1 days. */
static void round_date(char *out, size_t size, const struct options *o, long round)
{
	long y, m, d;

	civil_from_days(o->date_day + round - 1, &y, &m, &d);
	snprintf(out, size, "%04ld-%02ld-%02ld", y, m, d);
}

/*
 * --date: a day (YYYY-MM-DD, a calendar date), round 1's; the last round's
 * (--games) must still be a date of four-digit years.
 */
static void parse_date(struct options *o, const char *text)
{
	int y, m, d, ret = kifu_date_parse(&y, &m, &d, text);
	char last[64];

	if (ret == KIFU_ERANGE)
		cli_usage_error(usage, "--date: invalid date '%s': not a calendar date", text);
	if (ret < 0 || strlen(text) != 10)
		cli_usage_error(usage, "--date: invalid date '%s': expected YYYY-MM-DD (round r is "
				"dated DATE + r - 1 days)", text);
	o->date_day = days_from_civil(y, m, d);
	o->has_date = 1;
	round_date(last, sizeof(last), o, o->games);
	if (strlen(last) != 10)
		cli_usage_error(usage, "--date: round %ld of '%s' would be dated past 9999-12-31",
				o->games, text);
}

/* Where the run stands, for the progress line (cli/progress.c). */
struct progress {
	struct cli_progress line;
	long game, games;  /* the game being played, of how many */
	long long plies;   /* plies of the games before it (of this level) */
	/* With --levels: "SPEC (k/n)", the level being played; its clock starts with it. */
	char level[128];
};

static void progress_show(struct progress *pr, int ply, int end)
{
	struct cli_progress_counts c;

	c.stage = pr->level[0] ? pr->level : NULL;
	c.games = pr->game;
	c.total = pr->games;
	c.plies = pr->plies + ply;
	/* the pace of the games played (of this level: other levels play at other strengths) */
	c.frac = pr->games ? (double)pr->game / (double)pr->games : 0;
	if (end)
		cli_progress_end(&pr->line, &c);
	else
		cli_progress_show(&pr->line, &c);
}

static void progress_ply(void *ctx, int ply)
{
	progress_show(ctx, ply, 0);
}

/*
 * Plays game i into rec (made here; the caller frees it) and tallies its
 * result. Returns 0, or an exit code after printing what failed.
 */
static int play_game(struct kifu_record **out, const struct options *o, long i,
		     struct tally *tally, struct progress *pr)
{
	struct kifu_outcome oc;
	struct kifu_error err;
	struct kifu_play_head head = { NULL, NULL, NULL };
	double cpu[MAX_SPECS] = { 0 };
	long nmoves[MAX_SPECS] = { 0 };
	char date[64];

	kifu_error_clear(&err);
	if (o->nnames)
		head.names = (const char *const *)o->names;
	head.event = o->event;
	if (o->has_date) {
		round_date(date, sizeof(date), o, i + 1);
		head.date = date;
	}
	pr->game = i;
	pr->games = o->games;
	if (i == 0)
		pr->plies = 0;
	if (kifu_play_game(out, &oc, o->game, o->variant, o->first,
			   (const char *const *)o->specs, o->nspecs, i, o->seed, o->max_plies,
			   progress_ply, pr, cpu, nmoves, &head, &err) < 0) {
		if (err.code == KIFU_ENOMEM || !err.message[0])
			cli_errorf("game %ld: %s", i + 1,
				   err.message[0] ? err.message : "out of memory");
		else
			cli_errorf("internal error: game %ld: %s", i + 1, err.message);
		return EXIT_FAILURE_IO;
	}
	kifu_match_add(&tally->match, i, &oc, cpu, nmoves);
	return 0;
}

/*
 * Checks rec the way kifu-validate will, into replay (with canonical
 * texts). A record that does not validate is a bug of ours or of a rules
 * engine, never written or stored.
 */
static int check(struct kifu_replay *replay, const struct kifu_record *rec, long i)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_error err;
	size_t d;
	int ret = EXIT_FAILURE_IO;

	kifu_error_clear(&err);
	if (kifu_record_validate(replay, &diags, rec, KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK,
				 &err) < 0) {
		cli_errorf("game %ld: %s", i + 1, err.message);
		goto out;
	}
	if (diags.errors) {
		for (d = 0; d < diags.n; d++)
			if (diags.v[d].severity == KIFU_DIAG_ERROR)
				break;
		cli_errorf("internal error: game %ld does not validate: %s", i + 1,
			   d < diags.n ? diags.v[d].message : "?");
		goto out;
	}
	ret = 0;
out:
	kifu_diags_release(&diags);
	return ret;
}

/*
 * Reviews stored game id (its replay rp, with texts) with kifu-analyse's
 * defaults and stores the review, outside the batch's write transaction
 * (committed first, begun again after): the review takes long, and other
 * writers should not wait for it.
 */
static int review(struct kifu_store *st, int64_t id, const struct kifu_replay *rp, long i)
{
	struct kifu_analyse_opts opts = { .engine = NULL, .playouts = KIFU_ANALYSE_PLAYOUTS, .seed = 1 };
	struct kifu_ply_review *rv = NULL;
	struct kifu_error err;
	char *best = NULL;
	int ret;

	kifu_error_clear(&err);
	ret = kifu_store_commit(st, &err);
	if (ret == 0)
		ret = kifu_analyse_game(&rv, rp->game, rp->variant, rp->first, rp->moves, rp->nplies,
					&opts, &err);
	if (ret == 0 && rp->nplies)
		ret = kifu_render_review_moves(&best, rp, rv);
	if (ret == 0 && rp->nplies)
		ret = kifu_analyse_store(st, id, rv, rp->nplies, rp->canonical, best, &opts, &err);
	if (ret == 0)
		ret = kifu_store_begin(st, &err);
	if (ret < 0) {
		cli_errorf("game %ld: cannot review: %s", i + 1,
			   err.message[0] ? err.message : kifu_strerror(ret));
		ret = EXIT_FAILURE_IO;
	}
	kifu_analyse_game_free(rv);
	free(best);
	return ret;
}

/*
 * Checks rec (game i) and writes it into doc (with canonical moves from its
 * replay) or, with st, stores it (and with o->review, its review); a game
 * st already holds is counted as a duplicate.
 */
static int keep(struct kifu_buf *doc, struct kifu_store *st, const struct kifu_record *rec,
		long i, struct tally *t, const struct options *o)
{
	int64_t id = 0;
	struct kifu_replay replay = KIFU_REPLAY_INIT;
	struct kifu_error err;
	int ret = check(&replay, rec, i);

	if (ret)
		goto out;
	kifu_error_clear(&err);
	if (!st) {
		kifu_buf_reset(doc);
		if (kifu_record_write(doc, rec, &replay, &err) < 0 || doc->failed) {
			cli_errorf("game %ld: %s", i + 1,
				   err.message[0] ? err.message : "out of memory");
			ret = EXIT_FAILURE_IO;
		}
		goto out;
	}
	ret = kifu_store_game_add(&id, st, rec, &replay, NULL, &err);
	if (ret < 0) {
		cli_error(&err);
		ret = EXIT_FAILURE_IO;
		goto out;
	}
	if (ret == 1)
		t->stored++;
	else
		t->duplicates++;
	ret = o->review ? review(st, id, &replay, i) : 0;
out:
	kifu_replay_release(&replay);
	return ret;
}

static int write_file(const char *path, const struct kifu_buf *doc)
{
	FILE *fp = fopen(path, "w");

	if (fp && fwrite(doc->data, 1, doc->len, fp) == doc->len) {
		if (fclose(fp) == 0)
			return 0;
		fp = NULL;
	}
	cli_errorf("cannot write '%s': %s", path, strerror(errno));
	if (fp)
		fclose(fp);
	return EXIT_FAILURE_IO;
}

/*
 * Plays the series of o->specs into doc, st, or files of o->dir named by
 * file numbers from *file on; 0 or an exit code.
 */
static int play_series(const struct options *o, struct tally *t, struct kifu_store *st,
		       struct kifu_buf *doc, char *path, long *file, struct progress *pr)
{
	struct kifu_error err;
	long i;
	int ret = 0;

	kifu_match_init(&t->match, o->game, (const char *const *)o->specs, o->nspecs);
	for (i = 0; i < o->games; i++) {
		struct kifu_record *rec = NULL;

		ret = play_game(&rec, o, i, t, pr);
		if (!ret) {
			pr->plies += (long long)rec->nturns;
			ret = keep(doc, st, rec, i, t, o);
		}
		kifu_record_free(rec);
		if (ret)
			break;
		if (st) {
			/* commit in batches: an interrupted run keeps what it stored */
			kifu_error_clear(&err);
			if ((i + 1) % 100 == 0 && (kifu_store_commit(st, &err) < 0 ||
						   kifu_store_begin(st, &err) < 0)) {
				cli_error(&err);
				ret = EXIT_FAILURE_IO;
				break;
			}
		} else if (o->dir) {
			sprintf(path, "%s/%s-%s-%05ld.yaml", o->dir, o->game->name,
				o->game->variants[o->variant], ++*file);
			ret = write_file(path, doc);
			if (ret)
				break;
		} else if (!o->json) {
			/* standard output may be the terminal the progress line stands on */
			cli_progress_clear(&pr->line);
			if (fwrite(doc->data, 1, doc->len, stdout) != doc->len || fflush(stdout)) {
				cli_errorf("cannot write the games: %s", strerror(errno));
				ret = EXIT_FAILURE_IO;
				break;
			}
		}
		pr->game = i + 1;
		progress_show(pr, 0, 0);
	}
	return ret;
}

static void summary(const struct options *o, const struct tally *t, struct kifu_store *st)
{
	if (o->json)
		play_summary_json(stdout, o->game, o->variant, (const char *const *)o->specs, o->games,
				  &t->match);
	if (o->quiet)
		return;
	if (o->nlevels)
		fprintf(stderr, "%s: level %s: ", cli_progname(), o->specs[0]);
	else
		fprintf(stderr, "%s: ", cli_progname());
	fprintf(stderr, "%ld game%s: %ld decided, %ld drawn, %ld unfinished\n",
		o->games, o->games == 1 ? "" : "s", t->match.decided,
		t->match.draws, t->match.unfinished);
	if (o->db)
		cli_line(stderr, "%s: stored %ld in '%s', duplicates %ld", cli_progname(),
			 t->stored, st ? kifu_store_path(st) : o->db, t->duplicates);
	play_summary_text(stderr, (const char *const *)o->specs, &t->match);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "first", required_argument, NULL, 'f' },
		{ "players", required_argument, NULL, 'p' },
		{ "games", required_argument, NULL, 'g' },
		{ "seed", required_argument, NULL, 's' },
		{ "max-plies", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "levels", required_argument, NULL, 'l' },
		{ "review", no_argument, NULL, 'r' },
		{ "progress", no_argument, NULL, 'P' },
		{ "names", required_argument, NULL, 'n' },
		{ "event", required_argument, NULL, 'e' },
		{ "date", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *variant = NULL, *first = NULL, *players = NULL, *levels = NULL;
	const char *games = NULL, *seed = NULL, *max_plies = NULL, *names = NULL, *date = NULL;
	struct options o;
	struct tally tally, *tallies = NULL;
	struct progress pr;
	struct kifu_buf doc = KIFU_BUF_INIT;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	char *path = NULL;
	long file = 0;
	int opt, ret = EXIT_OK, k, played = 0;

	cli_init(argv[0]);
	memset(&o, 0, sizeof(o));
	memset(&tally, 0, sizeof(tally));
	memset(&pr, 0, sizeof(pr));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", options, NULL)) != -1) {
		switch (opt) {
		case 'v': variant = optarg; break;
		case 'f': first = optarg; break;
		case 'p': players = optarg; break;
		case 'g': games = optarg; break;
		case 's': seed = optarg; break;
		case 'm': max_plies = optarg; break;
		case 'o': o.dir = optarg; break;
		case 'd': o.db = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'j': o.json = 1; break;
		case 'l': levels = optarg; break;
		case 'r': o.review = 1; break;
		case 'P': o.progress = 1; break;
		case 'n': names = optarg; break;
		case 'e': o.event = optarg; break;
		case 'D': date = optarg; break;
		case 'h': help(); break;
		case 'V': cli_version(); break;
		default:
			cli_option_error(usage, options, argv, opt);
		}
	}
	if (argc - optind != 1)
		cli_usage_error(usage, "%s", argc - optind ? "expected one GAME" : "expected GAME");
	cli_resolve_game(usage, argv[optind], variant, first, &o.game, &o.variant, &o.first);
	if (players && levels)
		cli_usage_error(usage, "--players and --levels exclude each other");
	if (!players && !levels)
		cli_usage_error(usage, "--players or --levels is required");
	if (players)
		parse_players(&o, players);
	else
		parse_levels(&o, levels);
	o.games = games ? cli_parse_long(usage, "--games", games, 1, 100000000L) : 1;
	o.seed = seed ? cli_parse_seed(usage, seed) : 1;
	o.max_plies = max_plies ? cli_parse_long(usage, "--max-plies", max_plies, 1,
						 KIFU_RECORD_MAX_TURNS) : DEFAULT_MAX_PLIES;
	if (names && o.nlevels)
		cli_usage_error(usage, "--names and --levels exclude each other (kifu-stats balance "
				"reads the level from the names --levels writes)");
	if (names)
		parse_names(&o, names);
	if (o.event)
		check_text(&o, "--event", o.event, 0);
	if (date)
		parse_date(&o, date);
	if (o.dir && o.db)
		cli_usage_error(usage, "-o and --db exclude each other");
	if (o.db || (!o.dir && getenv("KIFU_DB")))
		o.db = cli_db_path(o.db);
	if (o.review && !o.nlevels)
		cli_usage_error(usage, "--review needs --levels");
	if (o.review && !o.db)
		cli_usage_error(usage, "--review needs --db (the reviews are stored)");
	kifu_error_clear(&err);
	if (o.db && (kifu_store_open(&st, o.db, 0, &err) < 0 || kifu_store_begin(st, &err) < 0)) {
		cli_error(&err);
		ret = EXIT_FAILURE_IO;
		goto out;
	}
	if (o.dir) {
		if (mkdir(o.dir, 0777) < 0 && errno != EEXIST) {
			cli_errorf("cannot create '%s': %s", o.dir, strerror(errno));
			ret = EXIT_FAILURE_IO;
			goto out;
		}
		path = malloc(strlen(o.dir) + strlen(o.game->name) +
			      strlen(o.game->variants[o.variant]) + 64);
		if (!path) {
			cli_errorf("out of memory");
			ret = EXIT_FAILURE_IO;
			goto out;
		}
	}
	cli_progress_init(&pr.line, o.progress, o.quiet);

	if (!o.nlevels) {
		ret = play_series(&o, &tally, st, &doc, path, &file, &pr);
	} else {
		tallies = calloc((size_t)o.nlevels, sizeof(*tallies));
		if (!tallies) {
			cli_errorf("out of memory");
			ret = EXIT_FAILURE_IO;
			goto out;
		}
		/* One series of mirror games per level: the SPEC alone, for every side. */
		o.nspecs = 1;
		for (k = 0; k < o.nlevels && !ret; k++) {
			o.specs[0] = o.levels[k];
			snprintf(pr.level, sizeof(pr.level), "%.80s (%d/%d)", o.levels[k], k + 1,
				 o.nlevels);
			cli_progress_restart(&pr.line);
			ret = play_series(&o, &tallies[k], st, &doc, path, &file, &pr);
			played = k + 1;
		}
	}
	progress_show(&pr, 0, 1);
	kifu_error_clear(&err);
	if (st && !ret && kifu_store_commit(st, &err) < 0) {
		cli_error(&err);
		ret = EXIT_FAILURE_IO;
	}
	if (!ret && !o.nlevels)
		summary(&o, &tally, st);
	if (!ret && o.nlevels) {
		if (o.json)
			fputs("{\"levels\": [\n", stdout);
		for (k = 0; k < played; k++) {
			o.specs[0] = o.levels[k];
			if (o.json && k)
				fputs(",\n", stdout);
			summary(&o, &tallies[k], st);
		}
		if (o.json)
			fputs("]}\n", stdout);
	}
out:
	if (st && kifu_store_in_transaction(st))
		kifu_store_rollback(st);
	kifu_store_free(st);
	free(path);
	free(tallies);
	free(o.specs_text);
	free(o.levels_text);
	free(o.names_text);
	kifu_buf_release(&doc);
	return ret;
}
