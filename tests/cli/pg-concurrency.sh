#!/bin/sh
# Many writers at once on one PostgreSQL database (issue 13): 4 `kifu-play
# --db` processes (two of them with the same seed: the same games) and 2
# kifu-import processes whose inputs overlap (shared files read in opposite
# orders, the same invalid record in both, games kifu-play also plays) run
# at the same time, while readers (kifu-stats summary, kifu-search) run in
# a loop. Then: every writer succeeded; their summaries add up (imported +
# duplicates = records read; the imported sum = the games stored); the
# database holds exactly the games of the same inputs imported one after
# another into SQLite, each once (kifu-export of every game, sorted, equal;
# no duplicate key); the quarantine holds what SQLite's does; every reader
# run succeeded and never saw the number of games go down. And four writers
# that find an empty database at once all succeed (one creates the schema).
# tests/run: early (it is long)
# tests/run: plain (PostgreSQL's locks between many writers; the backend runs
#   under the sanitizers in the other pg-*.sh tests)
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/games.sh
n=${PG_CONCURRENCY_GAMES:-300}


# Importer inputs: f1..f8, a stream each; A reads f1..f6 and the invalid
# record, B reads f8..f4 (names sorting in reverse) and the same invalid
# record, and f9, the games kifu-play --seed 32 plays below.
players() { # GAME: a random player per side
	case $1 in splinter-quad) echo random,random,random,random ;; *) echo random,random ;; esac
}
mkdir -p "$tmp/in" "$tmp/A" "$tmp/B"
k=0
for g in splay-schmidt splinter glaisher splay-kisenwether splay-schmidt splinter glaisher splinter-quad; do
	k=$((k + 1))
	"$bin/kifu-play" "$g" --players "$(players $g)" --games "$n" --seed $((20 + k)) --max-plies 50 --quiet \
		>"$tmp/in/f$k.yaml" 2>/dev/null || fail "kifu-play $g"
done
"$bin/kifu-play" glaisher --players random,random --games "$n" --seed 32 --max-plies 50 --quiet \
	>"$tmp/in/f9.yaml" 2>/dev/null || fail "kifu-play glaisher"
printf -- 'game: splinter\nevent: "bad \\"one\\""\nmoves: [z9-z8]\n' >"$tmp/in/bad.yaml"
for k in 1 2 3 4 5 6; do cp "$tmp/in/f$k.yaml" "$tmp/A/a$k.yaml"; done
for k in 8 7 6 5 4; do cp "$tmp/in/f$k.yaml" "$tmp/B/b$((9 - k)).yaml"; done
cp "$tmp/in/f9.yaml" "$tmp/B/b9.yaml"
cp "$tmp/in/bad.yaml" "$tmp/A/bad.yaml"
cp "$tmp/in/bad.yaml" "$tmp/B/bad.yaml"
"$bin/kifu-play" splinter --variant survival --players random,random --games 5 --seed 99 --quiet \
	>"$tmp/first.yaml" 2>/dev/null

# The reference: the same inputs, one after another, into SQLite.
ref=$tmp/ref.db
for p in first.yaml A B; do
	"$bin/kifu-import" --quiet --db "$ref" "$tmp/$p" >/dev/null 2>&1
done
play_args() { # SEED: the kifu-play arguments of each player process
	case $1 in
	31) echo "splinter --players random,random --games $n --seed 31 --max-plies 50" ;;
	32) echo "glaisher --players random,random --games $n --seed 32 --max-plies 50" ;;
	33) echo "splay-schmidt --players random,random --games $n --seed 33 --max-plies 50" ;;
	esac
}
for s in 31 32 33; do
	# shellcheck disable=SC2046
	"$bin/kifu-play" $(play_args $s) --quiet >"$tmp/play$s.yaml" 2>/dev/null
	"$bin/kifu-import" --quiet --db "$ref" "$tmp/play$s.yaml" >/dev/null 2>&1
done
games_digest "$ref" "$tmp/ref.digest" || fail "the reference's games"
want=$(grep -c '^---$' "$tmp/ref.digest")

# A few games first, so that the readers find a database.
"$bin/kifu-import" --json --db "$db" "$tmp/first.yaml" >"$tmp/first.json" || fail "kifu-import of the first games"

# Readers in a loop until the writers are done.
touch "$tmp/running"
(
	while [ -f "$tmp/running" ]; do
		"$bin/kifu-stats" --db "$db" --format json summary >"$tmp/r.json" 2>"$tmp/r.err"
		echo "stats $? $(python3 -c 'import json, sys; print(sum(r["games"] for r in json.load(open(sys.argv[1]))["rows"]))' "$tmp/r.json" 2>/dev/null)"
		"$bin/kifu-search" --db "$db" --json >"$tmp/s.json" 2>"$tmp/s.err"
		echo "search $? $(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/s.json" 2>/dev/null)"
		[ -s "$tmp/r.err" ] && sed 's/^/stats: /' "$tmp/r.err" >&2
		[ -s "$tmp/s.err" ] && sed 's/^/search: /' "$tmp/s.err" >&2
	done
) >"$tmp/readers" 2>"$tmp/readers.err" &
readers=$!

