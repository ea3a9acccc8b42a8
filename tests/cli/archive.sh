#!/bin/sh
# Archives and compressed files as a user feeds them to kifu-validate,
# kifu-import and kifu-export --file (INTEROP.md "Packed and compressed
# archives"): every compression, members that are not records (skipped and
# counted), diagnostics and quarantine rows naming ARCHIVE(MEMBER), detection
# by content and from standard input, a truncated archive (exit 3, nothing
# already stored lost), a zip bomb against the limits, an archive inside an
# archive and a third level skipped with a warning; and what the pipeline
# says about paths holding no records and dangling links.
# Runs from the repo root; tools in $KIFU_BIN.
set -u
. tests/cli/lib/test-lib.sh
v="$bin/kifu-validate"
imp="$bin/kifu-import"
x="$bin/kifu-export"

test_require tar gzip bzip2 xz zstd zip 7z python3
q() { python3 -c 'import sqlite3, sys; [print("|".join("" if v is None else str(v) for v in r)) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$@"; }

# The records: five valid games in two files and a directory, one invalid game.
mkdir -p "$tmp/src/r"
cp examples/splinter/splinter-knockout-01.yaml "$tmp/src/a.yaml"
cat examples/splinter/splinter-knockout-02.yaml examples/splinter/splinter-knockout-03.yaml \
	>"$tmp/src/r/b.yaml"
cp examples/glaisher/glaisher-standard-01.yaml "$tmp/src/r/c.yml"
cp examples/splay-schmidt/"$(ls examples/splay-schmidt | head -1)" "$tmp/src/r/d.yaml"
echo "not a record" >"$tmp/src/README.txt"
(cd "$tmp/src" && cat a.yaml r/b.yaml r/c.yml r/d.yaml) >"$tmp/all.yaml"
want="5 games, 5 valid, 0 invalid"
check "the records are valid" [ "$("$v" "$tmp/all.yaml")" = "$want" ]

# Every compression of one file, and every archive of the tree.
for c in gz bz2 xz zst; do
	case $c in
	gz) gzip -c "$tmp/all.yaml" >"$tmp/all.yaml.gz" ;;
	bz2) bzip2 -c "$tmp/all.yaml" >"$tmp/all.yaml.bz2" ;;
	xz) xz -c "$tmp/all.yaml" >"$tmp/all.yaml.xz" ;;
	zst) zstd -q -c "$tmp/all.yaml" >"$tmp/all.yaml.zst" ;;
	esac
	"$v" "$tmp/all.yaml.$c" >"$tmp/out" 2>"$tmp/err"
	check ".yaml.$c: exit 0" [ $? -eq 0 ]
	check ".yaml.$c: every game" [ "$(cat "$tmp/out")" = "$want" ]
	check ".yaml.$c: nothing on stderr" [ ! -s "$tmp/err" ]
done
(cd "$tmp/src" && tar -cf "$tmp/t.tar" a.yaml r README.txt &&
	tar -czf "$tmp/t.tar.gz" a.yaml r README.txt && cp "$tmp/t.tar.gz" "$tmp/t.tgz" &&
	tar -cjf "$tmp/t.tar.bz2" a.yaml r README.txt && tar -cJf "$tmp/t.tar.xz" a.yaml r README.txt &&
	tar --zstd -cf "$tmp/t.tar.zst" a.yaml r README.txt &&
	zip -qr "$tmp/t.zip" a.yaml r README.txt && 7z a -bd -bb0 "$tmp/t.7z" a.yaml r README.txt >/dev/null) ||
	check "archives made" false
for a in tar tar.gz tgz tar.bz2 tar.xz tar.zst zip 7z; do
	"$v" "$tmp/t.$a" >"$tmp/out" 2>"$tmp/err"
	check "$a: exit 0" [ $? -eq 0 ]
	check "$a: every game" [ "$(cat "$tmp/out")" = "$want" ]
	check "$a: the member that is not a record is skipped and counted" \
		grep -q "kifu-validate: warning: skipped 1 archive member whose name matches no record pattern" "$tmp/err"
done

# kifu-import from an archive: the games stored, the files named ARCHIVE(MEMBER).
db="$tmp/a.db"
"$imp" --db "$db" "$tmp/t.tar.xz" >"$tmp/out" 2>"$tmp/err"
check "import of a .tar.xz: exit 0" [ $? -eq 0 ]
check "import of a .tar.xz: counts" [ "$(cat "$tmp/out")" = "imported 5, duplicates 0, rejected 0" ]
check "import of a .tar.xz: files named ARCHIVE(MEMBER)" \
	[ "$(q "$db" 'SELECT path FROM files ORDER BY id LIMIT 1')" = "$tmp/t.tar.xz(a.yaml)" ]
"$imp" --db "$db" "$tmp/t.zip" >"$tmp/out" 2>"$tmp/err"
check "the same games from a zip are duplicates" [ "$(cat "$tmp/out")" = "imported 0, duplicates 5, rejected 0" ]

