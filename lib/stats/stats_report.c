/*
 * Reports as data and their text forms: a struct kifu_report is a list of
 * columns (the union of its rows' columns, in order of first appearance)
 * and rows of typed cells, so that one computation serves the aligned
 * table a person reads, the CSV a spreadsheet reads (RFC 4180) and the
 * JSON a script reads, and every one of them is tested through the same
 * data. Strings live in an arena owned by the report.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats_impl.h"
#include "kifu/text.h"
#include "util/text_impl.h"

/* ---- Building ---- */

int kifu_report_new_(struct kifu_report **out, const char *name)
{
	struct kifu_report *rep = calloc(1, sizeof(*rep));

	*out = rep;
	if (!rep)
		return KIFU_ENOMEM;
	snprintf(rep->name, sizeof(rep->name), "%s", name);
	return 0;
}

/* The slot of name in rep->col_slots: its column's, or the free one where it would go. */
static size_t col_slot(const struct kifu_report *rep, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 2166136261u;
	size_t k;

	for (; *p; p++)
		h = (h ^ *p) * 16777619u;
	for (k = h & (rep->nslots - 1); rep->col_slots[k];  k = (k + 1) & (rep->nslots - 1))
		if (!strcmp(rep->cols[rep->col_slots[k] - 1].name, name))
			break;
	return k;
}

/* The slots grown to over twice the columns, every column in its slot; -1 out of memory. */
static int col_slots_grow(struct kifu_report *rep)
{
	size_t n = rep->nslots ? rep->nslots * 2 : 64, i;
	long *v = calloc(n, sizeof(*v));

	if (!v)
		return -1;
	free(rep->col_slots);
	rep->col_slots = v;
	rep->nslots = n;
	for (i = 0; i < rep->ncols; i++)
		rep->col_slots[col_slot(rep, rep->cols[i].name)] = (long)i + 1;
	return 0;
}

long kifu_report_add_col_(struct kifu_report *rep, const char *name, unsigned flags, int prec)
{
	size_t i = rep->next_col, slot;

	/*
	 * Every cell of every row asks (a report of 250,000 rows asks millions
	 * of times): a row's columns come in the same order row after row, so
	 * first the one after the last, then the others by name.
	 */
	if (i >= rep->ncols)
		i = 0;
	if (i < rep->ncols && !strcmp(rep->cols[i].name, name)) {
		rep->next_col = i + 1;
		return (long)i;
	}
	if ((rep->ncols + 1) * 2 > rep->nslots && col_slots_grow(rep) < 0) {
		rep->failed = 1;
		return -1;
	}
	slot = col_slot(rep, name);
	if (rep->col_slots[slot]) {
		i = (size_t)rep->col_slots[slot] - 1;
		rep->next_col = i + 1;
		return (long)i;
	}
	if (rep->ncols == rep->cap_cols) {
		size_t cap = rep->cap_cols ? rep->cap_cols * 2 : 16;
		struct kifu_report_column_ *v = realloc(rep->cols, cap * sizeof(*v));

		if (!v) {
			rep->failed = 1;
			return -1;
		}
		rep->cols = v;
		rep->cap_cols = cap;
	}
	rep->cols[rep->ncols].name = kifu_arena_strndup_(&rep->strings, name, strlen(name));
	if (!rep->cols[rep->ncols].name) {
		rep->failed = 1;
		return -1;
	}
	rep->cols[rep->ncols].flags = flags;
	rep->cols[rep->ncols].prec = prec;
	rep->col_slots[slot] = (long)rep->ncols + 1;
	rep->next_col = rep->ncols + 1;
	return (long)rep->ncols++;
}

long kifu_report_add_row_(struct kifu_report *rep)
{
	if (rep->nrows == rep->cap_rows) {
		size_t cap = rep->cap_rows ? rep->cap_rows * 2 : 64;
		struct kifu_report_row_ *v = realloc(rep->rows, cap * sizeof(*v));

		if (!v) {
			rep->failed = 1;
			return -1;
		}
		rep->rows = v;
		rep->cap_rows = cap;
	}
	rep->rows[rep->nrows].cells = NULL;
	rep->rows[rep->nrows].n = 0;
	return (long)rep->nrows++;
}

