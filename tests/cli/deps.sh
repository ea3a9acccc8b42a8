#!/bin/sh
# A test whose declared dependency is missing fails instead of passing as
# skipped, under CI (CI=true) and in `make test` (KIFU_TEST_DEPS=required),
# and says SKIPPED (exit 0) only when run by hand outside both: checked for
# every test that can skip (browser.sh: chromium; yaml-readers.sh: PyYAML
# and js-yaml) with a PATH holding none of them, and for the PostgreSQL
# tests (tests/cli/pg-*.sh: postgresql-15) with PG_BINDIR naming a directory
# without a server. The Makefile's DEB_TEST (DEB_BUILD for libpq-dev),
# .ci/run and README.md name every such package.
set -u
fail=0
sh=$(command -v sh)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kifu-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# A PATH with the basic tools but no browser, python3 or node.
mkdir "$tmp/bin"
for t in mktemp rm mkdir cat grep sed ls basename dirname env; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done

# without WHAT SCRIPT VAR=VALUE...: SCRIPT run with the environment changed
# so that WHAT it needs is missing says SKIPPED (exit 0) by hand, and fails
# under CI and in make test.
without() {
	what=$1 s=$2
	shift 2
	env -u CI -u KIFU_TEST_DEPS "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	{ [ $rc -eq 0 ] && grep -q SKIPPED "$tmp/out"; } ||
		{ echo "FAIL: $s by hand without $what: exit $rc, expected SKIPPED: $(cat "$tmp/out")"; fail=1; }
	env -u KIFU_TEST_DEPS CI=true "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || { echo "FAIL: $s under CI=true without $what passed"; fail=1; }
	env -u CI KIFU_TEST_DEPS=required "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || { echo "FAIL: $s in make test without $what passed"; fail=1; }
}
for s in tests/cli/browser.sh tests/cli/yaml-readers.sh; do
	without "its dependency" "$s" PATH="$tmp/bin"
done
# The PostgreSQL tests without a server (PG_BINDIR pointing nowhere).
for s in tests/cli/pg-*.sh; do
	without PostgreSQL "$s" PG_BINDIR="$tmp/nopg"
done

# The Makefile's package lists with their continuation lines joined.
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' Makefile >"$tmp/Makefile"
grep -q '^DEB_BUILD = .*\blibpq-dev\b' "$tmp/Makefile" || { echo "FAIL: Makefile DEB_BUILD lacks libpq-dev"; fail=1; }
for p in chromium python3-yaml node-js-yaml postgresql-15 libpq-dev; do
	grep -q "^DEB_\(TEST\|BUILD\) = .*\\b$p\\b" "$tmp/Makefile" || { echo "FAIL: Makefile DEB_TEST or DEB_BUILD lacks $p"; fail=1; }
	grep -q "\\b$p\\b" .ci/run || { echo "FAIL: .ci/run lacks $p"; fail=1; }
	grep -q "\\b$p\\b" README.md || { echo "FAIL: README.md does not name $p"; fail=1; }
done
grep -q '^test: deps-test' Makefile || { echo "FAIL: make test does not install DEB_TEST first"; fail=1; }
grep -q 'KIFU_TEST_DEPS=required' Makefile || { echo "FAIL: make test does not require the test dependencies"; fail=1; }

[ $fail -eq 0 ] && echo "deps: ok"
exit $fail
