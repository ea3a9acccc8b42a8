/*
 * The helpers shared by the cmocka tests (helpers.h says what each does):
 * one copy of what the test files used to repeat, each failing the running
 * test with a message that names what went wrong.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kifu/check.h"
#include "kifu/search.h"
#include "store/db.h"
#include "helpers.h"

/* ---- files ---- */

char *th_read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *s;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	s[n] = '\0';
	fclose(fp);
	if (len)
		*len = (size_t)n;
	return s;
}

char *th_slurp(const char *path, size_t *len)
{
	char *s = th_read_file(path, len);

	if (!s)
		fail_msg("cannot open %s", path);
	return s;
}

char *th_source_file(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", KIFU_SOURCE_DIR, rel);
	return th_slurp(path, NULL);
}

/* ---- records ---- */

struct kifu_record *th_parse(const char *text, struct kifu_replay *rp)
{
	struct kifu_reader *r;
	struct kifu_record *rec = NULL;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&r, text, strlen(text), "test", &err), 0);
	assert_int_equal(kifu_reader_next(&rec, &diags, r, &err), 1);
	assert_int_equal(kifu_record_validate(rp, &diags, rec, KIFU_VALIDATE_TEXT |
					      KIFU_VALIDATE_NO_CLOCK, &err), 0);
	if (diags.errors)
		fail_msg("record not valid: %s", diags.v[0].message);
	kifu_diags_release(&diags);
	kifu_reader_free(r);
	return rec;
}

void th_revalidate(struct kifu_record *rec, struct kifu_replay *rp)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_error err;

	assert_int_equal(kifu_record_validate(rp, &diags, rec, KIFU_VALIDATE_TEXT |
					      KIFU_VALIDATE_NO_CLOCK, &err), 0);
	if (diags.errors)
		fail_msg("record not valid: %s", diags.v[0].message);
	kifu_diags_release(&diags);
}

void th_add_games(struct kifu_store *st, const char *text)
{
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay rp = KIFU_REPLAY_INIT;
	struct kifu_reader *r;
	struct kifu_record *rec;
	struct kifu_error err;
	int ret;

	kifu_error_clear(&err);
	assert_int_equal(kifu_reader_open_mem(&r, text, strlen(text), "test", &err), 0);
	while ((ret = kifu_reader_next(&rec, &diags, r, &err)) > 0) {
		assert_int_equal(kifu_record_validate(&rp, &diags, rec, KIFU_VALIDATE_TEXT |
						      KIFU_VALIDATE_NO_CLOCK, &err), 0);
		if (diags.errors)
			fail_msg("record %d not valid: %s", rec->number, diags.v[0].message);
		if (kifu_store_game_add(NULL, st, rec, &rp, NULL, &err) != 1)
			fail_msg("game_add: %s", err.message);
		kifu_record_free(rec);
		kifu_diags_reset(&diags);
	}
	assert_int_equal(ret, 0);
	kifu_diags_release(&diags);
	kifu_replay_release(&rp);
	kifu_reader_free(r);
}

/* ---- temporary databases ---- */

char th_tmpdir[256];
char th_dbpath[300];

int th_tmpdb_setup(void **state)
{
	(void)state;
	snprintf(th_tmpdir, sizeof(th_tmpdir), "/tmp/kifu-test-db.XXXXXX");
	if (!mkdtemp(th_tmpdir))
		return -1;
	snprintf(th_dbpath, sizeof(th_dbpath), "%s/t.db", th_tmpdir);
	return 0;
}

int th_tmpdb_teardown(void **state)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char p[320];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s%s", th_dbpath, suffixes[i]);
		unlink(p);
	}
	rmdir(th_tmpdir);
	return 0;
}

struct kifu_store *th_store_open(const char *path)
{
	struct kifu_store *st = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_store_open(&st, path, 0, &err) < 0)
		fail_msg("open: %s", err.message);
	return st;
}

void th_exec(struct kifu_store *st, const char *sql)
{
	if (kifu_db_exec_(st, sql) < 0)
		fail_msg("%s: %s", sql, kifu_db_errmsg_(st));
}

/* The statement of the printf-formatted query; fails when it cannot be prepared. */
static struct kifu_stmt *prepare_fmt(struct kifu_store *st, const char *fmt, va_list ap)
{
	char sql[1024];
	struct kifu_stmt *s;
	struct kifu_error err;

	vsnprintf(sql, sizeof(sql), fmt, ap);
	if (kifu_db_prepare_(&s, st, sql, &err) < 0)
		fail_msg("%s: %s", sql, err.message);
	return s;
}

