#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the CAN group on real kernel drivers: vcan, vxcan, the can-gw
# gateway, and two SJA1000 controllers (kvaser_pci) that qemu emulates on
# one CAN bus. Every count is exact: frames perfguide says it wrote are the
# frames the interface's own counters saw leave (and the peer's saw
# arrive), none lost, payloads checked; a damaged answer is an error, a
# missing interface a skip naming it, a down one an error.
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$here/../.." && pwd)

out=$PG_VM_BUILD/out-can
rm -rf "$out"
mkdir -p "$PG_VM_BUILD"

# The interfaces are made over rtnetlink by a small static helper: the
# guest's busybox `ip` cannot make a vxcan pair or set a bitrate.
command -v cc >/dev/null 2>&1 || skip "can: no C compiler for the link helper (gcc)"
cc -static -O2 -D_GNU_SOURCE -I "$src/src" -o "$PG_VM_BUILD/can-links" \
	"$here/can-links.c" "$src/src/bench/can/link.c" || fail "can: the link helper did not build"
files="--file $PG_VM_BUILD/can-links:/data/can-links"
# ship BIN...: a dynamic Debian binary into the guest's /data, with the
# libraries ldd finds for it where the loader looks.
shipped=""
ship() {
	for b in "$@"; do
		files="$files --file $b:/data/$(basename "$b")"
		for l in $(ldd "$b" | awk '/=> \//{ print $3 } /^\t\/lib/{ print $1 }'); do
			case " $shipped " in *" $l "*) continue ;; esac
			shipped="$shipped $l"
			files="$files --file $(readlink -f "$l"):$l"
		done
	done
}
# can-utils: canfdtest as a remote node, cangw, and the figures beside
# perfguide's; iproute2's tc, for a queue that refuses frames.
canutils=0 tc=0
if command -v cangen >/dev/null 2>&1; then
	for t in cangen candump canbusload cangw canfdtest; do
		ship "$(command -v $t)"
	done
	canutils=1
else
	echo "check-vm: can: no can-utils here (apt-get install can-utils): canfdtest and cangw parts left out"
fi
if command -v tc >/dev/null 2>&1; then
	ship "$(command -v tc)"
	tc=1
else
	echo "check-vm: can: no tc here (apt-get install iproute2): the ENOBUFS part is left out"
fi
modules="can can-raw can-gw vcan vxcan sch_tbf"
qargs=""
if qemu-system-x86_64 -device help 2>/dev/null | grep -q '"kvaser_pci"'; then
	modules="$modules kvaser_pci"
	qargs="-object can-bus,id=canbus0 -device kvaser_pci,canbus=canbus0 -device kvaser_pci,canbus=canbus0"
else
	echo "check-vm: can: this qemu has no kvaser_pci: the controller parts are left out"
fi

set +e
# shellcheck disable=SC2086
sh "$here/run-in-vm.sh" --script "$here/can-guest.sh" --out "$out" --modules "$modules" \
	--qemu-args "$qargs" --timeout 600 $files ${PG_CAN_VM_ARGS:-}
rc=$?
set -e
[ $rc -ne 125 ] || fail "can: the VM did not run (see the line above)"
[ $rc -eq 0 ] || fail "can: the guest exited $rc (console: $out/console.log)"

python3 - "$out" "$qargs" $canutils $tc <<'PY' || fail "can: wrong results (above; $out)"
import json, os, re, sys
out, controllers = sys.argv[1], bool(sys.argv[2])
canutils, tc = sys.argv[3] == "1", sys.argv[4] == "1"
bad = []

def check(cond, what):
    if not cond:
        bad.append(what)
    return cond

def counters(name, when):
    c = {}
    for line in open(os.path.join(out, "%s.%s" % (name, when))):
        i, tx, rx, drop = line.split()
        c[i] = (int(tx), int(rx), int(drop))
    return c

def delta(name, iface, field):
    k = {"tx": 0, "rx": 1, "drop": 2}[field]
    return counters(name, "after")[iface][k] - counters(name, "before")[iface][k]

def results(name):
    path, log = (os.path.join(out, name + e) for e in (".jsonl", ".log"))
    if not check(os.path.exists(path), "%s: no results (%s)" % (
            name, open(log).read().strip() if os.path.exists(log) else "not run")):
        return None
    recs = [json.loads(l) for l in open(path) if l.strip()]
    check(recs[-1]["type"] == "end", name + ": the run did not end")
    return [r for r in recs if r["type"] == "result"]

def ok(name):
    res = results(name)
    if res is None:
        return None
    m = {r["metric"]: r for r in res}
    first = res[0]
    if not check(first["status"] == "ok", "%s: %s: %s" % (name, first["status"], first.get("reason", ""))):
        return None
    check(first.get("section") in (None, "DCAN"), name + ": section " + str(first.get("section")))
    return m

def count(r):
    """What a rate metric counted over all samples: value x seconds."""
    return sum(round(v * s) for v, s in zip(r["samples"], r["sample_s"]))

summary = []

