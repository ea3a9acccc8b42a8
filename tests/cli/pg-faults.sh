#!/bin/sh
# PostgreSQL connection faults and readers on an empty server database
# (issue 13; CLI.md's exit codes): every tool, given a URI it cannot use (a
# malformed one, a database that does not exist, a socket directory without
# a server, a socket nobody accepts on, a role whose password is wrong or
# missing), exits 3 (2 for a malformed URI is accepted too: a usage error)
# with one message on stderr that quotes the URI, never shows a password,
# and is no crash. A password from PGPASSWORD or a password file works. The
# server stopped mid-import (pg_ctl stop -m fast, after some batches were
# committed): kifu-import exits 3 with a clear message, the committed games
# stay, and a re-run completes the import to exactly the games of one clean
# import. A role with only SELECT rights gets the owner's reports. Readers (kifu-stats, kifu-search, kifu-export, kifu-analyse) on an
# empty database say what they say for a missing SQLite file ("no database at
# 'URI'", exit 3) and create nothing there; $KIFU_DB may hold the URI.
# tests/run: early (it is long)
set -u
# It stops the server (pg_halt) and adds roles: a server of its own.
pg_own_server=1
. tests/cli/lib/pg.sh
. tests/cli/lib/crash.sh
. tests/cli/lib/games.sh


# expect_fail WHAT URI SECRET [GREP]: every tool fails on URI as above; its
# message matches the extended regular expression GREP (case-insensitive).
expect_fail() {
	what=$1 uri=$2 secret=$3 pattern=${4:-.}
	for t in "kifu-import $tmp/one.yaml" "kifu-stats summary" "kifu-search" "kifu-export --id 1 --to yaml" \
		"kifu-analyse --id 1 --playouts 10" "kifu-play splinter --players random,random --quiet"; do
		# shellcheck disable=SC2086
		$bin/$t --db "$uri" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		tool=${t%% *}
		if [ $rc -ne 3 ] && ! { [ $rc -eq 2 ] && [ "$what" = "a malformed URI" ]; }; then
			fail "$what: $tool exited $rc, expected 3: $(head -c 300 "$tmp/err")"
			continue
		fi
		[ "$(grep -c . "$tmp/err")" -ge 1 ] || fail "$what: $tool said nothing"
		grep -q "^$tool: " "$tmp/err" || fail "$what: $tool's message does not start with '$tool: ': $(head -c 300 "$tmp/err")"
		head -1 "$tmp/err" | grep -qiE "$pattern" || fail "$what: $tool: the message does not match /$pattern/: $(head -c 300 "$tmp/err")"
		[ -z "$secret" ] || ! grep -qF "$secret" "$tmp/err" || fail "$what: $tool shows the password: $(head -c 300 "$tmp/err")"
		grep -qiE 'sanitizer|segmentation|assert' "$tmp/err" && fail "$what: $tool crashed: $(head -c 300 "$tmp/err")"
	done
}

"$bin/kifu-play" splinter --players random,random --games 1 --seed 3 --quiet >"$tmp/one.yaml" 2>/dev/null

# ---- Wrong URIs.
sock=$PG_DIR
expect_fail "a malformed URI" "postgresql://kifu@/kifu?host=$sock&no_such_option=1" "" "postgres|no_such_option"
expect_fail "a malformed URI" "postgresql://kifu@[::1/kifu" "" "postgres"
expect_fail "a missing database" "postgresql://kifu@/no_such_db?host=$sock" "" "no_such_db"
expect_fail "a missing role" "postgresql://nobody_here@/kifu?host=$sock" "" "nobody_here"
# ---- No server there: an empty directory, and a socket nobody accepts on.
mkdir "$tmp/nosrv" "$tmp/dead"
expect_fail "no server" "postgresql://kifu@/kifu?host=$tmp/nosrv" "" "$tmp/nosrv"
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' "$tmp/dead/.s.PGSQL.5432"
expect_fail "a refused connection" "postgresql://kifu@/kifu?host=$tmp/dead" "" "refused|$tmp/dead"

