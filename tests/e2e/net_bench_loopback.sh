# SPDX-License-Identifier: MIT
# The net group over loopback, against the peer each benchmark starts for
# itself: known answers (a paced UDP stream sends exactly rate x time and
# loses nothing at a low rate; bidirectional = each way summed), the seed's
# labels, the peer stopped afterwards, and bad input refused.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"
cp "$PG" "$T/pg-net-e2e"
PGC="$T/pg-net-e2e"
R="--runs 2 --no-db"

# Two lanes side by side, each a peer of its own per benchmark: the paced
# streams (which wait on their schedule, not on the CPUs) in one, the
# flat-out streams and request/response in the other. A result in one
# process (--processes 1) where the check is of the network, not of the
# processes; the first, paced, run keeps the default of two.
paced() {
	"$PGC" run net.udp.stream -p rate=2 -p size=1472,210 -p time=1 $R --out "$T/u.jsonl" >"$T/table1" 2>"$T/err1" \
		|| fail "udp.stream failed: $(cat "$T/err1")"
	# Ingress: the peer sends by the same schedule, this side counts.
	"$PGC" run net.udp.stream -p dir=in -p rate=2 -p size=1472,210 -p time=1 $R --processes 1 --out "$T/ui.jsonl" \
		>>"$T/table1" 2>>"$T/err1" || fail "udp.stream dir=in failed: $(cat "$T/err1")"
}
flat() {
	P1="--runs 1 --processes 1 --no-db"
	"$PGC" run net.udp.stream -p rate=max -p time=1 $P1 --out "$T/m.jsonl" >"$T/table2" 2>"$T/err2" \
		|| fail "udp.stream rate=max failed: $(cat "$T/err2")"
	"$PGC" run net.udp.stream -p dir=in -p rate=max -p time=1 $P1 --out "$T/mi.jsonl" >>"$T/table2" 2>>"$T/err2" \
		|| fail "udp.stream dir=in rate=max failed: $(cat "$T/err2")"
	"$PGC" run net.tcp.stream net.tcp.maerts net.tcp.bidir -p time=1 $P1 --out "$T/t.jsonl" \
		>>"$T/table2" 2>>"$T/err2" || fail "tcp streams failed: $(cat "$T/err2")"
	"$PGC" run net.tcp.rr net.tcp.crr net.udp.rr -p time=1 -p size=100 $P1 --out "$T/r.jsonl" \
		>>"$T/table2" 2>>"$T/err2" || fail "rr failed: $(cat "$T/err2")"
}
paced &
l1=$!
flat &
l2=$!
rc=0
wait $l1 || rc=1
wait $l2 || rc=1
[ $rc -eq 0 ] || exit 1
cat "$T/table1" "$T/table2" >"$T/table"
cat "$T/err1" "$T/err2" >"$T/err"
# On a machine others load, a loopback peer descheduled for a few ms loses
# datagrams at any rate: then the search ends in an error that says so.
# The quick suite's searches, each 1 s at the end; alone, not beside the
# flat-out lane, whose losses would end it so more often.
"$PGC" run net.udp.zeroloss --suite quick -p time=1 --no-db --out "$T/z.jsonl" >>"$T/table" 2>>"$T/err" || true
"$PGC" list net.udp.zeroloss --json >"$T/zl.json"
# A peer nobody runs: an error with the reason (exit 1, as a CI gating on
# the run needs), not a skip that passes, not a number.
set +e
"$PGC" run net.tcp.rr -p time=1 --peer 127.0.0.1:9 $R --out "$T/s.jsonl" >>"$T/table" 2>>"$T/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "an unreachable --peer exited $rc, not 1: $(cat "$T/err")"
sleep 0.2
! pgrep -f "$PGC" >/dev/null || fail "processes left: $(pgrep -af "$PGC")"

python3 - "$T" <<'PY'
import json, os, re, sys
from pgcheck import check, one, results
d = sys.argv[1]

