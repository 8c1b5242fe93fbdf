# SPDX-License-Identifier: MIT
"""A raw client of perfguide serve's control protocol, for the e2e tests.

usage: net_peer_client.py PORT CASE [ARGS...] [KEYFILE]
Each case prints what the peer did and exits 1 when it was wrong.
"""
import hashlib
import hmac
import random
import select
import socket
import struct
import sys
import threading
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


def conn(port, timeout=5, src=None):
    """A control connection, from source address src (127.0.0.2...) when given."""
    s = socket.create_connection((HOST, port), timeout=timeout,
                                 source_address=(src, 0) if src else None)
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


def read_all(dport, hello, src=None):
    """A TCP data connection (from src when given) that says hello (its role
    byte...) and reads until the peer closes it: how many bytes came."""
    x = socket.create_connection((HOST, dport), timeout=5, source_address=(src, 0) if src else None)
    n = 0
    try:
        x.sendall(hello)
        while True:
            b = x.recv(65536)
            if not b:
                break
            n += len(b)
    except (ConnectionResetError, BrokenPipeError):
        pass
    x.close()
    return n


def open_session(port, key=None, src=None, what="normal session"):
    """HELLO (and AUTH with the key): the control socket and WELCOME's lines."""
    s = conn(port, src=src)
    s.sendall(frame(HELLO))
    f = recv(s)
    if not f or f[0] != WELCOME:
        fail("%s: HELLO answered %r" % (what, f))
    welcome = f[1]
    if welcome.get("auth") == "hmac-sha256":
        mac = hmac.new(key, bytes.fromhex(welcome["nonce"]), hashlib.sha256).hexdigest()
        s.sendall(frame(AUTH, {"mac": mac}))
        f = recv(s)
        if not f or f[0] != AUTH_OK:
            fail("%s: AUTH answered %r" % (what, f))
    return s, welcome


def session(port, key=None, nbytes=1000000, src=None):
    s, _ = open_session(port, key, src)
    s.sendall(frame(START, {"test": "tcp_stream", "time": "5", "streams": "1"}))
    f = recv(s)
    if not f or f[0] != READY:
        fail("normal session: START answered %r" % (f,))
    d = socket.create_connection((HOST, int(f[1]["port"])), timeout=5,
                                 source_address=(src, 0) if src else None)
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
    print("normal session%s: START tcp_stream, %d bytes sent, REPORT bytes_rx=%s"
          % (" from " + src if src else "", nbytes, f[1]["bytes_rx"]))


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


def preauth(port, key):
    """Issue 13, defect 5: connections that said HELLO and never proved the
    key take no session slot; authenticated sessions still do."""
    held = []
    for i in range(4):
        s = conn(port)
        s.sendall(frame(HELLO))
        f = recv(s)
        if not f or f[0] != WELCOME or f[1].get("auth") != "hmac-sha256":
            fail("preauth: HELLO %d answered %r" % (i + 1, f))
        held.append(s)
    print("4 connections said HELLO and wait without the key")
    session(port, key, nbytes=10000)
    for s in held:
        s.close()
    sessions = [open_session(port, key, what="authenticated session %d" % (i + 1))[0] for i in range(4)]
    s = conn(port)
    s.sendall(frame(HELLO))
    f = recv(s)
    mac = hmac.new(key, bytes.fromhex(f[1]["nonce"]), hashlib.sha256).hexdigest()
    s.sendall(frame(AUTH, {"mac": mac}))
    f = recv(s)
    if not f or f[0] != BUSY or "--max-tests" not in f[1].get("reason", ""):
        fail("preauth: a fifth authenticated client beside 4 sessions: AUTH answered %r, expected BUSY" % (f,))
    print("4 authenticated sessions: the fifth is answered BUSY %r after its AUTH" % f[1]["reason"])
    for x in sessions + [s]:
        x.close()


def flood(port, n, keep):
    """Issue 13, defect 5: n silent connections from 127.0.0.1 hold at most
    `keep` places (--max-conns-per-addr); a client from 127.0.0.2 still gets
    a session."""
    socks = []
    for _ in range(n):
        try:
            socks.append(conn(port))
        except OSError:
            break
    time.sleep(0.5)
    closed, _, _ = select.select(socks, [], [], 0)
    kept = len(socks) - len(closed)
    print("%d silent connections from 127.0.0.1: the peer kept %d, closed %d at once"
          % (len(socks), kept, len(closed)))
    if kept != keep:
        fail("flood: the peer kept %d of %d silent connections from one address, expected %d"
             % (kept, len(socks), keep))
    session(port, nbytes=10000, src="127.0.0.2")
    for s in socks:
        s.close()


