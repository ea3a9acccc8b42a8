#!/bin/sh
# One stored game's novelty (kifu_stats_novelty: kifu-export's json
# novelty_ply, the replay page's N mark and its tooltip) equals its row of
# kifu-stats novelties for every game of the hand-checked fixtures and of
# games made to share openings (tests/cli/lib/novelty_games.py: copies on
# other days, prefixes, partial dates, no date) in every variant family;
# the one-game call reads the tree counts where the report reads the
# position index; kifu-export of every dated game in one run gives the same.
# Records read from files have no novelty_ply.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
db=$tmp/n.db
for spec in splay-schmidt: splinter:knockout splinter-quad: glaisher:standard; do
	game=${spec%%:*} variant=${spec#*:}
	"$bin/kifu-play" "$game" ${variant:+--variant "$variant"} --players random --games 8 \
		--seed 5 --max-plies 40 --quiet >"$tmp/r-$game.yaml" 2>/dev/null ||
		fail "kifu-play $game"
done
python3 tests/cli/lib/novelty_games.py "$tmp"/r-*.yaml >"$tmp/games.yaml" || fail "games"
"$bin/kifu-import" --quiet --db "$db" tests/data/novelties/games.yaml "$tmp/games.yaml" ||
	fail "import"
n=$(python3 tests/cli/lib/novelty_check.py "$bin" "$db" "$tmp" splay-schmidt: splinter:knockout \
	splinter-quad: glaisher:standard) || fail "one game's novelty differs from the report's"
check "every game compared ($n)" test "${n:-0}" -gt 150
# Every dated game in one run (the variants one after another, the
# finder's statements and positions kept from game to game): the same files.
"$bin/kifu-export" --db "$db" --since 1900 --to json -o "$tmp/all/" || fail "export every game"
for f in "$tmp"/all/*.json; do
	cmp -s "$f" "$tmp"/nov-*-json/"$(basename "$f")" || { fail "$(basename "$f") differs in one run"; break; }
done
check "one run exported the dated games" test "$(ls "$tmp/all" | wc -l)" -gt 120

# The hand-checked games (tests/cli/novelties.sh says why): game 4's
# transposed novelty at ply 5 with one earlier game, game 7 none.
"$bin/kifu-export" --db "$db" --id 4 --to json >"$tmp/4.json" || fail "export 4"
check "novelty_ply of game 4" grep -qx '  "novelty_ply":5,' "$tmp/4.json"
"$bin/kifu-export" --db "$db" --id 7 --to json >"$tmp/7.json" || fail "export 7"
check "no novelty: null" grep -qx '  "novelty_ply":null,' "$tmp/7.json"
"$bin/kifu-export" --db "$db" --id 4 --to html >"$tmp/4.html" || fail "export 4 html"
check "the mark at ply 5" grep -q '<li><button data-ply="5">.*<span class="nov" title="novelty: no earlier game played f5 here; 1 earlier game reached this position">N</span>' "$tmp/4.html"
check "one mark" test "$(grep -c '<span class="nov"' "$tmp/4.html")" -eq 1
# Few games listed (a twentieth of the variant or less: here two) are walked
# over the position index, many read in one pass over the variant: the rows
# of the days with one or two games listed are the whole listing's.
for spec in splay-schmidt: splinter:knockout; do
	game=${spec%%:*} variant=${spec#*:}
	"$bin/kifu-stats" --db "$db" --game "$game" ${variant:+--variant "$variant"} --format csv \
		novelties >"$tmp/all.csv" || fail "novelties $game"
	check "$game: enough games for a walk" test "$(wc -l <"$tmp/all.csv")" -gt 40
	walked=0
	for day in $(cut -d, -f2 "$tmp/all.csv" | grep -x '[0-9-]\{10\}' | sort -u); do
		"$bin/kifu-stats" --db "$db" --game "$game" ${variant:+--variant "$variant"} \
			--since "$day" --until "$day" --format csv novelties >"$tmp/day.csv" ||
			fail "novelties $game on $day"
		tail -n +2 "$tmp/day.csv" >"$tmp/rows.csv"
		[ "$(wc -l <"$tmp/rows.csv")" -le 2 ] || continue
		walked=$((walked + 1))
		# (no row listed on the day that the whole listing does not hold)
		check "$game on $day: walked rows as the pass's" sh -c \
			"! grep -qvxF -f '$tmp/all.csv' '$tmp/rows.csv'"
	done
	check "$game: days walked ($walked)" test "$walked" -ge 3
done
# A record from a file: no key, no mark.
"$bin/kifu-export" --file tests/data/novelties/games.yaml --to json >"$tmp/file.json" || fail "file json"
check "files have no novelty_ply" sh -c "! grep -q novelty_ply '$tmp/file.json'"
"$bin/kifu-export" --file examples/splay-schmidt/splay-schmidt-standard-01.yaml --to html \
	>"$tmp/file.html" || fail "file html"
check "files have no mark" sh -c "! grep -q '<span class=\"nov\"' '$tmp/file.html'"
test_done "$n games"
