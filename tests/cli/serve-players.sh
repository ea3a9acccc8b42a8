#!/bin/sh
# kifu-serve's players pages in headless Chromium (tests/cli/lib/serve_players.py):
# the search box on / and /players (any part of the name, any case), the
# order by games and rating, the pages, the JSON and CSV links, each
# player's rating per game and variant beside the all-games one, a game and
# variant chosen, /player/ann%20lee followed to Ann Lee's page, its ratings
# per game and variant and its sides in the fixed order, filtered by game
# and variant. A screenshot of /players goes to tests/out/serve-players.png.
# tests/run: plain (Chromium's rendering; the pages' code runs under the
#   sanitizers in players.sh)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
. tests/cli/lib/players.sh
out=tests/out
mkdir -p "$out"
db=$tmp/players.db
players_fixture "$db"
serve_start "$db" || test_done
check "the players pages in Chromium" python3 tests/cli/lib/serve_players.py "$bin" "$db" \
	"$serve_url" "$browser" "$tmp/profile" "$out"
serve_stop
test_done "$checks checks; a screenshot in $out/serve-players.png"
