/*
 * Unit tests of the record reader, validator and writer: YAML 1.1 typing,
 * quoting traps, the round trip read -> write -> read over every example
 * and valid fixture, replay hashes, builders, streams, and hostile input
 * (aliases, deep nesting, huge scalars, too many moves, bad bytes, every
 * prefix of a record).
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

#include "kifu/record.h"
#include "helpers.h"

/* ---- helpers ---- */

struct doc_result {
	int count;                  /* records read */
	int ret;                    /* last kifu_reader_next return */
	struct kifu_diags diags;    /* every diagnostic, all games */
	struct kifu_record *first;  /* the first record (kept) */
	struct kifu_replay replay;  /* of the first record */
};

/* Reads and validates every record of text; keeps the first. */
static void read_all(struct doc_result *res, const char *text, size_t len)
{
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_error err;

	memset(res, 0, sizeof(*res));
	res->replay = (struct kifu_replay)KIFU_REPLAY_INIT;
	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&r, text, len, "test", &err), 0);
	while ((res->ret = kifu_reader_next(&rec, &res->diags, r, &err)) > 0) {
		struct kifu_replay tmp = KIFU_REPLAY_INIT;

		assert_int_equal(kifu_record_validate(res->count ? &tmp : &res->replay, &res->diags, rec,
						      KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err),
				 0);
		kifu_replay_release(&tmp);
		if (!res->count)
			res->first = rec;
		else
			kifu_record_free(rec);
		res->count++;
	}
	kifu_reader_free(r);
}

static void read_str(struct doc_result *res, const char *text)
{
	read_all(res, text, strlen(text));
}

static void done(struct doc_result *res)
{
	kifu_record_free(res->first);
	kifu_replay_release(&res->replay);
	kifu_diags_release(&res->diags);
}

/* The index of the first diagnostic whose message contains s, or -1. */
static int find_diag(const struct doc_result *res, const char *s)
{
	size_t i;

	for (i = 0; i < res->diags.n; i++)
		if (strstr(res->diags.v[i].message, s))
			return (int)i;
	return -1;
}

static void expect_diag(const struct doc_result *res, const char *s)
{
	if (find_diag(res, s) < 0) {
		size_t i;

		fprintf(stderr, "no diagnostic containing \"%s\"; got %zu:\n", s, res->diags.n);
		for (i = 0; i < res->diags.n; i++)
			fprintf(stderr, "  %d:%d %s\n", res->diags.v[i].line, res->diags.v[i].col,
				res->diags.v[i].message);
		fail();
	}
}

static int eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* ---- YAML 1.1 typing ---- */

static void test_resolve(void **state)
{
	static const struct {
		const char *s;
		int type;
		long ival;
	} cases[] = {
		{ "3", KIFU_SCALAR_INT, 3 },
		{ "-17", KIFU_SCALAR_INT, -17 },
		{ "+0", KIFU_SCALAR_INT, 0 },
		{ "1_000", KIFU_SCALAR_INT, 1000 },
		{ "0x1F", KIFU_SCALAR_INT, 31 },
		{ "017", KIFU_SCALAR_INT, 15 },
		{ "0b101", KIFU_SCALAR_INT, 5 },
		{ "190:20:30", KIFU_SCALAR_INT, 685230 },
		{ "09", KIFU_SCALAR_STR, 0 },
		{ "1e5", KIFU_SCALAR_STR, 0 },   /* YAML 1.1 wants a dot and a signed exponent */
		{ "1.0e+5", KIFU_SCALAR_FLOAT, 0 },
		{ "1.5", KIFU_SCALAR_FLOAT, 0 },
		{ "-.5", KIFU_SCALAR_FLOAT, 0 },
		{ "1.", KIFU_SCALAR_FLOAT, 0 },
		{ ".", KIFU_SCALAR_STR, 0 },
		{ "1.2.3", KIFU_SCALAR_STR, 0 },
		{ ".inf", KIFU_SCALAR_FLOAT, 0 },
		{ "-.Inf", KIFU_SCALAR_FLOAT, 0 },
		{ ".NaN", KIFU_SCALAR_FLOAT, 0 },
		{ "190:20:30.15", KIFU_SCALAR_FLOAT, 0 },
		{ "yes", KIFU_SCALAR_BOOL, 0 },
		{ "No", KIFU_SCALAR_BOOL, 0 },
		{ "y", KIFU_SCALAR_BOOL, 0 },
		{ "OFF", KIFU_SCALAR_BOOL, 0 },
		{ "yES", KIFU_SCALAR_STR, 0 },
		{ "~", KIFU_SCALAR_NULL, 0 },
		{ "", KIFU_SCALAR_NULL, 0 },
		{ "Null", KIFU_SCALAR_NULL, 0 },
		{ "2001-12-14", KIFU_SCALAR_TIMESTAMP, 0 },
		{ "2001-12-14t21:59:43.10-05:00", KIFU_SCALAR_TIMESTAMP, 0 },
		{ "2001-12-14 21:59:43.10 -5", KIFU_SCALAR_TIMESTAMP, 0 },
		{ "2023", KIFU_SCALAR_INT, 2023 },
		{ "2023-05", KIFU_SCALAR_STR, 0 },
		{ "e5", KIFU_SCALAR_STR, 0 },
		{ "b2>ne", KIFU_SCALAR_STR, 0 },
		{ "a2>se 3+2+1 e5", KIFU_SCALAR_STR, 0 },
		{ "pass", KIFU_SCALAR_STR, 0 },
	};
	size_t i;
	int over;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long l = -999;
		int type = kifu_yaml_resolve(cases[i].s, strlen(cases[i].s), &l, NULL, &over);

		if (type != cases[i].type)
			fprintf(stderr, "'%s': type %d, expected %d\n", cases[i].s, type, cases[i].type);
		assert_int_equal(type, cases[i].type);
		if (type == KIFU_SCALAR_INT) {
			assert_int_equal(l, cases[i].ival);
			assert_false(over);
		}
	}
	assert_int_equal(kifu_yaml_resolve("99999999999999999999", 20, NULL, NULL, &over),
			 KIFU_SCALAR_INT);
	assert_true(over);
	{
		double f = 0;

		assert_int_equal(kifu_yaml_resolve("1_2.5", 5, NULL, &f, NULL), KIFU_SCALAR_FLOAT);
		assert_true(f == 12.5);
	}
}

