#!/bin/sh
# kifu-check on PostgreSQL: the cases of check.sh (tests/cli/lib/check.sh),
# each on a database made from the reference as its template.
# tests/run: plain (a dozen CREATE DATABASE ... TEMPLATE; the same checks run
#   under the sanitizers on SQLite in check.sh)
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/check.sh
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $check_inputs >/dev/null || fail "import"
check_copy() { pg_createdb "$1" "TEMPLATE \"$(pg_dbname kifu)\""; }
check_sql() { "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$1" -c "$2"; }
check_cases "$db"
test_done
