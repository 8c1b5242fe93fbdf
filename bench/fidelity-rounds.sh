#!/bin/sh
# SPDX-License-Identifier: MIT
# fidelity-rounds.sh: perfguide beside the reference programs it reproduces,
# row by row, in alternating rounds: every round runs each row's reference
# and perfguide once, each in its own process, the order swapped every other
# round, so that load from other work on the machine hits both alike; the
# ratio perfguide / reference is paired within each round, and the table
# gives the median of those ratios and their range, with the CPU model and
# the load average beside it. A benchmark script, not a test: it exits 0
# after printing (2 on a usage error). Nothing is downloaded or kept.
#
#   mem   mem.lat.rd (min, as lat_mem_rd)   vs lat_mem_rd -P 1 MB 128
#         mem.bw.{rd,wr,rdwr,cp,frd,fwr,fcp,bzero,bcopy} vs bw_mem -P 1 SIZE OP
#         mem.stream.* (max, as STREAM's best) vs STREAM's binary, built with
#                                              perfguide's array length (the
#                                              script says which when it differs)
#   os    os.syscall.{null,read,write}      vs lat_syscall -P 1
#         os.sig.{install,catch}            vs lat_sig -P 1
#         os.proc.{fork,exec}               vs lat_proc -P 1 (exec: lmbench's
#                                              hello, which lat_proc runs as
#                                              /tmp/hello)
#   cpu   cpu.nbench.{assign,huffman,bitfield} vs nbench's binary, one workload
#         per run (a command file with MINSECONDS=1)
#   (cpu.linpack and the other CPU workloads: bench/cpu-vs-reference.sh)
#
# --cpu-clock times both sides by CPU time instead of the wall clock (an
# LD_PRELOAD library built here from a few lines of C makes CLOCK_MONOTONIC,
# CLOCK_REALTIME and gettimeofday return the process's CPU time), for a
# machine too loaded to be measured: a process waiting for the CPU then
# costs nothing, though caches and the core are still shared. The os.proc
# rows stay on the wall clock (their work is in child processes).

set -u

usage() {
	cat <<'EOF'
usage: bench/fidelity-rounds.sh --lmbench-bin DIR [options]

  --lmbench-bin DIR   lmbench's binaries (bw_mem, lat_mem_rd, lat_syscall,
                      lat_sig, lat_proc, hello): build lmbench yourself (e.g.
                      github.com/intel/lmbench, -O2 as perfguide), keep it
                      outside this repository
  --stream-bin PATH   STREAM's binary (stream.c built -O2 -DSTREAM_ARRAY_SIZE=N
                      -DNTIMES=20, N the length perfguide's note gives: the
                      table says N when the binary's differs)
  --nbench-bin PATH   nbench's binary (nbench-byte, -O2 as perfguide): the
                      assign, huffman and bitfield rows
  --perfguide PATH    perfguide binary (default: build/perfguide beside bench/)
  --rounds N          rounds (default 5)
  --only mem|os|cpu|stream
                      one group of rows (stream: the mem.stream rows alone,
                      no lmbench needed)
  --sizes LIST        bw_mem sizes (default 1m,16m)
  --lat-mb N          lat_mem_rd sweeps up to N MB (default 16); perfguide's
                      sizes are lat_mem_rd's from 512k up
  --cpu-clock         time both sides by CPU time (see above)
  -h, --help          this text
EOF
}

die_usage() {
	echo "fidelity-rounds.sh: $*" >&2
	echo "(see bench/fidelity-rounds.sh --help)" >&2
	exit 2
}

