"""One headless Chromium serving a shell test's page loads (tests/cli/lib/chromium.sh).

usage: browser_server.py CHROMIUM TMPDIR REQUESTS ANSWERS TIMEOUT LOG

Reads requests from the pipe REQUESTS, one a line, fields separated by tabs:

    dump  W,H  OUTFILE  URL     the DOM after the load (as chromium --dump-dom)
    shot  W,H  OUTFILE  URL     a PNG of the W x H viewport (as --screenshot)

Each opens URL afresh, a new document (what a new chromium per page gave:
never a move to another #ply of the page shown before), and answers on the pipe ANSWERS one line: "ok" once OUTFILE is written, or
"error MESSAGE". Chromium starts at the first request, with a profile in a
new directory of TMPDIR, and serves every request after it. Under load it
may die, hang or lose a renderer: the request is then tried again in a
new Chromium, up to 3 times, each try bounded by TIMEOUT seconds. A line
"quit", or the end of REQUESTS, closes Chromium and ends the server.
Chromium's messages and the retries go to LOG.
"""
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

CHROMIUM, TMP, REQUESTS, ANSWERS, TIMEOUT, LOG = sys.argv[1:7]
TIMEOUT = float(TIMEOUT)
TRIES = 3


class Stop(Exception):
    pass


def stop(*_):
    raise Stop()


browser = None
profile = None


def start():
    global browser, profile
    profile = tempfile.mkdtemp(prefix="profile.", dir=TMP)
    # file access from files: the tests' probe pages read the page under
    # test in a frame
    browser = Browser(CHROMIUM, profile, args=["--allow-file-access-from-files"],
                      timeout=TIMEOUT, log=LOG, own_group=True)


def end(gently):
    global browser, profile
    if browser is not None:
        if gently:
            browser.deadline = time.time() + 20
            browser.close()
        else:
            browser.kill()
        browser = None
    if profile is not None:
        shutil.rmtree(profile, ignore_errors=True)
        profile = None


def serve(kind, size, out, url):
    if browser is None:
        start()
    browser.deadline = time.time() + TIMEOUT
    browser.load(url, size)
    if kind == "dump":
        with open(out, "w", encoding="utf-8") as f:
            f.write(browser.dump() + "\n")
    else:
        browser.screenshot(out)


def main():
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, stop)
    requests = open(REQUESTS, "r", encoding="utf-8")
    answers = open(ANSWERS, "w", encoding="utf-8")
    log = open(LOG, "a", encoding="utf-8")
    try:
        for line in requests:
            if line.strip() == "quit":
                break
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4 or fields[0] not in ("dump", "shot"):
                answers.write("error not a request: %r\n" % line)
                answers.flush()
                continue
            kind, size, out, url = fields
            for attempt in range(1, TRIES + 1):
                try:
                    serve(kind, size, out, url)
                    answer = "ok"
                    break
                except (RuntimeError, OSError, ValueError) as e:
                    answer = "error %s: %s" % (url, e)
                    print("chromium: %s (try %d)%s" % (answer[6:], attempt,
                          ", trying again" if attempt < TRIES else ""), file=log, flush=True)
                    end(False)
            answers.write(answer + "\n")
            answers.flush()
    except Stop:
        end(False)
        return
    end(True)


main()
