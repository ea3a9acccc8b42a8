# kifu-check's cases, shared by check.sh (SQLite) and pg-check.sh
# (PostgreSQL): source it after test-lib.sh (or pg.sh) and define
#   check_copy NAME   prints the database of a fresh copy of the reference
#                     (the examples imported, check_ref), named NAME
#   check_sql DB SQL  runs SQL on DB (the plain shell: sqlite3, psql)
# then call check_cases. Each case damages a copy of the reference one way,
# as a crash, a copy or a hand would, and kifu-check must exit 1 naming it
# (the check and the subject in its message); the reference itself, and a
# sample of it, exit 0. The damage is written in SQL of the tables, which is
# the only way to make it; what is checked is only what kifu-check says.
check_inputs="examples/format2 examples/glaisher examples/splinter examples/splinter-quad examples/splay-schmidt examples/splay-kisenwether"

# NAME MESSAGE-PATTERN (grep -E) SQL
check_case() {
	_db=$(check_copy "$1") || { fail "$1: cannot copy the reference"; return; }
	check_sql "$_db" "$3" >/dev/null || { fail "$1: the damage failed: $3"; return; }
	"$bin/kifu-check" --db "$_db" >"$tmp/$1.out" 2>"$tmp/$1.err"
	_rc=$?
	checks=$((checks + 1))
	[ "$_rc" -eq 1 ] || fail "$1: kifu-check exited $_rc, not 1: $(head -c 400 "$tmp/$1.err")"
	grep -Eq -- "$2" "$tmp/$1.err" ||
		fail "$1: kifu-check did not say /$2/: $(head -c 600 "$tmp/$1.err")"
	grep -q ' [1-9][0-9]* problems\{0,1\}$' "$tmp/$1.out" || fail "$1: summary: $(cat "$tmp/$1.out")"
}

check_cases() { # REF: the reference database
	_ref=$1
	"$bin/kifu-check" --db "$_ref" >"$tmp/clean.out" 2>"$tmp/clean.err"
	check "a clean database exits 0 ($(cat "$tmp/clean.err"))" [ $? -eq 0 ]
	_n=$(check_sql "$_ref" 'SELECT count(*) FROM games')
	check "every game is checked, none is a problem: $(cat "$tmp/clean.out")" \
		grep -q "^$_n games, $_n checked, [1-9][0-9]* positions, 6 reports, [1-9][0-9]* tree positions, 0 problems$" "$tmp/clean.out"
	"$bin/kifu-check" --db "$_ref" --sample 5 --seed 7 >"$tmp/s1" 2>&1
	check "a sample of 5 exits 0" [ $? -eq 0 ]
	check "a sample checks 5 games: $(cat "$tmp/s1")" grep -q "^$_n games, 5 checked, .* 0 problems, seed 7$" "$tmp/s1"
	"$bin/kifu-check" --db "$_ref" --sample 5 --seed 7 >"$tmp/s2" 2>&1
	check "the same seed checks the same positions" test_cmp "$tmp/s1" "$tmp/s2"
	"$bin/kifu-check" --db "$_ref" --json >"$tmp/j.out" 2>"$tmp/j.err"
	check "--json on a clean database: nothing on stdout, the summary on stderr" \
		sh -c "[ ! -s '$tmp/j.out' ] && grep -q ' 0 problems\$' '$tmp/j.err'"

	# A game's row that its record no longer replays to.
	check_case plies ": game 3 (replays in|has [0-9]+ of its)" \
		"UPDATE games SET plies = plies + 1 WHERE id = 3"
	# A position of a game missing from the index, and an entry no game reaches.
	check_case index-missing "position index misses game 5 at position [0-9a-f]{16} \(ply 2\)" \
		"DELETE FROM positions_hash WHERE game_id = 5 AND ply = 2"
	check_case index-extra "position index holds [0-9]+ entries, the stored games reach [0-9]+ positions" \
		"INSERT INTO positions_hash(hash, game_id, ply) VALUES (12345, 7, 3)"
	# Pattern search's summary of a game: missing, or not the game's.
	check_case cells-missing ": game 4 has no pattern summary" \
		"DELETE FROM game_cells WHERE game_id = 4"
	# Kept sums: each report's, named by its rows.
	check_case outcomes "summary's kept sums \(stats_outcomes\) differ .*kept 'glaisher," \
		"UPDATE stats_outcomes SET games = games + 2 WHERE game = 'glaisher'"
	check_case lines "openings' kept sums \(stats_lines\) differ .*kept 'splinter," \
		"UPDATE stats_lines SET games = games + 1 WHERE game = 'splinter' AND plies = 1"
	check_case players "players' kept sums \(stats_players\) differ" \
		"UPDATE stats_players SET games = games + 1, wins = wins + 1 WHERE player_id = (SELECT min(player_id) FROM stats_players)"
	# (the balance's own reader names a count no longer its games' first)
	check_case balance "(balance's kept sums \(stats_balance\) differ|stats_balance of glaisher [a-z]+ sums [0-9]+ games, the database holds [0-9]+ at a level)" \
		"UPDATE stats_balance SET games = games + 1 WHERE game = 'glaisher'"
	check_case tree "tree's kept counts of splinter [a-z]+ at [0-9a-f]{16} \(after ''\) differ" \
		"UPDATE tree_moves SET games = games + 1, w0 = w0 + 1 WHERE game = 'splinter' AND move = 'd6-c6'"
	# A lines row that does not read back, and one whose move is not legal.
	# (the lines' reader names a key no kifu writes first)
	check_case lines-row "(: game [0-9]+ has lines that no kifu writes|game_lines of game [0-9]+: key '999' is no ply)" \
		"UPDATE game_lines SET lines = '{\"999\":{}}' WHERE game_id = (SELECT min(game_id) FROM game_lines)"
	check_case lines-move ": game [0-9]+ does not replay as stored: ply [0-9]+: 'best' of 'eval': unparsable move 'zz9" \
		"UPDATE game_lines SET lines = replace(lines, '\"best\":\"', '\"best\":\"zz9') WHERE game_id = (SELECT min(game_id) FROM game_lines WHERE lines LIKE '%\"best\":\"%')"
	# json: one object per problem, with its check and game.
	_db=$(check_copy json) || fail "json: cannot copy the reference"
	check_sql "$_db" "DELETE FROM positions_hash WHERE game_id = 5 AND ply = 2" >/dev/null
	"$bin/kifu-check" --db "$_db" --json >"$tmp/json.out" 2>"$tmp/json.err"
	check "--json: exit 1" [ $? -eq 1 ]
	check "--json: the problem as an object: $(cat "$tmp/json.out")" \
		grep -q '^{"check":"position index","game":5,"message":"position index misses game 5 at position [0-9a-f]*' "$tmp/json.out"
}
