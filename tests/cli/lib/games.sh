# Shared by the tests that compare databases through kifu's own tools, so
# that they hold for any backend (SQLite file or PostgreSQL URI); source it
# after setting bin (the tools' directory).
#
# games_digest DB OUT  writes to OUT every game DB holds as a YAML record
#                      (kifu-export --to yaml of each game present), one
#                      document per game, sorted: two databases hold the same
#                      games (ids aside) exactly when their digests are equal.
#                      Fails (1) when a tool fails.
# games_count DB       prints the number of games DB holds (kifu-search).
# yaml_sorted FILE     prints the YAML documents of FILE sorted (as in a digest).
# games_dated FILE     gives the records of FILE (kifu-play's YAML) dates of a
#                      year, a month, a day or none, in turn from a short list
#                      (repeats: ties; undated ones), in place.

games_digest() {
	python3 - "$bin" "$1" "$2" <<'PY'
import json, subprocess, sys
tools, db, out = sys.argv[1:]
rows = json.loads(subprocess.run([tools + "/kifu-search", "--db", db, "--json"], check=True,
                                 stdout=subprocess.PIPE).stdout)
docs = []
for game in sorted({r["game"] for r in rows}):
    text = subprocess.run([tools + "/kifu-export", "--db", db, "--game", game, "--to", "yaml"],
                          check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    docs += ["---\n" + d for d in text.split("---\n") if d]
if len(docs) != len(rows):
    sys.exit("games_digest: %d games listed, %d exported" % (len(rows), len(docs)))
open(out, "w", encoding="utf-8").write("".join(sorted(docs)))
PY
}

yaml_sorted() {
	python3 -c '
import sys
text = open(sys.argv[1], encoding="utf-8").read()
sys.stdout.write("".join(sorted("---\n" + d for d in text.split("---\n") if d)))' "$1"
}

games_count() {
	"$bin/kifu-search" --db "$1" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))'
}

games_dated() {
	python3 - "$1" <<'PY'
import sys
dates = ["", "2020", "2021-03", "2021-03-01", "2019-12-31", "", "2021-03-01", "2024", "2021"]
out, n = [], 0
for line in open(sys.argv[1]):
    out.append(line)
    if line.startswith("event: "):
        d = dates[n % len(dates)]
        n += 1
        if d:
            out.append("date: '%s'\n" % d)
open(sys.argv[1], "w").write("".join(out))
PY
}
