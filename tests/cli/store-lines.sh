#!/bin/sh
# Format 2 in a SQLite store (schema 10): the lines, nags and evals of
# examples/format2's games are kept with them and exported back unchanged,
# and every report equals that of the same games without them
# (tests/cli/lib/store_lines.sh).
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/store_lines.sh
store_lines_check "$tmp/a.db" "$tmp/b.db"
check "game_lines: one row per annotated game" \
	[ "$(sqlite3 "$tmp/a.db" 'SELECT count(*) FROM game_lines')" = 70 ]
check "none for the plain games" [ "$(sqlite3 "$tmp/b.db" 'SELECT count(*) FROM game_lines')" = 0 ]
# --update-annotations changes the annotations only: every other table of B is as it was
tables() {
	for t in games sides players game_moves tags figures positions_hash; do
		sqlite3 "$1" "SELECT * FROM $t ORDER BY 1, 2"
	done
}
tables "$tmp/b.db" >"$tmp/tables-before"
store_lines_update "$tmp/a.db" "$tmp/b.db" "$tmp/c.db"
check "--update-annotations of the plain games: no game_lines row left" \
	[ "$(sqlite3 "$tmp/b.db" 'SELECT count(*) FROM game_lines')" = 0 ]
tables "$tmp/b.db" >"$tmp/tables-after"
check "--update-annotations: games, sides, moves... unchanged" cmp -s "$tmp/tables-before" "$tmp/tables-after"
test_done
