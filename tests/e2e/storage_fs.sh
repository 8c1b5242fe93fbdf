# SPDX-License-Identifier: MIT
# The storage group on real file systems: a loop-mounted ext4 (every
# benchmark, every engine this build has, O_DIRECT), tmpfs (buffered) and
# ramfs (refuses O_DIRECT: a skip saying so); then what goes wrong: a full
# file system, one that runs out of blocks under it (a thin image: the
# kernel's ENOSPC mid-run), one out of inodes, one read-only. Each gives an
# error result naming the file and the errno, the run goes on to the end,
# and no file is left anywhere.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/storage_lib.inc"
need_json
need_python
need_loop
cd "$T"
Q="--runs 1 --no-db -p time=1 -p ramp=0"

loop_fs "$T/ext4.img" 96M "$T/ext4" >/dev/null

# --- every benchmark, O_DIRECT, on ext4 ---
"$PG" run 'storage.*' -p path="$T/ext4" -p size=8m $Q --out "$T/all.jsonl" >"$T/all.out" 2>&1 ||
	fail "storage.* on ext4: exit $? ($(cat "$T/all.out"))"
no_files "$T/ext4"
# --- each engine by name ---
"$PG" run storage.read -p path="$T/ext4" -p size=8m -p engine=io_uring,libaio,psync \
	-p bs=64k $Q --out "$T/engines.jsonl" >"$T/engines.out" 2>&1 ||
	fail "engines on ext4: exit $? ($(cat "$T/engines.out"))"
no_files "$T/ext4"

# --- two jobs at once, each its own file ---
"$PG" run storage.write storage.randread -p path="$T/ext4" -p size=8m -p jobs=2 $Q --out "$T/jobs.jsonl" \
	>"$T/jobs.out" 2>&1 || fail "jobs=2 on ext4: exit $? ($(cat "$T/jobs.out"))"
no_files "$T/ext4"

python3 - "$T/all.jsonl" "$T/engines.jsonl" "$T/jobs.jsonl" <<'PY' || fail "results on ext4 are wrong (above)"
import json, sys
bad = []
for path in sys.argv[1:]:
    recs = [json.loads(l) for l in open(path)]
    res = [r for r in recs if r["type"] == "result"]
    if recs[-1].get("status") != "complete":
        bad.append("%s: the run did not complete" % path)
    by = {}
    for r in res:
        key = (r["bench"], json.dumps(r["params"], sort_keys=True))
        by.setdefault(key, {})[r["metric"]] = r
    for (bench, p), m in by.items():
        params = json.loads(p)
        first = next(iter(m.values()))
        if first["status"] == "skipped":
            if "built without" not in first["reason"]:
                bad.append("%s %s skipped: %s" % (bench, params["engine"], first["reason"]))
            continue
        if first["status"] != "ok":
            bad.append("%s %s: %s" % (bench, params, first.get("reason")))
            continue
        bw, iops = m["bandwidth"]["median"], m["iops"]["median"]
        # Bytes counted are I/Os x bs, over one window.
        if not (bw > 0 and abs(bw * 1e6 - iops * params["bs"]) <= 1e-6 * bw * 1e6):
            bad.append("%s: bandwidth %g MB/s vs %g IO/s of %d bytes" % (bench, bw, iops, params["bs"]))
        lat = [m[k]["median"] for k in ("lat_p50", "lat_p99", "lat_p999")]
        if not (0 < lat[0] <= lat[1] <= lat[2]):
            bad.append("%s: latency percentiles out of order: %s" % (bench, lat))
        h = m["lat_mean"].get("hist")
        if not h or h["count"] < iops * m["bandwidth"]["sample_s"][0] * 0.999:
            bad.append("%s: the histogram does not hold every I/O" % bench)
        note = m["bandwidth"].get("note", "")
        for want in ("medium=loop", "fs=ext4", "sync=no", "engine="):
            if want not in note:
                bad.append("%s: note lacks %s: %s" % (bench, want, note))
        if params["engine"] != "auto" and "engine=%s" % params["engine"] not in note:
            bad.append("%s: engine %s asked, note says %s" % (bench, params["engine"], note))
        # The guide's column: medium, file system, what the job does.
        label = m["bandwidth"].get("label")
        want = "LOOP EXT4 " + {"write": "Write", "read": "Read", "randread": "Random read",
                               "randwrite": "Random write", "randrw": "Random read/write"}[bench[8:]]
        if label != want or any(m[k].get("label") for k in m if k != "bandwidth"):
            bad.append("%s: label %r, the guide's column is %r" % (bench, label, want))
        if bench == "storage.randrw":
            rd, wr = m["read_bandwidth"]["median"], m["write_bandwidth"]["median"]
            if abs(rd + wr - bw) > 1e-6 * bw or not 0.6 < rd / bw < 0.8:
                bad.append("randrw: read %g + write %g != %g, or not 70%% reads" % (rd, wr, bw))
    if len(by) < 5 and "all" in path:
        bad.append("%s: %d benchmarks, expected 5" % (path, len(by)))
