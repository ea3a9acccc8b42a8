"""kifu-serve's pages driven in headless Chromium (tests/cli/lib/cdp.py).

usage: serve_browser.py BIN DB URL CHROMIUM PROFILE OUTDIR EVIL_NAME REVIEWED_ID REVIEW_JSON

For every game and variant: the explorer from the start, clicking the most
played move four times; at each position the move table (moves and games,
in order; the 30 most played) must be kifu-stats tree's json for the path
in the address, the count of games that reached it the tree's `games`, and
the board the engine's picture of that position (the data-cell/data-content pairs of
kifu-export --id ID --to svg --ply PLY of the first game listed as having
reached it, at the ply listed). Then the back button (the previous
position again), the symmetric switch and the player filter (tables equal
kifu-stats tree --symmetric / --player), a game's replay (its script runs
under the server's policy: the last-ply button shows the last ply), and a
reviewed game (kifu-analyse --store): the chart has a column per position
and clicking one opens that ply, and the move list has the review's marks;
player whose name is a script tag: shown as text on every page, no dialog.
At each explorer position also: the move table's first and last years are
kifu-stats tree's first_date and last_date (the table's years), and the
games list's novelty column is kifu-stats novelties' ply and move for each
game listed, linked to the game's page at that ply (/game/ID?ply=K). The pattern box: a
pattern entered on the explorer's page lists kifu-search --pattern's games
and plies (page one), each ply a link opening the game's page at that ply;
a bad pattern shows the tool's message (a 400), as text.
Screenshots of each page go to OUTDIR. Prints one line per failure, then
"checked N".
"""
import html.parser
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE, OUT, EVIL, RID, REVIEW = sys.argv[1:10]
URL = URL.rstrip("/")
checked = 0
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def check(cond, msg):
    global checked
    checked += 1
    if not cond:
        fail(msg)


def tool(argv):
    p = subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:], capture_output=True)
    if p.returncode != 0:
        fail("%s: %s" % (" ".join(argv), p.stderr.decode()))
    return p.stdout


class Cells(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-cell" in a:
            self.cells.append("%s=%s" % (a["data-cell"], a.get("data-content") or "null"))


def svg_cells(gid, ply):
    c = Cells()
    c.feed(tool(["kifu-export", "--id", str(gid), "--to", "svg", "--ply", str(ply)]).decode())
    return sorted(c.cells)


ROWS = ("[...document.querySelectorAll('#moves tr')].slice(1).filter(tr => !tr.classList.contains('more'))"
        ".map(tr => [tr.cells[0].textContent, +tr.cells[1].textContent.replace(/,/g, '')])")
BOARD = ("[...document.querySelectorAll('#board [data-cell]')].map(e => e.getAttribute('data-cell') + '=' + "
         "(e.getAttribute('data-content') === null ? 'null' : e.getAttribute('data-content')))")
FIRST_GAME = ("(function () { var r = document.querySelector('table.games tr:nth-child(2)'); "
              "return r ? [+r.cells[0].textContent, r.querySelector('td.ply') ? "
              "+r.querySelector('td.ply').textContent : 0] : null; })()")  # no ply column at the start: 0


def tree(game, variant, after, extra=()):
    argv = ["kifu-stats", "--game", game, "--variant", variant] + list(extra) + ["tree", "--format", "json"]
    if after:
        argv[1:1] = ["--after", after]
    return json.loads(tool(argv))


YEARS = ("[...document.querySelectorAll('#moves tr')].slice(1).filter(tr => !tr.classList.contains('more')).map(tr => "
         "[tr.querySelector('.first_date').textContent, tr.querySelector('.last_date').textContent])")
NOVELTY = ("[...document.querySelectorAll('table.games tr')].slice(1).map(tr => [+tr.cells[0].textContent, "
           "tr.querySelector('td.novelty').textContent, tr.querySelector('td.novelty a') ? "
           "tr.querySelector('td.novelty a').getAttribute('href') : null])")
novelties = {}


def novelty_cells(game, variant, ids):
    """What the novelty column must show for ids: kifu-stats novelties' rows."""
    if (game, variant) not in novelties:
        rows = json.loads(tool(["kifu-stats", "--game", game, "--variant", variant, "novelties",
                                "--format", "json"]))["rows"]
        novelties[game, variant] = {r["id"]: r for r in rows}
    want = []
    for i in ids:
        r = novelties[game, variant].get(i)
        if r and r["ply"] is not None:
            want.append([i, "%d %s" % (r["ply"], r["move"]), "/game/%d?ply=%d" % (i, r["ply"])])
        else:
            want.append([i, "-", None])
    return want


def check_position(b, game, variant, after, what, extra=()):
    t = tree(game, variant, after, extra)
    rows = b.js(ROWS) or []
    # the 30 most played rows are in the page, the rest behind one row linking all=1
    check(rows == [[r["move"], r["games"]] for r in t["rows"][:30]],
          "%s: the move table is not kifu-stats tree's (%s)" % (what, rows[:3]))
    years = b.js(YEARS) or []
    check(years == [[(r["first_date"] or "-")[:4], (r["last_date"] or "-")[:4]] for r in t["rows"][:30]],
          "%s: the years are not kifu-stats tree's first_date and last_date (%s)" % (what, years[:3]))
    nov = b.js(NOVELTY) or []
    check(nov and nov == novelty_cells(game, variant, [n[0] for n in nov]),
          "%s: the novelty column is not kifu-stats novelties' (%s)" % (what, nov[:3]))
    check(b.js("+document.getElementById('reached').textContent") == t["games"],
          "%s: the games that reached it are not the tree's %d" % (what, t["games"]))
    plies = len(after.split(",")) if after else 0
    check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(plies),
          "%s: the board is not at ply %d" % (what, plies))
    first = b.js(FIRST_GAME)
    if first:
        check(sorted(b.js(BOARD)) == svg_cells(*first),
              "%s: the board is not the engine's position (game %d, ply %d)" % (what, first[0], first[1]))
    else:
        fail("%s: no game listed as having reached it" % what)
    return t


