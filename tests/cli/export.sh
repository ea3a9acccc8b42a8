#!/bin/sh
# kifu-export as a user runs it: every example record of every game and
# variant exported to every format. yaml must re-validate with
# kifu-validate; json must parse (python3), hold every ply with a 16-digit
# hash equal to the text export's, and the figures; text has a diagram per
# ply; every svg passes xmllint; html is one self-contained page (no
# network reference). Then streams of several games, --ply, -o, invalid
# records (diagnostics, exit 1, nothing exported) and the usage errors.
set -u
. tests/cli/lib/test-lib.sh
x="$bin/kifu-export"
validate="$bin/kifu-validate"

test_require xmllint python3

# --help, --version, usage errors
"$x" --help >"$tmp/out" 2>"$tmp/err"
check "--help exits 0" [ $? -eq 0 ]
check "--help prints the usage" grep -q '^usage: kifu-export ' "$tmp/out"
"$x" --version | grep -q '^kifu-export (kifu) ' || fail "--version"
one=examples/glaisher/glaisher-standard-01.yaml
usage_error() { # description, then arguments
	desc=$1
	shift
	"$x" "$@" >"$tmp/out" 2>"$tmp/err"
	code=$?
	check "$desc exits 2 (got $code)" [ $code -eq 2 ]
	check "$desc prints the usage" grep -q 'usage: kifu-export' "$tmp/err"
}
usage_error "no --to" --file "$one"
usage_error "unknown format" --file "$one" --to pdf
usage_error "no source" --to yaml
usage_error "two sources" --file "$one" --id 3 --to yaml
usage_error "--ply with yaml" --file "$one" --to yaml --ply 2
usage_error "a bad --ply" --file "$one" --to svg --ply x
usage_error "unknown option" --file "$one" --to svg --bogus

# The games and variants kifu-play knows: every one must be exported below.
"$bin/kifu-play" --help | sed -n 's/^  \([a-z-]*\) *sides: [^;]*; variants: \(.*\)$/\1 \2/p' |
	sed 's/ (default)//' | while read -r game variants; do
		for v in $variants; do echo "$game $v"; done
	done | sort >"$tmp/want-variants"
[ "$(wc -l <"$tmp/want-variants")" -ge 7 ] || fail "kifu-play --help lists too few variants"

