"""Dated games for comparing one game's novelty with the novelties report.

Reads kifu-play's YAML streams (the files given) and writes to stdout each
game with a date, and games made from them: the same moves on other days
(a later copy knows every move), their first plies alone (prefixes, which
end at a position other games go on from), on the same day as another, with
partial dates ('2019', '2019-05') and without a date. Player names differ
per record so that none is a duplicate. Seeded: the same input, the same
output.
"""
import random
import sys

DATES = ["2019", "2019-05", "2019-05-01", "2019-05-20", "2020-01-01", "2020-01-01",
         "2020-03", "2021-07-08", "2022", "2022-12-31", None]


def games(path):
    """(game, variant, moves) of each record of one kifu-play stream."""
    out, cur, in_moves = [], None, False
    for line in open(path):
        line = line.rstrip("\n")
        if line == "---":
            cur = {"moves": []}
            out.append(cur)
            in_moves = False
        elif line.startswith("moves:"):
            in_moves = True
        elif in_moves and line.startswith("  - "):
            cur["moves"].append(line[4:].strip().strip("'"))
        else:
            in_moves = False
            if line.split(": ")[0] in ("game", "variant", "first", "result", "termination"):
                k, v = line.split(": ", 1)
                cur[k] = v
            elif line.startswith("  ") and ": " in line and "side" not in cur:
                cur["side"] = line.strip().split(":")[0]
    return out


def record(n, g, moves, date):
    whole = len(moves) == len(g["moves"])
    print("---\nformat: 1\ngame: %s\nvariant: %s" % (g["game"], g["variant"]))
    if "first" in g:
        print("first: %s" % g["first"])
    if date:
        print("date: '%s'" % date)
    print("players: {%s: P%da}" % (g["side"], n))
    print("moves: [%s]" % ", ".join("'%s'" % m for m in moves))
    print("result: %s" % (g.get("result", "unfinished") if whole else "unfinished"))
    if whole and "termination" in g:
        print("termination: %s" % g["termination"])


def main():
    rnd = random.Random(23)
    n = 0
    for path in sys.argv[1:]:
        for g in games(path):
            moves = g["moves"]
            if not moves:
                continue
            for _ in range(3):
                n += 1
                record(n, g, moves, rnd.choice(DATES))
            for _ in range(3):
                n += 1
                record(n, g, moves[:rnd.randint(1, len(moves))], rnd.choice(DATES))


main()
