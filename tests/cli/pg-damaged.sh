#!/bin/sh
# A damaged PostgreSQL database is said to be damaged (issue 28), as a
# SQLite file is (store-damaged.sh): copies of a database of the splinter
# examples (CREATE DATABASE ... TEMPLATE), each changed by SQL as the issue
# changed them (kept sums negative or past 2^63, games.plies -5 and 2^31-1,
# game_moves.hashes '[1,2]' for a game of more plies, moves '[]', a JSON null
# move, a date 'garbage', a negative loss, an empty kifu_schema), make the readers exit 3 with
# "database '...' is damaged: ..." where they crashed (openings), wrapped
# (summary) or answered silently; kifu-import on the empty kifu_schema says
# damaged, not 'relation "kifu_schema" already exists'.
set -u
. tests/cli/lib/pg.sh
"$bin/kifu-import" --quiet --db "$db" examples/splinter/ >/dev/null || fail "import into PostgreSQL"
"$bin/kifu-analyse" --db "$db" --id 3 --playouts 20 --store >/dev/null 2>&1 || fail "store a review"
# the kept tables filled
for r in summary openings players; do
	"$bin/kifu-stats" --db "$db" $r >/dev/null 2>&1
	check "the good database: $r exits 0" [ $? -eq 0 ]
done
"$bin/kifu-stats" --db "$db" --game splinter --variant knockout tree >/dev/null 2>&1
check "the good database: tree exits 0" [ $? -eq 0 ]
q() {
	pg_psql kifu -c "$1"
}
g1=$(q "SELECT variant FROM games WHERE id = 1")
m1=$(q "SELECT moves->>0 FROM game_moves WHERE game_id = 1")
n=0
# corrupt NAME SQL: a copy of the good database changed by SQL; its URI in $cdb
corrupt() {
	n=$((n + 1))
	cdb=$(pg_createdb "damaged$n" "TEMPLATE \"$(pg_dbname kifu)\"") || fail "copy the database"
	pg_psql "damaged$n" -c "$2" >/dev/null || fail "$1: $2"
	name=$1
}
# damaged TOOL ARGS...: TOOL on the copy exits 3 and says why
damaged() {
	tool=$1
	shift
	"$bin/$tool" --db "$cdb" "$@" >"$tmp/out" 2>"$tmp/err"
	check "$name: $tool $*: exit 3" [ $? -eq 3 ]
	check "$name: $tool $*: said damaged" grep -q "is damaged: " "$tmp/err"
}

corrupt treewrap "UPDATE tree_moves SET w0 = 4611686018427387904, w1 = 4611686018427387904, games = 5 WHERE game = 'splinter' AND variant = 'knockout'"
damaged kifu-stats --game splinter --variant knockout tree
corrupt lines "UPDATE stats_lines SET games = -2"
damaged kifu-stats openings
corrupt outcomes "UPDATE stats_outcomes SET games = -3"
damaged kifu-stats summary
corrupt outmax "UPDATE stats_outcomes SET games = 9223372036854775807"
damaged kifu-stats summary
corrupt splayers "UPDATE stats_players SET games = -3"
damaged kifu-stats players
for p in -5 2147483647; do
	corrupt "plies$p" "UPDATE games SET plies = $p WHERE id = 1"
	damaged kifu-search
	damaged kifu-stats lengths
	damaged kifu-stats summary
done
corrupt hashes "UPDATE game_moves SET hashes = '[1,2]' WHERE game_id = 1"
damaged kifu-search --game splinter --variant "$g1" --after "$m1"
check "hashes: the game named" grep -q "hashes of game 1 hold 2 positions" "$tmp/err"
corrupt nullmove "UPDATE game_moves SET moves = jsonb_set(moves, '{0}', 'null') WHERE game_id = 1"
damaged kifu-export --id 1 --to yaml
check "nullmove: nothing exported" [ ! -s "$tmp/out" ]
corrupt nomoves "UPDATE game_moves SET moves = '[]' WHERE game_id = 1"
damaged kifu-stats --game splinter --variant "$g1" tree
corrupt date "UPDATE games SET date = 'garbage' WHERE id = 1"
damaged kifu-search
damaged kifu-export --id 1 --to pgn
check "date: nothing exported" [ ! -s "$tmp/out" ]
corrupt negloss "UPDATE analysis_plies SET loss = -5 WHERE ply = 1"
damaged kifu-stats players
corrupt noschema "DELETE FROM kifu_schema"
damaged kifu-stats summary
damaged kifu-import examples/splinter/
check "noschema: kifu-import does not try to create the tables" sh -c "! grep -q 'already exists' '$tmp/err'"
test_done "$checks checks"
