#!/bin/sh
# Perft speed of every game and variant from the start position, at the
# depth closest to 1-5 s on this machine (the next depth of quad and glaisher
# would take minutes), with leaf moves counted without being played (bulk
# counting), as chess perft programs do. Where the engines issue gives the
# figure for that depth it is checked; the others are printed for the record.
set -u
bin=${1:-bin}
fail=0
tmp=$(mktemp)
run() { # game variant depth [expected]
	out=$("$bin/kifu-perft" "$1" --variant "$2" "$3" 2>"$tmp") || fail=1
	last=$(printf '%s\n' "$out" | tail -n 1)
	speed=$(tail -n 1 "$tmp" | sed 's/^kifu-perft: //')
	if [ -z "${4:-}" ]; then
		check="(no reference figure)"
	elif [ "$last" = "depth $3: $4" ]; then
		check="matches the reference"
	else
		check="MISMATCH: expected $4"
		fail=1
	fi
	printf '%-18s %-9s %-22s %-22s %s\n' "$1" "$2" "$last" "$check" "$speed"
}
run splay-schmidt standard 5
run splay-schmidt standard 4 12960060
run splay-kisenwether standard 4
run splinter knockout 4
run splinter survival 4
run splinter-quad standard 4
run glaisher standard 3
run glaisher advanced 5 713897640
rm -f "$tmp"
exit $fail
