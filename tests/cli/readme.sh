#!/bin/sh
# Every command README.md shows, run as written, in its order, in one scratch
# directory holding `bin` (the tools under test) and `examples` (the
# sources'), as a user runs them from the top of the sources:
# - a command is a line of a code block starting with "$ "; the lines after
#   it in the block are what it prints (stdout and stderr together): each must
#   be a line of its output. It must exit 0, or N where it ends in "# exit N".
# - `make serve ...` runs from the sources as written (make -s, the build
#   under test's SANITIZE, -o all: the tools as built, never rebuilt here),
#   its SERVE_DB in the scratch directory and SERVE_LISTEN=127.0.0.1:0 added; the line it prints must be the one shown,
#   with that path and port put back. It serves until the test ends.
# - every <http://127.0.0.1:8080/...> address of the README is then asked of
#   that server (its own port) and must answer 200 with a page or JSON; the
#   game the tour reviews shows its stored review.
# - kifu-play's --games 24 plays 1 game a level (seconds, not minutes).
# `make demo` and `make test` are not run here (make test runs this; the demo
# is examples/demo); the PostgreSQL recipes of docs/postgresql.md, which the
# README links, are tests/cli/pg-readme.sh's.
# tests/run: plain (the README's words, not code: what its commands run runs
# under the sanitizers in the tools' own tests: import.sh, serve.sh, stats.sh,
# analyse.sh, play.sh, export.sh, search-pattern.sh, validate.sh)
set -u
. tests/cli/lib/test-lib.sh
test_require python3 make
. tests/cli/lib/serve.sh
src=$(pwd)
san=${KIFU_SANITIZE:-}

# The README's commands and their output lines: "C<TAB>command", "O<TAB>line".
awk '
	/^$/ { inblock = 0; prev = ""; next }
	/^    / && (inblock || prev == "") { inblock = 1; line = substr($0, 5)
		if (line ~ /^\$ /) { print "C\t" substr(line, 3); cmd = 1 }
		else if (cmd) print "O\t" line
		prev = $0; next }
	{ inblock = 0; cmd = 0; prev = $0 }' README.md >"$tmp/commands"
check "the README shows commands" [ "$(grep -c '^C' "$tmp/commands")" -ge 15 ]
grep -o '<http://127\.0\.0\.1:8080/[^>]*>' README.md | sed 's/^<http:\/\/127\.0\.0\.1:8080//; s/>$//' >"$tmp/urls"
check "the README shows addresses" [ "$(wc -l <"$tmp/urls")" -ge 5 ]

mkdir "$tmp/w"
ln -s "$bin" "$tmp/w/bin"
ln -s "$src/examples" "$tmp/w/examples"

# run_one COMMAND: runs it, output in $tmp/out; checks its exit status.
run_one() {
	want=0
	case $1 in *'# exit '[0-9]*) want=$(echo "$1" | sed 's/.*# exit \([0-9]*\).*/\1/') ;; esac
	case $1 in
	'make serve'*)
		db=$(echo "$1" | sed -n 's/.*SERVE_DB=\([^ ]*\).*/\1/p')
		[ -n "$db" ] || { fail "make serve without SERVE_DB: $1"; return; }
		: >"$tmp/out"
		(cd "$tmp/w" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -o all -C "$src" serve \
			SERVE_DB="$tmp/w/$db" SERVE_LISTEN=127.0.0.1:0 SANITIZE="$san") \
			>"$tmp/serve.out" 2>>"$tmp/serve.log" </dev/null &
		serve_pids="$serve_pids $!"
		test_wait_for 60 grep -q '^serving ' "$tmp/serve.out" ||
			{ fail "make serve did not start: $(tail -3 "$tmp/serve.log")"; return; }
		serve_url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$tmp/serve.out")
		port=${serve_url##*:}
		port=${port%/}
		sed -e "s|$tmp/w/||g" -e "s|127.0.0.1:$port/|127.0.0.1:8080/|" "$tmp/serve.out" >"$tmp/out"
		return ;;
	esac
	cmd=$(echo "$1" | sed 's/\(kifu-play .*\)--games 24/\1--games 1/')
	(cd "$tmp/w" && sh -c "$cmd") >"$tmp/out" 2>&1 </dev/null
	rc=$?
	check "'$1' exits $want (exit $rc: $(head -c 300 "$tmp/out"))" [ "$rc" -eq "$want" ]
}

n=0
while IFS='	' read -r kind text; do
	if [ "$kind" = C ]; then
		n=$((n + 1))
		current=$text
		run_one "$text"
	else
		check "'$current' prints '$text' (got: $(head -c 300 "$tmp/out"))" grep -qxF -- "$text" "$tmp/out"
	fi
done <"$tmp/commands"

# The tour's addresses, asked of the server make serve started.
if [ -n "${serve_url:-}" ]; then
	while read -r path; do
		serve_get "$path" >"$tmp/page"
		check "$path answers 200 ($(cat "$tmp/status"))" [ "$(cat "$tmp/status")" = 200 ]
		check "$path answers a page or JSON" grep -q '<html\|^[[{]' "$tmp/page"
	done <"$tmp/urls"
	# the game the tour reviews (kifu-analyse --id 705 --store) shows its review
	review_id=$(sed -n 's/^C\tbin\/kifu-analyse --id \([0-9]*\) --store$/\1/p' "$tmp/commands")
	check "the tour reviews a stored game" [ -n "$review_id" ]
	serve_get "/api/game/$review_id" >"$tmp/game.json"
	check "game $review_id has its review" python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
assert g["review"]["analysis"]["engine"] == "engine", g.get("review")' "$tmp/game.json"
else
	fail "the README does not start kifu-serve with make serve"
fi

test_done "$n commands, $(wc -l <"$tmp/urls") addresses"
