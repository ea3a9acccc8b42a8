#!/bin/sh
# The study of docs/balance.md, "Is my game fair?": every variant of the five games
# played by kifu-play's mirror levels (every side the same player) at
# random, mcts:100, mcts:1000 and engine into one database, then kifu-stats
# balance's table, csv and chart written here (balance.txt, balance.csv,
# balance.svg). Each line below is one kifu-play run: a level's first games
# reviewed as they are stored (--review: kifu-analyse --store's engine
# review, 1000 playouts a ply, which gives lead changes, drama and
# decided_at), then more games of the same level with other seeds and no
# review, for the first mover's score, where a review would cost more than
# the CPU there was (docs/balance.md says what the runs cost). Games stop at
# kifu-play's default cap of 1000 plies (one splinter-quad engine game
# reached it: unfinished). The database is left in build/ (24 MB), not
# kept: the same commands give the same games and reviews.
#
#   sh examples/balance/run.sh [BIN [DB]]   (default: bin build/balance.db)
#
# It took 88 minutes (wall, at nice 10 on a 2-core machine shared with two
# other jobs). A file examples/balance/stop makes it stop between two runs.
set -eu
bin=${1:-bin}
db=${2:-build/balance.db}
here=examples/balance
mkdir -p "$(dirname "$db")"

# play GAME VARIANT LEVEL GAMES SEED [--review]
play() {
	[ ! -e "$here/stop" ] || { echo "stopped before $*" >&2; exit 1; }
	echo "== $(date -u +%H:%M:%S) $*" >&2
	nice -n 10 "$bin/kifu-play" "$1" --variant "$2" --levels "$3" --games "$4" --seed "$5" \
		--db "$db" ${6:+"$6"}
}

# Every variant at every level, reviewed.
for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout \
	splinter:survival splinter-quad:standard glaisher:standard glaisher:advanced; do
	g=${gv%%:*} v=${gv#*:}
	case $g in
	splay-kisenwether) r=20 m=12 k=4 e=12 ;;
	splinter-quad) r=40 m=20 k=8 e=4 ;;
	splinter) r=40 m=30 k=15 e=30 ;;
	*) r=40 m=30 k=30 e=30 ;;
	esac
	play "$g" "$v" random $r 1 --review
	play "$g" "$v" mcts:100 $m 1 --review
	play "$g" "$v" mcts:1000 $k 1 --review
	play "$g" "$v" engine $e 1 --review
done
# More games without a review, where they cost little: random, mcts:100, and
# the engine where a game took a second or so (splay-schmidt: to 400 games).
for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout \
	splinter:survival splinter-quad:standard glaisher:standard glaisher:advanced; do
	play "${gv%%:*}" "${gv#*:}" random 360 2
done
play splay-schmidt standard engine 370 2
play splay-schmidt standard mcts:100 170 2
play glaisher standard mcts:100 170 2
play glaisher advanced mcts:100 170 2
play splinter knockout mcts:100 170 2
play splinter survival mcts:100 170 2
play splinter-quad standard mcts:100 80 2
play splay-kisenwether standard mcts:100 40 2
play glaisher advanced engine 100 2

"$bin/kifu-stats" --db "$db" balance >"$here/balance.txt"
"$bin/kifu-stats" --db "$db" balance --format csv >"$here/balance.csv"
"$bin/kifu-stats" --db "$db" balance --svg "$here/balance.svg" >/dev/null
