/*
 * Unit tests of the foreign formats of import/ (apgr, pgn, csv): the
 * declarative fixtures of tests/data/interop/ (each input beside the exact
 * canonical YAML of every record read and every diagnostic, in a
 * `.expected` file), round trips over every example and valid fixture
 * (yaml -> FORMAT -> yaml, compared as canonical YAML), apgr output checked
 * against the required keys and types of Abstract Play's schema "AP Game
 * Record" 1-0-0, reading in one-byte pieces, sniffing, and the writers'
 * refusals. KIFU_UPDATE_EXPECTED=1 rewrites the `.expected` files (review
 * the diff before committing it).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "kifu/diag.h"
#include "kifu/format.h"
#include "kifu/reader.h"
#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"
#include "import_impl.h"
#include "record/record_impl.h"
#include "helpers.h"

/* ---- helpers ---- */

struct mem {
	const char *data;
	size_t size, pos, chunk;
};

static long mem_read(void *ctx, void *buf, size_t n, struct kifu_error *err)
{
	struct mem *m = ctx;
	size_t k = m->size - m->pos;

	(void)err;
	if (k > n)
		k = n;
	if (k > m->chunk)
		k = m->chunk;
	memcpy(buf, m->data + m->pos, k);
	m->pos += k;
	return (long)k;
}

/* Everything read from data: records, their replays, every diagnostic. */
struct readout {
	struct kifu_record **recs;
	struct kifu_replay *rps;
	size_t n;
	struct kifu_diags diags;
	int ret;
};

static void readout_free(struct readout *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		kifu_record_free(r->recs[i]);
		kifu_replay_release(&r->rps[i]);
	}
	free(r->recs);
	free(r->rps);
	kifu_diags_release(&r->diags);
	memset(r, 0, sizeof(*r));
}

static void read_fmt(struct readout *r, const struct kifu_format *f, const char *data, size_t len,
		     size_t chunk)
{
	struct mem m = { data, len, 0, chunk };
	struct kifu_source src = { mem_read, &m, "test" };
	struct kifu_record *rec;
	struct kifu_error err;
	void *st;

	memset(r, 0, sizeof(*r));
	kifu_error_clear(&err);
	assert_int_equal(f->open(&st, &src, &err), 0);
	while ((r->ret = f->next(&rec, &r->diags, st, &err)) > 0) {
		r->recs = realloc(r->recs, (r->n + 1) * sizeof(*r->recs));
		r->rps = realloc(r->rps, (r->n + 1) * sizeof(*r->rps));
		assert_non_null(r->recs);
		assert_non_null(r->rps);
		r->recs[r->n] = rec;
		r->rps[r->n] = (struct kifu_replay)KIFU_REPLAY_INIT;
		assert_int_equal(kifu_record_validate(&r->rps[r->n], &r->diags, rec,
						      KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err),
				 0);
		r->n++;
	}
	f->close(st);
}

static void read_yaml(struct readout *r, const char *data, size_t len)
{
	struct kifu_reader *rd;
	struct kifu_record *rec;
	struct kifu_error err;

	memset(r, 0, sizeof(*r));
	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&rd, data, len, "test", &err), 0);
	while ((r->ret = kifu_reader_next(&rec, &r->diags, rd, &err)) > 0) {
		r->recs = realloc(r->recs, (r->n + 1) * sizeof(*r->recs));
		r->rps = realloc(r->rps, (r->n + 1) * sizeof(*r->rps));
		r->recs[r->n] = rec;
		r->rps[r->n] = (struct kifu_replay)KIFU_REPLAY_INIT;
		assert_int_equal(kifu_record_validate(&r->rps[r->n], &r->diags, rec,
						      KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err),
				 0);
		r->n++;
	}
	kifu_reader_free(rd);
}

/* Canonical YAML of every record, each followed by its diagnostics. */
static char *report(const struct readout *r)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	size_t i, d;

	for (i = 0; i < r->n; i++) {
		assert_int_equal(kifu_record_write(&b, r->recs[i], r->rps[i].complete ? &r->rps[i] : NULL,
						   &err), 0);
		for (d = 0; d < r->diags.n; d++)
			if (r->diags.v[d].game == r->recs[i]->number)
				kifu_buf_printf(&b, "# %d:%d: %s: %s\n", r->diags.v[d].line,
						r->diags.v[d].col,
						r->diags.v[d].severity ? "warning" : "error",
						r->diags.v[d].message);
	}
	kifu_buf_printf(&b, "# end: %d\n", r->ret);
	return kifu_buf_detach(&b);
}

