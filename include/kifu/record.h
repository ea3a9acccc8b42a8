/*
 * Game records in the YAML notation of formats 1 and 2 (spec/RECORDS.md):
 * the record as data (format 2's lines, nags and evals hang from its
 * turns), with builders for records made in memory and the YAML
 * typing of scalars and clocks that reading and writing share.
 *
 * Strings in a record are NUL-terminated UTF-8 owned by the record.
 * Positions are 1-based lines and columns (columns count characters); 0 means
 * unknown (a record built in memory). Nothing here keeps global state.
 *
 * The families around the record have their own headers: diagnostics
 * (kifu/diag.h), the streaming reader (kifu/reader.h), validating and
 * replaying (kifu/replay.h) and the writers (kifu/record_write.h). This
 * header includes them all, so that code written against the single
 * header it once was still builds.
 */
#ifndef KIFU_RECORD_H
#define KIFU_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/diag.h"
#include "kifu/error.h"


/* Limits on hostile input (each exceeded limit is a diagnostic, never a crash). */
#define KIFU_RECORD_MAX_DEPTH 64        /* nesting of mappings and sequences */
#define KIFU_RECORD_MAX_SCALAR (1 << 20) /* bytes in one scalar */
#define KIFU_RECORD_MAX_TURNS 100000    /* turns of a game, those of its lines included */
#define KIFU_RECORD_MAX_LEVELS 16       /* nesting of format 2's lines (the main line is level 0) */
#define KIFU_RECORD_MAX_MOVE 256        /* bytes of one move's text, white space trimmed */
#define KIFU_RECORD_MAX_NODES (1 << 21) /* YAML nodes in one document */
#define KIFU_RECORD_MAX_TEXT (64 << 20) /* bytes of scalar text in one document */


/* The top-level keys of a record, in the order the writer puts them. */
enum kifu_key {
	KIFU_KEY_FORMAT,
	KIFU_KEY_GAME,
	KIFU_KEY_VARIANT,
	KIFU_KEY_EVENT,
	KIFU_KEY_SITE,
	KIFU_KEY_ROUND,
	KIFU_KEY_ANNOTATOR,
	KIFU_KEY_SOURCE,
	KIFU_KEY_DATE,
	KIFU_KEY_PLAYERS,
	KIFU_KEY_FIRST,
	KIFU_KEY_MOVES,
	KIFU_KEY_RESULT,
	KIFU_KEY_TERMINATION,
	KIFU_KEY_TAGS,
	KIFU_KEY_COUNT
};

/* The key's name ("termination"), or NULL out of range. */
const char *kifu_key_name(int key);

/* How YAML 1.1 types a plain scalar (a quoted scalar is always a string). */
enum kifu_scalar_type {
	KIFU_SCALAR_STR = 0,
	KIFU_SCALAR_NULL,
	KIFU_SCALAR_BOOL,
	KIFU_SCALAR_INT,
	KIFU_SCALAR_FLOAT,
	KIFU_SCALAR_TIMESTAMP
};

/*
 * The YAML 1.1 type of the plain scalar text s (n bytes). For an integer
 * that fits, *ival (may be NULL) gets its value; for a float, *fval (may be
 * NULL). An integer too large for long is reported as KIFU_SCALAR_INT with
 * *overflow (may be NULL) set.
 */
int kifu_yaml_resolve(const char *s, size_t n, long *ival, double *fval, int *overflow);

/* The largest clock a record may give, in seconds (about 31 million years). */
#define KIFU_CLOCK_MAX 1e15

/*
 * The seconds of a clock as written (s, n bytes): a YAML integer (decimal,
 * 0x, 0o, base 60 like 1:30) or float. Returns 0 with *out set,
 * KIFU_EPARSE when it is no number, KIFU_ERANGE when it is negative, not
 * finite or past KIFU_CLOCK_MAX (an integer too long for a long is past it).
 * The record reader and kifu_record_add_turn both use it, so a clock read
 * back from the database gives the seconds the file gave.
 */
int kifu_clock_seconds(const char *s, size_t n, double *out);

/* One player entry of `players`. */
struct kifu_record_player {
	char *side;            /* the side name as written (the mapping key) */
	char *name;            /* NULL only when the entry is broken */
	long rating;
	int has_rating;
	struct kifu_mark at;   /* the side key */
};

/* One entry of `tags`: a key and a scalar kept as it is. */
struct kifu_tag {
	char *key;
	char *value;
	int type;              /* enum kifu_scalar_type the value had */
	struct kifu_mark at;   /* the key */
};

struct kifu_line;
struct kifu_eval;

/* The judgements a format-2 turn's `nag` may give (PGN's $1-$6), in that order. */
extern const char *const kifu_nags[7];

/* The index (1-6) of a nag's text in kifu_nags, 0 when it is none of them. */
int kifu_nag_index(const char *s);

/* One item of `moves` (or of a line). */
struct kifu_turn {
	char *text;            /* the move as written; NULL when the item is broken */
	char *comment;         /* NULL when absent */
	char *clock;           /* the clock as written (a YAML number), NULL when absent */
	double clock_seconds;
	struct kifu_mark at;   /* the move's own scalar (or the item) */
	/* Format 2 (NULL, 0 when absent). */
	char *nag;             /* one of kifu_nags (as read: checked by the reader) */
	struct kifu_eval *eval;
	struct kifu_line *lines; /* `variations`: what could have been played instead */
	size_t nlines;
	size_t lines_cap_;     /* private: the room of lines (at most; 0: nlines) */
	struct kifu_mark nag_at, eval_at, lines_at; /* each key, for "needs format 2" */
	/* The lines and the eval are the record's (freed with it): never copy a turn that has them. */
};

