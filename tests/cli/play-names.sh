#!/bin/sh
# kifu-play --names, --event and --date (issue 42, CLI.md): the written
# players are the names given, seated with their SPEC as seats rotate (one
# SPEC for every side: one name per side, in side order); the event and the
# dates (round r dated DATE + r - 1 days, across a month's and a leap
# year's end) fill the head, and the games go into a database as such
# (kifu-stats and kifu-search find them by name, event and date) with no
# rewriting of the YAML. Usage errors (exit 2, the tool's message and the
# usage): a count of names that does not match, an empty or repeated name,
# a name or event the record reader would not read back (not UTF-8), a bad
# date, a run dated past 9999, --names with --levels.
set -u
. tests/cli/lib/test-lib.sh
# PyYAML reads the records back (python3-yaml, which make test installs, as every tool test's python3).
py=python3
play=$bin/kifu-play

# Two SPECs, three games: the names follow their SPEC's seat.
"$play" splinter --players random,mcts:4 --names 'Ann Lee,Bo Chen' --event 'Spring Open' \
	--date 2024-02-28 --games 3 --max-plies 6 --quiet >"$tmp/two.yaml" ||
	fail "kifu-play --names exited $?"
check "kifu-validate takes the games" "$bin/kifu-validate" --quiet "$tmp/two.yaml"
check "names, seats, event, dates" "$py" - "$tmp/two.yaml" <<'PY'
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")))
got = [(d["round"], d["date"], d["event"], d["players"]["blue"], d["players"]["white"])
       for d in docs]
want = [("1", "2024-02-28", "Spring Open", "Ann Lee", "Bo Chen"),
        ("2", "2024-02-29", "Spring Open", "Bo Chen", "Ann Lee"),
        ("3", "2024-03-01", "Spring Open", "Ann Lee", "Bo Chen")]
assert [tuple(str(x) for x in g) for g in got] == want, got
PY

# One SPEC for every side: one name per side, in the game's side order,
# whatever --first says; a year's end.
"$play" splinter-quad --players random --names 'N. Nord,E. East,S. Sud,W. West' \
	--date 2023-12-31 --games 2 --max-plies 4 --quiet >"$tmp/quad.yaml" ||
	fail "kifu-play splinter-quad --names exited $?"
check "one name per side" "$py" - "$tmp/quad.yaml" "$("$play" --help)" <<'PY'
import re, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")))
sides = re.search(r"^  splinter-quad +sides: ([^;]*);", sys.argv[2], re.M).group(1).split()
names = ["N. Nord", "E. East", "S. Sud", "W. West"]
for d in docs:
    assert [d["players"][s] for s in sides] == names, (sides, d["players"])
assert [str(d["date"]) for d in docs] == ["2023-12-31", "2024-01-01"], docs
assert all(d["event"] == "kifu-play" for d in docs), docs
PY

# Into a database: found by name, event and date as an imported record would be.
"$play" splinter --players random,random --names 'Ann Lee,Bo Chen' --event 'Spring Open' \
	--date 2024-05-01 --games 4 --max-plies 6 --db "$tmp/k.db" --quiet || fail "--db exited $?"
"$bin/kifu-search" --db "$tmp/k.db" --player 'Bo Chen' --event 'Spring Open' --since 2024-05-03 \
	--json >"$tmp/found.json" || fail "kifu-search exited $?"
check "kifu-search finds them" "$py" -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert sorted(str(r["date"]) for r in rows) == ["2024-05-03", "2024-05-04"], rows' "$tmp/found.json"

# expect PATTERN DESCRIPTION -- ARGS...: exit 2, stderr's first line matches
# PATTERN (grep -E), the usage follows, nothing on stdout.
expect() {
	pat=$1 desc=$2
	shift 3
	"$play" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ]; then
		fail "$desc: exit $rc, expected 2"
	elif ! sed -n 1p "$tmp/err" | LC_ALL=C grep -Eq -- "^kifu-play: error: $pat"; then
		fail "$desc: stderr: $(sed -n 1p "$tmp/err")"
	elif ! grep -q '^usage: kifu-play ' "$tmp/err" || [ -s "$tmp/out" ]; then
		fail "$desc: no usage, or output written"
	fi
}
expect "--names: 'Ann' gives 1 name; --players gives 2 SPECs" "one name for two SPECs" -- \
	splinter --players random,mcts:4 --names Ann
expect "--names: 'A,B,C' gives 3 names; --players gives 2 SPECs" "three names for two SPECs" -- \
	splinter --players random,mcts:4 --names A,B,C
expect "--names: 'A,B' gives 2 names; splinter-quad needs 4, one per side" "two names, four sides" -- \
	splinter-quad --players random --names A,B
expect "--names: name 2 of 'A,' is empty" "an empty name" -- splinter --players random --names A,
expect "--names: 'A' is given twice" "a name twice" -- splinter --players random --names A,A
expect "--names: 'A.*' cannot be a player's name: .*not UTF-8" "a name not UTF-8" -- \
	splinter --players random --names "$(printf 'A\377'),B"
expect "--event: .* cannot be an event: .*not UTF-8" "an event not UTF-8" -- \
	splinter --players random --event "$(printf 'Open \376')"
expect "--date: invalid date '2024-13-01': not a calendar date" "month 13" -- \
	splinter --players random --date 2024-13-01
expect "--date: invalid date '2023-02-29': not a calendar date" "no leap day" -- \
	splinter --players random --date 2023-02-29
expect "--date: invalid date '2024-05': expected YYYY-MM-DD" "a month, not a day" -- \
	splinter --players random --date 2024-05
expect "--date: invalid date 'yesterday': expected YYYY-MM-DD" "not a date" -- \
	splinter --players random --date yesterday
expect "--date: round 2 of '9999-12-31' would be dated past 9999-12-31" "past 9999" -- \
	splinter --players random --date 9999-12-31 --games 2
expect "--names and --levels exclude each other" "--names with --levels" -- \
	splinter --levels random,mcts:4 --names A,B
# A name with a tab is one the reader takes (written quoted).
"$play" splinter --players random --names "$(printf 'A\tB'),C" --max-plies 2 --quiet \
	>"$tmp/tab.yaml" || fail "a name with a tab: exit $?"
check "a name with a tab reads back" "$bin/kifu-validate" --quiet "$tmp/tab.yaml"

"$play" --help >"$tmp/help"
for o in names event date progress; do
	check "--help: --$o" grep -q "^  --$o " "$tmp/help"
done

test_done
