/*
 * kifu-serve's front door (serve_impl.h): it listens and accepts the
 * connections itself, and looks at each request's line and headers
 * (MSG_PEEK: without taking them) before libmicrohttpd gets the
 * connection (MHD_add_connection) and reads the same bytes. What
 * libmicrohttpd 0.9.75 would answer itself, with none of this server's
 * headers (a malformed request 400, a body's length it cannot read 413, a
 * request line or headers past its memory 414/431, another HTTP version
 * 505), is answered here, as every other answer, with the
 * Content-Security-Policy and nosniff (kifu_serve_headers_); so is a Host
 * that is not this server (421, none 400), a method other than GET or HEAD
 * (405), a GET or HEAD with a body (400), and a request whose headers are
 * not all in within the deadline (408). Every answer closes its connection
 * (Connection: close), so that each request comes through here. It also
 * bounds the connections waiting for their headers: when they are all
 * taken, a new one closes the one that has waited longest and sent least
 * (victim()). No bound is per client address: every client of a server on
 * 127.0.0.1, or behind a reverse proxy, shares one, and a bound that one of
 * them could fill would lock out all the others.
 */
#define _GNU_SOURCE /* accept4 and memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve/serve_impl.h"

/* A request's line and headers fit in this many bytes (else 414 or 431). */
#define HEAD_MAX (32 * 1024)
/* At most this many header lines (libmicrohttpd keeps each in the connection's memory). */
#define HEADERS_MAX 100
/* At most this many parameters in a path (the answers take 32: "too many parameters"). */
#define PARTS_MAX 64
/* A client answered here has this long to stop sending before its connection is closed. */
#define LINGER_MS 2000
/* At most this many connections accepted at a time, before those with something to read. */
#define ACCEPT_BATCH 64
/* Room to be made: the victim is one of this many that came first... */
#define VICTIM_SCAN 64
/* ... and a connection younger than this (its request still on its way) is taken only when all are. */
#define GRACE_MS 1000.0

/* One connection waiting for its headers, or answered and closing. */
struct pending {
	int fd;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	double deadline;  /* ms (kifu_serve_now_ms_): its headers by then; closing: closed then */
	double start;
	size_t sent;      /* bytes of its request in so far */
	int closing;      /* answered: what the client still sends is read and dropped */
	struct pending *prev, *next;
};

struct kifu_serve_gate_ {
	int listen_fd, ep, wake_fd;
	const struct kifu_serve_gate_conf_ *conf;
	struct pending *list, *last;  /* in the order they came, the first the oldest */
	size_t n;
	pthread_t thread;
	int running;
	double swept;
	char buf[HEAD_MAX + 2];  /* a peek of HEAD_MAX + 1 bytes and a NUL */
};

/* What the line and headers of a request say, as far as read. */
struct head {
	const char *method, *target;
	size_t method_len, target_len;
	const char *host;  /* the first Host's value (not NUL-terminated), or NULL */
	size_t host_len;
	int hosts;
	int body;          /* a Transfer-Encoding, or a Content-Length other than 0 */
};

static int tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* A header's value without the spaces around it. */
static void trim(const char **v, size_t *n)
{
	while (*n && (**v == ' ' || **v == '\t'))
		(*v)++, (*n)--;
	while (*n && ((*v)[*n - 1] == ' ' || (*v)[*n - 1] == '\t'))
		(*n)--;
}

/*
 * Reads the request's line and headers, s (n bytes, up to and with the
 * empty line): 0 when libmicrohttpd can take them, else the status to
 * answer with and *why.
 */
