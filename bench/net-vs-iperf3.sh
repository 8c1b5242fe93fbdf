#!/bin/sh
# SPDX-License-Identifier: MIT
# net-vs-iperf3.sh: perfguide's network benchmarks beside iperf3 (the Debian
# package) over loopback, in one run on this machine, with the targets of
# issue 5. A benchmark script, not a test: it exits 0 after printing what the
# targets say (2 only on a usage error).
#
#   net.tcp.stream time=T        vs  iperf3 -c 127.0.0.1 -t T (one stream)     >= 95% of iperf3
#   net.udp.zeroloss size=1472   vs  the highest iperf3 -u -l 1472 -b RATE
#                                    with 0 datagrams lost (binary search with
#                                    short trials, confirmed over T)           >= iperf3's
#   cpu.busy_pct of each perfguide result  vs  /proc/stat read here around
#                                    the same run                              within 5 points
#   net.udp.stream dir=in rate=R     vs  iperf3 -u -R -b R -l 1472 (the peer
#                                    sends, this side counts)                  received, loss side by side
#   net.udp.zeroloss dir=in          vs  the same zero-loss search with -R     >= iperf3's
#
# Rounds alternate perfguide and iperf3, so a neighbour's load hits both
# alike; the medians are compared. Loopback by default; with --netns RATE
# (root) both run between two network namespaces joined by a veth pair the
# script creates and removes, the client's side shaped by tc tbf to RATE
# (e.g. 1000mbit, a gigabit link), or unshaped with --netns none. Nothing
# leaves the machine either way.
set -u

PG=
T=10
ROUNDS=3
NETNS=
WINDOW=
PORT=5299
INRATE=500
ONLY=
SIZE=1472
usage() {
	cat <<'USAGE'
usage: bench/net-vs-iperf3.sh [--perfguide PATH] [--time SECONDS] [--rounds N]

  --perfguide PATH  perfguide binary (default: build/perfguide next to bench/)
  --time SECONDS    length of each throughput trial (default 10)
  --rounds N        alternating rounds of perfguide and iperf3 (default 3)
  --window SIZE     UDP socket buffers on both ends for the zero-loss search
                    (perfguide -p window=SIZE, iperf3 -w SIZE; e.g. 4m);
                    default: the system's, which on loopback sets the answer
  --netns RATE      between two network namespaces over a veth pair shaped
                    to RATE by tc tbf (1000mbit, 100mbit), or none (root);
                    the peer's side is shaped too, for the ingress rows
  --in-rate MBIT    offered rate of the ingress stream row (default 500)
  --only in         only the ingress rows (stream at --in-rate, zero loss)
  --only zeroloss   only the egress zero-loss rows (with the time each
                    search took: perfguide's whole run, iperf3's search)
  --size BYTES      UDP payload of the zero-loss and ingress rows (default
                    1472; 18 is the 64-byte frame)

iperf3 is the Debian package: apt-get install iperf3.
USAGE
}
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) PG=$2; shift 2 ;;
	--time) T=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--netns) NETNS=$2; shift 2 ;;
	--window) WINDOW=$2; shift 2 ;;
	--in-rate) INRATE=$2; shift 2 ;;
	--only) ONLY=$2; shift 2 ;;
	--size) SIZE=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "net-vs-iperf3.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case "$T$ROUNDS$INRATE$SIZE" in *[!0-9]*|'') echo "net-vs-iperf3.sh: --time, --rounds and --in-rate take whole numbers" >&2; exit 2 ;; esac
