#!/bin/sh
# A damaged database is said to be damaged (item 8), not
# answered from: copies of a database corrupted with python3's sqlite3 (a
# move that is no string of the game, impossible tree counts, a loss that is
# not finite, a missing game_moves row) make the readers exit 3 with
# "database 'PATH' is damaged: ...". Runs from the repo root; tools in
# $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
# corrupt NAME SQL: a copy of the good database, $tmp/NAME.db, changed by SQL
corrupt() {
	cp "$tmp/ok.db" "$tmp/$1.db"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA foreign_keys = OFF")
c.executescript(sys.argv[2])
c.commit()' "$tmp/$1.db" "$2"
}
# damaged NAME TOOL ARGS...: TOOL on $tmp/NAME.db exits 3 and says why
damaged() {
	name=$1
	tool=$2
	shift 2
	"$bin/$tool" --db "$tmp/$name.db" "$@" >"$tmp/out" 2>"$tmp/err"
	check "$name: $tool $*: exit 3" [ $? -eq 3 ]
	check "$name: $tool $*: said damaged" grep -q "database '$tmp/$name.db' is damaged: " "$tmp/err"
}

"$bin/kifu-import" --quiet --db "$tmp/ok.db" examples/splinter/ >/dev/null
"$bin/kifu-analyse" --db "$tmp/ok.db" --id 3 --playouts 20 --store >/dev/null 2>&1
# the precomputed tables filled
"$bin/kifu-stats" --db "$tmp/ok.db" --game splinter --variant knockout tree >/dev/null
"$bin/kifu-stats" --db "$tmp/ok.db" openings >/dev/null
for r in openings players; do
	"$bin/kifu-stats" --db "$tmp/ok.db" $r >/dev/null 2>&1
	check "the good database: $r exits 0" [ $? -eq 0 ]
done

corrupt moves "UPDATE game_moves SET moves = '[1,2,3]' WHERE game_id = 1"
damaged moves kifu-stats --no-cache openings
check "moves: the game and ply named" grep -q "game 1, ply 1: '1' is not a move of splinter" "$tmp/err"

corrupt wins "UPDATE tree_moves SET w0 = w0 + 5"
damaged wins kifu-stats --game splinter --variant knockout tree
corrupt negative "UPDATE tree_moves SET games = -1, w0 = 0, w1 = 0, draws = 0, unfinished = 0"
damaged negative kifu-stats --game splinter --variant knockout tree

corrupt loss "UPDATE analysis_plies SET loss = 1e999 WHERE rowid IN (SELECT rowid FROM analysis_plies LIMIT 1)"
damaged loss kifu-stats players

corrupt gone "DELETE FROM game_moves WHERE game_id = 2"
damaged gone kifu-export --id 2 --to yaml
check "gone: the game named" grep -q "game 2 has 0 of its [0-9]* moves" "$tmp/err"

test_done "$checks checks"
