#!/bin/sh
# The PostgreSQL recipes of docs/postgresql.md (the README's PostgreSQL
# section links there), run as written (the blocks that follow a "tested by
# tests/cli/pg-readme.sh" comment, taken from docs/postgresql.md itself),
# with the test server's URI in place of db.example.org's, the password of a
# role that needs one in ~/.pgpass (HOME is a scratch directory), and
# smaller numbers of games and playouts (mcts:400 becomes mcts:4):
# - self-play on several machines: the block runs on four "machines" at once
#   (MACHINE=1, 2, 3 and 1 again, which plays the same games as machine 1);
#   the server then holds exactly the games of the same commands run one
#   after another into SQLite, and the reports of step 4 run;
# - moving a SQLite database into PostgreSQL: the block, run in a directory
#   holding kifu.db (examples/ imported), says 'the same games', and the
#   server holds the file's games.
set -u
# It adds roles and names databases in its URIs: a server of its own.
pg_own_server=1
. tests/cli/lib/pg.sh
src=$(pwd)
. tests/cli/lib/games.sh


# block N: the code block after the Nth test marker of docs/postgresql.md, unindented.
block() {
	awk -v n="$1" '
		/<!-- tested by tests\/cli\/pg-readme.sh/ { k++; if (k == n) on = 1; next }
		on && /^ *$/ { if (started) exit; next }
		on { started = 1; print }' "$src/docs/postgresql.md" | sed 's/^ *//'
}

pg_psql postgres -c "CREATE ROLE kifu_auth LOGIN PASSWORD 'club pass phrase'" >/dev/null &&
	pg_psql postgres -c "CREATE DATABASE club OWNER kifu_auth" >/dev/null &&
	pg_psql postgres -c "CREATE DATABASE moved OWNER kifu_auth" >/dev/null || fail "cannot create the role"
mkdir "$tmp/home"
export HOME="$tmp/home"
unset PGPASSFILE
printf '*:*:*:kifu_auth:club pass phrase\n' >"$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"
export PATH="$bin:$PATH"
club="postgresql://kifu_auth@/club?host=$PG_DIR"

# ---- Self-play on several machines.
block 1 >"$tmp/play.sh"
grep -q '^export KIFU_DB=' "$tmp/play.sh" && grep -q 'kifu-play .*--seed "$MACHINE"' "$tmp/play.sh" ||
	fail "docs/postgresql.md's self-play block is not the one this test knows: $(cat "$tmp/play.sh")"
sed -i -e "s|^export KIFU_DB=.*|export KIFU_DB='$club'|" -e 's/mcts:\([0-9]\)[0-9]*/mcts:\1/g' \
	-e 's/--games [0-9]*/--games 5/' "$tmp/play.sh"
pids=""
for m in 1 2 3 1; do
	MACHINE=$m sh -e "$tmp/play.sh" >"$tmp/play.$m.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "a machine's self-play failed: $(cat "$tmp"/play.*.out | head -c 400)"
done
for m in 1 2 3; do
	sed "s|^export KIFU_DB=.*|export KIFU_DB='$tmp/ref.db'|" "$tmp/play.sh" >"$tmp/ref.sh"
	MACHINE=$m sh -e "$tmp/ref.sh" >/dev/null 2>&1 || fail "the self-play block into SQLite"
done
games_digest "$club" "$tmp/club.digest" && games_digest "$tmp/ref.db" "$tmp/ref.digest" || fail "kifu-export"
[ "$(grep -c '^---$' "$tmp/club.digest")" -ge 25 ] || fail "only $(grep -c '^---$' "$tmp/club.digest") games played"
cmp -s "$tmp/club.digest" "$tmp/ref.digest" || fail "the machines' games are not those of the same commands into SQLite"
(
	cd "$tmp" || exit 1
	export KIFU_DB="$club"
	kifu-stats --game splinter players >players.txt &&
		kifu-stats --game splinter openings --depth 3 --min-games 20 --svg openings.svg >/dev/null &&
		[ -s openings.svg ] && grep -q 'mcts:4 #1' players.txt
) || fail "step 4's reports"

# ---- Moving a SQLite database into PostgreSQL.
mkdir "$tmp/move"
kifu-import --quiet --db "$tmp/move/kifu.db" "$src/examples" >/dev/null 2>&1
block 2 >"$tmp/move.sh"
grep -q '^export KIFU_DB=' "$tmp/move.sh" && grep -q 'kifu-import -$' "$tmp/move.sh" ||
	fail "docs/postgresql.md's moving block is not the one this test knows: $(cat "$tmp/move.sh")"
sed -i "s|^export KIFU_DB=.*|export KIFU_DB='postgresql://kifu_auth@/moved?host=$PG_DIR'|" "$tmp/move.sh"
(cd "$tmp/move" && sh "$tmp/move.sh") >"$tmp/move.out" 2>&1
[ "$(tail -1 "$tmp/move.out")" = "the same games" ] || fail "moving: $(head -c 600 "$tmp/move.out")"
games_digest "$tmp/move/kifu.db" "$tmp/file.digest" &&
	games_digest "postgresql://kifu_auth@/moved?host=$PG_DIR" "$tmp/moved.digest" || fail "kifu-export after moving"
cmp -s "$tmp/file.digest" "$tmp/moved.digest" || fail "the moved games differ from the file's"
[ "$(grep -c '^---$' "$tmp/moved.digest")" -ge 700 ] || fail "only $(grep -c '^---$' "$tmp/moved.digest") games moved"

test_done
