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
test_done
