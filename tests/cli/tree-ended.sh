#!/bin/sh
# The tree of a position where every game ended (item 6): json
# gives, at the top level, the position's hash and to_move, games (the
# games that reached it) and ended (those of them that ended there), for
# every tree; the table says "N games ended here" instead of an empty
# table; csv has the rows only. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh

db=$tmp/t.db
"$bin/kifu-import" --quiet --db "$db" examples/splinter/ >/dev/null
# the moves of the shortest knockout game: every game that reaches its end ended there
last=$(python3 -c '
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
m = c.execute("SELECT m.moves FROM games g JOIN game_moves m ON m.game_id = g.id WHERE g.variant = '"'knockout'"' ORDER BY g.plies, g.id LIMIT 1").fetchone()[0]
print(",".join(json.loads(m)))' "$db")
s="$bin/kifu-stats --db $db --game splinter --variant knockout tree"

$s --after "$last" --format json >"$tmp/end.json"
check "ended: json exits 0" [ $? -eq 0 ]
check "ended: hash, to_move, games and ended at the top level, no rows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"] == [], d
assert len(d["hash"]) == 16 and int(d["hash"], 16) >= 0, d
assert d["to_move"] in ("blue", "white"), d
assert d["games"] == d["ended"] and d["ended"] >= 1, d' "$tmp/end.json"
$s --after "$last" >"$tmp/end.txt"
check "ended: the table says so" grep -qx "[0-9]* games* ended here" "$tmp/end.txt"
check "ended: no empty table" [ "$(wc -l <"$tmp/end.txt")" -eq 1 ]
$s --after "$last" --format csv >"$tmp/end.csv"
check "ended: csv is the header" [ "$(wc -l <"$tmp/end.csv")" -eq 1 ]

$s --format json >"$tmp/start.json"
check "start: the top level agrees with the rows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"], d
assert all(r["hash"] == d["hash"] and r["to_move"] == d["to_move"] for r in d["rows"]), d
assert d["games"] == sum(r["games"] for r in d["rows"]) + d["ended"], d
assert d["ended"] == 0, d' "$tmp/start.json"
$s --symmetric --after "$last" --format json >"$tmp/sym.json"
check "--symmetric: ended too" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"] == [] and d["games"] == d["ended"] >= 1, d' "$tmp/sym.json"

# a database of schema 3 (no position index table): the positions table
cp tests/data/store/schema-3.sqlite "$tmp/s3.db"
"$bin/kifu-stats" --db "$tmp/s3.db" --game splay-schmidt --no-cache tree --format json >"$tmp/s3.json"
check "schema 3: the top level agrees with the rows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"] and d["games"] == sum(r["games"] for r in d["rows"]) + d["ended"], d' "$tmp/s3.json"

test_done "$checks checks"