/* The cell (row, col), the row's cells grown to hold it; NULL on failure. */
static struct kifu_cell *cell_at(struct kifu_report *rep, long row, long col)
{
	struct kifu_report_row_ *r;

	if (row < 0 || col < 0 || (size_t)row >= rep->nrows || (size_t)col >= rep->ncols) {
		rep->failed = 1;
		return NULL;
	}
	r = &rep->rows[row];
	if ((size_t)col >= r->n) {
		size_t n = rep->ncols;
		struct kifu_cell *v = realloc(r->cells, n * sizeof(*v));

		if (!v) {
			rep->failed = 1;
			return NULL;
		}
		memset(v + r->n, 0, (n - r->n) * sizeof(*v));
		r->cells = v;
		r->n = n;
	}
	return &r->cells[col];
}

void kifu_report_set_int_(struct kifu_report *rep, long row, long col, long long v)
{
	struct kifu_cell *c = cell_at(rep, row, col);

	if (c) {
		c->type = KIFU_CELL_INT;
		c->i = v;
	}
}

void kifu_report_set_real_(struct kifu_report *rep, long row, long col, double v)
{
	struct kifu_cell *c = cell_at(rep, row, col);

	if (c) {
		c->type = isfinite(v) ? KIFU_CELL_REAL : KIFU_CELL_NULL;
		c->r = v;
	}
}

void kifu_report_set_null_(struct kifu_report *rep, long row, long col)
{
	struct kifu_cell *c = cell_at(rep, row, col);

	if (c)
		c->type = KIFU_CELL_NULL;
}

void kifu_report_set_text_(struct kifu_report *rep, long row, long col, const char *s)
{
	struct kifu_cell *c = cell_at(rep, row, col);

	if (!c)
		return;
	c->text = kifu_arena_strndup_(&rep->strings, s, strlen(s));
	if (!c->text) {
		rep->failed = 1;
		return;
	}
	c->type = KIFU_CELL_TEXT;
}

void kifu_report_set_list_(struct kifu_report *rep, long row, long col, const char *s, char sep)
{
	struct kifu_cell *c = cell_at(rep, row, col);
	size_t n = strlen(s), i, count = n ? 1 : 0;
	char *copy;

	if (!c)
		return;
	copy = kifu_arena_strndup_(&rep->strings, s, n);
	if (!copy) {
		rep->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (copy[i] == sep) {
			copy[i] = '\0';
			count++;
		}
	}
	c->type = KIFU_CELL_LIST;
	c->text = copy;
	c->count = count;
}

static struct kifu_cell *head_at(struct kifu_report *rep, const char *name)
{
	if (rep->nhead == REPORT_MAX_HEAD) {
		rep->failed = 1;
		return NULL;
	}
	rep->head[rep->nhead].name = name;
	return &rep->head[rep->nhead++].cell;
}

void kifu_report_head_int_(struct kifu_report *rep, const char *name, long long v)
{
	struct kifu_cell *c = head_at(rep, name);

	if (c) {
		c->type = KIFU_CELL_INT;
		c->i = v;
	}
}

void kifu_report_head_text_(struct kifu_report *rep, const char *name, const char *s)
{
	struct kifu_cell *c = head_at(rep, name);

	if (c) {
		c->type = KIFU_CELL_TEXT;
		c->text = kifu_arena_strndup_(&rep->strings, s, strlen(s));
		if (!c->text)
			rep->failed = 1;
	}
}

void kifu_report_note_(struct kifu_report *rep, const char *s)
{
	rep->note = kifu_arena_strndup_(&rep->strings, s, strlen(s));
	if (!rep->note)
		rep->failed = 1;
}

