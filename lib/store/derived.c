/*
 * The registry of derived tables (lib/store/store_impl.h): what the store
 * keeps beside the games it writes, each with its hooks, called in this
 * order at every game, commit, rollback, bulk load and close.
 */
#include <stddef.h>

#include "store/store_impl.h"

const struct kifu_store_derived_ *const kifu_store_derived_[] = {
	&kifu_store_symm_derived_,
	&kifu_store_cells_derived_,
	&kifu_store_lines_derived_,
	&kifu_store_sums_derived_,
	NULL
};
