"""The review's calibration (bench/calibrate.sh): Platt's map per variant.

Reads bench/review-rows' rows of engine self-play games and sets each ply's
raw value (the mover's value before the calibration map: the mean of the
iterations forced through the engine's choice) against the mover's final
score in its game (1 won, 0 lost, a draw's share); unfinished games are
left out. Games alternate, in the order of their files, between fitting
(even) and holding out (odd): the split is by game, not by position.

The map, score = 1 / (1 + exp(-(a * logit(raw) + b))), a in [A_MIN, A_MAX]:
  - a by Newton's method on the log-loss of the outcomes, each game's
    positions weighing 1 in all (they share one result);
  - b so that the scale is one: with --tree OLD ROWS... (default reviews of
    self-play games by a build holding the table in file OLD), so that over
    those games the mover's drop across its move less the loss charged is 0
    on average; else so that the engine's own moves lose nothing on average
    (the mover's value before and the next mover's after sum to 1); with
    --free, by the log-loss too (the plain Platt fit, for comparison).
On the odd games: the expected calibration error (positions in 10 bins of
equal width by the value, sum over bins of the bin's share times |mean
score - mean value|), raw and mapped, and the log-loss. Then the map fitted
on every game, as the lines of lib/engine/calibrate.c's table.

    python3 bench/calibrate.py [--free] ROWS... [--tree OLD ROWS...]
"""
import math
import sys

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import rows  # noqa: E402

BINS = 10
# The flattest map allowed (a slope below this would throw away the order the
# search found) and the steepest (a few games' noise can ask for more).
A_MIN = 0.5
A_MAX = 2.5


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


def pairs(games):
    """(raw before, raw after) of each ply where the engine's own move was played, both open."""
    out = []
    for g in games:
        pl = g['plies']
        for i in range(len(pl) - 1):
            x, y = pl[i]['raw'], pl[i + 1]['raw']
            if pl[i]['own'] and pl[i]['nsides'] == 2 and 0 < x < 1 and 0 < y < 1:
                out.append((x, y))
    return out


def consistent(pts, prs):
    """Platt's map with b set so that the engine's own moves lose nothing on average
    (mean f(before) + f(after) = 1 over pairs: one scale), a by the log-loss given b."""
    a, b = platt(pts)
    if not prs:
        return min(max(a, A_MIN), A_MAX), b
    zs = [(rows.logit(x), y, w) for x, y, w in pts if 0 < x < 1]
    for _ in range(30):
        lo, hi = -3.0, 3.0
        for _ in range(60):
            mid = (lo + hi) / 2
            f = rows.platt_map(a, mid)
            if sum(f(x) + f(y) - 1 for x, y in prs) > 0:
                hi = mid
            else:
                lo = mid
        b = (lo + hi) / 2
        g = h = 0.0
        for z, y, w in zs:
            p = 1 / (1 + math.exp(-(a * z + b)))
            g += w * (p - y) * z
            h += w * p * (1 - p) * z * z
        if h <= 1e-15:
            break
        a = min(max(a - g / h, A_MIN), A_MAX)
    return a, b


def tree_drop(games, inv, a, b):
    """Mean drop - loss over the plies of tree reviews (made with the map whose
    inverse is inv) once mapped by Platt's (a, b) (bench/review-sums.py's measure)."""
    f = rows.platt_map(a, b)
    tot = n = 0
    for g in games:
        pl = rows.remap_tree(g, inv, f)['plies']
        for i, p in enumerate(pl):
            s = p['side']
            if i + 1 < len(pl):
                after = pl[i + 1]['v'][s]
            elif rows.finished(g):
                after = p['r'][s]
            else:
                continue
            tot += p['v'][s] - after - p['loss']
            n += 1
    return tot / n if n else 0.0


