"""Whether the review's losses add up (issue 40), from bench/review-rows' rows.

Per variant, over the reviewed games:
  - drop - loss per ply: drop = the mover's value before its move minus its
    value after it (the next ply's value[] for that side: for two sides
    1 - the next mover's expected; after the last ply the result), loss the
    review's; its mean should be 0 (issue: within +-0.01). The last ply of
    an unfinished game has no value after it and is left out;
  - per finished two-sided game, the difference of the two sides' summed
    losses against what the start and the result say it should be,
    expected_A(start) - result_A: the mean of |difference - that| (issue:
    within 0.15) and its mean with sign;
  - the mean loss per move over the games, with a 95% bootstrap interval
    over games (2,000 resamples, seeded);
  - the review's CPU seconds per 60 plies.

    python3 bench/review-sums.py [--odd] [--remap OLD NEW] ROWS...

--odd: the odd games alone (1st, 3rd, ... in file order: those calibrate.py
holds out). --remap OLD NEW: the rows were made by a build whose lib/engine/calibrate.c
held the table in the file OLD (its lines), and are given with the table in
the file NEW instead (bench/calibrate.py's lines; a variant missing from one
of them: no map), as if reviewed by a build holding NEW.
"""
import random
import sys

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import rows  # noqa: E402


def drops(g):
    """(drop - loss) of each ply that has a value after it."""
    pl = g['plies']
    out = []
    for i, p in enumerate(pl):
        s = p['side']
        if i + 1 < len(pl):
            after = pl[i + 1]['v'][s]
        elif rows.finished(g):
            after = p['r'][s]
        else:
            continue
        out.append(p['v'][s] - after - p['loss'])
    return out


def game_gap(g):
    """(L_A - L_B) - (expected_A(start) - result_A) of a finished two-sided game, or None."""
    pl = g['plies']
    if pl[0]['nsides'] != 2 or not rows.finished(g):
        return None
    la = sum(p['loss'] for p in pl if p['side'] == 0)
    lb = sum(p['loss'] for p in pl if p['side'] == 1)
    return (la - lb) - (pl[0]['v'][0] - pl[0]['r'][0])


def bootstrap(per_game, rng, n=2000):
    """Mean loss per move over games (sum / count) and its 95% interval."""
    def stat(sample):
        s = sum(a for a, _ in sample)
        c = sum(b for _, b in sample)
        return s / c if c else float('nan')
    m = stat(per_game)
    xs = sorted(stat([rng.choice(per_game) for _ in per_game]) for _ in range(n))
    return m, xs[int(0.025 * n)], xs[int(0.975 * n) - 1]


def table(path):
    """{variant name: (a, b)} from lines of lib/engine/calibrate.c's table."""
    out = {}
    for line in open(path):
        t = line.replace('{', ' ').replace('}', ' ').replace(',', ' ').replace('"', ' ').split()
        if len(t) >= 4 and t[0] != 'NULL':
            name = t[0] + '-' + t[1]
            out[name] = (float(t[2]), float(t[3]))
    return out


def main():
    args = sys.argv[1:]
    old = new = None
    odd = args[:1] == ['--odd']
    if odd:
        args = args[1:]
    if args[:1] == ['--remap']:
        old, new = table(args[1]), table(args[2])
        args = args[3:]
    games = rows.read(args)
    rng = random.Random(40)
    print('%-34s %5s %6s %9s %9s %9s %8s  %s' % ('variant', 'games', 'plies', 'drop-loss',
          '|game gap|', 'game gap', 'cpu/60', 'mean loss per move [95%]'))
    for name in sorted(games):
        gs = games[name][1::2] if odd else games[name]
        if old is not None:
            base = name.rsplit('/', 1)[-1]
            oa, ob = old.get(base, (1.0, 0.0))
            na, nb = new.get(base, (1.0, 0.0))
            gs = [rows.remap_tree(g, rows.platt_inverse(oa, ob), rows.platt_map(na, nb))
                  for g in gs]
        dl = [x for g in gs for x in drops(g)]
        gaps = [x for x in (game_gap(g) for g in gs) if x is not None]
        per_game = [(sum(p['loss'] for p in g['plies']), len(g['plies'])) for g in gs]
        cpu = sum(g['cpu'] for g in gs if g['cpu'] is not None)
        plies = sum(len(g['plies']) for g in gs if g['cpu'] is not None)
        m, lo, hi = bootstrap(per_game, rng)
        print('%-34s %5d %6d %9.4f %9s %9s %8s  %.4f [%.4f, %.4f]' % (
            name, len(gs), len(dl), sum(dl) / len(dl) if dl else float('nan'),
            '%.3f' % (sum(abs(x) for x in gaps) / len(gaps)) if gaps else '-',
            '%.3f' % (sum(gaps) / len(gaps)) if gaps else '-',
            '%.2f' % (60 * cpu / plies) if plies else '-', m, lo, hi))


main()
