#!/bin/sh
# Every record format and an archive through the one reading pipeline: the
# same 100,000 generated games (bench/gen-games.c, as bench/import.sh) as
# yaml, pgn, apgr and csv (each conversion written by kifu-export --to; apgr
# and csv as ten files of 10,000 games, since their writers hold every game
# of a file), and as a .tar.zst of the yaml. For each: kifu-validate --quiet
# and kifu-import --quiet into a fresh database, best of 3 wall-clock runs,
# games/s, peak RSS, and the time against yaml's (target: every format
# within 1.5x, the .tar.zst within 1.2x of the plain file). Peak RSS of
# validating a .tar.zst of 10,000 games against one of 100,000 shows that
# memory is flat in the archive's size.
# Usage: sh bench/formats.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
games=${BENCH_GAMES:-100000}
runs=${BENCH_RUNS:-3}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out/formats"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "formats.sh: $lib missing: run make first" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "formats.sh: /usr/bin/time missing (Debian package time)" >&2; exit 3; }
command -v zstd >/dev/null || { echo "formats.sh: zstd missing (Debian package zstd)" >&2; exit 3; }
cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 libarchive jansson 2>/dev/null || echo -lsqlite3 -lyaml -larchive -ljansson)
# shellcheck disable=SC2086 # word splitting of the flags is meant
$CC $cflags bench/gen-games.c "$lib" $libs -lm -pthread -o "$out/gen-games" || exit 3

d=$out/formats
yaml=$out/games-$games.yaml
[ -f "$yaml" ] || "$out/gen-games" "$yaml" "$games" 60 || exit 3
if [ ! -f "$d/done-$games" ]; then
	rm -rf "${d:?}"/*
	"$bin/kifu-export" --file "$yaml" --to pgn -o "$d/games.pgn" || exit 3
	mkdir -p "$d/chunks" "$d/apgr" "$d/csv"
	awk -v dir="$d/chunks" -v per=$((games / 10)) '
		/^---$/ { if (n % per == 0) { if (f) close(f); f = sprintf("%s/%02d.yaml", dir, n / per) } n++ }
		{ print > f }' "$yaml"
	for c in "$d"/chunks/*.yaml; do
		b=$(basename "$c" .yaml)
		"$bin/kifu-export" --file "$c" --to apgr -o "$d/apgr/$b.json" || exit 3
		"$bin/kifu-export" --file "$c" --to csv -o "$d/csv/$b.csv" || exit 3
	done
	(cd "$(dirname "$yaml")" && tar -cf - "$(basename "$yaml")" | zstd -q -3 -o "formats/games.tar.zst") || exit 3
	(cd "$d/chunks" && tar -cf - 00.yaml | zstd -q -3 -o "../small.tar.zst") || exit 3
	touch "$d/done-$games"
fi

now() { date +%s.%N; }
best() { # command... : best wall-clock seconds of $runs runs (a fresh database before each)
	b=
	for _ in $(seq "$runs"); do
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
peak() { # command... : peak RSS in kB of one run
	rm -f "$db" "$db-wal" "$db-shm"
	/usr/bin/time -f '%M' -o "$out/rss" "$@" >/dev/null 2>&1
	tail -1 "$out/rss"
}
db=$out/formats-bench.db
echo "formats: $games games, best of $runs, load: $(uptime | sed 's/.*load average: //')"
printf "%-9s %10s %10s %8s %8s %10s %10s %8s %8s\n" format "validate s" "games/s" "x yaml" "RSS MB" \
	"import s" "games/s" "x yaml" "RSS MB"
yv= yi=
for f in yaml pgn apgr csv tar.zst; do
	case $f in
	yaml) in=$yaml ;;
	pgn) in=$d/games.pgn ;;
	apgr) in=$d/apgr ;;
	csv) in=$d/csv ;;
	tar.zst) in=$d/games.tar.zst ;;
	esac
	tv=$(best "$bin/kifu-validate" --quiet "$in")
	rv=$(peak "$bin/kifu-validate" --quiet "$in")
	ti=$(best "$bin/kifu-import" --quiet --db "$db" "$in")
	ri=$(peak "$bin/kifu-import" --quiet --db "$db" "$in")
	[ -z "$yv" ] && yv=$tv && yi=$ti
	awk -v f="$f" -v g="$games" -v tv="$tv" -v ti="$ti" -v yv="$yv" -v yi="$yi" -v rv="$rv" -v ri="$ri" 'BEGIN {
		printf "%-9s %10.2f %10.0f %8.2f %8.1f %10.2f %10.0f %8.2f %8.1f\n", f, tv, g / tv, tv / yv,
			rv / 1024, ti, g / ti, ti / yi, ri / 1024 }'
done
rm -f "$db" "$db-wal" "$db-shm"
rs=$(peak "$bin/kifu-validate" --quiet "$d/small.tar.zst")
rl=$(peak "$bin/kifu-validate" --quiet "$d/games.tar.zst")
awk -v s="$rs" -v l="$rl" -v g="$games" 'BEGIN {
	printf "formats: peak RSS of kifu-validate on a .tar.zst: %.1f MB for %d games, %.1f MB for %d (flat)\n",
		s / 1024, g / 10, l / 1024, g
	print "formats: targets: every format within 1.5x of yaml, tar.zst within 1.2x"
}'
