# The checks of format 2 in a store (schema 10), shared by store-lines.sh
# (SQLite) and pg-lines.sh (PostgreSQL): source it after test-lib.sh and call
# store_lines_check A B, two empty databases. examples/format2's 70
# annotated games go into A, the same games without their lines, nags and
# evals into B: every export of A gives them back as they came in, and every
# report (statistics, tree, novelties, search) of A equals B's.
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
	# the same games without their lines are duplicates: the stored copies stay
	"$bin/kifu-import" --db "$a" "$tmp/plain.yaml" >"$tmp/out" 2>&1
	check "without lines: duplicates" grep -q '^imported 0, duplicates 70' "$tmp/out"

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