/* ---- writer quoting ---- */

/* Writes s as the value of `event`, reads it back, and checks the text survives. */
static void check_string_round_trip(const char *s)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;

	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\nevent: ");
	kifu_yaml_put_string(&b, s, 0);
	kifu_buf_puts(&b, "\nsite: ");
	kifu_yaml_put_string(&b, s, 1);
	kifu_buf_puts(&b, "\ntags:\n  t: ");
	kifu_yaml_put_string(&b, s, 0);
	kifu_buf_puts(&b, "\n  f: {x: ");
	kifu_yaml_put_string(&b, s, 1);
	kifu_buf_puts(&b, "}\n");
	read_str(&res, b.data);
	/* Tags keep the YAML type: the string must read back as a string, not a number or bool. */
	if (res.count != 1 || !res.first->event || strcmp(res.first->event, s) ||
	    !res.first->site || strcmp(res.first->site, s) || res.first->ntags != 1 ||
	    strcmp(res.first->tags[0].value, s) || res.first->tags[0].type != KIFU_SCALAR_STR) {
		fprintf(stderr, "string '%s' wrote as:\n%s\n", s, b.data);
		fail();
	}
	/* `f` is a mapping: reported, and proves the flow form parsed. */
	assert_int_equal(res.diags.errors, 1);
	expect_diag(&res, "tag 'f' must be a scalar, not a mapping");
	done(&res);
	kifu_buf_release(&b);
}

static void test_quoting_traps(void **state)
{
	static const char *const traps[] = {
		"3", "1e5", "1.5", "0x1F", "yes", "No", "on", "null", "~", "", " lead", "trail ",
		"a: b", "a #b", "#x", "-x", "- x", "? x", "!x", "&x", "*x", "|x", ">x", "'x", "\"x",
		"%x", "@x", "`x", "[x]", "{x}", "a, b", "x:", "it's", "tab\there", "line\nbreak",
		"cr\rx", "nul-free \x01 control", "back\\slash", "caf\xc3\xa9", "\xc2\x85nel",
		"\xe2\x80\xa8ls", "\xef\xbb\xbf" "bom", "2001-12-14", "=", "<<", "e5", "b2>ne",
		"a2>se 3+2+1 e5", "c4-d5/g7", "mcts:200 #1", "  ", "double  space", "x\x7f",
		"\xc2\x9f", "end\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(traps) / sizeof(traps[0]); i++)
		check_string_round_trip(traps[i]);
}

static void test_quoting_plain_when_safe(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;

	(void)state;
	kifu_yaml_put_string(&b, "a2>se 3+2+1 e5", 0);
	assert_string_equal(b.data, "a2>se 3+2+1 e5");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "3", 0);
	assert_string_equal(b.data, "'3'");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "yes", 0);
	assert_string_equal(b.data, "'yes'");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "it's", 0);
	assert_string_equal(b.data, "it's");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "a: b", 0);
	assert_string_equal(b.data, "'a: b'");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "Bern, Switzerland", 0);
	assert_string_equal(b.data, "Bern, Switzerland");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "Bern, Switzerland", 1);
	assert_string_equal(b.data, "'Bern, Switzerland'");
	kifu_buf_reset(&b);
	kifu_yaml_put_string(&b, "a\tb", 0);
	assert_string_equal(b.data, "\"a\\tb\"");
	kifu_buf_release(&b);
}

/* Random strings of ASCII and a few multi-byte characters survive the writer. */
static void test_quoting_random(void **state)
{
	static const char *const pieces[] = {
		"a", "Z", "0", "9", " ", ":", "#", "-", "'", "\"", "\\", ",", "[", "}", "\n", "\t",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", ".", "e", "+", "~", "!", "&", "*", "?",
		"%", "@", "|", ">", "\x01", "\x7f", "\xc2\x85", "y", "n", "1", "x",
	};
	uint64_t seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 1500; round++) {
		char s[128];
		size_t len = 0;
		int k, n;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		n = (int)(seed >> 60);
		for (k = 0; k < n; k++) {
			const char *p;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			p = pieces[(seed >> 33) % (sizeof(pieces) / sizeof(pieces[0]))];
			memcpy(s + len, p, strlen(p));
			len += strlen(p);
		}
		s[len] = '\0';
		check_string_round_trip(s);
	}
}

/* ---- moves are never typed ---- */