static const struct kifu_format *by_suffix(const char *name)
{
	static const struct kifu_format *const fmts[] = { &kifu_format_apgr_, &kifu_format_pgn_,
							  &kifu_format_csv_, NULL };
	size_t n = strlen(name), i, k;

	for (i = 0; fmts[i]; i++)
		for (k = 0; fmts[i]->suffixes[k]; k++) {
			size_t s = strlen(fmts[i]->suffixes[k]);

			if (n > s && !strcmp(name + n - s, fmts[i]->suffixes[k]))
				return fmts[i];
		}
	return NULL;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir (not recursive) in name order; NULL-terminated, caller frees. */
static char **list_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		v = realloc(v, (n + 2) * sizeof(*v));
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (!v)
		v = calloc(1, sizeof(*v));
	v[n] = NULL;
	qsort(v, n, sizeof(*v), compare_names);
	return v;
}

static void free_list(char **v)
{
	size_t i;

	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* ---- declarative fixtures ---- */

static void test_fixtures(void **state)
{
	const char *dir = KIFU_SOURCE_DIR "/tests/data/interop";
	char **names = list_dir(dir);
	int update = getenv("KIFU_UPDATE_EXPECTED") != NULL, checked = 0;
	size_t i;

	(void)state;
	for (i = 0; names[i]; i++) {
		const struct kifu_format *f = by_suffix(names[i]);
		char path[512], epath[512], *data, *got, *got1, *want;
		struct readout r;
		size_t len;

		if (!f)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(epath, sizeof(epath), "%s/%.*s.expected", dir,
			 (int)(strrchr(names[i], '.') - names[i]), names[i]);
		data = th_read_file(path, &len);
		assert_non_null(data);
		read_fmt(&r, f, data, len, 1 << 16);
		got = report(&r);
		readout_free(&r);
		/* the same, read in one-byte pieces */
		read_fmt(&r, f, data, len, 1);
		got1 = report(&r);
		readout_free(&r);
		if (strcmp(got, got1))
			fail_msg("%s: reading in one-byte pieces differs:\n%s\n----\n%s", names[i], got,
				 got1);
		if (update) {
			FILE *fp = fopen(epath, "w");

			assert_non_null(fp);
			fputs(got, fp);
			fclose(fp);
		}
		want = th_read_file(epath, NULL);
		if (!want)
			fail_msg("%s: no %s", names[i], epath);
		if (strcmp(got, want))
			fail_msg("%s: the records or diagnostics differ from %s:\n%s", names[i], epath,
				 got);
		checked++;
		free(data);
		kifu_buf_detached_free(got);
		kifu_buf_detached_free(got1);
		free(want);
	}
	assert_true(checked >= 12);
	free_list(names);
}

/* ---- round trips ---- */

/* What a format does not carry, taken out of a record before comparing. */
enum loss { LOSS_NONE = 0, LOSS_TAG_TYPES = 1, LOSS_NOTES = 2, LOSS_CLOCK_SPELLING = 4, LOSS_EMPTY = 8,
	    LOSS_LINES = 16, LOSS_EVALS = 32, LOSS_NAGS = 64 };

/* Takes format 2's lines, evals or nags (at every depth) out of turns. */
static void strip_format2(struct kifu_record *rec, struct kifu_turn *turns, size_t n, unsigned loss)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct kifu_turn *t = &turns[i];

		if (loss & LOSS_NAGS)
			t->nag = NULL;
		if (loss & LOSS_EVALS)
			assert_int_equal(kifu_record_turn_eval(rec, t, NULL, NULL, NULL, NULL), 0);
		if (loss & LOSS_LINES)
			assert_int_equal(kifu_record_turn_lines(rec, t, 0, NULL), 0);
		for (j = 0; j < t->nlines; j++)
			strip_format2(rec, t->lines[j].turns, t->lines[j].nturns, loss);
	}
}

