#!/bin/sh
# The same answers on both backends (issue 13): examples/ and the interop
# archives (examples/interop: PGN, CSV, Abstract Play JSON, zip and tar.xz)
# imported into a SQLite file and into a PostgreSQL database by the same
# commands must give byte-identical output (stdout, exit status, stderr with
# the database's name replaced, and --svg files) for every kifu-stats report
# (summary, openings with --depth, --min-games and --by-position, players,
# lengths, tree from the start and after the most played lines of every game
# and variant) in every format (table, csv, json, --svg), with filters (in
# json) and with --no-cache, for kifu-search (with and without filters, --after and
# --json) and for kifu-export of games by id and by filter. The PostgreSQL
# database sorts text by ICU's English collation, as many real servers do,
# so that an ORDER BY that relies on the server's default collation (rather
# than byte order, as SQLite sorts) shows up. Unfiltered reports are asked
# twice: the first brings the precomputed tables up to date, the second
# reads them.
# tests/run: early (it is long)
# tests/run: plain (byte-equal answers of the two backends hold for any build;
#   the PostgreSQL backend runs under the sanitizers in the other pg-*.sh tests)
set -u
. tests/cli/lib/pg.sh
pg=$(pg_createdb icu "$PG_ICU") || exit 1


python3 - "$bin" "$tmp/ref.db" "$pg" "$tmp" <<'PY'
import json, os, re, subprocess, sys

tools, lite, pg, tmp = sys.argv[1:]
failures = 0
checks = 0


def run(db, args, svg=None):
    argv = [os.path.join(tools, args[0]), "--db", db] + args[1:]
    if svg:
        argv += ["--svg", svg]
    # A bound against a hung tool, not a measure of speed: a loaded machine
    # (load 20 on 2 cores) took over 120 s to import examples/ into PostgreSQL.
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=int(os.environ.get("KIFU_TEST_TIMEOUT", "1800")))
    # Where a tool names the database (kifu-export --to text), the name differs.
    return p.returncode, p.stdout.replace(db.encode(), b"DB"), p.stderr.replace(db.encode(), b"DB")


def same(args, svg=False):
    global failures, checks
    checks += 1
    out = []
    for i, db in enumerate((lite, pg)):
        f = os.path.join(tmp, "out%d.svg" % i) if svg else None
        if f and os.path.exists(f):
            os.remove(f)
        rc, so, se = run(db, args, f)
        pic = open(f, "rb").read() if f and os.path.exists(f) else None
        out.append((rc, so, se, pic))
    (a, b) = out
    what = " ".join(args) + (" --svg" if svg else "")
    for k, name in enumerate(("exit status", "stdout", "stderr", "svg")):
        if a[k] != b[k]:
            failures += 1
            print("pg-equality.sh: FAIL: %s: %s differs" % (what, name))
            if k in (1, 2, 3):
                x, y = (a[k] or b"").decode("utf-8", "replace"), (b[k] or b"").decode("utf-8", "replace")
                xl, yl = x.splitlines(), y.splitlines()
                for n in range(max(len(xl), len(yl))):
                    l1 = xl[n] if n < len(xl) else "<none>"
                    l2 = yl[n] if n < len(yl) else "<none>"
                    if l1 != l2:
                        print("  line %d\n  sqlite:     %s\n  postgresql: %s" % (n + 1, l1[:300], l2[:300]))
                        break
            else:
                print("  sqlite: %r, postgresql: %r" % (a[k], b[k]))
            return None
    if a[0] not in (0, 1):
        failures += 1
        print("pg-equality.sh: FAIL: %s: exit %d on both: %s" % (what, a[0], a[2][:300]))
    return a


# The same imports, in the same order: the same summaries.
for path in ("examples", "examples/interop"):
    same(["kifu-import", "--json", path])
rc, so, _ = run(lite, ["kifu-search", "--json"])
stored = json.loads(so)
if len(stored) < 700:
    print("pg-equality.sh: FAIL: only %d games imported" % len(stored))
    failures += 1

