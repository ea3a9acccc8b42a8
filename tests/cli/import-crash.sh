#!/bin/sh
# kifu-import killed with SIGKILL at random moments, several times, then run
# to completion over the same archive: the database must pass
# PRAGMA integrity_check and foreign_key_check, have its search indexes
# back, and hold exactly the games and quarantined records of one clean
# uninterrupted import (same duplicate keys, nothing lost, nothing twice).
# The archive: a few thousand games played by kifu-play's random players in
# two games, plus a handful of invalid records. The delays are drawn at
# random and printed, so that a failure can be replayed (CRASH_DELAYS="...").
# Its kill moments come from the time a clean run takes; it runs beside
# other tests all the same (a run that ends before its kill, the machine
# having become faster, is run again with half the delay: tests/cli/lib/crash.sh).
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/crash.sh
imp=$bin/kifu-import
games=${CRASH_GAMES:-2000}

q() {
	python3 - "$1" "$2" <<'PY'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
sys.stdout.write("".join("|".join("" if v is None else str(v) for v in r) + "\n" for r in rows))
PY
}

# The archive: one stream per game, invalid records in between.
crash_archive "$tmp/arch" "$games" || fail "kifu-play"

# The reference: one clean import.
t0=$(crash_now)
"$imp" --quiet --db "$tmp/ref.db" "$tmp/arch" 2>/dev/null
rc=$?
t1=$(crash_now)
[ $rc -eq 1 ] || fail "clean import exited $rc, expected 1 (5 rejected)"
ref_games=$(q "$tmp/ref.db" 'SELECT count(*) FROM games')
[ "$ref_games" -ge $((games * 2 * 9 / 10)) ] || fail "only $ref_games games in the reference"
[ "$(q "$tmp/ref.db" 'SELECT count(*) FROM quarantine')" = 5 ] || fail "reference quarantine"
span=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')

# Kill at random moments within the clean run's duration, resuming each time.
delays=$(crash_delays "$span")
echo "import-crash.sh: clean import $span s; killing after $delays"
crash_runs "$delays" "$imp" --quiet --db "$tmp/crash.db" "$tmp/arch"
killed=$crash_killed
[ "$killed" -ge 2 ] || fail "only $killed of the runs were still going when killed"
"$imp" --db "$tmp/crash.db" --json "$tmp/arch" >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 1 ] || fail "the completing run exited $rc, expected 1"
python3 - "$tmp/out" "$ref_games" <<'PY' || fail "completing run's counts: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rejected"] == 5 and d["imported"] + d["duplicates"] == int(sys.argv[2]), d
PY

db=$tmp/crash.db
[ "$(q "$db" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q "$db" 'PRAGMA integrity_check' | head -3)"
[ -z "$(q "$db" 'PRAGMA foreign_key_check')" ] || fail "foreign_key_check fails"
[ "$(q "$db" 'SELECT count(*) FROM deferred_indexes')" = 0 ] || fail "indexes left deferred"
[ "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name IN ('positions_hash', 'sides_player', 'games_date')")" = 3 ] ||
	fail "search indexes missing"
for t in games moves positions sides figures quarantine quarantine_diags; do
	a=$(q "$tmp/ref.db" "SELECT count(*) FROM $t")
	b=$(q "$db" "SELECT count(*) FROM $t")
	[ "$a" = "$b" ] || fail "$t: $b rows, $a in the clean import"
done
# The same games: the same duplicate keys, each once, with the same moves.
python3 - "$tmp/ref.db" "$db" <<'PY' || fail "the games differ from the clean import's"
import sqlite3, sys
def games(path):
    c = sqlite3.connect(path)
    keys = [r[0] for r in c.execute("SELECT content_hash FROM games")]
    assert len(keys) == len(set(keys))
    return {k: (g, p, m) for k, g, p, m in c.execute(
        "SELECT content_hash, game, plies, (SELECT group_concat(move, ' ') FROM "
        "(SELECT move FROM moves WHERE game_id = g.id ORDER BY ply)) FROM games g")}
a, b = games(sys.argv[1]), games(sys.argv[2])
assert a == b, (len(a), len(b))
PY
[ "$(q "$db" 'SELECT count(*) FROM imports')" -ge 2 ] || fail "imports rows"
[ "$(q "$db" 'SELECT count(*) FROM imports WHERE finished_at IS NOT NULL')" -ge 1 ] || fail "no finished import"

test_done "$killed kills, $ref_games games"
