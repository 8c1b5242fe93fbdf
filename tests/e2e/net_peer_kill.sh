# SPDX-License-Identifier: MIT
# perfguide serve survives a client killed in the middle of a test: the
# test's slot is freed (the peer allows one session at a time here) and the
# next session counts bytes exactly. Loopback only.
. "$(dirname "$0")/lib.sh"
need_python
CLIENT="$(dirname "$0")/net_peer_client.py"
SERVE=""
HOLD=""
trap 'for p in $SERVE $HOLD; do kill -9 "$p" 2>/dev/null; done; wait; rm -rf "$T"' EXIT

"$PG" serve --bind 127.0.0.1 --port 0 --max-tests 1 -v >"$T/serve.out" 2>"$T/serve.err" &
SERVE=$!
i=0
while ! grep -q '^listening on' "$T/serve.out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "serve did not start: $(cat "$T/serve.err")"
	sleep 0.1
done
PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/serve.out")

python3 "$CLIENT" "$PORT" hold >"$T/hold.out" 2>&1 &
HOLD=$!
i=0
while ! grep -q streaming "$T/hold.out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the client did not start its test: $(cat "$T/hold.out")"
	sleep 0.1
done
sleep 0.3
kill -9 $HOLD
wait $HOLD 2>/dev/null || true
HOLD=""

# The slot comes back once the peer sees the control connection close.
i=0
until python3 "$CLIENT" "$PORT" session >"$T/session.out" 2>&1; do
	i=$((i + 1))
	[ $i -lt 20 ] || fail "no session after the client was killed: $(cat "$T/session.out")"
	sleep 0.1
done
cat "$T/session.out"
kill -0 $SERVE || fail "the peer died"
grep -q 'test ended without STOP' "$T/serve.err" || fail "the peer did not end the killed client's test"
echo "ok"
