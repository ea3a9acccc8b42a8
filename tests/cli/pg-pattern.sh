#!/bin/sh
# kifu-search --pattern and kifu-stats novelties on both backends: the
# hand-checked novelty games and random games of every variant imported
# into a SQLite file and a PostgreSQL database give byte-identical output
# (table, csv, json), with and without --symmetric and filters; the
# summaries schema 8 keeps (game_cells) are the same bytes. One stored
# game's novelty (kifu-export's json and page) equals the report's row on
# PostgreSQL too, with dated games made from the random ones.
set -u
. tests/cli/lib/pg.sh
lite=$tmp/ref.db
for spec in splay-schmidt: splinter:knockout splinter-quad: glaisher:standard; do
	game=${spec%%:*} variant=${spec#*:}
	"$bin/kifu-play" "$game" ${variant:+--variant "$variant"} --players random --games 6 \
		--seed 3 --max-plies 80 >"$tmp/$game.yaml" 2>/dev/null || fail "kifu-play $game"
done
python3 tests/cli/lib/novelty_games.py "$tmp"/*.yaml >"$tmp/dated.yaml.tmp" &&
	mv "$tmp/dated.yaml.tmp" "$tmp/dated.yaml" || fail "dated games"
for d in "$lite" "$db"; do
	"$bin/kifu-import" --quiet --db "$d" tests/data/novelties/games.yaml "$tmp"/*.yaml >/dev/null ||
		fail "import into $d"
done
same() { # description, then the tool and its arguments (after --db)
	what=$1
	shift
	tool=$1
	shift
	"$bin/$tool" --db "$lite" "$@" >"$tmp/a" 2>&1
	a=$?
	"$bin/$tool" --db "$db" "$@" >"$tmp/b" 2>&1
	b=$?
	[ "$a" -eq 0 ] && [ "$b" -eq 0 ] && cmp -s "$tmp/a" "$tmp/b" ||
		fail "$what: $tool $* differs (exit $a and $b)"
}
for fmt in table csv json; do
	same "novelties" kifu-stats --game splay-schmidt novelties --format "$fmt"
	same "novelties" kifu-stats --game splinter --variant knockout novelties --format "$fmt"
	same "novelties" kifu-stats --game splinter-quad --since 2020-01-15 novelties --format "$fmt"
done
for opt in "" --symmetric; do
	for json in "" --json; do
		same "pattern" kifu-search --game splay-schmidt --pattern 'g4=w+,h4=+' $opt $json
		same "pattern" kifu-search --game splinter --variant knockout --pattern 'c4=B+,d4=.' $opt $json
		same "pattern" kifu-search --game splinter-quad --pattern 'c4=+' $opt $json
		same "pattern" kifu-search --game glaisher --variant standard --pattern 'a2=r+,e5=.' $opt $json
	done
done
sqlite3 "$lite" "SELECT game_id, lower(hex(cells)) FROM game_cells ORDER BY game_id" >"$tmp/lite-cells"
psql -X -At -F '|' -d "$db" -c "SELECT game_id, encode(cells, 'hex') FROM game_cells ORDER BY game_id" \
	>"$tmp/pg-cells" || fail "psql"
check "the same summaries on both backends" test_cmp "$tmp/lite-cells" "$tmp/pg-cells"
check "every game summarised" test "$(wc -l <"$tmp/pg-cells")" -gt 20
n=$(python3 tests/cli/lib/novelty_check.py "$bin" "$db" "$tmp" splay-schmidt: splinter:knockout \
	splinter-quad: glaisher:standard) || fail "one game's novelty differs from the report's"
check "every game's novelty compared ($n)" test "${n:-0}" -gt 100
test_done
