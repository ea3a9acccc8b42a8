/*
 * The game database: an SQLite file, or a PostgreSQL database named by a
 * postgresql:// (or postgres://) URI, holding replayed games (with every
 * position hash, for position search), the records that failed validation
 * (in quarantine, with their raw text and diagnostics), and where each came
 * from. The store picks its backend at open from the path (lib/store/store_impl.h:
 * one const struct per backend); the rest of libkifu talks to either
 * through its statement layer (lib/store/db.h, private). The schema is
 * schema/NNN-name.sql, compiled into the library and applied in order
 * when an older database is opened; schema/README.md documents every
 * table and view.
 *
 * Typical use (kifu-import):
 *
 *     struct kifu_store *st;
 *
 *     kifu_store_open(&st, "kifu.db", 0, &err);
 *     kifu_store_begin(st, &err);
 *     ... kifu_store_game_add(&id, st, rec, &replay, &origin, &err) per valid game,
 *     ... kifu_store_quarantine_add(...) per rejected record;
 *     kifu_store_commit(st, &err);
 *     kifu_store_free(st);
 *
 * Errors carry the database path as err->source (borrowed from the store:
 * report them before kifu_store_free) and a message that quotes it.
 * After an error inside a transaction, call kifu_store_rollback.
 *
 * 64-bit position hashes and keys are stored as signed INTEGER (the same
 * 64 bits); tools print them as 16 lower-case hex digits.
 */
#ifndef KIFU_STORE_H
#define KIFU_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "kifu/buf.h"
#include "kifu/date.h" /* the dates of a filter */
#include "kifu/diag.h"
#include "kifu/error.h"
#include "kifu/record.h"
#include "kifu/replay.h"

struct kifu_store;

/* The schema version this library writes (the number of schema/NNN-*.sql files). */
int kifu_store_schema_version(void);

/*
 * Opens the database at path, creating it when missing, in WAL mode with
 * foreign keys on, and brings an older schema up to date (each migration
 * in its own transaction). A database of a schema version this kifu does
 * not know (newer, or negative), or an SQLite file that is not a kifu
 * database, is refused. *out belongs to the caller (kifu_store_free).
 * flags: 0, KIFU_STORE_READ or KIFU_STORE_READ_ONLY, either with
 * KIFU_STORE_READ_ONCE.
 */
int kifu_store_open(struct kifu_store **out, const char *path, unsigned flags,
		    struct kifu_error *err);

/*
 * 1 when path names a database file (SQLite's backend, which takes any path
 * the other backends leave), 0 for a server's URI: what a tool that created
 * a file it then does not use may remove.
 */
int kifu_store_is_file(const char *path);

/*
 * For tools that only read: the database must exist (KIFU_ENOTFOUND "no
 * database at 'PATH'" otherwise) and is never created, migrated or changed
 * in its schema; an older schema is read as it is. It is opened read-write
 * when possible (reports may keep their precomputed tables), else
 * read-only, else immutable (a WAL file in a directory the user cannot
 * write: what was checkpointed).
 */
#define KIFU_STORE_READ 0x1u
/*
 * KIFU_STORE_READ that never writes at all (a server over a database it
 * does not own): SQLite opened read-only (else immutable), PostgreSQL
 * sessions read-only; reports whose precomputed tables are behind are then
 * computed from the games.
 */
#define KIFU_STORE_READ_ONLY 0x2u
/*
 * With KIFU_STORE_READ: a fresh process that reads most of the pages it
 * needs once (a search, a tree) has the file read, not mapped: mapping
 * costs it a fault per page and their unmapping at its exit (at 1,000,000
 * games a search of 18,000 games and a tree past the counted plies took a
 * quarter more). A reader that comes back to its pages (novelties) or
 * lives on (a server) maps it. Only SQLite maps; other backends ignore it.
 */
#define KIFU_STORE_READ_ONCE 0x4u

/*
 * The schema version of the open file: kifu_store_schema_version() unless
 * opened with KIFU_STORE_READ (readers of moves and positions handle
 * version 4's packed layout and the per-ply tables of versions 1 to 3).
 */
