#!/bin/sh
# kifu-play: for every game and variant its --help lists, random and small
# MCTS games are played twice with the same seed (byte-identical output
# expected), once with another seed (different output expected), as a
# stream and as one file per game (the same games), and everything written
# must pass kifu-validate. Then capped games, seat rotation, player names,
# --first, and the usage errors of bad player specs; the summary's line
# for a side that won every game (CLI.md: "every game won by SPEC", no
# number, where it said -inf or +inf).
set -u
. tests/cli/lib/test-lib.sh
play=$bin/kifu-play
validate=$bin/kifu-validate

# "GAME NSIDES VARIANT..." per game, from the Games list of --help.
"$play" --help >"$tmp/help" || fail "--help exited $?"
grep -q '^usage: kifu-play GAME' "$tmp/help" || fail "--help has no usage line"
sed -n 's/^  \([a-z-]*\) *sides: \([^;]*\); variants: \(.*\)$/\1|\2|\3/p' "$tmp/help" |
	sed 's/ (default)//' >"$tmp/games"
[ "$(wc -l <"$tmp/games")" -ge 5 ] || fail "--help lists fewer than 5 games"
"$play" --version | grep -q '^kifu-play (kifu) ' || fail "--version"

# SPEC repeated: "mcts:8,random,random" for three sides.
specs() {
	first=$1 other=$2 n=$3 list=$1
	while [ "$n" -gt 1 ]; do
		list="$list,$other"
		n=$((n - 1))
	done
	echo "$list"
}

pairs=0
while IFS='|' read -r game sides variants; do
	nsides=$(echo "$sides" | wc -w)
	for variant in $variants; do
		pairs=$((pairs + 1))
		out=$tmp/$game-$variant
		mcts=$(specs mcts:8 random "$nsides")
		for p in random "$mcts"; do
			tag=$(echo "$p" | cut -d, -f1 | tr : _)
			"$play" "$game" --variant "$variant" --players "$p" --games 3 --seed 42 \
				--quiet >"$out-$tag-a.yaml" ||
				fail "$game/$variant --players $p exited $?"
			"$play" "$game" --variant "$variant" --players "$p" --games 3 --seed 42 \
				--quiet >"$out-$tag-b.yaml"
			cmp -s "$out-$tag-a.yaml" "$out-$tag-b.yaml" ||
				fail "$game/$variant --players $p: same seed, different games"
			"$play" "$game" --variant "$variant" --players "$p" --games 3 --seed 43 \
				--quiet >"$tmp/other.yaml"
			cmp -s "$out-$tag-a.yaml" "$tmp/other.yaml" &&
				fail "$game/$variant --players $p: seeds 42 and 43 gave the same games"
			rm -f "$out-$tag-b.yaml" "$tmp/other.yaml"
			[ "$(grep -c '^---$' "$out-$tag-a.yaml")" -eq 3 ] ||
				fail "$game/$variant --players $p: not 3 documents"
		done
		# -o DIR: one file per game, the same games as the stream.
		"$play" "$game" --variant "$variant" --players "$mcts" --games 3 --seed 42 \
			--quiet -o "$tmp/dir-$game-$variant" || fail "$game/$variant -o exited $?"
		[ "$(ls "$tmp/dir-$game-$variant" | wc -l)" -eq 3 ] &&
			[ -f "$tmp/dir-$game-$variant/$game-$variant-00003.yaml" ] ||
			fail "$game/$variant -o: not the 3 files GAME-VARIANT-0000N.yaml"
		cat "$tmp/dir-$game-$variant"/*.yaml | cmp -s - "$out-mcts_8-a.yaml" ||
			fail "$game/$variant: -o wrote other games than stdout"
	done
done <"$tmp/games"
[ "$pairs" -ge 7 ] || fail "only $pairs game/variant pairs found in --help"

# Capped games are unfinished and still valid.
"$play" splinter-quad --players random --games 2 --max-plies 5 --quiet >"$tmp/capped.yaml" ||
	fail "--max-plies exited $?"
[ "$(grep -c '^result: unfinished$' "$tmp/capped.yaml")" -eq 2 ] ||
	fail "--max-plies 5: games not written as 'result: unfinished'"
grep -q '^termination:' "$tmp/capped.yaml" && fail "--max-plies 5: a capped game has a termination"

# Seats rotate; names are SPEC #k; --first is written where the game allows it.
"$play" splinter --first white --players mcts:4,random --games 2 --seed 5 --quiet \
	>"$tmp/seats.yaml" || fail "--first exited $?"
sed -n '/^players:/,/^first:/p' "$tmp/seats.yaml" | grep -v '^players:\|^first:' \
	>"$tmp/seats.txt"
printf "  blue: 'mcts:4 #1'\n  white: 'random #2'\n  blue: 'random #2'\n  white: 'mcts:4 #1'\n" |
	cmp -s - "$tmp/seats.txt" || fail "seats do not rotate as CLI.md says: $(cat "$tmp/seats.txt")"
[ "$(grep -c '^first: white$' "$tmp/seats.yaml")" -eq 2 ] || fail "--first white not written"

# Everything written validates.
"$validate" "$tmp" >"$tmp/validate.out" 2>"$tmp/validate.err" ||
	fail "kifu-validate exited $?: $(head -5 "$tmp/validate.err")"
n=$(cat "$tmp"/*.yaml "$tmp"/dir-*/*.yaml | grep -c '^---$')
grep -q "^$n games, $n valid, 0 invalid" "$tmp/validate.out" ||
	fail "kifu-validate over $n games: $(cat "$tmp/validate.out")"

