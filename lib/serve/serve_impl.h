/*
 * Private to lib/serve: a request's parameters as the answers read them,
 * and the answers' common forms (errors as {"error": MESSAGE}).
 */
#ifndef KIFU_SERVE_IMPL_H
#define KIFU_SERVE_IMPL_H

#include <stddef.h>
#include <sys/socket.h>

#include "kifu/serve.h"
#include "kifu/store.h"

struct kifu_serve_req_ {
	const struct kifu_serve_param *p;
	size_t n;
};

/* The value of parameter name, or NULL. */
const char *kifu_serve_param_(const struct kifu_serve_req_ *r, const char *name);

/*
 * 400 for a parameter the answer does not take ("unknown parameter 'x'
 * (did you mean 'y'?)") or one given twice; allowed ends with NULL.
 * Returns 0 when every parameter is allowed, else -1 with *a filled.
 */
int kifu_serve_params_check_(struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
			     const char *const *allowed);

/*
 * Fills *a with status and {"error": MESSAGE} (a page: its HTML error page);
 * returns -1. _err_: the message of err.
 */
int kifu_serve_fail_(struct kifu_serve_answer *a, int status, const char *message);
int kifu_serve_fail_err_(struct kifu_serve_answer *a, int status, const struct kifu_error *err);

#define FILTER_PARAMS "game", "variant", "player", "event", "since", "until", "termination", "as", "level"

/* The filters of a request; empty values are absent ones (a form's empty field). */
void kifu_serve_filter_(struct kifu_filter *f, const struct kifu_serve_req_ *r);
/* A switch: absent or 0 off, 1 on, else 400. Returns 0 or -1 (*a filled). */
int kifu_serve_flag_(int *on, struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
		     const char *name);
/* A whole number of min or more (when given), with the tool's message for option, else 400. */
int kifu_serve_count_(long *v, struct kifu_serve_answer *a, const struct kifu_serve_req_ *r,
		      const char *name, const char *option, long min);

/* The answers to /api/...: rest is the path after "/api/". */
void kifu_serve_api_(struct kifu_serve_answer *a, struct kifu_store *st, const char *rest,
		     const struct kifu_serve_req_ *r);

/* The pages (lib/serve/serve_pages.c): /, /explore/..., /game/ID, /player/NAME, /assets/NAME. */
void kifu_serve_page_(struct kifu_serve_answer *a, struct kifu_store *st, const char *path,
		      const struct kifu_serve_req_ *r);

/* ---- the connections (serve.c and serve_gate.c) ---- */

/* Where the server listens, for the Host check. */
struct kifu_serve_where_ {
	struct sockaddr_storage sa;
	int port;         /* the port listened on (the front door fills it when it binds) */
	int any_address;  /* 0.0.0.0 or ::, any host name with the port */
};

/*
 * 0 when a request's Host (host, len bytes: the first of count Host
 * headers; NULL for none) names the server: the address listened on, or
 * localhost, 127.0.0.1 or [::1], any case, with the port (left out only
 * for 80); any name with the port on a wildcard address. Else the status,
 * 400 (none, or several) or 421 (another name: DNS rebinding), and *why.
 */
int kifu_serve_host_check_(const char **why, const struct kifu_serve_where_ *w, const char *host,
			   size_t len, int count);

/* The headers of every answer (Content-Security-Policy with a's nonce, nosniff, ...), one add each. */
void kifu_serve_headers_(const struct kifu_serve_answer *a,
			 void (*add)(void *ctx, const char *name, const char *value), void *ctx);
/* 32 hex digits from the kernel's random source, for a page's scripts. */
void kifu_serve_nonce_(char out[33]);
/* Milliseconds of a monotonic clock. */
double kifu_serve_now_ms_(void);
/* A request's log line: METHOD PATH STATUS SIZE TIME (status 0: "-"), and "not sent: WHY". */
void kifu_serve_log_(void (*log)(void *ctx, const char *line), void *ctx, const char *method,
		     const char *path, int status, size_t size, double ms, const char *why);

/* The front door (serve_gate.c): it listens, and passes on the connections whose requests it lets through. */
struct kifu_serve_gate_conf_ {
	struct kifu_serve_where_ *where;
	unsigned connections;    /* waiting for their headers at once, at most (from any addresses) */
	unsigned header_seconds; /* a request's line and headers within this (else 408) */
	/* takes the socket of a connection let through (and closes it when it cannot) */
	void (*pass)(void *ctx, int fd, const struct sockaddr *addr, socklen_t len);
	void *ctx;
	void (*log)(void *ctx, const char *line);  /* the log line of each answer it makes */
	void *log_ctx;
};

struct kifu_serve_gate_;

/* Listens (conf->where->port filled); conf is kept, not copied. */
int kifu_serve_gate_open_(struct kifu_serve_gate_ **out, const struct kifu_serve_gate_conf_ *conf,
			  struct kifu_error *err);
/* Starts accepting, on a thread of its own. */
int kifu_serve_gate_run_(struct kifu_serve_gate_ *g, struct kifu_error *err);
/* Stops accepting, closes the connections it holds, and frees g (NULL: nothing). */
void kifu_serve_gate_stop_(struct kifu_serve_gate_ *g);

#endif
