/*
 * The SQLite store backend (lib/store/store_impl.h): a database file in WAL
 * mode, created when missing, or for tools that only read
 * (KIFU_STORE_READ) an existing file opened as it is, read-write,
 * read-only or immutable, whichever the user's rights allow. The schema
 * version is PRAGMA user_version, a kifu file is marked by PRAGMA
 * application_id. Statements are sqlite3's own, parameters written as
 * SQLite takes them; the position index is store_posidx.c's sorted
 * writer, bulk loads turn foreign keys off and checkpoint less.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "store/store_impl.h"

/* PRAGMA application_id of a kifu database: 'kifu' in ASCII. */
#define KIFU_APPLICATION_ID 0x6b696675

/* How long a writer waits for another one before "database is locked". */
#define BUSY_TIMEOUT_MS 10000

struct sqlite_stmt {
	struct kifu_stmt base;
	sqlite3_stmt *s;
};

#define DB(st) ((sqlite3 *)(st)->conn)
#define S(x) (((struct sqlite_stmt *)(x))->s)

static int code_of(int rc)
{
	return rc == SQLITE_NOMEM ? KIFU_ENOMEM : KIFU_EDB;
}

/*
 * Before SQLite's first use in the process: no memory statistics. They
 * take one mutex, the process's, at every allocation, which kifu-serve's
 * threads (and a connection's thousands of rows a report) then wait on;
 * libkifu never reads them. Where the program has used SQLite already,
 * sqlite3_config refuses and nothing changes.
 */
static void sq_configure(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static void sq_configure_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	(void)pthread_once(&once, sq_configure);
}

static int sq_accepts(const char *path)
{
	(void)path;
	return 1;
}

/* path as an SQLite URI file name ("file:" and the path, %-escaped where URIs need it). */
static int uri_of(struct kifu_buf *out, const char *path, const char *query)
{
	const unsigned char *p;

	kifu_buf_puts(out, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x21 || *p >= 0x7f)
			kifu_buf_printf(out, "%%%02X", *p);
		else
			kifu_buf_putc(out, (char)*p);
	}
	kifu_buf_puts(out, query);
	return out->failed ? KIFU_ENOMEM : 0;
}

static void sq_close(struct kifu_store *st)
{
	sqlite3_close(DB(st));
	st->conn = NULL;
}

/*
 * Opens an existing database to read it, never creating or changing one:
 * read-write when the user may write it (the statistics tables can then
 * be kept), else read-only, else immutable (a WAL database in a directory
 * the user cannot write has no shared-memory file to read it through:
 * immutable reads the main file alone, what was checkpointed).
 */
