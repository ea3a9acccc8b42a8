/*
 * The openings report of kifu-stats (stats.c has the whole picture): the
 * opening lines of 1..depth plies with the games that played each, held in
 * a hash table of lines per game, variant, first side and repetition;
 * gathered from the moves of the games or read from stats_lines (kept up
 * to date here, to LINE_DEPTH plies), then grouped into rows by line or,
 * with by_position, by the position reached.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kifu/game.h"
#include "stats/stats_impl.h"
#include "util/hash.h"

/*
 * Distinct lines held in memory while refreshing before they are written
 * out (tests build with a small value, to go through the flushes).
 */
#ifndef KIFU_STATS_FLUSH_LINES
#define KIFU_STATS_FLUSH_LINES (1u << 19)
#endif
/* The parameter of the depth in lines_from_games: after any filter's. */
#define DEPTH_PARAM "100"

/* One opening line of one first side, with the games that played it. */
struct oline {
	uint64_t hash;     /* the position after the line */
	size_t line;       /* offset of the line (moves joined by ',') in the pool */
	size_t len;
	int gv, first, repeat, plies;
	long long games, w[MAX_SIDES], draws, unfinished;
};

struct olines {
	struct oline *v;
	size_t n, cap;
	struct kifu_buf pool;
};

static void olines_release(struct olines *o)
{
	free(o->v);
	kifu_buf_release(&o->pool);
	memset(o, 0, sizeof(*o));
}

static const char *oline_text(const struct olines *o, const struct oline *e)
{
	return o->pool.data + e->line;
}

/* A new entry at the end (its counts zero); NULL when out of memory. */
static struct oline *olines_push(struct olines *o, int gv, int first, int repeat, int plies,
				 const char *line, size_t len, uint64_t hash)
{
	struct oline *e;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct oline *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		o->v = v;
		o->cap = cap;
	}
	e = &o->v[o->n];
	memset(e, 0, sizeof(*e));
	e->line = o->pool.len;
	e->len = len;
	kifu_buf_add(&o->pool, line, len);
	kifu_buf_putc(&o->pool, '\0');
	if (o->pool.failed)
		return NULL;
	e->gv = gv;
	e->first = first;
	e->repeat = repeat;
	e->plies = plies;
	e->hash = hash;
	o->n++;
	return e;
}

/* One game's opening as its rows arrive: moves joined by ',', and the hashes. */
struct game_line {
	int64_t id;
	int gv, first;
	struct kifu_buf result;
	int n;             /* plies gathered */
	int ok;            /* the plies came as 1, 2, ... */
	struct kifu_buf line;
	size_t *ends;      /* ends[k]: length of the line of k + 1 plies */
	uint64_t *hashes;  /* hashes[k]: position after ply k + 1 */
};

/* Counts the lines of 1..n plies of the game gathered in gl into sums. */
static int game_line_emit(struct kifu_store_sums_ *sums, struct kifu_stats_ctx_ *c,
			  struct game_line *gl)
{
	struct kifu_store_sums_game_ x;

	if (gl->gv < 0)
		return 0;
	memset(&x, 0, sizeof(x));
	x.g = c->gv[gl->gv].g;
	x.variant = c->gv[gl->gv].v;
	x.first = gl->first;
	x.result = gl->result.data ? gl->result.data : "";
	x.nlines = (size_t)gl->n;
	x.line = gl->line.data ? gl->line.data : "";
	x.ends = gl->ends;
	x.hashes = gl->hashes;
	return kifu_store_sums_add_(sums, &x, 1u << KIFU_SUMS_LINES);
}

/* The lines summed in sums as entries of o. */
static int lines_from_sums(struct kifu_stats_ctx_ *c, const struct kifu_store_sums_ *sums,
			   struct olines *o)
{
	size_t i, n = kifu_store_sums_count_(sums, KIFU_SUMS_LINES);
	int k;

