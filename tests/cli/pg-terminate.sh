#!/bin/sh
# kifu-import's connection terminated by the server mid-import (issue 28):
# pg_terminate_backend() from a second session while games are being
# written (inside a group's transaction, or its COPY at the commit). The
# import exits 3, and its summary counts what the database kept: PostgreSQL
# commits a batch's games in groups as it goes, and the games committed
# before the connection was lost are imported (the summary's `imported`
# equals the games stored, `rejected` the quarantined records), not "records
# read but not imported". A re-run adds exactly the rest: the games of one
# clean import. A slow writer (records coming 150 ms apart, from a pipe:
# each game its own transaction, committed at once) terminated in the middle of
# kifu-import's batch of one second shows it best: every game of the batch
# but the one being written is stored already.
# tests/run: early (it is long)
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/crash.sh
. tests/cli/lib/games.sh

crash_archive "$tmp/arch" "${PG_TERMINATE_GAMES:-1500}" || fail "kifu-play"
ref=$tmp/ref.db
"$bin/kifu-import" --quiet --db "$ref" "$tmp/arch" 2>/dev/null
total=$(games_count "$ref")
games_digest "$ref" "$tmp/ref.digest" || fail "kifu-export of the reference"

# Each run terminates the import's session a while after a first commit (at
# least `at` games): kifu-import's batches (1,000 records or 1 s) hold
# several of the store's groups (500 ms), so that some of the batch open at
# the end is committed already, and some is not.
run=0
for delay in ${PG_TERMINATE_DELAYS:-0.3 0.85}; do
	run=$((run + 1))
	at=$((run * 100 - 99))
	name=t$run
	uri=$(pg_createdb $name) || exit 1
	# the import's session, once it has committed `at` games (or ended)
	"$bin/kifu-import" --json --db "$uri" "$tmp/arch" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	stored() {
		[ "$(pg_psql $name -c 'SELECT count(*) FROM games' 2>/dev/null || echo 0)" -ge $at ] ||
			! kill -0 $pid 2>/dev/null
	}
	test_wait_for 300 stored
	sleep "$delay"
	kill -0 $pid 2>/dev/null || { fail "run $run: the import ended first: make the archive larger"; continue; }
	pg_psql $name -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()
		AND backend_type = 'client backend'" >"$tmp/$name.killed"
	wait $pid
	rc=$?
	check "run $run: exit $rc, expected 3 ($(head -c 300 "$tmp/$name.err"))" [ $rc -eq 3 ]
	check "run $run: no session terminated" [ "$(cat "$tmp/$name.killed")" = 1 ]
	grep -qiE 'sanitizer|segmentation' "$tmp/$name.err" && fail "run $run: kifu-import crashed"
	kept=$(pg_psql $name -c 'SELECT count(*) FROM games')
	quar=$(pg_psql $name -c 'SELECT count(*) FROM quarantine')
	check "run $run: the summary ($(cat "$tmp/$name.out")) is not what was kept ($kept games, $quar rejected)" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["imported"] == int(sys.argv[2]) and d["rejected"] == int(sys.argv[3]), d
assert d["duplicates"] == 0, d' "$tmp/$name.out" "$kept" "$quar"
	# the message, when some records were lost, counts only those
	lost=$(sed -n 's/.*"not_imported":\([0-9]*\).*/\1/p' "$tmp/$name.out")
	if [ -n "$lost" ]; then
		check "run $run: 'not imported' said" grep -q "^kifu-import: error: $lost records\\? read but not imported" \
			"$tmp/$name.err"
	fi
	echo "pg-terminate.sh: run $run (+$delay s): $kept games kept: $(cat "$tmp/$name.out")"
	"$bin/kifu-import" --json --db "$uri" "$tmp/arch" >"$tmp/$name.rerun" 2>/dev/null
	check "run $run: the re-run adds the rest" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["imported"] == int(sys.argv[2]) - int(sys.argv[3]), d' "$tmp/$name.rerun" "$total" "$kept"
	games_digest "$uri" "$tmp/$name.digest" || fail "run $run: kifu-export"
	check "run $run: after the re-run, the games differ from one clean import's" \
		cmp -s "$tmp/ref.digest" "$tmp/$name.digest"
done

# ---- The slow writer: records 150 ms apart on standard input. The store
# groups games that come back to back (20 ms apart or less), so the import
# must keep up with the writer for each game to be its own transaction: a
# game stored in 40 ms or more (the sanitizer build under load) let records
# queue in the pipe at 40 ms apart, and two were read but not imported.
python3 - "$tmp/arch/c.yaml" "$tmp/slow.yaml" <<'PY'
import sys
docs = open(sys.argv[1], encoding="utf-8").read().split("---\n")[1:301]
open(sys.argv[2], "w", encoding="utf-8").write("".join("---\n" + d for d in docs))
PY
uri=$(pg_createdb slow) || exit 1
python3 -c '
import signal, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
docs = open(sys.argv[1], encoding="utf-8").read().split("---\n")[1:]
for d in docs:
    sys.stdout.write("---\n" + d)
    sys.stdout.flush()
    time.sleep(0.15)' "$tmp/slow.yaml" | "$bin/kifu-import" --json --db "$uri" - >"$tmp/slow.out" 2>"$tmp/slow.err" &
pid=$!
slow_stored() {
	[ "$(pg_psql slow -c 'SELECT count(*) FROM games' 2>/dev/null || echo 0)" -ge 60 ] ||
		! kill -0 $pid 2>/dev/null
}
test_wait_for 300 slow_stored
sleep 0.5
pg_psql slow -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
	WHERE datname = current_database() AND pid <> pg_backend_pid()
	AND backend_type = 'client backend'" >/dev/null
wait $pid
kept=$(pg_psql slow -c 'SELECT count(*) FROM games')
check "slow: the summary ($(cat "$tmp/slow.out")) is not what was kept ($kept games)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["imported"] == int(sys.argv[2]), d
assert d.get("not_imported", 0) <= 1, d' "$tmp/slow.out" "$kept"
check "slow: exit 3 ($(head -c 200 "$tmp/slow.err"))" grep -q '^kifu-import: error: ' "$tmp/slow.err"
echo "pg-terminate.sh: slow writer: $kept games kept: $(cat "$tmp/slow.out")"
"$bin/kifu-import" --json --db "$uri" "$tmp/slow.yaml" >"$tmp/slow.rerun" 2>/dev/null
check "slow: the re-run adds the rest" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["imported"] == 300 - int(sys.argv[2]) and d["duplicates"] == int(sys.argv[2]), d' \
	"$tmp/slow.rerun" "$kept"

test_done