case "$ONLY" in ''|in|zeroloss) ;; *) echo "net-vs-iperf3.sh: --only takes in or zeroloss" >&2; exit 2 ;; esac
[ -n "$PG" ] || PG=$(dirname "$0")/../build/perfguide
[ -x "$PG" ] || { echo "net-vs-iperf3.sh: no perfguide binary at $PG (--perfguide)" >&2; exit 2; }
command -v iperf3 >/dev/null 2>&1 || { echo "net-vs-iperf3.sh: iperf3 is not installed (apt-get install iperf3)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "net-vs-iperf3.sh: python3 is needed to read the results" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/pg-net-bench.XXXXXX")
HOST=127.0.0.1
INA=
INB=
PEER=
SERVE=
NA=pgbnA$$
NB=pgbnB$$
cleanup() {
	[ -n "$SERVE" ] && kill "$SERVE" 2>/dev/null
	if [ -n "$NETNS" ]; then
		ip netns del "$NA" 2>/dev/null
		ip netns del "$NB" 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
if [ -n "$NETNS" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "net-vs-iperf3.sh: --netns needs root" >&2; exit 2; }
	HOST=10.232.$(( $$ % 250 + 1 )).1
	CLI=10.232.$(( $$ % 250 + 1 )).2
	ip netns add "$NA" && ip netns add "$NB" &&
		ip link add pgbva$$ netns "$NA" type veth peer name pgbvb$$ netns "$NB" &&
		ip -n "$NA" addr add "$HOST/30" dev pgbva$$ && ip -n "$NB" addr add "$CLI/30" dev pgbvb$$ &&
		ip -n "$NA" link set pgbva$$ up && ip -n "$NB" link set pgbvb$$ up &&
		ip -n "$NA" link set lo up && ip -n "$NB" link set lo up ||
		{ echo "net-vs-iperf3.sh: cannot create the namespaces and veth pair" >&2; exit 2; }
	if [ "$NETNS" != none ]; then
		ip netns exec "$NB" tc qdisc add dev pgbvb$$ root tbf rate "$NETNS" burst 64kb latency 10ms ||
			{ echo "net-vs-iperf3.sh: tc tbf rate $NETNS failed" >&2; exit 2; }
		# the peer's side, for ingress; a short queue drops what the link
		# cannot carry instead of slowing the sender's socket
		ip netns exec "$NA" tc qdisc add dev pgbva$$ root tbf rate "$NETNS" burst 64kb limit 96kb ||
			{ echo "net-vs-iperf3.sh: tc tbf rate $NETNS failed" >&2; exit 2; }
	fi
	INA="ip netns exec $NA"
	INB="ip netns exec $NB"
	PEER="--peer $HOST"
	$INA "$PG" serve --bind "$HOST" --port 12867 >/dev/null 2>"$W/serve.err" &
	SERVE=$!
	sleep 0.5
	echo "between network namespaces over a veth pair, both sides shaped: $NETNS"
fi
export XDG_DATA_HOME="$W/xdg"

stat_busy() {	# busy and total jiffies of all CPUs, as perfguide counts them
	awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat
}
busy_pct() {	# busy_pct "B0 T0" "B1 T1"
	echo "$1 $2" | awk '{ if ($4 > $2) printf "%.1f", 100 * ($3 - $1) / ($4 - $2); else print "nan" }'
}

iperf_server() {	# a one-test iperf3 server on loopback, listening when this returns
	$INA iperf3 -s -1 -B "$HOST" -p $PORT >/dev/null 2>&1 &
	SRV=$!
	i=0
	until $INA ss -Hltn "sport = :$PORT" 2>/dev/null | grep -q . || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
iperf_json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@" 2>/dev/null; }

UDPDIR=
: >"$W/tcp"
: >"$W/udp"
[ "$ONLY" = in ] && ROUNDS_EG=0 || ROUNDS_EG=$ROUNDS
[ "$ONLY" = zeroloss ] && ROUNDS_TCP=0 || ROUNDS_TCP=$ROUNDS_EG
[ "$ONLY" = zeroloss ] && ROUNDS_IN=0 || ROUNDS_IN=$ROUNDS
now() { date +%s.%N; }

# --- TCP ---------------------------------------------------------------
[ "$ROUNDS_TCP" -gt 0 ] && echo "TCP, one stream to $HOST, ${T} s per trial, $ROUNDS rounds"
r=1
while [ $r -le "$ROUNDS_TCP" ]; do
	s0=$(stat_busy)
	$INB "$PG" run net.tcp.stream -p time="$T" --runs 1 $PEER --no-db --out "$W/tcp$r.jsonl" >/dev/null 2>"$W/err" ||
		{ echo "perfguide failed: $(cat "$W/err")"; exit 0; }
	s1=$(stat_busy)
	pg=$(python3 - "$W/tcp$r.jsonl" <<'PY'
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    if r["type"] == "result" and r["metric"] == "throughput":
        print("%.1f %.1f %.1f" % (r["median"], r["cpu"].get("busy_pct", float("nan")),
                                  r["cpu"].get("remote_busy_pct", float("nan"))))
PY
)
	iperf_server
	$INB iperf3 -c "$HOST" -p $PORT -t "$T" -J >"$W/ip$r.json" 2>/dev/null
	wait $SRV 2>/dev/null
	ip=$(iperf_json "$W/ip$r.json" '"%.1f %.1f" % (d["end"]["sum_received"]["bits_per_second"] / 1e6, d["end"]["cpu_utilization_percent"]["host_total"])')
	[ -n "$pg" ] || pg="0 nan nan"
	[ -n "$ip" ] || ip="0 nan"
	echo "$pg $(busy_pct "$s0" "$s1") $ip" >>"$W/tcp"
	set -- $pg $ip
	printf "  round %d: perfguide %s Mbit/s (cpu %s%%, remote %s%%; /proc/stat around the run %s%%)  iperf3 %s Mbit/s (its own process: %s%% of a CPU)\n" \
		$r "$1" "$2" "$3" "$(busy_pct "$s0" "$s1")" "$4" "$5"
	r=$((r + 1))
done

# --- UDP zero loss -------------------------------------------------------
[ "$ROUNDS_EG" -gt 0 ] && echo "UDP zero-loss rate at $SIZE-byte datagrams ($((SIZE + 46))-byte frames), socket buffers: ${WINDOW:-the system's}"
iperf_udp() {	# rate_mbit seconds -> "offered_mbit lost packets received_mbit"; -R when UDPDIR=-R
	iperf_server
	$INB iperf3 -c "$HOST" -p $PORT -u $UDPDIR ${WINDOW:+-w "$WINDOW"} -l "$SIZE" -b "${1}M" -t "$2" -J >"$W/u.json" 2>/dev/null
	wait $SRV 2>/dev/null
	iperf_json "$W/u.json" '"%.2f %d %d %.2f" % (d["end"]["sum_sent"]["bits_per_second"] / 1e6, d["end"]["sum"]["lost_packets"], d["end"]["sum"]["packets"], d["end"]["sum_received"]["bits_per_second"] / 1e6)' 2>/dev/null || echo "0 1 0 0"
}
# iperf3's best: a binary search like RFC 2544's (2 s trials, to 1%), then
# the answer held over a full trial (rates to 6 decimals of Mbit/s, for
# small datagrams); after a lossy one, the next try is just
# under what it got through and at least 2% lower (five tries), as
# net.udp.zeroloss does.
iperf_zeroloss() {
	lo=0
	hi=$(iperf_udp 100000 2 | cut -d' ' -f1)
	rate=$hi
	n=0
	while [ $n -lt 14 ]; do
		set -- $(iperf_udp "$rate" 2)
		if [ "$2" -eq 0 ] && awk "BEGIN{exit !($1 >= $rate * 0.99)}"; then lo=$rate; else hi=$rate; fi
		awk "BEGIN{exit !($hi - $lo <= $hi * 0.01)}" && break
		rate=$(awk "BEGIN{printf \"%.6f\", ($lo + $hi) / 2}")
		n=$((n + 1))
	done
	k=0
	found=$lo
	while [ $k -lt 5 ] && awk "BEGIN{exit !($lo > 0)}"; do
		set -- $(iperf_udp "$lo" "$T")
		[ "$2" -eq 0 ] && { echo "$1"; return; }
		echo "    iperf3: $2 of $3 lost over $T s at $lo Mbit/s (search found $found)" >&2
		lo=$(awk "BEGIN{a = $lo * 0.98; b = $1 * (1 - $2 / ($3 > 0 ? $3 : 1)) * 0.995; printf \"%.6f\", a < b ? a : b}")
		k=$((k + 1))
	done
	echo 0
}
pg_zeroloss() {	# -> "Mbit/s busy_pct" and "seconds /proc/stat-busy" of one perfguide run
	t0=$(now)
	s0=$(stat_busy)
	$INB "$PG" run net.udp.zeroloss -p size="$SIZE" -p time="$T" ${WINDOW:+-p window="$WINDOW"} $PEER --no-db --out "$W/z$r.jsonl" >/dev/null 2>"$W/err"
	s1=$(stat_busy)
	t1=$(now)
	python3 - "$W/z$r.jsonl" <<'PY'
import json, sys
out = "0 nan"
for r in map(json.loads, open(sys.argv[1])):
    if r["type"] == "result" and r["status"] != "ok":
        sys.stderr.write("    perfguide: %s\n" % r.get("reason"))
    elif r["type"] == "result" and r["metric"] in ("throughput", "ndr"):
        out = "%.3f %.1f" % (r["median"], r["cpu"].get("busy_pct", float("nan")))
        sys.stderr.write("    perfguide: %s\n" % r.get("note"))
print(out)
PY
	echo "$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") $(busy_pct "$s0" "$s1")"
}
r=1
while [ $r -le "$ROUNDS_EG" ]; do
	# the order alternates, so a neighbour's load hits both alike
	if [ $((r % 2)) -eq 1 ]; then
		pg=$(pg_zeroloss | tr '\n' ' ')
		t0=$(now); ip=$(iperf_zeroloss); t1=$(now)
	else
		t0=$(now); ip=$(iperf_zeroloss); t1=$(now)
		pg=$(pg_zeroloss | tr '\n' ' ')
	fi
	ipt=$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")
	set -- $pg
	echo "$1 $2 ${ip:-0} $3 $ipt" >>"$W/udp"
	printf "  round %d: perfguide %s Mbit/s = %s kpps in %s s (cpu %s%% over its final trials; /proc/stat around the whole run %s%%)  iperf3 %s Mbit/s = %s kpps in %s s\n" \
		$r "$1" "$(awk "BEGIN{printf \"%.1f\", $1 * 1e3 / ($SIZE * 8)}")" "$3" "$2" "$4" "${ip:-0}" \
		"$(awk "BEGIN{printf \"%.1f\", ${ip:-0} * 1e3 / ($SIZE * 8)}")" "$ipt"
	r=$((r + 1))
done

# --- UDP ingress: the peer sends, this side counts --------------------------
[ "$ROUNDS_IN" -gt 0 ] && echo "UDP ingress, $SIZE-byte datagrams: perfguide dir=in vs iperf3 -u -R, at ${INRATE} Mbit/s for ${T} s and at zero loss"
UDPDIR=-R
: >"$W/in"
r=1
while [ $r -le "$ROUNDS_IN" ]; do
	s0=$(stat_busy)
	$INB "$PG" run net.udp.stream -p dir=in -p size="$SIZE" -p rate="$INRATE" -p time="$T" --runs 1 \
		${WINDOW:+-p window="$WINDOW"} $PEER --no-db --out "$W/i$r.jsonl" >/dev/null 2>"$W/err"
	s1=$(stat_busy)
	$INB "$PG" run net.udp.zeroloss -p dir=in -p size="$SIZE" -p time="$T" ${WINDOW:+-p window="$WINDOW"} \
		$PEER --no-db --out "$W/iz$r.jsonl" >/dev/null 2>>"$W/err"
	pg=$(python3 - "$W/i$r.jsonl" "$W/iz$r.jsonl" <<'PY'
import json, sys
v = {}
for f in sys.argv[1:]:
    for r in map(json.loads, open(f)):
        if r["type"] != "result":
            continue
        if r["status"] != "ok":
            sys.stderr.write("    perfguide %s: %s\n" % (r["bench"], r.get("reason")))
            continue
        v[(r["bench"], r["metric"])] = r
s = v.get(("net.udp.stream", "throughput"))
o = v.get(("net.udp.stream", "offered"))
l = v.get(("net.udp.stream", "loss"))
z = v.get(("net.udp.zeroloss", "ndr")) or v.get(("net.udp.zeroloss", "throughput"))
print("%.1f %.1f %.3f %.1f %.1f %.1f" % (
    o["median"] if o else 0, s["median"] if s else 0, l["median"] if l else 100,
    s["cpu"].get("busy_pct", float("nan")) if s else float("nan"),
    s["cpu"].get("remote_busy_pct", float("nan")) if s else float("nan"), z["median"] if z else 0))
PY
)
	set -- $(iperf_udp "$INRATE" "$T")
	ipo=$1 iplost=$2 ippk=$3 ipr=$4
	iploss=$(awk "BEGIN{printf \"%.3f\", ($ippk > 0 ? 100 * $iplost / $ippk : 100)}")
	ipz=$(iperf_zeroloss)
	echo "$pg $ipo $ipr $iploss ${ipz:-0}" >>"$W/in"
	set -- $pg
	printf "  round %d: at %s Mbit/s: perfguide offered %s, received %s Mbit/s, loss %s%% (cpu %s%%, peer %s%%)  iperf3 offered %s, received %s Mbit/s, loss %s%%\n" \
		$r "$INRATE" "$1" "$2" "$3" "$4" "$5" "$ipo" "$ipr" "$iploss"
	printf "           zero loss: perfguide %s Mbit/s  iperf3 %s Mbit/s\n" "$6" "${ipz:-0}"
	r=$((r + 1))
done

SIZE=$SIZE python3 - "$W/tcp" "$W/udp" "$W/in" <<'PY'
import math, os, statistics, sys
SIZE = os.environ["SIZE"]
tcp = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
udp = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
ing = [list(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
med = lambda xs: statistics.median(xs) if xs else float("nan")
pt, it = med([r[0] for r in tcp]), med([r[4] for r in tcp])
# a round whose full-length trial never held without loss found no rate
pzs, izs = [r[0] for r in udp if r[0] > 0], [r[2] for r in udp if r[2] > 0]
pz, iz = med(pzs) if pzs else 0.0, med(izs) if izs else 0.0
cpu = [abs(r[1] - r[3]) for r in tcp if not math.isnan(r[1]) and not math.isnan(r[3])]
def verdict(ok): return "PASS" if ok else "FAIL"
print()
print("%-44s %12s %12s %8s  %s" % ("", "perfguide", "iperf3", "ratio", "target"))
if tcp:
    print("%-44s %12.1f %12.1f %8.3f  >= 0.95 %s" % ("TCP Mbit/s (median of rounds)", pt, it, pt / it if it else 0,
          verdict(it and pt / it >= 0.95)))
if udp:
    print("%-44s %12.3f %12.3f %8.3f  >= 1.00 %s" % ("UDP 0%% loss Mbit/s, %s B (median)" % SIZE, pz, iz,
          pz / iz if iz else 0, verdict(pz >= iz)))
    print("%-44s %s" % ("  ratio per round", " ".join("%.2f" % (r[0] / r[2]) for r in udp if r[2] > 0)))
    print("%-44s %12.1f %12.1f" % ("  seconds per search (median)", med([r[3] for r in udp]),
                                   med([r[4] for r in udp])))
    print("%-44s %12s %12s" % ("  rounds with a confirmed zero-loss rate", "%d/%d" % (len(pzs), len(udp)),
          "%d/%d" % (len(izs), len(udp))))
if tcp:
    print("%-44s %12s %12s %8s  %s" % ("TCP cpu.busy_pct vs /proc/stat by hand", "", "", "",
          "max diff %.1f points %s" % (max(cpu), verdict(max(cpu) <= 5)) if cpu else "no figure"))
if ing:
    # perfguide: offered received loss cpu peer_cpu zeroloss; iperf3: offered received loss zeroloss
    for name, a, b in (("ingress offered Mbit/s (median)", 0, 6), ("ingress received Mbit/s (median)", 1, 7),
                       ("ingress loss % (median)", 2, 8)):
        print("%-44s %12.3g %12.3g" % (name, med([r[a] for r in ing]), med([r[b] for r in ing])))
    pzi, izi = [r[5] for r in ing if r[5] > 0], [r[9] for r in ing if r[9] > 0]
    a, b = med(pzi) if pzi else 0.0, med(izi) if izi else 0.0
    print("%-44s %12.1f %12.1f %8.3f  >= 1.00 %s" % ("ingress UDP 0%% loss Mbit/s, %s B (median)" % SIZE, a, b,
          a / b if b else 0, verdict(a >= b)))
    print("%-44s %12s %12s" % ("  rounds with a confirmed zero-loss rate", "%d/%d" % (len(pzi), len(ing)),
          "%d/%d" % (len(izi), len(ing))))
print("The machine is shared: other jobs' load moves every figure; compare rounds.")
PY
