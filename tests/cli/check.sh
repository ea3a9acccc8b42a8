#!/bin/sh
# kifu-check on SQLite: a clean database (the examples of every game, with
# format 2's lines) exits 0 with every game checked, a sample checks the
# games its seed draws, and each kind of damage (a game's row, the position
# index missing or holding an entry, each report's kept sums, the tree's
# counts, a lines row, a pattern summary; here also a stored hash and a
# canonical one) is named and exits 1 (tests/cli/lib/check.sh).
set -u
. tests/cli/lib/test-lib.sh
test_require sqlite3 python3
. tests/cli/lib/check.sh
ref=$tmp/ref.db
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$ref" $check_inputs >/dev/null || fail "import"
check_copy() { cp "$ref" "$tmp/$1.db" && echo "$tmp/$1.db"; }
check_sql() { sqlite3 "$1" "$2"; }
check_cases "$ref"
# A stored hash and a canonical one that are not the replay's (SQLite keeps
# them as 8-byte values: one bit changed in each, as a bad copy would).
for col in hashes canon; do
	cp "$ref" "$tmp/$col.db"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
b = bytearray(c.execute("SELECT %s FROM game_data WHERE game_id = 5" % sys.argv[2]).fetchone()[0])
b[9] ^= 1
c.execute("UPDATE game_data SET %s = ? WHERE game_id = 5" % sys.argv[2], (bytes(b),))
c.commit()' "$tmp/$col.db" "$col" || fail "$col: the damage failed"
	"$bin/kifu-check" --db "$tmp/$col.db" >/dev/null 2>"$tmp/$col.err"
	check "a changed $col exits 1" [ $? -eq 1 ]
	check "... naming the game and ply: $(head -c 300 "$tmp/$col.err")" \
		grep -Eq ": the stored (canonical )?hash of game 5 at ply 1 is [0-9a-f]{16}, its replay's [0-9a-f]{16}" "$tmp/$col.err"
done

# A game through a position a board symmetry maps onto itself (splay-schmidt
# after d5,c2,h5,i7): the symmetric tree may name its next move either way
# (j6 kept, b2 recounted: the same move), which is no problem.
"$bin/kifu-import" --quiet --db "$tmp/self.db" tests/data/check/self-symmetric.yaml >/dev/null
"$bin/kifu-check" --db "$tmp/self.db" >"$tmp/self.out" 2>&1
check "a self-symmetric position is no problem: $(head -c 300 "$tmp/self.out")" [ $? -eq 0 ]

# A usage error: --seed without --sample.
"$bin/kifu-check" --db "$ref" --seed 3 >/dev/null 2>&1
check "--seed without --sample is a usage error" [ $? -eq 2 ]
"$bin/kifu-check" --db '' >/dev/null 2>&1
check "an empty database name is a usage error" [ $? -eq 2 ]
"$bin/kifu-check" --db "$ref" >/dev/full 2>/dev/null
check "a full standard output is exit 3" [ $? -eq 3 ]
"$bin/kifu-check" --db "$tmp/none.db" >/dev/null 2>"$tmp/none.err"
check "a missing database exits 3" [ $? -eq 3 ]
check "... and is not created" [ ! -e "$tmp/none.db" ]
test_done
