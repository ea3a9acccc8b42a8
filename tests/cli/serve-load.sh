#!/bin/sh
# kifu-serve sends each answer whole or says in its log that it did not
# (tests/cli/lib/serve_load.py): 40 clients at once ask for the examples'
# deepest openings (2 MB each) of a server with one worker, which makes
# them one after the other for longer than a connection's idle timeout
# (10 s): each gets its whole answer (none times out while it waits for the
# worker), and the log has one line "200 SIZE" per request. A client that
# leaves before its answer is sent gets a line "... not sent: WHY" (the log
# once said "200 SIZE" of answers whose clients got nothing or part).
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" --threads 1 || test_done
port=$(echo "$serve_url" | sed 's/.*:\([0-9]*\)\/$/\1/')
path="/api/stats/openings?depth=10"
python3 tests/cli/lib/serve_load.py "$port" "$path" 40 >"$tmp/out" 2>&1
code=$?
check "40 answers at once, each whole: $(cat "$tmp/out")" [ "$code" -eq 0 ]
size=$(sed -n 's/^whole .*, \([0-9]*\) bytes each.*/\1/p' "$tmp/out")
serve_stop
# the size probe, 40, and the one beside the client that left
sent=$(grep -c "^GET /api/stats/openings 200 $size [0-9.]* ms\$" "$tmp/serve.log")
check "42 lines of answers sent whole, $sent in the log" [ "$sent" -eq 42 ]
check "the answer to the client that left: not sent" \
	grep -q "^GET /api/stats/openings .* not sent: " "$tmp/serve.log"
check "one answer not sent: $(grep "not sent" "$tmp/serve.log")" [ "$(grep -c 'not sent' "$tmp/serve.log")" -eq 1 ]
test_done "$checks checks, $(cat "$tmp/out")"
