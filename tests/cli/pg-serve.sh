#!/bin/sh
# kifu-serve on PostgreSQL: the examples imported into the PostgreSQL
# tests' server, served, and every answer of the JSON API compared with the
# tools' json over the same database (stored reviews included;
# tests/cli/lib/serve_api.py), bad parameters included, and a player's
# lines as each side (serve_player.py) and the explorer's move orders
# (serve_orders.py); its sessions are read-only (a write through them
# fails), and it stops on SIGTERM with status 0.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/serve.sh
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
serve_review "$db"
serve_player_games "$db"
serve_transposed_games "$db"
serve_start "$db" --threads 2 || test_done
# shellcheck disable=SC2086
check "the API equals the tools' json on PostgreSQL" python3 tests/cli/lib/serve_api.py "$bin" "$db" \
	"$serve_url" $serve_reviewed
for o in "g4,h4,g6" "g6,h4,g4 symmetric" "g4"; do
	# shellcheck disable=SC2086
	check "the explorer's move orders after $o on PostgreSQL" python3 tests/cli/lib/serve_orders.py "$bin" "$db" \
		"$serve_url" splay-schmidt standard $o
done
check "a player's lines as each side on PostgreSQL" python3 tests/cli/lib/serve_player.py "$bin" "$db" \
	"$serve_url" "Lines Tester" "Yuki Sato"
serve_stop
test_done "$checks checks"
