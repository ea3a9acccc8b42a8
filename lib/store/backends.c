/*
 * The registry of store backends (lib/store/store_impl.h): kifu_store_open asks
 * each in turn whether it accepts the path or URI given; the SQLite
 * backend, which takes any file path, comes last.
 */
#include <stddef.h>

#include "store/store_impl.h"

const struct kifu_store_backend *const kifu_store_backends_[] = {
	&kifu_store_pg_,
	&kifu_store_sqlite_,
	NULL
};
