#!/bin/sh
# PostgreSQL loaded in bulk (issue 31): in a group of games (from a
# connection's second group on) the ids of new games and players are taken
# by the client, and duplicates found by their content hash without asking
# the server a game at a time. On a file of 4,500 games (several groups;
# 900 and 1,300 player names; 700 of the games again at the end, and some
# right after themselves), into SQLite and into PostgreSQL: every game and
# player has the same id on both (no gap from a duplicate), the summaries
# agree; the server ran a per-game look-up (a games or players insert that
# takes its id from the sequence, a look-up of a name or a content hash) for
# fewer than a third of the games (the old way: one or more each); the
# sequences end at the highest ids (a game written alone, kifu-play's way,
# takes the next one). A re-run stores nothing. A player the server refuses
# in a later group is quarantined with its reason, the batch goes on, and
# the ids stay SQLite's. Two importers at once of overlapping halves store
# every game once, ids 1..N without a gap. (A server of its own: its log
# counts the statements.)
# tests/run: early (it is long)
# tests/run: plain (what it counts, the server's per-game look-ups, the ids
# and the quarantined refusal, holds for any build; the client's ids and
# duplicates (pg_ids.c) and the COPYs of a group run under the sanitizers in
# pg-stats-kept.sh, whose imports of 1,100 games and three writers at once
# take several groups, and in pg-store.sh and pg-faults.sh)
set -u
pg_own_server=1
. tests/cli/lib/pg.sh
n=4500

"$bin/kifu-play" splinter --players random,random --games "$n" --seed 7 --max-plies 30 --quiet \
	>"$tmp/play.yaml" 2>/dev/null || fail "kifu-play"
# Names: game k's blue p(k % 900), white q(k % 1300); game 2000 once more after itself.
awk '/^---$/ { k++ } /^  blue: / { print "  blue: p" (k % 900); next }
	/^  white: / { print "  white: q" (k % 1300); next } { print }' "$tmp/play.yaml" >"$tmp/named.yaml"
awk -v from=2000 -v to=2000 '/^---$/ { k++ } k >= from && k <= to' "$tmp/named.yaml" >"$tmp/again.yaml"
awk '/^---$/ { k++ } k <= 2000' "$tmp/named.yaml" >"$tmp/all.yaml"
cat "$tmp/again.yaml" >>"$tmp/all.yaml"
awk '/^---$/ { k++ } k > 2000' "$tmp/named.yaml" >>"$tmp/all.yaml"
awk '/^---$/ { k++ } k <= 700' "$tmp/named.yaml" >>"$tmp/all.yaml"
total=$(grep -c '^---$' "$tmp/all.yaml")

ids() { # DB: every game's id and key, every player's id and name
	case $1 in
	postgres*) pg_psql "${2:-kifu}" -F' ' -c 'SELECT id, content_hash FROM games ORDER BY id' \
			-c 'SELECT id, name FROM players ORDER BY id' ;;
	*) sqlite3 -separator ' ' "$1" 'SELECT id, content_hash FROM games ORDER BY id' \
			'SELECT id, name FROM players ORDER BY id' ;;
	esac
}

"$bin/kifu-import" --db "$tmp/lite.db" "$tmp/all.yaml" >"$tmp/lite.out" 2>&1 || fail "SQLite import exited $?"
check "SQLite: duplicates ($(cat "$tmp/lite.out"))" grep -q "^imported $n, duplicates $((total - n)), rejected 0$" \
	"$tmp/lite.out"
pg_psql kifu -c "ALTER DATABASE $(pg_dbname kifu) SET log_statement = 'all'" >/dev/null || fail "log_statement"
: >"$PG_DIR/log"
"$bin/kifu-import" --db "$db" "$tmp/all.yaml" >"$tmp/pg.out" 2>&1 || fail "PostgreSQL import exited $?"
check "PostgreSQL: the same summary ($(cat "$tmp/pg.out"))" cmp -s "$tmp/lite.out" "$tmp/pg.out"
pg_psql kifu -c "ALTER DATABASE $(pg_dbname kifu) RESET log_statement" >/dev/null
ids "$tmp/lite.db" >"$tmp/lite.ids"
ids "$db" >"$tmp/pg.ids"
check "the same ids as SQLite ($(wc -l <"$tmp/pg.ids") rows)" test_cmp "$tmp/lite.ids" "$tmp/pg.ids"
check "every game stored" [ "$(pg_psql kifu -c 'SELECT count(*) FROM games')" = "$n" ]
check "ids 1..$n" [ "$(pg_psql kifu -c 'SELECT max(id) FROM games')" = "$n" ]
# The per-game look-ups the server ran (statements logged as executed).
lookups=$(grep -E 'execute .*(nextval|md5\(name\) = md5|content_hash = \$1)' "$PG_DIR/log" | grep -vc 'COPY')
check "per-game look-ups: $lookups for $total games" [ "$lookups" -lt $((total / 3)) ]
check "games_id_seq at the highest id" \
	[ "$(pg_psql kifu -c 'SELECT last_value FROM games_id_seq')" = "$n" ]
