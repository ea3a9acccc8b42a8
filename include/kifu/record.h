/*
 * Game records in the YAML notation of format 1 (spec/RECORDS.md): the
 * record as data, a streaming reader that yields one record per YAML
 * document, a validator that checks a record and replays its moves through
 * the rules engine, and a writer of canonical format-1 YAML.
 *
 * Typical use (kifu-validate):
 *
 *     struct kifu_reader *r;
 *     struct kifu_record *rec;
 *     struct kifu_diags diags = KIFU_DIAGS_INIT;
 *     struct kifu_replay replay = KIFU_REPLAY_INIT;
 *
 *     kifu_reader_open_file(&r, path, &err);
 *     while ((ret = kifu_reader_next(&rec, &diags, r, &err)) > 0) {
 *             kifu_record_validate(&replay, &diags, rec, 0, &err);
 *             ... diags.errors == 0 means valid ...
 *             kifu_record_free(rec);
 *     }
 *     kifu_reader_free(r);
 *
 * Strings in a record are NUL-terminated UTF-8 owned by the record.
 * Positions are 1-based lines and columns (columns count characters); 0 means
 * unknown (a record built in memory). Nothing here keeps global state:
 * different threads may use different readers, records and replays at once
 * (kifu-validate reads in one thread and validates in another).
 */
#ifndef KIFU_RECORD_H
#define KIFU_RECORD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/game.h"

/* Limits on hostile input (each exceeded limit is a diagnostic, never a crash). */
#define KIFU_RECORD_MAX_DEPTH 64        /* nesting of mappings and sequences */
#define KIFU_RECORD_MAX_SCALAR (1 << 20) /* bytes in one scalar */
#define KIFU_RECORD_MAX_TURNS 100000    /* items of `moves` */
#define KIFU_RECORD_MAX_MOVE 256        /* bytes of one move's text, white space trimmed */
#define KIFU_RECORD_MAX_NODES (1 << 21) /* YAML nodes in one document */
#define KIFU_RECORD_MAX_TEXT (64 << 20) /* bytes of scalar text in one document */

/* A 1-based source position; line 0 when unknown. */
struct kifu_mark {
	int line;
	int col;
};

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

