#!/bin/sh
# kifu-validate as a user runs it: options, exit codes, the summary line,
# standard input, directories walked in name order, and the JSON Lines
# output parsed by python3. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
v="$bin/kifu-validate"

valid=tests/data/records/valid/full-headers.yaml
invalid=tests/data/records/invalid/illegal-move.yaml
stream=tests/data/records/invalid/bad-game-in-stream.yaml
syntax=tests/data/records/invalid/syntax-error.yaml

# --help, --version, usage errors
"$v" --help >"$tmp/out" 2>"$tmp/err"
check "--help exits 0" [ $? -eq 0 ]
check "--help prints usage on stdout" grep -q '^usage: kifu-validate' "$tmp/out"
check "--help prints nothing on stderr" [ ! -s "$tmp/err" ]
"$v" --version >"$tmp/out"
check "--version exits 0" [ $? -eq 0 ]
check "--version names the tool" grep -q '^kifu-validate (kifu) [0-9]' "$tmp/out"
"$v" >"$tmp/out" 2>"$tmp/err"
check "no PATH exits 2" [ $? -eq 2 ]
check "no PATH prints the usage on stderr" grep -q 'usage: kifu-validate' "$tmp/err"
"$v" --bogus "$valid" >/dev/null 2>"$tmp/err"
check "unknown option exits 2" [ $? -eq 2 ]
check "unknown option is named" grep -q "unknown option '--bogus'" "$tmp/err"

# exit codes and the summary
"$v" "$valid" >"$tmp/out" 2>"$tmp/err"
check "a valid file exits 0" [ $? -eq 0 ]
check "summary of a valid file" [ "$(cat "$tmp/out")" = "1 game, 1 valid, 0 invalid" ]
"$v" "$valid" "$stream" >"$tmp/out" 2>"$tmp/err"
check "an invalid game exits 1" [ $? -eq 1 ]
check "summary counts every game of a stream" [ "$(cat "$tmp/out")" = "4 games, 2 valid, 2 invalid" ]
check "diagnostics on stderr in FILE:LINE:COL form" \
	grep -q "^$stream:6:13: error: game 2, ply 2: illegal move 'g7'" "$tmp/err"
"$v" --quiet "$stream" >"$tmp/out" 2>"$tmp/err"
check "--quiet keeps the exit code" [ $? -eq 1 ]
check "--quiet prints no summary" [ ! -s "$tmp/out" ]
check "--quiet keeps the diagnostics" [ "$(wc -l <"$tmp/err")" -eq 2 ]
"$v" "$tmp/missing.yaml" >"$tmp/out" 2>"$tmp/err"
check "a missing file exits 3" [ $? -eq 3 ]
check "a missing file is named" grep -q "cannot open '$tmp/missing.yaml': no such file or directory" "$tmp/err"
"$v" "$invalid" "$tmp/missing.yaml" >/dev/null 2>&1
check "3 wins over 1" [ $? -eq 3 ]
"$v" "$tmp/missing.yaml" "$invalid" >"$tmp/out" 2>/dev/null
check "the other paths are still checked after an unreadable one" \
	[ "$(cat "$tmp/out")" = "1 game, 0 valid, 1 invalid" ]

# standard input
"$v" - <"$stream" >"$tmp/out" 2>"$tmp/err"
check "stdin: exit 1 for an invalid stream" [ $? -eq 1 ]
check "stdin: summary" [ "$(cat "$tmp/out")" = "3 games, 1 valid, 2 invalid" ]
check "stdin: diagnostics name <stdin>" grep -q '^<stdin>:6:13: error: game 2, ply 2:' "$tmp/err"
# shellcheck disable=SC2002 # a pipe, not a redirected file, on purpose
cat "$valid" | "$v" - >"$tmp/out" 2>&1
check "stdin from a pipe" [ "$(cat "$tmp/out")" = "1 game, 1 valid, 0 invalid" ]

# directories: recursive, *.yaml and *.yml only, name order
mkdir -p "$tmp/d/b/c" "$tmp/d/a"
cp "$valid" "$tmp/d/b/c/z.yaml"
cp "$invalid" "$tmp/d/b/a.yml"
cp "$valid" "$tmp/d/a/m.yaml"
cp "$valid" "$tmp/d/0.yaml"
echo 'not: [a record' >"$tmp/d/notes.txt"
"$v" --json "$tmp/d" >"$tmp/out" 2>"$tmp/err"
check "a directory with an invalid file exits 1" [ $? -eq 1 ]
check "json: summary on stderr" grep -q '^4 games, 3 valid, 1 invalid$' "$tmp/err"
python3 - "$tmp/out" "$tmp/d" <<'PY' >"$tmp/py" 2>&1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
d = sys.argv[2]
assert [o["file"] for o in objs] == [d + "/0.yaml", d + "/a/m.yaml", d + "/b/a.yml", d + "/b/c/z.yaml"], [o["file"] for o in objs]
PY
check "directories are walked in name order, *.yaml and *.yml only: $(cat "$tmp/py")" [ ! -s "$tmp/py" ]