# An invalid member: its diagnostics and its quarantine row name ARCHIVE(MEMBER).
mkdir -p "$tmp/bad/2024"
cp tests/data/records/invalid/bad-game-in-stream.yaml "$tmp/bad/2024/r1.yaml"
(cd "$tmp/bad" && zip -qr "$tmp/bad.zip" 2024)
"$v" "$tmp/bad.zip" >"$tmp/out" 2>"$tmp/err"
check "invalid member: exit 1" [ $? -eq 1 ]
check "invalid member: diagnostics name ARCHIVE(MEMBER):LINE:COL" \
	grep -q "^$tmp/bad.zip(2024/r1.yaml):6:13: error: game 2, ply 2: illegal move 'g7'" "$tmp/err"
"$imp" --db "$db" "$tmp/bad.zip" >/dev/null 2>"$tmp/err"
check "invalid member: import exits 1" [ $? -eq 1 ]
check "invalid member: quarantine rows name ARCHIVE(MEMBER)" \
	[ "$(q "$db" "SELECT DISTINCT file FROM quarantine WHERE file LIKE '%bad.zip%'")" = "$tmp/bad.zip(2024/r1.yaml)" ]
check "invalid member: the quarantined text is the record's" \
	[ "$(q "$db" "SELECT count(*) FROM quarantine WHERE file LIKE '%bad.zip%' AND CAST(raw AS TEXT) LIKE '%g7%'")" -ge 1 ]

# Detection by content: names that say nothing, and standard input.
cp "$tmp/t.tar.gz" "$tmp/games.bin"
check "a tar.gz named .bin is read by content" [ "$("$v" "$tmp/games.bin" 2>/dev/null)" = "$want" ]
cp "$tmp/all.yaml.zst" "$tmp/all.data"
check "a .zst named .data is read by content" [ "$("$v" "$tmp/all.data" 2>/dev/null)" = "$want" ]
check "an archive on standard input (a pipe)" [ "$(cat "$tmp/t.zip" | "$v" - 2>/dev/null)" = "$want" ]
check "a compressed file on standard input" [ "$("$v" - <"$tmp/all.yaml.xz" 2>/dev/null)" = "$want" ]
"$v" - <"$tmp/t.7z" >/dev/null 2>"$tmp/err"
check "a 7z on standard input: exit 3" [ $? -eq 3 ]
check "a 7z on standard input: says why" grep -q "a 7z archive is read from a file, not from a stream" "$tmp/err"
# A directory holding archives.
mkdir -p "$tmp/dir/sub"
cp "$tmp/t.7z" "$tmp/dir/sub/"
cp "$tmp/all.yaml.gz" "$tmp/dir/"
check "a directory's archives are read" \
	[ "$("$v" "$tmp/dir" 2>/dev/null)" = "10 games, 10 valid, 0 invalid" ]
# kifu-export --file reads archives too.
"$x" --file "$tmp/t.tar.bz2" --to yaml >"$tmp/exp.yaml" 2>"$tmp/err"
check "export --file of an archive: exit 0" [ $? -eq 0 ]
check "export --file of an archive: every game" [ "$("$v" "$tmp/exp.yaml")" = "$want" ]
"$x" --file "$tmp/t.zip" --to svg -o "$tmp/pics/" 2>"$tmp/err"
check "export of an archive to a directory: files named after the members" \
	[ "$(ls "$tmp/pics" | tr '\n' ' ')" = "a-001.svg b-001.svg b-002.svg c-001.svg d-001.svg " ]

# A truncated archive: exit 3, the members before the damage stored.
# (distinct games, so that the archive is long enough to be cut after its first member)
"$bin/kifu-play" splinter --players random --games 500 --seed 3 >"$tmp/src/z-big.yaml" 2>/dev/null
(cd "$tmp/src" && tar -czf "$tmp/trunc.tar.gz" a.yaml z-big.yaml)
size=$(wc -c <"$tmp/trunc.tar.gz")
head -c $((size * 2 / 3)) "$tmp/trunc.tar.gz" >"$tmp/cut.tar.gz"
"$v" "$tmp/cut.tar.gz" >"$tmp/out" 2>"$tmp/err"
check "truncated: validate exits 3" [ $? -eq 3 ]
check "truncated: the archive is named" grep -q "cut.tar.gz" "$tmp/err"
db2="$tmp/trunc.db"
"$imp" --db "$db2" "$tmp/cut.tar.gz" >"$tmp/out" 2>"$tmp/err"
check "truncated: import exits 3" [ $? -eq 3 ]
stored=$(q "$db2" 'SELECT count(*) FROM games')
check "truncated: the games read before the damage are stored ($stored)" [ "$stored" -ge 1 ]
check "truncated: the summary counts what is stored" grep -q "^imported $stored, " "$tmp/out"
# a zip cut short inside a member
(cd "$tmp/src" && zip -q "$tmp/big.zip" a.yaml z-big.yaml)
size=$(wc -c <"$tmp/big.zip")
head -c $((size * 2 / 3)) "$tmp/big.zip" >"$tmp/cut.zip"
"$v" "$tmp/cut.zip" >/dev/null 2>&1
check "a zip cut short exits 3" [ $? -eq 3 ]

