#!/bin/sh
# SPDX-License-Identifier: MIT
# `serve -v` writes each line whole (issue 40, defect 8c): sessions are
# threads, and their lines, written piece by piece, interleaved. 8 clients
# at once on loopback, 25 connections each (HELLO, three STARTs of a test
# that does not exist, BYE): every line the peer wrote on stderr is one of
# the lines those events make, and there are as many of each as the
# clients were answered. The peer takes 64 connections from one address
# (not 8): some of the clients' last connections may not be gone yet.
. "$(dirname "$0")/lib.sh"
need_python
CLIENT="$(dirname "$0")/net_peer_client.py"
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait; rm -rf "$T"' EXIT

start_peer log --max-conns-per-addr 64
python3 "$CLIENT" "$PORT" loglines 8 25 >"$T/client" || fail "client: $(cat "$T/client")"
kill "$LAST"
wait "$LAST" 2>/dev/null || true
PIDS=""
python3 - "$T/log.err" "$(cat "$T/client")" <<'PY' || fail "serve -v's lines (in $T/log.err) are not whole"
import re, sys
err, answered = sys.argv[1], dict(kv.split("=") for kv in sys.argv[2].split())
line = re.compile(r"perfguide serve: 127\.0\.0\.1:[0-9]+: (?:(session \(no key\))|(busy): "
                  r"[0-9]+ sessions running \(--max-tests [0-9]+\)|(test refused): unknown test 'z{32}'|"
                  r"(closed at once): [0-9]+ control connections from 127\.0\.0\.1 \(--max-conns[-a-z]*\))\Z")
seen = {"session (no key)": 0, "busy": 0, "test refused": 0, "closed at once": 0}
with open(err, "rb") as f:
    data = f.read()
if not data.endswith(b"\n"):
    sys.exit("the log does not end with a whole line")
for n, text in enumerate(data.decode("utf-8", "replace").split("\n")[:-1], 1):
    m = line.match(text)
    if not m:
        sys.exit("line %d is not a whole line of the peer's: %r" % (n, text[:300]))
    seen[next(g for g in m.groups() if g)] += 1
want = {"session (no key)": int(answered["welcome"]), "busy": int(answered["busy"]),
        "test refused": int(answered["refused"]), "closed at once": int(answered["closed"])}
if seen != want:
    sys.exit("lines %r, the clients were answered %r" % (seen, want))
print("serve -v: %d whole lines: %r" % (sum(seen.values()), seen))
PY
