/*
 * The PostgreSQL store backend (lib/store/store_impl.h): a database on a server
 * named by a postgresql:// or postgres:// URI (libpq's connection URI:
 * host, port, user, password, dbname, a socket directory as ?host=DIR),
 * shared by any number of writers and readers on any number of machines.
 * Statements are server-side prepared statements with their `?N`
 * parameters rewritten as `$N`, every value sent as a bound parameter
 * (text, or binary for blobs); queries of many rows inside a transaction
 * are read through a cursor, a few thousand rows at a time, so that memory
 * stays flat and other statements may run between two rows. Schema
 * versions live in the table kifu_schema (schema/pg/NNN-*.sql, the same
 * numbers as schema/NNN-*.sql). Concurrency (schema/README.md,
 * "PostgreSQL"): games a caller writes back to back share one transaction
 * (a group: pg_load.c), else each game is its own short transaction,
 * retried on serialization failures and deadlocks; either holds the games'
 * advisory lock exclusively (writers of games take turns, a group at a
 * time) and the writers' lock shared, which the refresh of the
 * precomputed statistics takes exclusively, so that game ids below the
 * refreshed bound are all committed; reports read one REPEATABLE READ
 * snapshot. The rows of a transaction's games go in by COPY at its commit
 * (pg_load.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/backends/pg_copy.h"
#include "store/backends/pg_impl.h"
#include "store/store_impl.h"

/* Rows fetched at a time through a cursor. */
#define FETCH_ROWS 4096

/* The bytea type's OID (pg_type.h): its values come back hex-escaped in text results. */
#define BYTEAOID 17
#define BOOLOID 16

#define PGS(x) ((struct pg_stmt *)(x))

static int pg_accepts(const char *path)
{
	return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
}

/* ---- Connecting ---- */

static void pg_close(struct kifu_store *st)
{
	struct pg_conn *c = CONN(st);
	int i;

	if (!c)
		return;
	PQfinish(c->pg);
	kifu_pg_conn_clear_(c);
	kifu_pg_postings_release_(&c->posidx);
	for (i = 0; i < NSTAGES; i++)
		kifu_pg_copy_release_(&c->staged[i]);
	kifu_pg_postings_release_(&c->canon);
	kifu_pg_entries_release_(&c->scratch);
	kifu_pg_ids_free_(c);
	free(c);
	st->conn = NULL;
}

/* libpq's notices (e.g. "relation already exists, skipping") are not for the user. */
static void quiet(void *arg, const PGresult *res)
{
	(void)arg;
	(void)res;
}

static int pg_open(struct kifu_store *st, const char *path, unsigned flags, struct kifu_error *err)
{
	char *shown = kifu_pg_uri_public_(path);
	struct pg_conn *c = calloc(1, sizeof(*c));
	int ret = 0, found;

	if (!shown || !c) {
		free(shown);
		free(c);
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	}
	free(st->path);
	st->path = shown;
	st->conn = c;
	c->pg = PQconnectdb(path);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
		const char *why = c->pg ? PQerrorMessage(c->pg) : "out of memory";
		size_t n;

		if (!strncmp(why, "connection to server ", 21) && strstr(why, "failed: "))
			why = strstr(why, "failed: ") + 8;
		if (!strncmp(why, "FATAL:  ", 8))
			why += 8;
		n = strcspn(why, "\n");
		kifu_error_at(err, st->path, 0, 0);
		return kifu_error_set(err, KIFU_EDB, "cannot connect to '%s': %.*s", st->path, (int)n,
				      n ? why : "no reason given");
	}
	PQsetNoticeReceiver(c->pg, quiet, NULL);
	/*
	 * Text as UTF-8 whatever the client's locale; every float to its
	 * shortest exact text (the default from PostgreSQL 12, said for older).
	 */
	if (kifu_db_exec_(st, "SET client_encoding = 'UTF8'; SET extra_float_digits = 3; "
			     "SET client_min_messages = warning") < 0)
		return kifu_db_fail_(st, "cannot configure", err);
	/* Sessions that cannot write: a refresh of the statistics is then computed instead. */
	if ((flags & KIFU_STORE_READ_ONLY) &&
	    kifu_db_exec_(st, "SET default_transaction_read_only = on") < 0)
		return kifu_db_fail_(st, "cannot configure", err);
	if (flags & KIFU_STORE_READ) {
		/* Readers never create: a database without kifu's tables is no kifu database yet. */
		ret = kifu_db_has_(&found, st, "kifu_schema", err);
		if (ret == 0 && !found) {
			kifu_error_at(err, st->path, 0, 0);
			ret = kifu_error_set(err, KIFU_ENOTFOUND, "no database at '%s'", st->path);
		}
	}
	return ret;
}

