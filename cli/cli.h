/*
 * Helpers shared by the command-line tools: the program name, exit codes of
 * CLI.md, and turning a struct kifu_error into `file:line:col: error: ...`.
 */
#ifndef KIFU_CLI_H
#define KIFU_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/format.h"
#include "kifu/pipeline.h"
#include "kifu/game.h"
#include "kifu/record.h"
#include "kifu/store.h"

#define KIFU_VERSION "0.1.0"

enum {
	EXIT_OK = 0,      /* success */
	EXIT_INVALID = 1, /* input read but invalid, or a check failed */
	EXIT_USAGE = 2,   /* usage error */
	EXIT_FAILURE_IO = 3 /* I/O, database or internal error */
};

/* Sets the program name used in messages (basename of argv[0]). */
void cli_init(const char *argv0);
const char *cli_progname(void);

/* Prints "PROG: error: MESSAGE" (printf-style) to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Writes the text of fmt and a line break to fp, the text with
 * kifu_buf_escaped's escapes: for lines that name files, members or
 * databases (every error line goes through it).
 */
void cli_line(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints err as "SOURCE:LINE:COL: error: MESSAGE", or "PROG: error: MESSAGE" without a source. */
void cli_error(const struct kifu_error *err);

/* Prints a usage error and the usage line, and exits 2. */
void cli_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * The usage error for what getopt_long returned as opt for argv[optind - 1]
 * (the option string must start with ':' so that a missing value is ':'):
 * "option '--after' needs a value", "option '--divide' takes no value", or
 * "unknown option '--aftr' (did you mean '--after'?)". Exits 2.
 */
void cli_option_error(const char *usage, const struct option *options, char **argv, int opt)
	__attribute__((noreturn));

/* Usage errors (exit 2) for an unknown game (listing the known ones) or variant (of g, or any). */
void cli_unknown_game(const char *usage, const char *name) __attribute__((noreturn));
void cli_unknown_variant(const char *usage, const char *name, const struct kifu_game *g)
	__attribute__((noreturn));

/*
 * Flushes standard output; on a write error, says so once ("cannot write
 * to standard output") and returns -1. At exit every tool checks it again
 * (and its fclose), and a failure there makes the exit status 3.
 */
int cli_flush_stdout(void);

/* strerror(e) (EIO's for 0) with a lower-case first letter, in buf: for "cannot ...: why". */
const char *cli_errno_text(char *buf, size_t size, int e);

/*
 * b written to DIR/NAME.EXT (dir with or without its closing slash), the
 * one file per game of -o DIR/: 0, or -1 with "cannot write 'PATH': why"
 * said.
 */
int cli_write_in_dir(const char *dir, const char *name, const char *ext, const struct kifu_buf *b);

/*
 * Whether text is a whole number from min to max, in decimal digits alone
 * (no sign, no spaces): 0 with *v set, else -1 (*v untouched). For options
 * whose usage error says more than cli_parse_long's.
 */
int cli_whole_number(long *v, const char *text, long min, long max);

/*
 * The value of option `name` (or operand: "DEPTH"), a whole number from min
 * to max, else the usage error (exit 2) "NAME must be a whole number from
 * MIN to MAX, not 'TEXT'".
 */
long cli_parse_long(const char *usage, const char *name, const char *text, long min, long max);

/* --seed S: 0 to 2^64-1, else a usage error (exit 2). */
uint64_t cli_parse_seed(const char *usage, const char *text);

/* Seconds on the monotonic clock, for timings and progress bars. */
double cli_now(void);

/*
 * Prints the games for --help, one a line: "  NAME  variants: V (default) ...",
 * with "sides: S ...; " before the variants when `sides`.
 */
void cli_print_games(int sides);

/*
 * Prints the text of fmt on stdout as one paragraph of lines of at most
 * width columns, broken at spaces (for --help: a paragraph holding a list
 * whose length varies, as the input patterns).
 */
void cli_print_wrapped(int width, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG (kifu) VERSION" and exits 0. */
void cli_version(void) __attribute__((noreturn));

/*
 * Resolves GAME, --variant V (NULL: the default) and --first SIDE (NULL: the
 * game's first side) to indexes; prints a usage error and exits 2 on
 * unknown names.
 */
void cli_resolve_game(const char *usage, const char *game_name, const char *variant,
		      const char *first, const struct kifu_game **game, int *variant_index,
		      int *first_index);

/*
 * Writes s to fp as a JSON string, quotes included: ", \\ and control
 * characters escaped, bytes that are not UTF-8 written as U+FFFD.
 */
void cli_json_string(FILE *fp, const char *s);


/*
 * --from FORMAT: the format called name, or a usage error (exit 2) naming
 * the known ones.
 */
const struct kifu_format *cli_format_option(const char *usage, const char *name);

/*
 * Prints a pipeline item that is not a record (an input that failed, a
 * note on the inputs) as "PROG: error: ..." or "PROG: warning: ...", and
 * returns the exit status it calls for: EXIT_FAILURE_IO for an input that
 * could not be read, EXIT_INVALID for one refused by a limit (an archive
 * member expanding too far), EXIT_OK for a warning.
 */
int cli_print_item(const struct kifu_item *it, int quiet);

/* Prints the note on archive members passed over, when there were any. */
void cli_print_skipped(const struct kifu_pipeline_summary *sum, int quiet);

/* Prints a diagnostic as "FILE:LINE:COL: error: MESSAGE" (or "warning:") to fp. */
void cli_print_diag(FILE *fp, const char *file, const struct kifu_diag *d);

/*
 * The database to use: --db's value when given, else $KIFU_DB when set,
 * else "kifu.db". An empty name (--db '', KIFU_DB=) is a usage error (exit 2).
 */
const char *cli_db_path(const char *db_option);

/* Long-option codes of the FILTERS of CLI.md, shared by the tools that select stored games. */
enum {
	CLI_OPT_GAME = 0x1000,
	CLI_OPT_VARIANT,
	CLI_OPT_PLAYER,
	CLI_OPT_EVENT,
	CLI_OPT_SINCE,
	CLI_OPT_UNTIL,
	CLI_OPT_TERMINATION,
	CLI_OPT_AS,
	CLI_OPT_LEVEL
};

/* Entries for a getopt_long table (the tool includes <getopt.h>). */
#define CLI_FILTER_OPTIONS \
	{ "game", required_argument, NULL, CLI_OPT_GAME }, \
	{ "variant", required_argument, NULL, CLI_OPT_VARIANT }, \
	{ "player", required_argument, NULL, CLI_OPT_PLAYER }, \
	{ "event", required_argument, NULL, CLI_OPT_EVENT }, \
	{ "since", required_argument, NULL, CLI_OPT_SINCE }, \
	{ "until", required_argument, NULL, CLI_OPT_UNTIL }, \
	{ "termination", required_argument, NULL, CLI_OPT_TERMINATION }, \
	{ "as", required_argument, NULL, CLI_OPT_AS }, \
	{ "level", required_argument, NULL, CLI_OPT_LEVEL }

/* Stores the FILTERS option opt (a CLI_OPT_* code) with its argument in f; 1 when it was one, else 0. */
int cli_filter_option(struct kifu_filter *f, int opt, const char *arg);

/*
 * Usage errors (exit 2) for filters that would select nothing by mistake:
 * an unknown game, variant or termination, or a date that is not one.
 */
void cli_filter_check(const char *usage, const struct kifu_filter *f);

/* ---- the progress line of long runs (cli/progress.c) ---- */

struct cli_progress {
	int on;          /* shown at all: stderr is a terminal (and not --quiet), or --progress */
	int lines;       /* off a terminal: whole lines, for a log */
	int shown_any;   /* a redrawn line stands on the terminal */
	double started;  /* when the work (or its stage) began: the rate and the ETA count from it */
	double shown;    /* when a line was last shown */
	long last_games; /* the games the last line said */
};

/* Where the work stands. */
struct cli_progress_counts {
	const char *stage; /* said first ("mcts:4 (2/3)"), or NULL */
	long games;        /* games done */
	long total;        /* of how many (0: not known) */
	long long plies;   /* plies done (the rate counts them), or -1 (the rate counts games) */
	double frac;       /* share of the work done, for the ETA (0 or less: none shown) */
};

/*
 * Starts the clock; shown when force (--progress) or stderr is a terminal
 * and not quiet.
 */
void cli_progress_init(struct cli_progress *p, int force, int quiet);
/* The clock started again: a new stage, whose rate and ETA are its own. */
void cli_progress_restart(struct cli_progress *p);
/* "PROG: [STAGE: ]GAMES[, PLIES], RATE[, PCT%, ETA]", when it is time for one. */
void cli_progress_show(struct cli_progress *p, const struct cli_progress_counts *c);
/*
 * A long unit of work done (a game reviewed): a terminal's line redrawn at
 * once, however soon after the last; a log keeps its pace.
 */
void cli_progress_step(struct cli_progress *p, const struct cli_progress_counts *c);
/* Clears a terminal's line (before a diagnostic or a summary). */
void cli_progress_clear(struct cli_progress *p);
/* Clears the line on the terminal, whichever shows it: every message on stderr goes first. */
void cli_progress_clear_any(void);
/* The end: a log gets the last figures c (may be NULL), a terminal's line is cleared. */
void cli_progress_end(struct cli_progress *p, const struct cli_progress_counts *c);
/* "PROG: TEXT" in the progress line's place (a last, long step). */
void cli_progress_note(struct cli_progress *p, const char *text);

/* ---- the games a tool reads (cli/games.c) ---- */

/* What went wrong while reading games: the exit status follows from it. */
struct cli_status {
	int invalid;      /* a game was invalid or not found: exit 1 */
	int io_error;     /* reading or the database failed: exit 3 */
	int usage_error;  /* a filter was not understood: exit 2 */
};

struct kifu_novelty_finder; /* kifu/stats.h */
struct kifu_render_stored;  /* kifu/render.h */
struct kifu_novelty;        /* kifu/stats.h */

/* A game read from the database: the store (open) and the game's id. */
struct cli_stored {
	struct kifu_store *st;
	int64_t id;
	/* where cli_stored_novelty keeps its finder over st, closed with the store */
	struct kifu_novelty_finder **novelty;
	long count; /* the games this run reads (1 for --id): a progress line's whole */
};

/*
 * *out with the stored game's novelty (kifu_stats_novelty_find, flags
 * KIFU_NOVELTY_*; *nov holds it), the statements kept from one game to the
 * next. Returns 0 or the error, with err set.
 */
int cli_stored_novelty(struct kifu_render_stored *out, struct kifu_novelty *nov,
		       const struct cli_stored *s, unsigned flags, struct kifu_error *err);

/*
 * Called for each game read: *rec with the reader's diagnostics so far,
 * source (the file or database, for diagnostics), label ("game K of FILE",
 * "game ID in DB") and name ("BASE-00K", "game-00ID", zero-padded so that a
 * directory of one file per game sorts); stored: where a stored game is
 * (NULL for a game from a file). The function may keep the record
 * (setting *rec to NULL). Returns a negative value to stop reading.
 */
typedef int (*cli_game_fn)(void *ctx, struct kifu_record **rec, struct kifu_diags *diags,
			   const char *source, const char *label, const char *name,
			   const struct cli_stored *stored);

/*
 * Every record under path (any format, archive or directory; "-": standard
 * input), in the format from (NULL: found by name and content).
 */
void cli_games_file(const char *path, const struct kifu_format *from, cli_game_fn fn, void *ctx,
		    struct cli_status *status);

/*
 * The name of an input's games in a directory: its base name, or its archive
 * member's, without the format's and compression's suffixes ("r1" for
 * "g.zip(2024/r1.pgn)").
 */
void cli_base_name(char *out, size_t size, const char *input);

/* A tool that only reads: a missing database is "no database at 'PATH'" (exit 3), never created. */
#define CLI_GAMES_MUST_EXIST 0x1
/* A tool that writes (kifu-analyse --store): the database is created or brought up to date. */
#define CLI_GAMES_WRITE 0x2

/*
 * The stored game id (id >= 0: a missing one is reported and counted as
 * invalid), else every stored game f selects, from the database db (--db's
 * value or NULL, see cli_db_path). flags: CLI_GAMES_*.
 */
void cli_games_store(const char *db, long id, const struct kifu_filter *f, unsigned flags,
		     cli_game_fn fn, void *ctx, struct cli_status *status);

#endif
