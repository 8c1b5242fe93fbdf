# SPDX-License-Identifier: MIT
# perfguide serve under bad input: every bad client is answered with an ERROR
# or dropped, and afterwards a normal session still counts bytes exactly.
# Loopback only, on a port the kernel picks.
. "$(dirname "$0")/lib.sh"
need_python
CLIENT="$(dirname "$0")/net_peer_client.py"
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait; rm -rf "$T"' EXIT
# Short timeouts: the drops below come within a second.
FAST="--idle-timeout 1 --read-timeout 1"

start_peer plain $FAST --max-tests 2
for c in random truncated huge version order silent many foreign udpsource session; do
	python3 "$CLIENT" "$PORT" $c || fail "case $c (peer log: $(tail -n 5 "$T/plain.err"))"
done
kill -0 $LAST || fail "the peer died"
grep -q 'dropped: timed out waiting for a message' "$T/plain.err" || fail "no idle drop in the log"
grep -q 'dropped: timed out waiting for the rest of a message' "$T/plain.err" || fail "no read-timeout drop"

# --max-rate caps what the peer sends in udp_source too.
start_peer capped $FAST --max-rate 0.4
python3 "$CLIENT" "$PORT" udpcap || fail "udp_source under --max-rate"

# A key: a wrong one is refused, the right one works.
printf 'e2e key\n' >"$T/key"
chmod 600 "$T/key"
if ! "$PG" serve --bind 127.0.0.1 --port 0 --psk-file "$T/none" 2>&1 | grep -q 'without libcrypto'; then
	start_peer keyed $FAST --psk-file "$T/key"
	python3 "$CLIENT" "$PORT" wrongkey "$T/key" || fail "wrong key"
	python3 "$CLIENT" "$PORT" session "$T/key" || fail "session with the key"
	grep -q 'can be read by others' "$T/keyed.err" && fail "warned about a key file of mode 600"
	chmod 644 "$T/key"
	start_peer loose $FAST --psk-file "$T/key"
	grep -q "warning: key file $T/key can be read by others" "$T/loose.err" || fail "no warning for a key file of mode 644"
else
	expect_usage_error "--psk-file without libcrypto" serve --port 0 --psk-file "$T/key"
	grep -q 'built without libcrypto: --psk-file needs libssl-dev at build time' "$T/err" || fail "message"
fi

# Listening beyond loopback without a key warns. Tried only inside a new
# network namespace (nothing but its own lo there); skipped without one.
if command -v unshare >/dev/null 2>&1 && unshare -rn true 2>/dev/null; then
	unshare -rn sh -c '"$1" serve --bind 0.0.0.0 --port 0 & p=$!; sleep 1; kill $p' sh "$PG" \
		>"$T/any.out" 2>"$T/any.err" || true
	grep -q 'listening on 0.0.0.0:' "$T/any.out" || fail "0.0.0.0: no listening line: $(cat "$T/any.err")"
	grep -q 'warning: listening on 0.0.0.0:[0-9]* without --psk-file' "$T/any.err" || fail "no warning for 0.0.0.0"
	grep -q 'warning' "$T/plain.err" && fail "warned on loopback"
else
	echo "note: no user network namespace here: the 0.0.0.0 warning is not tried" >&2
fi

# Bad options and key files: one line, exit 2, nothing listens.
expect_usage_error "port out of range" serve --port 70000
expect_usage_error "bad bind address" serve --bind nowhere --port 0
expect_usage_error "missing key file" serve --bind 127.0.0.1 --port 0 --psk-file "$T/none"
: >"$T/empty"
expect_usage_error "empty key" serve --bind 127.0.0.1 --port 0 --psk-file "$T/empty"
expect_usage_error "zero max-tests" serve --max-tests 0
expect_usage_error "unknown option" serve --frob
echo "ok"