/* ---- Schema versions ---- */

static int pg_version_get(long long *version, int *foreign, struct kifu_store *st,
			  struct kifu_error *err)
{
	struct kifu_stmt *s = NULL;
	long long objects = 0, others = 0, found = 0;
	int ret, rc;

	*version = 0;
	*foreign = 0;
	/* One statement, one snapshot: kifu_schema and everything else, as another writer commits them. */
	ret = kifu_db_prepare_(&s, st, "SELECT count(*) FILTER (WHERE c.relname = 'kifu_schema'), "
				      "count(*) FROM pg_class c JOIN pg_namespace n "
				      "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
				      "AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')", err);
	if (ret < 0)
		return ret;
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW) {
		found = kifu_db_column_int64_(s, 0);
		objects = kifu_db_column_int64_(s, 1);
	} else {
		ret = kifu_db_fail_(st, "cannot read the schema", err);
	}
	kifu_db_finalize_(s);
	if (ret < 0)
		return ret;
	if (found) {
		ret = kifu_db_query_int_(&others, st, "SELECT count(*) FROM kifu_schema "
						     "WHERE application <> 'kifu'", err);
		*foreign = others > 0;
		if (ret < 0 || *foreign)
			return ret;
		/*
		 * kifu's own table, which every migration leaves with its one row:
		 * without a version, read as 0, the tables would look absent.
		 */
		ret = kifu_db_prepare_(&s, st, "SELECT max(version) FROM kifu_schema", err);
		if (ret < 0)
			return ret;
		if (kifu_db_step_(s) != KIFU_DB_ROW)
			ret = kifu_db_fail_(st, "cannot read the schema", err);
		else if (kifu_db_column_is_null_(s, 0))
			ret = kifu_db_damaged_(st, err, "kifu_schema holds no schema version");
		else
			ret = kifu_db_column_whole_(version, s, 0, 1, INT_MAX, err,
						    "kifu_schema.version");
		kifu_db_finalize_(s);
		return ret;
	}
	/* No kifu_schema: an empty database, or somebody else's. */
	if (objects)
		*foreign = 2;
	return 0;
}

static int pg_version_set(struct kifu_store *st, int version, struct kifu_error *err)
{
	char sql[80];

	snprintf(sql, sizeof(sql), "UPDATE kifu_schema SET version = %d", version);
	return kifu_store_exec_(st, sql, "cannot set the schema version", err);
}

/* ---- Statements ---- */

/* kifu_pg_drain_() where its error cannot be returned: kept for the next call. */
static int drain_kept(struct pg_conn *c)
{
	int ret = kifu_pg_drain_(c);

	if (ret < 0)
		c->sticky = ret;
	return ret;
}

/* Whether sql returns rows: a query, or a write with RETURNING. */
static int is_query(const char *sql)
{
	while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '(')
		sql++;
	return !strncmp(sql, "SELECT", 6) || !strncmp(sql, "WITH", 4) || !strncmp(sql, "select", 6) ||
	       !strncmp(sql, "VALUES", 6);
}

/*
 * The statements pg_ids.c answers in a group, known by their text (as
 * kifu_pg_stages_[]): the backend's own (pg_queries, below) and the
 * store's look-up of a game by its key; and the inserts it sends instead,
 * with the id it took as their last parameter.
 */
static const char *query_text(const char *name);

static int ids_kind(const char *sql, int nparams)
{
	if (!strcmp(sql, query_text("game_insert")) && nparams == 18)
		return IDS_GAME_INSERT;
	if (!strcmp(sql, "SELECT id FROM games WHERE content_hash = ?1") && nparams == 1)
		return IDS_GAME_BY_KEY;
	if (!strcmp(sql, query_text("player_find")) && nparams == 1)
		return IDS_PLAYER_FIND;
	if (!strcmp(sql, query_text("player_insert")) && nparams == 1)
		return IDS_PLAYER_INSERT;
	return IDS_NONE;
}

static const char *const ids_insert_sql[] = {
	[IDS_GAME_INSERT] =
	"INSERT INTO games(id, game, variant, first, event, site, round, date, date_first, "
	"annotator, source, result, winner, termination, plies, content_hash, file_id, "
	"file_line, file_game) VALUES ($19, $1::text, $2::text, $3::text, $4::text, $5::text, "
	"$6::text, $7::text, $8::text, $9::text, $10::text, $11::text, $12::integer, $13::text, "
	"$14::integer, $15::bigint, $16::bigint, $17::integer, $18::integer)",
	[IDS_PLAYER_INSERT] = "INSERT INTO players(id, name) VALUES ($2, $1::text)",
	[IDS_PLAYER_INSERT + 1] = NULL,
};

