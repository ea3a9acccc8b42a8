# Sourced by the tool tests that open pages in headless Chromium
# (tests/cli/browser.sh, tests/cli/explorer.sh), after test-lib.sh. Sets
# $browser, or ends the test as test_require does (skipped by hand without
# chromium, failed under CI and in `make test`). Defines
# run_browser ARGS... (a fresh profile, no network services, messages to
# $tmp/browser.log) and writes $tmp/cells.py: the data-cell=data-content
# pairs of an SVG file, or of the element with id="board" in a dumped page
# (plus its data-ply), one per line, sorted.
test_require chromium python3

# Under load, Chromium may take long to start, or die starting (out of
# memory, a renderer killed): a run that fails is tried again, up to 3
# times, each bounded by KIFU_BROWSER_TIMEOUT seconds (300) so that a hung
# browser ends the test instead of the suite. The output is kept only from
# the run that succeeded.
run_browser() {
	_rb_try=1
	while :; do
		profile=$(mktemp -d "$tmp/profile.XXXXXX")
		timeout "${KIFU_BROWSER_TIMEOUT:-300}" "$browser" --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update --disable-sync --no-first-run \
			--user-data-dir="$profile" "$@" >"$tmp/browser.out" 2>>"$tmp/browser.log"
		code=$?
		rm -rf "$profile"
		if [ $code -eq 0 ] || [ $_rb_try -ge 3 ]; then
			break
		fi
		echo "$test_name: chromium exited $code (try $_rb_try), trying again" >>"$tmp/browser.log"
		_rb_try=$((_rb_try + 1))
	done
	cat "$tmp/browser.out"
	return $code
}

cat >"$tmp/cells.py" <<'PY'
import sys
from html.parser import HTMLParser

class Cells(HTMLParser):
    def __init__(self, board_only):
        super().__init__()
        self.board_only = board_only
        self.depth = 0
        self.cells = []
        self.ply = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.board_only and self.depth == 0:
            if a.get("id") == "board":
                self.depth = 1
                self.ply = a.get("data-ply")
            return
        if self.board_only:
            self.depth += 1
        if "data-cell" in a:
            self.cells.append("%s=%s" % (a["data-cell"], a.get("data-content")))
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.board_only and self.depth > 1:
            self.depth -= 1
    def handle_endtag(self, tag):
        if self.board_only and self.depth > 0:
            self.depth -= 1

p = Cells(sys.argv[1] == "page")
p.feed(open(sys.argv[2], encoding="utf-8").read())
if p.board_only:
    print("ply=%s" % p.ply)
for c in sorted(p.cells):
    print(c)
PY