HERE=$(cd "$(dirname "$0")/.." && pwd)
PG=$HERE/build/perfguide
LMB= STREAM= NBENCH= ROUNDS=5 ONLY= SIZES=1m,16m LATMB=16 CPUCLOCK=0
while [ $# -gt 0 ]; do
	case "$1" in
	--lmbench-bin) [ $# -ge 2 ] || die_usage "--lmbench-bin needs a directory"; LMB=$2; shift 2 ;;
	--stream-bin) [ $# -ge 2 ] || die_usage "--stream-bin needs a path"; STREAM=$2; shift 2 ;;
	--nbench-bin) [ $# -ge 2 ] || die_usage "--nbench-bin needs a path"; NBENCH=$2; shift 2 ;;
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--rounds) [ $# -ge 2 ] || die_usage "--rounds needs a number"; ROUNDS=$2; shift 2 ;;
	--only) [ $# -ge 2 ] || die_usage "--only needs mem, os or cpu"; ONLY=$2; shift 2 ;;
	--sizes) [ $# -ge 2 ] || die_usage "--sizes needs a list"; SIZES=$2; shift 2 ;;
	--lat-mb) [ $# -ge 2 ] || die_usage "--lat-mb needs a number"; LATMB=$2; shift 2 ;;
	--cpu-clock) CPUCLOCK=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
done
case "$ROUNDS" in ''|*[!0-9]*|0) die_usage "--rounds must be a positive number" ;; esac
case "$LATMB" in ''|*[!0-9]*|0) die_usage "--lat-mb must be a positive number of MB" ;; esac
case "$ONLY" in ''|mem|os|cpu|stream) ;; *) die_usage "--only takes mem, os, cpu or stream" ;; esac
[ "$ONLY" != stream ] || [ -n "$STREAM" ] || die_usage "--only stream needs --stream-bin"
if [ "$ONLY" != cpu ] && [ "$ONLY" != stream ]; then
	[ -n "$LMB" ] || die_usage "give --lmbench-bin DIR"
	[ -x "$LMB/bw_mem" ] || die_usage "no executable $LMB/bw_mem"
fi
[ "$ONLY" != cpu ] || [ -n "$NBENCH" ] || die_usage "--only cpu needs --nbench-bin"
[ -z "$NBENCH" ] || [ -x "$NBENCH" ] || die_usage "no executable $NBENCH"
[ -x "$PG" ] || die_usage "no perfguide binary at $PG (build it, or give --perfguide)"
[ -z "$STREAM" ] || [ -x "$STREAM" ] || die_usage "no executable $STREAM"
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed"

W=$(mktemp -d "${TMPDIR:-/tmp}/pg-fidelity.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM

PRELOAD=
if [ $CPUCLOCK -eq 1 ]; then
	cat >"$W/cpuclock.c" <<'EOF'
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
/* The process's CPU time in place of the clocks benchmarks time with. */
int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (id == CLOCK_MONOTONIC || id == CLOCK_REALTIME || id == CLOCK_MONOTONIC_RAW)
		id = CLOCK_PROCESS_CPUTIME_ID;
	return (int)syscall(SYS_clock_gettime, id, ts);
}
int gettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;
	(void)tz;
	syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}
EOF
	cc -O2 -shared -fPIC -o "$W/cpuclock.so" "$W/cpuclock.c" || die_usage "cannot build the CPU-clock library"
	PRELOAD=$W/cpuclock.so
fi

export PG LMB STREAM NBENCH ROUNDS ONLY SIZES LATMB PRELOAD W
python3 - <<'PY'
import json, os, re, statistics, subprocess, sys, time

PG, LMB, W = os.environ["PG"], os.environ["LMB"], os.environ["W"]
NBENCH = os.environ["NBENCH"]
STREAM, ONLY, PRELOAD = os.environ["STREAM"], os.environ["ONLY"], os.environ["PRELOAD"]
ROUNDS, LATMB = int(os.environ["ROUNDS"]), int(os.environ["LATMB"])
SIZES = os.environ["SIZES"].split(",")

def env(wall=False):
    e = dict(os.environ)
    e.setdefault("ENOUGH", "100000")  # lmbench: 0.1 s a measurement, its floor for lat_mem_rd
    if PRELOAD and not wall:
        e["LD_PRELOAD"] = PRELOAD
    return e

