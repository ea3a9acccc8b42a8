/*
 * Board geometry and notation helpers shared by the rules engines: hex-hex
 * boards in the axial form of the spec (rows lettered from the top, cells
 * numbered from the left), square boards (files and ranks), direction names
 * and the normalisation of move text before an engine parses it.
 */
#include <ctype.h>
#include <string.h>
#include <threads.h>

#include "games/board.h"

static struct kifu_hex hex_boards[KIFU_HEX_MAX_R + 1];
static once_flag hex_once = ONCE_FLAG_INIT;

static const int hex_dq[6] = { +1, -1, +1, 0, 0, -1 };
static const int hex_dr[6] = { 0, 0, -1, -1, +1, +1 };
static const char *const hex_dir_names[6] = { "e", "w", "ne", "nw", "se", "sw" };

static int hex_index(const struct kifu_hex *h, int q, int r)
{
	int R = h->R, row = r + R, qmin;

	if (r < -R || r > R)
		return -1;
	qmin = -R > -R - r ? -R : -R - r;
	if (q < qmin || q >= qmin + h->rowlen[row])
		return -1;
	return h->rowstart[row] + (q - qmin);
}

/* Axial (q, r) mapped by hex symmetry k (see KIFU_HEX_SYMMETRIES). */
static void hex_sym_vec(int k, int *q, int *r)
{
	int i;

	if (k >= 6) {
		int t = *q;

		*q = *r;
		*r = t;
		k -= 6;
	}
	for (i = 0; i < k; i++) {
		/* cube (x, y, z) -> (-z, -x, -y): one turn of 60 degrees */
		int nq = -*r, nr = *q + *r;

		*q = nq;
		*r = nr;
	}
}

static void hex_build(struct kifu_hex *h, int R)
{
	int row, c = 0, d;

	memset(h, 0, sizeof(*h));
	h->R = R;
	h->nrows = 2 * R + 1;
	for (row = 0; row < h->nrows; row++) {
		int r = row - R;
		int qmin = -R > -R - r ? -R : -R - r;
		int qmax = R < R - r ? R : R - r;
		int q;

		h->rowstart[row] = c;
		h->rowlen[row] = qmax - qmin + 1;
		for (q = qmin; q <= qmax; q++, c++) {
			h->q[c] = (int8_t)q;
			h->r[c] = (int8_t)r;
			h->row[c] = (int8_t)row;
			h->num[c] = (int8_t)(q - qmin + 1);
		}
	}
	h->ncells = c;
	for (c = 0; c < h->ncells; c++) {
		int s = -h->q[c] - h->r[c];

		h->border[c] = h->q[c] == R || h->q[c] == -R || h->r[c] == R ||
			       h->r[c] == -R || s == R || s == -R;
		for (d = 0; d < 6; d++)
			h->nb[c][d] = (int8_t)hex_index(h, h->q[c] + hex_dq[d],
							h->r[c] + hex_dr[d]);
		for (d = 0; d < KIFU_HEX_SYMMETRIES; d++) {
			int q = h->q[c], r = h->r[c];

			hex_sym_vec(d, &q, &r);
			h->sym[d][c] = (int8_t)hex_index(h, q, r);
		}
	}
}

static void hex_build_all(void)
{
	int R;

	for (R = 1; R <= KIFU_HEX_MAX_R; R++)
		hex_build(&hex_boards[R], R);
}

const struct kifu_hex *kifu_hex_board_(int R)
{
	if (R < 1 || R > KIFU_HEX_MAX_R)
		return NULL;
	call_once(&hex_once, hex_build_all);
	return &hex_boards[R];
}

