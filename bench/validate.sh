#!/bin/sh
# Validation speed: kifu-validate --quiet over 20,000 games of about 60
# plies (real legal games, generated through the engines by
# bench/gen-records.c), against a bare libyaml event parse of the same file
# (../shared/bench/yaml-parse-baseline.c, compiled unchanged). Best of 3
# wall-clock runs each; prints both times and their ratio (target <= 1.3),
# and the CPU time of kifu-validate (it reads and replays in two threads).
# Usage: sh bench/validate.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
games=${BENCH_GAMES:-20000}
out=build/bench
mkdir -p "$out"
CC=${CC:-cc}
lib=build/default/libkifu.a
[ -f "$lib" ] || { echo "validate.sh: $lib missing: run make first" >&2; exit 3; }
cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
# shellcheck disable=SC2086 # word splitting of the flags is meant
$CC $cflags bench/gen-records.c "$lib" $libs -lm -o "$out/gen-records" || exit 3
# shellcheck disable=SC2086
$CC -O2 ../shared/bench/yaml-parse-baseline.c $libs -o "$out/yaml-parse-baseline" || exit 3
file=$out/records-$games.yaml
[ -f "$file" ] || "$out/gen-records" "$file" "$games" 60 || exit 3
"$bin/kifu-validate" --quiet "$file" || { echo "validate.sh: the benchmark file is not valid" >&2; exit 1; }

now() { date +%s.%N; }
cpu=
best() { # command... : best wall-clock seconds of 3 runs (CPU seconds of that run in $cpu)
	b=
	for _ in 1 2 3; do
		t0=$(now)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$out/cpu" "$@" >/dev/null 2>&1
		else
			"$@" >/dev/null 2>&1
		fi
		t1=$(now)
		t=$(awk "BEGIN { print $t1 - $t0 }")
		if [ -z "$b" ] || [ "$(awk "BEGIN { print ($t < $b) }")" = 1 ]; then
			b=$t
			cpu=$(awk '{ print $1 + $2 }' "$out/cpu" 2>/dev/null)
		fi
	done
	echo "$b" >"$out/best"
}
size=$(wc -c <"$file")
plies=$(grep -c '^  - ' "$file")
best "$bin/kifu-validate" --quiet "$file"
tv=$(cat "$out/best")
cv=${cpu:-0}
best "$out/yaml-parse-baseline" "$file"
tb=$(cat "$out/best")
cb=${cpu:-0}
awk -v tv="$tv" -v tb="$tb" -v cv="$cv" -v cb="$cb" -v g="$games" -v p="$plies" -v s="$size" 'BEGIN {
	printf "validate: %d games, %d plies, %.1f MB\n", g, p, s / 1e6
	printf "validate: kifu-validate --quiet  %.3f s wall, %.3f s CPU (%.0f games/s)\n", tv, cv, g / tv
	printf "validate: bare libyaml parse     %.3f s wall, %.3f s CPU\n", tb, cb
	printf "validate: ratio %.2f wall, %.2f CPU (target <= 1.30 wall)\n", tv / tb, (cb > 0 ? cv / cb : 0)
}'
