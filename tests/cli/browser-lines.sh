#!/bin/sh
# Format 2's lines on the replay page, in a real browser (headless
# Chromium, as browser.sh): the move list shows each line under its move
# and the nags beside the moves; clicking a move of a line shows its
# position (the board of the same moves played as a game of their own),
# forward and the arrow keys follow the line, a nested line is followed
# the same way, and "back to the game" returns to the main-line move the
# line replaces (#ply=N); the button is hidden on the main line. Without
# chromium the test is skipped, as browser.sh is.
# tests/run: plain (the page's script in Chromium; the pages' writer runs
#   under the sanitizers in export.sh and store-lines.sh)
set -u
. tests/cli/lib/test-lib.sh
x="$bin/kifu-export"
. tests/cli/lib/chromium.sh
browser_start

f=tests/data/records/valid/format2-lines.yaml
mkdir -p "$tmp/probe"
"$x" --file "$f" --to html -o "$tmp/probe/page.html" || fail "export html"
check "nags beside the moves" grep -q '<span>f3</span><span class="nag">?!</span>' "$tmp/probe/page.html"
check "lines under their move" grep -q '<div class="lines"><div class="line"><button data-ply="5"' \
	"$tmp/probe/page.html"
cat >"$tmp/probe/probe.html" <<'PROBE'
<!DOCTYPE html><html><body><pre id="log"></pre>
<iframe id="f" src="page.html#ply=1"></iframe>
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
			 w.location.hash + " " + (d.getElementById("game").hidden ? "main" : "line") + " " +
			 cells.join(","));
	}
	function key(k) { d.dispatchEvent(new w.KeyboardEvent("keydown", { key: k, bubbles: true })); }
	note("open");
	d.querySelector('#moves button[data-ply="5"]').click(); note("click-d4");
	d.getElementById("forward").click(); note("forward");
	key("ArrowRight"); note("right");
	key("ArrowRight"); note("right-at-end");
	d.querySelector('#moves button[data-ply="7"]').click(); note("click-nested");
	key("ArrowRight"); note("nested-right");
	key("ArrowLeft"); key("ArrowLeft"); note("nested-left-left");
	d.getElementById("game").click(); note("game");
	d.querySelector('#moves button[data-ply="11"]').click(); note("click-line2");
	key("End"); note("end");
	document.getElementById("log").textContent = log.join("\n");
};
</script></body></html>
PROBE
browser_dump "file://$tmp/probe/probe.html" |
	sed -n '/<pre id="log">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$tmp/probe/log"
# each step: what, the position number shown, the address, main or line, and
# the moves that reach the position shown (played as a game of their own)
for step in "open 1 #ply=1 main f6" "click-d4 5 #ply=1 line f6,d4" "forward 6 #ply=1 line f6,d4,c2" \
	"right 9 #ply=1 line f6,d4,c2,d3" "right-at-end 9 #ply=1 line f6,d4,c2,d3" \
	"click-nested 7 #ply=1 line f6,d4,c3" "nested-right 8 #ply=1 line f6,d4,c3,e5" \
	"nested-left-left 5 #ply=1 line f6,d4" "game 2 #ply=2 main f6,f3" \
	"click-line2 11 #ply=2 line f6,b2,c2" "end 4 #ply=4 main f6,f3,b2,d4"; do
	set -- $step
	checks=$((checks + 1))
	moves=$(echo "$5" | sed 's/,/, /g')
	printf 'game: splay-schmidt\nmoves: [%s]\n' "$moves" >"$tmp/want.yaml"
	"$x" --file "$tmp/want.yaml" --to svg -o "$tmp/want.svg" 2>/dev/null || fail "svg of $5"
	cells=$(python3 "$tmp/cells.py" svg "$tmp/want.svg" | tr '\n' ',' | sed 's/,$//')
	grep -qx "$1 $2 $3 $4 $cells" "$tmp/probe/log" ||
		fail "after '$1' the page should show position $2 ($5, $4) at $3: $(grep "^$1 " "$tmp/probe/log" | cut -c1-100)"
done
test_done "$checks checked"
