#!/bin/sh
# The HTML replay in a real browser: headless Chromium opens exported pages
# at file://PAGE#ply=N and, from the DOM it dumps after the page's script
# ran, the board shown (its data-cell/data-content attributes) must equal
# the engine's position at ply N (kifu-export --to svg --ply N of the same
# game), for one game of every game and variant at several plies, out of
# range included. Then kifu-analyse --to html pages (a two-sided game and
# splinter-quad): the chart has a column per ply and a line per side, the
# move list the marks of the json review, and clicking a column of the
# chart (the element at its centre, as a mouse would) shows that ply's
# board, address and move. Screenshots of one page per variant (and of the
# analysed pages) go to tests/out/ for people to look at. Without chromium
# the test is skipped, except under CI
# (CI=true) and in `make test` (KIFU_TEST_DEPS=required: the Makefile's
# DEB_TEST, chromium included, was installed first), where it fails.
# tests/run: early (it is long)
# tests/run: plain (Chromium's rendering and the page's script; kifu-export's
#   pages run under the sanitizers in export.sh)
set -u
. tests/cli/lib/test-lib.sh
x="$bin/kifu-export"
out=tests/out

mkdir -p "$out"
. tests/cli/lib/chromium.sh
browser_start

# A screenshot for people: PAGE copied to tests/out/NAME.html, shown at #ply=PLY in a window of SIZE.
screenshot() {
	cp "$1" "$out/$2.html"
	rm -f "$out/$2.png"
	browser_screenshot "file://$(pwd)/$out/$2.html#ply=$3" "$out/$2.png" "$4"
	[ -s "$out/$2.png" ] || fail "$2: no screenshot"
}

# One game of every game and variant: "FILE PLIES".
games=""
for f in examples/splay-schmidt/splay-schmidt-standard-01.yaml \
	examples/splay-kisenwether/splay-kisenwether-standard-03.yaml \
	examples/splinter/splinter-knockout-01.yaml examples/splinter/splinter-survival-01.yaml \
	examples/splinter-quad/splinter-quad-standard-01.yaml \
	examples/glaisher/glaisher-standard-01.yaml examples/glaisher/glaisher-advanced-01.yaml; do
	[ -f "$f" ] || { fail "missing example $f"; continue; }
	games="$games $f"
done

for f in $games; do
	name=$(basename "$f" .yaml)
	page="$tmp/$name.html"
	if ! "$x" --file "$f" --to html -o "$page" 2>"$tmp/err"; then
		fail "$f: kifu-export --to html: $(cat "$tmp/err")"
		continue
	fi
	plies=$("$x" --file "$f" --to text | grep -c '^ply [0-9]*:')
	plies=$((plies - 1))
	for n in 0 1 $((plies / 2)) $plies; do
		checks=$((checks + 1))
		"$x" --file "$f" --to svg --ply "$n" -o "$tmp/want.svg" || { fail "$f: svg --ply $n"; continue; }
		{ echo "ply=$n"; python3 "$tmp/cells.py" svg "$tmp/want.svg"; } >"$tmp/want"
		browser_dump "file://$page#ply=$n" >"$tmp/dom.html"
		python3 "$tmp/cells.py" page "$tmp/dom.html" >"$tmp/got"
		if ! cmp -s "$tmp/want" "$tmp/got"; then
			fail "$name at #ply=$n: the page shows another board than the engine"
			diff "$tmp/want" "$tmp/got" | head -10 >&2
		fi
		grep -q "ply $n of $plies\\|start ($plies plies)" "$tmp/dom.html" ||
			fail "$name at #ply=$n: the page does not say which ply it shows"
	done
	# Out of range goes to the last ply; no hash opens at the start.
	checks=$((checks + 2))
	"$x" --file "$f" --to svg -o "$tmp/last.svg"
	{ echo "ply=$plies"; python3 "$tmp/cells.py" svg "$tmp/last.svg"; } >"$tmp/want"
	browser_dump "file://$page#ply=99999" >"$tmp/dom.html"
	python3 "$tmp/cells.py" page "$tmp/dom.html" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || fail "$name at #ply=99999: not the last position"
	"$x" --file "$f" --to svg --ply 0 -o "$tmp/first.svg"
	{ echo "ply=0"; python3 "$tmp/cells.py" svg "$tmp/first.svg"; } >"$tmp/want"
	browser_dump "file://$page" >"$tmp/dom.html"
	python3 "$tmp/cells.py" page "$tmp/dom.html" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || fail "$name without #ply: not the start position"

	# A screenshot for people, in the middle of the game.
	screenshot "$page" "$name" $((plies / 2)) 1000,900