def adding_up(pts, tree, inv):
    """Platt's map with b set so that, over the tree reviews `tree`, the mover's
    drop across its move less the loss charged is 0 on average (the losses
    add up), a by the log-loss of the outcomes given b."""
    a, b = platt(pts)
    a = min(max(a, A_MIN), A_MAX)
    zs = [(rows.logit(x), y, w) for x, y, w in pts if 0 < x < 1]
    for _ in range(8):
        lo, hi = -2.0, 2.0
        for _ in range(25):
            mid = (lo + hi) / 2
            if tree_drop(tree, inv, a, mid) > 0:
                hi = mid
            else:
                lo = mid
        b = (lo + hi) / 2
        g = h = 0.0
        for z, y, w in zs:
            p = 1 / (1 + math.exp(-(a * z + b)))
            g += w * (p - y) * z
            h += w * p * (1 - p) * z * z
        if h <= 1e-15:
            break
        a = min(max(a - g / h, A_MIN), A_MAX)
    return a, b


def table_of(path):
    """{NAME: (a, b)} from lines of lib/engine/calibrate.c's table."""
    back = {v: k for k, v in GAME.items()}
    out = {}
    for line in open(path):
        t = line.replace('{', ' ').replace('}', ' ').replace(',', ' ').replace('"', ' ').split()
        if len(t) >= 4 and (t[0], t[1]) in back:
            out[back[(t[0], t[1])]] = (float(t[2]), float(t[3]))
    return out


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


# The variants given a map (splinter-quad's shares are left raw: a map of the
# mover's share alone would move it against the other sides' shares).
GAME = {
    'splay-schmidt-standard': ('splay-schmidt', 'standard'),
    'splay-kisenwether-standard': ('splay-kisenwether', 'standard'),
    'splinter-knockout': ('splinter', 'knockout'),
    'splinter-survival': ('splinter', 'survival'),
    'glaisher-standard': ('glaisher', 'standard'),
    'glaisher-advanced': ('glaisher', 'advanced'),
}


def fitter(pts, prs):
    return consistent(pts, prs) if CONSISTENT else platt(pts)


CONSISTENT = True


def main():
    global CONSISTENT
    args = sys.argv[1:]
    if '--free' in args:
        CONSISTENT = False
        args.remove('--free')
    tree, inv_of = {}, {}
    if '--tree' in args:
        k = args.index('--tree')
        old = table_of(args[k + 1])
        tree = rows.read(args[k + 2:])
        args = args[:k]
        inv_of = {n: rows.platt_inverse(*old.get(n, (1.0, 0.0))) for n in GAME}
    games = rows.read(args)
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
        base = name.rsplit('/', 1)[-1]
        tr = [g for k, v in tree.items() if k.rsplit('/', 1)[-1] == base for g in v]
        inv = inv_of.get(base, rows.platt_inverse(1.0, 0.0))
        if tr and CONSISTENT:
            a, b = adding_up(fit, tr[0::2], inv)
        else:
            a, b = fitter(fit, pairs(gs[0::2]))
        f = rows.platt_map(a, b)
        hx = [x for x, _, _ in held]
        hy = [y for _, y, _ in held]
        print('%-27s %6d %6d %7d %7.4f %7.4f %7.4f %7.4f  %.4f, %.4f' % (
            name, len(gs), len(gs[1::2]), len(held), ece(hx, hy), ece([f(x) for x in hx], hy),
            logloss(hx, hy), logloss([f(x) for x in hx], hy), a, b))
        if tr and CONSISTENT:
            a, b = adding_up(positions(gs), tr, inv)
            how = '%d reviewed' % len(tr)
        else:
            a, b = fitter(positions(gs), pairs(gs))
            how = 'own moves' if CONSISTENT else 'free'
        base = name.rsplit('/', 1)[-1]
        if base in GAME:
            table.append('\t{ "%s", "%s", %.4f, %.4f }, /* %d games; b: %s */' % (
                GAME[base][0], GAME[base][1], a, b, len(gs), how))
    print('\nlib/engine/calibrate.c, fitted on every game:')
    print('\n'.join(table))


if __name__ == "__main__":
    main()
