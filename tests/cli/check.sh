#!/bin/sh
# kifu-check on SQLite: a clean database (the examples of every game, with
# format 2's lines) exits 0 with every game checked, a sample checks the
# games its seed draws, and each kind of damage (a game's row, the position
# index missing or holding an entry, each report's kept sums, the tree's
# counts, a lines row) is named and exits 1 (tests/cli/lib/check.sh).
set -u
. tests/cli/lib/test-lib.sh
test_require sqlite3
. tests/cli/lib/check.sh
ref=$tmp/ref.db
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$ref" $check_inputs >/dev/null || fail "import"
check_copy() { cp "$ref" "$tmp/$1.db" && echo "$tmp/$1.db"; }
check_sql() { sqlite3 "$1" "$2"; }
check_cases "$ref"
# A usage error: --seed without --sample.
"$bin/kifu-check" --db "$ref" --seed 3 >/dev/null 2>&1
check "--seed without --sample is a usage error" [ $? -eq 2 ]
"$bin/kifu-check" --db '' >/dev/null 2>&1
check "an empty database name is a usage error" [ $? -eq 2 ]
"$bin/kifu-check" --db "$ref" >/dev/full 2>/dev/null
check "a full standard output is exit 3" [ $? -eq 3 ]
"$bin/kifu-check" --db "$tmp/none.db" >/dev/null 2>"$tmp/none.err"
check "a missing database exits 3" [ $? -eq 3 ]
check "... and is not created" [ ! -e "$tmp/none.db" ]
test_done
