#!/bin/sh
# The review's calibration (issue 40): engine self-play games in every game
# and variant (bench/selfplay.sh DIR calib GAMES: engine:100, mcts:300 in
# splinter-quad, seeds 1000 + K for the K-th chunk of 10 games), every ply
# reviewed at the review's defaults (the engine, seed 7, one thread) by
# bench/review-rows (a row a ply: the mover's raw value, the final scores),
# then bench/calibrate.py fits Platt's map from raw value to score per
# variant on the even games and gives the held-out error (ECE, 10 bins) on
# the odd ones, and the C table for lib/engine/calibrate.c.
#
# Resumable: games and reviews are kept under DIR (chunk by chunk, each
# written whole or not at all), so a stopped run goes on where it stopped.
# Long jobs run at nice 10.
#
#   sh bench/calibrate.sh DIR [GAMES [BIN [ROWS]]]
#   (GAMES a variant, default 200; BIN the tools' directory, default bin;
#   ROWS the review-rows program, default build/default/bench/review-rows)
set -u
dir=$1 games=${2:-200} bin=${3:-bin} rows=${4:-build/default/bench/review-rows}
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/selfplay.sh" "$dir" calib "$games" "$bin" || exit 1
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
python3 "$here/calibrate.py" "$dir"/rows/calib/*
