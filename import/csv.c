/*
 * csv: one game per row, as spreadsheets export them (INTEROP.md "csv",
 * formats/csv.md): RFC 4180 with a header row, UTF-8 with an optional
 * byte-order mark, case-insensitive column names. The reader is a small
 * RFC 4180 state machine over the shared byte reader (Debian's libcsv was
 * considered: it reports no line or column, which every diagnostic here
 * needs, and the state machine is a few dozen lines). Comments and clocks
 * have no column; any column kifu does not know is a tag. The writer puts
 * the columns of the games it writes in INTEROP.md's order, with CRLF line
 * ends and quotes only where a field needs them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_impl.h"

#define MAX_COLUMNS 1000

/* What a column holds. */
enum col_kind { C_FIELD, C_PLAYER, C_RATING, C_MOVES, C_TAG, C_DUPLICATE };

struct column {
	char *name;          /* as written in the header */
	int kind;            /* enum col_kind */
	int key;             /* C_FIELD: KIFU_KEY_*; */
	char side[32];       /* C_PLAYER, C_RATING: the side, lower case */
	struct kifu_mark at;
};

struct cell {
	struct kifu_import_text_ text;
	struct kifu_mark at; /* the cell's first character (inside the quotes) */
	int held;            /* its first character was a "'", not yet kept */
};

struct csv {
	struct kifu_import_in_ in;
	const struct kifu_source *src;
	struct column cols[MAX_COLUMNS];
	int ncols, header_done, ended, rows;
	struct cell cells[MAX_COLUMNS];
	int ncells, extra;   /* cells read; cells past MAX_COLUMNS */
	const char *problem; /* a syntax problem of the row just read */
	struct kifu_mark problem_at;
	int over;            /* a cell was longer than the limit */
	struct kifu_mark over_at;
};

static const int field_keys[] = { KIFU_KEY_GAME, KIFU_KEY_VARIANT, KIFU_KEY_FIRST, KIFU_KEY_EVENT,
				  KIFU_KEY_SITE, KIFU_KEY_ROUND, KIFU_KEY_DATE, KIFU_KEY_RESULT,
				  KIFU_KEY_TERMINATION, KIFU_KEY_ANNOTATOR, KIFU_KEY_SOURCE, -1 };

/*
 * Adds c to a cell. A "'" before one of KIFU_CSV_GUARDED is the writer's
 * guard against formulas (INTEROP.md csv): the first character of a cell,
 * when it is a "'", waits for the next one to say whether it is kept.
 */
static void cell_addc(struct cell *cell, int c) /* -1: the cell ends */
{
	if (cell->held) {
		cell->held = 0;
		if (c >= 0 && kifu_buf_csv_guarded(c))
			cell->at.col++;
		else
			kifu_import_text_addc_(&cell->text, '\'');
	} else if (c == '\'' && cell->text.n == 0) {
		cell->held = 1;
		return;
	}
	if (c >= 0)
		kifu_import_text_addc_(&cell->text, c);
}

/* A new cell starting at the reader's place. */
static void cell_start(struct csv *p, struct cell *cell)
{
	kifu_import_text_reset_(&cell->text);
	cell->at = kifu_import_at_(&p->in);
	cell->held = 0;
}

/*
 * Reads one row into p->cells. Returns 1 for a row, 0 at the end, -1 when
 * the input stopped (bad bytes, I/O) or a quoted field was not closed.
 */
