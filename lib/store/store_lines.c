/*
 * What the store keeps of format 2 (schema 10, game_lines): each stored
 * game's lines, nags and engine figures, as one JSON text per game that has
 * any, written beside the game through the derived-table hooks and read
 * back by kifu_store_game_load, so that every export gives them back as
 * they came in; a duplicate's are compared with them, and put in their
 * place when asked (kifu-import --update-annotations). Nothing else reads
 * them: statistics, the position index, the tree, search, novelties and
 * reviews read the main line (game_data). Moves and bests are kept
 * canonical (the replay's texts), clocks and expected scores as written.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/replay.h"
#include "record/record_impl.h"
#include "store/store_impl.h"

static void put_eval(struct kifu_buf *b, const struct kifu_eval *e, const struct kifu_replay *rp,
		     size_t *xi)
{
	const char *best = kifu_replay_xtext(rp, (*xi)++);

	kifu_buf_puts(b, ",\"eval\":{\"engine\":");
	kifu_buf_json_string(b, e->engine ? e->engine : "");
	kifu_buf_puts(b, ",\"expected\":");
	kifu_buf_json_string(b, e->expected ? e->expected : "0");
	kifu_buf_puts(b, ",\"best\":");
	kifu_buf_json_string(b, best ? best : e->best ? e->best : "");
	kifu_buf_putc(b, '}');
}

/* The nag, eval and variations of t as members (each after a comma). */
static void put_extras(struct kifu_buf *b, const struct kifu_turn *t, const struct kifu_replay *rp,
		       size_t *xi)
{
	size_t j, k;

	if (t->nag) {
		kifu_buf_puts(b, ",\"nag\":");
		kifu_buf_json_string(b, t->nag);
	}
	if (t->eval)
		put_eval(b, t->eval, rp, xi);
	if (!t->nlines)
		return;
	kifu_buf_puts(b, ",\"variations\":[");
	for (j = 0; j < t->nlines; j++) {
		kifu_buf_puts(b, j ? ",[" : "[");
		for (k = 0; k < t->lines[j].nturns; k++) {
			const struct kifu_turn *lt = &t->lines[j].turns[k];
			const char *text = kifu_replay_xtext(rp, (*xi)++);

			kifu_buf_puts(b, k ? ",{\"move\":" : "{\"move\":");
			kifu_buf_json_string(b, text ? text : lt->text ? lt->text : "");
			if (lt->comment) {
				kifu_buf_puts(b, ",\"comment\":");
				kifu_buf_json_string(b, lt->comment);
			}
			if (lt->clock) {
				kifu_buf_puts(b, ",\"clock\":");
				kifu_buf_json_string(b, lt->clock);
			}
			put_extras(b, lt, rp, xi);
			kifu_buf_putc(b, '}');
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_putc(b, ']');
}

int kifu_store_lines_pack_(struct kifu_buf *b, const struct kifu_record *rec,
			   const struct kifu_replay *rp)
{
	size_t i, xi = 0;
	int any = 0;

	for (i = 0; i < rec->nturns; i++) {
		const struct kifu_turn *t = &rec->turns[i];

		if (!t->nag && !t->eval && !t->nlines)
			continue;
		kifu_buf_printf(b, "%c\"%zu\":{\"ply\":%zu", any ? ',' : '{', i + 1, i + 1);
		put_extras(b, t, rp, &xi);
		kifu_buf_putc(b, '}');
		any = 1;
	}
	if (any)
		kifu_buf_putc(b, '}');
	return b->failed ? KIFU_ENOMEM : 0;
}

/* rec's JSON text into b (left empty when rec has no lines, nags or evals). */
static int pack(struct kifu_buf *b, const struct kifu_record *rec, const struct kifu_replay *rp,
		struct kifu_error *err)
{
	if (kifu_record_uses_format2(rec) && kifu_store_lines_pack_(b, rec, rp) < 0)
		return kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	return 0;
}

/* Game id's row of the text in b, when it holds any. */
static int insert(struct kifu_store *st, int64_t id, const struct kifu_buf *b,
		  struct kifu_error *err)
{
	struct kifu_stmt *s;

	if (!b->len)
		return 0;
	s = kifu_store_stmt_(st, ST_LINES_INSERT, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, id);
	kifu_db_bind_text_(s, 2, b->data, (long)b->len);
	return kifu_store_step_(st, s, "cannot store a game's lines", err);
}

static int lines_game(struct kifu_store *st, int64_t id, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	int ret = pack(&b, rec, rp, err);

	if (ret == 0)
		ret = insert(st, id, &b, err);
	kifu_buf_release(&b);
	return ret;
}

const struct kifu_store_derived_ kifu_store_lines_derived_ = {
	.name = "lines",
	.game = lines_game,
};

/* ---- A duplicate's (kifu-import --update-annotations) ---- */

/*
 * Whether two texts of game_lines (NULL or "": none) say the same: equal
 * bytes, or the same JSON (a text some other writer laid out otherwise).
 */
static int same_lines(const char *a, const char *b)
{
	json_t *x, *y;
	int same;

	if (!a || !*a || !b || !*b)
		return (!a || !*a) && (!b || !*b);
	if (!strcmp(a, b))
		return 1;
	x = json_loads(a, 0, NULL);
	y = json_loads(b, 0, NULL);
	same = x && y && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

int kifu_store_lines_update_(int *out, struct kifu_store *st, int64_t id,
			     const struct kifu_record *rec, const struct kifu_replay *rp, int replace,
			     struct kifu_error *err)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_stmt *s;
	char *stored = NULL;
	int rc, ret;

	*out = KIFU_ANNOTATIONS_SAME;
	ret = pack(&b, rec, rp, err);
	if (ret < 0 || st->version < 10)
		goto out; /* an older schema holds none, and a reader does not write */
	s = kifu_store_stmt_(st, ST_LOAD_LINES, err);
	if (!s) {
		ret = err ? err->code : KIFU_EDB;
		goto out;
	}
	kifu_db_bind_int64_(s, 1, id);
	rc = kifu_db_step_(s);
	if (rc == KIFU_DB_ROW && kifu_db_column_text_(s, 0) &&
	    !(stored = strdup(kifu_db_column_text_(s, 0))))
		ret = kifu_error_set(err, KIFU_ENOMEM, "out of memory");
	else if (rc != KIFU_DB_ROW && rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot load a game's lines", err);
	kifu_db_reset_(s);
	if (ret < 0 || same_lines(stored, b.data))
		goto out;
	*out = KIFU_ANNOTATIONS_NOT_KEPT;
	if (!replace)
		goto out;
	s = kifu_store_stmt_(st, ST_LINES_DELETE, err);
	if (!s) {
		ret = err ? err->code : KIFU_EDB;
		goto out;
	}
	kifu_db_bind_int64_(s, 1, id);
	ret = kifu_store_step_(st, s, "cannot replace a game's lines", err);
	/* the new row may wait in memory for the commit (PostgreSQL's COPY), as a new game's do */
	if (ret == 0 && b.len)
		st->write_kept = 1;
	if (ret == 0)
		ret = insert(st, id, &b, err);
	if (ret == 0)
		*out = KIFU_ANNOTATIONS_REPLACED;
out:
	free(stored);
	kifu_buf_release(&b);
	return ret;
}

/* ---- Reading them back ---- */

/* Room for what is wrong with a game's stored lines (a damage message). */
#define WHY 128

/* v clipped to 40 bytes into buf (41), its control bytes as '?' (it reaches a terminal). */
static const char *shown(char *buf, const char *v)
{
	size_t k;

	for (k = 0; v[k] && k < 40; k++)
		buf[k] = (unsigned char)v[k] < 0x20 || v[k] == 0x7f ? '?' : v[k];
	buf[k] = '\0';
	return buf;
}

static const char *str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * A turn's nag and eval from o; -1 when they are not what kifu writes: the
 * reader's rules (record_read.c) for what it would refuse in a file, an
 * empty engine, an expected score that is no number from 0 to 1
 * (kifu_record_expected_), so that no export writes a record that
 * kifu-validate rejects.
 */
static int load_marks(struct kifu_record *rec, struct kifu_turn *t, const json_t *o, char *why)
{
	const json_t *e = json_object_get(o, "eval"), *n = json_object_get(o, "nag");
	const char *x = e ? str(e, "expected") : NULL;
	char buf[41];
	double v;

	if (n && (!json_is_string(n) || !kifu_nag_index(json_string_value(n)) ||
		  kifu_record_turn_nag(rec, t, json_string_value(n), NULL) < 0))
		return -1;
	if (e && str(e, "engine") && !str(e, "engine")[0]) {
		snprintf(why, WHY, "an eval's engine is empty");
		return -1;
	}
	if (x && kifu_record_expected_(x, strlen(x), &v) < 0) {
		snprintf(why, WHY, "an eval's expected score is '%s', not a number from 0 to 1",
			 shown(buf, x));
		return -1;
	}
	if (e && (!str(e, "engine") || !x || !str(e, "best") ||
		  kifu_record_turn_eval(rec, t, str(e, "engine"), x, str(e, "best"), NULL) < 0))
		return -1;
	return 0;
}

static int load_lines(struct kifu_record *rec, struct kifu_turn *t, const json_t *v, int level,
		      char *why)
{
	size_t j, k;

	if (!v)
		return 0;
	if (!json_is_array(v) || !json_array_size(v) || level >= KIFU_RECORD_MAX_LEVELS ||
	    kifu_record_turn_lines(rec, t, json_array_size(v), NULL) < 0)
		return -1;
	for (j = 0; j < json_array_size(v); j++) {
		const json_t *line = json_array_get(v, j);

		if (!json_is_array(line) || !json_array_size(line))
			return -1;
		for (k = 0; k < json_array_size(line); k++) {
			const json_t *o = json_array_get(line, k);
			struct kifu_turn *lt;

			const char *clock = str(o, "clock");
			char buf[41];
			double secs;

			/* a clock as the reader takes it (kifu_clock_seconds), not -5 */
			if (clock && kifu_clock_seconds(clock, strlen(clock), &secs) < 0) {
				snprintf(why, WHY, "a clock is '%s', not a number of seconds "
					 "from 0", shown(buf, clock));
				return -1;
			}
			if (!json_is_object(o) || !str(o, "move") ||
			    (json_object_get(o, "clock") && !clock) ||
			    rec->nturns + rec->line_turns >= KIFU_RECORD_MAX_TURNS)
				return -1;
			lt = kifu_record_line_add_turn(rec, &t->lines[j], str(o, "move"),
						       str(o, "comment"), str(o, "clock"));
			if (!lt || load_marks(rec, lt, o, why) < 0 ||
			    load_lines(rec, lt, json_object_get(o, "variations"), level + 1, why) < 0)
				return -1;
		}
	}
	return 0;
}

int kifu_store_lines_load_(struct kifu_record *rec, struct kifu_store *st, int64_t id,
			   struct kifu_error *err)
{
	struct kifu_stmt *s;
	json_t *root = NULL, *v;
	const char *key;
	char why[WHY] = "";
	int rc, ret = 0;

	if (st->version < 10)
		return 0; /* a database of an older schema holds none */
	s = kifu_store_stmt_(st, ST_LOAD_LINES, err);
	if (!s)
		return err ? err->code : KIFU_EDB;
	kifu_db_bind_int64_(s, 1, id);
	rc = kifu_db_step_(s);
	/* all of its bytes: a NUL in it is damage, not the end of the text */
	if (rc == KIFU_DB_ROW && kifu_db_column_text_(s, 0)) {
		root = json_loadb(kifu_db_column_text_(s, 0), kifu_db_column_bytes_(s, 0),
				  JSON_REJECT_DUPLICATES, NULL);
		if (memchr(kifu_db_column_text_(s, 0), '\0', kifu_db_column_bytes_(s, 0)))
			snprintf(why, sizeof(why), "a NUL byte in its text");
	}
	else if (rc != KIFU_DB_DONE)
		ret = kifu_store_fail_(st, "cannot load a game's lines", err);
	kifu_db_reset_(s);
	if (ret < 0 || rc == KIFU_DB_DONE)
		return ret;
	if (!json_is_object(root))
		goto damaged;
	json_object_foreach(root, key, v) {
		char *end, canon[24], buf[41];
		unsigned long ply = strtoul(key, &end, 10);
		const json_t *p = json_object_get(v, "ply");
		struct kifu_turn *t;

		/* the key as kifu writes it: " 1", "01" and "+1" would be a second ply 1 */
		snprintf(canon, sizeof(canon), "%lu", ply);
		if (*end || strcmp(key, canon) || ply < 1 || ply > rec->nturns) {
			snprintf(why, sizeof(why), "key '%s' is no ply of its %zu as kifu writes it",
				 shown(buf, key), rec->nturns);
			goto damaged;
		}
		if (!json_is_object(v) ||
		    (p && (!json_is_integer(p) || json_integer_value(p) != (json_int_t)ply)))
			goto damaged;
		t = &rec->turns[ply - 1];
		if (load_marks(rec, t, v, why) < 0 ||
		    load_lines(rec, t, json_object_get(v, "variations"), 0, why) < 0)
			goto damaged;
	}
	rec->format = 2;
	json_decref(root);
	return 0;
damaged:
	json_decref(root);
	if (why[0])
		return kifu_db_damaged_(st, err, "game_lines of game %lld: %s", (long long)id, why);
	return kifu_db_damaged_(st, err, "game %lld has lines that no kifu writes", (long long)id);
}