static void normalize(struct kifu_record *orig, struct kifu_record *back, unsigned loss)
{
	struct kifu_record *both[2] = { orig, back };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < both[k]->ntags; i++)
			if (loss & LOSS_TAG_TYPES)
				both[k]->tags[i].type = KIFU_SCALAR_STR;
	/* csv leaves empty cells out: an empty tag is not written */
	for (i = 0; loss & LOSS_EMPTY && i < orig->ntags; i++)
		if (!orig->tags[i].value[0]) {
			memmove(orig->tags + i, orig->tags + i + 1,
				(orig->ntags - i - 1) * sizeof(*orig->tags));
			orig->ntags--;
			i--;
		}
	strip_format2(orig, orig->turns, orig->nturns, loss);
	for (i = 0; i < orig->nturns && i < back->nturns; i++) {
		const char *clock = orig->turns[i].clock;

		for (k = 0; k < 2; k++) {
			struct kifu_turn *t = &both[k]->turns[i];

			if (loss & LOSS_NOTES) {
				t->comment = NULL;
				t->clock = NULL;
			} else if (t->clock && clock && loss & LOSS_CLOCK_SPELLING &&
				   !kifu_import_decimal_clock_(clock)) {
				/* the value, where the spelling was not decimal seconds */
				char buf[64];

				snprintf(buf, sizeof(buf), "%.3f", t->clock_seconds);
				t->clock = kifu_record_strndup_(both[k], buf, strlen(buf));
			}
		}
	}
}

static void round_trip_file(const char *path, const struct kifu_format *f, unsigned loss,
			    int *records)
{
	struct readout orig, back;
	struct kifu_buf out = KIFU_BUF_INIT;
	struct kifu_error err;
	const struct kifu_record **recs;
	const struct kifu_replay **rps;
	size_t len, i, d, e;
	char *data = th_read_file(path, &len);

	assert_non_null(data);
	read_yaml(&orig, data, len);
	recs = calloc(orig.n + 1, sizeof(*recs));
	rps = calloc(orig.n + 1, sizeof(*rps));
	for (i = 0; i < orig.n; i++) {
		recs[i] = orig.recs[i];
		rps[i] = &orig.rps[i];
	}
	kifu_error_clear(&err);
	if (f->write(&out, recs, rps, orig.n, &err) < 0)
		fail_msg("%s: writing %s: %s", path, f->name, err.message);
	if (f == &kifu_format_pgn_) {
		/* movetext lines of at most 80 characters */
		const char *line = out.data ? out.data : "";

		while (*line) {
			const char *eol = strchr(line, '\n');
			size_t k, chars = 0;

			if (!eol)
				eol = line + strlen(line);
			for (k = 0; line + k < eol; k++)
				chars += ((unsigned char)line[k] & 0xc0) != 0x80;
			if (line[0] != '[' && chars > 80)
				fail_msg("%s: a pgn line of %zu characters: %.*s", path, chars,
					 (int)(eol - line), line);
			line = *eol ? eol + 1 : eol;
		}
	}
	read_fmt(&back, f, out.data ? out.data : "", out.len, 4096);
	if (back.n != orig.n)
		fail_msg("%s: %zu records written as %s, %zu read back:\n%s", path, orig.n, f->name,
			 back.n, out.data);
	/* no diagnostic that reading the YAML did not also give */
	for (d = 0; d < back.diags.n; d++) {
		for (e = 0; e < orig.diags.n; e++)
			if (!strcmp(orig.diags.v[e].message, back.diags.v[d].message))
				break;
		if (e == orig.diags.n)
			fail_msg("%s: reading the %s output gave '%s':\n%s", path, f->name,
				 back.diags.v[d].message, out.data);
	}
	for (i = 0; i < orig.n; i++) {
		struct kifu_buf a = KIFU_BUF_INIT, b = KIFU_BUF_INIT;

		normalize(orig.recs[i], back.recs[i], loss);
		if (loss & (LOSS_LINES | LOSS_EVALS | LOSS_NAGS)) {
			/* the replay of what is left (the texts of lines and evals follow the record) */
			struct kifu_diags dg = KIFU_DIAGS_INIT;

			kifu_record_validate(&orig.rps[i], &dg, orig.recs[i],
					     KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err);
			kifu_diags_release(&dg);
		}
		kifu_record_write(&a, orig.recs[i], orig.rps[i].complete ? &orig.rps[i] : NULL, &err);
		kifu_record_write(&b, back.recs[i], back.rps[i].complete ? &back.rps[i] : NULL, &err);
		if (strcmp(a.data, b.data))
			fail_msg("%s: game %zu changed through %s:\n%s\n---- became ----\n%s\n---- via "
				 "----\n%s", path, i + 1, f->name, a.data, b.data, out.data);
		kifu_buf_release(&a);
		kifu_buf_release(&b);
		(*records)++;
	}
	free(recs);
	free(rps);
	kifu_buf_release(&out);
	readout_free(&orig);
	readout_free(&back);
	free(data);
}

