"""A small client of the Chrome DevTools Protocol over a pipe, for tests.

    with Browser(chromium_path, profile_dir) as b:
        b.go(url)                  # navigates and waits for the load
        b.js("document.title")     # evaluates in the page, returns the value
        b.click("#moves a")        # clicks the element, waits for the next page
        b.load(url, "800,600")     # a new document, in a viewport of 800x600
        b.dump()                   # the DOM, as chromium --dump-dom prints it
        b.screenshot(png)          # the viewport, as chromium --screenshot

Chromium is started headless with --remote-debugging-pipe: it reads
commands from its fd 3 and writes answers to its fd 4, each a JSON text
ended by a NUL byte. No network, no extension, a fresh profile. With a
timeout, every answer awaited after `deadline` (time.time(), reset by the
caller) raises Timeout: a hung browser ends the wait; a page whose renderer
crashed raises Crashed, one whose browser died RuntimeError.
"""
import base64
import json
import os
import select
import signal
import subprocess
import time


class Timeout(RuntimeError):
    pass


class Crashed(RuntimeError):
    pass


class Browser:
    def __init__(self, path, profile, size="1280,1000", args=(), timeout=None, log=None,
                 own_group=False):
        # own_group: chromium and its children in a process group of their
        # own, so that kill() ends them all (the caller must then end them
        # when it is itself told to stop)
        r3, self.w3 = os.pipe()   # our commands -> its fd 3
        self.r4, w4 = os.pipe()   # its answers on fd 4 -> us
        def fds():
            # its fds 3 and 4 are our r3 and w4 (moved out of the way first:
            # a pipe may already be fd 3 or 4), kept across exec
            a, b = os.dup(r3), os.dup(w4)
            os.dup2(a, 100)
            os.dup2(b, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.p = subprocess.Popen(
            [path, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + size]
            + list(args) + ["about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(log, "ab") if log else subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False, start_new_session=own_group)
        self.own_group = own_group
        os.close(r3)
        os.close(w4)
        self.deadline = time.time() + timeout if timeout else None
        self.buf = b""
        self.n = 0
        self.events = []
        t = self.cmd("Target.createTarget", {"url": "about:blank"})
        a = self.cmd("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})
        self.session = a["sessionId"]
        self.cmd("Page.enable", session=True)
        self.cmd("Runtime.enable", session=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.cmd("Browser.close")
        except Exception:
            pass
        try:
            self.p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close_fds()

    def kill(self):
        """Ends chromium at once (a hung or broken one)."""
        try:
            if self.own_group:
                os.killpg(self.p.pid, signal.SIGKILL)
            else:
                self.p.kill()
        except OSError:
            pass
        self.p.wait()
        self._close_fds()

    def _close_fds(self):
        for fd in (self.w3, self.r4):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read(self):
        while b"\0" not in self.buf:
            if self.deadline is not None:
                left = self.deadline - time.time()
                if left <= 0 or not select.select([self.r4], [], [], left)[0]:
                    raise Timeout("chromium did not answer in time")
            chunk = os.read(self.r4, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def cmd(self, method, params=None, session=False):
        self.n += 1
        m = {"id": self.n, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = self.session if session is True else session
        os.write(self.w3, json.dumps(m).encode() + b"\0")
        while True:
            r = self._read()
            if r.get("id") == self.n:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def event(self, session, match):
        """Waits for an event of SESSION for which match(event) is true, and
        returns it; the renderer crashing or the page going away raises."""
        i = 0
        while True:
            while i < len(self.events):
                e = self.events[i]
                i += 1
                if e.get("sessionId") == session and match(e):
                    del self.events[i - 1]
                    return e
                if e.get("method") == "Inspector.targetCrashed" and e.get("sessionId") == session:
                    raise Crashed("the page's renderer crashed")
                if (e.get("method") == "Target.detachedFromTarget"
                        and e.get("params", {}).get("sessionId") == session):
                    raise Crashed("the page went away")
            self.events.append(self._read())

    def load(self, url, size):
        """Opens URL afresh, a new document (not a move to another #part of
        the page shown), its viewport SIZE ("W,H"), and waits for its load
        event. A page shown before is left for about:blank first."""
        w, h = size.split(",")
        self.cmd("Emulation.setDeviceMetricsOverride", {"width": int(w), "height": int(h),
                                                        "deviceScaleFactor": 1, "mobile": False},
                 session=True)
        self.cmd("Inspector.enable", session=True)
        self.cmd("Page.setLifecycleEventsEnabled", {"enabled": True}, session=True)
        for u in ("about:blank", url):
            r = self.cmd("Page.navigate", {"url": u}, session=True)
            if r.get("errorText"):
                raise RuntimeError("%s: %s" % (u, r["errorText"]))
            # this navigation's load (its loader: not an earlier page's)
            loader = r.get("loaderId")
            self.event(self.session, lambda e: e.get("method") == "Page.lifecycleEvent"
                       and e["params"].get("name") == "load"
                       and e["params"].get("loaderId") == loader)
        self.events = [e for e in self.events if e.get("method") != "Page.lifecycleEvent"]

    def dump(self):
        """The document as chromium --dump-dom prints it."""
        return self.js("(document.doctype ? new XMLSerializer().serializeToString(document.doctype)"
                       " + '\\n' : '') + document.documentElement.outerHTML")

    def js(self, expr, session=True):
        r = self.cmd("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                          "awaitPromise": True}, session=session)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait(self, cond, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            try:
                if self.js(cond):
                    return True
            except RuntimeError:
                pass
            time.sleep(0.05)
        return False

    def _settle(self, old):
        self.wait("location.href !== %s && document.readyState === 'complete'" % json.dumps(old))

    def go(self, url):
        old = self.js("location.href")
        # The page shown already: no change of address to wait for (a wait
        # that ran out its 60 s), so by way of a blank page.
        if self.js("new URL(%s, location.href).href === location.href" % json.dumps(url)):
            self.cmd("Page.navigate", {"url": "about:blank"}, session=True)
            self._settle(old)
            old = "about:blank"
        self.cmd("Page.navigate", {"url": url}, session=True)
        self._settle(old)

    def click(self, selector):
        """Clicks the element (as a mouse would, at its centre) and waits for the next page."""
        old = self.js("location.href")
        ok = self.js("""(function () {
            var e = document.querySelector(%s);
            if (!e) return false;
            e.scrollIntoView();
            var r = e.getBoundingClientRect();
            var at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            (at || e).click();
            return true; })()""" % json.dumps(selector))
        if ok:
            self._settle(old)
        return ok

    def back(self):
        old = self.js("location.href")
        self.js("history.back()")
        self._settle(old)

    def screenshot(self, path, session=True):
        r = self.cmd("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def dialogs(self):
        """Whether a page opened a dialog (alert, confirm...) so far."""
        return [e for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]

