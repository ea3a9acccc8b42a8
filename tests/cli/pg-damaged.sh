#!/bin/sh
# A damaged PostgreSQL database is said to be damaged (issue 28), as a
# SQLite file is (store-damaged.sh): copies of a database of the splinter
# examples (CREATE DATABASE ... TEMPLATE), each changed by SQL as the issue
# changed them (kept sums negative or past 2^63, games.plies -5 and 2^31-1,
# game_moves.hashes '[1,2]' for a game of more plies, moves '[]', a JSON null
# move, a date 'garbage', a negative loss, an empty kifu_schema), make the readers exit 3 with
# "database '...' is damaged: ..." where they crashed (openings), wrapped
# (summary) or answered silently; kifu-import on the empty kifu_schema says
# damaged, not 'relation "kifu_schema" already exists'. Issue 39: the
# balance's and the pairings' kept sums changed or emptied, stored lines the
# record reader refuses, a review's run of -7 playouts, a length of 2^31 - 1
# for novelties, a stored move that is no move or not the game's (a legal one
# in its place also on --no-cache, filtered and --symmetric trees): damaged.
set -u
. tests/cli/lib/pg.sh
awk '/^---/ { n++ } n == 1' examples/format2/annotated.yaml >"$tmp/annotated.yaml"
"$bin/kifu-import" --quiet --db "$db" examples/splinter/ "$tmp/annotated.yaml" >/dev/null ||
	fail "import into PostgreSQL"
"$bin/kifu-analyse" --db "$db" --id 3 --playouts 20 --store >/dev/null 2>&1 || fail "store a review"
# the kept tables filled
for r in summary openings players balance; do
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

# ---- issue 39 (store-damaged.sh has the same on SQLite) ----
corrupt fmwins "UPDATE stats_balance SET fm_wins = games + 1000"
damaged kifu-stats balance
check "fmwins: the row named" grep -q "stats_balance of splinter [a-z]* at level players: results of" "$tmp/err"
corrupt noplies "UPDATE stats_balance SET plies = 0"
damaged kifu-stats balance
corrupt nolevel "UPDATE stats_balance SET level = 'bogus'"
damaged kifu-stats balance
check "nolevel: the level named" grep -q "level 'bogus' is no SPEC" "$tmp/err"
corrupt balempty "DELETE FROM stats_balance"
damaged kifu-stats balance
check "balempty: the variant named" grep -q "stats_balance of splinter [a-z]* sums 0 games, the database holds [1-9]" "$tmp/err"
corrupt pairsempty "DELETE FROM stats_pairs; UPDATE stats_state SET depth = 1 WHERE name = 'players'"
damaged kifu-stats players
check "pairsempty: stats_pairs named" grep -q "stats_pairs: player [0-9]* has 0 pairings for" "$tmp/err"
corrupt pairsmax "UPDATE stats_pairs SET games = 9223372036854775807; UPDATE stats_state SET depth = 1 WHERE name = 'players'"
damaged kifu-stats players
lg=$(q "SELECT game_id FROM game_lines")
# (a NUL cannot be stored in PostgreSQL's text)
for c in "xexp|jsonb_set(lines::jsonb, '{7,eval,expected}', '\"abc\"')::text|expected score is 'abc'" \
	"rexp|jsonb_set(lines::jsonb, '{7,eval,expected}', '\"1.5\"')::text|expected score is '1.5'" \
	"engine|jsonb_set(lines::jsonb, '{7,eval,engine}', '\"\"')::text|engine is empty" \
	"clock|jsonb_set(lines::jsonb, '{16,variations,0,0,clock}', '\"-5\"')::text|a clock is '-5'" \
	"space|'{\" 7\":' || (lines::jsonb -> '7')::text || '}'|key ' 7'" \
	"zero|'{\"07\":' || (lines::jsonb -> '7')::text || ',\"7\":' || (lines::jsonb -> '14')::text || '}'|key '07'" \
	"plus|'{\"+7\":' || (lines::jsonb -> '7')::text || '}'|key '+7'"; do
	r=${c#*|}
	corrupt "lines${c%%|*}" "UPDATE game_lines SET lines = ${r%|*} WHERE game_id = $lg"
	damaged kifu-export --id "$lg" --to yaml
	check "$name: nothing exported" [ ! -s "$tmp/out" ]
	check "$name: game_lines, the game and the value named" grep -q "game_lines of game $lg: .*${r##*|}" "$tmp/err"
done
corrupt runs "UPDATE analysis_runs SET playouts = -7, plies = -1"
damaged kifu-export --id 3 --to json
check "runs: the value named" grep -q "analysis_runs.playouts of game 3 is '-7'" "$tmp/err"
corrupt runplies "UPDATE analysis_runs SET plies = -1"
damaged kifu-export --id 3 --to json
# (games.plies is a 32-bit integer here: 2^31 - 1 is the longest it holds)
corrupt pliesmax "UPDATE games SET plies = 2147483647 WHERE id = 1"
damaged kifu-stats --game splinter --variant "$g1" novelties
check "pliesmax: novelties names the game" grep -q "games.plies of game 1 is '2147483647'" "$tmp/err"
corrupt a1 "UPDATE game_moves SET moves = jsonb_set(moves, '{0}', '\"a1-a1\"') WHERE game_id = 1"
damaged kifu-stats --game splinter --variant "$g1" tree
check "a1: the move named" grep -q "game_data.moves of game 1 do not replay: ply 1: .*'a1-a1'" "$tmp/err"
damaged kifu-stats --no-cache --game splinter --variant "$g1" tree
check "a1: --no-cache: the move named" grep -q "move 'a1-a1' of 1 game is not a move there" "$tmp/err"
g2=$(q "SELECT id FROM games WHERE id <> 1 AND variant = '$g1' AND game = 'splinter' AND plies = (SELECT plies FROM games WHERE id = 1) ORDER BY id LIMIT 1")
corrupt swapped "UPDATE game_moves SET moves = (SELECT moves FROM game_moves WHERE game_id = $g2) WHERE game_id = 1"
damaged kifu-stats --game splinter --variant "$g1" tree
check "swapped: the game named" grep -q "game_data.moves of game 1 do not replay as stored: ply 1 " "$tmp/err"
# the same on the trees that read the games (no kept counts)
for a in --no-cache "--since 2000-01-01" "--no-cache --symmetric" "--since 2000-01-01 --symmetric"; do
	damaged kifu-stats $a --game splinter --variant "$g1" tree
	check "swapped: $a: the game and move named" grep -q "game_data.moves of game 1: move '[^']*' at [0-9a-f]* does not reach the position game_data.hashes holds after it" "$tmp/err"
done
corrupt treemove "UPDATE tree_moves SET move = 'a1-a1' WHERE move = '$m1'"
damaged kifu-stats --game splinter --variant "$g1" tree
check "treemove: tree_moves named" grep -q "tree_moves at [0-9a-f]* of splinter $g1: move 'a1-a1'" "$tmp/err"

corrupt noschema "DELETE FROM kifu_schema"
damaged kifu-stats summary
damaged kifu-import examples/splinter/
check "noschema: kifu-import does not try to create the tables" sh -c "! grep -q 'already exists' '$tmp/err'"
test_done "$checks checks"