int kifu_report_failed_(const struct kifu_report *rep)
{
	return rep->failed;
}

/* ---- Getters ---- */

void kifu_report_free(struct kifu_report *rep)
{
	size_t i;

	if (!rep)
		return;
	for (i = 0; i < rep->nrows; i++)
		free(rep->rows[i].cells);
	free(rep->rows);
	free(rep->cols);
	free(rep->col_slots);
	kifu_arena_release_(&rep->strings);
	free(rep);
}

const char *kifu_report_name(const struct kifu_report *rep)
{
	return rep->name;
}

size_t kifu_report_ncols(const struct kifu_report *rep)
{
	return rep->ncols;
}

const char *kifu_report_col(const struct kifu_report *rep, size_t col)
{
	return col < rep->ncols ? rep->cols[col].name : NULL;
}

unsigned kifu_report_col_flags(const struct kifu_report *rep, size_t col)
{
	return col < rep->ncols ? rep->cols[col].flags : 0;
}

long kifu_report_find_col(const struct kifu_report *rep, const char *name)
{
	size_t i;

	for (i = 0; i < rep->ncols; i++)
		if (!strcmp(rep->cols[i].name, name))
			return (long)i;
	return -1;
}

size_t kifu_report_nrows(const struct kifu_report *rep)
{
	return rep->nrows;
}

const struct kifu_cell *kifu_report_cell(const struct kifu_report *rep, size_t row, size_t col)
{
	static const struct kifu_cell absent = { KIFU_CELL_ABSENT, 0, 0, NULL, 0 };

	if (row >= rep->nrows || col >= rep->rows[row].n)
		return &absent;
	return &rep->rows[row].cells[col];
}

/* ---- Text forms ---- */

/* Whether v written with prec decimals ("%.*f") reads back as v; the text into text. */
static int reads_back(char *text, size_t size, int prec, double v)
{
	return kifu_text_fixed_reads_back_(text, size, v, prec);
}

/* Appends v as the shortest text that reads back as the same double. */
static void put_real(struct kifu_buf *out, double v)
{
	char text[400], best[400];
	int prec, lo, hi, e;

	/*
	 * The fewest decimals that read back as v, in plain notation where
	 * that stays short (0.5, 1512.25, 60), so that a reader sees figures,
	 * not 6e+01. Found by halving (a report writes thousands of these: a
	 * try each from 0 decimals was most of a served tree's time): printf
	 * rounds correctly, so v written with one decimal more is at least as
	 * close to it, and once a text reads back as v every longer one does
	 * (the doubles in this range have no power of two nearer a short
	 * decimal than half a unit in the last place; tests/test_stats_reports.c
	 * checks the halving against the tries one by one). With 17
	 * significant digits every double reads back: the upper end.
	 */
	if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e15)) {
		e = v == 0 ? 0 : (int)floor(log10(fabs(v)));
		hi = 16 - e;
		if (hi > 20)
			hi = 20;
		if (hi < 0)
			hi = 0;
		if (reads_back(best, sizeof(best), hi, v)) {
			lo = 0;
			/* best: the text at hi, which reads back; none below lo does */
			while (lo < hi) {
				int mid = lo + (hi - lo) / 2;

				if (reads_back(text, sizeof(text), mid, v)) {
					hi = mid;
					memcpy(best, text, strlen(text) + 1);
				} else {
					lo = mid + 1;
				}
			}
			kifu_buf_puts(out, best);
			return;
		}
		/* (a misjudged exponent: the tries one by one) */
		for (prec = 0; prec <= 20; prec++) {
			if (reads_back(text, sizeof(text), prec, v)) {
				kifu_buf_puts(out, text);
				return;
			}
		}
	}
	snprintf(text, sizeof(text), "%.17g", v);
	kifu_buf_puts(out, text);
}

