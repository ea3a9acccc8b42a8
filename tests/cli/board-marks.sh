#!/bin/sh
# Boards mark the last move played: for one game of every game and variant,
# kifu-export --to svg at ply 0 has no mark, and at every other ply one
# <g class="last-move"> group marking (data-last) each cell the move's text
# names before any '/'; every picture is well-formed XML (xmllint); the HTML
# replay carries the marks of each ply. The engine side (every game, every
# ply of random playouts) is tests/test_conformance.c. Runs from the repo
# root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
x=$bin/kifu-export

test_require xmllint
for f in examples/splay-schmidt/splay-schmidt-standard-01.yaml \
	examples/splay-kisenwether/splay-kisenwether-standard-03.yaml \
	examples/splinter/splinter-knockout-01.yaml examples/splinter/splinter-survival-01.yaml \
	examples/splinter-quad/splinter-quad-standard-01.yaml \
	examples/glaisher/glaisher-standard-01.yaml examples/glaisher/glaisher-advanced-01.yaml; do
	"$x" --file "$f" --to text | sed -n 's/^ply \([0-9]*\): \(.*\) ([a-z]*), hash .*/\1 \2/p' >"$tmp/moves"
	"$x" --file "$f" --to svg --ply 0 -o "$tmp/0.svg"
	xmllint --noout "$tmp/0.svg" || fail "$f ply 0: not well-formed"
	grep -q 'last-move' "$tmp/0.svg" && fail "$f: ply 0 marks a move"
	"$x" --file "$f" --to html -o "$tmp/page.html"
	: >"$tmp/allmarks"
	while read -r ply move; do
		checks=$((checks + 1))
		"$x" --file "$f" --to svg --ply "$ply" -o "$tmp/p.svg"
		xmllint --noout "$tmp/p.svg" || fail "$f ply $ply: not well-formed"
		groups=$(grep -c '<g class="last-move">' "$tmp/p.svg")
		marked=$(sed -n 's/.*data-last="\([a-z0-9]*\)".*/\1/p' "$tmp/p.svg" | sort | tr '\n' ' ')
		echo "$marked" | tr ' ' '\n' | grep . >>"$tmp/allmarks"
		case $move in
		pass) want=0 ;;
		*) want=1 ;;
		esac
		[ "$groups" -eq "$want" ] || fail "$f ply $ply ($move): $groups last-move groups"
		for cell in $(echo "${move%%/*}" | grep -o '[a-z][a-z]*[0-9][0-9]*'); do
			case " $marked" in
			*" $cell "*) ;;
			*) fail "$f ply $ply ($move): $cell is not marked (marked: $marked)" ;;
			esac
		done
	done <"$tmp/moves"
	# The replay page (each distinct line of the pictures stored once) holds every mark.
	for cell in $(sort -u "$tmp/allmarks"); do
		grep -qF "data-last=\"$cell\"" "$tmp/page.html" ||
			fail "$f: the HTML page never marks $cell"
	done
done
test_done "$checks plies checked"
