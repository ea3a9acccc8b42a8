#!/bin/sh
# kifu-analyse --annotate (CLI.md, issue 32): the review written into the
# record as format 2. One example game of each of the five games, in one
# stream, reviewed plainly (--to json) and annotated to yaml, json and pgn
# with the same seed and playouts: every output validates (the json read
# back as a record); every analysed move carries the review's eval
# {engine, expected, best}, a marked move its mark as nag, and each ? or ??
# move one line starting with the review's best move, at most 6 plies,
# numbered from the move it replaces; nothing else gains a nag or a line;
# comments stay. The yaml carries what the json does, the pgn the same less
# evals (read back by kifu-export and through kifu-import and the store).
# A record that already has nags, evals, comments and lines keeps them (the
# new line after the old ones, evals and a marked move's nag replaced), and
# annotating an annotated record again changes nothing (no line twice).
# Usage errors: --annotate with --to text or html, --to pgn without it.
set -u
. tests/cli/lib/test-lib.sh
analyse=$bin/kifu-analyse
here=$(cd "$(dirname "$0")/../.." && pwd)
ex=$here/examples
opts="--playouts 100 --seed 3"

"$analyse" --help | grep -q -- '--annotate' || fail "--help does not mention --annotate"

for f in splay-schmidt/splay-schmidt-standard-03 splinter/splinter-survival-01 \
	 splinter-quad/splinter-quad-standard-03 glaisher/glaisher-standard-04 \
	 splay-kisenwether/splay-kisenwether-standard-03; do
	cat "$ex/$f.yaml"
done >"$tmp/five.yaml"

"$analyse" --file "$tmp/five.yaml" --to json $opts -o "$tmp/review.json" ||
	fail "plain review exited $?"
"$bin/kifu-export" --file "$tmp/five.yaml" --to json -o "$tmp/source.json" ||
	fail "kifu-export of the source exited $?"
for to in yaml json pgn; do
	"$analyse" --file "$tmp/five.yaml" --annotate --to "$to" $opts -o "$tmp/ann.$to" ||
		fail "--annotate --to $to exited $?"
done
# without --to, the annotated record is yaml
"$analyse" --file "$tmp/five.yaml" --annotate $opts >"$tmp/ann-default.yaml" ||
	fail "--annotate without --to exited $?"
check "--annotate without --to is not the yaml" test_cmp "$tmp/ann.yaml" "$tmp/ann-default.yaml"

# Every output validates: yaml and pgn as they are, the json as the record it describes.
for to in yaml pgn; do
	"$bin/kifu-validate" "$tmp/ann.$to" >"$tmp/validate-$to.out" 2>&1 ||
		fail "ann.$to does not validate: $(cat "$tmp/validate-$to.out")"
	check "ann.$to: not 5 valid games" grep -q '^5 games, 5 valid, 0 invalid' "$tmp/validate-$to.out"
done
check "yaml: not format 2" grep -q '^format: 2' "$tmp/ann.yaml"
check "pgn: no glyph" grep -q '[^ ][?]' "$tmp/ann.pgn"
check "pgn: no line" grep -q '(' "$tmp/ann.pgn"

# The json as a record (YAML is a superset of JSON): what it says validates.
python3 - "$tmp/ann.json" "$tmp/five.yaml" >"$tmp/ann-json.yaml" <<'PY' || fail "json to record"
import json, re, sys
games = json.load(open(sys.argv[1]))
# each source document's own `first:` (given only where the game lets players choose)
docs = re.split(r'^---', open(sys.argv[2]).read(), flags=re.M)
source = [re.search(r'^first:', d, re.M) for d in docs if re.search(r'^game:', d, re.M)]
assert len(source) == len(games)
def turns(ms):
    out = []
    for m in ms:
        t = {k: v for k, v in m.items() if k != 'ply'}
        if 'variations' in t:
            t['variations'] = [turns(l) for l in t['variations']]
        out.append(t)
    return out
for g, s in zip(games, source):
    rec = {'format': 2, 'game': g['game'], 'variant': g['variant']}
    rec.update(g['headers'])
    rec['players'] = g['players']
    if s:
        rec['first'] = g['first']
    rec['moves'] = turns(g['moves'])
    rec['result'] = g['result']
    rec['termination'] = g['termination']
    if g.get('tags'):
        rec['tags'] = g['tags']
    print('---')
    print(json.dumps(rec, ensure_ascii=False))
