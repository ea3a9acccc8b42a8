#!/bin/sh
# Schema 5's facts: the canonical hash of every ply, the canonical index,
# the tree counts and the listing, checked by kifu-check (against a replay
# of every game by the engines, and a recount from the index at the first
# plies of every game) and by what the tools answer, after: the migration
# of a database of the release before schema 4 and of the one before
# schema 5 (tests/data/store/schema-*.sqlite), an ordinary import, and an
# import large enough to switch to bulk mode. The migrated and the
# imported databases of the same games answer alike. What is checked is
# what the store answers, not how it lays out its bytes.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
test_require sqlite3
stats=$bin/kifu-stats
import=$bin/kifu-import
play=$bin/kifu-play

# Schema 5's facts, through kifu-check (every game's canonical hashes are its
# replay's, as the engines' symmetries give them; every position of every
# game in the index at its first ply and nothing else; the tree's counts,
# plain and by symmetry, at the first plies of every game equal to a
# recount from the index; every kept sum its recount; SQLite's own
# integrity check) with every game checked and no problem.
tables_ok() { # DB
	_n=$(sqlite3 "$1" 'SELECT count(*) FROM games')
	"$bin/kifu-check" --db "$1" --trees all >"$tmp/check.out" 2>&1 &&
		grep -q "^$_n games, $_n checked, .* 0 problems\$" "$tmp/check.out" ||
		{ sed 's/^/  /' "$tmp/check.out" | head -20; return 1; }
}

# What the tree, the symmetric tree and the listing answer, for every game
# and variant, to compare two databases of the same games.
answers() { # DB
	for gv in glaisher:advanced glaisher:standard splay-schmidt:standard \
		splay-kisenwether:standard splinter:knockout splinter:survival splinter-quad:standard; do
		for s in "" --symmetric; do
			echo "== tree $gv $s"
			"$stats" --db "$1" --game "${gv%%:*}" --variant "${gv#*:}" tree $s --format csv
		done
	done
	echo "== listing"
	"$bin/kifu-search" --db "$1" --json
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
	check "schema $v: the tables of schema 5 are right, canonical hashes the engines'" \
		tables_ok "$tmp/v$v.db"
done

# The same games imported now: the same rows as the migrated schema-4 database.
(cd tests/data/store && "$import" --quiet --db "$tmp/new.db" clocks.yaml)
"$import" --quiet --db "$tmp/new.db" examples/glaisher examples/splay-schmidt examples/splay-kisenwether \
	examples/splinter examples/splinter-quad
"$import" --quiet --db "$tmp/new.db" examples/invalid/illegal-move.yaml \
	examples/invalid/bad-game-in-stream.yaml examples/invalid/clock-negative.yaml 2>/dev/null
check "import: the tables of schema 5 are right" tables_ok "$tmp/new.db"
answers "$tmp/v4.db" >"$tmp/v4.answers" 2>&1
answers "$tmp/new.db" >"$tmp/new.answers" 2>&1
check "migrated and imported: the same trees, symmetric trees and listing" \
	test_cmp "$tmp/v4.answers" "$tmp/new.answers"
"$bin/kifu-check" --db "$tmp/v4.db" --trees all >"$tmp/v4.check" 2>&1
"$bin/kifu-check" --db "$tmp/new.db" --trees all >"$tmp/new.check" 2>&1
check "migrated and imported: kifu-check's counts (positions indexed, tree positions) the same" \
	test_cmp "$tmp/v4.check" "$tmp/new.check"

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