# A zip bomb: a member expanding past 1000:1 is an error, the next member is still read.
mkdir -p "$tmp/bomb"
# (moves, so that the record reader's own limits do not stop it first)
{ printf 'game: splinter\nmoves:\n'; yes '  - e4' | head -c 300000000; } >"$tmp/bomb/a-bomb.yaml"
cp "$tmp/src/a.yaml" "$tmp/bomb/b-good.yaml"
(cd "$tmp/bomb" && tar --zstd -cf "$tmp/bomb.tar.zst" a-bomb.yaml b-good.yaml)
rm -f "$tmp/bomb/a-bomb.yaml"
"$v" "$tmp/bomb.tar.zst" >"$tmp/out" 2>"$tmp/err"
check "bomb: exit 1 (a member refused)" [ $? -eq 1 ]
check "bomb: the member is named with the limit" \
	grep -q "^$tmp/bomb.tar.zst(a-bomb.yaml): error: member expands more than 1000:1" "$tmp/err"
check "bomb: the run goes on with the next member" [ "$(cat "$tmp/out")" = "1 game, 1 valid, 0 invalid" ]
{ printf 'game: splinter\nmoves:\n'; yes '  - e4' | head -c 300000000; } | zstd -q -c >"$tmp/bomb.yaml.zst"
"$v" "$tmp/bomb.yaml.zst" >"$tmp/out" 2>"$tmp/err"
check "bomb (.zst): exit 1" [ $? -eq 1 ]
check "bomb (.zst): refused" grep -q "member expands more than 1000:1" "$tmp/err"

# An archive inside an archive: read; a third level: skipped with a warning naming it.
(cd "$tmp" && cp t.tar.gz inner.tar.gz && zip -q outer.zip inner.tar.gz)
"$v" "$tmp/outer.zip" >"$tmp/out" 2>"$tmp/err"
check "nested: exit 0" [ $? -eq 0 ]
check "nested: the inner archive's games" [ "$(cat "$tmp/out")" = "$want" ]
cp "$tmp/bad.zip" "$tmp/inner-bad.zip"
(cd "$tmp" && zip -q outer-bad.zip inner-bad.zip)
"$v" "$tmp/outer-bad.zip" >/dev/null 2>"$tmp/err"
check "nested: diagnostics name both archives" \
	grep -q "^$tmp/outer-bad.zip(inner-bad.zip)(2024/r1.yaml):6:13: error:" "$tmp/err"
(cd "$tmp" && cp outer.zip mid.zip && zip -q deep.zip mid.zip && rm mid.zip && zip -q top.zip deep.zip a.db 2>/dev/null || zip -q top.zip deep.zip)
"$v" "$tmp/top.zip" >"$tmp/out" 2>"$tmp/err"
check "third level: no games from it" [ "$(cat "$tmp/out")" = "0 games, 0 valid, 0 invalid" ]
check "third level: a warning naming it" \
	grep -q "warning: skipping '$tmp/top.zip(deep.zip)(mid.zip)': an archive inside an archive inside an archive is not read" "$tmp/err"

# --from forces the format of every input and member.
cp "$tmp/all.yaml" "$tmp/all.txt"
(cd "$tmp" && zip -q txt.zip all.txt)
check "--from yaml reads a .txt" [ "$("$v" --from yaml "$tmp/all.txt" 2>/dev/null)" = "$want" ]
check "--from yaml reads a .txt member" [ "$("$v" --from yaml "$tmp/txt.zip" 2>/dev/null)" = "$want" ]
"$v" --from nosuch "$tmp/all.txt" >/dev/null 2>"$tmp/err"
check "--from an unknown format exits 2" [ $? -eq 2 ]
check "--from an unknown format lists the known ones" grep -q "unknown format 'nosuch' (known: yaml" "$tmp/err"

# Paths holding no records, and dangling links.
mkdir -p "$tmp/empty/sub"
echo "notes" >"$tmp/empty/notes.txt"
"$v" "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "no records: exit 0" [ $? -eq 0 ]
check "no records: a warning naming the path and the patterns" \
	grep -q "kifu-validate: warning: no records under '$tmp/empty' (looked for \*.yaml, \*.yml, \*.json, \*.pgn, \*.csv and archives" "$tmp/err"
"$imp" --db "$tmp/e.db" "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "no records: kifu-import says so too" grep -q "kifu-import: warning: no records under '$tmp/empty'" "$tmp/err"
ln -s "$tmp/nowhere.yaml" "$tmp/empty/sub/gone.yaml"
"$v" "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "dangling link: named" grep -q "kifu-validate: warning: skipping '$tmp/empty/sub/gone.yaml': a dangling symbolic link" "$tmp/err"
"$v" --quiet "$tmp/empty" >/dev/null 2>"$tmp/err"
check "--quiet silences the warnings" [ ! -s "$tmp/err" ]

test_done "$checks checks"
