"""kifu-serve's /balance page (issue 33) against the tools.

usage: serve_balance.py BIN DB URL HOSTILE_PLAYER

The page's table (#balance) is kifu-stats balance --format json row by
row, each figure written for people: counts with thousands separators,
the draw rate in whole percent, scores and intervals with 3 decimals,
mean plies 1, branching and lead changes 2, drama and decided at 3, "-"
for null. The chart is kifu-stats balance --svg's, inline. Each row's
explorer link answers 200 and its position is reached by exactly the
row's games; the same filter on /api/search (and kifu-search --level)
lists exactly the games the CLI.md rule, applied here by hand to
kifu-search's players, puts at that level. The page's data links answer
kifu-stats' json and csv; / links /balance. A hostile player name in the
player filter is escaped on the page (and percent-encoded in its links),
and its one game is a row of level players; bad parameters are 400 with
the tools' message, an unknown game 404. Prints one line per failure,
then "checked N"; exits 1 on a failure.
"""
import html.parser
import json
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

BIN, DB, URL, HOSTILE = sys.argv[1:5]
URL = URL.rstrip("/")
failures = checks = 0
SPEC = re.compile(r"^(random|mcts:[0-9]+|engine(:[0-9]+)?) #[0-9]+$")


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL", what)


def tool(argv, raw=False):
    out = subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:], capture_output=True,
                         check=True).stdout
    return out.decode() if raw else json.loads(out)


def get(path):
    try:
        with urllib.request.urlopen(URL + path, timeout=60) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


class Table(html.parser.HTMLParser):
    """The rows of the table with id `want` (cells' text) and each row's links."""

    def __init__(self, want):
        super().__init__()
        self.want, self.depth, self.rows, self.cell, self.links = want, 0, [], None, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == self.want:
            self.depth = 1
        elif self.depth and tag == "tr":
            self.rows.append([])
            self.links.append([])
        elif self.depth and tag == "td":
            self.cell = ""
        elif self.depth and tag == "a" and self.links:
            self.links[-1].append(a.get("href"))

    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth = 0
        elif self.depth and tag == "td":
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def table(page, want):
    t = Table(want)
    t.feed(page)
    # the head row has no cells
    return [(r, l) for r, l in zip(t.rows, t.links) if r]


def fmt(v, spec):
    if v is None:
        return "-"
    if spec == "count":
        return "{:,}".format(v)
    if spec == "percent":
        return "%.0f%%" % (100 * v)
    return spec % v


COLS = [("game", "%s"), ("variant", "%s"), ("level", "%s"), ("games", "count"),
        ("first_mover_score", "%.3f"), ("ci", None), ("draw_rate", "percent"),
        ("mean_plies", "%.1f"), ("branching", "%.2f"), ("reviewed", "count"),
        ("lead_changes", "%.2f"), ("drama", "%.3f"), ("decided_at", "%.3f")]


def expect(row):
    cells = []
    for name, spec in COLS:
        if name == "ci":
            cells.append("-" if row.get("ci_low") is None else
                         "%.3f-%.3f" % (row["ci_low"], row["ci_high"]))
        else:
            cells.append(fmt(row.get(name), spec))
    return cells


def level_of(players, sides):
    """CLI.md's balance level of a game: a SPEC, "players", or None (left out)."""
    specs = [SPEC.match(players.get(s, "") or "") for s in sides]
    named = [m.group(1) for m in specs if m]
    if not named:
        return "players"
    if len(named) == len(sides) and len(set(named)) == 1:
        return named[0]
    return None


def compare(path, argv):
    """The page at path (its table) against kifu-stats balance with argv; returns the rows."""
    status, ctype, page = get(path)
    check(status == 200 and ctype.startswith("text/html"), "%s: %s %s" % (path, status, ctype))
    rows = tool(["kifu-stats"] + argv + ["balance", "--format", "json"])["rows"]
    shown = table(page, "balance")
    check(len(shown) == len(rows), "%s: %d rows, kifu-stats has %d" % (path, len(shown), len(rows)))
    for (cells, _), row in zip(shown, rows):
        check(cells[:len(COLS)] == expect(row), "%s: row %s, not %s" % (path, cells, expect(row)))
    return page, shown, rows


# ---- the whole database ----
page, shown, rows = compare("/balance", [])
check(len(rows) >= 4, "the fixture has %d rows" % len(rows))
levels = {r["level"] for r in rows}
check({"players", "random"} <= levels, "levels %s" % sorted(levels))
svg = tool(["kifu-stats", "balance", "--svg", "/dev/stdout"], raw=True)
svg = svg[svg.index("<svg"):svg.index("</svg>") + 6]
check(svg in page, "the page holds kifu-stats balance --svg's chart")

