/*
 * Opening the game database (include/kifu/store.h): the backend that
 * accepts the path or URI (kifu_store_backends_[]) connects, and the
 * schema is brought up to date by the backend's migrations compiled into
 * libkifu, each in one transaction, unless another process did it first;
 * or, for tools that only read (KIFU_STORE_READ), an existing database is
 * read as it is, never created, migrated or changed. A schema version kifu
 * does not know (newer, negative) is refused either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

/*
 * What a migration needs besides its SQL (the engines' work), run after it
 * in its transaction, by version.
 */
static int (*const migration_steps[])(struct kifu_store *, struct kifu_error *) = {
	[5] = kifu_store_symm_migrate_,
	[8] = kifu_store_history_migrate_,
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

static int not_kifu(struct kifu_store *st, struct kifu_error *err)
{
	kifu_error_at(err, st->path, 0, 0);
	return kifu_error_set(err, KIFU_EDB, "database '%s' is not a kifu database", st->path);
}

/* Applies migration m in one transaction, unless another process did it first. */
static int apply_migration(struct kifu_store *st, const struct kifu_migration *m,
			   struct kifu_buf *sql, struct kifu_error *err)
{
	const char *lock = kifu_db_sql_(st, "lock_schema");
	long long version;
	int ret, foreign;

	ret = kifu_store_exec_(st, kifu_db_sql_(st, "begin"), "cannot start a migration", err);
	if (ret < 0)
		return ret;
	/* Writers of several machines: one migrates, the others wait and see it done. */
	if (lock)
		ret = kifu_store_exec_(st, lock, "cannot start a migration", err);
	if (ret == 0)
		ret = st->be->version_get(&version, &foreign, st, err);
	if (ret < 0)
		goto out;
	if (version >= m->version)
		goto out;
	/* Never turn somebody else's database into a kifu one. */
	if (version == 0 && foreign) {
		ret = not_kifu(st, err);
		goto out;
	}
	if (migration_text(sql, m) < 0) {
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
		goto out;
	}
	if (kifu_db_exec_(st, sql->data) < 0) {
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
	ret = st->be->version_set(st, m->version, err);
out:
	if (ret < 0)
		kifu_db_exec_(st, kifu_db_sql_(st, "rollback"));
	else
		ret = kifu_store_exec_(st, kifu_db_sql_(st, "commit"), "cannot commit a migration", err);
	return ret;
}

/*
 * Refuses a schema version this kifu does not know: newer ones, and any
 * negative one (the stored version is whatever the database says).
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
 * database is a kifu one of a version this kifu reads (an empty one is
 * version 0: no tables to read).
 */
static int migrate(struct kifu_store *st, int readonly_use, struct kifu_error *err)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	long long version;
	int latest = kifu_store_schema_version(), ret, i, foreign;

	ret = st->be->version_get(&version, &foreign, st, err);
	if (ret < 0)
		goto out;
	if (foreign == 1) {
		ret = not_kifu(st, err);
		goto out;
	}
	ret = version_check(st, version, err);
	if (ret < 0 || readonly_use)
		goto out;
	for (i = (int)version; i < latest && ret == 0; i++)
		ret = apply_migration(st, &st->be->migrations[i], &sql, err);
	if (ret == 0)
		st->version = latest;
out:
	kifu_buf_release(&sql);
	return ret;
}

int kifu_store_open(struct kifu_store **out, const char *path, unsigned flags,
		    struct kifu_error *err)
{
	const struct kifu_store_backend *const *be;
	struct kifu_store *st;
	int ret = 0;

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
	/* The last backend (SQLite's) takes any path the others leave. */
	for (be = kifu_store_backends_; be[1] && !(*be)->accepts(path); be++)
		;
	st->be = *be;
	/* Read-only is a way of reading: never created, never migrated either. */
	if (flags & KIFU_STORE_READ_ONLY)
		flags |= KIFU_STORE_READ;
	ret = st->be->open(st, path, flags, err);
	if (ret == 0)
		ret = migrate(st, (flags & KIFU_STORE_READ) != 0, err);
out:
	if (ret < 0) {
		/*
		 * err->source must not point into the store freed here, nor show
		 * what the backend kept out of its name (a password).
		 */
		if (err && st && err->source == st->path)
			kifu_error_at(err, strcmp(st->path, path) ? NULL : path, 0, 0);
		kifu_store_free(st);
		return ret;
	}
	*out = st;
	return 0;
}

int kifu_store_is_file(const char *path)
{
	const struct kifu_store_backend *const *be;

	for (be = kifu_store_backends_; be[1] && !(*be)->accepts(path); be++)
		;
	return !be[1];
}

int kifu_store_version(const struct kifu_store *st)
{
	return st->version;
}

int kifu_store_readonly(const struct kifu_store *st)
{
	return st->readonly;
}
