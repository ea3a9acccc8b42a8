#!/bin/sh
# kifu-serve on SQLite: a server started on port 0 over a database of the
# examples answers the JSON API exactly as the tools answer the same
# question (tests/cli/lib/serve_api.py: trees and searches down the most
# played lines of every game and variant, with filters; every report; games
# by id, a stored review's json that of kifu-analyse; a player's lines as
# each side (tests/cli/lib/serve_player.py), the explorer's move orders
# (serve_orders.py); bad parameters with the tools' messages, did-you-mean included);
# hostile requests get 400/404/405/414/431 and the server still answers
# after each and beside 500 half-open connections
# (tests/cli/lib/serve_hostile.py). It never writes: the database file is
# the same bytes afterwards, a missing one is not created. It stops on
# SIGTERM and SIGINT with status 0. /balance is kifu-stats balance's table
# and chart, its explorer links filtered to each level's games
# (tests/cli/lib/serve_balance.py).
# tests/run: early (it is long)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
serve_review "$db"
# kifu-export's page of a stored game with a review is kifu-analyse's page of that review
# (the run serve_review keeps for its first game: mcts:40, seed 3)
rid=${serve_reviewed#--reviewed=}
rid=${rid%%:*}
"$bin/kifu-export" --db "$db" --id "$rid" --to html --ply 0 >"$tmp/export.html" 2>"$tmp/err"
"$bin/kifu-analyse" --db "$db" --id "$rid" --engine mcts:40 --seed 3 --threads 1 --to html \
	>"$tmp/analyse.html" 2>>"$tmp/err"
check "kifu-export --to html of a reviewed game: kifu-analyse's page" cmp "$tmp/export.html" "$tmp/analyse.html"
# (the longest game: serve_review reviewed the shortest)
long=$("$bin/kifu-search" --db "$db" --json | python3 -c '
import json, sys
print(max(json.load(sys.stdin), key=lambda h: (h["plies"], h["id"]))["id"])')
"$bin/kifu-export" --db "$db" --id "$long" --to html >"$tmp/export.html" 2>"$tmp/err"
check "kifu-export --to html of a game without a review: no chart" \
	sh -c '! grep -q "<svg id=\"chart\"" "$1"' sh "$tmp/export.html"
serve_player_games "$db"
serve_transposed_games "$db"
sum_before=$(cat "$db" "$db-wal" 2>/dev/null | cksum)

serve_start "$db" --threads 3 || test_done
check "the server prints where it listens" grep -q "^serving $db at http://127.0.0.1:[0-9]*/\$" "$tmp/serve.out"
# The precomputed tables are behind after an import: a server that wrote would bring them up to date.
for q in /api/stats/summary /api/stats/players /api/stats/openings /api/stats/lengths \
	"/api/tree?game=glaisher&variant=standard"; do
	serve_get "$q" >/dev/null
	check "$q: 200" grep -q '^200$' "$tmp/status"
done
[ "$(cat "$db" "$db-wal" 2>/dev/null | cksum)" = "$sum_before" ] || fail "the database changed while served"
# (the tools compared with below keep their tables: the file changes from here on)
# shellcheck disable=SC2086
check "the API equals the tools' json" python3 tests/cli/lib/serve_api.py "$bin" "$db" "$serve_url" \
	$serve_reviewed
serve_get /api/stats/players >"$tmp/players.json"
for o in "g4,h4,g6" "g6,h4,g4 symmetric" "g4"; do
	# shellcheck disable=SC2086
	check "the explorer's move orders after $o" python3 tests/cli/lib/serve_orders.py "$bin" "$db" \
		"$serve_url" splay-schmidt standard $o
done
check "a player's lines as each side" python3 tests/cli/lib/serve_player.py "$bin" "$db" "$serve_url" \
	"Lines Tester" "Yuki Sato" "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["rows"][0]["player"])' \
	<"$tmp/players.json")"
port=$(echo "$serve_url" | sed 's/.*:\([0-9]*\)\/$/\1/')
check "hostile requests" python3 tests/cli/lib/serve_hostile.py "$port"
check "one log line per request" grep -q '^GET /api/tree 200 ' "$tmp/serve.log"
serve_stop

# /balance (tests/cli/lib/serve_balance.py): kifu-stats balance's fixture (mirror games at two
# levels, mixed, other players, four sides, stored reviews) and a game of a hostile player name.
. tests/cli/lib/balance-fixture.sh
hostile='<script>alert("kifu")</script> & '"'"'co'
balance_fixture "$tmp/balance.db" || fail "the balance fixture"
printf 'game: glaisher\nplayers: {red: %s, yellow: Bob}\nmoves: []\nresult: unfinished\n' \
	"$(printf '%s' "$hostile" | python3 -c 'import json, sys; print(json.dumps(sys.stdin.read()))')" \
	>"$tmp/hostile.yaml"
"$bin/kifu-import" --db "$tmp/balance.db" --quiet "$tmp/hostile.yaml" || fail "import $tmp/hostile.yaml"
serve_start "$tmp/balance.db" || test_done
check "/balance is kifu-stats balance" python3 tests/cli/lib/serve_balance.py "$bin" \
	"$tmp/balance.db" "$serve_url" "$hostile"
serve_stop

# SIGINT too; --quiet logs nothing.
: >"$tmp/serve.log"
serve_start "$db" --quiet || test_done
serve_get /api/stats/summary >/dev/null
kill -INT "$serve_pid"
wait "$serve_pid"
check "SIGINT stops it with status 0" [ $? -eq 0 ]
serve_pids=""
check "--quiet logs no request" [ ! -s "$tmp/serve.log" ]

# A missing database is an error (3), never created.
"$bin/kifu-serve" --db "$tmp/none.db" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err"
check "a missing database: status 3" [ $? -eq 3 ]
check "a missing database: said" grep -q "no database at '$tmp/none.db'" "$tmp/err"
check "a missing database: not created" [ ! -e "$tmp/none.db" ]
"$bin/kifu-serve" --db "$db" --listen nowhere >/dev/null 2>"$tmp/err"
check "a bad --listen: status 2" [ $? -eq 2 ]
"$bin/kifu-serve" --db "$db" --listen 300.1.2.3:0 >/dev/null 2>"$tmp/err"
check "an address that is not one: status 2" [ $? -eq 2 ]
test_done "$checks checks"
