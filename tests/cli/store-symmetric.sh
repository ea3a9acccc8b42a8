#!/bin/sh
# Schema 5 as stored: the canonical hash of every ply (game_canon.canon),
# its index positions_canon, the tree counts (tree_moves) and the listing
# rows (game_listing), checked against what python3 works out from the
# packed moves and hashes (and, for canonical hashes, against kifu-stats
# tree --symmetric's own replay) after: the migration of a database of the
# release before schema 4 and of the one before schema 5
# (tests/data/store/schema-*.sqlite), an ordinary import, and an import
# large enough to switch to bulk mode. The migrated and the imported
# databases of the same games hold the same rows.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
stats=$bin/kifu-stats
import=$bin/kifu-import
play=$bin/kifu-play

# Every check on the tables of schema 5 that python3 can make from the rest.
tables_ok() { # DB
	python3 - "$1" <<'PY'
import json, sqlite3, sys
from collections import defaultdict
c = sqlite3.connect(sys.argv[1])
q = lambda sql, *a: c.execute(sql, a).fetchall()
ok = True
def fail(msg):
    global ok
    ok = False
    print("  " + msg)
assert q("PRAGMA user_version")[0][0] >= 5
if q("PRAGMA integrity_check")[0][0] != "ok":
    fail("integrity_check")
state = q("SELECT last_id, depth FROM stats_state WHERE name = 'tree'")
maxid = q("SELECT ifnull(max(id), 0) FROM games")[0][0]
if not state or state[0][0] != maxid:
    fail("stats_state tree %r, max id %d" % (state, maxid))
depth = state[0][1] if state else 4
canon_index, games = {}, []
sides = {}
for gid, game, variant, result, plies, moves, hashes, canon in q(
        "SELECT g.id, g.game, g.variant, g.result, g.plies, m.moves, m.hashes, c.canon "
        "FROM games g JOIN game_moves m ON m.game_id = g.id LEFT JOIN game_canon c "
        "ON c.game_id = g.id"):
    moves, hashes = json.loads(moves), json.loads(hashes)
    if canon is None:
        fail("game %d: no canon" % gid)
        continue
    canon = json.loads(canon)
    if len(canon) != len(hashes) or len(canon) != plies + 1:
        fail("game %d: %d canonical hashes for %d plies" % (gid, len(canon), plies))
        continue
    for ply, h in enumerate(canon):
        canon_index.setdefault((h, gid), ply)
    if game not in sides:
        sides[game] = [r[0] for r in q("SELECT DISTINCT side FROM sides s JOIN games g ON "
                                       "g.id = s.game_id AND g.game = ? ORDER BY side_index", game)]
    k = 6 if result == "unfinished" else 5 if result == "draw" else 1 + sides[game].index(result)
    games.append((game, variant, k, plies, moves, hashes, canon))
# Tracked: the positions some game reached by ply `depth` with a next move;
# each counts every game at the first ply it reached it, whatever the ply.
# From schema 8 a game that ends at a position counts there too, under the
# move '' (so that the tree knows every game that reached it).
tracked = set()
for game, variant, k, plies, moves, hashes, canon in games:
    for ply in range(min(depth, plies) + 1):
        tracked.add((game, variant, 0, hashes[ply]))
        tracked.add((game, variant, 1, canon[ply]))
plain, sym = defaultdict(lambda: [0] * 8), defaultdict(lambda: [0] * 8)
for game, variant, k, plies, moves, hashes, canon in games:
    seen_p, seen_c = set(), set()
    for ply in range(plies + 1):
        if hashes[ply] not in seen_p and (game, variant, 0, hashes[ply]) in tracked:
            row = plain[(game, variant, hashes[ply], moves[ply] if ply < plies else "")]
            row[0] += 1; row[k] += 1; row[7] += plies
        if canon[ply] not in seen_c and (game, variant, 1, canon[ply]) in tracked:
            row = sym[(game, variant, canon[ply])]
            row[0] += 1; row[k] += 1; row[7] += plies
        seen_p.add(hashes[ply]); seen_c.add(canon[ply])
got = {(h, g): p for h, g, p in q("SELECT hash, game_id, ply FROM positions_canon")}
if got != canon_index:
    fail("positions_canon: %d rows, %d expected" % (len(got), len(canon_index)))
got = {(g, v, h, m): [n, w0, w1, w2, w3, d, u, p] for g, v, h, m, n, w0, w1, w2, w3, d, u, p in
       q("SELECT game, variant, hash, move, games, w0, w1, w2, w3, draws, unfinished, plies "
         "FROM tree_moves WHERE symmetric = 0")}
if got != {k: v for k, v in plain.items()}:
    fail("tree_moves by plain hash: %d rows, %d expected" % (len(got), len(plain)))
got = {(g, v, h): [n, w0, w1, w2, w3, d, u, p] for g, v, h, n, w0, w1, w2, w3, d, u, p in
       q("SELECT game, variant, hash, sum(games), sum(w0), sum(w1), sum(w2), sum(w3), "
         "sum(draws), sum(unfinished), sum(plies) FROM tree_moves WHERE symmetric = 1 "
         "GROUP BY 1, 2, 3")}
if got != {k: v for k, v in sym.items()}:
    fail("tree_moves by canonical hash: %d positions, %d expected" % (len(got), len(sym)))
listing = {r[0]: r[1:] for r in q("SELECT id, game, variant, date, date_first, result, plies, "
                                  "players FROM game_listing")}
for gid, game, variant, date, first_day, result, plies in q(
        "SELECT id, game, variant, date, date_first, result, plies FROM games"):
    players = {s: n for s, n in q("SELECT s.side, p.name FROM sides s JOIN players p ON "
                                  "p.id = s.player_id WHERE s.game_id = ? ORDER BY s.side_index", gid)}
    row = listing.pop(gid, None)
    if row is None or row[:6] != (game, variant, date, first_day, result, plies) or \
            list(json.loads(row[6]).items()) != list(players.items()):
        fail("game_listing of game %d: %r" % (gid, row))
if listing:
    fail("game_listing rows without a game: %r" % sorted(listing))
sys.exit(0 if ok else 1)
PY
}

