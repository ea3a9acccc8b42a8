#!/bin/sh
# kifu-stats novelties where earlier games end (tests/data/novelties/ends.yaml),
# the report reading every game of the variant once (stats_novelty_pass.c):
#   1 and 2 (2020-01-01, one day): g4 is new from the start for both (ply 1,
#     nothing earlier); game 1 ends after it, game 2 plays d3;
#   3 (2021-01-01): after g4, games 1 (ended there) and 2 (d3) came: h4 is
#     new, ply 2, earlier 2;
#   4 (2021-01-01, the same day): game 3 is not earlier: ply 2, earlier 2;
#   5 (2022-01-01): g4 h4 g6 all played before (game 4, which ended there):
#     no novelty;
#   6 (2022-01-01, the same day): i7 after g4 h4 g6, where only game 4
#     (ended) came earlier, game 5 being of the same day: ply 4, earlier 1;
#   7 (no date): never listed, never earlier;
#   8 (2023-01-01): e2 after g4 h4 g6 i7 is new (game 7 has no date): ply 5,
#     earlier 1 (game 6; games 4 and 5 ended a ply before).
# A filter chooses the rows, never the earlier games.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
stats=$bin/kifu-stats
db=$tmp/e.db
"$bin/kifu-import" --quiet --db "$db" tests/data/novelties/ends.yaml || fail "import"

cat >"$tmp/want" <<'T'
id,date,players,ply,move,earlier
1,2020-01-01,Ann - Al,1,g4,0
2,2020-01-01,Bea - Bo,1,g4,0
3,2021-01-01,Cy - Cal,2,h4,2
4,2021-01-01,Di - Dan,2,h4,2
5,2022-01-01,Eve - Ed,,,
6,2022-01-01,Fay - Fred,4,i7,1
8,2023-01-01,Hal - Hu,5,e2,1
T
# (CSV rows end in CRLF)
"$stats" --db "$db" --game splay-schmidt --format csv novelties >"$tmp/got.csv" ||
	fail "novelties"
tr -d '\r' <"$tmp/got.csv" >"$tmp/got"
check "games ending where others find their novelty" test_cmp "$tmp/want" "$tmp/got"
grep -e '^id' -e '^[568],' "$tmp/want" >"$tmp/want-since"
"$stats" --db "$db" --game splay-schmidt --since 2022 --format csv novelties \
	>"$tmp/got-since.csv" || fail "novelties --since 2022"
tr -d '\r' <"$tmp/got-since.csv" >"$tmp/got-since"
check "--since 2022: the rows chosen, the earlier games all" test_cmp "$tmp/want-since" \
	"$tmp/got-since"
test_done