# ---- Authentication: kifu_auth must give its password (scram-sha-256).
pg_psql postgres -c "CREATE ROLE kifu_auth LOGIN PASSWORD 'right horse battery'" &&
	pg_psql postgres -c "CREATE DATABASE authdb OWNER kifu_auth" || fail "cannot create the role"
auth="postgresql://kifu_auth@/authdb?host=$sock"
expect_fail "no password" "$auth" "" "password|authentication"
export PGPASSWORD='wrong staple'
expect_fail "a wrong password (PGPASSWORD)" "$auth" "wrong staple" "password|authentication"
unset PGPASSWORD
expect_fail "a wrong password (in the URI)" "postgresql://kifu_auth:s3cr3t-wrong@/authdb?host=$sock" "s3cr3t-wrong" "password|authentication"
printf '*:*:authdb:kifu_auth:wrong staple\n' >"$PGPASSFILE"
chmod 600 "$PGPASSFILE"
expect_fail "a wrong password (password file)" "$auth" "wrong staple" "password|authentication"
printf '*:*:authdb:kifu_auth:right horse battery\n' >"$PGPASSFILE"
"$bin/kifu-import" --db "$auth" "$tmp/one.yaml" >"$tmp/out" 2>&1 ||
	fail "the password file's password: $(head -c 300 "$tmp/out")"
rm "$PGPASSFILE"
PGPASSWORD='right horse battery' "$bin/kifu-stats" --db "$auth" --format csv summary >"$tmp/out" 2>&1 ||
	fail "PGPASSWORD's password: $(head -c 300 "$tmp/out")"
grep -q '^splinter,' "$tmp/out" || fail "the game imported with the password file is not there"

# A role that may only read answers as the owner does, also when the
# precomputed tables are behind (it cannot bring them up to date).
"$bin/kifu-play" glaisher --players random,random --games 3 --seed 4 --quiet >"$tmp/three.yaml" 2>/dev/null
PGPASSWORD='right horse battery' "$bin/kifu-import" --quiet --db "$auth" "$tmp/three.yaml" || fail "import as kifu_auth"
pg_psql postgres -c "CREATE ROLE kifu_reader LOGIN" >/dev/null &&
	pg_psql authdb -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO kifu_reader" >/dev/null || fail "cannot make kifu_reader"
reader="postgresql://kifu_reader@/authdb?host=$sock"
for r in summary players "openings --depth 3" lengths; do
	# shellcheck disable=SC2086
	"$bin/kifu-stats" --db "$reader" --format csv $r >"$tmp/reader.csv" 2>"$tmp/reader.err" ||
		fail "kifu-stats $r as a role that may only read exited $?: $(head -c 300 "$tmp/reader.err")"
	# shellcheck disable=SC2086
	PGPASSWORD='right horse battery' "$bin/kifu-stats" --db "$auth" --format csv $r >"$tmp/owner.csv" 2>&1
	cmp -s "$tmp/reader.csv" "$tmp/owner.csv" || fail "kifu-stats $r as a reader differs from the owner's"
done
"$bin/kifu-search" --db "$reader" --json >"$tmp/reader.json" 2>"$tmp/reader.err" || fail "kifu-search as a reader: $(head -c 300 "$tmp/reader.err")"
[ "$(grep -c '"game"' "$tmp/reader.json")" = 4 ] || fail "kifu-search as a reader lists $(grep -c '"game"' "$tmp/reader.json") games, not 4"

