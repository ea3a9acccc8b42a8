"""kifu-serve's explorer: the move orders by which the games reached a position.

usage: serve_orders.py BIN DB URL GAME VARIANT AFTER [symmetric]

From the tools alone: the games kifu-search finds at the position (newest
first, with the ply each reached it at; the first 200 of them, as the page
reads), each game's moves up to that ply (kifu-export --to json), counted
per order, most played first (then by the moves' bytes). The page's
#orders table must list the first 8 of them with their games, the order of
the address marked (no link) and the others linked to their own path; its
note must say how many games were read (and of how many, when it read
fewer than reached it). Prints one line per difference; exits 1 if any.
"""
import html
import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request

BIN, DB, URL, GAME, VARIANT, AFTER = sys.argv[1:7]
URL = URL.rstrip("/")
SYMMETRIC = sys.argv[7:] == ["symmetric"]
SAMPLE, SHOWN = 200, 8
failures = 0


def tool(argv):
    return json.loads(subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:],
                                     capture_output=True, check=True).stdout)


def differ(detail):
    global failures
    failures += 1
    print("DIFF %s %s after %s%s: %s" % (GAME, VARIANT, AFTER, " (symmetric)" if SYMMETRIC else "",
                                         detail))


hits = tool(["kifu-search", "--game", GAME, "--variant", VARIANT, "--after", AFTER, "--json"] +
            (["--symmetric"] if SYMMETRIC else []))
counts = {}
for h in hits[:SAMPLE]:
    moves = [m["move"] for m in tool(["kifu-export", "--id", str(h["id"]), "--to", "json"])["moves"]]
    order = ",".join(moves[:h["ply"]])
    counts[order] = counts.get(order, 0) + 1
want = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode("utf-8")))[:SHOWN]

q = {"after": AFTER}
if SYMMETRIC:
    q["symmetric"] = "1"
page = urllib.request.urlopen("%s/explore/%s/%s?%s" % (URL, GAME, VARIANT, urllib.parse.urlencode(q)),
                              timeout=60).read().decode("utf-8")
m = re.search(r'<table id="orders">(.*?)</table>', page, re.S)
if not m:
    differ("no #orders table")
    sys.exit(1)
got, here = [], []
for r in re.finditer(r'<tr data-moves="([^"]*)"><td class="text move">(.*?)</td><td>(\d+)</td></tr>',
                     m.group(1), re.S):
    moves = html.unescape(r.group(1))
    got.append((moves, int(r.group(3))))
    link = re.match(r'<a href="([^"]*)">', r.group(2))
    if link:
        lq = urllib.parse.parse_qs(urllib.parse.urlsplit(html.unescape(link.group(1))).query)
        if lq.get("after") != [moves] or (lq.get("symmetric") == ["1"]) != SYMMETRIC:
            differ("order %s links to %s" % (moves, link.group(1)))
    elif r.group(2).startswith('<span class="here">'):
        here.append(moves)
    else:
        differ("order %s is neither a link nor marked" % moves)
if got != want:
    differ("orders %s, not %s" % (got, want))
if AFTER in counts and here != [AFTER]:
    differ("the address's order marked: %s" % here)
note = re.search(r'id="orders-note">([^<]*)<', page).group(1)
read = min(len(hits), SAMPLE)
expect = ("How the newest %d of the %d games" % (read, len(hits)) if len(hits) > SAMPLE
          else "How the %d game%s" % (read, "" if read == 1 else "s"))
if not note.startswith(expect):
    differ("note %r, not %r..." % (note, expect))
print("orders %d" % len(got))
sys.exit(1 if failures else 0)
