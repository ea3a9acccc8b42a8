#!/bin/sh
# Names reach the terminal escaped (item 3): a file and a tar
# member named with escape sequences (set the title, clear the screen) and
# U+202E (the right-to-left override), a database path, and what libpq
# echoes of a percent-decoded host, are printed with kifu_buf_escaped's
# escapes in diagnostics. Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
# raw FILE: the file holds ESC, BEL or U+202E's bytes
raw() { LC_ALL=C grep -q "$(printf '\033\\|\007\\|\342\200\256')" "$1"; }
clean() { ! raw "$1"; }

name=$(printf 'x\033]0;pwned\007\033[2J\342\200\256.yaml')
shown='x\\x1b]0;pwned\\x07\\x1b\[2J\\u202e\.yaml'
mkdir "$tmp/d"
printf 'not: [valid\n' >"$tmp/d/$name"
(cd "$tmp/d" && tar -cf "$tmp/m.tar" "$name")

(cd "$tmp/d" && "$bin/kifu-validate" "$name") >/dev/null 2>"$tmp/err"
check "a file's name: no raw escape" clean "$tmp/err"
check "a file's name: shown escaped" grep -q "^$shown:2:1: error: " "$tmp/err"

"$bin/kifu-validate" "$tmp/m.tar" >/dev/null 2>"$tmp/err"
check "a member's name: no raw escape" clean "$tmp/err"
check "a member's name: shown escaped" grep -q "m\.tar($shown):2:1: error: " "$tmp/err"

"$bin/kifu-import" --db "$tmp/i.db" "$tmp/m.tar" >/dev/null 2>"$tmp/err"
check "kifu-import: no raw escape" clean "$tmp/err"

"$bin/kifu-stats" --db "$tmp/d/$name.db" summary >/dev/null 2>"$tmp/err"
check "a database path: no raw escape" clean "$tmp/err"
check "a database path: shown escaped" grep -q "no database at '.*$shown\.db'" "$tmp/err"

# libpq decodes the host and echoes it (no server needed: the name does not resolve)
"$bin/kifu-stats" --db 'postgresql://x@h%1b[2J%e2%80%ae:1/db' summary >/dev/null 2>"$tmp/err"
check "libpq's message: no raw escape" clean "$tmp/err"
check "libpq's message: shown escaped" grep -q 'h\\x1b\[2J\\u202e' "$tmp/err"

test_done "$checks checks"
