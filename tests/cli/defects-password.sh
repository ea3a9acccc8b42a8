#!/bin/sh
# A password is not shown whatever the spelling of its key (issue 19, item
# 4): libpq takes pass%77ord= as password=, so the URI messages quote is
# what libpq parses of it without the passwords. No server is needed: the
# connection is refused. Runs from the repo root; tools in $KIFU_BIN.
set -u
bin=${KIFU_BIN:-bin}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-defects.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

check() { # description, then a command that must succeed
	n=$((n + 1))
	desc=$1
	shift
	if ! "$@"; then
		echo "FAIL: $desc"
		fail=1
	fi
}
hidden() { ! grep -q "S3cr3t" "$1"; }

for uri in 'postgresql://x@127.0.0.1:1/db?pass%77ord=S3cr3t' \
	'postgresql://x:%53%33cr%33t@127.0.0.1:1/db' \
	'postgresql://x@127.0.0.1:1/db?%70assword=S3cr3t&sslpassword=S3cr3t'; do
	"$bin/kifu-stats" --db "$uri" summary >/dev/null 2>"$tmp/err"
	check "$uri: exit 3" [ $? -eq 3 ]
	check "$uri: the URI is named" grep -q "cannot connect to 'postgresql://x@127.0.0.1:1/db'" "$tmp/err"
	check "$uri: no password shown" hidden "$tmp/err"
done

echo "defects-password: $n checks"
exit $fail