int kifu_store_version(const struct kifu_store *st);

/* Whether the open file cannot be written (KIFU_STORE_READ on a read-only file). */
int kifu_store_readonly(const struct kifu_store *st);

/*
 * The tree counts (schema 5's tree_moves: the moves played from each
 * position of plies 0..kifu_store_tree_depth(), by plain and by canonical
 * hash): *ready is 1 when they count every stored game, after counting
 * the games added since where the file can be written (an import killed
 * in a bulk load, a change by hand); 0 when they cannot be used (an older
 * schema, a read-only file behind): read the position indexes instead.
 */
int kifu_store_tree_depth(void);
int kifu_store_tree_update(int *ready, struct kifu_store *st, struct kifu_error *err);

/* Rolls back an open transaction and closes; NULL is accepted. */
void kifu_store_free(struct kifu_store *st);

/*
 * Borrowed: the path or URI (for PostgreSQL without its password), as
 * messages quote it.
 */
const char *kifu_store_path(const struct kifu_store *st);

/*
 * Transactions. kifu_store_begin opens a writer's (KIFU_TX_WRITE; SQLite:
 * BEGIN IMMEDIATE); writes outside one are each their own. On PostgreSQL
 * each game and quarantined record added is its own transaction even
 * inside one (committing what came before it), run again when the server
 * asks (serialization failures, deadlocks), so that many writers never
 * fail: a rollback then undoes only what followed the last of them.
 */
int kifu_store_begin(struct kifu_store *st, struct kifu_error *err);

/*
 * A transaction of a kind: KIFU_TX_WRITE (kifu_store_begin),
 * KIFU_TX_REFRESH (rewriting the precomputed statistics: no game is being
 * written meanwhile, on any connection) or KIFU_TX_READ (a report: one
 * consistent snapshot, read only). Ended by kifu_store_commit or
 * kifu_store_rollback; kifu_store_tx_kind tells the open one's kind.
 */
#define KIFU_TX_WRITE 0
#define KIFU_TX_REFRESH 1
#define KIFU_TX_READ 2
int kifu_store_begin_tx(struct kifu_store *st, int kind, struct kifu_error *err);
int kifu_store_tx_kind(const struct kifu_store *st);
int kifu_store_commit(struct kifu_store *st, struct kifu_error *err);
void kifu_store_rollback(struct kifu_store *st);
int kifu_store_in_transaction(const struct kifu_store *st);
/*
 * Games and quarantined records (kifu_store_game_add, _quarantine_add)
 * committed since st was opened. Inside a batch PostgreSQL commits as it
 * goes (groups, games on their own), SQLite at kifu_store_commit: after a
 * failure, the writes of the batch up to this count stay, later ones are
 * gone, in the order they were made.
 */
long long kifu_store_writes_committed(const struct kifu_store *st);

/* ---- Import provenance ---- */

/*
 * Starts an import: a row of `imports` stamped now (UTC), with paths (the
 * PATH arguments, one per line; may be NULL). *id receives its id.
 */
int kifu_store_import_begin(int64_t *id, struct kifu_store *st, const char *paths,
			    struct kifu_error *err);

/* Stamps the import finished, with its counts. */
int kifu_store_import_end(struct kifu_store *st, int64_t id, long imported, long duplicates,
			  long rejected, struct kifu_error *err);

/* Adds a source file of an import (size -1 when unknown); *id receives its id. */
int kifu_store_file_add(int64_t *id, struct kifu_store *st, int64_t import_id, const char *path,
			long long size, struct kifu_error *err);

/* Where a record came from; every field may be 0 / NULL (unknown). */
struct kifu_origin {
	int64_t import_id;
	int64_t file_id;     /* a row of `files` */
	const char *file;    /* the path as given ("<stdin>"), for quarantine */
	int line;            /* the document's first line */
	int number;          /* 1-based game number in its file */
};

/* ---- Games ---- */

