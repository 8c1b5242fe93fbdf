# SPDX-License-Identifier: MIT
# The peer's limits against a client that wants to lock it or turn it into
# a flood (issue 13, defects 5 and 13), and the rule that held before them:
# the peer sends to no address but its client's. Loopback only (127.0.0.2
# stands for another machine), on ports the kernel picks, every peer with
# its default limits unless a line says otherwise.
. "$(dirname "$0")/lib.sh"
need_python
CLIENT="$(dirname "$0")/net_peer_client.py"
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait; rm -rf "$T"' EXIT

# client CASE ARGS...: one case of the raw client against the last peer.
client() {
	python3 "$CLIENT" "$PORT" "$@" || fail "case $* (peer log: $(tail -n 5 "$T/$name.err"))"
}

# Defect 5: connections that never get to a session cannot keep others out.
# 64 silent connections from one address (--max-conns is 64) hold 8 places
# (--max-conns-per-addr); another address still gets a session.
start_peer conns
client flood 64 8
# Nothing before the session lasts more than the pre-session time (3 s).
client presession
start_peer conns2 --max-conns-per-addr 2
client flood 5 2
grep -q 'closed at once: 2 control connections from 127.0.0.1 (--max-conns-per-addr)' "$T/conns2.err" \
	|| fail "no log line for the per-address limit: $(tail -n 3 "$T/conns2.err")"

printf 'limits key\n' >"$T/key"
chmod 600 "$T/key"
if "$PG" serve --bind 127.0.0.1 --port 0 --psk-file "$T/none" 2>&1 | grep -q 'without libcrypto'; then
	echo "note: built without libcrypto: the keyed cases are not tried" >&2
	KEYED=
else
	KEYED=1
	# Four connections that said HELLO and never proved the key take no
	# session slot (--max-tests 4): a keyed client gets its session.
	start_peer keyed --psk-file "$T/key"
	client preauth "$T/key"
	client presession "$T/key"
	# With a key the peer has no rate cap and the longer time by default.
	client limits 0 300 "$T/key"
fi

# Defect 13: without a key, the peer sends at most 1000 Mbit/s in all, for
# at most 60 s, unless the operator raises it; a UDP source stops when the
# client's port refuses its datagrams.
start_peer open
client limits 1000 60
client icmp
grep -q 'udp_source stopped: the client refused 3 datagrams (ICMP port unreachable)' "$T/open.err" \
	|| fail "no log line for the stopped source: $(tail -n 3 "$T/open.err")"
start_peer raised --max-rate 0 --max-time 300
client limits 0 300
start_peer shared --max-rate 8
client sharedcap 8

# What held and must keep holding: nothing goes to another address.
start_peer only
client onlyclient
for p in $PIDS; do kill -0 "$p" || fail "a peer died"; done

expect_usage_error "zero per-address connections" serve --max-conns-per-addr 0
expect_usage_error "per-address connections not a number" serve --max-conns-per-addr many
echo "ok"
