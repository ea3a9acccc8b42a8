#!/bin/sh
# The PostgreSQL backend's unit tests (tests/test_store_pg.c) against a real
# server: a throwaway one (tests/pg/server.sh), with an empty database for
# the tests and another for "readers never create". Without a server the
# binary runs only its tests that need none (make test runs it so too).
set -u
build=${KIFU_BUILD:-build/default}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
. tests/pg/server.sh
pg_require pg-store.sh || exit 1
pg_start || exit 1
empty=$(pg_createdb empty) || exit 1
out=$(KIFU_PG_URI=$KIFU_PG_URI KIFU_PG_URI_EMPTY=$empty "$build/tests/test_store_pg" 2>&1)
status=$?
if [ "$status" -ne 0 ] || printf '%s\n' "$out" | grep -q 'SKIPPED'; then
	printf '%s\n' "$out"
	echo "pg-store.sh: FAIL (exit $status, or tests skipped with a server)"
	exit 1
fi
echo "pg-store.sh: ok ($(printf '%s\n' "$out" | grep -c '^\[       OK'))"
