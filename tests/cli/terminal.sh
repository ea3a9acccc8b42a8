#!/bin/sh
# Terminal safety: a record whose names, event, tags and comments hold
# control characters (ESC, BEL, CR, a C1 CSI) is imported, and every output
# meant for a terminal (kifu-search's table, kifu-stats tables, kifu-export
# --to text) shows them escaped (\x1b, \x07, \r, \u009b), never raw; JSON
# and CSV keep the exact text. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
db=$tmp/t.db

# No byte below 0x20 but newline, no DEL, no C1 control (UTF-8 c2 80..9f).
clean() {
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
bad = [b for b in data.decode("utf-8", "replace") if (ord(b) < 0x20 and b != "\n") or 0x7f <= ord(b) <= 0x9f]
sys.exit(1 if bad else 0)
PY
}

cat >"$tmp/evil.yaml" <<'EOF2'
game: splay-schmidt
event: "Open\e[2J\e[31m"
date: 2024-01-02
players: {white: "Ann\e]0;pwned\aB", black: "Bo\rb\u009b31m"}
moves:
  - {move: d4, comment: "nice\e[5m"}
  - f6
result: white
termination: resignation
tags: {note: "x\ey"}
EOF2
"$bin/kifu-import" --db "$db" "$tmp/evil.yaml" >/dev/null 2>&1
check "the record is imported" [ $? -eq 0 ]

"$bin/kifu-search" --db "$db" >"$tmp/out" 2>&1
check "kifu-search: table has no raw control character" clean "$tmp/out"
check "kifu-search: names escaped" grep -qF 'Ann\x1b]0;pwned\x07B - Bo\rb\u009b31m' "$tmp/out"
"$bin/kifu-search" --db "$db" --json >"$tmp/out"
check "kifu-search --json: exact text" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))[0]["players"]
assert p == {"white": "Ann\x1b]0;pwned\x07B", "black": "Bo\rb\x9b31m"}, p' "$tmp/out"

for r in players summary; do
	"$bin/kifu-stats" --db "$db" "$r" >"$tmp/out" 2>&1
	check "kifu-stats $r: table has no raw control character" clean "$tmp/out"
done
"$bin/kifu-stats" --db "$db" players >"$tmp/out"
check "kifu-stats players: names escaped" grep -qF 'Ann\x1b]0;pwned\x07B' "$tmp/out"
"$bin/kifu-stats" --db "$db" players --format csv >"$tmp/out"
check "kifu-stats csv: exact text" python3 -c '
import csv, sys
names = sorted(r["player"] for r in csv.DictReader(open(sys.argv[1], newline="")))
assert names == sorted(["Ann\x1b]0;pwned\x07B", "Bo\rb\x9b31m"]), names' "$tmp/out"
"$bin/kifu-stats" --db "$db" players --format json >"$tmp/out"
check "kifu-stats json: exact text" python3 -c '
import json, sys
names = sorted(r["player"] for r in json.load(open(sys.argv[1]))["rows"])
assert names == sorted(["Ann\x1b]0;pwned\x07B", "Bo\rb\x9b31m"]), names' "$tmp/out"

"$bin/kifu-export" --db "$db" --id 1 --to text >"$tmp/out" 2>&1
check "kifu-export --to text from the database: no raw control character" clean "$tmp/out"
check "kifu-export --to text: names escaped" grep -qF 'white: Ann\x1b]0;pwned\x07B; black: Bo\rb\u009b31m' "$tmp/out"
"$bin/kifu-export" --file "$tmp/evil.yaml" --to text >"$tmp/out" 2>&1
check "kifu-export --to text from a file: no raw control character" clean "$tmp/out"
"$bin/kifu-export" --db "$db" --id 1 --to json >"$tmp/out"
check "kifu-export --to json: exact text" python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
g = g[0] if isinstance(g, list) else g
assert g["headers"]["event"] == "Open\x1b[2J\x1b[31m", g["event"]
assert g["moves"][0]["comment"] == "nice\x1b[5m"
assert g["tags"]["note"] == "x\x1by"' "$tmp/out"

# Diagnostics already escape; they use the same function (lib/util/buf.c).
printf 'game: "chess\\e[31m"\nmoves: []\n' >"$tmp/bad.yaml"
"$bin/kifu-validate" "$tmp/bad.yaml" >/dev/null 2>"$tmp/err"
check "diagnostics: no raw control character" clean "$tmp/err"
check "diagnostics: escaped" grep -qF "unknown game 'chess\\x1b[31m'" "$tmp/err"

test_done
