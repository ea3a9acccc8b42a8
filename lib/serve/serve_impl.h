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

/* Fills *a with status and {"error": MESSAGE}; returns -1. */
int kifu_serve_fail_(struct kifu_serve_answer *a, int status, const char *message);

/* The answers to /api/...: rest is the path after "/api/". */
void kifu_serve_api_(struct kifu_serve_answer *a, struct kifu_store *st, const char *rest,
		     const struct kifu_serve_req_ *r);

#endif
