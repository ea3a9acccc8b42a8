#!/bin/sh
# What a new user trips on, in every tool: an empty database name (--db '',
# KIFU_DB=) is a usage error, writes to a full standard output are exit 3,
# errors about the database name the tool (not the file as if it were a
# source location), an option given without its value says so, mistyped
# options, games and variants get a "did you mean" hint, unknown games list
# the known ones, and summaries say "1 game". Runs from the repo root; tools
# in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
rec=examples/splinter/splinter-knockout-01.yaml

# expect CODE PATTERN DESCRIPTION -- command...: exit CODE, stderr matches PATTERN (grep -E)
expect() {
	code=$1 pat=$2 desc=$3
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		fail "$desc: exit $rc, expected $code ($(head -1 "$tmp/err"))"
	elif [ -n "$pat" ] && ! grep -Eq -- "$pat" "$tmp/err"; then
		fail "$desc: stderr does not match '$pat': $(cat "$tmp/err")"
	fi
}

"$bin/kifu-import" --db "$tmp/k.db" --quiet "$rec" || { fail "import"; test_done; }

# An empty database name: SQLite would use a temporary database, thrown away.
cd "$tmp" || exit 1
for t in "kifu-import $OLDPWD/$rec" "kifu-stats summary" "kifu-search" "kifu-export --id 1 --to yaml" \
	"kifu-play splinter --players random"; do
	# shellcheck disable=SC2086
	expect 2 "^${t%% *}: error: --db needs a database name" "$t --db ''" -- "$bin"/$t --db ''
	# shellcheck disable=SC2086
	expect 2 "^${t%% *}: error: KIFU_DB is set but empty" "KIFU_DB= $t" -- env KIFU_DB= "$bin"/$t
done
check "--db '' created nothing here" [ -z "$(ls "$tmp" | grep -v '^k.db\|^out$\|^err$')" ]
cd "$OLDPWD" || exit 1

# Writes to a full disk are exit 3, for every tool.
if [ -w /dev/full ]; then
	expect 3 "cannot write to standard output" "kifu-perft >/dev/full" -- \
		sh -c "'$bin/kifu-perft' splinter 3 >/dev/full"
	expect 3 "cannot write to standard output" "kifu-perft --help >/dev/full" -- \
		sh -c "'$bin/kifu-perft' --help >/dev/full"
	expect 3 "cannot write to standard output" "kifu-perft --divide >/dev/full" -- \
		sh -c "'$bin/kifu-perft' glaisher --divide 1 >/dev/full"
	expect 3 "cannot write to standard output" "kifu-validate >/dev/full" -- \
		sh -c "'$bin/kifu-validate' '$rec' >/dev/full"
	expect 3 "cannot write to standard output" "kifu-play >/dev/full" -- \
		sh -c "'$bin/kifu-play' splinter --players random >/dev/full"
	expect 3 "cannot write to standard output" "kifu-search >/dev/full" -- \
		sh -c "'$bin/kifu-search' --db '$tmp/k.db' >/dev/full"
	expect 3 "cannot write to standard output" "kifu-stats >/dev/full" -- \
		sh -c "'$bin/kifu-stats' --db '$tmp/k.db' summary >/dev/full"
	expect 3 "cannot write to standard output" "kifu-export >/dev/full" -- \
		sh -c "'$bin/kifu-export' --file '$rec' --to text >/dev/full"
	expect 3 "cannot write to standard output" "kifu-import >/dev/full" -- \
		sh -c "'$bin/kifu-import' --db '$tmp/k.db' '$rec' >/dev/full"
	expect 3 "cannot write to standard output" "kifu-stats --version >/dev/full" -- \
		sh -c "'$bin/kifu-stats' --version >/dev/full"
fi

# Errors about the database name the tool.
echo "not a database" >"$tmp/junk.db"
for t in "kifu-stats summary" "kifu-search" "kifu-export --id 1 --to yaml" "kifu-import $rec" \
	"kifu-play splinter --players random"; do
	# shellcheck disable=SC2086
	expect 3 "^${t%% *}: error: .*junk.db" "$t on a file that is not a database" -- \
		"$bin"/$t --db "$tmp/junk.db"
	check "$t: the database is not shown as a source location" \
		sh -c "! grep -q '^$tmp/junk.db:' '$tmp/err'"
done

