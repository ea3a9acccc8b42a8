"""kifu-stats balance's levels in order of strength, the /balance page's
verdicts and its chart with nothing clipped (issue 42).

usage: balance_levels.py BIN DB URL CHROMIUM PROFILE SVG SHOT LONG_LEVEL

The database (tests/cli/balance-levels.sh) has levels whose byte order is
not their order of strength, one of them long (LONG_LEVEL). CLI.md's order
(random, mcts:N by N, engine:N by N, engine, other SPECs, players; the same
N written otherwise in byte order) is worked out here from the names and
compared with kifu-stats balance in json, csv and table, its --svg chart,
the API and the page's table. The page's verdicts: one per game and
variant, naming exactly the levels whose 95% interval leaves out 1 /
sides, which way ("first mover favoured", "second mover favoured", with
more sides "first mover at a disadvantage"), with the score and interval
as "0.589, 0.540-0.636", else saying that no level shows an advantage.
The chart, as the file SVG and inline in the page in Chromium: every text
element's box (getBBox) inside the SVG's viewBox, every level's name
written whole, and the chart no wider than the page. A screenshot of the
page goes to SHOT. Prints one line per failure, then "checked N".
"""
import csv
import html.parser
import io
import json
import os
import re
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE, SVG, SHOT, LONG = sys.argv[1:9]
URL = URL.rstrip("/")
SIDES = {"splay-schmidt": 2, "splay-kisenwether": 2, "splinter-quad": 4}
failures = checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL", what)


def tool(*argv):
    return subprocess.run([BIN + "/kifu-stats", "--db", DB] + list(argv), capture_output=True,
                          text=True, check=True).stdout


def get(path):
    with urllib.request.urlopen(URL + path, timeout=60) as r:
        return r.read().decode()


def strength(level):
    m = re.match(r"^(mcts|engine):([0-9]+)$", level)
    if m:
        return (1 if m.group(1) == "mcts" else 2, int(m.group(2)), level)
    return ({"random": 0, "engine": 3, "players": 5}.get(level, 4), 0, level)


rows = json.loads(tool("--format", "json", "balance"))["rows"]
got = [(r["game"], r["variant"], r["level"]) for r in rows]
# games and variants in the report's order, their levels in CLI.md's
want = sorted(got, key=lambda k: (got.index(next(g for g in got if g[:2] == k[:2])),
                                  strength(k[2])))
check(got == want, "json: levels %s, not %s" % (got, want))
check(want != sorted(got, key=lambda k: (got.index(next(g for g in got if g[:2] == k[:2])),
                                         k[2] == "players", k[2])),
      "the fixture's byte order is not its order of strength")
check(("splay-schmidt", "standard", LONG) in got, "the long level is a row")
lv = [tuple(r[:3]) for r in list(csv.reader(io.StringIO(tool("--format", "csv", "balance"))))[1:]]
check(lv == want, "csv: levels %s" % lv)
table = [l.split() for l in tool("balance").splitlines()[1:] if l.strip()]
check([tuple(t[:3]) for t in table] == want, "table: levels %s" % [t[:3] for t in table])
check(json.loads(get("/api/stats/balance"))["rows"] == rows, "the API is the tool's json")


class Page(html.parser.HTMLParser):
    """The page's #balance levels and its verdicts (text per game and variant)."""

    def __init__(self):
        super().__init__()
        self.table = self.col = self.li = None
        self.levels, self.verdicts = [], {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "balance":
            self.table = True
        elif self.table and tag == "tr":
            self.col = -1
        elif self.table and tag == "td":
            self.col += 1
            self.cell = ""
        elif tag == "li" and "verdict" in (a.get("class") or ""):
            self.li = (a.get("data-game"), a.get("data-variant"))
            self.verdicts[self.li] = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif self.table and tag == "td" and self.col == 2:
            self.levels.append(self.cell)
        elif tag == "li":
            self.li = None

    def handle_data(self, data):
        if self.table and self.col is not None and self.col >= 0:
            self.cell += data
        if self.li:
            self.verdicts[self.li] += data


page = get("/balance")
p = Page()
p.feed(page)
check(p.levels == [k[2] for k in want], "page: levels %s" % p.levels)

# The verdicts, worked out from the report's json.
groups = {}
for r in rows:
    groups.setdefault((r["game"], r["variant"]), []).append(r)
check(set(p.verdicts) == set(groups), "page: verdicts of %s, not %s" % (sorted(p.verdicts),
                                                                         sorted(groups)))
found = set()
for key, rs in groups.items():
    text = " ".join(p.verdicts.get(key, "").split())
    fair = 1 / SIDES[key[0]]
    findings = []
    for r in rs:
        if r["ci_low"] is None or r["ci_low"] <= fair <= r["ci_high"]:
            continue
        way = ("first mover favoured" if r["ci_low"] > fair else
               "second mover favoured" if SIDES[key[0]] == 2 else "first mover at a disadvantage")
        where = ("in the games between other players" if r["level"] == "players" else
                 "at the %s level" % r["level"])
        findings.append("%s %s: %.3f, %.3f-%.3f" % (way, where, r["first_mover_score"],
                                                     r["ci_low"], r["ci_high"]))
        found.add(way)
    if findings:
        check(text.startswith("%s %s: " % key), "%s: %r" % (key, text))
        said = text[len("%s %s: " % key):]
        check(said == "; ".join(findings) + " (a fair game: %.3f)." % fair,
              "%s: says %r, not %s" % (key, said, findings))
    else:
        check("no level shows an advantage" in text and "%.3f" % fair in text,
              "%s: no finding, says %r" % (key, text))
check(found == {"first mover favoured", "second mover favoured", "first mover at a disadvantage"},
      "the fixture has every way: %s" % found)

BOUNDS = """(function () {
    var out = [];
    document.querySelectorAll('svg').forEach(function (svg) {
        var vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
        svg.querySelectorAll('text').forEach(function (t) {
            var b = t.getBBox();
            if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 ||
                b.y + b.height > vb.y + vb.height + 0.5)
                out.push(t.textContent + ': ' + [b.x, b.y, b.width, b.height].join(',') +
                         ' outside ' + [vb.x, vb.y, vb.width, vb.height].join(','));
        });
        if (location.protocol !== 'file:' &&
            r.right > document.documentElement.clientWidth + 0.5)
            out.push('the chart ends at ' + r.right + ', past the page');
    });
    return out; })()"""
LEVELS = ("Array.from(document.querySelectorAll('svg g[data-level] > text')).filter("
          "function (t) { return t.getAttribute('text-anchor') === 'end'; })"
          ".map(function (t) { return t.textContent; })")
with Browser(CHROMIUM, PROFILE) as b:
    for url, size in (("file://" + os.path.abspath(SVG), "1280,1000"),
                      (URL + "/balance", "1280,1000"), (URL + "/balance", "800,1000")):
        b.load(url, size)
        out = b.js(BOUNDS)
        check(out == [], "%s at %s: %s" % (url, size, out))
        shown = b.js(LEVELS)
        check(shown == [k[2] for k in want], "%s: the levels written %s" % (url, shown))
    b.load(URL + "/balance", "1280,1000")
    h = b.js("document.documentElement.scrollHeight")
    b.load(URL + "/balance", "1280,%d" % min(h, 4000))
    b.screenshot(SHOT)

print("checked %d" % checks)
sys.exit(1 if failures else 0)
