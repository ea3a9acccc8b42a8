#!/bin/sh
# kifu-stats balance on PostgreSQL (issue 33): the fixture of balance.sh
# (tests/cli/lib/balance-fixture.sh: mirror games, other players, stored
# reviews) built by the same commands into a SQLite file and into a
# PostgreSQL database gives byte-identical reports in every format, the
# chart included, with and without a filter, and --level selects the same
# games on both, those the report counts. balance.sh checks the figures
# themselves against a hand computation on SQLite.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/balance-fixture.sh

check "the fixture is built in SQLite" balance_fixture "$tmp/ref.db"
check "the fixture is built in PostgreSQL" balance_fixture "$db"
for args in "balance" "--format csv balance" "--format json balance" \
	    "--game splay-schmidt --format json balance" "--player Ann --format csv balance"; do
	# shellcheck disable=SC2086 # the arguments are words on purpose
	"$bin/kifu-stats" --db "$tmp/ref.db" $args --svg "$tmp/lite.svg" >"$tmp/lite.out" 2>&1
	lite=$?
	# shellcheck disable=SC2086
	"$bin/kifu-stats" --db "$db" $args --svg "$tmp/pg.svg" >"$tmp/pg.out" 2>&1
	pg=$?
	check "$args: both succeed" test "$lite" -eq 0 -a "$pg" -eq 0
	check "$args: the same output" test_cmp "$tmp/lite.out" "$tmp/pg.out"
	check "$args: the same chart" test_cmp "$tmp/lite.svg" "$tmp/pg.svg"
done
# kifu-play --levels --review into either backend: the same games, reviews and report.
for d in "$tmp/ref.db" "$db"; do
	check "kifu-play --levels --review into $d" "$bin/kifu-play" splinter --levels random,mcts:4 \
		--games 2 --max-plies 6 --seed 11 --review --quiet --db "$d"
done
"$bin/kifu-stats" --db "$tmp/ref.db" --format csv --game splinter balance >"$tmp/lite.csv"
"$bin/kifu-stats" --db "$db" --format csv --game splinter balance >"$tmp/pg.csv"
check "--review: the same report" test_cmp "$tmp/lite.csv" "$tmp/pg.csv"
check "--review: every game reviewed" test "$(cut -d, -f3,4,11 "$tmp/pg.csv" | tr -d '\r' |
	grep -c '^[a-z:0-9]*,2,2$')" -eq 2

# The filter level= (kifu_store_spec_length's grammar in SQL): the same games on both backends, and
# on each the games the report counts at that level.
for level in random mcts:8 players engine; do
	"$bin/kifu-search" --db "$tmp/ref.db" --level "$level" --json >"$tmp/lite.json"
	"$bin/kifu-search" --db "$db" --level "$level" --json >"$tmp/pg.json"
	check "--level $level: the same games" test_cmp "$tmp/lite.json" "$tmp/pg.json"
	"$bin/kifu-stats" --db "$db" --format csv --level "$level" balance | tr -d '\r' |
		awk -F, 'NR > 1 { n += $4 } END { print n + 0 }' >"$tmp/counted"
	check "--level $level: the games balance counts at $level" test "$(grep -c '"id"' "$tmp/pg.json")" \
		-eq "$(cat "$tmp/counted")"
done

# Ann's games: one against Bob (players), one against a SPEC player (left out).
check "the filtered report has its row" grep -q '^splay-schmidt,standard,players,1,' "$tmp/pg.out"
test_done "$checks checks"
