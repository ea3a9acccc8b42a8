"""Many long answers at once from a running kifu-serve, and a client that leaves.

usage: serve_load.py PORT PATH N

Asks PATH once for its size, then N times at once (one connection each):
each client must get the whole answer (the status 200 and Content-Length
bytes, the size of the first), though one worker makes them one after the
other for longer than a connection may stay idle. Then asks PATH twice
more at once, and the second client leaves (a reset) while its answer is
being made: its log line must say the answer was not sent. Prints one line per
failure, then "whole N of N, S bytes each, T s".
"""
import socket
import struct
import sys
import threading
import time

from rawhttp import exchange

PORT, PATH, N = int(sys.argv[1]), sys.argv[2].encode(), int(sys.argv[3])
REQ = b"GET " + PATH + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % PORT
failures = []


def fetch():
    data = exchange(PORT, REQ, timeout=300)
    head, _, body = data.partition(b"\r\n\r\n")
    st = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    n = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
    return st, (n[0] if n else -1), len(body)


st, size, got = fetch()
if st != 200 or size != got:
    print("FAIL the first answer: status %d, %d of %d bytes" % (st, got, size))
    sys.exit(1)

results = [None] * N


def one(i):
    try:
        results[i] = fetch()
    except OSError as e:
        results[i] = (0, -1, str(e))


t = time.time()
threads = [threading.Thread(target=one, args=(i,)) for i in range(N)]
for th in threads:
    th.start()
for th in threads:
    th.join()
elapsed = time.time() - t
whole = sum(1 for r in results if r == (200, size, size))
for i, r in enumerate(results):
    if r != (200, size, size):
        failures.append("client %d: %r, expected (200, %d, %d)" % (i, r, size, size))

# The second of two leaves while its answer is being made: once the server
# has read its request (the server's end of the connection has nothing left
# to read, /proc/net/tcp) and well before the answer (hundreds of ms of
# work) can be written, with a reset.
def server_read_all(client_port):
    want = ("0100007F:%04X" % PORT, "0100007F:%04X" % client_port)
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        f = line.split()
        if (f[1], f[2]) == want:
            return int(f[4].split(":")[1], 16) == 0
    return False


first = threading.Thread(target=one, args=(0,))
first.start()
s = socket.create_connection(("127.0.0.1", PORT), timeout=30)
s.sendall(REQ)
deadline = time.time() + 60
while not server_read_all(s.getsockname()[1]):
    if time.time() > deadline:
        failures.append("the client that left: the server never read its request")
        break
    time.sleep(0.001)
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
first.join()
if results[0] != (200, size, size):
    failures.append("the client beside the one that left: %r" % (results[0],))

for f in failures:
    print("FAIL " + f)
print("whole %d of %d, %d bytes each, %.1f s" % (whole, N, size, elapsed))
sys.exit(1 if failures else 0)