for b in bad:
    print("storage_fs: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# --- the guide: the seed's table, a row per buffer size, per board and medium
# the write and read throughput, each with its CPU load ---
"$PG" run storage.write storage.read -p path="$T/ext4" -p size=8m -p bs=64k,4k $Q --board B \
	--out "$T/sweep.jsonl" >"$T/sweep.out" 2>&1 || fail "bs sweep on ext4: exit $? ($(cat "$T/sweep.out"))"
"$PG" report "$T/sweep.jsonl" >"$T/guide.md" 2>"$T/report.err" || fail "report: exit $? ($(cat "$T/report.err"))"
# (the figures without their min..max, and without a mark of doubt: a few
# quick samples on a loop device are)
sed -n '/^## Storage/,/^## /p' "$T/guide.md" | grep '^|' | sed 's/ ([^)]*min[^)]*)//g; s/ \xe2\x80\xa0 \[[0-9]*\]//g' >"$T/table"
# (the table's heading names the medium, LOOP EXT4: the columns name the board and measure)
head -n 1 "$T/table" | grep -qxF '| Buffer size (bytes) | B: Write (MB/s) | B: Write CPU load (system) % | B: Read (MB/s) | B: Read CPU load (system) % |' ||
	fail "the guide's storage table is not the seed's: $(cat "$T/table")"
sed -n '/^## Storage/,/^## /p' "$T/guide.md" | grep -q '^### LOOP EXT4' || fail "no LOOP EXT4 table: $(grep '^###' "$T/guide.md")"
[ "$(sed -n '3,$s/^| \([^ ]*\) .*/\1/p' "$T/table" | tr '\n' ' ')" = "4k 64k " ] ||
	fail "the storage table's rows are not 4k, 64k (as TI's fio tables print them): $(cat "$T/table")"
grep -Eqx '\| 64k( \| [0-9.]+){4} \|' "$T/table" || fail "a storage row without its numbers: $(cat "$T/table")"

# --- tmpfs: buffered I/O works; ramfs refuses O_DIRECT: a skip that says so ---
mkdir -p "$T/tmpfs" "$T/ramfs"
mount -t tmpfs -o size=32m tmpfs "$T/tmpfs" && mounts="$T/tmpfs $mounts"
mount -t ramfs ramfs "$T/ramfs" && mounts="$T/ramfs $mounts"
"$PG" run storage.read -p path="$T/tmpfs" -p size=4m -p direct=0 $Q --out "$T/tmpfs.jsonl" >"$T/tmpfs.out" 2>&1 ||
	fail "tmpfs direct=0: exit $? ($(cat "$T/tmpfs.out"))"
grep -q '"status":"ok"' "$T/tmpfs.jsonl" || fail "tmpfs direct=0 did not measure: $(cat "$T/tmpfs.out")"
grep -q 'medium=ram; fs=tmpfs' "$T/tmpfs.jsonl" || fail "tmpfs: medium not recorded: $(grep -o '"note":"[^"]*"' "$T/tmpfs.jsonl")"
"$PG" run storage.read -p path="$T/ramfs" -p size=4m $Q --out "$T/ramfs.jsonl" >"$T/ramfs.out" 2>&1 ||
	fail "ramfs direct=1: exit $? ($(cat "$T/ramfs.out"))"
grep -q '"status":"skipped","reason":"[^"]*(ramfs) refuses O_DIRECT: -p direct=0' "$T/ramfs.jsonl" ||
	fail "ramfs direct=1 is not a skip saying why: $(grep -o '"reason":"[^"]*"' "$T/ramfs.jsonl")"
no_files "$T/tmpfs"
no_files "$T/ramfs"

# --- errors: each an error result naming file and errno; the run goes on ---
# A full file system: no room for the file.
loop_fs "$T/full.img" 8M "$T/full" >/dev/null
dd if=/dev/zero of="$T/full/filler" bs=64k 2>/dev/null || true
# A thin one: 64 MB of ext4 on 6 MB of tmpfs; the kernel says ENOSPC mid-run.
mkdir -p "$T/back"
mount -t tmpfs -o size=6m tmpfs "$T/back" && mounts="$T/back $mounts"
loop_fs "$T/back/thin.img" 64M "$T/thin" >/dev/null
# Out of inodes: creating the file fails.
loop_fs "$T/inodes.img" 8M "$T/inodes" -N 16 >/dev/null
i=0
while touch "$T/inodes/f$i" 2>/dev/null; do i=$((i + 1)); [ $i -lt 1000 ] || break; done
# Read-only.
loop_fs "$T/ro.img" 8M "$T/ro" >/dev/null
mount -o remount,ro "$T/ro"

set +e
"$PG" run storage.write -p path="$T/full","$T/thin","$T/inodes","$T/ro" -p size=32m -p bs=64k $Q \
	--out "$T/err.jsonl" >"$T/err.out" 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || fail "errors: exit $rc, expected 1 (a benchmark failed): $(cat "$T/err.out")"
python3 - "$T/err.jsonl" "$T" <<'PY' || fail "error results are wrong (above; $T/err.out)"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
t = sys.argv[2]
res = {r["params"]["path"]: r for r in recs if r["type"] == "result"}
want = {t + "/full": "ENOSPC", t + "/thin": "ENOSPC", t + "/inodes": "ENOSPC", t + "/ro": "EROFS"}
bad = []
for path, errno in want.items():
    r = res.get(path)
    if not r:
        bad.append("no result for " + path)
    elif r["status"] != "error" or "(%s)" % errno not in r["reason"] or path not in r["reason"]:
        bad.append("%s: %s %r, expected an error naming the path and %s" % (path, r["status"], r.get("reason"), errno))
if recs[-1].get("status") != "complete":
    bad.append("the run did not go on to the end")
for b in bad:
    print("storage_fs: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
for d in full thin inodes ro; do no_files "$T/$d"; done
exit 0
