#!/bin/sh
# The players' benchmark. Always: random playouts per second from the start
# of every game and variant (bench/players.c, built here against the
# library of the build the tools come from). On request, because it takes
# an hour or more on two cores: the strength table, mcts:1000 against
# random and against mcts:100, seats rotating, with kifu-play.
#
#   sh bench/players.sh BIN                      playouts per second
#   KIFU_BENCH_STRENGTH=1 sh bench/players.sh BIN   and the strength table
#
# KIFU_BENCH_GAMES (default 50) sets the games per row of the table,
# KIFU_BENCH_ONLY (game names, space-separated) limits the table to those
# games (to spread it over several processes), KIFU_BENCH_SECONDS
# (default 2) the time per row of the speed table.
set -u
bin=${1:-bin}
games=${KIFU_BENCH_GAMES:-50}
seconds=${KIFU_BENCH_SECONDS:-2}
# The library next to the tools: BIN is build/X/bin, or bin/ for build/default.
if [ -n "${KIFU_BUILD:-}" ]; then
	build=$KIFU_BUILD
elif [ -f "$(dirname "$bin")/libkifu.a" ]; then
	build=$(dirname "$bin")
else
	build=build/default
fi
[ -f "$build/libkifu.a" ] || { echo "players.sh: no '$build/libkifu.a' (run make first)" >&2; exit 1; }

libs=$(pkg-config --libs sqlite3 yaml-0.1 2>/dev/null || echo -lsqlite3 -lyaml)
mkdir -p "$build/bench"
# shellcheck disable=SC2086 # $libs is a list of flags
${CC:-cc} -std=c11 -O2 -g -D_POSIX_C_SOURCE=200809L -Iinclude bench/players.c \
	"$build/libkifu.a" $libs -lm -pthread -o "$build/bench/players" || exit 1

echo "random playouts from the start position (${seconds} s per row; cap: KIFU_PLAYER_PLAYOUT_PLIES)"
"$build/bench/players" "$seconds" || exit 1

if [ "${KIFU_BENCH_STRENGTH:-0}" != 1 ]; then
	echo "strength table: skipped (KIFU_BENCH_STRENGTH=1 plays it: about an hour or more)"
	exit 0
fi

# "SPEC,OTHER,OTHER..." with one entry per side.
seats() {
	list=$1 n=$3
	while [ "$n" -gt 1 ]; do
		list="$list,$2"
		n=$((n - 1))
	done
	echo "$list"
}

# game|sides|variants from kifu-play --help.
"$bin/kifu-play" --help |
	sed -n 's/^  \([a-z-]*\) *sides: \([^;]*\); variants: \(.*\)$/\1|\2|\3/p' |
	sed 's/ (default)//g' >"/tmp/kifu-bench-games.$$"

echo
echo "strength: $games games per row, --seed 1, seats rotating; W/L/D/U = games won by"
echo "the first player / won by another / drawn / unfinished (cap 1000 plies);"
echo "score = (W + D / sides) / games (against 3 others the even score is 0.25)"
printf '%-18s %-9s %-22s %5s %5s %5s %5s %7s %8s\n' game variant match W L D U score seconds
status=0
while IFS='|' read -r game sides variants; do
	case " ${KIFU_BENCH_ONLY:-$game} " in
	*" $game "*) ;;
	*) continue ;;
	esac
	nsides=$(echo "$sides" | wc -w)
	for variant in $variants; do
		for other in random mcts:100; do
			players=$(seats mcts:1000 "$other" "$nsides")
			start=$(date +%s)
			"$bin/kifu-play" "$game" --variant "$variant" --players "$players" \
				--games "$games" --seed 1 >/dev/null 2>"/tmp/kifu-bench-play.$$" ||
				{ status=1; cat "/tmp/kifu-bench-play.$$" >&2; continue; }
			end=$(date +%s)
			awk -v game="$game" -v variant="$variant" -v m="mcts:1000 vs $other" \
			    -v n="$games" -v sides="$nsides" -v secs=$((end - start)) '
				/ games?: / { d = $6; u = $8 }
				/ won / { k++; if (k == 1) w = $NF; else l += $NF }
				END {
					printf "%-18s %-9s %-22s %5d %5d %5d %5d %7.3f %8d\n",
						game, variant, m, w, l, d, u,
						(w + d / sides) / n, secs
				}' "/tmp/kifu-bench-play.$$"
		done
	done
done <"/tmp/kifu-bench-games.$$"
rm -f "/tmp/kifu-bench-games.$$" "/tmp/kifu-bench-play.$$"
exit $status
