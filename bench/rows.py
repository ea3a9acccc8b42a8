"""Reading bench/review-rows' rows (shared by calibrate.py and review-sums.py)."""
import math
import os
import sys


def read(paths):
    """{KIND/NAME: [games]}, each game a dict: key, plies (dicts), cpu.

    A path is a .tsv file or a directory of them; KIND/NAME are the
    directories the games' records were in (bench/selfplay's
    DIR/KIND/NAME/K/: calib/splinter-knockout).
    """
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith('.tsv'))
        else:
            files.append(p)
    games = {}
    for f in files:
        cur = {}
        for line in open(f):
            t = line.rstrip('\n').split('\t')
            if t[0] == '#cpu':
                g = cur.get((t[1], t[2]))
                if g:
                    g['cpu'] = float(t[4])
                continue
            key = (t[0], t[1])
            if key not in cur:
                parts = t[0].split('/')
                # KIND/NAME of bench/selfplay's DIR/KIND/NAME/K/FILE
                name = '/'.join(parts[-4:-2]) if len(parts) >= 4 else parts[-1]
                cur[key] = {'key': key, 'variant': name, 'plies': [], 'cpu': None}
                games.setdefault(name, []).append(cur[key])
            n = int(t[4])
            cur[key]['plies'].append({
                'ply': int(t[2]), 'side': int(t[3]), 'nsides': n, 'player': t[5],
                'raw': float(t[6]), 'expected': float(t[7]), 'best': float(t[8]),
                'played': float(t[9]), 'loss': float(t[10]), 'mark': int(t[11]),
                'v': [float(x) for x in t[12:12 + n]],
                'r': [float(x) for x in t[16:16 + n]],
                'own': t[20] == '1',
            })
    return games


def finished(g):
    return not math.isnan(g['plies'][0]['r'][0])


def logit(x):
    x = min(max(x, 1e-4), 1 - 1e-4)
    return math.log(x / (1 - x))


def platt_map(a, b):
    def f(x):
        if x <= 0 or x >= 1:
            return 0.0 if x <= 0 else 1.0
        return 1 / (1 + math.exp(-(a * logit(x) + b)))
    return f


def platt_inverse(a, b):
    """The raw value that Platt's map (a, b) sends to y."""
    def f(y):
        if y <= 0 or y >= 1:
            return 0.0 if y <= 0 else 1.0
        return 1 / (1 + math.exp(-((logit(y) - b) / a)))
    return f


def remap_tree(g, old_inv, f):
    """The game's plies of a tree review (lib/engine/analyse.c's default)
    made with one map (old_inv its inverse) on another map f: both moves'
    scores mapped again, the position worth the better, loss the played
    move's distance below it, the other sides sharing the rest as before."""
    out = []
    for p in g['plies']:
        q = dict(p)
        s = p['side']
        q['best'] = f(old_inv(p['best']))
        q['played'] = q['best'] if p['own'] else f(old_inv(p['played']))
        q['expected'] = max(q['best'], q['played'])
        q['loss'] = q['expected'] - q['played']
        rest = 1 - p['v'][s]
        q['v'] = [q['expected'] if k == s else
                  (p['v'][k] * (1 - q['expected']) / rest if rest > 0 else
                   (1 - q['expected']) / (p['nsides'] - 1)) for k in range(p['nsides'])]
        out.append(q)
    return dict(g, plies=out)


if __name__ == '__main__':
    for name, gs in read(sys.argv[1:]).items():
        print(name, len(gs))