# The writers, all at once.
"$bin/kifu-import" --json --db "$db" "$tmp/A" >"$tmp/impA" 2>"$tmp/impA.err" &
p1=$!
"$bin/kifu-import" --json --db "$db" "$tmp/B" >"$tmp/impB" 2>"$tmp/impB.err" &
p2=$!
pids=""
k=0
for s in 31 32 33 31; do
	# shellcheck disable=SC2046
	k=$((k + 1))
	"$bin/kifu-play" $(play_args $s) --db "$db" 2>"$tmp/play-$k.err" >/dev/null &
	pids="$pids $!"
done
wait $p1
rc1=$?
wait $p2
rc2=$?
[ $rc1 -eq 1 ] || fail "kifu-import A exited $rc1, expected 1 (one rejected): $(head -c 600 "$tmp/impA.err")"
[ $rc2 -eq 1 ] || fail "kifu-import B exited $rc2, expected 1 (one rejected): $(head -c 600 "$tmp/impB.err")"
for p in $pids; do
	wait "$p" || fail "a kifu-play --db exited $?: $(cat "$tmp"/play-*.err | head -c 600)"
done
# The readers' first round may still be going on a loaded machine: wait
# for it (at most 300 s) before telling them to stop.
reader_round() { [ "$(grep -c . "$tmp/readers")" -ge 2 ]; }
test_wait_for 300 reader_round
rm "$tmp/running"
wait $readers

# The summaries add up.
python3 - "$tmp" "$want" "$n" <<'PY' || fail "the writers' summaries do not add up"
import json, sys
tmp, want, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = json.load(open(tmp + "/impA"))
b = json.load(open(tmp + "/impB"))
records = lambda d: sum(open("%s/%s" % (tmp, f)).read().count("---\n") for f in d)
ra = records(["in/f%d.yaml" % k for k in range(1, 7)])
rb = records(["in/f%d.yaml" % k for k in (4, 5, 6, 7, 8, 9)])
assert a["rejected"] == 1 and b["rejected"] == 1, (a, b)
assert a["imported"] + a["duplicates"] == ra, (a, ra)
assert b["imported"] + b["duplicates"] == rb, (b, rb)
# kifu-play: "stored S in 'DB', duplicates D" on stderr, S + D = n each.
import glob, re
stored = 0
plays = glob.glob(tmp + "/play-*.err")
assert len(plays) == 4, plays
for f in plays:
    m = re.search(r"stored (\d+) in .*, duplicates (\d+)", open(f).read())
    assert m and int(m.group(1)) + int(m.group(2)) == n, (f, open(f).read())
    stored += int(m.group(1))
total = json.load(open(tmp + "/first.json"))["imported"] + a["imported"] + b["imported"] + stored
assert total == want, "imported %d + %d, played and stored %d: %d, %d games expected" % (
    a["imported"], b["imported"], stored, total, want)
PY
games_digest "$db" "$tmp/pg.digest" || fail "kifu-export of the PostgreSQL games"
got=$(grep -c '^---$' "$tmp/pg.digest")
[ "$got" = "$want" ] || fail "$got games stored, $want expected"
cmp -s "$tmp/ref.digest" "$tmp/pg.digest" ||
	fail "the games differ from the same inputs imported into SQLite: $(diff "$tmp/ref.digest" "$tmp/pg.digest" | head -5)"
[ "$(pg_psql kifu -c 'SELECT count(*) - count(DISTINCT content_hash) FROM games' 2>&1)" = 0 ] ||
	fail "duplicate content_hash in games"
qref=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM quarantine").fetchone()[0])' "$ref")
qpg=$(pg_psql kifu -c 'SELECT count(*) FROM quarantine' 2>&1)
[ "$qpg" = "$qref" ] || fail "quarantine holds $qpg records, $qref in SQLite"

# First use: writers that all find the database empty at once (one creates
# the schema, the others wait for it and use it), ten times.
for r in 1 2 3 4 5 6 7 8 9 10; do
	u=$(pg_createdb "first$r") || exit 1
	pids=""
	for m in 1 2 3; do
		"$bin/kifu-play" splinter --players random,random --games 2 --seed $m --db "$u" --quiet 2>"$tmp/first.$m.err" &
		pids="$pids $!"
	done
	"$bin/kifu-import" --quiet --db "$u" "$tmp/first.yaml" 2>"$tmp/first.4.err" &
	pids="$pids $!"
	for p in $pids; do
		wait "$p" || { fail "writers on an empty database at once, round $r: $(cat "$tmp"/first.*.err | head -c 300)"; break 2; }
	done
done

# The readers never failed, and the games they saw never went down.
awk '$2 != 0 { bad++ } $1 == "stats" && $3 != "" { if ($3 < last) down++; last = $3 }
	END { exit (bad || down) ? 1 : 0 }' "$tmp/readers" ||
	fail "readers failed or went back: $(grep -v ' 0 ' "$tmp/readers" | head -3) $(head -c 400 "$tmp/readers.err")"
runs=$(grep -c . "$tmp/readers")
[ "$runs" -ge 2 ] || fail "the readers ran only $runs times"

test_done "$got games, $runs reader runs"
