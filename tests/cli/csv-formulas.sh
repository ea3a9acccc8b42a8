#!/bin/sh
# No CSV kifu writes runs as a spreadsheet formula (INTEROP.md csv): a cell
# that starts with = + - @ ', a tab or a CR is written with a ' before it,
# in every writer (kifu-export --to csv from a file and from the database,
# kifu-search --csv, kifu-stats --format csv, kifu-serve's format=csv on
# search, stats and game), and reading csv takes that ' off again, so that
# yaml -> csv -> yaml still gives the record back and a csv import stores
# the name as it was. Before the guard, a player named =HYPERLINK("x") was
# a live formula in each of them.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/f.db
name='=HYPERLINK("x")'
# a record with no comments or clocks (csv carries neither), tags that need the guard or not
sed -e "s|^  red: .*|  red: '$name'|" -e "s|^  yellow: .*|  yellow: \"'Sven\"|" \
	-e 's|^  - {move: \(.*\), comment: .*}$|  - \1|' examples/glaisher/glaisher-advanced-01.yaml \
	>"$tmp/a.yaml"
cat >>"$tmp/a.yaml" <<'EOF'
  minus: '-1'
  plus: '+2'
  at: '@home'
  tab: "\tx"
  cr: "\rx"
  quoted: "''q"
  inner: 'a=b'
EOF
"$bin/kifu-validate" "$tmp/a.yaml" >/dev/null 2>"$tmp/err" || fail "a.yaml is not valid: $(cat "$tmp/err")"
"$bin/kifu-import" --quiet --db "$db" "$tmp/a.yaml" >/dev/null 2>"$tmp/err" ||
	fail "import: $(cat "$tmp/err")"

# guarded FILE: every cell (header included) starting with one of the seven
# has a ' before it, and the player's cell is '=HYPERLINK("x"): the csv
# module reads the cells as a spreadsheet would
guarded() {
	python3 - "$1" "$name" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
bad = [c for r in rows for c in r if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
if bad:
    sys.exit("live cells: %r" % bad[:5])
if not any("'" + sys.argv[2] in r for r in rows):
    sys.exit("no cell '%s in %r" % (sys.argv[2], rows[:3]))
PY
}

"$bin/kifu-export" --file "$tmp/a.yaml" --to csv >"$tmp/file.csv" || fail "export --file: exit $?"
check "kifu-export --file --to csv" guarded "$tmp/file.csv"
check "kifu-export --to csv: -1 is '-1" grep -q ",'-1," "$tmp/file.csv"
check "kifu-export --to csv: ''q is '''q" grep -q ",'''q," "$tmp/file.csv"
check "kifu-export --to csv: a=b as it is" grep -q ",a=b" "$tmp/file.csv"
"$bin/kifu-export" --db "$db" --id 1 --to csv >"$tmp/id.csv" || fail "export --id: exit $?"
check "kifu-export --id --to csv" guarded "$tmp/id.csv"
"$bin/kifu-search" --db "$db" --csv >"$tmp/search.csv" || fail "search --csv: exit $?"
check "kifu-search --csv" guarded "$tmp/search.csv"
"$bin/kifu-stats" --db "$db" --format csv players >"$tmp/players.csv" || fail "stats players: exit $?"
check "kifu-stats --format csv players" guarded "$tmp/players.csv"

# the round trip: yaml -> csv -> yaml is yaml -> yaml
"$bin/kifu-export" --file "$tmp/a.yaml" --to yaml >"$tmp/want.yaml"
"$bin/kifu-export" --file "$tmp/file.csv" --to yaml >"$tmp/back.yaml" 2>"$tmp/err" ||
	fail "export of the csv: $(cat "$tmp/err")"
check "yaml -> csv -> yaml" test_cmp "$tmp/want.yaml" "$tmp/back.yaml"
# a ' before anything else stays ('x reads 'x), and a lone ' stays
printf "game,variant,red,yellow,moves,note,lone\r\nglaisher,advanced,'Ann,''=Bo,,'x,'\r\n" >"$tmp/q.csv"
"$bin/kifu-export" --file "$tmp/q.csv" --to json >"$tmp/q.json" 2>"$tmp/err" ||
	fail "export of q.csv: $(cat "$tmp/err")"
check "csv reading: one ' off before the seven only" python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))[0]
want = ({"red": {"name": "'"'"'Ann"}, "yellow": {"name": "'"'"'=Bo"}}, "'"'"'x", "'"'"'")
got = (g["players"], g["tags"]["note"], g["tags"]["lone"])
sys.exit(0 if got == want else "%r, not %r" % (got, want))' "$tmp/q.json"

# a csv import stores the name, not the guard
"$bin/kifu-import" --quiet --db "$tmp/c.db" "$tmp/file.csv" >/dev/null 2>"$tmp/err" ||
	fail "import of the csv: $(cat "$tmp/err")"
check "csv import keeps the name" python3 -c '
import json, sys
h = json.load(sys.stdin)
sys.exit(0 if h and h[0]["players"]["red"] == sys.argv[1] and h[0]["players"]["yellow"] == "'"'"'Sven" else repr(h))' \
	"$name" <<EOF
$("$bin/kifu-search" --db "$tmp/c.db" --json)
EOF

serve_start "$db" || test_done
for path in "/api/search?format=csv" "/api/stats/players?format=csv" "/api/game/1?format=csv"; do
	serve_get "$path" >"$tmp/api.csv"
	check "$path: 200" grep -qx 200 "$tmp/status"
	check "$path" guarded "$tmp/api.csv"
done
serve_stop
test_done "$checks checks"
