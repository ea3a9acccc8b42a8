#!/bin/sh
# The review's CPU per 60 plies (issue 40 asks <= 3 s in every variant): the
# games of tests/data/analyse/ (mcts:1000 against random, up to 60 plies)
# reviewed at the defaults with one thread, user CPU seconds scaled to 60
# plies, for each build given (BIN directories: before and after a change,
# measured in turn so that both see the same load). Runs at nice 10.
#
#   sh bench/review-cost.sh BIN...
set -u
dir=$(dirname "$0")/../tests/data/analyse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load: $(uptime | sed 's/.*load average/load average/')"
printf '%-27s %6s' variant plies
for b in "$@"; do printf ' %12s' "$(basename "$b")"; done
echo
for f in "$dir"/*.yaml; do
	name=$(basename "$f" .yaml)
	line=
	plies=
	for b in "$@"; do
		nice -n 10 /usr/bin/time -f '%U' -o "$tmp/time" "$b/kifu-analyse" --file "$f" \
			--threads 1 --seed 7 --to json -o "$tmp/r.json" || exit 1
		plies=$(python3 -c 'import json,sys; print(sum(len(g["plies"]) for g in json.load(open(sys.argv[1]))))' "$tmp/r.json")
		line="$line $(awk -v u="$(cat "$tmp/time")" -v p="$plies" 'BEGIN { printf "%12.2f", 60 * u / p }')"
	done
	printf '%-27s %6s%s\n' "$name" "$plies" "$line"
done
echo "load: $(uptime | sed 's/.*load average/load average/')"