PY
"$bin/kifu-validate" "$tmp/ann-json.yaml" >"$tmp/validate-json.out" 2>&1 ||
	fail "the json's record does not validate: $(cat "$tmp/validate-json.out")"
check "json: not 5 valid games" grep -q '^5 games, 5 valid, 0 invalid' "$tmp/validate-json.out"

# The review's marks and best moves, in the record.
check "the annotation is not the review" python3 - "$tmp/review.json" "$tmp/ann.json" \
	"$tmp/source.json" <<'PY'
import json, sys
review = json.load(open(sys.argv[1]))
ann = json.load(open(sys.argv[2]))
source = json.load(open(sys.argv[3]))
assert len(review) == len(ann) == len(source) == 5, 'five games'
lines = longer = 0
games = set()
for r, a, s in zip(review, ann, source):
    games.add(a['game'])
    engine = r['analysis']['engine']
    assert engine == 'engine:100', engine
    moves = a['moves']
    assert len(moves) == len(r['plies']) == len(s['moves']), a['game']
    for m, p, o in zip(moves, r['plies'], s['moves']):
        where = (a['game'], p['ply'])
        assert m['move'] == p['move'] == o['move'], where
        # every analysed move: the review's figures for the position before it
        assert m['eval'] == {'engine': engine, 'expected': p['expected'],
                             'best': p['best']}, (where, m['eval'], p)
        assert m.get('nag') == p['mark'], (where, m.get('nag'), p['mark'])
        assert m.get('comment') == o.get('comment'), where
        if p['mark'] in ('?', '??'):
            assert len(m['variations']) == 1, where
            line = m['variations'][0]
            assert 1 <= len(line) <= 6, (where, line)
            assert line[0]['move'] == p['best'], (where, line, p['best'])
            assert [t['ply'] for t in line] == list(range(p['ply'], p['ply'] + len(line))), where
            assert all(set(t) == {'ply', 'move'} for t in line), (where, line)
            lines += 1
            longer += len(line) > 1
        else:
            assert 'variations' not in m, where
assert len(games) == 5, games
# the seed and playouts give ?/?? moves, and lines past the engine's move
assert lines >= 2 and longer >= 1, (lines, longer)
PY

# yaml carries what the json does: read back, it is the same json, byte for byte.
"$bin/kifu-export" --file "$tmp/ann.yaml" --to json -o "$tmp/ann-yaml.json" ||
	fail "kifu-export of ann.yaml exited $?"
check "yaml and json differ" test_cmp "$tmp/ann.json" "$tmp/ann-yaml.json"

# pgn: the same less evals, read back from the file and through the store.
"$bin/kifu-export" --file "$tmp/ann.pgn" --to json -o "$tmp/ann-pgn.json" ||
	fail "kifu-export of ann.pgn exited $?"
"$bin/kifu-import" --db "$tmp/kifu.db" --quiet "$tmp/ann.pgn" || fail "kifu-import of ann.pgn exited $?"
for id in 1 2 3 4 5; do
	"$bin/kifu-export" --db "$tmp/kifu.db" --id $id --to json -o "$tmp/stored-$id.json" ||
		fail "kifu-export --id $id exited $?"
done
check "pgn lost nags or lines" python3 - "$tmp/ann.json" "$tmp/ann-pgn.json" "$tmp"/stored-*.json <<'PY'
import json, sys
ann = json.load(open(sys.argv[1]))
def strip(ms):
    out = []
    for m in ms:
        t = {k: v for k, v in m.items() if k != 'eval'}
        if 'variations' in t:
            t['variations'] = [strip(l) for l in t['variations']]
        out.append(t)
    return out
want = [strip(g['moves']) for g in ann]
assert any('nag' in m for ms in want for m in ms)
pgn = json.load(open(sys.argv[2]))
assert [strip(g['moves']) for g in pgn] == want, 'pgn read back'
assert all('eval' not in m for g in pgn for m in g['moves']), 'pgn has no eval'
stored = [json.load(open(f)) for f in sys.argv[3:]]
assert sorted(map(repr, (strip(g['moves']) for g in stored))) == sorted(map(repr, want)), 'stored'
PY