u = results(d + "/u.jsonl", end=None)
for size in (1472, 210):
    pps = 2e6 / 8 / size
    sent = one(u, "net.udp.stream", "datagrams", size=size)
    for s in sent["samples"]:
        # exactly floor(pps x 1 s) datagrams, none more, none fewer
        check(s == int(pps), "size %d: sent %d datagrams, expected %d" % (size, s, int(pps)))
    o = one(u, "net.udp.stream", "offered", size=size)
    # the count above is the known answer; the rate also depends on when the
    # last datagram left on a loaded machine
    check(all(abs(s - 2) / 2 < 0.05 for s in o["samples"]), "offered %s, asked 2 Mbit/s" % o["samples"])
    loss = one(u, "net.udp.stream", "loss", size=size)
    check(all(s == 0 for s in loss["samples"]), "loss on loopback at 2 Mbit/s: %s" % loss["samples"])
    check("remote_busy_pct" in o["cpu"], "no remote CPU load")
    check(not o.get("label"), "a paced stream has no seed label: %s" % o.get("label"))

ui = results(d + "/ui.jsonl", end=None)
for size in (1472, 210):
    pps = 2e6 / 8 / size
    sent = one(ui, "net.udp.stream", "datagrams", size=size, dir="in")
    # the peer sent exactly floor(pps x 1 s) and every one arrived
    check(all(s == int(pps) for s in sent["samples"]), "in, size %d: peer sent %s, expected %d" % (size, sent["samples"], int(pps)))
    loss = one(ui, "net.udp.stream", "loss", size=size, dir="in")
    check(all(s == 0 for s in loss["samples"]), "ingress loss on loopback at 2 Mbit/s: %s" % loss["samples"])
    k = one(ui, "net.udp.stream", "kpps", size=size, dir="in")
    th = one(ui, "net.udp.stream", "throughput", size=size, dir="in")
    for a, b in zip(th["samples"], k["samples"]):
        check(abs(a / (b * size * 8e-3) - 1) < 1e-6, "ingress Mbit/s %g and kpps %g disagree" % (a, b))
    check(all(abs(s - 2) / 2 < 0.05 for s in th["samples"]), "ingress received %s, asked 2 Mbit/s" % th["samples"])
    check("remote_busy_pct" in th["cpu"] and "busy_pct" in th["cpu"], "ingress CPU loads: %s" % th["cpu"])
    check(not th.get("label"), "a paced ingress stream has no seed label: %s" % th.get("label"))
mi = results(d + "/mi.jsonl", end=None)
mt = one(mi, "net.udp.stream", "throughput", dir="in")
check(mt["label"] == "UDP Throughput possible loss, ingress, 1518-byte frames: THROUGHPUT", "label %r" % mt.get("label"))
mo = one(mi, "net.udp.stream", "offered", dir="in")["samples"][0]
ml = one(mi, "net.udp.stream", "loss", dir="in")["samples"][0]
check(0 < mt["samples"][0] <= mo * 1.000001, "ingress received %g > offered %g" % (mt["samples"][0], mo))
check(abs(mt["samples"][0] - mo * (1 - ml / 100)) <= 1e-6 * mo, "ingress received != offered x (1 - loss)")

m = results(d + "/m.jsonl", end=None)
mt = one(m, "net.udp.stream", "throughput")
check(mt["label"] == "UDP Throughput possible loss, 1518-byte frames: THROUGHPUT", "label %r" % mt.get("label"))
ml = one(m, "net.udp.stream", "loss")
check(ml["label"] == "UDP Throughput possible loss, 1518-byte frames: Packet Loss", "label %r" % ml.get("label"))
mo = one(m, "net.udp.stream", "offered")["samples"][0]
check(0 < mt["samples"][0] <= mo * 1.000001, "received %g > offered %g" % (mt["samples"][0], mo))
check(abs(mt["samples"][0] - mo * (1 - ml["samples"][0] / 100)) <= 1e-6 * mo, "received != offered x (1 - loss)")

t = results(d + "/t.jsonl", end=None)
for b in ("net.tcp.stream", "net.tcp.maerts"):
    r = one(t, b, "throughput")
    check(r["unit"] == "Mbit/s" and all(s > 1 for s in r["samples"]), "%s: %s" % (b, r["samples"]))
    sd = one(t, b, "sd_local")
    check(all(s > 0 for s in sd["samples"]), "%s service demand %s" % (b, sd["samples"]))
    check("remote_busy_pct" in r["cpu"], b + ": no remote CPU load")