	for (i = 0; i < n; i++) {
		struct kifu_store_sums_line_ l;
		struct oline *e;
		int gv;

		kifu_store_sums_line_(&l, sums, i);
		gv = kifu_stats_gv_find_(c, l.g->name, l.g->variants[l.variant]);
		if (gv < 0)
			continue;
		e = olines_push(o, gv, l.first, l.repeat, l.plies, l.line, l.len, l.hash);
		if (!e)
			return kifu_stats_nomem_(c);
		e->games = l.n[0];
		for (k = 0; k < MAX_SIDES; k++)
			e->w[k] = l.n[1 + k];
		e->draws = l.n[5];
		e->unfinished = l.n[6];
	}
	return 0;
}

/* ---- Writing and reading stats_lines ---- */

/*
 * Sums the lines of 1..depth plies of every game src selects, from the
 * moves and positions, into sums. With flush, the sums go to stats_lines
 * whenever they grow past KIFU_STATS_FLUSH_LINES (between games), so
 * that memory stays bounded on any number of games.
 */
static int lines_from_games(struct kifu_stats_ctx_ *c, const struct kifu_stats_source_ *src,
			    int depth, struct kifu_store_sums_ *sums, int flush)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct game_line gl;
	struct kifu_stmt *s = NULL;
	struct kifu_pos *pos = NULL; /* the game replayed: its moves checked */
	int ret, rc, n;

	memset(&gl, 0, sizeof(gl));
	gl.id = -1;
	gl.ends = malloc((size_t)depth * sizeof(*gl.ends));
	gl.hashes = malloc((size_t)depth * sizeof(*gl.hashes));
	if (!gl.ends || !gl.hashes) {
		ret = kifu_stats_nomem_(c);
		goto out;
	}
	/*
	 * Schema 4: plies 1..depth taken out of each game's packed row (SQLite
	 * parses each JSON value once per game); older schemas: one row of
	 * moves and of positions per ply. CROSS JOIN keeps this order of loops.
	 */
	if (kifu_store_version(c->st) >= 4)
	{
		kifu_buf_puts(&sql, "WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM d "
				    "WHERE n < ?" DEPTH_PARAM ") SELECT g.id, g.game, g.variant, g.first, g.result, "
				    "d.n, ");
		kifu_db_json_at_(&sql, c->st, "m.moves", "d.n - 1");
		kifu_buf_puts(&sql, ", ");
		kifu_db_hash_at_(&sql, c->st, "m.hashes", "d.n");
		kifu_buf_printf(&sql, " FROM games g CROSS JOIN %s m CROSS JOIN d WHERE ",
				kifu_db_game_data_(c->st));
	} else
		kifu_buf_puts(&sql, "SELECT g.id, g.game, g.variant, g.first, g.result, m.ply, m.move, "
				    "p.hash FROM games g CROSS JOIN moves m CROSS JOIN positions p "
				    "WHERE ");
	ret = kifu_stats_source_sql_(&sql, src, &n, c);
	if (ret < 0)
		goto out;
	if (kifu_store_version(c->st) >= 4)
		kifu_buf_puts(&sql, " AND m.game_id = g.id AND d.n <= g.plies ORDER BY g.id, d.n");
	else
		kifu_buf_puts(&sql, " AND m.game_id = g.id AND m.ply BETWEEN 1 AND ?" DEPTH_PARAM " "
				    "AND p.game_id = g.id AND p.ply = m.ply ORDER BY g.id, m.ply");
	ret = kifu_stats_prepare_built_(c, &s, &sql, src, "cannot read games");
	if (ret < 0)
		goto out;
	kifu_db_bind_int_(s, atoi(DEPTH_PARAM), depth);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int64_t id = kifu_db_column_int64_(s, 0);
		long ply = (long)kifu_db_column_int64_(s, 5);
		const char *move = kifu_stats_col_text_(s, 6);

		if (id != gl.id) {
			if (gl.id >= 0 && (ret = game_line_emit(sums, c, &gl)) < 0)
				break;
			if (flush && kifu_store_sums_count_(sums, KIFU_SUMS_LINES) >=
					     KIFU_STATS_FLUSH_LINES) {
				ret = kifu_store_sums_write_(c->st, sums, 1u << KIFU_SUMS_LINES,
							     c->err);
				if (ret < 0)
					break;
				kifu_store_sums_clear_(sums);
			}
			gl.id = id;
			gl.gv = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 1),
						    kifu_stats_col_text_(s, 2));
			gl.first = gl.gv < 0 ? -1
				   : kifu_game_side_index(c->gv[gl.gv].g, kifu_stats_col_text_(s, 3));
			kifu_buf_reset(&gl.result);
			kifu_buf_puts(&gl.result, kifu_stats_col_text_(s, 4));
			gl.n = 0;
			gl.ok = 1;
			kifu_buf_reset(&gl.line);
			kifu_pos_free(pos);
			pos = NULL;
			if (gl.gv >= 0 && gl.first >= 0 &&
			    kifu_pos_new(&pos, c->gv[gl.gv].g, c->gv[gl.gv].v, gl.first, c->err) < 0) {
				ret = c->err->code;
				break;
			}
		}
		/* A gap in the plies would make wrong lines: keep the lines before it. */
		if (!gl.ok || ply != gl.n + 1 || gl.n >= depth) {
			gl.ok = 0;
			continue;
		}
		if (pos) {
			/* a move that is no move of the game would make lines of nothing */
			const struct kifu_game *g = pos->game;
			struct kifu_error why;
			kifu_move m;

			if (g->parse_move(pos->state, move, &m, &why) < 0) {
				ret = kifu_db_damaged_(c->st, c->err, "game %lld, ply %ld: '%s' is not a "
						      "move of %s", (long long)id, ply, move, g->name);
				break;
			}
			g->apply(pos->state, m);
		}
		if (gl.n)
			kifu_buf_putc(&gl.line, ',');
		kifu_buf_puts(&gl.line, move);
		if (gl.line.failed) {
			ret = kifu_stats_nomem_(c);
			break;
		}
		gl.ends[gl.n] = gl.line.len;
		gl.hashes[gl.n] = (uint64_t)kifu_db_column_int64_(s, 7);
		gl.n++;
	}
	if (ret == 0 && rc != KIFU_DB_DONE && rc != KIFU_DB_ROW)
		ret = kifu_stats_fail_db_(c, "cannot read games");
	if (ret == 0 && (gl.line.failed || gl.result.failed))
		ret = KIFU_ENOMEM;
	if (ret == 0 && gl.id >= 0)
		ret = game_line_emit(sums, c, &gl);
	if (ret == KIFU_ENOMEM)
		ret = kifu_stats_nomem_(c);
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	kifu_buf_release(&gl.line);
	kifu_buf_release(&gl.result);
	kifu_pos_free(pos);
	free(gl.ends);
	free(gl.hashes);
	return ret;
}

