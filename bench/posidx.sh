#!/bin/sh
# The position index as compressed runs, measured before it is built
# (issue 31): bench/posidx-runs.c reads the index of a real database and
# prints what its postings would cost as sorted, delta-coded runs (one per
# 2,000 games, as an import's transactions write them, and merged into one)
# against SQLite's B-tree of one entry per position per game, with keys of
# 64, 40 and 32 bits, and checks that the most frequent position's games read
# back exactly. On 12,000 random games of all five games (bench/gen-games.c,
# about 77 plies each), imported here; and on bench/stats.sh's database of
# 1,000,000 games when it exists (KIFU_BENCH_DB=FILE for another; it takes
# minutes and about 4 GB of memory).
# Usage: sh bench/posidx.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "posidx.sh: $lib missing: run make first" >&2; exit 3; }
cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 2>/dev/null || echo -lsqlite3 -lyaml)
# shellcheck disable=SC2086 # word splitting of the flags is meant
$CC $cflags bench/gen-games.c "$lib" $libs -lm -o "$out/gen-games" || exit 3
# shellcheck disable=SC2086
$CC $cflags bench/posidx-runs.c $libs -o "$out/posidx-runs" || exit 3

file=$out/random-12000.yaml
[ -f "$file" ] || "$out/gen-games" "$file" 12000 300 || exit 3
db=$out/posidx-12000.db
rm -f "$db" "$db-wal" "$db-shm"
"$bin/kifu-import" --quiet --db "$db" "$file" || exit 3
echo "posidx: 12,000 random games of the five games"
"$out/posidx-runs" "$db" || exit 1
big=${KIFU_BENCH_DB:-$out/stats-1000000.db}
if [ -f "$big" ]; then
	echo "posidx: $big"
	"$out/posidx-runs" "$big" || exit 1
fi
