#!/bin/sh
# The explorer page of `kifu-stats tree --html` in a real browser. A
# database of known games (the examples, two games whose move orders
# transpose, and one with hostile text) gets a page per game and variant;
# a probe page loads each in a frame, clicks along paths of moves (the most
# played lines, the second most played, and the two transposing orders),
# and writes down after each click the board shown, the table and the
# path. Each board must be the engine's position after that path
# (kifu-export --to svg of a record of those moves: the same cells and the
# same last move marked), each table what `kifu-stats tree --after PATH
# --format json` says, shown as the text table shows it. Besides: the data
# of a page with --depth 2 --min-games 2 holds every position within two
# plies and no deeper one, each with the tool's table at --min-games 2; the
# two move orders reach one position of the page; player names and events
# from the database are text in the page, never markup, and a stored move
# that is no move of its position (markup planted in the database) is
# damage, not a row; usage errors exit 2, an unwritable file 3. Screenshots go to tests/out/.
# Chromium: as browser.sh (tests/cli/lib/chromium.sh).
set -u
. tests/cli/lib/test-lib.sh
out=tests/out

mkdir -p "$out"
. tests/cli/lib/chromium.sh
browser_start

db=$tmp/games.db
# shellcheck disable=SC2046
"$bin/kifu-import" --db "$db" $(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$') \
	>/dev/null 2>"$tmp/err" || { fail "import: $(cat "$tmp/err")"; exit 1; }
mkdir -p "$tmp/known"
for order in "f2 g7 f3 e5" "f3 g7 f2 d4"; do
	set -- $order
	printf 'format: 1\ngame: splay-schmidt\nvariant: standard\nevent: transpositions\n' \
		>"$tmp/known/$1.yaml"
	printf 'players:\n  white: A\n  black: B\nmoves: [%s, %s, %s, %s]\n' "$@" >>"$tmp/known/$1.yaml"
done
"$bin/kifu-import" --db "$db" "$tmp/known" >/dev/null 2>"$tmp/err" ||
	fail "import of the known games: $(cat "$tmp/err")"
# Its one move is a first move no other game played, renamed in a copy of the database below.
"$bin/kifu-stats" --db "$db" tree --game glaisher --variant advanced --format csv | cut -d, -f1 \
	>"$tmp/played"
rare=$("$bin/kifu-perft" glaisher --variant advanced --divide 1 2>/dev/null | sed -n 's/: 1$//p' |
	grep -vxF -f "$tmp/played" | head -1)
[ -n "$rare" ] || fail "no first move of glaisher advanced is left unplayed"
cat >"$tmp/known/hostile.yaml" <<EOF
format: 1
game: glaisher
variant: advanced
event: "</script><b id=pwn-event>event</b>"
players:
  red: "<img src=x id=pwn-name onerror=document.title='pwned'>"
  yellow: "Ada & <Bob>"
moves: ['$rare']
EOF
"$bin/kifu-import" --db "$db" "$tmp/known/hostile.yaml" >/dev/null 2>"$tmp/err" ||
	fail "import of the hostile game: $(cat "$tmp/err")"

# ---- usage errors and the file ----

usage_error() {
	checks=$((checks + 1))
	rm -f "$tmp/u.html"
	"$bin/kifu-stats" --db "$db" "$@" >/dev/null 2>"$tmp/err"
	code=$?
	[ $code -eq 2 ] || fail "kifu-stats $*: exit $code, expected 2 (usage)"
	grep -q "^kifu-stats: error: ." "$tmp/err" || fail "kifu-stats $*: no message: $(cat "$tmp/err")"
	[ ! -e "$tmp/u.html" ] || fail "kifu-stats $*: a page was written after a usage error"
}
usage_error tree --html "$tmp/u.html"
usage_error tree --game splay-schmidt --html "$tmp/u.html" --depth 0
usage_error tree --game splay-schmidt --html "$tmp/u.html" --depth x
usage_error tree --game splay-schmidt --depth 3
usage_error tree --game splay-schmidt --html
usage_error tree --game splay-schmidt --html ''
usage_error summary --html "$tmp/u.html"
usage_error openings --html "$tmp/u.html"
usage_error tree --game splay-schmidt --html "$tmp/u.html" --svg "$tmp/u.svg"
usage_error tree --game splay-schmidt --html "$tmp/u.html" --format json
usage_error tree --game splay-schmidt --html "$tmp/u.html" --after f2,zz
usage_error tree --game splay-schmidt --html "$tmp/u.html" --after f2,f2
usage_error tree --game glaisher --html "$tmp/u.html"
usage_error tree --game nosuchgame --html "$tmp/u.html"
usage_error tree --game splay-schmidt --html "$tmp/u.html" --by-position
checks=$((checks + 1))
"$bin/kifu-stats" --db "$db" tree --game splay-schmidt --html "$tmp/no/such/dir/x.html" \
	2>"$tmp/err"
code=$?
[ $code -eq 3 ] || fail "an unwritable page: exit $code, expected 3"
grep -q "cannot open '$tmp/no/such/dir/x.html'" "$tmp/err" ||
	fail "an unwritable page: $(cat "$tmp/err")"
checks=$((checks + 1))
out_text=$("$bin/kifu-stats" --db "$db" tree --game splay-schmidt --html "$tmp/quiet.html" 2>&1)
[ -z "$out_text" ] && [ -s "$tmp/quiet.html" ] ||
	fail "a page is written quietly to its file: '$out_text'"

# ---- the pages in the browser ----

mkdir -p "$tmp/probe"
cat >"$tmp/probe/probe.js" <<'EOF'
// Clicks along PATHS in the page of the frame; after each click, writes
// down what the page shows. Moves are found by their rows' data-move.
function run(w, paths) {
	var d = w.document, log = [];
	function snap(step) {
		var b = d.getElementById("board"), cells = [], last = [], rows = [], crumbs = [];
		b.querySelectorAll("[data-cell]").forEach(function (e) {
			cells.push(e.getAttribute("data-cell") + "=" + e.getAttribute("data-content"));
		});
		b.querySelectorAll("[data-last]").forEach(function (e) {
			last.push(e.getAttribute("data-last"));
		});
		d.querySelectorAll("#rows tr").forEach(function (tr) {
			var r = { move: tr.getAttribute("data-move"), go: tr.className === "go", cells: {} };
			tr.querySelectorAll("td[data-col]").forEach(function (td) {
				r.cells[td.getAttribute("data-col")] = td.textContent;
			});
			rows.push(r);
		});
		d.querySelectorAll("#path button").forEach(function (e) { crumbs.push(e.textContent); });
		log.push({ step: step, path: b.getAttribute("data-path"), node: b.getAttribute("data-node"),
			   hash: w.location.hash, cells: cells.sort(), last: last.sort(), rows: rows,
			   crumbs: crumbs, table: d.getElementById("wrap").style.display !== "none",
			   note: d.getElementById("note").textContent });
	}
	paths.forEach(function (p, i) {
		d.querySelector('#path button[data-depth="0"]').click();
		snap([i, 0]);
		for (var k = 0; k < p.length; k++) {
			var tr = null;
			d.querySelectorAll("#rows tr").forEach(function (e) {
				if (e.getAttribute("data-move") === p[k]) tr = e;
			});
			if (!tr) { log.push({ step: [i, k + 1], missing: p[k] }); break; }
			tr.click();
			snap([i, k + 1]);
		}
	});
	// Back up: the path's buttons and the left arrow key.
	var crumbs = d.querySelectorAll("#path button");
	if (crumbs.length > 2) {
		crumbs[1].click();
		snap(["crumb", 1]);
		d.dispatchEvent(new w.KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true }));
		snap(["left", 0]);
	}
	return log;
}
EOF