bt = one(t, "net.tcp.bidir", "throughput")
tx = one(t, "net.tcp.bidir", "tx")
rx = one(t, "net.tcp.bidir", "rx")
check(bt["label"] == "TCP Bidirectional Throughput", "bidir label %r" % bt.get("label"))
# each way named as part of that test, not as a second bidirectional row
check(tx["label"] == "TCP Bidirectional Throughput: this side sends", "tx label %r" % tx.get("label"))
check(rx["label"] == "TCP Bidirectional Throughput: the peer sends", "rx label %r" % rx.get("label"))
for a, b, c in zip(bt["samples"], tx["samples"], rx["samples"]):
    check(abs(a - (b + c)) <= 1e-6 * a and b > 0 and c > 0, "bidir %g != %g + %g" % (a, b, c))

r = results(d + "/r.jsonl", end=None)
for b in ("net.tcp.rr", "net.tcp.crr", "net.udp.rr"):
    for size in (100,):
        tr = one(r, b, "transactions", size=size)
        check(all(s > 10 for s in tr["samples"]), "%s: %s trans/s" % (b, tr["samples"]))
        q = [one(r, b, m, size=size)["samples"] for m in ("p50", "p90", "p99", "max")]
        for s in zip(*q):
            check(0 < s[0] <= s[1] <= s[2] <= s[3], "%s percentiles out of order: %s" % (b, s))

z = results(d + "/z.jsonl", end=None)
check(len(z) in (1, 4), "zeroloss: %d results" % len(z))
if z[0]["status"] == "error":
    check("lost" in z[0]["reason"] or "loss" in z[0]["reason"], "zeroloss error: %s" % z[0]["reason"])
    print("note: no zero-loss rate held on this loaded loopback: " + z[0]["reason"])
