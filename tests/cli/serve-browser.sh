#!/bin/sh
# kifu-serve's pages in headless Chromium, driven through the DevTools
# protocol (tests/cli/lib/serve_browser.py): the explorer of every game and
# variant clicked down four plies (tables, counts and boards equal to
# kifu-stats tree and the engine's picture of the position), the back
# button, the breadcrumb, the symmetric switch, a player filter, a game's
# replay running under the server's Content-Security-Policy, a reviewed
# game's chart and marks (those of kifu-analyse --store's review), and a player
# called "<script>alert(1)</script> ..." shown as text on every page.
# Screenshots of each page go to tests/out/serve-*.png for people to look at.
# tests/run: early (it is long)
# tests/run: plain (Chromium's rendering; the server's pages run under the
#   sanitizers in serve.sh, serve-explorer.sh and the serve-*.sh tests)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
out=tests/out
mkdir -p "$out"
db=$tmp/ex.db
evil='<script>alert(1)</script> &amp; "q"'
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
sed -e "s|^  white: .*|  white: {name: '<script>alert(1)</script> \&amp; \"q\"', rating: 1638}|" \
	-e "s|^date: .*|date: '2026-11-25'|" examples/splay-schmidt/splay-schmidt-standard-01.yaml >"$tmp/evil.yaml"
"$bin/kifu-import" --quiet --db "$db" "$tmp/evil.yaml" >/dev/null 2>&1 || fail "import a hostile name"
# A stored review (few playouts: the page is under test, not the engine) for the replay's chart.
rid=$("$bin/kifu-search" --db "$db" --game glaisher --variant standard --json |
	python3 -c 'import json, sys; h = json.load(sys.stdin); print(min(h, key=lambda g: (g["plies"], g["id"]))["id"])')
"$bin/kifu-analyse" --db "$db" --id "$rid" --playouts 40 --threads 1 --store --to json \
	-o "$tmp/review.json" 2>"$tmp/err" || fail "kifu-analyse --store: $(cat "$tmp/err")"
serve_start "$db" || test_done
check "the pages in Chromium" python3 tests/cli/lib/serve_browser.py "$bin" "$db" "$serve_url" \
	"$browser" "$tmp/profile" "$out" "$evil" "$rid" "$tmp/review.json"
serve_stop
test_done "$checks checks; screenshots in $out/serve-*.png"