static void test_moves_are_text(void **state)
{
	struct doc_result res;
	struct kifu_record *rec;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;
	static const char *const typed[] = { "3", "1e5", "yes", "~", "null", "0x10", "2001-12-14",
					     "1.5", ".inf", "" };
	size_t i;

	(void)state;
	read_str(&res, "game: splay-schmidt\nmoves: [3, 1e5, yes, ~, null, 0x10, 2001-12-14, 1.5, "
		       ".inf, '']\n");
	assert_int_equal(res.count, 1);
	assert_int_equal(res.first->nturns, 10);
	for (i = 0; i < 10; i++)
		assert_string_equal(res.first->turns[i].text, typed[i]);
	/* The first is given to the engine as the text "3". */
	expect_diag(&res, "game 1, ply 1: unparsable move '3'");
	done(&res);

	/* A record built in memory with such texts writes them quoted and reads them back. */
	kifu_error_clear(&err);
	assert_int_equal(kifu_record_new(&rec, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_GAME, "splay-schmidt", &err), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(kifu_record_add_turn(rec, typed[i], typed[i], NULL, &err), 0);
	assert_int_equal(kifu_record_write(&b, rec, NULL, &err), 0);
	read_str(&res, b.data);
	assert_int_equal(res.count, 1);
	assert_int_equal(res.first->nturns, 10);
	for (i = 0; i < 10; i++) {
		assert_string_equal(res.first->turns[i].text, typed[i]);
		assert_string_equal(res.first->turns[i].comment, typed[i]);
	}
	done(&res);
	kifu_record_free(rec);
	kifu_buf_release(&b);
}

/* ---- round trip ---- */

static const char *result_of(const struct kifu_record *r)
{
	return kifu_record_result(r);
}

static const char *termination_of(const struct kifu_record *r)
{
	return kifu_record_termination(r);
}

static const struct kifu_record_player *player_of(const struct kifu_record *r, const char *side)
{
	size_t i;

	for (i = 0; i < r->nplayers; i++)
		if (!strcmp(r->players[i].side, side))
			return &r->players[i];
	return NULL;
}

/*
 * Format 2: turn a (of the record replayed as ra, its texts taken from *xa
 * on in the replay's walk order) and b (read back) carry the same nag,
 * eval and lines, the lines' moves canonical.
 */
static void assert_same_extras(const struct kifu_turn *a, const struct kifu_replay *ra, size_t *xa,
			       const struct kifu_turn *b)
{
	size_t j, k;

	assert_true(eq(a->nag, b->nag));
	assert_true(!a->eval == !b->eval);
	if (a->eval) {
		assert_string_equal(a->eval->engine, b->eval->engine);
		assert_true(a->eval->expected_value == b->eval->expected_value);
		assert_string_equal(kifu_replay_xtext(ra, (*xa)++), b->eval->best);
	}
	assert_int_equal(a->nlines, b->nlines);
	for (j = 0; j < a->nlines; j++) {
		assert_int_equal(a->lines[j].nturns, b->lines[j].nturns);
		for (k = 0; k < a->lines[j].nturns; k++) {
			const struct kifu_turn *p = &a->lines[j].turns[k], *q = &b->lines[j].turns[k];

			assert_string_equal(kifu_replay_xtext(ra, (*xa)++), q->text);
			assert_true(eq(p->comment, q->comment));
			assert_true(p->clock_seconds == q->clock_seconds);
			assert_same_extras(p, ra, xa, q);
		}
	}
}

/* a (read and replayed as ra) and b (read from a's canonical output) hold the same game. */
static void assert_same_record(const struct kifu_record *a, const struct kifu_replay *ra,
			       const struct kifu_record *b, const struct kifu_replay *rb)
{
	size_t i, xa = 0;
	int k;

	assert_int_equal(kifu_record_uses_format2(a) ? 2 : 1, b->format);
	assert_true(eq(a->game, b->game));
	assert_non_null(ra->game);
	assert_int_equal(ra->variant, rb->variant);
	assert_int_equal(ra->first, rb->first);
	assert_string_equal(b->variant, ra->game->variants[ra->variant]);
	for (k = KIFU_KEY_EVENT; k <= KIFU_KEY_DATE; k++)
		assert_true(eq(kifu_record_get(a, k), kifu_record_get(b, k)));
	assert_true(eq(a->first, b->first));
	assert_int_equal(a->nplayers, b->nplayers);
	for (i = 0; i < a->nplayers; i++) {
		const struct kifu_record_player *p = &a->players[i], *q = player_of(b, p->side);

		assert_non_null(q);
		assert_true(eq(p->name, q->name));
		assert_int_equal(p->has_rating, q->has_rating);
		assert_int_equal(p->rating, q->rating);
	}
	assert_int_equal(a->nturns, b->nturns);
	assert_int_equal(ra->nplies, a->nturns);
	assert_int_equal(rb->nplies, b->nturns);
	for (i = 0; i < a->nturns; i++) {
		assert_string_equal(kifu_replay_text(ra, i + 1), b->turns[i].text);
		assert_true(ra->moves[i] == rb->moves[i]);
		assert_true(eq(a->turns[i].comment, b->turns[i].comment));
		/*
		 * A clock keeps its text where every YAML reader reads it alike;
		 * another form (4:59, 0x10) comes back as the same seconds.
		 */
		assert_true(eq(a->turns[i].clock, b->turns[i].clock) ||
			    (a->turns[i].clock && b->turns[i].clock &&
			     a->turns[i].clock_seconds == b->turns[i].clock_seconds));
		assert_same_extras(&a->turns[i], ra, &xa, &b->turns[i]);
	}
	assert_int_equal(xa, ra->nx);
	for (i = 0; i <= a->nturns; i++)
		assert_true(ra->hashes[i] == rb->hashes[i]);
	assert_string_equal(result_of(a), result_of(b));
	assert_true(eq(termination_of(a), termination_of(b)));
	assert_non_null(b->result);
	assert_int_equal(a->ntags, b->ntags);
	for (i = 0; i < a->ntags; i++) {
		assert_string_equal(a->tags[i].key, b->tags[i].key);
		assert_string_equal(a->tags[i].value, b->tags[i].value);
		/* Same text; quoted (a string) where YAML 1.1 and 1.2 readers would type it apart. */
		assert_true(a->tags[i].type == b->tags[i].type || b->tags[i].type == KIFU_SCALAR_STR);
	}
}

static int round_trip_file(const char *path)
{
	struct kifu_reader *r1;
	struct kifu_record *a;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay ra = KIFU_REPLAY_INIT, rb = KIFU_REPLAY_INIT;
	struct kifu_error err;
	int games = 0;

	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_file(&r1, path, &err), 0);
	while (kifu_reader_next(&a, &diags, r1, &err) > 0) {
		struct kifu_buf out1 = KIFU_BUF_INIT, out2 = KIFU_BUF_INIT;
		struct doc_result res;

		assert_int_equal(kifu_record_validate(&ra, &diags, a,
						      KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err),
				 0);
		if (diags.errors) {
			fprintf(stderr, "%s: %s\n", path, diags.v[0].message);
			fail();
		}
		assert_true(ra.complete);
		assert_int_equal(kifu_record_write(&out1, a, &ra, &err), 0);
		read_str(&res, out1.data);
		assert_int_equal(res.count, 1);
		assert_int_equal(res.diags.errors, 0);
		assert_int_equal(kifu_record_validate(&rb, &res.diags, res.first,
						      KIFU_VALIDATE_TEXT | KIFU_VALIDATE_NO_CLOCK, &err),
				 0);
		assert_same_record(a, &ra, res.first, &rb);
		/* Writing is idempotent: the canonical text of the copy is the same text. */
		assert_int_equal(kifu_record_write(&out2, res.first, &rb, &err), 0);
		assert_string_equal(out1.data, out2.data);
		done(&res);
		kifu_buf_release(&out1);
		kifu_buf_release(&out2);
		kifu_record_free(a);
		kifu_diags_reset(&diags);
		games++;
	}
	kifu_reader_free(r1);
	kifu_replay_release(&ra);
	kifu_replay_release(&rb);
	kifu_diags_release(&diags);
	return games;
}

