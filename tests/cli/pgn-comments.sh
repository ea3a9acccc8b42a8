#!/bin/sh
# PGN round trips keep comments (item 5): yaml -> pgn -> yaml
# gives every comment back as it was (long ones wrapped at 80 characters,
# ' - ', runs of spaces, tabs beside spaces, '}' in a `;` comment), but for
# the losses formats/pgn.md names: a comment's own line breaks come back
# as a space, white space at its ends is dropped. A NAG of any number of
# digits is one NAG, kept in the comment ($123456 once read as $12345 and a
# move '6'), with a warning naming it when it is past PGN's $255. Runs from
# the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh

# comments.py MODE...: "write GAME OUT" the game with the comments on its
# first moves; "compare A B" the comments of two records as expected.
cat >"$tmp/comments.py" <<'PY'
import sys, yaml
kept = [
    "nice - very nice " * 12 + "end",
    "x" * 90 + " - " + "y" * 90,
    "a  b   c " * 20 + "d",
    "- dash first " * 10 + "last",
    "trail\t word " * 12 + "end",
    "tabbed \tword " * 12 + "end",
    "{brace} ok " * 12 + "done",
    "multi   " * 15 + "end",
]
lost = {"line\nbreak  \r\n  here": "line break here", "  both ends  ": "both ends"}
comments = kept + list(lost)
if sys.argv[1] == "write":
    rec = yaml.safe_load(open(sys.argv[2]))
    rec["moves"] = [{"move": m if isinstance(m, str) else m["move"], "comment": comments[i]}
                    if i < len(comments) else m for i, m in enumerate(rec["moves"])]
    yaml.safe_dump(rec, open(sys.argv[3], "w"), allow_unicode=True, sort_keys=False)
else:
    a = yaml.safe_load(open(sys.argv[2]))["moves"][:len(comments)]
    b = yaml.safe_load(open(sys.argv[3]))["moves"][:len(comments)]
    bad = 0
    for x, y in zip(a, b):
        want = lost.get(x["comment"], x["comment"])
        if y.get("comment") != want:
            print("comment %r came back %r" % (want, y.get("comment")))
            bad = 1
    sys.exit(bad)
PY

python3 "$tmp/comments.py" write examples/splinter/splinter-knockout-01.yaml "$tmp/a.yaml"
"$bin/kifu-validate" --quiet "$tmp/a.yaml" >/dev/null
check "the record with comments is valid" [ $? -eq 0 ]
"$bin/kifu-export" --to pgn --file "$tmp/a.yaml" >"$tmp/a.pgn"
check "the pgn is written" [ $? -eq 0 ]
check "the long comments are wrapped" [ "$(grep -c '^nice - very' "$tmp/a.pgn")" -ge 1 ]
"$bin/kifu-export" --to yaml --file "$tmp/a.pgn" >"$tmp/b.yaml"
check "the pgn reads back" [ $? -eq 0 ]
check "yaml -> pgn -> yaml keeps the comments" python3 "$tmp/comments.py" compare "$tmp/a.yaml" "$tmp/b.yaml"

# NAGs past $255: the whole digit run, named in the warning, kept in the comment
cat >"$tmp/nag.pgn" <<'EOF'
[Game "splay-schmidt"]
[Variant "standard"]
[White "A"]
[Black "B"]
[Result "*"]

1. f4 $123456 g5 $14 $0255 2. b5 $1234567890123456789012345 *
EOF
"$bin/kifu-export" --to json --file "$tmp/nag.pgn" >"$tmp/nag.json" 2>"$tmp/nag.err"
check "a long NAG reads (exit 0)" [ $? -eq 0 ]
check "a long NAG is no move" eval '! grep -q "unparsable move" "$tmp/nag.err"'
check "the warning names \$123456" grep -q "7:7: warning: game 1: NAG '\$123456' is past PGN's \$255" \
	"$tmp/nag.err"
check "the warning names the 25 digits" grep -q "NAG '\$1234567890123456789012345'" "$tmp/nag.err"
check "\$14 and \$0255 draw no warning" [ "$(grep -c warning "$tmp/nag.err")" -eq 2 ]
check "the NAGs are kept in the comments" python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))[0]
got = [(m["move"], m.get("comment")) for m in g["moves"]]
want = [("f4", "$123456"), ("g5", "$14 $0255"), ("b5", "$1234567890123456789012345")]
sys.exit(0 if got == want else "%r, not %r" % (got, want))' "$tmp/nag.json"

test_done "$checks checks"
