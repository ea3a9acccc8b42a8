"""kifu-serve's pages of issue 29 in headless Chromium (tests/cli/lib/cdp.py).

usage: serve_explorer.py BIN DB URL CHROMIUM PROFILE OUTDIR REVIEWED_ID REVIEW_JSON

The explorer (glaisher standard from the start: more than 30 moves; and
splay-schmidt, a placement game): the move table's rows are kifu-stats
tree's, in its order, the first 30 in the page and the rest left out for
one "N other moves" row linking the page with all=1 (clicked), which
shows every row;
each row's share is its games over the position's, in whole percent; each
shown row is one link in the board's <svg> to the row's own address (the
most played drawn last, on top), on the cell the move places on in
splay-schmidt; a mouse click on the board's most played cell plays it (the
next page is the explorer after that move). min_games=K is kifu-stats
tree --min-games K; all=1 shows every row and no other row; a bad min_games is
a 400. The games listed link /game/ID?ply=K, K the ply at which they
reached the position, and that page opens at ply K; a ply past the end
of the game is a 400. A game's page: its bar links each player's page
(/player/NAME, NAME one percent-encoded segment) and the explorer at the
ply shown, following the replay as it steps (the link opens the explorer
at that position: the same board); the reviewed game (kifu-analyse
--store): each marked move says "best MOVE, loss L" as the review's json
does, the board before it draws the engine's move (on the move's cell),
and a table gives per side its ?!, ? and ?? and its mean loss. Prints one
line per failure, then "checked N".

A player's view: kifu-search and kifu-stats --player NAME --as SIDE list
only NAME's games as SIDE (the two sides' lists part the player's games);
/api/tree and /api/search with as=SIDE answer the tools' bytes, and a bad
as= the tool's message (400); the explorer with player and as (chosen in
the page's form) shows kifu-stats tree --player --as's rows with each bar's
win part NAME's wins as SIDE; the player page's games say win, draw or
loss as search's result and NAME's side say.

Data out: /api/search pages as kifu-search --limit --offset (limit 100 by
default, over 10,000 a 400), with a Link rel="next" header to the next
page while more games follow (none on the last); format=csv on the
reports and the tree is kifu-stats --format csv (text/csv), on a game
kifu-export --to csv, on /api/search kifu-search --csv (its columns checked
against --json's); every data link of the pages (home, explorer,
player, game) answers 200 with JSON or CSV. /games lists kifu-search's
games 50 a page with the count, sorts by plies when its head is clicked,
404 past the last page, 400 for page=0; /game/ID/ redirects (308) to
/game/ID.

Numbers and errors: the home page's summary writes splinter knockout's
1,000 games with a thousands separator and its draw rate as its
scores are written (3 decimals); an illegal move in the explorer's path is a 404 whose link opens
the explorer at the longest legal start of the path (clicked); a page of
games past the last is a 404 (explorer, player, pattern), page=0 a 400.

The pattern editor (splay-schmidt): the board drawn empty, one cell per
cell of the game (91, each a cell kifu-search --pattern takes); mouse
clicks on a cell cycle it through ".", "+" and on, the pattern's text
following; text typed in the box sets the board; the search it finds is
kifu-search --pattern's (ids and plies), each game with a picture of the
position at that ply (kifu-export --to svg --ply's pieces).
"""
import http.client
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE, OUT, RID, REVIEW = sys.argv[1:9]
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


def tree(game, variant, after="", extra=()):
    argv = ["kifu-stats", "--game", game, "--variant", variant, "tree", "--format", "json"] + list(extra)
    if after:
        argv[1:1] = ["--after", after]
    return json.loads(tool(argv))


def status(path):
    try:
        return urllib.request.urlopen(URL + path).status
    except urllib.error.HTTPError as e:
        return e.code


def explore_url(game, variant, after="", extra=""):
    return "%s/explore/%s/%s?after=%s%s" % (URL, game, variant, urllib.parse.quote(after, safe=""), extra)


def share(n, of):
    pc = 100.0 * n / of
    return "<1%" if n > 0 and pc < 0.5 else "%.0f%%" % pc


