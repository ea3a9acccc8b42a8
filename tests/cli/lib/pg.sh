# The start of every PostgreSQL tool test (tests/cli/pg-*.sh); source it
# from the repo root, after `set -u`. It sources test-lib.sh (tmp, bin,
# fail, check, test_done...), fails the test (or skips it, by hand without
# CI) when there is no PostgreSQL server to start (test_require
# postgresql), and sets db, the URI of the empty database `kifu`: on the
# server tests/run shares between the tests (KIFU_PG_SHARED), in databases
# of the test's own (tests/pg/server.sh pg_attach), or on a server of its
# own when run alone or when the test sets pg_own_server=1 first (it stops
# the server or adds roles, which a shared server must not see).
. tests/cli/lib/test-lib.sh
test_require postgresql
if [ -n "${pg_own_server:-}" ] || ! pg_attach "${test_name%.sh}"; then
	pg_start || exit 1
fi
db=$KIFU_PG_URI
