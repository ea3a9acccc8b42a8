#!/bin/sh
# kifu-serve's report parameters are bounded (CLI.md): openings depth at
# most 10 and min_games at least 1 on the API, else 400 with the message,
# for GET and HEAD alike, answered at once. A request past a bound once made
# a 114 MB answer out of the examples (depth=10000, 350 MB of memory); the
# deepest allowed one stays a few MB, and the server's peak memory after
# all of them stays under 400 MB (sanitizer build included).
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" --threads 2 || test_done

# status METHOD PATH: the status, the body in $tmp/body, its size in $tmp/size
status() {
	python3 - "$serve_url" "$1" "$2" "$tmp/body" <<'PY'
import sys, urllib.request, urllib.error
url, method, path, out = sys.argv[1:5]
req = urllib.request.Request(url.rstrip("/") + path, method=method)
try:
    r = urllib.request.urlopen(req, timeout=60)
    code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
open(out, "wb").write(body)
print(code)
PY
}

for m in GET HEAD; do
	for q in "depth=11" "depth=10000" "depth=99999999999999999999" "depth=10000&min_games=5" \
		"min_games=0" "depth=3&min_games=0"; do
		check "$m /api/stats/openings?$q: 400" [ "$(status $m "/api/stats/openings?$q")" = 400 ]
	done
	check "$m /api/tree?min_games=0: 400" \
		[ "$(status $m "/api/tree?game=glaisher&variant=standard&min_games=0")" = 400 ]
done
status GET "/api/stats/openings?depth=10000" >/dev/null
check "depth past the bound: the message" \
	grep -q '^{"error": "--depth 10000 is too deep (10 at most)"}$' "$tmp/body"
status GET "/api/stats/openings?min_games=0" >/dev/null
check "min_games=0: the message" \
	grep -q '"--min-games expects a whole number of 1 or more here, not '"'0'"'"' "$tmp/body"
for q in "depth=10" "depth=10&by_position=1" "depth=1&min_games=1"; do
	check "/api/stats/openings?$q: 200" [ "$(status GET "/api/stats/openings?$q")" = 200 ]
	size=$(wc -c <"$tmp/body")
	check "/api/stats/openings?$q: $size bytes, under 10 MB" [ "$size" -lt 10000000 ]
done
check "HEAD depth=10: 200" [ "$(status HEAD "/api/stats/openings?depth=10")" = 200 ]
peak=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$serve_pid/status")
check "the server's peak memory: $peak MB, under 400 MB" [ "$peak" -lt 400 ]
serve_stop
test_done "$checks checks, peak $peak MB"