def address_after(b):
    q = urllib.parse.urlparse(b.js("location.href")).query
    return urllib.parse.parse_qs(q).get("after", [""])[0]


summary = json.loads(tool(["kifu-stats", "summary", "--format", "json"]))
pairs = [(r["game"], r["variant"]) for r in summary["rows"]]
with Browser(CHROMIUM, PROFILE) as b:
    b.go(URL + "/")
    check(b.js("document.querySelectorAll('#summary tr').length") == len(pairs) + 1,
          "home: not one row per game and variant")
    check(b.js("document.querySelectorAll('.chart svg').length") == 2, "home: not two charts")
    b.screenshot(os.path.join(OUT, "serve-home.png"))
    for game, variant in pairs:
        b.go("%s/explore/%s/%s" % (URL, game, variant))
        path = []
        for depth in range(5):
            after = ",".join(path)
            what = "%s %s after '%s'" % (game, variant, after)
            check(address_after(b) == after, "%s: the address does not keep the path" % what)
            t = check_position(b, game, variant, after, what)
            check(b.js("document.querySelectorAll('#path a, #path span').length") == depth + 1,
                  "%s: the breadcrumb is not %d steps" % (what, depth + 1))
            if depth == 2 and game == pairs[0][0]:
                b.screenshot(os.path.join(OUT, "serve-explore.png"))
            if depth == 4 or not t["rows"]:
                break
            b.click("#moves td.move a")
            path.append(t["rows"][0]["move"])
        # The browser's back button: the position one ply up, as it was.
        if len(path) >= 2:
            b.back()
            after = ",".join(path[:-1])
            check(address_after(b) == after, "%s %s: back does not go up" % (game, variant))
            check_position(b, game, variant, after, "%s %s back to '%s'" % (game, variant, after))
            # and the breadcrumb back to the start
            b.click("#path a")
            check(address_after(b) == "", "%s %s: the breadcrumb does not lead to the start" % (game, variant))

    # The symmetric switch and a filter, on the first game and variant.
    game, variant = pairs[0]
    b.go("%s/explore/%s/%s" % (URL, game, variant))
    b.click("#symmetric")
    check(b.js("location.search").find("symmetric=1") >= 0, "the symmetric switch is not in the address")
    check_position(b, game, variant, "", "symmetric", ["--symmetric"])
    players = json.loads(tool(["kifu-stats", "--game", game, "--variant", variant, "players", "--format", "json"]))
    player = players["rows"][0]["player"]
    b.go("%s/explore/%s/%s" % (URL, game, variant))
    b.js("document.getElementById('f-player').value = %s" % json.dumps(player))
    b.click("#f-apply")
    check(b.js("location.search").find("player=") >= 0, "the filter is not in the address")
    check_position(b, game, variant, "", "player filter", ["--player", player])
    b.screenshot(os.path.join(OUT, "serve-filter.png"))

    # The pattern box: the games and plies of kifu-search --pattern, each ply a link to it.
    candidates = [("splay-schmidt", "standard", "g4=w+,h4=+"), ("splay-schmidt", "standard", "g4=+"),
                  ("splinter", "knockout", "c4=B+,d4=."), ("glaisher", "standard", "a2=r+,e5=.")]
    chosen = None
    for pg, pv, pat in candidates:
        if (pg, pv) in pairs:
            found = json.loads(tool(["kifu-search", "--game", pg, "--variant", pv, "--pattern", pat,
                                     "--json"]))
            if found:
                chosen = (pg, pv, pat, found)
                break
    check(chosen is not None, "no pattern of the list finds a game")
    if chosen:
        pg, pv, pat, found = chosen
        b.go("%s/explore/%s/%s" % (URL, pg, pv))
        b.screenshot(os.path.join(OUT, "serve-explore-start.png"))
        b.js("document.querySelector('table.games').scrollIntoView()")
        b.screenshot(os.path.join(OUT, "serve-explore-novelty.png"))
        # A game's page marks its novelty: N at the report's ply, the earlier games in its tooltip.
        nov = [r for r in novelties.get((pg, pv), {}).values() if r["ply"] is not None]
        check(nov, "no novelty to show in %s %s" % (pg, pv))
        if nov:
            r = max(nov, key=lambda r: (r["earlier"], r["ply"], r["id"]))
            b.go("%s/game/%d#ply=%d" % (URL, r["id"], r["ply"]))
            marks = b.js("[...document.querySelectorAll('#moves .nov')].map(e => "
                         "[e.closest('button').getAttribute('data-ply'), e.textContent, e.title])")
            check(marks == [[str(r["ply"]), "N", "novelty: no earlier game played %s here; %d earlier "
                             "game%s reached this position" % (r["move"], r["earlier"],
                                                               "" if r["earlier"] == 1 else "s")]],
                  "game %d: the novelty's mark %s is not the report's" % (r["id"], marks))
            check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(r["ply"]),
                  "game %d: #ply=%d does not open the novelty" % (r["id"], r["ply"]))
            b.screenshot(os.path.join(OUT, "serve-game-novelty.png"))
            b.go("%s/explore/%s/%s" % (URL, pg, pv))
        b.js("document.getElementById('p-pattern').value = %s" % json.dumps(pat))
        b.click("#p-find")
        check(b.js("location.pathname") == "/pattern/%s/%s" % (pg, pv),
              "the pattern box does not open /pattern/%s/%s" % (pg, pv))
        listed = b.js("[...document.querySelectorAll('table.games tr')].slice(1).map(tr => "
                      "[+tr.cells[0].textContent, +tr.querySelector('td.ply').textContent, "
                      "tr.querySelector('td.ply a').getAttribute('href')])") or []
        check(listed == [[h["id"], h["ply"], "/game/%d?ply=%d" % (h["id"], h["ply"])] for h in found[:25]],
              "pattern %s: the list is not kifu-search --pattern's (%s)" % (pat, listed[:3]))
        check(b.js("+document.querySelector('#pattern-count b').textContent") == len(found),
              "pattern %s: the count is not kifu-search's %d" % (pat, len(found)))
        b.screenshot(os.path.join(OUT, "serve-pattern.png"))
        b.click("table.games td.ply a")
        check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(found[0]["ply"]),
              "pattern %s: the ply's link does not open game %d at ply %d" % (pat, found[0]["id"], found[0]["ply"]))
        # A pattern the tool refuses: its message, as text, with a 400.
        bad = "e5=<img src=x onerror=alert(2)>"
        p = subprocess.run([BIN + "/kifu-search", "--db", DB, "--game", pg, "--variant", pv, "--pattern", bad],
                           capture_output=True)
        msg = p.stderr.decode().splitlines()[0].split(": error: ", 1)[1]
        b.go("%s/explore/%s/%s" % (URL, pg, pv))
        b.js("document.getElementById('p-pattern').value = %s" % json.dumps(bad))
        b.click("#p-find")
        check(b.js("document.getElementById('pattern-error').textContent") == msg,
              "a bad pattern: the page does not show the tool's message %r" % msg)
        check(b.js("document.getElementById('p-pattern').value") == bad, "a bad pattern: the box lost it")
        check(b.js("document.querySelectorAll('#pattern-error img').length") == 0,
              "a bad pattern: written raw")
        b.screenshot(os.path.join(OUT, "serve-pattern-error.png"))
        try:
            urllib.request.urlopen(URL + "/pattern/%s/%s?pattern=%s" % (pg, pv, urllib.parse.quote(bad)))
            fail("a bad pattern: not a 400")
        except urllib.error.HTTPError as e:
            check(e.code == 400, "a bad pattern: HTTP %d, not 400" % e.code)

    # A game's replay: its script runs under the policy.
    hits = json.loads(tool(["kifu-search", "--json"]))
    g = hits[len(hits) // 2]
    b.go("%s/game/%d" % (URL, g["id"]))
    b.js("document.getElementById('end').click()")
    check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(g["plies"]),
          "game %d: the replay's last-ply button does not show ply %d" % (g["id"], g["plies"]))
    check(b.js("location.hash") == "#ply=%d" % g["plies"], "game %d: the address is not #ply=N" % g["id"])
    b.screenshot(os.path.join(OUT, "serve-game.png"))
    # The reviewed game: chart and marks.
    review = json.load(open(REVIEW))
    n = len(review["plies"])
    b.go("%s/game/%s" % (URL, RID))
    cols = b.js("document.querySelectorAll('#chart rect.col[data-ply]').length")
    check(cols in (n, n + 1), "game %s: the chart has %s columns for %d plies" % (RID, cols, n))
    marks = [p["mark"] for p in review["plies"] if p["mark"]]
    shown = b.js("[...document.querySelectorAll('#moves .mk')].map(e => e.textContent)")
    check(shown == marks, "game %s: the marks %s are not the review's %s" % (RID, shown, marks))
    target = n // 2
    b.js("""(function () { var c = document.querySelector('#chart rect.col[data-ply="%d"]');
        c.scrollIntoView(); var r = c.getBoundingClientRect();
        var at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height * 0.6);
        at.dispatchEvent(new MouseEvent('click', { bubbles: true })); })()""" % target)
    check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(target),
          "game %s: clicking the chart's ply %d does not open it" % (RID, target))
    b.screenshot(os.path.join(OUT, "serve-game-review.png"))
    b.go("%s/player/%s" % (URL, urllib.parse.quote(players["rows"][0]["player"], safe="")))
    check(b.js("document.getElementById('player').textContent") == player, "the player page's name")
    b.screenshot(os.path.join(OUT, "serve-player.png"))

    # A name that is a script tag: text on every page that shows it, never run.
    evil = [h for h in hits if EVIL in h["players"].values()]
    check(len(evil) == 1, "the game of the player called %r is not stored" % EVIL)
    if evil:
        h = evil[0]
        pages = ["/", "/explore/%s/%s" % (h["game"], h["variant"]), "/game/%d" % h["id"],
                 "/player/" + urllib.parse.quote(EVIL, safe="")]
        for p in pages:
            raw = urllib.request.urlopen(URL + p).read().decode()
            check("<script>alert" not in raw, "%s: the name is written raw" % p)
            b.go(URL + p)
            shown = b.js("document.body.textContent.indexOf(%s) >= 0" % json.dumps(EVIL))
            check(shown or p == "/", "%s: the name is not shown as text" % p)
            check(b.js("[...document.scripts].every(s => s.nonce && !s.src)"),
                  "%s: a script without the page's nonce" % p)
        b.screenshot(os.path.join(OUT, "serve-hostile-name.png"))
    check(not b.dialogs(), "a page opened a dialog: %s" % b.dialogs()[:1])

print("checked %d" % checked)
sys.exit(1 if failures else 0)