done

# Moving about: keys, the move list and the buttons, in a page that loads
# an exported one in a frame and writes down, after each action, the ply
# shown, the address's #ply and the board's cells.
f=examples/glaisher/glaisher-standard-01.yaml
mkdir -p "$tmp/probe"
"$x" --file "$f" --to html -o "$tmp/probe/page.html"
cat >"$tmp/probe/probe.html" <<'EOF'
<!DOCTYPE html><html><body><pre id="log"></pre>
<iframe id="f" src="page.html#ply=3"></iframe>
<script>
var log = [];
document.getElementById("f").onload = function () {
	var w = this.contentWindow, d = w.document;
	function note(what) {
		var cells = [], els = d.querySelectorAll("#board [data-cell]");
		for (var i = 0; i < els.length; i++)
			cells.push(els[i].getAttribute("data-cell") + "=" + els[i].getAttribute("data-content"));
		cells.sort();
		log.push(what + " " + d.getElementById("board").getAttribute("data-ply") + " " +
			 w.location.hash + " " + cells.join(","));
	}
	function key(k) { d.dispatchEvent(new w.KeyboardEvent("keydown", { key: k, bubbles: true })); }
	note("open");
	key("ArrowRight"); note("right");
	key("ArrowLeft"); key("ArrowLeft"); note("left-left");
	key("End"); note("end");
	key("ArrowRight"); note("right-at-end");
	key("Home"); note("home");
	key("ArrowLeft"); note("left-at-start");
	d.querySelector('#moves button[data-ply="7"]').click(); note("click-7");
	d.getElementById("forward").click(); note("forward");
	d.getElementById("back").click(); note("back");
	d.getElementById("end").click(); note("last");
	d.getElementById("first").click(); note("first");
	document.getElementById("log").textContent = log.join("\n");
};
</script></body></html>
EOF
browser_dump "file://$tmp/probe/probe.html" |
	sed -n '/<pre id="log">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$tmp/probe/log"
plies=$("$x" --file "$f" --to text | grep -c '^ply [0-9]*:')
plies=$((plies - 1))
for step in "open 3" "right 4" "left-left 2" "end $plies" "right-at-end $plies" "home 0" \
	"left-at-start 0" "click-7 7" "forward 8" "back 7" "last $plies" "first 0"; do
	set -- $step
	checks=$((checks + 1))
	"$x" --file "$f" --to svg --ply "$2" -o "$tmp/want.svg"
	cells=$(python3 "$tmp/cells.py" svg "$tmp/want.svg" | tr '\n' ',' | sed 's/,$//')
	grep -qx "$1 $2 #ply=$2 $cells" "$tmp/probe/log" ||
		fail "after '$1' the page should show ply $2 with #ply=$2 and its board: $(grep "^$1 " "$tmp/probe/log")"
done

# kifu-analyse --to html: the chart and the marks. Few playouts: the page,
# not the engine, is under test (the marks are compared with the json review
# made with the same settings).
a="$bin/kifu-analyse"
for f in tests/data/analyse/glaisher-standard.yaml tests/data/analyse/splinter-quad-standard.yaml; do
	name=analysed-$(basename "$f" .yaml)
	dir="$tmp/$name"
	mkdir -p "$dir"
	# the first game of the file
	"$x" --file "$f" --to yaml 2>/dev/null | awk '/^---/ { n++ } n <= 1' >"$dir/game.yaml"
	if ! "$a" --file "$dir/game.yaml" --playouts 60 --seed 5 --to html -o "$dir/page.html" 2>"$tmp/err"; then
		fail "$f: kifu-analyse --to html: $(cat "$tmp/err")"
		continue
	fi
	"$a" --file "$dir/game.yaml" --playouts 60 --seed 5 --to json -o "$dir/review.json"
	plies=$("$x" --file "$dir/game.yaml" --to text | grep -c '^ply [0-9]*:')
	plies=$((plies - 1))
	clicks="1 $((plies / 2)) $plies 0"
	sed "s/CLICKS/[$(echo $clicks | tr ' ' ',')]/" >"$dir/probe.html" <<'EOF'
