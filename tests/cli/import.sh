#!/bin/sh
# kifu-import as a user runs it: options and exit codes, the summary line
# and --json, the examples imported twice (the second time all duplicates),
# a mixed archive of valid, duplicate and invalid records with exact counts
# and the quarantine rows (raw text, diagnostics) checked in the database
# through python3's sqlite3, standard input, $KIFU_DB and ./kifu.db, and
# databases that cannot be used. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
imp=$bin/kifu-import

# q DB SQL: the rows, fields joined by |, NULL as empty, blobs decoded.
q() {
	python3 - "$1" "$2" <<'PY'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
def text(v):
    if v is None:
        return ""
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)
sys.stdout.write("".join("|".join(text(v) for v in r) + "\n" for r in rows))
PY
}

# --help, --version, usage errors
"$imp" --help >"$tmp/out" 2>"$tmp/err"
check "--help exits 0" [ $? -eq 0 ]
check "--help prints the usage on stdout" grep -q '^usage: kifu-import \[--db FILE\] \[--from FORMAT\] \[--json\] \[--quiet\] \[--progress\]$' "$tmp/out"
check "--help prints nothing on stderr" [ ! -s "$tmp/err" ]
"$imp" --version >"$tmp/out"
check "--version names the tool" grep -q '^kifu-import (kifu) [0-9]' "$tmp/out"
"$imp" --db "$tmp/u.db" >"$tmp/out" 2>"$tmp/err"
check "no PATH exits 2" [ $? -eq 2 ]
check "no PATH prints the usage" grep -q 'usage: kifu-import' "$tmp/err"
check "no PATH creates no database" [ ! -e "$tmp/u.db" ]
"$imp" --bogus x >/dev/null 2>"$tmp/err"
check "unknown option exits 2" [ $? -eq 2 ]
check "unknown option is named" grep -q "unknown option '--bogus'" "$tmp/err"

# The examples: every valid one stored, then all duplicates. examples/interop/
# is left out: its games are games of the archive again, in other formats;
# examples/balance/ holds a study's report (a csv that is no record), no games.
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|interop\|balance\)/')
valid=$("$bin/kifu-validate" $dirs 2>/dev/null | sed -n 's/^\([0-9]*\) games, \([0-9]*\) valid.*/\2/p')
check "kifu-validate counted the examples" [ "${valid:-0}" -gt 20 ]
db=$tmp/ex.db
"$imp" --db "$db" $dirs >"$tmp/out" 2>"$tmp/err"
check "examples: exit 0" [ $? -eq 0 ]
check "examples: every valid game stored" [ "$(cat "$tmp/out")" = "imported $valid, duplicates 0, rejected 0" ]
check "examples: nothing on stderr" [ ! -s "$tmp/err" ]
check "examples: games rows" [ "$(q "$db" 'SELECT count(*) FROM games')" = "$valid" ]
check "examples: one files row per file" [ "$(q "$db" 'SELECT count(*) FROM files')" = "$(ls $dirs | grep -c '\.yaml$')" ]
check "examples: positions = plies + 1 per game" \
	[ "$(q "$db" 'SELECT count(*) FROM positions')" = "$(q "$db" 'SELECT sum(plies) + count(*) FROM games')" ]
check "examples: moves = plies" [ "$(q "$db" 'SELECT count(*) FROM moves')" = "$(q "$db" 'SELECT sum(plies) FROM games')" ]
"$imp" --db "$db" $dirs >"$tmp/out" 2>"$tmp/err"
check "examples again: exit 0" [ $? -eq 0 ]
check "examples again: all duplicates" [ "$(cat "$tmp/out")" = "imported 0, duplicates $valid, rejected 0" ]
check "examples again: no new rows" [ "$(q "$db" 'SELECT count(*) FROM games')" = "$valid" ]
check "examples again: two imports recorded, finished" \
	[ "$(q "$db" 'SELECT count(*), count(finished_at), sum(imported), sum(duplicates) FROM imports')" = "2|2|$valid|$valid" ]
check "examples: integrity" [ "$(q "$db" 'PRAGMA integrity_check')" = ok ]
check "examples: foreign keys hold" [ -z "$(q "$db" 'PRAGMA foreign_key_check')" ]

