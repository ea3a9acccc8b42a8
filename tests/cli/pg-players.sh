#!/bin/sh
# players.sh's name matching on PostgreSQL: --player NAME in another case
# (ASCII and beyond: case is folded by kifu, not by the server's lower()),
# the nearest names where none matches (LIKE's wildcards taken as letters),
# the same answers as on SQLite.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/players.sh
players_records
"$bin/kifu-import" --quiet --db "$db" "$tmp/players" >/dev/null 2>&1 || fail "import into PostgreSQL"
"$bin/kifu-import" --quiet --db "$tmp/lite.db" "$tmp/players" >/dev/null 2>&1 || fail "import into SQLite"
both() { # EXPECTED-STATUS ARGS... (kifu-search's): the same output and status on both
	_b_want=$1
	shift
	"$bin/kifu-search" --db "$db" "$@" >"$tmp/pg.out" 2>"$tmp/pg.err"
	_b_pg=$?
	"$bin/kifu-search" --db "$tmp/lite.db" "$@" >"$tmp/lite.out" 2>"$tmp/lite.err"
	_b_lite=$?
	[ $_b_pg -eq "$_b_want" ] && [ $_b_lite -eq "$_b_want" ] ||
		{ echo "exit $_b_pg (PostgreSQL), $_b_lite (SQLite), not $_b_want: $(cat "$tmp/pg.err")" >&2; return 1; }
	test_cmp "$tmp/lite.out" "$tmp/pg.out" && test_cmp "$tmp/lite.err" "$tmp/pg.err"
}
check "another case" both 0 --player 'ann LEE' --csv
check "another case beyond ASCII" both 0 --player 'éMILE zOLA' --csv
check "... and it is Émile Zola's game" grep -q 'Émile Zola' "$tmp/pg.out"
check "the nearest names" both 1 --player 'Ann Le'
check "... said" grep -qF "no player 'Ann Le' (did you mean 'Ann Lee' or 'Ann Leigh'?)" "$tmp/pg.err"
check "a typo beyond ASCII" both 1 --player 'Emile Zola'
check "... said" grep -qF "(did you mean 'Émile Zola'?)" "$tmp/pg.err"
check "LIKE's wildcards" both 1 --player 'Ann_Lee'
check "... not a wildcard" grep -qF "no player 'Ann_Lee' (did you mean 'Ann Lee'?)" "$tmp/pg.err"
check "a part" both 1 --player '%lee'
test_done "$checks checks"