long long th_q_int(struct kifu_store *st, const char *fmt, ...)
{
	struct kifu_stmt *s;
	long long v = -999;
	va_list ap;

	va_start(ap, fmt);
	s = prepare_fmt(st, fmt, ap);
	va_end(ap);
	if (kifu_db_step_(s) == KIFU_DB_ROW)
		v = kifu_db_column_int64_(s, 0);
	kifu_db_finalize_(s);
	return v;
}

const char *th_q_text(struct kifu_store *st, const char *fmt, ...)
{
	static char out[4096];
	struct kifu_stmt *s;
	va_list ap;

	va_start(ap, fmt);
	s = prepare_fmt(st, fmt, ap);
	va_end(ap);
	snprintf(out, sizeof(out), "(none)");
	if (kifu_db_step_(s) == KIFU_DB_ROW)
		snprintf(out, sizeof(out), "%s",
			 kifu_db_column_is_null_(s, 0) ? "(null)" : kifu_db_column_text_(s, 0));
	kifu_db_finalize_(s);
	return out;
}

/* ---- reports ---- */

const struct kifu_cell *th_cell(const struct kifu_report *rep, long row, const char *col)
{
	long c = kifu_report_find_col(rep, col);

	if (c < 0)
		fail_msg("no column '%s'", col);
	return kifu_report_cell(rep, (size_t)row, (size_t)c);
}

long long th_ival(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = th_cell(rep, row, col);

	if (c->type != KIFU_CELL_INT)
		fail_msg("row %ld, '%s': not an integer (type %d)", row, col, c->type);
	return c->i;
}

double th_rval(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = th_cell(rep, row, col);

	if (c->type != KIFU_CELL_REAL)
		fail_msg("row %ld, '%s': not a real (type %d)", row, col, c->type);
	return c->r;
}

const char *th_tval(const struct kifu_report *rep, long row, const char *col)
{
	const struct kifu_cell *c = th_cell(rep, row, col);

	if (c->type != KIFU_CELL_TEXT)
		fail_msg("row %ld, '%s': not text (type %d)", row, col, c->type);
	return c->text;
}

void th_assert_type(const struct kifu_report *rep, long row, const char *col, int type)
{
	if (th_cell(rep, row, col)->type != type)
		fail_msg("row %ld, '%s': type %d, expected %d", row, col,
			 th_cell(rep, row, col)->type, type);
}

int th_has_row(const struct kifu_report *rep, const char *game, const char *line)
{
	size_t r;

	for (r = 0; r < kifu_report_nrows(rep); r++)
		if (!strcmp(th_tval(rep, (long)r, "game"), game) &&
		    (!line || !strcmp(th_tval(rep, (long)r, "line"), line)))
			return 1;
	return 0;
}

long th_row_of(const struct kifu_report *rep, const char *game, const char *line)
{
	size_t r;

	for (r = 0; r < kifu_report_nrows(rep); r++)
		if (!strcmp(th_tval(rep, (long)r, "game"), game) &&
		    (!line || !strcmp(th_tval(rep, (long)r, "line"), line)))
			return (long)r;
	fail_msg("no row for %s %s", game, line ? line : "");
	return -1;
}

int th_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ---- the statistics' database ---- */

/*
 * The games, ids 1..12 in this order. S = splay-schmidt (white moves
 * first), K = splay-kisenwether (white first), Q = splinter-quad (red
 * first unless `first`), G = glaisher.
 *
 *  id game plies result            players (turn order)        date        event
 *   1 S1   4   white (resignation) Ann, Bob                    2024-03-10  Club
 *   2 S2   3   black (resignation) Bob, Cat                    2024-05     Open
 *   3 S3   2   draw (agreement)    Ann, Cat                    2024        Club
 *   4 S4   2   unfinished          Cat, Ann                    2024-06-15  -
 *   5 S5   2   white (timeout)     Dan, Bob                    2024-01-20  Open
 *   6 K1   5   black (resignation) Ann, Dan                    2024-02-01  Open
 *   7 K2   1   draw (agreement)    Bob, Ann                    2024-04-01  Club
 *   8 K3   5   unfinished          Cat, Bob                    2024-08-01  Open
 *   9 Q1   4   red (resignation)   Ann, Bob, Cat, Dan          2024-07-01  Club
 *  10 Q2   4   draw (agreement)    Dan, Cat, Bob, Ann          -           Club
 *  11 Q3   2   green (resignation) Ann, Bob, Cat, (no yellow)  2022-01-01  Open  first: green
 *  12 G1   1   unfinished          (none)                      -           -
 *
 * S1 d4 f6 e5 and S2 e5 f6 d4 transpose. K1 goes c6-c5 c3-c4 c5-c6 c4-c3
 * c6-c5: back to the start at ply 4 and to the position after c6-c5 again
 * at ply 5; K3 d6-d5 c3-c4 d5-d6 c4-c3 c6-c5 reaches that position first
 * at ply 5, and K1's after 3 plies at ply 3.
 */
