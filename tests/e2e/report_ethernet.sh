#!/bin/sh
# SPDX-License-Identifier: MIT
# The Ethernet section in the seed's shape (issue 38, item 8), from results
# files written here as runs record them (labels included), no measuring:
# - a run of one frame size (the quick suite's zero-loss search, UDP_STREAM
#   named by its id): the UDP tables' columns are named as a sweep's are
#   ("Throughput (Mbit/s)"), never by the label that carries the row's
#   frame ("...1518-byte frames: THROUGHPUT"); the CPU load after Mbit/s
#   and kpps, before the packet loss, as the seed's tables;
# - the intro says each benchmark's trial time with it where they differ
#   ("1 s per trial (TCP bidirectional throughput); ..."), not "1/2/10 s";
#   a run recorded with the older "{time} s per sample" reads the same way;
# - the standard sweep: rows by frame size, charts whose x is the frame
#   size with human axis titles, on a log axis where the figures span more
#   than 10x and on a linear one where they do not.
. "$(dirname "$0")/lib.sh"
need_python
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
def res(bench, params, metric, unit, v, label=None, higher=True, title=None):
    r = {"type": "result", "bench": bench, "params": params, "metric": metric, "unit": unit,
         "better": "higher" if higher else "lower", "status": "ok", "samples": [v * 0.99, v, v * 1.01],
         "median": v, "min": v * 0.99, "max": v * 1.01, "cv": 0.01, "stop": "ci", "cpu": {"busy_pct": 60.0}}
    if label:
        r["label"] = label
    if title:
        r["title"] = title
    return r
