#!/bin/sh
# Whether the review's expected scores are calibrated (issue 30): in every
# game and variant, CALIBRATE_GAMES (default 24) self-play games of the
# default engine (kifu-play --players engine,engine --seed 21, seats rotating) are
# reviewed by kifu-analyse at its defaults (--seed 7, one thread), and each
# position's `expected` (the mover's value before its move) is set against
# the mover's final score in that game (1 won, 0 lost, a draw's share).
# bench/calibrate.py then fits the map from expected to score on the even
# games (Platt: a logistic on the logit; isotonic: pool adjacent violators)
# and reports, on the odd games held out, the calibration error: positions
# binned by expected score (10 bins), |mean score - mean expected| weighted
# by the bin's share (the issue asks <= 0.05), raw and after each map, and
# the Platt coefficients.
#
#   sh bench/calibrate.sh [BIN]     CALIBRATE_DIR=DIR keeps games and reviews
set -u
bin=${1:-bin}
games=${CALIBRATE_GAMES:-24}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
dir=${CALIBRATE_DIR:-$tmp}
trap 'rm -rf "$tmp"' EXIT
fail=0
echo "load: $(uptime | sed 's/.*load average/load average/')"
for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout \
	splinter:survival splinter-quad:standard glaisher:standard glaisher:advanced; do
	game=${gv%%:*} variant=${gv#*:}
	name=$game-$variant
	if [ ! -s "$dir/$name.json" ]; then
		mkdir -p "$dir/$name"
		nice -n 10 "$bin/kifu-play" "$game" --variant "$variant" --players engine,engine \
			--games "$games" --seed 21 --quiet -o "$dir/$name/" || fail=1
		cat "$dir/$name"/*.yaml >"$dir/$name.yaml"
		nice -n 10 "$bin/kifu-analyse" --file "$dir/$name.yaml" --seed 7 --threads 1 \
			--to json -o "$dir/$name.json" || fail=1
	fi
done
python3 "$here/calibrate.py" "$dir"/*.json || fail=1
echo "load: $(uptime | sed 's/.*load average/load average/')"
exit $fail
