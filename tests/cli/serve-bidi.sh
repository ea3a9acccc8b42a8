#!/bin/sh
# Names with bidirectional controls (U+202E, the right-to-left override, and
# the marks, embeddings and isolates: U+202A..U+202E, U+2066..U+2069,
# U+200E, U+200F, U+061C) cannot reorder the text of kifu-serve's pages:
# every page and error page shows them as \uNNNN, as the terminal does
# (kifu-search's table), and the API's json carries them as \uNNNN escapes
# (the same string, shown so in a raw view); a form field keeps the
# characters as they are (what it sends back). Without the controls, a name
# "Ann<U+202E>evil" read "Annlive" on the page.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/b.db
# one name per control, each in a game of its own
i=0
for cp in 202a 202b 202c 202d 202e 2066 2067 2068 2069 200e 200f 061c; do
	i=$((i + 1))
	name=$(python3 -c 'import sys; print("Ann" + chr(int(sys.argv[1], 16)) + "evil")' "$cp")
	sed -e "s|^  red: .*|  red: $name|" -e "s|^date: .*|date: '2025-03-$(printf %02d $i)'|" \
		examples/glaisher/glaisher-advanced-01.yaml >"$tmp/g$i.yaml"
done
"$bin/kifu-import" --quiet --db "$db" "$tmp"/g*.yaml >/dev/null 2>"$tmp/err" || fail "import: $(cat "$tmp/err")"

# raw FILE: the file holds one of the controls' UTF-8 bytes
raw() {
	python3 - "$1" <<'PY'
import sys
t = open(sys.argv[1], encoding="utf-8", errors="replace").read()
bad = [c for c in t if 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069 or ord(c) in (0x200e, 0x200f, 0x61c)]
sys.exit(0 if bad else 1)
PY
}
clean() { ! raw "$1"; }

"$bin/kifu-search" --db "$db" >"$tmp/table" 2>&1
check "kifu-search's table: no raw control" clean "$tmp/table"
for cp in 202e 2066 200f 061c; do
	check "kifu-search's table: \\u$cp shown" grep -q "Ann\\\\u$cp""evil" "$tmp/table"
done

serve_start "$db" || test_done
id=$("$bin/kifu-search" --db "$db" --json | python3 -c '
import json, sys
print([g["id"] for g in json.load(sys.stdin) if "Ann\u202eevil" in g["players"].values()][0])')
rlo=$(python3 -c 'print("Ann\u202eevil")')
enc=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("Ann\u202eevil", safe=""))')
for path in / "/game/$id" "/player/$enc" "/explore/glaisher/advanced?player=$enc" \
	"/explore/glaisher/advanced" "/player/$enc-nobody" "/explore/glaisher/advanced?since=$enc"; do
	# (but in the filters' fields, shown or hidden, that send them back: below)
	serve_get "$path" | sed 's/\(<input [^>]*\) value="[^"]*"/\1/g' >"$tmp/page"
	check "$path: no raw control" clean "$tmp/page"
	check "$path: \\u202e shown" grep -q 'Ann\\u202eevil' "$tmp/page"
done
serve_get / >"$tmp/page"
for cp in 202a 202b 202c 202d 2066 2067 2068 2069 200e 200f 061c; do
	check "/: \\u$cp shown" grep -q "Ann\\\\u$cp""evil" "$tmp/page"
done
# the filter's field sends the name back as it is
serve_get "/explore/glaisher/advanced?player=$enc" >"$tmp/page"
check "the player field keeps the name" grep -q "id=\"f-player\" value=\"$rlo\"" "$tmp/page"
# a bad date: the page again, its field holding what was asked
serve_get "/explore/glaisher/advanced?since=$enc" >"$tmp/page"
check "the since field keeps the value" grep -q "id=\"f-since\" value=\"$rlo\"" "$tmp/page"
for path in /api/stats/players "/api/search?player=$enc" "/api/game/$id"; do
	serve_get "$path" >"$tmp/json"
	check "$path: no raw control" clean "$tmp/json"
	check "$path: the escape \\u202e" grep -q 'Ann\\u202eevil' "$tmp/json"
	check "$path: the same name once decoded" python3 -c '
import json, sys
def names(v):
    if isinstance(v, dict):
        return [n for x in v.values() for n in names(x)]
    if isinstance(v, list):
        return [n for x in v for n in names(x)]
    return [v]
sys.exit(0 if "Ann\u202eevil" in names(json.load(open(sys.argv[1]))) else 1)' "$tmp/json"
done
serve_stop
test_done "$checks checks"
