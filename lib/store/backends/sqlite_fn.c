/*
 * The SQL functions libkifu's SQLite connections have besides SQLite's own
 * (schema 7 stores a game's position hashes, and its canonical ones, as
 * BLOBs of 8-byte big-endian values, game_data.hashes and .canon): one
 * element of such an array (kifu_hash_at), the array exploded into rows
 * like json_each (the table-valued function kifu_hashes, which the index
 * writers and the migration read), a JSON array of decimal integers
 * packed into one (kifu_pack_hashes, for migration 7), and one move of a
 * game's JSON move list (kifu_move_at: the tree and the reports read the
 * move after a position for thousands of games a question). The plain sqlite3
 * shell has none of them: the views of schema/README.md decode the BLOBs in
 * plain SQL, and no trigger calls these.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "store/store_impl.h"
#include "util/json_list.h"

/* kifu_hash_at(blob, i): element i (from 0) of a hash array; NULL past its end. */
static void fn_hash_at(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *b = sqlite3_value_blob(argv[0]);
	sqlite3_int64 i = sqlite3_value_int64(argv[1]);
	int n = sqlite3_value_bytes(argv[0]);

	(void)argc;
	if (!b || sqlite3_value_type(argv[1]) == SQLITE_NULL || i < 0 || i >= n / 8)
		return; /* NULL */
	sqlite3_result_int64(ctx, (int64_t)kifu_store_get_be64_(b + 8 * i));
}

/*
 * kifu_move_at(json, i): element i (from 0) of a JSON array of strings or
 * numbers (game_data.moves; schema 6's hash lists), as json_extract(json,
 * '$[' || i || ']') gives it: the string as text, an integer as an
 * integer; NULL past the end, for NULL, and for what is not such an array.
 * json_extract parses the whole array into a tree at every call; this
 * scans up to element i (util/json_list.h), which for the tree's positions
 * is among the first few, and decodes only an element that needs it.
 */
static void fn_move_at(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	sqlite3_int64 i = sqlite3_value_int64(argv[1]), k;
	struct kifu_json_list l;
	struct kifu_json_item it;
	char *buf;
	json_t *v;

	(void)argc;
	if (!text || sqlite3_value_type(argv[1]) == SQLITE_NULL || i < 0 ||
	    kifu_json_list_open_(&l, text, (size_t)sqlite3_value_bytes(argv[0])) < 0)
		return;
	for (k = 0; k <= i; k++)
		if (kifu_json_list_next_(&l, &it) != 1)
			return; /* past the end, or not such an array */
	if (it.is_string && !it.escaped) {
		sqlite3_result_text(ctx, it.text, (int)it.len, SQLITE_TRANSIENT);
	} else if (it.is_string) {
		/* decoded, it is no longer than escaped */
		if (!(buf = sqlite3_malloc64(it.len + 1))) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		if (kifu_json_item_decode_(buf, it.len + 1, &it) == 0)
			sqlite3_result_text(ctx, buf, -1, sqlite3_free);
		else
			sqlite3_free(buf);
	} else {
		v = json_loadb(it.text, it.len, JSON_DECODE_ANY, NULL);
		if (json_is_integer(v))
			sqlite3_result_int64(ctx, (sqlite3_int64)json_integer_value(v));
		else if (json_is_real(v))
			sqlite3_result_double(ctx, json_real_value(v));
		json_decref(v);
	}
}

/*
 * kifu_pack_hashes(json): a JSON array of integers (game_moves.hashes and
 * game_canon.canon of schema 6) as a hash array BLOB; NULL for NULL. An
 * element that is not an integer is an error (the migration stops).
 */
static void fn_pack_hashes(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	struct kifu_buf out = KIFU_BUF_INIT;
	uint64_t *h = NULL;
	size_t n = 0, cap = 0, i;
	int ret;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || !text)
		return;
	ret = kifu_store_parse_hashes_(&h, &n, &cap, text);
	for (i = 0; ret == 0 && i < n; i++)
		kifu_store_put_hash_(&out, h[i]);
	if (ret == KIFU_ENOMEM || out.failed)
		sqlite3_result_error_nomem(ctx);
	else if (ret < 0)
		sqlite3_result_error(ctx, "kifu_pack_hashes: not a JSON array of integers", -1);
	else
		sqlite3_result_blob(ctx, out.len ? out.data : "", (int)out.len, SQLITE_TRANSIENT);
	free(h);
	kifu_buf_release(&out);
}