# The canonical hash of some plies of every game, as kifu-stats tree
# --symmetric replays them (the engine's symmetries, not the store's copy).
canon_ok() { # DB
	python3 - "$1" "$stats" <<'PY'
import json, sqlite3, subprocess, sys
c = sqlite3.connect(sys.argv[1])
ok = True
for gid, game, variant, first, moves, canon in c.execute(
        "SELECT g.id, g.game, g.variant, g.first, m.moves, c.canon FROM games g "
        "JOIN game_moves m ON m.game_id = g.id JOIN game_canon c ON c.game_id = g.id "
        "WHERE g.id % 3 = 0"):
    moves, canon = json.loads(moves), json.loads(canon)
    default = subprocess.run([sys.argv[2], "--db", sys.argv[1], "--game", game, "--variant", variant,
                              "tree", "--format", "json"], capture_output=True, text=True)
    for ply in sorted({0, 1, 5, len(moves) - 1}):
        if ply < 0 or ply >= len(moves):
            continue
        out = subprocess.run([sys.argv[2], "--db", sys.argv[1], "--game", game, "--variant", variant,
                              "tree", "--symmetric", "--after", ",".join(moves[:ply]),
                              "--format", "json"], capture_output=True, text=True)
        rows = json.loads(out.stdout)["rows"] if out.returncode == 0 else []
        want = "%016x" % (canon[ply] & (2 ** 64 - 1))
        # A game whose first side is not the default is replayed from another start.
        if rows and rows[0]["hash"] != want and first == json.loads(default.stdout)["rows"][0]["to_move"]:
            print("  game %d ply %d: canon %s, tree --symmetric %s" % (gid, ply, want, rows[0]["hash"]))
            ok = False
sys.exit(0 if ok else 1)
PY
}

for v in 3 4; do
	cp "tests/data/store/schema-$v.sqlite" "$tmp/v$v.db"
	before=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print([c.execute("SELECT count(*) FROM " + t).fetchone()[0] for t in
       ("games", "sides", "players", "quarantine", "figures", "tags", "moves", "positions")])' "$tmp/v$v.db")
	: >"$tmp/empty.yaml"
	"$import" --quiet --db "$tmp/v$v.db" "$tmp/empty.yaml" 2>/dev/null
	after=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print([c.execute("SELECT count(*) FROM " + t).fetchone()[0] for t in
       ("games", "sides", "players", "quarantine", "figures", "tags", "moves", "positions")])' "$tmp/v$v.db")
	check "schema $v: the migration keeps every row ($before, $after)" [ "$before" = "$after" ]
	check "schema $v: the tables of schema 5 are right" tables_ok "$tmp/v$v.db"
	check "schema $v: canonical hashes are the engines'" canon_ok "$tmp/v$v.db"
