#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the msg group over a real kernel RPMsg bus. Debian's amd64
# kernel has no RPMsg, so tests/vm/rpmsg-modules.sh builds the kernel's own
# rpmsg_core, rpmsg_ns, rpmsg_char and rpmsg_ctrl for the guest's kernel,
# with an echo remote of ours (tests/vm/rpmsg_echo); the guest
# (rpmsg-guest.sh) loads them and runs the benchmarks through the bus.
# Checked here: exact message counts, flow control, the 496-byte limit, a
# remote that stops answering, Ctrl-C, endpoints destroyed (and those a
# killed perfguide left removed by the next run); the table of channels x
# size is printed.
set -eu
. "$(dirname "$0")/lib.sh"

set +e
mods=$(sh "$here/rpmsg-modules.sh")
rc=$?
set -e
[ $rc -ne 125 ] || skip "rpmsg: cannot build the RPMsg modules here (the line above says why)"
[ $rc -eq 0 ] || fail "rpmsg: the RPMsg modules did not build"

out=$PG_VM_BUILD/out-rpmsg
rm -rf "$out"
files=""
for m in rpmsg_core rpmsg_ns rpmsg_char rpmsg_ctrl rpmsg_echo; do
	files="$files --file $mods/$m.ko:/data/rpmsg/$m.ko"
done
set +e
# shellcheck disable=SC2086
sh "$here/run-in-vm.sh" --script "$here/rpmsg-guest.sh" --out "$out" --timeout 600 $files
rc=$?
set -e
[ $rc -ne 125 ] || fail "rpmsg: the VM did not run, or the modules did not load (console: $out/console.log)"
[ $rc -eq 0 ] || fail "rpmsg: the guest exited $rc (console: $out/console.log)"
python3 - "$out" <<'PY' || fail "rpmsg: wrong results (above; $out)"
import json, os, sys
out = sys.argv[1]
bad = []
def text(name):
    try:
        return open(os.path.join(out, name)).read().strip()
    except OSError:
        bad.append("no %s from the guest" % name)
        return ""
def results(name):
    try:
        recs = [json.loads(l) for l in open(os.path.join(out, name)) if l.strip()]
    except OSError:
        bad.append("no %s from the guest" % name)
        return []
    return [r for r in recs if r.get("type") == "result"]
def key(r):
    return (r["bench"], r["params"]["channels"], r["params"]["size"])
def leftover(name):
    return [d for d in text(name).split() if d.startswith("rpmsg") and d != "rpmsg_ctrl0"]

# Exact counts: the runner's histogram holds one latency per message, each
# sample's rate times its length is the count, the remote echoed exactly
# what was sent (a warm-up message per channel, then runs x count).
res = results("counts.jsonl")
if text("counts.rc") != "0":
    bad.append("counts: perfguide exited %s: %s" % (text("counts.rc"), text("counts.log")[-300:]))
want_echoed = 0
seen = set()
for r in res:
    if r.get("status") != "ok":
        bad.append("counts: %s %s: %s" % (r["bench"], r["params"], r.get("reason")))
        continue
    ch, count = r["params"]["channels"], r["params"]["count"]
    runs = len(r["samples"])
    if key(r) not in seen:
        seen.add(key(r))
        want_echoed += ch * (1 + runs * count)
    if r["metric"] == "messages":
        for v, s in zip(r["samples"], r["sample_s"]):
            if abs(v * s - ch * count) > 1e-6 * ch * count:
                bad.append("counts: %s: %.3f messages in a sample, not %d" % (key(r), v * s, ch * count))
    if "hist" in r and r["hist"]["count"] != runs * ch * count:
        bad.append("counts: %s: %d latencies, not %d" % (key(r), r["hist"]["count"], runs * ch * count))
    if r["metric"] == "bandwidth":
        for v, s in zip(r["samples"], r["sample_s"]):
            if abs(v * 1e6 * s - ch * count * r["params"]["size"]) > 1e-3 * ch * count:
                bad.append("counts: %s: bandwidth is not messages x size" % (key(r),))
if len(seen) != 8:
    bad.append("counts: %d results, not 8" % len(seen))
if text("counts.echoed") != str(want_echoed):
    bad.append("counts: the remote echoed %s messages, perfguide counted %d" % (text("counts.echoed"), want_echoed))

# Flow control.
rc, peak = (text("flow-rr.txt").split() + ["", ""])[:2]
if rc != "0" or peak != "1":
    bad.append("flow: rr exited %s with %s buffers in use at once (want 0 and 1)" % (rc, peak))
rc, peak = (text("flow-stream.txt").split() + ["", ""])[:2]
if rc != "0" or peak != "256":
    bad.append("flow: stream (window 1000, 256 buffers) exited %s with %s buffers in use at "
               "once (want 0 and 256): %s" % (rc, peak, text("flow-stream.log")[-300:]))

