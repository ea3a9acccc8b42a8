/*
 * Private to lib/serve: a request's parameters as the answers read them,
 * and the answers' common forms (errors as {"error": MESSAGE}).
 */
#ifndef KIFU_SERVE_IMPL_H
#define KIFU_SERVE_IMPL_H

#include <stddef.h>

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

#define FILTER_PARAMS "game", "variant", "player", "event", "since", "until", "termination", "as"

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

#endif