# A mixed archive: directories walked in name order, *.yaml and *.yml only.
mkdir -p "$tmp/mix/b"
cat >"$tmp/mix/a.yaml" <<'Y'
# two good games and a bad one
game: splay-schmidt
moves: [g7]
---
game: splay-schmidt
moves: [g7, g7]
---
game: splay-schmidt
date: 2024-05-01
moves: [g7, i2]
Y
cat >"$tmp/mix/b/c.yml" <<'Y'
game: splay-schmidt
moves: [' G7 ']
---
moves: [g7]
result: white
game: splay-schmidt
evnt: Spring Open
date: 2023-13
Y
cat >"$tmp/mix/d.yaml" <<'Y'
game: glaisher
moves: []
---
game: splay-schmidt
moves: [g7, i2
---
game: splay-schmidt
moves: []
Y
echo 'not: [a record' >"$tmp/mix/notes.txt"
db=$tmp/mix.db
"$imp" --db "$db" "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
check "mixed: exit 1 when some are rejected" [ $? -eq 1 ]
check "mixed: counts" [ "$(cat "$tmp/out")" = "imported 3, duplicates 1, rejected 3" ]
check "mixed: diagnostics in kifu-validate's form" \
	grep -qx "$tmp/mix/a.yaml:6:13: error: game 2, ply 2: illegal move 'g7': 'g7' holds a white tower" "$tmp/err"
check "mixed: every diagnostic of a rejected record" [ "$(grep -c "^$tmp/mix/b/c.yml:" "$tmp/err")" -eq 3 ]
check "mixed: the syntax error" grep -q "^$tmp/mix/d.yaml:.*: error: game 2: invalid YAML" "$tmp/err"
check "mixed: stderr is diagnostics only" [ "$(wc -l <"$tmp/err")" -eq 5 ]
check "mixed: games in file order with their origin" \
	[ "$(q "$db" 'SELECT f.path, g.file_line, g.file_game, g.plies FROM games g JOIN files f ON f.id = g.file_id ORDER BY g.id')" = \
"$tmp/mix/a.yaml|2|1|1
$tmp/mix/a.yaml|7|3|2
$tmp/mix/d.yaml|1|1|0" ]
check "mixed: the date and its first day" [ "$(q "$db" "SELECT date, date_first FROM games WHERE file_game = 3")" = "2024-05-01|2024-05-01" ]
check "mixed: quarantine rows" \
	[ "$(q "$db" 'SELECT file, file_line, file_game, game, errors, raw_truncated FROM quarantine ORDER BY id')" = \
"$tmp/mix/a.yaml|4|2|splay-schmidt|1|0
$tmp/mix/b/c.yml|3|2|splay-schmidt|3|0
$tmp/mix/d.yaml|3|2||1|0" ]
printf -- '---\ngame: splay-schmidt\nmoves: [g7, g7]\n' >"$tmp/want"
q "$db" "SELECT raw FROM quarantine WHERE file_game = 2 AND file LIKE '%a.yaml'" >"$tmp/got"
printf '\n' >>"$tmp/want"
check "mixed: raw text of a record in a stream" cmp -s "$tmp/want" "$tmp/got"
printf -- '---\ngame: splay-schmidt\nmoves: [g7, i2\n---\ngame: splay-schmidt\nmoves: []\n\n' >"$tmp/want"
q "$db" "SELECT raw FROM quarantine WHERE file LIKE '%d.yaml'" >"$tmp/got"
check "mixed: a syntax error keeps the rest of the file" cmp -s "$tmp/want" "$tmp/got"
check "mixed: quarantine_diags hold every diagnostic printed" \
	[ "$(q "$db" 'SELECT count(*) FROM quarantine_diags')" -eq "$(wc -l <"$tmp/err")" ]
check "mixed: a diagnostic row" \
	[ "$(q "$db" "SELECT d.line, d.col, d.ply, d.severity, d.message FROM quarantine_diags d JOIN quarantine q ON q.id = d.quarantine_id WHERE q.file LIKE '%a.yaml'")" = \
"6|13|2|error|game 2, ply 2: illegal move 'g7': 'g7' holds a white tower" ]
"$imp" --db "$db" --json "$tmp/mix" >"$tmp/out" 2>/dev/null
check "mixed again: exit 1" [ $? -eq 1 ]
check "mixed again: --json counts" [ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":4,"rejected":3}' ]
check "mixed again: --json is JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(d) == ["duplicates", "imported", "rejected"] and all(type(v) is int for v in d.values())' "$tmp/out"
check "mixed again: quarantine not doubled" [ "$(q "$db" 'SELECT count(*) FROM quarantine')" = 3 ]
check "mixed again: diagnostics not doubled" [ "$(q "$db" 'SELECT count(*) FROM quarantine_diags')" = 5 ]
"$imp" --db "$db" --quiet "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
check "--quiet keeps the exit code" [ $? -eq 1 ]
check "--quiet prints nothing on stdout" [ ! -s "$tmp/out" ]
check "--quiet prints nothing on stderr" [ ! -s "$tmp/err" ]
"$imp" --db "$db" --quiet --json "$tmp/mix" >"$tmp/out" 2>/dev/null
check "--json --quiet still prints the JSON" [ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":4,"rejected":3}' ]

# Standard input, and the database by $KIFU_DB and ./kifu.db.
"$imp" --db "$tmp/in.db" - <"$tmp/mix/a.yaml" >"$tmp/out" 2>"$tmp/err"
check "stdin: exit 1" [ $? -eq 1 ]
check "stdin: counts" [ "$(cat "$tmp/out")" = "imported 2, duplicates 0, rejected 1" ]
check "stdin: diagnostics name <stdin>" grep -q "^<stdin>:6:13: error: game 2, ply 2:" "$tmp/err"
check "stdin: the file is <stdin>" [ "$(q "$tmp/in.db" 'SELECT path FROM files')" = "<stdin>" ]
"$imp" --db "$tmp/in.db" - <"$tmp/mix/a.yaml" >"$tmp/out" 2>/dev/null
check "stdin again: all seen before" [ "$(cat "$tmp/out")" = "imported 0, duplicates 2, rejected 1" ]
check "stdin again: quarantine not doubled" [ "$(q "$tmp/in.db" 'SELECT count(*) FROM quarantine')" = 1 ]
KIFU_DB=$tmp/env.db "$imp" "$tmp/mix/d.yaml" >/dev/null 2>&1
check "\$KIFU_DB names the database" [ "$(q "$tmp/env.db" 'SELECT count(*) FROM games')" = 1 ]
KIFU_DB=$tmp/env.db "$imp" --db "$tmp/opt.db" "$tmp/mix/d.yaml" >/dev/null 2>&1
check "--db wins over \$KIFU_DB" [ "$(q "$tmp/opt.db" 'SELECT count(*) FROM games')" = 1 ]
check "--db leaves \$KIFU_DB alone" [ "$(q "$tmp/env.db" 'SELECT count(*) FROM imports')" = 1 ]
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && env -u KIFU_DB "$imp" "$tmp/mix/d.yaml" >/dev/null 2>&1)
check "without --db or \$KIFU_DB: ./kifu.db" [ "$(q "$tmp/cwd/kifu.db" 'SELECT count(*) FROM games')" = 1 ]

# Exit codes: unreadable paths (3 wins over 1), databases that cannot be used.
"$imp" --db "$tmp/e.db" "$tmp/missing.yaml" >"$tmp/out" 2>"$tmp/err"
check "a missing file exits 3" [ $? -eq 3 ]
check "a missing file is named" grep -q "cannot open '$tmp/missing.yaml': no such file or directory" "$tmp/err"
"$imp" --db "$tmp/e.db" "$tmp/missing.yaml" "$tmp/mix" >"$tmp/out" 2>/dev/null
check "3 wins over 1" [ $? -eq 3 ]
check "the readable paths are still imported" [ "$(cat "$tmp/out")" = "imported 3, duplicates 1, rejected 3" ]
"$imp" --db "$tmp/nodir/x.db" "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
check "a database that cannot be created exits 3" [ $? -eq 3 ]
check "... and says which" grep -q "cannot open database '$tmp/nodir/x.db'" "$tmp/err"
latest=$(ls schema | grep -c '^[0-9][0-9]*-.*\.sql$')
newer=$((latest + 1))
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = %d" % int(sys.argv[2])); c.execute("CREATE TABLE t(x)"); c.commit()' "$tmp/new.db" "$newer"
"$imp" --db "$tmp/new.db" "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
check "a newer database exits 3" [ $? -eq 3 ]
check "... with the versions" grep -q "error: database '$tmp/new.db' has schema version $newer, newer than this kifu ($latest)" "$tmp/err"
check "... and is left alone" [ "$(q "$tmp/new.db" 'PRAGMA user_version')" = "$newer" ]
echo "this is not a database at all, only a text file of some length......" >"$tmp/text.db"
"$imp" --db "$tmp/text.db" "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
check "a file that is not SQLite exits 3" [ $? -eq 3 ]

# A full disk (issue 10): the database may not grow past 1 MB (the file-size
# limit makes writes fail with EFBIG, as a full disk makes them fail with
# ENOSPC), so the first batch of 1000 games cannot be committed. The summary
# counts only what the database holds; what was rolled back is reported as
# not imported.
"$bin/kifu-play" splinter --players random --games 3000 --seed 5 >"$tmp/g3000.yaml" 2>/dev/null
(ulimit -f 2000 && trap '' XFSZ && "$imp" --db "$tmp/full.db" "$tmp/g3000.yaml" >"$tmp/out" 2>"$tmp/err")
code=$?
check "full disk: exit 3" [ $code -eq 3 ]
held=$(q "$tmp/full.db" 'SELECT count(*) FROM games')
check "full disk: some games could not be stored ($held held)" [ "$held" -lt 3000 ]
check "full disk: the summary counts what the database holds" \
	[ "$(cat "$tmp/out")" = "imported $held, duplicates 0, rejected 0" ]
check "full disk: what was rolled back is reported as not imported" \
	grep -q "kifu-import: error: [0-9]* records read but not imported: their transactions were rolled back" "$tmp/err"
(ulimit -f 2000 && trap '' XFSZ && "$imp" --json --db "$tmp/full2.db" "$tmp/g3000.yaml" >"$tmp/out" 2>/dev/null)
held=$(q "$tmp/full2.db" 'SELECT count(*) FROM games')
check "full disk: --json counts what the database holds" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["imported"] == int(sys.argv[2]) and d["not_imported"] > 0, d' "$tmp/out" "$held"

test_done
