"""kifu-serve's filter forms in headless Chromium (tests/cli/lib/cdp.py).

usage: serve_forms.py BIN DB URL CHROMIUM PROFILE OUTDIR PLAYER

What a user sees of the forms of the explorer, /games, /balance and the
pattern page:
- no field shows an example that looks like a value (no placeholder):
  each text field is empty or holds its value, with a visible hint beside
  it (its aria-describedby); the fixed choices (game, variant, side,
  level) are selects;
- a bad value typed in a form (since 2024-13) and sent: the same page
  again, a 400, the form kept (every value as typed), the field marked
  (aria-invalid, drawn otherwise than a good field) and the message in
  words beside it ("2024-13 is not a date: use YYYY, YYYY-MM or
  YYYY-MM-DD"), no "--since"; likewise a bad level, side and variant on
  the other pages; the API's answer to the same value still JSON (400);
- the pattern page takes the explorer's filters (player, dates, level):
  a pattern sent from the explorer's box with a player filter lists
  kifu-search --pattern --player's games, the filter kept in its form and
  in its JSON and pager links;
- the explorer's games table has no game column (one game is shown), and
  no ply column at the start (every game reached it at ply 0), a ply
  column after a move; /games keeps its game column;
- the home page's rates in one form: the draw rate written as the first
  mover's score and its interval are (0.000).
A screenshot of the explorer's form error goes to OUTDIR/serve-form-error.png.
Prints one line per failure, then "checked N".
"""
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

BIN, DB, URL, CHROMIUM, PROFILE, OUT, PLAYER = sys.argv[1:8]
URL = URL.rstrip("/")
checked = 0
failures = 0
DATE_WORDS = "2024-13 is not a date: use YYYY, YYYY-MM or YYYY-MM-DD"


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def check(cond, msg):
    global checked
    checked += 1
    if not cond:
        fail(msg)


def status(path):
    """The status and content type of GET path."""
    try:
        with urllib.request.urlopen(URL + path) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


def tool(argv):
    p = subprocess.run([BIN + "/" + argv[0], "--db", DB] + argv[1:], capture_output=True)
    if p.returncode != 0:
        fail("%s: %s" % (" ".join(argv), p.stderr.decode()))
    return p.stdout


FIELDS_JS = """(function () {
  var out = [];
  document.querySelectorAll('form.filters input, form.filters select').forEach(function (e) {
    if (e.type === 'hidden' || e.type === 'checkbox') return;
    var hint = '';
    (e.getAttribute('aria-describedby') || '').split(' ').forEach(function (id) {
      var h = id && document.getElementById(id);
      if (h && h.offsetParent !== null) hint += h.textContent;
    });
    out.push({id: e.id, tag: e.tagName.toLowerCase(), placeholder: e.getAttribute('placeholder'),
              value: e.value, hint: hint});
  });
  return out; })()"""


def forms_say_what_they_hold(b, page, selects):
    fields = b.js(FIELDS_JS)
    check(len(fields) > 0, "%s: no form fields" % page)
    for f in fields:
        check(f["placeholder"] is None,
              "%s: %s shows %r, an example that looks like a value" % (page, f["id"], f["placeholder"]))
        if f["tag"] == "input":
            check(f["hint"].strip() != "", "%s: %s has no visible hint beside it" % (page, f["id"]))
    tags = {f["id"]: f["tag"] for f in fields}
    for s in selects:
        check(tags.get(s) == "select", "%s: %s is not a select of the fixed choices (%s)"
              % (page, s, tags.get(s)))


MARK_JS = """(function (id, good) {
  var e = document.getElementById(id), g = document.getElementById(good);
  if (!e) return null;
  var why = '';
  (e.getAttribute('aria-describedby') || '').split(' ').forEach(function (i) {
    var h = i && document.getElementById(i);
    if (h && h.offsetParent !== null) why += h.textContent;
  });
  var cs = getComputedStyle(e), gs = g ? getComputedStyle(g) : null;
  return {invalid: e.getAttribute('aria-invalid'), value: e.value, why: why,
          drawn: cs.borderTopColor + ' ' + cs.backgroundColor,
          good: gs ? gs.borderTopColor + ' ' + gs.backgroundColor : null,
          alert: (document.getElementById('form-error') || {}).textContent || '',
          text: document.body.innerText}; })(%s, %s)"""


