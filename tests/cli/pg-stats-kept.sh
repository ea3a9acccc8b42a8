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
stats_kept_check "$db"
reports "$db" "$tmp/pg.out"
for f in a.yaml b.yaml examples/splinter-quad/ c.yaml examples/splay-schmidt/ examples/splinter/ \
	examples/glaisher/; do
	case $f in examples/*) ;; *) f=$tmp/$f ;; esac
	"$bin/kifu-import" --quiet --db "$tmp/k.db" "$f" || fail "import $f into SQLite"
done
reports "$tmp/k.db" "$tmp/sqlite.out"
check "the reports of both backends equal" test_cmp "$tmp/sqlite.out" "$tmp/pg.out"
stats_kept_writers "$(pg_createdb writers)"
test_done "$checks checks"
