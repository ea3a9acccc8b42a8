#!/bin/sh
# kifu-import into PostgreSQL killed with SIGKILL at random moments, several
# times, then run to completion over the same archive (as import-crash.sh
# does for SQLite, with its archive and kill loop, tests/cli/lib/crash.sh):
# the database must hold exactly the games and quarantined records of one
# clean uninterrupted import into another database of the same server
# (kifu-check finds both whole with the same counts: every position indexed
# once, every kept sum its recount; the same games by kifu-export, each key
# once, the same quarantine),
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
# derived tables exactly as complete on PostgreSQL (which has no bulk mode):
# kifu-check finds both whole (every position of every game in the index and
# nothing else, every kept sum its recount) with the same counts.
"$imp" --quiet --db "$tmp/ref.sqlite" "$tmp/arch" 2>/dev/null
# (The tree's positions aside: which games they come from follows the ids, which kills change.)
whole() { # DB OUT: kifu-check's summary without the tree positions
	"$bin/kifu-check" --db "$1" >"$2.all" 2>&1
	_rc=$?
	sed 's/, [0-9]* tree positions,/,/' "$2.all" >"$2"
	return $_rc
}
whole "$tmp/ref.sqlite" "$tmp/check.sqlite" || fail "kifu-check of SQLite: $(head -c 400 "$tmp/check.sqlite")"
whole "$ref" "$tmp/check.ref" || fail "kifu-check of PostgreSQL: $(head -c 400 "$tmp/check.ref")"
cmp -s "$tmp/check.sqlite" "$tmp/check.ref" ||
	fail "kifu-check: $(cat "$tmp/check.ref") on PostgreSQL, $(cat "$tmp/check.sqlite") on SQLite after the same import"

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

# Nothing lost, nothing twice, whatever the backend keeps: kifu-check finds the
# database whole (every game replays, its positions are in the index and the
# index holds nothing else, every kept sum is its recount) with the clean
# import's counts; the quarantine (the public view) holds as many records.
whole "$db" "$tmp/check.db" || fail "kifu-check after the kills: $(head -c 400 "$tmp/check.db")"
cmp -s "$tmp/check.ref" "$tmp/check.db" ||
	fail "kifu-check: $(cat "$tmp/check.db") after the kills, $(cat "$tmp/check.ref") in the clean import"
[ "$(pg_psql ref -c 'SELECT count(*) FROM quarantine_list')" = "$(pg_psql kifu -c 'SELECT count(*) FROM quarantine_list')" ] ||
	fail "the quarantine differs from the clean import's"
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
