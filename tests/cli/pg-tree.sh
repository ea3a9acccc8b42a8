#!/bin/sh
# The tree's top-level fields on both backends (item 6): the
# splinter examples imported into a SQLite file and a PostgreSQL database
# give byte-identical kifu-stats tree output (json, table, csv; with and
# without --symmetric and --no-cache) from the start, after a line, and at
# the end of a game (every game ended there).
set -u
. tests/cli/lib/pg.sh
test_require sqlite3
lite=$tmp/ref.db
"$bin/kifu-import" --quiet --db "$lite" examples/splinter/ >/dev/null || fail "import into SQLite"
"$bin/kifu-import" --quiet --db "$db" examples/splinter/ >/dev/null || fail "import into PostgreSQL"
# The shortest knockout game's moves, as the plain shell reads them (the view moves).
last=$(sqlite3 "$lite" "SELECT group_concat(move, ',') FROM (SELECT move FROM moves WHERE game_id = (SELECT id FROM games WHERE variant = 'knockout' ORDER BY plies, id LIMIT 1) ORDER BY ply)")
[ -n "$last" ] || fail "no knockout game's moves in the view moves"
first=${last%%,*}
for after in "" "$first" "$last"; do
	for opt in "" --symmetric --no-cache; do
		for fmt in json table csv; do
			set -- --game splinter --variant knockout $opt tree --format "$fmt"
			[ -n "$after" ] && set -- "$@" --after "$after"
			"$bin/kifu-stats" --db "$lite" "$@" >"$tmp/a" 2>&1
			a=$?
			"$bin/kifu-stats" --db "$db" "$@" >"$tmp/b" 2>&1
			b=$?
			[ "$a" -eq 0 ] && [ "$b" -eq 0 ] && cmp -s "$tmp/a" "$tmp/b" ||
				fail "tree $* differs (exit $a and $b)"
		done
	done
done
"$bin/kifu-stats" --db "$db" --game splinter --variant knockout tree --after "$last" --format json |
	grep -q '^  "ended": [1-9]' || fail "PostgreSQL: no games ended at the end of a game"
test_done
