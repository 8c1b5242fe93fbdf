#!/bin/sh
# SPDX-License-Identifier: MIT
# storage-vs-fio.sh: each storage benchmark beside fio (the Debian package)
# running the same job on the same file, in alternating rounds, with the
# targets of issue 15. A benchmark script, not a test: it exits 0 after
# printing the table (2 only on a usage error).
#
#   bandwidth, IOPS                within 5 % of fio's
#   CPU per I/O (user + sys of     the same as fio's or less (the process's
#   the whole process)             own, from wait4; the system-wide busy
#                                  share over each run is shown beside it)
#   clat mean, p50, p99, p99.9     within 10 % of fio's
#
# The job is the seed's: --ioengine=libaio --iodepth=4 --direct=1
# --time_based, on one file both tools use (perfguide -p path=FILE, with
# --destroy-data=FILE for the writes; fio --filename=FILE). The file is
# laid out once by fio and removed at the end. Medians over the rounds.
#
# Where the medium is fast and the CPU few (a VM's virtio disk, a loop
# device), each I/O's CPU time is part of the rate, and the tool that
# spends less per I/O counts more. --shape IOPS[,MBPS] (root) puts both
# tools in a block-I/O cgroup that throttles the disk below what either
# can do, so that the medium, not the tool, sets the rate, as a board's
# eMMC or SD card does; the cgroup is removed at the end.
set -u

PG=
DIR=.
SIZE=1g
T=10
RAMP=1
ROUNDS=3
ENGINE=libaio
DEPTH=4
NICE=0
FIFO=0
DIRECT=1
SHAPE=
JOBS="write:4k write:1m read:4k read:1m randread:4k randwrite:4k randrw:4k"
usage() {
	cat <<'USAGE'
usage: bench/storage-vs-fio.sh [options]

  --perfguide PATH  perfguide binary (default: build/perfguide next to bench/)
  --dir DIR         where the file goes (default: .); the medium measured
  --size SIZE       the file (default 1g; k, m, g)
  --time SECONDS    each trial's measured time (default 10)
  --ramp SECONDS    not counted before it (default 1)
  --rounds N        alternating rounds of perfguide and fio (default 3)
  --engine E        libaio (the seed's), io_uring or psync (default libaio)
  --depth N         I/Os in flight (default 4)
  --direct 0|1      O_DIRECT (default 1); 0 for tmpfs and buffered I/O
  --nice N          run both tools at this nice value (e.g. -10, as root): on
                    a machine others load, a 4k job waits for a CPU to
                    resubmit, and the tool needing less CPU per I/O wins
  --fifo PRIO       run both tools SCHED_FIFO at PRIO (1-99, as root): each is
                    woken the moment its I/O completes, however busy the
                    machine is with other work (I/O-bound, they use little)
  --shape IOPS[,MBPS]  throttle the disk under --dir to IOPS reads and
                    writes a second (and MBPS MB/s each way) for both tools,
                    through a cgroup (root; cgroup v1 blkio or v2 io)
  --jobs "RW:BS ..." default: "write:4k write:1m read:4k read:1m randread:4k
                    randwrite:4k randrw:4k"

fio is the Debian package: apt-get install fio.
USAGE
}
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) PG=$2; shift 2 ;;
	--dir) DIR=$2; shift 2 ;;
	--size) SIZE=$2; shift 2 ;;
	--time) T=$2; shift 2 ;;
	--ramp) RAMP=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--engine) ENGINE=$2; shift 2 ;;
	--depth) DEPTH=$2; shift 2 ;;
	--direct) DIRECT=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--nice) NICE=$2; shift 2 ;;
	--fifo) FIFO=$2; shift 2 ;;
	--shape) SHAPE=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "storage-vs-fio.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case "$NICE" in -[0-9]|-1[0-9]|-20|[0-9]|1[0-9]) ;; *) echo "storage-vs-fio.sh: --nice takes -20 to 19" >&2; exit 2 ;; esac
