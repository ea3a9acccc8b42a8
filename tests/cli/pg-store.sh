#!/bin/sh
# The PostgreSQL backend's unit tests (tests/test_store_pg.c) against a real
# server (tests/pg/server.sh: the one tests/run shares, or a throwaway one),
# with an empty database for the tests and another for "readers never
# create". Without a server the binary runs only its tests that need none
# (make test runs it so too).
set -u
. tests/cli/lib/pg.sh
build=${KIFU_BUILD:-build/default}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
empty=$(pg_createdb empty) || exit 1
out=$(KIFU_PG_URI=$db KIFU_PG_URI_EMPTY=$empty "$build/tests/test_store_pg" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || printf '%s\n' "$out" | grep -q 'SKIPPED'; then
	printf '%s\n' "$out"
	fail "exit $rc, or tests skipped with a server"
fi
test_done "$(printf '%s\n' "$out" | grep -c '^\[       OK')"
