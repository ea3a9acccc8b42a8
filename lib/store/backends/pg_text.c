/*
 * The PostgreSQL backend's work on text (lib/store/backends/pg.c): SQL written with
 * SQLite's parameters rewritten with PostgreSQL's, and a connection URI
 * without its password, as messages quote it. Plain C over strings, so
 * that tests/test_store_pg.c checks them without a server.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

/*
 * The URI as messages quote it: without a password, in the user part
 * (postgresql://user:PASSWORD@host) or as a parameter (?password=...).
 */
char *kifu_pg_uri_public_(const char *uri)
{
	const char *scheme = strstr(uri, "://");
	size_t n = strlen(uri);
	char *out = malloc(n + 1), *p;

	if (!out)
		return NULL;
	memcpy(out, uri, n + 1);
	if (scheme) {
		char *auth = out + (scheme - uri) + 3;
		char *end = auth + strcspn(auth, "/?#");
		char *at = NULL, *colon;

		for (p = auth; p < end; p++)
			if (*p == '@')
				at = p;
		colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		if (colon)
			memmove(colon, at, strlen(at) + 1);
	}
	/* password=... as a query parameter: dropped with its separator. */
	for (p = strchr(out, '?'); p && *p;) {
		char *start = p + 1, *stop = start + strcspn(start, "&#");

		if (!strncmp(start, "password=", 9)) {
			memmove(*stop == '&' ? start : p, *stop == '&' ? stop + 1 : stop,
				strlen(stop + (*stop == '&')) + 1);
			continue;
		}
		p = *stop == '&' ? stop : NULL;
	}
	return out;
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