# ---- Readers on an empty database create nothing and say so as for SQLite.
empty=$(pg_createdb empty) || exit 1
for t in "kifu-stats summary" "kifu-search" "kifu-export --id 1 --to yaml" "kifu-analyse --id 1"; do
	# shellcheck disable=SC2086
	$bin/$t --db "$tmp/missing.db" >/dev/null 2>"$tmp/lite.err"
	rc_lite=$?
	# shellcheck disable=SC2086
	$bin/$t --db "$empty" >/dev/null 2>"$tmp/pg.err"
	rc=$?
	# shellcheck disable=SC2086
	KIFU_DB=$empty $bin/$t >/dev/null 2>"$tmp/env.err"
	rc_env=$?
	sed "s|$tmp/missing.db|$empty|" "$tmp/lite.err" >"$tmp/want.err"
	[ $rc -eq 3 ] && [ $rc_lite -eq 3 ] && [ $rc_env -eq 3 ] || fail "$t on an empty database exited $rc ($rc_env with \$KIFU_DB), on a missing SQLite file $rc_lite"
	cmp -s "$tmp/want.err" "$tmp/pg.err" || fail "$t on an empty database says '$(cat "$tmp/pg.err")', expected '$(cat "$tmp/want.err")'"
	cmp -s "$tmp/want.err" "$tmp/env.err" || fail "$t with \$KIFU_DB says '$(cat "$tmp/env.err")'"
done
n=$(pg_psql empty -c "SELECT count(*) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
	WHERE s.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')")
[ "$n" = 0 ] || fail "readers created $n relations in the empty database"
# A writer through $KIFU_DB creates the schema there; postgres:// is the same.
KIFU_DB=$empty "$bin/kifu-import" --quiet "$tmp/one.yaml" || fail "kifu-import with \$KIFU_DB exited $?"
"$bin/kifu-search" --db "postgres:${empty#postgresql:}" >"$tmp/out" 2>&1 || fail "postgres:// URI: $(head -c 300 "$tmp/out")"
grep -q splinter "$tmp/out" || fail "postgres:// URI: the game is not listed"

# ---- The server stopped mid-import.
crash_archive "$tmp/arch" "${PG_FAULT_GAMES:-2500}" || fail "kifu-play"
# The reference is one clean import into SQLite: both backends store the
# same games (pg-equality.sh), and SQLite imports them many times faster.
ref=$tmp/ref.db
"$bin/kifu-import" --quiet --db "$ref" "$tmp/arch" 2>/dev/null
mid=$(pg_createdb mid) || exit 1
"$bin/kifu-import" --db "$mid" "$tmp/arch" >"$tmp/mid.out" 2>"$tmp/mid.err" &
pid=$!
# Until the first batch is committed (or the import ended), at most 300 s.
committed() {
	[ "$(pg_psql mid -c 'SELECT count(*) FROM games' 2>/dev/null || echo 0)" != 0 ] || ! kill -0 $pid 2>/dev/null
}
test_wait_for 300 committed
kill -0 $pid 2>/dev/null || fail "the import finished before the server could be stopped: make the archive larger"
pg_halt || fail "pg_ctl stop"
wait $pid
rc=$?
[ $rc -eq 3 ] || fail "kifu-import with the server stopped exited $rc, expected 3: $(head -c 300 "$tmp/mid.err")"
grep -q "^kifu-import: .*error: " "$tmp/mid.err" || fail "no error message: $(head -c 300 "$tmp/mid.err")"
grep -qiE 'sanitizer|segmentation' "$tmp/mid.err" && fail "kifu-import crashed: $(head -c 300 "$tmp/mid.err")"
echo "pg-faults.sh: server stopped mid-import: $(grep "^kifu-import: .*error: " "$tmp/mid.err" | head -1)"
pg_resume || exit 1
kept=$(pg_psql mid -c 'SELECT count(*) FROM games')
[ "$kept" -gt 0 ] || fail "no game kept from before the server stopped"
"$bin/kifu-import" --json --db "$mid" "$tmp/arch" >"$tmp/rerun" 2>/dev/null
rc=$?
[ $rc -eq 1 ] || fail "the re-run exited $rc, expected 1 (5 rejected)"
games_digest "$ref" "$tmp/ref.digest" && games_digest "$mid" "$tmp/mid.digest" || fail "kifu-export"
cmp -s "$tmp/ref.digest" "$tmp/mid.digest" || fail "after the re-run, the games differ from one clean import's"
[ "$(pg_psql mid -c 'SELECT count(*) FROM quarantine')" = 5 ] || fail "quarantine after the re-run"
echo "pg-faults.sh: $kept games kept, re-run: $(cat "$tmp/rerun")"

test_done
