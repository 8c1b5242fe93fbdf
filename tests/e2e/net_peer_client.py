"""A raw client of perfguide serve's control protocol, for the e2e tests.

usage: net_peer_client.py PORT CASE [KEYFILE]
Each case prints what the peer did and exits 1 when it was wrong.
"""
import hashlib
import hmac
import random
import socket
import struct
import sys
import time

HOST = "127.0.0.1"
HELLO, WELCOME, AUTH, AUTH_OK, START, READY, STOP, REPORT, BUSY, ERROR, BYE = range(1, 12)


def frame(t, kv=None, ver=1):
    body = "".join("%s=%s\n" % (k, v) for k, v in (kv or {}).items()).encode()
    return struct.pack(">IBB", len(body) + 2, ver, t) + body


def read_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            return None
        b += c
    return b


def recv(s):
    """A frame (type, dict), or None when the peer closed."""
    try:
        h = read_exact(s, 6)
        if h is None:
            return None
        n, _, t = struct.unpack(">IBB", h)
        b = read_exact(s, n - 2)
    except ConnectionResetError:
        return None
    if b is None:
        return None
    return t, dict(line.split("=", 1) for line in b.decode().splitlines())


def conn(port, timeout=5):
    s = socket.create_connection((HOST, port), timeout=timeout)
    return s


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expect_error_then_close(s, what, needle):
    f = recv(s)
    if f is None or f[0] != ERROR or needle not in f[1].get("reason", ""):
        fail("%s: expected ERROR mentioning %r, got %r" % (what, needle, f))
    if recv(s) is not None:
        fail("%s: connection still open after the ERROR" % what)
    print("%s: ERROR %r, then closed" % (what, f[1]["reason"]))


def expect_dropped(s, what, within):
    t0 = time.monotonic()
    f = recv(s)
    dt = time.monotonic() - t0
    if f is not None:
        fail("%s: expected the peer to drop us, got %r" % (what, f))
    if dt > within:
        fail("%s: dropped only after %.1f s" % (what, dt))
    print("%s: dropped without an answer after %.1f s" % (what, dt))


def session(port, key=None, nbytes=1000000):
    s = conn(port)
    s.sendall(frame(HELLO))
    f = recv(s)
    if not f or f[0] != WELCOME:
        fail("normal session: HELLO answered %r" % (f,))
    if f[1].get("auth") == "hmac-sha256":
        mac = hmac.new(key, bytes.fromhex(f[1]["nonce"]), hashlib.sha256).hexdigest()
        s.sendall(frame(AUTH, {"mac": mac}))
        f = recv(s)
        if not f or f[0] != AUTH_OK:
            fail("normal session: AUTH answered %r" % (f,))
    s.sendall(frame(START, {"test": "tcp_stream", "time": "5", "streams": "1"}))
    f = recv(s)
    if not f or f[0] != READY:
        fail("normal session: START answered %r" % (f,))
    d = socket.create_connection((HOST, int(f[1]["port"])), timeout=5)
    payload = random.Random(7).randbytes(nbytes)
    d.sendall(b"S" + payload)
    d.close()
    s.sendall(frame(STOP))
    f = recv(s)
    if not f or f[0] != REPORT:
        fail("normal session: STOP answered %r" % (f,))
    if int(f[1]["bytes_rx"]) != nbytes:
        fail("normal session: bytes_rx %s, sent %d" % (f[1]["bytes_rx"], nbytes))
    s.sendall(frame(BYE))
    s.close()
    print("normal session: START tcp_stream, %d bytes sent, REPORT bytes_rx=%s" % (nbytes, f[1]["bytes_rx"]))


def udp_source_capped(port):
    """A peer started with --max-rate 0.4 sends 400 kbit/s when asked 800."""
    s = conn(port)
    s.sendall(frame(HELLO))
    recv(s)
    s.sendall(frame(START, {"test": "udp_source", "time": "0.5", "size": "100", "rate": "800000"}))
    f = recv(s)
    if not f or f[0] != READY or f[1].get("rate") != "400000":
        fail("udp_source under --max-rate 0.4: START answered %r, expected rate=400000" % (f,))
    d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    d.connect((HOST, int(f[1]["port"])))
    d.send(b"h" * 8)
    d.settimeout(1)
    n = 0
    try:
        while n < 251:
            d.recv(2000)
            n += 1
    except socket.timeout:
        pass
    s.sendall(frame(STOP))
    f = recv(s)
    if n != 250 or not f or f[0] != REPORT or f[1].get("packets_tx") != "250":
        fail("udp_source under --max-rate 0.4: %d datagrams, REPORT %r, expected 250" % (n, f))
    print("udp_source under --max-rate 0.4: asked 800 kbit/s, READY rate=400000, 250 datagrams in 0.5 s")


