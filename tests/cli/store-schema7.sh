#!/bin/sh
# Schema 7 (hashes as 8-byte BLOBs in game_data): a database written by the
# release before it (tests/data/store/schema-6.sqlite) answers every reader
# the same before its migration (read as it is) and after it (the first
# write migrates), kifu-check finds the migrated file whole (every game
# replays to its stored hashes, pattern summary and index entries; every
# kept sum is its recount), and the plain sqlite3 shell reads each game's
# moves as text through the view `moves`. What is checked is what the
# store answers, not how it lays out its bytes. The game-by-game check of
# the migration is tests/test_store_migrate.c (test_migrate_release_6).
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
db=$tmp/v6.db
cp tests/data/store/schema-6.sqlite "$db"

# The tree's rows end with first_date and last_date (csv: the last two
# fields; json: the two keys), null on a file older than schema 8 and the
# dates after the migration: answers DATED compares the rest.
undated() { # DATED: strip the tree's date fields when 1
	if [ "$1" = 1 ]; then
		sed -e 's/, "first_date": \(null\|"[^"]*"\), "last_date": \(null\|"[^"]*"\)//' \
		    -e '/^[^{\[ ].*,/s/,[^,]*,[^,]*\(\r\{0,1\}\)$/\1/'
	else
		cat
	fi
}

answers() { # OUT DATED: every reader's answers on $db
	dated=${2:-0}
	{
		for r in summary players "openings --depth 4" "openings --depth 3 --by-position"; do
			echo "== stats $r"
			$bin/kifu-stats --db "$db" $r --format csv
		done
		for gv in glaisher:advanced glaisher:standard splay-schmidt:standard \
			splay-kisenwether:standard splinter:knockout splinter:survival splinter-quad:standard; do
			g=${gv%%:*} v=${gv#*:}
			for s in "" --symmetric; do
				echo "== tree $gv $s"
				$bin/kifu-stats --db "$db" --game "$g" --variant "$v" tree $s --format csv |
					undated "$dated"
				$bin/kifu-stats --db "$db" --game "$g" --variant "$v" tree $s --no-cache \
					--format csv | undated "$dated"
			done
		done
		for gva in glaisher:advanced:e7,a5 splay-kisenwether:standard:d7\>se,e2\>nw \
			splay-schmidt:standard:g4,h4 splinter:knockout:g7-h8,h7-i7 \
			splinter-quad:standard:e7-d6,c8-d8 splinter:knockout:g7-h8; do
			g=${gva%%:*} va=${gva#*:}
			v=${va%%:*} a=${va#*:}
			for s in "" --symmetric; do
				echo "== search $gva $s"
				$bin/kifu-search --db "$db" --game "$g" --variant "$v" --after "$a" $s --json
				$bin/kifu-stats --db "$db" --game "$g" --variant "$v" tree --after "$a" $s \
					--format json | undated "$dated"
			done
		done
		echo "== search"
		$bin/kifu-search --db "$db"
		echo "== export"
		for g in glaisher splay-schmidt splay-kisenwether splinter splinter-quad; do
			$bin/kifu-export --db "$db" --game "$g" --to yaml
		done
	} >"$1" 2>&1
}

answers "$tmp/before" 1
check "read as it is: still version 6" [ "$(sqlite3 "$db" 'PRAGMA user_version')" = 6 ]
: >"$tmp/empty.yaml"
$bin/kifu-import --quiet --db "$db" "$tmp/empty.yaml"
latest=$(ls schema | grep -c '^[0-9][0-9]*-.*\.sql$')
check "the first write migrates to the latest version" \
	[ "$(sqlite3 "$db" 'PRAGMA user_version')" = "$latest" ]
answers "$tmp/after" 1
$bin/kifu-stats --db "$db" --game glaisher --variant standard tree --format json >"$tmp/dated" 2>&1
check "the tree counts have their dates after the migration" grep -q '"first_date": "[0-9]' "$tmp/dated"
check "every reader answers as before the migration" test_cmp "$tmp/before" "$tmp/after"
answered() { # every question asked, none refused, and answers of some length
	[ "$(grep -c '^== ' "$tmp/after")" -eq 32 ] && ! grep -q 'error' "$tmp/after" &&
		[ "$(wc -l <"$tmp/after")" -gt 400 ]
}
check "... and answers each question" answered
$bin/kifu-check --db "$db" >"$tmp/check" 2>&1
check "kifu-check finds the migrated file whole (hashes, pattern summaries, index, kept sums): $(head -c 300 "$tmp/check")" \
	grep -q '^29 games, 29 checked, [1-9][0-9]* positions, 6 reports, [1-9][0-9]* tree positions, 0 problems$' "$tmp/check"
$bin/kifu-search --db "$db" --game splay-schmidt --pattern 'f6=+' --json >"$tmp/pattern" 2>&1
check "... and kifu-search --pattern reads the summaries" grep -q '"ply"' "$tmp/pattern"

# The plain shell: a game's moves as text through the view, as kifu-export gives them.
sqlite3 "$db" "SELECT move FROM moves WHERE game_id = 3 ORDER BY ply" >"$tmp/shell-moves"
$bin/kifu-export --db "$db" --id 3 --to json 2>/dev/null |
	python3 -c 'import json, sys; d = json.load(sys.stdin); g = d[0] if isinstance(d, list) else d; [print(m["move"] if isinstance(m, dict) else m) for m in g["moves"]]' >"$tmp/tool-moves"
check "the sqlite3 shell reads game 3's moves as kifu-export does" \
	sh -c "[ -s '$tmp/shell-moves' ] && cmp -s '$tmp/shell-moves' '$tmp/tool-moves'"
check "a move changed through the view is refused" \
	sh -c "! sqlite3 '$db' \"UPDATE moves SET move = 'x' WHERE game_id = 3 AND ply = 1\" 2>/dev/null"
$bin/kifu-check --db "$db" >/dev/null 2>&1
check "... and the game is as it was" [ $? -eq 0 ]

# New games on top: stored the schema-7 way, found by every reader.
$bin/kifu-import --quiet --db "$db" examples/glaisher
check "an import on top adds nothing new (all duplicates)" \
	[ "$(sqlite3 "$db" 'SELECT count(*) FROM games')" = 29 ]
test_done
