#!/bin/sh
# Long runs show progress (issue 42, CLI.md): kifu-play and kifu-analyse
# print, as kifu-import does and with its printer, a progress line on
# stderr when it is a terminal (script(1) gives them one): the games done
# of how many, the plies, the rate and, once a game is done, the share and
# the time left; --progress prints it off a terminal too, as whole lines
# with no terminal codes (also with --quiet), and without it a log gets
# none. kifu-analyse's line moves per game reviewed. The review written to
# the terminal is not mixed with the line.
set -u
. tests/cli/lib/test-lib.sh
play=$bin/kifu-play
analyse=$bin/kifu-analyse
command -v script >/dev/null 2>&1 || test_missing "script(1) is missing" util-linux

# The lines a terminal was shown: each redraw (\r ... ESC[K) on a line of its own.
shown() {
	tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | grep -v '^$'
}

# kifu-play on a terminal: two games long enough (half a second each here,
# five times the redraws' interval) for the line to be redrawn during the
# second.
script -qec "'$play' splinter --players mcts:200 --games 2 --max-plies 20 --db '$tmp/p.db'" \
	/dev/null >"$tmp/tty" 2>&1
shown "$tmp/tty" >"$tmp/lines"
check "kifu-play, a terminal: games, plies, rate" \
	grep -Eq '^kifu-play: 0/2 games, [0-9]+ plies, [0-9]+ plies/s$' "$tmp/lines"
check "kifu-play, a terminal: the share done and the time left" \
	grep -Eq '^kifu-play: 1/2 games, [0-9]+ plies, [0-9]+ plies/s, 50%, ETA [0-9]+:[0-5][0-9]$' \
	"$tmp/lines"
check "kifu-play, a terminal: the line cleared before the summary" \
	grep -q '^kifu-play: 2 games: ' "$tmp/lines"

# Off a terminal: nothing without --progress; with it, whole lines, the
# last one the whole run's, also with --quiet.
"$play" splinter --players random --games 3 --max-plies 10 -o "$tmp/g" 2>"$tmp/err" ||
	fail "kifu-play exited $?"
check "kifu-play, a log: no progress without --progress" sh -c '! grep -q "plies/s" "$0"' "$tmp/err"
for q in "" --quiet; do
	# shellcheck disable=SC2086
	"$play" splinter --players random --games 3 --max-plies 10 -o "$tmp/g" --progress $q \
		2>"$tmp/err" || fail "kifu-play --progress $q exited $?"
	check "kifu-play --progress $q: a line" \
		grep -Eq '^kifu-play: [0-3]/3 games, [0-9]+ plies, [0-9]+ plies/s' "$tmp/err"
	check "kifu-play --progress $q: the last line" \
		grep -Eq '^kifu-play: 3/3 games, 30 plies, [0-9]+ plies/s' "$tmp/err"
	check "kifu-play --progress $q: no terminal codes" sh -c "! grep -q \"\$(printf '\\r')\" '$tmp/err'"
done

# kifu-analyse on a terminal, the review on it too: a line per game reviewed.
"$play" splinter --players random --games 3 --max-plies 8 --db "$tmp/a.db" --quiet ||
	fail "kifu-play --db exited $?"
script -qec "'$analyse' --db '$tmp/a.db' --game splinter --playouts 30" /dev/null >"$tmp/tty" 2>&1 ||
	fail "kifu-analyse on a terminal exited $?"
shown "$tmp/tty" >"$tmp/lines"
for n in 1 2; do
	check "kifu-analyse, a terminal: game $n of 3" grep -Eq \
		"^kifu-analyse: $n/3 games, $((n * 8)) plies, [0-9]+ plies/s, [0-9]+%, ETA [0-9]+:[0-5][0-9]\$" \
		"$tmp/lines"
done
check "kifu-analyse, a terminal: three reviews, none mixed with the line" \
	sh -c '[ "$(grep -c "^game [0-9]* in .*: splinter" "$0")" -eq 3 ]' "$tmp/lines"
check "kifu-analyse, a terminal: the review's lines stand alone" \
	sh -c '! grep -q "plies/s.*\(ply\|splinter\|accuracy\)" "$0"' "$tmp/lines"

# Off a terminal: none without --progress; with it, lines, the last the whole run's.
"$analyse" --db "$tmp/a.db" --game splinter --playouts 30 >"$tmp/out" 2>"$tmp/err" ||
	fail "kifu-analyse exited $?"
check "kifu-analyse, a log: no progress without --progress" sh -c '! grep -q "plies/s" "$0"' "$tmp/err"
"$analyse" --db "$tmp/a.db" --game splinter --playouts 30 --progress >"$tmp/out" 2>"$tmp/err" ||
	fail "kifu-analyse --progress exited $?"
check "kifu-analyse --progress: the last line" \
	grep -Eq '^kifu-analyse: 3/3 games, 24 plies, [0-9]+ plies/s' "$tmp/err"
check "kifu-analyse --progress: no terminal codes" sh -c "! grep -q \"\$(printf '\\r')\" '$tmp/err'"
# --file: games whose number is not known beforehand.
"$analyse" --file "$tmp/g" --playouts 30 --progress >"$tmp/out" 2>"$tmp/err" ||
	fail "kifu-analyse --file --progress exited $?"
check "kifu-analyse --file --progress: the games reviewed" \
	grep -Eq '^kifu-analyse: 3 games, 30 plies, [0-9]+ plies/s$' "$tmp/err"
"$analyse" --help >"$tmp/help"
check "kifu-analyse --help: --progress" grep -q '^  --progress ' "$tmp/help"

test_done
