#!/bin/sh
# kifu-analyse as a user runs it: every blunder position of
# tests/data/analyse/blunders/ (one per game and variant, the record's last
# move lets the opponent win at once) reviewed from the file: the last ply
# marked ?? in json, its yaml comment starting with ??, the text table
# marking it; on one of them, the same seed with 1 and 2 threads gives
# byte-identical output in every format, another seed another json; html
# pages (browser.sh checks them in Chromium); each side's accuracy, marks
# and mean loss in text, json (against a transcription of lichess's
# accuracy apart), html and the stored review; --values positions; a game
# from the database by --id and by FILTERS; --store and the players columns
# it feeds (accuracy included); then usage errors (exit 2) and a missing
# database (exit 3).
set -u
. tests/cli/lib/test-lib.sh
analyse=$bin/kifu-analyse
here=$(cd "$(dirname "$0")/../.." && pwd)
data=$here/tests/data/analyse

"$analyse" --help | grep -q '^usage: kifu-analyse' || fail "--help"
"$analyse" --version | grep -q '^kifu-analyse (kifu) ' || fail "--version"

# Blunders: the last ply is ??, at reduced playouts for speed (test_analyse
# checks the default playouts and several seeds); splay-kisenwether's game is
# 364 plies long, too long to review whole here.
for f in "$data"/blunders/*.yaml; do
	name=$(basename "$f" .yaml)
	[ "$name" = splay-kisenwether-standard ] && continue
	"$analyse" --file "$f" --to json --playouts 300 --threads 1 --seed 3 -o "$tmp/$name-1.json" ||
		fail "$name: json exited $?"
	check "$name: last ply not ??" python3 - "$tmp/$name-1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) == 1, 'one game in an array'
g = d[0]
plies = g['plies']
assert len(plies) == len(g['moves']), 'a ply per move'
for i, p in enumerate(plies):
    assert p['ply'] == i + 1 and p['move'] == g['moves'][i]['move']
    assert set(p) == {'ply', 'side', 'move', 'expected', 'best', 'best_score',
                      'played_score', 'loss', 'mark', 'won_in', 'loses_in'}
    for k in ('expected', 'best_score', 'played_score', 'loss'):
        assert 0 <= p[k] <= 1, k
    assert abs(p['loss'] - max(0, p['best_score'] - p['played_score'])) < 2e-4
    l = p['loss'] + 1e-9
    # proven lost while the engine's move is not (its score above 0): ?? whatever the loss
    forced = p['loses_in'] is not None and p['best_score'] > 0
    want = '??' if l >= 0.35 or forced else '?' if l >= 0.2 else '?!' if l >= 0.1 else None
    # the json's 4 decimals cannot tell a loss just under a threshold from one on it
    near = any(abs(p['loss'] - t) <= 5e-5 for t in (0.1, 0.2, 0.35))
    assert p['mark'] == want or (near and not forced), (p, want)
    if p['loses_in'] is not None:
        assert p['played_score'] == 0 and p['loses_in'] >= 1, p
    if p['won_in'] is not None:
        assert p['best_score'] == 1 and p['won_in'] >= 1, p
assert d[0]['analysis']['engine'] == 'engine:300', d[0]['analysis']
last = plies[-1]
assert last['mark'] == '??', last
assert last['best'] != last['move']
# the move lets another side win at once (or at the move itself, in
# splinter-quad): the solver proves it
assert last['loses_in'] in (1, 2), last
PY
done

# One game in every format, 1 and 2 threads, at reduced playouts.
f=$data/blunders/splinter-knockout.yaml
for to in yaml json text; do
	"$analyse" --file "$f" --to $to --playouts 300 --threads 1 >"$tmp/a1.$to" || fail "--to $to exited $?"
	"$analyse" --file "$f" --to $to --playouts 300 --threads 2 >"$tmp/a2.$to"
	check "--to $to: 1 and 2 threads differ" cmp -s "$tmp/a1.$to" "$tmp/a2.$to"
done
"$analyse" --file "$f" --to json --playouts 300 --seed 2 >"$tmp/seed2.json"
check "seeds 1 and 2 gave the same review" sh -c "! cmp -s '$tmp/a1.json' '$tmp/seed2.json'"
# yaml: a valid record whose last move's comment starts with ?? and names the engine's move
check "yaml review is not a valid record" "$bin/kifu-validate" "$tmp/a1.yaml" >/dev/null
best=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[0]['plies'][-1]['best'])" "$tmp/a1.json")
check "yaml: last comment" grep -q "comment: '?? best $best [0-9.]*, played [0-9.]*, loses by force in 2 plies'}\$" "$tmp/a1.yaml"
check "text: no table header" grep -q '^  ply  side ' "$tmp/a1.text"
check "text: last ply not marked" sh -c "grep '^ *[0-9]' '$tmp/a1.text' | tail -n 1 | grep -q '?? loses by force in 2 plies\$'"
check "text: no engine spec in the heading" grep -q '; engine:300, seed 1$' "$tmp/a1.text"
check "text: no line per side with its accuracy" test "$(grep -c '^[a-z]*: accuracy [0-9.]*, [0-9]* ?!, [0-9]* ?, [0-9]* ??, mean loss ' "$tmp/a1.text")" -eq 2

# --values positions: each move valued by the search of the position after it;
# the same seed the same review for any thread count; not with --store
"$analyse" --file "$f" --to json --playouts 100 --values positions --threads 1 >"$tmp/v1.json" ||
	fail "--values positions exited $?"
"$analyse" --file "$f" --to json --playouts 100 --values positions --threads 2 >"$tmp/v2.json"
check "--values positions: 1 and 2 threads differ" cmp -s "$tmp/v1.json" "$tmp/v2.json"
"$analyse" --file "$f" --to json --playouts 100 --threads 1 >"$tmp/t1.json"
check "--values positions: the same review as tree" sh -c "! cmp -s '$tmp/v1.json' '$tmp/t1.json'"
check "--values positions: the last ply (a loss at once) not ??" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))[0]['plies'][-1]
assert p['mark'] == '??' and p['loses_in'] == 2, p" "$tmp/v1.json"
# --engine mcts:N reviews with mcts (no proofs) and names it
"$analyse" --file "$f" --to json --engine mcts:100 --threads 1 >"$tmp/m.json" || fail "--engine mcts:100 exited $?"
check "--engine mcts:100: not named, or proofs" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))[0]
assert d['analysis']['engine'] == 'mcts:100' and d['analysis']['playouts'] == 100
assert all(p['won_in'] is None and p['loses_in'] is None for p in d['plies'])" "$tmp/m.json"
# -o writes the same as stdout
"$analyse" --file "$f" --to json --playouts 300 -o "$tmp/o.json"
check "-o differs from stdout" cmp -s "$tmp/o.json" "$tmp/a1.json"

# From the database: --id gives one object, FILTERS an array.
db=$tmp/k.db
"$bin/kifu-import" --db "$db" --quiet "$data/blunders" >/dev/null 2>&1
"$analyse" --db "$db" --id 1 --to json --playouts 100 >"$tmp/id.json" || fail "--id exited $?"
check "--id: not one object with plies" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d, dict) and d['plies']" "$tmp/id.json"
"$analyse" --db "$db" --game splinter --to json --playouts 100 >"$tmp/f.json" || fail "FILTERS exited $?"
check "FILTERS: not the two splinter games" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 2 and all(g['game'] == 'splinter' for g in d)" "$tmp/f.json"

# --store: the review kept in the database; the same settings replace it,
# another seed is kept beside it; kifu-stats players then gives each
# player's analysed moves, mean loss and mistakes, checked against the
# stored rows (the run with most playouts, the last stored among equals).
sdb=$tmp/store.db
# lichess's AccuracyPercent transcribed apart (CLI.md): each side's accuracy from
# plies of (side, expected, played_score, loss), for the checks below
cat >"$tmp/accuracy.py" <<'PY'
import math
def move_acc(loss):
    a = 103.1668 * math.exp(-0.04354 * 100 * max(0, loss)) - 3.1669 + 1
    return min(100, max(0, a))
def pstd(xs):
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))
def sides(plies, nsides):
    n = len(plies)
    vals = []
    for k in range(n + 1):
        side, v = (plies[k][0], plies[k][1]) if k < n else (plies[-1][0], plies[-1][2])
        vals.append(100 * (1 - v if nsides == 2 and side != 0 else v))
    ws = min(8, max(2, n // 10))
    windows = [vals[:ws]] * (min(ws, len(vals)) - 2)
    windows += [vals] if len(vals) <= ws else [vals[i:i + ws] for i in range(len(vals) - ws + 1)]
    weights = [min(12, max(0.5, pstd(w))) for w in windows]
    out = {}
    for s in range(nsides):
        accs = [(move_acc(p[3]), weights[i]) for i, p in enumerate(plies) if p[0] == s]
        if not accs:
            out[s] = None
            continue
        wm = sum(a * w for a, w in accs) / sum(w for a, w in accs)
        hm = 0 if any(a == 0 for a, w in accs) else len(accs) / sum(1 / a for a, w in accs)
        out[s] = (wm + hm) / 2
    return out
PY
"$bin/kifu-import" --db "$sdb" --quiet "$data/splinter-knockout.yaml" "$data/glaisher-standard.yaml" \
	"$here/examples/splinter/splinter-knockout-01.yaml" >/dev/null 2>&1
"$bin/kifu-stats" --db "$sdb" --format csv players >"$tmp/p0.csv"
check "players: review columns before any review" sh -c "! grep -q analysed_moves '$tmp/p0.csv'"
"$analyse" --db "$sdb" --game glaisher --playouts 40 --store --to json -o "$tmp/s1.json" || fail "--store exited $?"
"$analyse" --db "$sdb" --game glaisher --playouts 40 --store -o /dev/null || fail "--store again exited $?"
"$analyse" --db "$sdb" --id 1 --playouts 40 --seed 9 --store -o /dev/null || fail "--store --seed 9 exited $?"
"$analyse" --db "$sdb" --id 1 --playouts 20 --store -o /dev/null || fail "--store --playouts 20 exited $?"
"$analyse" --db "$sdb" --id 1 --engine mcts:30 --store -o /dev/null || fail "--store --engine mcts:30 exited $?"
"$bin/kifu-stats" --db "$sdb" --format json players >"$tmp/p1.json" || fail "players exited $?"
"$bin/kifu-stats" --db "$sdb" --format csv players >"$tmp/p1.csv"
check "--store: rows, replacement or players columns wrong" python3 - "$sdb" "$tmp/s1.json" "$tmp/p1.json" "$tmp/p1.csv" "$tmp" <<'PY'
import csv, json, sqlite3, sys
sys.path.insert(0, sys.argv[5])
import accuracy
db = sqlite3.connect(sys.argv[1])
review = json.load(open(sys.argv[2]))
runs = db.execute('SELECT game_id, engine, playouts, seed, plies FROM analysis_runs ORDER BY id').fetchall()
glaisher = [r[0] for r in db.execute("SELECT id FROM games WHERE game = 'glaisher' ORDER BY id")]
# glaisher games twice with the same settings: one run each; game 1 also with seed 9, 20
# iterations and mcts:30 (the engine spec recorded, its count as playouts)
want = sorted([(g, 'engine:40', 40, 1) for g in glaisher] +
              [(1, 'engine:40', 40, 9), (1, 'engine:20', 20, 1), (1, 'mcts:30', 30, 1)])
assert sorted(r[:4] for r in runs) == want, runs
for g, _, _, _, plies in runs:
    assert plies == db.execute('SELECT plies FROM games WHERE id = ?', (g,)).fetchone()[0]
assert db.execute('SELECT count(*) FROM analysis_plies').fetchone()[0] == sum(r[4] for r in runs)
# the stored plies are the json review's (each game found by its moves)
stored = {}
for rid, in db.execute('SELECT id FROM analysis_runs WHERE playouts = 40 AND seed = 1'):
    rows = db.execute('SELECT ply, move, best, loss, mark FROM analysis_plies WHERE run_id = ? '
                      'ORDER BY ply', (rid,)).fetchall()
    stored[tuple(r[1] for r in rows)] = rows
assert len(review) == len(glaisher)
for g in review:
    rows = stored[tuple(p['move'] for p in g['plies'])]
    for row, p in zip(rows, g['plies']):
        assert (row[0], row[1], row[2], row[4]) == (p['ply'], p['move'], p['best'], p['mark']), (row, p)
        assert abs(row[3] - p['loss']) < 1e-4
# each game's sides: accuracy, marks and mean loss as computed apart from its plies
for g in review:
    order = list(g['players'])
    nsides = len(g['sides'])
    sides = list(g['sides'])
    plies = [(sides.index(p['side']), p['expected'], p['played_score'], p['loss']) for p in g['plies']]
    acc = accuracy.sides(plies, nsides)
    for i, side in enumerate(sides):
        got = g['sides'][side]
        mine = [p for p in g['plies'] if p['side'] == side]
        assert abs(got['accuracy'] - acc[i]) < 0.1, (side, got, acc[i])
        assert got['inaccuracies'] == sum(p['mark'] == '?!' for p in mine), got
        assert got['mistakes'] == sum(p['mark'] == '?' for p in mine), got
        assert got['blunders'] == sum(p['mark'] == '??' for p in mine), got
        assert abs(got['mean_loss'] - sum(p['loss'] for p in mine) / len(mine)) < 1e-3, got
# players: per game the run with most playouts (then the last stored), per side its player
counted = {}
accs = {}
for g in db.execute('SELECT DISTINCT game_id FROM analysis_runs'):
    rid = db.execute('SELECT id FROM analysis_runs WHERE game_id = ? ORDER BY playouts DESC, id DESC LIMIT 1', g).fetchone()[0]
    nsides = db.execute('SELECT count(*) FROM sides WHERE game_id = ?', g).fetchone()[0]
    plies = db.execute('SELECT side_index, expected, played_score, loss FROM analysis_plies '
                       'WHERE run_id = ? ORDER BY ply', (rid,)).fetchall()
    for side, a in accuracy.sides(plies, nsides).items():
        if a is not None:
            name = db.execute('SELECT pl.name FROM sides s JOIN players pl ON pl.id = s.player_id '
                              'WHERE s.game_id = ? AND s.side_index = ?', (g[0], side)).fetchone()[0]
            accs.setdefault(name, []).append(a)
    for name, loss, mark in db.execute('SELECT pl.name, p.loss, p.mark FROM analysis_plies p JOIN analysis_runs r ON r.id = p.run_id '
                                       'JOIN sides s ON s.game_id = r.game_id AND s.side_index = p.side_index '
                                       'JOIN players pl ON pl.id = s.player_id WHERE p.run_id = ?', (rid,)):
        c = counted.setdefault(name, [0, 0.0, 0])
        c[0] += 1
        c[1] += loss
        c[2] += mark in ('?', '??')
rows = json.load(open(sys.argv[3]))['rows']
assert rows and all('analysed_moves' in r for r in rows)
for r in rows:
    c = counted.get(r['player'])
    if c is None:
        assert r['analysed_moves'] is None and r['mean_loss'] is None and r['mistakes'] is None, r
        assert r['accuracy'] is None, r
    else:
        assert r['analysed_moves'] == c[0] and r['mistakes'] == c[2], (r, c)
        assert abs(r['mean_loss'] - c[1] / c[0]) < 1e-12, (r, c)
        a = accs[r['player']]
        assert abs(r['accuracy'] - sum(a) / len(a)) < 1e-6, (r, a)
assert any(counted.get(r['player']) is None for r in rows), 'a player without reviews'
head = next(csv.reader(open(sys.argv[4])))
assert head[-4:] == ['analysed_moves', 'mean_loss', 'mistakes', 'accuracy'], head
PY
"$bin/kifu-export" --db "$sdb" --id 1 --to json >"$tmp/export1.json"
check "kifu-export json: the stored review without its sides" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d['review']['sides']) == set(d['players']), d['review']['sides']
assert all(0 <= v['accuracy'] <= 100 for v in d['review']['sides'].values())" "$tmp/export1.json"
"$bin/kifu-stats" --db "$sdb" players >"$tmp/p1.txt"
check "players table: no review columns" grep -q 'analysed_moves *mean_loss *mistakes *accuracy' "$tmp/p1.txt"
# a new database with --store is created (and then has no such game)
expect_new=$tmp/new.db
"$analyse" --db "$expect_new" --id 1 --store --playouts 10 >/dev/null 2>"$tmp/err"
check "--store on a missing database: not exit 1 for the missing game" test $? -eq 1
check "--store did not create the database" test -s "$expect_new"

# Usage and errors.
expect() { # code description command...
	want=$1 what=$2
	shift 2
	checks=$((checks + 1))
	"$@" >/dev/null 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want ($(cat "$tmp/err"))"
}
# html: one page per game; several games need a directory
"$analyse" --file "$f" --to html --playouts 300 --threads 1 -o "$tmp/one.html" || fail "--to html exited $?"
check "html: no chart" grep -q '<svg id="chart"' "$tmp/one.html"
check "html: no ?? in the move list" grep -q 'class="mk mk3"' "$tmp/one.html"
check "html: the sides' table with their accuracy" grep -q '^<tr><th>side</th><th>accuracy</th><th>moves</th>' "$tmp/one.html"
expect 2 "two games to one html page" "$analyse" --file "$data" --to html --playouts 10 -o "$tmp/two.html"
grep -q 'give -o DIR/' "$tmp/err" || fail "two games to one page: no advice to give a directory"
"$analyse" --file "$data/blunders" --to html --playouts 10 -o "$tmp/pages/" 2>/dev/null ||
	fail "--to html -o DIR/ exited $?"
check "html -o DIR/: not a page per game" test "$(ls "$tmp/pages" | grep -c '\.html$')" -eq "$(ls "$data/blunders" | grep -c '\.yaml$')"
expect 2 "--store with --file" "$analyse" --file "$f" --store
grep -q 'import the records first' "$tmp/err" || fail "--store --file: no advice"
expect 2 "--values positions with --store" "$analyse" --db "$sdb" --id 1 --values positions --store
expect 2 "bad --values" "$analyse" --file "$f" --values after
expect 2 "no source" "$analyse"
expect 2 "two sources" "$analyse" --file "$f" --id 1
expect 2 "bad playouts" "$analyse" --file "$f" --playouts 0
expect 2 "bad threads" "$analyse" --file "$f" --threads x
expect 2 "bad format" "$analyse" --file "$f" --to pgn
expect 2 "bad engine" "$analyse" --file "$f" --engine random
expect 2 "bad engine count" "$analyse" --file "$f" --engine mcts:0
expect 3 "missing database" "$analyse" --db "$tmp/none.db" --id 1
grep -q "no database at" "$tmp/err" || fail "missing database message"
[ -e "$tmp/none.db" ] && fail "a missing database was created"
expect 3 "missing file" "$analyse" --file "$tmp/none.yaml"
expect 1 "invalid record" "$analyse" --file "$here/examples/invalid/abandoned-winner.yaml" --playouts 10

test_done "$checks checks passed"