/* A line of `variations`: turns from the position before the move it replaces. */
struct kifu_line {
	struct kifu_turn *turns;
	size_t nturns;
	struct kifu_mark at;   /* the line's sequence */
	size_t cap_;           /* private */
};

/* A format-2 `eval`: an engine's figures for the position before its move. */
struct kifu_eval {
	char *engine;          /* the engine's SPEC */
	char *expected;        /* the mover's expected score as written (a YAML number in [0, 1]) */
	double expected_value;
	char *best;            /* the engine's move as written */
	struct kifu_mark at, best_at;
};

/* The record comes from a YAML document that libyaml could not parse. */
#define KIFU_RECORD_SYNTAX_ERROR 0x1
/* `moves` held more than KIFU_RECORD_MAX_TURNS items; the rest were dropped. */
#define KIFU_RECORD_TRUNCATED 0x2
/* The document is not a mapping (or is empty, or too large to gather): nothing else was read. */
#define KIFU_RECORD_NOT_A_GAME 0x4

struct kifu_arena_block;

struct kifu_record {
	int number;            /* 1-based game number in its file (K); 1 when built in memory */
	struct kifu_mark at;   /* the document's first token */
	unsigned flags;        /* KIFU_RECORD_* */
	unsigned present;      /* bit (1u << KIFU_KEY_*) for every key written, well-typed or not */
	struct kifu_mark key_at[KIFU_KEY_COUNT];   /* each key */
	struct kifu_mark value_at[KIFU_KEY_COUNT]; /* each key's value */

	long format;           /* 1 unless stated */
	/* String fields, NULL when absent (or when the value was not a scalar). */
	char *game, *variant, *event, *site, *round, *annotator, *source, *date;
	char *first, *result, *termination;

	struct kifu_record_player *players;
	size_t nplayers;
	struct kifu_turn *turns;
	size_t nturns;
	size_t plies_written;  /* items in `moves` as written (more than nturns if truncated) */
	struct kifu_tag *tags;
	size_t ntags;
	size_t line_turns;     /* format 2: the turns of every line, at every depth */

	/* Private: storage of the strings and arrays above. */
	struct kifu_arena_block *arena_;
	size_t cap_players_, cap_turns_, cap_tags_;
};

/* An empty record (format 1, number 1, nothing else); free with kifu_record_free. */
int kifu_record_new(struct kifu_record **out, struct kifu_error *err);
void kifu_record_free(struct kifu_record *rec);

/*
 * Builders for records made in memory (players, kifu-play). Each copies its
 * strings into the record. kifu_record_set sets a string field (GAME,
 * VARIANT, EVENT, SITE, ROUND, ANNOTATOR, SOURCE, DATE, FIRST, RESULT,
 * TERMINATION; text NULL removes it); clock may be NULL or a YAML number
 * ("12.5"); comment may be NULL.
 */
int kifu_record_set(struct kifu_record *rec, int key, const char *text, struct kifu_error *err);
int kifu_record_set_player(struct kifu_record *rec, const char *side, const char *name,
			   int has_rating, long rating, struct kifu_error *err);
int kifu_record_add_turn(struct kifu_record *rec, const char *move, const char *comment,
			 const char *clock, struct kifu_error *err);
/*
 * Format 2 builders. kifu_record_turn_lines gives turn t room for n lines
 * (zeroed, replacing any it had); kifu_record_line_add_turn appends a turn
 * to a line (as kifu_record_add_turn does to the main line) and returns it,
 * NULL when out of memory; kifu_record_turn_nag and kifu_record_turn_eval
 * set a turn's nag (NULL removes it) and eval (engine NULL removes it).
 */
int kifu_record_turn_lines(struct kifu_record *rec, struct kifu_turn *t, size_t n,
			   struct kifu_error *err);
/*
 * One more (empty) line after turn t's lines; NULL when out of memory (err
 * says so). The room grows by half again each time it is full, so that n
 * lines cost O(n), not O(n^2).
 */
struct kifu_line *kifu_record_turn_add_line(struct kifu_record *rec, struct kifu_turn *t,
					    struct kifu_error *err);
struct kifu_turn *kifu_record_line_add_turn(struct kifu_record *rec, struct kifu_line *line,
					    const char *move, const char *comment, const char *clock);
int kifu_record_turn_nag(struct kifu_record *rec, struct kifu_turn *t, const char *nag,
			 struct kifu_error *err);
int kifu_record_turn_eval(struct kifu_record *rec, struct kifu_turn *t, const char *engine,
			  const char *expected, const char *best, struct kifu_error *err);

/*
 * How many canonical texts turn t's eval and lines take in a replay's walk
 * (kifu_replay_xtext): the eval's best, then every move of its lines with
 * their own. The texts of main-line ply p start after those of plies 1..p-1.
 */
size_t kifu_turn_texts(const struct kifu_turn *t);

/* Whether some turn at any depth has a nag, an eval or lines (so that the record needs format 2). */
int kifu_record_uses_format2(const struct kifu_record *rec);

int kifu_record_add_tag(struct kifu_record *rec, const char *key, const char *value, int type,
			struct kifu_error *err);

/* A string field by key (NULL when absent or not a string field). */
const char *kifu_record_get(const struct kifu_record *rec, int key);

/* The result as stated, or "unfinished" when absent (or not a string). */
const char *kifu_record_result(const struct kifu_record *rec);

/*
 * The termination as stated, else the implied one: "rules" when the result
 * names a side or a draw, NULL for an unfinished game.
 */
const char *kifu_record_termination(const struct kifu_record *rec);


/* Compatibility: the families that were declared here before. */
#include "kifu/reader.h"
#include "kifu/replay.h"
#include "kifu/record_write.h"

#endif
