#!/bin/sh
# kifu-serve answers only requests whose Host names it (DNS rebinding: a
# page of another site whose name was made to point at 127.0.0.1 must not
# read the database through a local browser): the address listened on, or
# localhost, 127.0.0.1 or [::1], with the port; else 421, and 400 without a
# Host (tests/cli/lib/serve_host.py). On IPv6 loopback too, when the
# machine has it.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
"$bin/kifu-import" --quiet --db "$db" examples/glaisher >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" || test_done
port=$(echo "$serve_url" | sed 's/.*:\([0-9]*\)\/$/\1/')
check "the Host header on 127.0.0.1" python3 tests/cli/lib/serve_host.py "$port" 127.0.0.1
check "a log line for a 421" grep -q '^GET /api/stats/summary 421 ' "$tmp/serve.log"
serve_stop
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
	# A file of its own: the background job opens its output after this shell
	# goes on, so the first server's "serving" line in serve.out could be read
	# before that file was emptied (a race seen under CI).
	"$bin/kifu-serve" --db "$db" --listen '[::1]:0' >"$tmp/serve6.out" 2>>"$tmp/serve.log" &
	serve_pid=$!
	serve_pids="$serve_pids $serve_pid"
	if test_wait_for 60 grep -q '^serving ' "$tmp/serve6.out"; then
		port=$(sed -n 's/^serving .*:\([0-9]*\)\/$/\1/p' "$tmp/serve6.out")
		check "the Host header on [::1]" python3 tests/cli/lib/serve_host.py "$port" '[::1]'
	else
		fail "kifu-serve on [::1] did not start"
	fi
	serve_stop
fi
test_done "$checks checks"