check "players_id_seq at the highest id" \
	[ "$(pg_psql kifu -c 'SELECT last_value FROM players_id_seq')" = 2200 ]
# A game alone (its own transaction, ids from the sequences) takes the next ids.
"$bin/kifu-play" glaisher --players random,random --games 1 --seed 3 --quiet >"$tmp/one.yaml" 2>/dev/null ||
	fail "kifu-play: one game"
"$bin/kifu-import" --quiet --db "$tmp/lite.db" "$tmp/one.yaml" || fail "SQLite: one game"
"$bin/kifu-import" --quiet --db "$db" "$tmp/one.yaml" || fail "PostgreSQL: one game"
ids "$tmp/lite.db" >"$tmp/lite.ids"
ids "$db" >"$tmp/pg.ids"
check "one more game: the same ids" test_cmp "$tmp/lite.ids" "$tmp/pg.ids"
check "one more game: stored, with its new players" \
	[ "$(pg_psql kifu -c 'SELECT max(g.id), max(p.id) FROM games g, players p')" = "$((n + 1))|2202" ]

"$bin/kifu-import" --db "$db" "$tmp/all.yaml" >"$tmp/pg.out" 2>&1 || fail "re-run exited $?"
check "re-run: nothing new ($(cat "$tmp/pg.out"))" grep -q "^imported 0, duplicates $total, rejected 0$" "$tmp/pg.out"
c=$(pg_psql kifu -c "SELECT count(*) FROM games")
check "re-run: $((n + 1)) games ($c)" [ "$c" = $((n + 1)) ]

# ---- A player refused in a later group: that game quarantined, the rest stored, SQLite's ids.
awk '/^---$/ { k++ } k == 3500 && /^  blue: / { print "  blue: refuse me"; next } { print }' \
	"$tmp/named.yaml" >"$tmp/refused.yaml"
ref=$(pg_createdb refuse)
: >"$tmp/empty.yaml"
"$bin/kifu-import" --quiet --db "$ref" "$tmp/empty.yaml" || fail "refuse: the schema"
pg_psql refuse -c "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
	IF NEW.name = 'refuse me' THEN
		RAISE EXCEPTION 'a refused name' USING ERRCODE = '22000';
	END IF;
	RETURN NEW;
END \$\$;
CREATE TRIGGER refuse BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION refuse()" >/dev/null ||
	fail "the trigger"
"$bin/kifu-import" --db "$ref" "$tmp/refused.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "refused: exit $rc, expected 1 ($(head -c 300 "$tmp/err"))" [ $rc -eq 1 ]
check "refused: summary ($(cat "$tmp/out"))" grep -q "^imported $((n - 1)), duplicates 0, rejected 1$" "$tmp/out"
check "refused: the message" grep -q "error: game 3500: cannot be stored: .*a refused name" "$tmp/err"
"$bin/kifu-import" --quiet --db "$tmp/ref.db" "$tmp/empty.yaml" || fail "SQLite refuse: the schema"
sqlite3 "$tmp/ref.db" "CREATE TRIGGER refuse BEFORE INSERT ON players
	WHEN NEW.name = 'refuse me' BEGIN SELECT RAISE(ABORT, 'a refused name'); END" || fail "SQLite trigger"
"$bin/kifu-import" --quiet --db "$tmp/ref.db" "$tmp/refused.yaml" 2>/dev/null
ids "$tmp/ref.db" >"$tmp/lite.ids"
ids "$ref" refuse >"$tmp/pg.ids"
check "refused: the same ids as SQLite" test_cmp "$tmp/lite.ids" "$tmp/pg.ids"

# ---- Two importers at once, overlapping halves: every game once, no gap.
awk '/^---$/ { k++ } k <= 3000' "$tmp/named.yaml" >"$tmp/a.yaml"
awk '/^---$/ { k++ } k > 1500' "$tmp/named.yaml" >"$tmp/b.yaml"
two=$(pg_createdb two)
"$bin/kifu-import" --quiet --db "$two" "$tmp/empty.yaml" || fail "two: the schema"
"$bin/kifu-import" --db "$two" "$tmp/a.yaml" >"$tmp/a.out" 2>&1 &
a=$!
"$bin/kifu-import" --db "$two" "$tmp/b.yaml" >"$tmp/b.out" 2>&1 || fail "two: B exited $?"
wait $a || fail "two: A exited $?"
check "two: every game once" [ "$(pg_psql two -c 'SELECT count(*), count(DISTINCT content_hash), max(id) FROM games')" = "$n|$n|$n" ]
check "two: the players once, ids 1..2200" \
	[ "$(pg_psql two -c 'SELECT count(*), count(DISTINCT name), max(id) FROM players')" = "2200|2200|2200" ]
imp=$(cat "$tmp/a.out" "$tmp/b.out" | awk -F'[ ,]+' '/^imported/ { i += $2; d += $4 } END { print i, d }')
check "two: imported and duplicates add up ($imp)" [ "$imp" = "$n 1500" ]
check "two: the listing and the index hold every game" \
	[ "$(pg_psql two -c 'SELECT (SELECT count(*) FROM game_listing), (SELECT count(DISTINCT game_id) FROM positions_hash)')" = "$n|$n" ]
test_done