# verify.py GAME VARIANT MINGAMES LOG: each snapshot against the tools.
cat >"$tmp/verify.py" <<'EOF'
import json, subprocess, sys
game, variant, min_games, logfile, binp, tmp = sys.argv[1:7]
log = json.load(open(logfile))
paths = json.load(open(tmp + "/paths.json"))
bad = 0
def fail(msg):
    global bad
    bad += 1
    print("explorer.sh: FAIL: %s %s: %s" % (game, variant, msg), file=sys.stderr)

def tool(*args):
    r = subprocess.run([binp + "/" + args[0]] + list(args[1:]), capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout

def want_board(moves):
    rec = tmp + "/rec.yaml"
    with open(rec, "w") as f:
        f.write("format: 1\ngame: %s\nvariant: %s\nmoves: [%s]\n"
                % (game, variant, ", ".join(json.dumps(m) for m in moves)))
    tool("kifu-export", "--file", rec, "--to", "svg", "-o", tmp + "/want.svg")
    from html.parser import HTMLParser
    class P(HTMLParser):
        cells, last = [], []
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "data-cell" in a: self.cells.append("%s=%s" % (a["data-cell"], a.get("data-content")))
            if "data-last" in a: self.last.append(a["data-last"])
    p = P(); p.cells = []; p.last = []
    p.feed(open(tmp + "/want.svg", encoding="utf-8").read())
    return sorted(p.cells), sorted(p.last)

def fmt(v, prec):
    return "-" if v is None else "%.*f" % (prec, v)

def want_rows(moves):
    j = json.loads(tool("kifu-stats", "--db", tmp + "/games.db", "tree", "--game", game,
                        "--variant", variant, "--min-games", min_games,
                        "--after", ",".join(moves), "--format", "json"))
    rows = []
    for r in j["rows"]:
        c = {"move": r["move"], "games": str(r["games"]), "draws": str(r["draws"]),
             "unfinished": str(r["unfinished"]), "mover_score": fmt(r["mover_score"], 3),
             "ci_low": "-" if r["ci_low"] is None else "%.3f-%.3f" % (r["ci_low"], r["ci_high"]),
             "mean_plies": fmt(r["mean_plies"], 1),
             "first_date": (r["first_date"] or "-")[:4], "last_date": (r["last_date"] or "-")[:4]}
        for k, v in r.items():
            if k.startswith("wins_"): c[k] = str(v)
        rows.append((r["move"], c))
    return rows

checked = 0
for s in log:
    if "missing" in s:
        fail("path %s: no row for move %r" % (paths[s["step"][0]], s["missing"]))
        continue
    if s["step"][0] in ("crumb", "left"):
        continue
    moves = paths[s["step"][0]][:s["step"][1]]
    where = "after %s" % (",".join(moves) or "the start")
    if s["path"] != ",".join(moves):
        fail("%s: the page says its path is %r" % (where, s["path"]))
    want = "#path=" + ",".join(__import__("urllib.parse").parse.quote(m, safe="") for m in moves)
    if s["hash"] != want and not (not moves and s["hash"] in ("", "#path=")):
        fail("%s: the address ends in %r, not %r" % (where, s["hash"], want))
    if len(s["crumbs"]) != len(moves) + 1 or s["crumbs"][1:] != moves:
        fail("%s: the path shown is %r" % (where, s["crumbs"]))
    cells, last = want_board(moves)
    if s["cells"] != cells:
        fail("%s: the board is not the engine's position: %s" %
             (where, sorted(set(s["cells"]) ^ set(cells))[:6]))
    if s["last"] != last:
        fail("%s: the last move marked is %r, not %r" % (where, s["last"], last))
    rows = want_rows(moves)
    got = [(r["move"], r["cells"]) for r in s["rows"]]
    if got != rows:
        fail("%s: the table differs from kifu-stats tree --format json:\n  page %r\n  tool %r"
             % (where, got[:3], rows[:3]))
    if s["table"] != bool(rows):
        fail("%s: the table is %s" % (where, "hidden" if rows else "shown, empty"))
    checked += 1
# Backing up: the first crumb after the last path, then the left arrow.
ups = [s for s in log if s.get("step", [None])[0] in ("crumb", "left")]
for s in ups:
    want = 1 if s["step"][0] == "crumb" else 0
    if len(s["crumbs"]) != want + 1:
        fail("backing up with %s: the path shown is %r" % (s["step"][0], s["crumbs"]))
print(checked)
sys.exit(1 if bad else 0)
EOF

# paths.py GAME VARIANT: the paths to click (JSON): the most played line,
# the second most played move then the most played after it (3 plies).
cat >"$tmp/paths.py" <<'EOF'
import json, subprocess, sys
game, variant, binp, db = sys.argv[1:5]
def rows(moves):
    r = subprocess.run([binp + "/kifu-stats", "--db", db, "tree", "--game", game, "--variant",
                        variant, "--after", ",".join(moves), "--format", "json"],
                       capture_output=True, text=True, check=True)
    return [x["move"] for x in json.loads(r.stdout)["rows"]]
paths = []
for first in (0, 1):
    p = []
    for k in range(3):
        r = rows(p)
        i = first if k == 0 else 0
        if len(r) <= i: break
        p.append(r[i])
    if p: paths.append(p)
paths += json.loads(sys.argv[5]) if len(sys.argv) > 5 else []
print(json.dumps(paths))
EOF

for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout splinter:survival \
	splinter-quad:standard glaisher:standard glaisher:advanced; do
	g=${gv%%:*}
	v=${gv#*:}
	extra='[]'
	[ "$g" = splay-schmidt ] && extra='[["f2","g7","f3"],["f3","g7","f2"]]'
	page=$tmp/probe/page.html
	if ! "$bin/kifu-stats" --db "$db" tree --game "$g" --variant "$v" --html "$page" \
		2>"$tmp/err"; then
		fail "$g $v: tree --html: $(cat "$tmp/err")"
		continue
	fi
	# Self-contained: nothing to fetch (the SVG namespace is a name, not a fetch).
	checks=$((checks + 1))
	if grep -o 'https\?://[^"'"'"' ]*' "$page" | grep -qv '^http://www\.w3\.org/' ||
		grep -qi '<link\|<img\|<iframe\|src=\|@import\|url(' "$page"; then
		fail "$g $v: the page refers to something outside it"
	fi
	python3 "$tmp/paths.py" "$g" "$v" "$bin" "$db" "$extra" >"$tmp/paths.json" ||
		{ fail "$g $v: no paths"; continue; }
	{
		echo '<!DOCTYPE html><html><body><pre id="log"></pre>'
		echo '<iframe id="f" src="page.html"></iframe><script>'
		cat "$tmp/probe/probe.js"
		printf 'var PATHS = %s;\n' "$(cat "$tmp/paths.json")"
		echo 'document.getElementById("f").onload = function () {'
		echo '	document.getElementById("log").textContent ='
		echo '		JSON.stringify(run(this.contentWindow, PATHS));'
		echo '};</script></body></html>'
	} >"$tmp/probe/probe.html"
	browser_dump "file://$tmp/probe/probe.html" |
		python3 -c 'import sys, html, re
m = re.search(r"<pre id=\"log\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "[]")' >"$tmp/log.json"
	if ! n=$(python3 "$tmp/verify.py" "$g" "$v" 1 "$tmp/log.json" "$bin" "$tmp"); then
		test_status=1
	fi
	[ "${n:-0}" -gt 0 ] 2>/dev/null || fail "$g $v: no position checked in the page"
	checks=$((checks + ${n:-0}))
	# The two move orders of the known games reach one position of the page.
	if [ "$g" = splay-schmidt ]; then
		checks=$((checks + 1))
		python3 - "$tmp/log.json" <<'EOF' || fail "f2,g7,f3 and f3,g7,f2 are not one position of the page"
import json, sys
log = json.load(open(sys.argv[1]))
nodes = {s["path"]: s["node"] for s in log if "path" in s}
a, b = nodes.get("f2,g7,f3"), nodes.get("f3,g7,f2")
sys.exit(0 if a is not None and a == b else 1)
EOF
	fi
	# A screenshot for people, two plies down the most played line.
	p2=$(python3 -c 'import json, sys, urllib.parse
p = json.load(open(sys.argv[1]))[0][:2]
print(",".join(urllib.parse.quote(m, safe="") for m in p))' "$tmp/paths.json")
	cp "$page" "$out/explorer-$g-$v.html"
	rm -f "$out/explorer-$g-$v.png"
	browser_screenshot "file://$(pwd)/$out/explorer-$g-$v.html#path=$p2" "$out/explorer-$g-$v.png" \
		1300,900
	[ -s "$out/explorer-$g-$v.png" ] || fail "$g $v: no screenshot"
done

# ---- the limits: --depth 2 --min-games 2, every position against the tool ----

checks=$((checks + 1))
"$bin/kifu-stats" --db "$db" tree --game splay-schmidt --html "$tmp/limits.html" --depth 2 \
	--min-games 2 2>"$tmp/err" || fail "--depth 2 --min-games 2: $(cat "$tmp/err")"
python3 - "$tmp/limits.html" "$bin" "$db" <<'EOF' || test_status=1
import json, re, subprocess, sys
page, binp, db = sys.argv[1:4]
text = open(page, encoding="utf-8").read()
data = json.loads(re.search(r"\nvar DATA = (.*?);\n\(function", text, re.S).group(1))
bad = []
nodes = data["nodes"]
if data["depth"] != 2 or data["min_games"] != 2:
    bad.append("the page says depth %r, min_games %r" % (data["depth"], data["min_games"]))
if max(n["d"] for n in nodes) != 2:
    bad.append("the deepest position is %d plies down, not 2" % max(n["d"] for n in nodes))
seen = set()
for i, n in enumerate(nodes):
    if n["hash"] in seen:
        bad.append("position %s is in the page twice" % n["hash"])
    seen.add(n["hash"])
    if (n["rows"] is None) != (n["d"] == 2):
        bad.append("position %d (%d plies down) %s a table" % (i, n["d"], "has" if n["rows"] else "lacks"))
    if n["rows"] is None:
        continue
    r = subprocess.run([binp + "/kifu-stats", "--db", db, "tree", "--game", "splay-schmidt",
                        "--min-games", "2", "--after", n["after"], "--format", "json"],
                       capture_output=True, text=True)
    tool = json.loads(r.stdout)["rows"]
    if [(x["move"], x["games"]) for x in tool] != [(x["m"], x["g"]) for x in n["rows"]]:
        bad.append("after %r: the rows are not the tool's at --min-games 2" % n["after"])
    if tool and tool[0]["hash"] != n["hash"]:
        bad.append("after %r: hash %s, the tool says %s" % (n["after"], n["hash"], tool[0]["hash"]))
    for x in n["rows"]:
        if x["g"] < 2:
            bad.append("after %r: move %r has %d games" % (n["after"], x["m"], x["g"]))
        if x["to"] < 0:
            bad.append("after %r: move %r leads nowhere" % (n["after"], x["m"]))
        elif nodes[x["to"]]["d"] > n["d"] + 1:
            bad.append("after %r: move %r leads too deep" % (n["after"], x["m"]))
if len(nodes) < 3:
    bad.append("only %d positions" % len(nodes))
for b in bad:
    print("explorer.sh: FAIL: --depth 2 --min-games 2: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
# In the browser: two clicks down, the table gives way to the command that goes on.
browser_dump "file://$tmp/limits.html#path=$(python3 -c 'import json, re, sys, urllib.parse
t = open(sys.argv[1]).read()
d = json.loads(re.search(r"\nvar DATA = (.*?);\n\(function", t, re.S).group(1))
deep = [n["after"] for n in d["nodes"] if n["d"] == 2]
print(",".join(urllib.parse.quote(m, safe="") for m in deep[0].split(",")) if deep else "")' \
	"$tmp/limits.html")" >"$tmp/deep.html"
checks=$((checks + 1))
grep -q "This page goes 2 plies deep.*kifu-stats tree --game splay-schmidt --min-games 2 --after '" "$tmp/deep.html" &&
	! grep -q '<tr class="go"' "$tmp/deep.html" ||
	fail "two plies down a --depth 2 page: moves to click, or no note"

# ---- hostile text: names, events and moves from the database ----

# A move renamed wherever the database keeps moves (the tables of the schemas
# so far) is no move of its position: damage (issue 39), not a row leading
# nowhere; the pages below are written from the database as it was.
cp "$db" "$tmp/planted.db"
python3 - "$tmp/planted.db" "$rare" <<'EOF' || fail "cannot plant a hostile move in the test database"
import sqlite3, sys
bad = "</script><b id=pwn-move>m</b>&amp;"
c = sqlite3.connect(sys.argv[1])
gid = c.execute("SELECT id FROM games WHERE event LIKE '%pwn-event%'").fetchone()[0]
c.execute("UPDATE game_moves SET moves = json_array(?) WHERE game_id = ?", (bad, gid))
tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
for t in ("moves", "tree_moves"):
    if t in tables and "move" in [r[1] for r in c.execute("PRAGMA table_info(%s)" % t)]:
        c.execute("UPDATE %s SET move = ? WHERE move = ?" % t, (bad, sys.argv[2]))
c.commit()
EOF
checks=$((checks + 1))
"$bin/kifu-stats" --db "$tmp/planted.db" tree --game glaisher --variant advanced --html \
	"$tmp/planted.html" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "is damaged: .*pwn-move" "$tmp/err" ||
	fail "the hostile move is listed, not damage: $(cat "$tmp/err")"
hostile_name="<img src=x id=pwn-name onerror=document.title='pwned'>"
for filter in "--player" "--event"; do
	checks=$((checks + 1))
	if [ "$filter" = --player ]; then value=$hostile_name; else value="</script><b id=pwn-event>event</b>"; fi
	"$bin/kifu-stats" --db "$db" tree --game glaisher --variant advanced "$filter" "$value" \
		--html "$tmp/hostile.html" 2>"$tmp/err" || { fail "hostile $filter: $(cat "$tmp/err")"; continue; }
	browser_dump "file://$tmp/hostile.html" >"$tmp/hostile-dom.html"
	python3 - "$tmp/hostile-dom.html" "$value" "$rare" <<'EOF' || fail "hostile $filter: text from the database became markup"
import html, sys
from html.parser import HTMLParser
dom = open(sys.argv[1], encoding="utf-8").read()
ids, titles, moves, text = [], [], [], []
class P(HTMLParser):
    t = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        ids.append(a.get("id"))
        if tag == "title": self.t = True
        if "data-move" in a: moves.append(a["data-move"])
    def handle_endtag(self, tag):
        if tag == "title": self.t = False
    def handle_data(self, d):
        text.append(d)
        if self.t: titles.append(d)
P().feed(dom)
ok = not any(i and i.startswith("pwn") for i in ids)
ok = ok and "pwned" not in "".join(titles)
ok = ok and sys.argv[2] in "".join(text)                 # the filter, shown as text
ok = ok and moves == [sys.argv[3]]                       # the game's one move
sys.exit(0 if ok else 1)
EOF
done

test_done "$checks checks in $browser; screenshots in $out/explorer-*"