# A record with format 2 already: the glaisher game with a nag, eval and
# comment on an unmarked move, and a nag, comment and line (the move played)
# on its first ? or ?? move.
python3 - "$tmp/review.json" "$tmp/five.yaml" >"$tmp/had.yaml" <<'PY' || fail "fixture"
import json, re, sys
review = json.load(open(sys.argv[1]))
r = next(g for g in review if g['game'] == 'glaisher')
k = next(i for i, p in enumerate(r['plies']) if p['mark'] in ('?', '??'))
u = next(i for i, p in enumerate(r['plies']) if not p['mark'])
moves = [{'move': p['move']} for p in r['plies']]
moves[u].update(nag='!', comment='kept', eval={'engine': 'mcts:7', 'expected': 0.5,
                                              'best': moves[u]['move']})
moves[k].update(nag='!!', comment='kept too', variations=[[{'move': moves[k]['move']}]])
rec = {'format': 2, 'game': 'glaisher', 'variant': r['variant'], 'first': r['first'],
       'players': r['players'], 'moves': moves, 'result': r['result'],
       'termination': r['termination']}
print('---')
print(json.dumps(rec))
PY
"$bin/kifu-validate" "$tmp/had.yaml" >/dev/null || fail "the fixture does not validate"
"$analyse" --file "$tmp/had.yaml" --annotate --to yaml $opts -o "$tmp/had-ann.yaml" ||
	fail "--annotate of a format-2 record exited $?"
"$analyse" --file "$tmp/had.yaml" --annotate --to json $opts -o "$tmp/had-ann.json" ||
	fail "--annotate --to json of a format-2 record exited $?"
check "the annotated fixture does not validate" "$bin/kifu-validate" "$tmp/had-ann.yaml" >/dev/null
check "a record's own nags, comments and lines" python3 - "$tmp/review.json" "$tmp/had-ann.json" <<'PY'
import json, sys
review = json.load(open(sys.argv[1]))
r = next(g for g in review if g['game'] == 'glaisher')
a = json.load(open(sys.argv[2]))[0]
k = next(i for i, p in enumerate(r['plies']) if p['mark'] in ('?', '??'))
u = next(i for i, p in enumerate(r['plies']) if not p['mark'])
pu, pk = r['plies'][u], r['plies'][k]
mu, mk = a['moves'][u], a['moves'][k]
ev = lambda p: {'engine': 'engine:100', 'expected': p['expected'], 'best': p['best']}
assert mu.get('nag') == '!' and mu.get('comment') == 'kept' and mu['eval'] == ev(pu), mu
assert mk['nag'] == pk['mark'] and mk['comment'] == 'kept too' and mk['eval'] == ev(pk), mk
v = mk['variations']
assert len(v) == 2 and v[0] == [{'ply': pk['ply'], 'move': pk['move']}], v
assert v[1][0]['move'] == pk['best'] and len(v[1]) <= 6, v
PY
# annotating the annotated record again: the same record (evals replaced, no line twice)
"$analyse" --file "$tmp/had-ann.yaml" --annotate --to yaml $opts -o "$tmp/had-ann2.yaml" ||
	fail "--annotate of an annotated record exited $?"
check "annotating again changed the record" test_cmp "$tmp/had-ann.yaml" "$tmp/had-ann2.yaml"
"$analyse" --file "$tmp/ann.yaml" --annotate --to yaml $opts -o "$tmp/ann2.yaml" ||
	fail "--annotate of ann.yaml exited $?"
check "annotating the five again changed them" test_cmp "$tmp/ann.yaml" "$tmp/ann2.yaml"

# Usage errors (exit 2): --annotate writes a record, and pgn is only that record.
g=$ex/glaisher/glaisher-standard-04.yaml
for args in "--annotate --to text" "--annotate --to html" "--to pgn"; do
	"$analyse" --file "$g" $args $opts >"$tmp/usage.out" 2>"$tmp/usage.err"
	rc=$?
	[ $rc = 2 ] || fail "$args: exit $rc, not 2"
	check "$args: output on stdout" test ! -s "$tmp/usage.out"
	check "$args: no usage line" grep -q '^usage: ' "$tmp/usage.err"
done

test_done "$checks checks"
