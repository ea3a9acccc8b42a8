# Sourced by the tool tests that open pages in headless Chromium
# (tests/cli/browser.sh, explorer.sh, serve-browser.sh), after
# test-lib.sh. Sets $browser, or ends the test as test_require does (skipped
# by hand without chromium, failed under CI and in `make test`). Defines
#   browser_start                starts the Chromium of browser_dump and
#                                browser_screenshot (before any background
#                                process of the test: see below)
#   browser_dump URL [W,H]       prints the DOM of URL after its load, as
#                                chromium --dump-dom (a viewport of W,H,
#                                800,600 by default)
#   browser_screenshot URL PNG W,H  writes a PNG of URL's W,H viewport
# and writes $tmp/cells.py: the data-cell=data-content pairs of an SVG file,
# or of the element with id="board" in a dumped page (plus its data-ply),
# one per line, sorted.
test_require chromium python3

# One Chromium serves the test (tests/cli/lib/browser_server.py, started by
# browser_start, ended with the test): each page is a new document, loaded
# afresh as by a new chromium per page, without a browser's start-up per
# page. Under load, Chromium may take long to start, or die (out of
# memory, a renderer killed): a page that fails is tried again in a new
# Chromium, up to 3 times, each try bounded by KIFU_BROWSER_TIMEOUT seconds
# (300) so that a hung browser ends the test instead of the suite. Its
# messages go to $tmp/browser.log. The requests go through the test's fd 9,
# the answers come on its fd 8 (what the test starts after browser_start
# inherits them: hence "quit" at the end rather than only closing fd 9).
# The request pipe is opened read-write by the shell, and the answer pipe by
# the server's wrapper if the server ends: no open blocks, and a server that
# died answers "error" instead of leaving the test waiting.
browser_start() {
	mkfifo "$tmp/browser.req" "$tmp/browser.ans"
	{
		python3 tests/cli/lib/browser_server.py "$browser" "$tmp" "$tmp/browser.req" \
			"$tmp/browser.ans" "${KIFU_BROWSER_TIMEOUT:-300}" "$tmp/browser.log" ||
			echo "error the browser server ended" 1<>"$tmp/browser.ans"
	} 2>>"$tmp/browser.log" &
	browser_server=$!
	exec 9<>"$tmp/browser.req" 8<"$tmp/browser.ans"
	test_at_exit 'echo quit >&9; exec 9>&- 8<&-; wait $browser_server'
}

# browser_do_ KIND W,H OUTFILE URL: a request to the server, its answer checked.
browser_do_() {
	printf '%s\t%s\t%s\t%s\n' "$@" >&9
	IFS= read -r _bd_answer <&8 || _bd_answer="error the browser server is gone"
	[ "$_bd_answer" = ok ] && return 0
	echo "$test_name: $_bd_answer" >&2
	return 1
}

browser_dump() { # URL [W,H]
	rm -f "$tmp/browser.dom"
	browser_do_ dump "${2:-800,600}" "$tmp/browser.dom" "$1" || return 1
	cat "$tmp/browser.dom"
}

browser_screenshot() { # URL PNG W,H
	case $2 in /*) _bs_png=$2 ;; *) _bs_png=$(pwd)/$2 ;; esac
	browser_do_ shot "$3" "$_bs_png" "$1"
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
