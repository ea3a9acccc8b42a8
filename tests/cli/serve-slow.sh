#!/bin/sh
# Slow clients cannot lock others out of kifu-serve (tests/cli/lib/serve_slow.py,
# loopback only, bounded in number and time): 300 connections from one
# address (127.0.0.2) each sending a header line every 3 s and never ending
# their headers: the server holds at most 64 of them (connections per
# client address waiting for their headers), answers each 408 and closes
# it at its headers' deadline (10 s) though it keeps sending, and answers a plain request from 127.0.0.1 within 3 s
# all along. (Once 1,100 such connections locked every request out for as
# long as they went on.)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/ex.db
"$bin/kifu-import" --quiet --db "$db" examples/glaisher >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" || test_done
port=$(echo "$serve_url" | sed 's/.*:\([0-9]*\)\/$/\1/')
python3 tests/cli/lib/serve_slow.py "$port" 64 10 >"$tmp/out" 2>&1
code=$?
check "slow clients: $(cat "$tmp/out")" [ "$code" -eq 0 ]
serve_stop
test_done "$checks checks, $(tail -1 "$tmp/out")"
