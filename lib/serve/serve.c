/*
 * kifu-serve's HTTP server on GNU libmicrohttpd (include/kifu/serve.h):
 * its thread pool, one database connection per worker thread (opened
 * read-only on the thread's first request, closed when the thread ends:
 * SQLite connections are not shared between threads), and what a request
 * must be before any answer reads it. Requests are GET or HEAD (else 405);
 * the path and every parameter, once decoded, must be UTF-8 without
 * control characters (a %00 included) and the path have no "." or ".."
 * step (else 400); the request line and headers are bounded by the
 * connection's memory (libmicrohttpd answers 414 or 431 past it); the
 * number of connections and their idle time are bounded, so slow or
 * half-open clients cannot take every connection for long. Every answer
 * carries a Content-Security-Policy that lets a page load nothing but
 * what this server sends.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "serve/serve_impl.h"

/* The request line and headers of one connection fit in this (else 414 or 431). */
#define MEMORY_LIMIT (32 * 1024)
/* At most this many parameters in a request. */
#define MAX_PARAMS 32

struct kifu_server {
	struct MHD_Daemon *d;
	char *db;
	pthread_key_t store_key;
	int key_made;
	int port;
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

/* The policy of every answer: nothing from elsewhere; scripts only the page's own (its nonce). */
static const char csp_fmt[] = "default-src 'none'; script-src 'nonce-%s'; "
			      "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
			      "connect-src 'self'; base-uri 'none'; form-action 'self'; "
			      "frame-ancestors 'none'";

static void store_release(void *p)
{
	kifu_store_free(p);
}

/* Whether s (n bytes) is UTF-8 without control characters (NUL, C0, DEL). */
static int clean_text(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = u[i], need, cp, k;

		if (c < 0x20 || c == 0x7f)
			return 0;
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
			return 0;
		for (k = 1; k <= need; k++) {
			if (i + k >= n || (u[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates, past U+10FFFF. */
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

/*
 * Decodes the path and the parameters as libmicrohttpd does, except that
 * a decoded NUL (which would cut the text short unseen) makes the whole
 * text one control character, refused by clean_text.
 */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	size_t n;

	(void)cls;
	(void)c;
	n = MHD_http_unescape(s);
	if (strlen(s) != n) {
		s[0] = '\x01';
		s[1] = '\0';
		n = 1;
	}
	return n;
}

struct params {
	struct kifu_serve_param v[MAX_PARAMS];
	size_t n;
	int bad;   /* a name or value is not clean text, or too many */
};

static enum MHD_Result param_each(void *cls, enum MHD_ValueKind kind, const char *key,
				  size_t key_size, const char *value, size_t value_size)
{
	struct params *p = cls;

	(void)kind;
	if (p->n == MAX_PARAMS || !clean_text(key, key_size) ||
	    (value && !clean_text(value, value_size))) {
		p->bad = 1;
		return MHD_NO;
	}
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
static void make_nonce(char out[33])
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

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Sends a and logs the request. */
static enum MHD_Result send_answer(struct kifu_server *srv, struct MHD_Connection *c,
				   const char *method, const char *url,
				   struct kifu_serve_answer *a, double start)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char csp[sizeof(csp_fmt) + 40];

	resp = MHD_create_response_from_buffer(a->body.len, a->body.data ? a->body.data : (char *)"",
					       MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", a->type ? a->type : "text/plain");
	snprintf(csp, sizeof(csp), csp_fmt, a->nonce);
	MHD_add_response_header(resp, "Content-Security-Policy", csp);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	if (a->status == 405)
		MHD_add_response_header(resp, "Allow", "GET, HEAD");
	if (a->header && a->header_value.data && !a->header_value.failed)
		MHD_add_response_header(resp, a->header, a->header_value.data);
	ret = MHD_queue_response(c, (unsigned)a->status, resp);
	MHD_destroy_response(resp);
	if (srv->log) {
		struct kifu_buf line = KIFU_BUF_INIT;

		kifu_buf_printf(&line, "%s %.200s%s %d %zu %.1f ms", method, url,
				strlen(url) > 200 ? "..." : "", a->status, a->body.len,
				now_ms() - start);
		if (!line.failed)
			srv->log(srv->log_ctx, line.data);
		kifu_buf_release(&line);
	}
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	static int first_call;
	struct kifu_server *srv = cls;
	struct kifu_serve_answer a = { 200, NULL, KIFU_BUF_INIT, 0, "", NULL, KIFU_BUF_INIT };
	struct params p;
	struct kifu_store *st;
	struct kifu_error err;
	enum MHD_Result ret;
	double start = now_ms();

	(void)version;
	(void)upload;
	/* The first call only has the headers: answer on the second. */
	if (!*con_cls) {
		*con_cls = &first_call;
		return MHD_YES;
	}
	/* A body (of a method that has none here) is read and dropped. */
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	memset(&p, 0, sizeof(p));
	kifu_error_clear(&err);
	make_nonce(a.nonce);
	a.page = strncmp(url, "/api/", 5) != 0;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		kifu_serve_fail_(&a, 405, "only GET and HEAD are answered");
	} else if (!clean_text(url, strlen(url)) || url[0] != '/') {
		kifu_serve_fail_(&a, 400, "the path is not UTF-8 text");
	} else if (dot_steps(url)) {
		kifu_serve_fail_(&a, 400, "no '.' or '..' in a path");
	} else if (MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, param_each, &p) < 0 ||
		   p.bad) {
		kifu_serve_fail_(&a, 400, p.n == MAX_PARAMS ? "too many parameters"
							     : "a parameter is not UTF-8 text");
	} else if (!(st = pthread_getspecific(srv->store_key)) &&
		   (kifu_store_open(&st, srv->db, KIFU_STORE_READ_ONLY, &err) < 0 ||
		    pthread_setspecific(srv->store_key, st) != 0)) {
		kifu_store_free(st);
		kifu_serve_fail_(&a, 503, err.message[0] ? err.message : "cannot open the database");
	} else if (kifu_serve_answer(&a, st, url, p.v, p.n) < 0) {
		kifu_serve_fail_(&a, 500, "out of memory");
	}
	ret = send_answer(srv, c, method, url, &a, start);
	kifu_buf_release(&a.body);
	kifu_buf_release(&a.header_value);
	return ret;
}

int kifu_serve_start(struct kifu_server **out, const struct kifu_serve_options *o,
		     struct kifu_error *err)
{
	struct kifu_server *srv;
	struct kifu_store *st = NULL;
	struct sockaddr_storage sa;
	const union MHD_DaemonInfo *info;
	const char *address = o->address ? o->address : "127.0.0.1";
	unsigned flags = MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD;
	int ret;

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
	if (!srv || !(srv->db = strdup(o->db))) {
		free(srv);
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	}
	srv->log = o->log;
	srv->log_ctx = o->log_ctx;
	if (pthread_key_create(&srv->store_key, store_release) != 0) {
		kifu_serve_stop(srv);
		return kifu_error_set(err, KIFU_ENOMEM, "cannot make the threads' keys");
	}
	srv->key_made = 1;
	srv->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, handle, srv,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				  MHD_OPTION_THREAD_POOL_SIZE, (unsigned)o->threads,
				  MHD_OPTION_CONNECTION_LIMIT, o->connections,
				  MHD_OPTION_CONNECTION_TIMEOUT, o->timeout,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
				  MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				  MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				  MHD_OPTION_END);
	if (!srv->d) {
		kifu_serve_stop(srv);
		return kifu_error_set(err, KIFU_EIO, "cannot listen on %s port %d", address, o->port);
	}
	info = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_BIND_PORT);
	srv->port = info ? info->port : o->port;
	*out = srv;
	return 0;
}

int kifu_serve_port(const struct kifu_server *srv)
{
	return srv->port;
}

void kifu_serve_stop(struct kifu_server *srv)
{
	if (!srv)
		return;
	/* Joins the worker threads: their connections are closed by then. */
	if (srv->d)
		MHD_stop_daemon(srv->d);
	if (srv->key_made)
		pthread_key_delete(srv->store_key);
	free(srv->db);
	free(srv);
}

int kifu_serve_answer(struct kifu_serve_answer *a, struct kifu_store *st, const char *path,
		      const struct kifu_serve_param *params, size_t nparams)
{
	struct kifu_serve_req_ r = { params, nparams };

	a->status = 200;
	a->type = "text/html; charset=utf-8";
	if (!a->nonce[0])
		make_nonce(a->nonce);
	a->page = strncmp(path, "/api/", 5) != 0;
	if (!a->page)
		kifu_serve_api_(a, st, path + 5, &r);
	else
		kifu_serve_page_(a, st, path, &r);
	return a->body.failed ? KIFU_ENOMEM : 0;
}
