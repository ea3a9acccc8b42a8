#!/bin/sh
# kifu-stats balance against a hand computation (issue 33): over the
# fixture of tests/cli/lib/balance-fixture.sh (mirror games of kifu-play at
# two levels, a four-sided game, games mixing SPECs, games of other players,
# stored reviews with several runs per game), a python3 script works out
# every column of every row from the database (games, players, the review
# runs and plies) and the games' moves as kifu-export gives them, with the
# legal moves of each position counted by kifu-perft, and compares them
# with the report's json; then csv and table agree with json, the chart is
# well-formed SVG with one panel per game and variant, filters apply, and an
# empty report still has its header.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/balance-fixture.sh
stats=$bin/kifu-stats
db=$tmp/b.db

check "the fixture is built" balance_fixture "$db"
check "balance as json" sh -c '"$0" --db "$1" --format json balance >"$2"' "$stats" "$db" \
	"$tmp/balance.json"

check "every column equals the hand computation" python3 - "$bin" "$db" "$tmp/balance.json" <<'PY'
import json, re, sqlite3, subprocess, sys

tools, db, got_path = sys.argv[1:]
SIDES = {"splay-schmidt": ["white", "black"],
         "splinter-quad": ["red", "blue", "green", "yellow"]}
SPEC = re.compile(r"^(random|mcts:[0-9]+|engine(:[0-9]+)?) #[0-9]+$")
Z = 1.959963984540054
con = sqlite3.connect(db)

def level_of(game, names):
    """The level of a game from its sides' player names, None when left out."""
    specs = [SPEC.match(n).group(1) if n is not None and SPEC.match(n) else None
             for n in (names.get(i) for i in range(len(SIDES[game])))]
    if all(s is None for s in specs):
        return "players"
    if None not in specs and len(set(specs)) == 1:
        return specs[0]
    return None

def legal(game, variant, first, moves):
    out = subprocess.run([tools + "/kifu-perft", game, "--variant", variant, "--first", first]
                         + (["--after", ",".join(moves)] if moves else []) + ["1"],
                         capture_output=True, text=True, check=True).stdout
    return int(re.match(r"depth 1: (\d+)", out).group(1))

def review(gid, plies):
    """The stored review: the run with the most playouts, the last stored among equals."""
    runs = con.execute("SELECT id, playouts FROM analysis_runs WHERE game_id = ?",
                       (gid,)).fetchall()
    if not runs:
        return None
    run = max(runs, key=lambda r: (r[1], r[0]))[0]
    rows = con.execute("SELECT ply, side_index, expected FROM analysis_plies WHERE run_id = ? "
                       "ORDER BY ply", (run,)).fetchall()
    assert [r[0] for r in rows] == list(range(1, plies + 1)), (gid, rows[:3])
    return [(r[1], r[2]) for r in rows]

def wilson(points, n):
    p = points / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z / d * (p * (1 - p) / n + Z * Z / (4 * n * n)) ** 0.5
    return max(0.0, c - h), min(1.0, c + h)

acc = {}
for gid, game, variant, first, result, plies in con.execute(
        "SELECT id, game, variant, first, result, plies FROM games ORDER BY id").fetchall():
    names = dict(con.execute("SELECT s.side_index, p.name FROM sides s JOIN players p "
                             "ON p.id = s.player_id WHERE s.game_id = ?", (gid,)).fetchall())
    level = level_of(game, names)
    if level is None:
        continue
    sides = SIDES[game]
    a = acc.setdefault((game, variant, level), dict(games=0, fin=0, points=0.0, draws=0,
                                                    plies=0, moves=0, pos=0, reviewed=0,
                                                    lead=[], drama=[], decided=[]))
    a["games"] += 1
    a["plies"] += plies
    if result != "unfinished":
        a["fin"] += 1
        if result == "draw":
            a["draws"] += 1
            a["points"] += 1 / len(sides)
        elif result == first:
            a["points"] += 1
    record = json.loads(subprocess.run([tools + "/kifu-export", "--db", db, "--id", str(gid),
                                        "--to", "json"], capture_output=True, text=True,
                                       check=True).stdout)
    moves = [m["move"] for m in record["moves"]]
    assert len(moves) == plies
    for i in range(plies):
        a["moves"] += legal(game, variant, first, moves[:i])
        a["pos"] += 1
    r = review(gid, plies)
    if r is None:
        continue
    a["reviewed"] += 1
    if len(sides) != 2:
        continue
    fm = sides.index(first)
    score = lambda side: [e if mover == side else 1 - e for mover, e in r]
    seq = [x for x in score(fm) if x != 0.5]
    a["lead"].append(sum(1 for x, y in zip(seq, seq[1:]) if (x > 0.5) != (y > 0.5)))
    if result in sides:
        w = score(sides.index(result))
        a["drama"].append(max(0.0, 0.5 - min(w)))
        at = next((i for i in range(plies) if all(x >= 0.9 for x in w[i:])), None)
        a["decided"].append(1.0 if at is None else (at + 1) / plies)

