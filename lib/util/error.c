/*
 * The error convention: a negative KIFU_E* code returned, and the same code
 * with a message (and, where known, a source position) in a caller-supplied
 * struct kifu_error, which the command-line layer turns into
 * `file:line:col: error: message`.
 */
#include <stdio.h>
#include <string.h>

#include "kifu/error.h"

void kifu_error_clear(struct kifu_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int kifu_error_setv(struct kifu_error *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return code;
}

int kifu_error_set(struct kifu_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kifu_error_setv(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void kifu_error_at(struct kifu_error *err, const char *source, int line, int col)
{
	if (!err)
		return;
	err->source = source;
	err->line = line;
	err->col = col;
}

const char *kifu_strerror(int code)
{
	switch (code) {
	case KIFU_OK: return "success";
	case KIFU_ENOMEM: return "out of memory";
	case KIFU_EPARSE: return "cannot parse";
	case KIFU_EILLEGAL: return "not allowed";
	case KIFU_ENOTFOUND: return "not found";
	case KIFU_EIO: return "input/output error";
	case KIFU_EDB: return "database error";
	case KIFU_EINVALID: return "invalid record";
	case KIFU_ERANGE: return "out of range";
	default: return "error";
	}
}