/* Adds the games stats_lines lacks (inside the refresh's write transaction). */
static int lines_fill(struct kifu_stats_ctx_ *c)
{
	struct kifu_store_sums_ *sums = NULL;
	struct kifu_stats_source_ src = { NULL, 1, 0, 0, 0 };
	int ret;

	if (kifu_store_sums_new_(&sums) < 0)
		return kifu_stats_nomem_(c);
	ret = kifu_stats_refresh_range_(c, T_LINES, &src.after, &src.upto, 1);
	if (ret == 0)
		ret = lines_from_games(c, &src, LINE_DEPTH, sums, 1);
	if (ret == 0)
		ret = kifu_store_sums_write_(c->st, sums, 1u << KIFU_SUMS_LINES, c->err);
	if (ret == 0)
		ret = kifu_stats_state_set_(c, T_LINES, src.upto);
	kifu_store_sums_free_(sums);
	return ret;
}

/* Brings stats_lines up to date: 0, 1 to compute from the games, or an error. */
static int lines_refresh(struct kifu_stats_ctx_ *c)
{
	return kifu_stats_ensure_fresh_(c, T_LINES, lines_fill);
}

/* Reads the lines of 1..depth plies kept in stats_lines (with by_position, first arrivals only). */
static int lines_from_table(struct kifu_stats_ctx_ *c, const struct kifu_filter *f, int depth,
			    int by_position, struct olines *o)
{
	struct kifu_buf sql = KIFU_BUF_INIT;
	struct kifu_stmt *s = NULL;
	int ret, rc, n, k;

	kifu_buf_puts(&sql, "SELECT game, variant, plies, line, first, repeat, hash, games, "
			    "w0, w1, w2, w3, draws, unfinished FROM stats_lines WHERE plies <= ?1");
	if (by_position)
		kifu_buf_puts(&sql, " AND repeat = 0");
	kifu_stats_table_where_(&sql, f, 0, 2, &n);
	ret = kifu_stats_prepare_built_(c, &s, &sql, NULL, "cannot read the statistics");
	if (ret < 0)
		goto out;
	kifu_db_bind_int_(s, 1, depth);
	kifu_stats_table_bind_(s, f, 0, 2);
	while ((rc = kifu_db_step_(s)) == KIFU_DB_ROW) {
		int gv = kifu_stats_gv_find_(c, kifu_stats_col_text_(s, 0),
					     kifu_stats_col_text_(s, 1));
		static const char *const names[] = { "games", "w0", "w1", "w2", "w3", "draws",
						     "unfinished" };
		int first;
		const char *line = kifu_stats_col_text_(s, 3);
		struct oline *e;
		long long plies, repeat, v[7];

		if (gv < 0)
			continue;
		first = kifu_game_side_index(c->gv[gv].g, kifu_stats_col_text_(s, 4));
		if (first < 0)
			continue;
		/* what no refresh writes is damage, not a row (a line of no games sorts nowhere) */
		ret = kifu_db_column_whole_(&plies, s, 2, 1, depth, c->err, "stats_lines.plies of "
					    "line '%s'", line);
		if (ret == 0)
			ret = kifu_db_column_whole_(&repeat, s, 5, 0, 1, c->err, "stats_lines.repeat of "
						    "line '%s'", line);
		if (ret == 0)
			ret = kifu_db_column_counts_(v, s, 7, 7, names, 0, c->err, "stats_lines of "
						     "line '%s'", line);
		if (ret < 0)
			break;
		e = olines_push(o, gv, first, (int)repeat, (int)plies, line, strlen(line),
				(uint64_t)kifu_db_column_int64_(s, 6));
		if (!e) {
			ret = kifu_stats_nomem_(c);
			break;
		}
		e->games = v[0];
		for (k = 0; k < MAX_SIDES; k++)
			e->w[k] = v[1 + k];
		e->draws = v[5];
		e->unfinished = v[6];
	}
	if (ret == 0 && rc != KIFU_DB_DONE)
		ret = kifu_stats_fail_db_(c, "cannot read the statistics");
out:
	kifu_db_finalize_(s);
	kifu_buf_release(&sql);
	return ret;
}