static int open_for_reading(struct kifu_store *st, int never_write, struct kifu_error *err)
{
	static const int modes[] = { SQLITE_OPEN_READWRITE, SQLITE_OPEN_READONLY,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI };
	struct kifu_buf uri = KIFU_BUF_INIT;
	const char *path = st->path;
	sqlite3 *db = NULL;
	struct stat sb;
	int rc = SQLITE_OK, k;

	if (stat(path, &sb) != 0 || S_ISDIR(sb.st_mode)) {
		kifu_error_at(err, path, 0, 0);
		return kifu_error_set(err, KIFU_ENOTFOUND, "no database at '%s'", path);
	}
	if (uri_of(&uri, path, "?immutable=1") < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	/* KIFU_STORE_READ_ONLY: never read-write, not even when the user may write. */
	for (k = never_write ? 1 : 0; k < 3; k++) {
		sqlite3_close(db);
		db = NULL;
		rc = sqlite3_open_v2(k == 2 ? uri.data : path, &db,
				     modes[k] | SQLITE_OPEN_NOMUTEX, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
		if (rc == SQLITE_OK || rc == SQLITE_NOMEM || rc == SQLITE_NOTADB ||
		    rc == SQLITE_CORRUPT)
			break;
	}
	kifu_buf_release(&uri);
	st->conn = db;
	if (rc != SQLITE_OK) {
		kifu_error_at(err, path, 0, 0);
		return kifu_error_set(err, code_of(rc), "cannot open database '%s': %s", path,
				      db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
	st->readonly = sqlite3_db_readonly(db, "main") == 1;
	return 0;
}

static int sq_open(struct kifu_store *st, const char *path, unsigned flags,
		   struct kifu_error *err)
{
	sqlite3 *db = NULL;
	int ret, rc;

	(void)path; /* st->path, the same */
	sq_configure_once();
	if (flags & KIFU_STORE_READ) {
		ret = open_for_reading(st, (flags & KIFU_STORE_READ_ONLY) != 0, err);
		if (ret < 0)
			return ret;
		sqlite3_busy_timeout(DB(st), BUSY_TIMEOUT_MS);
		if (kifu_store_sqlite_functions_(DB(st)) < 0)
			return kifu_store_fail_(st, "cannot configure", err);
		/*
		 * Readers map the file: a search reads a row from each of
		 * thousands of pages, and a page mapped costs no system call.
		 * As much as SQLite maps (SQLITE_MAX_MMAP_SIZE, 2 GB less 64 KB,
		 * in Debian's build): a database of 1,000,000 games is 2.8 GB.
		 * Not for KIFU_STORE_READ_ONCE (kifu/store.h), which reads each
		 * page about once: there a fault per page and the unmapping at
		 * exit cost more than the reads. (Reading everywhere cost
		 * novelties, which comes back to its pages, 185,000 reads at
		 * 100,000 games: 0.2 s more.)
		 */
		return kifu_store_exec_(st, (flags & KIFU_STORE_READ_ONCE)
					? "PRAGMA foreign_keys = ON; PRAGMA cache_size = -4096"
					: "PRAGMA foreign_keys = ON; PRAGMA cache_size = -4096; "
					  "PRAGMA mmap_size = 2147418112",
					"cannot configure", err);
	}
	/* One thread per store: SQLite's own locking would only cost time. */
	rc = sqlite3_open_v2(st->path, &db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	st->conn = db;
	if (rc != SQLITE_OK) {
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, code_of(rc), "cannot open database '%s': %s", st->path,
				      db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	if (kifu_store_sqlite_functions_(db) < 0)
		return kifu_store_fail_(st, "cannot configure", err);
	/*
	 * WAL lets readers work while an import writes; synchronous=NORMAL in
	 * WAL mode loses at most the last commits on power loss, never
	 * consistency. The cache is bounded so that memory stays flat.
	 */
	ret = kifu_store_exec_(st, "PRAGMA journal_mode = WAL", "cannot use it", err);
	if (ret == 0)
		ret = kifu_store_exec_(st,
			   "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;"
			   "PRAGMA cache_size = -4096; PRAGMA journal_size_limit = 67108864",
			   "cannot configure", err);
	return ret;
}

/*
 * PRAGMA user_version; foreign: 1 when application_id names another
 * application, 2 when there is none but the file holds tables already.
 */
static int sq_version_get(long long *version, int *foreign, struct kifu_store *st,
			  struct kifu_error *err)
{
	long long app = 0, objects = 0;
	int ret;

	*foreign = 0;
	ret = kifu_db_query_int_(version, st, "PRAGMA user_version", err);
	if (ret == 0)
		ret = kifu_db_query_int_(&app, st, "PRAGMA application_id", err);
	if (ret == 0 && *version == 0 && !app)
		ret = kifu_db_query_int_(&objects, st, "SELECT count(*) FROM sqlite_master", err);
	if (ret < 0)
		return ret;
	if (app && app != KIFU_APPLICATION_ID)
		*foreign = 1;
	else if (objects)
		*foreign = 2;
	return 0;
}

static int sq_version_set(struct kifu_store *st, int version, struct kifu_error *err)
{
	char pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", version);
	return kifu_store_exec_(st, pragma, "cannot set the schema version", err);
}

static int sq_prepare(struct kifu_stmt **out, struct kifu_store *st, const char *sql)
{
	struct sqlite_stmt *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return KIFU_ENOMEM;
	s->base.st = st;
	/* Kept statements last: SQLite's hint for its lookaside memory. */
	if (sqlite3_prepare_v3(DB(st), sql, -1, SQLITE_PREPARE_PERSISTENT, &s->s, NULL) != SQLITE_OK) {
		int rc = sqlite3_errcode(DB(st));

		free(s);
		return code_of(rc);
	}
	*out = &s->base;
	return 0;
}

static void sq_finalize(struct kifu_stmt *s)
{
	sqlite3_finalize(S(s));
	free(s);
}

static int bound(int rc)
{
	return rc == SQLITE_OK ? 0 : code_of(rc);
}

static int sq_bind_int64(struct kifu_stmt *s, int i, int64_t v)
{
	return bound(sqlite3_bind_int64(S(s), i, v));
}

static int sq_bind_double(struct kifu_stmt *s, int i, double v)
{
	return bound(sqlite3_bind_double(S(s), i, v));
}

static int sq_bind_null(struct kifu_stmt *s, int i)
{
	return bound(sqlite3_bind_null(S(s), i));
}

static int sq_bind_text(struct kifu_stmt *s, int i, const char *text, size_t len, int copy)
{
	return bound(sqlite3_bind_text64(S(s), i, text, len, copy ? SQLITE_TRANSIENT : SQLITE_STATIC,
					 SQLITE_UTF8));
}

static int sq_bind_blob(struct kifu_stmt *s, int i, const void *data, size_t len)
{
	return bound(sqlite3_bind_blob64(S(s), i, data, len, SQLITE_TRANSIENT));
}

static int sq_step(struct kifu_stmt *s)
{
	int rc = sqlite3_step(S(s));

	if (rc == SQLITE_ROW)
		return KIFU_DB_ROW;
	if (rc == SQLITE_DONE)
		return KIFU_DB_DONE;
	return code_of(rc);
}

static void sq_reset(struct kifu_stmt *s)
{
	sqlite3_reset(S(s));
}

static int sq_column_count(struct kifu_stmt *s)
{
	return sqlite3_column_count(S(s));
}

static int sq_column_is_null(struct kifu_stmt *s, int i)
{
	return sqlite3_column_type(S(s), i) == SQLITE_NULL;
}

static int sq_column_integer(struct kifu_stmt *s, int i, int64_t *v)
{
	if (sqlite3_column_type(S(s), i) != SQLITE_INTEGER)
		return 0;
	*v = sqlite3_column_int64(S(s), i);
	return 1;
}

static int64_t sq_column_int64(struct kifu_stmt *s, int i)
{
	return sqlite3_column_int64(S(s), i);
}

static double sq_column_double(struct kifu_stmt *s, int i)
{
	return sqlite3_column_double(S(s), i);
}

static const char *sq_column_text(struct kifu_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(S(s), i);
}

static const void *sq_column_blob(struct kifu_stmt *s, int i)
{
	return sqlite3_column_blob(S(s), i);
}

static size_t sq_column_bytes(struct kifu_stmt *s, int i)
{
	return (size_t)sqlite3_column_bytes(S(s), i);
}

static int sq_exec(struct kifu_store *st, const char *sql)
{
	int rc = sqlite3_exec(DB(st), sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : code_of(sqlite3_errcode(DB(st)));
}

static long long sq_changes(struct kifu_store *st)
{
	return sqlite3_changes64(DB(st));
}

static int sq_in_transaction(struct kifu_store *st)
{
	return sqlite3_get_autocommit(DB(st)) == 0;
}

static int sq_errcode(struct kifu_store *st)
{
	return code_of(sqlite3_errcode(DB(st)));
}

static const char *sq_errmsg(struct kifu_store *st)
{
	return sqlite3_errmsg(DB(st));
}

static int sq_retryable(struct kifu_store *st)
{
	/* The busy timeout has waited already: a lock held that long is a failure. */
	(void)st;
	return 0;
}

static int sq_record_error(struct kifu_store *st)
{
	int rc = sqlite3_errcode(DB(st));

	return rc == SQLITE_TOOBIG || rc == SQLITE_CONSTRAINT || rc == SQLITE_MISMATCH ||
	       rc == SQLITE_RANGE;
}

static int sq_cannot_write(struct kifu_store *st)
{
	int rc = sqlite3_errcode(DB(st));

	return rc == SQLITE_READONLY || rc == SQLITE_BUSY || rc == SQLITE_LOCKED ||
	       rc == SQLITE_PERM || rc == SQLITE_CANTOPEN || rc == SQLITE_FULL ||
	       rc == SQLITE_IOERR;
}

/*
 * After the store has set its indexes aside (kifu_store_bulk_begin): it
 * writes a game's rows after the game, in one transaction, so checking
 * every move's and position's parent would only cost time. Fewer
 * checkpoints (each one syncs twice): the WAL may grow to 64 MiB.
 */
static int sq_bulk_begin(struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_exec_(st, "PRAGMA foreign_keys = OFF; PRAGMA wal_autocheckpoint = 16384",
				"cannot start a bulk load", err);
}

/* After the store has rebuilt every deferred index (kifu_store_bulk_end). */
static int sq_bulk_end(struct kifu_store *st, struct kifu_error *err)
{
	return kifu_store_exec_(st, "PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 1000",
				"cannot end a bulk load", err);
}

/* A move of a game's move list: kifu_move_at scans to it (sqlite_fn.c). */
static void sq_json_at(struct kifu_buf *out, const char *array, const char *index)
{
	kifu_buf_printf(out, "kifu_move_at(%s, %s)", array, index);
}

/* Schema 7: a hash array is a BLOB of 8-byte big-endian values (sqlite_fn.c). */
static void sq_hash_at(struct kifu_buf *out, const char *array, const char *index)
{
	kifu_buf_printf(out, "kifu_hash_at(%s, %s)", array, index);
}

/*
 * The SQL that is not the same on every backend. "begin": a writing
 * transaction (IMMEDIATE: the write lock now, so that two writers never
 * deadlock upgrading); "begin_read": a report's snapshot; "has": a row
 * when a table, view or index of the name ?1 exists.
 */
static const struct kifu_db_query sq_queries[] = {
	{ "begin", "BEGIN IMMEDIATE" },
	{ "begin_read", "BEGIN" },
	{ "commit", "COMMIT" },
	{ "rollback", "ROLLBACK" },
	{ "has", "SELECT 1 FROM sqlite_master WHERE name = ?1" },
	/* kifu-check (store_check.c): the file's own check, a row "ok" or one per problem */
	{ "integrity_check", "PRAGMA integrity_check" },
	/* kifu_store_packed_check_: a game whose hashes are not 8 bytes a position */
	{ "hashes_mismatch", "SELECT g.id, g.plies, CASE WHEN typeof(d.hashes) = 'blob' AND "
			     "length(d.hashes) % 8 = 0 THEN length(d.hashes) / 8 ELSE -1 END "
			     "FROM games g JOIN game_data d ON d.game_id = g.id WHERE "
			     "typeof(d.hashes) <> 'blob' OR length(d.hashes) <> 8 * (g.plies + 1) "
			     "LIMIT 1" },
	/*
	 * store_symm.c: the canonical hashes of games ?1..?2 into their index,
	 * before version 7 (which keeps none: the plain index answers).
	 */
	{ "canon_index_6", "INSERT OR IGNORE INTO positions_canon(hash, game_id, ply) "
	  "SELECT j.value, c.game_id, j.key FROM game_canon c, json_each(c.canon) j "
	  "WHERE c.game_id BETWEEN ?1 AND ?2 ORDER BY 1, 2, 3" },
	/* Schema 7: one game_data row per game (the views game_moves and game_canon read it). */
	{ "game_moves_insert",
	  "INSERT INTO game_data(game_id, moves, hashes, notes) VALUES (?1, ?2, ?3, ?4)" },
	{ "canon_insert", "UPDATE game_data SET canon = ?2 WHERE game_id = ?1" },
	{ NULL, NULL }
};

const struct kifu_store_backend kifu_store_sqlite_ = {
	.name = "sqlite",
	.accepts = sq_accepts,
	.open = sq_open,
	.close = sq_close,
	.migrations = kifu_migrations_,
	.version_get = sq_version_get,
	.version_set = sq_version_set,
	.prepare = sq_prepare,
	.finalize = sq_finalize,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_null = sq_bind_null,
	.bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob,
	.step = sq_step,
	.reset = sq_reset,
	.column_count = sq_column_count,
	.column_is_null = sq_column_is_null,
	.column_int64 = sq_column_int64,
	.column_integer = sq_column_integer,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.column_blob = sq_column_blob,
	.column_bytes = sq_column_bytes,
	.exec = sq_exec,
	.changes = sq_changes,
	.in_transaction = sq_in_transaction,
	.errcode = sq_errcode,
	.errmsg = sq_errmsg,
	.retryable = sq_retryable,
	.cannot_write = sq_cannot_write,
	.record_error = sq_record_error,
	.bulk_begin = sq_bulk_begin,
	.bulk_end = sq_bulk_end,
	.posidx_queue = kifu_store_posidx_queue_,
	.posidx_commit = kifu_store_posidx_commit_,
	.posidx_rollback = kifu_store_posidx_rollback_,
	.posidx_defer = kifu_store_posidx_defer_,
	.posidx_restore = kifu_store_posidx_restore_,
	.posidx_release = kifu_store_posidx_release_,
	.json_at = sq_json_at,
	.hash_at = sq_hash_at,
	.hashes_binary = 1,
	.queries = sq_queries,
};
