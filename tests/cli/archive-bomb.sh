#!/bin/sh
# Decompression bombs (item 2), generated in the test's
# directory: newlines compressed with zstd and gzip, read as yaml and pgn,
# and a tar.zst whose first member (skipped: its name matches no record
# pattern) is 200 MB of zeros. Peak memory stays under 64 MB, and the
# 1000:1 limit holds wherever libarchive decompresses (telling the format,
# a member's data, a skipped member). Runs from the repo root; tools in
# $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
test_require zstd gzip tar time
# (under AddressSanitizer, freed memory is held in a quarantine unless told otherwise)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0
export ASAN_OPTIONS

# peak KB: runs kifu-validate FILE, its stderr in $tmp/err
peak() {
	/usr/bin/time -f %M -o "$tmp/rss" "$bin/kifu-validate" "$1" >/dev/null 2>"$tmp/err"
	tail -1 "$tmp/rss"
}

head -c 100000000 /dev/zero | tr '\0' '\n' >"$tmp/nl"
zstd -q -c "$tmp/nl" >"$tmp/nl.yaml.zst"
gzip -c "$tmp/nl" >"$tmp/nl.yaml.gz"
cp "$tmp/nl.yaml.zst" "$tmp/nl.pgn.zst"
rm -f "$tmp/nl"
for f in nl.yaml.zst nl.yaml.gz nl.pgn.zst; do
	kb=$(peak "$tmp/$f")
	check "$f: peak memory $kb KB, not under 64 MB" [ "$kb" -lt 65536 ]
done
check "nl.pgn.zst: the ratio named" grep -q "nl.pgn.zst: error: member expands more than 1000:1" "$tmp/err"

mkdir "$tmp/t"
head -c 200000000 /dev/zero >"$tmp/t/a.bin"
cp examples/splay-schmidt/"$(ls examples/splay-schmidt | head -1)" "$tmp/t/z.yaml"
tar -C "$tmp/t" -cf - a.bin z.yaml | zstd -q >"$tmp/skip.tar.zst"
rm -rf "$tmp/t"
kb=$(peak "$tmp/skip.tar.zst")
check "skip.tar.zst: peak memory $kb KB, not under 64 MB" [ "$kb" -lt 65536 ]
check "skip.tar.zst: a skipped member is held to the ratio too" \
	grep -q "skip.tar.zst: error: member expands more than 1000:1" "$tmp/err"

test_done "$checks checks"
