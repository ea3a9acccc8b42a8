#!/bin/sh
# kifu-stats and kifu-search as a user runs them, on a database imported
# from records written here (the figures themselves are worked out in
# tests/test_stats.c): options and exit codes, --help naming every report
# and definition, csv read back by python3's csv module (header = the union
# of the columns, RFC 4180 quoting, empty cells), json read back by its json
# module (one object with `rows`, keys = the csv header names, numbers as
# numbers, null scores, absent keys, `moves` arrays), the table, the charts
# (well-formed SVG), and kifu-search's table, JSON, order and exit codes.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
stats=$bin/kifu-stats
search=$bin/kifu-search

# Four schmidt games (two transposing), a drawn four-player game, a glaisher
# game with spaces in its move, a player whose name needs quoting in csv.
cat >"$tmp/games.yaml" <<'EOF'
---
game: splay-schmidt
event: Club
date: 2024-03-10
players: {white: 'Doe, "J"', black: Bob}
moves: [d4, f6, e5, c3]
result: white
termination: resignation
---
game: splay-schmidt
event: Open
date: 2024-05
players: {white: Bob, black: Cat}
moves: [e5, f6, d4]
result: black
termination: resignation
---
game: splay-schmidt
date: 2024-06-15
players: {white: Cat, black: Bob}
moves: [d4, e7]
---
game: splay-schmidt
date: '2023'
players: {white: Cat, black: 'Doe, "J"'}
moves: [d4, f6]
result: draw
termination: agreement
---
game: splinter-quad
event: Club
players: {red: Dan, blue: Cat, green: Bob, yellow: 'Doe, "J"'}
moves: [c3-c2, c4-b4, h4-i4, h5-i5]
result: draw
termination: agreement
---
game: glaisher
date: 2024-01-01
moves: ['f8>nw 3+2+1 g6']
result: red
termination: resignation
EOF
db=$tmp/t.db
"$bin/kifu-import" --quiet --db "$db" "$tmp/games.yaml" >/dev/null 2>&1
check "the test games import" [ $? -eq 0 ]

# --help, --version, usage errors
"$stats" --help >"$tmp/out" 2>"$tmp/err"
check "--help exits 0" [ $? -eq 0 ]
check "--help prints the usage" grep -q '^usage: kifu-stats \[--db FILE\] \[FILTERS\] \[--format table|csv|json\] \[--svg FILE\] REPORT' "$tmp/out"
for word in summary openings players lengths 'finished game' 'number of sides' 'first mover' \
	'Wilson' draw_rate 'median' '--by-position' '--min-games' 'virtual' 'four-player' \
	'RFC 4180' 'first day' 'whole period'; do
	check "--help explains '$word'" grep -q -- "$word" "$tmp/out"
done
check "--help prints nothing on stderr" [ ! -s "$tmp/err" ]
"$stats" --version >"$tmp/out"
check "--version names the tool" grep -q '^kifu-stats (kifu) [0-9]' "$tmp/out"
usage_error() { # description, then arguments: exit 2 with the usage line
	desc=$1
	shift
	"$stats" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"
	check "$desc exits 2" [ $? -eq 2 ]
	check "$desc prints the usage" grep -q '^usage: kifu-stats' "$tmp/err"
}
usage_error "no report"
usage_error "an unknown report" summry
check "an unknown report is named" grep -q "unknown report 'summry'" "$tmp/err"
usage_error "two reports" summary players
usage_error "--depth with summary" summary --depth 3
usage_error "--depth 0" openings --depth 0
usage_error "an unknown game" --game chess summary
usage_error "a variant of another game" --game splay-schmidt --variant advanced summary
usage_error "an unknown termination" --termination resigned summary
usage_error "a bad date" --since 2024-02-30 summary
usage_error "an unknown format" --format xml summary
usage_error "an unknown option" --bogus summary
"$stats" --db "$db" --since 2024-13 summary >/dev/null 2>"$tmp/err"
check "a bad date is quoted" grep -q "'2024-13'" "$tmp/err"

# csv and json of every report agree, and have the shapes CLI.md fixes.
for report in summary "openings --depth 3" "openings --depth 3 --by-position" players lengths; do
	"$stats" --db "$db" $report --format csv >"$tmp/csv"
	check "$report: csv exits 0" [ $? -eq 0 ]
	"$stats" --db "$db" $report --format json >"$tmp/json"
	check "$report: json exits 0" [ $? -eq 0 ]
	python3 - "$tmp/csv" "$tmp/json" "$report" <<'PY' || test_status=1