def run(cmd, wall=False):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env(wall),
                       universal_newlines=True)
    return p.stdout

def pg(bench, params, stat="median", wall=False, runs=11):
    out = os.path.join(W, "pg.jsonl")
    if os.path.exists(out):
        os.unlink(out)
    cmd = [PG, "run", bench, "--runs", str(runs), "--min-time", "0.1", "--no-db", "--out", out]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    run(cmd, wall)
    res = {}
    try:
        for line in open(out):
            r = json.loads(line)
            if r.get("type") == "result" and r.get("status") == "ok":
                res.setdefault((r["bench"], r["params"].get("size")), r)
    except OSError:
        pass
    return res

def size_bytes(s):
    m = re.match(r"^(\d+)([kmg]?)$", s)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2)]

def micro(text):
    m = re.search(r"([0-9.]+) microseconds", text)
    return float(m.group(1)) if m else None

rows = []   # (name, unit, higher_is_better, stat, measure(round) -> (pg, ref))

# --- mem ---
def lat_rows():
    sizes = [s for s in ("512k", "1m", "2m", "4m", "8m", "16m", "32m", "64m") if size_bytes(s) <= LATMB << 20]
    cache = {}
    def measure(rnd, size):
        # one lat_mem_rd sweep and one perfguide run of all sizes per round
        if rnd not in cache:
            text = run([os.path.join(LMB, "lat_mem_rd"), "-P", "1", str(LATMB), "128"])
            ref = {}
            for line in text.splitlines():
                m = re.match(r"^\s*([0-9.]+)\s+([0-9.]+)\s*$", line)
                if m:
                    ref[round(float(m.group(1)) * 1048576)] = float(m.group(2))
            p = pg("mem.lat.rd", {"size": ",".join(sizes), "stride": 128})
            cache[rnd] = (ref, p)
        ref, p = cache[rnd]
        b = size_bytes(size)
        r = p.get(("mem.lat.rd", b))
        near = min(ref, key=lambda k: abs(k - b)) if ref else None
        return (r["min"] if r else None, r["median"] if r else None,
                ref.get(near) if near is not None and abs(near - b) < b * 0.01 else None)
    for s in sizes:
        rows.append(("mem.lat.rd size=%s" % s, "ns", 0, "min | lat_mem_rd min",
                     lambda rnd, s=s: measure(rnd, s)))

def bw_rows():
    for op in ("rd", "wr", "rdwr", "cp", "frd", "fwr", "fcp", "bzero", "bcopy"):
        for s in SIZES:
            def measure(rnd, op=op, s=s):
                text = run([os.path.join(LMB, "bw_mem"), "-P", "1", s, op])
                m = re.search(r"^\s*[0-9.]+\s+([0-9.]+)\s*$", text, re.M)
                r = pg("mem.bw." + op, {"size": s}).get(("mem.bw." + op, size_bytes(s)))
                return (r["median"] if r else None, None, float(m.group(1)) if m else None)
            rows.append(("mem.bw.%s size=%s" % (op, s), "MB/s", 1, "median | bw_mem median", measure))

def stream_passes():
    """STREAM's counted passes (NTIMES - 1), from a run of its binary."""
    m = re.search(r"Each kernel will be executed (\d+) times", run([STREAM]))
    return int(m.group(1)) - 1 if m else 19

