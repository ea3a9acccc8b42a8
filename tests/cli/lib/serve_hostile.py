"""Hostile requests to a running kifu-serve, sent raw over sockets.

usage: serve_hostile.py PORT

Each request must get the status said, every answer (those to requests
the HTTP library would refuse itself included: malformed, too long,
another HTTP version) with the Content-Security-Policy and nosniff, and
the server must answer a plain request after each and beside 500
half-open connections from another address. Prints one line per failure
and, last, "requests N".
"""
import socket
import sys
import time

from rawhttp import exchange

PORT = int(sys.argv[1])
HOST = b"Host: 127.0.0.1:%d" % PORT
failures = 0
count = 0


def raw(data, timeout=30):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    try:
        s.sendall(data)
    except OSError:
        pass
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
            if b"\r\n\r\n" in got:
                head, _, body = got.partition(b"\r\n\r\n")
                n = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                if n and len(body) >= n[0]:
                    break
    except OSError:
        pass
    s.close()
    return got


def cut(data):
    """data, then the end of what the client sends (a half-close), and the answer."""
    return exchange(PORT, data, half_close=True)


def status(resp):
    try:
        return int(resp.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def expect(what, data, codes):
    global failures, count
    count += 1
    resp = raw(data)
    st = status(resp)
    if st not in codes:
        failures += 1
        print("FAIL %s: status %d, expected %s: %r" % (what, st, codes, resp[:300]))
    # every answer, the HTTP library's own errors included, with the policy and nosniff
    h = resp.partition(b"\r\n\r\n")[0].lower()
    if st and (b"content-security-policy: default-src 'none'" not in h or
               b"x-content-type-options: nosniff" not in h):
        failures += 1
        print("FAIL %s: status %d without Content-Security-Policy or nosniff: %r" % (what, st, resp[:300]))
    alive(what)
    return resp


def alive(after):
    global failures
    r = raw(b"GET /api/stats/summary HTTP/1.1\r\n" + HOST + b"\r\nConnection: close\r\n\r\n")
    if status(r) != 200:
        failures += 1
        print("FAIL after %s: the server no longer answers (%r)" % (after, r[:200]))


def get(path):
    return b"GET " + path + b" HTTP/1.1\r\n" + HOST + b"\r\nConnection: close\r\n\r\n"


expect("traversal", get(b"/../../../../etc/passwd"), (400, 404))
expect("encoded traversal", get(b"/%2e%2e/%2e%2e/etc/passwd"), (400,))
expect("traversal in assets", get(b"/assets/..%2f..%2fetc%2fpasswd"), (400, 404))
expect("dot step", get(b"/game/./1"), (400,))
r = expect("passwd", get(b"/etc/passwd"), (404,))
if b"root:" in r:
    failures += 1
    print("FAIL: a file of the system was served")
expect("NUL in the path", get(b"/api%00/tree"), (400,))
expect("NUL in a value", get(b"/api/search?player=a%00b"), (400,))
expect("NUL in a name", get(b"/api/search?pla%00yer=a"), (400,))
expect("invalid UTF-8 in the path", get(b"/player/%ff%fe"), (400,))
expect("invalid UTF-8 in a value", get(b"/api/search?player=%c3%28"), (400,))
expect("overlong UTF-8", get(b"/api/search?player=%c0%af"), (400,))
expect("control character", get(b"/api/search?player=a%1bb"), (400,))
expect("raw invalid UTF-8", get(b"/api/search?player=\xff"), (400,))
expect("100 KB URL", get(b"/api/search?player=" + b"a" * 100000), (414,))
expect("100 KB header", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nX-Big: " + b"b" * 100000 + b"\r\n\r\n", (431,))
expect("POST", b"POST /api/stats/summary HTTP/1.1\r\n" + HOST + b"\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc", (405,))
expect("DELETE", b"DELETE /game/1 HTTP/1.1\r\n" + HOST + b"\r\nConnection: close\r\n\r\n", (405,))
expect("garbage", b"\x00\x01\x02 nonsense\r\n\r\n", (400,))
expect("HTTP/3.0", b"GET / HTTP/3.0\r\n" + HOST + b"\r\n\r\n", (505,))
expect("HTTP/1.1 spelled otherwise", b"GET / HTTP/1.10\r\n" + HOST + b"\r\n\r\n", (400, 505))
expect("no version", b"GET /\r\n" + HOST + b"\r\n\r\n", (400,))
expect("a header line without a colon", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nX y\r\n\r\n", (400,))
expect("a folded header line", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nX: y\r\n z\r\n\r\n", (400,))
expect("bare LF", b"GET / HTTP/1.1\n" + HOST + b"\n\n", (400,))
expect("a huge Content-Length", b"POST / HTTP/1.1\r\n" + HOST + b"\r\nContent-Length: 99999999999999999999999\r\n\r\n",
       (413,))
expect("a bad Content-Length", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nContent-Length: 1x\r\n\r\n", (400,))
expect("a chunked GET", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", (400,))
expect("a GET with a body", b"GET / HTTP/1.1\r\n" + HOST + b"\r\nContent-Length: 3\r\n\r\nabc", (400,))
expect("1,000 header lines", b"GET / HTTP/1.1\r\n" + HOST + b"\r\n" + b"X: y\r\n" * 1000 + b"\r\n", (431,))
expect("1,000 parameters", get(b"/api/search?" + b"&".join(b"a%d=1" % i for i in range(1000))), (400,))
count += 2
if status(cut(b"GET /api/stats/summary HTTP/1.1\r\n" + HOST + b"\r\n")) != 400:
    failures += 1
    print("FAIL a request that ends before its headers do: not 400")
if status(cut(b"GET /api/stats/summary HTTP/1.1\r\n" + HOST + b"\r\n\r\n")) != 200:
    failures += 1
    print("FAIL a whole request, then a half-close: not 200")
expect("an absolute URL", b"GET http://127.0.0.1/ HTTP/1.1\r\n" + HOST + b"\r\n\r\n", (400,))
expect("unknown page", get(b"/nothing-here"), (404,))

# Every answer, page, asset, API or error, carries the policy.
for path in (b"/", b"/explore/glaisher/standard", b"/game/1", b"/player/nobody", b"/api/stats/summary",
             b"/assets/kifu.css", b"/nothing-here", b"/api/tree"):
    count += 1
    r = raw(get(path))
    h = r.partition(b"\r\n\r\n")[0].lower()
    if b"content-security-policy: default-src 'none'" not in h:
        failures += 1
        print("FAIL %s: no Content-Security-Policy" % path.decode())

# 500 half-open connections from another client address (127.0.0.2: one
# address holds a bounded number, the rest are closed): a request line and
# no end of headers.
count += 1
held = []
try:
    for i in range(500):
        s = socket.create_connection(("127.0.0.1", PORT), timeout=30, source_address=("127.0.0.2", 0))
        try:
            s.sendall(b"GET /api/stats/summary HTTP/1.1\r\n" + HOST + b"\r\n")
        except OSError:
            pass
        held.append(s)
    t = time.time()
    alive("500 half-open connections")
    if time.time() - t > 10:
        failures += 1
        print("FAIL: an answer beside 500 half-open connections took %.1f s" % (time.time() - t))
finally:
    for s in held:
        s.close()
alive("closing the 500 connections")
print("requests %d" % count)
sys.exit(1 if failures else 0)