static void round_trip_all(const struct kifu_format *f, unsigned loss)
{
	static const char *const dirs[] = { "examples/archive", "examples/glaisher",
					    "examples/splay-kisenwether", "examples/splay-schmidt",
					    "examples/splinter", "examples/splinter-quad",
					    "tests/data/records/valid", "tests/data/interop",
					    "examples/format2", NULL };
	int i, records = 0;

	for (i = 0; dirs[i]; i++) {
		char dir[512], path[1024];
		char **names;
		size_t k;

		snprintf(dir, sizeof(dir), "%s/%s", KIFU_SOURCE_DIR, dirs[i]);
		names = list_dir(dir);
		for (k = 0; names[k]; k++) {
			size_t n = strlen(names[k]);

			if (n < 5 || strcmp(names[k] + n - 5, ".yaml"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
			round_trip_file(path, f, loss, &records);
		}
		free_list(names);
	}
	print_message("%s: %d records round-tripped\n", f->name, records);
	assert_true(records > 500);
}

static void test_round_trip_apgr(void **state)
{
	(void)state;
	round_trip_all(&kifu_format_apgr_, LOSS_LINES);
}

static void test_round_trip_pgn(void **state)
{
	(void)state;
	round_trip_all(&kifu_format_pgn_, LOSS_TAG_TYPES | LOSS_CLOCK_SPELLING | LOSS_EVALS);
}

static void test_round_trip_csv(void **state)
{
	(void)state;
	round_trip_all(&kifu_format_csv_,
		       LOSS_TAG_TYPES | LOSS_NOTES | LOSS_EMPTY | LOSS_LINES | LOSS_EVALS | LOSS_NAGS);
}

/* ---- limits against hostile input ---- */

static int has_diag(const struct readout *r, const char *message)
{
	size_t i;

	for (i = 0; i < r->diags.n; i++)
		if (!strcmp(r->diags.v[i].message, message))
			return 1;
	return 0;
}

/* text holds one game of more than KIFU_RECORD_MAX_TURNS moves: the rest is dropped, said once. */
static void check_truncated(const struct kifu_format *f, const struct kifu_buf *text)
{
	struct readout r;

	read_fmt(&r, f, text->data, text->len, 1 << 16);
	assert_int_equal(r.n, 1);
	assert_true(r.recs[0]->flags & KIFU_RECORD_TRUNCATED);
	assert_int_equal(r.recs[0]->nturns, KIFU_RECORD_MAX_TURNS);
	assert_true(has_diag(&r, "game 1, ply 100001: 'moves' has more than 100000 turns"));
	readout_free(&r);
}

/* More than KIFU_RECORD_MAX_TURNS moves in each format, and too many pgn tags. */
static void test_limits(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct readout r;
	int i;

	(void)state;
	/* csv: one moves cell of 100,001 moves */
	kifu_buf_puts(&b, "game,moves\nsplay-schmidt,\"");
	for (i = 0; i <= KIFU_RECORD_MAX_TURNS; i++)
		kifu_buf_puts(&b, i ? ",g7" : "g7");
	kifu_buf_puts(&b, "\"\n");
	check_truncated(&kifu_format_csv_, &b);
	/* pgn: the same in movetext */
	kifu_buf_reset(&b);
	kifu_buf_puts(&b, "[Game \"splay-schmidt\"]\n\n");
	for (i = 0; i <= KIFU_RECORD_MAX_TURNS; i++)
		kifu_buf_puts(&b, "g7\n");
	kifu_buf_puts(&b, "*\n");
	check_truncated(&kifu_format_pgn_, &b);
	/* apgr: rounds of one move */
	kifu_buf_reset(&b);
	kifu_buf_puts(&b, "{\"header\": {}, \"moves\": [");
	for (i = 0; i <= KIFU_RECORD_MAX_TURNS; i++)
		kifu_buf_puts(&b, i ? ",[\"g7\"]" : "[\"g7\"]");
	kifu_buf_puts(&b, "]}");
	check_truncated(&kifu_format_apgr_, &b);
	/* pgn: 1,001 tags */
	kifu_buf_reset(&b);
	kifu_buf_puts(&b, "[Game \"splay-schmidt\"]\n");
	for (i = 0; i < 1000; i++)
		kifu_buf_printf(&b, "[t%d \"v\"]\n", i);
	kifu_buf_puts(&b, "\n*\n");
	read_fmt(&r, &kifu_format_pgn_, b.data, b.len, 1 << 16);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.recs[0]->ntags, 999);
	assert_true(has_diag(&r, "game 1: the game has more than 1000 tags"));
	readout_free(&r);
	kifu_buf_release(&b);
}

/* ---- the examples of records from elsewhere ---- */

/*
 * examples/interop/: every file reads with no error (and the warnings its
 * hand-touching asks for), and what was read goes through apgr and back
 * unchanged, whatever format it came from.
 */
static void test_examples_interop(void **state)
{
	static const struct {
		const char *name;
		size_t games;
		int warnings;
	} files[] = { { "lisbon-autumn-cup.pgn", 5, 0 }, { "abstractplay-ladder.json", 4, 0 },
		      { "bern-club-championship.csv", 2, 0 }, { NULL, 0, 0 } };
	int i;

	(void)state;
	for (i = 0; files[i].name; i++) {
		char path[512];
		struct readout r, back;
		struct kifu_buf out = KIFU_BUF_INIT;
		struct kifu_error err;
		const struct kifu_record **recs;
		const struct kifu_replay **rps;
		size_t len, k;
		char *data;

		snprintf(path, sizeof(path), "%s/examples/interop/%s", KIFU_SOURCE_DIR, files[i].name);
		data = th_read_file(path, &len);
		assert_non_null(data);
		read_fmt(&r, by_suffix(files[i].name), data, len, 4096);
		if (r.diags.errors || r.diags.warnings != files[i].warnings || r.n != files[i].games)
			fail_msg("%s: %zu games, %d errors, %d warnings:\n%s", files[i].name, r.n,
				 r.diags.errors, r.diags.warnings, r.diags.n ? r.diags.v[0].message : "");
		recs = calloc(r.n, sizeof(*recs));
		rps = calloc(r.n, sizeof(*rps));
		for (k = 0; k < r.n; k++) {
			recs[k] = r.recs[k];
			rps[k] = &r.rps[k];
			assert_true(r.rps[k].complete);
		}
		assert_int_equal(kifu_format_apgr_.write(&out, recs, rps, r.n, &err), 0);
		read_fmt(&back, &kifu_format_apgr_, out.data, out.len, 4096);
		assert_int_equal(back.n, r.n);
		assert_int_equal(back.diags.n, 0);
		for (k = 0; k < r.n; k++) {
			struct kifu_buf a = KIFU_BUF_INIT, b = KIFU_BUF_INIT;
			struct kifu_diags dg = KIFU_DIAGS_INIT;

			/* apgr leaves format 2's lines out */
			strip_format2(r.recs[k], r.recs[k]->turns, r.recs[k]->nturns, LOSS_LINES);
			kifu_record_validate(&r.rps[k], &dg, r.recs[k],
					     KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err);
			kifu_diags_release(&dg);
			kifu_record_write(&a, r.recs[k], &r.rps[k], &err);
			kifu_record_write(&b, back.recs[k], &back.rps[k], &err);
			assert_string_equal(a.data, b.data);
			kifu_buf_release(&a);
			kifu_buf_release(&b);
		}
		free(recs);
		free(rps);
		kifu_buf_release(&out);
		readout_free(&r);
		readout_free(&back);
		free(data);
	}
}

/* ---- apgr against the schema "AP Game Record" 1-0-0 ---- */

/*
 * A checker of what the schema requires, written from its text: required
 * keys, types, no extra keys where additionalProperties is false, unique
 * items, date-times. Returns the first violation, or NULL.
 */
static const char *schema_violation(const json_t *rec)
{
	static char why[256];
	const json_t *h, *v, *x;
	const char *key;
	size_t i, j;

#define BAD(...) do { snprintf(why, sizeof(why), __VA_ARGS__); return why; } while (0)
	if (!json_is_object(rec))
		BAD("not an object");
	json_object_foreach((json_t *)rec, key, v)
		if (strcmp(key, "header") && strcmp(key, "moves"))
			BAD("extra top-level key %s", key);
	h = json_object_get(rec, "header");
	if (!json_is_object(h) || !json_is_array(json_object_get(rec, "moves")))
		BAD("header or moves missing or mistyped");
	{
		static const char *const req[] = { "game", "site", "date-start", "date-end",
						   "date-generated", "players", NULL };
		for (i = 0; req[i]; i++)
			if (!json_object_get(h, req[i]))
				BAD("header lacks %s", req[i]);
	}
	v = json_object_get(h, "game");
	if (!json_is_object(v) || !json_is_string(json_object_get(v, "name")))
		BAD("header.game");
	json_object_foreach((json_t *)v, key, x)
		if (strcmp(key, "name") && strcmp(key, "variants"))
			BAD("header.game has %s", key);
	x = json_object_get(v, "variants");
	if (x) {
		if (!json_is_array(x))
			BAD("variants not an array");
		for (i = 0; i < json_array_size(x); i++) {
			if (!json_is_string(json_array_get(x, i)))
				BAD("variant not a string");
			for (j = 0; j < i; j++)
				if (json_equal(json_array_get(x, i), json_array_get(x, j)))
					BAD("variants not unique");
		}
	}
	if (json_object_get(h, "event") && !json_is_string(json_object_get(h, "event")))
		BAD("event");
	if (json_object_get(h, "round") && !json_is_string(json_object_get(h, "round")))
		BAD("round");
	if (json_object_get(h, "unrated") && !json_is_boolean(json_object_get(h, "unrated")))
		BAD("unrated");
	if (json_object_get(h, "startingPosition") &&
	    !json_is_string(json_object_get(h, "startingPosition")))
		BAD("startingPosition");
	v = json_object_get(h, "site");
	if (!json_is_object(v) || !json_is_string(json_object_get(v, "name")))
		BAD("header.site");
	json_object_foreach((json_t *)v, key, x)
		if (strcmp(key, "name") && strcmp(key, "gameid"))
			BAD("header.site has %s", key);
	x = json_object_get(v, "gameid");
	if (x && !json_is_string(x) && !json_is_number(x))
		BAD("gameid");
	{
		static const char *const dates[] = { "date-start", "date-end", "date-generated", NULL };
		for (i = 0; dates[i]; i++) {
			const char *s = json_string_value(json_object_get(h, dates[i]));
			int y, mo, d, hh, mm, ss, n = 0;

			if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &hh, &mm, &ss, &n) != 6 ||
			    n != 19 || strcmp(s + n, "Z") || mo < 1 || mo > 12 || d < 1 || d > 31 ||
			    hh > 23 || mm > 59 || ss > 60)
				BAD("%s is not a date-time: %s", dates[i], s ? s : "(not a string)");
		}
	}
	v = json_object_get(h, "players");
	if (!json_is_array(v) || json_array_size(v) < 1)
		BAD("players");
	for (i = 0; i < json_array_size(v); i++) {
		x = json_array_get(v, i);
		if (!json_is_object(x) || !json_is_string(json_object_get(x, "name")) ||
		    !json_is_integer(json_object_get(x, "result")))
			BAD("player %zu", i);
		if (json_object_get(x, "userid") && !json_is_string(json_object_get(x, "userid")))
			BAD("userid");
		if (json_object_get(x, "score") && !json_is_number(json_object_get(x, "score")))
			BAD("score");
		if (json_object_get(x, "is_ai") && !json_is_boolean(json_object_get(x, "is_ai")))
			BAD("is_ai");
		for (j = 0; j < i; j++)
			if (json_equal(x, json_array_get(v, j)))
				BAD("players not unique");
	}
	v = json_object_get(rec, "moves");
	for (i = 0; i < json_array_size(v); i++) {
		const json_t *round = json_array_get(v, i);

		if (!json_is_array(round))
			BAD("round %zu", i);
		for (j = 0; j < json_array_size(round); j++) {
			x = json_array_get(round, j);
			if (json_is_null(x) || json_is_string(x))
				continue;
			if (!json_is_object(x) || !json_is_string(json_object_get(x, "move")))
				BAD("move entry %zu/%zu", i, j);
			json_object_foreach((json_t *)x, key, h)
				if (strcmp(key, "move") && strcmp(key, "sequence") && strcmp(key, "result"))
					BAD("move entry has %s", key);
		}
	}
	return NULL;
