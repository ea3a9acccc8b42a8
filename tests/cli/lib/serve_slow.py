"""Slow clients against a running kifu-serve, on loopback only.

usage: serve_slow.py PORT PER_ADDRESS HEADER_SECONDS

From 127.0.0.2, opens 300 connections, each sending a request line and
then one 6-byte header line every 3 s, never ending its headers (a
"slowloris"). Checks that the server keeps at most PER_ADDRESS of them
open (it closes the rest at once), that a plain request from 127.0.0.1 is
answered within 3 s all along, and that every slow connection is closed by
the server by HEADER_SECONDS + 4 s though it keeps sending. Stops by itself
after that (about HEADER_SECONDS + 5 s); prints one line per failure, then
a summary.
"""
import select
import socket
import sys
import time

from rawhttp import exchange

PORT, PER_ADDRESS, DEADLINE = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
HOST = b"Host: 127.0.0.1:%d\r\n" % PORT
failures = []
start = time.time()


def closed(s):
    """Whether the server closed s (end of file or a reset), without blocking."""
    try:
        r, _, _ = select.select([s], [], [], 0)
        if not r:
            return False
        return s.recv(4096) == b""
    except OSError:
        return True


def plain(when):
    t = time.time()
    try:
        got = exchange(PORT, b"GET /api/stats/summary HTTP/1.1\r\n" + HOST + b"Connection: close\r\n\r\n",
                       timeout=10)
    except OSError as e:
        got = str(e).encode()
    took = time.time() - t
    if not got.startswith(b"HTTP/1.1 200") or took > 3:
        failures.append("a plain request %s: %.1f s, %r" % (when, took, got[:80]))
    return took


slow = []
for i in range(300):
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=5, source_address=("127.0.0.2", 0))
        s.sendall(b"GET / HTTP/1.1\r\n" + HOST)
        slow.append(s)
    except OSError:
        pass
time.sleep(1)
open_now = [s for s in slow if not closed(s)]
if len(open_now) > PER_ADDRESS:
    failures.append("%d slow connections from one address held open, at most %d expected"
                    % (len(open_now), PER_ADDRESS))
worst = plain("beside %d slow connections" % len(open_now))
last_send = time.time()
# keep sending a header line every 3 s; watch them being closed
closed_at = {}
while time.time() - start < DEADLINE + 5:
    if time.time() - last_send >= 3:
        for s in open_now:
            if s not in closed_at:
                try:
                    s.sendall(b"X: y\r\n")
                except OSError:
                    closed_at[s] = time.time() - start
        last_send = time.time()
    for s in open_now:
        if s not in closed_at and closed(s):
            closed_at[s] = time.time() - start
    worst = max(worst, plain("while they trickle"))
    time.sleep(0.5)
left = [s for s in open_now if s not in closed_at]
if left:
    failures.append("%d slow connections still open after %.0f s (their headers' deadline %d s)"
                    % (len(left), time.time() - start, DEADLINE))
for s in slow:
    s.close()
for f in failures:
    print("FAIL " + f)
print("slow connections: %d made, %d held, all closed by %.1f s; plain requests within %.2f s"
      % (len(slow), len(open_now), max(closed_at.values()) if closed_at else -1, worst))
sys.exit(1 if failures else 0)
