#!/bin/sh
# A page of the games at a position (kifu-search --after --limit --offset,
# what the explorer and /api/search list) is the same slice of the whole
# list, newest first, whichever way the store reads it: at a position most
# games reached, the date index read backwards; at a rare one, or with a
# player, event or dates, the position index and a sort (lib/stats/search.c,
# listing_by_date). Random games of splinter knockout, with dates of a
# year, a month, a day or none (undated last, ties by id), and a few games
# of another variant that the page must leave out.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/games.sh
test_require python3

db=$tmp/p.db
"$bin/kifu-play" splinter --variant knockout --players random --games 300 --seed 5 \
	--max-plies 40 >"$tmp/k.yaml" 2>"$tmp/err" || fail "kifu-play knockout: $(cat "$tmp/err")"
"$bin/kifu-play" splinter --variant survival --players random --games 40 --seed 6 \
	--max-plies 40 >"$tmp/s.yaml" 2>"$tmp/err" || fail "kifu-play survival: $(cat "$tmp/err")"
# Dates: the n-th game's from a short list (repeats: ties), some missing.
for f in k s; do
	games_dated "$tmp/$f.yaml" || fail "dates of $f.yaml"
done
"$bin/kifu-import" --quiet --db "$db" "$tmp/k.yaml" "$tmp/s.yaml" >/dev/null 2>"$tmp/err" ||
	fail "import: $(cat "$tmp/err")"
first=$("$bin/kifu-stats" --db "$db" --game splinter --variant knockout tree --format csv |
	sed -n 2p | cut -d, -f1)
[ -n "$first" ] || fail "no first move in the tree"
rare=$("$bin/kifu-stats" --db "$db" --game splinter --variant knockout tree --format csv |
	sed -n '$p' | cut -d, -f1)
player=$("$bin/kifu-search" --db "$db" --game splinter --variant knockout --json |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["players"]["blue"])')
# kifu-search with filter K (0: none; a player, whose name has a space; since; until)
search() {
	k=$1
	shift
	case $k in
	0) "$bin/kifu-search" "$@" ;;
	1) "$bin/kifu-search" --player "$player" "$@" ;;
	2) "$bin/kifu-search" --since 2021 "$@" ;;
	*) "$bin/kifu-search" --until 2021-03-01 "$@" ;;
	esac
}
# kifu-search --json writes one game a line between "[" and "]": a page is
# compared with its slice of the whole list's lines (each line's separating
# comma dropped), without a program started per check.
lines() { sed '1d;$d;s/,$//' "$1"; }
for after in "" "$first" "$rare"; do
	for k in 0 1 2 3; do
		search "$k" --db "$db" --game splinter --variant knockout --after "$after" --json \
			>"$tmp/all.json" 2>"$tmp/err" ||
			fail "kifu-search --after '$after' (filter $k): $(cat "$tmp/err")"
		lines "$tmp/all.json" >"$tmp/all.lines"
		check "--after '$after' (filter $k): an empty list" test -s "$tmp/all.lines"
		for page in "1 0" "5 0" "7 3" "10 20" "25 0" "26 25" "3 290" "50 100" "200 0" "400 0"; do
			set -- $page
			search "$k" --db "$db" --game splinter --variant knockout --after "$after" \
				--limit "$1" --offset "$2" --json >"$tmp/page.json" 2>"$tmp/err" ||
				fail "kifu-search --limit $1 --offset $2: $(cat "$tmp/err")"
			lines "$tmp/page.json" >"$tmp/page.lines"
			sed -n "$(($2 + 1)),$(($2 + $1))p" "$tmp/all.lines" >"$tmp/want.lines"
			check "--after '$after' (filter $k) --limit $1 --offset $2: not the slice of the whole list" \
				cmp -s "$tmp/want.lines" "$tmp/page.lines"
		done
	done
done
test_done "$checks checks"