def udp_source(port):
    """START udp_source: bad values refused with the session kept; then the
    peer sends exactly rate x time datagrams, numbered, to the address the
    client's first datagram came from and to no other."""
    s = conn(port)
    s.sendall(frame(HELLO))
    f = recv(s)
    if not f or f[0] != WELCOME or "udp_source" not in f[1].get("tests", "").split(",") or not f[1].get("version"):
        fail("udp_source: WELCOME %r lists no udp_source or no version" % (f,))
    for bad, needle in (({"rate": "-1"}, "not a whole number"), ({"rate": "1e9"}, "not a whole number"),
                        ({"rate": "2000000000000"}, "out of range"), ({"size": "100000"}, "over this peer"),
                        ({"size": "4"}, "too small"), ({"time": "100000"}, "--max-time")):
        kv = {"test": "udp_source", "time": "1", "size": "100", "rate": "800000"}
        kv.update(bad)
        s.sendall(frame(START, kv))
        f = recv(s)
        if not f or f[0] != ERROR or needle not in f[1].get("reason", ""):
            fail("udp_source %r: expected ERROR mentioning %r, got %r" % (bad, needle, f))
        print("udp_source %r: ERROR %r, session kept" % (bad, f[1]["reason"]))
    # 800 kbit/s of 100-byte datagrams for 0.5 s: 1000 pps, 500 datagrams
    s.sendall(frame(START, {"test": "udp_source", "time": "0.5", "size": "100", "rate": "800000"}))
    f = recv(s)
    if not f or f[0] != READY or f[1].get("rate") != "800000":
        fail("udp_source: START answered %r" % (f,))
    dport = int(f[1]["port"])
    x = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    x.bind(("127.0.0.2", 0))
    x.sendto(b"h" * 8, (HOST, dport))
    x.settimeout(0.3)
    try:
        fail("udp_source: the peer sent %r to 127.0.0.2" % (x.recv(2000)[:8],))
    except socket.timeout:
        pass
    d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    d.connect((HOST, dport))
    d.send(b"h" * 8)
    d.settimeout(1)
    seqs = []
    try:
        while len(seqs) < 501:
            b = d.recv(2000)
            if len(b) != 100:
                fail("udp_source: a datagram of %d bytes, asked 100" % len(b))
            seqs.append(struct.unpack(">Q", b[:8])[0])
    except socket.timeout:
        pass
    if sorted(seqs) != list(range(500)):
        fail("udp_source: got %d datagrams numbered %s..%s, expected 0..499" % (len(seqs), min(seqs or [0]), max(seqs or [0])))
    s.sendall(frame(STOP))
    f = recv(s)
    if not f or f[0] != REPORT or f[1].get("packets_tx") != "500" or f[1].get("bytes_tx") != "50000" \
            or not 0.4 < float(f[1].get("send_s", 0)) < 1:
        fail("udp_source: REPORT %r, expected packets_tx=500 bytes_tx=50000 send_s about 0.5" % (f,))
    s.sendall(frame(BYE))
    print("udp_source: 500 datagrams numbered 0..499, none to 127.0.0.2, REPORT packets_tx=500 send_s=%s" % f[1]["send_s"])


