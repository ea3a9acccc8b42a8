#!/bin/sh
# kifu-stats tree counted from the games (--no-cache: on SQLite each game's
# row grouped by libkifu, lib/stats/stats_tree.c tree_rows) says what the
# counts kept at import say (tree_moves), byte for byte in json and csv:
# games, wins, draws, unfinished, mean plies and the first and last
# dates, at the start and along the most played lines to 4 plies (the
# depth the counts are kept to), of random games of two variants with
# dates of a year, a month, a day or none (ties, and groups without one).
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/games.sh
test_require python3

db=$tmp/t.db
for spec in "knockout 300 5" "survival 60 6"; do
	set -- $spec
	"$bin/kifu-play" splinter --variant "$1" --players random --games "$2" --seed "$3" \
		--max-plies 30 >"$tmp/$1.yaml" 2>"$tmp/err" || fail "kifu-play $1: $(cat "$tmp/err")"
	games_dated "$tmp/$1.yaml" || fail "dates of $1"
done
"$bin/kifu-import" --quiet --db "$db" "$tmp/knockout.yaml" "$tmp/survival.yaml" >/dev/null \
	2>"$tmp/err" || fail "import: $(cat "$tmp/err")"
for v in knockout survival; do
	"$bin/kifu-stats" --db "$db" --game splinter --variant "$v" openings --depth 4 \
		--format json >"$tmp/lines.json" || fail "openings $v"
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
print("")
for r in sorted(rows, key=lambda r: (-r["games"], r["moves"]))[:40]:
    print(",".join(r["moves"]))' "$tmp/lines.json" >"$tmp/afters"
	[ "$(wc -l <"$tmp/afters")" -gt 20 ] || fail "too few lines of $v"
	while read -r after; do
		for fmt in json csv; do
			"$bin/kifu-stats" --db "$db" --game splinter --variant "$v" tree --after "$after" \
				--format "$fmt" >"$tmp/kept" 2>"$tmp/err" || fail "tree $v '$after': $(cat "$tmp/err")"
			"$bin/kifu-stats" --db "$db" --game splinter --variant "$v" tree --after "$after" \
				--format "$fmt" --no-cache >"$tmp/counted" 2>"$tmp/err" ||
				fail "tree --no-cache $v '$after': $(cat "$tmp/err")"
			check "tree $v --after '$after' --format $fmt: --no-cache differs from the kept counts" \
				cmp -s "$tmp/kept" "$tmp/counted"
		done
	done <"$tmp/afters"
done
test_done "$checks checks"
