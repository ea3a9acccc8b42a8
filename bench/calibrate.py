"""The review's calibration (bench/calibrate.sh): Platt's map per variant.

Reads bench/review-rows' rows of engine self-play games and sets each ply's
raw value (the mover's value before the calibration map) against the
mover's final score in its game (1 won, 0 lost, a draw's share); unfinished
games are left out. Games alternate, in the order of their files, between
fitting (even) and holding out (odd): the split is by game, not by
position. Platt's map, score = 1 / (1 + exp(-(a * logit(raw) + b))), is
fitted on the even games by Newton's method on the log-loss, each game's
positions weighing 1 in all (they share one result). On the odd games:
the expected calibration error (positions in 10 bins of equal width by the
value, sum over bins of the bin's share times |mean score - mean value|),
raw and mapped, and the log-loss. Then the map fitted on every game, as
the lines of lib/engine/calibrate.c's table.

    python3 bench/calibrate.py ROWS...    (files or directories of .tsv)
"""
import math
import sys

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import rows  # noqa: E402

BINS = 10


def positions(games):
    """(raw, score, weight) of every ply of every finished game."""
    out = []
    for g in games:
        if not rows.finished(g):
            continue
        w = 1.0 / len(g['plies'])
        for p in g['plies']:
            out.append((p['raw'], p['r'][p['side']], w))
    return out


def platt(pts):
    """a, b of the logistic on logit(raw) that minimise the weighted log-loss (Newton)."""
    a, b = 1.0, 0.0
    zs = [(rows.logit(x), y, w) for x, y, w in pts if 0 < x < 1]
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for z, y, w in zs:
            p = 1 / (1 + math.exp(-(a * z + b)))
            h = w * p * (1 - p)
            ga += w * (p - y) * z
            gb += w * (p - y)
            haa += h * z * z
            hab += h * z
            hbb += h
        det = haa * hbb - hab * hab
        if det <= 1e-15:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-12:
            break
    return a, b


def ece(pred, ys):
    bins = [[0, 0.0, 0.0] for _ in range(BINS)]
    for p, y in zip(pred, ys):
        k = min(int(p * BINS), BINS - 1)
        bins[k][0] += 1
        bins[k][1] += p
        bins[k][2] += y
    n = len(pred)
    return sum(c / n * abs(sp / c - sy / c) for c, sp, sy in bins if c)


def logloss(pred, ys):
    e = 1e-6
    return -sum(y * math.log(min(max(p, e), 1 - e)) + (1 - y) * math.log(min(max(1 - p, e), 1 - e))
                for p, y in zip(pred, ys)) / len(ys)


GAME = {
    'splay-schmidt-standard': ('splay-schmidt', 'standard'),
    'splay-kisenwether-standard': ('splay-kisenwether', 'standard'),
    'splinter-knockout': ('splinter', 'knockout'),
    'splinter-survival': ('splinter', 'survival'),
    'splinter-quad-standard': ('splinter-quad', 'standard'),
    'glaisher-standard': ('glaisher', 'standard'),
    'glaisher-advanced': ('glaisher', 'advanced'),
}


def main():
    games = rows.read(sys.argv[1:])
    print('%-27s %6s %6s %7s %7s %7s %7s %7s  %s' % ('variant', 'games', 'held', 'plies',
          'ece raw', 'ece map', 'll raw', 'll map', 'a, b (even games)'))
    table = []
    for name in sorted(games):
        gs = [g for g in games[name] if rows.finished(g)]
        fit = positions(gs[0::2])
        held = positions(gs[1::2])
        if not fit or not held:
            print('%-27s too few finished games' % name)
            continue
        a, b = platt(fit)
        f = rows.platt_map(a, b)
        hx = [x for x, _, _ in held]
        hy = [y for _, y, _ in held]
        print('%-27s %6d %6d %7d %7.4f %7.4f %7.4f %7.4f  %.4f, %.4f' % (
            name, len(gs), len(gs[1::2]), len(held), ece(hx, hy), ece([f(x) for x in hx], hy),
            logloss(hx, hy), logloss([f(x) for x in hx], hy), a, b))
        a, b = platt(positions(gs))
        if name in GAME:
            table.append('\t{ "%s", "%s", %.4f, %.4f }, /* %d games */' % (
                GAME[name][0], GAME[name][1], a, b, len(gs)))
    print('\nlib/engine/calibrate.c, fitted on every game:')
    print('\n'.join(table))


if __name__ == "__main__":
    main()