# Usage errors: exit 2 and a message that quotes the subject.
expect_usage() {
	message=$1
	shift
	"$play" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "kifu-play $*: exit $rc, expected 2"
	grep -qF -- "$message" "$tmp/err" || fail "kifu-play $*: no '$message' in: $(cat "$tmp/err")"
}
expect_usage "unknown player 'foo'" splay-schmidt --players foo
expect_usage "mcts needs a playout count: 'mcts:'" splay-schmidt --players random,mcts:
expect_usage "'random,random,random' gives 3 players" splay-schmidt --players random,random,random
expect_usage "--players or --levels is required" splay-schmidt
expect_usage "unknown game 'chess'" chess --players random
expect_usage "unknown variant 'blitz'" glaisher --variant blitz --players random
expect_usage "--games must be a whole number" glaisher --players random --games 0
expect_usage "--seed must be a whole number" glaisher --players random --seed -1
expect_usage "-o and --db exclude each other" glaisher --players random -o "$tmp/x" --db "$tmp/x.db"

# --db stores the games (the same ones the YAML stream holds); a second run
# with the same seed finds them all there; $KIFU_DB works without --db.
"$play" splay-schmidt --players random,mcts:5 --games 4 --seed 9 --db "$tmp/play.db" \
	2>"$tmp/err" || fail "kifu-play --db: exit $?"
grep -qF "stored 4 in '$tmp/play.db', duplicates 0" "$tmp/err" || fail "--db summary: $(cat "$tmp/err")"
KIFU_DB="$tmp/play.db" "$play" splay-schmidt --players random,mcts:5 --games 4 --seed 9 \
	2>"$tmp/err" >"$tmp/out" || fail "kifu-play with KIFU_DB: exit $?"
grep -qF "stored 0 in '$tmp/play.db', duplicates 4" "$tmp/err" || fail "KIFU_DB summary: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "kifu-play with KIFU_DB also wrote to stdout"
"$play" splay-schmidt --players random,mcts:5 --games 4 --seed 9 --quiet >"$tmp/stream.yaml"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/play.db" "$tmp/stream.yaml" <<'PY' || fail "the stored games differ from the stream"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
stored = [" ".join(m for (m,) in db.execute(
    "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (gid,)))
    for (gid,) in db.execute("SELECT id FROM games ORDER BY id")]
games, cur, in_moves = [], None, False
for line in open(sys.argv[2]):
    if line.startswith("---"):
        cur = []
        games.append(cur)
    elif line.startswith("moves:"):
        in_moves = True
    elif in_moves and line.startswith("  - "):
        cur.append(line[4:].strip().strip("'\""))
    elif not line.startswith(" "):
        in_moves = False
assert len(stored) == 4, stored
assert stored == [" ".join(g) for g in games], (stored, games)
PY
fi

# one side won every game: named, no infinite Elo difference
for p in mcts:8,random random,mcts:8; do
	"$play" glaisher --players "$p" --games 2 --seed 1 2>"$tmp/err" >/dev/null ||
		fail "--players $p: exit $?"
	grep -q "^kifu-play:   Elo difference of ${p%,*} against ${p#*,}: every game won by mcts:8\$" \
		"$tmp/err" || fail "--players $p, every game won: $(tail -1 "$tmp/err")"
	grep -q 'inf' "$tmp/err" && fail "--players $p: an infinite number: $(tail -1 "$tmp/err")"
done

test_done
