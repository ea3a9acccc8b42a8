#!/bin/sh
# Players found by any spelling, as a user of the tools meets them (CLI.md's
# FILTERS): --player NAME matches the stored name exactly, else the stored
# name equal to it without regard to case (the same games and reports as the
# stored spelling), else exits 1 with "no player 'NAME'" and up to three
# nearest stored names, in every tool that takes FILTERS (kifu-stats,
# kifu-search, kifu-export, kifu-analyse); kifu-serve's API answers 404 with
# the same message and /player/NAME redirects (308) to the stored spelling.
# And the players report's ratings per game and variant (--by-variant): each
# row's rating is the one the report gives over that game and variant's
# games alone (--game G --variant V), and --name-part finds players by any
# part of the name.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
. tests/cli/lib/players.sh
db=$tmp/players.db
players_fixture "$db"

# the same answer for the stored spelling and the same name in other cases
same() { # TOOL ARGS... (with @NAME where the name goes)
	_s_tool=$1
	shift
	for _s_name in "Ann Lee" "ann lee" "ANN LEE"; do
		_s_args=""
		for _s_a in "$@"; do
			[ "$_s_a" = @NAME ] && _s_a=$_s_name
			_s_args="$_s_args$(printf '%s\n' "$_s_a" | sed "s/'/'\\\\''/g; s/^/'/; s/\$/'/") "
		done
		eval "\"\$bin/\$_s_tool\" $_s_args" >"$tmp/same-$_s_name.out" 2>"$tmp/same.err" ||
			{ echo "$_s_tool with '$_s_name': $(cat "$tmp/same.err")" >&2; return 1; }
	done
	test -s "$tmp/same-Ann Lee.out" && test_cmp "$tmp/same-Ann Lee.out" "$tmp/same-ann lee.out" &&
		test_cmp "$tmp/same-Ann Lee.out" "$tmp/same-ANN LEE.out"
}
check "kifu-stats summary: any case of the name" same kifu-stats --db "$db" --player @NAME summary
check "kifu-stats players: any case of the name" same kifu-stats --db "$db" --player @NAME players
check "kifu-search: any case of the name" same kifu-search --db "$db" --player @NAME --json
check "kifu-export: any case of the name" same kifu-export --db "$db" --player @NAME --to json -o -
check "kifu-search finds Ann Lee's five games" \
	test "$("$bin/kifu-search" --db "$db" --player 'aNN lEE' --json |
		python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 5

# none: exit 1, the message and the nearest names
none() { # EXPECTED-MESSAGE TOOL ARGS...
	_n_msg=$1
	_n_tool=$2
	shift 2
	"$bin/$_n_tool" "$@" >"$tmp/none.out" 2>"$tmp/none.err"
	_n_rc=$?
	[ $_n_rc -eq 1 ] ||
		{ echo "$_n_tool: exit $_n_rc, not 1: $(cat "$tmp/none.err")" >&2; return 1; }
	[ "$(cat "$tmp/none.err")" = "$_n_tool: error: $_n_msg" ] ||
		{ echo "$_n_tool said: $(cat "$tmp/none.err")" >&2; return 1; }
	# (kifu-export and kifu-analyse --to json write the empty list they open with)
	[ ! -s "$tmp/none.out" ] || [ "$(cat "$tmp/none.out")" = "[]" ] ||
		{ echo "$_n_tool wrote a result" >&2; return 1; }
}
hint="no player 'Ann Le' (did you mean 'Ann Lee' or 'Ann Leigh'?)"
check "kifu-stats: a near name" none "$hint" kifu-stats --db "$db" --player 'Ann Le' summary
check "kifu-search: a near name" none "$hint" kifu-search --db "$db" --player 'Ann Le'
check "kifu-export: a near name" none "$hint" kifu-export --db "$db" --player 'Ann Le' --to json -o -
check "kifu-analyse: a near name" none "$hint" kifu-analyse --db "$db" --player 'Ann Le' --to json \
	-o -
check "a typo's nearest name" none "no player 'Ann Lea' (did you mean 'Ann Lee'?)" \
	kifu-search --db "$db" --player 'Ann Lea'
check "a part of the name" none "no player 'leigh' (did you mean 'Ann Leigh'?)" \
	kifu-search --db "$db" --player 'leigh'
check "a case and a typo" none "no player 'player 0011' (did you mean 'Player 001', 'Player 011' or 'Player 002'?)" \
	kifu-search --db "$db" --player 'player 0011'
check "nothing near" none "no player 'Zbigniew Qx'" kifu-stats --db "$db" --player 'Zbigniew Qx' players
check "LIKE's wildcards are letters" none "no player '%'" kifu-search --db "$db" --player '%'
check "a capital beyond ASCII" test "$("$bin/kifu-search" --db "$db" --player 'éMILE ZOLA' --csv |
	grep -c 'Émile Zola')" = 1

# the players report per game and variant: each rating that variant's alone
"$bin/kifu-stats" --db "$db" players --by-variant --format json >"$tmp/byv.json" ||
	fail "players --by-variant"