def presession(port, key=None):
    """Issue 13, defect 5: whatever a client does before its session is set
    up (silence, HELLO and no key, a frame a byte at a time), it is dropped
    within the pre-session time (--idle-timeout, default 3 s, counted from
    the connection), not 10 s later per message."""
    results = {}

    def silent():
        s = conn(port, timeout=20)
        t0 = time.monotonic()
        results["silent"] = (recv(s), time.monotonic() - t0)

    def hello_then_no_key(delay):
        what = "HELLO after %g s, then no key" % delay
        s = conn(port, timeout=20)
        t0 = time.monotonic()
        time.sleep(delay)
        s.sendall(frame(HELLO))
        f = recv(s)
        if not f or f[0] != WELCOME:
            results[what] = ((f,), 0)
            return
        results[what] = (recv(s), time.monotonic() - t0)

    def trickle():
        s = conn(port, timeout=20)
        t0 = time.monotonic()
        h = frame(HELLO, {"client": "slow"})
        try:
            for b in h:
                s.sendall(bytes([b]))
                r, _, _ = select.select([s], [], [], 0.5)
                if r:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        results["one byte every 0.5 s"] = (recv(s), time.monotonic() - t0)

    cases = [(silent, ()), (trickle, ())]
    if key:
        cases += [(hello_then_no_key, (0,)), (hello_then_no_key, (2,))]
    threads = [threading.Thread(target=c, args=a) for c, a in cases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for what, (f, dt) in sorted(results.items()):
        if f is not None:
            fail("presession: %s: the peer answered %r" % (what, f))
        if dt > 4:
            fail("presession: %s: dropped only after %.1f s from connecting (the pre-session time is 3 s)"
                 % (what, dt))
        print("%s: dropped %.1f s after connecting" % (what, dt))


def limits(port, rate, maxtime, key=None):
    """Issue 13, defect 13: the limits WELCOME announces (max_rate in
    Mbit/s, max_time in s) are the ones applied: a longer test is refused,
    and udp_source asked for no rate gets the cap."""
    s, w = open_session(port, key)
    if float(w.get("max_rate", -1)) != rate or float(w.get("max_time", -1)) != maxtime:
        fail("limits: WELCOME max_rate=%s max_time=%s, expected %g and %g"
             % (w.get("max_rate"), w.get("max_time"), rate, maxtime))
    s.sendall(frame(START, {"test": "tcp_maerts", "time": "%g" % (maxtime + 1)}))
    f = recv(s)
    if not f or f[0] != ERROR or "--max-time" not in f[1].get("reason", ""):
        fail("limits: a test of %g s answered %r" % (maxtime + 1, f))
    s.sendall(frame(START, {"test": "udp_source", "time": "1", "size": "1000"}))
    f = recv(s)
    want = "%d" % (rate * 1000000)
    if not f or f[0] != READY or f[1].get("rate") != want:
        fail("limits: udp_source with no rate: READY %r, expected rate=%s" % (f, want))
    s.sendall(frame(STOP))
    f = recv(s)
    if not f or f[0] != REPORT or f[1].get("packets_tx") != "0":
        fail("limits: STOP before any datagram: %r" % (f,))
    s.sendall(frame(BYE))
    print("WELCOME max_rate=%s max_time=%s; time=%g refused; udp_source rate=%s"
          % (w["max_rate"], w["max_time"], maxtime + 1, want))


def icmp(port):
    """Issue 13, defect 13: a udp_source whose receiver is gone (its port
    answers ICMP port unreachable) stops after a few refusals instead of
    sending the rest of its schedule."""
    s, _ = open_session(port)
    # 8 Mbit/s of 1000-byte datagrams: 1000 a second for 2 s
    s.sendall(frame(START, {"test": "udp_source", "time": "2", "size": "1000", "rate": "8000000"}))
    f = recv(s)
    if not f or f[0] != READY:
        fail("icmp: START answered %r" % (f,))
    d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    d.connect((HOST, int(f[1]["port"])))
    d.send(b"h" * 8)
    d.settimeout(1)
    got = 0
    while got < 50:
        d.recv(2000)
        got += 1
    # Everything the peer sent before the close is counted as received,
    # however late this client got the CPU: what it sends after the close
    # is what the ICMP refusals must stop.
    d.setblocking(False)
    try:
        while True:
            d.recv(2000)
            got += 1
    except BlockingIOError:
        pass
    d.close()
    time.sleep(1)
    s.sendall(frame(STOP))
    f = recv(s)
    if not f or f[0] != REPORT:
        fail("icmp: STOP answered %r" % (f,))
    sent, send_s = int(f[1]["packets_tx"]), float(f[1].get("send_s", 0))
    print("udp_source at 1000 datagrams/s, receiver closed after %d: the peer sent %d in %.3f s"
          % (got, sent, send_s))
    # 3 refused datagrams stop it; a few more may have been on their way
    # when the first refusal came back. Without the stop it sends 2000.
    if sent - got > 20:
        fail("icmp: the peer kept sending to a closed port: %d datagrams after the receiver closed (%d in all, %.3f s)"
             % (sent - got, sent, send_s))
    s.sendall(frame(BYE))


def shared_cap(port, mbit):
    """--max-rate caps what the peer sends in all tests together: two
    tcp_maerts sessions of 1 s at once get between them the rate over the
    time both ran (from the first READY to the last byte, as seen here: at
    least the peer's sending time), plus the budget an idle peer keeps
    (50 ms of the rate) and one message each; not that much each."""
    out = {}
    first_ready = []

    def one(i):
        s, _ = open_session(port)
        s.sendall(frame(START, {"test": "tcp_maerts", "time": "1", "msg": "10000", "streams": "1"}))
        f = recv(s)
        first_ready.append(time.monotonic())
        if not f or f[0] != READY:
            out[i] = ("START answered %r" % (f,), 0, 0)
            return
        n = read_all(int(f[1]["port"]), b"M")
        end = time.monotonic()
        s.sendall(frame(STOP))
        f = recv(s)
        ok = f and f[0] == REPORT and int(f[1]["bytes_tx"]) == n
        out[i] = (None if ok else "REPORT %r" % (f,), n, end)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        if out[i][0]:
            fail("shared cap: session %d: %s, received %d bytes" % (i, out[i][0], out[i][1]))
    total = out[0][1] + out[1][1]
    span = max(out[0][2], out[1][2]) - min(first_ready)
    limit = mbit * 1e6 / 8 * (span + 0.05) + 2 * 10000
    print("two tcp_maerts at once under --max-rate %g: %d + %d = %d bytes in %.3f s (at most %d)"
          % (mbit, out[0][1], out[1][1], total, span, limit))
    if total > limit or min(out[0][1], out[1][1]) == 0:
        fail("shared cap: %d + %d bytes in %.3f s, at most %d in all" % (out[0][1], out[1][1], span, limit))


def only_client(port):
    """What held and must keep holding: the peer sends to no address but the
    control connection's. For every test in which it sends, a data socket
    from 127.0.0.2 (loopback too) gets nothing; the client's own does."""
    s, _ = open_session(port)

    def start(kv):
        s.sendall(frame(START, kv))
        f = recv(s)
        if not f or f[0] != READY:
            fail("only client: START %r answered %r" % (kv, f))
        return int(f[1]["port"])

    def stop():
        s.sendall(frame(STOP))
        f = recv(s)
        if not f or f[0] != REPORT:
            fail("only client: STOP answered %r" % (f,))
        return f[1]

    for kind in ("tcp_maerts", "tcp_bidir"):
        dport = start({"test": kind, "time": "0.3", "msg": "1000"})
        got = read_all(dport, b"M", "127.0.0.2")
        if got:
            fail("only client: %s sent %d bytes to 127.0.0.2" % (kind, got))
        n = read_all(dport, b"M")
        r = stop()
        if n == 0 or int(r["bytes_tx"]) != n:
            fail("only client: %s: the client got %d bytes, REPORT %r" % (kind, n, r))
        print("%s: nothing to 127.0.0.2, %d bytes to the client" % (kind, n))
    for kind in ("tcp_rr", "tcp_crr"):
        dport = start({"test": kind, "time": "5", "size": "100"})
        got = read_all(dport, b"E" + b"q" * 100, "127.0.0.2")
        if got:
            fail("only client: %s answered 127.0.0.2 with %d bytes" % (kind, got))
        d = socket.create_connection((HOST, dport), timeout=5)
        d.sendall(b"E" + b"q" * 100)
        if read_exact(d, 100) != b"q" * 100:
            fail("only client: %s: no answer to the client" % kind)
        d.close()
        r = stop()
        if r["packets_tx"] != "1":
            fail("only client: %s: REPORT %r, expected one transaction" % (kind, r))
        print("%s: nothing to 127.0.0.2, one transaction with the client" % kind)
    for kind in ("udp_rr", "udp_source", "udp_stream"):
        dport = start({"test": kind, "time": "5", "size": "100", "rate": "800000"})
        x = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        x.bind(("127.0.0.2", 0))
        x.settimeout(0.3)
        for _ in range(3):
            x.sendto(b"x" * 100, (HOST, dport))
        try:
            fail("only client: %s sent %r to 127.0.0.2" % (kind, x.recv(2000)[:8]))
        except socket.timeout:
            pass
        x.close()
        d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        d.connect((HOST, dport))
        d.settimeout(1)
        d.send(b"y" * 100)
        got = 0
        if kind != "udp_stream":
            d.recv(2000)
            got = 1
        r = stop()
        d.close()
        print("%s: nothing to 127.0.0.2%s, REPORT packets_tx=%s" % (kind, ", the client got an answer" if got else "", r["packets_tx"]))
    s.sendall(frame(BYE))


def log_lines(port, nthreads, per):
    """nthreads clients at once, per connections each: HELLO, then (when
    welcome) three STARTs of a test that does not exist, each refused in a
    line of the peer's log, then BYE. Prints what the peer answered."""
    counts = {"welcome": 0, "busy": 0, "refused": 0, "closed": 0}
    lock = threading.Lock()
    errors = []

    def client(n):
        try:
            for i in range(per):
                s = conn(port)
                s.sendall(frame(HELLO))
                f = recv(s)
                if f is not None and f[0] == WELCOME:
                    for k in range(3):
                        s.sendall(frame(START, {"test": "z" * 40}))
                        g = recv(s)
                        if g is None or g[0] != ERROR:
                            errors.append("START of an unknown test: %r" % (g,))
                            break
                        with lock:
                            counts["refused"] += 1
                    s.sendall(frame(BYE))
                    with lock:
                        counts["welcome"] += 1
                elif f is not None and f[0] == BUSY:
                    with lock:
                        counts["busy"] += 1
                elif f is None:	# closed at once (a limit on connections)
                    with lock:
                        counts["closed"] += 1
                else:
                    errors.append("HELLO: answered %r" % (f,))
                recv(s)	# the peer closes
                s.close()
        except OSError as e:
            errors.append("client %d: %s" % (n, e))

    ts = [threading.Thread(target=client, args=(n,)) for n in range(nthreads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        fail("; ".join(errors[:3]))
    print("welcome=%(welcome)d busy=%(busy)d refused=%(refused)d closed=%(closed)d" % counts)


def main():
    port, case = int(sys.argv[1]), sys.argv[2]
    # the key file is the last argument of the cases that take one
    kf = sys.argv[-1] if len(sys.argv) > 3 and not sys.argv[-1].replace(".", "").isdigit() else None
    key = open(kf, "rb").readline().rstrip(b"\r\n") if kf else None
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
    elif case == "preauth":
        preauth(port, key)
    elif case == "flood":
        flood(port, int(sys.argv[3]), int(sys.argv[4]))
    elif case == "presession":
        presession(port, key)
    elif case == "limits":
        limits(port, float(sys.argv[3]), float(sys.argv[4]), key)
    elif case == "icmp":
        icmp(port)
    elif case == "sharedcap":
        shared_cap(port, float(sys.argv[3]))
    elif case == "loglines":
        log_lines(port, int(sys.argv[3]), int(sys.argv[4]))
    elif case == "onlyclient":
        only_client(port)
    else:
        fail("unknown case " + case)


main()
