"""Elo and accuracy of a strength ladder's round robin (bench/ladder.sh).

Reads kifu-analyse json reviews of one variant's games (each game's players
`SPEC #k`, its `result` and each side's `accuracy`), counts every game once
between its two SPECs (a pairing seats two SPECs; splinter-quad's four sides
seat them A, B, A, B: the game is won by the SPEC whose side won; a draw is
half each, and so is a game stopped unfinished at kifu-play's ply cap, as
cutechess-cli's -maxmoves adjudicates it) and fits the Elo of
each SPEC by maximum likelihood (Bradley-Terry on the Elo scale: i scores
1 / (1 + 10^((r_j - r_i) / 400)) against j; a draw counts half a win and
half a loss). A player that wins every game would have an infinite
maximum-likelihood Elo, so each pairing also counts PRIOR virtual draws
(default 0.5; it pulls a sweep of N games to a score of (N + PRIOR/2) /
(N + PRIOR)). The fit is Newton's method on the log-likelihood with one
player anchored (random = 0 when it plays, else the first), the 95%
intervals +-1.96 standard deviations from the inverse of its Hessian (the
Fisher information; a difference's from the same covariance). Each player's
accuracy is the mean over its sides in its games of that side's accuracy
(the review's, 0-100). The players are listed by Elo; the accuracy order is
compared with it: Kendall's tau and every pair the two orders swap (two
players of equal Elo have no order to match), with the Elo difference's
interval and whether the two players' intervals overlap.

  python3 bench/ladder.py [--prior P] [--markdown] REVIEW.json ...
  python3 bench/ladder.py --self-test
"""
import json
import math
import sys

import numpy as np

SCALE = math.log(10) / 400  # Elo points to natural logits


def spec_of(name):
    """`mcts:300 #2` -> `mcts:300` (kifu-play's names)."""
    return name.rsplit(' #', 1)[0] if ' #' in name else name


def read_games(paths):
    """(specs, games, accuracy, unfinished): games as (spec a, spec b,
    score of a); accuracy {spec: [values]}; the count of unfinished games."""
    games, acc, specs, unfinished = [], {}, [], 0
    for path in paths:
        data = json.load(open(path))
        for g in data if isinstance(data, list) else [data]:
            side_spec = {s: spec_of(p['name']) for s, p in g['players'].items()}
            for sp in side_spec.values():
                if sp not in specs:
                    specs.append(sp)
                acc.setdefault(sp, [])
            for s, v in (g.get('sides') or {}).items():
                if v.get('accuracy') is not None:
                    acc[side_spec[s]].append(v['accuracy'])
            pair = sorted(set(side_spec.values()))
            if len(pair) != 2:
                raise ValueError('game with %d distinct players: %s' % (len(pair), pair))
            res = g.get('result', 'unfinished')
            unfinished += res == 'unfinished'
            if res in ('draw', 'unfinished'):
                games.append((pair[0], pair[1], 0.5))
            else:
                games.append((pair[0], pair[1], 1.0 if side_spec[res] == pair[0] else 0.0))
    return specs, games, acc, unfinished


