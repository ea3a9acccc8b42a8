#!/bin/sh
# kifu-serve --listen on an address that is not loopback says so on stderr
# and still answers, tested without exposing a port to any network: the
# server runs in a network namespace of its own that holds the loopback
# interface alone (unshare -rn, a user namespace too; or unshare -n as
# root), which tests/cli/lib/serve_netns.py checks before anything
# listens. Where no namespace can be made (a container without the right
# to), the test fails under CI and KIFU_TEST_DEPS=required and is skipped
# by hand: it never binds all interfaces of the machine.
set -u
. tests/cli/lib/test-lib.sh
test_require python3
db=$tmp/ex.db
"$bin/kifu-import" --quiet --db "$db" examples/glaisher >/dev/null 2>&1 || fail "import the examples"

ns=""
for _try in "unshare -rn" "unshare -n"; do
	if $_try true 2>/dev/null; then
		ns=$_try
		break
	fi
done
[ -n "$ns" ] || test_missing "no network namespace can be made here (unshare -rn, or unshare -n as root)" util-linux
# shellcheck disable=SC2086
$ns python3 tests/cli/lib/serve_netns.py "$bin" "$db" >"$tmp/out" 2>&1
code=$?
check "0.0.0.0 and [::] warn on stderr and answer; 127.0.0.1 does not warn ($ns): $(cat "$tmp/out")" \
	[ "$code" -eq 0 ]
test_done "$checks checks, $ns"
