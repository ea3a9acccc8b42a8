/*
 * Helpers shared by the command-line tools: the program name, exit codes of
 * CLI.md, and turning a struct kifu_error into `file:line:col: error: ...`.
 */
#ifndef KIFU_CLI_H
#define KIFU_CLI_H

#include <stdio.h>

#include "kifu/error.h"
#include "kifu/game.h"

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

/* Prints err as "SOURCE:LINE:COL: error: MESSAGE", or "PROG: error: MESSAGE" without a source. */
void cli_error(const struct kifu_error *err);

/* Prints a usage error and the usage line, and exits 2. */
void cli_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

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
 * Visits path: a file is passed to fn as it is; a directory is searched
 * recursively, its entries in name order (byte order), and every regular
 * file whose name ends in one of exts (NULL-terminated, e.g. ".yaml") is
 * passed to fn. Symbolic links to files are followed, links to directories
 * are not. A path that cannot be read is reported on stderr ("cannot open
 * 'P': why") and the walk goes on. Returns 0, 1 when something could not
 * be read, or the first negative value fn returned (which stops the walk).
 */
int cli_walk(const char *path, const char *const *exts,
	     int (*fn)(const char *file, void *ctx), void *ctx);

#endif
