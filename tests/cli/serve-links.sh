#!/bin/sh
# kifu-serve's pages of issue 39, in headless Chromium over a real
# kifu-serve (tests/cli/lib/serve_links.py says what is checked): a game
# page's explorer link at a move with a nag (it once carried the glyph:
# a 404) and inside a line (it once pointed at the main line's position),
# each opening the explorer on the board shown; the explorer at glaisher's
# start, whose hundreds of moves were all in the page (460 KB), under 100
# KB with 30 rows and one "N other moves" row linking all=1. A database of
# the annotated example stream and 1,000 random glaisher games.
# tests/run: plain (Chromium and the page's script; the pages' writers run
#   under the sanitizers in serve.sh, serve-explorer.sh and export.sh)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
db=$tmp/l.db
"$bin/kifu-import" --quiet --db "$db" examples/format2/annotated.yaml >/dev/null 2>"$tmp/err" ||
	fail "import: $(cat "$tmp/err")"
ids=$("$bin/kifu-search" --db "$db" --game splay-schmidt --json |
	python3 -c 'import json, sys; print(",".join(str(h["id"]) for h in json.load(sys.stdin)))')
"$bin/kifu-play" glaisher --players random --games 1000 --seed 7 --db "$db" --quiet \
	>/dev/null 2>"$tmp/err" || fail "kifu-play glaisher: $(cat "$tmp/err")"
serve_start "$db" || test_done
check "the pages in Chromium" python3 tests/cli/lib/serve_links.py "$bin" "$db" "$serve_url" \
	"$browser" "$tmp/profile" "$ids"
serve_stop
test_done "$checks checks"
