#!/bin/sh
# Statistics speed: kifu-stats and kifu-search on a database of 1,000,000
# generated games (KIFU_BENCH_GAMES=N for another size). The games are real
# legal play through the engines, shaped like an archive (bench/gen-stats.c:
# popular openings, resignations and agreed draws, 5000 players, dates over
# 25 years); they are imported once with kifu-import and the database is
# kept under build/bench/ (rebuilt only when missing: the 1M import takes
# minutes). Prints the time of the first report after the import (which
# brings the precomputed tables up to date), then the best of 3 wall-clock
# runs of summary, openings --depth 2, openings --depth 4 --by-position,
# players (targets: under 0.5 s each) and kifu-search --after of the most
# played 3-ply splay-schmidt line (target: under 50 ms), then kifu-stats tree
# and kifu-search --after, with and without --symmetric, at the start, after
# the most played 2- and 4-ply lines and after a rare line (one game, 4
# plies) (target: under 50 ms each), and the database size per game with
# what schema 5 added (the canonical hashes, their index, the tree counts
# and the listing rows) apart.
# KIFU_BENCH_DB=FILE keeps the database elsewhere (one per tools directory when
# comparing two builds: a read-only tool never migrates an older database).
# Usage: sh bench/stats.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
games=${KIFU_BENCH_GAMES:-1000000}
out=build/bench
lib=${KIFU_LIB:-build/default/libkifu.a}
mkdir -p "$out"
CC=${CC:-cc}
[ -f "$lib" ] || { echo "stats.sh: $lib missing: run make first" >&2; exit 3; }
cflags="-std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude"
libs=$(pkg-config --libs sqlite3 yaml-0.1 2>/dev/null || echo -lsqlite3 -lyaml)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
best() { # command... : "WALL CPU", the best wall-clock and CPU (user + sys) seconds of 3 runs
	python3 - "$@" <<'PY'
import os, subprocess, sys, time
wall = cpu = None
for _ in range(3):
    t0 = time.perf_counter()
    p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    w = time.perf_counter() - t0
    c = ru.ru_utime + ru.ru_stime
    wall = w if wall is None else min(wall, w)
    cpu = c if cpu is None else min(cpu, c)
print("%.4f %.4f" % (wall, cpu))
PY
}

db=${KIFU_BENCH_DB:-$out/stats-$games.db}
if [ ! -f "$db" ]; then
	file=$out/stats-games-$games.yaml
	if [ ! -f "$file" ]; then
		$CC $cflags bench/gen-stats.c "$lib" $libs -lm -o "$out/gen-stats" || exit 3
		echo "stats: generating $games games into $file"
		"$out/gen-stats" "$file.tmp" "$games" || exit 3
		mv "$file.tmp" "$file"
	fi
	echo "stats: importing $file"
	rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
	t0=$(now)
	/usr/bin/time -f '%M' -o "$out/stats-import-rss" "$bin/kifu-import" --quiet --db "$db.tmp" "$file" || exit 3
	t1=$(now)
	echo "stats: import took $(elapsed "$t0" "$t1") s, peak RSS $(awk '{ printf "%.1f", $1 / 1024 }' "$out/stats-import-rss") MB, $(stat -c %s "$db.tmp") bytes"
	mv "$db.tmp" "$db"
fi

# The first reports after an import bring the precomputed tables up to date.
fresh=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
try:
    n = c.execute("SELECT count(*) FROM stats_state WHERE last_id = (SELECT max(id) FROM games)").fetchone()[0]
except sqlite3.Error:
    n = 0
print(n)' "$db")
if [ "$fresh" != 3 ]; then
	for r in summary openings players; do
		t0=$(now)
		"$bin/kifu-stats" --db "$db" $r >/dev/null || exit 3
		t1=$(now)
		echo "stats: first $r after the import (tables brought up to date): $(elapsed "$t0" "$t1") s"
	done
fi

# Searches: the most played 3-ply splay-schmidt line (the worst case: its games
# must all be read and listed), and the line in the middle of the 3-ply lines
# ranked by games (a typical one).
"$bin/kifu-stats" --db "$db" --game splay-schmidt openings --depth 3 --format csv |
	awk -F, '$4 == 3 { print $3 }' | tr ' ' ',' >"$out/stats-lines"
line=$(head -1 "$out/stats-lines")
mid=$(sed -n "$(( ($(wc -l <"$out/stats-lines") + 1) / 2 ))p" "$out/stats-lines")
hits=$("$bin/kifu-search" --db "$db" --game splay-schmidt --after "$line" | tail -n +2 | wc -l)
mid_hits=$("$bin/kifu-search" --db "$db" --game splay-schmidt --after "$mid" | tail -n +2 | wc -l)

t_summary=$(best "$bin/kifu-stats" --db "$db" summary)
t_open2=$(best "$bin/kifu-stats" --db "$db" openings --depth 2)
t_open4=$(best "$bin/kifu-stats" --db "$db" openings --depth 4 --by-position)
t_players=$(best "$bin/kifu-stats" --db "$db" players)
t_search=$(best "$bin/kifu-search" --db "$db" --game splay-schmidt --after "$line")
t_mid=$(best "$bin/kifu-search" --db "$db" --game splay-schmidt --after "$mid")
# tree: the start and the most played 2-ply line (its first two moves).
line2=$(echo "$line" | cut -d, -f1-2)
t_tree0=$(best "$bin/kifu-stats" --db "$db" --game splay-schmidt tree)
t_tree2=$(best "$bin/kifu-stats" --db "$db" --game splay-schmidt tree --after "$line2")
rows2=$("$bin/kifu-stats" --db "$db" openings --depth 2 --format csv | tail -n +2 | wc -l)
rows4=$("$bin/kifu-stats" --db "$db" openings --depth 4 --by-position --format csv | tail -n +2 | wc -l)
nplayers=$("$bin/kifu-stats" --db "$db" players --format csv | tail -n +2 | wc -l)
size=$(stat -L -c %s "$db")
stats_size=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
try:
    print(c.execute("SELECT sum(pgsize) FROM dbstat WHERE name LIKE ?", ("stats%",)).fetchone()[0] or 0)
