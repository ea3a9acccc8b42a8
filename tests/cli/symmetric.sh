#!/bin/sh
# --symmetric of kifu-stats (tree, openings --by-position) and kifu-search
# --after, on splay-kisenwether games written here: its one symmetry is the
# mirror of the files (a <-> h, directions e <-> w), so a game and its
# mirror image (moves mirrored by python3 below, not by kifu) must group as
# one, the moves shown as the position asked for sees them; the start
# position is itself symmetric, so a first move and its mirror image are one
# row, named by the one more games played. Also: the counts kept at import
# (tree_moves) and the position index read game by game (--no-cache) give
# the same trees, before and after the depth the counts keep.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
stats=$bin/kifu-stats
search=$bin/kifu-search
import=$bin/kifu-import

# Games 1 and 3 open d7>se, game 2 is game 1 mirrored; game 4 is the first
# 40 plies of a real game (d7>se e2>nw too), game 5 its mirror image with
# another result.
python3 - "$tmp/games.yaml" examples/splay-kisenwether/splay-kisenwether-standard-01.yaml <<'PY'
import sys, yaml
sys.path.insert(0, "tests/cli/lib")
from kis_mirror import mirror
real = next(yaml.safe_load_all(open(sys.argv[2])))
real = [m["move"] if isinstance(m, dict) else m for m in real["moves"]][:40]
games = [
    (["d7>se", "e2>nw", "d6-d7"], "white"),
    ([mirror(m) for m in ["d7>se", "e2>nw", "d6-d7"]], "black"),
    (["d7>se", "e2>nw"], None),
    (real, "white"),
    ([mirror(m) for m in real], "black"),
]
with open(sys.argv[1], "w") as f:
    for k, (moves, result) in enumerate(games):
        f.write("---\ngame: splay-kisenwether\ndate: 2024-01-%02d\n" % (k + 1))
        f.write("players: {white: P%d, black: Q%d}\n" % (k, k))
        f.write("moves: [%s]\n" % ", ".join(moves))
        if result:
            f.write("result: %s\ntermination: resignation\n" % result)
    f.write("")
open(sys.argv[1] + ".real", "w").write(",".join(real))
open(sys.argv[1] + ".mirror", "w").write(",".join(mirror(m) for m in real))
PY
db=$tmp/k.db
"$import" --quiet --db "$db" "$tmp/games.yaml"
check "the games and their mirror images import" [ $? -eq 0 ]
real=$(cat "$tmp/games.yaml.real")
mirror=$(cat "$tmp/games.yaml.mirror")
g="--db $db --game splay-kisenwether"

tree() { # ARGS... : the tree as csv rows "move,games,wins_white,wins_black,draws,unfinished"
	"$stats" $g tree --format csv "$@" | tail -n +2 | cut -d, -f1-6 | tr -d '\r'
}

# The start is symmetric: d7>se (3 games) and e7>sw (2) are one row, d7>se.
check "start, plain: d7>se 3 games and e7>sw 2" [ "$(tree | tr '\n' ' ')" = \
	"d7>se,3,2,0,0,1 e7>sw,2,0,2,0,0 " ]
check "start, --symmetric: one row for the pair, named by the one more games played" \
	[ "$(tree --symmetric)" = "d7>se,5,2,2,0,1" ]
# After d7>se (not symmetric): d2>ne of games 2 and 5 is e2>nw seen from here.
check "after d7>se, plain: e2>nw of games 1, 3, 4" [ "$(tree --after d7'>'se)" = "e2>nw,3,2,0,0,1" ]
check "after d7>se, --symmetric: d2>ne of games 2 and 5 shown as e2>nw" \
	[ "$(tree --after d7'>'se --symmetric)" = "e2>nw,5,2,2,0,1" ]
check "after e7>sw, --symmetric: the same games, shown as d2>ne" \
	[ "$(tree --after e7'>'sw --symmetric)" = "d2>ne,5,2,2,0,1" ]
