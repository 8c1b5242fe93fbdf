# SPDX-License-Identifier: MIT
# The net group between two network namespaces joined by a veth pair that
# this test creates and removes: `perfguide serve` in one, `perfguide run
# --peer` in the other, private addresses on the veth only. Then known
# answers from shaped links: tc tbf at 100 Mbit/s gives TCP 90-100 Mbit/s
# and a zero-loss UDP rate of 90-100 Mbit/s at 1472 bytes (97.2 is the
# payload share of 1514-byte packets); 1% random loss (netem, or nftables
# where the kernel has no netem) gives a UDP loss near 1%. Ingress (the peer
# sends) through tbf at 100 Mbit/s on the peer's side: 200 Mbit/s offered
# loses about half, and the zero-loss search finds 90-100 Mbit/s.
. "$(dirname "$0")/lib.sh"
need_json
need_python
[ "$(id -u)" -eq 0 ] || skip "creating network namespaces needs root"
need_cmd ip iproute2
need_cmd tc iproute2

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
# In a chroot or an unprivileged container the namespace is made but cannot
# be entered (ip netns exec remounts /: "mount --make-rslave /: Invalid argument").
ip netns exec "$A" true 2>"$T/nserr" || skip "cannot enter a network namespace here: $(head -n 1 "$T/nserr")"
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
		|| fail "run $* failed: $(tail -n 3 "$T/table") $(tail -n 2 "$T/err")"
}

# Receive buffers of 1 MB on every UDP test: a reader kept off the CPU for
# a few ms by the machine's other work (sanitizers, parallel tests) loses
# nothing, so what is lost is what the link lost.
run_b plain.jsonl net.tcp.stream net.udp.stream -p time=1 -p rate=20 -p window=1m --runs 2
# A 50 ms queue: a sender kept off the CPU for a moment by the machine's
# other work catches up on its schedule in a burst, which a shorter queue
# would drop; a rate above the link's still overflows it in a full trial.
ip netns exec "$B" tc qdisc add dev "$VB" root tbf rate 100mbit burst 32kb latency 50ms
run_b tbf.jsonl net.tcp.stream --runs 1 -p time=2
run_b tbfz.jsonl net.udp.zeroloss -p time=2 -p window=1m --runs 1
ip netns exec "$B" tc qdisc del dev "$VB" root
# Another rate: the search must find the link's, not a fixed figure.
ip netns exec "$B" tc qdisc add dev "$VB" root tbf rate 20mbit burst 16kb latency 50ms
run_b tbfz20.jsonl net.udp.zeroloss -p time=2 -p window=1m --runs 1
ip netns exec "$B" tc qdisc del dev "$VB" root
# A short queue (limit): the peer's socket never fills, the qdisc drops
# what the link cannot carry, as a switch would; a long one would slow the
# peer's sends instead (its socket buffer holds what waits in the queue).
ip netns exec "$A" tc qdisc add dev "$VA" root tbf rate 100mbit burst 32kb limit 48kb
run_b tbfin.jsonl net.udp.stream -p dir=in -p rate=200 -p time=2 --runs 1
run_b tbfinz.jsonl net.udp.zeroloss -p dir=in -p time=2 -p window=1m --runs 1
ip netns exec "$A" tc qdisc del dev "$VA" root
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
import os, sys
from pgcheck import check, one, results
d, loss = sys.argv[1], sys.argv[2]

p = results(d + "/plain.jsonl", end=None)
t = one(p, "net.tcp.stream", "throughput")
check(all(s > 10 for s in t["samples"]), "tcp.stream over veth: %s" % t["samples"])
check(t["params"]["peer"].startswith("10.231."), "peer not recorded: %s" % t["params"])
o = one(p, "net.udp.stream", "offered")
check(all(abs(s - 20) < 0.2 for s in o["samples"]), "offered %s, asked 20" % o["samples"])
l = one(p, "net.udp.stream", "loss")
check(all(s == 0 for s in l["samples"]), "loss over a plain veth at 20 Mbit/s: %s" % l["samples"])

# What the link allows is an upper bound on any machine; how close a sender
# kept off the CPU gets to it is not, so the lower bounds hold only on a
# machine that is not busier than its CPUs (else a tenth of the link).
low = 90 if os.getloadavg()[0] < os.cpu_count() else 10
if low < 90:
    print("load average %.1f on %d CPUs: lower bounds relaxed to %d Mbit/s" % (os.getloadavg()[0], os.cpu_count(), low))
# A zero-loss rate is the highest rate at which no frame of a trial was
# lost: a burst the sender could not pace (another process took its CPU
# for a moment) overflows the shaper's bucket and lowers it. What the test
# asserts is that the search finds the link, not a rate of another order:
# half the link is that, on a machine of any load.
zlow = low / 2 if low >= 90 else low
s = results(d + "/tbf.jsonl", end=None)
t = one(s, "net.tcp.stream", "throughput")["median"]
zr = one(results(d + "/tbfz.jsonl", end=None), "net.udp.zeroloss", "ndr")
z = zr["median"]
check(low <= t <= 100, "tcp.stream through tbf 100mbit: %.1f Mbit/s" % t)
check(zlow <= z <= 100, "udp.zeroloss through tbf 100mbit: %.1f Mbit/s (%s)" % (z, zr.get("note")))
pr = one(results(d + "/tbfz.jsonl", end=None), "net.udp.zeroloss", "pdr")
check(z <= pr["median"] <= 101, "PDR through tbf 100mbit: %.1f Mbit/s" % pr["median"])
z20 = one(results(d + "/tbfz20.jsonl", end=None), "net.udp.zeroloss", "ndr")
check(zlow / 5 <= z20["median"] <= 20, "udp.zeroloss through tbf 20mbit: %.1f Mbit/s (%s)" % (z20["median"], z20.get("note")))
print("zero loss through tbf: %.1f Mbit/s at 100mbit, %.1f at 20mbit" % (z, z20["median"]))

i = results(d + "/tbfin.jsonl", end=None)
o = one(i, "net.udp.stream", "offered")["median"]
r = one(i, "net.udp.stream", "throughput")["median"]
l = one(i, "net.udp.stream", "loss")["median"]
check(190 <= o <= 201, "ingress offered %.1f Mbit/s, asked 200" % o)
check(85 <= r <= 100, "ingress through tbf 100mbit: received %.1f Mbit/s" % r)
check(40 <= l <= 60, "ingress at 200 Mbit/s through tbf 100mbit: loss %.1f%%" % l)
zi = one(results(d + "/tbfinz.jsonl", end=None), "net.udp.zeroloss", "ndr")
check(zi["label"] == "UDP Throughput 0% loss, ingress, 1518-byte frames: THROUGHPUT", "label %r" % zi.get("label"))
check(zlow <= zi["median"] <= 100, "ingress udp.zeroloss through tbf 100mbit: %.1f Mbit/s (%s)" % (zi["median"], zi.get("note")))
print("ingress through tbf 100mbit: 200 offered, %.1f received, %.1f%% lost; zero loss at %.1f Mbit/s"
      % (r, l, zi["median"]))

if loss == "none":
    print("SKIP part: no netem and no nftables here for random loss")
else:
    l = one(results(d + "/loss.jsonl", end=None), "net.udp.stream", "loss")["median"]
    # 8490 datagrams at 1%: 85 lost, standard deviation 9
    check(0.6 <= l <= 1.45, "udp.stream with 1%% %s loss: %.2f%%" % (loss, l))
PY
cat "$T/table"
echo ok