static int parse_head(struct head *h, const char **why, const char *s, size_t n)
{
	const char *end = s + n, *line = s, *eol, *colon, *v, *p;
	size_t i, cl_len = 0, vn, parts = 1;
	int lines = 0, cls = 0;
	const char *cl = NULL;

	memset(h, 0, sizeof(*h));
	/* CR only before LF, LF only after CR, no NUL */
	for (i = 0; i < n; i++)
		if ((s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n')) ||
		    (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) || s[i] == '\0') {
			*why = "a line of the request does not end in CR LF";
			return 400;
		}
	eol = strstr(line, "\r\n");
	/* METHOD SP /TARGET SP HTTP/1.x */
	for (p = line; p < eol && tchar((unsigned char)*p); p++)
		;
	h->method = line;
	h->method_len = (size_t)(p - line);
	if (!h->method_len || p == eol || *p != ' ' || p[1] != '/') {
		*why = "the request line is not METHOD /PATH HTTP/1.1";
		return 400;
	}
	h->target = ++p;
	while (p < eol && (unsigned char)*p > 0x20 && *p != 0x7f) {
		parts += *p == '&';
		p++;
	}
	h->target_len = (size_t)(p - h->target);
	if (p == eol || *p != ' ') {
		*why = "the request line is not METHOD /PATH HTTP/1.1";
		return 400;
	}
	p++;
	if ((size_t)(eol - p) != 8 || strncmp(p, "HTTP/1.", 7) != 0 || (p[7] != '0' && p[7] != '1')) {
		if ((size_t)(eol - p) == 8 && !strncmp(p, "HTTP/", 5) && p[5] >= '0' && p[5] <= '9' &&
		    p[6] == '.' && p[7] >= '0' && p[7] <= '9') {
			*why = "only HTTP/1.0 and HTTP/1.1 are answered";
			return 505;
		}
		*why = "the request line is not METHOD /PATH HTTP/1.1";
		return 400;
	}
	if (parts > PARTS_MAX) {
		*why = "too many parameters";
		return 400;
	}
	/* NAME: VALUE lines, then an empty one */
	for (line = eol + 2; line < end && (eol = strstr(line, "\r\n")) != line; line = eol + 2) {
		if (++lines > HEADERS_MAX) {
			*why = "too many header lines";
			return 431;
		}
		for (colon = line; colon < eol && tchar((unsigned char)*colon); colon++)
			;
		if (colon == line || colon == eol || *colon != ':') {
			*why = "a header line is not NAME: VALUE";
			return 400;
		}
		for (p = colon + 1; p < eol; p++)
			if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
				*why = "a header's value holds a control character";
				return 400;
			}
		v = colon + 1;
		vn = (size_t)(eol - v);
		trim(&v, &vn);
		if ((size_t)(colon - line) == 4 && !strncasecmp(line, "Host", 4)) {
			if (!h->hosts++) {
				h->host = v;
				h->host_len = vn;
			}
		} else if ((size_t)(colon - line) == 17 && !strncasecmp(line, "Transfer-Encoding", 17)) {
			h->body = 1;
		} else if ((size_t)(colon - line) == 14 && !strncasecmp(line, "Content-Length", 14)) {
			if (cls++ && (vn != cl_len || memcmp(v, cl, vn) != 0)) {
				*why = "two Content-Length headers";
				return 400;
			}
			cl = v;
			cl_len = vn;
		}
	}
	if (cl) {
		for (i = 0; i < cl_len; i++)
			if (cl[i] < '0' || cl[i] > '9') {
				*why = "Content-Length is not a number";
				return 400;
			}
		if (!cl_len) {
			*why = "Content-Length is not a number";
			return 400;
		}
		if (cl_len > 18) {
			*why = "a request's body is too large";
			return 413;
		}
		for (i = 0; i < cl_len; i++)
			h->body |= cl[i] != '0';
	}
	return 0;
}

/* ---- the Host header ---- */

