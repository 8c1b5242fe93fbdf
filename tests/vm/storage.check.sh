#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the storage group on devices this machine may lack: virtio
# disks (ext4, raw, and one that fails: qemu's blkdebug answers EIO for
# what touches its 2 MB mark), brd, null_blk, io_uring and libaio with
# O_DIRECT. What perfguide counted must equal what the kernel counted
# (/sys/block/X/stat), refusals must be refusals, the I/O errors error
# results naming the device and EIO.
set -eu
. "$(dirname "$0")/lib.sh"

command -v mkfs.ext4 >/dev/null 2>&1 || skip "storage: mkfs.ext4 is missing (apt-get install e2fsprogs)"
out=$PG_VM_BUILD/out-storage
rm -rf "$out"
mkdir -p "$out"
disks=$PG_VM_BUILD/storage-disks
mkdir -p "$disks"
rm -f "$disks/ext4.img" "$disks/raw.img" "$disks/bad.img"
truncate -s 64M "$disks/ext4.img"
mkfs.ext4 -q -F "$disks/ext4.img" >/dev/null
truncate -s 32M "$disks/raw.img" "$disks/bad.img"
cat >"$disks/bad.conf" <<EOF
[inject-error]
event = "read_aio"
errno = "5"
sector = "4096"
once = "off"

[inject-error]
event = "write_aio"
errno = "5"
sector = "4096"
once = "off"
EOF
set +e
sh "$here/run-in-vm.sh" --script "$here/storage-guest.sh" --out "$out" --timeout 240 \
	--modules "virtio_pci virtio_blk crc32c_generic ext4 brd null_blk" \
	--qemu-args "-drive file=$disks/ext4.img,format=raw,if=virtio -drive file=$disks/raw.img,format=raw,if=virtio
		-drive file=blkdebug:$disks/bad.conf:$disks/bad.img,format=raw,if=virtio"
rc=$?
set -e
rm -f "$disks/ext4.img" "$disks/raw.img" "$disks/bad.img"
[ $rc -ne 125 ] || fail "storage: the VM did not run (see the line above)"
[ $rc -eq 0 ] || fail "storage: the guest script failed (exit $rc; console: $out/console.log)"
python3 - "$out" <<'PY' || fail "storage: wrong results (above; $out)"
import json, os, sys
out = sys.argv[1]
bad = []
def recs(name):
    p = os.path.join(out, name)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
def results(name):
    by = {}
    for r in recs(name):
        if r["type"] == "result":
            by.setdefault((r["bench"], json.dumps(r["params"], sort_keys=True)), {})[r["metric"]] = r
    return by
def text(name):
    p = os.path.join(out, name)
    return open(p).read() if os.path.exists(p) else ""
def counted_bytes(m):
    b = m["bandwidth"]
    return b["samples"][0] * 1e6 * b["sample_s"][0]

# ext4 on virtio, O_DIRECT, both engines
ext4 = results("ext4.jsonl")
engines = set()
for (bench, p), m in ext4.items():
    b = m["bandwidth"]
    if b["status"] != "ok":
        bad.append("ext4 %s %s: %s" % (bench, p, b.get("reason")))
        continue
    engines.add(json.loads(p)["engine"])
    for want in ("medium=virtio", "fs=ext4", "engine=" + json.loads(p)["engine"]):
        if want not in b.get("note", ""):
            bad.append("ext4 %s: note lacks %s: %s" % (bench, want, b.get("note")))
if engines != {"io_uring", "libaio"}:
    bad.append("ext4: engines that ran: %s (the static build must link liburing.a and libaio.a)" % sorted(engines))
if text("ext4.ls").split() != ["lost+found"]:
    bad.append("ext4: files left: %s" % text("ext4.ls").split())
if text("refused-mounted.rc").strip() != "2" or "is mounted on /mnt/ext4" not in text("refused-mounted.log"):
    bad.append("a write to the mounted /dev/vda was not refused: %s" % text("refused-mounted.log"))
