# The checks of the sums kifu-stats keeps (schema/README.md "Kept sums"),
# shared by stats-kept.sh (SQLite) and pg-stats-kept.sh (PostgreSQL):
# source it after test-lib.sh, define kq DB SQL (the rows of a query, columns
# joined by '|'), kcopy DB NAME (a copy of DB named NAME: its path or URI)
# and kversion DB [N] (the schema version of DB: set to N, or said), then
# call stats_kept_check DB, an empty database, and stats_kept_writers
# DB2, another. After an import, in
# bulk mode where the backend has one (over 1000 games) and not (a few
# more), stats_state says that stats_outcomes, stats_lines,
# stats_players and stats_balance count every game, and the tables hold exactly what the
# reports' refresh counts from scratch (DELETE FROM stats_state, then the
# reports) on a copy: the same rows, and the same reports byte for byte
# (players: the ratings, fitted from the kept sums on the first report,
# equal to those fitted from every game; balance: also with stored reviews,
# and equal to the whole computation from the games, --no-cache, in every
# format). An import into tables left
# behind keeps them behind, and the reports catch up as before; so does
# the balance after a migration from schema 11.

# gen OUT GAME PLAYERS GAMES SEED: random games, their players taken from a
# pool of 30 (the same on both sides now and then: not counted for players),
# the results of games the rules did not end set to wins (resigned), draws
# (agreed) and unfinished in turn.
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
	/^termination:/ { next }
	/^result:/ && $2 != "unfinished" { print; next }
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

# rows DB: every kept table's rows in key order (players with their ratings).
rows() {
	for t in "stats_outcomes game, variant, first, result, termination, plies" \
		"stats_lines plies, game, variant, line, first, repeat" "stats_players player_id" \
		"stats_player_sums player_id" "stats_pairs a, b" "stats_balance game, variant, level"; do
		kq "$1" "SELECT '${t%% *}', * FROM ${t%% *} ORDER BY ${t#* }" || fail "read ${t%% *}"
	done
}
# state DB: stats_state of the kept tables, as NAME|LAST_ID|DEPTH lines, joined by spaces.
state() {
	kq "$1" "SELECT name, last_id, coalesce(depth, 0) FROM stats_state WHERE name <> 'tree' ORDER BY name" | tr '\n' ' '
}
maxid() {
	kq "$1" "SELECT max(id) FROM games"
}
reports() { # DB OUT: every report the kept tables answer, then the same filtered
	for r in summary lengths players "openings --depth 6" "openings --by-position" \
		"--game splinter-quad openings" "--termination agreement summary" balance \
		"--game splinter balance" "--level random balance"; do
		# shellcheck disable=SC2086 # the words of $r are arguments
		"$bin/kifu-stats" --db "$1" --format csv $r || fail "kifu-stats $r"
	done >"$2"
}
# balance DB OUT [--no-cache]: the balance report, whole and of a game, variant or
# level (what stats_balance answers) and of a player (what it does not), as csv;
# the whole report in the other formats too (one writer serves every row), and
# its chart in OUT.svg
balance() {
	for f in table json; do
		"$bin/kifu-stats" --db "$1" --format $f balance ${3:-} || fail "balance --format $f"
	done >"$2"
	for r in "" "--game splinter" "--game splinter --variant knockout" "--level random" \
		"--level players" "--player P3"; do
		# shellcheck disable=SC2086 # the words of $r are arguments
		"$bin/kifu-stats" --db "$1" --format csv $r balance ${3:-} || fail "balance $r"
	done >>"$2"
	"$bin/kifu-stats" --db "$1" balance --svg "$2.svg" ${3:-} >/dev/null || fail "balance --svg"
}
# same DB: the kept tables of DB equal a refresh from scratch on a copy, and so do the reports
same() {
	balance "$1" "$tmp/balance.nocache" --no-cache
	reports "$1" "$tmp/kept.out"
	balance "$1" "$tmp/balance.kept"
	check "$2: balance from the kept sums equals the whole computation" \
		test_cmp "$tmp/balance.nocache" "$tmp/balance.kept"
	check "$2: balance's chart too" test_cmp "$tmp/balance.nocache.svg" "$tmp/balance.kept.svg"
	rows "$1" >"$tmp/kept.rows"
	n=$((n + 1))
	scratch=$(kcopy "$1" "scratch$n") || fail "copy the database"
	kq "$scratch" "DELETE FROM stats_state" >/dev/null
	reports "$scratch" "$tmp/scratch.out"
	rows "$scratch" >"$tmp/scratch.rows"
	check "$2: reports from the kept sums equal those from scratch" test_cmp "$tmp/scratch.out" "$tmp/kept.out"
	check "$2: the kept tables equal a refresh from scratch" test_cmp "$tmp/scratch.rows" "$tmp/kept.rows"
	check "$2: players were counted" grep -q "^stats_pairs" "$tmp/kept.rows"
	check "$2: levels were counted" grep -q "^stats_balance|" "$tmp/kept.rows"
}

