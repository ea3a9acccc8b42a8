#!/bin/sh
# Hostile text through PostgreSQL (issue 13): player names, headers, tag
# keys and values and move comments holding quotes, backslashes, SQL (and
# what SQL-building code or COPY would trip on: `'); DROP TABLE`, $1, ?1,
# $$, \N, \., tabs, newlines, LIKE's % and _), control characters and other
# NUL-free binary-ish text, non-ASCII (accents, CJK, emoji, right-to-left
# and zero-width marks, U+FEFF, U+FFFF), and a 60 KB name, are imported into
# SQLite and into PostgreSQL and must come back exactly: kifu-export in
# every record format equal on both and (yaml) equal to the file's own
# round trip; the players report lists every name as written; --player
# finds each name's games and only those (no pattern matching); the
# quarantine keeps the raw bytes of rejected records (also bytes that are
# not UTF-8) as SQLite does; and the server logged no SQL syntax error (text
# pasted into SQL would make one).
set -u
. tests/cli/lib/pg.sh
. tests/cli/lib/games.sh
lite=$tmp/lite.db
# The server's log from here on (the server may be shared with other tests).
log_from=$(($(wc -c <"$PG_DIR/log") + 1))


# The records: one game per pair of hostile names, every hostile string also
# as a header, a tag and a comment; the names in names.json.
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
hostile = [
    "O'Brien", 'the "Hammer"', "it''s", "back\\slash", "C:\\games\\new\\table", "\\", "\\\\x41",
    "Robert'); DROP TABLE games; --", "x' OR '1'='1", "1; DELETE FROM sides", "/* c */ -- d",
    "$1", "$$", "$tag$ a $tag$", "?", "?1 ?2", ":name @p", "%s%n%x", "%", "_", "a%b_c", "E'\\x00'",
    "\\N", "\\.", "tab\there", "new\nline", "cr\rlf\r\n", "bell\x07 esc\x1b[31mred\x1b[0m", "del\x7f",
    "\x01\x02\x03\x04\x05\x06\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f",
    "nel\x85 ls\u2028 ps\u2029", "Zoë Ångström", "漢字のテスト", "🀄🂡 \U0001F600", "rtl \u202eevil\u202c",
    "zw\u200bj\u200dn\u200c", "bom\ufeffmid", "nonchar \uffff \ufffe", "repl \ufffd", "  spaced  ",
    "x" * 60000 + "é",
]
def q(s):  # a YAML double-quoted scalar, everything but printable ASCII escaped
    out = []
    for c in s:
        o = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= o < 0x7f:
            out.append(c)
        elif o < 0x100:
            out.append("\\x%02x" % o)
        elif o < 0x10000:
            out.append("\\u%04x" % o)
        else:
            out.append("\\U%08x" % o)
    return '"' + "".join(out) + '"'
docs = []
names = []
for i in range(0, len(hostile), 2):
    a, b = hostile[i], hostile[(i + 1) % len(hostile)]
    names += [a, b]
    h = hostile[(i + 5) % len(hostile)]
    docs.append("\n".join([
        "game: splay-schmidt", "event: %s" % q(h), "site: %s" % q(a), "round: %s" % q(b),
        "annotator: %s" % q(hostile[(i + 7) % len(hostile)]), "source: %s" % q(hostile[(i + 9) % len(hostile)]),
        "date: 2024-%02d-%02d" % (i % 12 + 1, i % 28 + 1),
        "players:", "  white: %s" % q(a), "  black: {name: %s, rating: %d}" % (q(b), 1000 + i),
        "moves:",
        "  - {move: g4, comment: %s}" % q(h),
        "  - h4",
        "  - {move: g6, comment: %s}" % q(a + b),
        "result: unfinished",
        "tags:", "  %s: %s" % (q(b), q(a)), "  %s: %s" % (q("k" + h), q(h)),
    ]))
open(tmp + "/hostile.yaml", "w", encoding="utf-8").write("---\n" + "\n---\n".join(docs) + "\n")
json.dump(names, open(tmp + "/names.json", "w"))
# Rejected records whose raw text is hostile, one of them not even UTF-8.
open(tmp + "/bad.yaml", "wb").write(
    ("---\ngame: splay-schmidt\nevent: %s\nmoves: [g7, g7]\n" % q(hostile[7] + hostile[22])).encode()
    + b"---\ngame: splay-schmidt\nevent: caf\xe9 \\N '\\.\nmoves: [g4]\n")
PY
for d in "$lite" "$db"; do
	"$bin/kifu-import" --quiet --db "$d" "$tmp/hostile.yaml" 2>"$tmp/err" || fail "kifu-import into $d exited $?: $(head -c 300 "$tmp/err")"
	"$bin/kifu-import" --quiet --db "$d" "$tmp/bad.yaml" >/dev/null 2>&1
	[ $? -eq 1 ] || fail "kifu-import of the rejected records into $d: exit $?"
done