/* Whether the name of a Host header (an IPv6 address in brackets) is one this server answers to. */
static int host_name_ok(const struct kifu_serve_where_ *w, const char *name, size_t n)
{
	char text[64];
	unsigned char addr[16];
	static const unsigned char loop6[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const unsigned char loop4[4] = { 127, 0, 0, 1 };

	if (w->any_address || (n == 9 && !strncasecmp(name, "localhost", 9)))
		return 1;
	if (n >= sizeof(text) || n < 2)
		return 0;
	if (name[0] == '[' && name[n - 1] == ']') {
		memcpy(text, name + 1, n - 2);
		text[n - 2] = '\0';
		if (inet_pton(AF_INET6, text, addr) != 1)
			return 0;
		return !memcmp(addr, loop6, 16) ||
		       (w->sa.ss_family == AF_INET6 &&
			!memcmp(addr, &((const struct sockaddr_in6 *)&w->sa)->sin6_addr, 16));
	}
	memcpy(text, name, n);
	text[n] = '\0';
	if (inet_pton(AF_INET, text, addr) != 1)
		return 0;
	return !memcmp(addr, loop4, 4) ||
	       (w->sa.ss_family == AF_INET &&
		!memcmp(addr, &((const struct sockaddr_in *)&w->sa)->sin_addr, 4));
}

int kifu_serve_host_check_(const char **why, const struct kifu_serve_where_ *w, const char *host,
			   size_t len, int count)
{
	const char *end, *colon;
	char port[16];
	size_t name_len;

	if (!host || count != 1) {
		*why = count ? "more than one Host header" : "no Host header";
		return 400;
	}
	end = len && host[0] == '[' ? memchr(host, ']', len) : host;
	colon = end ? memchr(end, ':', len - (size_t)(end - host)) : NULL;
	name_len = colon ? (size_t)(colon - host) : len;
	snprintf(port, sizeof(port), "%d", w->port);
	if (end && (colon ? len - name_len - 1 == strlen(port) && !memcmp(colon + 1, port, strlen(port))
			  : w->port == 80) &&
	    host_name_ok(w, host, name_len))
		return 0;
	*why = "this server answers to its own address and localhost only, with its port, not to that "
	       "Host";
	return 421;
}

/* ---- requests ---- */

static void add_to_buf(void *ctx, const char *name, const char *value)
{
	kifu_buf_printf(ctx, "%s: %s\r\n", name, value);
}

/* Takes k off the list (its socket no longer this file's). */
static void pending_free(struct kifu_serve_gate_ *g, struct pending *k)
{
	if (k->prev)
		k->prev->next = k->next;
	else
		g->list = k->next;
	if (k->next)
		k->next->prev = k->prev;
	else
		g->last = k->prev;
	g->n--;
	free(k);
}

static void pending_close(struct kifu_serve_gate_ *g, struct pending *k)
{
	epoll_ctl(g->ep, EPOLL_CTL_DEL, k->fd, NULL);
	close(k->fd);
	pending_free(g, k);
}

/* Reads and drops what the client has sent; 0 at its end (or an error), else 1. */
static int drain(struct kifu_serve_gate_ *g, int fd)
{
	ssize_t r;

	while ((r = recv(fd, g->buf, sizeof(g->buf), 0)) > 0)
		;
	return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
}

/*
 * Answers k here with status and why (path: where an error is json or a
 * page; head: no body), logs it, and leaves the connection to close once
 * the client has stopped sending (it would lose the answer to a reset).
 */
static void answer(struct kifu_serve_gate_ *g, struct pending *k, int status, const char *why,
		   const struct head *h)
{
	struct kifu_serve_answer a;
	struct kifu_buf out = KIFU_BUF_INIT;
	char date[64], method[16] = "-";
	const char *reason = MHD_get_reason_phrase_for((unsigned)status);
	const char *path = "-";
	char *path_copy = NULL;
	time_t now = time(NULL);
	struct tm tm;
	int head;

	memset(&a, 0, sizeof(a));
	if (h->method_len && h->method_len < sizeof(method)) {
		memcpy(method, h->method, h->method_len);
		method[h->method_len] = '\0';
	}
	if (h->target_len && (path_copy = malloc(h->target_len + 1))) {
		memcpy(path_copy, h->target, h->target_len);
		path_copy[h->target_len] = '\0';
		path = path_copy;
	}
	head = !strcmp(method, "HEAD");
	a.page = strncmp(path, "/api/", 5) != 0;
	kifu_serve_nonce_(a.nonce);
	kifu_serve_fail_(&a, status, why);
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	kifu_buf_printf(&out, "HTTP/1.1 %d %s\r\nDate: %s\r\n", status, reason && *reason ? reason : "Error",
			date);
	kifu_serve_headers_(&a, add_to_buf, &out);
	kifu_buf_printf(&out, "Content-Length: %zu\r\n\r\n", a.body.len);
	if (!head)
		kifu_buf_add(&out, a.body.data ? a.body.data : "", a.body.len);
	drain(g, k->fd);
	if (!out.failed)
		(void)!send(k->fd, out.data, out.len, MSG_NOSIGNAL);
	shutdown(k->fd, SHUT_WR);
	k->closing = 1;
	k->deadline = kifu_serve_now_ms_() + LINGER_MS;
	if (g->conf->log)
		kifu_serve_log_(g->conf->log, g->conf->log_ctx, method, path, status, a.body.len,
				kifu_serve_now_ms_() - k->start, NULL);
	free(path_copy);
	kifu_buf_release(&a.body);
	kifu_buf_release(&a.header_value);
	kifu_buf_release(&out);
}

/*
 * k has something to read: its headers, whole (checked, then handed over),
 * or not yet (ended: the client sends nothing more, 400).
 */
static void ready(struct kifu_serve_gate_ *g, struct pending *k, int ended)
{
	struct head h;
	const char *why = NULL, *end, *lf;
	size_t len;
	ssize_t r;
	int status;

	if (k->closing) {
		if (!drain(g, k->fd))
			pending_close(g, k);
		return;
	}
	r = recv(k->fd, g->buf, HEAD_MAX + 1, MSG_PEEK);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
		pending_close(g, k);
		return;
	}
	if (r < 0)
		return;
	k->sent = (size_t)r;
	g->buf[r] = '\0';
	memset(&h, 0, sizeof(h));
	end = memmem(g->buf, (size_t)r, "\r\n\r\n", 4);
	len = end ? (size_t)(end - g->buf) + 4 : 0;
	/* (an empty line ended by a bare LF ends it too, to be refused) */
	lf = memmem(g->buf, (size_t)r, "\n\n", 2);
	if (lf && (!end || lf < end))
		end = lf, len = (size_t)(lf - g->buf) + 2;
	if (!end) {
		if (ended && r <= HEAD_MAX) {
			answer(g, k, 400, "the request ended before its headers did", &h);
			return;
		}
		if (r > HEAD_MAX) {
			/* (what the request line was, when it ended) */
			if (memchr(g->buf, '\n', (size_t)r))
				parse_head(&h, &why, g->buf, (size_t)(strchr(g->buf, '\n') - g->buf + 1));
			answer(g, k, memchr(g->buf, '\n', (size_t)r) ? 431 : 414,
			       memchr(g->buf, '\n', (size_t)r) ? "the request's headers are too long"
							       : "the request's path is too long",
			       &h);
		}
		return;
	}
	status = parse_head(&h, &why, g->buf, len);
	if (!status)
		status = kifu_serve_host_check_(&why, g->conf->where, h.host, h.host_len, h.hosts);
	if (!status && !((h.method_len == 3 && !strncmp(h.method, "GET", 3)) ||
			 (h.method_len == 4 && !strncmp(h.method, "HEAD", 4)))) {
		status = 405;
		why = "only GET and HEAD are answered";
	}
	if (!status && h.body) {
		status = 400;
		why = "a GET or HEAD request has no body";
	}
	if (status) {
		answer(g, k, status, why, &h);
		return;
	}
	/* libmicrohttpd reads it all again; it closes the socket if it cannot take it */
	epoll_ctl(g->ep, EPOLL_CTL_DEL, k->fd, NULL);
	g->conf->pass(g->conf->ctx, k->fd, (const struct sockaddr *)&k->addr, k->addrlen);
	pending_free(g, k);
}