/* One item of `moves`. */
struct kifu_turn {
	char *text;            /* the move as written; NULL when the item is broken */
	char *comment;         /* NULL when absent */
	char *clock;           /* the clock as written (a YAML number), NULL when absent */
	double clock_seconds;
	struct kifu_mark at;   /* the move's own scalar (or the item) */
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

/* ---- Diagnostics ---- */

enum kifu_severity { KIFU_DIAG_ERROR = 0, KIFU_DIAG_WARNING = 1 };

struct kifu_diag {
	int line;              /* 1-based; 0 when unknown */
	int col;
	int ply;               /* 1-based ply of a move diagnostic, else 0 */
	int game;              /* K, the game number in its file */
	int severity;          /* enum kifu_severity */
	char *message;         /* the whole message: "game K, ply P: illegal move ..." */
};

/* A list of diagnostics, caller-owned and reusable (reset between games). */
struct kifu_diags {
	struct kifu_diag *v;
	size_t n, cap;
	int errors, warnings;  /* counts by severity */
	int failed;            /* an allocation failed: some diagnostics were lost */
};

#define KIFU_DIAGS_INIT { NULL, 0, 0, 0, 0, 0 }

/*
 * Appends a diagnostic; the message is prefixed with "game K: " (or
 * "game K, ply P: " when ply > 0). Control characters in the message are
 * written as escapes so that every diagnostic stays on one line.
 */
int kifu_diags_add(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same with a va_list, for readers' own diagnostic wrappers. */
int kifu_diags_addv(struct kifu_diags *d, int severity, int game, int ply, struct kifu_mark at,
		    const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));
/* Stable sort into document order (line, then column). */
void kifu_diags_sort(struct kifu_diags *d, size_t from);
void kifu_diags_reset(struct kifu_diags *d);
void kifu_diags_release(struct kifu_diags *d);

/* ---- Reading ---- */

struct kifu_reader;

/*
 * Opens a reader over a file (read in chunks, never whole), a stream (not
 * closed by the reader), or a memory block (copied by reference: data must
 * outlive the reader). name is used in kifu_error messages only.
 */
int kifu_reader_open_file(struct kifu_reader **out, const char *path, struct kifu_error *err);
int kifu_reader_open_fp(struct kifu_reader **out, FILE *fp, const char *name,
			struct kifu_error *err);
int kifu_reader_open_mem(struct kifu_reader **out, const void *data, size_t size,
			 const char *name, struct kifu_error *err);
void kifu_reader_free(struct kifu_reader *r);

/*
 * Opens a reader over a byte stream (include/kifu/format.h): a file, a
 * member of an archive. src is borrowed and must outlive the reader; a
 * failure of src->read ends the input with its own code and message.
 */
struct kifu_source;
int kifu_reader_open_source(struct kifu_reader **out, const struct kifu_source *src,
			    struct kifu_error *err);

/*
 * Reads the next YAML document into *out (the caller frees it) and appends
 * its structural problems (YAML errors, keys, types, limits) to diags.
 * Returns 1 when a record was produced, 0 at the end of the stream, or
 * KIFU_EIO / KIFU_ENOMEM (err says why; *out is NULL). A YAML syntax error
 * yields one last record with KIFU_RECORD_SYNTAX_ERROR set and the error in
 * diags, numbered as the game after the last complete one; the next call
 * returns 0.
 */
int kifu_reader_next(struct kifu_record **out, struct kifu_diags *diags, struct kifu_reader *r,
		     struct kifu_error *err);

/* Documents read so far (complete or not). */
int kifu_reader_count(const struct kifu_reader *r);

/* ---- Validating and replaying ---- */

/*
 * The replay of a record: the game, the canonical moves, the position hash
 * after each ply (hashes[0] is the start position), the final outcome and
 * figures. Caller-owned and reusable: start with KIFU_REPLAY_INIT, release
 * with kifu_replay_release.
 */
struct kifu_replay {
	const struct kifu_game *game; /* NULL when the game is unknown */
	int variant;                  /* index, -1 when unknown */
	int first;                    /* index of the side that moved first, -1 when unknown */
	int complete;                 /* every move was replayed */
	size_t nplies;                /* moves replayed */
	kifu_move *moves;             /* nplies canonical moves */
	uint64_t *hashes;             /* nplies + 1 hashes */
	char *canonical;              /* with KIFU_VALIDATE_TEXT: nplies texts, KIFU_MOVE_TEXT_MAX apart */
	struct kifu_outcome outcome;  /* of the last position replayed */
	int nfigures;
	struct kifu_figure figures[KIFU_FIGURES_MAX];
	void *state;                  /* the last position replayed (game->state_size bytes) */
	/* Private. */
	size_t cap_;
	size_t state_cap_;
};

#define KIFU_REPLAY_INIT { .variant = -1, .first = -1, .outcome = { KIFU_ONGOING, -1 } }

void kifu_replay_release(struct kifu_replay *rp);

/* Canonical text of ply p (1-based) when the replay kept texts, else NULL. */
const char *kifu_replay_text(const struct kifu_replay *rp, size_t ply);

/* Keep the canonical text of every move in the replay. */
#define KIFU_VALIDATE_TEXT 0x1
/* Do not warn about dates in the future (results that do not depend on the day). */
#define KIFU_VALIDATE_NO_CLOCK 0x2

/*
 * Checks rec against every rule of RECORDS.md that the reader has not
 * already checked (format, game, variant, date, players, first, moves
 * replayed through the engine, result and termination against the replay),
 * appends what it finds to diags, and puts the diagnostics of this game
 * (from the first one numbered rec->number on) into document order. rp
 * (may be NULL) receives the replay. Returns 0 (valid or not: the record is
 * valid when no error diagnostic of its game was added) or KIFU_ENOMEM.
 */
int kifu_record_validate(struct kifu_replay *rp, struct kifu_diags *diags,
			 const struct kifu_record *rec, unsigned flags, struct kifu_error *err);

/* ---- Writing ---- */

/*
 * Appends rec as one canonical format-1 YAML document (starting "---") to
 * out. With a replay of rec that kept texts (KIFU_VALIDATE_TEXT), moves are
 * written in canonical notation; otherwise as they are in the record.
 * Strings that YAML would type or mangle are quoted. Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_record_write(struct kifu_buf *out, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err);

/*
 * Appends "{" and the members of rec as a JSON object, from "game" to
 * "tags" (kifu-export --to json), without the closing "}": the caller adds
 * its own members (",\n  \"plies\":[...]") and closes it. rp is a complete
 * replay of rec that kept texts (KIFU_VALIDATE_TEXT). Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_record_write_json_head(struct kifu_buf *out, const struct kifu_record *rec,
				const struct kifu_replay *rp);

/*
 * Appends s as a YAML scalar that reads back as the string s: plain when
 * that is safe, else single- or double-quoted. flow: the scalar stands in
 * a flow collection ({...}).
 */
int kifu_yaml_put_string(struct kifu_buf *out, const char *s, int flow);

#endif