# JSON Lines: exact keys and values
"$v" --json "$stream" "$syntax" "$valid" tests/data/records/valid/empty-moves.yaml >"$tmp/out" 2>"$tmp/err"
check "json: exit 1" [ $? -eq 1 ]
python3 - "$tmp/out" "$stream" "$syntax" "$valid" <<'PY' >"$tmp/py" 2>&1
import json, sys
out, stream, syntax, valid = sys.argv[1:]
objs = [json.loads(l) for l in open(out).read().splitlines()]
keys = {"file", "game", "line", "valid", "plies", "result", "errors"}
for o in objs:
    assert set(o) == keys, o
    for e in o["errors"]:
        assert set(e) == {"line", "col", "ply", "message"}, e
assert len(objs) == 3 + 2 + 1 + 1, len(objs)
g1, g2, g3 = objs[0:3]
assert (g1["file"], g1["game"], g1["line"], g1["valid"], g1["plies"], g1["result"], g1["errors"]) == \
    (stream, 1, 2, True, 1, "unfinished", []), g1
assert (g2["game"], g2["line"], g2["valid"], g2["plies"]) == (2, 4, False, 2), g2
assert g2["errors"] == [{"line": 6, "col": 13, "ply": 2,
    "message": "game 2, ply 2: illegal move 'g7': 'g7' holds a white tower"}], g2
assert g3["errors"][0]["ply"] == 1 and g3["game"] == 3, g3
s1, s2 = objs[3:5]
assert s1["valid"] is True and s1["game"] == 1, s1
assert (s2["game"], s2["valid"], s2["plies"], s2["line"]) == (2, False, 0, 4), s2
assert s2["errors"][0]["ply"] is None and s2["errors"][0]["line"] == 7, s2
assert s2["errors"][0]["message"].startswith("game 2: invalid YAML: "), s2
v = objs[5]
assert (v["valid"], v["plies"], v["result"], v["errors"]) == (True, 18, "black", []), v
e = objs[6]
assert (e["valid"], e["plies"], e["result"]) == (True, 0, "unfinished"), e
PY
check "json: objects and keys as CLI.md says: $(cat "$tmp/py")" [ ! -s "$tmp/py" ]
check "json: stdout holds only JSON" python3 -c "
import json,sys
[json.loads(l) for l in open('$tmp/out')]"

# JSON strings are escaped: a file name with a quote, a backslash and a tab
weird="$tmp/we\"ird\\	name.yaml"
cp "$invalid" "$weird"
"$v" --json "$weird" >"$tmp/out" 2>/dev/null
python3 - "$tmp/out" "$weird" <<'PY' >"$tmp/py" 2>&1
import json, sys
o = json.loads(open(sys.argv[1]).read())
assert o["file"] == sys.argv[2], o["file"]
PY
check "json: file names are escaped: $(cat "$tmp/py")" [ ! -s "$tmp/py" ]

# Memory stays flat in the number of games (issue 10: it grew about 40
# bytes per document): 100,000 and 400,000 small documents, peak RSS within
# 4 MB of each other (the larger file alone is 12 MB).
if [ -x /usr/bin/time ]; then
	doc='---
game: splinter
moves: []'
	yes -- "$doc" | head -n 300000 >"$tmp/small.yaml"
	yes -- "$doc" | head -n 1200000 >"$tmp/large.yaml"
	# (under AddressSanitizer, freed memory is held in a quarantine unless told otherwise)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0
	export ASAN_OPTIONS
	/usr/bin/time -f %M -o "$tmp/rss-small" "$v" --quiet "$tmp/small.yaml" 2>/dev/null
	/usr/bin/time -f %M -o "$tmp/rss-large" "$v" --quiet "$tmp/large.yaml" 2>/dev/null
	small=$(tail -1 "$tmp/rss-small")
	large=$(tail -1 "$tmp/rss-large")
	check "memory flat in the number of games ($small KB for 100,000, $large KB for 400,000)" \
		[ "$large" -lt $((small + 4096)) ]
else
	check "/usr/bin/time (Debian package time) for the memory check" false
fi

# Format 2: an error in a line names its path; --json gives it the main-line
# ply whose lines hold it, and counts the main line's plies only.
f2=tests/data/records/invalid/format2-line-illegal.yaml
"$v" --json "$f2" >"$tmp/f2.json" 2>/dev/null
check "format 2: an invalid line exits 1" [ $? -eq 1 ]
check "format 2: --json of errors in lines" python3 - "$tmp/f2.json" <<'EOF'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1])]
assert [x["valid"] for x in g] == [True, False, False, True], g
assert [x["plies"] for x in g] == [3, 3, 4, 2], g
e2, e3 = g[1]["errors"], g[2]["errors"]
assert len(e2) == 1 and e2[0]["ply"] == 2 and (e2[0]["line"], e2[0]["col"]) == (18, 18), e2
assert e2[0]["message"].startswith("game 2, ply 2, line 2, ply 4: illegal move 'f6'"), e2
assert len(e3) == 1 and e3[0]["ply"] == 2 and (e3[0]["line"], e3[0]["col"]) == (30, 20), e3
assert e3[0]["message"].startswith("game 3, ply 2, line 1, ply 3, line 1, ply 4: illegal move"), e3
EOF

test_done "$checks checks"
