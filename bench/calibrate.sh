#!/bin/sh
# The review's calibration (issue 40): engine self-play games in every game
# and variant (bench/selfplay DIR calib GAMES: engine:100, mcts:300 in
# splinter-quad capped at 300 plies, seeds 1000 + K for the K-th chunk of 10
# games, seats rotating), every ply reviewed at the review's defaults (the
# engine, seed 7, one thread) by build/default/bench/review-rows (`make
# review-rows`; a row a ply: the mover's raw value, the scores, the final
# scores), then bench/calibrate.py fits Platt's map from raw value to score
# per variant on the even games and gives the held-out error (ECE, 10 bins,
# split by game) on the odd ones, and the lines of lib/engine/calibrate.c's
# table. With CALIBRATE_TREE="OLD DIR..." (rows of default reviews made by a
# build holding the table in file OLD: bench/README.md) the map's offset is
# set so that the losses add up over those games.
#
# Resumable: games and reviews are kept under CALIBRATE_DIR (chunk by chunk,
# each written whole or not at all), so a stopped run goes on where it
# stopped. Long jobs run at nice 10.
#
#   sh bench/calibrate.sh [BIN]   CALIBRATE_GAMES (a variant; default 20,
#   the issue's figures: 200), CALIBRATE_DIR (default: a temporary one)
set -u
bin=${1:-bin}
games=${CALIBRATE_GAMES:-20}
rows=build/default/bench/review-rows
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${CALIBRATE_DIR:-$tmp}
[ -x "$rows" ] || { echo "calibrate.sh: $rows missing (make review-rows)" >&2; exit 1; }
echo "load: $(uptime | sed 's/.*load average/load average/')"
sh "$here/selfplay" "$dir" calib "$games" "$bin" || exit 1
chunks=$(( (games + 9) / 10 ))
k=0
while [ $k -lt $chunks ]; do
	for name in splay-schmidt-standard splay-kisenwether-standard splinter-knockout \
		splinter-survival splinter-quad-standard glaisher-standard glaisher-advanced; do
		out=$dir/rows/calib/$name/$k.tsv
		[ -s "$out" ] && continue
		mkdir -p "$dir/rows/calib/$name"
		nice -n 10 "$rows" --seed 7 "$dir/calib/$name/$k"/*.yaml >"$out.tmp" &&
			mv "$out.tmp" "$out"
	done
	k=$((k + 1))
done
# shellcheck disable=SC2086 # CALIBRATE_TREE is a list on purpose
if [ -n "${CALIBRATE_TREE:-}" ]; then
	python3 "$here/calibrate.py" "$dir"/rows/calib/* --tree $CALIBRATE_TREE
else
	python3 "$here/calibrate.py" "$dir"/rows/calib/*
fi
echo "load: $(uptime | sed 's/.*load average/load average/')"
