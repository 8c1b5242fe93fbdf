# SPDX-License-Identifier: MIT
# The os and cpuops groups end to end: every result ok (or skipped with a
# reason), labelled with the seed's row name, counted as the methodology
# says (bytes actually received, files actually created), and nothing left
# behind: no file in the directory they worked in, no child process.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"
# A copy under a name of its own, so "no process left" cannot be confused
# with another perfguide running on the machine.
cp "$PG" "$T/pg-os-e2e"
PGC="$T/pg-os-e2e"
mkdir "$T/tmp" "$T/work"
export TMPDIR="$T/tmp"
export XDG_DATA_HOME="$T/xdg"

# Exit 1 is allowed when every error is a subtraction a busy machine voided
# (see SUBTRACTS below).
rc=0
"$PGC" run 'os.syscall.*' 'os.sig.*' 'os.proc.*' os.ctx os.pipe os.unix os.tcp os.connect \
	os.select os.sem os.pagefault os.mmap 'os.mmap.rd.*' os.file 'os.boot.*' cpu.proccall $FAST --no-db --out "$T/r.jsonl" >"$T/table" 2>"$T/err" \
	|| rc=$?
if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || grep ' error: ' "$T/table" | grep -qv 'too busy'; }; then
	fail "run failed: $(cat "$T/err"; grep ' error: ' "$T/table")"
fi
# Files deleted are made first, untimed, at the slower creation rate: a
# shorter sample keeps the test short.
"$PGC" run os.fs.create os.fs.delete -p size=0,1k --runs 2 --min-time 0.002 --no-db --out "$T/f.jsonl" \
	>>"$T/table" 2>>"$T/err" || fail "fs run failed: $(cat "$T/err")"
"$PGC" run cpu.ops.int cpu.ops.double -p op=add,div $FAST --no-db --out "$T/o.jsonl" \
	>>"$T/table" 2>>"$T/err" || fail "ops run failed: $(cat "$T/err")"
"$PGC" run os.fs.create os.syscall.stat -p dir="$T/work" $FAST --no-db --out "$T/d.jsonl" \
	>>"$T/table" 2>>"$T/err" || fail "run with dir= failed: $(cat "$T/err")"

# cpu=spread puts the peer on a second CPU (or skips where there is one);
# a cpu= that is not a placement is refused before anything runs.
"$PGC" run os.pipe.lat -p cpu=spread $FAST --no-db --out "$T/s.jsonl" >>"$T/table" 2>>"$T/err" ||
	fail "cpu=spread failed: $(cat "$T/err")"
python3 - "$T/s.jsonl" <<'PY' || fail "cpu=spread"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if '"result"' in l][0]
ok = (r["status"] == "ok" and "its peer on CPU" in r.get("note", "")) or \
     (r["status"] == "skipped" and "two CPUs" in r.get("reason", ""))
sys.exit(0 if ok else "%s %s %s" % (r["status"], r.get("note"), r.get("reason")))
PY
# run --cpu places os.ctx's ring unless -p cpu= does; the default's cpu=0
# stays what the record says, so earlier results still pair with it.
if [ "$(nproc)" -ge 2 ]; then
	"$PGC" run os.ctx --cpu 1 --runs 2 --min-time 0.002 --no-db --out "$T/c1.jsonl" >>"$T/table" 2>>"$T/err" ||
		fail "os.ctx --cpu 1 failed: $(cat "$T/err")"
	"$PGC" run os.ctx -p cpu=0 --cpu 1 --runs 2 --min-time 0.002 --no-db --out "$T/c0.jsonl" >>"$T/table" \
		2>>"$T/err" || fail "os.ctx -p cpu=0 --cpu 1 failed: $(cat "$T/err")"
	python3 - "$T/c1.jsonl" "$T/c0.jsonl" <<'PY' || fail "os.ctx and --cpu"
import json, sys
for path, cpu in zip(sys.argv[1:], ("1", "0")):
    r = [json.loads(l) for l in open(path) if '"result"' in l][0]
    if r["status"] == "error" and "too busy" in (r.get("reason") or ""):
        continue
    ok = "all processes on CPU %s" % cpu in r.get("note", "") and r["params"]["cpu"] == "0"
    if not ok:
        sys.exit("%s: %s %s %s" % (path, r["status"], r["params"], r.get("note")))
PY
fi
rc=0; "$PGC" run os.sem -p cpu=bogus --no-db --out "$T/bad.jsonl" >/dev/null 2>"$T/bad.err" || rc=$?
[ $rc -eq 2 ] && grep -q "cpu=bogus" "$T/bad.err" || fail "cpu=bogus: exit $rc, $(cat "$T/bad.err")"

