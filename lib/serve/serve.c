/*
 * kifu-serve's HTTP server on GNU libmicrohttpd (include/kifu/serve.h).
 * The front door (serve_gate.c) accepts each connection and checks its
 * request's line and headers (their size, form, deadline, Host, method),
 * then hands the connection to libmicrohttpd, whose one thread reads and
 * writes every connection and never waits for the database: the answers
 * are made by worker threads, each with its own database connection
 * (opened read-only on its first request, closed when it ends: SQLite
 * connections are not shared between threads), while the request's
 * connection is suspended. So a long answer delays no other connection,
 * and a connection's idle time counts only while it could make progress.
 * What a request must also be before any answer reads it (checked again
 * here): its Host the address served or a loopback name with the port
 * (else 421; none 400: another site's page cannot read this one through a
 * browser, DNS rebinding); GET or HEAD (else 405); the path and every
 * parameter, once decoded, UTF-8 without control characters (a %00
 * included; a tab, CR or LF is text: names hold them) and the path
 * without a "." or ".." step (else 400, the problem named). Every
 * answer carries a Content-Security-Policy that lets a page load nothing
 * but what this server sends, and nosniff (kifu_serve_headers_); the log
 * line of a request is written once its answer was sent whole, or says
 * why it was not.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "serve/serve_impl.h"

/*
 * The memory of one connection in libmicrohttpd: the request's line and
 * headers (32 KB at most, serve_gate.c's bound) and the answer's headers.
 */
#define MEMORY_LIMIT (128 * 1024)
/* The largest answer (CLI.md: "nothing else is bounded but the answer's size"); past it, 500. */
#define ANSWER_MAX ((size_t)64 << 20)
/* At most this many parameters in a request. */
#define MAX_PARAMS 32
/* A request's line and headers arrive within this many seconds of the connection's start. */
#define HEADER_SECONDS 10

struct request;

struct kifu_server {
	struct MHD_Daemon *d;
	char *db;
	struct kifu_serve_where_ where;  /* the address and port listened on */
	struct kifu_serve_gate_ *gate;
	struct kifu_serve_gate_conf_ gate_conf;
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
	/* the requests waiting for a worker, oldest first */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct request *queue, *queue_tail;
	int stopping;
	pthread_t *workers;
	int nworkers;
};

enum { REQ_NEW, REQ_QUEUED, REQ_DONE };

/* One request, from its headers to its log line. */
struct request {
	struct kifu_server *srv;
	struct MHD_Connection *c;
	char method[16];
	char *url;
	struct kifu_serve_param params[MAX_PARAMS];
	size_t nparams;
	struct kifu_serve_answer a;
	int state;
	int sent_status;    /* 0 until an answer is queued */
	size_t sent_size;
	double start;
	struct request *next;
};

/* The policy of every answer: nothing from elsewhere; scripts only the page's own (its nonce). */
static const char csp_fmt[] = "default-src 'none'; script-src 'nonce-%s'; "
			      "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
			      "connect-src 'self'; base-uri 'none'; form-action 'self'; "
			      "frame-ancestors 'none'";

/*
 * What is wrong with a decoded path or parameter s (n bytes), named for the
 * client in buf ("the path holds a control character (%1B)"), or NULL when
 * it is UTF-8 without control characters. A tab, CR or LF is text: records'
 * names may hold them (a player "Ann<TAB>Lee" has a page at
 * /player/Ann%09Lee). unescape leaves a decoded NUL as C0 80.
 */
