#!/bin/sh
# /balance for a designer (issue 42): over hand-written games at levels whose
# byte order is not their order of strength (mcts:08 and mcts:8, mcts:50,
# mcts:100, a long mcts:N, engine:5, engine:20, engine, random, players),
# levels whose interval leaves out a fair game's score either way, in a
# two- and a four-sided game, and a game where none does,
# tests/cli/lib/balance_levels.py checks the order in every format of
# kifu-stats balance, the API and the page, the page's verdicts in words,
# and (in Chromium) that no text of the chart, standalone or on the page,
# leaves its viewBox. A screenshot of the page goes to tests/out/balance-levels.png.
# tests/run: plain (Chromium's rendering; the report and page run under the
#   sanitizers in balance.sh and serve.sh)
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/chromium.sh
. tests/cli/lib/serve.sh
out=tests/out
mkdir -p "$out"
db=$tmp/levels.db
long=mcts:$(printf '9%.0s' $(seq 71))
python3 - "$tmp/levels.yaml" "$long" <<'PY'
import sys
path, long = sys.argv[1:3]
docs, n = [], [0]
QUAD = ["red", "blue", "green", "yellow"]

def games(game, level, results, sides=("white", "black")):
    for res in results:
        n[0] += 1
        if level == "players":
            names = ["%s %d" % (p, n[0]) for p in ("Ann", "Bob", "Cy", "Di")[:len(sides)]]
        else:
            names = ["%s #%d" % (level, n[0] * 10 + i) for i in range(len(sides))]
        players = ", ".join("%s: '%s'" % (s, p) for s, p in zip(sides, names))
        term = "agreement" if res == "draw" else "resignation"
        docs.append("---\ngame: %s\nevent: game %d\nplayers: {%s}\nmoves: []\nresult: %s\n"
                    "termination: %s\n" % (game, n[0], players, res, term))

games("splay-schmidt", "players", ["white", "black"])
games("splay-schmidt", "engine", ["white"])
games("splay-schmidt", "engine:20", ["black"] * 8)
games("splay-schmidt", "engine:5", ["draw"])
games("splay-schmidt", long, ["black"])
games("splay-schmidt", "mcts:100", ["white", "black"])
games("splay-schmidt", "mcts:50", ["white"] * 8)
games("splay-schmidt", "mcts:8", ["black"])
games("splay-schmidt", "mcts:08", ["white"])
games("splay-schmidt", "random", ["white", "black"])
games("splay-kisenwether", "random", ["white", "black", "draw"])
games("splinter-quad", "random", ["blue", "green", "yellow", "blue"] * 4, QUAD)
games("splinter-quad", "engine:3", ["red"] * 8, QUAD)
open(path, "w").write("".join(docs))
PY
"$bin/kifu-import" --db "$db" --quiet "$tmp/levels.yaml" || fail "import the games"
check "every game imported" test \
	"$("$bin/kifu-search" --db "$db" --csv | tail -n +2 | wc -l)" -eq 54
"$bin/kifu-stats" --db "$db" --svg "$tmp/levels.svg" balance >/dev/null || fail "--svg"
serve_start "$db" || test_done
check "levels in order of strength, verdicts, the chart unclipped" python3 \
	tests/cli/lib/balance_levels.py "$bin" "$db" "$serve_url" "$browser" "$tmp/profile" \
	"$tmp/levels.svg" "$out/balance-levels.png" "$long"
serve_stop
test_done "$checks checks; a screenshot in $out/balance-levels.png"
