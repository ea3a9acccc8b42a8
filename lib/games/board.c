/*
 * Board geometry and notation helpers shared by the rules engines: hex-hex
 * boards in the axial form of the spec (rows lettered from the top, cells
 * numbered from the left), square boards (files and ranks), direction names
 * and the normalisation of move text before an engine parses it.
 */
#include <ctype.h>
#include <string.h>
#include <threads.h>

#include "board.h"

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
	}
}

static void hex_build_all(void)
{
	int R;

	for (R = 1; R <= KIFU_HEX_MAX_R; R++)
		hex_build(&hex_boards[R], R);
}

const struct kifu_hex *kifu_hex_board(int R)
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

int kifu_hex_cell_parse(const struct kifu_hex *h, const char *s, size_t n)
{
	int row, num;

	if (parse_letter_number(s, n, &row, &num) < 0)
		return -1;
	if (row < 0 || row >= h->nrows || num > h->rowlen[row])
		return -1;
	return h->rowstart[row] + num - 1;
}

void kifu_hex_cell_name(const struct kifu_hex *h, int cell, char *buf)
{
	format_letter_number(buf, h->row[cell], h->num[cell]);
}

int kifu_hex_step(const struct kifu_hex *h, int cell, int dir, int k)
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

int kifu_hex_dir_parse(const char *s, size_t n)
{
	return dir_lookup(hex_dir_names, 6, s, n);
}

const char *kifu_hex_dir_name(int dir)
{
	return dir >= 0 && dir < 6 ? hex_dir_names[dir] : "?";
}

/* ---- square boards ---- */

const int kifu_sq_dfile[8] = { 0, 0, +1, -1, +1, -1, +1, -1 };
const int kifu_sq_drank[8] = { +1, -1, 0, 0, +1, +1, -1, -1 };
static const char *const sq_dir_names[8] = { "n", "s", "e", "w", "ne", "nw", "se", "sw" };

int kifu_sq_cell_parse(int width, int height, const char *s, size_t n)
{
	int file, rank;

	if (parse_letter_number(s, n, &file, &rank) < 0)
		return -1;
	if (file < 0 || file >= width || rank > height)
		return -1;
	return (rank - 1) * width + file;
}

void kifu_sq_cell_name(int width, int cell, char *buf)
{
	format_letter_number(buf, cell % width, cell / width + 1);
}

int kifu_sq_dir_parse(const char *s, size_t n)
{
	return dir_lookup(sq_dir_names, 8, s, n);
}

const char *kifu_sq_dir_name(int dir)
{
	return dir >= 0 && dir < 8 ? sq_dir_names[dir] : "?";
}

/* ---- move text ---- */

int kifu_move_text_norm(const char *in, int spaces_allowed, char *out, char *trimmed,
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
