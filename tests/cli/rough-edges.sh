#!/bin/sh
# What a new user met on a first afternoon (issue 28, section 5), each as it
# was tried: kifu-stats --help printing `95%%` and leaving out novelties, an
# unknown report without its did-you-mean, kifu-import leaving an empty
# database behind when its file is missing, kifu-play with one SPEC for
# every side naming both sides `random #1` (its summary and kifu-stats
# players then say nothing), kifu-play --help without `engine`, and
# "1 plies". Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
here=$(pwd)

# kifu-stats --help: a percent sign once, every report listed.
"$bin/kifu-stats" --help >"$tmp/help" || fail "kifu-stats --help exited $?"
check "kifu-stats --help prints '%%'" sh -c "! grep -q '%%' '$tmp/help'"
check "kifu-stats --help: 95% ci" grep -q '95% ci =' "$tmp/help"
check "kifu-stats --help lists novelties" grep -q '^  novelties  ' "$tmp/help"

# An unknown report: did-you-mean when one is close, else every report's name.
"$bin/kifu-import" --quiet --db "$tmp/k.db" examples/splinter/splinter-knockout-01.yaml ||
	fail "import"
"$bin/kifu-stats" --db "$tmp/k.db" sumary >"$tmp/out" 2>"$tmp/err"
check "kifu-stats sumary: exit 2" [ $? -eq 2 ]
check "kifu-stats sumary: did you mean" \
	grep -q "^kifu-stats: error: unknown report 'sumary' (did you mean 'summary'?)\$" "$tmp/err"
"$bin/kifu-stats" --db "$tmp/k.db" novelites --game splinter >"$tmp/out" 2>"$tmp/err"
check "kifu-stats novelites: did you mean" grep -q "(did you mean 'novelties'?)" "$tmp/err"
"$bin/kifu-stats" --db "$tmp/k.db" xyzzyq >"$tmp/out" 2>"$tmp/err"
check "kifu-stats xyzzyq: the reports, novelties included" grep -q \
	"unknown report 'xyzzyq' (summary, openings, players, lengths, tree, novelties or balance)\$" "$tmp/err"
"$bin/kifu-stats" --db "$tmp/k.db" >"$tmp/out" 2>"$tmp/err"
check "kifu-stats without a report names novelties" grep -q "expected a REPORT (.*novelties or balance)" \
	"$tmp/err"

# kifu-import of a missing file into a new database: exit 3, and no database left.
cd "$tmp" || exit 1
"$bin/kifu-import" --db new.db missing.yaml >out 2>err
check "import of a missing file: exit 3" [ $? -eq 3 ]
check "import of a missing file: the file named" grep -q "'missing.yaml'" err
check "import of a missing file left new.db behind" sh -c '! ls new.db* 2>/dev/null'
# ... but a database that was there stays, as it was.
cp k.db old.db
"$bin/kifu-import" --db old.db missing.yaml >out 2>err
check "import of a missing file into a database: exit 3" [ $? -eq 3 ]
check "import of a missing file removed the database it had" \
	sh -c "'$bin/kifu-search' --db old.db | grep -q splinter"
# ... and a run that stored something keeps the database it created.
"$bin/kifu-import" --quiet --db two.db "$here/examples/splinter/splinter-knockout-01.yaml" \
	missing.yaml >out 2>err
check "import of one file and a missing one: exit 3" [ $? -eq 3 ]
check "import of one file and a missing one: the game kept" \
	sh -c "'$bin/kifu-search' --db two.db | grep -q splinter"
cd "$here" || exit 1

# kifu-play --players random: each side a player of its own, by its index.
"$bin/kifu-play" splinter --players random --games 6 --seed 4 --db "$tmp/p.db" >"$tmp/out" \
	2>"$tmp/err" || fail "kifu-play --players random exited $?"
check "kifu-play: summary per side" grep -q '^kifu-play:   random #1 ' "$tmp/err"
check "kifu-play: summary per side (2)" grep -q '^kifu-play:   random #2 ' "$tmp/err"
# the two seats' wins add up to the decided games, each seat played all 6
decided=$(sed -n 's/^kifu-play: 6 games: \([0-9]*\) decided.*/\1/p' "$tmp/err")
wins=$(awk '/^kifu-play:   random #[12] /{ if ($4 != 6) bad = 1; w += $5 } END { print bad ? -1 : w }' \
	"$tmp/err")
check "kifu-play: seat wins ($wins) are not the decided games ($decided)" [ "$wins" = "$decided" ]
"$bin/kifu-stats" --db "$tmp/p.db" --format csv players >"$tmp/players" ||
	fail "kifu-stats players exited $?"
check "kifu-stats players: two players of 6 games" \
	test "$(cut -d, -f1,2 "$tmp/players" | sed 1d | sort | tr '\n' ' ')" = "random #1,6 random #2,6 "
