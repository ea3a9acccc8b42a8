#!/bin/sh
# libkifu's folders call one way (lib/README.md): no file uses what a later
# folder defines, and no circle of more than two files inside a folder,
# measured from the objects of the build under test (build-aux/check-layout).
set -u
build=${KIFU_BUILD:-build/default}
out=$(python3 build-aux/check-layout "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: the folder order of lib/ (build-aux/check-layout $build)"; exit 1; }
echo "layout: ok"