def stream_rows():
    global STREAM_PASSES
    if not STREAM:
        return
    STREAM_PASSES = stream_passes()
    cache = {}
    def measure(rnd, k):
        if rnd not in cache:
            res = {}
            n = None
            # the order swapped every other round, so load hits both alike
            text = run([STREAM]) if rnd % 2 else None
            for kk in ("copy", "scale", "add", "triad"):
                # as many counted passes as STREAM's NTIMES - 1
                r = pg("mem.stream." + kk, {}, runs=STREAM_PASSES)
                for v in r.values():
                    res[kk] = v
                    m = re.search(r"arrays of (\d+) doubles", v.get("note", ""))
                    n = int(m.group(1)) if m else n
            ref = {}
            if text is None:
                text = run([STREAM])
            for line in text.splitlines():
                m = re.match(r"^(Copy|Scale|Add|Triad):\s+([0-9.]+)", line)
                if m:
                    ref[m.group(1).lower()] = float(m.group(2))
            m = re.search(r"Array size = (\d+)", text)
            if n and m and int(m.group(1)) != n and not NOTES_STREAM:
                NOTES_STREAM.append(1)
                NOTES.append("STREAM's arrays have %s elements, perfguide's %d: build stream.c with "
                             "-DSTREAM_ARRAY_SIZE=%d" % (m.group(1), n, n))
            cache[rnd] = (res, ref)
        res, ref = cache[rnd]
        r = res.get(k)
        return (r["max"] if r else None, r["median"] if r else None, ref.get(k))
    for k in ("copy", "scale", "add", "triad"):
        rows.append(("mem.stream." + k, "MB/s", 1, "max | STREAM best", lambda rnd, k=k: measure(rnd, k)))

# --- cpu: nbench ---
NB_NAMES = {"assign": ("DOASSIGN", "ASSIGNMENT"), "huffman": ("DOHUFF", "HUFFMAN"),
            "bitfield": ("DOBITFIELD", "BITFIELD")}