# json: the canonical hash, the same from both sides, the smaller plain one.
h1=$("$stats" $g tree --after 'd7>se' --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["hash"])')
h2=$("$stats" $g tree --after 'e7>sw' --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["hash"])')
c1=$("$stats" $g tree --after 'd7>se' --symmetric --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["hash"])')
c2=$("$stats" $g tree --after 'e7>sw' --symmetric --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["hash"])')
check "json hash with --symmetric: the canonical one, min of the two plain ones" \
	[ "$c1" = "$c2" ] && [ "$c1" = "$(printf '%s\n%s\n' "$h1" "$h2" | sort | head -1)" ] && [ "$h1" != "$h2" ]
# Deeper than the counts kept at import: from the index, game by game.
for n in 6 9 21; do
	line=$(echo "$real" | cut -d, -f1-$n)
	mline=$(echo "$mirror" | cut -d, -f1-$n)
	next=$(echo "$real" | cut -d, -f$((n + 1)))
	mnext=$(echo "$mirror" | cut -d, -f$((n + 1)))
	check "after $n plies, plain: the real game's move" [ "$(tree --after "$line")" = "$next,1,1,0,0,0" ]
	check "after $n plies, --symmetric: both, as this side sees it" \
		[ "$(tree --after "$line" --symmetric)" = "$next,2,1,1,0,0" ]
	check "after $n plies mirrored, --symmetric: both, as that side sees it" \
		[ "$(tree --after "$mline" --symmetric)" = "$mnext,2,1,1,0,0" ]
	for s in "" --symmetric; do
		"$stats" $g tree --after "$line" --format json $s >"$tmp/a.json"
		"$stats" $g tree --after "$line" --format json --no-cache $s >"$tmp/b.json"
		check "after $n plies $s: the counts and the index agree" cmp -s "$tmp/a.json" "$tmp/b.json"
	done
done
for line in "" "d7>se" "e7>sw" "d7>se,e2>nw" "e7>sw,d2>ne,e6-e7"; do
	for s in "" --symmetric; do
		"$stats" $g tree --after "$line" --format json $s >"$tmp/a.json"
		"$stats" $g tree --after "$line" --format json --no-cache $s >"$tmp/b.json"
		check "after '$line' $s: the counts and the index agree" cmp -s "$tmp/a.json" "$tmp/b.json"
	done
done

# kifu-search --after --symmetric: the mirror image's games too, with their ply.
ids() { "$search" $g --json "$@" | python3 -c 'import json,sys; print(" ".join("%d:%d" % (h["id"], h["ply"]) for h in json.load(sys.stdin)))'; }
check "search after d7>se: games 4, 3 and 1" [ "$(ids --after 'd7>se')" = "4:1 3:1 1:1" ]
check "search after d7>se --symmetric: every game" \
	[ "$(ids --after 'd7>se' --symmetric)" = "5:1 4:1 3:1 2:1 1:1" ]
check "search after e7>sw --symmetric: the same" \
	[ "$(ids --after 'e7>sw' --symmetric)" = "5:1 4:1 3:1 2:1 1:1" ]
check "search after 21 plies mirrored --symmetric: games 5 and 4" \
	[ "$(ids --after "$(echo "$mirror" | cut -d, -f1-21)" --symmetric)" = "5:21 4:21" ]
"$search" $g --symmetric >/dev/null 2>"$tmp/err"
check "search --symmetric without --after exits 2" [ $? -eq 2 ]

# openings --by-position --symmetric: mirror images are one row, named by
# the most common line.
"$stats" $g openings --depth 1 --by-position --symmetric --format csv | tr -d '\r' >"$tmp/csv"
check "openings --symmetric: d7>se with its mirror image, 5 games" \
	grep -q '^splay-kisenwether,standard,d7>se,1,5,' "$tmp/csv"
check "openings --symmetric: one row (and the header)" [ "$(wc -l <"$tmp/csv")" -eq 2 ]
"$stats" $g openings --depth 1 --by-position --format csv | tr -d '\r' >"$tmp/csv"
check "openings without --symmetric: two rows (and the header)" [ "$(wc -l <"$tmp/csv")" -eq 3 ]
"$stats" $g openings --symmetric >/dev/null 2>"$tmp/err"
check "openings --symmetric without --by-position exits 2" [ $? -eq 2 ]
"$stats" $g summary --symmetric >/dev/null 2>"$tmp/err"
check "summary --symmetric exits 2" [ $? -eq 2 ]

test_done
