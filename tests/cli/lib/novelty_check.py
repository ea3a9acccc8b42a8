"""One game's novelty equals the novelties report's row for it.

Arguments: the tools' directory, the database, a scratch directory, then
GAME:VARIANT pairs (VARIANT may be empty). For each, the report (json)
against kifu-export's json (novelty_ply) and replay page (the N mark and
its tooltip: the move and the earlier games) of every stored game of that
game and variant: a listed game has the report's ply, move and earlier;
any other (no date) has novelty_ply null and no mark. Prints what differs
and exits 1; prints the number of games compared otherwise.
"""
import html
import json
import os
import re
import subprocess
import sys

MARK = re.compile(r'<li><button data-ply="(\d+)">(?:(?!</li>).)*?<span class="nov" '
                  r'title="novelty: no earlier game played (.*?) here; (\d+) earlier games? '
                  r'reached this position">N</span>')


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    bin_, db, tmp = sys.argv[1:4]
    bad, compared = 0, 0
    for spec in sys.argv[4:]:
        game, variant = spec.split(":")
        sel = ["--game", game] + (["--variant", variant] if variant else [])
        rows = json.loads(run(os.path.join(bin_, "kifu-stats"), "--db", db, "novelties",
                              "--format", "json", *sel))["rows"]
        want = {r["id"]: r for r in rows}
        d = os.path.join(tmp, "nov-" + game + "-" + variant)
        for kind in ("json", "html"):
            run(os.path.join(bin_, "kifu-export"), "--db", db, *sel, "--to", kind,
                "-o", d + "-" + kind + "/")
        names = sorted(os.listdir(d + "-json"))
        if not names:
            print("%s: no game exported" % spec)
            bad += 1
        for name in names:
            gid = int(re.search(r"(\d+)", name).group(1))
            got = json.load(open(os.path.join(d + "-json", name)))
            page = open(os.path.join(d + "-html", name[:-5] + ".html")).read()
            marks = MARK.findall(page)
            if page.count('<span class="nov"') != len(marks):
                print("game %d: a mark the pattern does not read" % gid)
                bad += 1
            r = want.get(gid)
            if r is None or r["ply"] is None:
                ok = got.get("novelty_ply", "absent") is None and not marks
            else:
                ok = (got.get("novelty_ply") == r["ply"] and
                      marks == [(str(r["ply"]), html.escape(r["move"]), str(r["earlier"]))])
            if not ok:
                print("game %d: report %s, json %s, page %s" %
                      (gid, r, got.get("novelty_ply", "absent"), marks))
                bad += 1
            compared += 1
    if bad:
        sys.exit(1)
    print(compared)


main()
