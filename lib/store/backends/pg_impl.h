/*
 * Private to the PostgreSQL backend: what pg.c (connections, statements,
 * errors) and pg_load.c (games grouped per transaction, their rows sent
 * by COPY at the commit) share: the connection and statement structures,
 * the statements whose rows go by COPY, and the few functions both call.
 */
#ifndef KIFU_STORE_PG_IMPL_H
#define KIFU_STORE_PG_IMPL_H

#include <stdint.h>

#include <libpq-fe.h>

#include "store/backends/pg_copy.h"
#include "store/store_impl.h"

/* Advisory lock keys ('kifu' and a number): the schema's migrations, and the game writers. */
#define LOCK_SCHEMA "1802069621001"
#define LOCK_WRITERS "1802069621002"
/* Held exclusively by the transaction writing games (one game's, or a group's): writers take turns. */
#define LOCK_MERGE "1802069621003"

/* Most parameters a statement of libkifu's takes, and the highest number one may have (?N). */
#define MAX_PARAMS 128
#define MAX_NUMBER KIFU_PG_MAX_NUMBER

/*
 * Rows a transaction writes by COPY at its commit (or before a statement
 * that could read them): the statements of a game's game_moves and
 * game_canon rows (the backend's own, named queries "game_moves_insert",
 * "canon_insert"), of its game_cells, game_lines and game_listing rows,
 * and the tree counts' upsert (store_symm_sets.c), matched by their text,
 * run by adding a row, their parameters typed by types; a game_canon row
 * also gives the game's entries of positions_canon (its canonical hashes,
 * each once with its first ply), so that "canon_index" finds its games
 * indexed already.
 */
struct stage {
	const char *insert, *copy, *types;
	int canon;
	/*
	 * A row that is not the table's as it stands (an upsert's, or one
	 * completed from another table): copied into the session's temporary
	 * table made by create, then moved into its table by then.
	 */
	const char *create, *then;
};

#define NSTAGES 6

extern const struct stage kifu_pg_stages_[];

struct pg_conn {
	PGconn *pg;
	char *msg;           /* the last error's message, NULL when none */
	int code;            /* its KIFU_E* code */
	char state[6];       /* its SQLSTATE, "" when none */
	long long changes;
	unsigned names;      /* prepared statements and cursors made so far */
	int queued;          /* writes sent in pipeline mode, their results not read yet */
	int sticky;          /* an error drained where it could not be returned: the next one's */
	/* The group of games in the open transaction (batch_join). */
	int grouped;         /* 1: the transaction holds the games' lock */
	long group_games;
	double group_started, last_io; /* ms: the group's start, the last statement run */
	/* The position index entries of the transaction's games, sent at its commit. */
	struct kifu_pg_postings_ posidx;
	/* The rows of kifu_pg_stages_[], and the positions_canon entries of the game_canon ones. */
	struct kifu_pg_copy_ staged[NSTAGES];
	struct kifu_pg_postings_ canon;
	long nstaged;
	struct kifu_pg_entries_ scratch;
	/* Ids of new games and players taken here (pg_ids.c); NULL before the first group. */
	struct kifu_pg_ids_ *ids;
};

struct pg_param {
	const char *value;   /* NULL: SQL NULL */
	int len, binary;
	char *owned;         /* a copy of the value, when bound with copy */
	char num[32];        /* a number's text */
};

struct pg_stmt {
	struct kifu_stmt base;
	char name[32];       /* the prepared statement; "" when it is run by cursor */
	char cursor[32];     /* the open cursor's name, "" when none */
	char *sql;           /* the SQL with $N parameters */
	int query;           /* returns rows (SELECT, WITH, VALUES) */
	int rows;            /* returns rows or a RETURNING: its results are read at once */
	int nparams;
	short number[MAX_NUMBER + 1]; /* ?N is $number[N] (0: not in the SQL) */
	struct pg_param params[MAX_PARAMS];
	struct pg_param scratch;     /* what a number the SQL does not use is bound to */
	PGresult *res;       /* the rows fetched */
	int row, nrows;      /* the current row of res; -1 before the first step */
	int state;           /* 0 not run since reset, 1 rows, 2 done */
	int direct;          /* its rows fit in one fetch: run without a cursor from now on */
	long fetched;        /* rows read through the cursor of this run */
	int bind_err;
	unsigned char *blob; /* column_blob's unescaped value */
	size_t blob_len;
	int stage;           /* 1 + its index in kifu_pg_stages_[]: run by adding a row; 0: sent */
	int reads_staged;    /* the SQL may read staged rows: those are sent first */
	int ids;             /* IDS_*: a statement pg_ids.c may answer */
	char idname[32];     /* its insert with the id as a last parameter, "" when none */
};

/* The statements pg_ids.c answers in a group (their text: pg.c's pg_queries, store_stmt.c). */
enum { IDS_NONE, IDS_GAME_INSERT, IDS_GAME_BY_KEY, IDS_PLAYER_FIND, IDS_PLAYER_INSERT };

#define CONN(st) ((struct pg_conn *)(st)->conn)

/*
 * pg_result.c: a failed result's error kept (its code returned); out of memory
 * kept; the results of writes in flight read (0 or the first error).
 */
int kifu_pg_result_fail_(struct pg_conn *c, PGresult *res);
int kifu_pg_nomem_(struct pg_conn *c);
int kifu_pg_drain_(struct pg_conn *c);
/* the connection's last error forgotten, or set (state, msg: NULL for libpq's) */
void kifu_pg_conn_clear_(struct pg_conn *c);
void kifu_pg_conn_fail_(struct pg_conn *c, const char *state, const char *msg);
/* kifu_pg_drain_(), keeping in *last the result of the last statement sent */
int kifu_pg_drain_last_(struct pg_conn *c, PGresult **last);

/* pg_load.c: the monotonic clock, in ms (when the last statement ran: batch_join's gap). */
double kifu_pg_now_ms_(void);

/* pg_load.c: the rows of kifu_pg_stages_[] kept, sent, forgotten. */
int kifu_pg_reads_staged_(const char *sql);
int kifu_pg_staged_add_(struct pg_conn *c, struct pg_stmt *s);
int kifu_pg_staged_send_(struct pg_conn *c);
void kifu_pg_staged_clear_(struct pg_conn *c);

/* pg_load.c: the backend's batch_join and posidx_* (store_impl.h). */
int kifu_pg_batch_join_(struct kifu_store *st, struct kifu_error *err);
int kifu_pg_posidx_queue_(struct kifu_store *st, int64_t id, const struct kifu_replay *rp,
			  struct kifu_error *err);
int kifu_pg_posidx_commit_(struct kifu_store *st, struct kifu_error *err);
int kifu_pg_posidx_nothing_(struct kifu_store *st, struct kifu_error *err);
void kifu_pg_posidx_forget_(struct kifu_store *st);

/*
 * pg_ids.c: a group's start (its lock held), a statement answered there
 * (*done 1) or not, the savepoint of a write and the rollback to it, the
 * commit (the sequences set first), a transaction's end, the tables freed.
 */
int kifu_pg_ids_group_(struct pg_conn *c);
int kifu_pg_ids_run_(int *done, struct pg_conn *c, struct pg_stmt *s);
void kifu_pg_ids_savepoint_(struct pg_conn *c);
void kifu_pg_ids_rollback_to_(struct pg_conn *c);
int kifu_pg_ids_commit_(struct pg_conn *c);
void kifu_pg_ids_end_(struct pg_conn *c, int committed);
void kifu_pg_ids_free_(struct pg_conn *c);

#endif
