/*
 * The PostgreSQL backend's errors and pipelined results (pg_impl.h): the
 * last error a connection met, kept as its message, SQLSTATE and code, and
 * the reading of the results of writes sent without waiting. Every other
 * file of the backend (pg.c, pg_load.c, pg_ids.c) reports through these,
 * so they sit below all of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/backends/pg_impl.h"
#include "store/store_impl.h"

void kifu_pg_conn_clear_(struct pg_conn *c)
{
	free(c->msg);
	c->msg = NULL;
	c->code = 0;
	c->state[0] = 0;
}

/* Keeps msg (its first line, without the "ERROR:  " libpq may put first) as the last error. */
void kifu_pg_conn_fail_(struct pg_conn *c, const char *state, const char *msg)
{
	size_t n;

	kifu_pg_conn_clear_(c);
	if (!msg || !*msg)
		msg = PQerrorMessage(c->pg);
	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	if (!strncmp(msg, "FATAL:  ", 8))
		msg += 8;
	n = strcspn(msg, "\n");
	c->msg = malloc(n + 1);
	if (c->msg) {
		memcpy(c->msg, msg, n);
		c->msg[n] = 0;
	}
	snprintf(c->state, sizeof(c->state), "%s", state ? state : "");
	/* Class 53: insufficient resources (out of memory 53200, disk full 53100). */
	c->code = !strcmp(c->state, "53200") ? KIFU_ENOMEM : KIFU_EDB;
}

/* The error of a failed result (NULL: the connection's), kept; returns its code. */
int kifu_pg_result_fail_(struct pg_conn *c, PGresult *res)
{
	if (res && PQresultStatus(res) != PGRES_FATAL_ERROR && PQresultStatus(res) != PGRES_NONFATAL_ERROR)
		kifu_pg_conn_fail_(c, "", PQresultErrorMessage(res));
	else
		kifu_pg_conn_fail_(c, res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL,
			  res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL);
	if (PQstatus(c->pg) == CONNECTION_BAD && c->msg && !strstr(c->msg, "connection")) {
		/* The server went away: say so rather than echo the last statement's fate. */
		kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
	}
	return c->code;
}

int kifu_pg_nomem_(struct pg_conn *c)
{
	kifu_pg_conn_fail_(c, "53200", "out of memory");
	return KIFU_ENOMEM;
}

/*
 * Writes inside a transaction whose results nobody reads (an INSERT
 * without RETURNING) are sent without waiting, in libpq's pipeline mode:
 * a game's rows cost one round trip together rather than one each. This
 * reads their results (the first error is the one kept, and returned) and
 * leaves pipeline mode; everything else calls it before talking to the
 * server.
 */
int kifu_pg_drain_(struct pg_conn *c)
{
	return kifu_pg_drain_last_(c, NULL);
}

/*
 * kifu_pg_drain_(), keeping in *last (when not NULL) the result of the last
 * statement sent (NULL when it failed or never ran): a query sent behind
 * the writes is answered in the same round trip.
 */
int kifu_pg_drain_last_(struct pg_conn *c, PGresult **last)
{
	PGresult *res;
	int ret = c->sticky, syncs = 0;

	if (last)
		*last = NULL;

	c->sticky = 0;
	if (PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF)
		return ret;
	if (PQpipelineSync(c->pg) != 1) {
		kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
		return KIFU_EDB;
	}
	while (!syncs) {
		res = PQgetResult(c->pg);
		if (!res) {
			if (PQstatus(c->pg) == CONNECTION_BAD) {
				if (ret == 0)
					ret = kifu_pg_result_fail_(c, NULL);
				break;
			}
			continue;
		}
		switch (PQresultStatus(res)) {
		case PGRES_PIPELINE_SYNC:
			syncs = 1;
			break;
		case PGRES_COMMAND_OK:
		case PGRES_TUPLES_OK:
			if (last) {
				PQclear(*last);
				*last = res;
				res = NULL;
			}
			break;
		case PGRES_PIPELINE_ABORTED:
			break;
		default:
			if (ret == 0)
				ret = kifu_pg_result_fail_(c, res);
			break;
		}
		PQclear(res);
	}
	if (ret < 0 && last) {
		PQclear(*last);
		*last = NULL;
	}
	c->queued = 0;
	if (PQexitPipelineMode(c->pg) != 1 && ret == 0) {
		kifu_pg_conn_fail_(c, "08006", PQerrorMessage(c->pg));
		ret = KIFU_EDB;
	}
	return ret;
}
