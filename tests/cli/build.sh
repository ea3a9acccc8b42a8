#!/bin/sh
# The build prints one short line per step (CC lib/util/buf.c, AR, LD), not the
# compiler's command lines, unless V=1. Builds one library object and one
# tool into a scratch build directory, so the real build is left alone.
set -u
. tests/cli/lib/test-lib.sh
unset MAKEFLAGS MAKELEVEL MFLAGS

make --no-print-directory O="$tmp/o" BIN="$tmp/bin" "$tmp/o/lib/util/text.o" >"$tmp/out" 2>&1
check "make builds lib/util/text.o" [ $? -eq 0 ]
check "one line 'CC lib/util/text.c': $(cat "$tmp/out")" [ "$(sed 's/  */ /g; s/^ //' "$tmp/out")" = "CC lib/util/text.c" ]
rm -f "$tmp/o/lib/util/text.o"
make --no-print-directory V=1 O="$tmp/o" BIN="$tmp/bin" "$tmp/o/lib/util/text.o" >"$tmp/out" 2>&1
check "V=1 shows the compiler command" grep -q -- "-c lib/util/text.c -o $tmp/o/lib/util/text.o" "$tmp/out"

# A whole tool: only CC, GEN, AR and LD lines.
rm -rf "$tmp/o"
make --no-print-directory -j2 O="$tmp/o" BIN="$tmp/bin" "$tmp/bin/kifu-perft" >"$tmp/out" 2>&1
check "make builds a tool" [ $? -eq 0 ]
check "short lines only: $(grep -Ev '^  (CC|GEN|AR|LD) ' "$tmp/out" | head -3)" \
	[ -z "$(grep -Ev '^  (CC|GEN|AR|LD) ' "$tmp/out")" ]
check "an AR line" grep -q "^  AR   $tmp/o/libkifu.a$" "$tmp/out"
check "an LD line" grep -q "^  LD   $tmp/bin/kifu-perft$" "$tmp/out"
# Every source of libkifu, the schemas compiled in (SQLite's and
# PostgreSQL's), the tools' common files (cli/*.c but the tools) and the
# tool's own.
srcs=$(ls lib/*/*.c lib/*/*/*.c import/*.c 2>/dev/null | wc -l)
common=$(ls cli/*.c | grep -vc '^cli/kifu-')
check "one CC line per source" [ "$(grep -c '^  CC ' "$tmp/out")" -eq $((srcs + common + 3)) ]

test_done