ROWS = ("[...document.querySelectorAll('#moves tr')].slice(1).filter(tr => !tr.classList.contains('more'))"
        ".map(tr => [tr.cells[0].textContent, +tr.cells[1].textContent.replace(/,/g, ''), "
        "tr.cells[2].textContent, getComputedStyle(tr).display !== 'none', "
        "tr.cells[0].querySelector('a').getAttribute('href')])")
LINKS = ("[...document.querySelectorAll('#board svg a.mv')].map(a => [a.getAttribute('href'), "
         "a.getAttribute('data-to'), a.querySelector('.hit') !== null])")


def check_table(b, game, variant, after, what, extra=(), shown_max=30):
    t = tree(game, variant, after, extra)
    rows = b.js(ROWS) or []
    want = t["rows"]
    shown = min(len(want), shown_max)
    check([r[:2] for r in rows] == [[r["move"], r["games"]] for r in want[:shown]],
          "%s: the move table is not kifu-stats tree's first %d rows (%s)" % (what, shown, rows[:3]))
    check([r[2] for r in rows] == [share(r["games"], t["games"]) for r in want[:shown]],
          "%s: the shares are not games / %d in whole percent (%s)" % (what, t["games"], [r[2] for r in rows[:5]]))
    check([r[3] for r in rows] == [True] * shown,
          "%s: not the first %d rows shown, and only they in the page" % (what, shown))
    more = b.js("(function () { var a = document.querySelector('#more-moves'); "
                "return a ? [a.textContent, a.getAttribute('href')] : null; })()")
    if len(want) > shown:
        n = len(want) - shown
        check(more and more[0] == "%d other move%s" % (n, "" if n == 1 else "s"),
              "%s: the last row says %r, not %d other moves" % (what, more, n))
        check(more and more[1].startswith("/explore/%s/%s?after=" % (game, variant)) and
              more[1].endswith("&all=1"), "%s: the other moves' row links %r, not all=1" % (what, more))
    else:
        check(more is None, "%s: an other moves' row with nothing behind it" % what)
    links = b.js(LINKS) or []
    # one link per row shown, the most played last (drawn on top), each to its row's address
    check(sorted(l[0] for l in links) == sorted(r[4] for r in rows[:shown]),
          "%s: the board's links are not the %d rows shown" % (what, shown))
    check(links and links[-1][0] == rows[0][4],
          "%s: the most played move is not drawn on top" % what)
    return t, rows, links