/*
 * kifu_hashes(blob): one row per element of a hash array, key (from 0) and
 * value, as json_each gives them for a JSON array. An eponymous virtual
 * table: the argument is the hidden column arr.
 */
struct hv_cursor {
	sqlite3_vtab_cursor base;
	const unsigned char *b; /* a copy of the argument */
	sqlite3_int64 n, i;
};

enum { HV_KEY, HV_VALUE, HV_ARR };

static int hv_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	sqlite3_vtab *v;
	int rc;

	(void)aux, (void)argc, (void)argv, (void)errmsg;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(key INTEGER, value INTEGER, arr HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	v = sqlite3_malloc(sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	*out = v;
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	return SQLITE_OK;
}

static int hv_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

/* The argument must be given (an equality on arr): else no plan. */
static int hv_best_index(sqlite3_vtab *v, sqlite3_index_info *ix)
{
	int k;

	(void)v;
	for (k = 0; k < ix->nConstraint; k++) {
		if (ix->aConstraint[k].iColumn != HV_ARR)
			continue;
		if (!ix->aConstraint[k].usable || ix->aConstraint[k].op != SQLITE_INDEX_CONSTRAINT_EQ)
			return SQLITE_CONSTRAINT;
		ix->aConstraintUsage[k].argvIndex = 1;
		ix->aConstraintUsage[k].omit = 1;
		ix->idxNum = 1;
		ix->estimatedCost = 10;
		ix->estimatedRows = 100;
		if (ix->nOrderBy == 1 && ix->aOrderBy[0].iColumn == HV_KEY && !ix->aOrderBy[0].desc)
			ix->orderByConsumed = 1;
		return SQLITE_OK;
	}
	return SQLITE_CONSTRAINT;
}

static int hv_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct hv_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)v;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int hv_close(sqlite3_vtab_cursor *cur)
{
	struct hv_cursor *c = (struct hv_cursor *)cur;

	sqlite3_free((void *)c->b);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int hv_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct hv_cursor *c = (struct hv_cursor *)cur;
	const void *b;
	int n;

	(void)idx, (void)idxstr;
	sqlite3_free((void *)c->b);
	c->b = NULL;
	c->n = c->i = 0;
	if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return SQLITE_OK;
	b = sqlite3_value_blob(argv[0]);
	n = sqlite3_value_bytes(argv[0]);
	if (!b || n < 8)
		return SQLITE_OK;
	c->b = sqlite3_malloc(n);
	if (!c->b)
		return SQLITE_NOMEM;
	memcpy((void *)c->b, b, (size_t)n);
	c->n = n / 8;
	return SQLITE_OK;
}

static int hv_next(sqlite3_vtab_cursor *cur)
{
	((struct hv_cursor *)cur)->i++;
	return SQLITE_OK;
}

static int hv_eof(sqlite3_vtab_cursor *cur)
{
	struct hv_cursor *c = (struct hv_cursor *)cur;

	return c->i >= c->n;
}

static int hv_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct hv_cursor *c = (struct hv_cursor *)cur;

	if (col == HV_KEY)
		sqlite3_result_int64(ctx, c->i);
	else if (col == HV_VALUE)
		sqlite3_result_int64(ctx, (int64_t)kifu_store_get_be64_(c->b + 8 * c->i));
	return SQLITE_OK;
}

static int hv_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct hv_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module hashes_module = {
	.xConnect = hv_connect,
	.xBestIndex = hv_best_index,
	.xDisconnect = hv_disconnect,
	.xOpen = hv_open,
	.xClose = hv_close,
	.xFilter = hv_filter,
	.xNext = hv_next,
	.xEof = hv_eof,
	.xColumn = hv_column,
	.xRowid = hv_rowid,
};

/* store_impl.h */
int kifu_store_sqlite_functions_(void *conn)
{
	sqlite3 *db = conn;
	const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
	int rc;

	rc = sqlite3_create_function_v2(db, "kifu_hash_at", 2, flags, NULL, fn_hash_at, NULL, NULL,
					NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "kifu_pack_hashes", 1, flags, NULL,
						fn_pack_hashes, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "kifu_move_at", 2, flags, NULL, fn_move_at, NULL,
						NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_module_v2(db, "kifu_hashes", &hashes_module, NULL, NULL);
	return rc == SQLITE_OK ? 0 : rc == SQLITE_NOMEM ? KIFU_ENOMEM : KIFU_EDB;
}