/*
 * The duplicate key of a replayed game: a 64-bit hash of the game, the
 * variant, the first side, each side's player name, the date as written
 * and the sequence of position hashes. Spelling does not enter it (moves
 * count through the positions they reach), so the same game written
 * differently has the same key. The result and other headers do not
 * enter it either.
 */
uint64_t kifu_store_game_key(const struct kifu_record *rec, const struct kifu_replay *rp);

/*
 * Stores a valid game: rec as read, rp its complete replay made with
 * KIFU_VALIDATE_TEXT (canonical moves, hashes, outcome, figures), from
 * origin (may be NULL). Returns 1 when stored (*id = the new id), 0 when
 * the database already holds the game (same kifu_store_game_key; *id = the
 * stored game's id, nothing is written), or a negative KIFU_E* code.
 * id may be NULL. KIFU_EINVALID: the database cannot hold this game's
 * values (PostgreSQL: a value out of a type's range, say); nothing of it
 * was written and the open batch goes on (quarantine the record, with
 * err's message as its reason).
 */
int kifu_store_game_add(int64_t *id, struct kifu_store *st, const struct kifu_record *rec,
			const struct kifu_replay *rp, const struct kifu_origin *origin,
			struct kifu_error *err);

/* What became of a duplicate's format-2 annotations (kifu_store_game_put). */
enum kifu_annotations {
	KIFU_ANNOTATIONS_SAME,     /* a new game, or the stored game's are the same */
	KIFU_ANNOTATIONS_NOT_KEPT, /* they differ; the stored game's stay */
	KIFU_ANNOTATIONS_REPLACED  /* they differ, and rec's replaced them */
};
/* kifu_store_game_put: a duplicate's lines, nags and evals replace the stored game's. */
#define KIFU_STORE_UPDATE_ANNOTATIONS 0x1u

/*
 * kifu_store_game_add, telling a duplicate's annotations apart
 * (RECORDS.md: a game that differs from a stored one only in its lines,
 * nags and evals is a duplicate): *annotations (may be NULL) gets a
 * KIFU_ANNOTATIONS_* value, rec's lines, nags and evals compared with
 * those stored with the game (none and none are the same). With flags
 * KIFU_STORE_UPDATE_ANNOTATIONS, differing ones replace the stored game's
 * (rec without any removes them) and nothing else of the game changes:
 * kifu-import --update-annotations. Returns as kifu_store_game_add.
 */
int kifu_store_game_put(int64_t *id, int *annotations, struct kifu_store *st,
			const struct kifu_record *rec, const struct kifu_replay *rp,
			const struct kifu_origin *origin, unsigned flags, struct kifu_error *err);

/*
 * Puts a rejected record in quarantine: raw (len bytes, any content: the
 * document as it was in its file; truncated says the text was cut),
 * rec (may be NULL; its game name is kept when it has one), every
 * diagnostic in diags (errors and warnings), and origin (may be NULL).
 * The key is raw itself: the same bytes seen again, read through any
 * path or from standard input, are not stored twice. Returns 1 when
 * stored (*id set), 0 when already there (*id = its id), or a negative
 * KIFU_E* code. id may be NULL.
 */
int kifu_store_quarantine_add(int64_t *id, struct kifu_store *st, const char *raw, size_t len,
			      int truncated, const struct kifu_record *rec,
			      const struct kifu_diags *diags, const struct kifu_origin *origin,
			      struct kifu_error *err);

/*
 * Rebuilds the record of stored game id (headers, players, moves in
 * canonical notation with comments and clocks as given, format 2's nags,
 * evals and lines (schema 10), result,
 * termination, tags), such that kifu_record_write gives its canonical
 * YAML and kifu_record_validate replays it. *out belongs to the caller
 * (kifu_record_free). KIFU_ENOTFOUND when there is no such game.
 */
int kifu_store_game_load(struct kifu_record **out, struct kifu_store *st, int64_t id,
			 struct kifu_error *err);

