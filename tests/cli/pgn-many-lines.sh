#!/bin/sh
# A move with 64,000 lines (PGN RAVs) is read, validated and stored in time
# linear in them: a turn's lines grow geometrically (import/pgn.c and
# kifu_record_turn_add_line), where they grew by one at a time and a
# realloc that copies (the sanitizers', musl's) made it quadratic: 83 s of
# processor time under the sanitizers. Each tool runs under a limit of
# processor time far above what the linear work takes (about 0.3 s plain,
# a few seconds under the sanitizers) and far below the quadratic.
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
check "kifu-export --to yaml: $n lines in time" timed 20 "$tmp/many.yaml" \
	"$bin/kifu-export" --db "$tmp/many.db" --id 1 --to yaml
check "every line kept" [ "$(grep -c '^      - - g4$' "$tmp/many.yaml")" -eq "$n" ]
test_done "$checks checks"
