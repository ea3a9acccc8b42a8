# The checks of format 2 in a store (schema 10), shared by store-lines.sh
# (SQLite) and pg-lines.sh (PostgreSQL): source it after test-lib.sh and call
# store_lines_check A B, two empty databases. examples/format2's 70
# annotated games go into A, the same games without their lines, nags and
# evals into B: every export of A gives them back as they came in, and every
# report (statistics, tree, novelties, search) of A equals B's. Duplicates
# (RECORDS.md): the plain games into A are counted as 70 whose annotations
# were not kept, the annotated ones again as plain duplicates;
# kifu-import --update-annotations of the annotated games into B gives B
# A's exports (store_lines_update, at the end).
store_lines_check() {
	a=$1 b=$2
	src=examples/format2/annotated.yaml
	python3 - "$src" >"$tmp/plain.yaml" <<'PY' || fail "stripping $src"
import sys, yaml
def strip(turns):
    out = []
    for t in turns:
        if isinstance(t, dict):
            t = {k: v for k, v in t.items() if k not in ("nag", "eval", "variations")}
            t = t["move"] if list(t) == ["move"] else t
        out.append(t)
    return out
docs = list(yaml.safe_load_all(open(sys.argv[1])))
for d in docs:
    d["format"] = 1
    d["moves"] = strip(d["moves"])
sys.stdout.write(yaml.safe_dump_all(docs, explicit_start=True, allow_unicode=True, sort_keys=False))
PY
	"$bin/kifu-import" --db "$a" "$src" >"$tmp/out" 2>&1 || { fail "import $src"; cat "$tmp/out"; }
	check "all 70 stored" grep -q '^imported 70, duplicates 0, rejected 0$' "$tmp/out"
	"$bin/kifu-import" --db "$b" "$tmp/plain.yaml" >"$tmp/out" 2>&1 || fail "import plain"
	check "the plain games stored" grep -q '^imported 70, duplicates 0' "$tmp/out"
	# the same games without their lines are duplicates: the stored copies stay,
	# and the summary says their annotations were not kept (issue 39)
	"$bin/kifu-import" --db "$a" "$tmp/plain.yaml" >"$tmp/out" 2>&1
	check "without lines: duplicates, annotations not kept ($(cat "$tmp/out"))" \
		grep -q '^imported 0, duplicates 70 (annotations not kept: 70), rejected 0$' "$tmp/out"
	"$bin/kifu-import" --db "$a" --json "$src" >"$tmp/out" 2>&1
	check "the same annotations: plain duplicates ($(cat "$tmp/out"))" \
		[ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":70,"rejected":0}' ]
	"$bin/kifu-import" --db "$b" --json "$src" >"$tmp/out" 2>&1
	check "annotated into the plain games: annotations_not_kept in json ($(cat "$tmp/out"))" \
		[ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":70,"rejected":0,"annotations_not_kept":70}' ]

	# every game comes back as it came in (newest first: ids in reverse; the
	# store keeps `first` only where it is not the game's default)
	"$bin/kifu-export" --file "$src" --to yaml >"$tmp/want.yaml" 2>/dev/null
	"$bin/kifu-export" --db "$a" --event "kifu-play, annotated" --to yaml >"$tmp/got.yaml" 2>"$tmp/err" || fail "export yaml"
	python3 - "$tmp/want.yaml" "$tmp/got.yaml" <<'PY' || fail "stored games differ from the file"
import sys
def docs(path):
    text = "".join(l for l in open(path) if not l.startswith("first: "))
    return text.split("---\n")[1:]
want, got = docs(sys.argv[1]), docs(sys.argv[2])
if list(reversed(got)) != want:
    sys.exit("%d and %d documents, first difference at %s" % (len(want), len(got),
             next((i for i, (x, y) in enumerate(zip(want, reversed(got))) if x != y), None)))
PY
	"$bin/kifu-export" --db "$a" --id 1 --to json >"$tmp/one.json" || fail "export json"
	python3 - "$tmp/one.json" "$src" <<'PY' || fail "json of a stored game"
import json, sys, yaml
got = json.load(open(sys.argv[1]))
want = next(yaml.safe_load_all(open(sys.argv[2])))
for m, t in zip(got["moves"], want["moves"]):
    t = t if isinstance(t, dict) else {"move": t}
    assert m.get("nag") == t.get("nag"), (m, t)
    assert ("eval" in m) == ("eval" in t), (m, t)
    assert len(m.get("variations", [])) == len(t.get("variations", [])), (m, t)
assert any("variations" in m for m in got["moves"])
PY
	"$bin/kifu-export" --db "$a" --id 1 --to html -o "$tmp/one.html" || fail "export html"
	check "the page of a stored game shows its lines" grep -q '<div class="lines"><div class="line">' \
		"$tmp/one.html"
	"$bin/kifu-export" --db "$a" --event "kifu-play, annotated" --to pgn >"$tmp/a.pgn" || fail "export pgn"
	check "pgn of the stored games has lines and glyphs" grep -q '(.*[!?]' "$tmp/a.pgn"

	# every report reads the main line only
	same_report() {
		tool=$1
		shift
		"$bin/$tool" --db "$a" "$@" >"$tmp/ra" 2>&1
		ra=$?
		"$bin/$tool" --db "$b" "$@" >"$tmp/rb" 2>&1
		rb=$?
		[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && cmp -s "$tmp/ra" "$tmp/rb" ||
			{ fail "$tool $* differs with lines (exit $ra and $rb)"; diff "$tmp/ra" "$tmp/rb" | head -5; }
		checks=$((checks + 1))
	}
	for args in "summary" "openings --depth 3" "openings --depth 2 --by-position" "players" "lengths"; do
		for f in csv json; do
			# shellcheck disable=SC2086
			same_report kifu-stats --format "$f" $args
		done
	done
	for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout splinter:survival \
		splinter-quad:standard glaisher:standard glaisher:advanced; do
		same_report kifu-stats --game "${gv%%:*}" --variant "${gv#*:}" --format csv tree
		same_report kifu-stats --game "${gv%%:*}" --variant "${gv#*:}" --format csv tree --symmetric
		same_report kifu-stats --game "${gv%%:*}" --variant "${gv#*:}" --format csv novelties
	done
	first=$(sed -n 's/^  - \([a-k][0-9]*\)$/\1/p' "$tmp/want.yaml" | head -n 1)
	same_report kifu-search --json
	same_report kifu-search --game splay-schmidt --after "$first" --json
	same_report kifu-search --game splay-schmidt --after "$first" --symmetric --json
}

# After store_lines_check A B: kifu-import --update-annotations of the
# annotated games into B makes B's games A's (every export the same, the
# ids, headers and provenance as they were), then the plain games with it
# take them away again (RECORDS.md: the record's lines, nags and evals
# replace the stored game's, nothing else changes): B's export is as it was
# before. C, an empty database, gets the first game plain and then
# annotated in one run (the copy stored moments before, in the same
# transaction): with --update-annotations, A's first game.
store_lines_update() {
	a=$1 b=$2 c=$3 ev="kifu-play, annotated"
	src=examples/format2/annotated.yaml
	python3 - "$tmp/plain.yaml" "$src" >"$tmp/twice.yaml" <<'PY'
import sys
print("".join("---\n" + open(f).read().split("---\n")[1] for f in sys.argv[1:]), end="")
PY
	"$bin/kifu-import" --db "$c" --update-annotations "$tmp/twice.yaml" >"$tmp/out" 2>&1
	check "plain then annotated in one run: updated ($(cat "$tmp/out"))" \
		grep -q '^imported 1, duplicates 1 (annotations updated: 1), rejected 0$' "$tmp/out"
	"$bin/kifu-export" --db "$a" --id 1 --to yaml >"$tmp/a1.yaml" 2>"$tmp/err" || fail "export A's 1"
	"$bin/kifu-export" --db "$c" --id 1 --to yaml >"$tmp/c1.yaml" 2>"$tmp/err" || fail "export C's 1"
	check "plain then annotated in one run: the annotated game" test_cmp "$tmp/a1.yaml" "$tmp/c1.yaml"
	"$bin/kifu-export" --db "$b" --event "$ev" --to yaml >"$tmp/b-before.yaml" 2>"$tmp/err" || fail "export B"
	"$bin/kifu-import" --db "$b" --update-annotations "$src" >"$tmp/out" 2>&1
	check "--update-annotations: exit 0" [ $? -eq 0 ]
	check "--update-annotations: updated counted ($(cat "$tmp/out"))" \
		grep -q '^imported 0, duplicates 70 (annotations updated: 70), rejected 0$' "$tmp/out"
	"$bin/kifu-export" --db "$a" --event "$ev" --to yaml >"$tmp/a.yaml" 2>"$tmp/err" || fail "export A"
	"$bin/kifu-export" --db "$b" --event "$ev" --to yaml >"$tmp/b.yaml" 2>"$tmp/err" || fail "export B"
	check "--update-annotations: B's games are A's" test_cmp "$tmp/a.yaml" "$tmp/b.yaml"
	"$bin/kifu-export" --db "$a" --event "$ev" --to json >"$tmp/a.json" 2>"$tmp/err" || fail "export A json"
	"$bin/kifu-export" --db "$b" --event "$ev" --to json >"$tmp/b.json" 2>"$tmp/err" || fail "export B json"
	check "--update-annotations: B's json is A's" cmp -s "$tmp/a.json" "$tmp/b.json"
	"$bin/kifu-import" --db "$b" --update-annotations --json "$src" >"$tmp/out" 2>&1
	check "--update-annotations again: nothing to update ($(cat "$tmp/out"))" \
		[ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":70,"rejected":0}' ]
	"$bin/kifu-import" --db "$b" --update-annotations --json "$tmp/plain.yaml" >"$tmp/out" 2>&1
	check "--update-annotations of the plain games: updated ($(cat "$tmp/out"))" \
		[ "$(cat "$tmp/out")" = '{"imported":0,"duplicates":70,"rejected":0,"annotations_updated":70}' ]
	"$bin/kifu-export" --db "$b" --event "$ev" --to yaml >"$tmp/b.yaml" 2>"$tmp/err" || fail "export B"
	check "--update-annotations of the plain games: B as it was" test_cmp "$tmp/b-before.yaml" "$tmp/b.yaml"
}