"$bin/kifu-play" splinter --players random --games 2 --max-plies 2 --quiet >"$tmp/two.yaml" ||
	fail "kifu-play to stdout"
check "kifu-play: blue is random #1 in both games" test "$(grep -c "blue: 'random #1'" "$tmp/two.yaml")" = 2
check "kifu-play: white is random #2 in both games" \
	test "$(grep -c "white: 'random #2'" "$tmp/two.yaml")" = 2
"$bin/kifu-play" splinter --players random --games 2 --json >"$tmp/play.json" 2>/dev/null ||
	fail "kifu-play --json"
check "kifu-play --json: a player per side" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [p["player"] for p in d["players"]] == ["random #1", "random #2"], d
assert all(p["spec"] == "random" and p["games"] == 2 for p in d["players"]), d
assert sum(p["wins"] for p in d["players"]) == d["decided"], d
' "$tmp/play.json"
"$bin/kifu-play" --help >"$tmp/help" || fail "kifu-play --help"
check "kifu-play --help lists engine" grep -q "'engine\[:N\]'" "$tmp/help"

# Singular: "loses by force in 1 ply" (the move lets another side win at once).
"$bin/kifu-analyse" --file tests/data/analyse/blunders/splinter-quad-standard.yaml --to text \
	--playouts 300 --threads 1 --seed 3 >"$tmp/a.text" || fail "kifu-analyse exited $?"
check "kifu-analyse: '1 plies'" sh -c "! grep -q ' 1 plies' '$tmp/a.text'"
check "kifu-analyse: 'in 1 ply'" grep -q '?? loses by force in 1 ply$' "$tmp/a.text"
"$bin/kifu-analyse" --file tests/data/analyse/blunders/splinter-quad-standard.yaml --to yaml \
	--playouts 300 --threads 1 --seed 3 >"$tmp/a.yaml" || fail "kifu-analyse exited $?"
check "kifu-analyse yaml: 'in 1 ply'" grep -q "loses by force in 1 ply'}\$" "$tmp/a.yaml"
"$bin/kifu-play" splinter --players random --games 1 --max-plies 1 --quiet >"$tmp/one.yaml"
"$bin/kifu-export" --file "$tmp/one.yaml" --to text --ply 3 >/dev/null 2>"$tmp/err"
check "kifu-export: '(1 ply)'" grep -q 'past the end of the game (1 ply)$' "$tmp/err"

# kifu-analyse --store says what it stored (stderr; stdout keeps the review).
"$bin/kifu-analyse" --db "$tmp/k.db" --id 1 --playouts 20 --store --to json >"$tmp/rv.json" \
	2>"$tmp/err" || fail "kifu-analyse --store exited $?"
check "kifu-analyse --store: what was stored ($(cat "$tmp/err"))" \
	grep -q "^kifu-analyse: stored 1 review (engine:20, seed 1) in '$tmp/k.db': game 1\$" "$tmp/err"
check "kifu-analyse --store: stdout is the review" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
	"$tmp/rv.json"

