"""Compares kifu-serve's JSON API with the tools' json for the same question.

usage: serve_api.py BIN DB URL [--quick] [--reviewed=ID:FILE...]

For every game and variant of the database: the tree and the search at the
start and down the two most played moves of each position to 3 plies, the
first of them also with filters (a player, dates, a termination,
symmetric, min_games); every report with filters; a sample of games by id
(those with a stored review: its `review` member kifu-analyse's json);
and bad parameters, whose {"error"} must be the tool's message (its stderr
line after "PROG: error: "). Each answer and the tool's output are compared
as parsed JSON. Prints one line per difference and, last, "compared N".
"""
import json
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

BIN, DB, URL = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
QUICK = "--quick" in sys.argv[4:]
compared = 0
failures = 0


def get(path, params):
    q = urllib.parse.urlencode(params)
    try:
        r = urllib.request.urlopen(URL + path + ("?" + q if q else ""), timeout=120)
        return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def tool(argv):
    p = subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:], capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def filter_args(params):
    out = []
    for k, v in params.items():
        if k in ("game", "variant", "player", "event", "since", "until", "termination", "after",
                 "pattern"):
            out += ["--" + k, v]
        elif k == "min_games":
            out += ["--min-games", v]
        elif k == "depth":
            out += ["--depth", v]
        elif k == "symmetric" and v == "1":
            out += ["--symmetric"]
        elif k == "by_position" and v == "1":
            out += ["--by-position"]
    return out


def differ(what, detail):
    global failures
    failures += 1
    print("DIFF %s: %s" % (what, detail))


def same(path, params, argv):
    """The API's answer and the tool's json, both successes, equal as JSON."""
    global compared
    compared += 1
    what = "%s?%s" % (path, urllib.parse.urlencode(params))
    code, body = get(path, params)
    rc, out, err = tool(argv)
    if rc != 0:
        differ(what, "the tool failed (%d): %s" % (rc, err.strip()))
        return None
    if code != 200:
        differ(what, "HTTP %d: %s" % (code, body[:200]))
        return None
    try:
        a, b = json.loads(body), json.loads(out)
    except ValueError as e:
        differ(what, "not JSON: %s" % e)
        return None
    if a != b:
        differ(what, "the answers differ")
        return None
    return a


def same_error(path, params, argv, status=400):
    """A mistake: the API's status and {"error"} the tool's message."""
    global compared
    compared += 1
    what = "%s?%s" % (path, urllib.parse.urlencode(params))
    code, body = get(path, params)
    rc, out, err = tool(argv)
    first = err.splitlines()[0] if err else ""
    msg = first.split(": error: ", 1)[1] if ": error: " in first else first
    try:
        got = json.loads(body)
    except ValueError:
        differ(what, "not JSON: %r" % body[:200])
        return
    if code != status:
        differ(what, "HTTP %d, not %d (%s)" % (code, status, got))
    if rc == 0:
        differ(what, "the tool accepted it")
    if got.get("error") != msg:
        differ(what, "error %r, the tool says %r" % (got.get("error"), msg))


def tree(params):
    return same("/api/tree", params, ["kifu-stats"] + filter_args(params) + ["tree", "--format", "json"])


def search(params):
    # the API's page: kifu-search --limit (100 by default) --offset
    page = ["--limit", params.get("limit", "100")] + (["--offset", params["offset"]] if "offset" in params else [])
    return same("/api/search", params, ["kifu-search"] + filter_args(params) + page + ["--json"])


