#!/bin/sh
# kifu-search --pattern, checked against what kifu-export draws (the SVG's
# data-cell/data-content, the text diagram's tokens) on random games of
# every game and variant (kifu-play) and on a splay-kisenwether game and its
# mirror image (moves mirrored by python3 here, not by kifu):
#  - every listed game shows the pattern at the ply given, and not before;
#  - a game whose diagram shows the pattern at ply K is listed at K or
#    earlier;
#  - one more cell never adds a game; a side's letter and + never drops one;
#  - --symmetric finds the mirrored game, at the same ply;
#  - schema 8's summaries (game_cells) are written at import and by the
#    migration of an older database alike;
#  - usage errors name the valid cells or tokens.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
test_require python3 sqlite3 python3-yaml

db=$tmp/p.db
for spec in splay-schmidt: splay-kisenwether: splinter:knockout splinter:survival \
	    splinter-quad: glaisher:standard glaisher:advanced; do
	game=${spec%%:*} variant=${spec#*:}
	"$bin/kifu-play" "$game" ${variant:+--variant "$variant"} --players random --games 12 \
		--seed 7 --max-plies 120 >"$tmp/$game-$variant.yaml" 2>/dev/null ||
		fail "kifu-play $game $variant"
done
"$bin/kifu-import" --quiet --db "$db" "$tmp"/*.yaml || fail "import of the played games"

# A game and its mirror image, the real game cut at 60 plies.
python3 - "$tmp/mirror.yaml" examples/splay-kisenwether/splay-kisenwether-standard-01.yaml <<'PY'
import sys, yaml
sys.path.insert(0, "tests/cli/lib")
from kis_mirror import mirror
real = next(yaml.safe_load_all(open(sys.argv[2])))
real = [m["move"] if isinstance(m, dict) else m for m in real["moves"]][:60]
with open(sys.argv[1], "w") as f:
    for k, moves in enumerate([real, [mirror(m) for m in real]]):
        f.write("---\ngame: splay-kisenwether\ndate: 2030-01-%02d\n" % (k + 1))
        f.write("players: {white: Mirror%d, black: Image%d}\nresult: unfinished\n" % (k, k))
        f.write("moves: [%s]\n" % ", ".join('"%s"' % m for m in moves))
PY
"$bin/kifu-import" --quiet --db "$db" "$tmp/mirror.yaml" || fail "import of the mirrored games"

check "every stored game has its cells summary" \
	test "$(sqlite3 "$db" 'SELECT count(*) FROM games g LEFT JOIN game_cells c ON c.game_id = g.id WHERE c.game_id IS NULL')" = 0

# The properties, driven from python3: tools run as a user runs them.
KIFU_BIN=$bin python3 - "$db" <<'PY' || fail "pattern properties (above)"
import json, os, random, re, subprocess, sys
db, bin = sys.argv[1], os.environ["KIFU_BIN"]
rng = random.Random(11)
bad = 0

def run(*args):
    r = subprocess.run([os.path.join(bin, args[0])] + list(args[1:]), capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("%s failed: %s" % (" ".join(args), r.stderr))
    return r.stdout

svg_cache = {}
def board(gid, ply):
    """cell -> token at ply (empty cells absent), as kifu-export draws it."""
    key = (gid, ply)
    if key not in svg_cache:
        svg = run("kifu-export", "--db", db, "--id", str(gid), "--to", "svg", "--ply", str(ply))
        svg_cache[key] = dict(re.findall(r'data-cell="([^"]+)" data-content="([^"]+)"', svg))
    return svg_cache[key]

def some_cells(h):
    """Cells of the game's board: those its first and last positions' pictures name."""
    return sorted(set(board(h["id"], 0)) | set(board(h["id"], h["plies"])))

def shows(b, items, sides):
    for cell, tok in items:
        have = b.get(cell)
        if tok == "*":
            continue
        if tok == ".":
            if have is not None:
                return False
        elif tok == "+":
            if have is None:
                return False
        elif len(tok) == 2 and tok[1] == "+":
            if have is None or owner(have, sides) != tok[0].lower():
                return False
        elif have != tok:
            return False
    return True

def owner(tok, sides):
    """The side letter of a token: its first letter, but a splay-kisenwether stack's top stone."""
    if set(tok) <= set("wb") and len(tok) > 0 and sides == "wb" and not tok[1:].isdigit():
        return tok[-1]
    return tok[0].lower()

def search(game, variant, items, symmetric=False):
    pat = ",".join("%s=%s" % it for it in items)
    args = ["kifu-search", "--db", db, "--game", game, "--variant", variant, "--pattern", pat, "--json"]
    if symmetric:
        args.append("--symmetric")
    return {h["id"]: h["ply"] for h in json.loads(run(*args))}

games = json.loads(run("kifu-search", "--db", db, "--json"))
byvar = {}
for h in games:
    byvar.setdefault((h["game"], h["variant"]), []).append(h)
checked = 0
for (game, variant), hits in sorted(byvar.items()):
    sides = "".join(s[0] for s in hits[0]["players"])
    for trial in range(6):
        h = rng.choice(hits)
        ply = rng.randrange(0, h["plies"] + 1)
        b = board(h["id"], ply)
        occupied = sorted(b)
        cells = rng.sample(occupied, min(2, len(occupied)))
        empty = [c for c in some_cells(h) if c not in b]
        if empty:
            cells.append(rng.choice(empty))
        items = [(c, b.get(c, ".")) for c in cells]
        found = search(game, variant, items)
        if h["id"] not in found or found[h["id"]] > ply:
            print("%s %s: game %d shows %s at ply %d but search gave %s" %
                  (game, variant, h["id"], items, ply, found.get(h["id"])))
            bad += 1
        for gid, p in list(found.items())[:4]:
            checked += 1
            if not shows(board(gid, p), items, sides):
                print("%s: game %d listed at ply %d does not show %s" % (game, gid, p, items))
                bad += 1
            if p > 0 and shows(board(gid, p - 1), items, sides):
                print("%s: game %d shows %s before ply %d" % (game, gid, items, p))
                bad += 1
        # one more cell never adds a game
        extra = [c for c in occupied if c not in cells]
        if extra:
            c = rng.choice(extra)
            more = search(game, variant, items + [(c, b[c])])
            if not set(more) <= set(found):
                print("%s: one more cell added games %s" % (game, set(more) - set(found)))
                bad += 1
        # a side's letter and + instead of a token never drops a game
        if occupied:
            c = cells[0]
            wider = [(c, owner(b[c], sides) + "+")] + items[1:]
            w = search(game, variant, wider)
            if not set(found) <= set(w):
                print("%s: %s dropped games %s" % (game, wider, set(found) - set(w)))
                bad += 1

# The mirrored pair: a pattern of the real game is found in its image by --symmetric.
real = [h for h in games if h["players"].get("white") == "Mirror0"][0]["id"]
image = [h for h in games if h["players"].get("white") == "Mirror1"][0]["id"]
for ply in (10, 30, 60):
    b = board(real, ply)
    occupied = sorted(c for c in b if c[0] in "abc")  # the left side: its mirror is elsewhere
    items = [(c, b[c]) for c in occupied[:3]]
    plain = search("splay-kisenwether", "standard", items)
    sym = search("splay-kisenwether", "standard", items, symmetric=True)
    if plain.get(real, 999) > ply or sym.get(real, 999) > ply:
        print("mirror: the real game does not show %s by ply %d" % (items, ply))
        bad += 1
    if sym.get(image, 999) > ply:
        print("mirror: --symmetric misses the image of %s by ply %d (%s)" % (items, ply, sym))
        bad += 1
    if not set(plain) <= set(sym):
        print("mirror: --symmetric lost games")
        bad += 1
print("checked %d listed games" % checked)
sys.exit(1 if bad else 0)
PY

# Mistakes are usage errors (2) naming what is valid.
"$bin/kifu-search" --db "$db" --game splinter --variant knockout --pattern 'e44=Wp' \
	>/dev/null 2>"$tmp/err"
check "an unknown cell is a usage error" test $? = 2
check "an unknown cell gets a did-you-mean" grep -q "unknown cell 'e44' in pattern (did you mean 'e4'?)" "$tmp/err"
"$bin/kifu-search" --db "$db" --game glaisher --variant standard --pattern 'e5=Yx' \
	>/dev/null 2>"$tmp/err"
check "an unknown token is a usage error" test $? = 2
check "an unknown token names the valid ones" grep -q "r1, r2, ... and y1, y2, ..." "$tmp/err"
"$bin/kifu-search" --db "$db" --game splinter --pattern 'e4=Wp' >/dev/null 2>"$tmp/err"
check "a game with several variants needs --variant" grep -q "needs --variant V: splinter has several" "$tmp/err"

# An older database (the additions of schemas 8, 9 and 10 taken away again) gets
# its summaries and its tree dates from the migration, equal to an import's.
sqlite3 "$db" "SELECT game_id, hex(cells) FROM game_cells ORDER BY game_id" >"$tmp/imported"
sqlite3 "$db" "SELECT * FROM tree_moves ORDER BY 1, 2, 3, 4, 5" >"$tmp/tree-imported"
cp "$db" "$tmp/old.db"
sqlite3 "$tmp/old.db" "DROP TABLE game_lines; DROP TABLE game_cells; ALTER TABLE tree_moves DROP COLUMN first_seen;
	ALTER TABLE tree_moves DROP COLUMN last_seen; PRAGMA user_version = 7;"
"$bin/kifu-search" --db "$tmp/old.db" --game splay-schmidt --pattern 'f6=+' >/dev/null 2>"$tmp/err"
check "a version-7 database is refused for --pattern until written" \
	grep -q "needs schema version 8 (kifu-import upgrades it)" "$tmp/err"
"$bin/kifu-import" --quiet --db "$tmp/old.db" "$tmp/mirror.yaml" || fail "import into the old database"
sqlite3 "$tmp/old.db" "SELECT game_id, hex(cells) FROM game_cells ORDER BY game_id" >"$tmp/migrated"
check "migration 8 writes the summaries an import writes" test_cmp "$tmp/imported" "$tmp/migrated"
# the import after the migration added the mirrored games again: duplicates, nothing new
sqlite3 "$tmp/old.db" "SELECT * FROM tree_moves ORDER BY 1, 2, 3, 4, 5" >"$tmp/tree-migrated"
check "migration 8 counts the tree with the dates an import counts" \
	test_cmp "$tmp/tree-imported" "$tmp/tree-migrated"
test_done