import csv, json, sys
report = sys.argv[3].split()[0]
raw = open(sys.argv[1], newline="").read()
assert raw.endswith("\r\n"), "csv lines end in CRLF"
rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], rows[1:]
doc = json.load(open(sys.argv[2]))
assert set(doc) == {"report", "rows"} and doc["report"] == report, doc.keys()
jrows = doc["rows"]
assert len(jrows) == len(body), (len(jrows), len(body))
for r in body:
    assert len(r) == len(header), (r, header)
order = []
for j, r in zip(jrows, body):
    keys = [k for k in j if k != "moves"]
    for k in keys:
        if k not in order:
            order.append(k)
    for k, v in j.items():
        if k == "moves":
            assert isinstance(v, list) and all(isinstance(m, str) for m in v)
            assert " ".join(v) == j["line"]
            continue
        c = r[header.index(k)]
        if v is None:
            assert c == "", (k, c)
        elif isinstance(v, str):
            assert c == v, (k, c, v)
        else:
            assert isinstance(v, (int, float)) and not isinstance(v, bool), (k, v)
            assert float(c) == v, (k, c, v)
    for k in header:
        if k not in j:
            assert r[header.index(k)] == "", ("absent key with a value", k)
# the header is the union of the rows' keys in order of first appearance
assert order == header, (order, header)
PY
done

# The summary: one row per game and variant, exact figures where easy.
"$stats" --db "$db" summary --format json >"$tmp/json"
python3 - "$tmp/json" <<'PY' || test_status=1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["game"] for r in rows] == ["splay-schmidt", "splinter-quad", "glaisher"], rows
s, q, g = rows
# schmidt: white won 1, black 1, 1 draw, 1 unfinished: (1 + 1/2) / 3
assert (s["games"], s["wins_white"], s["wins_black"], s["draws"], s["unfinished"]) == (4, 1, 1, 1, 1)
assert abs(s["first_mover_score"] - 0.5) < 1e-12 and abs(s["draw_rate"] - 1 / 3) < 1e-12
assert s["median_plies"] == 2.5 and s["mean_plies"] == 2.75, s
assert "wins_red" not in s
# the drawn four-player game: 1/4 to the first mover
assert q["first_mover_score"] == 0.25 and q["draw_rate"] == 1 and q["wins_yellow"] == 0
assert g["wins_red"] == 1 and g["first_mover_score"] == 1
PY
"$stats" --db "$db" summary >"$tmp/table"
check "table: the header line, each side's wins right after games" \
	grep -q '^game  *variant  *games  *white  *black  *red  *blue  *green  *yellow  *draws  *unf  *drawn  *fm_score  *95% ci  *mean  *median$' "$tmp/table"
check "table: ci_low-ci_high in one column" grep -q '^splay-schmidt  .* 0\.[0-9]*-[01]\.[0-9]* ' "$tmp/table"
check "table: rows are aligned" python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
col = lines[0].index("games") + len("games")
assert all(l[col - 1].isdigit() for l in lines[1:]), lines
assert not any(l.endswith(" ") for l in lines)
' "$tmp/table"
check "a name with a comma and quotes is quoted in csv" sh -c \
	"'$stats' --db '$db' players --format csv | grep -q '^\"Doe, \"\"J\"\"\",'"