static const char *text_problem(char *buf, size_t size, const char *what, const char *s,
				size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = u[i], need, cp, k;

		if (c == 0xc0 && i + 1 < n && u[i + 1] == 0x80) {
			snprintf(buf, size, "%s holds a NUL (%%00)", what);
			return buf;
		}
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
			snprintf(buf, size, "%s holds a control character (%%%02X)", what, c);
			return buf;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07;
		else
			break;
		for (k = 1; k <= need; k++) {
			if (i + k >= n || (u[i + k] & 0xc0) != 0x80)
				break;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates, past U+10FFFF. */
		if (k <= need || (need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			break;
		i += need + 1;
	}
	if (i == n)
		return NULL;
	snprintf(buf, size, "%s is not UTF-8 text", what);
	return buf;
}

/*
 * Decodes the path and the parameters as libmicrohttpd does, except that
 * a decoded NUL (which would cut the text short unseen) makes the whole
 * text C0 80 (never UTF-8, so never a text of its own), which
 * text_problem names.
 */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	size_t n;

	(void)cls;
	(void)c;
	n = MHD_http_unescape(s);
	if (strlen(s) != n) {
		/* (n >= 3: "%00" was decoded into it) */
		s[0] = '\xc0';
		s[1] = '\x80';
		s[2] = '\0';
		n = 2;
	}
	return n;
}

struct params {
	struct kifu_serve_param v[MAX_PARAMS];
	size_t n;
	const char *bad;   /* what is wrong: a name or a value, or too many */
	char why[160], what[80];
};

static enum MHD_Result param_each(void *cls, enum MHD_ValueKind kind, const char *key,
				  size_t key_size, const char *value, size_t value_size)
{
	struct params *p = cls;

	(void)kind;
	if (p->n == MAX_PARAMS)
		p->bad = "too many parameters";
	else if (!(p->bad = text_problem(p->why, sizeof(p->why), "a parameter's name", key, key_size)) &&
		 value) {
		/* (the name, checked, is text) */
		snprintf(p->what, sizeof(p->what), "parameter '%.40s'", key);
		p->bad = text_problem(p->why, sizeof(p->why), p->what, value, value_size);
	}
	if (p->bad)
		return MHD_NO;
	p->v[p->n].name = key;
	p->v[p->n].value = value ? value : "";
	p->n++;
	return MHD_YES;
}

/* Whether path has a "." or ".." step (or an empty one inside it). */
static int dot_steps(const char *path)
{
	const char *s = path;

	while (*s == '/') {
		size_t n = strcspn(s + 1, "/");

		if ((n == 1 && s[1] == '.') || (n == 2 && s[1] == '.' && s[2] == '.'))
			return 1;
		s += 1 + n;
	}
	return 0;
}

/* 32 hex digits from the kernel's random source (a clock's when it has none). */
void kifu_serve_nonce_(char out[33])
{
	unsigned char r[16];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((uint64_t)ts.tv_nsec * 2654435761u >> (i % 8 * 8));
	}
	for (i = 0; i < sizeof(r); i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

double kifu_serve_now_ms_(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the Host header ---- */

static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	(void)kind;
	(void)value;
	if (!strcasecmp(key, "Host"))
		++*(int *)cls;
	return MHD_YES;
}

/* kifu_serve_host_check_ on the request's Host headers: 0, else -1 with *a filled. */
static int host_check(struct kifu_serve_answer *a, const struct kifu_server *srv,
		      struct MHD_Connection *c)
{
	const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"), *why;
	int n = 0, status;

	MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &n);
	status = kifu_serve_host_check_(&why, &srv->where, host, host ? strlen(host) : 0, n);
	return status ? kifu_serve_fail_(a, status, why) : 0;
}

/* ---- requests ---- */

static void free_body(void *p)
{
	kifu_buf_detached_free(p);
}

void kifu_serve_headers_(const struct kifu_serve_answer *a,
			 void (*add)(void *ctx, const char *name, const char *value), void *ctx)
{
	char csp[sizeof(csp_fmt) + 40];

	add(ctx, "Content-Type", a->type ? a->type : "text/plain");
	snprintf(csp, sizeof(csp), csp_fmt, a->nonce);
	add(ctx, "Content-Security-Policy", csp);
	add(ctx, "X-Content-Type-Options", "nosniff");
	add(ctx, "Referrer-Policy", "no-referrer");
	add(ctx, "Cache-Control", "no-store");
	/* one request a connection: each comes through the front door (serve_gate.c) */
	add(ctx, "Connection", "close");
	if (a->status == 405)
		add(ctx, "Allow", "GET, HEAD");
	if (a->header && a->header_value.data && !a->header_value.failed)
		add(ctx, a->header, a->header_value.data);
}

static void add_header(void *ctx, const char *name, const char *value)
{
	MHD_add_response_header(ctx, name, value);
}

/* Queues the answer of q (its body handed over) on its connection. */
static enum MHD_Result send_answer(struct request *q)
{
	struct kifu_serve_answer *a = &q->a;
	struct MHD_Response *resp;
	enum MHD_Result ret;
	size_t len = a->body.len;
	char *body = kifu_buf_detach(&a->body);

	if (!body)
		return MHD_NO;
	resp = MHD_create_response_from_buffer_with_free_callback(len, body, free_body);
	if (!resp) {
		kifu_buf_detached_free(body);
		return MHD_NO;
	}
	kifu_serve_headers_(a, add_header, resp);
	ret = MHD_queue_response(q->c, (unsigned)a->status, resp);
	MHD_destroy_response(resp);
	if (ret == MHD_YES) {
		q->sent_status = a->status;
		q->sent_size = len;
	}
	return ret;
}

static void request_free(struct request *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->nparams; i++) {
		free((char *)q->params[i].name);
		free((char *)q->params[i].value);
	}
	free(q->url);
	kifu_buf_release(&q->a.body);
	kifu_buf_release(&q->a.header_value);
	free(q);
}

