#!/bin/sh
# kifu-stats novelties on hand-checked games (tests/data/novelties/games.yaml):
#  splay-schmidt (ids 1-7):
#   1 (2019, a partial date: 2019-01-01): nothing earlier, novelty ply 1;
#   2 (2020-01-01): g4 was game 1's first move; game 1 answered d3, not h4:
#     novelty ply 2, 1 earlier game reached that position;
#   3 (2020-06: 2020-06-01): g6 is new from the start, reached by 1 and 2
#     (6 has no date: never earlier): ply 1, earlier 2;
#   4 (2021-03-04): g6 h4 g4 come from game 3; after them the position is
#     game 2's after g4 h4 g6 (a transposition), where game 2 played i7:
#     known; game 2 then played e2, game 4 f5: novelty ply 5, earlier 1;
#   5 (2021-03-04, the same day): game 4 played f5 there but is not
#     earlier: novelty ply 5 too, earlier 1 (game 2 only);
#   6 (no date): not listed;
#   7 (2022-05-05): g4 h4, both known (games 1 and 2, 2): no novelty (null);
#  splinter knockout (ids 8-9): game 8 comes back at ply 7 to the position
#   of its ply 3 and plays f3-f4 there, but its move from that position is
#   the first one, d4-d3: game 9's f3-f4 there is a novelty (ply 4, 1);
#  splinter-quad (ids 10-11): four sides, a side without a player ('?').
# FILTERS choose the rows, the earlier games are always every game. And the
# tree's first_date and last_date on the same games.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
stats=$bin/kifu-stats
db=$tmp/n.db
"$bin/kifu-import" --quiet --db "$db" tests/data/novelties/games.yaml || fail "import"

cat >"$tmp/want" <<'T'
id  date        players      ply  move  earlier
 1  2019        Erin - Ezra    1  g4          0
 2  2020-01-01  Ada - Abe      2  h4          1
 3  2020-06     Cleo - ?       1  g6          2
 4  2021-03-04  Bo - Bea       5  f5          1
 5  2021-03-04  Dan - Dot      5  f5          1
 7  2022-05-05  Fay - Finn     -  -           -
T
"$stats" --db "$db" novelties --game splay-schmidt >"$tmp/got" || fail "novelties splay-schmidt"
check "splay-schmidt novelties" test_cmp "$tmp/want" "$tmp/got"

cat >"$tmp/want" <<'T'
id  date        players    ply  move   earlier
 8  2020-01-01  Rae - Rex    1  c3-c4        0
 9  2021-01-01  Sam - Sue    4  f3-f4        1
T
"$stats" --db "$db" novelties --game splinter --variant knockout >"$tmp/got" || fail "splinter"
check "a game's move from a position is its first visit's" test_cmp "$tmp/want" "$tmp/got"

cat >"$tmp/want" <<'T'
id,date,players,ply,move,earlier
10,2020-01-01,Q1r - Q1b - Q1g - Q1y,1,c3-c4,0
11,2020-02-01,Q2r - Q2b - ? - Q2y,4,d3-d2,1
T
"$stats" --db "$db" novelties --game splinter-quad --format csv | tr -d '\r' >"$tmp/got" ||
	fail "splinter-quad"
check "four sides, csv" test_cmp "$tmp/want" "$tmp/got"

# --since chooses the rows listed; the earlier games stay every game.
"$stats" --db "$db" novelties --game splay-schmidt --since 2021-03-04 --format json |
	python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
assert [(r["id"], r["ply"], r["earlier"]) for r in rows] == [(4, 5, 1), (5, 5, 1), (7, None, None)], rows
' || fail "the filter chose the rows"
"$stats" --db "$db" novelties --game splay-schmidt --since 2021-03-05 --format json >"$tmp/got" ||
	fail "json"
"$stats" --db "$db" novelties --game splay-schmidt --player Dan --format json >>"$tmp/got" ||
	fail "json"
python3 - "$tmp/got" <<'PY' || fail "json rows and nulls"
import json, sys
text = open(sys.argv[1]).read()
dec = json.JSONDecoder()
first, end = dec.raw_decode(text)
second, _ = dec.raw_decode(text[end:].lstrip())
assert first["rows"] == [{"id": 7, "date": "2022-05-05", "players": "Fay - Finn", "ply": None,
                          "move": None, "earlier": None}], first
assert second["rows"] == [{"id": 5, "date": "2021-03-04", "players": "Dan - Dot", "ply": 5,
                           "move": "f5", "earlier": 1}], second
PY

# The tree's dates on the same games: the earliest and latest date of the
# games a row counts, as written (2019 and 2020-06 stay partial; game 6 has
# none), from the counts kept at import and from the index alike; the
# table shows the years.
for cache in "" --no-cache; do
	"$stats" --db "$db" --game splay-schmidt tree $cache --format json >"$tmp/start"
	"$stats" --db "$db" --game splay-schmidt tree --after g4 $cache --format json >"$tmp/g4"
	python3 - "$tmp/start" "$tmp/g4" <<'PY' || fail "tree dates $cache"
import json, sys
start = {r["move"]: (r["first_date"], r["last_date"]) for r in json.load(open(sys.argv[1]))["rows"]}
g4 = {r["move"]: (r["first_date"], r["last_date"]) for r in json.load(open(sys.argv[2]))["rows"]}
assert start == {"g4": ("2019", "2022-05-05"), "g6": ("2020-06", "2021-03-04")}, start
assert g4 == {"h4": ("2020-01-01", "2022-05-05"), "d3": ("2019", "2019")}, g4
PY
done
"$stats" --db "$db" --game splay-schmidt tree --after g6,h4,g4,i7 >"$tmp/table"
cat >"$tmp/want" <<'T'
move  games  white  black  draws  unf  mover_score  95% ci  mean  first_date  last_date
f5        2      0      0      0    2  -            -        5.5  2021        2021
e2        1      0      0      0    1  -            -        5.0  2020        2020
T
check "the table shows the years (a transposition counted)" test_cmp "$tmp/want" "$tmp/table"
"$stats" --db "$db" --game splay-schmidt tree --player Una --format json | python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
assert [(r["move"], r["first_date"], r["last_date"]) for r in rows] == [("g4", None, None)], rows
' || fail "a row of undated games has null dates"

"$stats" --db "$db" novelties >/dev/null 2>"$tmp/err"
check "novelties without a game is a usage error" test $? = 2
check "it says it needs --game" grep -q "the novelties report needs a game (--game)" "$tmp/err"
"$stats" --db "$db" novelties --game splinter >/dev/null 2>"$tmp/err"
check "novelties of a game with variants needs --variant" \
	grep -q "the novelties report needs a variant (--variant): 'splinter' has several" "$tmp/err"
test_done
