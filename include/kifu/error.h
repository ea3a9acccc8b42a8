/*
 * Error convention shared by every libkifu function: return 0 on success or
 * a negative KIFU_E* code, and describe the failure in a caller-supplied
 * struct kifu_error. The library never prints and never exits.
 */
#ifndef KIFU_ERROR_H
#define KIFU_ERROR_H

#include <stdarg.h>

enum {
	KIFU_OK = 0,
	KIFU_ERROR = -1,     /* generic failure */
	KIFU_ENOMEM = -2,    /* out of memory */
	KIFU_EPARSE = -3,    /* text could not be parsed (move, record, argument) */
	KIFU_EILLEGAL = -4,  /* well-formed but not allowed here (illegal move) */
	KIFU_ENOTFOUND = -5, /* unknown game, variant, side, id */
	KIFU_EIO = -6,       /* reading or writing a file failed */
	KIFU_EDB = -7,       /* the database failed */
	KIFU_EINVALID = -8,  /* a record is invalid */
	KIFU_ERANGE = -9     /* a value or size is out of the accepted range */
};

#define KIFU_ERROR_MSG_MAX 512

struct kifu_error {
	int code;           /* the KIFU_E* code also returned */
	const char *source; /* file name or other subject; borrowed, may be NULL */
	int line;           /* 1-based; 0 when unknown */
	int col;            /* 1-based; 0 when unknown */
	char message[KIFU_ERROR_MSG_MAX]; /* lower-case, no final full stop */
};

/* Clears err (NULL is accepted). */
void kifu_error_clear(struct kifu_error *err);

/*
 * Fills err (when not NULL) with code and a printf-style message; keeps
 * err->source, line and col as they are. Returns code, so that callers can
 * write `return kifu_error_set(err, KIFU_EPARSE, "unknown cell '%s'", s);`.
 */
int kifu_error_set(struct kifu_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int kifu_error_setv(struct kifu_error *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Sets the position (1-based line and column) of err. */
void kifu_error_at(struct kifu_error *err, const char *source, int line, int col);

/* A short constant description of a KIFU_E* code ("out of memory"). */
const char *kifu_strerror(int code);

#endif
