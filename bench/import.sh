#!/bin/sh
# Import speed (issue 14). Best of 3 wall-clock runs each, on the same
# machine in the same run:
#  - kifu-import --quiet of 100,000 generated games (real legal games of
#    about 60 plies through the engines, written by the record writer:
#    bench/gen-games.c) into a fresh database, position index built; with
#    BEFORE_DIR, the same with the tools of another build (the release
#    before schema 4, say) for the before/after figures;
#  - kifu-validate of the same file (replaying is the floor: target
#    kifu-import within 1.5x of it);
#  - SCID (Debian scid, its tkscid running bench/scid-import.tcl) importing
#    100,000 random chess games into a new .si4 database: the games are
#    made by the npm package chess.js (bench/gen-chess.js: random legal
#    moves until the game ends or 150 plies), installed under build/bench/npm;
#  - the raw SQLite cost of storing the same games and plies one row per ply
#    (../shared/bench/sqlite-insert-baseline.c, compiled unchanged).
# Prints plies/s for each and the ratios, the database size per game, and
# the peak RSS of one import. KIFU_BENCH_1M=1 also imports 1,000,000 games
# once (with each build) for the peak RSS and the database size per game.
# What it needs and lacks (time, scid, npm's chess.js) it installs first.
# KIFU_BENCH_CHESS=FILE.pgn: SCID imports that file instead.
# Usage: sh bench/import.sh [TOOLS_DIR [BEFORE_DIR]]   (run from the repo root)
set -u
bin=${1:-bin}
before=${2:-}
games=${BENCH_GAMES:-100000}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "import.sh: $lib missing: run make first" >&2; exit 3; }

# ---- What the benchmark needs: Debian packages, and chess.js from npm.
need=
[ -x /usr/bin/time ] || need="$need time"
[ -x /usr/games/tkscid ] || need="$need scid"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
if [ -n "$need" ]; then
	echo "import.sh: installing$need"
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y $need >/dev/null 2>&1 ||
			{ apt-get update >/dev/null 2>&1 && apt-get install -y $need >/dev/null 2>&1; }
	else
		sudo apt-get install -y $need >/dev/null 2>&1
	fi
fi
[ -x /usr/bin/time ] || { echo "import.sh: /usr/bin/time missing (Debian package time)" >&2; exit 3; }
npmdir=$out/npm
if [ ! -f "$npmdir/node_modules/chess.js/package.json" ] && command -v npm >/dev/null 2>&1; then
	mkdir -p "$npmdir"
	npm install --prefix "$npmdir" --no-audit --no-fund chess.js@1 >/dev/null 2>&1 ||
		echo "import.sh: npm install chess.js failed" >&2
fi

cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 2>/dev/null || echo -lsqlite3 -lyaml)
$CC $cflags bench/gen-games.c "$lib" $libs -lm -o "$out/gen-games" || exit 3
$CC -O2 ../shared/bench/sqlite-insert-baseline.c $libs -o "$out/sqlite-insert-baseline" || exit 3

now() { date +%s.%N; }
best() { # command... : "WALL CPU": the best wall-clock seconds of 3 runs (the database $db
	# removed before each) and the CPU seconds (user + sys) of that run
	b= c=
	for _ in 1 2 3; do
		rm -f "$db" "$db-wal" "$db-shm" "$db.si4" "$db.sg4" "$db.sn4"
		/usr/bin/time -f '%e %U %S' -o "$out/time" "$@" >/dev/null 2>&1
		t=$(awk '{ print $1 }' "$out/time")
		if [ -z "$b" ] || [ "$(awk -v t="$t" -v b="$b" 'BEGIN { print (t < b) }')" = 1 ]; then
			b=$t
			c=$(awk '{ print $2 + $3 }' "$out/time")
		fi
	done
	echo "$b $c"
}
peak() { # tools games-file : peak RSS in kB of one import into a fresh database
	rm -f "$db" "$db-wal" "$db-shm"
	/usr/bin/time -f '%M' -o "$out/rss" "$1/kifu-import" --quiet --db "$db" "$2" >/dev/null 2>&1
	cat "$out/rss"
}
count() { # db : games stored
	python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM games").fetchone()[0])' "$1" 2>/dev/null || echo 0
}

echo "import: load before: $(uptime)"
file=$out/games-$games.yaml
[ -f "$file" ] || "$out/gen-games" "$file" "$games" 60 || exit 3
plies=$(grep -c '^  - ' "$file")

db=$out/import-bench.db
ti=$(best "$bin/kifu-import" --quiet --db "$db" "$file")
stored=$(count "$db")
size=$(stat -c %s "$db")
rss=$(peak "$bin" "$file")
tv=$(best "$bin/kifu-validate" "$file")
tb0="0 0" size0=0 rss0=0
if [ -n "$before" ]; then
	db=$out/import-bench-before.db
	tb0=$(best "$before/kifu-import" --quiet --db "$db" "$file")
	size0=$(stat -c %s "$db")
	rss0=$(peak "$before" "$file")