# An option without its value says so, in every tool.
expect 2 "option '--after' needs a value" "kifu-perft --after" -- "$bin/kifu-perft" splinter 3 --after
expect 2 "option '--variant' needs a value" "kifu-perft --variant" -- "$bin/kifu-perft" splinter 3 --variant
expect 2 "option '--db' needs a value" "kifu-import --db" -- "$bin/kifu-import" "$rec" --db
expect 2 "option '--db' needs a value" "kifu-stats --db" -- "$bin/kifu-stats" summary --db
expect 2 "option '--db' needs a value" "kifu-search --db" -- "$bin/kifu-search" --db
expect 2 "option '--to' needs a value" "kifu-export --to" -- "$bin/kifu-export" --file "$rec" --to
expect 2 "option '--games' needs a value" "kifu-play --games" -- "$bin/kifu-play" splinter --players random --games
expect 2 "option '-o' needs a value" "kifu-play -o" -- "$bin/kifu-play" splinter --players random -o
expect 2 "unknown option '--bogus'" "kifu-validate --bogus" -- "$bin/kifu-validate" --bogus "$rec"
expect 2 "option '--divide' takes no value" "kifu-perft --divide=3" -- "$bin/kifu-perft" splinter 3 --divide=3

# Did you mean: options, games, variants (a record's keys: tests/data/records/invalid/near-names).
expect 2 "unknown option '--aftr' \\(did you mean '--after'\\?\\)" "kifu-perft --aftr" -- \
	"$bin/kifu-perft" splinter 3 --aftr d4
expect 2 "unknown option '--jsno' \\(did you mean '--json'\\?\\)" "kifu-validate --jsno" -- \
	"$bin/kifu-validate" --jsno "$rec"
expect 2 "unknown option '--min-gmaes=2' \\(did you mean '--min-games'\\?\\)" "kifu-stats --min-gmaes=2" -- \
	"$bin/kifu-stats" --db "$tmp/k.db" openings --min-gmaes=2
expect 2 "unknown option '--xyzzy'$" "no hint when nothing is close" -- "$bin/kifu-search" --xyzzy
expect 2 "unknown game 'splintr' \\(did you mean 'splinter'\\?\\)" "kifu-perft splintr" -- \
	"$bin/kifu-perft" splintr 2
expect 2 "unknown game 'chess' \\(splay-schmidt, splay-kisenwether, splinter, splinter-quad or glaisher\\)" \
	"kifu-perft lists the games" -- "$bin/kifu-perft" chess 2
expect 2 "unknown game 'chess' \\(splay-schmidt, .* or glaisher\\)" "kifu-play lists the games" -- \
	"$bin/kifu-play" chess --players random
expect 2 "unknown game 'chess' \\(splay-schmidt, .* or glaisher\\)" "kifu-stats lists the games" -- \
	"$bin/kifu-stats" --db "$tmp/k.db" --game chess summary
expect 2 "unknown game 'glaishr' \\(did you mean 'glaisher'\\?\\)" "kifu-search --game glaishr" -- \
	"$bin/kifu-search" --db "$tmp/k.db" --game glaishr
expect 2 "unknown game 'chess' \\(splay-schmidt, .* or glaisher\\)" "kifu-export lists the games" -- \
	"$bin/kifu-export" --db "$tmp/k.db" --game chess --to yaml
expect 2 "unknown variant 'advancd' of 'glaisher' \\(did you mean 'advanced'\\?\\)" "--variant advancd" -- \
	"$bin/kifu-perft" glaisher --variant advancd 2
expect 2 "unknown variant 'quick' of 'glaisher' \\(standard or advanced\\)" "--variant quick" -- \
	"$bin/kifu-perft" glaisher --variant quick 2
expect 2 "unknown variant 'survivl' \\(did you mean 'survival'\\?\\)" "kifu-stats --variant survivl" -- \
	"$bin/kifu-stats" --db "$tmp/k.db" --variant survivl summary
expect 2 "unknown report 'xyzzyq' \\(summary, openings, players, lengths, tree, novelties or balance\\)" \
	"kifu-stats lists every report" -- "$bin/kifu-stats" --db "$tmp/k.db" xyzzyq

# One game, not "1 games".
"$bin/kifu-validate" "$rec" >"$tmp/out" 2>&1
check "kifu-validate: '1 game, 1 valid, 0 invalid'" [ "$(cat "$tmp/out")" = "1 game, 1 valid, 0 invalid" ]
"$bin/kifu-validate" "$rec" "$rec" >"$tmp/out" 2>&1
check "kifu-validate: '2 games, 2 valid, 0 invalid'" [ "$(cat "$tmp/out")" = "2 games, 2 valid, 0 invalid" ]
"$bin/kifu-play" splinter --players random >/dev/null 2>"$tmp/err"
check "kifu-play: '1 game:'" grep -q "^kifu-play: 1 game: " "$tmp/err"
"$bin/kifu-play" splinter --levels random >/dev/null 2>"$tmp/err"
check "kifu-play --levels: 'level random: 1 game:'" grep -q "^kifu-play: level random: 1 game: " "$tmp/err"
printf 'game: splinter\nmoves: [e7-d8]\n' >"$tmp/one.yaml"
"$bin/kifu-export" --file "$tmp/one.yaml" --to text >"$tmp/out"
check "kifu-export --to text: '1 ply'" grep -q "^result: unfinished, 1 ply$" "$tmp/out"

test_done
