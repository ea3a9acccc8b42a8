"""Slow clients against a running kifu-serve, on loopback only.

usage: serve_slow.py PORT CONNECTIONS HEADER_SECONDS

First, which connections make room: 8 that send most of a request's
headers (2 KB), then 8 that send nothing, and 1.2 s later CONNECTIONS - 8
more that send nothing: 8 must be closed to make room, and they are the 8
that have waited longest and sent nothing, not the 8 before them nor any
newer one (when the server may open 2 * CONNECTIONS + 256 files, as it
asks). Then three loads, one after the other, each beside probes (GET
/api/stats/summary, or /api/tree, sent whole at once) that must each be
answered 200 within 5 s:
- many addresses: 1,200 connections from 20 addresses (127.0.1.1 to
  127.0.1.20, 60 each: under the 64 a bound per address once allowed) that
  send a request line and a header line every 2 s, more than the
  CONNECTIONS the server lets wait for their headers; 12 probes, from
  127.0.0.1 and from those addresses;
- half-open: 200 connections from 127.0.0.1 that send nothing, beside 16
  clients asking /api/tree one request after the other for 1 s, also from
  127.0.0.1: no request may fail;
- one address: 1,100 connections from 127.0.0.1 (a reverse proxy's or a
  local server's clients all come from one address) that send a request
  line and then a header line every 2 s, never ending their headers;
  probes from 127.0.0.1 every 0.5 s until HEADER_SECONDS + 2 s, and the
  deadline: each slow connection is closed by the server by
  HEADER_SECONDS + 4 s though it keeps sending, and one held until its
  deadline is answered 408 first.
Under the first and the last, the server keeps at most CONNECTIONS of them
open. Prints one line per failure, then one line per load with the probes'
worst time; exits 1 on a failure.
"""
import errno
import resource
import select
import socket
import sys
import threading
import time

PORT, CONNECTIONS, DEADLINE = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
# 1,200 slow connections and the probes (the server raises its own limit)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < 4096:
    soft = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
if soft < 1400:
    print("FAIL 1,400 open files needed, %d allowed" % soft)
    sys.exit(1)
HOST = b"Host: 127.0.0.1:%d\r\n" % PORT
PROBE_SECONDS = 5
failures = []
summary = []


def probe(path=b"/api/stats/summary", src="127.0.0.1"):
    """One request sent whole at once: its time, and a failure unless 200 within PROBE_SECONDS."""
    t = time.time()
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=PROBE_SECONDS,
                                     source_address=(src, 0))
        try:
            s.sendall(b"GET " + path + b" HTTP/1.1\r\n" + HOST + b"Connection: close\r\n\r\n")
            got = b""
            while True:
                b = s.recv(1 << 20)
                if not b:
                    break
                got += b
        finally:
            s.close()
    except OSError as e:
        got = ("(%s)" % e).encode()
    took = time.time() - t
    ok = got.startswith(b"HTTP/1.1 200") and took <= PROBE_SECONDS
    return took, ok, got[:60]


class Slow:
    """Connections that each send first, then (trickle) a header line now and then."""

    def __init__(self, n, sources, first):
        self.socks, self.opened, self.closed, self.got, self.by_fd = [], {}, {}, {}, {}
        self.poll = select.poll()  # (select.select stops at descriptor 1,023)
        for i in range(n):
            try:
                s = socket.create_connection(("127.0.0.1", PORT), timeout=5,
                                             source_address=(sources[i % len(sources)], 0))
            except OSError as e:
                failures.append("slow connection %d: %s" % (i, e))
                continue
            self.opened[s] = time.time()
            self.got[s] = b""
            self.socks.append(s)
            self.by_fd[s.fileno()] = s
            self.poll.register(s, select.POLLIN)
            try:
                if first:
                    s.sendall(first)
            except OSError:
                self.shut(s)
            s.setblocking(False)
        self.last_send = time.time()

    def shut(self, s):
        if s not in self.closed:
            self.closed[s] = time.time()
            self.poll.unregister(s)

    def watch(self):
        """Reads what the server sent; notes the connections it closed."""
        for fd, _ in self.poll.poll(0):
            s = self.by_fd[fd]
            while True:
                try:
                    b = s.recv(4096)
                except OSError as e:
                    if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                        break
                    b = b""
                if not b:
                    self.shut(s)
                    break
                self.got[s] += b

    def trickle(self, every=2):
        if time.time() - self.last_send < every:
            return
        for s in self.socks:
            if s not in self.closed:
                try:
                    s.send(b"X: y\r\n")
                except OSError:
                    self.shut(s)
        self.last_send = time.time()

    def held(self):
        self.watch()
        return sum(1 for s in self.socks if s not in self.closed)

    def close(self):
        for s in self.socks:
            s.close()