fi
db=$out/baseline-bench.db
tb=$(best "$out/sqlite-insert-baseline" "$db" "$games" "$plies")

# SCID: 100,000 random chess games made by chess.js, imported by tkscid.
chess=${KIFU_BENCH_CHESS:-$out/chess-$games.pgn}
if [ ! -f "$chess" ] && [ -f "$npmdir/node_modules/chess.js/package.json" ]; then
	# Two shards in parallel (a game takes chess.js about 10 ms of CPU).
	echo "import: generating $games chess games with chess.js"
	half=$((games / 2))
	node bench/gen-chess.js "$chess.1" "$half" "$npmdir" 1 >/dev/null &
	node bench/gen-chess.js "$chess.2" $((games - half)) "$npmdir" 2 >/dev/null
	wait
	cat "$chess.1" "$chess.2" >"$chess.tmp" && mv "$chess.tmp" "$chess"
	rm -f "$chess.1" "$chess.2"
fi
ts="0 0" cplies=0 scid_games=0
if [ -x /usr/games/tkscid ] && [ -f "$chess" ]; then
	cplies=$(grep -v '^\[' "$chess" | tr ' ' '\n' | grep -c '^[a-zA-Z]')
	db=$out/scid-bench
	ts=$(best /usr/games/tkscid bench/scid-import.tcl "$db" "$chess")
	rm -f "$db.si4" "$db.sg4" "$db.sn4"
	scid_games=$(/usr/games/tkscid bench/scid-import.tcl "$db" "$chess" 2>/dev/null | sed -n 's/^imported //p')
	rm -f "$db.si4" "$db.sg4" "$db.sn4"
else
	echo "import: SCID skipped: $( [ -x /usr/games/tkscid ] || echo 'no tkscid (Debian scid); ')$( [ -f "$chess" ] || echo 'no chess games (npm chess.js)')"
fi
rm -f "$out"/import-bench.db* "$out"/import-bench-before.db* "$out"/baseline-bench.db*
awk -v ti="$ti" -v tb="$tb" -v tv="$tv" -v t0="$tb0" -v ts="$ts" -v g="$games" -v p="$plies" \
    -v s="$stored" -v r="$rss" -v r0="$rss0" -v sz="$size" -v sz0="$size0" -v cp="$cplies" -v sg="$scid_games" 'BEGIN {
	split(ti, I, " "); split(tb, B, " "); split(tv, V, " "); split(t0, O, " "); split(ts, S, " ")
	printf "import: %d games (%d stored), %d plies (%.1f per game); best of 3, wall (CPU user + sys)\n", g, s, p, p / g
	printf "import: kifu-import --quiet      %7.3f s (%6.3f)  %5.2f M plies/s  %6.0f bytes/game\n", I[1], I[2], p / I[1] / 1e6, sz / g
	if (O[1] > 0)
		printf "import: kifu-import, before      %7.3f s (%6.3f)  %5.2f M plies/s  %6.0f bytes/game  (after/before speed %.2fx)\n", O[1], O[2], p / O[1] / 1e6, sz0 / g, O[1] / I[1]
	printf "import: kifu-validate            %7.3f s (%6.3f)  %5.2f M plies/s  (import/validate wall %.2fx, target <= 1.5)\n", V[1], V[2], p / V[1] / 1e6, I[1] / V[1]
	printf "import: sqlite-insert-baseline   %7.3f s (%6.3f)  (baseline/import %.2f)\n", B[1], B[2], B[1] / I[1]
	if (S[1] > 0)
		printf "import: SCID tkscid, %d chess games %7.3f s (%6.3f)  %5.2f M plies/s (%d plies; kifu/SCID plies/s %.2f)\n", sg, S[1], S[2], cp / S[1] / 1e6, cp, (p / I[1]) / (cp / S[1])
	printf "import: peak RSS %.1f MB (target < 64)", r / 1024
	if (r0 > 0)
		printf "; before %.1f MB", r0 / 1024
	printf "\n"
}'
if [ "${KIFU_BENCH_1M:-0}" = 1 ]; then
	big=$out/games-1000000.yaml
	[ -f "$big" ] || "$out/gen-games" "$big" 1000000 60 || exit 3
	for tools in "$bin" ${before:+"$before"}; do
		db=$out/import-bench-1m.db
		t0=$(now)
		rss=$(peak "$tools" "$big")
		t1=$(now)
		size=$(stat -c %s "$db")
		n=$(count "$db")
		rm -f "$db" "$db-wal" "$db-shm"
		awk -v r="$rss" -v a="$t0" -v b="$t1" -v t="$tools" -v sz="$size" -v n="$n" 'BEGIN {
			printf "import: %s: 1000000 games (%d stored) in %.0f s (%.0f games/s), peak RSS %.1f MB, %.0f bytes/game\n",
				t, n, b - a, 1e6 / (b - a), r / 1024, sz / n }'
	done
fi
echo "import: load after: $(uptime)"