static int read_row(struct csv *p)
{
	int c, quoted = 0, after_quote = 0, n = 0;
	struct cell *cell = &p->cells[0];

	p->ncells = 0;
	p->extra = 0;
	p->problem = NULL;
	p->over = 0;
	c = kifu_import_peek_(&p->in);
	if (c < 0)
		return c == IMP_EOF ? 0 : -1;
	cell_start(p, cell);
	for (;;) {
		struct kifu_mark here = kifu_import_at_(&p->in);

		c = kifu_import_getc_(&p->in);
		if (c == IMP_BAD || c == IMP_ERR)
			return -1;
		if (quoted) {
			if (c < 0) {
				p->problem = "unterminated quoted field: no closing '\"'";
				p->problem_at = cell->at;
				p->problem_at.col--;
				return -1;
			}
			if (c == '"') {
				if (kifu_import_peek_(&p->in) == '"') {
					kifu_import_getc_(&p->in);
					cell_addc(cell, '"');
				} else {
					quoted = 0;
					after_quote = 1;
				}
			} else {
				cell_addc(cell, c);
			}
			continue;
		}
		if (c == ',' || c == '\n' || c < 0 ||
		    (c == '\r' && kifu_import_peek_(&p->in) == '\n')) {
			cell_addc(cell, -1); /* a "'" held alone is kept */
			if (cell->text.over && !p->over) {
				p->over = 1;
				p->over_at = cell->at;
			}
			if (n < MAX_COLUMNS)
				n++;
			else
				p->extra++;
			p->ncells = n;
			if (c == '\r')
				kifu_import_getc_(&p->in);
			if (c != ',')
				return 1;
			cell = &p->cells[n < MAX_COLUMNS ? n : MAX_COLUMNS - 1];
			cell_start(p, cell);
			after_quote = 0;
			continue;
		}
		if (c == '"' && cell->text.n == 0 && !cell->held && !after_quote) {
			quoted = 1;
			cell->at = kifu_import_at_(&p->in);
			continue;
		}
		if (after_quote && !p->problem) {
			p->problem = "a quoted field goes on after its closing '\"'";
			p->problem_at = here;
		}
		cell_addc(cell, c);
	}
}

static int is_blank_row(const struct csv *p)
{
	return p->ncells == 1 && p->cells[0].text.n == 0;
}

/* The side named s in any game, or NULL. */
static const char *any_side(const char *s)
{
	const struct kifu_game *const *g;
	int i;

	for (g = kifu_games; *g; g++)
		for (i = 0; (*g)->sides[i]; i++)
			if (kifu_import_strcaseeq_((*g)->sides[i], s))
				return (*g)->sides[i];
	return NULL;
}

static void header(struct csv *p, struct kifu_diags *diags, int *failed)
{
	int i, j, k;

	p->ncols = p->ncells;
	for (i = 0; i < p->ncols; i++) {
		struct column *col = &p->cols[i];
		const char *name = p->cells[i].text.s ? p->cells[i].text.s : "";
		const char *side;
		size_t n = strlen(name);

		free(col->name);
		col->name = strdup(name);
		if (!col->name)
			*failed = 1;
		col->at = p->cells[i].at;
		col->kind = C_TAG;
		for (k = 0; field_keys[k] >= 0; k++)
			if (kifu_import_strcaseeq_(name, kifu_key_name(field_keys[k]))) {
				col->kind = C_FIELD;
				col->key = field_keys[k];
			}
		if (kifu_import_strcaseeq_(name, "moves"))
			col->kind = C_MOVES;
		if ((side = any_side(name)) != NULL) {
			col->kind = C_PLAYER;
			snprintf(col->side, sizeof(col->side), "%s", side);
		}
		if (n > 7 && kifu_import_strcaseeq_(name + n - 7, "_rating")) {
			char s[32];

			snprintf(s, sizeof(s), "%.*s", (int)(n - 7), name);
			if ((side = any_side(s)) != NULL) {
				col->kind = C_RATING;
				snprintf(col->side, sizeof(col->side), "%s", side);
			}
		}
		for (j = 0; j < i; j++)
			if (p->cols[j].name && col->name &&
			    kifu_import_strcaseeq_(p->cols[j].name, col->name)) {
				char buf[KIFU_TEXT_CLIP + 1];

				col->kind = C_DUPLICATE;
				if (kifu_diags_add(diags, KIFU_DIAG_WARNING, 1, 0, col->at,
						   "duplicate column '%s' is not read",
						   kifu_text_clip_(buf, col->name, SIZE_MAX)) < 0)
					*failed = 1;
				break;
			}
	}
}