void kifu_report_real_text_(struct kifu_buf *out, double v, int prec)
{
	char text[400];

	if (prec >= 0)
		kifu_buf_add(out, text, kifu_text_fixed_(text, sizeof(text), v, prec));
	else
		put_real(out, v);
}

static void put_int(struct kifu_buf *out, long long v)
{
	char text[KIFU_TEXT_INT_SIZE];

	kifu_buf_add(out, text, kifu_text_int_(text, v));
}

/*
 * Appends the text of a cell as the table shows it (escaped: control
 * characters from records are shown as escapes), or as csv has it (exact).
 */
static void table_text(struct kifu_buf *out, const struct kifu_cell *c, int prec, int escaped)
{
	size_t i;
	const char *s;

	switch (c->type) {
	case KIFU_CELL_NULL: kifu_buf_putc(out, '-'); break;
	case KIFU_CELL_INT: put_int(out, c->i); break;
	case KIFU_CELL_REAL: kifu_report_real_text_(out, c->r, prec); break;
	case KIFU_CELL_TEXT:
		if (escaped)
			kifu_buf_escaped(out, c->text);
		else
			kifu_buf_puts(out, c->text);
		break;
	case KIFU_CELL_LIST:
		for (i = 0, s = c->text; i < c->count; i++, s += strlen(s) + 1) {
			kifu_buf_puts(out, i ? " " : "");
			if (escaped)
				kifu_buf_escaped(out, s);
			else
				kifu_buf_puts(out, s);
		}
		break;
	}
}

/*
 * The table is for a person at a terminal, so it is laid out for reading,
 * not for scripts (csv and json keep the column names and order of
 * CLI.md): the wins of each side sit right after `games`, headed by the
 * side's name; long names are shortened; ci_low and ci_high are one
 * column `95% ci` (LOW-HIGH); and a `game` (with its `variant`) that is
 * the same in every row is said once above the table instead of in a
 * column. One game's summary or openings then fit in 100 columns.
 */
static const char *table_head(const struct kifu_report *rep, const char *name)
{
	static const struct {
		const char *name, *head;
	} heads[] = {
		{ "unfinished", "unf" },          { "draw_rate", "drawn" },
		{ "first_mover_score", "fm_score" }, { "ci_low", "95% ci" },
		{ "mean_plies", "mean" },         { "median_plies", "median" },
	};
	size_t i;

	if (!strncmp(name, "wins_", 5) && name[5])
		return name + 5;
	/* An opening line's length: a count of plies, not a game's */
	if (!strcmp(rep->name, "openings") && !strcmp(name, "plies"))
		return "ply";
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strcmp(name, heads[i].name))
			return heads[i].head;
	return name;
}

/* Whether column c holds the same text in every row (and there is a row). */
static int same_text(const struct kifu_report *rep, long c)
{
	const struct kifu_cell *first;
	size_t r;

	if (c < 0 || !rep->nrows)
		return 0;
	first = kifu_report_cell(rep, 0, (size_t)c);
	if (first->type != KIFU_CELL_TEXT)
		return 0;
	for (r = 1; r < rep->nrows; r++) {
		const struct kifu_cell *k = kifu_report_cell(rep, r, (size_t)c);

		if (k->type != KIFU_CELL_TEXT || strcmp(k->text, first->text))
			return 0;
	}
	return 1;
}

/* Appends the text of table column t in row r (r < 0: the header). */
static void tcol_append(struct kifu_buf *cell, const struct kifu_report *rep,
			const struct kifu_report_tcol_ *t, long r)
{
	const struct kifu_cell *lo, *hi;

	if (r < 0) {
		kifu_buf_puts(cell, t->head);
		return;
	}
	lo = kifu_report_cell(rep, (size_t)r, t->col);
	if (t->pair < 0 && (rep->cols[t->col].flags & KIFU_COLUMN_TABLE_YEAR) &&
	    lo->type == KIFU_CELL_TEXT) {
		kifu_buf_add(cell, lo->text, strnlen(lo->text, 4));
		return;
	}
	if (t->pair < 0) {
		table_text(cell, lo, rep->cols[t->col].prec, 1);
		return;
	}
	hi = kifu_report_cell(rep, (size_t)r, (size_t)t->pair);
	if (lo->type == KIFU_CELL_ABSENT && hi->type == KIFU_CELL_ABSENT)
		return;
	if (lo->type != KIFU_CELL_REAL || hi->type != KIFU_CELL_REAL) {
		kifu_buf_putc(cell, '-');
		return;
	}
	table_text(cell, lo, rep->cols[t->col].prec, 1);
	kifu_buf_putc(cell, '-');
	table_text(cell, hi, rep->cols[t->pair].prec, 1);
}

