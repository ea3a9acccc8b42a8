#!/bin/sh
# The build prints one short line per step (CC lib/util/buf.c, AR, LD), not the
# compiler's command lines, unless V=1. Builds one library object and one
# tool into a scratch build directory, so the real build is left alone; the
# tool without optimisation (OPT=-O0: what is checked is make's work, not
# the code's, and -O0 compiles several times faster).
# tests/run: early (it is long)
# tests/run: plain (make's work: it builds without sanitizers, in both passes
#   alike)
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
make --no-print-directory -j2 OPT=-O0 O="$tmp/o" BIN="$tmp/bin" "$tmp/bin/kifu-perft" >"$tmp/out" 2>&1
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

# A fresh machine: a package missing when make starts (here libmicrohttpd,
# which a stand-in pkg-config does not know until the stand-in installer has
# run) must not cost the other packages' flags, and the flags are read after
# the install. pg.c needs libpq's -I (the first-run failure of issue 28).
rm -rf "$tmp/o"
real_pc=$(command -v pkg-config)
cat >"$tmp/pkg-config" <<EOF
#!/bin/sh
# Fails, as pkg-config does for a whole list, while libmicrohttpd is missing.
if [ ! -f "$tmp/installed" ]; then
	for a in "\$@"; do [ "\$a" = libmicrohttpd ] && exit 1; done
fi
exec "$real_pc" "\$@"
EOF
cat >"$tmp/ensure" <<EOF
#!/bin/sh
touch "$tmp/installed"
EOF
chmod +x "$tmp/pkg-config" "$tmp/ensure"
make --no-print-directory -j2 OPT=-O0 O="$tmp/o" BIN="$tmp/bin" PKG_CONFIG="$tmp/pkg-config" ENSURE_PACKAGES="$tmp/ensure" \
	"$tmp/o/lib/store/backends/pg.o" "$tmp/o/lib/serve/serve.o" >"$tmp/out" 2>&1
check "the first make on a machine missing a package builds pg.o and serve.o: $(tail -3 "$tmp/out")" [ $? -eq 0 ]
check "the stand-in installer ran" [ -f "$tmp/installed" ]

test_done