: >"$tmp/seen-variants"
n=0
# One game per file here; the 100-game streams of examples/archive/ and the
# 70 annotated games of examples/format2/ are checked below.
for f in examples/*/*.yaml; do
	case $f in examples/invalid/* | examples/archive/* | examples/format2/*) continue ;; esac
	n=$((n + 1))
	name=$(basename "$f" .yaml)
	d="$tmp/$name"
	mkdir -p "$d"

	# yaml: canonical, re-validates, and exporting it again changes nothing
	"$x" --file "$f" --to yaml >"$d/out.yaml" 2>"$d/err"
	check "$f: yaml exits 0" [ $? -eq 0 ]
	check "$f: yaml is format 1" grep -q '^format: 1$' "$d/out.yaml"
	"$validate" "$d/out.yaml" >"$d/v" 2>&1
	check "$f: yaml re-validates" [ "$(cat "$d/v")" = "1 game, 1 valid, 0 invalid" ]
	"$x" --file "$d/out.yaml" --to yaml >"$d/again.yaml" 2>/dev/null
	check "$f: yaml is a fixed point" cmp -s "$d/out.yaml" "$d/again.yaml"

	# text: a diagram per ply
	"$x" --file "$f" --to text >"$d/out.txt" 2>"$d/err"
	check "$f: text exits 0" [ $? -eq 0 ]

	# json: parses; plies, hashes (equal to the text export's), figures
	"$x" --file "$f" --to json >"$d/out.json" 2>"$d/err"
	check "$f: json exits 0" [ $? -eq 0 ]
	python3 - "$d/out.json" "$d/out.txt" "$d/out.yaml" >"$d/variant" 2>"$d/py" <<'EOF'
import json, re, sys
games = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert isinstance(games, list) and len(games) == 1, "one game in an array"
g = games[0]
for key in ("game", "variant", "first", "headers", "players", "moves", "result",
            "termination", "tags", "plies"):
    assert key in g, "missing key " + key
moves, plies = g["moves"], g["plies"]
assert len(plies) == len(moves) + 1, "a ply for the start and for every move"
text_hashes = re.findall(r"^ply (\d+): .*hash ([0-9a-f]{16})$", text, re.M)
assert len(text_hashes) == len(plies), "a text diagram per ply"
for i, p in enumerate(plies):
    assert p["ply"] == i
    assert re.fullmatch(r"[0-9a-f]{16}", p["hash"]), "hash of 16 lower-case hex digits"
    assert text_hashes[i] == (str(i), p["hash"]), "ply %d: json and text hashes differ" % i
    assert isinstance(p["figures"], dict) and p["figures"], "figures"
    if i == 0:
        assert p["move"] is None
    else:
        assert p["move"] == moves[i - 1]["move"], "ply %d: the move" % i
        assert moves[i - 1]["ply"] == i
# the canonical moves are those of the yaml export
yaml_moves = re.findall(r"^  - (?:\{move: )?'?([^,'}\n]*)", open(sys.argv[3]).read(), re.M)
assert [m["move"] for m in moves] == yaml_moves, "json and yaml moves differ"
print(g["game"], g["variant"], g["first"], plies[0]["hash"])
EOF
	check "$f: json checks ($(tail -1 "$d/py"))" [ ! -s "$d/py" ]
	cut -d' ' -f1,2 "$d/variant" >>"$tmp/seen-variants"
	cat "$d/variant" >>"$tmp/start-hashes"

	# svg: the final position by default, and plies 0 and 1; all well-formed
	"$x" --file "$f" --to svg >"$d/final.svg" 2>"$d/err"
	check "$f: svg exits 0" [ $? -eq 0 ]
	"$x" --file "$f" --to svg --ply 0 -o "$d/ply0.svg" 2>"$d/err"
	check "$f: svg --ply 0 -o exits 0" [ $? -eq 0 ]
	"$x" --file "$f" --to svg --ply 1 >"$d/ply1.svg" 2>"$d/err"
	for s in "$d/final.svg" "$d/ply0.svg" "$d/ply1.svg"; do
		check "$s: xmllint" xmllint --noout "$s"
		check "$s: an svg root with a viewBox" grep -q '<svg xmlns="http://www.w3.org/2000/svg" .*viewBox=' "$s"
	done
	check "$f: ply 0 and 1 differ" sh -c "! cmp -s '$d/ply0.svg' '$d/ply1.svg'"

	# html: one self-contained page
	"$x" --file "$f" --to html -o "$d/page.html" 2>"$d/err"
	check "$f: html exits 0" [ $? -eq 0 ]
	check "$f: html is a page" grep -q '^<!DOCTYPE html>' "$d/page.html"
	# nothing fetched: no src/href to anything but #ply, no url(), no @import,
	# no address but the SVG namespace
	check "$f: html needs no network" sh -c "! grep -Eo '(src=|href=\"[^#]|url\\(|@import|https?://[^\"]*)' '$d/page.html' |
		grep -v '^http://www.w3.org/2000/svg\$' | grep -q ."
	check "$f: html carries every ply" python3 -c "
import re, sys
s = open('$d/page.html').read()
n = len(re.findall(r'<button data-ply=', s))
plies = len(re.findall(r'^\d+:\[', s[s.index('var DIFF = {'):s.index('var FIG')], re.M))
assert n == plies == $(grep -c '^ply [0-9]*:' "$d/out.txt"), (n, plies)
"
done
check "examples were found" [ "$n" -ge 7 ]

# Format 2: the annotated stream exports as format 2 and is a fixed point;
# its html pages hold a position for every move of every line.
f=examples/format2/annotated.yaml
"$x" --file "$f" --to yaml >"$tmp/f2.yaml" 2>"$tmp/err"
check "$f: yaml exits 0" [ $? -eq 0 ]
check "$f: yaml is format 2" [ "$(grep -c '^format: 2$' "$tmp/f2.yaml")" = 70 ]
"$validate" "$tmp/f2.yaml" >"$tmp/v" 2>&1
check "$f: yaml re-validates" [ "$(cat "$tmp/v")" = "70 games, 70 valid, 0 invalid" ]
"$x" --file "$tmp/f2.yaml" --to yaml >"$tmp/f2-again.yaml" 2>/dev/null
check "$f: yaml is a fixed point" cmp -s "$tmp/f2.yaml" "$tmp/f2-again.yaml"
mkdir -p "$tmp/f2html"
"$x" --file "$f" --to html -o "$tmp/f2html/" 2>"$tmp/err"
check "$f: html exits 0" [ $? -eq 0 ]
check "$f: a page per game" [ "$(ls "$tmp/f2html" | wc -l)" = 70 ]
cat >"$tmp/f2count.py" <<'EOF'
import os, re, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
def count(turns):
    n = 0
    for t in turns:
        n += 1
        if isinstance(t, dict):
            n += sum(count(l) for l in t.get("variations", []))
    return n
want = sorted(count(d["moves"]) + 1 for d in docs)
got = []
for name in os.listdir(sys.argv[2]):
    s = open(os.path.join(sys.argv[2], name)).read()
    got.append(len(re.findall(r"^\d+:\[", s[s.index("var DIFF = {"):s.index("var FIG")], re.M)))
    assert len(re.findall(r"<button data-ply=", s)) == got[-1], name
assert sorted(got) == want, (sorted(got)[:5], want[:5])
EOF
check "$f: every move of every line is a position of its page" \
	python3 "$tmp/f2count.py" "$tmp/f2.yaml" "$tmp/f2html"

# Format 2 in the other exports: text shows the lines under their move,
# json gives nag, eval and variations per move, apgr warns once per game
# that has lines, csv leaves everything out silently.
f=tests/data/records/valid/format2-lines.yaml
"$x" --file "$f" --to text >"$tmp/f2.txt" 2>"$tmp/err"
check "$f: text: the nag after the move" grep -q '^ply 2: f3?! (black), hash ' "$tmp/f2.txt"
check "$f: text: a line under its move" grep -qx '  line 1: 2. d4! {the centre} 3. c2 4. d3' "$tmp/f2.txt"
check "$f: text: a nested line below it" grep -qx '    line 1: 3. c3 4. e5' "$tmp/f2.txt"
check "$f: text: the second line" grep -qx '  line 2: 2. b2 3. c2' "$tmp/f2.txt"
"$x" --file "$f" --to json >"$tmp/f2.json" 2>"$tmp/err"
check "$f: json of format 2" python3 - "$tmp/f2.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))[0]["moves"]
assert m[1]["nag"] == "?!" and m[2]["nag"] == "??" and "nag" not in m[0], m
assert m[1]["eval"] == {"engine": "mcts:200", "expected": 0.41, "best": "d4"}, m[1]
v = m[1]["variations"]
assert [[t["move"] for t in l] for l in v] == [["d4", "c2", "d3"], ["b2", "c2"]], v
assert [t["ply"] for t in v[0]] == [2, 3, 4] and v[0][0]["nag"] == "!", v
assert v[0][1]["variations"] == [[{"ply": 3, "move": "c3"}, {"ply": 4, "move": "e5"}]], v
EOF
cat "$f" examples/format2/annotated.yaml | "$x" --file - --to apgr >"$tmp/f2.apgr" 2>"$tmp/err"
check "apgr: one warning per game with lines" \
	[ "$(grep -c ': warning: game [0-9]*: variations are left out (apgr has none)$' "$tmp/err")" = 71 ]
"$x" --file "$f" --to csv >"$tmp/f2.csv" 2>"$tmp/err"
check "csv: format 2 left out silently" [ ! -s "$tmp/err" ]

# A whole archive stream exports as one YAML stream that re-validates game for game.
for f in examples/archive/*.yaml; do
	games=$("$validate" --quiet --json "$f" | wc -l)
	"$bin/kifu-export" --file "$f" --to yaml >"$tmp/archive.yaml"
	check "$f: exported as yaml, every game re-validates" \
		[ "$("$validate" "$tmp/archive.yaml")" = "$games games, $games valid, 0 invalid" ]
	check "$f: holds many games" [ "$games" -ge 50 ]
done
sort -u "$tmp/seen-variants" >"$tmp/seen"
check "every game and variant was exported" cmp -s "$tmp/want-variants" "$tmp/seen"
# the start position hashes the same in every game of a variant and first side
check "ply 0 hashes agree" [ "$(sort -u "$tmp/start-hashes" | cut -d' ' -f1-3 | uniq -d | wc -l)" -eq 0 ]

# A stream of several games.
cat examples/splinter/splinter-knockout-01.yaml examples/glaisher/glaisher-advanced-01.yaml \
	examples/splay-schmidt/splay-schmidt-standard-01.yaml >"$tmp/three.yaml"
"$x" --file "$tmp/three.yaml" --to yaml >"$tmp/three-out.yaml"
check "a stream exports as one yaml stream" [ "$("$validate" "$tmp/three-out.yaml")" = "3 games, 3 valid, 0 invalid" ]
"$x" --file - --to json <"$tmp/three.yaml" >"$tmp/three.json"
check "a stream from stdin exports as a json array" \
	python3 -c "import json; d = json.load(open('$tmp/three.json')); assert [g['game'] for g in d] == ['splinter', 'glaisher', 'splay-schmidt']"
"$x" --file "$tmp/three.yaml" --to text >"$tmp/three.txt"
check "text: the games one after another" [ "$(grep -c '^game [0-9] of ' "$tmp/three.txt")" -eq 3 ]
"$x" --file "$tmp/three.yaml" --to svg >"$tmp/out" 2>"$tmp/err"
check "several svg games without -o exit 2" [ $? -eq 2 ]
check "several svg games without -o say why" grep -q 'give -o DIR' "$tmp/err"
"$x" --file "$tmp/three.yaml" --to svg -o "$tmp/pics" 2>"$tmp/err"
check "several svg games into a new directory" [ $? -eq 0 ]
check "one svg per game" [ "$(ls "$tmp/pics" | tr '\n' ' ')" = "three-001.svg three-002.svg three-003.svg " ]
for s in "$tmp"/pics/*.svg; do
	check "$s: xmllint" xmllint --noout "$s"
done
mkdir "$tmp/pages"
"$x" --file "$tmp/three.yaml" --to html -o "$tmp/pages/" 2>"$tmp/err"
check "several pages into an existing directory" [ "$(ls "$tmp/pages" | wc -l)" -eq 3 ]
"$x" --file "$one" --to html -o "$tmp/pages" 2>"$tmp/err"
check "one page into a directory" [ -s "$tmp/pages/glaisher-standard-01-001.html" ]
"$x" --file "$one" --to json -o "$tmp/pages" >/dev/null 2>"$tmp/err"
check "json into a directory exits 0" [ $? -eq 0 ]
check "json into a directory: one file per game" [ -s "$tmp/pages/glaisher-standard-01-001.json" ]

# -o (issue 10): a directory for any number of games, - for stdout, nothing
# written when several pictures have nowhere to go, a failed file told once.
"$x" --file "$one" --to html -o "$tmp/newdir/" 2>"$tmp/err"
check "one game into a new directory named with a /: exit 0" [ $? -eq 0 ]
check "one game into a new directory named with a /: the page" [ -s "$tmp/newdir/glaisher-standard-01-001.html" ]
"$x" --file "$tmp/three.yaml" --to html >"$tmp/out" 2>"$tmp/err"
check "several pages without -o: exit 2" [ $? -eq 2 ]
check "several pages without -o: nothing written" [ ! -s "$tmp/out" ]
"$x" --file "$tmp/three.yaml" --to yaml -o - >"$tmp/out" 2>"$tmp/err"
check "-o - is standard output" [ "$("$validate" "$tmp/out")" = "3 games, 3 valid, 0 invalid" ]
check "-o - makes no file" [ ! -e ./- ]
"$x" --file "$tmp/three.yaml" --to text -o /dev/full 2>"$tmp/err"
check "a full output file: exit 3" [ $? -eq 3 ]
check "a full output file is reported once" [ "$(grep -c "cannot write '/dev/full'" "$tmp/err")" -eq 1 ]
mkdir -p "$tmp/ro"
chmod 555 "$tmp/ro"
if [ ! -w "$tmp/ro" ] || [ "$(id -u)" -ne 0 ]; then
	"$x" --file "$tmp/three.yaml" --to svg -o "$tmp/ro/" 2>"$tmp/err"
	check "an unwritable directory: exit 3" [ $? -eq 3 ]
	check "an unwritable directory is reported once" [ "$(grep -c 'cannot write' "$tmp/err")" -eq 1 ]
fi
chmod 755 "$tmp/ro"

# Text from the record is escaped everywhere: names and comments with markup.
cat >"$tmp/markup.yaml" <<'END'
game: glaisher
event: "a <b>bold</b> & 'quoted' \"event\""
players:
  red: "</script><script>alert(1)</script>"
  yellow: "Zoë \\ <i>"
moves:
  - {move: h1>ne 5+1 b5, comment: "</script><!-- x --> & <b>"}
result: unfinished
END
"$x" --file "$tmp/markup.yaml" --to html -o "$tmp/markup.html" 2>"$tmp/err"
check "markup: html exits 0" [ $? -eq 0 ]
check "markup: one closing script tag, the page's own" \
	[ "$(grep -o '</script>' "$tmp/markup.html" | wc -l)" -eq 1 ]
check "markup: no raw markup from the record" \
	sh -c "! grep -q -e '<b>' -e '<i>' -e '<!-- x' '$tmp/markup.html'"
check "markup: names escaped" grep -q '&lt;/script&gt;&lt;script&gt;alert(1)' "$tmp/markup.html"
"$x" --file "$tmp/markup.yaml" --to json >"$tmp/markup.json"
cat >"$tmp/markup.py" <<'END'
import json, sys
g = json.load(open(sys.argv[1]))[0]
assert g["players"]["red"]["name"] == "</script><script>alert(1)</script>"
assert g["players"]["yellow"]["name"] == "Zo\u00eb \\ <i>"
assert g["moves"][0]["comment"] == "</script><!-- x --> & <b>"
assert g["headers"]["event"] == "a <b>bold</b> & 'quoted' \"event\""
END
check "markup: json keeps the text" python3 "$tmp/markup.py" "$tmp/markup.json"

# --ply
"$x" --file "$one" --to text --ply 3 >"$tmp/ply3.txt"
check "text --ply K: one diagram" [ "$(grep -c '^ply ' "$tmp/ply3.txt")" -eq 1 ]
check "text --ply K: headed by the ply and move" grep -q '^ply 3: f8>w 5+1 d5 (red), hash [0-9a-f]\{16\}$' "$tmp/ply3.txt"
"$x" --file "$one" --to svg --ply 99 >"$tmp/out" 2>"$tmp/err"
check "--ply past the end exits 1" [ $? -eq 1 ]
check "--ply past the end says so" grep -q "ply 99 is past the end of the game (19 plies)" "$tmp/err"
"$x" --file "$one" --to svg --ply 19 | grep -q 'game over: red wins' || fail "svg of the final ply shows the result"

# Invalid records: diagnostics as kifu-validate prints them, exit 1, nothing exported.
bad=examples/invalid/illegal-move.yaml
"$x" --file "$bad" --to yaml >"$tmp/out" 2>"$tmp/err"
check "an invalid record exits 1" [ $? -eq 1 ]
check "an invalid record exports nothing" [ ! -s "$tmp/out" ]
"$validate" "$bad" >/dev/null 2>"$tmp/verr"
check "diagnostics as kifu-validate prints them" cmp -s "$tmp/err" "$tmp/verr"
cat "$bad" "$one" >"$tmp/mixed.yaml"
"$x" --file "$tmp/mixed.yaml" --to json >"$tmp/mixed.json" 2>"$tmp/err"
check "a stream with an invalid game exits 1" [ $? -eq 1 ]
check "the valid games are still exported" \
	python3 -c "import json; assert len(json.load(open('$tmp/mixed.json'))) == 1"
"$x" --file "$tmp/missing.yaml" --to yaml >/dev/null 2>"$tmp/err"
check "a missing file exits 3" [ $? -eq 3 ]
check "a missing file is named" grep -q "$tmp/missing.yaml" "$tmp/err"
"$x" --file "$one" --to yaml -o "$tmp/no/such/dir/out.yaml" 2>"$tmp/err"
check "an unwritable -o exits 3" [ $? -eq 3 ]

# From the database: --id N gives what --file gives for the same game, and
# FILTERS select the stored games.
db="$tmp/games.db"
"$bin/kifu-import" --db "$db" --quiet "$one" >/dev/null 2>"$tmp/err" || fail "kifu-import: $(cat "$tmp/err")"
"$bin/kifu-import" --db "$db" --quiet examples/splinter examples/glaisher >/dev/null 2>"$tmp/err"
"$x" --db "$db" --id 1 --to yaml >"$tmp/id1.yaml" 2>"$tmp/err"
check "--id exits 0" [ $? -eq 0 ]
"$x" --file "$one" --to yaml >"$tmp/file1.yaml"
# (the database states the first side, which the file leaves implicit)
grep -v '^first: red$' "$tmp/id1.yaml" >"$tmp/id1-nofirst.yaml"
check "--id N: the same canonical yaml as the file" cmp -s "$tmp/id1-nofirst.yaml" "$tmp/file1.yaml"
"$x" --db "$db" --id 1 --to json >"$tmp/id1.json"
"$x" --file "$one" --to json >"$tmp/file1.json"
check "--id N: one json object with the file's plies" python3 -c "
import json
a = json.load(open('$tmp/id1.json'))
b = json.load(open('$tmp/file1.json'))[0]
assert isinstance(a, dict) and a['plies'] == b['plies'] and a['moves'] == b['moves']"
KIFU_DB="$db" "$x" --game glaisher --to yaml >"$tmp/glaisher.yaml" 2>"$tmp/err"
check "FILTERS with \$KIFU_DB exit 0" [ $? -eq 0 ]
check "--game selects every stored game of the game" \
	[ "$("$validate" "$tmp/glaisher.yaml")" = "$(ls examples/glaisher/*.yaml | wc -l) games, $(ls examples/glaisher/*.yaml | wc -l) valid, 0 invalid" ]
"$x" --db "$db" --game splinter --variant survival --to html -o "$tmp/survival" 2>"$tmp/err"
check "FILTERS into a directory: one page per game, named by id" \
	[ "$(ls "$tmp/survival" | grep -c '^game-[0-9]*\.html$')" -eq "$(ls examples/splinter/splinter-survival-*.yaml | wc -l)" ]
"$x" --db "$db" --id 999 --to yaml >/dev/null 2>"$tmp/err"
check "an unknown id exits 1" [ $? -eq 1 ]
check "an unknown id is named" grep -q "no game with id 999" "$tmp/err"
"$x" --db "$db" --since 2024-13 --to yaml >/dev/null 2>"$tmp/err"
check "a bad date exits 2" [ $? -eq 2 ]
usage_error "--db with --file" --db "$db" --file "$one" --to yaml

test_done "$checks checks passed"
