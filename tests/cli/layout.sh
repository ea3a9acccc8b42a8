#!/bin/sh
# libkifu's folders call one way (lib/README.md): no file uses what a later
# folder defines, no circle of more than two files inside a folder, and every
# exported name is kifu_ and, when no public header declares it, ends in _ —
# measured from the objects of the build under test (build-aux/check-layout).
set -u
. tests/cli/lib/test-lib.sh
test_require python3 nm cc
build=${KIFU_BUILD:-build/default}
python3 build-aux/check-layout "$build" >"$tmp/out" 2>&1
check "the folder order and names of lib/ (build-aux/check-layout $build): $(cat "$tmp/out")" [ $? -eq 0 ]
check "every object of the build was read" grep -q '^layout: [1-9][0-9]* objects in 10 folders, 0 problems$' "$tmp/out"

# The check itself finds what it is for, on a small tree of its own: a util
# file calling a render file, a circle of three files in stats/, and an
# exported name that is neither kifu_ nor private.
top=$(pwd)
mkdir -p "$tmp/src/include/kifu" "$tmp/src/lib/util" "$tmp/src/lib/render" "$tmp/src/lib/stats"
echo 'int kifu_pub(void);' >"$tmp/src/include/kifu/pub.h"
echo 'int kifu_render_x_(void); int kifu_pub(void) { return kifu_render_x_(); }' >"$tmp/src/lib/util/u.c"
echo 'int kifu_render_x_(void) { return 1; } int helper(void) { return 2; }' >"$tmp/src/lib/render/r.c"
echo 'int kifu_stats_b_(void); int kifu_stats_a_(void) { return kifu_stats_b_(); }' >"$tmp/src/lib/stats/a.c"
echo 'int kifu_stats_c_(void); int kifu_stats_b_(void) { return kifu_stats_c_(); }' >"$tmp/src/lib/stats/b.c"
echo 'int kifu_stats_a_(void); int kifu_stats_c_(void) { return kifu_stats_a_(); }' >"$tmp/src/lib/stats/c.c"
for f in util/u render/r stats/a stats/b stats/c; do
	mkdir -p "$(dirname "$tmp/build/lib/$f")"
	cc -c "$tmp/src/lib/$f.c" -o "$tmp/build/lib/$f.o"
done
(cd "$tmp/src" && python3 "$top/build-aux/check-layout" "$tmp/build") >"$tmp/bad" 2>&1
check "a tree with problems fails the check" [ $? -eq 1 ]
check "a call to a later folder is found: $(cat "$tmp/bad")" \
	grep -q "^lib/util/u.c (util) uses 'kifu_render_x_' of lib/render/r.c (render), a later folder$" "$tmp/bad"
check "a circle of three files is found" \
	grep -q "^circle of 3 files in stats/: lib/stats/a.c, lib/stats/b.c, lib/stats/c.c$" "$tmp/bad"
check "a name without kifu_ is found" grep -q "^lib/render/r.c exports 'helper' without the kifu_ prefix$" "$tmp/bad"
check "three problems" grep -q "^layout: 5 objects in 3 folders, 3 problems$" "$tmp/bad"

test_done "$(tail -n 1 "$tmp/out")"