byvariant() {
	python3 - "$bin" "$db" "$tmp/byv.json" <<'PY'
import json, subprocess, sys
bin, db, path = sys.argv[1:4]
rows = json.load(open(path))["rows"]
for col in ("player", "game", "variant", "games", "wins", "draws", "losses", "score", "rating"):
    assert all(col in r for r in rows), "no column " + col
pairs = []
for r in rows:
    if (r["game"], r["variant"]) not in pairs:
        pairs.append((r["game"], r["variant"]))
# every player and variant of the filtered report, with its rating and counts
want = []
for g, v in pairs:
    out = subprocess.run([bin + "/kifu-stats", "--db", db, "--game", g, "--variant", v, "players",
                          "--format", "json"], capture_output=True, check=True, text=True).stdout
    for r in json.loads(out)["rows"]:
        want.append(dict(r, game=g, variant=v))
got = sorted(rows, key=lambda r: (r["game"], r["variant"], r["player"]))
want = sorted(want, key=lambda r: (r["game"], r["variant"], r["player"]))
if got != want:
    sys.exit("by variant: %d rows, the variants' reports %d; first difference: %s" % (
        len(got), len(want), next(((a, b) for a, b in zip(got, want) if a != b), None)))
ann = [(r["game"], r["variant"], r["games"]) for r in rows if r["player"] == "Ann Lee"]
assert ann == [("splay-schmidt", "standard", 3), ("glaisher", "advanced", 2)], ann
PY
}
check "players --by-variant: each rating the variant's own" byvariant
partof() {
	"$bin/kifu-stats" --db "$db" players --name-part "$1" --format csv >"$tmp/part.csv" &&
	"$bin/kifu-stats" --db "$db" players --format csv | python3 -c '
import csv, sys
part, got = sys.argv[1], list(csv.reader(open(sys.argv[2], newline="")))
rows = list(csv.reader(sys.stdin))
want = [rows[0]] + [r for r in rows[1:] if part.lower() in r[0].lower()]
assert got == want and len(want) > int(sys.argv[3]), (got, want)' "$1" "$tmp/part.csv" "$2"
}
check "players --name-part: any part, any case" partof "aNN l" 2
check "players --name-part: the digits of many" partof "layer 1" 20

# kifu-serve: the API's 404, the player page's redirect and 404
serve_start "$db" || test_done
api() { # PATH STATUS TEXT
	serve_get "$1" >"$tmp/api.out"
	[ "$(cat "$tmp/status")" = "$2" ] && grep -qF "$3" "$tmp/api.out" ||
		{ echo "$1: $(cat "$tmp/status") $(head -c 300 "$tmp/api.out")" >&2; return 1; }
}
check "API: a near name is 404" api "/api/search?player=Ann%20Le" 404 "\"no player 'Ann Le' (did you mean 'Ann Lee' or 'Ann Leigh'?)\""
check "API stats: a near name is 404" api "/api/stats/summary?player=ann%20lea" 404 "no player 'ann lea' (did you mean 'Ann Lee'?)"
check "API: another case is the player" api "/api/search?player=ann%20lee&format=csv" 200 "Ann Lee"
check "API: players by part of the name" api "/api/stats/players?name_part=LEIGH&by_variant=1" 200 '"player": "Ann Leigh", "game": "glaisher", "variant": "advanced"'
redirect() { # PATH LOCATION
	python3 - "$serve_url" "$1" "$2" <<'PY'
import http.client, sys, urllib.parse
u = urllib.parse.urlparse(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
c.request("GET", sys.argv[2])
r = c.getresponse()
if r.status != 308 or r.getheader("Location") != sys.argv[3]:
    sys.exit("%s: %d %s" % (sys.argv[2], r.status, r.getheader("Location")))
PY
}
check "/player/ann%20lee redirects" redirect "/player/ann%20lee" "/player/Ann%20Lee"
check "the redirect keeps game and variant" redirect "/player/ANN%20LEE?game=glaisher&variant=advanced" \
	"/player/Ann%20Lee?game=glaisher&variant=advanced"
check "/player/Ann%20Le is 404 with the nearest names" api "/player/Ann%20Le" 404 \
	"no player &#39;Ann Le&#39; (did you mean &#39;Ann Lee&#39; or &#39;Ann Leigh&#39;?)"
check "/player/Ann%20Lee is the page" api "/player/Ann%20Lee" 200 '<h1 id="player">Ann Lee'
# the pages serve-players.sh drives in Chromium, here also under the sanitizers
check "/player/NAME of one game and variant" api "/player/Ann%20Lee?game=glaisher&variant=advanced" \
	200 '<td class="text"><a href="/player/Ann%20Lee?game=glaisher&amp;variant=advanced">glaisher</a>'
check "/player/NAME of a game it never played" api "/player/Ann%20Lee?game=splinter" 404 \
	"no games of a player called &#39;Ann Lee&#39; in splinter"
check "/: the search box" api "/" 200 'id="find-player" method="get" action="/players"'
check "/players: by part of the name" api "/players?q=ANN&sort=games" 200 '<a href="/player/Ann%20Leigh">'
check "/players: one game and variant" api "/players?gv=glaisher/advanced" 200 \
	'<a href="/player/Ann%20Lee?game=glaisher&amp;variant=advanced">'
check "/players: past the last page" api "/players?page=9" 404 "there are 4 pages of players here"
check "/players: a bad order" api "/players?sort=name" 400 "sort expects rating or games"
serve_stop
test_done "$checks checks"