with Browser(CHROMIUM, PROFILE) as b:
    # ---- glaisher: more than 30 moves from the start ----
    b.go(explore_url("glaisher", "standard"))
    t, rows, links = check_table(b, "glaisher", "standard", "", "glaisher start")
    check(len(t["rows"]) > 30, "glaisher start: only %d moves, the other moves' row is not tested" % len(t["rows"]))
    check(all(l[1] and l[1] in l[0].split("%20")[-1] or l[1] in urllib.parse.unquote(l[0]) for l in links),
          "glaisher start: a link's cell is not one its move names")
    b.screenshot(os.path.join(OUT, "serve-explorer-capped.png"))
    # the other moves' row: every row shown, no such row; min_games=2: the tool's --min-games 2
    b.click("#more-moves")
    check(b.js("location.search").endswith("&all=1"), "glaisher start: the other moves' row does not open all=1")
    check_table(b, "glaisher", "standard", "", "glaisher all=1", shown_max=10 ** 6)
    b.go(explore_url("glaisher", "standard", "", "&min_games=2"))
    check_table(b, "glaisher", "standard", "", "glaisher min_games=2", ["--min-games", "2"])
    check(b.js("document.querySelector('#moves td.move a').getAttribute('href')").find("min_games=2") >= 0,
          "min_games=2: the moves' links do not keep it")
    for bad in ("&min_games=0", "&min_games=x", "&all=2"):
        check(status("/explore/glaisher/standard?after=" + bad) == 400, "%s is not a 400" % bad)

    # ---- splay-schmidt: each move a link on the cell it places on; the board clicked ----
    b.go(explore_url("splay-schmidt", "standard"))
    t, rows, links = check_table(b, "splay-schmidt", "standard", "", "splay-schmidt start")
    check(all(l[2] for l in links) and sorted(l[1] for l in links) == sorted(r[0] for r in rows[:30]),
          "splay-schmidt: the links are not on the cells the moves place on (%s)" % links[:3])
    b.screenshot(os.path.join(OUT, "serve-explorer-board-links.png"))
    path = []
    for depth in range(6):
        t = tree("splay-schmidt", "standard", ",".join(path))
        if not t["rows"]:
            break
        top = t["rows"][0]["move"]
        # where a mouse would press: the centre of the top move's cell, checked to be its link
        at = b.js("""(function () {
            var a = [...document.querySelectorAll('#board svg a.mv')].pop();
            a.scrollIntoView();
            var r = a.querySelector('.hit').getBoundingClientRect();
            var x = r.left + r.width / 2, y = r.top + r.height / 2;
            var e = document.elementFromPoint(x, y);
            return [x, y, e && e.closest('a') ? e.closest('a').getAttribute('data-to') : null]; })()""")
        check(at[2] == top, "splay-schmidt after %s: the point pressed is on %s, not %s" % (path, at[2], top))
        old = b.js("location.href")
        for kind in ("mousePressed", "mouseReleased"):
            b.cmd("Input.dispatchMouseEvent", {"type": kind, "x": at[0], "y": at[1], "button": "left",
                                               "clickCount": 1}, session=True)
        b._settle(old)
        path.append(top)
        q = urllib.parse.parse_qs(urllib.parse.urlparse(b.js("location.href")).query)
        check(q.get("after", [""])[0] == ",".join(path),
              "clicking the board's %s did not play it (%s)" % (top, b.js("location.href")))
        _, rows_, links_ = check_table(b, "splay-schmidt", "standard", ",".join(path), "splay-schmidt after %s" % path)
        check(all(l[2] for l in links_) and sorted(l[1] for l in links_) == sorted(r[0] for r in rows_[:30]),
              "splay-schmidt after %s: the links are not on the cells the moves place on" % path)

    # ---- the games listed open at the explored ply ----
    after = ",".join(path)
    b.go(explore_url("splay-schmidt", "standard", after))
    listed = b.js("[...document.querySelectorAll('table.games tr')].slice(1).map(tr => "
                  "[+tr.cells[0].textContent, tr.cells[0].querySelector('a').getAttribute('href'), "
                  "+tr.querySelector('td.ply').textContent])") or []
    check(listed, "splay-schmidt after %s: no game listed" % after)
    check(all(h == "/game/%d?ply=%d" % (i, k) for i, h, k in listed),
          "the games listed do not link /game/ID?ply=K (%s)" % listed[:2])
    if listed:
        b.click("table.games td a")
        check(b.js("document.getElementById('board').getAttribute('data-ply')") == str(listed[0][2]),
              "game %d does not open at ply %d" % (listed[0][0], listed[0][2]))
        plies = json.loads(tool(["kifu-export", "--id", str(listed[0][0]), "--to", "json"]))
        n = len(plies.get("moves", plies.get("plies", [])))
        check(status("/game/%d?ply=%d" % (listed[0][0], 10 ** 6)) == 400, "a ply past the end is not a 400")
        check(status("/game/%d?ply=-1" % listed[0][0]) == 400, "ply=-1 is not a 400")
        check(n == 0 or status("/game/%d?ply=%d" % (listed[0][0], n)) == 200, "the last ply is not a 200")

    # ---- a game's page: its players, the explorer at the ply shown ----
    review = json.load(open(REVIEW))
    moves = [p["move"] for p in review["plies"]]
    players = review["players"]
    b.go("%s/game/%s?ply=3" % (URL, RID))
    names = b.js("[...document.querySelectorAll('nav.site .player a')].map(a => [a.textContent, "
                 "a.getAttribute('href')])")
    want = [[n if isinstance(n, str) else n["name"], "/player/" + urllib.parse.quote(n if isinstance(n, str) else n["name"], safe="")]
            for n in players.values()]
    check(sorted(map(tuple, names or [])) == sorted(map(tuple, want)),
          "game %s: the players' links %s are not %s" % (RID, names, want))

    def explorer_href(k):
        return "/explore/splay-schmidt/standard?after=" + "%2C".join(urllib.parse.quote(m, safe="") for m in moves[:k])
    check(b.js("document.getElementById('to-explorer').getAttribute('href')") == explorer_href(3),
          "game %s at ply 3: the explorer link is not at ply 3" % RID)
    b.js("document.getElementById('forward').click()")
    check(b.wait("document.getElementById('to-explorer').getAttribute('href') === %s" % json.dumps(explorer_href(4)), 10),
          "game %s: the explorer link does not follow the replay to ply 4" % RID)
    board = sorted(b.js("[...document.querySelectorAll('#board [data-cell]')].map(e => e.getAttribute('data-cell') + '=' + e.getAttribute('data-content'))"))
    b.click("#to-explorer")
    check(b.js("document.getElementById('board').getAttribute('data-ply')") == "4",
          "the game's explorer link does not open the explorer at ply 4")
    check(sorted(b.js("[...document.querySelectorAll('#board [data-cell]')].map(e => e.getAttribute('data-cell') + '=' + e.getAttribute('data-content'))")) == board,
          "the explorer's board at ply 4 is not the game's")

    # ---- the reviewed game: best move and loss as text, on the board, per side ----
    marked = [p for p in review["plies"] if p["mark"]]
    check(marked, "game %s: the review marks no move: nothing to test" % RID)
    b.go("%s/game/%s" % (URL, RID))
    shown = b.js("[...document.querySelectorAll('#moves .bm')].map(e => [+e.closest('button').getAttribute('data-ply'), e.textContent])")
    check(shown == [[p["ply"], "best %s, loss %.2f" % (p["best"], p["loss"])] for p in marked],
          "game %s: the marked moves' text %s is not the review's" % (RID, (shown or [])[:3]))
    for p in marked[:4]:
        b.js("document.querySelector('#moves button[data-ply=\"%d\"]').click()" % (p["ply"] - 1))
        best = b.js("(function () { var g = document.querySelector('#board svg g.best'); "
                    "return g ? [g.getAttribute('data-move'), g.getAttribute('data-to')] : null; })()")
        check(best == ["best " + p["best"], p["best"]],
              "game %s at ply %d: the board does not show the engine's %s (%s)" % (RID, p["ply"] - 1, p["best"], best))
        if p is marked[0]:
            b.screenshot(os.path.join(OUT, "serve-explorer-review.png"))
    unmarked = [p for p in review["plies"] if not p["mark"]]
    if unmarked:
        b.js("document.querySelector('#moves button[data-ply=\"%d\"]').click()" % (unmarked[0]["ply"] - 1))
        check(b.js("document.querySelectorAll('#board svg g.best').length") == 0,
              "game %s: an engine move drawn before an unmarked move" % RID)
    rows = b.js("[...document.querySelectorAll('#review-sides tr[data-side]')].map(tr => [tr.getAttribute('data-side'), "
                "+tr.querySelector('.n1').textContent, +tr.querySelector('.n2').textContent, "
                "+tr.querySelector('.n3').textContent, +tr.querySelector('.loss').textContent])") or []
    for side, n1, n2, n3, loss in rows:
        mine = [p for p in review["plies"] if p["side"] == side]
        want = [sum(1 for p in mine if p["mark"] == m) for m in ("?!", "?", "??")]
        check([n1, n2, n3] == want, "game %s: %s's marks %s are not the review's %s" % (RID, side, [n1, n2, n3], want))
        mean = sum(p["loss"] for p in mine) / len(mine)
        check(abs(loss - mean) < 0.0015, "game %s: %s's mean loss %s is not %.4f" % (RID, side, loss, mean))
    check(len(rows) == 2, "game %s: not one summary row per side (%s)" % (RID, rows))

    # ---- a player's view: --as, as=SIDE ----
    who = "mcts:2 #2"
    mine = json.loads(tool(["kifu-search", "--game", "splay-schmidt", "--player", who, "--json"]))
    by_side = {}
    for side in ("white", "black"):
        by_side[side] = json.loads(tool(["kifu-search", "--game", "splay-schmidt", "--player", who, "--as", side, "--json"]))
        check(by_side[side] and all(h["players"].get(side) == who for h in by_side[side]),
              "kifu-search --as %s: a game where %s is not %s" % (side, who, side))
    check(sorted(h["id"] for s_ in by_side.values() for h in s_) == sorted(h["id"] for h in mine),
          "kifu-search --as white and --as black do not part %s's games" % who)
    q = "game=splay-schmidt&variant=standard&player=%s&as=black" % urllib.parse.quote(who)
    for api, argv in (("/api/tree?" + q, ["kifu-stats", "--game", "splay-schmidt", "--variant", "standard", "--player", who,
                                           "--as", "black", "tree", "--format", "json"]),
                      ("/api/search?" + q, ["kifu-search", "--game", "splay-schmidt", "--variant", "standard", "--player", who,
                                             "--as", "black", "--json"])):
        body = urllib.request.urlopen(URL + api).read()
        check(body == tool(argv), "%s is not %s's answer" % (api, argv[0]))
    for bad, argv in (("game=splay-schmidt&as=black", ["--game", "splay-schmidt", "--as", "black"]),
                      ("game=splay-schmidt&player=x&as=red", ["--game", "splay-schmidt", "--player", "x", "--as", "red"])):
        p_ = subprocess.run([BIN + "/kifu-search", "--db", DB] + argv, capture_output=True)
        check(p_.returncode == 2, "kifu-search %s: exit %d, not 2" % (argv, p_.returncode))
        msg = p_.stderr.decode().splitlines()[0].split(": error: ", 1)[-1]
        try:
            urllib.request.urlopen(URL + "/api/search?" + bad)
            fail("/api/search?%s is not a 400" % bad)
        except urllib.error.HTTPError as e:
            check(e.code == 400 and json.loads(e.read())["error"] == msg,
                  "/api/search?%s: not a 400 with the tool's %r" % (bad, msg))
    b.go("%s/explore/splay-schmidt/standard" % URL)
    b.js("document.getElementById('f-player').value = %s; document.getElementById('f-as').value = 'black'" % json.dumps(who))
    b.click("#f-apply")
    qs = urllib.parse.parse_qs(urllib.parse.urlparse(b.js("location.href")).query)
    check(qs.get("as") == ["black"] and qs.get("player") == [who], "the form's as is not in the address (%s)" % qs)
    t = tree("splay-schmidt", "standard", "", ["--player", who, "--as", "black"])
    rows = b.js(ROWS) or []
    check([r[:2] for r in rows] == [[r["move"], r["games"]] for r in t["rows"]],
          "as=black: the move table is not kifu-stats tree --player --as black's")
    wins = b.js("[...document.querySelectorAll('#moves tr')].slice(1).filter(tr => !tr.classList.contains('more'))"
                ".map(tr => { var w = tr.querySelector('.wdl .w'); return w ? parseFloat(w.style.width) : 0; })") or []
    check(len(wins) == len(t["rows"]) and
          all(abs(w - 100.0 * r["wins_black"] / r["games"]) < 0.06 for w, r in zip(wins, t["rows"])),
          "as=black: the bars' wins are not %s's wins as black (%s)" % (who, wins[:4]))
    check(b.js("document.getElementById('view') !== null"), "as=black: the page does not say whose results the bars are")
    scores = b.js("[...document.querySelectorAll('#moves tr')].slice(1).filter(tr => !tr.classList.contains('more'))"
                  ".map(tr => tr.cells[4].textContent)") or []
    want = ["%.3f" % ((r["wins_black"] + r["draws"] / 2) / (r["games"] - r["unfinished"])) if r["games"] > r["unfinished"] else "-"
            for r in t["rows"]]
    check(scores == want, "as=black: the scores are not %s's as black (%s, not %s)" % (who, scores[:4], want[:4]))
    b.screenshot(os.path.join(OUT, "serve-explorer-player-view.png"))
    b.go("%s/player/%s" % (URL, urllib.parse.quote(who, safe="")))
    listed = b.js("[...document.querySelectorAll('table.games tr')].slice(1).map(tr => "
                  "[+tr.cells[0].textContent, tr.querySelector('.result').textContent])") or []
    res = {h["id"]: h for h in mine}
    def word(h):
        if h["result"] in ("draw", "unfinished"):
            return h["result"]
        return "win" if h["players"].get(h["result"]) == who else "loss"
    check(listed and all(r == "%s as %s" % (word(res[i]), [s_ for s_, n in res[i]["players"].items() if n == who][0])
                         for i, r in listed),
          "the player page's results are not %s's win, draw or loss (%s)" % (who, listed[:3]))
    views = b.js("[...document.querySelectorAll('#sides a.view')].map(a => a.getAttribute('href'))") or []
    check(any("as=black" in v and "player=" in v for v in views), "the player page does not link their view as each side")
    b.screenshot(os.path.join(OUT, "serve-explorer-player.png"))

    # ---- data out ----
    def get(path):
        try:
            r = urllib.request.urlopen(URL + path)
            return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()
    everything = tool(["kifu-search", "--json"])
    total = len(json.loads(everything))
    check(total > 100, "only %d games: the default limit is not tested" % total)
    # kifu-search --csv: --json's games, one line each, a column per side
    import csv as csvmod
    import io
    rows_csv = list(csvmod.DictReader(io.StringIO(tool(["kifu-search", "--game", "splay-schmidt", "--limit", "20", "--csv"]).decode(), newline="")))
    rows_json = json.loads(tool(["kifu-search", "--game", "splay-schmidt", "--limit", "20", "--json"]))
    check([[int(r["id"]), r["white"], r["black"], r["date"], r["result"], int(r["plies"])] for r in rows_csv] ==
          [[h["id"], h["players"].get("white", ""), h["players"].get("black", ""), h["date"] or "", h["result"], h["plies"]]
           for h in rows_json], "kifu-search --csv is not --json's games")
    code, hdr, body = get("/api/search")
    check(code == 200 and body == tool(["kifu-search", "--limit", "100", "--json"]),
          "/api/search is not kifu-search --limit 100")
    link = hdr.get("Link") or ""
    check(link == '</api/search?offset=100>; rel="next"', "/api/search: the Link header is %r" % link)
    offset = total - 7
    code, hdr, body = get("/api/search?limit=5&offset=%d" % offset)
    check(body == tool(["kifu-search", "--limit", "5", "--offset", str(offset), "--json"]),
          "/api/search?limit=5&offset=%d is not kifu-search's" % offset)
    nxt = (hdr.get("Link") or "")[1:].split(">")[0]
    check(nxt == "/api/search?limit=5&offset=%d" % (offset + 5), "the next page's link is %r" % nxt)
    code, hdr, body = get(nxt)
    check(len(json.loads(body)) == 2 and hdr.get("Link") is None, "the last page: not 2 games, or a Link")
    q = "game=splay-schmidt&variant=standard&pattern=%s&limit=3&offset=1" % urllib.parse.quote("g4=+")
    check(get("/api/search?" + q)[2] == tool(["kifu-search", "--game", "splay-schmidt", "--variant", "standard",
                                                "--pattern", "g4=+", "--limit", "3", "--offset", "1", "--json"]),
          "a pattern's page is not kifu-search --pattern --limit --offset's")
    check(get("/api/search?limit=10001")[0] == 400, "limit=10001 is not a 400")
    check(get("/api/search?limit=0")[0] == 400, "limit=0 is not a 400")
    for api, argv in (("/api/stats/summary?format=csv", ["kifu-stats", "summary", "--format", "csv"]),
                      ("/api/tree?game=glaisher&variant=standard&format=csv",
                       ["kifu-stats", "--game", "glaisher", "--variant", "standard", "tree", "--format", "csv"]),
                      ("/api/game/%s?format=csv" % RID, ["kifu-export", "--id", RID, "--to", "csv"]),
                      ("/api/search?game=splay-schmidt&limit=7&offset=2&format=csv",
                       ["kifu-search", "--game", "splay-schmidt", "--limit", "7", "--offset", "2", "--csv"]),
                      ("/api/search?game=splay-schmidt&variant=standard&after=g4&format=csv",
                       ["kifu-search", "--game", "splay-schmidt", "--variant", "standard", "--after", "g4",
                        "--limit", "100", "--csv"])):
        code, hdr, body = get(api)
        check(code == 200 and body == tool(argv) and hdr.get("Content-Type", "").startswith("text/csv"),
              "%s is not %s as text/csv" % (api, " ".join(argv)))
    for page in ("/", "/explore/glaisher/standard?after=", "/player/" + urllib.parse.quote(who, safe=""), "/game/" + RID):
        b.go(URL + page)
        links = b.js("[...document.querySelectorAll('p.data a, nav.site .data a')].map(a => a.getAttribute('href'))") or []
        check(any("format=csv" in l for l in links),
              "%s: no CSV link (%s)" % (page, links))
        check(links, "%s: no data link" % page)
        for l in links:
            code, hdr, body = get(l)
            ok = code == 200 and (json.loads(body) is not None if "format=csv" not in l
                                  else hdr.get("Content-Type", "").startswith("text/csv"))
            check(ok, "%s: its data link %s answers %d" % (page, l, code))
    conn = http.client.HTTPConnection(urllib.parse.urlparse(URL).netloc)
    conn.request("GET", "/game/%s/?ply=2" % RID)
    r_ = conn.getresponse()
    code, hdr = r_.status, r_.headers
    conn.close()
    check(code == 308 and hdr.get("Location") == "/game/%s?ply=2" % RID, "/game/ID/ is %d to %r" % (code, hdr.get("Location")))

    # ---- /games ----
    b.go(URL + "/games?game=splay-schmidt")
    found = json.loads(tool(["kifu-search", "--game", "splay-schmidt", "--json"]))
    check(b.js("+document.querySelector('#count b').textContent.replace(/,/g, '')") == len(found),
          "/games: the count is not kifu-search's %d" % len(found))
    ids = b.js("[...document.querySelectorAll('#games tr')].slice(1).map(tr => +tr.cells[0].textContent)")
    check(ids == [h["id"] for h in found[:50]], "/games: page 1 is not kifu-search's first 50")
    b.click("#games a.sort[data-sort=plies]")
    plies = b.js("[...document.querySelectorAll('#games tr')].slice(1).map(tr => +tr.cells[5].textContent)") or []
    want = sorted((h["plies"] for h in found), reverse=True)[:50]
    check(plies == want, "/games sorted by plies: %s, not %s" % (plies[:5], want[:5]))
    b.screenshot(os.path.join(OUT, "serve-explorer-games.png"))
    b.click("#next")
    check(b.js("new URLSearchParams(location.search).get('page')") == "2", "/games: next is not page 2")
    pages = (len(found) + 49) // 50
    check(get("/games?game=splay-schmidt&page=%d" % pages)[0] == 200, "/games: the last page is not a 200")
    check(get("/games?game=splay-schmidt&page=%d" % (pages + 1))[0] == 404, "/games: past the last page is not a 404")
    check(get("/games?page=0")[0] == 400, "/games?page=0 is not a 400")
    check(get("/games?game=nothing-like-it")[0] == 404, "/games for an unknown game is not a 404")

    # ---- numbers for people, errors that lead somewhere ----
    b.go(URL + "/")
    row = b.js("[...document.querySelectorAll('#summary tr')].filter(tr => tr.cells[0].textContent === 'splinter' "
               "&& tr.cells[1].textContent === 'knockout').map(tr => [tr.cells[2].textContent, tr.cells[4].textContent])[0]")
    srow = [r for r in json.loads(tool(["kifu-stats", "summary", "--format", "json"]))["rows"]
            if r["game"] == "splinter" and r["variant"] == "knockout"][0]
    check(row == ["{:,}".format(srow["games"]), "%.3f" % srow["draw_rate"]],
          "home: splinter knockout's games and draw rate are %s, not %s games and %.3f" % (row, "{:,}".format(srow["games"]), srow["draw_rate"]))
    b.screenshot(os.path.join(OUT, "serve-explorer-home.png"))
    line = tree("splay-schmidt", "standard")["rows"][0]["move"]
    t2 = tree("splay-schmidt", "standard", line)["rows"][0]["move"]
    bad = "%s,%s,zz9" % (line, t2)
    code, hdr, body = get("/explore/splay-schmidt/standard?after=" + urllib.parse.quote(bad))
    check(code == 404, "an illegal move in the path: HTTP %d, not 404" % code)
    b.go(explore_url("splay-schmidt", "standard", bad))
    b.screenshot(os.path.join(OUT, "serve-explorer-illegal.png"))
    b.click("#longest")
    check(urllib.parse.parse_qs(urllib.parse.urlparse(b.js("location.href")).query).get("after") == ["%s,%s" % (line, t2)]
          and b.js("document.getElementById('board').getAttribute('data-ply')") == "2",
          "the illegal move's page does not lead to the explorer after %s,%s" % (line, t2))
    for path in ("/explore/splay-schmidt/standard?after=%s&page=9999" % line, "/player/%s?page=9999" % urllib.parse.quote(who, safe=""),
                 "/pattern/splay-schmidt/standard?pattern=g4%3D%2B&page=9999"):
        check(get(path)[0] == 404, "%s: past the last page is not a 404" % path)
        check(get(path.replace("9999", "1"))[0] == 200, "%s: page 1 is not a 200" % path)
        check(get(path.replace("9999", "0"))[0] == 400, "%s: page 0 is not a 400" % path)

    # ---- the pattern editor ----
    b.go(URL + "/pattern/splay-schmidt/standard")
    names = b.js("[...document.querySelectorAll('#pattern-board g.pc')].map(g => g.getAttribute('data-cell'))") or []
    check(len(names) == 91 and len(set(names)) == 91, "the editor has %d cells, not splay-schmidt's 91" % len(names))
    for name in names[::23]:
        p_ = subprocess.run([BIN + "/kifu-search", "--db", DB, "--game", "splay-schmidt", "--pattern", name + "=*",
                             "--limit", "1"], capture_output=True)
        check(p_.returncode == 0, "the editor's cell %s is not a cell kifu-search takes" % name)
    cell = "f6"

    def click_cell(name):
        at = b.js("""(function () { var g = document.querySelector('#pattern-board g.pc[data-cell="%s"]');
            g.scrollIntoView(); var r = g.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; })()""" % name)
        for kind in ("mousePressed", "mouseReleased"):
            b.cmd("Input.dispatchMouseEvent", {"type": kind, "x": at[0], "y": at[1], "button": "left",
                                               "clickCount": 1}, session=True)
    click_cell(cell)
    check(b.js("document.getElementById('p-pattern').value") == cell + "=.", "one click on %s: not %s=." % (cell, cell))
    click_cell(cell)
    check(b.js("document.getElementById('p-pattern').value") == cell + "=+", "two clicks on %s: not %s=+" % (cell, cell))
    click_cell("g6")
    click_cell("g6")
    pat = b.js("document.getElementById('p-pattern').value")
    check(pat == "f6=+,g6=+", "clicks on f6 and g6: the pattern is %r" % pat)
    b.js("var x = document.getElementById('p-pattern'); x.value = 'e5=w+'; "
         "x.dispatchEvent(new Event('input'))")
    check(b.js("[...document.querySelectorAll('#pattern-board g.on')].map(g => g.getAttribute('data-cell') + '=' + "
               "g.getAttribute('data-token'))") == ["e5=w+"], "typing e5=w+ does not set the board to it")
    b.js("var x = document.getElementById('p-pattern'); x.value = ''; x.dispatchEvent(new Event('input'))")
    click_cell(cell)
    click_cell(cell)
    b.click("#p-find")
    found = json.loads(tool(["kifu-search", "--game", "splay-schmidt", "--variant", "standard", "--pattern", cell + "=+", "--json"]))
    listed = b.js("[...document.querySelectorAll('table.games tr')].slice(1).map(tr => [+tr.cells[0].textContent, +tr.querySelector('td.ply').textContent])") or []
    check(listed == [[h["id"], h["ply"]] for h in found[:25]], "the editor's search is not kifu-search --pattern %s=+'s" % cell)
    check(b.js("[...document.querySelectorAll('#pattern-board g.on')].map(g => g.getAttribute('data-cell'))") == [cell],
          "the results' page does not show the pattern on the board")
    if found:
        h = found[0]
        pic = sorted(b.js("[...document.querySelectorAll('table.games tr:nth-child(2) td.thumb [data-cell]')].map(e => "
                          "e.getAttribute('data-cell') + '=' + e.getAttribute('data-content'))") or [])
        import html.parser

        class Cells(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.cells = []

            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if "data-cell" in a:
                    self.cells.append("%s=%s" % (a["data-cell"], a.get("data-content")))
        c = Cells()
        c.feed(tool(["kifu-export", "--id", str(h["id"]), "--to", "svg", "--ply", str(h["ply"])]).decode())
        check(pic and pic == sorted(c.cells), "game %d's picture is not its position at ply %d" % (h["id"], h["ply"]))
    b.screenshot(os.path.join(OUT, "serve-explorer-pattern-editor.png"))

print("checked %d" % checked)
sys.exit(1 if failures else 0)
