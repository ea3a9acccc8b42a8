#!/bin/sh
# The sums kifu-stats keeps, kept by kifu-import in a PostgreSQL database
# (tests/cli/lib/stats_kept.sh), written in the transactions of the games
# they count: after imports the tables equal a refresh from scratch, and so
# do every report, also after writers at once; and the reports equal those
# of the same imports into a SQLite file, byte for byte.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/stats_kept.sh
kq() {
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$1" -c "$2"
}
kcopy() { # the database's name is the URI's path (pg_uri)
	_name=${1%%\?*}
	pg_createdb "$2" "TEMPLATE \"${_name##*/}\""
}
kversion() {
	if [ $# -gt 1 ]; then
		kq "$1" "UPDATE kifu_schema SET version = $2" >/dev/null || fail "set the schema version"
	else
		kq "$1" "SELECT version FROM kifu_schema"
	fi
}
stats_kept_check "$db"
reports "$db" "$tmp/pg.out"
# the same writes into SQLite, in the same order
k=$tmp/k.db
"$bin/kifu-import" --quiet --db "$k" "$tmp/a.yaml" || fail "import a into SQLite"
"$bin/kifu-import" --quiet --db "$k" "$tmp/b.yaml" examples/splinter-quad/ || fail "import b into SQLite"
"$bin/kifu-import" --quiet --db "$k" "$tmp/c.yaml" examples/splay-schmidt/ || fail "import c into SQLite"
"$bin/kifu-play" splinter --players random --games 4 --max-plies 30 --seed 7 --quiet --db "$k" \
	>/dev/null || fail "kifu-play into SQLite"
"$bin/kifu-analyse" --db "$k" --player P3 --playouts 8 --threads 1 --store >/dev/null ||
	fail "kifu-analyse into SQLite"
"$bin/kifu-analyse" --db "$k" --game splinter --level random --playouts 8 --threads 1 --store \
	>/dev/null || fail "kifu-analyse splinter into SQLite"
"$bin/kifu-import" --quiet --db "$k" examples/splinter/ examples/glaisher/ || fail "import d into SQLite"
reports "$tmp/k.db" "$tmp/sqlite.out"
check "the reports of both backends equal" test_cmp "$tmp/sqlite.out" "$tmp/pg.out"
stats_kept_writers "$(pg_createdb writers)"
test_done "$checks checks"
