#!/bin/sh
# `make install` into a temporary prefix, as a packager or a user of the
# library runs it: the tools, libkifu.a, the headers, kifu.pc, a man page
# per tool (each with the sections of its man/NAME.h2m: its reference) and
# kifu-records(5); then a small program (examples/pgn2yaml.c)
# built against the installed library with
# `pkg-config --cflags --libs kifu`, reading PGN and printing canonical
# YAML, which must be what kifu-export writes for the same games.
# Runs from the repo root; tools in $KIFU_BIN, the sanitizers of the build
# (if any) in $KIFU_SANITIZE.
set -u
. tests/cli/lib/test-lib.sh
san=${KIFU_SANITIZE:-}
test_require pkg-config groff cc

prefix=$tmp/prefix
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX="$prefix" SANITIZE="$san" \
	>"$tmp/make.out" 2>&1
check "make install exits 0: $(tail -3 "$tmp/make.out")" [ $? -eq 0 ]
for t in "$bin"/kifu-*; do
	name=$(basename "$t")
	check "$name installed" [ -x "$prefix/bin/$name" ]
	check "$name.1 installed" [ -s "$prefix/share/man/man1/$name.1" ]
	check "$name.1 renders without warnings" \
		sh -c "groff -man -ww -z '$prefix/share/man/man1/$name.1' 2>&1 | grep -q . && exit 1 || exit 0"
	check "$name.1 has the usage" grep -q "^usage: $(echo "$name" | sed 's/-/\\\\-/g')" \
		"$prefix/share/man/man1/$name.1"
	# its reference: every section of man/NAME.h2m, and EXAMPLES
	for sec in $(sed -n 's/^\[\([A-Z][A-Z0-9 :]*\)\]$/\1/p' "man/$name.h2m" | tr ' ' '_') EXAMPLES; do
		sec=$(echo "$sec" | tr '_' ' ')
		check "$name.1 has the section $sec" grep -q "^\.SH \"*$sec\"*\$" "$prefix/share/man/man1/$name.1"
	done
done
check "kifu-records.5 installed" [ -s "$prefix/share/man/man5/kifu-records.5" ]
check "kifu-records.5 renders without warnings" \
	sh -c "groff -man -ww -z '$prefix/share/man/man5/kifu-records.5' 2>&1 | grep -q . && exit 1 || exit 0"
check "libkifu.a installed" [ -s "$prefix/lib/libkifu.a" ]
check "the headers installed" [ -s "$prefix/include/kifu/pipeline.h" ] && [ -s "$prefix/include/kifu/format.h" ]
check "kifu.pc installed" [ -s "$prefix/lib/pkgconfig/kifu.pc" ]

PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs kifu)
check "pkg-config knows kifu" [ $? -eq 0 ]
check "pkg-config points into the prefix" sh -c "echo '$flags' | grep -q -- '-I$prefix/include' && echo '$flags' | grep -q -- '-L$prefix/lib'"
sanflags=
[ -n "$san" ] && sanflags="-fsanitize=$san"
# shellcheck disable=SC2086 # the flags are words
cc -std=c11 -Wall -Wextra $sanflags examples/pgn2yaml.c $flags -o "$tmp/pgn2yaml" 2>"$tmp/cc.err"
check "a program builds against the installed libkifu: $(head -3 "$tmp/cc.err")" [ -x "$tmp/pgn2yaml" ]

# A PGN file of games of every kind, and what kifu-export makes of it.
cat examples/splinter/*.yaml examples/glaisher/*.yaml examples/splinter-quad/*.yaml >"$tmp/all.yaml"
"$bin/kifu-export" --file "$tmp/all.yaml" --to pgn >"$tmp/games.pgn" 2>"$tmp/err"
check "kifu-export --to pgn" [ -s "$tmp/games.pgn" ]
"$bin/kifu-export" --file "$tmp/games.pgn" --to yaml >"$tmp/want.yaml" 2>/dev/null
"$tmp/pgn2yaml" "$tmp/games.pgn" >"$tmp/got.yaml" 2>"$tmp/err"
check "the program reads PGN: exit 0 ($(head -2 "$tmp/err"))" [ $? -eq 0 ]
check "the program prints what kifu-export prints" cmp -s "$tmp/got.yaml" "$tmp/want.yaml"
check "every game" [ "$(grep -c '^---$' "$tmp/got.yaml")" -eq "$(cat examples/splinter/*.yaml examples/glaisher/*.yaml examples/splinter-quad/*.yaml | grep -c '^format: 1')" ]
"$tmp/pgn2yaml" - <"$tmp/games.pgn" >"$tmp/got2.yaml" 2>/dev/null
check "the program reads standard input" cmp -s "$tmp/got2.yaml" "$tmp/want.yaml"

test_done "$checks checks"
