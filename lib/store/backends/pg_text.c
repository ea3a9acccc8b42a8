/*
 * The PostgreSQL backend's work on text (lib/store/backends/pg.c): SQL written with
 * SQLite's parameters rewritten with PostgreSQL's, and a connection URI
 * without its password, as messages quote it. Work on strings only (libpq
 * parses the URI, it connects nowhere), so that tests/test_store_pg.c
 * checks them without a server.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/buf.h"
#include "store/store_impl.h"

/* Appends v percent-encoded but for the unreserved characters and keep. */
static void put_encoded(struct kifu_buf *b, const char *v, const char *keep)
{
	const unsigned char *p = (const unsigned char *)v;

	for (; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~", *p) || strchr(keep, *p))
			kifu_buf_putc(b, (char)*p);
		else
			kifu_buf_printf(b, "%%%02X", *p);
}

/*
 * The URI as messages quote it: what libpq parses of it (PQconninfoParse:
 * keys and values percent-decoded, as the connection takes them) written
 * again without the passwords, so that no spelling of a key
 * (pass%77ord=) can keep one in. The user, the host and port (unless a
 * socket directory or several), and the database are in their places; the
 * rest are parameters, in libpq's order. A URI libpq cannot parse is shown
 * as its scheme only.
 */
char *kifu_pg_uri_public_(const char *uri)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	PQconninfoOption *opts = PQconninfoParse(uri, NULL), *o;
	const char *scheme = strstr(uri, "://"), *user = NULL, *host = NULL, *port = NULL;
	const char *db = NULL;
	int in_authority, params = 0;

	kifu_buf_add(&b, uri, scheme ? (size_t)(scheme - uri) : 0);
	kifu_buf_puts(&b, scheme ? "://" : "postgresql://");
	if (!opts) {
		kifu_buf_puts(&b, "...");
		return kifu_buf_detach(&b);
	}
	for (o = opts; o->keyword; o++) {
		if (!o->val)
			continue;
		if (!strcmp(o->keyword, "user"))
			user = o->val;
		else if (!strcmp(o->keyword, "host"))
			host = o->val;
		else if (!strcmp(o->keyword, "port"))
			port = o->val;
		else if (!strcmp(o->keyword, "dbname"))
			db = o->val;
	}
	/* no host has an '@': what comes before the last one is a password that held one */
	if (host && strrchr(host, '@'))
		host = strrchr(host, '@') + 1;
	in_authority = host && *host != '/' && !strchr(host, ',') && !(port && strchr(port, ','));
	if (user) {
		put_encoded(&b, user, "");
		kifu_buf_putc(&b, '@');
	}
	if (in_authority) {
		int v6 = strchr(host, ':') != NULL;

		kifu_buf_puts(&b, v6 ? "[" : "");
		put_encoded(&b, host, v6 ? ":" : "");
		kifu_buf_puts(&b, v6 ? "]" : "");
		if (port) {
			kifu_buf_putc(&b, ':');
			put_encoded(&b, port, "");
		}
	}
	if (db) {
		kifu_buf_putc(&b, '/');
		put_encoded(&b, db, "");
	}
	for (o = opts; o->keyword; o++) {
		if (!o->val || !strcmp(o->keyword, "password") || !strcmp(o->keyword, "sslpassword") ||
		    !strcmp(o->keyword, "user") || !strcmp(o->keyword, "dbname") ||
		    (in_authority && (!strcmp(o->keyword, "host") || !strcmp(o->keyword, "port"))))
			continue;
		kifu_buf_putc(&b, params++ ? '&' : '?');
		put_encoded(&b, o->keyword, "");
		kifu_buf_putc(&b, '=');
		put_encoded(&b, !strcmp(o->keyword, "host") ? host : o->val, "/:,");
	}
	PQconninfoFree(opts);
	return kifu_buf_detach(&b);
}

/*
 * sql with SQLite's parameters (?N, or ? for the one after the highest
 * so far) as PostgreSQL's $K, outside quoted text and comments, numbered
 * densely in the order of N (PostgreSQL wants a type for every $K up to
 * the highest, SQLite lets numbers go unused): number[N] = K, *nparams
 * the count. NULL when out of memory or a number is out of range.
 */
char *kifu_pg_rewrite_(const char *sql, short *number, int *nparams)
{
	char *out = malloc(2 * strlen(sql) + 1), *o;
	const char *p;
	int pass, n = 0, high = 0, k;

	if (!out)
		return NULL;
	/* Pass 0 finds the numbers used, pass 1 writes. */
	for (pass = 0; pass < 2; pass++) {
		high = 0;
		for (p = sql, o = out; *p;) {
			if (*p == '\'' || *p == '"') {
				char q = *p;

				*o++ = *p++;
				while (*p && *p != q)
					*o++ = *p++;
				if (*p)
					*o++ = *p++;
			} else if (p[0] == '-' && p[1] == '-') {
				while (*p && *p != '\n')
					*o++ = *p++;
			} else if (*p == '?') {
				long v;

				p++;
				if (*p >= '0' && *p <= '9')
					v = strtol(p, (char **)&p, 10);
				else
					v = high + 1;
				if (v < 1 || v > KIFU_PG_MAX_NUMBER) {
					free(out);
					return NULL;
				}
				if (v > high)
					high = (int)v;
				if (pass == 0)
					number[v] = 1;
				else
					o += sprintf(o, "$%d", number[v]);
			} else {
				*o++ = *p++;
			}
		}
		*o = 0;
		if (pass == 0)
			for (k = 1; k <= KIFU_PG_MAX_NUMBER; k++)
				if (number[k])
					number[k] = (short)++n;
	}
	*nparams = n;
	return out;
}