done

# The same games imported now: the same rows as the migrated schema-4 database.
(cd tests/data/store && "$import" --quiet --db "$tmp/new.db" clocks.yaml)
"$import" --quiet --db "$tmp/new.db" examples/glaisher examples/splay-schmidt examples/splay-kisenwether \
	examples/splinter examples/splinter-quad
"$import" --quiet --db "$tmp/new.db" examples/invalid/illegal-move.yaml \
	examples/invalid/bad-game-in-stream.yaml examples/invalid/clock-negative.yaml 2>/dev/null
check "import: the tables of schema 5 are right" tables_ok "$tmp/new.db"
for t in "tree_moves" "positions_canon" "game_listing" "game_canon"; do
	a=$(python3 -c 'import sqlite3, sys; print(sorted(sqlite3.connect(sys.argv[1]).execute("SELECT * FROM " + sys.argv[2]).fetchall()))' "$tmp/v4.db" $t | md5sum)
	b=$(python3 -c 'import sqlite3, sys; print(sorted(sqlite3.connect(sys.argv[1]).execute("SELECT * FROM " + sys.argv[2]).fetchall()))' "$tmp/new.db" $t | md5sum)
	check "migrated and imported: the same $t" [ "$a" = "$b" ]
done

# A position first reached late in a game (ply 6, stepping back and forth)
# that another game reached early: counted with it, whichever game came
# first, in one import or in two (the position tracked already, or
# tracked by the later game and the earlier one read back from the index).
printf -- '---\ngame: splay-kisenwether\ndate: 2024-01-01\nmoves: [b6-a5, b3-a4, d7>se]\n' >"$tmp/early.yaml"
printf -- '---\ngame: splay-kisenwether\ndate: 2024-01-02\nmoves: [c6-c5, c3-c4, c5-c6, c4-c3, b6-a5, b3-a4, e6-e5]\n' >"$tmp/late.yaml"
cat "$tmp/early.yaml" "$tmp/late.yaml" >"$tmp/both.yaml"
for order in "early late" "late early" "both"; do
	db=$tmp/order-$(echo $order | tr ' ' -).db
	for f in $order; do "$import" --quiet --db "$db" "$tmp/$f.yaml"; done
	check "$order: the tables of schema 5 are right" tables_ok "$db"
	for s in "" --symmetric; do
		rows=$("$stats" --db "$db" --game splay-kisenwether tree --after b6-a5,b3-a4 $s --format csv |
			tail -n +2 | cut -d, -f1,2 | tr -d '\r' | tr '\n' ' ')
		check "$order $s: the early and the late game both counted ($rows)" [ "$rows" = "d7>se,1 e6-e5,1 " ]
	done
done

# Bulk mode (past the first 1,000 games of a run), then an ordinary import on top.
"$play" splinter --players random --games 1300 --max-plies 14 --seed 7 >"$tmp/bulk.yaml" 2>/dev/null
"$play" splinter --players random --games 30 --max-plies 14 --seed 8 >"$tmp/more.yaml" 2>/dev/null
"$import" --quiet --db "$tmp/bulk.db" "$tmp/bulk.yaml"
check "bulk import exits 0" [ $? -eq 0 ]
check "bulk import: the tables of schema 5 are right" tables_ok "$tmp/bulk.db"
"$import" --quiet --db "$tmp/bulk.db" "$tmp/more.yaml"
check "an import after it: the tables of schema 5 are right" tables_ok "$tmp/bulk.db"
# Counts forgotten (a change by hand: the triggers clear stats_state): the
# tree is read from the index meanwhile, and the next report counts again.
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM stats_state WHERE name = ?", ("tree",))
c.execute("UPDATE tree_moves SET games = games + 1000")
c.commit()' "$tmp/bulk.db"
"$stats" --db "$tmp/bulk.db" --game splinter --variant knockout tree --format json --no-cache >"$tmp/b.json"
"$stats" --db "$tmp/bulk.db" --game splinter --variant knockout tree --format json >"$tmp/a.json"
check "counts forgotten: the tree is still right" cmp -s "$tmp/a.json" "$tmp/b.json"
check "counts forgotten: counted again by the report" tables_ok "$tmp/bulk.db"

test_done