/* The text of table column t in row r (r < 0: the header). */
void kifu_report_tcol_text_(struct kifu_buf *cell, const struct kifu_report *rep,
			    const struct kifu_report_tcol_ *t, long r)
{
	kifu_buf_reset(cell);
	tcol_append(cell, rep, t, r);
}

size_t kifu_report_table_plan_(struct kifu_report_tcol_ *t, const struct kifu_report *rep,
			       int drop_game, int drop_variant)
{
	long game = kifu_report_find_col(rep, "game"), variant = kifu_report_find_col(rep, "variant");
	long ci_high = kifu_report_find_col(rep, "ci_high");
	size_t n = 0, c, k;

	for (c = 0; c < rep->ncols; c++) {
		const char *name = rep->cols[c].name;

		if ((rep->cols[c].flags & KIFU_COLUMN_JSON_ONLY) || !strncmp(name, "wins_", 5) ||
		    (drop_game && (long)c == game) || (drop_variant && (long)c == variant) ||
		    ((long)c == ci_high && kifu_report_find_col(rep, "ci_low") >= 0))
			continue;
		t[n].col = c;
		t[n].pair = !strcmp(name, "ci_low") ? ci_high : -1;
		t[n++].head = table_head(rep, name);
		if (strcmp(name, "games") != 0)
			continue;
		for (k = 0; k < rep->ncols; k++) {
			if (strncmp(rep->cols[k].name, "wins_", 5) != 0)
				continue;
			t[n].col = k;
			t[n].pair = -1;
			t[n++].head = table_head(rep, rep->cols[k].name);
		}
	}
	/* wins_ columns of a report without `games` (none today) stay at the end. */
	for (k = 0; k < rep->ncols && kifu_report_find_col(rep, "games") < 0; k++)
		if (!strncmp(rep->cols[k].name, "wins_", 5)) {
			t[n].col = k;
			t[n].pair = -1;
			t[n++].head = table_head(rep, rep->cols[k].name);
		}
	return n;
}