else:
    zt = one(z, "net.udp.zeroloss", "ndr")
    zk = one(z, "net.udp.zeroloss", "ndr_kpps")
    zp = one(z, "net.udp.zeroloss", "pdr")
    check(zt["label"] == "UDP Throughput 0% loss, 1518-byte frames: THROUGHPUT", "label %r" % zt.get("label"))
    check(one(z, "net.udp.zeroloss", "ndr_kpps")["label"] == "UDP Throughput 0% loss, 1518-byte frames: Packets Per Second", "kpps label")
    check(not zp.get("label"), "pdr is not the seed's row")
    # The quick suite's searches, each one sample: the median is the
    # median search's, for every metric, and is no search's mean.
    zp_ = [p for p in json.load(open(d + "/zl.json"))[0]["params"] if p["name"] == "searches"][0]
    n = int(zp_.get("quick", zp_["default"]))
    check(n >= 3 and n % 2 == 1, "the quick suite's searches: %d" % n)
    for x in (zt, zk, zp):
        check(len(x["samples"]) == n and len(x["sample_s"]) == n, "%s: %d samples, %d searches"
              % (x["metric"], len(x["samples"]), n))
        check(x["median"] in x["samples"] and x["median"] == sorted(x["samples"])[n // 2],
              "%s: median %s is not the median search of %s" % (x["metric"], x["median"], x["samples"]))
        check(x["stop"] == "once", "%s: stop %s" % (x["metric"], x["stop"]))
    check(all(s > 1 for s in zt["samples"]), "zeroloss %s" % zt["samples"])
    for i in range(n):
        check(abs(zt["samples"][i] / (zk["samples"][i] * 1472 * 8e-3) - 1) < 1e-6, "Mbit/s and kpps disagree")
        check(zp["samples"][i] >= zt["samples"][i], "PDR %s below NDR %s" % (zp["samples"], zt["samples"]))
    # Every trial is in the raw file the note names, by search: each
    # search's short ones, growing, and the final ones of the full time (1 s
    # here), among which the search's NDR, with nothing lost.
    note = zt["note"]
    m = re.search(r"MLRsearch, (\d+) search(es)?: ([0-9+]+) trials, ([0-9+]+) of them 1 s; .* trials in (\S+)$", note)
    check(m and int(m.group(1)) == n, "zeroloss note: %s" % note)
    trials = [int(x) for x in m.group(3).split("+")]
    full = [int(x) for x in m.group(4).split("+")]
    rows = [l.split("\t") for l in open(os.path.join(d, m.group(5))) if l[0].isdigit()]
    check(len(rows) == sum(trials), "%d trials in the raw file, the note says %s" % (len(rows), m.group(3)))
    for i in range(n):
        sr = [r for r in rows if int(r[0]) == i + 1]
        check(len(sr) == trials[i] and [int(r[1]) for r in sr] == list(range(1, len(sr) + 1)),
              "search %d: trials %s, the note says %d" % (i + 1, [r[1] for r in sr], trials[i]))
        durs = [float(r[3]) for r in sr]
        check(durs == sorted(durs) and durs[0] == 0.1 and durs[-1] == 1.0, "search %d: durations %s" % (i + 1, durs))
        check(sum(1 for x in durs if x == 1.0) == full[i], "search %d: full trials %s" % (i + 1, durs))
        ndr = [r for r in sr if float(r[3]) == 1.0 and abs(float(r[4]) - zt["samples"][i]) < 1e-3 * zt["samples"][i]]
        check(ndr and ndr[0][7] == ndr[0][6] and ndr[0][9] == "good", "search %d: the NDR's trial: %s" % (i + 1, ndr))

s = results(d + "/s.jsonl", end=None)
check(len(s) == 1 and s[0]["status"] == "error" and "127.0.0.1:9" in s[0]["reason"],
      "unreachable peer: %s" % s)
PY

# In the guide, the bidirectional test is one row and its two ways, named
# as such: no second "TCP bidirectional throughput" row.
"$PG" report "$T/t.jsonl" -o "$T/t.md" 2>/dev/null || fail "report of the TCP streams failed"
[ "$(grep -ci '^| TCP bidirectional' "$T/t.md")" -eq 3 ] &&
	grep -q '^| TCP Bidirectional Throughput (Mbit/s) |' "$T/t.md" &&
	grep -q '^| TCP Bidirectional Throughput: this side sends (Mbit/s) |' "$T/t.md" &&
	grep -q '^| TCP Bidirectional Throughput: the peer sends (Mbit/s) |' "$T/t.md" ||
	fail "the bidirectional rows: $(grep -i '^| TCP bidirectional' "$T/t.md")"

# A peer of our own on loopback: one with a key, then one killed mid-test.
start_serve() {
	# The previous peer's "listening on" line must be gone before the new
	# peer's shell truncates the file, or a loaded machine reads the old one.
	rm -f "$T/serve.out"
	"$PGC" serve --bind 127.0.0.1 --port 0 "$@" >"$T/serve.out" 2>"$T/serve.err" &
	SERVE=$!
	i=0
	until grep -q "listening on" "$T/serve.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "serve did not start: $(cat "$T/serve.err")"
		sleep 0.05
	done
	ADDR=$(sed -n 's/^listening on \([0-9.:]*\).*/\1/p' "$T/serve.out" | head -1)
	[ -n "$ADDR" ] || fail "no address in serve's 'listening on' line: $(cat "$T/serve.out")"
}
printf 'a-key-for-this-test\n' >"$T/key"
chmod 600 "$T/key"
start_serve --psk-file "$T/key"
"$PGC" run net.tcp.rr -p time=1 --runs 1 --peer "$ADDR" --psk-file "$T/key" --no-db --out "$T/k.jsonl" \
	>>"$T/table" 2>>"$T/err" || fail "run with the key failed: $(cat "$T/err")"
# The key's path is an input, not a condition of the measurement: not recorded.
grep -q "$T/key\|psk_file" "$T/k.jsonl" && fail "the key file's path is in the results"
# Without the key the peer cannot be used: an error that says so (exit 1).
set +e
"$PGC" run net.tcp.rr -p time=1 --runs 1 --peer "$ADDR" --no-db --out "$T/n.jsonl" >>"$T/table" 2>>"$T/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "run without the key exited $rc, not 1: $(cat "$T/err")"
kill $SERVE; wait $SERVE 2>/dev/null || true
# A peer from before udp_source (its WELCOME lists no tests): ingress is a
# skip that says to update it, not an error.
python3 - "$T/old.port" <<'PY' &
import socket, struct, sys
l = socket.socket()
l.bind(("127.0.0.1", 0))
l.listen(1)
open(sys.argv[1] + ".tmp", "w").write(str(l.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
l.settimeout(20)
c, _ = l.accept()
c.settimeout(5)
c.recv(4096)
body = b"auth=none\nmax_time=300\nmax_msg=1048576\nmax_streams=16\nmax_rate=0\n"
c.sendall(struct.pack(">IBB", len(body) + 2, 1, 2) + body)
try:
    while c.recv(4096):
        pass
except OSError:
    pass
PY
OLD=$!
i=0
until [ -s "$T/old.port" ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "old peer did not start"; sleep 0.05; done
"$PGC" run net.udp.stream -p dir=in -p time=1 --runs 1 --peer "127.0.0.1:$(cat "$T/old.port")" --no-db \
	--out "$T/o.jsonl" >>"$T/table" 2>>"$T/err" || fail "ingress from an old peer was not a skip: $(cat "$T/err")"
wait $OLD || true
start_serve
( sleep 1.5; kill -9 $SERVE ) &
set +e
"$PGC" run net.tcp.stream mem.bw.rd -p time=3 -p size=64k --runs 2 --min-time 0.01 --peer "$ADDR" \
	--no-db --out "$T/x.jsonl" >>"$T/table" 2>>"$T/err"
rc=$?
set -e
wait
[ $rc -eq 1 ] || fail "peer killed mid-test: exit $rc, expected 1 (a benchmark failed)"
python3 - "$T" <<'PY'
import sys
from pgcheck import check, results
d = sys.argv[1]
k = results(d + "/k.jsonl", end=None)
check(k and all(r["status"] == "ok" for r in k), "with the key: %s" % k[:1])
n = results(d + "/n.jsonl", end=None)
check(len(n) == 1 and n[0]["status"] == "error" and "key" in n[0]["reason"], "without the key: %s" % n)
o = results(d + "/o.jsonl", end=None)
check(len(o) == 1 and o[0]["status"] == "skipped" and "does not send UDP: update perfguide there" in o[0]["reason"],
      "ingress from an old peer: %s" % o)
print("old peer: " + o[0]["reason"])
x = results(d + "/x.jsonl", end=None)
net = [r for r in x if r["bench"] == "net.tcp.stream"]
mem = [r for r in x if r["bench"] == "mem.bw.rd"]
check(len(net) == 1 and net[0]["status"] == "error" and net[0]["reason"], "peer killed mid-test: %s" % net)
check(mem and mem[0]["status"] == "ok", "the run did not go on after the peer died: %s" % mem)
print("peer killed mid-test: " + net[0]["reason"])
PY

expect_usage_error "--peer empty" run net.tcp.stream --peer ""
expect_usage_error "--peer with a comma" run net.tcp.stream --peer 127.0.0.1,127.0.0.2
expect_usage_error "--peer without a net benchmark" run mem.bw.rd --peer 127.0.0.1
expect_usage_error "rate not a number" run net.udp.stream -p rate=fast
expect_usage_error "rate zero" run net.udp.stream -p rate=0
expect_usage_error "dir unknown" run net.udp.stream -p dir=sideways
expect_usage_error "dir=in, datagram too small for its number" run net.udp.stream -p dir=in -p size=4
expect_usage_error "zero-loss dir=in, datagram too small" run net.udp.zeroloss -p dir=in -p size=7
expect_usage_error "rate negative" run net.udp.stream -p dir=in -p rate=-5
expect_usage_error "size absurd" run net.udp.stream -p dir=in -p size=1g
expect_usage_error "psk file missing" run net.tcp.stream --psk-file "$T/nonexistent"
echo ok