static int round_trip_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int files = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char path[1024];
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".yaml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_true(round_trip_file(path) > 0);
		files++;
	}
	closedir(d);
	return files;
}

static void test_round_trip(void **state)
{
	static const char *const dirs[] = {
		"examples/splay-schmidt", "examples/splay-kisenwether", "examples/splinter",
		"examples/splinter-quad", "examples/glaisher", "tests/data/records/valid",
		"examples/format2",
	};
	size_t i;
	int files = 0;

	(void)state;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", KIFU_SOURCE_DIR, dirs[i]);
		files += round_trip_dir(path);
	}
	assert_true(files >= 21 + 5);
}

static void test_writer_canonical(void **state)
{
	struct doc_result res;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;

	(void)state;
	read_str(&res, "moves:\n  - {clock: 12.50, move: ' G7 ', comment: 'a: b'}\n  - i2\n"
		       "tags: {z: 1, a: '1'}\nplayers: {black: {rating: 0x10, name: B}, white: W}\n"
		       "game: splay-schmidt\nevent: 3\nresult: unfinished\ndate: 2020\n");
	assert_int_equal(res.diags.errors, 0);
	kifu_error_clear(&err);
	assert_int_equal(kifu_record_write(&b, res.first, &res.replay, &err), 0);
	assert_string_equal(b.data, "---\n"
				    "format: 1\n"
				    "game: splay-schmidt\n"
				    "variant: standard\n"
				    "event: '3'\n"
				    "date: '2020'\n"
				    "players:\n"
				    "  white: W\n"
				    "  black: {name: B, rating: 16}\n"
				    "moves:\n"
				    "  - {move: g7, comment: 'a: b', clock: 12.50}\n"
				    "  - i2\n"
				    "result: unfinished\n"
				    "tags:\n"
				    "  z: 1\n"
				    "  a: '1'\n");
	kifu_buf_release(&b);
	done(&res);

	/*
	 * What PyYAML (YAML 1.1, flow scalars end at '?') or js-yaml (YAML
	 * 1.2) would read otherwise is quoted, or a clock written in seconds.
	 */
	read_str(&res, "game: splay-schmidt\nmoves:\n  - {move: d4, comment: blunder?, clock: 1:30}\n"
		       "  - {move: f6, comment: 'ok', clock: 0x10}\n  - {move: e5, clock: 4:09.5}\n"
		       "tags: {a: yes, b: 017, c: 12.50, d: 42, e: 2024-01-02, f: 1e3, g: why?}\n");
	assert_int_equal(res.diags.errors, 0);
	assert_int_equal(kifu_record_write(&b, res.first, &res.replay, &err), 0);
	assert_non_null(strstr(b.data, "moves:\n"
				       "  - {move: d4, comment: 'blunder?', clock: 90}\n"
				       "  - {move: f6, comment: ok, clock: 16}\n"
				       "  - {move: e5, clock: 249.5}\n"
				       "result: unfinished\n"
				       "tags:\n"
				       "  a: 'yes'\n"
				       "  b: '017'\n"
				       "  c: 12.50\n"
				       "  d: 42\n"
				       "  e: 2024-01-02\n"
				       "  f: '1e3'\n"
				       "  g: why?\n"));
	kifu_buf_release(&b);
	done(&res);

	/* A decided game gets `termination: rules`; `first` is dropped where not allowed. */
	read_str(&res, "game: splay-schmidt\nmoves: []\nresult: draw\ntermination: agreement\n");
	assert_int_equal(res.diags.errors, 0);
	assert_int_equal(kifu_record_write(&b, res.first, NULL, &err), 0);
	assert_non_null(strstr(b.data, "moves: []\nresult: draw\ntermination: agreement\n"));
	kifu_buf_release(&b);
	done(&res);
}

/* ---- validation and replay ---- */

