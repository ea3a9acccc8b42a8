#!/bin/sh
# YAML that every reader reads: every valid example (the 100-game archives
# included) and every valid fixture is exported as canonical YAML
# (kifu-export --to yaml), and each exported stream must load, with the
# same data, in libyaml (PyYAML's CSafeLoader), PyYAML's pure-Python loader
# (yaml.safe_load's SafeLoader; Debian python3-yaml) and js-yaml (Debian
# node-js-yaml), compared as JSON; the moves, players and results read must
# be those of kifu-export --to json. Skipped without python3-yaml or
# node-js-yaml, except under CI (CI=true) and in `make test`
# (KIFU_TEST_DEPS=required), where it fails.
set -u
. tests/cli/lib/test-lib.sh

# Sets py (a python3 with PyYAML and libyaml) and jsyaml (js-yaml's module).
test_require python3-yaml nodejs node-js-yaml

n=0
: >"$tmp/list"
for f in examples/*/*.yaml tests/data/records/valid/*.yaml; do
	case $f in examples/invalid/*) continue ;; esac
	n=$((n + 1))
	out="$tmp/$n.yaml"
	if ! "$bin/kifu-export" --file "$f" --to yaml -o "$out" 2>"$tmp/err" ||
		! "$bin/kifu-export" --file "$f" --to json -o "$tmp/$n.json" 2>>"$tmp/err"; then
		fail "$f: kifu-export: $(head -3 "$tmp/err")"
		continue
	fi
	echo "$f $out $tmp/$n.json" >>"$tmp/list"
done

# js-yaml: one JSON document per file, dates as YYYY-MM-DD (as Python's isoformat).
cat >"$tmp/load.js" <<EOF2
const yaml = require('$jsyaml');
const fs = require('fs');
const out = {};
for (const line of fs.readFileSync(process.argv[2], 'utf8').split('\n')) {
	if (!line) continue;
	const path = line.split(' ')[1];
	try {
		out[path] = yaml.loadAll(fs.readFileSync(path, 'utf8'));
	} catch (e) {
		out[path] = {error: String(e.message).split('\n')[0]};
	}
}
fs.writeFileSync(process.argv[3], JSON.stringify(out, (k, v) => {
	if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT00:00:00.000Z$/.test(v)) return v.slice(0, 10);
	return v;
}));
EOF2
node "$tmp/load.js" "$tmp/list" "$tmp/js.json" || { fail "js-yaml loader crashed"; test_done; }

"$py" - "$tmp/list" "$tmp/js.json" <<'EOF2' || test_status=1
import datetime, json, sys
import yaml

def norm(v):
    if isinstance(v, dict):
        return {str(k): norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v

def load(text, loader):
    try:
        return norm(list(yaml.load_all(text, Loader=loader)))
    except yaml.YAMLError as e:
        return {"error": str(e).split("\n")[0]}

js = json.load(open(sys.argv[2]))
bad = files = games = 0
for line in open(sys.argv[1]):
    src, path, kjson = line.split()
    text = open(path, encoding="utf-8").read()
    files += 1
    readers = {"libyaml": load(text, yaml.CSafeLoader), "PyYAML": load(text, yaml.SafeLoader),
               "js-yaml": js[path]}
    want = json.load(open(kjson))
    if isinstance(want, dict):
        want = [want]
    for name, data in readers.items():
        if isinstance(data, dict):
            print("FAIL: %s: %s cannot load kifu's YAML: %s" % (src, name, data["error"]))
            bad += 1
            continue
        if data != readers["libyaml"]:
            for i, (a, b) in enumerate(zip(data, readers["libyaml"])):
                if a != b:
                    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
                    print("FAIL: %s: game %d: %s reads %s, libyaml %s" % (
                        src, i + 1, name, {k: a.get(k) for k in diff}, {k: b.get(k) for k in diff}))
                    break
            else:
                print("FAIL: %s: %s reads %d games, libyaml %d" % (src, name, len(data), len(readers["libyaml"])))
            bad += 1
    data = readers["libyaml"]
    if isinstance(data, dict):
        continue
    if len(data) != len(want):
        print("FAIL: %s: %d games read, kifu exported %d" % (src, len(data), len(want)))
        bad += 1
        continue
    for i, (d, w) in enumerate(zip(data, want)):
        games += 1
        moves = [m["move"] if isinstance(m, dict) else m for m in d.get("moves", [])]
        wmoves = [m["move"] for m in w["moves"]]
        names = {s: (p["name"] if isinstance(p, dict) else p) for s, p in (d.get("players") or {}).items()}
        wnames = {s: p["name"] for s, p in w["players"].items()}
        comments = [m.get("comment") for m in d.get("moves", []) if isinstance(m, dict)]
        # a turn is a mapping when it has any of these (format 2's three too)
        keyed = ("comment", "clock", "nag", "eval", "variations")
        wcomments = [m.get("comment") for m in w["moves"] if any(k in m for k in keyed)]
        # format 2: the nags, evals and lines (their moves, at every depth) as kifu means them
        def lines(ms):
            return [[[lines_turn(t) for t in l] for l in m.get("variations", [])]
                    for m in ms if isinstance(m, dict)]
        def lines_turn(t):
            return [str(t), []] if not isinstance(t, dict) else [t["move"], t.get("nag"), lines([t])[0]]
        def wlines(ms):
            return [[[[t["move"], t.get("nag"), wlines([t])[0]] if any(k in t for k in keyed[1:]) or
                      "comment" in t else [t["move"], []] for t in l] for l in m.get("variations", [])]
                    for m in ms if any(k in m for k in keyed)]
        dm = [m for m in d.get("moves", []) if isinstance(m, dict)]
        for what, a, b in (("moves", [str(m) for m in moves], wmoves), ("players", names, wnames),
                           ("result", d.get("result"), w["result"]),
                           ("comments", comments, wcomments),
                           ("nags", [m.get("nag") for m in dm],
                            [m.get("nag") for m in w["moves"] if any(k in m for k in keyed)]),
                           ("evals", [m.get("eval") for m in dm],
                            [m.get("eval") for m in w["moves"] if any(k in m for k in keyed)]),
                           ("lines", lines(dm), wlines(w["moves"]))):
            if a != b:
                print("FAIL: %s: game %d: %s read %r, kifu means %r" % (src, i + 1, what, a, b))
                bad += 1
print("yaml-readers: %d files, %d games%s" % (files, games, ", %d failures" % bad if bad else " read alike by libyaml, PyYAML and js-yaml"))
sys.exit(1 if bad else 0)
EOF2
test_done