/* ---- The openings report ---- */

/* One row of the report: a line, or a position and the line that labels it. */
struct orow {
	int gv, plies;
	const char *line;
	uint64_t hash;
	long long games, w[MAX_SIDES], draws, unfinished, fm_wins;
};

/* An entry while grouping: what the groups are made by. */
struct group_item {
	int gv;
	uint64_t hash;
	const char *line;
	const struct oline *e;
};

static int cmp_by_line(const void *x, const void *y)
{
	const struct group_item *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	return strcmp(a->line, b->line);
}

static int cmp_by_hash(const void *x, const void *y)
{
	const struct group_item *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return strcmp(a->line, b->line);
}

/* Items of one row: the same line, or the same position. */
static int same_group(const struct group_item *a, const struct group_item *b, int by_position)
{
	if (a->gv != b->gv)
		return 0;
	return by_position ? a->hash == b->hash : !strcmp(a->line, b->line);
}

/* Items of one line within a row. */
static int same_line(const struct group_item *a, const struct group_item *b, int by_position)
{
	return a->gv == b->gv && !strcmp(a->line, b->line) && (!by_position || a->hash == b->hash);
}

static int cmp_orow(const void *x, const void *y)
{
	const struct orow *a = x, *b = y;

	if (a->gv != b->gv)
		return a->gv < b->gv ? -1 : 1;
	if (a->plies != b->plies)
		return a->plies < b->plies ? -1 : 1;
	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return strcmp(a->line, b->line);
}