def main():
    port, case = int(sys.argv[1]), sys.argv[2]
    key = open(sys.argv[3], "rb").readline().rstrip(b"\r\n") if len(sys.argv) > 3 else None
    if case == "random":
        for seed in range(5):
            s = conn(port)
            try:
                s.sendall(random.Random(seed).randbytes(65536))
            except (BrokenPipeError, ConnectionResetError):
                pass
            f = recv(s)
            if f is not None and f[0] != ERROR:
                fail("random bytes (seed %d): answered %r" % (seed, f))
            print("random bytes (seed %d): %s" % (seed, "ERROR %r" % f[1]["reason"] if f else "dropped"))
            s.close()
        # and random bodies behind a valid header, so the body parser is hit
        for seed in range(5):
            r = random.Random(100 + seed)
            body = r.randbytes(r.randrange(1, 4094))
            s = conn(port)
            s.sendall(struct.pack(">IBB", len(body) + 2, 1, r.randrange(1, 12)) + body)
            f = recv(s)
            if f is None or f[0] != ERROR:
                fail("random body (seed %d): answered %r" % (seed, f))
            print("random body of %d bytes: ERROR %r" % (len(body), f[1]["reason"]))
            s.close()
    elif case == "truncated":
        s = conn(port)
        s.sendall(frame(HELLO, {"client": "half"})[:9])
        expect_dropped(s, "truncated message", 4)
    elif case == "huge":
        s = conn(port)
        s.sendall(struct.pack(">IBB", 0xFFFFFFFF, 1, HELLO))
        expect_error_then_close(s, "length prefix of 4 GB", "4294967295")
    elif case == "version":
        s = conn(port)
        s.sendall(frame(HELLO, ver=2))
        expect_error_then_close(s, "protocol version 2", "version 2")
    elif case == "order":
        s = conn(port)
        s.sendall(frame(START, {"test": "tcp_stream"}))
        expect_error_then_close(s, "START before HELLO", "before HELLO")
    elif case == "silent":
        s = conn(port)
        expect_dropped(s, "silent client", 4)
    elif case == "many":
        socks = [conn(port) for _ in range(100)]
        for s in socks:
            try:
                s.sendall(frame(HELLO))
            except (BrokenPipeError, ConnectionResetError):
                pass
        seen = {"WELCOME": 0, "BUSY": 0, "closed": 0}
        for s in socks:
            f = recv(s)
            k = "closed" if f is None else {WELCOME: "WELCOME", BUSY: "BUSY"}.get(f[0])
            if k is None:
                fail("100 connections: answered %r" % (f,))
            seen[k] += 1
        for s in socks:
            s.close()
        print("100 connections at once: %s" % seen)
        if seen["WELCOME"] < 1:
            fail("100 connections: nobody was welcome")
    elif case == "wrongkey":
        s = conn(port)
        s.sendall(frame(HELLO))
        f = recv(s)
        if not f or f[0] != WELCOME or f[1].get("auth") != "hmac-sha256":
            fail("wrong key: WELCOME %r" % (f,))
        mac = hmac.new(key + b"x", bytes.fromhex(f[1]["nonce"]), hashlib.sha256).hexdigest()
        s.sendall(frame(AUTH, {"mac": mac}))
        expect_error_then_close(s, "wrong key", "wrong key")
        s = conn(port)
        s.sendall(frame(HELLO))
        recv(s)
        s.sendall(frame(START, {"test": "tcp_stream"}))
        expect_error_then_close(s, "START without the key", "before the key")
    elif case == "foreign":
        # data from another address (127.0.0.2 is loopback too) is refused
        s = conn(port)
        s.sendall(frame(HELLO))
        recv(s)
        for test in ("tcp_stream", "udp_stream"):
            s.sendall(frame(START, {"test": test, "time": "5", "size": "100"}))
            f = recv(s)
            if not f or f[0] != READY:
                fail("foreign: START answered %r" % (f,))
            dport = int(f[1]["port"])
            if test == "tcp_stream":
                x = socket.socket()
                x.bind(("127.0.0.2", 0))
                x.settimeout(5)
                x.connect((HOST, dport))
                try:
                    x.sendall(b"S" + b"x" * 1000)
                    closed = x.recv(1) == b""
                except ConnectionResetError:
                    closed = True
                if not closed:
                    fail("foreign: the peer kept a data connection from 127.0.0.2")
                d = socket.create_connection((HOST, dport), timeout=5)
                d.sendall(b"S" + b"y" * 500)
                d.close()
            else:
                x = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                x.bind(("127.0.0.2", 0))
                for _ in range(10):
                    x.sendto(b"x" * 100, (HOST, dport))
                d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                for _ in range(5):
                    d.sendto(b"y" * 100, (HOST, dport))
            s.sendall(frame(STOP))
            f = recv(s)
            want = 500
            if not f or f[0] != REPORT or int(f[1]["bytes_rx"]) != want:
                fail("foreign %s: REPORT %r, expected bytes_rx=%d" % (test, f, want))
            print("%s: data from 127.0.0.2 refused; from the client, bytes_rx=%s" % (test, f[1]["bytes_rx"]))
    elif case == "udpsource":
        udp_source(port)
    elif case == "udpcap":
        udp_source_capped(port)
    elif case == "hold":
        # a client in the middle of a test, streaming until it is killed
        s = conn(port)
        s.sendall(frame(HELLO))
        recv(s)
        s.sendall(frame(START, {"test": "tcp_stream", "time": "60"}))
        f = recv(s)
        d = socket.create_connection((HOST, int(f[1]["port"])), timeout=5)
        d.sendall(b"S")
        print("streaming", flush=True)
        while True:
            d.sendall(b"x" * 65536)
    elif case == "session":
        session(port, key)
    else:
        fail("unknown case " + case)


main()
