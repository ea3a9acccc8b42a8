"""Calibration of the review's expected scores (bench/calibrate.sh).

Reads kifu-analyse json reviews of finished games, one file per variant, and
sets each ply's `expected` (the mover's value before its move) against the
mover's final score in its game (1 won, 0 lost, 1/sides each for a draw).
Games alternate between fitting (even) and holding out (odd). Two maps from
expected to score are fitted on the even games:
  - Platt: score = 1 / (1 + exp(-(a * logit(expected) + b))), by Newton's
    method on the log-loss (two parameters: a plain loop, no library);
  - isotonic: the non-decreasing step function of least squares (pool
    adjacent violators), read between its steps by the nearest one below.
The calibration error on the held-out games: positions in 10 bins of equal
width by the (mapped) expected score, sum over bins of the bin's share times
|mean score - mean expected|.
"""
import json
import math
import sys

BINS = 10


def positions(path):
    """(game index, expected, score) of every ply of every finished game."""
    out = []
    for gi, g in enumerate(json.load(open(path))):
        sides = list(g['sides']) if 'sides' in g else list(g['players'])
        res = g.get('result')
        if res is None or res == 'unfinished':
            continue
        for p in g['plies']:
            if res == 'draw':
                score = 1.0 / len(sides)
            else:
                score = 1.0 if p['side'] == res else 0.0
            out.append((gi, p['expected'], score))
    return out


def logit(x):
    x = min(max(x, 1e-4), 1 - 1e-4)
    return math.log(x / (1 - x))


def platt(xs, ys):
    """a, b of the logistic on logit(x) that minimise the log-loss (Newton)."""
    a, b = 1.0, 0.0
    zs = [logit(x) for x in xs]
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for z, y in zip(zs, ys):
            p = 1 / (1 + math.exp(-(a * z + b)))
            w = p * (1 - p)
            ga += (p - y) * z
            gb += p - y
            haa += w * z * z
            hab += w * z
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def isotonic(xs, ys):
    """The steps (x, value) of the least-squares non-decreasing fit (PAV)."""
    pts = sorted(zip(xs, ys))
    blocks = []  # [sum y, count, first x]
    for x, y in pts:
        blocks.append([y, 1, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            s, n, _ = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    return [(b[2], b[0] / b[1]) for b in blocks]


def iso_map(steps, x):
    lo, hi = 0, len(steps) - 1
    if x < steps[0][0]:
        return steps[0][1]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if steps[mid][0] <= x:
            lo = mid
        else:
            hi = mid - 1
    return steps[lo][1]


def ece(pred, ys):
    bins = [[0, 0.0, 0.0] for _ in range(BINS)]
    for p, y in zip(pred, ys):
        k = min(int(p * BINS), BINS - 1)
        bins[k][0] += 1
        bins[k][1] += p
        bins[k][2] += y
    n = len(pred)
    return sum(c / n * abs(sp / c - sy / c) for c, sp, sy in bins if c)


def main():
    print('%-27s %6s %6s %8s %8s %8s %8s  %s' % ('variant', 'fit', 'held', 'raw',
          'platt', 'isotonic', 'spread', 'platt a, b'))
    for path in sys.argv[1:]:
        name = path.rsplit('/', 1)[-1].rsplit('.', 1)[0]
        pos = positions(path)
        fit = [(x, y) for g, x, y in pos if g % 2 == 0]
        held = [(x, y) for g, x, y in pos if g % 2 == 1]
        if not fit or not held:
            print('%-27s too few finished games' % name)
            continue
        a, b = platt([x for x, _ in fit], [y for _, y in fit])
        steps = isotonic([x for x, _ in fit], [y for _, y in fit])
        hx = [x for x, _ in held]
        hy = [y for _, y in held]
        raw = ece(hx, hy)
        pl = ece([1 / (1 + math.exp(-(a * logit(x) + b))) for x in hx], hy)
        iso = ece([iso_map(steps, x) for x in hx], hy)
        # how far the expected scores spread: their standard deviation
        m = sum(hx) / len(hx)
        spread = math.sqrt(sum((x - m) ** 2 for x in hx) / len(hx))
        print('%-27s %6d %6d %8.4f %8.4f %8.4f %8.4f  %.3f, %.3f' % (name, len(fit), len(held),
              raw, pl, iso, spread, a, b))


main()