/*
 * The checks that need no database, in their order: Host, method, path,
 * parameters (copied into q). Returns 0 when the request goes on to a
 * worker, else -1 with q->a filled.
 */
static int request_check(struct request *q, const char *url, const char *method)
{
	struct kifu_serve_answer *a = &q->a;
	struct params p;
	const char *why;
	char buf[80];
	size_t i;

	memset(&p, 0, sizeof(p));
	if (host_check(a, q->srv, q->c) < 0)
		return -1;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return kifu_serve_fail_(a, 405, "only GET and HEAD are answered");
	if ((why = text_problem(buf, sizeof(buf), "the path", url, strlen(url))))
		return kifu_serve_fail_(a, 400, why);
	if (url[0] != '/')
		return kifu_serve_fail_(a, 400, "the path does not start with '/'");
	if (dot_steps(url))
		return kifu_serve_fail_(a, 400, "no '.' or '..' in a path");
	if (MHD_get_connection_values_n(q->c, MHD_GET_ARGUMENT_KIND, param_each, &p) < 0 || p.bad)
		return kifu_serve_fail_(a, 400, p.bad ? p.bad : "a parameter is not UTF-8 text");
	/* (the connection's texts, kept while a worker reads them) */
	for (i = 0; i < p.n; i++) {
		q->params[i].name = strdup(p.v[i].name);
		q->params[i].value = strdup(p.v[i].value);
		q->nparams++;
		if (!q->params[i].name || !q->params[i].value)
			return kifu_serve_fail_(a, 500, "out of memory");
	}
	return 0;
}

/* A worker: answers the queued requests over its own database connection. */
static void *work(void *p)
{
	struct kifu_server *srv = p;
	struct kifu_store *st = NULL;
	struct kifu_error err;
	struct request *q;
	int stopping;

	for (;;) {
		pthread_mutex_lock(&srv->lock);
		while (!srv->queue && !srv->stopping)
			pthread_cond_wait(&srv->wake, &srv->lock);
		q = srv->queue;
		if (q && !(srv->queue = q->next))
			srv->queue_tail = NULL;
		stopping = srv->stopping;
		pthread_mutex_unlock(&srv->lock);
		if (!q)
			break;
		kifu_error_clear(&err);
		if (stopping) {
			kifu_serve_fail_(&q->a, 503, "the server is stopping");
		} else if (!st && kifu_store_open(&st, srv->db, KIFU_STORE_READ_ONLY, &err) < 0) {
			kifu_store_free(st);
			st = NULL;
			kifu_serve_fail_(&q->a, 503,
					 err.message[0] ? err.message : "cannot open the database");
		} else if (kifu_serve_answer(&q->a, st, q->url, q->params, q->nparams) < 0) {
			kifu_serve_fail_(&q->a, 500, "out of memory");
		}
		q->state = REQ_DONE;
		MHD_resume_connection(q->c);
	}
	kifu_store_free(st);
	return NULL;
}

/*
 * Called once the headers are in (*con_cls NULL), for each part of a body
 * (dropped), then with none: the request is checked and, when it needs the
 * database, queued for a worker with its connection suspended; the worker
 * resumes it, and the next call queues the answer.
 */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct kifu_server *srv = cls;
	struct request *q = *con_cls;

	(void)version;
	(void)upload;
	if (!q) {
		if (!(q = calloc(1, sizeof(*q))) || !(q->url = strdup(url))) {
			free(q);
			return MHD_NO;
		}
		q->srv = srv;
		q->c = c;
		q->start = kifu_serve_now_ms_();
		snprintf(q->method, sizeof(q->method), "%s", method);
		q->a.status = 200;
		q->a.page = strncmp(url, "/api/", 5) != 0;
		kifu_serve_nonce_(q->a.nonce);
		*con_cls = q;
		return MHD_YES;
	}
	/* A body (of a method that has none here) is read and dropped. */
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (q->state == REQ_NEW) {
		q->state = REQ_DONE;
		if (request_check(q, url, method) == 0) {
			pthread_mutex_lock(&srv->lock);
			if (srv->stopping) {
				kifu_serve_fail_(&q->a, 503, "the server is stopping");
			} else {
				/* suspended before a worker can resume it */
				q->state = REQ_QUEUED;
				MHD_suspend_connection(c);
				if (srv->queue_tail)
					srv->queue_tail->next = q;
				else
					srv->queue = q;
				srv->queue_tail = q;
				pthread_cond_signal(&srv->wake);
			}
			pthread_mutex_unlock(&srv->lock);
			if (q->state == REQ_QUEUED)
				return MHD_YES;
		}
	}
	if (q->state != REQ_DONE)
		return MHD_YES;
	return send_answer(q);
}

