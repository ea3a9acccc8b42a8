# Sourced by the kifu-serve tests (tests/cli/serve-*.sh, pg-serve.sh) after
# test-lib.sh (or pg.sh). Defines
#   serve_start DB [ARGS...]  starts kifu-serve on 127.0.0.1, port 0, over DB;
#                             sets serve_url (http://127.0.0.1:PORT/, from the
#                             line it prints) and serve_pid; the server is
#                             stopped when the test exits, whatever happens
#   serve_stop                stops it now (SIGTERM) and fails unless it
#                             exits 0
#   serve_get PATH            the body of GET serve_url+PATH on stdout (the
#                             status code in $tmp/status), through python3
#   serve_review DB           stores reviews (kifu-analyse --store) of the
#                             two shortest games of DB, three runs of the
#                             first; sets serve_reviewed to serve_api.py's
#                             --reviewed=ID:FILE arguments (the json of the
#                             run a stored game's json must carry)
#   serve_player_games DB     imports five copies of an example game
#                             played by "Lines Tester", three as white and
#                             two as black: one line of several games per side
#   serve_transposed_games DB imports two copies of that game with its
#                             first and third moves swapped: it reaches its
#                             position after g4,h4,g6 by g6,h4,g4 too
test_require python3
serve_pids=""

serve_start() {
	_ss_db=$1
	shift
	rm -f "$tmp/serve.out"
	"$bin/kifu-serve" --db "$_ss_db" --listen 127.0.0.1:0 "$@" >"$tmp/serve.out" 2>>"$tmp/serve.log" &
	serve_pid=$!
	serve_pids="$serve_pids $serve_pid"
	if ! test_wait_for 60 grep -q '^serving ' "$tmp/serve.out"; then
		fail "kifu-serve did not start: $(tail -3 "$tmp/serve.log")"
		return 1
	fi
	serve_url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$tmp/serve.out")
}

serve_stop() {
	kill -TERM "$serve_pid" 2>/dev/null
	wait "$serve_pid"
	_ss_code=$?
	serve_pids=$(echo "$serve_pids" | sed "s/ $serve_pid\$//; s/ $serve_pid / /")
	[ "$_ss_code" -eq 0 ] || fail "kifu-serve exited $_ss_code on SIGTERM"
}

serve_cleanup_() {
	for _p in $serve_pids; do
		kill -TERM "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	serve_pids=""
}
test_at_exit serve_cleanup_

serve_get() {
	python3 - "$serve_url" "$1" "$tmp/status" <<'PY'
import sys, urllib.request, urllib.error
url, path, status = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    r = urllib.request.urlopen(url.rstrip("/") + path, timeout=60)
    code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
open(status, "w").write("%d\n" % code)
sys.stdout.buffer.write(body)
PY
}

serve_review() {
	_sr_ids=$("$bin/kifu-search" --db "$1" --json | python3 -c '
import json, sys
print(" ".join(str(h["id"]) for h in sorted(json.load(sys.stdin), key=lambda h: (h["plies"], h["id"]))[:2]))')
	set -- "$1" $_sr_ids
	[ $# -eq 3 ] || { fail "serve_review: two games to review"; return 1; }
	# the run with the most playouts is the one kept, whatever was stored after it
	for _sr_run in "$2 mcts:20 1" "$2 mcts:40 3" "$2 mcts:20 2" "$3 mcts:30 5"; do
		set -- "$1" "$2" "$3" $_sr_run
		"$bin/kifu-analyse" --db "$1" --id "$4" --engine "$5" --seed "$6" --threads 1 --store \
			--to json -o "$tmp/review-$4-$5.json" 2>"$tmp/err" ||
			{ fail "kifu-analyse --store: $(cat "$tmp/err")"; return 1; }
		set -- "$1" "$2" "$3"
	done
	serve_reviewed="--reviewed=$2:$tmp/review-$2-mcts:40.json --reviewed=$3:$tmp/review-$3-mcts:30.json"
}

serve_player_games() {
	for _sp in "white 01" "white 02" "white 03" "black 04" "black 05"; do
		set -- "$1" $_sp
		sed -e "s|^  $2: .*|  $2: Lines Tester|" -e "s|^date: .*|date: '2025-01-$3'|" \
			examples/splay-schmidt/splay-schmidt-standard-01.yaml >"$tmp/lines-$3.yaml"
		set -- "$1"
	done
	"$bin/kifu-import" --quiet --db "$1" "$tmp"/lines-0*.yaml >/dev/null 2>&1 ||
		fail "import Lines Tester's games"
}

serve_transposed_games() {
	for _st in 1 2; do
		python3 - examples/splay-schmidt/splay-schmidt-standard-01.yaml "$_st" \
			>"$tmp/transposed-$_st.yaml" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = lines.index("moves:")
lines[i + 1], lines[i + 3] = lines[i + 3], lines[i + 1]
lines = [("date: '2025-02-0%s'" % sys.argv[2]) if l.startswith("date:") else l for l in lines]
print("\n".join(lines), end="")
PY
	done
	"$bin/kifu-import" --quiet --db "$1" "$tmp"/transposed-*.yaml >/dev/null 2>&1 ||
		fail "import the transposed games"
}
