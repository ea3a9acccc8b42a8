# The start of every PostgreSQL tool test (tests/cli/pg-*.sh); source it
# from the repo root. Fails the test (or skips it, by hand without CI)
# when there is no PostgreSQL server to start (tests/pg/server.sh), else
# starts one and sets: name (the test's file name, for messages), bin (the
# tools' directory, absolute), db (the URI of the empty database `kifu`),
# tmp (a scratch directory removed with the server), fail=0, and bad
# MESSAGE, which prints a failure and sets fail=1.
name=$(basename "$0")
bin=${KIFU_BIN:-bin}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
. tests/pg/server.sh
pg_require "$name" || exit 1
pg_start || exit 1
db=$KIFU_PG_URI
tmp=$PG_WORK
fail=0

bad() {
	echo "$name: FAIL: $*"
	fail=1
}
