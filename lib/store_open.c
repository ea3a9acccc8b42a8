/*
 * Opening the game database (include/kifu/store.h): the SQLite file in WAL
 * mode, created when missing, and its schema brought up to date by the
 * migrations compiled into libkifu, each in one transaction; or, for tools
 * that only read (KIFU_STORE_READ), an existing file opened as it is,
 * read-write, read-only or immutable, whichever the user's rights allow,
 * never created, migrated or changed. A schema version kifu does not know
 * (newer, negative) is refused either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store_impl.h"

/* PRAGMA application_id of a kifu database: 'kifu' in ASCII. */
#define KIFU_APPLICATION_ID 0x6b696675

/* How long a writer waits for another one before "database is locked". */
#define BUSY_TIMEOUT_MS 10000

/*
 * What a migration needs besides its SQL (the engines' work), run after it
 * in its transaction, by version.
 */
static int (*const migration_steps[])(struct kifu_store *, struct kifu_error *) = {
	[5] = kifu_store_symm_migrate_,
};

/* Joins a migration's lines into one SQL text. */
static int migration_text(struct kifu_buf *out, const struct kifu_migration *m)
{
	const char *const *line;

	kifu_buf_reset(out);
	for (line = m->lines; *line; line++)
		kifu_buf_puts(out, *line);
	return out->failed ? KIFU_ENOMEM : 0;
}

/* Applies migration m in one transaction, unless another process did it first. */
static int apply_migration(struct kifu_store *st, const struct kifu_migration *m,
			   struct kifu_buf *sql, struct kifu_error *err)
{
	long long version, objects, app;
	char pragma[64];
	int ret;

	ret = kifu_store_exec_(st, "BEGIN IMMEDIATE", "cannot start a migration", err);
	if (ret < 0)
		return ret;
	ret = kifu_store_query_int_(&version, st, "PRAGMA user_version", err);
	if (ret < 0)
		goto out;
	if (version >= m->version)
		goto out;
	if (version == 0) {
		/* Never turn somebody else's database into a kifu one. */
		ret = kifu_store_query_int_(&objects, st, "SELECT count(*) FROM sqlite_master", err);
		if (ret == 0)
			ret = kifu_store_query_int_(&app, st, "PRAGMA application_id", err);
		if (ret < 0)
			goto out;
		if (objects || (app && app != KIFU_APPLICATION_ID)) {
			kifu_error_at(err, st->path, 0, 0);
			ret = kifu_error_set(err, KIFU_EDB, "database '%s' is not a kifu database",
					     st->path);
			goto out;
		}
	}
	if (migration_text(sql, m) < 0) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (sqlite3_exec(st->db, sql->data, NULL, NULL, NULL) != SQLITE_OK) {
		char what[128];

		snprintf(what, sizeof(what), "cannot apply schema '%s'", m->name);
		ret = kifu_store_fail_(st, what, err);
		goto out;
	}
	st->version = m->version;
	if (m->version < (int)(sizeof(migration_steps) / sizeof(migration_steps[0])) &&
	    migration_steps[m->version]) {
		ret = migration_steps[m->version](st, err);
		if (ret < 0)
			goto out;
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->version);
	ret = kifu_store_exec_(st, pragma, "cannot set the schema version", err);
out:
	if (ret < 0)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	else
		ret = kifu_store_exec_(st, "COMMIT", "cannot commit a migration", err);
	return ret;
}

/*
 * Refuses a schema version this kifu does not know: newer ones, and any
 * negative one (PRAGMA user_version is whatever the file says).
 */
static int version_check(struct kifu_store *st, long long version, struct kifu_error *err)
{
	int latest = kifu_store_schema_version();

	st->version = version >= 0 && version <= latest ? (int)version : -1;
	if (version >= 0 && version <= latest)
		return 0;
	kifu_error_at(err, st->path, 0, 0);
	if (version > latest)
		return kifu_error_set(err, KIFU_EDB,
				      "database '%s' has schema version %lld, newer than this kifu (%d)",
				      st->path, version, latest);
	return kifu_error_set(err, KIFU_EDB,
			      "database '%s' has schema version %lld, which no kifu writes",
			      st->path, version);
}

/*
 * Brings the schema up to date; with readonly_use, only checks that the
 * file is a kifu database of a version this kifu reads (an empty file is
 * version 0: no tables to read).
 */