#undef BAD
}

static void test_apgr_schema(void **state)
{
	static const char *const files[] = { "examples/archive/glaisher-advanced.yaml",
					     "examples/archive/glaisher-standard.yaml",
					     "examples/archive/splay-kisenwether.yaml",
					     "examples/archive/splay-schmidt.yaml",
					     "examples/archive/splinter-knockout.yaml",
					     "examples/archive/splinter-quad.yaml",
					     "examples/archive/splinter-survival.yaml",
					     "tests/data/records/valid/full-headers.yaml",
					     "tests/data/records/valid/typing-traps.yaml",
					     "tests/data/records/valid/comments-clocks.yaml",
					     "tests/data/records/valid/empty-moves.yaml", NULL };
	int i, checked = 0;

	(void)state;
	for (i = 0; files[i]; i++) {
		char path[512];
		struct readout orig;
		struct kifu_buf out = KIFU_BUF_INIT;
		struct kifu_error err;
		const struct kifu_record **recs;
		const struct kifu_replay **rps;
		json_error_t jerr;
		json_t *root;
		size_t len, k;
		char *data;

		snprintf(path, sizeof(path), "%s/%s", KIFU_SOURCE_DIR, files[i]);
		data = th_read_file(path, &len);
		assert_non_null(data);
		read_yaml(&orig, data, len);
		recs = calloc(orig.n + 1, sizeof(*recs));
		rps = calloc(orig.n + 1, sizeof(*rps));
		for (k = 0; k < orig.n; k++) {
			recs[k] = orig.recs[k];
			rps[k] = &orig.rps[k];
		}
		assert_int_equal(kifu_format_apgr_.write(&out, recs, rps, orig.n, &err), 0);
		root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &jerr);
		if (!root)
			fail_msg("%s: not JSON: %s at %d:%d", files[i], jerr.text, jerr.line, jerr.column);
		for (k = 0; k < (json_is_array(root) ? json_array_size(root) : 1); k++) {
			const json_t *r = json_is_array(root) ? json_array_get(root, k) : root;
			const char *why = schema_violation(r);

			if (why)
				fail_msg("%s: record %zu breaks the schema: %s", files[i], k + 1, why);
			checked++;
		}
		json_decref(root);
		free(recs);
		free(rps);
		kifu_buf_release(&out);
		readout_free(&orig);
		free(data);
	}
	assert_true(checked >= 700);
	/* the checker itself catches what it should */
	{
		json_t *r = json_loads("{\"header\": {\"game\": {\"name\": \"x\"}, \"site\": {\"name\": "
				       "\"s\"}, \"date-start\": \"2024-01-01T00:00:00Z\", \"date-end\": "
				       "\"2024-01-01T00:00:00Z\", \"date-generated\": "
				       "\"2024-01-01T00:00:00Z\", \"players\": [{\"name\": \"a\", "
				       "\"result\": 1}]}, \"moves\": [[\"a\", {\"move\": \"b\", "
				       "\"comment\": \"c\"}]]}", 0, NULL);

		assert_non_null(r);
		assert_string_equal(schema_violation(r), "move entry has comment");
		json_object_del(json_array_get(json_array_get(json_object_get(r, "moves"), 0), 1),
				"comment");
		assert_null(schema_violation(r));
		json_object_del(json_object_get(r, "header"), "date-generated");
		assert_string_equal(schema_violation(r), "header lacks date-generated");
		json_decref(r);
	}
}