const char th_stats_games[] =
	"---\ngame: splay-schmidt\nevent: Club\ndate: 2024-03-10\n"
	"players: {white: Ann, black: Bob}\nmoves: [d4, f6, e5, c3]\n"
	"result: white\ntermination: resignation\n"
	"---\ngame: splay-schmidt\nevent: Open\ndate: 2024-05\n"
	"players: {white: Bob, black: Cat}\nmoves: [e5, f6, d4]\n"
	"result: black\ntermination: resignation\n"
	"---\ngame: splay-schmidt\nevent: Club\ndate: '2024'\n"
	"players: {white: Ann, black: Cat}\nmoves: [d4, f6]\n"
	"result: draw\ntermination: agreement\n"
	"---\ngame: splay-schmidt\ndate: 2024-06-15\n"
	"players: {white: Cat, black: Ann}\nmoves: [d4, e7]\n"
	"---\ngame: splay-schmidt\nevent: Open\ndate: 2024-01-20\n"
	"players: {white: Dan, black: Bob}\nmoves: [e5, e7]\n"
	"result: white\ntermination: timeout\n"
	"---\ngame: splay-kisenwether\nevent: Open\ndate: 2024-02-01\n"
	"players: {white: Ann, black: Dan}\nmoves: [c6-c5, c3-c4, c5-c6, c4-c3, c6-c5]\n"
	"result: black\ntermination: resignation\n"
	"---\ngame: splay-kisenwether\nevent: Club\ndate: 2024-04-01\n"
	"players: {white: Bob, black: Ann}\nmoves: [c6-c5]\n"
	"result: draw\ntermination: agreement\n"
	"---\ngame: splay-kisenwether\nevent: Open\ndate: 2024-08-01\n"
	"players: {white: Cat, black: Bob}\nmoves: [d6-d5, c3-c4, d5-d6, c4-c3, c6-c5]\n"
	"---\ngame: splinter-quad\nevent: Club\ndate: 2024-07-01\n"
	"players: {red: Ann, blue: Bob, green: Cat, yellow: Dan}\n"
	"moves: [c3-c2, c4-b4, h4-i4, h3-i3]\nresult: red\ntermination: resignation\n"
	"---\ngame: splinter-quad\nevent: Club\n"
	"players: {red: Dan, blue: Cat, green: Bob, yellow: Ann}\n"
	"moves: [c3-c2, c4-b4, h4-i4, h5-i5]\nresult: draw\ntermination: agreement\n"
	"---\ngame: splinter-quad\nevent: Open\ndate: 2022-01-01\n"
	"players: {red: Ann, blue: Bob, green: Cat}\nfirst: green\n"
	"moves: [h4-i4, h3-i3]\nresult: green\ntermination: resignation\n"
	"---\ngame: glaisher\nmoves: ['f8>nw 3+2+1 g6']\n";

#define Z 1.959963984540054
#define EPS 1e-9

int th_stats_setup(void **state)
{
	struct kifu_store *st;

	if (th_tmpdb_setup(state) < 0)
		return -1;
	st = th_store_open(th_dbpath);
	th_add_games(st, th_stats_games);
	*state = st;
	return 0;
}

int th_stats_teardown(void **state)
{
	kifu_store_free(*state);
	return th_tmpdb_teardown(state);
}

const unsigned th_stats_modes[] = { 0, 0, KIFU_STATS_NO_CACHE };

struct kifu_report *th_stats_run(struct kifu_store *st, int kind, const struct kifu_filter *f,
				 int depth, long min_games, int by_position, unsigned flags)
{
	struct kifu_stats_options opt = KIFU_STATS_OPTIONS_INIT;
	struct kifu_report *rep = NULL;
	struct kifu_error err;

	opt.depth = depth;
	opt.min_games = min_games;
	opt.by_position = by_position;
	opt.flags = flags;
	kifu_error_clear(&err);
	if (kifu_stats_report(&rep, st, kind, f, &opt, &err) < 0)
		fail_msg("report: %s", err.message);
	assert_string_equal(kifu_report_name(rep), kifu_stats_kind_name(kind));
	return rep;
}

void th_wilson(double *low, double *high, double points, double n)
{
	double p = points / n, z2 = Z * Z, d = 1 + z2 / n;
	double centre = (p + z2 / (2 * n)) / d;
	double half = Z / d * sqrt(p * (1 - p) / n + z2 / (4 * n * n));

	*low = centre - half < 0 ? 0 : centre - half;
	*high = centre + half > 1 ? 1 : centre + half;
}

void th_assert_score(const struct kifu_report *rep, long row, double points, double finished)
{
	double low, high;

	th_wilson(&low, &high, points, finished);
	assert_true(fabs(th_rval(rep, row, "first_mover_score") - points / finished) < EPS);
	assert_true(fabs(th_rval(rep, row, "ci_low") - low) < 1e-6);
	assert_true(fabs(th_rval(rep, row, "ci_high") - high) < 1e-6);
}