def check_held(load, slow):
    time.sleep(0.3)
    n = slow.held()
    if n > CONNECTIONS:
        failures.append("%s: %d slow connections held open, at most %d expected" % (load, n, CONNECTIONS))
    return n


def report(load, slow, held, times, bad):
    """The failed probes (the first three), and the load's line."""
    for took, ok, got in bad[:3]:
        failures.append("%s: a probe: %.1f s, %r" % (load, took, got))
    if len(bad) > 3:
        failures.append("%s: %d more probes failed" % (load, len(bad) - 3))
    summary.append("%s: %d slow connections made, %d held; %d of %d probes answered, the slowest in %.2f s"
                   % (load, len(slow.socks), held, len(times) - len(bad), len(times), max(times)))


def who_goes():
    load = "who goes"
    if hard != resource.RLIM_INFINITY and hard < 2 * CONNECTIONS + 256:
        # (kifu-serve takes that many when it can; with fewer, room is made sooner)
        summary.append("%s: not run, %d open files at most, under the server's %d"
                       % (load, hard, 2 * CONNECTIONS + 256))
        return
    nearly = Slow(8, ["127.0.0.1"], b"GET / HTTP/1.1\r\n" + HOST + b"".join(
        b"X-Pad-%02d: %s\r\n" % (i, b"a" * 90) for i in range(20)))
    silent = Slow(8, ["127.0.0.1"], b"")
    time.sleep(1.2)
    flood = Slow(CONNECTIONS - 8, ["127.0.0.1"], b"")
    time.sleep(0.3)
    counts = (nearly.held(), silent.held(), flood.held())
    if counts != (8, 0, CONNECTIONS - 8):
        failures.append("%s: kept %d of the 8 that sent 2 KB, %d of the 8 after them that sent nothing, "
                        "%d of the %d newer ones; expected 8, 0, %d"
                        % ((load,) + counts + (CONNECTIONS - 8, CONNECTIONS - 8)))
    summary.append("%s: kept %d of 8 with their headers nearly in, %d of 8 after them silent, %d of %d newer"
                   % ((load,) + counts + (CONNECTIONS - 8,)))
    for slow in (nearly, silent, flood):
        slow.close()


def many_addresses():
    load = "many addresses"
    sources = ["127.0.1.%d" % i for i in range(1, 21)]
    slow = Slow(1200, sources, b"GET / HTTP/1.1\r\n" + HOST)
    held = check_held(load, slow)
    times, bad = [], []
    for i in range(12):
        took, ok, got = probe(src="127.0.0.1" if i % 2 == 0 else sources[i])
        times.append(took)
        if not ok:
            bad.append((took, ok, got))
        slow.watch()
        slow.trickle()
        time.sleep(0.1)
    report(load, slow, held, times, bad)
    slow.close()


def half_open():
    load = "half-open"
    slow = Slow(200, ["127.0.0.1"], b"")
    held = check_held(load, slow)
    results = []
    lock = threading.Lock()

    def client():
        end = time.time() + 1
        while time.time() < end:
            r = probe(b"/api/tree?game=glaisher&variant=standard")
            with lock:
                results.append(r)

    threads = [threading.Thread(target=client) for _ in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    times = [r[0] for r in results]
    bad = [r for r in results if not r[1]]
    report(load, slow, held, times, bad)
    slow.close()


def one_address():
    load = "one address"
    start = time.time()
    slow = Slow(1100, ["127.0.0.1"], b"GET / HTTP/1.1\r\n" + HOST)
    held = check_held(load, slow)
    times, bad = [], []
    while time.time() - start < DEADLINE + 4 and slow.held():
        slow.trickle()
        if time.time() - start < DEADLINE + 2:
            took, ok, got = probe()
            times.append(took)
            if not ok:
                bad.append((took, ok, got))
        time.sleep(0.5)
    left = sum(1 for s in slow.socks if s not in slow.closed)
    if left:
        failures.append("%s: %d slow connections still open after %.0f s (their headers' deadline %d s)"
                        % (load, left, time.time() - start, DEADLINE))
    # closed at their deadline, not before it (to make room): answered 408 first
    late = [s for s in slow.closed if slow.closed[s] - slow.opened[s] >= DEADLINE - 0.5]
    unanswered = [s for s in late if not slow.got[s].startswith(b"HTTP/1.1 408 ")]
    if not late or unanswered:
        failures.append("%s: %d of %d slow connections closed at their deadline not answered 408 (%r)"
                        % (load, len(unanswered), len(late), unanswered and slow.got[unanswered[0]][:40]))
    report(load, slow, held, times, bad)
    summary[-1] += "; %d answered 408 at their deadline, all closed by %.1f s" % (
        len(late), max(slow.closed.values()) - start if slow.closed else -1)
    slow.close()


who_goes()
many_addresses()
half_open()
one_address()
for f in failures:
    print("FAIL " + f)
for line in summary:
    print(line + ".")
sys.exit(1 if failures else 0)
