"""A small client of the Chrome DevTools Protocol over a pipe, for tests.

    with Browser(chromium_path, profile_dir) as b:
        b.go(url)                  # navigates and waits for the load
        b.js("document.title")     # evaluates in the page, returns the value
        b.click("#moves a")        # clicks the element, waits for the next page

Chromium is started headless with --remote-debugging-pipe: it reads
commands from its fd 3 and writes answers to its fd 4, each a JSON text
ended by a NUL byte. No network, no extension, a fresh profile.
"""
import json
import os
import subprocess
import time


class Browser:
    def __init__(self, path, profile, size="1280,1000"):
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
             "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + size, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(r3)
        os.close(w4)
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
            self.p.kill()
            self.p.wait()
        for fd in (self.w3, self.r4):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read(self):
        while b"\0" not in self.buf:
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
            m["sessionId"] = self.session
        os.write(self.w3, json.dumps(m).encode() + b"\0")
        while True:
            r = self._read()
            if r.get("id") == self.n:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def js(self, expr):
        r = self.cmd("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                          "awaitPromise": True}, session=True)
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

    def screenshot(self, path):
        import base64
        r = self.cmd("Page.captureScreenshot", {"format": "png"}, session=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def dialogs(self):
        """Whether a page opened a dialog (alert, confirm...) so far."""
        return [e for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]