/*
 * The connection to close to make room for a new one: one already
 * answered, else the one that has sent least for the time it has waited
 * past GRACE_MS, among the VICTIM_SCAN that came first; else (all younger
 * than that) the first. So a client whose request comes at once is never
 * the one, unless a flood of connections younger still fills the whole
 * table before its request is in: the first ones have waited longest, and
 * of them, one whose headers are nearly in is kept before one that sends a
 * byte now and then or nothing.
 */
static struct pending *victim(struct kifu_serve_gate_ *g)
{
	struct pending *k, *best = g->list;
	double now = kifu_serve_now_ms_(), score, best_score = 0;
	int i;

	for (k = g->list, i = 0; k && i < VICTIM_SCAN; k = k->next, i++) {
		if (k->closing)
			return k;
		score = (now - k->start - GRACE_MS) / ((double)k->sent + 1);
		if (score > best_score) {
			best = k;
			best_score = score;
		}
	}
	return best;
}

/*
 * Takes the connections waiting (ACCEPT_BATCH at most: those with a request
 * in are read first), each closing a victim() when the table is full or
 * the descriptors have run out.
 */
static void accept_some(struct kifu_serve_gate_ *g)
{
	struct sockaddr_storage addr;
	struct epoll_event ev;
	struct pending *k;
	socklen_t len;
	int fd, i;

	for (i = 0; i < ACCEPT_BATCH; i++) {
		len = sizeof(addr);
		fd = accept4(g->listen_fd, (struct sockaddr *)&addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE) && g->list) {
			pending_close(g, victim(g));
			continue;
		}
		if (fd < 0) {
			/* out of descriptors, none held here: the listening socket stays ready, so wait a little */
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
			return;
		}
		if (g->n >= g->conf->connections && g->list)
			pending_close(g, victim(g));
		if (!(k = calloc(1, sizeof(*k)))) {
			close(fd);
			continue;
		}
		k->fd = fd;
		k->addr = addr;
		k->addrlen = len;
		k->start = kifu_serve_now_ms_();
		k->deadline = k->start + g->conf->header_seconds * 1e3;
		memset(&ev, 0, sizeof(ev));
		/* edge-triggered: peeking leaves the bytes there, so only new ones wake it again */
		ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
		ev.data.ptr = k;
		if (epoll_ctl(g->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
			close(fd);
			free(k);
			continue;
		}
		k->prev = g->last;
		if (g->last)
			g->last->next = k;
		else
			g->list = k;
		g->last = k;
		g->n++;
	}
}