[ -z "$(ls -A "$T/tmp")" ] || fail "left in TMPDIR: $(ls -A "$T/tmp")"
# os.fs.create's own file system (ext4 without a journal under TMPDIR)
# leaves no loop device and no mount behind.
! { losetup -a 2>/dev/null | grep -F "$T/"; } || fail "loop devices left: $(losetup -a | grep -F "$T/")"
! grep -qF "$T/" /proc/mounts || fail "mounts left: $(grep -F "$T/" /proc/mounts)"
[ -z "$(ls -A "$T/work")" ] || fail "left in dir=: $(ls -A "$T/work")"
! pgrep -f "$PGC" >/dev/null || fail "processes left: $(pgrep -af "$PGC")"

# A file system of its own needs its mounts kept from the namespace it
# came from: in a chroot, / is no mount point and cannot be made private.
PG_MAY_PRIVATE=0
unshare -m mount --make-rprivate / 2>/dev/null && PG_MAY_PRIVATE=1
export PG_MAY_PRIVATE
python3 - "$T/r.jsonl" "$T/f.jsonl" "$T/o.jsonl" "$T/d.jsonl" <<'PY'
import os, sys
from pgcheck import check, results

res = []
for path in sys.argv[1:]:
    res += results(path, end=None)
by = {}
for r in res:
    by.setdefault(r["bench"], []).append(r)

labels = {
    "os.syscall.null": "lat_syscall-null", "os.syscall.open": "lat_syscall-open",
    "os.sig.catch": "lat_sig-catch", "os.sig.prot": "lat_sig-prot",
    "os.proc.fork": "lat_proc-fork", "os.proc.exec": "lat_proc-exec",
    "os.pipe.lat": "lat_pipe", "os.pipe.bw": "bw_pipe", "os.unix.lat": "lat_unix",
    "os.unix.bw": "bw_unix", "os.tcp.lat": "lat_tcp", "os.connect": "lat_connect",
    "os.select": "lat_select", "os.sem": "lat_sem", "os.pagefault": "lat_pagefault",
    "os.mmap": "lat_mmap-1m", "os.file.rd.io": "bw_file_rd-io-1mb",
    "os.file.rd.o2c": "bw_file_rd-o2c-1mb", "os.mmap.rd.mo": "bw_mmap_rd-mo-1mb",
    "os.mmap.rd.o2c": "bw_mmap_rd-o2c-1mb", "os.ctx": "lat_ctx-2-0k",
    "cpu.proccall": "lat_proc-proccall",
}
# Benchmarks that subtract an overhead measured in setup end in an error,
# not a number, when a busy machine made a sample shorter than that
# overhead: a possible outcome here, not a failure of the test.
SUBTRACTS = {"os.ctx", "os.sig.catch", "os.sig.prot", "os.pagefault", "cpu.ops.int"}
def busy(r):
    return (r["bench"] in SUBTRACTS and r["status"] == "error"
            and "too busy" in (r.get("reason") or ""))

for b, want in labels.items():
    check(b in by, "no result for " + b)
    r = by[b][0]
    check(r["status"] == "ok" or busy(r), "%s: %s %s" % (b, r["status"], r.get("reason")))
    check(busy(r) or r["label"] == want, "%s label %r, expected %r" % (b, r.get("label"), want))

res = [r for r in res if not busy(r)]
by = {}
for r in res:
    by.setdefault(r["bench"], []).append(r)
for r in res:
    if r["status"] == "skipped":
        check(r.get("reason"), r["bench"] + " skipped without a reason")
        continue
    check(r["status"] == "ok", "%s: %s %s" % (r["bench"], r["status"], r.get("reason")))
    # --runs 2 in each of the 2 processes (run --processes); a fact once
    check(len(r["samples"]) == 4 or r["bench"].startswith("os.boot."), r["bench"] + " samples")
    check(r["min"] <= r["median"] <= r["max"], r["bench"] + " min <= median <= max")
    check(r["median"] >= 0, r["bench"] + " is not negative")

# Bandwidth: the bytes read per sample are iterations x msg (pipes, sockets)
# or iterations x file size, over the sample's time.
for b, per in (("os.pipe.bw", 65536), ("os.unix.bw", 65536), ("os.tcp.bw", 65536),
               ("os.file.rd.io", 1 << 20), ("os.mmap.rd.o2c", 1 << 20)):
    r = by[b][0]
    check(r["unit"] == "MB/s", b + " unit")
    for v, t in zip(r["samples"], r["sample_s"]):
        want = r["iterations"] * per / t / 1e6
        check(abs(v - want) <= 1e-6 * want, "%s: %g MB/s, counted %g" % (b, v, want))