static int pg_prepare(struct kifu_stmt **out, struct kifu_store *st, const char *sql)
{
	struct pg_conn *c = CONN(st);
	struct pg_stmt *s = calloc(1, sizeof(*s));
	PGresult *res;
	int ret = 0, i;

	*out = NULL;
	if (!s)
		return kifu_pg_nomem_(c);
	ret = kifu_pg_drain_(c);
	if (ret < 0) {
		free(s);
		return ret;
	}
	s->base.st = st;
	s->sql = kifu_pg_rewrite_(sql, s->number, &s->nparams);
	if (!s->sql) {
		free(s);
		kifu_pg_conn_fail_(c, "54023", "a parameter number is out of range, or out of memory");
		return KIFU_EDB;
	}
	if (s->nparams > MAX_PARAMS) {
		kifu_pg_conn_fail_(c, "54023", "too many parameters");
		ret = KIFU_EDB;
		goto out;
	}
	s->query = is_query(s->sql);
	s->rows = s->query || strstr(s->sql, "RETURNING") != NULL;
	s->row = -1;
	for (i = 0; i < NSTAGES; i++)
		if (!strcmp(sql, kifu_pg_stages_[i].insert))
			s->stage = i + 1;
	if (s->stage && s->nparams != (int)strlen(kifu_pg_stages_[s->stage - 1].types)) {
		free(s->sql);
		free(s);
		kifu_pg_conn_fail_(c, "54023", "a staged statement's parameters do not match its columns");
		return KIFU_EDB;
	}
	s->reads_staged = !s->stage && kifu_pg_reads_staged_(sql);
	s->ids = ids_kind(sql, s->nparams);
	if (s->stage) {
		/* Never sent: nothing to prepare. */
		*out = &s->base;
		return 0;
	}
	snprintf(s->name, sizeof(s->name), "kifu_s%u", ++c->names);
	res = PQprepare(c->pg, s->name, s->sql, 0, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = kifu_pg_result_fail_(c, res);
	PQclear(res);
	/* An insert pg_ids.c may send with the id it takes. */
	if (ret == 0 && ids_insert_sql[s->ids]) {
		snprintf(s->idname, sizeof(s->idname), "kifu_s%u", ++c->names);
		res = PQprepare(c->pg, s->idname, ids_insert_sql[s->ids], 0, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
			ret = kifu_pg_result_fail_(c, res);
		PQclear(res);
	}
out:
	if (ret < 0) {
		free(s->sql);
		free(s);
		return ret;
	}
	*out = &s->base;
	return 0;
}

static void stmt_clear_result(struct pg_stmt *s)
{
	PQclear(s->res);
	s->res = NULL;
	s->row = -1;
	s->nrows = 0;
	free(s->blob);
	s->blob = NULL;
}

static void pg_reset(struct kifu_stmt *x)
{
	struct pg_stmt *s = PGS(x);
	struct pg_conn *c = CONN(x->st);

	/* Every row of the run came in one fetch (read or not): no cursor next time. */
	if (s->cursor[0] && s->res && s->nrows < FETCH_ROWS && s->fetched < FETCH_ROWS)
		s->direct = 1;
	stmt_clear_result(s);
	if (s->cursor[0]) {
		char sql[64];

		/* Only in the transaction that opened it; after one, it is gone anyway. */
		if (drain_kept(c) == 0 && PQtransactionStatus(c->pg) == PQTRANS_INTRANS) {
			snprintf(sql, sizeof(sql), "CLOSE %s", s->cursor);
			PQclear(PQexec(c->pg, sql));
		}
		s->cursor[0] = 0;
	}
	s->state = 0;
}

static void param_clear(struct pg_param *p)
{
	free(p->owned);
	memset(p, 0, sizeof(*p));
}

static void pg_finalize(struct kifu_stmt *x)
{
	struct pg_stmt *s = PGS(x);
	struct pg_conn *c = CONN(x->st);
	int i;

	pg_reset(x);
	if (c && !s->stage && PQstatus(c->pg) == CONNECTION_OK) {
		char sql[64];

		snprintf(sql, sizeof(sql), "DEALLOCATE %s", s->name);
		if (drain_kept(c) == 0 && PQtransactionStatus(c->pg) != PQTRANS_INERROR)
			PQclear(PQexec(c->pg, sql));
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", s->idname);
		if (s->idname[0] && PQtransactionStatus(c->pg) != PQTRANS_INERROR)
			PQclear(PQexec(c->pg, sql));
	}
	for (i = 0; i < MAX_PARAMS; i++)
		param_clear(&s->params[i]);
	param_clear(&s->scratch);
	free(s->sql);
	free(s);
}

static struct pg_param *param(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);

	if (i < 1 || i > MAX_NUMBER) {
		/* As SQLite: a parameter the statement cannot have is an error. */
		s->bind_err = KIFU_ERANGE;
		return NULL;
	}
	/* A number the SQL does not use: bound to nothing (SQLite keeps it unused). */
	if (!s->number[i]) {
		param_clear(&s->scratch);
		return &s->scratch;
	}
	param_clear(&s->params[s->number[i] - 1]);
	return &s->params[s->number[i] - 1];
}

static int pg_bind_int64(struct kifu_stmt *x, int i, int64_t v)
{
	struct pg_param *p = param(x, i);

	if (!p)
		return KIFU_ERANGE;
	snprintf(p->num, sizeof(p->num), "%lld", (long long)v);
	p->value = p->num;
	return 0;
}

static int pg_bind_double(struct kifu_stmt *x, int i, double v)
{
	struct pg_param *p = param(x, i);

	if (!p)
		return KIFU_ERANGE;
	/* %.17g: the same double comes back. */
	snprintf(p->num, sizeof(p->num), "%.17g", v);
	p->value = p->num;
	return 0;
}

static int pg_bind_null(struct kifu_stmt *x, int i)
{
	return param(x, i) ? 0 : KIFU_ERANGE;
}

static int bind_bytes(struct kifu_stmt *x, int i, const char *data, size_t len, int copy, int binary)
{
	struct pg_param *p = param(x, i);

	if (!p)
		return KIFU_ERANGE;
	if (len > 0x7fffffff) {
		PGS(x)->bind_err = KIFU_ERANGE;
		return KIFU_ERANGE;
	}
	if (copy || !binary) {
		/* Text parameters end at their NUL: a copy makes sure there is one. */
		p->owned = malloc(len + 1);
		if (!p->owned) {
			PGS(x)->bind_err = KIFU_ENOMEM;
			return KIFU_ENOMEM;
		}
		memcpy(p->owned, data, len);
		p->owned[len] = 0;
		data = p->owned;
	}
	p->value = data;
	p->len = (int)len;
	p->binary = binary;
	return 0;
}

static int pg_bind_text(struct kifu_stmt *x, int i, const char *text, size_t len, int copy)
{
	struct pg_param *p;

	/* Text parameters end at their NUL: static text that has it there needs no copy. */
	if (copy || text[len] != 0 || len > 0x7fffffff)
		return bind_bytes(x, i, text, len, 1, 0);
	p = param(x, i);
	if (!p)
		return KIFU_ERANGE;
	p->value = text;
	p->len = (int)len;
	return 0;
}

static int pg_bind_blob(struct kifu_stmt *x, int i, const void *data, size_t len)
{
	return bind_bytes(x, i, data, len, 1, 1);
}

/* Runs s (its parameters bound) once: all its rows, or a cursor over them. */
static int stmt_run(struct pg_stmt *s)
{
	struct pg_conn *c = CONN(s->base.st);
	const char *values[MAX_PARAMS];
	int lengths[MAX_PARAMS], formats[MAX_PARAMS], i, ret;
	PGresult *res;
	ExecStatusType status;

	if (s->stage)
		return kifu_pg_staged_add_(c, s);
	if (s->ids) {
		int done;

		ret = kifu_pg_ids_run_(&done, c, s);
		if (ret < 0 || done)
			return ret;
	}
	if (s->reads_staged && c->nstaged) {
		ret = kifu_pg_staged_send_(c);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < s->nparams; i++) {
		values[i] = s->params[i].value;
		lengths[i] = s->params[i].len;
		formats[i] = s->params[i].binary;
	}
	if (!s->rows && (PQpipelineStatus(c->pg) != PQ_PIPELINE_OFF ||
			 PQtransactionStatus(c->pg) == PQTRANS_INTRANS)) {
		/* A write in a transaction: sent now, its result read by the next drain. */
		if ((PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF && PQenterPipelineMode(c->pg) != 1) ||
		    PQsendQueryPrepared(c->pg, s->name, s->nparams, values, lengths, formats, 0) != 1) {
			kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
			return KIFU_EDB;
		}
		c->queued++;
		c->changes = -1;
		s->nrows = 0;
		return 0;
	}
	if (PQpipelineStatus(c->pg) != PQ_PIPELINE_OFF && !(s->query && !s->base.small && !s->direct)) {
		/* Writes in flight: this one goes behind them, all answered in one round trip. */
		if (PQsendQueryPrepared(c->pg, s->name, s->nparams, values, lengths, formats, 0) != 1) {
			kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
			return KIFU_EDB;
		}
		ret = kifu_pg_drain_last_(c, &res);
		if (ret < 0)
			return ret;
		status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
		goto done;
	}
	ret = kifu_pg_drain_(c);
	if (ret < 0)
		return ret;
	if (s->query && !s->base.small && !s->direct &&
	    PQtransactionStatus(c->pg) == PQTRANS_INTRANS) {
		/*
		 * Many rows, perhaps: a cursor, read FETCH_ROWS at a time. A
		 * statement that gave fewer (a look-up run once per row of
		 * another) is run directly after that, one round trip a run.
		 */
		s->fetched = 0;
		struct kifu_buf sql = KIFU_BUF_INIT;

		snprintf(s->cursor, sizeof(s->cursor), "kifu_c%u", ++c->names);
		kifu_buf_printf(&sql, "DECLARE %s NO SCROLL CURSOR FOR %s", s->cursor, s->sql);
		if (sql.failed) {
			kifu_buf_release(&sql);
			s->cursor[0] = 0;
			return kifu_pg_nomem_(c);
		}
		res = PQexecParams(c->pg, sql.data, s->nparams, NULL, values, lengths, formats, 0);
		kifu_buf_release(&sql);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			ret = kifu_pg_result_fail_(c, res);
			PQclear(res);
			s->cursor[0] = 0;
			return ret;
		}
		PQclear(res);
		return 0;
	}
	res = PQexecPrepared(c->pg, s->name, s->nparams, values, lengths, formats, 0);
	status = PQresultStatus(res);
done:
	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		ret = kifu_pg_result_fail_(c, res);

		PQclear(res);
		return ret;
	}
	c->changes = strtoll(PQcmdTuples(res), NULL, 10);
	s->res = res;
	s->nrows = PQntuples(res);
	return 0;
}

