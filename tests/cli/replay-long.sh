#!/bin/sh
# The replay page of the longest games a record may hold (issue 39; once 2
# GB and 50 s a page): a valid 100,000-turn splay-kisenwether game (two
# stones stepping to and fro) and one of 2 plies whose first move has
# 99,990 one-move lines. kifu-export --to html writes each page in under 2
# s of processor time and 200 MB (/usr/bin/time's maximum resident set), a
# page of at most 300 bytes a position; kifu-serve answers /game/ID with
# that page (200, complete) in under 2 s of the server's processor time
# (and 30 s of wall time: the machine may be busy), the server's peak
# resident set under 200 MB after both. (The pages' script is run in
# Chromium by browser.sh and browser-lines.sh, on games of every game.)
# tests/run: alone (it measures time)
# tests/run: plain (time and memory as a user's build spends them; the
#   page's writer runs under the sanitizers in export.sh)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
test_require /usr/bin/time

awk 'BEGIN {
	print "game: splay-kisenwether\nresult: unfinished\nplayers: {white: Long A, black: Long B}\nmoves:"
	split("b6-a6 b3-a3 a6-b6 a3-b3", m, " ")
	for (i = 0; i < 100000; i++)
		print "  - " m[i % 4 + 1]
}' >"$tmp/long.yaml"
awk 'BEGIN {
	print "format: 2\ngame: splay-kisenwether\nresult: unfinished\n" \
		"players: {white: Lines A, black: Lines B}\nmoves:\n  - move: b6-a6\n    variations:"
	for (i = 0; i < 99990; i++)
		print "      - [c6-c5]"
	print "  - b3-a3"
}' >"$tmp/lines.yaml"

for s in long lines; do
	check "$s: a valid record" "$bin/kifu-validate" "$tmp/$s.yaml"
done

# kifu-export --to html, bounded in time (a page that takes minutes is a failure, not a wait);
# "SHAPE POSITIONS": the positions of its page, the main line's and the lines'
for shape in "long 100001" "lines 99993"; do
	set -- $shape
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/$1.time" timeout 30 \
		"$bin/kifu-export" --file "$tmp/$1.yaml" --to html -o "$tmp/$1.html" 2>"$tmp/err"
	code=$?
	check "$1: kifu-export --to html exits 0, not $code: $(tail -1 "$tmp/err")" [ "$code" -eq 0 ]
	# (the last line: a failed command's status comes first)
	read -r wall user sys rss <<-EOF
	$(tail -1 "$tmp/$1.time")
	EOF
	size=$(wc -c <"$tmp/$1.html" 2>/dev/null || echo 0)
	echo "$1: kifu-export --to html: ${wall} s (${user} s user, ${sys} s system), ${rss} KB, page $size bytes"
	check "$1: kifu-export --to html took $user + $sys s of processor time, not under 2" \
		awk "BEGIN { exit !($user + $sys < 2) }"
	check "$1: kifu-export --to html took $rss KB, not under 200 MB" [ "$rss" -lt 204800 ]
	check "$1: a page of $size bytes for $2 positions, more than 300 a position" \
		[ "$size" -le $(($2 * 300)) ]
	check "$1: the page is complete" sh -c "tail -1 '$tmp/$1.html' 2>/dev/null | grep -qx '</html>'"
done

# kifu-serve's /game/ID
db=$tmp/long.db
"$bin/kifu-import" --quiet --db "$db" "$tmp/long.yaml" "$tmp/lines.yaml" >/dev/null 2>"$tmp/err" ||
	fail "import: $(cat "$tmp/err")"
serve_start "$db" || test_done
for shape in "1 long 100001" "2 lines 99993"; do
	set -- $shape
	cpu0=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
	python3 - "$serve_url" "/game/$1" "$tmp/page" >"$tmp/got" <<'PY'
import sys, time, urllib.request, urllib.error
url, path, out = sys.argv[1:4]
t = time.time()
try:
    r = urllib.request.urlopen(url.rstrip("/") + path, timeout=30)
    code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
except Exception as e:
    print(path, e, file=sys.stderr)
    code, body = "none", b""
open(out, "wb").write(body)
print(code, "%.2f" % (time.time() - t))
PY
	cpu1=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
	read -r code wall <"$tmp/got"
	cpu=$(awk "BEGIN { print ($cpu1 - $cpu0) / $(getconf CLK_TCK) }")
	size=$(wc -c <"$tmp/page")
	echo "$2: /game/$1: $code in $wall s ($cpu s of the server's processor time), $size bytes"
	check "$2: /game/$1 answered $code, not 200" [ "$code" = 200 ]
	check "$2: /game/$1 took $cpu s of processor time, not under 2" awk "BEGIN { exit !($cpu < 2) }"
	check "$2: /game/$1 took $wall s, not under 30" awk "BEGIN { exit !($wall < 30) }"
	check "$2: /game/$1: a page of $size bytes for $3 positions, more than 300 a position" \
		[ "$size" -le $(($3 * 300)) ]
	check "$2: /game/$1: the page is complete, with the site's bar" \
		sh -c "tail -1 '$tmp/page' | grep -qx '</html>' && grep -q 'id=\"to-explorer\"' '$tmp/page'"
done
rss=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$serve_pid/status")
echo "kifu-serve's peak resident set: $rss KB"
check "kifu-serve's peak resident set $rss KB, not under 200 MB" [ "$rss" -lt 204800 ]
serve_stop
test_done "$checks checks"
