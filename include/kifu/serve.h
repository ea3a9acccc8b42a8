/*
 * kifu-serve's web server (lib/serve/): the database, read-only, over HTTP
 * on GNU libmicrohttpd: a JSON API whose answers are the tools' json for
 * the same question, and the pages of lib/render (the database at a
 * glance, the explorer, a game's replay, a player). Nothing here prints:
 * each request's log line goes to the caller's function.
 *
 *     struct kifu_serve_options o = KIFU_SERVE_OPTIONS_INIT;
 *     struct kifu_server *srv;
 *
 *     o.db = "kifu.db";
 *     kifu_serve_start(&srv, &o, &err);   (listening: kifu_serve_port(srv))
 *     ... wait for a signal ...
 *     kifu_serve_stop(srv);
 */
#ifndef KIFU_SERVE_H
#define KIFU_SERVE_H

#include <stddef.h>

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/store.h"

struct kifu_serve_options {
	const char *db;       /* the database (a SQLite file or a PostgreSQL URI) */
	const char *address;  /* an IPv4 or IPv6 address to listen on (NULL: 127.0.0.1) */
	int port;             /* 0: a free port, kifu_serve_port says which */
	int threads;          /* worker threads, each with its own database connection (>= 1) */
	unsigned connections; /* at most this many waiting for their headers, and as many answered */
	unsigned timeout;     /* seconds a connection may stay idle */
	/* Called from the worker threads (at once) with one line per request, no line break. */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

#define KIFU_SERVE_OPTIONS_INIT { NULL, NULL, 8080, 4, 1024, 10, NULL, NULL }

struct kifu_server;

/*
 * Opens the database once to check it (read-only: KIFU_STORE_READ_ONLY),
 * then listens. *out belongs to the caller (kifu_serve_stop). It raises the
 * process's soft limit of open files, as far as the hard one allows, to
 * what the connections take (2 * o->connections and a few more).
 */
int kifu_serve_start(struct kifu_server **out, const struct kifu_serve_options *o,
		     struct kifu_error *err);
/* The port listened on. */
int kifu_serve_port(const struct kifu_server *srv);
/* Stops listening, ends the connections and the threads, and frees srv (NULL: nothing). */
void kifu_serve_stop(struct kifu_server *srv);

/* One parameter of a request, decoded. */
struct kifu_serve_param {
	const char *name, *value; /* value "" for a name alone */
};

/* One answer: status, its type, its body. */
struct kifu_serve_answer {
	int status;
	const char *type;          /* "application/json", "text/html; charset=utf-8", ... */
	struct kifu_buf body;
	int page;                  /* a page, not the API: an error is an HTML page */
	char nonce[33];            /* what the page's own scripts carry (the policy lets those run) */
	const char *header;        /* one more header's name ("Link", "Location"; NULL: none) */
	struct kifu_buf header_value; /* ... and its value (released with the body) */
};

/*
 * The answer to GET path?params (decoded, checked: UTF-8 without control
 * characters) over the store st: what the server sends, without HTTP.
 * Fills *a (its body and header_value released by the caller). Returns 0,
 * or KIFU_ENOMEM.
 */
int kifu_serve_answer(struct kifu_serve_answer *a, struct kifu_store *st, const char *path,
		      const struct kifu_serve_param *params, size_t nparams);

#endif