/* Adds e's counts to r; sums past 64 bits (of kept counts) are damage. */
static int orow_add(struct orow *r, const struct oline *e, struct kifu_stats_ctx_ *c)
{
	long long *to[] = { &r->games, &r->w[0], &r->w[1], &r->w[2], &r->w[3], &r->draws,
			    &r->unfinished, &r->fm_wins };
	long long from[] = { e->games, e->w[0], e->w[1], e->w[2], e->w[3], e->draws,
			     e->unfinished, e->w[e->first] };
	size_t k;
	int ret = 0;

	for (k = 0; k < sizeof(to) / sizeof(to[0]) && ret == 0; k++)
		ret = kifu_db_sum_(to[k], from[k], c->st, c->err, "stats_lines: the games of the "
				   "lines grouped with '%s'", r->line ? r->line : "");
	return ret;
}

/*
 * --symmetric: each line's position hash replaced by its canonical one
 * (the line replayed from its start), so that positions one of the game's
 * board symmetries maps onto each other group as one. A line that does
 * not replay (a database edited by hand) keeps its hash.
 */
static int lines_canonical(struct olines *o, const struct kifu_stats_ctx_ *c)
{
	struct kifu_buf text = KIFU_BUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < o->n && ret == 0; i++) {
		struct oline *e = &o->v[i];
		const struct kifu_game *g = c->gv[e->gv].g;
		struct kifu_pos *pos = NULL;
		struct kifu_error why;
		uint64_t h;

		kifu_buf_reset(&text);
		kifu_buf_add(&text, oline_text(o, e), e->len);
		kifu_buf_putc(&text, '\0');
		if (text.failed)
			ret = KIFU_ENOMEM;
		else if (kifu_pos_new(&pos, g, c->gv[e->gv].v, e->first, &why) == 0 &&
			 kifu_pos_play_list(pos, text.data, &why) == 0) {
			if (kifu_game_canonical_hash(&h, NULL, g, pos->state) < 0)
				ret = KIFU_ENOMEM;
			else
				e->hash = h;
		}
		kifu_pos_free(pos);
	}
	kifu_buf_release(&text);
	return ret;
}

/*
 * Groups the entries into rows: by line, or (by_position) by the
 * position reached, each labelled with the line that most of its games
 * took (ties: fewer plies, then the first line in byte order).
 */
static int group_lines(struct orow **rows, size_t *nrows, const struct olines *o, int by_position,
		       struct kifu_stats_ctx_ *c)
{
	struct group_item *items = malloc((o->n ? o->n : 1) * sizeof(*items));
	struct orow *v = calloc(o->n ? o->n : 1, sizeof(*v));
	size_t i, j, n = 0, nv = 0;
	int ret = 0;

	if (!items || !v) {
		free(items);
		free(v);
		return kifu_stats_nomem_(c);
	}
	for (i = 0; i < o->n; i++) {
		if (by_position && o->v[i].repeat)
			continue;
		items[n].gv = o->v[i].gv;
		items[n].hash = o->v[i].hash;
		items[n].line = oline_text(o, &o->v[i]);
		items[n++].e = &o->v[i];
	}
	qsort(items, n, sizeof(*items), by_position ? cmp_by_hash : cmp_by_line);
	for (i = 0; i < n; i = j) {
		struct orow *r = &v[nv++];
		long long best = -1;
		size_t k;

		r->gv = items[i].gv;
		r->hash = items[i].hash;
		r->line = items[i].line;
		r->plies = items[i].e->plies;
		for (j = i; j < n && same_group(&items[i], &items[j], by_position); j = k) {
			long long games = 0;

			/* A run of one line (of several first sides, or repeats). */
			for (k = j; k < n && same_line(&items[j], &items[k], by_position) && ret == 0;
			     k++) {
				ret = orow_add(r, items[k].e, c);
				if (ret == 0)
					ret = kifu_db_sum_(&games, items[k].e->games, c->st, c->err,
							   "stats_lines: the games of line '%s'",
							   items[j].line);
			}
			if (ret < 0)
				goto out;
			if (games > best || (games == best && items[j].e->plies < r->plies)) {
				best = games;
				r->line = items[j].line;
				r->plies = items[j].e->plies;
			}
		}
	}
out:
	free(items);
	if (ret < 0) {
		free(v);
		v = NULL;
		nv = 0;
	}
	*rows = v;
	*nrows = nv;
	return ret;
}

