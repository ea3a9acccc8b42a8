#!/bin/sh
# kifu-serve's filter forms in headless Chromium (tests/cli/lib/serve_forms.py):
# no example that looks like a value, a visible hint beside each text field,
# selects for the fixed choices; a bad value (since 2024-13, a level, a side,
# a variant) answered with the same page (400), the form kept, the field
# marked and the message in words, the API still JSON; the pattern page
# taking and keeping the explorer's filters (kifu-search --pattern --player's
# games); the explorer's games table without a game column (and without a
# ply column at the start); the home page's rates in one form. A screenshot
# of the explorer's form error goes to tests/out/serve-form-error.png.
# tests/run: plain (Chromium's rendering; the server's pages run under the
#   sanitizers in serve.sh, serve-explorer.sh and the serve-*.sh tests)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
out=tests/out
mkdir -p "$out"
db=$tmp/ex.db
dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
# shellcheck disable=SC2086
"$bin/kifu-import" --quiet --db "$db" $dirs >/dev/null 2>&1 || fail "import the examples"
serve_start "$db" || test_done
check "the forms in Chromium" python3 tests/cli/lib/serve_forms.py "$bin" "$db" "$serve_url" \
	"$browser" "$tmp/profile" "$out" "Aiko Tanaka"
serve_stop
test_done "$checks checks; the form error in $out/serve-form-error.png"
