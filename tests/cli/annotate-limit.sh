#!/bin/sh
# kifu-analyse --annotate at RECORDS.md's limit of 100,000 turns a game, its
# lines included (issue 39): a splinter game of 29 plies whose review adds
# one line of 2 turns (its ?? at ply 28, --playouts 100 --seed 3), given
# one-move lines at ply 1 up to 2 turns short of the limit, gets the line
# (exactly 100,000 turns); one turn fewer to spare, the line is left out with
# a warning naming the game, and the record still gets every eval and nag and
# validates (it was written past the limit, exit 0, before).
set -u
. tests/cli/lib/test-lib.sh
analyse=$bin/kifu-analyse
src=examples/splinter/splinter-survival-01.yaml
opts="--playouts 100 --seed 3"

# The review's own line, on the game as it is: 2 turns at ply 28 (the test's premise).
"$analyse" --file "$src" --annotate $opts >"$tmp/plain.yaml" || fail "annotating the game exited $?"
check "the review adds one line, of 2 turns, after ply 28's ??" python3 -c '
import sys
t = open(sys.argv[1]).read()
assert t.count("variations:") == 1 and "- move: i6-j5\n    nag: '"'??'"'" in t, t
assert "      - - f6-e7\n        - f5-g5\n  - move: f5-g5" in t, t' "$tmp/plain.yaml"

# spare: the turns left below the limit besides the game's 29 and the filler lines
make_record() { # spare, file
	python3 - "$src" "$1" "$2" <<'PY'
import sys
src, spare, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n = 100000 - 29 - spare
text = open(src).read().replace("format: 1", "format: 2")
text = text.replace("  - h4-g4\n", "  - move: h4-g4\n    variations: [" +
                    ", ".join(["[h4-g4]"] * n) + "]\n", 1)
open(out, "w").write(text)
PY
}
lines() { grep -c '^      - - ' "$1"; }

make_record 2 "$tmp/fits.yaml"
"$analyse" --file "$tmp/fits.yaml" --annotate $opts >"$tmp/fits-ann.yaml" 2>"$tmp/err"
check "at the limit: exit 0" [ $? -eq 0 ]
check "at the limit: no warning" [ ! -s "$tmp/err" ]
check "at the limit: the line is added" [ "$(lines "$tmp/fits-ann.yaml")" -eq 99970 ]
"$bin/kifu-validate" "$tmp/fits-ann.yaml" >"$tmp/out" 2>&1
check "at the limit: the record validates ($(head -1 "$tmp/out"))" grep -q '^1 game, 1 valid' "$tmp/out"

make_record 1 "$tmp/over.yaml"
"$analyse" --file "$tmp/over.yaml" --annotate $opts >"$tmp/over-ann.yaml" 2>"$tmp/err"
check "past the limit: exit 0" [ $? -eq 0 ]
check "past the limit: a warning names the game and the limit ($(cat "$tmp/err"))" grep -q \
	"^kifu-analyse: warning: game 1 of .*/over.yaml: 1 line of the review left out: the game would pass 100000 turns, its lines included$" \
	"$tmp/err"
check "past the limit: no line added" [ "$(lines "$tmp/over-ann.yaml")" -eq 99970 ]
check "past the limit: every move's eval and the ?? kept" python3 -c '
import sys
t = open(sys.argv[1]).read()
assert t.count("eval: {engine: ") == 29 and t.count("nag: ") == 1, "evals or nags lost"
assert "- move: i6-j5\n    nag: '"'??'"'" in t' "$tmp/over-ann.yaml"
"$bin/kifu-validate" "$tmp/over-ann.yaml" >"$tmp/out" 2>&1
check "past the limit: the record validates ($(tail -1 "$tmp/out"))" grep -q '^1 game, 1 valid' "$tmp/out"

test_done
