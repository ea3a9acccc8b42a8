#!/bin/sh
# Declarative record fixtures, checked through bin/kifu-validate as a user
# runs it from the repo root: every tests/data/records/invalid/NAME.yaml
# must exit 1 with exactly the diagnostics of NAME.expected on stderr; every
# tests/data/records/valid/NAME.yaml must exit 0 with an empty stderr (or
# exactly NAME.expected, for warnings). Every example game must be valid,
# and every file of examples/invalid invalid, opening with a comment line.
set -u
. tests/cli/lib/test-lib.sh

for f in tests/data/records/invalid/*.yaml; do
	exp=${f%.yaml}.expected
	checks=$((checks + 1))
	if [ ! -f "$exp" ]; then
		fail "$f: no $exp"
		continue
	fi
	"$bin/kifu-validate" --quiet "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "$f: exit $rc, expected 1"
	[ -s "$tmp/out" ] && fail "$f: --quiet printed on stdout"
	test_cmp "$exp" "$tmp/err" || fail "$f: diagnostics differ"
done

for f in tests/data/records/valid/*.yaml; do
	exp=${f%.yaml}.expected
	checks=$((checks + 1))
	"$bin/kifu-validate" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "$f: exit $rc, expected 0"; cat "$tmp/err"; }
	if [ -f "$exp" ]; then
		test_cmp "$exp" "$tmp/err" || fail "$f: warnings differ"
	elif [ -s "$tmp/err" ]; then
		fail "$f: unexpected diagnostics"
		cat "$tmp/err"
	fi
	grep -q ' 0 invalid$' "$tmp/out" || fail "$f: summary '$(cat "$tmp/out")'"
done

# Every example game is valid: at least three per game and variant.
for d in examples/*/; do
	[ "$d" = examples/invalid/ ] && continue
	[ "$d" = examples/interop/ ] && continue
	# a study's report (docs/balance.md, "Is my game fair?"): its csv is kifu-stats', no records
	[ "$d" = examples/balance/ ] && continue
	checks=$((checks + 1))
	"$bin/kifu-validate" "$d" >"$tmp/out" 2>"$tmp/err" || { fail "$d: not all valid"; cat "$tmp/err"; }
	[ -s "$tmp/err" ] && { fail "$d: diagnostics"; cat "$tmp/err"; }
done
# examples/interop/: every game valid, in every format and archive (a pgn
# variation is a format-2 line); the only diagnostic is the archives' README.txt.
checks=$((checks + 1))
"$bin/kifu-validate" examples/interop/ >"$tmp/out" 2>"$tmp/err" || { fail "examples/interop/: not all valid"; cat "$tmp/err"; }
[ "$(cat "$tmp/out")" = "35 games, 35 valid, 0 invalid" ] || fail "examples/interop/: summary '$(cat "$tmp/out")'"
[ "$(grep -vc 'skipped 2 archive members' "$tmp/err")" = 0 ] ||
	{ fail "examples/interop/: diagnostics"; cat "$tmp/err"; }
for pair in splay-schmidt:standard splay-kisenwether:standard splinter:knockout splinter:survival \
	splinter-quad:standard glaisher:standard glaisher:advanced; do
	g=${pair%%:*}
	v=${pair#*:}
	n=$(grep -l "^variant: $v\$" examples/"$g"/*.yaml 2>/dev/null | wc -l)
	[ "$n" -ge 3 ] || fail "examples/$g: $n games of variant $v, expected at least 3"
done

# Every file of examples/invalid is invalid and says what it shows on its first line.
for f in examples/invalid/*.yaml; do
	checks=$((checks + 1))
	head -n 1 "$f" | grep -q '^# ..' || fail "$f: no comment on its first line"
	"$bin/kifu-validate" --quiet "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "$f: exit $rc, expected 1"
	grep -q ': error: game [0-9]' "$tmp/err" || fail "$f: no error diagnostic"
done

# Every ```yaml block of formats/*.md is a valid record (the docs' examples).
for f in formats/*.md; do
	checks=$((checks + 1))
	python3 - "$f" "$bin/kifu-validate" <<'PY' >"$tmp/py" 2>&1 || { fail "$f: an example is not valid"; cat "$tmp/py"; }
import re, subprocess, sys
doc, tool = sys.argv[1:]
blocks = re.findall(r"```yaml\n(.*?)```", open(doc).read(), re.S)
for i, b in enumerate(blocks):
    r = subprocess.run([tool, "-"], input=b.encode(), capture_output=True)
    if r.returncode != 0 or r.stderr:
        print("block %d:" % (i + 1), r.stderr.decode())
        sys.exit(1)
PY
done
[ -f formats/README.md ] || fail "formats/README.md is missing"
for g in splay-schmidt splay-kisenwether splinter splinter-quad glaisher; do
	grep -q '```yaml' "formats/$g.md" 2>/dev/null || fail "formats/$g.md has no example"
done

test_done "$checks checked"