def stream(name, iface, at, bits=None):
    m = ok(name)
    if m is None:
        return None
    sent = count(m["frames"]) if "load" not in m else None
    note = m["frames"].get("note", "")
    check("every one received in order" in note, "%s: note: %s" % (name, note))
    check(all(v == 0 for v in m["lost"]["samples"]), "%s: lost %s" % (name, m["lost"]["samples"]))
    tx = delta(name, iface, "tx")
    if sent is not None:
        check(sent == tx, "%s: perfguide wrote %d frames, %s sent %d" % (name, sent, iface, tx))
    else:
        sent = count(m["frames"])   # can.load counts what came back
        check(sent == tx, "%s: %d frames came back, %s sent %d" % (name, sent, iface, tx))
    if at != iface:
        rx = delta(name, at, "rx")
        check(rx == tx, "%s: %s received %d of the %d frames %s sent" % (name, at, rx, tx, iface))
    line = "%s: %s %.0f frames/s" % (name, iface, m["frames"]["median"])
    if "load" in m:
        # Bits per frame between no stuffing and canbusload's worst case.
        lo, hi = bits
        for f, l in zip(m["frames"]["samples"], m["load"]["samples"]):
            per = l / 100 * 1e6 / f
            check(lo <= per <= hi, "%s: %.1f bits a frame (load %.1f%% at %.0f frames/s)" % (name, per, l, f))
        line += ", load %.1f%%" % m["load"]["median"]
    summary.append(line + " (%d frames, counters agree)" % tx)
    return m

stream("tx-vcan", "vcan0", "vcan0")
stream("tx-eff", "vcan0", "vcan0")
stream("tx-fd", "vcanfd", "vcanfd")
stream("tx-vxcan", "vxcan0", "vxcan1")

def rr(name, iface, answers):
    m = ok(name)
    if m is None:
        return
    done = count(m["transactions"])
    check(all(v == 0 for v in m["lost"]["samples"]), "%s: lost %s" % (name, m["lost"]["samples"]))
    for k in ("lat_p50", "lat_p99", "lat_max"):
        check(all(v > 0 for v in m[k]["samples"]), "%s: %s %s" % (name, k, m[k]["samples"]))
    check(all(a <= b <= c for a, b, c in zip(m["lat_p50"]["samples"], m["lat_p99"]["samples"], m["lat_max"]["samples"])),
          name + ": p50 <= p99 <= max")
    # A request and its answer: two frames sent, on one interface or two.
    got = delta(name, iface, "tx") + (delta(name, answers, "tx") if answers != iface else 0)
    check(got == 2 * done, "%s: %d round trips, the interfaces sent %d frames" % (name, done, got))
    summary.append("%s: %.0f round trips/s, p50 %.1f us, p99 %.1f us (%d, counters agree)" %
                   (name, m["transactions"]["median"], m["lat_p50"]["median"], m["lat_p99"]["median"], done))

rr("rr-gw", "vcan0", "vcan0")
rr("rr-vxcan", "vxcan0", "vxcan1")

res = results("load-vcan")
if res:
    check(res[0]["status"] == "skipped" and "vcan0 has no bitrate" in res[0].get("reason", ""),
          "load-vcan: %s %s" % (res[0]["status"], res[0].get("reason")))
res = results("absent")
if res:
    by = {r["params"]["if"]: r for r in res}
    check(by["vcan9"]["status"] == "skipped" and "no network interface vcan9" in by["vcan9"].get("reason", ""),
          "missing: %s %s" % (by["vcan9"]["status"], by["vcan9"].get("reason")))
    check(by["vcan2"]["status"] == "error" and "vcan2 is down" in by["vcan2"].get("reason", ""),
          "down: %s %s" % (by["vcan2"]["status"], by["vcan2"].get("reason")))
    check(open(os.path.join(out, "absent.rc")).read().strip() != "0", "a down interface: exit status 0")

if canutils:
    rr("rr-remote", "vxcan0", "vxcan1")
    dut = open(os.path.join(out, "canfdtest-dut.log")).read()
    check("nconsistent" not in dut and "Unexpected" not in dut, "canfdtest found fault with the requests: " + dut[:300])
    res = results("rr-damaged")
    check(res and res[0]["status"] == "error" and "damaged payload: byte 7" in res[0].get("reason", ""),
          "rr-damaged: %s %s" % (res[0]["status"], res[0].get("reason")))
if tc:
    m = stream("tx-tbf", "vcan0", "vcan0")
    if m:
        refused = sum(m["enobufs"]["samples"])
        fps = m["frames"]["median"]
        check(refused > 0, "tx-tbf: no write was refused by a queue of 500 frames/s")
        # The queue lets 500 frames a second through, after a first burst
        # of 64 and with 64 waiting at the end (a vcan's frames come back as
        # the queue takes them): about 628 in the second, whatever the
        # machine's speed; 10% for the token bucket's rounding.
        check(fps <= 700, "tx-tbf: %.0f frames/s through a queue of 500 frames/s" % fps)
        note = m["frames"].get("note", "")
        check("refused %d times (ENOBUFS)" % refused in note, "tx-tbf: note: " + note)
        summary.append("tx-tbf: %d writes refused (ENOBUFS), counted" % refused)
if controllers:
    stream("tx-can1", "can0", "can1")
    rr("rr-can", "can0", "can1")
    # qemu's kvaser_pci does not keep to its bitrate: a load over 100% is
    # a skip naming the emulated controller, never an ok figure; at or
    # under 100% the bits per frame are checked.
    for name, iface, bits in (("load-can", "can0", (111, 135)), ("load-can-eff", "can1", (99, 120))):
        res = results(name)
        if res and res[0]["status"] == "skipped":
            check(re.search(r"bus load \d+%% of [0-9.]+ kbit/s: %s is an emulated controller" % iface,
                            res[0].get("reason", "")), "%s: %s" % (name, res[0].get("reason")))
            summary.append("%s: skipped: %s" % (name, res[0]["reason"]))
        else:
            m = stream(name, iface, iface, bits)
            if m:
                check(all(v <= 100 for v in m["load"]["samples"]), "%s: load %s" % (name, m["load"]["samples"]))
for s in summary:
    print("check-vm: can: " + s)
for b in bad:
    print("check-vm: can: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