/*
 * kifu_record_validate of stored game id's record rec (from
 * kifu_store_game_load) into rp and diags, for the readers that show or
 * export it: a stored game that does not replay or breaks a rule was
 * changed after its import (none is stored so), so its first error is
 * KIFU_EDB "database 'PATH' is damaged: game ID, ply P: ..." and no answer.
 */
int kifu_store_game_validate(struct kifu_replay *rp, struct kifu_diags *diags,
			     struct kifu_store *st, int64_t id, const struct kifu_record *rec,
			     struct kifu_error *err);

/* ---- Selecting games ---- */

/*
 * What kifu-stats, kifu-search and kifu-export select games by. NULL
 * fields do not filter. game, variant, event and termination match
 * exactly (case-sensitive; termination is the stated or implied one:
 * 'rules' for a game the rules ended); player matches a game where any
 * side's player has exactly that name; since and until (YYYY, YYYY-MM or
 * YYYY-MM-DD) are inclusive, a partial one covering its whole period
 * (since from its first day, until to its last: until 2024-06 is up to 30
 * June), a record's partial date counting as its first day, and games
 * without a date are left out when either is given. player_side (with player only; ignored
 * without it) keeps the games where that player had that side. level (a
 * kifu-play SPEC, or "players") keeps the games kifu-stats balance counts
 * at that level: SPEC when every side's player is named "SPEC #k" (k
 * digits), players when no side's player is named like any SPEC's (see
 * kifu_store_spec_length).
 */
struct kifu_filter {
	const char *game, *variant, *player, *event, *since, *until, *termination;
	const char *player_side;
	const char *level;
};

/*
 * The length of the SPEC of a kifu-play player's name, as CLI.md's
 * ^(random|mcts:[0-9]+|engine(:[0-9]+)?) #[0-9]+$ reads it ("mcts:100 #2":
 * 8); 0 when name is not one. The level filter's SQL is this grammar.
 */
size_t kifu_store_spec_length(const char *name);

/* Whether level is one the level filter takes: "players", or a SPEC (its player "SPEC #1" is one). */
int kifu_store_level_valid(const char *level);

/*
 * Calls fn(id, ctx) for every game f selects (f may be NULL), newest first:
 * by first-day date, then by id, descending; games without a date come
 * last. A non-zero return of fn stops the walk and is returned.
 */
int kifu_store_game_each(struct kifu_store *st, const struct kifu_filter *f,
			 int (*fn)(int64_t id, void *ctx), void *ctx, struct kifu_error *err);

/*
 * The same ids in an array: *ids (free it with kifu_store_game_ids_free;
 * NULL when n is 0) and *n.
 */
int kifu_store_game_ids(int64_t **ids, size_t *n, struct kifu_store *st,
			const struct kifu_filter *f, struct kifu_error *err);
void kifu_store_game_ids_free(int64_t *ids);

/* ---- Bulk loading ---- */

/*
 * Search indexes (position hashes, players' games, dates) make every insert
 * a random write, and checking foreign keys costs a lookup per row; a large
 * import is faster without both, rebuilding the indexes once at the end.
 * kifu_store_bulk_begin drops those indexes (remembering their definitions
 * in the table deferred_indexes, in the same transaction, so that a crash
 * loses nothing) and stops enforcing foreign keys on this connection (the
 * store's own writes keep them). kifu_store_bulk_end rebuilds every
 * deferred index, also one left by an interrupted bulk load, and enforces
 * foreign keys again. Both must be called outside a transaction. Queries
 * stay correct meanwhile, only slower. kifu_store_indexes_deferred tells
 * how many indexes are deferred.
 */
int kifu_store_bulk_begin(struct kifu_store *st, struct kifu_error *err);
int kifu_store_bulk_end(struct kifu_store *st, struct kifu_error *err);
int kifu_store_indexes_deferred(int *count, struct kifu_store *st, struct kifu_error *err);

/* Number of stored games (an estimate is not enough for tests: this counts). */
int kifu_store_game_count(long long *count, struct kifu_store *st, struct kifu_error *err);

#endif