/* The next FETCH_ROWS rows of the open cursor. */
static int stmt_fetch(struct pg_stmt *s)
{
	struct pg_conn *c = CONN(s->base.st);
	char sql[64];
	PGresult *res;
	int ret = kifu_pg_drain_(c);

	if (ret < 0)
		return ret;
	stmt_clear_result(s);
	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", FETCH_ROWS, s->cursor);
	res = PQexec(c->pg, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = kifu_pg_result_fail_(c, res);

		PQclear(res);
		return ret;
	}
	s->res = res;
	s->nrows = PQntuples(res);
	s->fetched += s->nrows;
	return 0;
}

static int pg_step(struct kifu_stmt *x)
{
	struct pg_stmt *s = PGS(x);
	struct pg_conn *c = CONN(x->st);
	int ret;

	if (s->bind_err) {
		ret = s->bind_err;
		s->bind_err = 0;
		kifu_pg_conn_fail_(c, "22023", ret == KIFU_ENOMEM ? "out of memory" : "bad parameter");
		return ret;
	}
	if (s->state == 2)
		return KIFU_DB_DONE;
	if (s->state == 0) {
		ret = stmt_run(s);
		c->last_io = kifu_pg_now_ms_();
		if (ret < 0)
			return ret;
		s->state = 1;
		if (s->cursor[0]) {
			ret = stmt_fetch(s);
			if (ret < 0)
				return ret;
		}
	}
	free(s->blob);
	s->blob = NULL;
	s->row++;
	if (s->row >= s->nrows && s->cursor[0] && s->nrows == FETCH_ROWS) {
		ret = stmt_fetch(s);
		if (ret < 0)
			return ret;
		s->row = 0;
	}
	if (s->row < s->nrows)
		return KIFU_DB_ROW;
	s->state = 2;
	return KIFU_DB_DONE;
}

