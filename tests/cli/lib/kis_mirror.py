"""A splay-kisenwether move mirrored by the game's one symmetry (files a <-> h,
directions e <-> w), written here and not by kifu, so that tests can check
kifu's --symmetric against games mirrored independently (symmetric.sh,
search-pattern.sh)."""

FILES = "abcdefgh"
DIRS = {"e": "w", "w": "e", "ne": "nw", "nw": "ne", "se": "sw", "sw": "se", "n": "n", "s": "s"}


def mirror(m):
    out, i = "", 0
    while i < len(m):
        c = m[i]
        if c in FILES and i + 1 < len(m) and m[i + 1].isdigit():
            out += FILES[7 - FILES.index(c)]
        elif c == ">":
            out += ">" + DIRS[m[i + 1:]]
            break
        else:
            out += c
        i += 1
    return out