# kifu-import --progress: progress lines in a log (stderr not a terminal), also with --quiet.
"$bin/kifu-import" --progress --db "$tmp/pr.db" examples/splinter/*.yaml >"$tmp/out" 2>"$tmp/err" ||
	fail "kifu-import --progress exited $?"
check "kifu-import --progress: a line" grep -q '^kifu-import: [0-9]* games\?, [0-9]* games/s' "$tmp/err"
check "kifu-import --progress: no terminal codes" sh -c "! grep -q \"\$(printf '\\r')\" '$tmp/err'"
check "kifu-import --progress: the summary" grep -q '^imported [0-9]*, duplicates 0, rejected 0$' "$tmp/out"
"$bin/kifu-import" --quiet --progress --db "$tmp/pr.db" examples/splinter/*.yaml >"$tmp/out" 2>"$tmp/err"
check "kifu-import --quiet --progress: a line" grep -q '^kifu-import: [0-9]* games\?, ' "$tmp/err"
"$bin/kifu-import" --db "$tmp/pr2.db" examples/splinter/*.yaml >"$tmp/out" 2>"$tmp/err"
check "kifu-import without --progress off a terminal: none" sh -c "! grep -q 'games/s' '$tmp/err'"
"$bin/kifu-import" --help >"$tmp/help"
check "kifu-import --help: --progress" grep -q '^  --progress ' "$tmp/help"

# kifu-search: a table of every game of examples/ (five games, four-player ones
# among them) fits 100 columns, names shortened in the table only; --limit and
# --offset page the list (the same rows as the whole list's).
"$bin/kifu-import" --quiet --db "$tmp/ex.db" examples/ 2>/dev/null
"$bin/kifu-search" --db "$tmp/ex.db" >"$tmp/all.txt" || fail "kifu-search exited $?"
"$bin/kifu-search" --db "$tmp/ex.db" --json >"$tmp/all.json" || fail "kifu-search --json exited $?"
check "kifu-search: a table wider than 100 columns" python3 -c '
import sys
w = max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8"))
assert w <= 100, w' "$tmp/all.txt"
check "kifu-search: shortened names" python3 - "$tmp/all.txt" "$tmp/all.json" <<'PY'
import json, re, sys
rows = json.load(open(sys.argv[2], encoding="utf-8"))
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[1:]
assert len(lines) == len(rows), (len(lines), len(rows))
cut = 0
for line, r in zip(lines, rows):
    assert line.split()[0] == str(r["id"]), (line, r)
    names = list(r["players"].values())
    if "\u2026" in line:
        cut += 1
        # every name whole, or a prefix of it and the ellipsis
        parts = re.split(r"\s{2,}", line.strip())[3].split(" - ")
        assert len(parts) == len(names), (parts, names)
        for part, name in zip(parts, names):
            assert part == name or (part.endswith("\u2026") and name.startswith(part[:-1])), (part, name)
    else:
        assert " - ".join(names) in line, (line, names)
assert cut > 0, "nothing was shortened"
# json keeps every name whole
assert any(len(r["players"]) == 4 and "Marta Sousa" in r["players"].values() for r in rows)
PY
"$bin/kifu-search" --db "$tmp/ex.db" --json --limit 3 --offset 2 >"$tmp/page.json" ||
	fail "kifu-search --limit --offset exited $?"
check "kifu-search --limit 3 --offset 2: rows 3 to 5" python3 -c '
import json, sys
a, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert p == a[2:5], (p, a[2:5])' "$tmp/all.json" "$tmp/page.json"
"$bin/kifu-search" --db "$tmp/ex.db" --limit 2 >"$tmp/page.txt" || fail "kifu-search --limit exited $?"
check "kifu-search --limit 2: a header and 2 rows" [ "$(wc -l <"$tmp/page.txt")" = 3 ]
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/all.json")
"$bin/kifu-search" --db "$tmp/ex.db" --json --offset $((n - 1)) >"$tmp/last.json" || fail "--offset exited $?"
check "kifu-search --offset n-1: the last game" python3 -c '
import json, sys
a, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert p == a[-1:], p' "$tmp/all.json" "$tmp/last.json"
"$bin/kifu-search" --db "$tmp/ex.db" --offset $((n + 5)) --json >"$tmp/none.json"
check "kifu-search --offset past the end: exit 0, nothing" [ $? -eq 0 ] && check "... []" grep -qx '\[\]' "$tmp/none.json"
for bad in "--limit 0" "--limit -1" "--offset -1" "--limit x"; do
	# shellcheck disable=SC2086
	"$bin/kifu-search" --db "$tmp/ex.db" $bad >/dev/null 2>"$tmp/err"
	check "kifu-search $bad: exit 2" [ $? -eq 2 ]
done
"$bin/kifu-search" --db "$tmp/ex.db" --game splay-schmidt --pattern 'e4=w+' --json >"$tmp/pat.json" ||
	fail "--pattern exited $?"
"$bin/kifu-search" --db "$tmp/ex.db" --game splay-schmidt --pattern 'e4=w+' --json --limit 2 --offset 1 \
	>"$tmp/patp.json" || fail "--pattern --limit exited $?"
check "kifu-search --pattern --limit 2 --offset 1" python3 -c '
import json, sys
a, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(a) >= 3 and p == a[1:3], (p, a)' "$tmp/pat.json" "$tmp/patp.json"
"$bin/kifu-search" --db "$tmp/ex.db" --game splinter --after d4-e4 --json >"$tmp/aft.json" ||
	fail "--after exited $?"
"$bin/kifu-search" --db "$tmp/ex.db" --game splinter --after d4-e4 --json --limit 1 --offset 1 \
	>"$tmp/aftp.json" || fail "--after --limit exited $?"
check "kifu-search --after --limit 1 --offset 1" python3 -c '
import json, sys
a, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(a) >= 2 and p == a[1:2], (p, a)' "$tmp/aft.json" "$tmp/aftp.json"

# The help these items touched stays within 80 columns (after the usage lines).
for t in kifu-stats kifu-play kifu-search; do
	"$bin/$t" --help | sed '1,/^$/d' >"$tmp/help"
	check "$t --help: a line over 80 columns" sh -c "! awk 'length > 80' '$tmp/help' | grep -q ."
done
"$bin/kifu-import" --help | grep -- '--progress\|--quiet\|(--progress\|(nohup' >"$tmp/help"
check "kifu-import --help: a line over 80 columns" sh -c "! awk 'length > 80' '$tmp/help' | grep -q ."
check "kifu-search --help: usage within 80 columns" sh -c "'$bin/kifu-search' --help | sed '/^\$/q' | awk 'length > 80 { exit 1 }'"
check "kifu-import --help: usage within 80 columns" sh -c "'$bin/kifu-import' --help | head -2 | awk 'length > 80 { exit 1 }'"

test_done
