#!/bin/sh
# The sums kifu-stats keeps, kept by kifu-import in a SQLite file
# (tests/cli/lib/stats_kept.sh): after imports in bulk mode and not, the
# tables equal a refresh from scratch, and so do every report, also after
# writers at once.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
test_require python3 sqlite3
. tests/cli/lib/stats_kept.sh
kq() {
	sqlite3 "$1" "$2"
}
kcopy() {
	cp "$1" "$tmp/$2.db" && echo "$tmp/$2.db"
}
kversion() {
	if [ $# -gt 1 ]; then
		sqlite3 "$1" "PRAGMA user_version = $2" || fail "set the schema version"
	else
		sqlite3 "$1" "PRAGMA user_version"
	fi
}
stats_kept_check "$tmp/k.db"
stats_kept_writers "$tmp/w.db"
test_done "$checks checks"
