#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the audio group on real kernel drivers: snd-dummy (with
# fake_buffer=0, every frame copied) for playback and capture, snd-aloop
# for the checked loop. Debian ships alsa-lib as a shared library only, so
# the guest gets a dynamically linked perfguide with its libraries and
# alsa-lib's configuration (docs/methodology-audio.md), and aplay and
# arecord beside it for the figures.
set -eu
. "$(dirname "$0")/lib.sh"
src=$(cd "$here/../.." && pwd)

[ -f /usr/include/alsa/asoundlib.h ] || skip "audio: no alsa-lib headers here (install libasound2-dev)"
for t in aplay arecord ldd readelf; do
	command -v $t >/dev/null 2>&1 || skip "audio: no $t here (install alsa-utils and binutils)"
done

# The dynamic build: alsa-lib is linked as Debian ships it; SQLite and
# libcrypto are left out (the guest keeps no store; the crypto test has its
# own VM), so the initramfs carries only libasound, libjansson and libc.
dyn=$PG_VM_BUILD/dynamic
log=$PG_VM_BUILD/dynamic-build.log
mkdir -p "$PG_VM_BUILD"
if ! { cmake -S "$src" -B "$dyn" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DPG_WITH_SQLITE=OFF \
	-DPG_WITH_CRYPTO=OFF -DPG_WITH_ALSA=ON && cmake --build "$dyn" -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	fail "audio: the dynamic perfguide did not build (log: $log)"
fi

out=$PG_VM_BUILD/out-audio
rm -rf "$out"
files=""
for f in alsa.conf cards pcm; do
	files="$files --file /usr/share/alsa/$f:/usr/share/alsa/$f"
done
set +e
# shellcheck disable=SC2086
sh "$here/run-in-vm.sh" --script "$here/audio-guest.sh" --out "$out" --perfguide "$dyn/perfguide" \
	--bin aplay --bin arecord $files --modules "snd-aloop snd-dummy"
rc=$?
set -e
[ $rc -ne 125 ] || fail "audio: the VM did not run (see the line above)"
[ ! -f "$out/no-alsa" ] || fail "audio: the guest's perfguide has no alsa-lib"
for f in dummy loop stall period64 missing; do
	[ -s "$out/$f.jsonl" ] || fail "audio: no $f.jsonl from the guest (exit $rc; console: $out/console.log)"
done
python3 - "$out" <<'PY' || fail "audio: the results are wrong (above; $out)"
import json, os, sys
out = sys.argv[1]
bad = []

def load(name):
    recs = [json.loads(l) for l in open(os.path.join(out, name + ".jsonl")) if l.strip()]
    end = [r for r in recs if r.get("type") == "end"]
    if not end or end[-1].get("status") != "complete":
        bad.append(name + ": the run did not complete")
    return [r for r in recs if r.get("type") == "result"]

def by_metric(res):
    """{(bench, rate): {metric: record}}, every record ok."""
    t = {}
    for r in res:
        key = (r["bench"], r["params"]["rate"])
        if r.get("status") != "ok":
            bad.append("%s %s: %s (%s)" % (key[0], key[1], r.get("status"), r.get("reason", "")))
            continue
        t.setdefault(key, {})[r["metric"]] = r
    return t

def near(x, want, tol):
    return abs(x - want) <= tol * want

rows = []
# Playback and capture on snd-dummy: the rate the driver's positions show
# within 0.5% of nominal in every sample, no xrun at a sane period, and the
# throughput the frames moved (S16_LE stereo: 32 bits a frame).
dummy = by_metric(load("dummy"))
if len(dummy) != 6:
    bad.append("dummy: %d results of 6 (playback and capture at 3 rates)" % len(dummy))
for (bench, rate), m in sorted(dummy.items()):
    for s in m["rate"]["samples"]:
        if not near(s, rate, 0.005):
            bad.append("%s %d Hz: the device ran at %.2f Hz" % (bench, rate, s))
    if any(x != 0 for x in m["xruns"]["samples"]):
        bad.append("%s %d Hz: xruns %s at a period of 2048, buffer 16384" % (bench, rate, m["xruns"]["samples"]))
    for s in m["throughput"]["samples"]:
        if not near(s, rate * 32, 0.005):
            bad.append("%s %d Hz: throughput %.0f bits/s, nominal %d" % (bench, rate, s, rate * 32))
    rows.append((bench, rate, m["throughput"]["median"], m["rate"]["median"], m["xruns"]["max"],
                 m["throughput"]["cpu"].get("busy_pct", -1), m["throughput"].get("note", "")))

# The loop: every frame as it was played, at the nominal rate, a latency.
loop = by_metric(load("loop"))
for (bench, rate), m in loop.items():
    if any(x != 0 for x in m["errors"]["samples"]):
        bad.append("loop: content errors %s" % m["errors"]["samples"])
    if any(x != 0 for x in m["xruns"]["samples"]):
        bad.append("loop: xruns %s" % m["xruns"]["samples"])
    # snd-aloop's position follows jiffies, which in a guest starved by a
    # busy host can lag the monotonic clock the positions are read against
    # (one sample at 47558 Hz at a load average of 20): the median holds
    # to 0.5%, each sample to 2%.
    if not near(m["rate"]["median"], rate, 0.005):
        bad.append("loop: the capture ran at %.2f Hz (median)" % m["rate"]["median"])
    for s in m["rate"]["samples"]:
        if not near(s, rate, 0.02):
            bad.append("loop: the capture ran at %.2f Hz" % s)
    p50, mx = m["lat_p50"]["median"], m["lat_max"]["max"]
    if not (0 < p50 <= mx < 1000):
        bad.append("loop: latency p50 %.2f ms, max %.2f ms" % (p50, mx))
    print("check-vm: audio: loop %d Hz: %.0f bits/s, rate %.2f Hz, errors %d, latency mean %.2f ms "
          "(p50 %.2f, p99 %.2f, max %.2f), cpu %.1f%%"
          % (rate, m["throughput"]["median"], m["rate"]["median"], m["errors"]["max"],
             m["latency"]["median"], p50, m["lat_p99"]["median"], mx,
             m["throughput"]["cpu"].get("busy_pct", -1)))
if not loop:
    bad.append("loop: no result")

# The provoked xruns: a 400 ms stall against an 85 ms buffer is an xrun in
# every sample (one, unless the emulated guest falls behind once more after
# it), and the 315 ms the device stood still show in the throughput.
stall = by_metric(load("stall"))
for (bench, rate), m in stall.items():
    if min(m["xruns"]["samples"]) < 1:
        bad.append("%s stall: xruns %s, one a sample expected" % (bench, m["xruns"]["samples"]))
    if not m["throughput"]["max"] < 0.9 * rate * 32:
        bad.append("%s stall: throughput %.0f bits/s, as if nothing stopped" % (bench, m["throughput"]["max"]))
    print("check-vm: audio: %s with a 400 ms stall: xruns %s, throughput %.0f bits/s (nominal %d)"
          % (bench, m["xruns"]["samples"], m["throughput"]["median"], rate * 32))
if len(stall) != 2:
    bad.append("stall: %d results of 2" % len(stall))

p64 = by_metric(load("period64"))
for (bench, rate), m in p64.items():
    print("check-vm: audio: %s period 64 (buffer auto: 1024): xruns %s, rate %.2f Hz, throughput %.0f bits/s, cpu %.1f%%"
          % (bench, m["xruns"]["samples"], m["rate"]["median"], m["throughput"]["median"],
             m["throughput"]["cpu"].get("busy_pct", -1)))

# A device that is not there: skipped, and the reason names it.
for r in load("missing"):
    if r.get("status") != "skipped" or "hw:Nope,0" not in r.get("reason", ""):
        bad.append("missing device: %s %s: %s" % (r["bench"], r.get("status"), r.get("reason")))

# aplay and arecord: frames over the time from start to exit.
peers = {}
for line in open(os.path.join(out, "peers.txt")):
    tool, rate, period, frames, n0, n1, b0, t0, b1, t1 = line.split()
    sec = (int(n1) - int(n0)) / 1e9
    cpu = 100.0 * (int(b1) - int(b0)) / max(1, int(t1) - int(t0))
    peers.setdefault((tool, int(rate), int(period)), []).append((int(frames) * 32 / sec, cpu, int(frames), sec))
print("check-vm: audio: %-15s %6s  %14s  %12s  %5s  %6s   %-9s %14s  %6s"
      % ("perfguide", "Hz", "bits/s", "rate Hz", "xruns", "cpu%", "peer", "bits/s", "cpu%"))
for bench, rate, tput, r, x, cpu, note in rows:
    tool = "aplay" if bench.endswith("playback") else "arecord"
    p = [v for v in peers.get((tool, rate, 2048), []) if v[2] > 2048]
    pt = sorted(v[0] for v in p)
    pc = sorted(v[1] for v in p)
    print("check-vm: audio: %-15s %6d  %14.0f  %12.2f  %5d  %6.1f   %-9s %14s  %6s"
          % (bench, rate, tput, r, x, cpu, tool,
             "%.0f" % pt[len(pt) // 2] if pt else "-", "%.1f" % pc[len(pc) // 2] if pc else "-"))
for key, v in sorted(peers.items()):
    print("check-vm: audio: %s %d Hz period %d: %s" % (key[0], key[1], key[2],
          ", ".join("%d frames in %.3f s: %.0f bits/s, cpu %.1f%%" % (x[2], x[3], x[0], x[1]) for x in v)))
for b in bad:
    print("check-vm: audio: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ $rc -eq 0 ] || fail "audio: the guest exited $rc (console: $out/console.log)"