/* ---- sniffing ---- */

static void test_sniff(void **state)
{
	(void)state;
	assert_true(kifu_format_pgn_.sniff("[Game \"splinter\"]\n", 18));
	assert_true(kifu_format_pgn_.sniff("\xef\xbb\xbf\n [Event \"x\"]", 17));
	assert_false(kifu_format_pgn_.sniff("[{\"header\": 1}]", 15));
	assert_false(kifu_format_pgn_.sniff("[\"a\", 1]", 8));
	assert_true(kifu_format_apgr_.sniff("  [{\"header\"", 12));
	assert_true(kifu_format_apgr_.sniff("{", 1));
	assert_false(kifu_format_apgr_.sniff("game: x", 7));
	assert_true(kifu_format_csv_.sniff("Event,GAME,moves\r\n", 18));
	assert_true(kifu_format_csv_.sniff("\"game\",moves\n", 13));
	assert_false(kifu_format_csv_.sniff("game: splinter\n", 15));
	assert_false(kifu_format_csv_.sniff("games,moves\n", 12));
}

/* ---- writers that refuse ---- */

static void test_write_refusals(void **state)
{
	struct kifu_record *rec;
	struct kifu_buf out = KIFU_BUF_INIT;
	struct kifu_error err;
	const struct kifu_record *recs[1];

	(void)state;
	assert_int_equal(kifu_record_new(&rec, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_GAME, "splinter", &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "g7-g8", NULL, NULL, &err), 0);
	assert_int_equal(kifu_record_add_tag(rec, "two words", "v", KIFU_SCALAR_STR, &err), 0);
	recs[0] = rec;
	assert_int_equal(kifu_format_pgn_.write(&out, recs, NULL, 1, &err), KIFU_EINVALID);
	assert_string_equal(err.message, "game 1: tag 'two words' cannot be a pgn tag name");
	kifu_buf_reset(&out);
	/* a tag named like a column kifu reads as a field */
	rec->tags[0].key = kifu_record_strndup_(rec, "Event", 5);
	assert_int_equal(kifu_format_csv_.write(&out, recs, NULL, 1, &err), KIFU_EINVALID);
	assert_string_equal(err.message, "game 1: tag 'Event' cannot be a csv column");
	kifu_buf_reset(&out);
	rec->tags[0].key = kifu_record_strndup_(rec, "ok", 2);
	rec->turns[0].text = kifu_record_strndup_(rec, "g7{", 3);
	assert_int_equal(kifu_format_pgn_.write(&out, recs, NULL, 1, &err), KIFU_EINVALID);
	assert_string_equal(err.message, "game 1, ply 1: move 'g7{' cannot be written in pgn");
	kifu_buf_reset(&out);
	rec->game = kifu_record_strndup_(rec, "chess", 5);
	assert_int_equal(kifu_format_apgr_.write(&out, recs, NULL, 1, &err), KIFU_EINVALID);
	assert_string_equal(err.message, "game 1: unknown game 'chess'");
	kifu_buf_release(&out);
	kifu_record_free(rec);
}