static int write_table(struct kifu_buf *out, const struct kifu_report *rep)
{
	struct kifu_buf texts = KIFU_BUF_INIT;
	struct kifu_report_tcol_ *t = calloc(rep->ncols ? rep->ncols : 1, sizeof(*t));
	long game = kifu_report_find_col(rep, "game"), variant = kifu_report_find_col(rep, "variant");
	int drop_game = same_text(rep, game), drop_variant = drop_game && same_text(rep, variant);
	size_t n = 0, c, i, *ends = NULL, *widths = NULL;
	long r;
	int ret = 0;

	if (!t) {
		ret = KIFU_ENOMEM;
		goto out;
	}
	if (!rep->nrows && rep->note) {
		kifu_buf_escaped(out, rep->note);
		kifu_buf_putc(out, '\n');
		ret = out->failed ? KIFU_ENOMEM : 0;
		goto out;
	}
	n = kifu_report_table_plan_(t, rep, drop_game, drop_variant);
	/* Every cell's text once (the header's first), for the widths and then the lines. */
	ends = malloc(((rep->nrows + 1) * n + 1) * sizeof(*ends));
	widths = malloc(((rep->nrows + 1) * n + 1) * sizeof(*widths));
	if (!ends || !widths) {
		ret = KIFU_ENOMEM;
		goto out;
	}
	for (r = -1, i = 0; r < (long)rep->nrows; r++) {
		for (c = 0; c < n; c++) {
			const struct kifu_cell *kc;
			size_t w, start = texts.len;

			tcol_append(&texts, rep, &t[c], r);
			ends[i] = texts.len;
			kc = r < 0 ? NULL : kifu_report_cell(rep, (size_t)r, t[c].col);
			/* a number, a null or nothing is ASCII: as wide as it is long */
			if (kc && kc->type != KIFU_CELL_TEXT && kc->type != KIFU_CELL_LIST)
				w = texts.len - start;
			else
				w = texts.data ? kifu_text_width(texts.data + start, texts.len - start) : 0;
			widths[i++] = w;
			if (w > t[c].width)
				t[c].width = w;
			if (kc && (kc->type == KIFU_CELL_INT || kc->type == KIFU_CELL_REAL))
				t[c].numeric = 1;
		}
	}
	if (texts.failed) {
		ret = KIFU_ENOMEM;
		goto out;
	}
	if (drop_game) {
		kifu_buf_puts(out, "game: ");
		kifu_buf_escaped(out, kifu_report_cell(rep, 0, (size_t)game)->text);
		if (drop_variant) {
			kifu_buf_puts(out, ", variant: ");
			kifu_buf_escaped(out, kifu_report_cell(rep, 0, (size_t)variant)->text);
		}
		kifu_buf_putc(out, '\n');
	}
	/*
	 * Line -1 is the header. Each line's room taken at once, then its
	 * cells, padding and gaps copied in (millions of cells: no call each).
	 */
	for (r = -1, i = 0; r < (long)rep->nrows; r++) {
		size_t room = 2 * n + 1, end, k;
		char *p, *line;

		for (c = 0, k = i; c < n; c++, k++)
			room += (k ? ends[k] - ends[k - 1] : ends[k]) +
				(t[c].width > widths[k] ? t[c].width - widths[k] : 0);
		if (kifu_buf_reserve(out, room) < 0)
			break;
		line = p = out->data + out->len;
		end = 0;
		for (c = 0; c < n; c++, i++) {
			size_t start = i ? ends[i - 1] : 0, len = ends[i] - start;
			size_t pad = t[c].width > widths[i] ? t[c].width - widths[i] : 0;

			if (t[c].numeric) {
				memset(p, ' ', pad);
				p += pad;
			}
			if (len)
				memcpy(p, texts.data + start, len);
			p += len;
			end = (size_t)(p - line);
			if (c + 1 != n) {
				if (!t[c].numeric) {
					memset(p, ' ', pad);
					p += pad;
				}
				memcpy(p, "  ", 2);
				p += 2;
			}
		}
		/* No trailing blanks (absent cells at the end of a row). */
		while (end > 0 && line[end - 1] == ' ')
			end--;
		line[end] = '\n';
		out->len += end + 1;
		out->data[out->len] = '\0';
	}
	if (out->failed)
		ret = KIFU_ENOMEM;
out:
	free(t);
	free(ends);
	free(widths);
	kifu_buf_release(&texts);
	return ret;
}

