"""kifu-serve's player page: the most played lines as each side.

usage: serve_player.py BIN DB URL PLAYER...

For each player, from the tools alone (kifu-search --player for the games
and the player's sides, kifu-export --to json for their first moves,
kifu-stats summary for the sides of each game): per game, variant and side
the player had, the lines of the first 4 plies of the player's games there,
most played first (then by the moves joined by ',', as the openings report
orders them), with games and the player's score ((wins + draws / sides) /
finished games). The page must have exactly one table per game, variant and
side, each with the first 6 such lines: the explorer link's moves, games
and score, and the link filtered to the player. Prints one line per
difference; exits 1 if any.
"""
import html
import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request

BIN, DB, URL = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
PLIES, LINES = 4, 6
failures = 0


def tool(argv):
    return json.loads(subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:],
                                     capture_output=True, check=True).stdout)


def differ(what, detail):
    global failures
    failures += 1
    print("DIFF %s: %s" % (what, detail))


nsides = {(r["game"], r["variant"]): len([k for k in r if k.startswith("wins_")])
          for r in tool(["kifu-stats", "summary", "--format", "json"])["rows"]}
for player in sys.argv[4:]:
    want = {}
    for h in tool(["kifu-search", "--player", player, "--json"]):
        moves = None
        for side, name in h["players"].items():
            if name != player:
                continue
            key = (h["game"], h["variant"], side)
            lines = want.setdefault(key, {})
            if h["plies"] < PLIES:
                continue
            if moves is None:
                moves = [m["move"] for m in tool(["kifu-export", "--id", str(h["id"]), "--to", "json"])["moves"][:PLIES]]
            e = lines.setdefault(",".join(moves), [0, 0, 0, 0])
            e[0] += 1
            e[1] += h["result"] == side
            e[2] += h["result"] == "draw"
            e[3] += h["result"] == "unfinished"
    page = urllib.request.urlopen(URL + "/player/" + urllib.parse.quote(player, safe=""),
                                  timeout=60).read().decode("utf-8")
    got = {}
    for m in re.finditer(r'<table class="lines" data-game="([^"]*)" data-variant="([^"]*)" '
                         r'data-side="([^"]*)">(.*?)</table>', page, re.S):
        rows = []
        for r in re.finditer(r'<tr><td class="text move"><a href="([^"]*)">.*?</a></td>'
                             r'<td>(\d+)</td><td class="bar">.*?</td><td>([-0-9.]+)</td></tr>',
                             m.group(4), re.S):
            q = urllib.parse.parse_qs(urllib.parse.urlsplit(html.unescape(r.group(1))).query)
            if q.get("player") != [player]:
                differ(player, "a line's link is not filtered to the player: %s" % r.group(1))
            rows.append((q.get("after", [""])[0], int(r.group(2)), r.group(3)))
        got[tuple(html.unescape(g) for g in m.group(1, 2, 3))] = rows
    if set(got) != set(want):
        differ(player, "tables for %s, not %s" % (sorted(got), sorted(want)))
    for key, lines in want.items():
        order = sorted(lines.items(), key=lambda kv: (-kv[1][0], kv[0].encode("utf-8")))[:LINES]
        rows = []
        for line, (n, w, d, u) in order:
            score = "%.3f" % ((w + d / nsides[key[:2]]) / (n - u)) if n > u else "-"
            rows.append((line, n, score))
        if got.get(key) != rows:
            differ("%s as %s" % (player, key), "lines %s, not %s" % (got.get(key), rows))
    if not want:
        differ(player, "no games")
print("players %d" % (len(sys.argv) - 4))
sys.exit(1 if failures else 0)
