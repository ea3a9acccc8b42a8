#!/bin/sh
# A strength ladder (issue 30): whether the review's accuracy orders players
# as their results do. In every game and variant, seven players (random,
# mcts:30, mcts:300, mcts:1000, engine:100, engine:300 and engine, the
# default engine: 1000 iterations, stopping early after 32,000 moves tried)
# play a round robin: each of the 21 pairings plays LADDER_GAMES games
# (default 4) with kifu-play --players A,B --seed S (S = LADDER_SEED, default
# 31, plus the pairing's number; seats rotate from game to game; splinter-quad
# seats the pairing A,B,A,B, facing, and rotates it; whole games up to
# kifu-play's cap of 1000 plies, in splinter-quad 300 (LADDER_QUAD_PLIES):
# its games between engines can shuffle on for a thousand plies; a game
# stopped at the cap counts as a draw, as cutechess-cli's -maxmoves
# adjudicates it) into one database per variant. Every game is then
# reviewed by kifu-analyse --store at its defaults (the engine, 1000
# playouts) with --seed 7 and one thread. bench/ladder.py counts each game
# once between its two players (splinter-quad's: won by the player whose side
# won, a draw half each), fits Elo by maximum likelihood (random = 0, half a
# virtual draw per pairing so that a sweep stays finite, 95% intervals from
# the fit's Hessian) and gives each player's mean accuracy (over its sides in
# its games), and says whether the accuracy order equals the Elo order
# (Kendall's tau, and each pair swapped with its Elo difference's interval).
# Also the CPU seconds (user, all processes) of the games and the reviews.
#
#   sh bench/ladder.sh [BIN]         LADDER_GAMES=N games per pairing
#   LADDER_ONLY="NAME ..." only those variants (splay-schmidt-standard,
#   splinter-knockout, glaisher-advanced, ...); LADDER_DIR=DIR keeps each
#   variant's database (NAME.db) and reviews (NAME.json) there, and a run
#   into the same DIR goes on where the last one stopped (a pairing played,
#   a review made are not redone); LADDER_MARKDOWN=1 prints tables in
#   markdown; LADDER_PRIOR=P virtual draws per pairing.
set -u
bin=${1:-bin}
games=${LADDER_GAMES:-4}
seed=${LADDER_SEED:-31}
players="random mcts:30 mcts:300 mcts:1000 engine:100 engine:300 engine"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
dir=${LADDER_DIR:-$tmp}
trap 'rm -rf "$tmp"' EXIT
# bench/ladder.py needs numpy (make deps-bench): the first python3 with it
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "ladder.sh: no python3 with numpy (make deps-bench)" >&2; exit 1; }
# the fitter checked on hand-worked examples before any figure is trusted
"$py" "$here/ladder.py" --self-test >"$tmp/self-test" ||
	{ cat "$tmp/self-test"; echo "ladder.sh: bench/ladder.py --self-test failed" >&2; exit 1; }
md=
[ "${LADDER_MARKDOWN:-0}" = 1 ] && md=--markdown
fail=0
mkdir -p "$dir"
echo "load: $(uptime | sed 's/.*load average/load average/')"
for gv in splay-schmidt:standard splay-kisenwether:standard splinter:knockout \
	splinter:survival splinter-quad:standard glaisher:standard glaisher:advanced; do
	game=${gv%%:*} variant=${gv#*:}
	name=$game-$variant
	case " ${LADDER_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	db=$dir/$name.db
	mkdir -p "$dir/$name"
	: >"$tmp/cpu-play"
	k=0
	for a in $players; do
		seen=0
		for b in $players; do
			[ "$b" = "$a" ] && { seen=1; continue; }
			[ $seen = 1 ] || continue
			k=$((k + 1))
			[ -e "$dir/$name/pairing-$k" ] && continue
			seats=$a,$b max=1000
			[ "$game" = splinter-quad ] && seats=$a,$b,$a,$b max=${LADDER_QUAD_PLIES:-300}
			if nice -n 10 /usr/bin/time -f '%U' -a -o "$tmp/cpu-play" "$bin/kifu-play" \
				"$game" --variant "$variant" --players "$seats" --games "$games" \
				--seed $((seed + k)) --max-plies "$max" --quiet --db "$db"; then
				echo "$seats" >"$dir/$name/pairing-$k"
			else
				fail=1
			fi
		done
	done
	if [ ! -s "$dir/$name.json" ]; then
		nice -n 10 /usr/bin/time -f '%U' -o "$tmp/cpu-review" "$bin/kifu-analyse" --db "$db" \
			--game "$game" --variant "$variant" --seed 7 --threads 1 --store --to json \
			-o "$dir/$name.json.part" 2>/dev/null &&
			mv "$dir/$name.json.part" "$dir/$name.json" || fail=1
	else
		echo 0 >"$tmp/cpu-review"
	fi
	echo
	"$py" "$here/ladder.py" --prior "${LADDER_PRIOR:-0.5}" $md --title "$name" \
		"$dir/$name.json" || fail=1
	awk '{s += $1} END {printf "CPU s (this run): games %.0f, ", s}' "$tmp/cpu-play"
	awk '{printf "reviews %.0f\n", $1}' "$tmp/cpu-review"
done
echo "load: $(uptime | sed 's/.*load average/load average/')"
exit $fail