# every game's level by hand, from kifu-search's players and the games' sides
hits = tool(["kifu-search", "--json"])
game_sides = {"splay-schmidt": ["white", "black"], "splay-kisenwether": ["white", "black"],
              "splinter": ["blue", "white"], "splinter-quad": ["red", "blue", "green", "yellow"],
              "glaisher": ["red", "yellow"]}
by_level = {}
for h in hits:
    lv = level_of(h["players"] or {}, game_sides[h["game"]])
    by_level.setdefault((h["game"], h["variant"], lv), set()).add(h["id"])

for (cells, links), row in zip(shown, rows):
    key = (row["game"], row["variant"], row["level"])
    link = [l for l in links if l and l.startswith("/explore/")]
    check(len(link) == 1, "%s: one explorer link, not %s" % (key, links))
    if not link:
        continue
    href = link[0]
    status, _, ex = get(href)
    check(status == 200, "%s: %s answers %s" % (key, href, status))
    m = re.search(r'<b id="reached">([0-9,]+)</b>', ex)
    check(m and m.group(1) == "{:,}".format(row["games"]),
          "%s: the explorer's start reached in %s games, not %d" %
          (key, m and m.group(1), row["games"]))
    q = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
    check(q.get("level") == [row["level"]], "%s: the link's level %s" % (key, q.get("level")))
    ids = {h["id"] for h in json.loads(get("/api/search?limit=10000&" + urllib.parse.urlencode(
        {"game": row["game"], "variant": row["variant"], "level": row["level"]}))[2])}
    hand = by_level.get(key, set())
    check(ids == hand, "%s: /api/search level= lists %s, by hand %s" % (key, sorted(ids),
                                                                          sorted(hand)))
    cli = {h["id"] for h in tool(["kifu-search", "--game", row["game"], "--variant",
                                  row["variant"], "--level", row["level"], "--json"])}
    check(cli == hand, "%s: kifu-search --level lists %s, by hand %s" % (key, sorted(cli),
                                                                          sorted(hand)))

# the data links: kifu-stats' json and csv
m = re.search(r'<p class="data" id="data-balance">.*?href="([^"]+)">JSON</a> <a class="csv" '
              r'href="([^"]+)">CSV', page)
check(m, "the page links its data")
if m:
    status, ctype, body = get(m.group(1).replace("&amp;", "&"))
    check(status == 200 and json.loads(body) == tool(["kifu-stats", "balance", "--format", "json"]),
          "the JSON link is kifu-stats balance --format json")
    status, ctype, body = get(m.group(2).replace("&amp;", "&"))
    check(status == 200 and ctype.startswith("text/csv") and
          body == tool(["kifu-stats", "balance", "--format", "csv"], raw=True),
          "the CSV link is kifu-stats balance --format csv")
check('href="/balance"' in get("/")[2], "/ links /balance")

# ---- filtered: game and variant, a level ----
compare("/balance?game=splay-schmidt&variant=standard",
        ["--game", "splay-schmidt", "--variant", "standard"])
compare("/balance?level=random", ["--level", "random"])

# ---- a hostile player name ----
enc = urllib.parse.quote(HOSTILE, safe="")
page, shown, rows = compare("/balance?player=" + enc, ["--player", HOSTILE])
check(len(rows) == 1 and rows[0]["level"] == "players" and rows[0]["games"] == 1,
      "the hostile player's one game: %s" % rows)
check(HOSTILE not in page and "<script" not in page.split("</head>")[1],
      "the hostile name is not in the page as is")
escaped = (HOSTILE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
           .replace("'", "&#39;"))
check(escaped.replace('"', "&quot;") in page or escaped.replace('"', "&#34;") in page,
      "the hostile name escaped in the form")
check(("player=" + enc) in page, "the hostile name percent-encoded in the links")

# ---- mistakes ----
# (a page's bad filter: the page again, the field marked and why in words)
for path, status, says in [("/balance?level=foo", 400, "&#39;foo&#39; is not a level"),
                           ("/balance?level=mcts", 400, "is not a level"),
                           ("/balance?nope=1", 400, "nope"),
                           ("/balance?since=soon", 400, "soon is not a date"),
                           ("/balance?game=glaisher&variant=knockout", 400, "is not a variant of glaisher"),
                           ("/balance?game=chess", 404, ""),
                           ("/api/stats/balance?level=engine%3Ax", 400, "unknown level")]:
    got, _, body = get(path)
    check(got == status and says in body, "%s: %s, not %s saying %s" % (path, got, status, says))

print("checked %d" % checks)
sys.exit(1 if failures else 0)