static void diag(struct kifu_diags *diags, const struct kifu_record *rec, int ply,
		 struct kifu_mark at, int *failed, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void diag(struct kifu_diags *diags, const struct kifu_record *rec, int ply,
		 struct kifu_mark at, int *failed, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kifu_diags_addv(diags, KIFU_DIAG_ERROR, rec->number, ply, at, fmt, ap) < 0)
		*failed = 1;
	va_end(ap);
}

/* The moves cell: canonical moves joined by commas (white space around each is dropped). */
static void moves_cell(struct kifu_record *rec, const struct cell *cell, struct kifu_diags *diags,
		       int *failed)
{
	const char *s = cell->text.s ? cell->text.s : "";
	struct kifu_mark at = cell->at;

	rec->present |= 1u << KIFU_KEY_MOVES;
	rec->value_at[KIFU_KEY_MOVES] = cell->at;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (!*s)
		return;
	for (;;) {
		const char *e = s;
		size_t n;
		struct kifu_mark m;

		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
			if (*s == '\n')
				at.line++, at.col = 1;
			else
				at.col++;
			s++;
		}
		m = at;
		for (e = s; *e && *e != ','; e++) {
			if (*e == '\n')
				at.line++, at.col = 1;
			else if (((unsigned char)*e & 0xc0) != 0x80)
				at.col++;
		}
		n = (size_t)(e - s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
			n--;
		if (rec->nturns >= KIFU_RECORD_MAX_TURNS) {
			if (!(rec->flags & KIFU_RECORD_TRUNCATED))
				diag(diags, rec, (int)rec->nturns + 1, m, failed,
				     "'moves' has more than %d turns", KIFU_RECORD_MAX_TURNS);
			rec->flags |= KIFU_RECORD_TRUNCATED;
			rec->plies_written++;
		} else if (!kifu_import_turn_(rec, s, n, m)) {
			*failed = 1;
			return;
		}
		if (!*e)
			break;
		s = e + 1;
		at.col++;
	}
}

static void row_record(struct csv *p, struct kifu_record *rec, struct kifu_diags *diags,
		       int *failed)
{
	const struct kifu_game *g = NULL;
	char buf[KIFU_TEXT_CLIP + 1];
	int i;

	for (i = 0; i < p->ncols && i < p->ncells; i++)
		if (p->cols[i].kind == C_FIELD && p->cols[i].key == KIFU_KEY_GAME && p->cells[i].text.n)
			g = kifu_import_game_lookup_(p->cells[i].text.s);
	if (p->ncells != p->ncols)
		diag(diags, rec, 0, rec->at, failed, "the row has %d column%s, the header %d",
		     p->ncells + p->extra, p->ncells + p->extra == 1 ? "" : "s", p->ncols);
	for (i = 0; i < p->ncols && i < p->ncells; i++) {
		const struct column *col = &p->cols[i];
		const struct cell *cell = &p->cells[i];
		const char *s = cell->text.s ? cell->text.s : "";

		if (col->kind == C_MOVES) {
			moves_cell(rec, cell, diags, failed);
			continue;
		}
		if (!cell->text.n || col->kind == C_DUPLICATE || col->kind == C_RATING)
			continue;
		if (col->kind == C_FIELD) {
			if (col->key == KIFU_KEY_GAME && g)
				s = g->name;
			if (kifu_import_set_(rec, col->key, s, (size_t)-1, cell->at, cell->at))
				*failed = 1;
		} else if (col->kind == C_PLAYER) {
			long rating = 0;
			int has_rating = 0, j;

			for (j = 0; j < p->ncols && j < p->ncells; j++) {
				const struct cell *rc = &p->cells[j];
				char *end;

				if (p->cols[j].kind != C_RATING || strcmp(p->cols[j].side, col->side) ||
				    !rc->text.n)
					continue;
				rating = strtol(rc->text.s, &end, 10);
				if (*end || rc->text.s[0] == ' ' || rc->text.s[0] == '+')
					diag(diags, rec, 0, rc->at, failed,
					     "column '%s' must be an integer, not '%s'",
					     p->cols[j].name,
					     kifu_text_clip_(buf, rc->text.s, SIZE_MAX));
				else
					has_rating = 1;
			}
			if (kifu_import_player_(rec, col->side, s, has_rating, rating, cell->at))
				*failed = 1;
		} else if (kifu_import_tag_(rec, col->name, s, KIFU_SCALAR_STR, cell->at)) {
			*failed = 1;
		}
	}
	/* a rating whose player cell is empty */
	for (i = 0; i < p->ncols && i < p->ncells; i++) {
		size_t j;

		if (p->cols[i].kind != C_RATING || !p->cells[i].text.n)
			continue;
		for (j = 0; j < rec->nplayers; j++)
			if (!strcmp(rec->players[j].side, p->cols[i].side))
				break;
		if (j == rec->nplayers)
			diag(diags, rec, 0, p->cells[i].at, failed,
			     "player '%s' has no name: column '%s' without '%s'", p->cols[i].side,
			     p->cols[i].name, p->cols[i].side);
	}
	(void)g;
}