<!DOCTYPE html><html><body><pre id="log"></pre>
<iframe id="f" src="page.html" width="1200" height="1400"></iframe>
<script>
var log = [];
document.getElementById("f").onload = function () {
	var w = this.contentWindow, d = w.document;
	var cols = d.querySelectorAll("#chart .col");
	log.push("columns " + cols.length);
	log.push("lines " + d.querySelectorAll("#chart path.ln").length);
	log.push("legend " + d.querySelectorAll(".legend .swatch").length);
	var marks = [];
	var items = d.querySelectorAll("#moves button");
	for (var i = 0; i < items.length; i++) {
		var m = items[i].querySelector(".mk");
		marks.push(items[i].getAttribute("data-ply") + "=" + (m ? m.textContent : "-"));
	}
	log.push("marks " + marks.join(","));
	function clickPly(p) {
		var col = d.querySelector('#chart .col[data-ply="' + p + '"]');
		col.scrollIntoView();
		var r = col.getBoundingClientRect();
		var el = d.elementFromPoint(r.left + r.width / 2, r.top + r.height * 0.6);
		if (!el) { log.push("click " + p + " nothing"); return; }
		el.dispatchEvent(new w.MouseEvent("click", { bubbles: true }));
		var cells = [], els = d.querySelectorAll("#board [data-cell]");
		for (var i = 0; i < els.length; i++)
			cells.push(els[i].getAttribute("data-cell") + "=" + els[i].getAttribute("data-content"));
		cells.sort();
		var cur = d.querySelector("#moves button.current");
		var on = d.querySelector("#chart .col.on");
		var cx = +d.getElementById("chart-cursor").getAttribute("x1");
		var want = on ? +on.getAttribute("x") + on.getAttribute("width") / 2 : -1;
		log.push("click " + p + " " + d.getElementById("board").getAttribute("data-ply") + " " +
			 w.location.hash + " " + (cur ? cur.getAttribute("data-ply") : "none") + " " +
			 (on ? on.getAttribute("data-ply") : "none") + " " +
			 (Math.abs(cx - want) < 0.01 ? "cursor" : "nocursor") + " " + cells.join(","));
	}
	CLICKS.forEach(clickPly);
	document.getElementById("log").textContent = log.join("\n");
};
</script></body></html>
EOF
	browser_dump "file://$dir/probe.html" 1300,1500 |
		sed -n '/<pre id="log">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$dir/log"
	sides=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[0]['players']))" "$dir/review.json")
	checks=$((checks + 1))
	grep -qx "columns $((plies + 1))" "$dir/log" || fail "$name: not a chart column per ply: $(grep columns "$dir/log")"
	grep -qx "lines $sides" "$dir/log" || fail "$name: not a line per side: $(grep lines "$dir/log")"
	grep -qx "legend $sides" "$dir/log" || fail "$name: not a legend entry per side"
	want=$(python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))[0]
print('marks 0=-,' + ','.join('%d=%s' % (p['ply'], p['mark'] or '-') for p in g['plies']))" "$dir/review.json")
	grep -qxF "$want" "$dir/log" || fail "$name: the move list's marks are not the review's: $(grep marks "$dir/log")"
	grep -q '=?' "$dir/log" || fail "$name: no marked move to check (the review marked none)"
	for n in $clicks; do
		checks=$((checks + 1))
		"$x" --file "$dir/game.yaml" --to svg --ply "$n" -o "$tmp/want.svg"
		cells=$(python3 "$tmp/cells.py" svg "$tmp/want.svg" | tr '\n' ',' | sed 's/,$//')
		grep -qxF "click $n $n #ply=$n $n $n cursor $cells" "$dir/log" ||
			fail "$name: clicking ply $n of the chart should show ply $n: $(grep "^click $n " "$dir/log" | cut -c1-120)"
	done
	screenshot "$dir/page.html" "$name" $((plies / 2)) 1200,1350
done

test_done "$checks pages checked in $browser; screenshots in $out/"
