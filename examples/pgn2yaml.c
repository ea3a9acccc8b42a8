/*
 * A program over libkifu, as a user of the library writes one: reads PGN
 * (a file, or standard input) and prints every valid game as canonical
 * kifu YAML, problems on stderr as FILE:LINE:COL: error: ....
 *
 *     cc pgn2yaml.c $(pkg-config --cflags --libs kifu) -o pgn2yaml
 *     ./pgn2yaml games.pgn > games.yaml
 *
 * The format is taken from the registry by name, so the same program reads
 * apgr or csv with another name (or kifu_format_by_name on the file name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kifu/format.h>
#include <kifu/record.h>

int main(int argc, char **argv)
{
	const struct kifu_format *pgn = kifu_format_find(argc > 2 ? argv[2] : "pgn");
	const char *name = argc > 1 && strcmp(argv[1], "-") ? argv[1] : "<stdin>";
	FILE *fp = argc > 1 && strcmp(argv[1], "-") ? fopen(argv[1], "rb") : stdin;
	struct kifu_diags diags = KIFU_DIAGS_INIT;
	struct kifu_replay replay = KIFU_REPLAY_INIT;
	struct kifu_buf out = KIFU_BUF_INIT;
	struct kifu_source src;
	struct kifu_record *rec;
	struct kifu_error err;
	void *reader = NULL;
	int ret, status = 0;
	size_t i;

	kifu_error_clear(&err);
	if (!pgn || !fp) {
		fprintf(stderr, "pgn2yaml: cannot open '%s'\n", name);
		return 3;
	}
	kifu_source_from_fp(&src, fp, name);
	if (pgn->open(&reader, &src, &err) < 0) {
		fprintf(stderr, "pgn2yaml: %s\n", err.message);
		return 3;
	}
	while ((ret = pgn->next(&rec, &diags, reader, &err)) > 0) {
		if (kifu_record_validate(&replay, &diags, rec, KIFU_VALIDATE_TEXT, &err) < 0) {
			kifu_record_free(rec);
			ret = err.code;
			break;
		}
		for (i = 0; i < diags.n; i++)
			fprintf(stderr, "%s:%d:%d: %s: %s\n", name, diags.v[i].line, diags.v[i].col,
				diags.v[i].severity == KIFU_DIAG_ERROR ? "error" : "warning",
				diags.v[i].message);
		if (diags.errors)
			status = 1;
		else if (kifu_record_write(&out, rec, &replay, &err) < 0)
			ret = err.code;
		kifu_diags_reset(&diags);
		kifu_record_free(rec);
		fwrite(out.data, 1, out.len, stdout);
		kifu_buf_reset(&out);
		if (ret < 0)
			break;
	}
	if (ret < 0) {
		fprintf(stderr, "pgn2yaml: %s\n", err.message);
		status = 3;
	}
	pgn->close(reader);
	kifu_buf_release(&out);
	kifu_diags_release(&diags);
	kifu_replay_release(&replay);
	if (fp != stdin)
		fclose(fp);
	return fflush(stdout) == 0 ? status : 3;
}