static int csv_open(void **state, const struct kifu_source *src, struct kifu_error *err)
{
	struct csv *p = calloc(1, sizeof(*p));

	*state = NULL;
	if (!p)
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", src->name);
	kifu_import_in_init_(&p->in, src);
	p->src = src;
	*state = p;
	return 0;
}

static void csv_close(void *state)
{
	struct csv *p = state;
	int i;

	if (!p)
		return;
	for (i = 0; i < MAX_COLUMNS; i++) {
		free(p->cols[i].name);
		kifu_import_text_release_(&p->cells[i].text);
	}
	free(p);
}

static int csv_next(struct kifu_record **out, struct kifu_diags *diags, void *state,
		    struct kifu_error *err)
{
	struct csv *p = state;
	struct kifu_record *rec = NULL;
	int r, failed = 0;

	*out = NULL;
	if (p->ended)
		return 0;
	do {
		r = read_row(p);
	} while (r == 1 && is_blank_row(p));
	if (r == 1 && !p->header_done) {
		p->header_done = 1;
		header(p, diags, &failed);
		if (failed)
			return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory",
					      p->src->name);
		do {
			r = read_row(p);
		} while (r == 1 && is_blank_row(p));
	}
	if (r < 0 && p->in.code && !p->in.problem) {
		p->ended = 1;
		*err = p->in.error;
		return p->in.code;
	}
	if (r == 0) {
		p->ended = 1;
		return 0;
	}
	if (kifu_record_new(&rec, err) < 0)
		return KIFU_ENOMEM;
	rec->number = ++p->rows;
	rec->at = p->cells[0].at;
	rec->at.col = rec->at.col > 1 && p->cells[0].text.n == 0 ? rec->at.col : rec->at.col;
	if (r < 0) {
		rec->flags |= KIFU_RECORD_SYNTAX_ERROR;
		p->ended = 1;
		if (p->in.problem) {
			if (kifu_import_bad_input_(diags, rec->number, &p->in) < 0)
				failed = 1;
		} else {
			diag(diags, rec, 0, p->problem_at, &failed, "invalid CSV: %s", p->problem);
		}
	} else {
		if (p->problem)
			diag(diags, rec, 0, p->problem_at, &failed, "invalid CSV: %s", p->problem);
		if (p->over)
			diag(diags, rec, 0, p->over_at, &failed, "a field is longer than %d bytes",
			     KIFU_RECORD_MAX_SCALAR);
		row_record(p, rec, diags, &failed);
	}
	if (failed || diags->failed) {
		kifu_record_free(rec);
		p->ended = 1;
		return kifu_error_set(err, KIFU_ENOMEM, "reading '%s': out of memory", p->src->name);
	}
	*out = rec;
	return 1;
}

/* A first line holding a `game` column. */
static int csv_sniff(const char *head, size_t n)
{
	size_t i = 0, start;

	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	for (;;) {
		int q = i < n && head[i] == '"';

		start = i + (size_t)q;
		for (i = start; i < n && head[i] != (q ? '"' : ',') && (q || (head[i] != '\n' &&
									  head[i] != '\r')); i++)
			;
		if (i - start == 4 && kifu_import_strncaseeq_(head + start, "game", 4))
			return 1;
		if (q && i < n)
			i++;
		if (i >= n || head[i] != ',')
			return 0;
		i++;
	}
}

