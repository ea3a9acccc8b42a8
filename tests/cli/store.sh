#!/bin/sh
# The database as the tools meet it (issue 10 and the packed layout of
# schema 4): a schema version kifu does not know is refused (exit 3), never
# a crash; clocks come back from the database as the file gave them, in
# every export format; a rejected record is quarantined once whatever path
# it was read through; tools that only read never create, migrate or change
# a database, say "no database at 'PATH'" when there is none, and work on
# a database the user cannot write (run as the user nobody through setpriv
# when the tests run as root: root may write any file); a database of the
# release before schema 4 is read as it is, and migrated by the first write
# with the same reports. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
src=$(pwd)
chmod 755 "$tmp"

q() { # q DB SQL: the rows, fields joined by |
	python3 - "$1" "$2" <<'PY'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
sys.stdout.write("".join("|".join("" if v is None else str(v) for v in r) + "\n" for r in rows))
PY
}

# ---- A schema version kifu does not know: refused, exit 3, for every tool.
"$bin/kifu-import" --quiet --db "$tmp/neg.db" examples/splinter >/dev/null 2>&1
for v in -1 -2147483648 99; do
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = %d" % int(sys.argv[2])); c.commit()' "$tmp/neg.db" "$v"
	for t in "kifu-search" "kifu-stats summary" "kifu-export --id 1 --to yaml" "kifu-import $src/examples/splinter"; do
		# shellcheck disable=SC2086
		$bin/$t --db "$tmp/neg.db" >/dev/null 2>"$tmp/err"
		rc=$?
		check "user_version $v: $t exits 3 (got $rc)" [ $rc -eq 3 ]
		check "user_version $v: $t names the version" grep -q "schema version $v" "$tmp/err"
	done
done

# ---- Clocks: the database gives back what the file gave, in every format.
cat >"$tmp/clocks.yaml" <<'Y'
game: splay-schmidt
moves:
  - {move: g4, clock: 1:30}
  - {move: h4, clock: 0x10, comment: sharp}
  - {move: g6, clock: 12.50}
  - {move: G5, clock: 017}
  - {move: h5, clock: 1_000}
Y
"$bin/kifu-import" --quiet --db "$tmp/clocks.db" "$tmp/clocks.yaml"
check "clocks: imported" [ $? -eq 0 ]
for fmt in yaml json text html; do
	"$bin/kifu-export" --file "$tmp/clocks.yaml" --to "$fmt" >"$tmp/file.$fmt" 2>&1
	"$bin/kifu-export" --db "$tmp/clocks.db" --id 1 --to "$fmt" >"$tmp/db.$fmt" 2>&1
done
check "clocks: yaml from the database = from the file" cmp -s "$tmp/file.yaml" "$tmp/db.yaml"
check "clocks: the database keeps them as written" \
	[ "$(q "$tmp/clocks.db" 'SELECT group_concat(clock_text, " ") FROM (SELECT clock_text FROM moves ORDER BY ply)')" = "1:30 0x10 12.50 017 1_000" ]
python3 - "$tmp/file.json" "$tmp/db.json" <<'PY' || fail "clocks: json from the database differs"
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
a = a[0] if isinstance(a, list) else a
b = b[0] if isinstance(b, list) else b
clocks = [m.get("clock") for m in b["moves"]]
assert [m.get("clock") for m in a["moves"]] == clocks, (a["moves"], b["moves"])
assert clocks == [90, 16, 12.50, 15, 1000], clocks
PY
# text and html name their source on the first line / in the title only.
check "clocks: text from the database = from the file" \
	[ "$(tail -n +2 "$tmp/file.text")" = "$(tail -n +2 "$tmp/db.text")" ]
check "clocks: html from the database = from the file" \
	[ "$(grep -v '<title>\|<h1>' "$tmp/file.html")" = "$(grep -v '<title>\|<h1>' "$tmp/db.html")" ]
check "clocks: seconds in the moves view" \
	[ "$(q "$tmp/clocks.db" 'SELECT group_concat(clock, " ") FROM (SELECT clock FROM moves ORDER BY ply)')" = "90.0 16.0 12.5 15.0 1000.0" ]
printf 'game: splay-schmidt\nmoves:\n  - {move: g4, clock: 99999999999999999999999999}\n' >"$tmp/huge.yaml"
"$bin/kifu-validate" "$tmp/huge.yaml" >/dev/null 2>"$tmp/err"
check "a 26-digit clock is out of range, not 0 seconds" grep -q "'clock' must be a number of seconds from 0" "$tmp/err"

# ---- The quarantine holds a rejected record once, whatever path it came by.
mkdir "$tmp/q"
printf -- '---\ngame: splay-schmidt\nmoves: [g7, g7]\n---\ngame: nosuchgame\nmoves: []\n' >"$tmp/q/x.yaml"
(
	cd "$tmp/q" || exit 1
	"$bin/kifu-import" --quiet --db q.db x.yaml
	"$bin/kifu-import" --quiet --db q.db ./x.yaml
	"$bin/kifu-import" --quiet --db q.db "$tmp/q/x.yaml"
	"$bin/kifu-import" --quiet --db q.db - <x.yaml
) >/dev/null 2>&1
check "quarantine: one row per record after four imports by four paths" \
	[ "$(q "$tmp/q/q.db" 'SELECT count(*), count(DISTINCT raw) FROM quarantine')" = "2|2" ]
