#!/bin/sh
# kifu-play --levels (issue 33): each level's games are exactly those
# --players SPEC plays with the same seed (files numbered on across the
# levels), named as a single SPEC names them, so that kifu-stats balance
# finds every level with its N games; the summary per level (text and
# --json); the progress line with the level, on a terminal (script(1)
# gives the tool one; progress.sh checks the line's figures and time
# left, the same printer's); --review stores the same review
# as kifu-analyse --store with its defaults; and the usage errors.
set -u
. tests/cli/lib/test-lib.sh
play=$bin/kifu-play

# The games: --levels A,B --games 2 is --players A then --players B.
check "--levels -o" "$play" splinter --levels random,mcts:4 --games 2 --seed 7 --quiet \
	-o "$tmp/levels"
check "--players random -o" "$play" splinter --players random --games 2 --seed 7 --quiet \
	-o "$tmp/a"
check "--players mcts:4 -o" "$play" splinter --players mcts:4 --games 2 --seed 7 --quiet \
	-o "$tmp/b"
check "level 1 is --players random" test_cmp "$tmp/a/splinter-knockout-00001.yaml" \
	"$tmp/levels/splinter-knockout-00001.yaml"
check "level 1, game 2" test_cmp "$tmp/a/splinter-knockout-00002.yaml" \
	"$tmp/levels/splinter-knockout-00002.yaml"
check "level 2 is --players mcts:4" test_cmp "$tmp/b/splinter-knockout-00001.yaml" \
	"$tmp/levels/splinter-knockout-00003.yaml"
check "level 2, game 2" test_cmp "$tmp/b/splinter-knockout-00002.yaml" \
	"$tmp/levels/splinter-knockout-00004.yaml"
check "four files" test "$(ls "$tmp/levels" | wc -l)" -eq 4

# Into a database: kifu-stats balance finds each level with its games.
"$play" splay-schmidt --levels random,mcts:4,engine:8 --games 3 --seed 3 --db "$tmp/l.db" \
	>"$tmp/out" 2>"$tmp/err"
check "--levels --db" test $? -eq 0
check "nothing on stdout without --json" test ! -s "$tmp/out"
check "a summary per level" test "$(grep -c '^kifu-play: level [a-z:0-9]*: 3 games: ' "$tmp/err")" -eq 3
"$bin/kifu-stats" --db "$tmp/l.db" --format csv balance >"$tmp/balance.csv"
check "balance has every level with its games" python3 - "$tmp/balance.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["level"], r["games"], r["reviewed"]) for r in rows] == [
    ("random", "3", "0"), ("mcts:4", "3", "0"), ("engine:8", "3", "0")], rows
PY

# --json: one object with one summary per level.
"$play" splinter --levels random,mcts:4 --games 2 --json --quiet >"$tmp/levels.json"
check "--json" python3 - "$tmp/levels.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [lv["games"] for lv in d["levels"]] == [2, 2], d
assert [lv["players"][0]["spec"] for lv in d["levels"]] == ["random", "mcts:4"], d
PY

# The progress line on a terminal: the level (each shown as it starts), its games and plies.
if command -v script >/dev/null 2>&1; then
	script -qec "'$play' splinter --levels random,mcts:4 --games 3 --db '$tmp/p.db'" \
		/dev/null >"$tmp/tty" 2>&1
	check "progress shows the first level" grep -Eq 'kifu-play: random \(1/2\): [0-3]/3 games, [0-9]+ plies' \
		"$tmp/tty"
	check "progress shows the second level" grep -Eq 'kifu-play: mcts:4 \(2/2\): [0-3]/3 games, [0-9]+ plies' \
		"$tmp/tty"
	check "the line fits 80 columns" sh -c 'tr "\r" "\n" <"$0" | sed "s/\x1b\[K//g" |
		grep "(1/2)" | awk "length > 80 { exit 1 }"' "$tmp/tty"
else
	fail "script(1) is missing (util-linux)"
fi
check "no progress when stderr is not a terminal" sh -c '! grep -q "(1/3)" "$0"' "$tmp/err"

# --review: the review kifu-analyse --store stores with its defaults, game by game.
check "--review" "$play" splay-schmidt --levels random,mcts:4 --games 1 --max-plies 10 \
	--db "$tmp/r.db" --review --quiet
check "the same games without --review" "$play" splay-schmidt --levels random,mcts:4 \
	--games 1 --max-plies 10 --db "$tmp/k.db" --quiet
check "kifu-analyse --store" sh -c '"$0" --db "$1" --game splay-schmidt --store >/dev/null 2>&1' \
	"$bin/kifu-analyse" "$tmp/k.db"
check "the same reviews" python3 - "$tmp/r.db" "$tmp/k.db" <<'PY'
import sqlite3, sys
def reviews(path):
    con = sqlite3.connect(path)
    return con.execute("SELECT r.game_id, r.engine, r.playouts, r.seed, r.plies, p.ply, "
                       "p.side_index, p.move, p.best, p.expected, p.best_score, "
                       "p.played_score, p.loss, p.mark FROM analysis_runs r JOIN "
                       "analysis_plies p ON p.run_id = r.id ORDER BY r.game_id, p.ply").fetchall()
a, b = reviews(sys.argv[1]), reviews(sys.argv[2])
assert len(a) == 20 and a == b, (len(a), len(b))
PY
"$bin/kifu-stats" --db "$tmp/r.db" --format csv balance >"$tmp/r.csv"
check "balance counts the reviewed games" sh -c 'cut -d, -f3,11 "$0" | grep -c "^[a-z:0-9]*,1$" |
	grep -qx 2' "$tmp/r.csv"

# Usage errors.
expect2() { # DESCRIPTION PATTERN ARGS...
	desc=$1 pat=$2
	shift 2
	"$play" "$@" >/dev/null 2>"$tmp/uerr"
	rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q -- "$pat" "$tmp/uerr"; then
		fail "$desc: exit $rc, $(cat "$tmp/uerr")"
	fi
}
expect2 "--players and --levels" "exclude each other" splinter --players random --levels random
expect2 "neither" "--players or --levels is required" splinter
expect2 "a level twice" "'random' is given twice" splinter --levels random,mcts:4,random
expect2 "a bad level" "^kifu-play: error: --levels: " splinter --levels random,mtcs:4
expect2 "--review without --db" "--review needs --db" splinter --levels random --review -o "$tmp/x"
expect2 "--review without --levels" "--review needs --levels" splinter --players random \
	--review --db "$tmp/y.db"
# --help: the new options, within 80 columns.
"$play" --help >"$tmp/help"
check "--help has --levels and --review" sh -c 'grep -q "^  --levels SPECS" "$0" &&
	grep -q "^  --review" "$0"' "$tmp/help"
check "their help lines fit 80 columns" sh -c 'sed -n "/^  --levels/,/^  --variant/p" "$0" |
	awk "length > 80 { exit 1 }"' "$tmp/help"
test_done "$checks checks"
