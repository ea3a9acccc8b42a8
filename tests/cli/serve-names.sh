#!/bin/sh
# Names holding a tab, a CR or an LF (valid in records) have pages: kifu-serve
# takes them percent-encoded (%09, %0D, %0A) in a path and in a parameter,
# as the pages link them, where it answered 400 "the path is not UTF-8
# text". What it still refuses it names: another control character, a NUL,
# bytes that are not UTF-8, in the path or in a parameter (its name or its
# value). A decoded CR or LF never reaches a header (the 308 of /game/ID/)
# nor splits the log's line.
set -u
. tests/cli/lib/test-lib.sh
. tests/cli/lib/serve.sh
db=$tmp/n.db
python3 - examples/glaisher/glaisher-advanced-01.yaml "$tmp" <<'PY'
import sys
src, tmp = sys.argv[1], sys.argv[2]
text = open(src, encoding="utf-8").read().splitlines()
for i, name in enumerate(['"Ann\\tLee"', '"Bo\\r\\nCy"', '"Di\\nEv"'], 1):
    out = [("  red: " + name) if l.startswith("  red: ") else
           ("date: '2025-03-0%d'" % i) if l.startswith("date: ") else l for l in text]
    open("%s/n%d.yaml" % (tmp, i), "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
"$bin/kifu-import" --quiet --db "$db" "$tmp"/n1.yaml "$tmp"/n2.yaml "$tmp"/n3.yaml >/dev/null \
	2>"$tmp/err" || fail "import: $(cat "$tmp/err")"
serve_start "$db" || test_done

# one client for every request (a python start each costs more than the server's work)
python3 - "$serve_url" >"$tmp/client" 2>&1 <<'PY' || fail "$(cat "$tmp/client")"
import http.client, json, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
bad = []

def get(path):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    c.request("GET", path)
    r = c.getresponse()
    return r, r.read().decode("utf-8", "replace")

# every player link of the games list answers 200 with the player's page
r, index = get("/")
for enc in ("Ann%09Lee", "Bo%0D%0ACy", "Di%0AEv"):
    if 'href="/player/%s"' % enc not in index:
        bad.append("/ has no link /player/" + enc)
    r, page = get("/player/" + enc)
    if r.status != 200 or 'href="/game/' not in page:
        bad.append("/player/%s: %d, no game" % (enc, r.status))
    r, body = get("/api/search?player=" + enc)
    if r.status != 200 or len(json.loads(body)) != 1:
        bad.append("/api/search?player=%s: %d %s" % (enc, r.status, body[:80]))

# refused, with the real problem named
for path, why in (("/player/Ann%01Lee", "the path holds a control character (%01)"),
                  ("/player/Ann%7F", "the path holds a control character (%7F)"),
                  ("/player/Ann%00Lee", "the path holds a NUL (%00)"),
                  ("/player/Ann%FF", "the path is not UTF-8 text"),
                  ("/api/search?player=Ann%1BLee", "parameter 'player' holds a control character (%1B)"),
                  ("/api/search?player=%00", "parameter 'player' holds a NUL (%00)"),
                  ("/api/search?pl%01ayer=x", "a parameter's name holds a control character (%01)")):
    r, body = get(path)
    if r.status != 400 or why.replace("'", "&#39;") not in body and why not in body:
        bad.append("%s: %d %r, not 400 %r" % (path, r.status, body[-120:], why))

# a decoded CR LF stays encoded in the redirect's Location, one header
r, body = get("/game/1%0D%0AX:%20y/")
if r.status != 308 or r.getheader("Location") != "/game/1%0D%0AX:%20y" or r.getheader("X"):
    bad.append("/game/1%%0D%%0AX:%%20y/: %d, Location %r" % (r.status, r.getheader("Location")))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))
serve_stop
# one log line per request: the tab, CR and LF escaped
check "the log has the paths escaped" grep -q '^GET /player/Bo\\r\\nCy 200 ' "$tmp/serve.log"
check "the log has one line per request" eval '! grep -q "^Cy\|^Ev" "$tmp/serve.log"'
test_done