def fit(players, games, prior=0.5, anchor=0):
    """Maximum-likelihood Elo of `players` (a list) from `games` (a, b, score
    of a; None skipped) with `prior` virtual draws per pairing that played;
    players[anchor] is 0. Returns (elo list, covariance matrix in Elo^2)."""
    n = len(players)
    idx = {p: i for i, p in enumerate(players)}
    wins = np.zeros((n, n))   # points of i against j
    count = np.zeros((n, n))  # games between i and j
    for a, b, s in games:
        if s is None:
            continue
        i, j = idx[a], idx[b]
        wins[i, j] += s
        wins[j, i] += 1 - s
        count[i, j] += 1
        count[j, i] += 1
    met = count > 0
    wins += met * prior / 2
    count += met * prior
    keep = [k for k in range(n) if k != anchor]
    theta = np.zeros(n)

    def loglik(t):
        d = t[:, None] - t[None, :]
        logp = -np.logaddexp(0, -d)
        return float(np.sum(wins * logp))

    for _ in range(100):
        d = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-d))
        grad = np.sum(wins - count * p, axis=1)
        w = count * p * (1 - p)
        info = np.diag(w.sum(axis=1)) - w
        step = np.linalg.solve(info[np.ix_(keep, keep)], grad[keep])
        base, t = loglik(theta), 1.0
        while True:
            new = theta.copy()
            new[keep] += t * step
            if loglik(new) >= base - 1e-12 or t < 1e-6:
                break
            t /= 2
        theta = new
        if np.max(np.abs(t * step)) < 1e-10:
            break
    d = theta[:, None] - theta[None, :]
    p = 1 / (1 + np.exp(-d))
    w = count * p * (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.zeros((n, n))
    cov[np.ix_(keep, keep)] = np.linalg.inv(info[np.ix_(keep, keep)])
    return list(theta / SCALE), cov / SCALE ** 2


def kendall(xs, ys):
    """Kendall's tau-a of two sequences (ties count as neither)."""
    c = dsc = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            s = (xs[i] - xs[j]) * (ys[i] - ys[j])
            c += s > 0
            dsc += s < 0
    pairs = len(xs) * (len(xs) - 1) / 2
    return (c - dsc) / pairs if pairs else 1.0


def report(paths, prior, markdown, title):
    specs, games, acc, unfinished = read_games(paths)
    anchor = specs.index('random') if 'random' in specs else 0
    elo, cov = fit(specs, games, prior, anchor)
    sd = [math.sqrt(cov[i, i]) for i in range(len(specs))]
    order = sorted(range(len(specs)), key=lambda i: -elo[i])
    mean = lambda v: sum(v) / len(v) if v else float('nan')
    accm = [mean(acc[s]) for s in specs]
    print('%s: %d games (%d unfinished: drawn), anchor %s = 0, %.2g virtual draws per pairing'
          % (title, len(games), unfinished, specs[anchor], prior))
    if markdown:
        print('\n| player | Elo | 95% interval | games | score | accuracy |')
        print('| --- | --- | --- | --- | --- | --- |')
    else:
        print('%-11s %6s %15s %6s %6s %9s' % ('player', 'Elo', '95% interval', 'games',
                                              'score', 'accuracy'))
    for i in order:
        s = specs[i]
        pts = [(sc if a == s else 1 - sc) for a, b, sc in games
               if sc is not None and s in (a, b)]
        lo, hi = elo[i] - 1.96 * sd[i], elo[i] + 1.96 * sd[i]
        iv = '-' if i == anchor else '%.0f to %.0f' % (lo, hi)
        row = (s, '%.0f' % elo[i], iv, '%d' % len(pts), '%.3f' % mean(pts), '%.1f' % accm[i])
        if markdown:
            print('| ' + ' | '.join(row) + ' |')
        else:
            print('%-11s %6s %15s %6s %6s %9s' % row)
    tau = kendall([elo[i] for i in order], [accm[i] for i in order])
    swapped, ties = [], []
    for x in range(len(order)):
        for y in range(x + 1, len(order)):
            i, j = order[x], order[y]  # elo[i] >= elo[j]
            if elo[i] - elo[j] < 0.5:
                ties.append('%s and %s' % (specs[i], specs[j]))
            elif accm[i] <= accm[j]:
                diff = elo[i] - elo[j]
                dsd = math.sqrt(max(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0))
                overlap = (elo[i] - 1.96 * sd[i]) <= (elo[j] + 1.96 * sd[j])
                swapped.append('%s above %s by %.0f Elo (95%% %.0f to %.0f; intervals %s), '
                               'accuracy %.1f vs %.1f'
                               % (specs[i], specs[j], diff, diff - 1.96 * dsd, diff + 1.96 * dsd,
                                  'overlap' if overlap else 'apart', accm[i], accm[j]))
    print('%saccuracy order equals Elo order: %s (Kendall tau %.2f)'
          % ('\n' if markdown else '', 'yes' if not swapped else 'no', tau))
    for s in swapped:
        print('  swapped: ' + s)
    for s in ties:
        print('  Elo equal (no order to match): ' + s)
    return 0


def self_test():
    """The fit on hand-worked examples (fails loudly when it is wrong)."""
    ok = True

    def check(what, got, want, tol):
        nonlocal ok
        good = abs(got - want) <= tol
        ok &= good
        print('%-52s %10.3f want %10.3f %s' % (what, got, want, 'ok' if good else 'FAIL'))

    # A beats B 3 of 4: score 0.75, difference 400 log10(3); its variance
    # 1 / (n p (1 - p)) logits^2, so sd = sqrt(1 / (4 * 0.1875)) / SCALE.
    g = [('A', 'B', 1.0)] * 3 + [('A', 'B', 0.0)]
    elo, cov = fit(['B', 'A'], g, prior=0)
    check('3-1: Elo of A over B', elo[1], 400 * math.log10(3), 1e-6)
    check('3-1: sd of the difference', math.sqrt(cov[1, 1]), math.sqrt(1 / 0.75) / SCALE, 1e-6)
    # draws count half: 1 win, 2 draws, 1 loss is even
    g = [('A', 'B', 1.0), ('A', 'B', 0.5), ('A', 'B', 0.5), ('A', 'B', 0.0)]
    check('1-2-1: Elo of A over B', fit(['B', 'A'], g, prior=0)[0][1], 0.0, 1e-6)
    # a 4-0 sweep with one virtual draw: 4.5 of 5, 400 log10(9)
    g = [('A', 'B', 1.0)] * 4
    check('4-0 with one virtual draw', fit(['B', 'A'], g, prior=1)[0][1], 400 * math.log10(9), 1e-6)
    # a chain A > B > C, each 3-1, C never meeting A: the likelihood
    # factorises, so A is 2 * 400 log10(3) over C; B sits halfway
    g = [('A', 'B', 1.0)] * 3 + [('A', 'B', 0.0)] + [('B', 'C', 1.0)] * 3 + [('B', 'C', 0.0)]
    elo, _ = fit(['C', 'B', 'A'], g, prior=0)
    check('chain: A over C', elo[2], 800 * math.log10(3), 1e-6)
    check('chain: B over C', elo[1], 400 * math.log10(3), 1e-6)
    # three players all even in a cycle: every Elo 0
    g = [('A', 'B', 1.0), ('B', 'C', 1.0), ('C', 'A', 1.0)] * 2
    elo, _ = fit(['A', 'B', 'C'], g, prior=0)
    check('cycle: B', elo[1], 0.0, 1e-6)
    check('cycle: C', elo[2], 0.0, 1e-6)
    check('kendall: same order', kendall([3, 2, 1], [9, 5, 1]), 1.0, 1e-12)
    check('kendall: one swap of three', kendall([3, 2, 1], [5, 9, 1]), 1 / 3, 1e-12)
    print('self-test: ' + ('ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main(argv):
    prior, markdown, title, paths = 0.5, False, None, []
    it = iter(argv)
    for a in it:
        if a == '--self-test':
            return self_test()
        elif a == '--prior':
            prior = float(next(it))
        elif a == '--markdown':
            markdown = True
        elif a == '--title':
            title = next(it)
        else:
            paths.append(a)
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    return report(paths, prior, markdown, title or ' '.join(paths))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
