#!/bin/sh
# kifu-export -o game.html with several games (item 7): a usage
# error as for svg ("several games ... give -o DIR/"), nothing written, no
# directory named game.html; one game still makes the page. Runs from the
# repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh

cat examples/splinter/splinter-knockout-01.yaml examples/splinter/splinter-knockout-02.yaml >"$tmp/two.yaml"
for to in svg html; do
	"$bin/kifu-export" --file "$tmp/two.yaml" --to $to -o "$tmp/game.$to" >"$tmp/out" 2>"$tmp/err"
	check "$to: several games into game.$to exit 2" [ $? -eq 2 ]
	check "$to: the usage error says why" grep -q "several games to write as '$to': give -o DIR/" "$tmp/err"
	check "$to: nothing written" [ ! -e "$tmp/game.$to" ]
	"$bin/kifu-export" --file examples/splinter/splinter-knockout-01.yaml --to $to -o "$tmp/one.$to" 2>"$tmp/err"
	check "$to: one game into one.$to" [ -f "$tmp/one.$to" ]
done

test_done "$checks checks"
