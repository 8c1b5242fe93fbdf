#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the static aarch64 board binary on a real arm64 kernel (Debian's,
# under qemu-system-aarch64 -M virt -cpu cortex-a72, TCG): its results come
# back, are read as an arm64 machine with its core named, on qemu's virt
# board (emulated where the guest can tell), and render as a guide.
set -eu
. "$(dirname "$0")/lib.sh"

command -v qemu-system-aarch64 >/dev/null 2>&1 ||
	skip "arm64: no qemu-system-aarch64 (install qemu-system-arm: sh scripts/deps.sh check-vm)"
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
	skip "arm64: no aarch64 cross compiler (install gcc-aarch64-linux-gnu: sh scripts/deps.sh check-vm)"

out=$PG_VM_BUILD/out-arm64
rm -rf "$out"
set +e
sh "$here/run-in-vm.sh" --arch aarch64 --smp 2 --script "$here/arm64-guest.sh" --out "$out" --timeout 600
rc=$?
set -e
[ $rc -ne 125 ] || fail "arm64: the VM did not run (see the line above)"
[ -s "$out/arm64.jsonl" ] || fail "arm64: no results file from the guest (exit $rc; console: $out/console.log)"
python3 - "$out/arm64.jsonl" <<'PY' || fail "arm64: the results are wrong (above; $out/arm64.jsonl)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
run = next(r for r in recs if r.get("type") == "run")
res = [r for r in recs if r.get("type") == "result"]
end = [r for r in recs if r.get("type") == "end"]
m = run.get("machine", {})
bad = []
if m.get("arch") != "aarch64":
    bad.append("machine arch is %r, not aarch64" % m.get("arch"))
if not str(m.get("kernel_release", "")).endswith("-arm64"):
    bad.append("kernel %r is not Debian's arm64 one" % m.get("kernel_release"))
if "linux,dummy-virt" not in str(m.get("dt_compatible", "")):
    bad.append("no device tree compatible of qemu's virt board: %r" % m.get("dt_compatible"))
cpus = m.get("cpus", [])
if len(cpus) != 2 or any(c.get("core") != "Cortex-A72" for c in cpus):
    bad.append("the cores are not named Cortex-A72: %r" % cpus)
if any(c.get("cluster") != 0 for c in cpus):
    bad.append("the two cores are not one cluster: %r" % cpus)
# The record says the board is a virtual one: qemu's virt machine. Whether
# its CPU is emulated (TCG, as here) or KVM's an ARM guest cannot tell
# (src/core/virt.c): "qemu-tcg" where it can, "qemu" where it cannot.
if m.get("virt") not in ("qemu", "qemu-tcg"):
    bad.append("machine.virt is %r, not qemu's virt board" % m.get("virt"))
if m.get("virt") == "qemu-tcg" and m.get("emulated") is not True:
    bad.append("machine.emulated is %r with virt qemu-tcg" % m.get("emulated"))
if m.get("virt") == "qemu":
    print("check-vm: arm64: note: virt is qemu (the guest cannot tell TCG from KVM), emulated %r"
          % m.get("emulated"))
for r in res:
    st = r.get("status")
    if st == "skipped" and not r.get("reason"):
        bad.append("skipped without a reason: " + r.get("bench", "?"))
    elif st not in ("ok", "skipped"):
        bad.append("%s: %s (%s)" % (st, r.get("bench"), r.get("reason") or r.get("error") or ""))
for g in ("mem", "cpu", "os"):
    if not any(r.get("status") == "ok" and r["bench"].startswith(g + ".") for r in res):
        bad.append("no %s result is ok" % g)
if not end or end[-1].get("status") != "complete":
    bad.append("the run did not complete")
for b in bad:
    print("check-vm: arm64: " + b, file=sys.stderr)
print("check-vm: arm64: %d results, %d ok, on %s (%s), %s"
      % (len(res), sum(r.get("status") == "ok" for r in res), m.get("board"), m.get("kernel_release"),
         ", ".join(sorted({c.get("model", "?") for c in cpus}))))
sys.exit(1 if bad else 0)
PY
[ $rc -eq 0 ] || fail "arm64: the guest exited $rc (console: $out/console.log)"

# The guide, rendered here by a native perfguide (with the store's code).
host=$PG_VM_BUILD/host
log=$PG_VM_BUILD/host-build.log
if ! { cmake -S "$here/../.." -B "$host" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
	cmake --build "$host" -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	fail "arm64: the native perfguide that renders the guide did not build (log: $log)"
fi
"$host/perfguide" report "$out/arm64.jsonl" --format md -o "$out/guide.md" ||
	fail "arm64: the guide did not render"
grep -q 'qemu-virt-a72' "$out/guide.md" || fail "arm64: the guide has no column for the board"
grep -q 'Cortex-A72' "$out/guide.md" || fail "arm64: the guide does not name the core ($out/guide.md)"
grep -q '^| Emulated CPU | \(yes\|perhaps\) (qemu' "$out/guide.md" ||
	fail "arm64: the guide does not say the board may be emulated ($out/guide.md)"
sed -n '/^| Board /,/^$/p' "$out/guide.md"
echo "check-vm: arm64: ok (guide: $out/guide.md)"
