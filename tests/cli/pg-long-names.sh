#!/bin/sh
# A long player name on PostgreSQL (issue 28): a valid record naming a player
# of 3,000 characters, the 200th of 400 games, is stored on both backends
# alike (a btree entry holds at most 2,704 bytes: schema/pg/009 keys names
# by their MD5), with the same reports; a database of schema 8 (both
# backends) is migrated to 9 by the next import and takes the name too. A
# record the server refuses on its values (a trigger raising a data error,
# as a server with its own limits would) is quarantined with the server's
# reason, the message naming the file and the game, while the 399 others go
# in, on PostgreSQL and on SQLite, and a re-run adds nothing.
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/games.sh
import=$bin/kifu-import
stats=$bin/kifu-stats

# 400 games, the 200th's first player named by 3,000 characters.
"$bin/kifu-play" splinter --players random,mcts:4 --games 400 --seed 11 --max-plies 30 --quiet \
	>"$tmp/all.yaml" || fail "kifu-play exited $?"
# random letters: PostgreSQL compresses an index entry, and a repeated text would fit
long=$(python3 -c 'import random, string
r = random.Random(28)
print("Ann " + "".join(r.choice(string.ascii_letters) for _ in range(2996)))')
python3 - "$tmp/all.yaml" "$long" <<'PY' || fail "editing the 200th game"
import re, sys
path, name = sys.argv[1], sys.argv[2]
docs = open(path, encoding="utf-8").read().split("---\n")
assert docs[0] == "" and len(docs) == 401, len(docs)
docs[200], n = re.subn(r"(?m)^  blue: '[^']*'$", "  blue: '%s'" % name, docs[200])
assert n == 1, docs[200]
open(path, "w", encoding="utf-8").write("---\n".join(docs))
PY
[ ${#long} -eq 3000 ] || fail "the name has ${#long} characters"

# Both backends store all 400, with the same reports.
"$import" --quiet --db "$db" "$tmp/all.yaml" 2>"$tmp/err"
rc=$?
check "PostgreSQL: exit $rc ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
"$import" --quiet --db "$tmp/all.db" "$tmp/all.yaml" || fail "SQLite: exit $?"
check "PostgreSQL: 400 games" [ "$(games_count "$db")" = 400 ]
for r in players summary; do
	"$stats" --db "$db" --format csv $r >"$tmp/pg.$r" || fail "PostgreSQL: $r exited $?"
	"$stats" --db "$tmp/all.db" --format csv $r >"$tmp/sq.$r" || fail "SQLite: $r exited $?"
	check "$r: PostgreSQL's differs from SQLite's" test_cmp "$tmp/sq.$r" "$tmp/pg.$r"
done
check "players: the long name" grep -q "^$long," "$tmp/pg.players"
"$bin/kifu-search" --db "$db" --player "$long" --json >"$tmp/found" || fail "search by the long name"
check "search by the long name: game 200" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["id"] for r in rows] == [200], rows' "$tmp/found"
check "PostgreSQL: schema 12 (9 the keys)" [ "$(pg_psql kifu -c 'SELECT version FROM kifu_schema')" = 12 ]
# a second import: all duplicates, the long name found again (not a second player)
"$import" --db "$db" "$tmp/all.yaml" >"$tmp/out" 2>&1 || fail "re-import exited $?"
check "re-import: duplicates" grep -q '^imported 0, duplicates 400, rejected 0$' "$tmp/out"
check "one player of that name" \
	[ "$(pg_psql kifu -c "SELECT count(*) FROM players WHERE length(name) = 3000")" = 1 ]

# ---- A database of schema 8 takes it after the migration.
old=$(pg_createdb old)
python3 - "$tmp/all.yaml" "$tmp/first.yaml" "$tmp/rest.yaml" <<'PY'
import sys
docs = open(sys.argv[1], encoding="utf-8").read().split("---\n")[1:]
open(sys.argv[2], "w", encoding="utf-8").write("".join("---\n" + d for d in docs[:199]))
open(sys.argv[3], "w", encoding="utf-8").write("".join("---\n" + d for d in docs[199:]))
PY
"$import" --quiet --db "$old" "$tmp/first.yaml" || fail "old: first import exited $?"
# schema 8's keys, as kifu of version 8 made them (and no game_lines, schema 10's, nor schema 11's tables)
pg_psql old -c "DROP INDEX players_name_md5; ALTER TABLE players ADD UNIQUE (name);
	DROP INDEX quarantine_file_md5; ALTER TABLE quarantine ADD UNIQUE (file, file_game, raw_hash);
	DROP TABLE game_lines; DROP TABLE stats_player_sums; DROP TABLE stats_pairs;
	UPDATE kifu_schema SET version = 8" >/dev/null || fail "making schema 8"
check "old: the key of schema 8" [ "$(pg_psql old -c "SELECT count(*) FROM pg_indexes WHERE indexname = 'players_name_key'")" = 1 ]
"$stats" --db "$old" --format csv summary >/dev/null || fail "old: a reader of schema 8 exited $?"
check "old: a reader migrated" [ "$(pg_psql old -c 'SELECT version FROM kifu_schema')" = 8 ]
"$import" --quiet --db "$old" "$tmp/rest.yaml" 2>"$tmp/err"
rc=$?
check "old: exit $rc ($(head -c 300 "$tmp/err"))" [ $rc -eq 0 ]
check "old: schema 12" [ "$(pg_psql old -c 'SELECT version FROM kifu_schema')" = 12 ]
check "old: no key on the name itself" \
	[ "$(pg_psql old -c "SELECT count(*) FROM pg_indexes WHERE indexname = 'players_name_key'")" = 0 ]
"$stats" --db "$old" --format csv players >"$tmp/old.players" || fail "old: players exited $?"
check "old: players differ from SQLite's" test_cmp "$tmp/sq.players" "$tmp/old.players"
# SQLite: a file of schema 8 becomes 10 (9 changes nothing there)
"$import" --quiet --db "$tmp/old.db" "$tmp/first.yaml" || fail "old SQLite: first import"
sqlite3 "$tmp/old.db" 'DROP TABLE game_lines; DROP TABLE stats_player_sums; DROP TABLE stats_pairs; PRAGMA user_version = 8' || fail "old SQLite: user_version"
"$import" --quiet --db "$tmp/old.db" "$tmp/rest.yaml" || fail "old SQLite: exit $?"
check "old SQLite: schema 12" [ "$(sqlite3 "$tmp/old.db" 'PRAGMA user_version')" = 12 ]
"$stats" --db "$tmp/old.db" --format csv players >"$tmp/old.players" || fail "old SQLite: players"
check "old SQLite: players differ" test_cmp "$tmp/sq.players" "$tmp/old.players"

# ---- A record the server refuses: quarantined with the reason, the rest stored.
# refused DB: kifu-import of all.yaml where the long name cannot be stored
refused() {
	r=$1
	"$import" --db "$r" "$tmp/all.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$2: exit $rc, expected 1 ($(head -c 300 "$tmp/err"))" [ $rc -eq 1 ]
	check "$2: summary" grep -q '^imported 399, duplicates 0, rejected 1$' "$tmp/out"
	check "$2: the message names file and game ($(head -c 300 "$tmp/err"))" \
		grep -q "^$tmp/all.yaml:[0-9]*:[0-9]*: error: game 200: cannot be stored: .*$3" "$tmp/err"
	check "$2: 399 games" [ "$(games_count "$r")" = 399 ]
	"$import" --db "$r" "$tmp/all.yaml" >"$tmp/out" 2>"$tmp/err"
	check "$2: re-run" grep -q '^imported 0, duplicates 399, rejected 1$' "$tmp/out"
	check "$2: still 399 games" [ "$(games_count "$r")" = 399 ]
}
ref=$(pg_createdb refuse)
: >"$tmp/empty.yaml"
"$import" --quiet --db "$ref" "$tmp/empty.yaml" || fail "refuse: the schema"
pg_psql refuse -c "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
	IF length(NEW.name) > 2000 THEN
		RAISE EXCEPTION 'a name of % characters', length(NEW.name) USING ERRCODE = '54000';
	END IF;
	RETURN NEW;
END \$\$;
CREATE TRIGGER refuse BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION refuse()" >/dev/null ||
	fail "the trigger"
refused "$ref" "PostgreSQL, refused" "a name of 3000 characters"
check "PostgreSQL, refused: quarantined with its reason" [ "$(pg_psql refuse -c \
	"SELECT count(*) FROM quarantine q JOIN quarantine_diags d ON d.quarantine_id = q.id
	 WHERE q.file_game = 200 AND d.message LIKE 'game 200: cannot be stored: %a name of 3000 characters'")" = 1 ]
"$stats" --db "$ref" --format csv summary >"$tmp/ref.summary" || fail "refused: summary"
sed 1d "$tmp/ref.summary" >"$tmp/ref.rows"
check "PostgreSQL, refused: 399 games in summary" grep -q '^splinter,knockout,399,' "$tmp/ref.rows"
"$import" --quiet --db "$tmp/ref.db" "$tmp/empty.yaml" || fail "SQLite refuse: the schema"
sqlite3 "$tmp/ref.db" "CREATE TRIGGER refuse BEFORE INSERT ON players
	WHEN length(NEW.name) > 2000 BEGIN SELECT RAISE(ABORT, 'a name too long'); END" ||
	fail "SQLite trigger"
refused "$tmp/ref.db" "SQLite, refused" "a name too long"
# every game of the batch whole (its moves, sent by COPY at the commit, kept past the rollback)
games_digest "$ref" "$tmp/ref.pg.digest" && games_digest "$tmp/ref.db" "$tmp/ref.sq.digest" ||
	fail "kifu-export of the refused databases"
check "refused: PostgreSQL's games differ from SQLite's" cmp -s "$tmp/ref.sq.digest" "$tmp/ref.pg.digest"

test_done