def nbench_rows():
    if not NBENCH:
        return
    for k, (flag, name) in NB_NAMES.items():
        def measure(rnd, k=k, flag=flag, name=name):
            d = os.path.join(W, "nb")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "ONE.CMD"), "w") as f:
                f.write("CUSTOMRUN=T\nMINSECONDS=1\n%s=T\n" % flag)
            p = subprocess.run([NBENCH, "-cONE.CMD"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=env(), universal_newlines=True)
            # the figure is on the workload's line, or below its warnings
            at = re.search(r"^%s\s*:" % name, p.stdout, re.M)
            m = re.search(r":\s*([0-9][0-9.]*(?:e[+-]?[0-9]+)?)\s*:", p.stdout[at.start():]) if at else None
            r = pg("cpu.nbench." + k, {}, runs=10).get(("cpu.nbench." + k, None))
            return (r["median"] if r else None, None, float(m.group(1)) if m else None)
        rows.append(("cpu.nbench." + k, "/s", 1, "median | nbench's", measure))

# --- os ---
def os_rows():
    for what, bench in (("null", "os.syscall.null"), ("read", "os.syscall.read"), ("write", "os.syscall.write")):
        def measure(rnd, what=what, bench=bench):
            ref = micro(run([os.path.join(LMB, "lat_syscall"), "-P", "1", what]))
            r = pg(bench, {}).get((bench, None))
            return (r["median"] if r else None, None, ref)
        rows.append((bench, "us", 0, "median | lat_syscall median", measure))
    for what in ("install", "catch"):
        def measure(rnd, what=what):
            ref = micro(run([os.path.join(LMB, "lat_sig"), "-P", "1", what]))
            r = pg("os.sig." + what, {}).get(("os.sig." + what, None))
            return (r["median"] if r else None, None, ref)
        rows.append(("os.sig." + what, "us", 0, "median | lat_sig median", measure))
    hello_ok = os.path.exists("/tmp/hello") and open("/tmp/hello", "rb").read() == \
        open(os.path.join(LMB, "hello"), "rb").read()
    for what in ("fork", "exec"):
        if what == "exec" and not hello_ok:
            NOTES.append("os.proc.exec not compared: lat_proc runs /tmp/hello; copy %s/hello there" % LMB)
            continue
        def measure(rnd, what=what):
            ref = micro(run([os.path.join(LMB, "lat_proc"), "-P", "1", what], wall=True))
            params = {"prog": "/tmp/hello"} if what == "exec" else {}
            r = pg("os.proc." + what, params, wall=True).get(("os.proc." + what, None))
            return (r["median"] if r else None, None, ref)
        rows.append(("os.proc." + what, "us", 0, "median | lat_proc median", measure))

NOTES, NOTES_STREAM = [], []
STREAM_PASSES = 19
if ONLY in ("", "mem"):
    lat_rows()
    bw_rows()
if ONLY in ("", "mem", "stream"):
    stream_rows()
if ONLY in ("", "os"):
    os_rows()
if ONLY in ("", "cpu"):
    nbench_rows()

def cpu_model():
    try:
        text = open("/proc/cpuinfo").read()
    except OSError:
        return "?"
    m = re.search(r"^model name\s*:\s*(.*)$", text, re.M)
    if m:
        fam = re.search(r"^cpu family\s*:\s*(\d+)", text, re.M)
        mod = re.search(r"^model\s*:\s*(\d+)", text, re.M)
        return "%s (family %s, model %s)" % (m.group(1), fam.group(1) if fam else "?", mod.group(1) if mod else "?")
    parts = sorted(set(re.findall(r"^CPU part\s*:\s*(\S+)", text, re.M)))
    impl = sorted(set(re.findall(r"^CPU implementer\s*:\s*(\S+)", text, re.M)))
    return "implementer %s part %s" % (",".join(impl), ",".join(parts)) if parts else "?"

load0 = os.getloadavg()
t0 = time.time()
data = {name: [] for name, *_ in rows}
for rnd in range(ROUNDS):
    for name, unit, hib, stat, measure in rows:
        data[name].append(measure(rnd))
        print("round %d/%d %s" % (rnd + 1, ROUNDS, name), file=sys.stderr)
load1 = os.getloadavg()

def cv(v):
    return statistics.stdev(v) / statistics.mean(v) * 100 if len(v) > 1 and statistics.mean(v) else 0.0

print()
print("perfguide beside its references, %d alternating rounds, ratios paired within rounds" % ROUNDS)
print("CPU: %s, %d CPUs; clock: %s" % (cpu_model(), os.cpu_count() or 0,
                                       "CPU time (--cpu-clock)" if PRELOAD else "wall"))
print("load average %.2f %.2f %.2f before, %.2f %.2f %.2f after (%.0f s)" % (load0 + load1 + (time.time() - t0,)))
print()
hdr = ("result", "perfguide", "reference", "ratio", "ratio range", "cv pg/ref", "statistic pg | ref")
out = []
for name, unit, hib, stat, measure in rows:
    got = [(a, b) for a, _, b in data[name] if a is not None and b is not None and b > 0]
    if not got:
        out.append((name, "-", "-", "-", "-", "-", stat))
        continue
    pgv, refv = [a for a, b in got], [b for a, b in got]
    ratios = sorted(a / b for a, b in got)
    out.append((name, "%.4g %s" % (statistics.median(pgv), unit), "%.4g %s" % (statistics.median(refv), unit),
                "%.3f" % statistics.median(ratios), "%.3f-%.3f" % (ratios[0], ratios[-1]),
                "%.1f%%/%.1f%%" % (cv(pgv), cv(refv)), stat))
    med = [m for _, m, _ in data[name] if m is not None]
    if med:
        medr = sorted(m / b for (_, m, b) in data[name] if m is not None and b)
        out.append(("  (perfguide's median)", "%.4g %s" % (statistics.median(med), unit), "",
                    "%.3f" % statistics.median(medr), "", "", ""))
w = [max(len(str(r[i])) for r in out + [hdr]) for i in range(len(hdr))]
for r in [hdr, tuple("-" * n for n in w)] + out:
    print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
print()
print("ratio = perfguide / reference (for times: > 1 means perfguide measured slower)")
for n in NOTES:
    print("note: " + n)
PY
exit 0