def marked(b, page, field, good, words):
    m = b.js(MARK_JS % (json.dumps(field), json.dumps(good)))
    if m is None:
        fail("%s: no field %s on the answer" % (page, field))
        return
    check(m["invalid"] == "true", "%s: %s not marked aria-invalid" % (page, field))
    check(m["drawn"] != m["good"], "%s: %s drawn as a good field is (%s)" % (page, field, m["drawn"]))
    check(words in m["why"], "%s: beside %s %r, not %r" % (page, field, m["why"], words))
    check(field.split("-", 1)[1] in m["alert"], "%s: the page's alert does not name %s: %r"
          % (page, field, m["alert"]))
    opt = re.search(r"--(since|until|as|level|variant|game|player)\b", m["text"])
    check(not opt, "%s: the CLI's %s named on the page" % (page, opt and opt.group(0)))
    return m


def value(b, id):
    """The value of the field id (None: no such field)."""
    return b.js("(document.getElementById(%s) || {}).value" % json.dumps(id))


def setv(b, id, v):
    """Types v in the field id (a failure when the page has no such field)."""
    check(b.js("(function (e) { if (!e) return false; e.value = %s; return true; })"
               "(document.getElementById(%s))" % (json.dumps(v), json.dumps(id))),
          "%s: no field %s to type in" % (b.js("location.pathname"), id))


def headers(b):
    return b.js("(function (t) { return t ? [].map.call(t.rows[0].cells, function (c) { "
                "return c.textContent; }) : []; })(document.querySelector('table.games'))")


