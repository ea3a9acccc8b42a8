#!/bin/sh
# PostgreSQL against SQLite (issue 13), on a throwaway PostgreSQL server
# (tests/pg/server.sh: a Unix socket in a temporary directory, removed at
# the end) run with PostgreSQL's production durability here: fsync,
# synchronous_commit and full_page_writes on (the tests turn them off), and
# shared_buffers 256 MB. Figures, wall-clock, best of 3 (of KIFU_BENCH_RUNS for
# the 100,000-game imports, which take minutes on PostgreSQL):
#  - kifu-import --quiet of the same 100,000 generated games (bench/gen-games.c,
#    the file bench/import.sh uses; BENCH_GAMES=N for another size) into a new
#    SQLite file, into a new PostgreSQL database, and into a new PostgreSQL
#    database by 2 kifu-import processes at once, each importing half the
#    games (the stream cut in two files): games/s; and for the last
#    single-importer run, the server's commits and WAL flushes (fsyncs) per game;
#  - on 1,000,000 games of bench/stats.sh's generator (bench/gen-stats.c;
#    KIFU_BENCH_GAMES=N for another size), imported once into each backend
#    (the SQLite file is bench/stats.sh's, built here when missing): the
#    import time, the first kifu-stats summary/openings/players after it
#    (which bring the precomputed tables up to date), then summary, openings
#    --depth 2, openings --depth 4 --by-position, players, and the worst
#    kifu-search: --after the most played 3-ply splay-schmidt line (all its
#    games listed). KIFU_BENCH_GAMES=0 skips this part.
# The machine's load (uptime) is printed before and after. PostgreSQL's own
# CPU is not in the CPU figures (they are the client's: user + sys).
# Usage: sh bench/pg.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
games=${BENCH_GAMES:-100000}
big=${KIFU_BENCH_GAMES:-1000000}
runs=${KIFU_BENCH_RUNS:-3}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "pg.sh: $lib missing: run make first" >&2; exit 3; }
. tests/pg/server.sh
if [ -z "$(pg_bindir)" ]; then
	sh build-aux/ensure-packages postgresql-15 || exit 3
fi
pg_require pg.sh || exit 3

cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 libarchive jansson libpq 2>/dev/null ||
	echo -lsqlite3 -lyaml -larchive -ljansson -lpq)
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# best PREPARE CMD...: "WALL CPU", the best wall-clock seconds of $best_runs
# (else $runs) runs
# of CMD (a shell command line), PREPARE (a shell command line) run before
# each, and the client CPU seconds of that run. Fails when CMD fails.
best() {
	python3 - "${best_runs:-$runs}" "$@" <<'PY'
import os, subprocess, sys, time
runs, prepare, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
wall = cpu = None
for _ in range(runs):
    subprocess.run(["sh", "-c", prepare], check=True, stdout=subprocess.DEVNULL)
    t0 = time.perf_counter()
    p = subprocess.Popen(["sh", "-c", cmd], stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    w = time.perf_counter() - t0
    if status != 0:
        sys.exit("pg.sh: %s: exit status %d" % (cmd, status))
    c = ru.ru_utime + ru.ru_stime
    if wall is None or w < wall:
        wall, cpu = w, c
print("%.4f %.4f" % (wall, cpu))
PY
}

echo "pg: load before: $(uptime)"
PG_CONF="fsync = on
synchronous_commit = on
full_page_writes = on
shared_buffers = 256MB
max_wal_size = 4GB
checkpoint_timeout = 15min"
pg_start || exit 3
echo "pg: $("$PG_BIN/postgres" --version), Unix socket, fsync on, shared_buffers 256MB"
# Every benchmark's database is dropped and made again by fresh_pg NAME.
export PG_DIR PG_BIN
fresh_pg="psql -X -q -v ON_ERROR_STOP=1 'postgresql://kifu@/postgres?host=$PG_DIR'"
fresh_pg() { echo "$PG_BIN/$fresh_pg -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS $1' -c 'CREATE DATABASE $1' -c \"SELECT pg_stat_reset_shared('wal')\""; }

# ---- Import: the same games into SQLite and PostgreSQL, 1 and 2 importers.
$CC $cflags bench/gen-games.c "$lib" $libs -lm -o "$out/gen-games" || exit 3
file=$out/games-$games.yaml
[ -f "$file" ] || "$out/gen-games" "$file" "$games" 60 || exit 3
# The two halves: the first games/2 documents, and the rest.
awk -v h=$((games / 2)) -v a="$out/pg-half-1.yaml" -v b="$out/pg-half-2.yaml" '
	/^---$/ { n++ } { print > (n <= h ? a : b) }' "$file"
lite=$out/pg-bench.db
t_lite=$(best "rm -f '$lite' '$lite-wal' '$lite-shm'" "'$bin/kifu-import' --quiet --db '$lite' '$file'") || exit 3
stored_lite=$("$bin/kifu-search" --db "$lite" --json | grep -c '"id"')
rm -f "$lite" "$lite-wal" "$lite-shm"
u1=$(pg_uri one)
t_pg1=$(best "$(fresh_pg one)" "'$bin/kifu-import' --quiet --db '$u1' '$file'") || exit 3
stored_pg1=$(pg_psql one -c 'SELECT count(*) FROM games')
# What the server did for the last of those imports: its commits and WAL flushes (fsyncs).
server_pg1=$(pg_psql one -c "SELECT d.xact_commit || ' ' || w.wal_sync FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()")
size_pg1=$(pg_psql one -c 'SELECT pg_database_size(current_database())')
u2=$(pg_uri two)
t_pg2=$(best "$(fresh_pg two)" "'$bin/kifu-import' --quiet --db '$u2' '$out/pg-half-1.yaml' &
	a=\$!; '$bin/kifu-import' --quiet --db '$u2' '$out/pg-half-2.yaml' || exit 1; wait \$a") || exit 3
stored_pg2=$(pg_psql two -c 'SELECT count(*) FROM games')
pg_psql postgres -c 'DROP DATABASE one' -c 'DROP DATABASE two'
rm -f "$out/pg-half-1.yaml" "$out/pg-half-2.yaml"
awk -v g="$games" -v l="$t_lite" -v a="$t_pg1" -v b="$t_pg2" -v sl="$stored_lite" -v s1="$stored_pg1" \
    -v s2="$stored_pg2" -v sz="$size_pg1" -v r="$runs" -v sv="$server_pg1" 'BEGIN {
	split(l, L, " "); split(a, A, " "); split(b, B, " ")
	printf "pg: kifu-import of %d games, best of %d: wall (client CPU user + sys)\n", g, r
	printf "pg:   SQLite                          %8.2f s (%7.2f) %7.0f games/s  (%d stored)\n", L[1], L[2], g / L[1], sl
	printf "pg:   PostgreSQL, 1 importer          %8.2f s (%7.2f) %7.0f games/s  (%d stored, %.0f bytes/game)\n", A[1], A[2], g / A[1], s1, sz / g
	split(sv, S, " ")
	printf "pg:     (server, last run: %d commits, %d WAL flushes: %.3f and %.3f per game)\n", S[1], S[2], S[1] / g, S[2] / g
	printf "pg:   PostgreSQL, 2 importers at once %8.2f s (%7.2f) %7.0f games/s  (%d stored; %.2fx 1 importer)\n", B[1], B[2], g / B[1], s2, A[1] / B[1]
}'

# ---- Reports and search on $big games, both backends.
if [ "$big" = 0 ]; then
	echo "pg: load after: $(uptime)"
	exit 0
fi
lite=${KIFU_BENCH_DB:-$out/stats-$big.db}
bigfile=$out/stats-games-$big.yaml
if [ ! -f "$bigfile" ]; then
	$CC $cflags bench/gen-stats.c "$lib" $libs -lm -o "$out/gen-stats" || exit 3
	echo "pg: generating $big games into $bigfile"
	"$out/gen-stats" "$bigfile.tmp" "$big" || exit 3
	mv "$bigfile.tmp" "$bigfile"
fi
if [ ! -f "$lite" ]; then
	rm -f "$lite.tmp" "$lite.tmp-wal" "$lite.tmp-shm"
	t0=$(now)
	"$bin/kifu-import" --quiet --db "$lite.tmp" "$bigfile" || exit 3
	t1=$(now)
	echo "pg: $big games imported into SQLite in $(elapsed "$t0" "$t1") s"
	mv "$lite.tmp" "$lite"
fi
pg_psql postgres -c 'CREATE DATABASE big'
big_uri=$(pg_uri big)
t0=$(now)
"$bin/kifu-import" --quiet --db "$big_uri" "$bigfile" || exit 3
t1=$(now)
echo "pg: $big games imported into PostgreSQL in $(elapsed "$t0" "$t1") s ($(awk -v n="$big" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", n / (b - a) }') games/s), $(pg_psql big -c 'SELECT pg_size_pretty(pg_database_size(current_database()))')"
for r in summary openings players; do
	for d in "$lite" "$big_uri"; do
		t0=$(now)
		"$bin/kifu-stats" --db "$d" $r >/dev/null || exit 3
		t1=$(now)
		case $d in postgres*) echo "pg: first $r after the import: SQLite $tl s, PostgreSQL $(elapsed "$t0" "$t1") s" ;;
		*) tl=$(elapsed "$t0" "$t1") ;; esac
	done
done
line=$("$bin/kifu-stats" --db "$lite" --game splay-schmidt openings --depth 3 --format csv |
	awk -F, '$4 == 3 { print $3; exit }' | tr ' ' ',')
hits=$("$bin/kifu-search" --db "$lite" --game splay-schmidt --after "$line" | tail -n +2 | wc -l)
hits_pg=$("$bin/kifu-search" --db "$big_uri" --game splay-schmidt --after "$line" | tail -n +2 | wc -l)
[ "$hits" = "$hits_pg" ] || echo "pg: kifu-search --after $line: $hits games on SQLite, $hits_pg on PostgreSQL"
best_runs=3
echo "pg: $big games, best of 3: wall (client CPU)            SQLite              PostgreSQL"
for q in "kifu-stats summary" "kifu-stats openings --depth 2" "kifu-stats openings --depth 4 --by-position" \
	"kifu-stats players" "kifu-search --game splay-schmidt --after $line"; do
	tool=${q%% *}
	args=${q#* }
	a=$(best true "'$bin/$tool' --db '$lite' $args") || exit 3
	b=$(best true "'$bin/$tool' --db '$big_uri' $args") || exit 3
	awk -v q="$q" -v a="$a" -v b="$b" 'BEGIN { split(a, A, " "); split(b, B, " ")
		printf "pg:   %-50s %7.3f s (%6.3f)  %7.3f s (%6.3f)\n", q, A[1], A[2], B[1], B[2] }'
done
echo "pg: (kifu-search lists $hits games)"
echo "pg: load after: $(uptime)"
