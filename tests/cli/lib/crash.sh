# Shared by the crash tests (tests/cli/import-crash.sh on SQLite,
# tests/cli/pg-crash.sh on PostgreSQL); source it after setting bin (the
# tools' directory).
#
# crash_archive DIR GAMES  writes the archive every crash test imports: GAMES
#                          random games of splay-schmidt and of splinter, each
#                          one YAML stream, with 5 invalid records in front.
# crash_delays SPAN        prints the moments to kill at: 6 random delays within
#                          half of SPAN seconds (or $CRASH_DELAYS, to replay a
#                          failure: the delays are printed by the tests).
# crash_runs DELAYS CMD... runs CMD in the background once per delay and
#                          SIGKILLs it after that delay; sets crash_killed to the
#                          number of runs still going when killed. A run that
#                          ended before its kill (the machine is faster, or less
#                          loaded, than when SPAN was measured) is run again
#                          with half the delay, up to 4 times, and says so.
# crash_now                the time in seconds, for SPAN.

crash_archive() {
	mkdir -p "$1" || return 1
	"$bin/kifu-play" splay-schmidt --players random,random --games "$2" --seed 11 \
		--max-plies 60 --quiet >"$1/a.yaml" 2>/dev/null || return 1
	"$bin/kifu-play" splinter --players random,random --games "$2" --seed 12 \
		--max-plies 60 --quiet >"$1/c.yaml" 2>/dev/null || return 1
	for i in 1 2 3 4 5; do
		printf -- '---\ngame: splay-schmidt\nevent: broken %d\nmoves: [g7, g7]\n' "$i"
	done >"$1/b.yaml"
	cat "$1/a.yaml" >>"$1/b.yaml" && rm "$1/a.yaml"
}

crash_now() { date +%s.%N; }

crash_delays() {
	echo "${CRASH_DELAYS:-$(awk -v s="$1" 'BEGIN { srand(); for (i = 0; i < 6; i++)
		printf "%.3f ", 0.02 + rand() * s * 0.5 }')}"
}

crash_runs() {
	_delays=$1
	shift
	crash_killed=0
	for _d in $_delays; do
		_try=1
		while :; do
			"$@" >/dev/null 2>&1 &
			_pid=$!
			sleep "$_d"
			if kill -KILL "$_pid" 2>/dev/null; then
				crash_killed=$((crash_killed + 1))
				wait "$_pid" 2>/dev/null
				break
			fi
			wait "$_pid" 2>/dev/null
			[ $_try -lt 4 ] || break
			_try=$((_try + 1))
			_d=$(awk -v d="$_d" 'BEGIN { printf "%.3f", d / 2 }')
			echo "crash: the run ended before its kill; again, killing after $_d"
		done
	done
}
