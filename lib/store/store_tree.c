/*
 * The tree counts as a reader asks for them (include/kifu/store.h,
 * kifu_store_tree_update): when tree_moves is behind the stored games and
 * the file can be written, the games since are counted in a refresh
 * transaction of their own (store_symm.c does the counting). Above the
 * transactions in the store's order, which the derived tables' hooks are
 * below.
 */
#include "store/store_impl.h"

int kifu_store_tree_update(int *ready, struct kifu_store *st, struct kifu_error *err)
{
	long long last = -1, damaged = st->damaged;
	int ret, fresh = 0;

	*ready = 0;
	if (kifu_store_version(st) < 5)
		return 0;
	ret = kifu_store_symm_tree_fresh_(&fresh, st, err);
	if (ret < 0 || fresh) {
		*ready = fresh;
		return ret;
	}
	if (kifu_store_readonly(st) || st->in_tx)
		return 0;
	ret = kifu_store_symm_tree_last_(&last, st, err);
	if (ret < 0)
		return ret;
	/* No game in flight meanwhile, on any connection (PostgreSQL: the writers' lock). */
	ret = kifu_store_begin_tx(st, KIFU_TX_REFRESH, err);
	if (ret < 0)
		return 0;
	ret = kifu_store_symm_tree_count_(st, last, 1, err);
	if (ret == 0)
		ret = kifu_store_commit(st, err);
	if (ret < 0) {
		kifu_store_rollback(st);
		/* Damage is the answer; another writer, a read-only file: the report reads the games. */
		return st->damaged > damaged ? ret : 0;
	}
	*ready = 1;
	return 0;
}
