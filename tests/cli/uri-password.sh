#!/bin/sh
# A password is not shown whatever the spelling of its key (item
# 4): libpq takes pass%77ord= as password=, so the URI messages quote is
# what libpq parses of it without the passwords. No server is needed: the
# connection is refused. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
hidden() { ! grep -q "S3cr3t" "$1"; }

for uri in 'postgresql://x@127.0.0.1:1/db?pass%77ord=S3cr3t' \
	'postgresql://x:%53%33cr%33t@127.0.0.1:1/db' \
	'postgresql://x@127.0.0.1:1/db?%70assword=S3cr3t&sslpassword=S3cr3t'; do
	"$bin/kifu-stats" --db "$uri" summary >/dev/null 2>"$tmp/err"
	check "$uri: exit 3" [ $? -eq 3 ]
	check "$uri: the URI is named" grep -q "cannot connect to 'postgresql://x@127.0.0.1:1/db'" "$tmp/err"
	check "$uri: no password shown" hidden "$tmp/err"
done

test_done "$checks checks"