summary = same("/api/stats/summary", {}, ["kifu-stats", "summary", "--format", "json"])
players = same("/api/stats/players", {}, ["kifu-stats", "players", "--format", "json"])
player = players["rows"][len(players["rows"]) // 2]["player"] if players and players["rows"] else None
pairs = [(r["game"], r["variant"]) for r in (summary or {"rows": []})["rows"]]
if QUICK:
    pairs = pairs[:2]

for game, variant in pairs:
    base = {"game": game, "variant": variant}
    level = [""]
    for depth in range(4 if not QUICK else 3):
        nxt = []
        for after in level:
            p = dict(base)
            if after:
                p["after"] = after
            t = tree(p)
            search(p)
            if t:
                for row in t["rows"][:2]:
                    nxt.append(after + ("," if after else "") + row["move"])
        level = nxt
    deep = level[0] if level else ""
    for extra in ({"symmetric": "1"}, {"min_games": "2"}, {"since": "2024", "until": "2025-06"},
                  {"termination": "resignation"}, {"player": player} if player else {}):
        p = dict(base, **extra)
        tree(p)
        if "min_games" not in extra:
            # the search's --symmetric needs --after: the start is --after ''
            search(dict(p, after="") if "symmetric" in extra else p)
        if deep:
            p["after"] = deep
            tree(p)
            if "min_games" not in extra:
                search(p)

# Pattern search (kifu-search --pattern): a cell near each board's middle, plain and symmetric.
centre = {"splay-schmidt": "f6", "splay-kisenwether": "d2", "splinter": "e4", "splinter-quad": "e4",
          "glaisher": "e5"}
for game, variant in pairs:
    if game in centre:
        for p in ({"pattern": centre[game] + "=+"}, {"pattern": centre[game] + "=+", "symmetric": "1"},
                  {"pattern": centre[game] + "=.", "since": "2023"}):
            search(dict({"game": game, "variant": variant}, **p))

for report in ("summary", "openings", "players", "lengths"):
    for p in ({}, {"game": pairs[0][0]} if pairs else {}, {"player": player} if player else {},
              {"since": "2023", "until": "2025-12-31"}, {"termination": "rules"},
              {"game": pairs[-1][0], "variant": pairs[-1][1]} if pairs else {}):
        same("/api/stats/" + report, p, ["kifu-stats"] + filter_args(p) + [report, "--format", "json"])
for p in ({"depth": "3"}, {"depth": "2", "min_games": "3"}, {"by_position": "1"},
          {"by_position": "1", "symmetric": "1", "depth": "3"}):
    same("/api/stats/openings", p, ["kifu-stats"] + filter_args(p) + ["openings", "--format", "json"])

# Games by id: the first ones, some in the middle, the last.
# Games with a novelty and without (novelty_ply: a number or null, the report's ply).
ids = sorted(h["id"] for h in json.loads(tool(["kifu-search", "--json"])[1]))
# --reviewed=ID:FILE: game ID has a stored review, whose `review` member must
# be FILE (kifu-analyse --to json of the run expected to be picked); the
# other games have no `review` member.
reviewed = {}
for arg in sys.argv[4:]:
    if arg.startswith("--reviewed="):
        rid, path = arg[len("--reviewed="):].split(":", 1)
        with open(path, encoding="utf-8") as f:
            reviewed[int(rid)] = json.load(f)
novelty = {}
for game, variant in pairs:
    rows = json.loads(tool(["kifu-stats", "--game", game, "--variant", variant, "novelties",
                            "--format", "json"])[1])["rows"]
    novelty.update((r["id"], r["ply"]) for r in rows)
with_novelty = sorted(i for i, p in novelty.items() if p is not None)
for i in sorted(set(ids[:3] + ids[len(ids) // 2: len(ids) // 2 + 2] + ids[-2:] + with_novelty[:3] +
                    with_novelty[-3:]) | set(reviewed)):
    got = same("/api/game/%d" % i, {}, ["kifu-export", "--id", str(i), "--to", "json"])
    if got is None:
        continue
    if got.get("novelty_ply", "absent") != novelty.get(i):
        differ("/api/game/%d" % i, "novelty_ply %r, the report's ply %r" %
               (got.get("novelty_ply", "absent"), novelty.get(i)))
    if i in reviewed and got.get("review") != reviewed[i]:
        differ("/api/game/%d" % i, "its review is not kifu-analyse --to json's")
    elif i not in reviewed and "review" in got:
        differ("/api/game/%d" % i, "a review where none is stored")
if not with_novelty:
    differ("/api/game", "no game with a novelty to compare")

# /api/search pages its list: 100 games unless limit=N (1 to 10,000), from offset=K, a Link to the
# next page while more follow; the pages end to end are the tool's list.
whole = json.loads(tool(["kifu-search", "--json"])[1])
for first in ({}, {"limit": "7", "game": "glaisher"}, {"limit": "250", "offset": "3"}):
    path, pages, link = "/api/search?" + urllib.parse.urlencode(first), [], None
    want = [h for h in whole if h["game"] == first["game"]] if "game" in first else whole
    want = want[int(first.get("offset", "0")):]
    while path and len(pages) < 200:
        r = urllib.request.urlopen(URL + path, timeout=120)
        page = json.loads(r.read())
        pages.append(page)
        link = r.headers.get("Link")
        m = re.match(r'^<(/api/search\?[^>]*)>; rel="next"$', link) if link else None
        if link and not m:
            differ(path, "a Link that is not the next page's: %r" % link)
        path = m.group(1) if m else None
    got = [h for p in pages for h in p]
    compared += 1
    if got != want:
        differ("/api/search pages from %r" % first, "%d games, the tool's %d" % (len(got), len(want)))
    elif any(len(p) != int(first.get("limit", "100")) for p in pages[:-1]) or len(pages[-1]) == 0 or \
            len(pages[0]) != min(int(first.get("limit", "100")), len(want)):
        differ("/api/search pages from %r" % first, "sizes %r" % [len(p) for p in pages])
for bad, msg in (("0", "--limit expects a whole number of 1 or more, not '0'"),
                 ("10001", "--limit 10001 is too many (10000 at most)")):
    code, body = get("/api/search", {"limit": bad})
    compared += 1
    if code != 400 or json.loads(body) != {"error": msg}:
        differ("/api/search?limit=" + bad, "%d %r" % (code, body[:200]))

# Mistakes: the tool's message, did-you-mean included.
g, v = pairs[0] if pairs else ("glaisher", "standard")
same_error("/api/tree", {"game": g[:-1] + "x", "variant": v},
           ["kifu-stats", "--game", g[:-1] + "x", "--variant", v, "tree"])
same_error("/api/tree", {"game": g, "variant": v[:-1]}, ["kifu-stats", "--game", g, "--variant", v[:-1], "tree"])
same_error("/api/tree", {"game": g, "variant": v, "after": "zz9"},
           ["kifu-stats", "--game", g, "--variant", v, "--after", "zz9", "tree"])
same_error("/api/tree", {"game": g, "variant": v, "min_games": "-1"},
           ["kifu-stats", "--game", g, "--variant", v, "--min-games", "-1", "tree"])
same_error("/api/tree", {"game": g, "variant": v, "since": "2024-13"},
           ["kifu-stats", "--game", g, "--variant", v, "--since", "2024-13", "tree"])
same_error("/api/tree", {"game": g, "variant": v, "termination": "resign"},
           ["kifu-stats", "--game", g, "--variant", v, "--termination", "resign", "tree"])
same_error("/api/tree", {}, ["kifu-stats", "tree"])
same_error("/api/search", {"after": "a1"}, ["kifu-search", "--after", "a1"])
same_error("/api/search", {"symmetric": "1"}, ["kifu-search", "--symmetric"])
same_error("/api/search", {"game": g, "variant": v, "after": "zz9"},
           ["kifu-search", "--game", g, "--variant", v, "--after", "zz9"])
same_error("/api/search", {"game": "glaisher", "until": "yesterday"},
           ["kifu-search", "--game", "glaisher", "--until", "yesterday"])
same_error("/api/search", {"pattern": "e4=+"}, ["kifu-search", "--pattern", "e4=+"])
same_error("/api/search", {"game": "splinter", "pattern": "e4=+"},
           ["kifu-search", "--game", "splinter", "--pattern", "e4=+"])
same_error("/api/search", {"game": "glaisher", "variant": "standard", "pattern": "e5=x9"},
           ["kifu-search", "--game", "glaisher", "--variant", "standard", "--pattern", "e5=x9"])
same_error("/api/search", {"game": "glaisher", "variant": "standard", "pattern": "e5=+", "after": ""},
           ["kifu-search", "--game", "glaisher", "--variant", "standard", "--pattern", "e5=+",
            "--after", ""])
same_error("/api/stats/openings", {"depth": "0"}, ["kifu-stats", "--depth", "0", "openings"])
same_error("/api/stats/openings", {"symmetric": "1"}, ["kifu-stats", "--symmetric", "openings"])
same_error("/api/stats/summary", {"variant": "standrd"}, ["kifu-stats", "--variant", "standrd", "summary"])
same_error("/api/stats/summry", {}, ["kifu-stats", "summry"], status=404)
same_error("/api/game/x1", {}, ["kifu-export", "--id", "x1", "--to", "json"])

print("compared %d" % compared)
sys.exit(1 if failures else 0)