static int migrate(struct kifu_store *st, int readonly_use, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	long long version, app;
	int latest = kifu_store_schema_version(), ret, i;

	ret = kifu_store_query_int_(&version, st, "PRAGMA user_version", err);
	if (ret == 0)
		ret = kifu_store_query_int_(&app, st, "PRAGMA application_id", err);
	if (ret < 0)
		goto out;
	if (app && app != KIFU_APPLICATION_ID) {
		kifu_error_at(err, st->path, 0, 0);
		ret = kifu_error_set(err, KIFU_EDB, "database '%s' is not a kifu database", st->path);
		goto out;
	}
	ret = version_check(st, version, err);
	if (ret < 0 || readonly_use)
		goto out;
	for (i = (int)version; i < latest && ret == 0; i++)
		ret = apply_migration(st, &kifu_migrations[i], &sql, err);
	if (ret == 0)
		st->version = latest;
out:
	kifu_buf_release(&sql);
	return ret;
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

/*
 * Opens an existing database to read it, never creating or changing one:
 * read-write when the user may write it (the statistics tables can then
 * be kept), else read-only, else immutable (a WAL database in a directory
 * the user cannot write has no shared-memory file to read it through:
 * immutable reads the main file alone, what was checkpointed).
 */
static int open_for_reading(struct kifu_store *st, const char *path, struct kifu_error *err)
{
	static const int modes[] = { SQLITE_OPEN_READWRITE, SQLITE_OPEN_READONLY,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI };
	struct kifu_buf uri = KIFU_BUF_INIT;
	struct stat sb;
	int rc = SQLITE_OK, k;

	if (stat(path, &sb) != 0 || S_ISDIR(sb.st_mode)) {
		kifu_error_at(err, path, 0, 0);
		return kifu_error_set(err, KIFU_ENOTFOUND, "no database at '%s'", path);
	}
	if (uri_of(&uri, path, "?immutable=1") < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	for (k = 0; k < 3; k++) {
		sqlite3_close(st->db);
		st->db = NULL;
		rc = sqlite3_open_v2(k == 2 ? uri.data : path, &st->db,
				     modes[k] | SQLITE_OPEN_NOMUTEX, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(st->db, "SELECT count(*) FROM sqlite_master", NULL, NULL,
					  NULL);
		if (rc == SQLITE_OK || rc == SQLITE_NOMEM || rc == SQLITE_NOTADB ||
		    rc == SQLITE_CORRUPT)
			break;
	}
	kifu_buf_release(&uri);
	if (rc != SQLITE_OK) {
		kifu_error_at(err, path, 0, 0);
		return kifu_error_set(err, rc == SQLITE_NOMEM ? KIFU_ENOMEM : KIFU_EDB,
				      "cannot open database '%s': %s", path,
				      st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
	}
	st->readonly = sqlite3_db_readonly(st->db, "main") == 1;
	return 0;
}

int kifu_store_open(struct kifu_store **out, const char *path, unsigned flags,
		    struct kifu_error *err)
{
	struct kifu_store *st;
	int ret = 0, rc;

	*out = NULL;
	st = calloc(1, sizeof(*st));
	if (st)
		st->path = strdup(path);
	if (st)
		st->players = calloc(PLAYER_CACHE_SIZE, sizeof(*st->players));
	if (!st || !st->path || !st->players) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (flags & KIFU_STORE_READ) {
		ret = open_for_reading(st, path, err);
		if (ret < 0)
			goto out;
		sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
		ret = kifu_store_exec_(st, "PRAGMA foreign_keys = ON; PRAGMA cache_size = -4096",
			   "cannot configure", err);
		if (ret == 0)
			ret = migrate(st, 1, err);
		goto out;
	}
	/* One thread per store: SQLite's own locking would only cost time. */
	rc = sqlite3_open_v2(path, &st->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		kifu_error_at(err, path, 0, 0);
		ret = kifu_error_set(err, rc == SQLITE_NOMEM ? KIFU_ENOMEM : KIFU_EDB,
				     "cannot open database '%s': %s", path,
				     st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
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
	if (ret == 0)
		ret = migrate(st, 0, err);
out:
	if (ret < 0) {
		/* err->source must not point into the store freed here. */
		if (err && st && err->source == st->path)
			kifu_error_at(err, path, 0, 0);
		kifu_store_free(st);
		return ret;
	}
	*out = st;
	return 0;
}

int kifu_store_version(const struct kifu_store *st)
{
	return st->version;
}

int kifu_store_readonly(const struct kifu_store *st)
{
	return st->readonly;
}