stats_kept_check() {
	db=$1
	n=0
	gen "$tmp/a.yaml" splay-schmidt random 1100 1
	gen "$tmp/b.yaml" splinter-quad random 40 2
	gen "$tmp/c.yaml" splinter random 30 3
	"$bin/kifu-import" --quiet --db "$db" "$tmp/a.yaml" || fail "import a (bulk mode)"
	top=$(maxid "$db")
	# kifu-import fits the ratings at its end, from the kept sums
	check "first import: every kept table current" test "$(state "$db")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|2 "
	same "$db" "first import"

	# Incremental imports (not in bulk mode) onto current tables.
	"$bin/kifu-import" --quiet --db "$db" "$tmp/b.yaml" examples/splinter-quad/ || fail "import b"
	top=$(maxid "$db")
	check "import: kept current" test "$(state "$db")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|2 "
	"$bin/kifu-import" --quiet --db "$db" "$tmp/c.yaml" examples/splay-schmidt/ || fail "import c"
	# another writer keeps the sums but leaves the ratings due: the first report fits them
	"$bin/kifu-play" splinter --players random --games 4 --max-plies 30 --seed 7 --quiet \
		--db "$db" >/dev/null || fail "kifu-play --db"
	# stored reviews of some games (the balance reads them, not kept)
	"$bin/kifu-analyse" --db "$db" --player P3 --playouts 8 --threads 1 --store >/dev/null ||
		fail "kifu-analyse --store"
	"$bin/kifu-analyse" --db "$db" --game splinter --level random --playouts 8 --threads 1 \
		--store >/dev/null || fail "kifu-analyse --store splinter"
	top=$(maxid "$db")
	check "kifu-play: ratings due" test "$(state "$db")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|1 "
	same "$db" "incremental imports"
	check "kifu-play's level counted" grep -q "^stats_balance|splinter|[a-z]*|random|" "$tmp/kept.rows"
	check "ratings fitted by the report and kept" test "$(state "$db")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|2 "

	# Tables left behind stay behind; the reports catch up from the games.
	kq "$db" "DELETE FROM stats_state WHERE name IN ('lines', 'players', 'balance')" >/dev/null
	"$bin/kifu-import" --quiet --db "$db" examples/splinter/ examples/glaisher/ || fail "import d"
	top=$(maxid "$db")
	check "behind: only outcomes kept" test "$(state "$db")" = "outcomes|$top|0 "
	same "$db" "after an import onto tables left behind"
	check "behind: caught up by the reports" test "$(state "$db")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|2 "

	# A database of schema 11 (made to look so: its stats_balance kept, and
	# wrong): the first write migrates it and forgets the balance, which the
	# import then leaves behind and the report counts again from the games.
	old=$(kcopy "$db" old) || fail "copy the database"
	kq "$old" "UPDATE stats_balance SET games = games + 1, moves = moves + 7" >/dev/null
	kversion "$old" 11
	gen "$tmp/f.yaml" splinter random 20 6
	"$bin/kifu-import" --quiet --db "$old" "$tmp/f.yaml" || fail "import into schema 11"
	top=$(maxid "$old")
	check "schema 11 migrated to 12" test "$(kversion "$old")" = 12
	check "migrated: the balance left behind" test "$(state "$old")" = \
		"lines|$top|6 outcomes|$top|0 players|$top|2 "
	same "$old" "after a migration from schema 11"
	check "migrated: the balance caught up by the report" test "$(state "$old")" = \
		"balance|$top|0 lines|$top|6 outcomes|$top|0 players|$top|2 "
}

# Writers at once: three imports of overlapping inputs and a reader in a loop
# on DB (empty); after them the tables (kept, or caught up by the reports)
# equal a refresh from scratch.
stats_kept_writers() {
	db=$1
	gen "$tmp/d.yaml" splay-schmidt random 400 4
	gen "$tmp/e.yaml" glaisher random 300 5
	"$bin/kifu-import" --quiet --db "$db" examples/splinter/ || fail "import the first games"
	"$bin/kifu-import" --quiet --db "$db" "$tmp/d.yaml" "$tmp/e.yaml" &
	p1=$!
	"$bin/kifu-import" --quiet --db "$db" "$tmp/e.yaml" examples/splay-schmidt/ &
	p2=$!
	"$bin/kifu-import" --quiet --db "$db" examples/splinter-quad/ "$tmp/d.yaml" &
	p3=$!
	i=0
	while [ $i -lt 10 ]; do
		"$bin/kifu-stats" --db "$db" players >/dev/null 2>&1 || fail "a report among the writers"
		i=$((i + 1))
	done
	for p in $p1 $p2 $p3; do
		wait $p || fail "a writer failed"
	done
	same "$db" "three writers at once"
}
