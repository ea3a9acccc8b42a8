#!/bin/sh
# Every tool's --help fits 100 columns (issue 42: kifu-import's listed the
# input patterns on one 151-column line), usage lines included, so that
# help2man's pages and a terminal show it unbroken; the input patterns'
# paragraph is wrapped, whatever their list holds.
set -u
. tests/cli/lib/test-lib.sh

n=0
for t in "$bin"/kifu-*; do
	[ -x "$t" ] || continue
	name=${t##*/}
	n=$((n + 1))
	"$t" --help >"$tmp/help" 2>"$tmp/err" || fail "$name --help exited $?"
	check "$name --help: lines over 100 columns: $(awk 'length > 100 { print NR ": " length }' "$tmp/help" |
		tr '\n' ' ')" sh -c "! awk 'length > 100' '$tmp/help' | grep -q ."
done
# every tool of cli/ (one file each)
check "every tool was looked at ($n)" [ "$n" -eq "$(ls cli/kifu-*.c | wc -l)" ]
# The paragraph with the input patterns still names them all.
for t in kifu-import kifu-validate; do
	"$bin/$t" --help >"$tmp/help"
	check "$t --help: the patterns" sh -c "tr '\n' ' ' <'$tmp/help' |
		grep -q 'in name order, for \*\.yaml, \*\.yml, .*(\*\.zip, .*\*\.zst)), an archive'"
done

test_done
