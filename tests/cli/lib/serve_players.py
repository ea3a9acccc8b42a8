"""Drives kifu-serve's players pages in headless Chromium (tests/cli/serve-players.sh):
the search box of / and of /players, the order by games and by rating, the pages,
the JSON and CSV links, the ratings per game and variant on /, /players and the
player page, /player/NAME in another case followed to the stored spelling, a
player page filtered by game and variant, and its per-side table in the fixed
order. Each fact is checked against the tools' own answers (kifu-stats players,
with --by-variant and --name-part) or the API; a screenshot of /players goes to OUT.

    serve_players.py BIN DB URL CHROMIUM PROFILE OUT
"""
import csv
import io
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE, OUT = sys.argv[1:7]
URL = URL.rstrip("/")
failed = []
checked = [0]


def check(ok, what):
    checked[0] += 1
    if not ok:
        failed.append(what)
        print("serve_players: " + what, file=sys.stderr)
    return ok


def tool(argv):
    return subprocess.run([os.path.join(BIN, argv[0]), "--db", DB] + argv[1:], check=True,
                          capture_output=True, text=True).stdout


def report(*args):
    return json.loads(tool(["kifu-stats", "players", "--format", "json"] + list(args)))["rows"]


def fetch(path):
    with urllib.request.urlopen(URL + path, timeout=60) as r:
        return r.read().decode("utf-8")


def table(b, sel):
    """The rows of table SEL as lists of cell texts (header row left out)."""
    return b.js("""Array.from(document.querySelectorAll(%s + ' tr')).slice(1).map(
        tr => Array.from(tr.cells).map(td => td.innerText.trim()))""" % json.dumps(sel))


def num(text):
    return float(text.replace(",", "")) if text not in ("-", "") else None


every = report()
games_of = {r["player"]: r["games"] for r in every}
summary = json.loads(tool(["kifu-stats", "summary", "--format", "json"]))["rows"]
order = [(r["game"], r["variant"]) for r in summary]
# each player's rating per game and variant: the report of that game and variant alone,
# in the order of the games and variants
ratings_of = {}
for g, v in order:
    for r in report("--game", g, "--variant", v):
        ratings_of.setdefault(r["player"], []).append(dict(r, game=g, variant=v))


def cell_ratings(text):
    """A "rating per game and variant" cell as [(game, variant, rating, games)]."""
    out = []
    for line in text.split("\n"):
        words = line.split()
        if len(words) >= 4:
            out.append((words[0], words[1], num(words[2]), int(words[3].strip("()").replace(",", ""))))
    return out


def want_ratings(name):
    return [(r["game"], r["variant"], None if r["rating"] is None else round(r["rating"], 1),
             r["games"]) for r in ratings_of.get(name, [])]