/* Parses "<letter><digits>" into a 0-based letter and a number >= 1; -1 if not of that shape. */
static int parse_letter_number(const char *s, size_t n, int *letter, int *number)
{
	size_t i;
	int v = 0;

	if (n < 2 || n > 3 || !isalpha((unsigned char)s[0]))
		return -1;
	*letter = tolower((unsigned char)s[0]) - 'a';
	if (s[1] == '0')
		return -1;
	for (i = 1; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*number = v;
	return 0;
}

/* Writes "<letter><number>" (number 1..99) without printf: names are formatted in hot paths. */
static void format_letter_number(char *buf, int letter, int number)
{
	*buf++ = (char)('a' + letter);
	if (number >= 10)
		*buf++ = (char)('0' + number / 10);
	*buf++ = (char)('0' + number % 10);
	*buf = '\0';
}

int kifu_hex_cell_parse_(const struct kifu_hex *h, const char *s, size_t n)
{
	int row, num;

	if (parse_letter_number(s, n, &row, &num) < 0)
		return -1;
	if (row < 0 || row >= h->nrows || num > h->rowlen[row])
		return -1;
	return h->rowstart[row] + num - 1;
}

void kifu_hex_cell_name_(const struct kifu_hex *h, int cell, char *buf)
{
	format_letter_number(buf, h->row[cell], h->num[cell]);
}

int kifu_hex_step_(const struct kifu_hex *h, int cell, int dir, int k)
{
	while (k-- > 0 && cell >= 0)
		cell = h->nb[cell][dir];
	return cell;
}

static int dir_lookup(const char *const *names, int count, const char *s, size_t n)
{
	int d;

	for (d = 0; d < count; d++) {
		size_t len = strlen(names[d]), i;

		if (len != n)
			continue;
		for (i = 0; i < n; i++)
			if (tolower((unsigned char)s[i]) != names[d][i])
				break;
		if (i == n)
			return d;
	}
	return -1;
}

int kifu_hex_dir_parse_(const char *s, size_t n)
{
	return dir_lookup(hex_dir_names, 6, s, n);
}

const char *kifu_hex_dir_name_(int dir)
{
	return dir >= 0 && dir < 6 ? hex_dir_names[dir] : "?";
}

int kifu_hex_sym_dir_(int k, int dir)
{
	int q = hex_dq[dir], r = hex_dr[dir], d;

	hex_sym_vec(k, &q, &r);
	for (d = 0; d < 6; d++)
		if (hex_dq[d] == q && hex_dr[d] == r)
			break;
	return d;
}

int kifu_hex_sym_inverse_(int k)
{
	/* reflections undo themselves; a rotation by k turns is undone by 6 - k */
	return k >= 6 ? k : (6 - k) % 6;
}

/* ---- square boards ---- */

const int kifu_sq_dfile_[8] = { 0, 0, +1, -1, +1, -1, +1, -1 };
const int kifu_sq_drank_[8] = { +1, -1, 0, 0, +1, +1, -1, -1 };
static const char *const sq_dir_names[8] = { "n", "s", "e", "w", "ne", "nw", "se", "sw" };

int kifu_sq_cell_parse_(int width, int height, const char *s, size_t n)
{
	int file, rank;

	if (parse_letter_number(s, n, &file, &rank) < 0)
		return -1;
	if (file < 0 || file >= width || rank > height)
		return -1;
	return (rank - 1) * width + file;
}

void kifu_sq_cell_name_(int width, int cell, char *buf)
{
	format_letter_number(buf, cell % width, cell / width + 1);
}

int kifu_sq_dir_parse_(const char *s, size_t n)
{
	return dir_lookup(sq_dir_names, 8, s, n);
}

const char *kifu_sq_dir_name_(int dir)
{
	return dir >= 0 && dir < 8 ? sq_dir_names[dir] : "?";
}

/* (file, rank) mapped by square symmetry k on a width x height board (see KIFU_SQ_SYMMETRIES). */
static void sq_sym_vec(int k, int width, int height, int *f, int *r)
{
	if (k & 4) {
		int t = *f;

		*f = *r;
		*r = t;
	}
	if (k & 1)
		*f = width - 1 - *f;
	if (k & 2)
		*r = height - 1 - *r;
}

int kifu_sq_sym_cell_(int width, int height, int k, int cell)
{
	int f = cell % width, r = cell / width;

	sq_sym_vec(k, width, height, &f, &r);
	return r * width + f;
}

int kifu_sq_sym_dir_(int k, int dir)
{
	/* a direction is a step: mirror it about 0 (a board of width 1) */
	int f = kifu_sq_dfile_[dir], r = kifu_sq_drank_[dir], d;

	sq_sym_vec(k, 1, 1, &f, &r);
	for (d = 0; d < 8; d++)
		if (kifu_sq_dfile_[d] == f && kifu_sq_drank_[d] == r)
			break;
	return d;
}

int kifu_sq_sym_inverse_(int k)
{
	/* the flips alone undo themselves; a swap then flips (a, b) is undone by swap then (b, a) */
	return k < 4 ? k : 4 | (k & 1) << 1 | (k >> 1 & 1);
}

/* ---- move text ---- */

int kifu_move_text_norm_(const char *in, int spaces_allowed, char *out, char *trimmed,
			size_t size)
{
	const char *end;
	size_t len = 0, i, n;
	int in_space = 0;

	while (*in && isspace((unsigned char)*in))
		in++;
	end = in + strlen(in);
	while (end > in && isspace((unsigned char)end[-1]))
		end--;
	n = (size_t)(end - in);
	if (trimmed) {
		size_t t = n < size ? n : size - 1;

		memcpy(trimmed, in, t);
		trimmed[t] = '\0';
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if (isspace(c)) {
			if (!spaces_allowed)
				return -1;
			/* Where the notation has a space, a space it is: a tab or line break is no separator. */
			if (c != ' ')
				return -2;
			in_space = 1;
			continue;
		}
		if (in_space) {
			if (len + 1 >= size)
				return -1;
			out[len++] = ' ';
			in_space = 0;
		}
		if (len + 1 >= size)
			return -1;
		out[len++] = (char)tolower(c);
	}
	out[len] = '\0';
	return (int)len;
}
