#!/bin/sh
# The HTML replay in a real browser: headless Chromium opens exported pages
# at file://PAGE#ply=N and, from the DOM it dumps after the page's script
# ran, the board shown (its data-cell/data-content attributes) must equal
# the engine's position at ply N (kifu-export --to svg --ply N of the same
# game), for one game of every game and variant at several plies, out of
# range included. Screenshots of one page per variant go to tests/out/ for
# people to look at. Without chromium the test is skipped, except under CI
# (CI=true) and in `make test` (KIFU_TEST_DEPS=required: the Makefile's
# DEB_TEST, chromium included, was installed first), where it fails.
set -u
bin=${KIFU_BIN:-bin}
x="$bin/kifu-export"
out=tests/out
status=0
checks=0

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-browser.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
name=browser.sh
. tests/lib/chromium.sh

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
		run_browser --dump-dom "file://$page#ply=$n" >"$tmp/dom.html"
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
	run_browser --dump-dom "file://$page#ply=99999" >"$tmp/dom.html"
	python3 "$tmp/cells.py" page "$tmp/dom.html" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || fail "$name at #ply=99999: not the last position"
	"$x" --file "$f" --to svg --ply 0 -o "$tmp/first.svg"
	{ echo "ply=0"; python3 "$tmp/cells.py" svg "$tmp/first.svg"; } >"$tmp/want"
	run_browser --dump-dom "file://$page" >"$tmp/dom.html"
	python3 "$tmp/cells.py" page "$tmp/dom.html" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || fail "$name without #ply: not the start position"

	# A screenshot for people, in the middle of the game.
	cp "$page" "$out/$name.html"
	rm -f "$out/$name.png"
	run_browser --screenshot="$out/$name.png" --window-size=1000,900 \
		"file://$(pwd)/$out/$name.html#ply=$((plies / 2))" >/dev/null
	[ -s "$out/$name.png" ] || fail "$name: no screenshot"
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
run_browser --allow-file-access-from-files --dump-dom "file://$tmp/probe/probe.html" |
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

[ $status -eq 0 ] && echo "browser.sh: $checks pages checked in $browser; screenshots in $out/"
exit $status
