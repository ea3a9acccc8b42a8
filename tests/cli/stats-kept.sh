#!/bin/sh
# The sums kifu-stats keeps, kept by kifu-import (schema/README.md "Kept
# sums"): after an import, in bulk mode (over 1000 games) and not (a few
# more), stats_state says that stats_outcomes, stats_lines and
# stats_players count every game, and the tables hold exactly what the
# reports' refresh counts from scratch (DELETE FROM stats_state, then the
# reports) on a copy: the same rows, and the same reports byte for byte
# (players: the ratings, fitted from the kept sums on the first report,
# equal to those fitted from every game). An import into tables left
# behind keeps them behind, and the reports catch up as before.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
test_require python3
import=$bin/kifu-import
stats=$bin/kifu-stats

# gen OUT GAME PLAYERS GAMES SEED: random games, their players taken from a
# pool of 30 (the same on both sides now and then: not counted for players),
# results set to wins, draws (agreed) and unfinished in turn.
gen() {
	"$bin/kifu-play" "$2" --players "$3" --games "$4" --max-plies 12 --seed "$5" \
		--quiet >"$tmp/raw.yaml" || fail "kifu-play $2"
	awk -v seed="$5" '
	/^game:/ { n++; ns = 0 }
	/^players:/ { inp = 1; print; next }
	inp && /^  [a-z]+:/ {
		side = $1
		sub(/:$/, "", side)
		sides[ns] = side
		print "  " side ": P" ((n * (7 + 4 * ns) + seed + ns) % 30)
		ns++
		next
	}
	{ inp = 0 }
	/^result:/ {
		k = n % 5
		if (k == 0) print "result: " sides[0] "\ntermination: resignation"
		else if (k == 1) print "result: " sides[1] "\ntermination: resignation"
		else if (k == 2) print "result: draw\ntermination: agreement"
		else print "result: unfinished"
		next
	}
	{ print }' "$tmp/raw.yaml" >"$1"
}
gen "$tmp/a.yaml" splay-schmidt random 1100 1
gen "$tmp/b.yaml" splinter-quad random 40 2
gen "$tmp/c.yaml" splinter random 30 3

# rows DB: every kept table's rows in key order (players with their ratings).
rows() {
	python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for t, key in (("stats_outcomes", "game, variant, first, result, termination, plies"),
               ("stats_lines", "plies, game, variant, line, first, repeat"),
               ("stats_players", "player_id"), ("stats_player_sums", "player_id"),
               ("stats_pairs", "a, b")):
    for r in c.execute("SELECT * FROM %s ORDER BY %s" % (t, key)):
        print(t, "|".join(repr(v) for v in r))
PY
}
# state DB: stats_state of the kept tables, as NAME LAST_ID DEPTH lines.
state() {
	python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute("SELECT name, last_id, coalesce(depth, 0) FROM "
        "stats_state WHERE name <> '"'tree'"' ORDER BY name"):
    print(*r)' "$1"
}
maxid() {
	python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT max(id) FROM games").fetchone()[0])' "$1"
}
reports() { # DB OUT: every report the kept tables answer, then the same filtered
	for r in summary lengths players "openings --depth 6" "openings --by-position" \
		"--game splinter-quad openings" "--termination agreement summary"; do
		# shellcheck disable=SC2086 # the words of $r are arguments
		"$stats" --db "$1" --format csv $r || fail "kifu-stats $r"
	done >"$2"
}
# same DB: the kept tables of DB equal a refresh from scratch on a copy, and so do the reports
same() {
	reports "$1" "$tmp/kept.out"
	rows "$1" >"$tmp/kept.rows"
	cp "$1" "$tmp/scratch.db"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM stats_state"); c.commit()' "$tmp/scratch.db"
	reports "$tmp/scratch.db" "$tmp/scratch.out"
	rows "$tmp/scratch.db" >"$tmp/scratch.rows"
	check "$2: reports from the kept sums equal those from scratch" test_cmp "$tmp/scratch.out" "$tmp/kept.out"
	check "$2: the kept tables equal a refresh from scratch" test_cmp "$tmp/scratch.rows" "$tmp/kept.rows"
	check "$2: players were counted" grep -q "^stats_pairs" "$tmp/kept.rows"
}

db=$tmp/k.db
"$import" --quiet --db "$db" "$tmp/a.yaml" || fail "import a (bulk mode)"
top=$(maxid "$db")
check "bulk import: every kept table current" test "$(state "$db")" = \
	"$(printf 'lines %s 6\noutcomes %s 0\nplayers %s 1' "$top" "$top" "$top")"
same "$db" "bulk import"
# the first players report fitted the ratings and said so; the second reads them
check "ratings fitted and kept" test "$(state "$db" | grep players)" = "players $top 2"

# Incremental imports (not in bulk mode) onto current tables, ratings fitted or due.
"$import" --quiet --db "$db" "$tmp/b.yaml" examples/splinter-quad/ || fail "import b"
top=$(maxid "$db")
check "import: kept current" test "$(state "$db" | tr '\n' ' ')" = \
	"lines $top 6 outcomes $top 0 players $top 1 "
"$import" --quiet --db "$db" "$tmp/c.yaml" examples/splay-schmidt/ || fail "import c"
same "$db" "incremental imports"

# Tables left behind stay behind; the reports catch up from the games.
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM stats_state WHERE name IN (?, ?)", ("lines", "players")); c.commit()' "$db"
"$import" --quiet --db "$db" examples/splinter/ examples/glaisher/ || fail "import d"
top=$(maxid "$db")
check "behind: only outcomes kept" test "$(state "$db")" = "outcomes $top 0"
same "$db" "after an import onto tables left behind"
check "behind: caught up by the reports" test "$(state "$db" | tr '\n' ' ')" = \
	"lines $top 6 outcomes $top 0 players $top 2 "
test_done "$checks checks"
