#!/bin/sh
# kifu-serve's pages as users of the lichess explorer, SCID and Datasette
# expect them (issue 29), in headless Chromium over a real kifu-serve
# (tests/cli/lib/serve_explorer.py says what is checked): the explorer's
# move table capped at 30 rows with shares and one row linking the rest
# (all=1), every move shown also a link on the board (clicked), min_games
# and all on the page, the games listed opening at the explored ply; a
# game's page linking its players and the explorer at the ply shown, and a
# reviewed game's marks
# with the engine's move as text and on the board, and each side's counts
# and mean loss; a player's view (as=SIDE, kifu-stats/kifu-search --as) with
# the bars as that player's results, the player page's games as win, draw
# or loss; data out (JSON, CSV, pages of /api/search, /games); numbers for
# people and errors that lead somewhere. A database of random games
# of glaisher (more than 30 first moves) and splay-schmidt (a placement
# game: each move's link on the cell it places on). Screenshots go to
# tests/out/serve-explorer-*.png.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
out=tests/out
mkdir -p "$out"
db=$tmp/r.db
"$bin/kifu-play" glaisher --players random --games 150 --seed 7 --db "$db" --quiet \
	>/dev/null 2>"$tmp/err" || fail "kifu-play glaisher: $(cat "$tmp/err")"
"$bin/kifu-play" splay-schmidt --players random --games 60 --seed 8 --db "$db" --quiet \
	>/dev/null 2>"$tmp/err" || fail "kifu-play splay-schmidt: $(cat "$tmp/err")"
# A thousand games of one game and variant: counts written for people (1,000).
"$bin/kifu-play" splinter --variant knockout --players random --games 1000 --seed 10 --db "$db" \
	--quiet >/dev/null 2>"$tmp/err" || fail "kifu-play splinter: $(cat "$tmp/err")"
# Two players who change sides each game, for a player's view (--as).
"$bin/kifu-play" splay-schmidt --players random,mcts:2 --games 40 --seed 9 --db "$db" --quiet \
	>/dev/null 2>"$tmp/err" || fail "kifu-play random,mcts:2: $(cat "$tmp/err")"
# A game where the second side moved first: its page has no explorer link (the explorer starts with the first).
"$bin/kifu-play" glaisher --first yellow --players random --games 1 --seed 11 --db "$db" --quiet \
	>/dev/null 2>"$tmp/err" || fail "kifu-play --first yellow: $(cat "$tmp/err")"
yid=$("$bin/kifu-search" --db "$db" --game glaisher --json |
	python3 -c 'import json, sys; print(max(h["id"] for h in json.load(sys.stdin)))')
# A stored review (few playouts: the page is under test) of the longest splay-schmidt game.
rid=$("$bin/kifu-search" --db "$db" --game splay-schmidt --json |
	python3 -c 'import json, sys; print(max(json.load(sys.stdin), key=lambda g: (g["plies"], -g["id"]))["id"])')
"$bin/kifu-analyse" --db "$db" --id "$rid" --playouts 60 --threads 1 --store --to json \
	-o "$tmp/review.json" 2>"$tmp/err" || fail "kifu-analyse --store: $(cat "$tmp/err")"
# kifu-search --limit --offset: bounds (exit 2), an offset past the end lists nothing (exit 0).
for bad in "--limit 0" "--limit x" "--offset -1"; do
	# shellcheck disable=SC2086
	"$bin/kifu-search" --db "$db" $bad --json >/dev/null 2>&1
	code=$?
	check "kifu-search $bad: exit $code, not 2" test "$code" -eq 2
done
check "kifu-search --offset past the end: not [] (exit 0)" \
	test "$("$bin/kifu-search" --db "$db" --offset 100000 --json)" = "[]"
serve_start "$db" || test_done
serve_get "/game/$yid" >"$tmp/yellow.html"
check "game $yid (yellow first): an explorer link" test "$(grep -c 'id="to-explorer"' "$tmp/yellow.html")" -eq 0
check "game $yid (yellow first): no players' links" grep -q 'href="/player/' "$tmp/yellow.html"
check "the pages in Chromium" python3 tests/cli/lib/serve_explorer.py "$bin" "$db" "$serve_url" \
	"$browser" "$tmp/profile" "$out" "$rid" "$tmp/review.json"
serve_stop
test_done "$checks checks; screenshots in $out/serve-explorer-*.png"