/* Why an answer was not sent whole, for the log. */
static const char *not_sent(enum MHD_RequestTerminationCode code)
{
	switch (code) {
	case MHD_REQUEST_TERMINATED_COMPLETED_OK: return NULL;
	case MHD_REQUEST_TERMINATED_TIMEOUT_REACHED: return "the client was idle too long";
	case MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN: return "the server stopped";
	case MHD_REQUEST_TERMINATED_CLIENT_ABORT: return "the client closed the connection";
	case MHD_REQUEST_TERMINATED_READ_ERROR: return "the request was cut short";
	default: return "the connection failed";
	}
}

/*
 * The end of a request: its log line says the answer was sent whole (status,
 * size, time from the headers to the last byte written) or why it was not.
 */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode code)
{
	struct kifu_server *srv = cls;
	struct request *q = *con_cls;
	const char *why = not_sent(code);

	(void)c;
	if (!q)
		return;
	if (srv->log)
		kifu_serve_log_(srv->log, srv->log_ctx, q->method, q->url, q->sent_status, q->sent_size,
				kifu_serve_now_ms_() - q->start, why);
	request_free(q);
	*con_cls = NULL;
}

void kifu_serve_log_(void (*log)(void *ctx, const char *line), void *ctx, const char *method,
		     const char *path, int status, size_t size, double ms, const char *why)
{
	struct kifu_buf line = KIFU_BUF_INIT;
	size_t n = strlen(path);

	/* (a path may hold a tab, CR or LF: escaped, the log keeps one line a request) */
	kifu_buf_printf(&line, "%s ", method);
	if (n > 200) {
		char head[201];

		memcpy(head, path, 200);
		head[200] = '\0';
		kifu_buf_escaped(&line, head);
		kifu_buf_puts(&line, "... ");
	} else {
		kifu_buf_escaped(&line, path);
		kifu_buf_putc(&line, ' ');
	}
	if (status)
		kifu_buf_printf(&line, "%d %zu %.1f ms", status, size, ms);
	else
		kifu_buf_printf(&line, "- %.1f ms", ms);
	if (why)
		kifu_buf_printf(&line, " not sent: %s", why);
	if (!line.failed)
		log(ctx, line.data);
	kifu_buf_release(&line);
}

/*
 * Raises the soft limit of open files to want when the hard limit allows
 * (as far as it does): it is often 1,024, fewer than the connections this
 * server takes, and the front door would then close waiting connections
 * early to make room (serve_gate.c), with none left for the database.
 */