except sqlite3.Error:
    print(0)' "$db")
stored=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM games").fetchone()[0])' "$db")

# tree and search, with and without --symmetric: the start, the most played
# 2- and 4-ply lines, a rare line (the last 4-ply line: one game).
"$bin/kifu-stats" --db "$db" --game splay-schmidt openings --depth 4 --format csv |
	python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if r["plies"] in ("2", "4")]
for p in ("2", "4"):
    print(",".join(next(r for r in rows if r["plies"] == p)["line"].split(" ")))
print(",".join([r for r in rows if r["plies"] == "4"][-1]["line"].split(" ")))' >"$out/stats-tree-lines"
l2=$(sed -n 1p "$out/stats-tree-lines")
l4=$(sed -n 2p "$out/stats-tree-lines")
rare=$(sed -n 3p "$out/stats-tree-lines")
printf 'stats: %-28s %-10s %12s %12s %12s %12s\n' "position" "games" "tree" "tree --symm" "search" "search --symm"
for what in start l2 l4 rare; do
	case $what in
	start) after=; name="start" ;;
	l2) after=$l2; name="$l2 (most played)" ;;
	l4) after=$l4; name="$l4 (most played)" ;;
	rare) after=$rare; name="$rare (rare)" ;;
	esac
	set -- --db "$db" --game splay-schmidt
	n=$("$bin/kifu-search" "$@" --after "$after" | tail -n +2 | wc -l)
	t=$(best "$bin/kifu-stats" "$@" tree --after "$after")
	ts=$(best "$bin/kifu-stats" "$@" tree --after "$after" --symmetric)
	s1=$(best "$bin/kifu-search" "$@" --after "$after")
	s2=$(best "$bin/kifu-search" "$@" --after "$after" --symmetric)
	echo "$name|$n|$t|$ts|$s1|$s2" | awk -F'|' '
	function ms(x, a) { split(x, a, " "); return sprintf("%.0f ms (%.0f)", a[1] * 1000, a[2] * 1000) }
	{ printf "stats: %-28s %-10s %12s %12s %12s %12s\n", $1, $2, ms($3), ms($4), ms($5), ms($6) }'
done
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
g = c.execute("SELECT count(*) FROM games").fetchone()[0] or 1
size = c.execute("PRAGMA page_count").fetchone()[0] * c.execute("PRAGMA page_size").fetchone()[0]
names = ("game_canon", "positions_canon", "tree_moves", "game_listing")
try:
    part = dict(c.execute("SELECT name, sum(pgsize) FROM dbstat WHERE name IN (?, ?, ?, ?) "
                          "GROUP BY name", names).fetchall())
except sqlite3.Error:
    part = {}
added = sum(part.values())
print("stats: schema 5 added %.0f bytes/game (%s); without them %.0f bytes/game" % (
    added / g, ", ".join("%s %.0f" % (n, part.get(n, 0) / g) for n in names), (size - added) / g))' "$db"
awk -v g="$stored" -v a="$t_summary" -v b="$t_open2" -v c="$t_open4" -v d="$t_players" \
    -v e="$t_search" -v f="$t_mid" -v r2="$rows2" -v r4="$rows4" -v np="$nplayers" \
    -v line="$line" -v mid="$mid" -v hits="$hits" -v mhits="$mid_hits" -v size="$size" \
    -v ss="$stats_size" -v t0="$t_tree0" -v t2="$t_tree2" -v line2="$line2" 'BEGIN {
	printf "stats: %d games stored; best of 3 runs: wall-clock (CPU user + sys)\n", g
	split(a, A, " "); split(b, B, " "); split(c, C, " "); split(d, D, " ")
	split(e, E, " "); split(f, F, " "); split(t0, T0, " "); split(t2, T2, " ")
	printf "stats: summary                           %.3f s (%.3f) target < 0.5\n", A[1], A[2]
	printf "stats: openings --depth 2                %.3f s (%.3f) target < 0.5, %d rows\n", B[1], B[2], r2
	printf "stats: openings --depth 4 --by-position  %.3f s (%.3f) target < 0.5, %d rows\n", C[1], C[2], r4
	printf "stats: players                           %.3f s (%.3f) target < 0.5, %d players\n", D[1], D[2], np
	printf "stats: kifu-search --after %s (most played) %.0f ms (%.0f) target < 50, %d games\n", line, E[1] * 1000, E[2] * 1000, hits
	printf "stats: kifu-search --after %s (median line) %.0f ms (%.0f) target < 50, %d games\n", mid, F[1] * 1000, F[2] * 1000, mhits
	printf "stats: tree (start)                      %.0f ms (%.0f) target < 50\n", T0[1] * 1000, T0[2] * 1000
	printf "stats: tree --after %s (most played)  %.0f ms (%.0f) target < 50\n", line2, T2[1] * 1000, T2[2] * 1000
	printf "stats: database %.0f MB, %.0f bytes/game (precomputed tables %.1f MB, %.0f bytes/game)\n",
		size / 1e6, size / g, ss / 1e6, ss / g
}'