static int write_csv(struct kifu_buf *out, const struct kifu_report *rep)
{
	struct kifu_buf cell = KIFU_BUF_INIT;
	size_t r, c;
	int first;

	first = 1;
	for (c = 0; c < rep->ncols; c++) {
		if (rep->cols[c].flags & KIFU_COLUMN_JSON_ONLY)
			continue;
		if (!first)
			kifu_buf_putc(out, ',');
		kifu_buf_csv_field(out, rep->cols[c].name);
		first = 0;
	}
	kifu_buf_puts(out, "\r\n");
	for (r = 0; r < rep->nrows; r++) {
		first = 1;
		for (c = 0; c < rep->ncols; c++) {
			const struct kifu_cell *k = kifu_report_cell(rep, r, c);

			if (rep->cols[c].flags & KIFU_COLUMN_JSON_ONLY)
				continue;
			if (!first)
				kifu_buf_putc(out, ',');
			first = 0;
			if (k->type == KIFU_CELL_ABSENT || k->type == KIFU_CELL_NULL)
				continue;
			if (k->type == KIFU_CELL_TEXT) {
				kifu_buf_csv_field(out, k->text);
				continue;
			}
			/*
			 * Numbers too go through the field writer: a negative
			 * one starts with '-', which INTEROP.md has written '-0.5.
			 */
			kifu_buf_reset(&cell);
			if (k->type == KIFU_CELL_INT)
				put_int(&cell, k->i);
			else if (k->type == KIFU_CELL_REAL)
				put_real(&cell, k->r);
			else /* full precision: csv is for programs */
				table_text(&cell, k, -1, 0);
			kifu_buf_csv_field(out, cell.data ? cell.data : "");
		}
		kifu_buf_puts(out, "\r\n");
	}
	kifu_buf_release(&cell);
	return out->failed || cell.failed ? KIFU_ENOMEM : 0;
}

static int write_json(struct kifu_buf *out, const struct kifu_report *rep)
{
	size_t r, c, i;

	kifu_buf_puts(out, "{\n  \"report\": ");
	kifu_buf_json_string(out, rep->name);
	for (i = 0; i < rep->nhead; i++) {
		kifu_buf_puts(out, ",\n  ");
		kifu_buf_json_string(out, rep->head[i].name);
		kifu_buf_puts(out, ": ");
		if (rep->head[i].cell.type == KIFU_CELL_INT)
			put_int(out, rep->head[i].cell.i);
		else
			kifu_buf_json_string(out, rep->head[i].cell.text);
	}
	kifu_buf_puts(out, ",\n  \"rows\": [");
	for (r = 0; r < rep->nrows; r++) {
		int first = 1;

		kifu_buf_puts(out, r ? ",\n    {" : "\n    {");
		for (c = 0; c < rep->ncols; c++) {
			const struct kifu_cell *k = kifu_report_cell(rep, r, c);
			const char *s;

			if (k->type == KIFU_CELL_ABSENT)
				continue;
			if (!first)
				kifu_buf_puts(out, ", ");
			first = 0;
			kifu_buf_json_string(out, rep->cols[c].name);
			kifu_buf_puts(out, ": ");
			switch (k->type) {
			case KIFU_CELL_NULL: kifu_buf_puts(out, "null"); break;
			case KIFU_CELL_INT: put_int(out, k->i); break;
			case KIFU_CELL_REAL: put_real(out, k->r); break;
			case KIFU_CELL_TEXT: kifu_buf_json_string(out, k->text); break;
			case KIFU_CELL_LIST:
				kifu_buf_putc(out, '[');
				for (i = 0, s = k->text; i < k->count; i++, s += strlen(s) + 1) {
					if (i)
						kifu_buf_puts(out, ", ");
					kifu_buf_json_string(out, s);
				}
				kifu_buf_putc(out, ']');
				break;
			}
		}
		kifu_buf_putc(out, '}');
	}
	kifu_buf_puts(out, rep->nrows ? "\n  ]\n}\n" : "]\n}\n");
	return out->failed ? KIFU_ENOMEM : 0;
}

int kifu_report_write(struct kifu_buf *out, const struct kifu_report *rep, int format,
		      struct kifu_error *err)
{
	int ret;

	switch (format) {
	case KIFU_REPORT_TABLE: ret = write_table(out, rep); break;
	case KIFU_REPORT_CSV: ret = write_csv(out, rep); break;
	case KIFU_REPORT_JSON: ret = write_json(out, rep); break;
	default: return kifu_error_set(err, KIFU_ERANGE, "unknown report format %d", format);
	}
	if (ret < 0)
		kifu_error_set(err, ret, "out of memory");
	return ret;
}