check "quarantine: its diagnostics once" \
	[ "$(q "$tmp/q/q.db" 'SELECT count(*) FROM quarantine_diags')" = "$(q "$tmp/q/q.db" 'SELECT sum(errors) FROM quarantine')" ]

# ---- Tools that only read never create a database.
mkdir "$tmp/empty"
for t in "kifu-search" "kifu-stats summary" "kifu-stats players" "kifu-export --id 1 --to yaml"; do
	# shellcheck disable=SC2086
	$bin/$t --db "$tmp/empty/typo.db" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "missing --db: $t exits 3 (got $rc)" [ $rc -eq 3 ]
	check "missing --db: $t says so" grep -qF "no database at '$tmp/empty/typo.db'" "$tmp/err"
	check "missing --db: $t creates nothing" [ -z "$(ls -A "$tmp/empty")" ]
done
(
	cd "$tmp/empty" || exit 1
	unset KIFU_DB
	"$bin/kifu-search" >/dev/null 2>"$tmp/err"
	echo $? >"$tmp/rc"
)
check "kifu-search in an empty directory exits 3" [ "$(cat "$tmp/rc")" = 3 ]
check "kifu-search in an empty directory names kifu.db" grep -qF "no database at 'kifu.db'" "$tmp/err"
check "kifu-search in an empty directory creates nothing" [ -z "$(ls -A "$tmp/empty")" ]

# ---- A database of the release before schema 4: read as it is, migrated by a write.
cp tests/data/store/schema-3.sqlite "$tmp/v3.db"
chmod 644 "$tmp/v3.db"
# What the read tools say about a database (run as another user below, hence a script).
cat >"$tmp/reports.sh" <<'SH'
bin=$1 db=$2 status=0
{
	"$bin/kifu-stats" --db "$db" summary || status=$?
	"$bin/kifu-stats" --db "$db" --no-cache openings --depth 4 --by-position || status=$?
	"$bin/kifu-stats" --db "$db" players || status=$?
	"$bin/kifu-search" --db "$db" || status=$?
	"$bin/kifu-search" --db "$db" --game splay-schmidt --after g4 || status=$?
	"$bin/kifu-export" --db "$db" --game splay-schmidt --to yaml || status=$?
	"$bin/kifu-export" --db "$db" --game splinter --to json || status=$?
} 2>&1
echo "status $status"
SH
reports() { # DB OUT
	sh "$tmp/reports.sh" "$bin" "$1" >"$2"
}
reports "$tmp/v3.db" "$tmp/v3.out"
check "v3: read tools leave the schema version" [ "$(q "$tmp/v3.db" 'PRAGMA user_version')" = 3 ]
check "v3: read tools report" grep -q "^status 0" "$tmp/v3.out"
check "v3: the position search finds games" [ "$(grep -c 'splay-schmidt' "$tmp/v3.out")" -gt 2 ]
"$bin/kifu-import" --quiet --db "$tmp/v3.db" examples/invalid/illegal-move.yaml >/dev/null 2>&1
check "v3: the first write migrates" [ "$(q "$tmp/v3.db" 'PRAGMA user_version')" -ge 5 ]
reports "$tmp/v3.db" "$tmp/v4.out"
# The same, but for the json's novelty_ply: a stored game's novelty needs the
# position index, which schema 3 lacks (null there, as its novelties report is
# empty) and the migration builds.
grep -v '"novelty_ply"' "$tmp/v3.out" >"$tmp/v3.kept"
grep -v '"novelty_ply"' "$tmp/v4.out" >"$tmp/v4.kept"
check "v3: the same reports after the migration" cmp -s "$tmp/v3.kept" "$tmp/v4.kept"
check "v3: the novelties are known after the migration" grep -q '"novelty_ply":[0-9]' "$tmp/v4.out"

# ---- Reports on a database the user cannot write. As root, the tools run
# as the user nobody (setpriv), who cannot enter a clone in /root (mode 700)
# or in a mktemp -d directory, nor its bin/ (issue 28): nobody gets copies
# of the tools, the databases and the files it reads, in a directory of its
# own it can reach ($home), and starts there. So that this is tested
# wherever the clone is, root first runs the tools from a copy in a
# directory only root can enter ($tmp/private), as from such a clone.
as_user=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		# TMPDIR may be root's too: nobody's temporary files go to the default.
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups -- env -u TMPDIR"
	elif [ "${CI:-}" = true ]; then
		fail "read-only database: setpriv (util-linux) is needed to test as a user, not root"
	else
		echo "store.sh: skipped the read-only database checks: no setpriv to drop root"
	fi