/* A comment holding '}' and one with a line break: how pgn carries them. */
static void test_pgn_comment_forms(void **state)
{
	struct kifu_record *rec;
	struct kifu_buf out = KIFU_BUF_INIT;
	struct kifu_error err;
	const struct kifu_record *recs[1];
	struct readout r;

	(void)state;
	assert_int_equal(kifu_record_new(&rec, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_GAME, "splinter", &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "g7-g8", "a {brace} here", "12.50", &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "e6-d6", "two\nlines", NULL, &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "g3-f4", "", "3", &err), 0);
	recs[0] = rec;
	assert_int_equal(kifu_format_pgn_.write(&out, recs, NULL, 1, &err), 0);
	assert_non_null(strstr(out.data, "1. g7-g8 ;a {brace} here [%clk 0:00:12.50]\n1... e6-d6 "
					 "{two\nlines} 2. g3-f4 {} {[%clk 0:00:03]} *\n"));
	read_fmt(&r, &kifu_format_pgn_, out.data, out.len, 100);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.recs[0]->turns[0].comment, "a {brace} here");
	assert_string_equal(r.recs[0]->turns[0].clock, "12.50");
	assert_string_equal(r.recs[0]->turns[1].comment, "two lines"); /* the one loss */
	assert_string_equal(r.recs[0]->turns[2].comment, "");
	assert_string_equal(r.recs[0]->turns[2].clock, "3");
	readout_free(&r);
	kifu_buf_release(&out);
	kifu_record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_write_refusals),
		cmocka_unit_test(test_pgn_comment_forms),
		cmocka_unit_test(test_apgr_schema),
		cmocka_unit_test(test_examples_interop),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_round_trip_apgr),
		cmocka_unit_test(test_round_trip_pgn),
		cmocka_unit_test(test_round_trip_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
