#!/usr/bin/env python3
"""Makes examples/format2/annotated.yaml: games played by kifu-play, annotated
the way a player or an engine would (format 2 of RECORDS.md): legal
alternative lines at a few moves (some nested two and three deep, with
comments and nags), nags on some moves, and engine figures (eval) whose best
move is legal where it stands. Every move of a line is taken from kifu-perft's
legal moves in the position it is played from, so the file validates.

    python3 examples/format2/make-annotated.py BIN_DIR >examples/format2/annotated.yaml

The output is deterministic (fixed seeds); it is written as JSON documents
(valid YAML) and put in canonical form by kifu-export --to yaml.
"""
import json
import random
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "bin"
GAMES = [("splay-schmidt", None), ("splay-kisenwether", None), ("splinter", "knockout"),
         ("splinter", "survival"), ("splinter-quad", None), ("glaisher", "standard"),
         ("glaisher", "advanced")]
PER_GAME = 10
NAGS = ["!", "?", "!!", "??", "!?", "?!"]
COMMENTS = ["the main alternative", "also possible", "worth a look", "sharper",
            "the engine's idea", "simpler", "keeps the balance", "loses time"]

_legal_cache = {}


def legal(game, variant, moves):
    key = (game, variant, tuple(moves))
    if key not in _legal_cache:
        cmd = [BIN + "/kifu-perft", game]
        if variant:
            cmd += ["--variant", variant]
        if moves:
            cmd += ["--after", ",".join(moves)]
        cmd += ["--divide", "1"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        _legal_cache[key] = [l.rsplit(": ", 1)[0] for l in out.splitlines()
                             if ": " in l and not l.startswith(("moves: ", "total: "))]
    return _legal_cache[key]


def line_from(rng, game, variant, before, replaced, length, depth):
    """A line replacing `replaced`, played from the moves `before`."""
    first = [m for m in legal(game, variant, before) if m != replaced]
    if not first:
        return None
    line, pos = [], list(before)
    for i in range(length):
        choices = first if i == 0 else legal(game, variant, pos)
        if not choices:
            break
        m = rng.choice(choices)
        turn = {"move": m}
        if rng.random() < 0.25:
            turn["nag"] = rng.choice(NAGS)
        if rng.random() < 0.2:
            turn["comment"] = rng.choice(COMMENTS)
        # a nested line at the second move of some lines
        if i == 1 and depth < 3 and rng.random() < 0.5:
            sub = line_from(rng, game, variant, pos, m, rng.randint(1, 3), depth + 1)
            if sub:
                turn["variations"] = [sub]
        line.append(turn if len(turn) > 1 else m)
        pos.append(m)
    return line


def annotate(rng, rec):
    game, variant = rec["game"], rec.get("variant")
    moves = [t if isinstance(t, str) else t["move"] for t in rec["moves"]]
    out = []
    plies = len(moves)
    line_at = set(rng.sample(range(plies - 1), min(3, max(plies - 1, 0)))) if plies > 2 else set()
    for p, t in enumerate(rec["moves"]):
        turn = dict(t) if isinstance(t, dict) else {"move": t}
        if rng.random() < 0.12:
            turn["nag"] = rng.choice(NAGS)
        if rng.random() < 0.15:
            here = legal(game, variant, moves[:p])
            turn["eval"] = {"engine": "mcts:400", "expected": round(rng.uniform(0.15, 0.85), 2),
                            "best": rng.choice(here)}
        if p in line_at:
            lines = []
            for _ in range(rng.choice([1, 1, 2])):
                ln = line_from(rng, game, variant, moves[:p], moves[p], rng.randint(2, 6), 1)
                if ln:
                    lines.append(ln)
            if lines:
                turn["variations"] = lines
        out.append(turn if len(turn) > 1 else turn["move"])
    rec["moves"] = out
    rec["format"] = 2
    return rec


def main():
    import yaml

    rng = random.Random(2026)
    docs = []
    for k, (game, variant) in enumerate(GAMES):
        players = "mcts:30,random,mcts:30,random" if game == "splinter-quad" else "mcts:30,random"
        cmd = [BIN + "/kifu-play", game, "--players", players, "--games", str(PER_GAME),
               "--seed", str(100 + k), "--max-plies", "70", "--quiet"]
        if variant:
            cmd[2:2] = ["--variant", variant]
        text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        for i, rec in enumerate(yaml.safe_load_all(text)):
            rec["event"] = "kifu-play, annotated"
            rec["annotator"] = "examples/format2/make-annotated.py"
            docs.append(json.dumps(annotate(rng, rec), ensure_ascii=False))
    raw = "".join("---\n" + d + "\n" for d in docs)
    out = subprocess.run([BIN + "/kifu-export", "--file", "-", "--from", "yaml", "--to", "yaml"],
                         input=raw, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(1)
    sys.stdout.write(out.stdout)


main()