static void test_replay(void **state)
{
	char path[512];
	size_t len;
	char *text;
	struct doc_result res;
	const struct kifu_game *g;
	void *st;
	struct kifu_error err;
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/records/invalid/result-disagrees.yaml",
		 KIFU_SOURCE_DIR);
	text = th_slurp(path, &len);
	read_all(&res, text, len);
	assert_int_equal(res.count, 1);
	g = res.replay.game;
	assert_non_null(g);
	assert_string_equal(g->name, "glaisher");
	assert_int_equal(res.replay.first, 1);
	assert_true(res.replay.complete);
	assert_int_equal(res.replay.nplies, 14);
	assert_int_equal(res.replay.outcome.status, KIFU_WIN);
	assert_string_equal(g->sides[res.replay.outcome.winner], "red");
	expect_diag(&res, "result 'yellow' does not agree with the replay: the rules give 'red'");
	assert_int_equal(res.diags.v[0].line, 19);
	/* Hashes: index 0 is the start position, each next one after a ply. */
	st = malloc(g->state_size);
	assert_non_null(st);
	kifu_error_clear(&err);
	assert_int_equal(g->init(st, 0, 1, &err), 0);
	for (i = 0; i < res.replay.nplies; i++) {
		assert_true(res.replay.hashes[i] == g->hash(st));
		g->apply(st, res.replay.moves[i]);
	}
	assert_true(res.replay.hashes[i] == g->hash(st));
	assert_true(res.replay.nfigures >= 0 && res.replay.nfigures <= KIFU_FIGURES_MAX);
	free(st);
	free(text);
	done(&res);

	/* A move after the end is reported at the move, and the replay stops before it. */
	snprintf(path, sizeof(path), "%s/tests/data/records/invalid/move-after-end.yaml",
		 KIFU_SOURCE_DIR);
	text = th_slurp(path, &len);
	read_all(&res, text, len);
	assert_int_equal(res.diags.n, 1);
	assert_string_equal(res.diags.v[0].message, "game 1, ply 15: move after the end of the game");
	assert_int_equal(res.diags.v[0].line, 19);
	assert_int_equal(res.diags.v[0].col, 5);
	assert_int_equal(res.replay.nplies, 14);
	assert_false(res.replay.complete);
	free(text);
	done(&res);
}

static void test_stream(void **state)
{
	struct doc_result res;

	(void)state;
	read_str(&res, "game: splay-schmidt\nmoves: [g7]\n---\ngame: splay-schmidt\nmoves: [g7, g7]\n"
		       "---\ngame: nope\nmoves: []\n---\ngame: splay-schmidt\nmoves: [g7, i2\n"
		       "---\ngame: splay-schmidt\nmoves: []\n");
	/* Three complete games, then a syntax error as game 4; nothing after it. */
	assert_int_equal(res.count, 4);
	assert_int_equal(res.ret, 0);
	assert_int_equal(res.diags.n, 3);
	assert_int_equal(res.diags.v[0].game, 2);
	assert_int_equal(res.diags.v[0].ply, 2);
	assert_int_equal(res.diags.v[0].line, 5);
	assert_int_equal(res.diags.v[0].col, 13);
	assert_int_equal(res.diags.v[1].game, 3);
	assert_string_equal(res.diags.v[2].message,
			    "game 4: invalid YAML: did not find expected ',' or ']' while parsing a "
			    "flow sequence started on line 11");
	assert_int_equal(res.diags.v[2].line, 12);
	done(&res);

	/* An empty stream has no game; comments alone neither. */
	read_str(&res, "");
	assert_int_equal(res.count, 0);
	done(&res);
	read_str(&res, "# nothing\n\n# here\n");
	assert_int_equal(res.count, 0);
	done(&res);
}

static void test_builder(void **state)
{
	struct kifu_record *rec;
	struct kifu_error err;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;

	(void)state;
	kifu_record_free(NULL);
	kifu_replay_release(NULL);
	kifu_error_clear(&err);
	assert_int_equal(kifu_record_new(&rec, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_GAME, "splinter", &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_FIRST, "white", &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_EVENT, "Club: night #3", &err), 0);
	assert_int_equal(kifu_record_set_player(rec, "white", "W", 1, 1900, &err), 0);
	assert_int_equal(kifu_record_set_player(rec, "blue", "B", 0, 0, &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "D7-D8", "start", "59.5", &err), 0);
	assert_int_equal(kifu_record_add_tag(rec, "seed", "42", KIFU_SCALAR_INT, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_MOVES, "x", &err), KIFU_ENOTFOUND);
	assert_string_equal(kifu_record_result(rec), "unfinished");
	assert_null(kifu_record_termination(rec));
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_RESULT, "draw", &err), 0);
	assert_string_equal(kifu_record_termination(rec), "rules");
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_TERMINATION, "agreement", &err), 0);
	assert_string_equal(kifu_record_termination(rec), "agreement");
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_RESULT, NULL, &err), 0);
	assert_int_equal(kifu_record_set(rec, KIFU_KEY_TERMINATION, NULL, &err), 0);
	assert_int_equal(kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT, &err), 0);
	assert_int_equal(diags.errors, 0);
	assert_string_equal(kifu_replay_text(&rp, 1), "d7-d8");
	assert_int_equal(kifu_record_write(&b, rec, &rp, &err), 0);
	assert_non_null(strstr(b.data, "event: 'Club: night #3'\n"));
	assert_non_null(strstr(b.data, "  blue: B\n  white: {name: W, rating: 1900}\nfirst: white\n"));
	assert_non_null(strstr(b.data, "  - {move: d7-d8, comment: start, clock: 59.5}\n"));
	assert_non_null(strstr(b.data, "tags:\n  seed: 42\n"));
	read_str(&res, b.data);
	assert_int_equal(res.diags.errors, 0);
	assert_int_equal(res.first->tags[0].type, KIFU_SCALAR_INT);
	assert_true(res.first->turns[0].clock_seconds == 59.5);
	done(&res);
	kifu_buf_release(&b);
	kifu_replay_release(&rp);
	kifu_diags_release(&diags);
	kifu_record_free(rec);
}

/* ---- Format 2 ---- */