/* ---- Writing ---- */

static void put_field(struct kifu_buf *out, const char *s, int first)
{
	if (!first)
		kifu_buf_putc(out, ',');
	if (s)
		kifu_buf_csv_field(out, s);
}

struct wcol {
	int kind;            /* enum col_kind */
	int key;
	const char *name;    /* side or tag key */
};

static int add_col(struct wcol **cols, size_t *n, size_t *cap, int kind, int key, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*cols)[i].kind == kind && (*cols)[i].key == key &&
		    (!name || !strcmp((*cols)[i].name, name)))
			return 0;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		struct wcol *p = realloc(*cols, c * sizeof(*p));

		if (!p)
			return KIFU_ENOMEM;
		*cols = p;
		*cap = c;
	}
	(*cols)[*n].kind = kind;
	(*cols)[*n].key = key;
	(*cols)[(*n)++].name = name;
	return 0;
}

static int csv_write(struct kifu_buf *out, const struct kifu_record *const *recs,
		     const struct kifu_replay *const *rps, size_t n, struct kifu_error *err)
{
	struct wcol *cols = NULL;
	size_t ncols = 0, cap = 0, i, j, c;
	char buf[KIFU_TEXT_CLIP + 1], num[32];
	int k, ret = 0;

	/* the columns: fields any record has, sides, ratings, moves, tags */
	for (k = 0; field_keys[k] >= 0 && !ret; k++)
		for (i = 0; i < n; i++)
			if (field_keys[k] == KIFU_KEY_GAME || field_keys[k] == KIFU_KEY_VARIANT ||
			    field_keys[k] == KIFU_KEY_RESULT ||
			    (field_keys[k] == KIFU_KEY_TERMINATION && kifu_record_termination(recs[i])) ||
			    kifu_record_get(recs[i], field_keys[k])) {
				ret = add_col(&cols, &ncols, &cap, C_FIELD, field_keys[k], NULL);
				break;
			}
	for (i = 0; i < n && !ret; i++) {
		const struct kifu_game *g = recs[i]->game ? kifu_game_find(recs[i]->game) : NULL;
		int s;

		if (!g) {
			ret = kifu_error_set(
				err, KIFU_EINVALID, "game %d: unknown game '%s'", recs[i]->number,
				kifu_text_clip_(buf, recs[i]->game ? recs[i]->game : "", SIZE_MAX));
			break;
		}
		for (s = 0; g->sides[s] && !ret; s++) {
			ret = add_col(&cols, &ncols, &cap, C_PLAYER, 0, g->sides[s]);
			for (j = 0; j < n && !ret; j++) {
				size_t q;

				for (q = 0; q < recs[j]->nplayers; q++)
					if (recs[j]->players[q].has_rating &&
					    !strcmp(recs[j]->players[q].side, g->sides[s]))
						break;
				if (q < recs[j]->nplayers) {
					ret = add_col(&cols, &ncols, &cap, C_RATING, 0, g->sides[s]);
					break;
				}
			}
		}
	}
	if (!ret)
		ret = add_col(&cols, &ncols, &cap, C_MOVES, 0, NULL);
	for (i = 0; i < n && !ret; i++)
		for (j = 0; j < recs[i]->ntags && !ret; j++) {
			const char *key = recs[i]->tags[j].key;

			for (k = 0; field_keys[k] >= 0; k++)
				if (kifu_import_strcaseeq_(key, kifu_key_name(field_keys[k])))
					break;
			if (field_keys[k] >= 0 || kifu_import_strcaseeq_(key, "moves") ||
			    any_side(key) ||
			    (strlen(key) > 7 &&
			     kifu_import_strcaseeq_(key + strlen(key) - 7, "_rating")) ||
			    !key[0]) {
				ret = kifu_error_set(err, KIFU_EINVALID,
						     "game %d: tag '%s' cannot be a csv column",
						     recs[i]->number,
						     kifu_text_clip_(buf, key, SIZE_MAX));
				break;
			}
			for (c = 0; c < ncols; c++)
				if (cols[c].kind == C_TAG && strcmp(cols[c].name, key) &&
				    kifu_import_strcaseeq_(cols[c].name, key))
					break;
			if (c < ncols) {
				ret = kifu_error_set(
					err, KIFU_EINVALID,
					"game %d: tags '%s' and '%s' would be one csv column",
					recs[i]->number, cols[c].name,
					kifu_text_clip_(buf, key, SIZE_MAX));
				break;
			}
			ret = add_col(&cols, &ncols, &cap, C_TAG, 0, key);
		}
	if (ret)
		goto out;
	for (c = 0; c < ncols; c++) {
		if (cols[c].kind == C_FIELD) {
			put_field(out, kifu_key_name(cols[c].key), !c);
		} else if (cols[c].kind == C_RATING) {
			char name[48];

			snprintf(name, sizeof(name), "%s_rating", cols[c].name);
			put_field(out, name, !c);
		} else {
			put_field(out, cols[c].kind == C_MOVES ? "moves" : cols[c].name, !c);
		}
	}
	kifu_buf_puts(out, "\r\n");
	for (i = 0; i < n; i++) {
		const struct kifu_record *rec = recs[i];
		const struct kifu_game *g = kifu_game_find(rec->game);
		const struct kifu_replay *rp = rps ? rps[i] : NULL;

		for (c = 0; c < ncols; c++) {
			const char *v = NULL;
			struct kifu_buf mv = KIFU_BUF_INIT;

			switch (cols[c].kind) {
			case C_FIELD:
				v = kifu_record_get(rec, cols[c].key);
				if (cols[c].key == KIFU_KEY_VARIANT && !v)
					v = g->variants[0];
				else if (cols[c].key == KIFU_KEY_RESULT)
					v = kifu_record_result(rec);
				else if (cols[c].key == KIFU_KEY_TERMINATION)
					v = kifu_record_termination(rec);
				break;
			case C_PLAYER:
			case C_RATING:
				for (j = 0; j < rec->nplayers; j++)
					if (!strcmp(rec->players[j].side, cols[c].name))
						break;
				if (j < rec->nplayers && cols[c].kind == C_PLAYER) {
					v = rec->players[j].name;
				} else if (j < rec->nplayers && rec->players[j].has_rating) {
					snprintf(num, sizeof(num), "%ld", rec->players[j].rating);
					v = num;
				}
				break;
			case C_MOVES:
				for (j = 0; j < rec->nturns; j++) {
					const char *t = rp ? kifu_replay_text(rp, j + 1) : NULL;

					if (!t)
						t = rec->turns[j].text ? rec->turns[j].text : "";
					if (strchr(t, ',')) {
						ret = kifu_error_set(
							err, KIFU_EINVALID,
							"game %d, ply %zu: move '%s' holds a "
							"comma, which csv cannot carry",
							rec->number, j + 1,
							kifu_text_clip_(buf, t, SIZE_MAX));
						kifu_buf_release(&mv);
						goto out;
					}
					if (j)
						kifu_buf_putc(&mv, ',');
					kifu_buf_puts(&mv, t);
				}
				v = mv.data ? mv.data : "";
				break;
			default:
				for (j = 0; j < rec->ntags; j++)
					if (!strcmp(rec->tags[j].key, cols[c].name))
						v = rec->tags[j].value;
				break;
			}
			put_field(out, v, !c);
			if (mv.failed)
				out->failed = 1;
			kifu_buf_release(&mv);
		}
		kifu_buf_puts(out, "\r\n");
	}
	if (out->failed)
		ret = kifu_error_set(err, KIFU_ENOMEM, "writing csv: out of memory");
out:
	free(cols);
	return ret;
}

const struct kifu_format kifu_format_csv_ = {
	.name = "csv",
	.description = "spreadsheets: RFC 4180, one game per row (no comments or clocks)",
	.suffixes = (const char *const[]){ ".csv", NULL },
	.sniff = csv_sniff,
	.open = csv_open,
	.next = csv_next,
	.close = csv_close,
	.write = csv_write,
};