# A table for one game fits a terminal of 100 columns, the game said once above it,
# over the examples (every game and variant, 100-game archives included).
"$bin/kifu-import" --db "$tmp/ex.db" --quiet examples/*/ >/dev/null 2>&1
for g in splay-schmidt splay-kisenwether splinter splinter-quad glaisher; do
	for r in summary openings; do
		"$stats" --db "$tmp/ex.db" --game "$g" "$r" >"$tmp/t1"
		w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/t1")
		check "$g $r table: $w columns, 100 at most" [ "$w" -le 100 -a "$w" -gt 0 ]
		check "$g $r table: the game said above the table" grep -q "^game: $g" "$tmp/t1"
	done
done
"$stats" --db "$tmp/ex.db" --game glaisher --format csv summary | head -1 >"$tmp/t1"
check "csv keeps CLI.md's column names and order" [ "$(cat "$tmp/t1")" = \
	"$(printf 'game,variant,games,wins_red,wins_yellow,draws,unfinished,draw_rate,first_mover_score,ci_low,ci_high,mean_plies,median_plies\r')" ]

# Openings: transpositions, moves with spaces, --min-games, the filters.
"$stats" --db "$db" --game splay-schmidt openings --depth 3 --format csv >"$tmp/csv"
check "by line, d4 f6 e5 is a row" grep -q '^splay-schmidt,standard,d4 f6 e5,3,1,' "$tmp/csv"
check "by line, e5 f6 d4 is a row" grep -q '^splay-schmidt,standard,e5 f6 d4,3,1,' "$tmp/csv"
"$stats" --db "$db" --game splay-schmidt openings --depth 3 --by-position --format csv >"$tmp/csv"
check "by position, the transposition is one row of 2 games" grep -q '^splay-schmidt,standard,d4 f6 e5,3,2,1,1,0,0,0.5,' "$tmp/csv"
check "by position, the other order is gone" sh -c "! grep -q 'e5 f6 d4' '$tmp/csv'"
check "by position has a hash column" sh -c "head -1 '$tmp/csv' | grep -q ',hash'"
"$stats" --db "$db" --game glaisher openings --format json >"$tmp/json"
check "a glaisher move stays whole in moves" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["rows"][0]
assert r["moves"] == ["f8>nw 3+2+1 g6"] and r["line"] == "f8>nw 3+2+1 g6", r
' "$tmp/json"
n=$("$stats" --db "$db" --game splay-schmidt openings --min-games 2 --format csv | wc -l)
check "--min-games 2 keeps d4 and d4 f6 (and the header)" [ "$n" -eq 3 ]
n=$("$stats" --db "$db" --player Cat --since 2024 --until 2024-06 --event Open summary --format csv | wc -l)
check "filters combine (one game: header and a row)" [ "$n" -eq 2 ]
n=$("$stats" --db "$db" --termination agreement summary --format csv | wc -l)
check "--termination agreement: schmidt and quad rows" [ "$n" -eq 3 ]
"$stats" --db "$db" --game splay-kisenwether summary --format json >"$tmp/json"
check "no game: json with empty rows" python3 -c '
import json, sys
assert json.load(open(sys.argv[1])) == {"report": "summary", "rows": []}' "$tmp/json"
"$stats" --db "$db" --no-cache --game splay-schmidt openings --depth 3 --by-position --format csv >"$tmp/csv2"
"$stats" --db "$db" --game splay-schmidt openings --depth 3 --by-position --format csv >"$tmp/csv"
check "--no-cache gives the same figures" cmp -s "$tmp/csv" "$tmp/csv2"

# Charts: well-formed SVG for every report.
for report in summary openings players lengths; do
	"$stats" --db "$db" $report --svg "$tmp/$report.svg" >/dev/null
	check "$report --svg exits 0" [ $? -eq 0 ]
	check "$report --svg is well-formed" xmllint --noout "$tmp/$report.svg"
	check "$report --svg is an svg" grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$tmp/$report.svg"
done
check "the quoted name is escaped in the chart" grep -q 'Doe, &quot;J&quot;' "$tmp/players.svg"
"$stats" --db "$db" summary --svg "$tmp/nodir/x.svg" >/dev/null 2>"$tmp/err"
check "an svg that cannot be written exits 3" [ $? -eq 3 ]

# $KIFU_DB
KIFU_DB=$db "$stats" lengths --format csv >"$tmp/out"
check "\$KIFU_DB names the database" grep -q '^glaisher,standard,1,1' "$tmp/out"
printf 'not a database' >"$tmp/junk.db"
"$stats" --db "$tmp/junk.db" summary >/dev/null 2>"$tmp/err"
check "a file that is no database exits 3" [ $? -eq 3 ]

# kifu-search
"$search" --help >"$tmp/out"
check "search --help exits 0" [ $? -eq 0 ]
check "search --help prints the usage" grep -q '^usage: kifu-search \[--db FILE\] \[FILTERS\] \[--after MOVES --game G' "$tmp/out"
"$search" --db "$db" --after e5,f6,d4 --game splay-schmidt >"$tmp/out"
check "search exits 0" [ $? -eq 0 ]
check "search table header" grep -q '^id  game  *variant  *players  *date  *result  *plies  ply$' "$tmp/out"
check "search finds 2 games, newest first" sh -c "sed -n '2p' '$tmp/out' | grep -q '^ 2  splay-schmidt  standard  Bob - Cat  *2024-05  *black  *3  *3$' && sed -n '3p' '$tmp/out' | grep -q '^ 1  splay-schmidt' && [ \$(wc -l <'$tmp/out') -eq 3 ]"
"$search" --db "$db" --after d4,f6,e5 --game splay-schmidt --json >"$tmp/json"
check "search --json" python3 -c '
import json, sys
hits = json.load(open(sys.argv[1]))
assert [h["id"] for h in hits] == [2, 1], hits
h = hits[1]
assert h == {"id": 1, "game": "splay-schmidt", "variant": "standard",
             "players": {"white": "Doe, \"J\"", "black": "Bob"}, "date": "2024-03-10",
             "result": "white", "plies": 4, "ply": 3}, h
' "$tmp/json"
"$search" --db "$db" --json >"$tmp/json"
check "search without a position lists every game, newest first, undated last" python3 -c '
import json, sys
hits = json.load(open(sys.argv[1]))
assert [h["id"] for h in hits] == [3, 2, 1, 6, 4, 5], [h["id"] for h in hits]
assert "ply" not in hits[0] and hits[-1]["date"] is None and hits[3]["players"] == {}
' "$tmp/json"
"$search" --db "$db" --after f6 --game splay-schmidt >"$tmp/out"
check "no match exits 0" [ $? -eq 0 ]
check "no match prints an empty table" [ "$(wc -l <"$tmp/out")" -eq 1 ]
"$search" --db "$db" --after f6 --game splay-schmidt --json >"$tmp/out"
check "no match prints []" [ "$(cat "$tmp/out")" = "[]" ]
"$search" --db "$db" --after d4,d4 --game splay-schmidt >"$tmp/out" 2>"$tmp/err"
check "an illegal move exits 1" [ $? -eq 1 ]
check "an illegal move is diagnosed" grep -q "kifu-search: error: --after: ply 2: illegal move 'd4'" "$tmp/err"
"$search" --db "$db" --after d4 >"$tmp/out" 2>"$tmp/err"
check "--after without --game exits 2" [ $? -eq 2 ]
"$search" --db "$db" --after d4 --game chess >"$tmp/out" 2>"$tmp/err"
check "an unknown game exits 2" [ $? -eq 2 ]
"$search" --db "$db" --after d4 --game glaisher --variant nope >"$tmp/out" 2>"$tmp/err"
check "an unknown variant exits 2" [ $? -eq 2 ]
"$search" --db "$db" --player Cat --until 2024-05 --json >"$tmp/json"
check "search filters" python3 -c '
import json, sys
assert [h["id"] for h in json.load(open(sys.argv[1]))] == [2, 4]' "$tmp/json"
# A partial --until covers its whole period (CLI.md): June is game 3's 2024-06-15 (not
# until 1 June), a year all of it; a record's '2023' is 2023-01-01.
ids() { python3 -c 'import json, sys; print(*[h["id"] for h in json.load(sys.stdin)])'; }
check "--since 2024-06 --until 2024-06 is the whole of June" \
	[ "$("$search" --db "$db" --since 2024-06 --until 2024-06 --json | ids)" = "3" ]
check "--until 2024-06 takes in 2024-06-15" \
	[ "$("$search" --db "$db" --until 2024-06 --json | ids)" = "3 2 1 6 4" ]
check "--since 2023 --until 2023: the record's '2023'" \
	[ "$("$search" --db "$db" --since 2023 --until 2023 --json | ids)" = "4" ]
check "kifu-stats --until 2024: every dated game" \
	[ "$("$stats" --db "$db" --until 2024 lengths --format csv | awk -F, 'NR > 1 { n += $4 } END { print n }')" = 5 ]

# tree: every format, the csv header, transpositions, --min-games, usage errors.
"$stats" --db "$db" --game splay-schmidt tree --format csv >"$tmp/csv"
check "tree: csv exits 0" [ $? -eq 0 ]
check "tree: csv header as CLI.md fixes it" [ "$(head -1 "$tmp/csv")" = \
	"$(printf 'move,games,wins_white,wins_black,draws,unfinished,mover_score,ci_low,ci_high,mean_plies,first_date,last_date\r')" ]
check "tree: d4 first, 3 games, white 1 + 1/2 of 2" grep -q '^d4,3,1,0,1,1,0.75,' "$tmp/csv"
check "tree: then e5, 1 game" [ "$(sed -n 3p "$tmp/csv" | cut -d, -f1-7)" = "e5,1,0,1,0,0,0" ]
check "tree: two moves" [ "$(wc -l <"$tmp/csv")" -eq 3 ]
"$stats" --db "$db" --game splay-schmidt tree --format json >"$tmp/json"
check "tree: json has the rows, hash and to_move" python3 -c '
import json, re, sys
r = json.load(open(sys.argv[1]))
assert r["report"] == "tree", r
rows = r["rows"]
assert [x["move"] for x in rows] == ["d4", "e5"], rows
assert rows[0]["games"] == 3 and rows[0]["mover_score"] == 0.75, rows
assert rows[0]["to_move"] == "white" and re.fullmatch("[0-9a-f]{16}", rows[0]["hash"]), rows
assert abs(rows[0]["mean_plies"] - 8 / 3) < 1e-9, rows' "$tmp/json"
"$stats" --db "$db" --game splay-schmidt tree >"$tmp/out"
check "tree: table exits 0" [ $? -eq 0 ]
check "tree: the table has d4" grep -q '^d4 ' "$tmp/out"
"$stats" --db "$db" --game splay-schmidt tree --after e5,f6,d4 --format csv >"$tmp/csv"
check "tree: d4 f6 e5 reached by e5 f6 d4: c3 of the game that went on" \
	[ "$(sed -n 2p "$tmp/csv" | cut -d, -f1-6)" = "c3,1,1,0,0,0" ]
"$stats" --db "$db" --game splay-schmidt tree --after d4,f6,e5 --format json >"$tmp/json2"
"$stats" --db "$db" --game splay-schmidt tree --after e5,f6,d4 --format json >"$tmp/json"
check "tree: both move orders give the same tree" cmp -s "$tmp/json" "$tmp/json2"
n=$("$stats" --db "$db" --game splay-schmidt tree --min-games 2 --format csv | wc -l)
check "tree --min-games 2: d4 only (and the header)" [ "$n" -eq 2 ]
"$stats" --db "$db" --game glaisher --variant standard tree --format json >"$tmp/json"
check "tree: a glaisher move stays whole" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["rows"][0]["move"] == "f8>nw 3+2+1 g6"' "$tmp/json"
"$stats" --db "$db" --game splay-schmidt tree --svg "$tmp/tree.svg" >/dev/null
check "tree --svg exits 0" [ $? -eq 0 ]
check "tree --svg is well-formed" xmllint --noout "$tmp/tree.svg"
check "tree --svg names the side to move" grep -q 'side to move (white)' "$tmp/tree.svg"
usage_error "tree without --game" tree
check "tree without --game says so" grep -q 'tree needs --game' "$tmp/err"
"$stats" --db "$db" --game glaisher tree >"$tmp/out" 2>"$tmp/err"
check "tree of glaisher without --variant exits 2" [ $? -eq 2 ]
check "tree of glaisher without --variant says so" grep -q "needs a variant" "$tmp/err"
usage_error "tree --depth without --html" --game splay-schmidt tree --depth 3
check "tree --depth without --html says so" grep -q 'depth applies to openings and tree --html' "$tmp/err"
usage_error "--after with summary" --game splay-schmidt summary --after d4
"$stats" --db "$db" --game splay-schmidt tree --after d4,d4 >"$tmp/out" 2>"$tmp/err"
check "tree: an illegal move in --after exits 2" [ $? -eq 2 ]
check "tree: the illegal move is diagnosed" grep -q "kifu-stats: error: --after: ply 2: illegal move 'd4'" "$tmp/err"
"$stats" --db "$db" --game splay-schmidt tree --after zz9 >"$tmp/out" 2>"$tmp/err"
check "tree: an unreadable move in --after exits 2" [ $? -eq 2 ]

test_done
