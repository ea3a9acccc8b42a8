#!/bin/sh
# A test whose declared dependency is missing fails instead of passing as
# skipped, under CI (CI=true) and in `make test` (KIFU_TEST_DEPS=required),
# and says SKIPPED (exit 77, which tests/run counts as skipped) only when
# run by hand outside both (the one rule of tests/cli/lib/test-lib.sh,
# test_require): checked for every test that can skip (those calling
# test_require: browser.sh and explorer.sh: chromium; yaml-readers.sh:
# PyYAML and js-yaml; the others: the programs they name) with a PATH
# holding none of them, and for the PostgreSQL
# tests (tests/cli/pg-*.sh: postgresql-15) with PG_BINDIR naming a directory
# without a server. The Makefile's DEB_TEST (DEB_BUILD for libpq-dev),
# .ci/run and README.md name every such package.
set -u
. tests/cli/lib/test-lib.sh
sh=$(command -v sh)
# A PATH with the basic tools but no browser, python3 or node.
mkdir "$tmp/bin"
for t in mktemp rm mkdir cat grep sed ls basename dirname env chmod; do
	p=$(command -v "$t") && ln -s "$p" "$tmp/bin/$t"
done

# without WHAT SCRIPT VAR=VALUE...: SCRIPT run with the environment changed
# so that WHAT it needs is missing says SKIPPED (exit 77) by hand, and fails
# (an exit status neither 0 nor 77) under CI and in make test.
without() {
	what=$1 s=$2
	shift 2
	env -u CI -u KIFU_TEST_DEPS "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	{ [ $rc -eq 77 ] && grep -q SKIPPED "$tmp/out"; } ||
		fail "$s by hand without $what: exit $rc, expected SKIPPED (exit 77): $(cat "$tmp/out")"
	env -u KIFU_TEST_DEPS CI=true "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 77 ] || fail "$s under CI=true without $what passed or skipped (exit $rc)"
	env -u CI KIFU_TEST_DEPS=required "$@" "$sh" "$s" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 77 ] || fail "$s in make test without $what passed or skipped (exit $rc)"
}
for s in tests/cli/browser.sh tests/cli/yaml-readers.sh $(grep -l '^[^#]*test_require \|lib/chromium.sh' tests/cli/*.sh |
	grep -v 'tests/cli/\(browser\|yaml-readers\|deps\|pg-.*\)\.sh$'); do
	without "its dependency" "$s" PATH="$tmp/bin"
done
# The PostgreSQL tests without a server (PG_BINDIR pointing nowhere).
for s in tests/cli/pg-*.sh; do
	without PostgreSQL "$s" PG_BINDIR="$tmp/nopg"
done

# The Makefile's package lists with their continuation lines joined.
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' Makefile >"$tmp/Makefile"
grep -q '^DEB_BUILD = .*\blibpq-dev\b' "$tmp/Makefile" || fail "Makefile DEB_BUILD lacks libpq-dev"
for p in chromium python3-yaml node-js-yaml postgresql-15 libpq-dev; do
	grep -q "^DEB_\(TEST\|BUILD\) = .*\\b$p\\b" "$tmp/Makefile" || fail "Makefile DEB_TEST or DEB_BUILD lacks $p"
	grep -q "\\b$p\\b" .ci/run || fail ".ci/run lacks $p"
	grep -q "\\b$p\\b" README.md || fail "README.md does not name $p"
done
grep -q '^test: deps-test' Makefile || fail "make test does not install DEB_TEST first"
grep -q 'KIFU_TEST_DEPS=required' Makefile || fail "make test does not require the test dependencies"

test_done