if os.path.exists(os.path.join(out, "refused-partition.rc")):
    if text("refused-partition.rc").strip() != "2" or "ram0p2 is mounted on /mnt/p2" not in text("refused-partition.log"):
        bad.append("a write to /dev/ram0 with ram0p2 mounted was not refused: %s" % text("refused-partition.log"))
else:
    print("check-vm: storage: no partitions on brd: that refusal not checked")

# raw devices: perfguide's bytes are the kernel's sectors x 512
media = {"vdb": "virtio", "ram0": "ram", "nullb0": "null_blk"}
n = 0
for f in sorted(os.listdir(out)):
    if not f.endswith(".stat") or f.startswith("eio-"):
        continue
    name = f[:-5]
    dev = name.split("-")[0]
    rs = results(name + ".jsonl")
    if text(name + ".rc").strip() != "0" or len(rs) != 1:
        bad.append("%s: exit %s: %s" % (name, text(name + ".rc").strip(), text(name + ".log")[-300:]))
        continue
    (bench, p), m = next(iter(rs.items()))
    b = m["bandwidth"]
    if b["status"] != "ok":
        bad.append("%s: %s" % (name, b.get("reason")))
        continue
    before, after = [list(map(int, l.split())) for l in text(f).splitlines()[:2]]
    field = 6 if "write" in bench else 2
    kernel = (after[field] - before[field]) * 512
    ours = counted_bytes(m)
    # brd keeps no I/O statistics (a bio driver without accounting).
    if dev != "ram0" and abs(kernel - ours) > 1e-6 * max(kernel, 1):
        bad.append("%s: perfguide counted %.0f bytes, the kernel %d" % (name, ours, kernel))
    note = b.get("note", "")
    for want in ("medium=" + media[dev], "device=" + dev, "fs=raw", "engine=" + name.split("-")[-1]):
        if want not in note:
            bad.append("%s: note lacks %s: %s" % (name, want, note))
    n += 1
    print("check-vm: storage: %-22s %9.1f MB/s  %9.0f IO/s  p99 %7.1f us  (kernel %d bytes, ours %.0f)"
          % (name, b["median"], m["iops"]["median"], m["lat_p99"]["median"], kernel, ours))
if n != 10:
    bad.append("%d raw runs checked, expected 10" % n)

# tmpfs on this kernel (before 6.6) refuses O_DIRECT: a skip; direct=0 measures
t = [r for r in recs("tmpfs.jsonl") if r["type"] == "result" and r["metric"] == "bandwidth"]
if len(t) != 2 or t[0]["status"] != "skipped" or "refuses O_DIRECT" not in t[0].get("reason", "") \
        or t[1]["status"] != "ok":
    bad.append("tmpfs: expected a skip for O_DIRECT then a result: %s" % [(r["status"], r.get("reason")) for r in t])
if text("tmpfs.ls").strip():
    bad.append("tmpfs: files left: %s" % text("tmpfs.ls"))

# the failing disk
if True:
    for e in ("io_uring", "libaio"):
        for op in ("read", "write"):
            name = "eio-%s-%s" % (op, e)
            rs = results(name + ".jsonl")
            r = next(iter(rs.values()))["bandwidth"] if rs else {}
            reason = r.get("reason", "")
            at = int(reason.split(" at offset ")[1].split(":")[0]) if " at offset " in reason else -1
            if text(name + ".rc").strip() != "1" or r.get("status") != "error" or "(EIO)" not in reason \
                    or "/dev/vdc" not in reason:
                bad.append("%s: expected an error naming /dev/vdc and EIO, got %s %r" % (name, r.get("status"), reason))
            elif not 2097152 - 4 * 65536 <= at <= 2097152 + 4 * 65536:
                bad.append("%s: the failing I/O is at 2 MB, give or take the depth: %s" % (name, reason))
            else:
                print("check-vm: storage: %s: %s" % (name, reason))
for b in bad:
    print("check-vm: storage: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
