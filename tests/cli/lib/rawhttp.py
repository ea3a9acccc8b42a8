"""A raw exchange with a running kifu-serve, for the tests that send bytes
no HTTP client library would send (tests/cli/lib/serve_*.py).

exchange(port, data, ...) connects, sends data (then, with half_close, the
end of what the client sends), and returns all the server sends back until
it closes the connection.
"""
import socket


def exchange(port, data, addr="127.0.0.1", timeout=30, half_close=False):
    s = socket.create_connection((addr, port), timeout=timeout)
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        got = []
        while True:
            b = s.recv(1 << 20)
            if not b:
                break
            got.append(b)
        return b"".join(got)
    finally:
        s.close()
