# The net group between two network namespaces joined by a veth pair that
# this test creates and removes: `perfguide serve` in one, `perfguide run
# --peer` in the other, private addresses on the veth only. Then known
# answers from shaped links: tc tbf at 100 Mbit/s gives TCP 90-100 Mbit/s
# and a zero-loss UDP rate of 90-100 Mbit/s at 1472 bytes (97.2 is the
# payload share of 1514-byte packets); 1% random loss (netem, or nftables
# where the kernel has no netem) gives a UDP loss near 1%.
. "$(dirname "$0")/lib.sh"
need_json
need_python
[ "$(id -u)" -eq 0 ] || skip "creating network namespaces needs root"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
command -v tc >/dev/null 2>&1 || skip "tc (iproute2) is not installed"

cp "$PG" "$T/pg-netns-e2e"
PGC="$T/pg-netns-e2e"
n=$(( $$ % 250 + 1 ))
A=pgsrv$$
B=pgcli$$
VA=pgva$$
VB=pgvb$$
SRV=10.231.$n.1
CLI=10.231.$n.2
SERVE_PID=
cleanup() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
ip netns add "$A" 2>"$T/nserr" || skip "cannot create a network namespace here: $(cat "$T/nserr")"
ip netns add "$B" 2>"$T/nserr" || skip "cannot create a network namespace here: $(cat "$T/nserr")"
ip link add "$VA" netns "$A" type veth peer name "$VB" netns "$B" 2>"$T/nserr" \
	|| skip "cannot create a veth pair here: $(cat "$T/nserr")"
ip -n "$A" addr add "$SRV/30" dev "$VA"
ip -n "$B" addr add "$CLI/30" dev "$VB"
ip -n "$A" link set "$VA" up
ip -n "$B" link set "$VB" up
ip -n "$A" link set lo up
ip -n "$B" link set lo up

ip netns exec "$A" "$PGC" serve --bind "$SRV" --port 12867 >"$T/serve.out" 2>"$T/serve.err" &
SERVE_PID=$!
i=0
until ip netns exec "$A" ss -Hltn "sport = :12867" 2>/dev/null | grep -q 12867; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "serve did not listen: $(cat "$T/serve.err")"
	kill -0 "$SERVE_PID" 2>/dev/null || fail "serve exited: $(cat "$T/serve.err")"
	sleep 0.1
done

run_b() {
	out=$1; shift
	ip netns exec "$B" "$PGC" run "$@" --peer "$SRV" --no-db --out "$T/$out" >>"$T/table" 2>>"$T/err" \
		|| fail "run $* failed: $(cat "$T/err")"
}

run_b plain.jsonl net.tcp.stream net.udp.stream -p time=1 -p rate=20 --runs 2
ip netns exec "$B" tc qdisc add dev "$VB" root tbf rate 100mbit burst 32kb latency 10ms
run_b tbf.jsonl net.tcp.stream net.udp.zeroloss -p time=2 --runs 1
ip netns exec "$B" tc qdisc del dev "$VB" root
loss=none
if ip netns exec "$B" tc qdisc add dev "$VB" root netem loss 1% 2>/dev/null; then
	loss=netem
elif command -v nft >/dev/null 2>&1 &&
	ip netns exec "$A" nft add table inet pgloss 2>/dev/null &&
	ip netns exec "$A" nft add chain inet pgloss in '{ type filter hook input priority 0; }' &&
	ip netns exec "$A" nft add rule inet pgloss in meta l4proto udp numgen random mod 100 0 drop; then
	loss=nft
fi
[ $loss = none ] || run_b loss.jsonl net.udp.stream -p time=2 -p rate=50 --runs 1

python3 - "$T" "$loss" <<'PY'
import json, sys
d, loss = sys.argv[1], sys.argv[2]
def load(n):
    return [r for r in map(json.loads, open(d + "/" + n)) if r["type"] == "result"]
def check(c, what):
    if not c:
        sys.exit("FAIL: " + what)
def one(rs, bench, metric):
    out = [r for r in rs if r["bench"] == bench and r.get("metric") == metric]
    check(len(out) == 1 and out[0]["status"] == "ok", "%s %s: %s" % (bench, metric, out))
    return out[0]

p = load("plain.jsonl")
t = one(p, "net.tcp.stream", "throughput")
check(all(s > 10 for s in t["samples"]), "tcp.stream over veth: %s" % t["samples"])
check(t["params"]["peer"].startswith("10.231."), "peer not recorded: %s" % t["params"])
o = one(p, "net.udp.stream", "offered")
check(all(abs(s - 20) < 0.2 for s in o["samples"]), "offered %s, asked 20" % o["samples"])
l = one(p, "net.udp.stream", "loss")
check(all(s == 0 for s in l["samples"]), "loss over a plain veth at 20 Mbit/s: %s" % l["samples"])

s = load("tbf.jsonl")
t = one(s, "net.tcp.stream", "throughput")["median"]
z = one(s, "net.udp.zeroloss", "throughput")["median"]
check(90 <= t <= 100, "tcp.stream through tbf 100mbit: %.1f Mbit/s" % t)
check(90 <= z <= 100, "udp.zeroloss through tbf 100mbit: %.1f Mbit/s" % z)

if loss == "none":
    print("SKIP part: no netem and no nftables here for random loss")
else:
    l = one(load("loss.jsonl"), "net.udp.stream", "loss")["median"]
    # 8490 datagrams at 1%: 85 lost, standard deviation 9
    check(0.6 <= l <= 1.45, "udp.stream with 1%% %s loss: %.2f%%" % (loss, l))
PY
cat "$T/table"
echo ok
