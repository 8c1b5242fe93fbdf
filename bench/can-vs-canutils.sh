#!/bin/sh
# SPDX-License-Identifier: MIT
# can-vs-canutils.sh: perfguide's CAN group beside can-utils (Debian's
# cangen, candump, canbusload) in one qemu VM, on the same interfaces, in
# rounds that alternate the tools (so a change in the host's load hits all):
#
#   vcan0:  perfguide can.tx (writer and checking reader)
#           | cangen -g 0 with candump reading what it sends
#           | cangen -g 0 alone
#           frames/s: what the interface's tx counter saw over the time
#   can0:   perfguide can.load | cangen -g 0, both with canbusload -e
#           can0@1000000 watching: frames/s and bus load %, each tool's
#           own figure beside canbusload's for the same traffic
#           (two emulated SJA1000 controllers, kvaser_pci, on one qemu bus)
#
# It runs tests/vm/can.check.sh (the check-vm test, whose checks must pass)
# with pgcan.rounds=N on the guest's command line, then prints the table.
# Under TCG, with no KVM, every figure is the emulator's speed, not a
# board's: the comparison is what counts. It is a benchmark script, not a
# test: exit 0 after the table (2 on a usage error, 1 when the VM test
# failed). Needs what `make check-vm` needs, and can-utils.
#
# usage: bench/can-vs-canutils.sh [--rounds N] [--seconds S]
set -u
rounds=3 secs=2
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	-h|--help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "can-vs-canutils: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case "$rounds$secs" in *[!0-9]*|'') echo "can-vs-canutils: --rounds and --seconds take whole numbers" >&2; exit 2 ;; esac
command -v cangen >/dev/null 2>&1 || { echo "can-vs-canutils: install can-utils" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
: "${PG_VM_BUILD:=$here/../build-vm}"
export PG_VM_BUILD

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PG_CAN_VM_ARGS="--append pgcan.rounds=$rounds --append pgcan.time=$secs --timeout 900" \
	sh "$here/../tests/vm/can.check.sh" || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$PG_VM_BUILD/out-can" "$rounds" <<'PY'
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])

def pg(name, metric):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    for l in open(path):
        r = json.loads(l)
        if r.get("type") == "result" and r.get("metric") == metric and r.get("status") == "ok":
            return r["median"]
    return None

def canbusload(name):
    """canbusload's per-second lines: every frame and bit it saw (their sum),
    and the median frames/s and % of its whole seconds (first and last
    dropped: the run starts and ends inside them)."""
    path = os.path.join(out, name)
    rows = []
    if os.path.exists(path):
        for line in open(path):
            m = re.search(r"can0@\d+\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%", line)
            if m and int(m.group(1)) > 0:
                rows.append((int(m.group(1)), int(m.group(2)), int(m.group(4))))
    if not rows:
        return None
    full = rows[1:-1] or rows
    return {"frames": sum(r[0] for r in rows), "bits": sum(r[1] for r in rows),
            "fps": statistics.median(r[0] for r in full), "pct": statistics.median(r[2] for r in full)}

def pg_totals(name):
    """perfguide can.load's frames and bits over its whole run."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    m = {}
    for l in open(path):
        r = json.loads(l)
        if r.get("type") == "result" and r.get("status") == "ok":
            m[r["metric"]] = r
    if "load" not in m:
        return None
    s = m["frames"]["sample_s"][0]
    return {"frames": round(m["frames"]["samples"][0] * s), "bits": round(m["load"]["samples"][0] / 100 * 1e6 * s),
            "fps": m["frames"]["samples"][0], "pct": m["load"]["samples"][0]}

cmp = {}
for line in open(os.path.join(out, "compare.txt")):
    f = dict(kv.split("=", 1) for kv in line.split())
    s = float(f["seconds"])
    cmp.setdefault((f["tool"], f["if"]), []).append(int(f["frames"]) / s if s > 0 else 0)
    if f.get("received"):
        cmp.setdefault(("candump-received", f["if"]), []).append(int(f["received"]) / int(f["frames"]))

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def fmt(v, unit=""):
    return "-" if v is None else "%.0f%s" % (v, unit)

rows = []
pgv = med([pg("cmp-pg-vcan-%d.jsonl" % r, "frames") for r in range(1, rounds + 1)])
rows.append(("vcan0 frames/s", "perfguide can.tx", fmt(pgv), "writer + checking reader"))
rows.append(("", "cangen -g 0 + candump", fmt(med(cmp.get(("cangen-dump", "vcan0"), []))),
             "candump got %s of the frames" % fmt(100 * (med(cmp.get(("candump-received", "vcan0"), [])) or 0), "%")))
rows.append(("", "cangen -g 0 alone", fmt(med(cmp.get(("cangen-alone", "vcan0"), []))), "nobody reading"))
if os.path.exists(os.path.join(out, "cmp-pg-load-1.jsonl")):
    pgl = [pg_totals("cmp-pg-load-%d.jsonl" % r) for r in range(1, rounds + 1)]
    cbl = [canbusload("cmp-canbusload-pg-%d.txt" % r) for r in range(1, rounds + 1)]
    rows.append(("can0 frames/s, load", "perfguide can.load",
                 "%s, %.1f%%" % (fmt(med(p["fps"] for p in pgl if p)), med(p["pct"] for p in pgl if p) or 0),
                 "canbusload -e beside it: %s, %s%% (whole seconds)" % (
                     fmt(med(b["fps"] for b in cbl if b)), fmt(med(b["pct"] for b in cbl if b)))))
    for r, (p, b) in enumerate(zip(pgl, cbl), 1):
        if p and b:
            rows.append(("", "  round %d, all of it" % r, "%d frames" % p["frames"],
                         "%d bits (perfguide) | canbusload -e: %d frames, %d bits" % (p["bits"], b["frames"], b["bits"])))
    cbl = [canbusload("cmp-canbusload-cangen-%d.txt" % r) for r in range(1, rounds + 1)]
    rows.append(("", "cangen -g 0", fmt(med(cmp.get(("cangen-alone", "can0"), []))),
                 "canbusload -e beside it: %s, %s%% (whole seconds)" % (
                     fmt(med(b["fps"] for b in cbl if b)), fmt(med(b["pct"] for b in cbl if b)))))
w = [max(len(r[i]) for r in rows) for i in range(3)]
for r in rows:
    print("%-*s  %-*s  %*s  %s" % (w[0], r[0], w[1], r[1], w[2], r[2], r[3]))
print("(medians of %d rounds; perfguide's own figure for its rows, the interface's tx counter over the "
      "time for cangen's)" % rounds)
PY