game, variant = "glaisher", "standard"
explore = "%s/explore/%s/%s" % (URL, game, variant)
with Browser(CHROMIUM, PROFILE, size="1100,700") as b:
    # the explorer's form: a bad date typed and sent
    b.go(explore + "?after=")
    forms_say_what_they_hold(b, "explorer", ["f-as", "f-level"])
    setv(b, "f-player", PLAYER)
    setv(b, "f-since", "2024-13")
    b.click("#f-apply")
    q = urllib.parse.urlparse(b.js("location.href"))
    code, _, _ = status(q.path + "?" + q.query)
    check(code == 400, "explorer since=2024-13: %d, not 400" % code)
    check(value(b, "f-player") == PLAYER, "explorer: the player typed is lost")
    m = marked(b, "explorer", "f-since", "f-until", DATE_WORDS)
    check(m is not None and m["value"] == "2024-13", "explorer: the date typed is lost")
    b.screenshot(os.path.join(OUT, "serve-form-error.png"))
    forms_say_what_they_hold(b, "explorer's error", ["f-as", "f-level"])
    # a bad side and level in the address: selects keep them, marked
    b.go(explore + "?player=%s&as=purple&level=grand" % urllib.parse.quote(PLAYER))
    marked(b, "explorer as=purple", "f-as", "f-player", "'purple' is not a side of glaisher")
    marked(b, "explorer level=grand", "f-level", "f-player", "'grand' is not a level")
    # the API still answers in JSON, as CLI.md says
    code, ctype, body = status("/api/search?game=%s&since=2024-13" % game)
    check(code == 400 and ctype.startswith("application/json") and "--since" in json.loads(body)["error"],
          "api since=2024-13: %d %s %r, not a JSON 400 with the tools' message" % (code, ctype, body[:200]))

    # /games and /balance
    b.go(URL + "/games")
    forms_say_what_they_hold(b, "/games", ["g-game", "g-variant", "g-as", "g-level"])
    check("game" in headers(b), "/games: no game column (%s)" % headers(b))
    setv(b, "g-until", "2024-13")
    b.click("#g-apply")
    q = urllib.parse.urlparse(b.js("location.href"))
    code, _, _ = status(q.path + "?" + q.query)
    check(code == 400, "/games until=2024-13: %d, not 400" % code)
    marked(b, "/games", "g-until", "g-since", DATE_WORDS)
    b.go(URL + "/games?game=glaisher&variant=blitz")
    marked(b, "/games variant=blitz", "g-variant", "g-player", "'blitz' is not a variant of glaisher")
    b.go(URL + "/balance")
    forms_say_what_they_hold(b, "/balance", ["b-game", "b-variant", "b-level"])
    b.go(URL + "/balance?since=2024-13")
    code, _, _ = status("/balance?since=2024-13")
    check(code == 400, "/balance since=2024-13: %d, not 400" % code)
    marked(b, "/balance", "b-since", "b-until", DATE_WORDS)

    # the explorer's games table: no game column; no ply column at the start
    b.go(explore + "?after=")
    h = headers(b)
    check("game" not in h and "ply" not in h, "explorer at the start: columns %s" % h)
    first = b.js("(document.querySelector('#moves td.move a') || {}).textContent")
    b.click("#moves td.move a")
    h = headers(b)
    check("game" not in h and "ply" in h, "explorer after %s: columns %s" % (first, h))

    # the pattern page takes the explorer's filters and keeps them
    b.go(explore + "?after=&player=" + urllib.parse.quote(PLAYER))
    pat = "a3=+"
    setv(b, "p-pattern", pat)
    b.click("#p-find")
    code, _, _ = status(urllib.parse.urlparse(b.js("location.href")).path + "?" +
                        urllib.parse.urlparse(b.js("location.href")).query)
    check(code == 200, "pattern with a player: %d" % code)
    check(value(b, "p-player") == PLAYER,
          "pattern page: the explorer's player not kept in its form")
    want = json.loads(tool(["kifu-search", "--game", game, "--variant", variant, "--pattern", pat,
                            "--player", PLAYER, "--json"]))
    shown = b.js("(document.getElementById('pattern-count') || {}).textContent") or ""
    check(shown.startswith("%d game" % len(want)),
          "pattern page with player %s: %r, kifu-search --player lists %d" % (PLAYER, shown, len(want)))
    data = b.js("(document.querySelector('#data-games a.json') || {getAttribute: () => ''})"
                ".getAttribute('href')") or ""
    check("player=" + urllib.parse.quote(PLAYER, safe="") in data or
          "player=" + urllib.parse.quote(PLAYER) in data, "pattern page: its JSON link drops the player: %s" % data)
    forms_say_what_they_hold(b, "pattern page", ["p-as", "p-level"])
    h = headers(b)
    check("game" not in h, "pattern page: a game column (%s)" % h)
    setv(b, "p-since", "2024-13")
    b.click("#p-find")
    q = urllib.parse.urlparse(b.js("location.href"))
    code, _, _ = status(q.path + "?" + q.query)
    check(code == 400, "pattern since=2024-13: %d, not 400" % code)
    marked(b, "pattern page", "p-since", "p-until", DATE_WORDS)
    check(value(b, "p-pattern") == pat, "pattern page: the pattern lost")

    # the home page's rates in one form
    b.go(URL + "/")
    rows = b.js("[].map.call(document.querySelectorAll('#summary tr'), function (r) {"
                " return [].map.call(r.cells, function (c) { return c.textContent; }); })")
    head, rows = rows[0], rows[1:]
    rate = head.index("draw rate")
    mover = head.index("first mover")
    for r in rows:
        check(re.fullmatch(r"\d\.\d{3}|-", r[rate]) and re.fullmatch(r"\d\.\d{3}|-", r[mover]),
              "home: %s %s: draw rate %r and first mover %r not in one form" % (r[0], r[1], r[rate], r[mover]))

print("checked %d" % checked)
sys.exit(1 if failures else 0)
