#!/bin/sh
# Pattern search speed (kifu-search --pattern): on N random splay-schmidt
# games (bench/gen-games.c, about PLIES plies each, default 100,000 games of
# 80 plies) in a fresh database, best of 3 wall-clock runs of three-cell
# patterns taken from a stored game's position (two occupied cells and an
# empty one: a shape that occurs), of the same with a side's letter and +
# (wider), of three cells that need a piece but no side ('+': the summary
# lets most games through, the slow case), and of the first with
# --symmetric (its 12 images). Targets: under 2 s on 100,000 games, under
# 20 s on 1,000,000 (KIFU_BENCH_1M=1 runs that size too; it takes a while
# to import). Prints the games found with each time, so that a faster run
# that finds fewer games shows.
# Usage: sh bench/pattern.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
plies=${BENCH_PLIES:-80}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "pattern.sh: $lib missing: run make first" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "pattern.sh: /usr/bin/time missing (Debian package time)" >&2; exit 3; }
libs=$(pkg-config --libs sqlite3 yaml-0.1 libarchive jansson libpq 2>/dev/null ||
	echo -lsqlite3 -lyaml -larchive -ljansson -lpq)
$CC -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude bench/gen-games.c "$lib" $libs -lm \
	-o "$out/gen-games" || exit 3

best() { # command... : the best wall-clock seconds of 3 runs
	b=
	for _ in 1 2 3; do
		/usr/bin/time -f '%e' -o "$out/time" "$@" >"$out/found" 2>/dev/null
		t=$(cat "$out/time")
		if [ -z "$b" ] || [ "$(awk -v t="$t" -v b="$b" 'BEGIN { print (t < b) }')" = 1 ]; then
			b=$t
		fi
	done
	echo "$b"
}

# The cells of stored game 1 at ply 30 as its picture shows them: "CELL TOKEN" lines.
cells() { # db
	"$bin/kifu-export" --db "$1" --id 1 --to svg --ply 30 |
		sed -n 's/.*data-cell="\([^"]*\)" data-content="\([^"]*\)".*/\1 \2/p'
}

run_size() { # games
	n=$1
	file=$out/pattern-$n.yaml
	db=$out/pattern-$n.db
	[ -f "$file" ] || "$out/gen-games" "$file" "$n" "$plies" 5 splay-schmidt || exit 3
	if [ ! -f "$db" ]; then
		start=$(date +%s)
		"$bin/kifu-import" --quiet --db "$db.tmp" "$file" >/dev/null || exit 3
		mv "$db.tmp" "$db"
		echo "pattern: imported $n games in $(($(date +%s) - start)) s," \
		     "$(($(stat -c %s "$db") / n)) bytes per game"
	fi
	cells "$db" >"$out/cells"
	a=$(sed -n 1p "$out/cells") b=$(sed -n 2p "$out/cells")
	# an empty cell: the centre's neighbours, the first one the picture does not name
	for c in f6 f5 f7 e5 e6 g5 g6; do
		grep -q "^$c " "$out/cells" || { e=$c; break; }
	done
	shape="${a% *}=${a#* },${b% *}=${b#* },$e=."
	wide="${a% *}=$(echo "${a#* }" | cut -c1)+,${b% *}=${b#* },$e=."
	any="${a% *}=+,${b% *}=+,$e=+"
	for p in "$shape" "$wide" "$any"; do
		t=$(best "$bin/kifu-search" --db "$db" --game splay-schmidt --pattern "$p" --json)
		echo "pattern: $n games, '$p': $t s, $(grep -c '"id"' "$out/found") games found"
	done
	t=$(best "$bin/kifu-search" --db "$db" --game splay-schmidt --pattern "$shape" --symmetric --json)
	echo "pattern: $n games, '$shape' --symmetric: $t s, $(grep -c '"id"' "$out/found") games found"
}

echo "pattern: load before: $(uptime)"
run_size "${BENCH_GAMES:-100000}"
[ "${KIFU_BENCH_1M:-0}" = 1 ] && run_size 1000000
echo "pattern: load after: $(uptime)"