# The 496-byte limit.
if text("oversize.rc") != "2" or "at most 496 bytes" not in text("oversize.log"):
    bad.append("oversize: exit %s, %r" % (text("oversize.rc"), text("oversize.log")))

# Remotes by name.
rem = {r["params"]["remote"]: r for r in results("remote.jsonl") if r.get("metric", "messages") == "messages" or r.get("status") != "ok"}
r = rem.get("ti.ipc4.ping-pong")
if not r or r.get("status") != "ok" or "address 13 on rpmsg-echo" not in r.get("note", ""):
    bad.append("remote=ti.ipc4.ping-pong: %s" % (r,))
r = rem.get("nosuch")
if not r or r.get("status") != "skipped" or "ti.ipc4.ping-pong@rpmsg-echo" not in r.get("reason", ""):
    bad.append("remote=nosuch: %s" % (r,))
r = rem.get("0")
if not r or r.get("status") != "skipped" or "no remote processor '0'" not in r.get("reason", ""):
    bad.append("remote=0: %s" % (r,))

# A remote that stops: an error naming it, within the timeout, no hang.
for name, tmo in (("stop", 0.5), ("stop0", 0.3)):
    st = [r for r in results(name + ".jsonl")]
    if not st or st[0].get("status") != "error" or "no echo from ti.ipc4.ping-pong" not in st[0].get("reason", ""):
        bad.append("%s: %s" % (name, st[0] if st else text(name + ".log")[-300:]))
    else:
        print("check-vm: rpmsg: %s: %s" % (name, st[0]["reason"]))
f = text("stop.txt").split()
if len(f) == 3:
    took = float(f[2]) - float(f[1])
    print("check-vm: rpmsg: stopped remote: error %.2f s after the stop (timeout 0.5 s)" % took)
    if f[0] != "1" or took > 10:
        bad.append("stop: exit %s after %.1f s (want 1 within seconds)" % (f[0], took))
if leftover("stop.after"):
    bad.append("stop: endpoints left: %s" % leftover("stop.after"))

# Ctrl-C: exit 130 and no endpoint left.
before = [d for d in text("int.before").split() if d.startswith("rpmsg") and d != "rpmsg_ctrl0"]
if len(before) != 4:
    bad.append("ctrl-c: %d endpoints before, not 4: %s" % (len(before), text("int.log")[-300:]))
f = text("int.txt").split()
if len(f) == 3:
    print("check-vm: rpmsg: Ctrl-C: exit %s, %.2f s after SIGINT, endpoints before %s, after %s"
          % (f[0], float(f[2]) - float(f[1]), before, leftover("int.after") or "none"))
    if f[0] != "130":
        bad.append("ctrl-c: exit %s, not 130" % f[0])
if leftover("int.after"):
    bad.append("ctrl-c: endpoints left: %s" % leftover("int.after"))
# SIGKILL: the endpoints stay, the next run removes them and says so.
if len(leftover("kill.left")) != 2:
    bad.append("kill: %s left after SIGKILL, not 2 endpoints" % leftover("kill.left"))
reap = [r for r in results("reap.jsonl") if r.get("metric") == "messages"]
if not reap or "removed endpoints a killed perfguide left" not in reap[0].get("note", ""):
    bad.append("reap: the next run did not remove them: %s" % (reap[0] if reap else text("reap.log")[-300:]))
if leftover("reap.after"):
    bad.append("reap: endpoints left: %s" % leftover("reap.after"))
if leftover("final.txt"):
    bad.append("endpoints left at the end: %s" % leftover("final.txt"))
dm = text("dmesg.txt")
for w in ("BUG:", "WARNING:", "Oops", "general protection"):
    if w in dm:
        bad.append("the kernel complained (%s): see %s/dmesg.txt" % (w, out))

# The table.
tab = {}
for ch in (1, 8, 32):
    if text("table-%d.rc" % ch) != "0":
        bad.append("table: channels=%d: exit %s" % (ch, text("table-%d.rc" % ch)))
    for r in results("table-%d.jsonl" % ch):
        if r.get("status") != "ok":
            bad.append("table: %s: %s" % (key(r), r.get("reason")))
            continue
        tab.setdefault(key(r), {})[r["metric"]] = r["median"]
print("check-vm: rpmsg: the VM's echo bus (TCG, 1 CPU); medians of 2 samples of 1024 messages")
print("| benchmark | channels | size | messages/s | per channel | MB/s | p50 us | p99 us |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for k in sorted(tab):
    m = tab[k]
    print("| %s | %d | %d | %.0f | %.0f | %.3f | %.1f | %.1f |" % (k[0], k[1], k[2], m["messages"],
          m["messages_per_channel"], m["bandwidth"], m["lat_p50"], m["lat_p99"]))
if len(tab) != 24:
    bad.append("table: %d rows, not 24" % len(tab))
for b in bad:
    print("check-vm: rpmsg: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