static void test_format2_read(void **state)
{
	struct doc_result res;
	const struct kifu_turn *t;

	(void)state;
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves:\n"
		       "  - F6\n"
		       "  - move: f3\n"
		       "    nag: '?!'\n"
		       "    eval: {engine: 'mcts:200', expected: 1, best: ' D4'}\n"
		       "    variations:\n"
		       "      - [D4, {move: c2, variations: [[C3, e5]]}, d3]\n"
		       "      - [b2]\n"
		       "  - b2\n");
	assert_int_equal(res.diags.errors, 0);
	assert_true(res.replay.complete);
	assert_int_equal(res.first->format, 2);
	assert_int_equal(res.first->nturns, 3);
	assert_int_equal(res.first->line_turns, 6);
	t = &res.first->turns[1];
	assert_string_equal(t->nag, "?!");
	assert_string_equal(t->eval->engine, "mcts:200");
	assert_string_equal(t->eval->expected, "1");
	assert_true(t->eval->expected_value == 1.0);
	assert_int_equal(t->nlines, 2);
	assert_int_equal(t->lines[0].nturns, 3);
	assert_int_equal(t->lines[0].turns[1].nlines, 1);
	assert_string_equal(t->lines[0].turns[1].lines[0].turns[0].text, "C3");
	assert_true(kifu_record_uses_format2(res.first));
	/* the walk order: best, line 1 (d4, c2, its line c3 e5, d3), line 2 (b2) */
	assert_int_equal(res.replay.nx, 7);
	assert_string_equal(kifu_replay_xtext(&res.replay, 0), "d4");
	assert_string_equal(kifu_replay_xtext(&res.replay, 1), "d4");
	assert_string_equal(kifu_replay_xtext(&res.replay, 3), "c3");
	assert_string_equal(kifu_replay_xtext(&res.replay, 6), "b2");
	assert_null(kifu_replay_xtext(&res.replay, 7));
	/* the main line is the game: its canonical moves and hashes only */
	assert_int_equal(res.replay.nplies, 3);
	assert_string_equal(kifu_replay_text(&res.replay, 3), "b2");
	done(&res);
}

static void test_format2_write(void **state)
{
	struct doc_result res;
	struct kifu_buf b = KIFU_BUF_INIT;
	struct kifu_error err;

	(void)state;
	kifu_error_clear(&err);
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves:\n"
		       "  - {comment: x, nag: '!', move: F6}\n"
		       "  - variations: [[D4, {move: c2, variations: [[C3, e5]], clock: 3}], [b2]]\n"
		       "    eval: {best: ' D4', expected: 0x1, engine: 'mcts:200'}\n"
		       "    move: f3\n");
	assert_int_equal(res.diags.errors, 0);
	assert_int_equal(kifu_record_write(&b, res.first, &res.replay, &err), 0);
	assert_string_equal(b.data, "---\n"
				    "format: 2\n"
				    "game: splay-schmidt\n"
				    "variant: standard\n"
				    "moves:\n"
				    "  - {move: f6, nag: '!', comment: x}\n"
				    "  - move: f3\n"
				    "    eval: {engine: 'mcts:200', expected: 1.0, best: d4}\n"
				    "    variations:\n"
				    "      - - d4\n"
				    "        - move: c2\n"
				    "          clock: 3\n"
				    "          variations:\n"
				    "            - - c3\n"
				    "              - e5\n"
				    "      - - b2\n"
				    "result: unfinished\n");
	done(&res);
	kifu_buf_release(&b);

	/* format 2 without its keys is written as format 1 */
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves: [f6]\n");
	assert_int_equal(res.diags.errors, 0);
	assert_int_equal(kifu_record_write(&b, res.first, &res.replay, &err), 0);
	assert_non_null(strstr(b.data, "\nformat: 1\n"));
	done(&res);
	kifu_buf_release(&b);
}

static void test_format2_errors(void **state)
{
	struct doc_result res;
	int i;

	(void)state;
	/* a bad line ends its own replay only: the main line, other lines, the result are checked */
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves:\n"
		       "  - f6\n"
		       "  - move: f3\n"
		       "    variations: [[d4, d4, zz], [d4, {move: c2, variations: [[c3, c3]]}]]\n"
		       "  - f3\n"
		       "result: white\n");
	expect_diag(&res, "game 1, ply 2, line 1, ply 3: illegal move 'd4'");
	expect_diag(&res, "game 1, ply 2, line 2, ply 3, line 1, ply 4: illegal move 'c3'");
	expect_diag(&res, "game 1, ply 3: illegal move 'f3'");
	assert_int_equal(res.diags.errors, 3);
	i = find_diag(&res, "line 2, ply 3, line 1");
	assert_int_equal(res.diags.v[i].ply, 2); /* the main-line ply */
	assert_int_equal(res.diags.v[i].line, 6);
	assert_int_equal(res.diags.v[i].col, 66);
	assert_false(res.replay.complete);
	assert_null(kifu_replay_xtext(&res.replay, 0));
	done(&res);

	/* a bad line or eval leaves the main line valid: the result is still checked */
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves:\n"
		       "  - {move: f6, variations: [[d4, d4]], eval: {engine: x, expected: 0, best: zz}}\n"
		       "  - f3\n"
		       "result: white\n");
	expect_diag(&res, "game 1, ply 1, line 1, ply 2: illegal move 'd4'");
	expect_diag(&res, "game 1, ply 1: 'best' of 'eval': unparsable move 'zz'");
	expect_diag(&res, "game 1: result 'white' does not agree with the replay");
	assert_int_equal(res.diags.errors, 3);
	assert_false(res.replay.complete);
	done(&res);

	/* lines and eval of a main-line move that fails, or comes after one, are not checked */
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves:\n"
		       "  - f6\n"
		       "  - {move: f6, variations: [[zz]], eval: {engine: x, expected: 0, best: zz}}\n"
		       "  - {move: d4, variations: [[zz]]}\n");
	assert_int_equal(res.diags.errors, 1);
	expect_diag(&res, "game 1, ply 2: illegal move 'f6'");
	done(&res);

	/* nothing after the rules ended the game, in a line as in the main line; no result checked */
	read_str(&res, "format: 2\ngame: splay-schmidt\nmoves: [{move: f6, variations: [[d4]]}]\n"
		       "result: black\ntermination: resignation\n");
	assert_int_equal(res.diags.errors, 0);
	done(&res);
}

