#!/bin/sh
# Import speed: kifu-import --quiet of 100,000 generated games (real legal
# games of about 60 plies through the engines, written by the record writer:
# bench/gen-games.c) into a fresh database, against the raw SQLite cost of
# storing the same number of games and plies (../shared/bench/
# sqlite-insert-baseline.c, compiled unchanged: one row per game, one move
# and one position row per ply, one transaction, hash index built after).
# Best of 3 wall-clock runs each; prints games/s for both and their ratio
# (target >= 0.70), and the peak RSS of one import (target < 64 MB, flat).
# KIFU_BENCH_1M=1 also imports 1,000,000 games once, for its peak RSS
# (about 1 GB of records and 4 GB of database under build/bench/).
# Usage: sh bench/import.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
games=${BENCH_GAMES:-100000}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "import.sh: $lib missing: run make first" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "import.sh: /usr/bin/time missing (Debian package time)" >&2; exit 3; }
cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 2>/dev/null || echo -lsqlite3 -lyaml)
$CC $cflags bench/gen-games.c "$lib" $libs -lm -o "$out/gen-games" || exit 3
$CC -O2 ../shared/bench/sqlite-insert-baseline.c $libs -o "$out/sqlite-insert-baseline" || exit 3

now() { date +%s.%N; }
best() { # command... : best wall-clock seconds of 3 runs (the database removed before each)
	b=
	for _ in 1 2 3; do
		rm -f "$db" "$db-wal" "$db-shm"
		t0=$(now)
		"$@" >/dev/null 2>&1
		t1=$(now)
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
		if [ -z "$b" ] || [ "$(awk -v t="$t" -v b="$b" 'BEGIN { print (t < b) }')" = 1 ]; then
			b=$t
		fi
	done
	echo "$b"
}
peak() { # games file : peak RSS in kB of one import into a fresh database
	rm -f "$db" "$db-wal" "$db-shm"
	/usr/bin/time -f '%M' -o "$out/rss" "$bin/kifu-import" --quiet --db "$db" "$1" >/dev/null 2>&1
	cat "$out/rss"
}

file=$out/games-$games.yaml
[ -f "$file" ] || "$out/gen-games" "$file" "$games" 60 || exit 3
plies=$(grep -c '^  - ' "$file")
db=$out/import-bench.db
ti=$(best "$bin/kifu-import" --quiet --db "$db" "$file")
stored=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM games").fetchone()[0])' "$db" 2>/dev/null || echo "?")
rss=$(peak "$file")
db=$out/baseline-bench.db
tb=$(best "$out/sqlite-insert-baseline" "$db" "$games" "$plies")
rm -f "$out"/import-bench.db* "$out"/baseline-bench.db*
awk -v ti="$ti" -v tb="$tb" -v g="$games" -v p="$plies" -v s="$stored" -v r="$rss" 'BEGIN {
	printf "import: %d games (%d stored), %d plies (%.1f per game)\n", g, s, p, p / g
	printf "import: kifu-import --quiet      %.3f s, %.0f games/s\n", ti, g / ti
	printf "import: sqlite-insert-baseline   %.3f s, %.0f games/s\n", tb, g / tb
	printf "import: ratio %.2f (target >= 0.70)\n", tb / ti
	printf "import: peak RSS %.1f MB (target < 64)\n", r / 1024
}'
if [ "${KIFU_BENCH_1M:-0}" = 1 ]; then
	big=$out/games-1000000.yaml
	[ -f "$big" ] || "$out/gen-games" "$big" 1000000 60 || exit 3
	db=$out/import-bench-1m.db
	t0=$(now)
	rss=$(peak "$big")
	t1=$(now)
	rm -f "$db" "$db-wal" "$db-shm"
	awk -v r="$rss" -v a="$t0" -v b="$t1" 'BEGIN {
		printf "import: 1000000 games in %.0f s (%.0f games/s), peak RSS %.1f MB (target < 64)\n",
			b - a, 1e6 / (b - a), r / 1024 }'
fi