/* ---- games ---- */

const struct kifu_game *th_game(const char *name)
{
	const struct kifu_game *g = kifu_game_find(name);

	if (!g)
		fail_msg("no game %s", name);
	return g;
}

struct kifu_pos *th_play_list(const char *game, int variant, int first, const char *moves)
{
	const struct kifu_game *g = th_game(game);
	struct kifu_pos *p = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	assert_int_equal(kifu_pos_new(&p, g, variant, first, &err), 0);
	if (kifu_pos_play_list(p, moves, &err) != 0)
		fail_msg("playing '%s': %s", moves, err.message);
	assert_true(g->hash(p->state) == g->rehash(p->state));
	return p;
}

kifu_move th_parse_move(const struct kifu_pos *p, const char *text)
{
	struct kifu_error err = { 0 };
	kifu_move m = 0;

	if (p->game->parse_move(p->state, text, &m, &err) != 0)
		fail_msg("'%s' refused: %s", text, err.message);
	return m;
}

void th_parse_refused(const struct kifu_pos *p, const char *text, int code, const char *message)
{
	struct kifu_error err;
	kifu_move m;

	kifu_error_clear(&err);
	assert_int_equal(p->game->parse_move(p->state, text, &m, &err), code);
	assert_int_equal(err.code, code);
	assert_string_equal(err.message, message);
}

void th_play_move(struct kifu_pos *p, const char *text)
{
	p->game->apply(p->state, th_parse_move(p, text));
	assert_true(p->game->hash(p->state) == p->game->rehash(p->state));
}

/* The figure key of p, its type checked when type is not negative. */
static long figure_of(const struct kifu_pos *p, const char *key, int type)
{
	struct kifu_figure f[KIFU_FIGURES_MAX];
	int n = p->game->figures(p->state, f), i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].key, key)) {
			if (type >= 0)
				assert_int_equal(f[i].type, type);
			return f[i].num;
		}
	fail_msg("no figure %s", key);
	return -1;
}

long th_figure(const struct kifu_pos *p, const char *key)
{
	return figure_of(p, key, -1);
}

long th_figure_int(const struct kifu_pos *p, const char *key)
{
	return figure_of(p, key, KIFU_FIG_INT);
}

uint64_t th_perft(const struct kifu_pos *p, int depth)
{
	uint64_t n = 0;

	assert_int_equal(kifu_perft(&n, p->game, p->state, depth), 0);
	return n;
}

uint64_t th_rng_next(struct th_rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

size_t th_rng_below(struct th_rng *r, size_t n)
{
	return (size_t)(th_rng_next(r) % n);
}

/* Each problem kifu_stats_check finds, printed for the failing test. */
static int th_check_say(void *ctx, const char *check, int64_t id, const char *message)
{
	(void)ctx;
	print_error("kifu_stats_check: %s (game %lld): %s\n", check, (long long)id, message);
	return 0;
}

long long th_check_whole(struct kifu_store *st)
{
	struct kifu_check_options opt = KIFU_CHECK_OPTIONS_INIT;
	struct kifu_check_summary sum;
	struct kifu_error err;
	long long games = -1;

	kifu_error_clear(&err);
	opt.trees = -1;
	if (kifu_stats_check(&sum, st, &opt, th_check_say, NULL, &err) < 0)
		fail_msg("kifu_stats_check: %s", err.message);
	assert_int_equal(kifu_store_game_count(&games, st, &err), 0);
	assert_int_equal(sum.games, games);
	assert_int_equal(sum.checked, games);
	assert_int_equal(sum.problems, 0);
	return sum.positions;
}

static struct kifu_search_result *th_search_at(struct kifu_store *st, uint64_t hash)
{
	struct kifu_search_result *res = NULL;
	struct kifu_error err;

	kifu_error_clear(&err);
	if (kifu_search_games(&res, st, NULL, &hash, &err) < 0)
		fail_msg("kifu_search_games: %s", err.message);
	return res;
}

long th_games_at(struct kifu_store *st, uint64_t hash)
{
	struct kifu_search_result *res = th_search_at(st, hash);
	long n = (long)kifu_search_count(res);

	kifu_search_result_free(res);
	return n;
}

long th_ply_at(struct kifu_store *st, uint64_t hash, int64_t id)
{
	struct kifu_search_result *res = th_search_at(st, hash);
	long ply = -1;
	size_t i;

	for (i = 0; i < kifu_search_count(res); i++)
		if (kifu_search_hit(res, i)->id == id)
			ply = kifu_search_hit(res, i)->ply;
	kifu_search_result_free(res);
	return ply;
}
