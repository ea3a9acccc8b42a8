# Sourced by the players tests (tests/cli/players.sh, serve-players.sh) after
# test-lib.sh. Defines
#   players_records     writes the games below (not the examples) into
#                       $tmp/players/
#   players_fixture DB  imports the examples, then 60 splay-schmidt games
#                       between "Player 001" .. "Player 120" (more players
#                       than a page of /players holds), and Ann Lee's
#                       games: three of splay-schmidt standard against
#                       Player 001 (won as white twice, lost as black) and
#                       two of glaisher advanced against Ann Leigh (both
#                       won): a player rated in two games and variants,
#                       and a name near hers; and Émile Zola's game
#                       against Player 120 (a capital beyond ASCII). Each
#                       record's result is the example's, which its moves
#                       decide: the names move
players_records() {
	python3 - "$tmp/players" <<'PY' || fail "write the players' games"
import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
ss = open("examples/splay-schmidt/splay-schmidt-standard-01.yaml", encoding="utf-8").read()
gl = open("examples/glaisher/glaisher-advanced-01.yaml", encoding="utf-8").read()

def game(text, sides, names, day, n):
    lines = []
    for line in text.split("\n"):
        key = line.strip().split(":")[0]
        if line.startswith("  ") and key in sides:
            line = "  %s: %s" % (key, names[sides.index(key)])
        elif line.startswith("date:"):
            line = "date: '2025-%02d-%02d'" % (1 + n % 12, day)
        elif line.startswith("round:"):
            line = "round: '%d'" % n
        lines.append(line)
    return "\n".join(lines)

files = []
for k in range(60):
    names = ["Player %03d" % (2 * k + 1), "Player %03d" % (2 * k + 2)]
    files.append(game(ss, ["white", "black"], names if k % 3 else names[::-1], 1 + k % 28, k))
for k, names in enumerate([["Ann Lee", "Player 001"]] * 2 + [["Player 001", "Ann Lee"]]):
    files.append(game(ss, ["white", "black"], names, 10 + k, 100 + k))
for k in range(2):
    files.append(game(gl, ["red", "yellow"], ["Ann Lee", "Ann Leigh"], 20 + k, 200 + k))
files.append(game(ss, ["white", "black"], ["Émile Zola", "Player 120"], 27, 300))
for i, text in enumerate(files):
    open(os.path.join(out, "g%03d.yaml" % i), "w", encoding="utf-8").write(text)
PY
}

players_fixture() {
	players_records
	_pf_dirs=$(ls -d examples/*/ | grep -v '^examples/\(invalid\|balance\)/$')
	# shellcheck disable=SC2086
	"$bin/kifu-import" --quiet --db "$1" $_pf_dirs "$tmp/players" >/dev/null 2>&1 ||
		fail "import the players' games"
}