/* A record of a million lines, nested or side by side, is refused with a diagnostic, quickly. */
static void test_format2_limits(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;
	size_t i;

	(void)state;
	/* a million levels: past the reader's nesting limits, the file is not read on */
	kifu_buf_puts(&b, "format: 2\ngame: splay-schmidt\nmoves:\n  - ");
	for (i = 0; i < 1000000; i++)
		kifu_buf_puts(&b, "{move: d4, variations: [[");
	kifu_buf_puts(&b, "d4");
	for (i = 0; i < 1000000; i++)
		kifu_buf_puts(&b, "]]}");
	kifu_buf_puts(&b, "\n");
	assert_false(b.failed);
	read_all(&res, b.data, b.len);
	assert_true(res.diags.errors >= 1);
	expect_diag(&res, "game 1: nesting deeper than");
	done(&res);
	kifu_buf_release(&b);

	/* 17 levels: within YAML's limits, past format 2's */
	kifu_buf_puts(&b, "format: 2\ngame: splay-schmidt\nmoves:\n  - ");
	for (i = 0; i < 17; i++)
		kifu_buf_puts(&b, "{move: d4, variations: [[");
	kifu_buf_puts(&b, "d4");
	for (i = 0; i < 17; i++)
		kifu_buf_puts(&b, "]]}");
	kifu_buf_puts(&b, "\n");
	read_all(&res, b.data, b.len);
	assert_int_equal(res.diags.errors, 1);
	expect_diag(&res, "variations nested deeper than 16 levels");
	assert_int_equal(res.first->line_turns, 16);
	done(&res);
	kifu_buf_release(&b);

	/* a million lines side by side: the turns of lines count against the game's limit */
	kifu_buf_puts(&b, "format: 2\ngame: splay-schmidt\nmoves:\n  - {move: d4, variations: [");
	for (i = 0; i < 1000000; i++)
		kifu_buf_puts(&b, i ? ", [d4]" : "[d4]");
	kifu_buf_puts(&b, "]}\n  - f6\n");
	read_all(&res, b.data, b.len);
	expect_diag(&res, "game 1, ply 1, line 100000, ply 1: the game has more than 100000 turns, "
			  "its lines included");
	assert_true(res.first->flags & KIFU_RECORD_TRUNCATED);
	assert_int_equal(res.first->line_turns, KIFU_RECORD_MAX_TURNS - 1);
	assert_false(res.replay.complete);
	done(&res);
	kifu_buf_release(&b);
}

static void test_format2_builder(void **state)
{
	struct kifu_record *rec;
	struct kifu_turn *t;
	struct kifu_error err;

	(void)state;
	kifu_error_clear(&err);
	assert_int_equal(kifu_record_new(&rec, &err), 0);
	assert_int_equal(kifu_record_add_turn(rec, "f6", NULL, NULL, &err), 0);
	assert_false(kifu_record_uses_format2(rec));
	assert_int_equal(kifu_record_turn_lines(rec, &rec->turns[0], 2, &err), 0);
	t = kifu_record_line_add_turn(rec, &rec->turns[0].lines[1], "d4", "why not", "3");
	assert_non_null(t);
	assert_int_equal(kifu_record_turn_nag(rec, t, "!?", &err), 0);
	assert_int_equal(kifu_record_turn_eval(rec, t, "mcts:9", "0.25", "d5", &err), 0);
	assert_true(t->eval->expected_value == 0.25);
	assert_true(kifu_record_uses_format2(rec));
	assert_int_equal(rec->line_turns, 1);
	assert_int_equal(kifu_nag_index("?!"), 6);
	assert_int_equal(kifu_nag_index("!!!"), 0);
	kifu_record_free(rec);
}

static void test_diag_escapes(void **state)
{
	struct kifu_diags d = KIFU_DIAGS_INIT;
	struct kifu_mark at = { 3, 4 };

	(void)state;
	assert_int_equal(kifu_diags_add(&d, KIFU_DIAG_ERROR, 2, 0, at, "bad '%s'", "a\nb\tc\x01"), 0);
	assert_int_equal(kifu_diags_add(&d, KIFU_DIAG_WARNING, 2, 7, at, "odd"), 0);
	assert_string_equal(d.v[0].message, "game 2: bad 'a\\nb\\tc\\x01'");
	assert_string_equal(d.v[1].message, "game 2, ply 7: odd");
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 1);
	kifu_diags_release(&d);
}

/* ---- hostile input ---- */

