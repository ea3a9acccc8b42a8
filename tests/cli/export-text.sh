#!/bin/sh
# kifu-export --to text heads each game with its date and event when the
# record has them (issue 42), escaped as the rest of the text is: after the
# game's line, "date: DATE; event: EVENT", or the one it has, or no line.
set -u
. tests/cli/lib/test-lib.sh
x=$bin/kifu-export

rec=examples/splinter/splinter-knockout-01.yaml
"$x" --file "$rec" --to text --ply 0 >"$tmp/out" || fail "kifu-export exited $?"
check "date and event head the game" \
	sh -c "sed -n 2p '$tmp/out' | grep -qx 'date: 2024-07-26; event: Online Blitz Arena'"
check "then the players" sh -c "sed -n 3p '$tmp/out' | grep -q '^blue: Kiri Walker; white: '"

# One of the two, and neither; a control character in the event escaped.
sed -e '/^date:/d' -e "s/^event: .*/event: \"Cup\\\\tfinal\"/" "$rec" >"$tmp/event.yaml"
sed -e '/^event:/d' "$rec" >"$tmp/date.yaml"
sed -e '/^event:/d' -e '/^date:/d' "$rec" >"$tmp/none.yaml"
"$x" --file "$tmp/event.yaml" --to text --ply 0 >"$tmp/out" || fail "event only: exit $?"
check "event only, escaped" sh -c "sed -n 2p '$tmp/out' | grep -qx 'event: Cup\\\\tfinal'"
"$x" --file "$tmp/date.yaml" --to text --ply 0 >"$tmp/out" || fail "date only: exit $?"
check "date only" sh -c "sed -n 2p '$tmp/out' | grep -qx 'date: 2024-07-26'"
"$x" --file "$tmp/none.yaml" --to text --ply 0 >"$tmp/out" || fail "neither: exit $?"
check "neither: the players follow the game's line" sh -c "sed -n 2p '$tmp/out' | grep -q '^blue: '"

test_done