# Files: one file per iteration, created or deleted, per second; the sizes
# give the seed's lat_fs rows.
for b in ("os.fs.create", "os.fs.delete"):
    check(len(by[b]) >= 2, b + " ran both sizes")
    for r in by[b]:
        check(r["unit"] == "files/s", b + " unit")
        for v, t in zip(r["samples"], r["sample_s"]):
            check(abs(v - r["iterations"] / t) <= 1e-6 * v, b + " counts one file per iteration")
# On ext4 without a journal the create rate is the file system's recent
# history, and the note says so; elsewhere it does not.
def ext4_no_journal(path):
    import os
    st = os.stat(path)
    try:
        dev = os.path.basename(os.readlink("/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))))
        return open("/sys/fs/ext4/%s/journal_task" % dev).read().strip() == "<none>"
    except OSError:
        return False
# There, with dir=auto, each process makes a fresh ext4 of its own where it
# may (root, loop devices, mkfs.ext4): its figure no longer depends on what
# was deleted before; else the result is marked so.
import shutil
may = (os.geteuid() == 0 and os.path.exists("/dev/loop-control") and shutil.which("mkfs.ext4") is not None
       and os.environ.get("PG_MAY_PRIVATE") == "1")
for r in by["os.fs.create"]:
    note, hist = r.get("note", ""), (r.get("env") or {}).get("history", "")
    own, marked = "ext4 of its own" in note, "recent deletes" in str(hist)
    auto = r["params"]["dir"] == "auto"
    if not ext4_no_journal(os.environ["TMPDIR"] if auto else r["params"]["dir"]):
        check(not own and not marked, "os.fs.create elsewhere than ext4 without a journal: %r" % note)
    elif may and auto:
        check(own and not marked, "os.fs.create on its own file system: %r %r" % (note, hist))
    else:
        check(marked and "ext4 without a journal" in note, "os.fs.create marked: %r %r" % (note, hist))
labs = sorted(r["label"] for r in by["os.fs.create"])
check("lat_fs-0k" in labs and "lat_fs-1k" in labs, "lat_fs labels: %s" % labs)

# Children are forked by a helper process (perfguide started afresh), as
# lat_proc's small program forks them; the note says how large it is.
for b in ("os.proc.fork", "os.proc.exec"):
    r = by[b][0]
    check(r["params"]["from"] == "helper", b + " from=helper by default")
    check("helper process" in r.get("note", "") and "mappings" in r["note"], b + " note: %r" % r.get("note"))

# The two processes of an exchange share one CPU by default (cpu=same).
for b in ("os.pipe.lat", "os.pipe.bw", "os.unix.lat", "os.tcp.lat", "os.connect", "os.sem"):
    r = by[b][0]
    check(r["params"]["cpu"] == "same", b + " cpu=same by default")
    check("all processes on CPU " in r.get("note", ""), b + " note: %r" % r.get("note"))

# Latencies without an overhead to subtract are time / count exactly;
# lat_sem counts two hand-offs per round trip.
for b, per in (("os.syscall.null", 1), ("os.pipe.lat", 1), ("os.sem", 2), ("os.proc.fork", 1),
               ("os.proc.exec", 1)):
    r = by[b][0]
    check(r["unit"] == "us", b + " unit")
    for v, t in zip(r["samples"], r["sample_s"]):
        want = t / (r["iterations"] * per) * 1e6
        check(abs(v - want) <= 1e-6 * want, "%s: %g us, counted %g" % (b, v, want))
# With an overhead subtracted the figure is below the gross one, never above.
for b in ("os.ctx", "os.sig.catch", "os.pagefault"):
    if b not in by:
        continue
    r = by[b][0]
    per = 2 if b == "os.ctx" else 256 if b == "os.pagefault" else 1
    for v, t in zip(r["samples"], r["sample_s"]):
        check(v <= t / (r["iterations"] * per) * 1e6 * (1 + 1e-9), b + " net <= gross")
    check(r.get("note"), b + " says what it subtracted") if "note" in r else None

ops = {(r["bench"], r["params"]["op"]): r for r in res if r["bench"].startswith("cpu.ops.")}
check(ops[("cpu.ops.int", "div")]["label"] == "lat_ops-int-div", "lat_ops label")
check(ops[("cpu.ops.double", "add")]["label"] == "lat_ops-double-add", "lat_ops label")
for r in ops.values():
    check(r["unit"] == "ns" and 0.01 < r["median"] < 1000, "%s %s plausible" % (r["bench"], r["median"]))
PY
