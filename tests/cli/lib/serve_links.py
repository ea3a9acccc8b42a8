"""The explorer link of annotated games and the explorer's size (issue 39),
in headless Chromium (tests/cli/lib/cdp.py) over a real kifu-serve.

usage: serve_links.py BIN DB URL CHROMIUM PROFILE GAME_IDS

A game's page (GAME_IDS: the annotated games, splay-schmidt): at a move
that carries a nag (!!, ?! ...), the bar's explorer link is the path of
canonical moves to it, without the glyph, and opens the explorer (200) on
the board the replay shows; at the last move of a line, the link is the
path through the line (the main line to the move it replaces, then the
line's moves), and the explorer shows the line's position. The explorer
(glaisher standard, from the start: hundreds of first moves): the page
holds the 30 most played rows and one "N other moves" row, N the rest,
linking all=1; it stays under 100 KB there and after the most played
move; the row clicked opens the page with every row (kifu-stats tree's).
Prints one line per failure, then "checked N".
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE = sys.argv[1:6]
IDS = [int(i) for i in sys.argv[6].split(",")]
URL = URL.rstrip("/")
checked = 0
failures = 0


def check(cond, msg):
    global checked, failures
    checked += 1
    if not cond:
        failures += 1
        print("FAIL " + msg)


def get(path):
    try:
        r = urllib.request.urlopen(URL + path, timeout=60)
        return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def tree(after=""):
    argv = [BIN + "/kifu-stats", "--db", DB, "--game", "glaisher", "--variant", "standard", "tree",
            "--format", "json"] + (["--after", after] if after else [])
    return json.loads(subprocess.run(argv, capture_output=True, check=True).stdout)


def href_of(moves):
    return "/explore/splay-schmidt/standard?after=" + "%2C".join(urllib.parse.quote(m, safe="") for m in moves)


CELLS = ("[...document.querySelectorAll('#board [data-cell]')].map(e => e.getAttribute('data-cell') "
         "+ '=' + e.getAttribute('data-content')).sort().join(' ')")


def follow(b, what, want):
    """The bar's link is want (after the replay moved), and opens the explorer on the same board."""
    ok = b.wait("document.getElementById('to-explorer').getAttribute('href') === %s" % json.dumps(want), 10)
    got = b.js("document.getElementById('to-explorer').getAttribute('href')")
    check(ok, "%s: the explorer link is %s, not %s" % (what, got, want))
    status = get(got)[0]
    check(status == 200, "%s: the explorer link answers %s" % (what, status))
    board = b.js(CELLS)
    b.click("#to-explorer")
    check(b.js(CELLS) == board, "%s: the explorer's board is not the one the replay showed" % what)


games = {}
for i in IDS:
    games[i] = json.loads(get("/api/game/%d" % i)[1])
nag = next(((i, m) for i, g in games.items() for m in g["moves"]
            if isinstance(m, dict) and m.get("nag") in ("!!", "?!", "!?", "??")), None)
line = next(((i, m) for i, g in games.items() for m in g["moves"]
             if isinstance(m, dict) and m.get("variations")), None)
check(nag and line, "no annotated game with a nag and a line to test")

with Browser(CHROMIUM, PROFILE) as b:
    if nag:
        i, m = nag
        moves = [t["move"] if isinstance(t, dict) else t for t in games[i]["moves"]]
        b.go("%s/game/%d" % (URL, i))
        b.js("document.querySelector('#moves button[data-ply=\"%d\"]').click()" % m["ply"])
        follow(b, "game %d at ply %d (%s%s)" % (i, m["ply"], m["move"], m["nag"]), href_of(moves[:m["ply"]]))
    if line:
        i, m = line
        moves = [t["move"] if isinstance(t, dict) else t for t in games[i]["moves"]]
        first = m["variations"][0]
        b.go("%s/game/%d" % (URL, i))
        # the first line's last move: its own moves are the line's direct buttons
        b.js("[...document.querySelector('#moves .line').children].filter(e => e.tagName === 'BUTTON').pop().click()")
        follow(b, "game %d, ply %d, line 1 at its last move" % (i, m["ply"]),
               href_of(moves[:m["ply"] - 1] + [t["move"] for t in first]))

    # ---- the explorer at a position of hundreds of moves ----
    t = tree()
    check(len(t["rows"]) > 300, "glaisher start: only %d moves, the page's size is not tested" % len(t["rows"]))
    for after in ("", t["rows"][0]["move"]):
        path = "/explore/glaisher/standard?after=" + urllib.parse.quote(after, safe="")
        status, body = get(path)
        check(status == 200 and len(body) < 100000,
              "explorer after '%s': %s, %d bytes, not under 100 KB" % (after, status, len(body)))
    b.go(URL + "/explore/glaisher/standard?after=")
    rows = b.js("[...document.querySelectorAll('#moves td.move a')].map(a => a.textContent)")
    check(rows == [r["move"] for r in t["rows"][:30]],
          "glaisher start: the page's rows are not the tree's 30 most played (%d rows)" % len(rows or []))
    more = b.js("(function () { var a = document.getElementById('more-moves'); "
                "return a ? [a.textContent, a.getAttribute('href')] : null; })()")
    n = len(t["rows"]) - 30
    check(more and more[0] == "%d other moves" % n and (more[1] or "").endswith("&all=1"),
          "glaisher start: the last row is %s, not %d other moves linking all=1" % (more, n))
    if more and more[1]:
        b.click("#more-moves")
        rows = b.js("[...document.querySelectorAll('#moves td.move a')].map(a => a.textContent)")
        check(rows == [r["move"] for r in t["rows"]],
              "the other moves' row does not open every row (%d of %d)" % (len(rows or []), len(t["rows"])))

print("checked %d" % checked)
sys.exit(1 if failures else 0)