with Browser(CHROMIUM, PROFILE, size="1280,1400") as b:
    # / : a search box that leads to /players with the name's part
    b.go(URL + "/")
    check(b.js("!!document.querySelector('form#find-player input[name=q]')"),
          "home: no player search box")
    rows = table(b, "#players")
    check(len(rows) == min(30, len(every)), "home: not the 30 best rated players")
    for row in rows:
        check(cell_ratings(row[-1]) == want_ratings(row[0]),
              "home: %s's ratings per game and variant are %s, not %s" % (
                  row[0], cell_ratings(row[-1]), want_ratings(row[0])))
    check(b.js("document.querySelector('#players th:nth-child(7)').innerText").find("all games") >= 0,
          "home: the all-games rating does not say so")
    b.js("document.getElementById('home-q').value = 'aNn L'")
    b.click("#home-find")
    check(b.js("location.pathname") == "/players", "home's search does not open /players")
    rows = table(b, "#players")
    want = [r["player"] for r in every if "ann l" in r["player"].lower()]
    check([r[1] for r in rows] == want, "/players?q=aNn L: %s, not %s" % ([r[1] for r in rows], want))

    # /players: every player, best rated first, 50 a page
    b.go(URL + "/players")
    names = []
    page = 1
    while True:
        rows = table(b, "#players")
        check(len(rows) == min(50, len(every) - 50 * (page - 1)), "/players page %d: %d rows" % (page, len(rows)))
        names += [r[1] for r in rows]
        if page == 1:
            b.screenshot(os.path.join(OUT, "serve-players.png"))
            # its data as JSON and CSV: the report's rows
            j = b.js("document.querySelector('#data-players a[href*=\"/api/\"]').getAttribute('href')")
            check(json.loads(fetch(j))["rows"] == every, "/players: the JSON link is not the report")
        if not b.js("!!document.getElementById('next')") or page > 10:
            break
        b.click("#next")
        page += 1
        check(b.js("new URLSearchParams(location.search).get('page')") == str(page),
              "/players: next does not lead to page %d" % page)
    check(names == [r["player"] for r in every], "/players: the pages are not every player in "
          "the report's order (%d of %d)" % (len(names), len(every)))
    check(page == (len(every) + 49) // 50, "/players: %d pages for %d players" % (page, len(every)))
    check(b.js("document.querySelector('#data-players').innerText").find("CSV") >= 0,
          "/players: no CSV link")

    # sorted by games, with the search box: most games first, each row the player's own
    b.go(URL + "/players")
    b.js("document.getElementById('pl-q').value = 'LAYER 0'")
    b.js("document.getElementById('pl-sort').value = 'games'")
    b.click("#pl-apply")
    rows = table(b, "#players")
    got = [(r[1], int(r[2].replace(",", ""))) for r in rows]
    check(got and all("layer 0" in n.lower() for n, _ in got), "/players?q=LAYER 0: other names")
    check([g for _, g in got] == sorted([g for _, g in got], reverse=True),
          "/players sorted by games: not most games first")
    check(all(games_of[n] == g for n, g in got), "/players: a row's games are not the player's")
    check(len(got) == min(50, sum(1 for r in every if "layer 0" in r["player"].lower())),
          "/players?q=LAYER 0: not every match")
    b.click("#by-rating")
    rows = table(b, "#players")
    check([r[1] for r in rows] == [r["player"] for r in every if "layer 0" in r["player"].lower()][:50],
          "/players: the rating header does not sort by rating, the search kept")
    # ratings per game and variant beside each player, as players --by-variant
    for row in rows:
        check(cell_ratings(row[-1]) == want_ratings(row[1]),
              "/players: %s's ratings per game and variant" % row[1])

    # a game and variant chosen: that variant's ratings alone
    b.go(URL + "/players")
    b.js("document.getElementById('pl-gv').value = 'glaisher/advanced'")
    b.click("#pl-apply")
    rows = table(b, "#players")
    want = report("--game", "glaisher", "--variant", "advanced")
    check([(r[1], num(r[7])) for r in rows] ==
          [(r["player"], None if r["rating"] is None else round(r["rating"], 1)) for r in want][:50],
          "/players in glaisher advanced: not that variant's report")
    csvlink = b.js("document.querySelector('#data-players a[href*=\"format=csv\"]').getAttribute('href')")
    check(list(csv.reader(io.StringIO(fetch(csvlink))))[1][0] == want[0]["player"],
          "/players in glaisher advanced: the CSV link is not that variant's")

    # /player/NAME in another case: the stored spelling's page
    b.go(URL + "/player/" + urllib.parse.quote("ann lee"))
    check(b.js("location.pathname") == "/player/Ann%20Lee", "/player/ann%20lee does not lead to "
          "/player/Ann%20Lee but " + str(b.js("location.pathname")))
    check(b.js("document.getElementById('player').innerText") == "Ann Lee", "no Ann Lee page")
    rows = table(b, "#ratings")
    want = [[r["game"], r["variant"], str(r["games"]), str(r["wins"]), str(r["draws"]),
             str(r["losses"]), "%.3f" % r["score"], "%.1f" % r["rating"]] for r in ratings_of["Ann Lee"]]
    check(rows == want, "Ann Lee's ratings per game and variant: %s, not %s" % (rows, want))
    check([(r[0], r[1]) for r in rows] == [p for p in order if list(p) in [x[:2] for x in rows]],
          "Ann Lee's ratings are not in the order of games and variants")
    sides = [r[0].split() + [r[1]] for r in table(b, "#sides")]
    check(sides == [["splay-schmidt", "standard", "white"], ["splay-schmidt", "standard", "black"],
                    ["glaisher", "advanced", "red"]],
          "Ann Lee's sides not in game, variant, side order: %s" % sides)
    # one game and variant's page, from the ratings table's link
    b.click("#ratings a[href*='glaisher']")
    check(b.js("location.search") == "?game=glaisher&variant=advanced", "the rating's link")
    sides = [r[0] for r in table(b, "#sides")]
    check(sides == ["glaisher advanced"], "the filtered page's sides: %s" % sides)
    check(len(table(b, "table.games")) == 2, "the filtered page does not list 2 games")
    b.click("#every-game")
    check(len(table(b, "#sides")) == 3, "every game again")

print("serve_players: %d facts checked, %d failed" % (checked[0], len(failed)), file=sys.stderr)
if failed:
    sys.exit(1)
