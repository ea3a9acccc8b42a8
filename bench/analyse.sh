#!/bin/sh
# kifu-analyse speed and meaning: for every game and variant, the games of
# tests/data/analyse/ (mcts:1000 against random, up to 60 plies each) are
# reviewed at the default playouts with 1 and with 2 threads (best of
# BENCH_RUNS runs, default 3, wall clock; with 1 thread the CPU seconds too,
# steadier on a shared machine; the load is printed before and after),
# giving seconds per 60-ply game, and the mean loss of each player kind from
# the json review with their ratio (the issue asks random >= 2 x mcts:1000;
# over two 60-ply games that ratio is noisy: tests/test_analyse.c measures
# it over whole games, bench/README.md "What the review tells apart").
# The two thread counts must give byte-identical reviews (checked).
set -u
bin=${1:-bin}
runs=${BENCH_RUNS:-3}
dir=$(dirname "$0")/../tests/data/analyse
tmp=$(mktemp -d)
fail=0
echo "load: $(uptime | sed 's/.*load average/load average/')"
printf '%-27s %5s %11s %11s %11s %10s %10s %6s\n' game plies "wall 1thr" "cpu 1thr" \
	"wall 2thr" "loss mcts" "loss rand" ratio
best() { # threads file -> "best-wall cpu-of-that-run" (seconds)
	b=
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e %U' -o "$tmp/time" "$bin/kifu-analyse" --file "$2" \
			--threads "$1" --to json -o "$tmp/t$1.json" || fail=1
		read -r w u <"$tmp/time"
		if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$w
			cpu=$u
		fi
		i=$((i + 1))
	done
	echo "$b $cpu"
}
for f in "$dir"/*.yaml; do
	name=$(basename "$f" .yaml)
	set -- $(best 1 "$f")
	w1=$1 c1=$2
	set -- $(best 2 "$f")
	w2=$1
	cmp -s "$tmp/t1.json" "$tmp/t2.json" || { echo "$name: 1 and 2 threads differ"; fail=1; }
	python3 - "$tmp/t1.json" "$name" "$w1" "$c1" "$w2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
loss = {'mcts': [0.0, 0], 'random': [0.0, 0]}
plies = 0
for g in d:
    kind = {s: ('mcts' if p['name'].startswith('mcts:1000') else 'random')
            for s, p in g['players'].items()}
    for p in g['plies']:
        plies += 1
        l = loss[kind[p['side']]]
        l[0] += p['loss']
        l[1] += 1
m = loss['mcts'][0] / loss['mcts'][1]
r = loss['random'][0] / loss['random'][1]
w1, c1, w2 = (float(x) / plies * 60 for x in sys.argv[3:6])
print('%-27s %5d %10.1fs %10.1fs %10.1fs %10.4f %10.4f %6.1f' % (sys.argv[2], plies, w1, c1, w2,
      m, r, r / m if m else float('inf')))
PY
done
echo "(wall and cpu: seconds per 60-ply game)"
echo "load: $(uptime | sed 's/.*load average/load average/')"
rm -rf "$tmp"
exit $fail