def run(name, sizes, stream_time, sections=None):
    run = {"type": "run", "schema": "perfguide/1", "id": name, "board": "vm", "started": "2026-12-01T00:00:00Z",
           "machine": {"board": "vm"}, "build": {}, "config": {}}
    if sections:
        run["sections"] = sections
    recs = [run]
    recs.append(res("net.tcp.bidir", {"peer": "local", "time": 1}, "throughput", "Mbit/s", 9000.0,
                    "TCP Bidirectional Throughput"))
    for size in sizes:
        frame = size + 46
        p = {"peer": "local", "time": 2, "size": size, "loss": "0.5", "window": "auto", "dir": "out"}
        lab = "UDP Throughput 0%% loss, %d-byte frames: " % frame
        recs.append(res("net.udp.zeroloss", p, "ndr", "Mbit/s", size * 2.5, lab + "THROUGHPUT"))
        recs.append(res("net.udp.zeroloss", p, "ndr_kpps", "kpps", 200.0 + size / 10.0, lab + "Packets Per Second"))
        p = {"peer": "local", "time": stream_time, "size": size, "rate": "max", "window": "auto", "dir": "out"}
        lab = "UDP Throughput possible loss, %d-byte frames: " % frame
        recs.append(res("net.udp.stream", p, "throughput", "Mbit/s", size * 3.0, lab + "THROUGHPUT"))
        recs.append(res("net.udp.stream", p, "kpps", "kpps", 300.0 - size / 20.0, lab + "Packets Per Second"))
        recs.append(res("net.udp.stream", p, "loss", "%", 0.5, lab + "Packet Loss", higher=False))
    recs.append({"type": "end", "finished": "2026-12-01T00:10:00Z", "status": "complete"})
    with open("%s/%s.jsonl" % (t, name), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
run("one", [1472], 10)
run("sweep", [1472, 18, 978, 82, 210], 3)
# as a run of an older perfguide recorded its section: "s per sample"
old = {"title": "Ethernet", "order": 100, "cpu_load": 1,
       "metrics": "throughput,tx,rx,kpps,ndr,ndr_kpps,loss,transactions,p50,p99",
       "intro": "Network throughput, with the CPU load it costs. Against the peer {peer} (local: a perfguide "
                "serve of its own on loopback), {time} s per sample.",
       "rows_by": "size", "rows_of": "net.udp.zeroloss,net.udp.stream",
       "rows_title": "Frame size (bytes)|UDP datagram size (bytes)", "rows_shown": "{size+46}|{#size}",
       "tables": "{title}; {dir=in?ingress (the peer sends)|egress (this side sends)}",
       "metric_titles": "ndr=Throughput,ndr_kpps=Packets per second,throughput=Throughput,kpps=Packets per second,"
                        "loss=Packet loss"}
run("older", [1472], 10, [old])
PY
for r in one sweep older; do
	"$PG" report "$T/$r.jsonl" -o "$T/$r.md" 2>"$T/err" || fail "report $r: $(cat "$T/err")"
done
et() { sed -n '/^## Ethernet/,/^## [^E]/p' "$T/$1.md"; }

# One frame size: the columns as a sweep's, the CPU load where the seed has it.
one=$(et one)
echo "$one" | grep -q '^| Frame size (bytes) | UDP datagram size (bytes) | vm: Throughput (Mbit/s) | vm: Packets per second (kpps) | vm: CPU load (system) % |$' ||
	fail "zero loss, one frame size: $(echo "$one" | grep '^| Frame')"
echo "$one" | grep -q '^| Frame size (bytes) | UDP datagram size (bytes) | vm: Throughput (Mbit/s) | vm: Packets per second (kpps) | vm: CPU load (system) % | vm: Packet loss (%) |$' ||
	fail "UDP_STREAM, one frame size: $(echo "$one" | grep '^| Frame')"
echo "$one" | grep '^| Frame' | grep -q -e 'byte frames' -e 'THROUGHPUT' -e 'Per Second' && fail "a label that names the row in a column's heading"
[ "$(echo "$one" | grep -c '^| 1518 | 1472 |')" -eq 2 ] || fail "the 1518-byte row: $(echo "$one" | grep '^| [0-9]')"

# The intro: each benchmark's trial time said with it.
echo "$one" | grep -q 'loopback), 1 s per trial (TCP bidirectional throughput); 2 s per trial (UDP throughput at zero loss); 10 s per trial (UDP throughput, offered and received)\.$' ||
	fail "the intro: $(echo "$one" | sed -n 3p)"
echo "$one" | grep -q '1/2/10' && fail "times without their benchmarks"
older=$(et older)
echo "$older" | grep -q 'loopback), 1 s per sample (TCP bidirectional throughput); 2 s per sample (UDP throughput at zero loss); 10 s per sample (UDP throughput, offered and received)\.$' ||
	fail "an older run's intro: $(echo "$older" | sed -n 3p)"
echo "$older" | grep '^| Frame' | grep -q 'byte frames' && fail "an older run's columns named by labels"
# one time for every benchmark: said once
sweep=$(et sweep)
echo "$sweep" | grep -q 'loopback), 1 s per trial (TCP bidirectional throughput); 2 s per trial (UDP throughput at zero loss); 3 s per trial (UDP throughput, offered and received)\.$' ||
	fail "the sweep's intro: $(echo "$sweep" | sed -n 3p)"

# The sweep: rows by frame size, in order; charts by frame size.
[ "$(echo "$sweep" | awk '/^### UDP throughput at zero loss/ { on = 1; next } on && /^#/ { exit } on' | sed -n 's/^| \([0-9]*\) | \([0-9]*\) |.*/\1 \2/p' | tr '\n' ' ')" = \
	"64 18 128 82 256 210 1024 978 1518 1472 " ] || fail "UDP rows not by frame size: $(echo "$sweep" | grep '^| [0-9]')"
charts=$(echo "$sweep" | sed -n 's/^!\[.*\](\([a-z]*-ethernet-[0-9]*\.svg\))$/\1/p')
[ "$(echo "$charts" | grep -c .)" -ge 3 ] || fail "the sweep's charts: $charts"
logs=0 lins=0
for f in $charts; do
	svg="$T/$f"
	grep -q '>Frame size (bytes)' "$svg" || fail "$f: x is not the frame size"
	grep -q '>64<' "$svg" && grep -q '>1518<' "$svg" && ! grep -q '>1472<' "$svg" || fail "$f: x ticks are not the rows' frames"
	grep -q -e 'ndr' -e 'kpps<' -e '>throughput' -e '>size' "$svg" && fail "$f: a metric's or parameter's id on a chart"
	y=$(grep -o '<text[^>]*rotate[^>]*>[^<]*<' "$svg" | sed 's/.*>\([^<]*\)<$/\1/')
	case "$y" in
	"Throughput (Mbit/s) (log scale)") logs=$((logs + 1)) ;;	# 45 to 4416 Mbit/s
	"Packets per second (kpps)") lins=$((lins + 1)) ;;		# 200 to 347, 226 to 299 kpps
	*) fail "$f: y axis '$y'" ;;
	esac
done
[ $logs -eq 2 ] && [ $lins -eq 2 ] || fail "log and linear y axes: $logs and $lins"
echo ok
