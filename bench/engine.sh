#!/bin/sh
# The engine's benchmark (bench/README.md, "The engine: measured"; kifu-play(1), THE ENGINE): four tables over every
# game and variant, each from kifu-play --json or kifu-analyse runs.
#
#   1. engine against mcts:1000, seats rotating, GAMES per variant (default
#      40): the engine's wins, draws, losses, score, Elo difference with its
#      95% interval, and both players' CPU time per move. splinter-quad: the
#      engine against three mcts:1000, its share of games won. Targets:
#      score >= 0.75 in every two-sided variant, >= 0.50 of the games won in
#      splinter-quad, and the engine's CPU per move no more than mcts:1000's.
#   2. the ladder, as Ludii's SkillTrace: engine:N against engine:N/2 for
#      N = 100 .. 6400, LADDER_GAMES per step (default 20), the score of
#      engine:N at each step (splinter-quad: engine:N against three N/2).
#   3. reviewing a 60-ply game at the default settings (the games of
#      tests/data/analyse/, scaled to 60 plies): CPU seconds with 1 thread,
#      wall seconds with 1 and 2 threads. Target: <= 3 s of CPU.
#   4. the first mover's score: FIRST_GAMES (default 40) games of engine
#      self-play beside as many random ones.
#
#   sh bench/engine.sh BIN [TABLES]   TABLES: any of 1 2 3 4 (default all)
#
# It takes hours on two cores: run it niced on a quiet machine
# (KIFU_BENCH_ONLY="game ..." limits it to some games). The load is printed
# before and after.
set -u
bin=${1:-bin}
shift 2>/dev/null
tables=${*:-1 2 3 4}
games=${GAMES:-40}
ladder=${LADDER_GAMES:-20}
first=${FIRST_GAMES:-40}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "game variant sides" per line, from kifu-play --help.
"$bin/kifu-play" --help |
	sed -n 's/^  \([a-z-]*\) *sides: \([^;]*\); variants: \(.*\)$/\1|\2|\3/p' |
	sed 's/ (default)//g' | while IFS='|' read -r g sides variants; do
	case " ${KIFU_BENCH_ONLY:-$g} " in *" $g "*) ;; *) continue ;; esac
	n=$(echo $sides | wc -w)
	for v in $(echo "$variants" | tr ',' ' '); do
		echo "$g $v $n"
	done
done >"$tmp/variants"

# seats SPEC OTHER N: SPEC then OTHER for the N-1 other sides.
seats() {
	list=$1 k=$3
	while [ "$k" -gt 1 ]; do
		list="$list,$2"
		k=$((k - 1))
	done
	echo "$list"
}

# match GAME VARIANT NGAMES PLAYERS [ARGS]: the --json summary in $tmp/m.json.
match() {
	g=$1 v=$2 n=$3 p=$4
	shift 4
	nice -n 10 "$bin/kifu-play" "$g" --variant "$v" --players "$p" --games "$n" --seed 1 \
		--json --quiet "$@" >"$tmp/m.json"
}

echo "load: $(uptime | sed 's/.*load average/load average/')"

case " $tables " in *" 1 "*)
echo
echo "1. engine against mcts:1000, $games games per variant, seats rotating (--seed 1)"
printf '%-27s %5s %12s %6s %20s %10s %10s\n' variant games "W/D/L" score "Elo (95%)" \
	"cpu engine" "cpu mcts"
while read -r g v n; do
	match "$g" "$v" "$games" "$(seats engine mcts:1000 "$n")"
	python3 - "$tmp/m.json" "$g-$v" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = {x['spec']: x for x in d['players']}
e, m = p['engine'], p['mcts:1000']
elo = d.get('elo')
if elo and elo['difference'] is not None:
    es = '%+.0f +/- %s' % (elo['difference'], '%.0f' % elo['margin95'] if elo['margin95'] else 'inf')
else:
    es = '-'
score = e['score'] if len(d['sides']) == 2 else e['wins'] / max(1, e['games'])
print('%-27s %5d %12s %6.3f %20s %9.4fs %9.4fs' % (sys.argv[2], d['games'],
      '%d/%d/%d' % (e['wins'], e['draws'], e['losses']), score, es,
      e['cpu_per_move'] or 0, m['cpu_per_move'] or 0))
PY
done <"$tmp/variants"
echo "(score: the engine's points per game; splinter-quad: its share of games won against three mcts:1000)"
;; esac

case " $tables " in *" 2 "*)
echo
echo "2. ladder: engine:N against engine:N/2, $ladder games per step, score of engine:N"
printf '%-27s' variant
for n in 200 400 800 1600 3200 6400; do printf ' %7s' "$n"; done
echo
while read -r g v n; do
	printf '%-27s' "$g-$v"
	for k in 200 400 800 1600 3200 6400; do
		match "$g" "$v" "$ladder" "$(seats "engine:$k" "engine:$((k / 2))" "$n")"
		python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d['players'] if x['spec'] == sys.argv[2]][0]
print(' %7.3f' % (e['score'] if e['score'] is not None else float('nan')), end='')" "$tmp/m.json" "engine:$k"
	done
	echo
done <"$tmp/variants"
;; esac

case " $tables " in *" 3 "*)
echo
echo "3. reviewing a 60-ply game at the default settings (seconds per 60 plies)"
printf '%-27s %6s %10s %10s %10s\n' variant plies "cpu 1thr" "wall 1thr" "wall 2thr"
for f in "$here"/tests/data/analyse/*.yaml; do
	name=$(basename "$f" .yaml)
	case " ${KIFU_BENCH_ONLY:-${name%-*}} " in *" ${name%-*} "*) ;; *) continue ;; esac
	/usr/bin/time -f '%e %U' -o "$tmp/t1" nice -n 10 "$bin/kifu-analyse" --file "$f" --threads 1 \
		--to json -o "$tmp/r1.json"
	/usr/bin/time -f '%e %U' -o "$tmp/t2" nice -n 10 "$bin/kifu-analyse" --file "$f" --threads 2 \
		--to json -o "$tmp/r2.json"
	cmp -s "$tmp/r1.json" "$tmp/r2.json" || echo "$name: 1 and 2 threads differ"
	python3 - "$tmp/r1.json" "$name" "$tmp/t1" "$tmp/t2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
plies = sum(len(g['plies']) for g in d)
w1, c1 = map(float, open(sys.argv[3]).read().split())
w2, _ = map(float, open(sys.argv[4]).read().split())
k = 60.0 / plies
print('%-27s %6d %9.2fs %9.2fs %9.2fs' % (sys.argv[2], plies, c1 * k, w1 * k, w2 * k))
PY
done
;; esac

case " $tables " in *" 4 "*)
echo
echo "4. first mover's score: $first self-play games per variant (a draw counts 1/sides)"
printf '%-27s %12s %12s\n' variant engine random
while read -r g v n; do
	printf '%-27s' "$g-$v"
	for p in engine random; do
		match "$g" "$v" "$first" "$p"
		python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
n = len(d['sides'])
fin = d['games'] - d['unfinished']
print(' %12.3f' % ((d['sides'][0]['wins'] + d['draws'] / n) / fin if fin else float('nan')), end='')" "$tmp/m.json"
	done
	echo
done <"$tmp/variants"
echo "(the first side of the game moves first: the share of points it took)"
;; esac

echo
echo "load: $(uptime | sed 's/.*load average/load average/')"
