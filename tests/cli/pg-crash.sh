#!/bin/sh
# kifu-import into PostgreSQL killed with SIGKILL at random moments, several
# times, then run to completion over the same archive (as import-crash.sh
# does for SQLite, with its archive and kill loop, tests/cli/lib/crash.sh):
# the database must hold exactly the games and quarantined records of one
# clean uninterrupted import into another database of the same server (the
# same rows in every table, the same games by kifu-export, each key once),
# answer position searches and reports as that one does, keep the
# provenance of every run, and have no session of the killed runs left
# holding locks. The delays are printed; CRASH_DELAYS="..." replays them.
# Its kill moments come from the time a clean run takes; it runs beside
# other tests all the same (a run that ends before its kill, the machine
# having become faster, is run again with half the delay: tests/cli/lib/crash.sh).
# tests/run: early (it is long)
# tests/run: plain (PostgreSQL's recovery from a killed writer (SIGKILL: no
#   sanitizer runs); resumed imports run under the sanitizers in pg-terminate.sh
#   and pg-faults.sh)
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/crash.sh
. tests/cli/lib/games.sh
ref=$(pg_createdb ref) || exit 1
games=${CRASH_GAMES:-1000}
imp=$bin/kifu-import

crash_archive "$tmp/arch" "$games" || fail "kifu-play"

# The reference: one clean import.
t0=$(crash_now)
"$imp" --quiet --db "$ref" "$tmp/arch" 2>"$tmp/ref.err"
rc=$?
t1=$(crash_now)
[ $rc -eq 1 ] || fail "clean import exited $rc, expected 1 (5 rejected): $(head -c 400 "$tmp/ref.err")"
ref_games=$(pg_psql ref -c 'SELECT count(*) FROM games')
[ "$ref_games" -ge $((games * 2 * 9 / 10)) ] || fail "only $ref_games games in the reference"
[ "$(pg_psql ref -c 'SELECT count(*) FROM quarantine')" = 5 ] || fail "reference quarantine"
span=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')

# The same archive into SQLite: a large import (SQLite's bulk mode) must leave the
# derived tables exactly as complete on PostgreSQL (which has no bulk mode).
"$imp" --quiet --db "$tmp/ref.sqlite" "$tmp/arch" 2>/dev/null
for t in positions_hash positions_canon tree_moves game_canon game_listing; do
	a=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' \
		"$tmp/ref.sqlite" "SELECT count(*) FROM $t")
	b=$(pg_psql ref -c "SELECT count(*) FROM $t")
	[ "$a" = "$b" ] || fail "$t: $b rows on PostgreSQL, $a on SQLite after the same import"
done

# Within the first 30% of the clean run: the resumed runs have less to do.
delays=$(crash_delays "$(awk -v s="$span" 'BEGIN { printf "%.3f", s * 0.6 }')")
echo "pg-crash.sh: clean import $span s; killing after $delays"
crash_runs "$delays" "$imp" --quiet --db "$db" "$tmp/arch"
[ "$crash_killed" -ge 2 ] || fail "only $crash_killed of the runs were still going when killed"
"$imp" --db "$db" --json "$tmp/arch" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "the completing run exited $rc, expected 1: $(head -c 400 "$tmp/err")"
python3 - "$tmp/out" "$ref_games" <<'PY' || fail "completing run's counts: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rejected"] == 5 and d["imported"] + d["duplicates"] == int(sys.argv[2]), d
PY

# Every table as in the clean import, whatever the backend keeps in it: the
# partitioned ones by their parent (game ids differ after kills, so rows
# fall in other partitions), and of the per-run bookkeeping (imports, files)
# only the distinct files.
pg_psql ref -c "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = current_schema() AND (c.relkind = 'p' OR (c.relkind = 'r' AND NOT c.relispartition))
	AND c.relname NOT IN ('imports', 'files') ORDER BY 1" >"$tmp/tables"
[ "$(grep -c . "$tmp/tables")" -ge 5 ] || fail "the reference has only these tables: $(cat "$tmp/tables")"
while read -r t; do
	a=$(pg_psql ref -c "SELECT count(*) FROM \"$t\"")
	b=$(pg_psql kifu -c "SELECT count(*) FROM \"$t\"")
	[ "$a" = "$b" ] || fail "$t: $b rows, $a in the clean import"
done <"$tmp/tables"
if [ "$(pg_psql ref -c "SELECT count(*) FROM pg_class WHERE relname = 'files'")" = 1 ]; then
	a=$(pg_psql ref -c 'SELECT count(DISTINCT path) FROM files')
	b=$(pg_psql kifu -c 'SELECT count(DISTINCT path) FROM files')
	[ "$a" = "$b" ] || fail "files: $b distinct, $a in the clean import"
fi
[ "$(pg_psql kifu -c 'SELECT count(*) - count(DISTINCT content_hash) FROM games')" = 0 ] ||
	fail "a content_hash twice"
games_digest "$ref" "$tmp/ref.digest" && games_digest "$db" "$tmp/db.digest" || fail "kifu-export"
cmp -s "$tmp/ref.digest" "$tmp/db.digest" || fail "the games differ from the clean import's"

# Position search and reports as on the clean import (ids aside).
for d in ref db; do
	eval "u=\$$d"
	for g in splay-schmidt splinter; do
		"$bin/kifu-stats" --db "$u" --game "$g" --format csv openings --depth 3 --by-position
		"$bin/kifu-stats" --db "$u" --game "$g" --format csv tree
		"$bin/kifu-search" --db "$u" --game "$g" --json | python3 -c '
import json, sys
print(sorted((r["date"], r["plies"], r["result"]) for r in json.load(sys.stdin)))'
	done >"$tmp/$d.reports" 2>&1
	"$bin/kifu-stats" --db "$u" --format csv summary >>"$tmp/$d.reports" 2>&1
	"$bin/kifu-search" --db "$u" --game splinter --after d4-c5 --json | python3 -c '
import json, sys
print(sorted((r["plies"], r["ply"]) for r in json.load(sys.stdin)))' >>"$tmp/$d.reports" 2>&1
done
cmp -s "$tmp/ref.reports" "$tmp/db.reports" ||
	fail "reports and searches differ from the clean import's: $(diff "$tmp/ref.reports" "$tmp/db.reports" | head -4)"

# Provenance: every run that got as far as starting is there, the last finished.
[ "$(pg_psql kifu -c 'SELECT count(*) FROM imports')" -ge 2 ] || fail "imports rows"
[ "$(pg_psql kifu -c 'SELECT count(*) FROM imports WHERE finished_at IS NOT NULL')" -ge 1 ] || fail "no finished import"
# The killed clients' sessions are gone (the server noticed the closed sockets).
# Waits for it (at most 60 s: a loaded server takes its time).
sessions_left() {
	left=$(pg_psql postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = '$(pg_dbname kifu)' AND pid <> pg_backend_pid()")
	[ "$left" = 0 ]
}
test_wait_for 60 sessions_left || fail "$left sessions of killed runs still open"

test_done "$crash_killed kills, $ref_games games"