static void test_alias_never_expanded(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;
	int i;

	(void)state;
	/* A billion laughs: expanded, it would not fit in memory. */
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\ntags:\n  a0: &a0 [lol, lol, lol, lol, lol]\n");
	for (i = 1; i < 30; i++)
		kifu_buf_printf(&b, "  a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i,
				i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	read_str(&res, b.data);
	assert_int_equal(res.count, 1);
	expect_diag(&res, "game 1: anchor '&a0' is not allowed");
	expect_diag(&res, "game 1: alias '*a0' is not allowed");
	done(&res);
	kifu_buf_release(&b);
}

static void test_deep_nesting(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;
	int i;

	(void)state;
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\ntags: {a: ");
	for (i = 0; i < 100; i++)
		kifu_buf_putc(&b, '[');
	for (i = 0; i < 100; i++)
		kifu_buf_putc(&b, ']');
	kifu_buf_puts(&b, "}\n---\ngame: splay-schmidt\nmoves: [g7]\n");
	read_str(&res, b.data);
	assert_int_equal(res.count, 2);
	expect_diag(&res, "game 1: nesting deeper than 64 levels");
	assert_int_equal(res.diags.v[res.diags.n - 1].game, 1); /* game 2 is fine */
	done(&res);

	/* Far deeper: the file is not read on. */
	kifu_buf_reset(&b);
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\n---\n");
	for (i = 0; i < 200000; i++)
		kifu_buf_putc(&b, '[');
	read_str(&res, b.data);
	assert_int_equal(res.count, 2);
	assert_int_equal(res.ret, 0);
	expect_diag(&res, "game 2: nesting deeper than 10000 levels: the rest of the file is not read");
	done(&res);
	kifu_buf_release(&b);
}

static void test_long_scalars(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;
	size_t i;

	(void)state;
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\nevent: ");
	for (i = 0; i < KIFU_RECORD_MAX_SCALAR + 1; i++)
		kifu_buf_putc(&b, 'x');
	kifu_buf_puts(&b, "\n---\ngame: splay-schmidt\nmoves: []\n");
	read_str(&res, b.data);
	assert_int_equal(res.count, 2);
	expect_diag(&res, "game 1: a scalar is longer than 1048576 bytes (1048577)");
	assert_int_equal(res.diags.errors, 1);
	done(&res);

	/* Past 4 MiB without an event, libyaml is not fed further. */
	kifu_buf_reset(&b);
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves: []\nevent: \"");
	for (i = 0; i < 5u << 20; i++)
		kifu_buf_putc(&b, 'x');
	kifu_buf_puts(&b, "\"\n");
	read_str(&res, b.data);
	assert_int_equal(res.count, 1);
	expect_diag(&res, "game 1: a scalar or comment is longer than 4 MiB: the rest of the file is "
			  "not read");
	done(&res);
	kifu_buf_release(&b);
}

static void test_too_many_moves(void **state)
{
	struct kifu_buf b = KIFU_BUF_INIT;
	struct doc_result res;
	int i;

	(void)state;
	kifu_buf_puts(&b, "game: splay-schmidt\nmoves:\n");
	for (i = 0; i < KIFU_RECORD_MAX_TURNS + 5; i++)
		kifu_buf_puts(&b, "- x\n");
	read_str(&res, b.data);
	assert_int_equal(res.count, 1);
	assert_int_equal(res.first->nturns, KIFU_RECORD_MAX_TURNS);
	assert_int_equal(res.first->plies_written, KIFU_RECORD_MAX_TURNS + 5);
	assert_true(res.first->flags & KIFU_RECORD_TRUNCATED);
	expect_diag(&res, "game 1, ply 100001: 'moves' has more than 100000 turns");
	expect_diag(&res, "game 1, ply 1: unparsable move 'x'");
	done(&res);
	kifu_buf_release(&b);
}

static void test_bad_bytes(void **state)
{
	static const char nul[] = "game: splay-schmidt\nmoves: []\n---\ngame: splay-schmidt\nevent: a\0b\n";
	static const char bad[] = "game: splay-schmidt\nevent: \xff\xfe\nmoves: []\n";
	static const char cut[] = "game: splay-schmidt\nevent: \xe2\x82";
	static const char c1[] = "game: splay-schmidt\nevent: \xc2\x80\nmoves: []\n";
	static const char utf16[] = "\xff\xfeg\0a\0";
	struct doc_result res;

	(void)state;
	read_all(&res, nul, sizeof(nul) - 1);
	assert_int_equal(res.count, 2);
	assert_int_equal(res.diags.n, 1);
	assert_string_equal(res.diags.v[0].message, "game 2: invalid input: a NUL byte");
	assert_int_equal(res.diags.v[0].line, 5);
	assert_int_equal(res.diags.v[0].col, 9);
	done(&res);
	read_all(&res, bad, sizeof(bad) - 1);
	assert_int_equal(res.count, 1);
	assert_string_equal(res.diags.v[0].message,
			    "game 1: invalid input: bytes that are not UTF-8 (0xFF)");
	assert_int_equal(res.diags.v[0].line, 2);
	assert_int_equal(res.diags.v[0].col, 8);
	done(&res);
	read_all(&res, cut, sizeof(cut) - 1);
	assert_int_equal(res.count, 1);
	expect_diag(&res, "game 1: invalid input: bytes that are not UTF-8 (0xE2)");
	done(&res);
	read_all(&res, c1, sizeof(c1) - 1);
	expect_diag(&res, "game 1: invalid input: a control character (U+0080)");
	done(&res);
	read_all(&res, utf16, sizeof(utf16) - 1);
	assert_int_equal(res.count, 1);
	expect_diag(&res, "game 1: invalid input: bytes that are not UTF-8");
	done(&res);
	read_str(&res, "game: splay-schmidt\nevent: \"a\\0b\"\nmoves: []\n");
	expect_diag(&res, "game 1: a scalar contains a NUL character");
	done(&res);
}

/* Every prefix of a real record reads without a crash and ends in a record or a YAML error. */
static void test_every_prefix(void **state)
{
	char path[512];
	size_t len, n;
	char *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/records/valid/stream.yaml", KIFU_SOURCE_DIR);
	text = th_slurp(path, &len);
	for (n = 0; n <= len; n++) {
		struct doc_result res;

		read_all(&res, text, n);
		assert_int_equal(res.ret, 0);
		assert_true(res.count <= 3);
		done(&res);
	}
	free(text);
}

static void test_reader_file_errors(void **state)
{
	struct kifu_reader *r = (struct kifu_reader *)1;
	struct kifu_error err;

	(void)state;
	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_file(&r, "/nonexistent/x.yaml", &err), KIFU_EIO);
	assert_null(r);
	assert_string_equal(err.message, "cannot open '/nonexistent/x.yaml': no such file or directory");
	kifu_reader_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_quoting_traps),
		cmocka_unit_test(test_quoting_plain_when_safe),
		cmocka_unit_test(test_quoting_random),
		cmocka_unit_test(test_moves_are_text),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_writer_canonical),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_builder),
		cmocka_unit_test(test_format2_read),
		cmocka_unit_test(test_format2_write),
		cmocka_unit_test(test_format2_errors),
		cmocka_unit_test(test_format2_limits),
		cmocka_unit_test(test_format2_builder),
		cmocka_unit_test(test_diag_escapes),
		cmocka_unit_test(test_alias_never_expanded),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_long_scalars),
		cmocka_unit_test(test_too_many_moves),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_reader_file_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
