"""The Host header of requests to a running kifu-serve (DNS rebinding).

usage: serve_host.py PORT ADDR

ADDR is the address the server listens on, as in a Host header (an IPv6
one in brackets). Sends raw requests and checks each status: a Host that
names the server (ADDR or a loopback name, with PORT) is answered, another
name or port is 421, no Host (HTTP/1.1 or 1.0) or two are 400, all before
the method is looked at; 421 under /api/ is json, elsewhere a page. Prints
one line per failure and, last, "requests N".
"""
import sys

from rawhttp import exchange

PORT = int(sys.argv[1])
ADDR = sys.argv[2].encode()
failures = 0
count = 0


def raw(data):
    return exchange(PORT, data, "::1" if ADDR.startswith(b"[") else "127.0.0.1")


def expect(what, head, codes, path=b"/api/stats/summary", method=b"GET", version=b"HTTP/1.1"):
    global failures, count
    count += 1
    r = raw(method + b" " + path + b" " + version + b"\r\n" + head + b"Connection: close\r\n\r\n")
    try:
        st = int(r.split(b" ", 2)[1])
    except (IndexError, ValueError):
        st = 0
    if st not in codes:
        failures += 1
        print("FAIL %s: status %d, expected %s: %r" % (what, st, codes, r[:300]))
    return r


p = b"%d" % PORT
for host in (ADDR + b":" + p, b"localhost:" + p, b"LocalHost:" + p, b"127.0.0.1:" + p, b"[::1]:" + p,
             b"[0:0::1]:" + p):
    expect("Host " + host.decode(), b"Host: " + host + b"\r\n", (200,))
    expect("HEAD, Host " + host.decode(), b"Host: " + host + b"\r\n", (200,), method=b"HEAD")
for host in (b"evil.example:" + p, b"evil.example", b"localhost", b"localhost:1", b"localhost:" + p + b"0",
             b"127.0.0.1", b"127.0.0.2:" + p, b"localhost.:" + p, b"localhost:" + p + b".evil.example",
             b"attacker.localhost:" + p, b"[::2]:" + p, b"", b"127.1:" + p):
    expect("Host '%s'" % host.decode(), b"Host: " + host + b"\r\n", (421,))
r = expect("421 under /api/: json", b"Host: evil.example:" + p + b"\r\n", (421,))
if b"content-type: application/json" not in r.lower() or b'{"error": ' not in r:
    failures += 1
    print("FAIL 421 under /api/ is not json: %r" % r[:400])
r = expect("421 of a page: html", b"Host: evil.example:" + p + b"\r\n", (421,), path=b"/")
if b"content-type: text/html" not in r.lower():
    failures += 1
    print("FAIL 421 of a page is not html: %r" % r[:400])
expect("421 before the method", b"Host: evil.example:" + p + b"\r\n", (421,), method=b"DELETE")
expect("421 before the path", b"Host: evil.example:" + p + b"\r\n", (421,), path=b"/nothing-here")
expect("no Host, HTTP/1.1", b"", (400,))
expect("no Host, HTTP/1.0", b"", (400,), version=b"HTTP/1.0")
expect("two Hosts", b"Host: localhost:" + p + b"\r\nHost: evil.example:" + p + b"\r\n", (400,))
expect("two Hosts, both good", b"Host: localhost:" + p + b"\r\nhost: localhost:" + p + b"\r\n", (400,))
print("requests %d" % count)
sys.exit(1 if failures else 0)