static void raise_open_files(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

/* The front door hands over a connection whose request it let through. */
static void pass(void *ctx, int fd, const struct sockaddr *addr, socklen_t len)
{
	struct kifu_server *srv = ctx;

	/* (it closes the socket when it cannot take it: past its bounds) */
	MHD_add_connection(srv->d, fd, addr, len);
}

int kifu_serve_start(struct kifu_server **out, const struct kifu_serve_options *o,
		     struct kifu_error *err)
{
	struct kifu_server *srv;
	struct kifu_store *st = NULL;
	struct sockaddr_storage sa;
	const char *address = o->address ? o->address : "127.0.0.1";
	unsigned flags = MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME |
			 MHD_USE_NO_LISTEN_SOCKET;
	int ret, i;

	*out = NULL;
	memset(&sa, 0, sizeof(sa));
	if (o->port < 0 || o->port > 65535 || o->threads < 1)
		return kifu_error_set(err, KIFU_ERANGE, "port %d or threads %d out of range", o->port,
				      o->threads);
	if (inet_pton(AF_INET, address, &((struct sockaddr_in *)&sa)->sin_addr) == 1) {
		((struct sockaddr_in *)&sa)->sin_family = AF_INET;
		((struct sockaddr_in *)&sa)->sin_port = htons((uint16_t)o->port);
	} else if (inet_pton(AF_INET6, address, &((struct sockaddr_in6 *)&sa)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)&sa)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&sa)->sin6_port = htons((uint16_t)o->port);
		flags |= MHD_USE_IPv6;
	} else {
		return kifu_error_set(err, KIFU_EPARSE, "'%s' is not an IP address", address);
	}
	/* The database is checked before anything listens. */
	ret = kifu_store_open(&st, o->db, KIFU_STORE_READ_ONLY, err);
	kifu_store_free(st);
	if (ret < 0)
		return ret;
	srv = calloc(1, sizeof(*srv));
	if (!srv || !(srv->db = strdup(o->db)) ||
	    !(srv->workers = calloc((size_t)o->threads, sizeof(*srv->workers)))) {
		if (srv)
			free(srv->db);
		free(srv);
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	}
	srv->log = o->log;
	srv->log_ctx = o->log_ctx;
	srv->where.sa = sa;
	srv->where.any_address = !strcmp(address, "0.0.0.0") || !strcmp(address, "::");
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->wake, NULL);
	for (i = 0; i < o->threads; i++) {
		if (pthread_create(&srv->workers[i], NULL, work, srv) != 0) {
			kifu_serve_stop(srv);
			return kifu_error_set(err, KIFU_ENOMEM, "cannot start the worker threads");
		}
		srv->nworkers++;
	}
	/* waiting for their headers, and being answered: each as many as o->connections */
	raise_open_files((rlim_t)o->connections * 2 + 256);
	srv->gate_conf.where = &srv->where;
	srv->gate_conf.connections = o->connections;
	srv->gate_conf.header_seconds = HEADER_SECONDS;
	srv->gate_conf.pass = pass;
	srv->gate_conf.ctx = srv;
	srv->gate_conf.log = o->log;
	srv->gate_conf.log_ctx = o->log_ctx;
	if (kifu_serve_gate_open_(&srv->gate, &srv->gate_conf, err) < 0) {
		char why[KIFU_ERROR_MSG_MAX];

		snprintf(why, sizeof(why), "%s", err->message);
		kifu_serve_stop(srv);
		return kifu_error_set(err, KIFU_EIO, "cannot listen on %s port %d: %s", address, o->port,
				      why);
	}
	/* (the front door checked the headers' size: the memory holds them and the answer's; no
	 * bound per client address: the clients of a proxy, or of a server on 127.0.0.1, share one) */
	srv->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, srv,
				  MHD_OPTION_CONNECTION_LIMIT, o->connections,
				  MHD_OPTION_CONNECTION_TIMEOUT, o->timeout,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
				  MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				  MHD_OPTION_NOTIFY_COMPLETED, completed, srv,
				  MHD_OPTION_END);
	if (!srv->d) {
		kifu_serve_stop(srv);
		return kifu_error_set(err, KIFU_EIO, "cannot start the HTTP server");
	}
	if (kifu_serve_gate_run_(srv->gate, err) < 0) {
		kifu_serve_stop(srv);
		return err->code;
	}
	*out = srv;
	return 0;
}

int kifu_serve_port(const struct kifu_server *srv)
{
	return srv->where.port;
}

void kifu_serve_stop(struct kifu_server *srv)
{
	int i;

	if (!srv)
		return;
	/* No new connection, then the workers: each answers what is queued with 503 and resumes
	 * its connection, and the handler queues nothing more, so no connection is left suspended
	 * when libmicrohttpd stops (it joins its thread and closes the connections). */
	kifu_serve_gate_stop_(srv->gate);
	pthread_mutex_lock(&srv->lock);
	srv->stopping = 1;
	pthread_cond_broadcast(&srv->wake);
	pthread_mutex_unlock(&srv->lock);
	for (i = 0; i < srv->nworkers; i++)
		pthread_join(srv->workers[i], NULL);
	if (srv->d)
		MHD_stop_daemon(srv->d);
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->wake);
	free(srv->workers);
	free(srv->db);
	free(srv);
}

int kifu_serve_answer(struct kifu_serve_answer *a, struct kifu_store *st, const char *path,
		      const struct kifu_serve_param *params, size_t nparams)
{
	struct kifu_serve_req_ r = { params, nparams };

	a->status = 200;
	a->type = "text/html; charset=utf-8";
	a->body.max = ANSWER_MAX;
	if (!a->nonce[0])
		kifu_serve_nonce_(a->nonce);
	a->page = strncmp(path, "/api/", 5) != 0;
	if (!a->page)
		kifu_serve_api_(a, st, path + 5, &r);
	else
		kifu_serve_page_(a, st, path, &r);
	return a->body.failed ? KIFU_ENOMEM : 0;
}
