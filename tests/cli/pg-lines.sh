#!/bin/sh
# Format 2 in a PostgreSQL store (schema 10): as store-lines.sh, the annotated
# games and the same games without their lines in two databases of the
# server (tests/cli/lib/store_lines.sh), and kifu-import --update-annotations
# between the two.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/store_lines.sh
second=$(pg_createdb plain) || exit 1
store_lines_check "$db" "$second"
third=$(pg_createdb third) || exit 1
store_lines_update "$db" "$second" "$third"
test_done