mean = lambda v: sum(v) / len(v) if v else None
def strength(level):
    """CLI.md's order of levels: random, mcts:N by N, engine:N by N, engine, other SPECs, players."""
    m = re.match(r"^(mcts|engine):([0-9]+)$", level)
    if m:
        return (1 if m.group(1) == "mcts" else 2, int(m.group(2)), level)
    return ({"random": 0, "engine": 3, "players": 5}.get(level, 4), 0, level)
order = sorted(acc, key=lambda k: (list(SIDES).index(k[0]), k[1], strength(k[2])))
want = []
for game, variant, level in order:
    a = acc[(game, variant, level)]
    two = len(SIDES[game]) == 2
    lo, hi = wilson(a["points"], a["fin"]) if a["fin"] else (None, None)
    want.append(dict(game=game, variant=variant, level=level, games=a["games"],
                     first_mover_score=a["points"] / a["fin"] if a["fin"] else None,
                     ci_low=lo, ci_high=hi,
                     draw_rate=a["draws"] / a["fin"] if a["fin"] else None,
                     mean_plies=a["plies"] / a["games"],
                     branching=a["moves"] / a["pos"] if a["pos"] else None,
                     reviewed=a["reviewed"],
                     lead_changes=mean(a["lead"]) if two else None,
                     drama=mean(a["drama"]) if two else None,
                     decided_at=mean(a["decided"]) if two else None))

got = json.load(open(got_path))["rows"]
bad = 0
if [(r["game"], r["level"]) for r in got] != [(r["game"], r["level"]) for r in want]:
    print("rows: got", [(r["game"], r["level"]) for r in got], "want",
          [(r["game"], r["level"]) for r in want])
    sys.exit(1)
for g, w in zip(got, want):
    for k, v in w.items():
        x = g.get(k, "absent")
        if v is None or isinstance(v, str) or x is None or isinstance(x, str):
            ok = x == v
        else:
            ok = abs(x - v) <= 1e-9 * max(1.0, abs(v))
        if not ok:
            print("%s %s: %s = %r, hand computation %r" % (w["game"], w["level"], k, x, v))
            bad += 1
# The fixture must exercise what it is for.
levels = {(r["game"], r["level"]): r for r in want}
assert ("splay-schmidt", "players") in levels and ("splinter-quad", "random") in levels
assert levels[("splinter-quad", "random")]["reviewed"] > 0
assert any(r["drama"] for r in want) and any(r["lead_changes"] for r in want)
assert any(r["decided_at"] is not None and r["decided_at"] < 1 for r in want)
sys.exit(1 if bad else 0)
PY

# The same rows in csv and table, and the header of an empty report.
check "csv has the columns of CLI.md" sh -c '"$0" --db "$1" --format csv balance | head -1 |
	grep -qx "game,variant,level,games,first_mover_score,ci_low,ci_high,draw_rate,mean_plies,branching,reviewed,lead_changes,drama,decided_at.*"' \
	"$stats" "$db"
check "csv agrees with json" python3 - "$stats" "$db" "$tmp/balance.json" <<'PY'
import csv, io, json, subprocess, sys
stats, db, js = sys.argv[1:]
rows = list(csv.DictReader(io.StringIO(subprocess.run([stats, "--db", db, "--format", "csv",
                                                       "balance"], capture_output=True,
                                                      text=True, check=True).stdout)))
want = json.load(open(js))["rows"]
assert len(rows) == len(want)
for c, j in zip(rows, want):
    for k, v in j.items():
        assert (c[k] == "") == (v is None), (k, c[k], v)
        if isinstance(v, float):
            assert float(c[k]) == v, (k, c[k], v)