/* The connections past their deadline: 408, or closed when already answered. */
static void sweep(struct kifu_serve_gate_ *g)
{
	struct pending *k, *next;
	struct head h;
	double now = kifu_serve_now_ms_();
	char c;

	if (now - g->swept < 250)
		return;
	g->swept = now;
	for (k = g->list; k; k = next) {
		next = k->next;
		if (now <= k->deadline)
			continue;
		/* (a connection that sent nothing, a browser's spare one, is closed unanswered) */
		if (k->closing || recv(k->fd, &c, 1, MSG_PEEK) <= 0) {
			pending_close(g, k);
		} else {
			memset(&h, 0, sizeof(h));
			answer(g, k, 408, "the request's headers did not all come in time", &h);
		}
	}
}

static void *run(void *p)
{
	struct kifu_serve_gate_ *g = p;
	struct epoll_event ev[64];
	int n, i, stop = 0, incoming;

	while (!stop) {
		n = epoll_wait(g->ep, ev, 64, 250);
		incoming = 0;
		for (i = 0; i < n; i++) {
			if (ev[i].data.ptr == &g->listen_fd)
				incoming = 1;
			else if (ev[i].data.ptr == &g->wake_fd)
				stop = 1;
			else
				ready(g, ev[i].data.ptr, !!(ev[i].events & (EPOLLRDHUP | EPOLLHUP)));
		}
		/* after the others: a request in is passed on before any room is made (and ev[] is
		 * done with before a victim is freed) */
		if (incoming && !stop)
			accept_some(g);
		sweep(g);
	}
	return NULL;
}

int kifu_serve_gate_open_(struct kifu_serve_gate_ **out, const struct kifu_serve_gate_conf_ *conf,
			  struct kifu_error *err)
{
	struct kifu_serve_gate_ *g;
	struct sockaddr_storage sa = conf->where->sa;
	socklen_t len = sa.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						 : sizeof(struct sockaddr_in);
	struct epoll_event ev;
	int one = 1;

	*out = NULL;
	if (!(g = calloc(1, sizeof(*g))))
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	g->conf = conf;
	g->listen_fd = g->ep = g->wake_fd = -1;
	g->listen_fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (g->listen_fd < 0 ||
	    setsockopt(g->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    (sa.ss_family == AF_INET6 &&
	     setsockopt(g->listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) < 0) ||
	    bind(g->listen_fd, (struct sockaddr *)&sa, len) < 0 || listen(g->listen_fd, 1024) < 0 ||
	    getsockname(g->listen_fd, (struct sockaddr *)&sa, &len) < 0) {
		kifu_serve_gate_stop_(g);
		return kifu_error_set(err, KIFU_EIO, "%s", strerror(errno));
	}
	conf->where->port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
						 : ((struct sockaddr_in *)&sa)->sin_port);
	g->ep = epoll_create1(EPOLL_CLOEXEC);
	g->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.ptr = &g->listen_fd;
	if (g->ep < 0 || g->wake_fd < 0 || epoll_ctl(g->ep, EPOLL_CTL_ADD, g->listen_fd, &ev) < 0 ||
	    (ev.data.ptr = &g->wake_fd, epoll_ctl(g->ep, EPOLL_CTL_ADD, g->wake_fd, &ev) < 0)) {
		kifu_serve_gate_stop_(g);
		return kifu_error_set(err, KIFU_EIO, "%s", strerror(errno));
	}
	*out = g;
	return 0;
}

int kifu_serve_gate_run_(struct kifu_serve_gate_ *g, struct kifu_error *err)
{
	if (pthread_create(&g->thread, NULL, run, g) != 0)
		return kifu_error_set(err, KIFU_ENOMEM, "cannot start the server's threads");
	g->running = 1;
	return 0;
}

void kifu_serve_gate_stop_(struct kifu_serve_gate_ *g)
{
	uint64_t one = 1;

	if (!g)
		return;
	if (g->running) {
		(void)!write(g->wake_fd, &one, sizeof(one));
		pthread_join(g->thread, NULL);
	}
	while (g->list)
		pending_close(g, g->list);
	if (g->listen_fd >= 0)
		close(g->listen_fd);
	if (g->ep >= 0)
		close(g->ep);
	if (g->wake_fd >= 0)
		close(g->wake_fd);
	free(g);
}
