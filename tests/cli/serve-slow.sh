#!/bin/sh
# Slow clients cannot lock others out of kifu-serve (tests/cli/lib/serve_slow.py,
# loopback only, bounded in number and time), whether they come from many
# addresses or from the one every client shares (a server on 127.0.0.1, or
# behind a reverse proxy): 1,200 slow connections from 20 addresses, then
# 200 half-open ones beside 16 clients of /api/tree, then 1,100 from
# 127.0.0.1 sending a header line every 2 s and never ending their headers.
# Beside each load every request sent whole is answered within 5 s; the
# server holds at most 1,024 connections waiting for their headers, and
# answers each slow one 408 and closes it at its headers' deadline (10 s)
# though it keeps sending. (Once any 64 connections from one address locked
# out every other client from that address, 1,100 of them from 127.0.0.1
# for as long as they went on.)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
"$bin/kifu-import" --quiet --db "$db" examples/glaisher >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" || test_done
port=$(echo "$serve_url" | sed 's/.*:\([0-9]*\)\/$/\1/')
python3 tests/cli/lib/serve_slow.py "$port" 1024 10 >"$tmp/out" 2>&1
code=$?
check "slow clients: $(cat "$tmp/out")" [ "$code" -eq 0 ]
serve_stop
test_done "$checks checks, $(grep -v '^FAIL' "$tmp/out" | tr '\n' ' ')"
