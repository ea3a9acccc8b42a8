#!/bin/sh
# A damaged database is said to be damaged (item 8, issue 28), not
# answered from: copies of a database corrupted with python3's sqlite3 (a
# move that is no string of the game, impossible tree counts, a loss that is
# not finite, a missing game_moves row; kept sums that overflow or are
# negative, a length of -1 or 2^31-1, a score that is text, moves or hashes
# that are not one per ply, a null move, dates that are no calendar dates, a
# stored game that does not replay) make the readers exit 3 with "database
# 'PATH' is damaged: ..." and kifu-serve answer 500 and go on; --since 0000
# is no calendar date, as a record's. Issue 39: the balance's and the
# pairings' kept sums changed or emptied, stored lines the record reader
# refuses, a review's run of -7 playouts, a length of 2^31, a stored move
# that is no move or not the game's (a legal one in its place also on the
# trees that read the games: --no-cache, a filter, --symmetric, the API and
# the explorer with a filter): damaged, on the tools and kifu-serve.
# Runs from the repo root; tools in $KIFU_BIN.
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
# q SQL: the first column of the first row SQL gives on the good database
q() {
	python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$tmp/ok.db" "$1"
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

# the splinter examples and one annotated game of format 2 (its lines kept in game_lines)
awk '/^---/ { n++ } n == 1' examples/format2/annotated.yaml >"$tmp/annotated.yaml"
"$bin/kifu-import" --quiet --db "$tmp/ok.db" examples/splinter/ "$tmp/annotated.yaml" >/dev/null
"$bin/kifu-analyse" --db "$tmp/ok.db" --id 3 --playouts 20 --store >/dev/null 2>&1
# the precomputed tables filled
"$bin/kifu-stats" --db "$tmp/ok.db" --game splinter --variant knockout tree >/dev/null
"$bin/kifu-stats" --db "$tmp/ok.db" openings >/dev/null
"$bin/kifu-stats" --db "$tmp/ok.db" summary >/dev/null
for r in openings players summary balance; do
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

# ---- issue 28 ----
# the kept sums: overflowing (the tree summed them into a wrapped score), negative
corrupt treewrap "UPDATE tree_moves SET w0 = 4611686018427387904, w1 = 4611686018427387904, games = 5 WHERE game = 'splinter' AND variant = 'knockout'"
damaged treewrap kifu-stats --game splinter --variant knockout tree
check "treewrap: nothing printed" [ ! -s "$tmp/out" ]
corrupt lines "UPDATE stats_lines SET games = -2"
damaged lines kifu-stats openings
check "lines: stats_lines named" grep -q "stats_lines of line .*: games is '-2'" "$tmp/err"
corrupt outcomes "UPDATE stats_outcomes SET games = -3"
damaged outcomes kifu-stats summary
damaged outcomes kifu-stats lengths
corrupt outmax "UPDATE stats_outcomes SET games = 9223372036854775807"
damaged outmax kifu-stats summary
"$bin/kifu-stats" --db "$tmp/ok.db" players >/dev/null
corrupt splayers "UPDATE stats_players SET games = 9223372036854775807, wins = 9223372036854775807, losses = 9223372036854775807"
damaged splayers kifu-stats players
corrupt negplayers "UPDATE stats_players SET games = -3"
damaged negplayers kifu-stats players

# games.plies out of range, on every reader that lists it
g1=$(q "SELECT game FROM games WHERE id = 1")
v1=$(q "SELECT variant FROM games WHERE id = 1")
m1=$(q "SELECT json_extract(moves, '\$[0]') FROM game_moves WHERE game_id = 1")
for p in -1 -5 2147483647; do
	corrupt "plies$p" "UPDATE games SET plies = $p WHERE id = 1"
	damaged "plies$p" kifu-search
	check "plies$p: the game named" grep -q "games.plies of game 1 is '$p'" "$tmp/err"
	damaged "plies$p" kifu-stats lengths
	damaged "plies$p" kifu-stats summary
	damaged "plies$p" kifu-stats --no-cache summary
	damaged "plies$p" kifu-export --id 1 --to yaml
done

# a stored review's loss and score
corrupt negloss "UPDATE analysis_plies SET loss = -5 WHERE rowid IN (SELECT rowid FROM analysis_plies LIMIT 1)"
damaged negloss kifu-stats players
corrupt textscore "UPDATE analysis_plies SET best_score = 'x' WHERE rowid IN (SELECT rowid FROM analysis_plies LIMIT 1)"
damaged textscore kifu-export --id 3 --to json
check "textscore: the game and ply named" grep -q "analysis_plies.best_score of game 3, ply 1 is 'x'" "$tmp/err"

# moves and hashes not one per ply, a null move
corrupt nomoves "UPDATE game_moves SET moves = '[]' WHERE game_id = 1"
damaged nomoves kifu-stats --game "$g1" --variant "$v1" tree
damaged nomoves kifu-stats --no-cache --game "$g1" --variant "$v1" tree
corrupt nohashes "UPDATE game_data SET hashes = x'' WHERE game_id = 1"
damaged nohashes kifu-search --game "$g1" --variant "$v1" --after "$m1"
check "nohashes: the game named" grep -q "hashes of game 1 hold 0 positions" "$tmp/err"
damaged nohashes kifu-stats --game "$g1" --variant "$v1" tree
damaged nohashes kifu-stats --game "$g1" --variant "$v1" novelties
damaged nohashes kifu-export --id 1 --to json
corrupt twohashes "UPDATE game_data SET hashes = x'00000000000000010000000000000002' WHERE game_id = 1"
damaged twohashes kifu-search --game "$g1" --variant "$v1" --after "$m1"
corrupt nullmove "UPDATE game_moves SET moves = json_set(moves, '\$[0]', json('null')) WHERE game_id = 1"
damaged nullmove kifu-export --id 1 --to yaml
check "nullmove: nothing exported" [ ! -s "$tmp/out" ]
check "nullmove: the ply named" grep -q "game 1 has null at ply 1" "$tmp/err"

# dates that are no calendar dates: shown and sorted no more
for d in garbage 0000-00-00; do
	corrupt "date$d" "UPDATE games SET date = '$d', date_first = '$d' WHERE id = 1"
	damaged "date$d" kifu-search
	check "date$d: the date named" grep -q "games.date of game 1 is '$d'" "$tmp/err"
	damaged "date$d" kifu-export --id 1 --to pgn
done
corrupt datefirst "UPDATE games SET date_first = '1900-01-01' WHERE id = 1 AND date IS NOT NULL"
[ "$(q "SELECT count(*) FROM games WHERE id = 1 AND date IS NOT NULL")" = 1 ] &&
	damaged datefirst kifu-search

# a stored game that does not replay: the id named, nothing partial written
corrupt illegal "UPDATE game_moves SET moves = json_set(moves, '\$[0]', json_extract(moves, '\$[1]'), '\$[1]', json_extract(moves, '\$[0]')) WHERE game_id = 1"
for to in pgn yaml json text html; do
	damaged illegal kifu-export --id 1 --to "$to"
	check "illegal: --to $to: nothing on stdout" [ ! -s "$tmp/out" ]
	check "illegal: --to $to: the game named" grep -q "is damaged: game 1 does not replay as stored: ply 1: " "$tmp/err"
done

damaged illegal kifu-analyse --id 1 --playouts 10
check "illegal: kifu-analyse: the game named" grep -q "is damaged: game 1 does not replay as stored" "$tmp/err"

# one rule for dates: --since 0000 is no calendar date, as a record's
for tool in kifu-search kifu-stats kifu-export; do
	args=""
	[ "$tool" = kifu-stats ] && args=summary
	[ "$tool" = kifu-export ] && args="--to yaml"
	# shellcheck disable=SC2086
	"$bin/$tool" --db "$tmp/ok.db" --since 0000 $args >"$tmp/out" 2>"$tmp/err"
	check "$tool --since 0000: exit 2" [ $? -eq 2 ]
	check "$tool --since 0000: not a calendar date" grep -q "'0000': not a calendar date" "$tmp/err"
done
printf 'game: splinter\ndate: "0000"\nmoves: []\n' >"$tmp/d0.yaml"
"$bin/kifu-validate" "$tmp/d0.yaml" >/dev/null 2>"$tmp/err"
check "a record dated 0000: not a calendar date" grep -q "not a calendar date: '0000'" "$tmp/err"

# ---- issue 39 ----
# the balance's kept sums: more first-mover wins than games, no plies but
# legal moves, a level no SPEC names, the table emptied (its games counted
# nowhere: the report would show none of them)
corrupt fmwins "UPDATE stats_balance SET fm_wins = games + 1000"
damaged fmwins kifu-stats balance
check "fmwins: the row and value named" grep -q "stats_balance of splinter [a-z]* at level players: results of [0-9]* games" "$tmp/err"
corrupt noplies "UPDATE stats_balance SET plies = 0"
damaged noplies kifu-stats balance
check "noplies: the column named" grep -q "stats_balance.moves of splinter [a-z]* at level players (plies 0) is '[0-9]*'" "$tmp/err"
corrupt nolevel "UPDATE stats_balance SET level = 'bogus'"
damaged nolevel kifu-stats balance
check "nolevel: the level named" grep -q "level 'bogus' is no SPEC" "$tmp/err"
corrupt balempty "DELETE FROM stats_balance"
damaged balempty kifu-stats balance
damaged balempty kifu-stats --game splinter --variant knockout balance
check "balempty: the variant named" grep -q "stats_balance of splinter knockout sums 0 games, the database holds [1-9]" "$tmp/err"
"$bin/kifu-stats" --db "$tmp/balempty.db" --no-cache balance >/dev/null 2>&1
check "balempty: --no-cache counts the games (exit 0)" [ $? -eq 0 ]

# the players' pairings: emptied, or one past any count; the ratings due (fitted from them)
corrupt pairsempty "DELETE FROM stats_pairs; UPDATE stats_state SET depth = 1 WHERE name = 'players'"
damaged pairsempty kifu-stats players
check "pairsempty: stats_pairs named" grep -q "stats_pairs: player [0-9]* has 0 pairings for" "$tmp/err"
corrupt pairsmax "UPDATE stats_pairs SET games = 9223372036854775807; UPDATE stats_state SET depth = 1 WHERE name = 'players'"
damaged pairsmax kifu-stats players

# game_lines: what the record reader refuses, keys that collide, a NUL
lg=$(q "SELECT game_id FROM game_lines")
for c in "xexp|json_set(lines, '\$.7.eval.expected', 'abc')|expected score is 'abc'" \
	"rexp|json_set(lines, '\$.7.eval.expected', '1.5')|expected score is '1.5'" \
	"engine|json_set(lines, '\$.7.eval.engine', '')|engine is empty" \
	"clock|json_set(lines, '\$.16.variations[0][0].clock', '-5')|a clock is '-5'" \
	"space|'{\" 7\":' || json_extract(lines, '\$.7') || '}'|key ' 7'" \
	"zero|'{\"07\":' || json_extract(lines, '\$.7') || ',\"7\":' || json_extract(lines, '\$.14') || '}'|key '07'" \
	"plus|'{\"+7\":' || json_extract(lines, '\$.7') || '}'|key '+7'" \
	"nul|CAST(json_extract(lines, '\$.7') || char(0) || lines AS TEXT)|a NUL byte"; do
	n=${c%%|*}
	r=${c#*|}
	corrupt "lines$n" "UPDATE game_lines SET lines = ${r%|*} WHERE game_id = $lg"
	damaged "lines$n" kifu-export --id "$lg" --to yaml
	check "lines$n: nothing exported" [ ! -s "$tmp/out" ]
	check "lines$n: game_lines, the game and the value named" grep -q "game_lines of game $lg: .*${r##*|}" "$tmp/err"
done
corrupt linesnul2 "UPDATE game_lines SET lines = CAST('{}' || char(0) || lines AS TEXT) WHERE game_id = $lg"
damaged linesnul2 kifu-export --id "$lg" --to yaml

# a stored review's run as no kifu-analyse writes it
corrupt runs "UPDATE analysis_runs SET playouts = -7, plies = -1"
damaged runs kifu-export --id 3 --to json
check "runs: the value named" grep -q "analysis_runs.playouts of game 3 is '-7'" "$tmp/err"
corrupt runplies "UPDATE analysis_runs SET plies = -1"
damaged runplies kifu-export --id 3 --to json
check "runplies: the value named" grep -q "analysis_runs.plies of game 3 is '-1'" "$tmp/err"

# a length past 2^31: no table of billions, no wrapped row written
corrupt plies31 "UPDATE games SET plies = 2147483648 WHERE id = 1"
damaged plies31 kifu-stats --game "$g1" --variant "$v1" novelties
check "plies31: novelties names the game" grep -q "games.plies of game 1 is '2147483648'" "$tmp/err"
damaged plies31 kifu-stats summary
check "plies31: summary names the game" grep -q "games.plies of game 1 is '2147483648'" "$tmp/err"
check "plies31: no wrapped length kept" [ "$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM stats_outcomes WHERE plies < 0").fetchone()[0])' "$tmp/plies31.db")" = 0 ]
damaged plies31 kifu-stats balance

# a stored move no game has, and a game's moves replaced by another's (legal, not its positions)
corrupt a1 "UPDATE game_moves SET moves = json_set(moves, '\$[0]', 'a1-a1') WHERE game_id = 1"
damaged a1 kifu-stats --game "$g1" --variant "$v1" tree
check "a1: the move named" grep -q "game_data.moves of game 1 do not replay: ply 1: .*'a1-a1'" "$tmp/err"
damaged a1 kifu-stats --no-cache --game "$g1" --variant "$v1" tree
check "a1: --no-cache: the move named" grep -q "move 'a1-a1' of 1 game is not a move there" "$tmp/err"
g2=$(q "SELECT id FROM games WHERE id <> 1 AND game = '$g1' AND variant = '$v1' AND plies = (SELECT plies FROM games WHERE id = 1) ORDER BY id LIMIT 1")
corrupt swapped "UPDATE game_moves SET moves = (SELECT moves FROM game_moves WHERE game_id = $g2) WHERE game_id = 1"
damaged swapped kifu-stats --game "$g1" --variant "$v1" tree
check "swapped: the game named" grep -q "game_data.moves of game 1 do not replay as stored: ply 1 " "$tmp/err"
# the same on the trees that read the games (no kept counts): the row's move does not reach the
# position the game stored after it
for a in --no-cache "--since 2000-01-01" "--no-cache --symmetric" "--since 2000-01-01 --symmetric"; do
	damaged swapped kifu-stats $a --game "$g1" --variant "$v1" tree
	check "swapped: $a: the game and move named" grep -q "game_data.moves of game 1: move '[^']*' at [0-9a-f]* does not reach the position game_data.hashes holds after it" "$tmp/err"
done
corrupt treemove "UPDATE tree_moves SET move = 'a1-a1' WHERE move = '$m1'"
damaged treemove kifu-stats --game "$g1" --variant "$v1" tree
check "treemove: tree_moves named" grep -q "tree_moves at [0-9a-f]* of $g1 $v1: move 'a1-a1'" "$tmp/err"

# kifu-serve answers 500 on a damaged database and goes on answering
if command -v python3 >/dev/null 2>&1; then
	. tests/cli/lib/serve.sh
	if serve_start "$tmp/treewrap.db" --threads 2; then
		serve_get /explore/splinter/knockout >"$tmp/body"
		check "kifu-serve: the damaged tree is 500" [ "$(cat "$tmp/status")" = 500 ]
		serve_get "/api/tree?game=splinter&variant=knockout" >"$tmp/body"
		check "kifu-serve: the damaged tree on the API is 500" [ "$(cat "$tmp/status")" = 500 ]
		check "kifu-serve: the API says damaged" grep -q "is damaged" "$tmp/body"
		serve_get /api/stats/summary >"$tmp/body"
		check "kifu-serve: goes on answering" [ "$(cat "$tmp/status")" = 200 ]
		serve_stop
	fi
	if serve_start "$tmp/a1.db" --threads 2; then
		for p in "/api/tree?game=$g1&variant=$v1" "/explore/$g1/$v1"; do
			serve_get "$p" >"$tmp/body"
			check "kifu-serve: $p with a move no game has is 500" [ "$(cat "$tmp/status")" = 500 ]
			check "kifu-serve: $p: said damaged" grep -q "is damaged" "$tmp/body"
		done
		serve_stop
	fi
	if serve_start "$tmp/swapped.db" --threads 2; then
		for p in "/api/tree?game=$g1&variant=$v1&since=2000-01-01" \
			"/api/tree?game=$g1&variant=$v1&since=2000-01-01&symmetric=1" \
			"/explore/$g1/$v1?since=2000-01-01"; do
			serve_get "$p" >"$tmp/body"
			check "kifu-serve: $p with a legal move not the game's is 500" [ "$(cat "$tmp/status")" = 500 ]
			check "kifu-serve: $p: the game named" grep -q "is damaged: game_data.moves of game 1: " "$tmp/body"
		done
		serve_stop
	fi
	if serve_start "$tmp/balempty.db" --threads 2; then
		serve_get /api/stats/balance >"$tmp/body"
		check "kifu-serve: the emptied balance is 500" [ "$(cat "$tmp/status")" = 500 ]
		serve_stop
	fi
	if serve_start "$tmp/illegal.db" --threads 2; then
		for p in /game/1 /api/game/1; do
			serve_get "$p" >"$tmp/body"
			check "kifu-serve: $p of a game that does not replay is 500" [ "$(cat "$tmp/status")" = 500 ]
		done
		check "kifu-serve: the game named" grep -q "game 1 does not replay as stored" "$tmp/body"
		serve_get /game/2 >"$tmp/body"
		check "kifu-serve: another game's page after it" [ "$(cat "$tmp/status")" = 200 ]
		serve_stop
	fi
fi

test_done "$checks checks"
