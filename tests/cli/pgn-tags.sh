#!/bin/sh
# A PGN game with more than 1,000 tags (item 1): kifu-validate
# reports that game with the limit named instead of crashing, and
# kifu-import goes on with the rest of its batch. Runs from the repo root;
# tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh

python3 -c "print('[Game \"splay-schmidt\"]');[print('[T%d \"v\"]'%i) for i in range(1002)];print();print('1. e5 *')" \
	>"$tmp/t.pgn"
cp examples/splay-schmidt/"$(ls examples/splay-schmidt | head -1)" "$tmp/good.yaml"

"$bin/kifu-validate" "$tmp/t.pgn" >"$tmp/out" 2>"$tmp/err"
check "kifu-validate: 1,002 tags exit 1 (not a crash)" [ $? -eq 1 ]
check "kifu-validate: the game is invalid" grep -q '^1 game, 0 valid, 1 invalid' "$tmp/out"
check "kifu-validate: the limit is named" grep -q 't.pgn:1001:1: error: game 1: the game has more than 1000 tags' "$tmp/err"

"$bin/kifu-import" --db "$tmp/x.db" "$tmp/t.pgn" "$tmp/good.yaml" >"$tmp/out" 2>"$tmp/err"
check "kifu-import: exit 1 (not a crash)" [ $? -eq 1 ]
check "kifu-import: the batch goes on" grep -q '^imported 1, duplicates 0, rejected 1' "$tmp/out"
games=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from games").fetchone()[0])' "$tmp/x.db")
check "kifu-import: good.yaml stored" [ "$games" = 1 ]

test_done "$checks checks"