# Exports: equal on both (pgn refuses some tag names: the same refusals), and
# yaml equal to the file's own round trip. The time of writing (apgr's
# date-generated, and its dates of a record without one) is pinned by
# SOURCE_DATE_EPOCH, the same for both: two exports a second apart differ
# there, whatever the database.
"$bin/kifu-export" --file "$tmp/hostile.yaml" --to yaml >"$tmp/file.yaml" || fail "kifu-export --file"
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
for fmt in yaml json pgn csv apgr text; do
	"$bin/kifu-export" --db "$lite" --game splay-schmidt --to $fmt >"$tmp/lite.$fmt" 2>&1
	rc_lite=$?
	"$bin/kifu-export" --db "$db" --game splay-schmidt --to $fmt >"$tmp/pg.$fmt" 2>&1
	rc=$?
	case $fmt in yaml | json) [ $rc -eq 0 ] || fail "kifu-export --to $fmt exited $rc" ;; esac
	[ $rc -eq $rc_lite ] || fail "kifu-export --to $fmt exited $rc, $rc_lite on SQLite"
	sed -i "s|$lite|DB|g" "$tmp/lite.$fmt"
	sed -i "s|$db|DB|g" "$tmp/pg.$fmt"
	cmp -s "$tmp/lite.$fmt" "$tmp/pg.$fmt" || fail "kifu-export --to $fmt differs: $(cmp "$tmp/lite.$fmt" "$tmp/pg.$fmt")"
done
unset SOURCE_DATE_EPOCH
check "apgr: the time of writing is the one pinned (the comparison is honest)" \
	grep -q '"date-generated": "2023-11-14T22:13:20Z"' "$tmp/pg.apgr"
yaml_sorted "$tmp/file.yaml" >"$tmp/file.sorted"
yaml_sorted "$tmp/pg.yaml" >"$tmp/pg.sorted"
cmp -s "$tmp/file.sorted" "$tmp/pg.sorted" || fail "the yaml from PostgreSQL is not the file's round trip: $(cmp "$tmp/file.sorted" "$tmp/pg.sorted")"
for i in 1 $(($(grep -c '^---$' "$tmp/file.yaml") - 1)); do
	"$bin/kifu-export" --db "$lite" --id "$i" --to json >"$tmp/lite.one" 2>&1
	"$bin/kifu-export" --db "$db" --id "$i" --to json >"$tmp/pg.one" 2>&1
	cmp -s "$tmp/lite.one" "$tmp/pg.one" || fail "kifu-export --id $i --to json differs"
done

# Names: the players report and --player, exactly.
python3 - "$bin" "$lite" "$db" "$tmp/names.json" <<'PY' || fail "players and --player"
import json, subprocess, sys
tools, lite, pg, names = sys.argv[1], sys.argv[2], sys.argv[3], json.load(open(sys.argv[4]))
def run(db, *args):
    p = subprocess.run([tools + "/" + args[0], "--db", db] + list(args[1:]), stdout=subprocess.PIPE, check=True)
    return p.stdout
reports = [run(db, "kifu-stats", "players", "--format", "json") for db in (lite, pg)]
assert reports[0] == reports[1], "players report differs"
listed = sorted(r["player"] for r in json.loads(reports[1])["rows"])
assert listed == sorted(set(names)), "names differ: %r" % [n[:40] for n in set(listed) ^ set(names)]
for n in set(names):
    found = [run(db, "kifu-search", "--player", n, "--json") for db in (lite, pg)]
    assert found[0] == found[1], "--player %r differs" % n[:40]
    rows = json.loads(found[1])
    want = names.count(n)
    assert len(rows) == want, "--player %r: %d games, expected %d" % (n[:40], len(rows), want)
    assert all(n in r["players"].values() for r in rows), "--player %r found another's games" % n[:40]
    table = [run(db, "kifu-stats", "--player", n, "summary") for db in (lite, pg)]
    assert table[0] == table[1], "kifu-stats --player %r summary differs" % n[:40]
PY

# The quarantine keeps the same raw bytes.
python3 -c '
import sqlite3, sys
for (r,) in sqlite3.connect(sys.argv[1]).execute("SELECT raw FROM quarantine ORDER BY id"):
    print(bytes(r).hex())' "$lite" >"$tmp/lite.raw"
pg_psql kifu -c 'SELECT encode(raw, $$hex$$) FROM quarantine ORDER BY id' >"$tmp/pg.raw" 2>"$tmp/err" ||
	fail "cannot read the quarantine: $(head -c 300 "$tmp/err")"
[ "$(grep -c . "$tmp/lite.raw")" -ge 2 ] || fail "SQLite quarantined $(grep -c . "$tmp/lite.raw") records"
cmp -s "$tmp/lite.raw" "$tmp/pg.raw" || fail "the quarantined raw bytes differ"

[ "$(pg_psql kifu -c 'SELECT count(*) FROM games')" = "$(grep -c '^---$' "$tmp/file.yaml")" ] || fail "games count"
if tail -c +"$log_from" "$PG_DIR/log" | grep -i "syntax error" >"$tmp/syntax"; then
	fail "the server saw SQL syntax errors: $(head -c 300 "$tmp/syntax")"
fi

test_done
