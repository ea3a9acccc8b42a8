#!/bin/sh
# kifu-serve under load: wrk (Debian package wrk) against /api/tree, the
# explorer's question, cycling through 1,000 different positions (the start
# and the most played lines of 1 to 6 plies of every game and variant, from
# kifu-stats openings --depth 6: not one address that a cache answers), on
# the database of bench/stats.sh (generated games, KIFU_BENCH_GAMES, default
# 1,000,000; built and kept under build/bench/ when missing). Prints
# requests per second and the p50/p99 latency at 8 and at 32 connections
# (20 s each, after a 10 s warm-up), then three 60 s runs at 8
# connections with the server's RSS sampled every 5 s over the first
# (anonymous memory apart from the pages of the database file each
# connection maps), then the explorer page's time at the start of every
# game and variant (targets: p99 under 50 ms at 8 connections on 1,000,000
# games on SQLite in each 60 s run, memory flat, the explorer page under
# 100 ms). KIFU_BENCH_DB=URI
# serves another database (a PostgreSQL one); KIFU_SERVE_THREADS (4).
# Usage: sh bench/serve.sh [TOOLS_DIR]   (run from the repo root)
set -u
bin=${1:-bin}
games=${KIFU_BENCH_GAMES:-1000000}
out=build/bench
threads=${KIFU_SERVE_THREADS:-4}
mkdir -p "$out"
command -v wrk >/dev/null 2>&1 || { echo "serve.sh: wrk is not installed (Debian package wrk)" >&2; exit 3; }
db=${KIFU_BENCH_DB:-$out/stats-$games.db}
case $db in
postgres*) ;;
*)
	# The games of bench/stats.sh (bench/gen-stats.c), generated and imported when missing.
	if [ ! -f "$db" ]; then
		file=$out/stats-games-$games.yaml
		if [ ! -f "$file" ]; then
			${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude bench/gen-stats.c \
				build/default/libkifu.a $(pkg-config --libs sqlite3 yaml-0.1) -lm \
				-o "$out/gen-stats" || exit 3
			"$out/gen-stats" "$file.tmp" "$games" || exit 3
			mv "$file.tmp" "$file"
		fi
		rm -f "$db.tmp" "$db.tmp-wal" "$db.tmp-shm"
		"$bin/kifu-import" --quiet --db "$db.tmp" "$file" >/dev/null || exit 3
		mv "$db.tmp" "$db"
	fi
	# kifu-serve never writes: the precomputed tables are brought up to date first.
	for r in summary openings players; do
		"$bin/kifu-stats" --db "$db" "$r" >/dev/null || exit 3
	done
	"$bin/kifu-stats" --db "$db" --game splay-schmidt tree >/dev/null || exit 3
	;;
esac

# Candidate positions: per game and variant the start, then the most played lines (any length to 6).
cands=$out/serve-candidates-$games.txt
if [ ! -s "$cands" ]; then
	"$bin/kifu-stats" --db "$db" openings --depth 6 --format json >"$out/serve-openings-$games.json" || exit 3
	python3 - "$out/serve-openings-$games.json" >"$cands" <<'PY' || exit 3
import json, sys, urllib.parse
rows = json.load(open(sys.argv[1]))["rows"]
starts, lines = set(), []
for r in rows:
    starts.add((r["game"], r["variant"]))
    lines.append((r["games"], r["game"], r["variant"], ",".join(r["moves"])))
out = [(g, v, "") for g, v in sorted(starts)]
for n, g, v, a in sorted(lines, key=lambda x: (-x[0], x[1], x[2], x[3])):
    if len(out) == 2000:
        break
    out.append((g, v, a))
for g, v, a in out:
    print("/api/tree?" + urllib.parse.urlencode({"game": g, "variant": v, "after": a}))
PY
fi

cat >"$out/serve-cycle.lua" <<'EOF2'
-- Each thread cycles through the positions from its own starting point.
local paths = {}
local i = 0
init = function(args)
	for line in io.lines(os.getenv("KIFU_SERVE_PATHS")) do paths[#paths + 1] = line end
	i = math.random(#paths)
end
request = function()
	i = i % #paths + 1
	return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
	io.write(string.format("RESULT rps %.1f p50 %.2f ms p99 %.2f ms max %.2f ms errors %d non2xx %d\n",
		summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
		latency:percentile(99) / 1000, latency.max / 1000,
		summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
		summary.errors.status))
end
EOF2

"$bin/kifu-serve" --db "$db" --listen 127.0.0.1:0 --threads "$threads" --quiet >"$out/serve.out" 2>"$out/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT INT TERM
i=0
until grep -q '^serving ' "$out/serve.out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 600 ] || { echo "serve.sh: kifu-serve did not start: $(cat "$out/serve.err")" >&2; exit 3; }
	sleep 0.1
done
url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$out/serve.out")
url=${url%/}
# The first 1,000 candidates the server answers with 200 (a line whose games
# start with another side than the game's first is no tree from the start),
# each asked once: the warm-up.
paths=$out/serve-paths-$games.txt
python3 - "$url" "$cands" >"$paths" <<'PY' || exit 3
import sys, urllib.error, urllib.request
url, kept = sys.argv[1], 0
for line in open(sys.argv[2]):
    try:
        urllib.request.urlopen(url + line.strip(), timeout=60).read()
    except urllib.error.HTTPError:
        continue
    print(line.strip())
    kept += 1
    if kept == 1000:
        break
PY
export KIFU_SERVE_PATHS="$(pwd)/$paths"
# Anonymous memory (the server's own) apart from the mapped database file's pages.
rss() { awk '/^RssAnon/ { a = $2 } /^RssFile/ { f = $2 } END { printf "%.1f+%.1f", a / 1024, f / 1024 }' /proc/$pid/status; }
echo "serve: $(wc -l <"$paths") positions, $games games, $threads threads; load: $(uptime | sed 's/.*load/load/')"
echo "serve: RSS (anonymous+file MB) after asking each position once $(rss)"
wrk -t 2 -c 8 -d 10s -s "$out/serve-cycle.lua" "$url" >/dev/null
echo "serve: RSS after a 10 s warm-up $(rss)"
for c in 8 32; do
	echo "serve: $c connections, 20 s: $(wrk -t 2 -c $c -d 20s --timeout 10s -s "$out/serve-cycle.lua" "$url" | sed -n 's/^RESULT //p')"
done
# Three 60 s runs at 8 connections (the target holds in each), the RSS
# sampled every 5 s over the first.
for run in 1 2 3; do
	wrk -t 2 -c 8 -d 60s --timeout 10s -s "$out/serve-cycle.lua" "$url" >"$out/serve-60.txt" &
	w=$!
	samples=""
	if [ $run -eq 1 ]; then
		for t in 0 5 10 15 20 25 30 35 40 45 50 55 60; do
			samples="$samples $(rss)"
			[ $t -lt 60 ] && sleep 5
		done
	fi
	wait $w
	echo "serve: 8 connections, 60 s, run $run: $(sed -n 's/^RESULT //p' "$out/serve-60.txt")"
	[ -n "$samples" ] && echo "serve: RSS (anonymous+file MB) every 5 s over the 60 s run:$samples"
done
# The explorer page (what a browser asks for, the move table and the board
# drawn) at the start of each game and variant, the most crowded positions:
# each asked 20 times one after another, the median and slowest.
python3 - "$url" "$cands" <<'PY' || exit 3
import sys, time, urllib.parse, urllib.request
url, starts = sys.argv[1], []
for line in open(sys.argv[2]):
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(line.strip()).query, keep_blank_values=True)
    if q.get("after", [""])[0] == "":
        starts.append((q["game"][0], q["variant"][0]))
for g, v in starts:
    page = "%s/explore/%s/%s" % (url, g, v)
    times, size = [], 0
    for _ in range(20):
        t = time.perf_counter()
        size = len(urllib.request.urlopen(page, timeout=60).read())
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print("serve: explorer page /explore/%s/%s: median %.1f ms, slowest %.1f ms (%d bytes)" %
          (g, v, times[len(times) // 2], times[-1], size))
PY