case "$DIRECT" in 0|1) ;; *) echo "storage-vs-fio.sh: --direct takes 0 or 1" >&2; exit 2 ;; esac
case "$FIFO" in [0-9]|[0-9][0-9]) ;; *) echo "storage-vs-fio.sh: --fifo takes 1 to 99" >&2; exit 2 ;; esac
case "$T$RAMP$ROUNDS$DEPTH" in *[!0-9]*|'') echo "storage-vs-fio.sh: --time, --ramp, --rounds and --depth take whole numbers" >&2; exit 2 ;; esac
case "$SHAPE" in ''|[0-9]*) ;; *) echo "storage-vs-fio.sh: --shape takes IOPS[,MBPS]" >&2; exit 2 ;; esac
case "$SHAPE" in *[!0-9,]*|*,*,*) echo "storage-vs-fio.sh: --shape takes IOPS[,MBPS]" >&2; exit 2 ;; esac
case "$ENGINE" in libaio|io_uring|psync) ;; *) echo "storage-vs-fio.sh: --engine takes libaio, io_uring or psync" >&2; exit 2 ;; esac
[ -n "$PG" ] || PG=$(dirname "$0")/../build/perfguide
[ -x "$PG" ] || { echo "storage-vs-fio.sh: no perfguide binary at $PG (--perfguide)" >&2; exit 2; }
command -v fio >/dev/null 2>&1 || { echo "storage-vs-fio.sh: fio is not installed (apt-get install fio)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "storage-vs-fio.sh: python3 is needed to read the results" >&2; exit 2; }
[ -d "$DIR" ] || { echo "storage-vs-fio.sh: --dir $DIR is not a directory" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/pg-storage-bench.XXXXXX")
FILE=$(cd "$DIR" && pwd)/pg-storage-vs-fio.$$.dat
trap 'rm -rf "$W"; rm -f "$FILE"' EXIT INT TERM

python3 - "$PG" "$FILE" "$SIZE" "$T" "$RAMP" "$ROUNDS" "$ENGINE" "$DEPTH" "$W" "$NICE" "$FIFO" "$DIRECT" "$SHAPE" $JOBS <<'PY'
import atexit, json, os, statistics, subprocess, sys, time

pg, path, size, secs, ramp, rounds, engine, depth, work, nice, fifo, direct, shape = sys.argv[1:14]
jobs = [j.split(":") for j in sys.argv[14:]]
rounds, depth = int(rounds), int(depth)

def disk_of(p):
    """MAJ:MIN of the whole disk the file system under p lives on."""
    d = os.stat(os.path.dirname(p)).st_dev
    sysdir = os.path.realpath("/sys/dev/block/%d:%d" % (os.major(d), os.minor(d)))
    if os.path.exists(os.path.join(sysdir, "partition")):
        sysdir = os.path.dirname(sysdir)
    return open(os.path.join(sysdir, "dev")).read().strip()

def remove_cgroup(root, cg, procs):
    open(os.path.join(root, procs), "w").write(str(os.getpid()))
    os.rmdir(cg)

def throttle(spec):
    """This process, and so both tools, into a cgroup that throttles the disk."""
    iops, _, mbps = spec.partition(",")
    dev = disk_of(path)
    v1 = "/sys/fs/cgroup/blkio"
    if os.path.isdir(v1):
        cg, root = os.path.join(v1, "pg-storage-vs-fio.%d" % os.getpid()), v1
        procs = "tasks"
        os.mkdir(cg)
        atexit.register(remove_cgroup, root, cg, procs)
        limits = [("blkio.throttle.read_iops_device", iops), ("blkio.throttle.write_iops_device", iops)]
        if mbps:
            limits += [("blkio.throttle.read_bps_device", str(int(mbps) * 1000000)),
                       ("blkio.throttle.write_bps_device", str(int(mbps) * 1000000))]
        for f, v in limits:
            open(os.path.join(cg, f), "w").write("%s %s\n" % (dev, v))
    else:
        root = "/sys/fs/cgroup"
        if "io" not in open(os.path.join(root, "cgroup.controllers")).read().split():
            sys.exit("storage-vs-fio: --shape: no io controller in %s" % root)
        open(os.path.join(root, "cgroup.subtree_control"), "w").write("+io")
        cg = os.path.join(root, "pg-storage-vs-fio.%d" % os.getpid())
        procs = "cgroup.procs"
        os.mkdir(cg)
        atexit.register(remove_cgroup, root, cg, procs)
        v = "riops=%s wiops=%s" % (iops, iops)
        if mbps:
            v += " rbps=%d wbps=%d" % (int(mbps) * 1000000, int(mbps) * 1000000)
        open(os.path.join(cg, "io.max"), "w").write("%s %s\n" % (dev, v))
    open(os.path.join(cg, procs), "w").write(str(os.getpid()))
    return "disk %s throttled to %s IOPS%s each way" % (dev, iops, " and %s MB/s" % mbps if mbps else "")

def stat():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return sum(v) - v[3] - v[4], sum(v)

def run_timed(cmd):
    b0, t0 = stat()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.path.join(work, "out.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        if int(nice):
            os.nice(int(nice))
        if int(fifo):
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(int(fifo)))
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    b1, t1 = stat()
    text = open(os.path.join(work, "out.txt")).read()
    return os.waitstatus_to_exitcode(status), text, ru.ru_utime + ru.ru_stime, \
        (b1 - b0) * 100.0 / max(t1 - t0, 1)

def fio_job(rw, bs):
    cmd = ["fio", "--name=pg", "--filename=" + path, "--size=" + size, "--rw=" + rw, "--bs=" + bs,
           "--ioengine=" + engine, "--iodepth=%d" % depth, "--direct=" + direct, "--time_based",
           "--runtime=" + secs, "--ramp_time=" + ramp, "--output-format=json",
           "--output=" + os.path.join(work, "fio.json")]
    if rw == "randrw":
        cmd.append("--rwmixread=70")
    return cmd

def pg_job(rw, bs):
    cmd = [pg, "run", "storage." + rw, "-p", "path=" + path, "-p", "bs=" + bs, "-p", "size=" + size,
           "-p", "engine=" + engine, "-p", "depth=%d" % depth, "-p", "direct=" + direct, "-p", "time=" + secs,
           "-p", "ramp=" + ramp, "--runs", "1", "--no-db", "--out", os.path.join(work, "pg.jsonl")]
    if "write" in rw or rw == "randrw":
        cmd.append("--destroy-data=" + path)
    return cmd

def fio_result(cpu, busy):
    j = json.load(open(os.path.join(work, "fio.json")))["jobs"][0]
    dirs = [j[d] for d in ("read", "write") if j[d]["io_bytes"] > 0]
    ios = sum(d["total_ios"] for d in dirs)
    lat = {}
    if len(dirs) == 1:
        c = dirs[0]["clat_ns"]
        lat = {"mean": c["mean"] / 1e3, "p50": c["percentile"]["50.000000"] / 1e3,
               "p99": c["percentile"]["99.000000"] / 1e3, "p999": c["percentile"]["99.900000"] / 1e3}
    else:
        lat = {"mean": sum(d["clat_ns"]["mean"] * d["total_ios"] for d in dirs) / ios / 1e3}
    return {"bw": sum(d["bw_bytes"] for d in dirs) / 1e6, "iops": sum(d["iops"] for d in dirs),
            "cpu_us": cpu * 1e6 / max(ios, 1), "busy": busy, **lat}

def pg_result(cpu, busy):
    m = {}
    for l in open(os.path.join(work, "pg.jsonl")):
        r = json.loads(l)
        if r.get("type") == "result":
            if r["status"] != "ok":
                raise RuntimeError(r.get("reason"))
            m[r["metric"]] = r
    ios = m["iops"]["median"] * m["iops"]["sample_s"][0]
    res = {"bw": m["bandwidth"]["median"], "iops": m["iops"]["median"],
           "cpu_us": cpu * 1e6 / max(ios, 1), "busy": busy, "mean": m["lat_mean"]["median"]}
    if "read_bandwidth" not in m:
        res.update(p50=m["lat_p50"]["median"], p99=m["lat_p99"]["median"], p999=m["lat_p999"]["median"])
    return res

# The file, laid out by fio (random data, as for fio's own read jobs).
rc, text, _, _ = run_timed(["fio", "--name=layout", "--filename=" + path, "--size=" + size,
                            "--rw=write", "--bs=1m", "--direct=" + direct, "--ioengine=psync"])
if rc != 0:
    sys.exit("storage-vs-fio: laying out %s with fio failed: %s" % (path, text[-300:]))
ver = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
mnt = subprocess.run(["df", "-T", path], capture_output=True, text=True).stdout.splitlines()[-1].split()
print("storage-vs-fio: %s vs %s; file %s (%s on %s), size %s, %s s after %s s of ramp, %s, depth %d, %s, %d rounds"
      % (os.path.basename(pg), ver, path, mnt[1], mnt[0], size, secs, ramp, engine, depth,
         "O_DIRECT" if direct == "1" else "buffered", rounds))
print("load average before: %s; nice %s; %s" % (open("/proc/loadavg").read().split(" ")[:3], nice,
      "SCHED_FIFO %s" % fifo if int(fifo) else "SCHED_OTHER"))
if shape:
    try:
        print("shaped: " + throttle(shape))
    except OSError as e:
        sys.exit("storage-vs-fio: --shape: %s (root and a cgroup blkio/io controller are needed)" % e)
print("fio command: " + " ".join(fio_job("RW", "BS")).replace(os.path.join(work, "fio.json"), "OUT.json"))
print("perfguide command: " + " ".join(pg_job("RW", "BS")).replace(os.path.join(work, "pg.jsonl"), "OUT.jsonl"))

rows = []
for rw, bs in jobs:
    got = {"perfguide": [], "fio": []}
    for r in range(rounds):
        order = ["perfguide", "fio"] if r % 2 == 0 else ["fio", "perfguide"]
        for tool in order:
            cmd = pg_job(rw, bs) if tool == "perfguide" else fio_job(rw, bs)
            if tool == "perfguide" and os.path.exists(os.path.join(work, "pg.jsonl")):
                os.unlink(os.path.join(work, "pg.jsonl"))
            rc, text, cpu, busy = run_timed(cmd)
            if rc != 0:
                sys.exit("storage-vs-fio: %s %s %s failed (exit %d): %s" % (tool, rw, bs, rc, text[-400:]))
            got[tool].append(pg_result(cpu, busy) if tool == "perfguide" else fio_result(cpu, busy))
    med = {t: {k: statistics.median(x[k] for x in v) for k in v[0]} for t, v in got.items()}
    # Each round's two runs were neighbours in time: their ratio is what a
    # drift of the medium (a host's write cache filling, a neighbour's
    # burst) disturbs least.
    paired = sorted(p["bw"] / f["bw"] for p, f in zip(got["perfguide"], got["fio"]))
    q = statistics.quantiles(paired, n=4) if len(paired) > 1 else [paired[0]] * 3
    med["paired"] = {"mid": 100 * (q[1] - 1), "lo": 100 * (q[0] - 1), "hi": 100 * (q[2] - 1)}
    rows.append((rw, bs, med))
    p, f = med["perfguide"], med["fio"]
    print("  %-9s %-4s  bw %9.2f vs %9.2f MB/s (%+5.1f%%)  IOPS %9.0f vs %9.0f  cpu %6.2f vs %6.2f us/IO  p99 %8.1f vs %8.1f us"
          % (rw, bs, p["bw"], f["bw"], 100 * (p["bw"] / f["bw"] - 1), p["iops"], f["iops"], p["cpu_us"], f["cpu_us"],
             p.get("p99", 0), f.get("p99", 0)), flush=True)
    print("            rounds, MB/s: perfguide %s, fio %s" % (" ".join("%.1f" % x["bw"] for x in got["perfguide"]),
                                                         " ".join("%.1f" % x["bw"] for x in got["fio"])), flush=True)
    # Each round's percentiles: under a throttle a tool's own rounds spread
    # by more than the two tools' medians differ (methodology-storage.md).
    for k in ("p50", "p99"):
        if k in got["perfguide"][0] and k in got["fio"][0]:
            print("            rounds, %s us: perfguide %s, fio %s" % (
                k, " ".join("%.0f" % x[k] for x in got["perfguide"]),
                " ".join("%.0f" % x[k] for x in got["fio"])), flush=True)

def pct(a, b):
    return 100.0 * (a / b - 1) if b else float("nan")

print()
print("| job | MB/s perfguide | MB/s fio | diff | paired diff (IQR) | IOPS perfguide / fio | CPU us/IO perfguide / fio | busy % pg/fio | clat p50 us perfguide / fio | clat p99 us perfguide / fio | clat mean diff | p50 diff | p99 diff | p99.9 diff | verdict |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
misses = 0
for rw, bs, med in rows:
    p, f = med["perfguide"], med["fio"]
    d = {k: pct(p[k], f[k]) for k in ("bw", "iops", "mean", "p50", "p99", "p999") if k in p and k in f}
    ok = abs(d["bw"]) <= 5 and abs(d["iops"]) <= 5 and p["cpu_us"] <= f["cpu_us"] * 1.05
    ok = ok and all(abs(d[k]) <= 10 for k in ("mean", "p50", "p99", "p999") if k in d)
    misses += not ok
    cell = lambda k: "%+.1f%%" % d[k] if k in d else "-"
    both = lambda k: "%.0f / %.0f" % (p[k], f[k]) if k in p and k in f else "-"
    pr = med["paired"]
    print("| %s %s | %.2f | %.2f | %s | %+.1f%% (%+.1f..%+.1f) | %.0f / %.0f | %.1f / %.1f | %.0f / %.0f | %s | %s | %s | %s | %s | %s | %s |"
          % (rw, bs, p["bw"], f["bw"], cell("bw"), pr["mid"], pr["lo"], pr["hi"], p["iops"], f["iops"],
             p["cpu_us"], f["cpu_us"], p["busy"], f["busy"], both("p50"), both("p99"),
             cell("mean"), cell("p50"), cell("p99"), cell("p999"), "within targets" if ok else "MISSED"))
print()
print("load average after: %s" % open("/proc/loadavg").read().split(" ")[:3])
print("%d of %d jobs within all targets (bw, IOPS within 5%%; CPU/IO <= fio's + 5%%; clat within 10%%)"
      % (len(rows) - misses, len(rows)))
PY