# Games and variants from kifu-play --help (as tests/cli/play.sh reads them).
helptext = subprocess.run([os.path.join(tools, "kifu-play"), "--help"], stdout=subprocess.PIPE).stdout.decode()
games = []
for m in re.finditer(r"^  ([a-z-]+) +sides: [^;]*; variants: (.*)$", helptext, re.M):
    variants = m.group(2).replace(" (default)", "").split()
    for v in variants:
        games.append((m.group(1), v, len(variants) > 1))
if len(games) < 7:
    print("pg-equality.sh: FAIL: kifu-play --help lists %d games and variants" % len(games))
    failures += 1

reports = [["summary"], ["openings"], ["openings", "--depth", "4"], ["openings", "--depth", "8"],
           ["openings", "--min-games", "3"], ["openings", "--depth", "3", "--by-position"],
           ["openings", "--depth", "5", "--by-position", "--min-games", "2"],
           ["players"], ["lengths"]]
players = json.loads(run(lite, ["kifu-stats", "players", "--format", "json"])[1])["rows"]
some = [players[0]["player"], players[len(players) // 2]["player"], players[-1]["player"]]
filters = [[], ["--game", "splinter"], ["--game", "splinter", "--variant", "survival"],
           ["--player", some[0]], ["--player", some[1]], ["--since", "2024"],
           ["--since", "2023-03", "--until", "2024-10-13"], ["--termination", "resignation"],
           ["--event", "Online Blitz Arena"], ["--game", "glaisher", "--player", some[2]]]
formats = ["table", "csv", "json"]

for filt in filters:
    for rep in reports:
        # Every format unfiltered; with a filter, json: a format writes the
        # rows it is given the same whichever backend read them.
        for fmt in (formats if not filt else ["json"]):
            same(["kifu-stats"] + filt + ["--format", fmt] + rep)
        if not filt:
            same(["kifu-stats"] + filt + rep, svg=True)
        if not filt or filt[0] == "--game":
            same(["kifu-stats"] + filt + ["--format", "json"] + rep)  # from the tables now
    for rep in (["summary"], ["openings", "--depth", "3"], ["players"], ["lengths"]):
        same(["kifu-stats", "--no-cache"] + filt + ["--format", "csv"] + rep)
    same(["kifu-search"] + filt)
    same(["kifu-search", "--json"] + filt)

# tree and search --after: from the start and after the most played line of
# 1, 2 and 3 plies of every game and variant.
for game, variant, several in games:
    gv = ["--game", game] + (["--variant", variant] if several else [])
    rows = json.loads(run(lite, ["kifu-stats", "--game", game, "--variant", variant, "--format", "json",
                                 "openings", "--depth", "3"])[1])["rows"]
    afters = [[]]
    for plies in (1, 2, 3):
        lines = [r for r in rows if r["plies"] == plies]
        if lines:
            afters.append(["--after", ",".join(lines[0]["moves"])])
    if len(afters) < 2:
        print("pg-equality.sh: FAIL: no opening lines for %s/%s" % (game, variant))
        failures += 1
    for after in afters:
        for fmt in formats:
            same(["kifu-stats"] + gv + ["--format", fmt, "tree"] + after)
        same(["kifu-stats"] + gv + ["tree", "--min-games", "2"] + after, svg=True)
        if after:
            same(["kifu-search"] + gv + after)
            same(["kifu-search", "--json"] + gv + after)
            same(["kifu-search", "--json", "--since", "2024"] + gv + after)

# Games back out: by id (the same ids on both) and by filter.
ids = sorted(r["id"] for r in stored)
for i in ids[:3] + ids[len(ids) // 2:len(ids) // 2 + 3] + ids[-3:] + [ids[-1] + 1]:
    for fmt in ("yaml", "json", "pgn", "csv", "text"):
        same(["kifu-export", "--id", str(i), "--to", fmt])
for game, variant, several in games:
    same(["kifu-export", "--game", game, "--variant", variant, "--to", "yaml"])
    same(["kifu-export", "--game", game, "--variant", variant, "--to", "json"])

if failures:
    print("pg-equality.sh: %d of %d comparisons differ" % (failures, checks))
    sys.exit(1)
print("pg-equality.sh: ok (%d comparisons, %d games)" % (checks, len(stored)))
PY