static int pg_column_count(struct kifu_stmt *x)
{
	return PGS(x)->res ? PQnfields(PGS(x)->res) : 0;
}

static int in_row(struct pg_stmt *s, int i)
{
	return s->res && s->row >= 0 && s->row < s->nrows && i >= 0 && i < PQnfields(s->res);
}

static int pg_column_is_null(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);

	return !in_row(s, i) || PQgetisnull(s->res, s->row, i);
}

static int64_t pg_column_int64(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);
	const char *v;

	if (pg_column_is_null(x, i))
		return 0;
	v = PQgetvalue(s->res, s->row, i);
	if (PQftype(s->res, i) == BOOLOID)
		return v[0] == 't';
	/* numeric (sum of bigints) or float: as SQLite, the integer part. */
	if (strpbrk(v, ".eE"))
		return (int64_t)strtod(v, NULL);
	return strtoll(v, NULL, 10);
}

static double pg_column_double(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);
	const char *v;

	if (pg_column_is_null(x, i))
		return 0;
	v = PQgetvalue(s->res, s->row, i);
	if (PQftype(s->res, i) == BOOLOID)
		return v[0] == 't';
	return strtod(v, NULL);
}

static const void *pg_column_blob(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);

	if (pg_column_is_null(x, i))
		return NULL;
	if (PQftype(s->res, i) != BYTEAOID) {
		s->blob_len = (size_t)PQgetlength(s->res, s->row, i);
		return PQgetvalue(s->res, s->row, i);
	}
	free(s->blob);
	s->blob = PQunescapeBytea((const unsigned char *)PQgetvalue(s->res, s->row, i),
				  &s->blob_len);
	return s->blob;
}

