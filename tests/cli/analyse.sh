#!/bin/sh
# kifu-analyse as a user runs it: every blunder position of
# tests/data/analyse/blunders/ (one per game and variant, the record's last
# move lets the opponent win at once) reviewed from the file: the last ply
# marked ?? in json, its yaml comment starting with ??, the text table
# marking it; on one of them, the same seed with 1 and 2 threads gives
# byte-identical output in every format, another seed another json; html
# pages (browser.sh checks them in Chromium); a game from the database by
# --id and by FILTERS; then usage errors (exit 2) and a missing database
# (exit 3).
set -u
bin=${KIFU_BIN:?KIFU_BIN must name the directory of the tools}
analyse=$bin/kifu-analyse
here=$(cd "$(dirname "$0")/../.." && pwd)
data=$here/tests/data/analyse
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-analyse.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
checks=0

fail() {
	echo "analyse.sh: FAIL: $*" >&2
	status=1
}

check() { # description command...
	what=$1
	shift
	checks=$((checks + 1))
	"$@" || fail "$what"
}

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
                      'played_score', 'loss', 'mark'}
    for k in ('expected', 'best_score', 'played_score', 'loss'):
        assert 0 <= p[k] <= 1, k
    assert abs(p['loss'] - max(0, p['best_score'] - p['played_score'])) < 2e-4
    l = p['loss'] + 1e-9
    want = '??' if l >= 0.35 else '?' if l >= 0.2 else '?!' if l >= 0.1 else None
    assert p['mark'] == want, (p, want)
last = plies[-1]
assert last['mark'] == '??', last
assert last['best'] != last['move']
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
check "yaml: last comment" grep -q "comment: '?? best $best [0-9.]*, played [0-9.]*'}\$" "$tmp/a1.yaml"
check "text: no table header" grep -q '^  ply  side ' "$tmp/a1.text"
check "text: last ply not marked" sh -c "grep '^ *[0-9]' '$tmp/a1.text' | tail -n 1 | grep -q '??\$'"
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
expect 2 "two games to one html page" "$analyse" --file "$data" --to html --playouts 10 -o "$tmp/two.html"
grep -q 'give -o DIR/' "$tmp/err" || fail "two games to one page: no advice to give a directory"
"$analyse" --file "$data/blunders" --to html --playouts 10 -o "$tmp/pages/" 2>/dev/null ||
	fail "--to html -o DIR/ exited $?"
check "html -o DIR/: not a page per game" test "$(ls "$tmp/pages" | grep -c '\.html$')" -eq "$(ls "$data/blunders" | grep -c '\.yaml$')"
expect 2 "--store" "$analyse" --file "$f" --store
grep -q 'not available yet' "$tmp/err" || fail "--store does not say it is not available yet"
expect 2 "no source" "$analyse"
expect 2 "two sources" "$analyse" --file "$f" --id 1
expect 2 "bad playouts" "$analyse" --file "$f" --playouts 0
expect 2 "bad threads" "$analyse" --file "$f" --threads x
expect 2 "bad format" "$analyse" --file "$f" --to pgn
expect 3 "missing database" "$analyse" --db "$tmp/none.db" --id 1
grep -q "no database at" "$tmp/err" || fail "missing database message"
[ -e "$tmp/none.db" ] && fail "a missing database was created"
expect 3 "missing file" "$analyse" --file "$tmp/none.yaml"
expect 1 "invalid record" "$analyse" --file "$here/examples/invalid/abandoned-winner.yaml" --playouts 10

[ $status -eq 0 ] && echo "analyse.sh: $checks checks passed"
exit $status
