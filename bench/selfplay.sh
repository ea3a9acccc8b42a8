#!/bin/sh
# Self-play games for the review's calibration and strength figures
# (issue 40), resumable: games are played in chunks of 10 (kifu-play
# --games 10 --seed BASE+K, seats rotating within the chunk), each chunk
# written to a temporary directory and renamed when whole, so that a run
# stopped at any point starts again at the first missing chunk.
#
#   sh bench/selfplay.sh DIR KIND GAMES [BIN]
#
# KIND: calib   engine:100 self-play (mcts:300 in splinter-quad, capped at 300
#               plies as bench/ladder.sh caps it), seeds 1000 + K;
#       random  random self-play, seeds 2000 + K;
#       mcts    mcts:1000 self-play, seeds 3000 + K.
# GAMES a variant (rounded up to chunks of 10), into DIR/KIND/NAME/K/.
# Long jobs run at nice 10.
set -u
dir=$1 kind=$2 games=$3 bin=${4:-bin}
case $kind in
calib) base=1000 ;;
random) base=2000 ;;
mcts) base=3000 ;;
*) echo "selfplay.sh: KIND is calib, random or mcts" >&2; exit 2 ;;
esac
chunks=$(( (games + 9) / 10 ))
fail=0
k=0
while [ $k -lt $chunks ]; do
	for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout \
		splinter:survival splinter-quad:standard glaisher:standard glaisher:advanced; do
		game=${gv%%:*} variant=${gv#*:}
		name=$game-$variant
		out=$dir/$kind/$name/$k
		[ -d "$out" ] && continue
		max=1000
		case $kind in
		calib) spec=engine:100 ;;
		random) spec=random ;;
		mcts) spec=mcts:1000 ;;
		esac
		if [ "$game" = splinter-quad ]; then
			max=300
			[ $kind = calib ] && spec=mcts:300
		fi
		rm -rf "$out.tmp"
		mkdir -p "$out.tmp"
		if nice -n 10 "$bin/kifu-play" "$game" --variant "$variant" --players "$spec" \
			--games 10 --seed $((base + k)) --max-plies $max --quiet -o "$out.tmp/"; then
			mv "$out.tmp" "$out"
		else
			fail=1
		fi
	done
	k=$((k + 1))
done
exit $fail