static int build_openings(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			  const struct olines *o, const struct kifu_stats_options *opt)
{
	struct kifu_buf text = KIFU_BUF_INIT;
	struct orow *rows = NULL;
	size_t nrows = 0, i, k;
	int ret;

	ret = group_lines(&rows, &nrows, o, opt->by_position, c);
	if (ret < 0)
		return ret;
	qsort(rows, nrows, sizeof(*rows), cmp_orow);
	for (i = 0; i < nrows; i++) {
		const struct orow *r = &rows[i];
		const struct kifu_game *g = c->gv[r->gv].g;
		long long finished = r->games - r->unfinished;
		long row;

		if (r->games < opt->min_games)
			continue;
		row = kifu_report_add_row_(rep);
		kifu_stats_put_game_(rep, row, &c->gv[r->gv]);
		kifu_buf_reset(&text);
		kifu_buf_puts(&text, r->line);
		for (k = 0; k < text.len; k++)
			if (text.data[k] == ',')
				text.data[k] = ' ';
		kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "line", 0, 0),
				      text.data ? text.data : "");
		kifu_report_set_list_(rep, row,
				      kifu_report_add_col_(rep, "moves", KIFU_COLUMN_JSON_ONLY, 0),
				      r->line, ',');
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "plies", 0, 0), r->plies);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "games", 0, 0), r->games);
		kifu_stats_put_wins_(rep, row, g, r->w, r->draws);
		kifu_report_set_int_(rep, row, kifu_report_add_col_(rep, "unfinished", 0, 0),
				     r->unfinished);
		kifu_stats_put_score_(rep, row, "first_mover_score", 1,
				      (double)r->fm_wins + (double)r->draws / g->nsides, finished);
		if (opt->by_position) {
			char hex[17];

			snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)r->hash);
			kifu_report_set_text_(rep, row, kifu_report_add_col_(rep, "hash", 0, 0),
					      hex);
		}
	}
	free(rows);
	ret = kifu_report_failed_(rep) || text.failed ? kifu_stats_nomem_(c) : 0;
	kifu_buf_release(&text);
	return ret;
}

/* The lines of 1..depth plies of the games src selects, into o. */
static int openings_from_games(struct kifu_stats_ctx_ *c, const struct kifu_stats_source_ *src,
			       int depth, struct olines *o)
{
	struct kifu_store_sums_ *sums = NULL;
	int ret;

	if (kifu_store_sums_new_(&sums) < 0)
		return kifu_stats_nomem_(c);
	ret = lines_from_games(c, src, depth, sums, 0);
	if (ret == 0)
		ret = lines_from_sums(c, sums, o);
	kifu_store_sums_free_(sums);
	return ret;
}

static int openings_report(struct kifu_report *rep, struct kifu_stats_ctx_ *c,
			   const struct kifu_filter *f, const struct kifu_stats_options *opt)
{
	struct olines o;
	struct kifu_stats_source_ src = { f, 0, 0, 0, opt->newest };
	int ret = 1;

	memset(&o, 0, sizeof(o));
	if (!(opt->flags & KIFU_STATS_NO_CACHE) && opt->depth <= LINE_DEPTH && !opt->newest &&
	    kifu_stats_table_filter_(f, 0))
		ret = lines_refresh(c);
	if (ret == 0)
		ret = lines_from_table(c, f, opt->depth, opt->by_position, &o);
	else if (ret == 1)
		ret = openings_from_games(c, &src, opt->depth, &o);
	if (ret == 0 && opt->by_position && opt->symmetric && lines_canonical(&o, c) < 0)
		ret = kifu_stats_nomem_(c);
	if (ret == 0)
		ret = build_openings(rep, c, &o, opt);
	olines_release(&o);
	return ret;
}

static const char *const openings_columns[] = { "game", "variant", "line", "moves", "plies",
						"games", "", "draws", "unfinished",
						"first_mover_score", "ci_low", "ci_high", NULL };
static const char *const openings_position_columns[] = { "hash", NULL };

const struct kifu_stats_kind_ kifu_stats_openings_ = {
	.name = "openings",
	.kind = KIFU_STATS_OPENINGS,
	.report = openings_report,
	.refresh = lines_refresh,
	.empty_columns = openings_columns,
	.position_columns = openings_position_columns,
};