fi
home=$tmp
all_bin=$bin
if [ -n "$as_user" ]; then
	mkdir -m 700 "$tmp/private" "$tmp/private/bin"
	cp "$bin/kifu-import" "$bin/kifu-stats" "$bin/kifu-search" "$bin/kifu-export" "$tmp/private/bin/"
	bin=$tmp/private/bin
	cd "$tmp/private" || exit 1
	# Where nobody can reach: $tmp, unless TMPDIR is a directory of root's.
	# shellcheck disable=SC2086
	if $as_user test -x "$tmp"; then
		home=$tmp/user
		mkdir "$home"
	else
		home=$(mktemp -d /tmp/kifu-store-user.XXXXXX) || exit 1
		test_at_exit "rm -rf '$home'"
	fi
	mkdir "$home/bin" "$home/examples"
	cp "$bin"/kifu-* "$home/bin/"
	cp "$tmp/reports.sh" "$home/"
	cp -R "$src/examples/glaisher" "$home/examples/"
	chmod -R go+rX "$home"
fi
ro=$home/ro
mkdir "$ro"
"$bin/kifu-import" --quiet --db "$ro/games.db" "$src/examples/splay-schmidt" "$src/examples/splinter" >/dev/null 2>&1
reports "$ro/games.db" "$tmp/rw.out"
# A fresh copy, its statistics tables never filled: the reports must compute.
"$bin/kifu-import" --quiet --db "$ro/fresh.db" "$src/examples/splay-schmidt" "$src/examples/splinter" >/dev/null 2>&1
chmod 444 "$ro/games.db" "$ro/fresh.db"
chmod 555 "$ro"
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	ubin=$bin
	[ -z "$as_user" ] || ubin=$home/bin
	for db in games fresh; do
		# shellcheck disable=SC2086
		(cd "$home" && $as_user sh "$home/reports.sh" "$ubin" "$ro/$db.db") >"$tmp/ro-$db.out"
		check "read-only $db.db: the reports of a writable copy" test_cmp "$tmp/rw.out" "$tmp/ro-$db.out"
		# shellcheck disable=SC2086
		(cd "$home" && $as_user "$ubin/kifu-stats" --db "$ro/$db.db" openings) >/dev/null 2>"$tmp/err"
		check "read-only $db.db: openings from the tables or the games" [ $? -eq 0 ]
	done
	check "read-only: nothing written beside the databases" \
		[ "$(ls -A "$ro" | sort | tr '\n' ' ')" = "fresh.db games.db " ]
	if [ -n "$as_user" ]; then
		# The user can read the records (the test is honest): what stops it is the database.
		# shellcheck disable=SC2086
		(cd "$home" && $as_user "$ubin/kifu-import" --quiet --db "$ro/games.db" examples/glaisher) >/dev/null 2>"$tmp/err"
		check "read-only: kifu-import cannot write it (the test is honest)" [ $? -eq 3 ]
		check "read-only: kifu-import says it cannot write the database" grep -q "games.db.*readonly database" "$tmp/err"
	fi
fi
bin=$all_bin
cd "$src" || exit 1

# ---- Reports on a read-only mount and on a full disk (issue 10): mounts
# made in a private mount namespace (unshare -m), gone when it ends. Where
# this machine does not allow mounting, the checks are skipped and say so.
mkdir "$tmp/mnt" "$tmp/src"
"$bin/kifu-import" --quiet --db "$tmp/src/fresh.db" examples/splay-schmidt examples/splinter >/dev/null 2>&1
if unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$tmp/mnt'" 2>/dev/null; then
	# A read-only bind mount of a directory holding a database whose
	# statistics tables were never filled.
	unshare -m sh -c "mount --bind -o ro '$tmp/src' '$tmp/mnt' && mount -o remount,bind,ro '$tmp/mnt' 2>/dev/null;
		touch '$tmp/mnt/probe' 2>/dev/null && echo writable;
		sh '$tmp/reports.sh' '$bin' '$tmp/mnt/fresh.db'" >"$tmp/rom.out" 2>&1
	check "read-only mount: the mount is read-only (the test is honest)" sh -c "! grep -q '^writable' '$tmp/rom.out'"
	check "read-only mount: the reports of a writable copy" cmp -s "$tmp/rw.out" "$tmp/rom.out"
	# A full disk: a small tmpfs holding a copy of the database, the rest
	# of its space filled.
	size=$(( $(wc -c <"$tmp/src/fresh.db") / 1024 + 256 ))
	unshare -m sh -c "mount -t tmpfs -o size=${size}k tmpfs '$tmp/mnt' && cp '$tmp/src/fresh.db' '$tmp/mnt/' &&
		{ dd if=/dev/zero of='$tmp/mnt/fill' bs=4k 2>/dev/null; true; } &&
		{ echo x >'$tmp/mnt/probe' 2>/dev/null && [ -s '$tmp/mnt/probe' ] && echo space-left; true; };
		sh '$tmp/reports.sh' '$bin' '$tmp/mnt/fresh.db'" >"$tmp/full.out" 2>&1
	check "full disk: the disk is full (the test is honest)" sh -c "! grep -q '^space-left' '$tmp/full.out'"
	check "full disk: the reports of a writable copy" cmp -s "$tmp/rw.out" "$tmp/full.out"
else
	echo "store.sh: skipped the read-only mount and full disk checks: this machine does not allow mounting"
fi

test_done