static const char *pg_column_text(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);

	if (pg_column_is_null(x, i))
		return NULL;
	if (PQftype(s->res, i) == BOOLOID)
		return PQgetvalue(s->res, s->row, i)[0] == 't' ? "1" : "0";
	return PQgetvalue(s->res, s->row, i);
}

static size_t pg_column_bytes(struct kifu_stmt *x, int i)
{
	struct pg_stmt *s = PGS(x);

	if (pg_column_is_null(x, i))
		return 0;
	if (PQftype(s->res, i) == BYTEAOID) {
		if (!s->blob)
			pg_column_blob(x, i);
		return s->blob ? s->blob_len : 0;
	}
	return (size_t)PQgetlength(s->res, s->row, i);
}

static int pg_exec(struct kifu_store *st, const char *sql)
{
	struct pg_conn *c = CONN(st);
	PGresult *res;
	ExecStatusType status;
	int ret = kifu_pg_drain_(c);

	/* A rollback ends whatever went wrong before it. */
	if (ret < 0 && strncmp(sql, "ROLLBACK", 8) != 0)
		return ret;
	/*
	 * The rows staged for COPY go with the transaction; a rollback to a
	 * savepoint (store_tx.c) keeps them: the write it undoes staged none.
	 */
	if (!strncmp(sql, "ROLLBACK", 8) && strncmp(sql, "ROLLBACK TO", 11) != 0)
		kifu_pg_staged_clear_(c);
	else if (c->nstaged && kifu_pg_reads_staged_(sql) && (ret = kifu_pg_staged_send_(c)) < 0)
		return ret;
	if (strstr(sql, "COMMIT") && (ret = kifu_pg_ids_commit_(c)) < 0)
		return ret;
	if (!strncmp(sql, "SAVEPOINT", 9))
		kifu_pg_ids_savepoint_(c);
	else if (!strncmp(sql, "ROLLBACK TO", 11))
		kifu_pg_ids_rollback_to_(c);
	res = PQexec(c->pg, sql);
	ret = 0;
	status = PQresultStatus(res);

	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
		ret = kifu_pg_result_fail_(c, res);
	else
		c->changes = strtoll(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	/* A transaction ended (or was never begun): its group with it. */
	if (PQtransactionStatus(c->pg) == PQTRANS_IDLE) {
		c->grouped = 0;
		kifu_pg_ids_end_(c, ret == 0 && strncmp(sql, "ROLLBACK", 8) != 0);
	}
	c->last_io = kifu_pg_now_ms_();
	return ret;
}

/*
 * pg_exec without a round trip of its own inside a transaction: sent in
 * pipeline mode behind the writes in flight, its result read by the next
 * drain (a SAVEPOINT before a game's writes), or at once with theirs when
 * wait (a RELEASE after them: one round trip for all).
 */
static int pg_exec_nowait(struct kifu_store *st, const char *sql, int wait)
{
	struct pg_conn *c = CONN(st);
	int ret;

	/* No statement: the answers to the writes in flight, now. */
	if (!sql) {
		ret = kifu_pg_drain_(c);
		c->last_io = kifu_pg_now_ms_();
		return ret;
	}
	if (c->sticky || (PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF &&
			  PQtransactionStatus(c->pg) != PQTRANS_INTRANS))
		return pg_exec(st, sql);
	if (!strncmp(sql, "SAVEPOINT", 9))
		kifu_pg_ids_savepoint_(c);
	if ((PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF && PQenterPipelineMode(c->pg) != 1) ||
	    PQsendQueryParams(c->pg, sql, 0, NULL, NULL, NULL, NULL, 0) != 1) {
		kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
		return KIFU_EDB;
	}
	c->queued++;
	if (!wait)
		return 0;
	ret = kifu_pg_drain_(c);
	c->last_io = kifu_pg_now_ms_();
	return ret;
}

static long long pg_changes(struct kifu_store *st)
{
	return CONN(st)->changes;
}

static int pg_in_transaction(struct kifu_store *st)
{
	PGTransactionStatusType t = PQtransactionStatus(CONN(st)->pg);

	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
}

static int pg_errcode(struct kifu_store *st)
{
	return CONN(st)->code ? CONN(st)->code : KIFU_EDB;
}

static const char *pg_errmsg(struct kifu_store *st)
{
	struct pg_conn *c = CONN(st);

	if (c->msg)
		return c->msg;
	return PQstatus(c->pg) == CONNECTION_BAD ? "the connection to the server was lost"
						 : "unknown error";
}

/* Serialization failure, deadlock: the transaction may simply be run again. */
static int pg_retryable(struct kifu_store *st)
{
	const char *s = CONN(st)->state;

	return !strcmp(s, "40001") || !strcmp(s, "40P01");
}

/*
 * Classes 22 (data exception: a value out of range, bad text), 23 (integrity
 * constraint) and 54 (program limit exceeded: an index entry too large).
 */
static int pg_record_error(struct kifu_store *st)
{
	const char *s = CONN(st)->state;

	return !strncmp(s, "22", 2) || !strncmp(s, "23", 2) || !strncmp(s, "54", 2);
}

/* A read-only transaction or role, missing privileges, a full disk, a lock wait given up. */
static int pg_cannot_write(struct kifu_store *st)
{
	const char *s = CONN(st)->state;

	return !strcmp(s, "25006") || !strcmp(s, "42501") || !strncmp(s, "53", 2) ||
	       !strcmp(s, "55P03") || !strcmp(s, "57014");
}

static void pg_json_at(struct kifu_buf *out, const char *array, const char *index)
{
	kifu_buf_printf(out, "(%s ->> CAST((%s) AS integer))", array, index);
}

/*
 * The SQL that differs. Transactions: the transaction of a game (its
 * own: store_tx.c, own_begin) holds the games' lock exclusively and the
 * writers' lock shared until it commits, as a group of games does
 * (kifu_pg_batch_join_); a caller's batch does not otherwise (it may wait long
 * for its next game). A game's own commit does not wait for the disk
 * (synchronous_commit off), a group's does;
 * the caller's batch ends with a commit that does (an id taken makes it
 * write a commit record even when empty), and with it every game
 * committed before: durable per batch, as SQLite's batches, at the cost
 * of one disk flush per batch rather than per game; a refresh of the statistics holds it alone
 * (no game is being written meanwhile, so every id up to the highest one
 * it sees is committed); a report reads one snapshot. Games and players
 * take an id from their sequence only when the row is new (the NOT EXISTS
 * spares the sequence for a duplicate already committed; ON CONFLICT
 * decides against one being written at the same time), so that ids are
 * those SQLite gives.
 */
static const struct kifu_db_query pg_queries[] = {
	{ "begin", "BEGIN ISOLATION LEVEL READ COMMITTED" },
	/* kifu_store_packed_check_: a game whose hashes are not an array of one a position */
	{ "hashes_mismatch", "SELECT g.id, g.plies, CASE WHEN jsonb_typeof(m.hashes) = 'array' "
			     "THEN jsonb_array_length(m.hashes) ELSE -1 END FROM games g "
			     "JOIN game_moves m ON m.game_id = g.id WHERE CASE WHEN "
			     "jsonb_typeof(m.hashes) = 'array' THEN jsonb_array_length(m.hashes) "
			     "<> g.plies + 1 ELSE true END LIMIT 1" },
	{ "begin_game", "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL synchronous_commit = off; "
			"SELECT pg_advisory_xact_lock(" LOCK_MERGE "); "
			"SELECT pg_advisory_xact_lock_shared(" LOCK_WRITERS ")" },
	{ "commit_batch", "SET LOCAL synchronous_commit = on; SELECT pg_current_xact_id(); COMMIT" },
	{ "begin_refresh", "BEGIN ISOLATION LEVEL READ COMMITTED; "
			   "SELECT pg_advisory_xact_lock(" LOCK_WRITERS ")" },
	{ "begin_read", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" },
	{ "commit", "COMMIT" },
	{ "rollback", "ROLLBACK" },
	{ "lock_schema", "SELECT pg_advisory_xact_lock(" LOCK_SCHEMA ")" },
	/* pg_class read as a table, in the statement's snapshot (to_regclass may see a stale cache). */
	{ "has", "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
		 "WHERE n.nspname = current_schema() AND c.relname = ?1::text" },
	{ "quarantine_lock", "SELECT pg_advisory_xact_lock(?1::bigint)" },
	{ "game_insert",
	  "INSERT INTO games(id, game, variant, first, event, site, round, date, date_first, "
	  "annotator, source, result, winner, termination, plies, content_hash, file_id, "
	  "file_line, file_game) SELECT nextval('games_id_seq'), ?1::text, ?2::text, ?3::text, "
	  "?4::text, ?5::text, ?6::text, ?7::text, ?8::text, ?9::text, ?10::text, ?11::text, "
	  "?12::integer, ?13::text, ?14::integer, ?15::bigint, ?16::bigint, ?17::integer, "
	  "?18::integer WHERE NOT EXISTS (SELECT 1 FROM games WHERE content_hash = ?15::bigint) "
	  "ON CONFLICT (content_hash) DO NOTHING RETURNING id" },
	/*
	 * Names are keyed by their MD5 (schema/pg/009: a btree entry cannot
	 * hold a long name) and compared whole: a name whose MD5 another name
	 * holds is not found, and its insert stores nothing.
	 */
	{ "player_find", "SELECT id FROM players WHERE md5(name) = md5(?1::text) AND name = ?1::text" },
	{ "player_insert",
	  "INSERT INTO players(id, name) SELECT nextval('players_id_seq'), ?1::text "
	  "WHERE NOT EXISTS (SELECT 1 FROM players WHERE md5(name) = md5(?1::text)) "
	  "ON CONFLICT DO NOTHING RETURNING id" },
	{ "quar_insert",
	  "INSERT INTO quarantine(import_id, file, file_line, file_game, game, raw, raw_truncated, "
	  "raw_hash, errors) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
	  "ON CONFLICT DO NOTHING RETURNING id" },
	/* store_symm.c: the canonical hashes of games ?1..?2 into their index. */
	{ "canon_index",
	  "INSERT INTO positions_canon(hash, game_id, ply) SELECT h.value::bigint, c.game_id, "
	  "min(h.ord - 1) FROM game_canon c CROSS JOIN LATERAL "
	  "jsonb_array_elements_text(c.canon) WITH ORDINALITY AS h(value, ord) "
	  "WHERE c.game_id BETWEEN ?1 AND ?2 AND NOT EXISTS (SELECT 1 FROM positions_canon p "
	  "WHERE p.hash = (c.canon ->> 0)::bigint AND p.game_id = c.game_id) "
	  "GROUP BY 1, 2 ON CONFLICT DO NOTHING" },
	{ "canon_insert", "INSERT INTO game_canon(game_id, canon) VALUES (?1, ?2::jsonb)" },
	{ "game_moves_insert",
	  "INSERT INTO game_moves(game_id, moves, hashes, notes) "
	  "VALUES (?1, ?2::jsonb, ?3::jsonb, ?4::jsonb)" },
	{ NULL, NULL }
};

static const char *query_text(const char *name)
{
	const struct kifu_db_query *q;

	for (q = pg_queries; q->name; q++)
		if (!strcmp(q->name, name))
			return q->sql;
	return "";
}

const struct kifu_store_backend kifu_store_pg_ = {
	.name = "postgresql",
	.accepts = pg_accepts,
	.open = pg_open,
	.close = pg_close,
	.migrations = kifu_pg_migrations_,
	.version_get = pg_version_get,
	.version_set = pg_version_set,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_null = pg_bind_null,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.step = pg_step,
	.reset = pg_reset,
	.column_count = pg_column_count,
	.column_is_null = pg_column_is_null,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.column_bytes = pg_column_bytes,
	.exec = pg_exec,
	.exec_nowait = pg_exec_nowait,
	.changes = pg_changes,
	.in_transaction = pg_in_transaction,
	.errcode = pg_errcode,
	.errmsg = pg_errmsg,
	.retryable = pg_retryable,
	.cannot_write = pg_cannot_write,
	.record_error = pg_record_error,
	/*
	 * No bulk mode: dropping indexes would lock the tables against every
	 * other writer; games written back to back are grouped per
	 * transaction instead (batch_join), their position index entries sent
	 * with one COPY at its commit.
	 */
	.bulk_begin = NULL,
	.bulk_end = NULL,
	.game_tx = 1,
	.batch_join = kifu_pg_batch_join_,
	.posidx_queue = kifu_pg_posidx_queue_,
	.posidx_commit = kifu_pg_posidx_commit_,
	.posidx_rollback = kifu_pg_posidx_forget_,
	.posidx_defer = kifu_pg_posidx_nothing_,
	.posidx_restore = kifu_pg_posidx_nothing_,
	.posidx_release = kifu_pg_posidx_forget_,
	.json_at = pg_json_at,
	.queries = pg_queries,
};
