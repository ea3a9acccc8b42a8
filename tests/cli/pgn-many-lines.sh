#!/bin/sh
# A move with 64,000 lines (PGN RAVs) is read, validated and stored in time
# linear in them: a turn's lines grow geometrically (import/pgn.c and
# kifu_record_turn_add_line), where they grew by one at a time and a
# realloc that copies (the sanitizers', musl's) made it quadratic: 83 s of
# processor time under the sanitizers (here: stopped unfinished after 157 s).
# Each tool runs under a limit of processor time (20 s) far above what the
# linear work takes (kifu-validate 0.3 s plain, 1.1 s under the sanitizers)
# and far below the quadratic. With glibc's realloc, which mostly grows in
# place, the plain build was linear before too: the limit bites under the
# sanitizers' pass.
set -u
. tests/cli/lib/test-lib.sh
n=64000
python3 - "$n" >"$tmp/many.pgn" <<'PY'
import sys
n = int(sys.argv[1])
print('[Game "splay-schmidt"]\n[Variant "standard"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n')
print("1. f4 " + "(1. g4) " * n + "g5 *")
PY

# timed LIMIT OUT COMMAND...: COMMAND's output in OUT, killed past LIMIT s of
# processor time; fails (saying how long it took) unless it exits 0
timed() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
limit, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
def cap():
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
with open(out, "wb") as f:
    rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, preexec_fn=cap)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
used = u.ru_utime + u.ru_stime
if rc != 0:
    sys.exit("%s: exit %d after %.1f s of processor time (limit %d s)" % (cmd[0], rc, used, limit))
PY
}

check "kifu-validate: $n lines in time" timed 20 "$tmp/validate.out" "$bin/kifu-validate" "$tmp/many.pgn"
check "kifu-validate: valid" grep -q '1 game, 1 valid, 0 invalid' "$tmp/validate.out"
check "kifu-import: $n lines in time" timed 20 "$tmp/import.out" \
	"$bin/kifu-import" --quiet --db "$tmp/many.db" "$tmp/many.pgn"
check "kifu-export --to json: $n lines in time" timed 20 "$tmp/many.json" \
	"$bin/kifu-export" --db "$tmp/many.db" --id 1 --to json
check "every line stored" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["moves"][0]["variations"]
sys.exit(0 if len(v) == int(sys.argv[2]) and all(l[0]["move"] == "g4" for l in v) else len(v))' \
	"$tmp/many.json" "$n"
test_done "$checks checks"