PY
"$stats" --db "$db" balance >"$tmp/table" 2>"$tmp/err"
check "the table is written" test $? -eq 0 -a -s "$tmp/table" -a ! -s "$tmp/err"
check "the table has a row per level" test "$(grep -c 'splay-schmidt.*\(random\|mcts:8\|players\)' "$tmp/table")" -eq 3
check "a filter keeps its game only" sh -c '"$0" --db "$1" --game splinter-quad --format csv balance |
	tail -n +2 | cut -d, -f1 | sort -u | grep -qx splinter-quad' "$stats" "$db"
"$stats" --db "$db" --game glaisher --format csv balance >"$tmp/empty"
check "an empty report still has its header" grep -q '^game,variant,level,games,first_mover_score' "$tmp/empty"

# A read-only database still answers, with the same figures (the report writes nothing).
cp "$db" "$tmp/ro.db" && chmod a-w "$tmp/ro.db"
"$stats" --db "$tmp/ro.db" --format json balance >"$tmp/ro.json" 2>"$tmp/ro.err"
check "a read-only database: the same report" test_cmp "$tmp/balance.json" "$tmp/ro.json"

# A damaged database (values no kifu writes) is exit 3 naming the damage, never a silent figure.
damaged() { # DESCRIPTION PATTERN SQL
	cp "$db" "$tmp/d.db"
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
		"$tmp/d.db" "$3"
	"$stats" --db "$tmp/d.db" balance >"$tmp/d.out" 2>"$tmp/d.err"
	rc=$?
	if [ "$rc" -ne 3 ] || ! grep -q "is damaged: .*$2" "$tmp/d.err"; then
		fail "$1: exit $rc, $(cat "$tmp/d.err")"
	fi
	checks=$((checks + 1))
}
damaged "an expected score past 1" "expected score of game 4, ply 3 is not from 0 to 1" \
	"UPDATE analysis_plies SET expected = 1.5 WHERE ply = 3 AND run_id = (SELECT id FROM analysis_runs WHERE game_id = 4 AND playouts = 20)"
damaged "a side that is not one" "side of game 9, ply 2 is not a side of 'splinter-quad'" \
	"UPDATE analysis_plies SET side_index = 4 WHERE ply = 2 AND run_id IN (SELECT id FROM analysis_runs WHERE game_id = 9)"
damaged "games.plies not the moves'" "game 2\\b" \
	"UPDATE games SET plies = 2147483647 WHERE id = 2"
# Another run of a game is not its review: damage there changes nothing.
cp "$db" "$tmp/d.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
	"$tmp/d.db" "UPDATE analysis_plies SET expected = 7 WHERE run_id = (SELECT id FROM analysis_runs WHERE game_id = 4 AND playouts = 12)"
"$stats" --db "$tmp/d.db" --format json balance >"$tmp/d.json"
check "a run that is not the review is not read" test_cmp "$tmp/balance.json" "$tmp/d.json"

# The chart: one panel per game and variant, a score and interval per level.
check "--svg writes the chart" sh -c '"$0" --db "$1" --svg "$2" balance >/dev/null' "$stats" "$db" \
	"$tmp/b.svg"
check "the chart is well-formed SVG with a panel per game and variant" python3 - "$tmp/b.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
assert [p.get("data-game") for p in panels] == ["splay-schmidt standard",
                                                "splinter-quad standard"], panels
levels = [c.get("data-level") for p in panels for c in p.iter(ns + "g")
          if c.get("data-level")]
assert levels == ["random", "mcts:8", "players", "random"], levels
# A fair game's score, dashed: 1 / sides.
fair = [float(l.get("x1")) for p in panels for l in p.iter(ns + "line") if l.get("class") == "fair"]
assert len(fair) == 2 and abs((fair[1] - 290) * 2 - (fair[0] - 290)) < 0.2, fair
PY
# --help names the report and its definitions, within 80 columns.
"$stats" --help >"$tmp/help"
check "--help lists balance" grep -q '^  balance    per game, variant and level' "$tmp/help"
check "--help defines its columns" grep -q 'lead_changes, the mean number' "$tmp/help"
check "balance's help lines fit 80 columns" sh -c 'sed -n "/^  balance /,/^  tree /p;
	/^  - balance:/,/^\$/p" "$0" | awk "length > 80 { exit 1 }"' "$tmp/help"
test_done "$checks checks"
