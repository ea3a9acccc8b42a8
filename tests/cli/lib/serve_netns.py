"""kifu-serve listening on all interfaces, inside a network namespace of its own.

usage: serve_netns.py BIN DB   (run under `unshare -rn` or `unshare -n`)

The namespace must hold the loopback interface alone, so that binding
0.0.0.0 exposes nothing to any network: this is checked first (exit 3
otherwise, before anything listens). The loopback interface, down in a new
namespace, is brought up (an ioctl: no iproute2 needed). Then, for
--listen 0.0.0.0:0 and [::]:0, kifu-serve must print the warning line on
stderr, print where it serves, answer / with 200 through the loopback
address, and exit 0 on SIGTERM; for 127.0.0.1:0 it must print no warning.
Prints one line per failure; exits 1 if any.
"""
import fcntl
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request

BIN, DB = sys.argv[1], sys.argv[2]
names = sorted(name for _, name in socket.if_nameindex())
if names != ["lo"]:
    print("not a namespace with loopback alone: %s" % names)
    sys.exit(3)

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
    ifr = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sh22x", b"lo", 0))
    flags = struct.unpack("16sh22x", ifr)[1]
    fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", flags | IFF_UP))

failures = 0


def fail(msg):
    global failures
    failures += 1
    print(msg)


def run(listen, host, warned):
    p = subprocess.Popen([BIN + "/kifu-serve", "--db", DB, "--listen", listen, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline().decode("utf-8", "replace").rstrip("\n")
    prefix = "serving %s at http://%s:" % (DB, host)
    if not line.startswith(prefix):
        p.kill()
        fail("--listen %s: printed %r, not %r..." % (listen, line, prefix))
        return
    port = int(line[len(prefix):].rstrip("/"))
    loop = "[::1]" if ":" in host else "127.0.0.1"
    try:
        r = urllib.request.urlopen("http://%s:%d/" % (loop, port), timeout=30)
        if r.status != 200:
            fail("--listen %s: / answered %d" % (listen, r.status))
    except OSError as e:
        fail("--listen %s: / through %s: %s" % (listen, loop, e))
    p.send_signal(signal.SIGTERM)
    try:
        err = p.communicate(timeout=30)[1].decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        p.kill()
        fail("--listen %s: still running 30 s after SIGTERM" % listen)
        return
    if p.returncode != 0:
        fail("--listen %s: exit %d on SIGTERM" % (listen, p.returncode))
    addr = host.strip("[]")
    want = ("kifu-serve: warning: listening on %s, not on loopback: other machines can reach it"
            % addr)
    lines = err.splitlines()
    if warned and lines != [want]:
        fail("--listen %s: stderr %r, not the warning %r" % (listen, lines, want))
    if not warned and lines:
        fail("--listen %s: stderr %r, not nothing" % (listen, lines))


run("0.0.0.0:0", "0.0.0.0", True)
if socket.has_ipv6:
    run("[::]:0", "[::]", True)
run("127.0.0.1:0", "127.0.0.1", False)
sys.exit(1 if failures else 0)
