#!/bin/sh
# compare-novelties.sh OLD_BIN NEW_BIN DB [GAME:VARIANT ...]: kifu-stats
# novelties of two builds byte for byte, for each game and variant (default:
# every one of the five games'), format and a few filters; prints one line a
# difference and then how many runs were compared. Exit status 1 on any
# difference. Read-only use of DB (work on a copy: a report may refresh
# kept tables).
set -u
old=$1 new=$2 db=$3
shift 3
specs=${*:-glaisher:advanced glaisher:standard splay-kisenwether:standard splay-schmidt:standard \
splinter:knockout splinter:survival splinter-quad:standard}
player=$(sqlite3 "$db" "SELECT name FROM players ORDER BY id LIMIT 1" 2>/dev/null)
event=$(sqlite3 "$db" "SELECT event FROM games WHERE event IS NOT NULL LIMIT 1" 2>/dev/null)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for spec in $specs; do
	game=${spec%%:*} variant=${spec#*:}
	for filter in "" "--player=$player" "--since=2010" "--until=2003-06" "--event=$event" \
		"--termination=rules" "--level=players" "--since=2012-05|--until=2012-05"; do
		for format in table csv json; do
			# a filter's options are |-separated
			set -- --db "$db" --game "$game" --variant "$variant" --format "$format"
			old_ifs=$IFS IFS='|'
			for o in $filter; do set -- "$@" "$o"; done
			IFS=$old_ifs
			"$old/kifu-stats" "$@" novelties >"$tmp/old" 2>&1
			a=$?
			"$new/kifu-stats" "$@" novelties >"$tmp/new" 2>&1
			b=$?
			n=$((n + 1))
			if [ $a -ne $b ] || ! cmp -s "$tmp/old" "$tmp/new"; then
				echo "differs: $game $variant $format $filter (exit $a, $b)"
				bad=$((bad + 1))
			fi
		done
	done
done
echo "$n runs compared, $bad differ"
[ $bad -eq 0 ]
