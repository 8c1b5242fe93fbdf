#!/bin/sh
# SPDX-License-Identifier: MIT
# mem-vs-peers.sh: run perfguide's memory benchmarks beside reference tools on
# this machine, in one go, and print a side-by-side table with pass/fail
# against the targets below. It is a benchmark script, not a test: it exits 0
# after printing whatever the targets say (2 only on a usage error).
#
#   mem.bw.bcopy size=16m  vs  mbw -t0 -n 10 16 (MiB/s converted to MB/s)  within 10%
#   mem.stream.triad       vs  STREAM "Best Rate MB/s" (--stream-bin)       within 10%
#   mem.bw.fcp size=8m     vs  lmbench bw_mem 8m fcp (--lmbench-bin)        reported, 10% flagged
#   mem.lat.rd             vs  lmbench lat_mem_rd <MB> 128 (--lmbench-bin)  reported, 10% flagged
#   perfguide run 'mem.*' --suite quick: wall time < 30 s, max CV of the
#   mem.bw.* and mem.stream.* results < 3%
#
# Nothing is downloaded or built. STREAM and lmbench are not part of
# perfguide: bring your own builds (see --help for the settings).

set -u

usage() {
	cat <<'EOF'
usage: bench/mem-vs-peers.sh [options]

  --perfguide PATH    perfguide binary (default ./build/perfguide, else the one
                      in the build/ directory next to this script's bench/)
  --runs N            samples per perfguide result in the comparisons (default 10)
  --stream-bin PATH   STREAM's binary, stream.c built single-threaded with
                      cc -O2 -DSTREAM_ARRAY_SIZE=N -DNTIMES=20 (plus
                      -mcmodel=medium on x86_64 when 24 N bytes reach 2 GiB),
                      N the array length of perfguide's mem.stream.* (their
                      note says "arrays of N doubles"); the script reads the
                      binary's "Array size = " line and refuses a binary whose
                      size differs, naming N
  --lmbench-bin DIR   directory holding lmbench's bw_mem and lat_mem_rd
  -h, --help          this text

References: mbw is the Debian package mbw (apt-get install mbw). STREAM is at
https://www.cs.virginia.edu/stream/ (or github.com/jeffhammond/STREAM): build
it yourself as above, outside this repository, and pass --stream-bin PATH.
lmbench has no Debian package: build it yourself (e.g. github.com/intel/lmbench,
make -C src with libtirpc-dev) and pass --lmbench-bin .../bin/<os>.
EOF
}

die_usage() {
	echo "mem-vs-peers.sh: $*" >&2
	echo "(see bench/mem-vs-peers.sh --help)" >&2
	exit 2
}

PG=
RUNS=10
STREAM_BIN=
LMB=
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--perfguide=*) PG=${1#*=}; shift ;;
	--runs) [ $# -ge 2 ] || die_usage "--runs needs a number"; RUNS=$2; shift 2 ;;
	--runs=*) RUNS=${1#*=}; shift ;;
	--stream-bin) [ $# -ge 2 ] || die_usage "--stream-bin needs a path"; STREAM_BIN=$2; shift 2 ;;
	--stream-bin=*) STREAM_BIN=${1#*=}; shift ;;
	--lmbench-bin) [ $# -ge 2 ] || die_usage "--lmbench-bin needs a directory"; LMB=$2; shift 2 ;;
	--lmbench-bin=*) LMB=${1#*=}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown argument '$1'" ;;
	esac
done

case "$RUNS" in
''|*[!0-9]*|??????*) die_usage "--runs '$RUNS': give a whole number from 1 to 100000" ;;
esac
if [ "$RUNS" -lt 1 ] || [ "$RUNS" -gt 100000 ]; then
	die_usage "--runs '$RUNS': give a whole number from 1 to 100000"
fi

if [ -z "$PG" ]; then
	PG=./build/perfguide
	if [ ! -x "$PG" ]; then
		here=$(cd "$(dirname "$0")" && pwd)
		[ -x "$here/../build/perfguide" ] && PG=$here/../build/perfguide
	fi
fi
[ -x "$PG" ] || die_usage "perfguide binary '$PG' not found or not executable (build it, or give --perfguide PATH)"
if [ -n "$STREAM_BIN" ] && { [ ! -f "$STREAM_BIN" ] || [ ! -x "$STREAM_BIN" ]; }; then
	die_usage "--stream-bin '$STREAM_BIN': no executable file"
fi
if [ -n "$LMB" ]; then
	[ -d "$LMB" ] || die_usage "--lmbench-bin '$LMB': not a directory"
	[ -x "$LMB/bw_mem" ] || die_usage "--lmbench-bin: no executable $LMB/bw_mem"
	[ -x "$LMB/lat_mem_rd" ] || die_usage "--lmbench-bin: no executable $LMB/lat_mem_rd"
fi
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed to read perfguide's JSON results"

T=$(mktemp -d "${TMPDIR:-/tmp}/mem-vs-peers.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

say() { echo ">> $*" >&2; }
now() { python3 -c 'import time; print("%.3f" % time.time())'; }

# What the whole machine and this script's own processes have used so far, so
# the report can say how much CPU other processes took while we measured:
# "<wall s> <machine busy ticks> <our children's times>".
mark() {
	m_t=$(now)
	m_b=-
	[ -r /proc/stat ] && m_b=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat)
	times >"$T/times.$1"	# in this shell, not a subshell: children's times
	echo "$m_t $m_b" >"$T/mark.$1"
}

# Runs perfguide; its table and messages go to $T/<name>.log.
pg_run() {
	name=$1; shift
	"$PG" run "$@" --out "$T/$name.jsonl" >"$T/$name.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || say "perfguide run $* failed (exit $rc): $(tail -n 3 "$T/$name.log")"
	return $rc
}

getconf CLK_TCK >"$T/clk_tck" 2>/dev/null || echo 100 >"$T/clk_tck"
mark start
LAT_SIZES=512,32k,256k,1m,16m
LAT_STRIDE=128

# 1. STREAM: perfguide first, to learn its array size N; first of all, so
# that a STREAM binary of another size is refused before the long parts.
say "perfguide mem.stream.{copy,scale,add,triad} ($RUNS runs each)"
pg_run stream mem.stream.copy mem.stream.scale mem.stream.add mem.stream.triad --runs "$RUNS"
if [ -n "$STREAM_BIN" ]; then
	N=$(python3 -c '
import json, re, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = re.search(r"arrays of (\d+) doubles", r.get("note", "") or "")
    if r.get("type") == "result" and m:
        print(m.group(1)); break
' "$T/stream.jsonl" 2>/dev/null)
	say "STREAM ($STREAM_BIN)"
	"$STREAM_BIN" >"$T/stream.txt" 2>&1 || say "STREAM exited non-zero: $(tail -n 2 "$T/stream.txt")"
	SN=$(sed -n 's/.*Array size = \([0-9][0-9]*\).*/\1/p' "$T/stream.txt" | head -n 1)
	if [ -z "$N" ]; then
		echo "perfguide's STREAM results carry no array size: STREAM's (${SN:-?}) not checked against it" >"$T/stream.nocheck"
	elif [ -z "$SN" ]; then
		echo "STREAM's output has no \"Array size = \" line: its array size not checked against perfguide's $N" >"$T/stream.nocheck"
	elif [ "$SN" != "$N" ]; then
		echo "mem-vs-peers.sh: $STREAM_BIN has Array size = $SN, perfguide's mem.stream.* $N: build stream.c with -DSTREAM_ARRAY_SIZE=$N" >&2
		exit 2
	fi
else
	echo "not compared: give --stream-bin PATH, stream.c built as --help says (from https://www.cs.virginia.edu/stream/ or github.com/jeffhammond/STREAM; keep it outside this repo)" >"$T/stream.missing"
fi

# 2. memmove of 16 MiB: perfguide vs mbw.
say "perfguide mem.bw.bcopy size=16m ($RUNS runs)"
pg_run bcopy mem.bw.bcopy -p size=16m --runs "$RUNS"
if command -v mbw >/dev/null 2>&1; then
	say "mbw -t0 -n 10 16"
	mbw -t0 -n 10 16 >"$T/mbw.txt" 2>&1 || say "mbw failed: $(tail -n 2 "$T/mbw.txt")"
else
	echo "mbw is not installed (apt-get install mbw)" >"$T/mbw.missing"
fi

# 3. lmbench's fcp and lat_mem_rd.
say "perfguide mem.bw.fcp size=8m and mem.lat.rd size=$LAT_SIZES stride=$LAT_STRIDE ($RUNS runs)"
pg_run fcp mem.bw.fcp -p size=8m --runs "$RUNS"
pg_run lat mem.lat.rd -p size=$LAT_SIZES -p stride=$LAT_STRIDE --runs "$RUNS"
if [ -n "$LMB" ]; then
	# lmbench sizes each measurement by ENOUGH microseconds; left to itself it
	# may calibrate that to seconds on a noisy clock, and lat_mem_rd then takes
	# many minutes. 100000 is the floor lat_mem_rd asks for anyway.
	ENOUGH=${ENOUGH:-100000}
	export ENOUGH
	say "bw_mem 8m fcp (ENOUGH=$ENOUGH)"
	"$LMB/bw_mem" 8m fcp >"$T/bw_mem.txt" 2>&1 || say "bw_mem failed: $(tail -n 2 "$T/bw_mem.txt")"
	# lat_mem_rd takes whole MB and sweeps every size up to it.
	say "lat_mem_rd -P 1 16 $LAT_STRIDE (sweeps every size up to 16 MB: a few minutes)"
	"$LMB/lat_mem_rd" -P 1 16 "$LAT_STRIDE" >"$T/lat_mem_rd.txt" 2>&1 ||
		say "lat_mem_rd failed: $(tail -n 2 "$T/lat_mem_rd.txt")"
fi

# 4. The memory part of the quick suite, timed.
say "perfguide run 'mem.*' --suite quick"
mark quick0	# also the end of the comparisons
pg_run quick 'mem.*' --suite quick
mark quick1

# The report.
python3 - "$T" "$PG" "$RUNS" "${STREAM_BIN:-}" "${LMB:-}" <<'PY'
import json, math, os, re, statistics, sys

T, PG, RUNS, STREAM_BIN, LMB = sys.argv[1:6]
MIB = 1048576 / 1e6

def path(name):
    return os.path.join(T, name)

def text(name):
    try:
        with open(path(name)) as f:
            return f.read()
    except OSError:
        return None

def results(name):
    """perfguide results in a file, keyed by (bench, size) and by bench."""
    out = []
    t = text(name + ".jsonl")
    for line in (t or "").splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("type") == "result":
            out.append(r)
    return out

def find(rs, bench, **params):
    for r in rs:
        if r.get("bench") != bench:
            continue
        if all(r.get("params", {}).get(k) == v for k, v in params.items()):
            return r
    return None

def pgval(r):
    if r is None:
        return None
    if r.get("status", "ok") != "ok" or r.get("median") is None:
        return None
    return r["median"]

def fmt(v, unit):
    if v is None:
        return "-"
    return ("%.2f %s" if v < 100 else "%.0f %s") % (v, unit)

def diff(a, b):
    if a is None or b is None or b == 0:
        return None
    return (a - b) / b * 100

rows = []   # (what, perfguide, cv, reference, ref figure, diff, target, verdict, best diff)
verdicts = []

def row(what, r, unit, ref, refv, target=None, flag=None, best=False):
    """best: the reference figure is a best-of-N (STREAM Best Rate, lat_mem_rd's
    minimum), so also compare perfguide's best sample with it."""
    v = pgval(r)
    d = diff(v, refv)
    bd = None
    if best and v is not None:
        bd = diff(r["max"] if unit == "MB/s" else r["min"], refv)
    if r is None:
        pgs = "missing"
    elif v is None:
        pgs = r.get("status", "?")
    else:
        pgs = fmt(v, unit)
    cv = "-" if v is None else "%.1f%%" % (100 * r.get("cv", 0))
    ds = "-" if d is None else "%+.1f%%" % d
    if target is not None:
        verdict = "n/a" if d is None else ("PASS" if abs(d) <= target else "FAIL")
        ts = "within %g%%" % target
        verdicts.append((what, verdict))
    else:
        verdict = "" if d is None else ("within %g%%" % flag if abs(d) <= flag else "APART >%g%%" % flag)
        ts = "(info)"
    rows.append((what, pgs, cv, ref, fmt(refv, unit) if refv is not None else "-", ds, ts, verdict,
                 "-" if bd is None else "%+.1f%%" % bd))

notes = []

# 1. bcopy vs mbw
bc = results("bcopy")
mbw_runs, mbw_avg = [], None
mt = text("mbw.txt")
if mt:
    for line in mt.splitlines():
        m = re.match(r"^(\d+|AVG)\s+Method:\s+MEMCPY.*Copy:\s+([0-9.]+)\s+MiB/s", line)
        if m:
            if m.group(1) == "AVG":
                mbw_avg = float(m.group(2)) * MIB
            else:
                mbw_runs.append(float(m.group(2)) * MIB)
mbw_med = statistics.median(mbw_runs) if mbw_runs else None
row("mem.bw.bcopy size=16m", find(bc, "mem.bw.bcopy"), "MB/s",
    "mbw -t0 memcpy 16MiB, median", mbw_med, target=10)
if mbw_avg is not None:
    row("", find(bc, "mem.bw.bcopy"), "MB/s", "mbw AVG (total/total)", mbw_avg, flag=10)
if text("mbw.missing"):
    notes.append("mbw: " + text("mbw.missing").strip())
elif mt is not None and not mbw_runs:
    notes.append("mbw: could not read its output: " + mt.strip()[-200:])
if mbw_runs:
    notes.append("mbw per-run MB/s (MiB/s x 1.048576): min %.0f, median %.0f, max %.0f"
                 % (min(mbw_runs), mbw_med, max(mbw_runs)))

# 2. STREAM
st = results("stream")
srates = {}
stxt = text("stream.txt")
s_n, s_bytes = None, 8
if stxt:
    m = re.search(r"Array size = (\d+)", stxt)
    if m:
        s_n = int(m.group(1))
    m = re.search(r"uses (\d+) bytes per array element", stxt)
    if m:
        s_bytes = int(m.group(1))
    for line in stxt.splitlines():
        m = re.match(r"^(Copy|Scale|Add|Triad):\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)", line)
        if m:
            arrays = 2 if m.group(1) in ("Copy", "Scale") else 3
            avg = float(m.group(3))
            avg_rate = arrays * s_bytes * s_n / avg / 1e6 if s_n and avg > 0 else None
            srates[m.group(1).lower()] = (float(m.group(2)), avg_rate)
pg_n = None
for r in st:
    m = re.search(r"arrays of (\d+) doubles", r.get("note", "") or "")
    if m:
        pg_n = int(m.group(1))
        notes.append("perfguide STREAM: " + r["note"])
        break
for k in ("copy", "scale", "add", "triad"):
    r = find(st, "mem.stream." + k)
    best, avgr = srates.get(k, (None, None))
    if stxt is None:
        row("mem.stream." + k, r, "MB/s", "STREAM: not compared", None, flag=10)
        continue
    row("mem.stream." + k, r, "MB/s", "STREAM Best Rate", best, best=True,
        **({"target": 10} if k == "triad" else {"flag": 10}))
    row("", r, "MB/s", "STREAM from avg time", avgr, flag=10)
if text("stream.missing"):
    notes.append("STREAM " + text("stream.missing").strip())
elif stxt is not None:
    if not srates:
        notes.append("STREAM: could not read its output: " + stxt.strip()[-200:])
    if text("stream.nocheck"):
        notes.append("STREAM: " + text("stream.nocheck").strip())
    elif s_n:
        notes.append("STREAM: %s, Array size = %d (perfguide's, checked); built NTIMES=20, "
                     "single thread (no OpenMP) as --help asks: not checked"
                     % (os.path.basename(STREAM_BIN), s_n))

# 3. lmbench
fc = results("fcp")
lt = results("lat")
bwm = None
t = text("bw_mem.txt")
if t:
    m = re.search(r"^\s*([0-9.]+)\s+([0-9.]+)\s*$", t, re.M)
    if m:
        bwm = float(m.group(2))
lat_lines = []
t = text("lat_mem_rd.txt")
if t:
    for line in t.splitlines():
        m = re.match(r"^\s*([0-9.]+)\s+([0-9.]+)\s*$", line)
        if m:
            lat_lines.append((float(m.group(1)), float(m.group(2))))
fcp_r = find(fc, "mem.bw.fcp")
if LMB:
    row("mem.bw.fcp size=8m", fcp_r, "MB/s", "bw_mem 8m fcp", bwm, flag=10)
else:
    row("mem.bw.fcp size=8m", fcp_r, "MB/s", "lmbench: not compared", None, flag=10)
copy = pgval(find(st, "mem.stream.copy"))
if copy is not None:
    row("", fcp_r, "MB/s", "expect ~ STREAM copy/2", copy / 2, flag=50)
lat_rs = sorted((r for r in lt if r.get("bench") == "mem.lat.rd"),
                key=lambda r: r.get("params", {}).get("size", 0))
for r in lat_rs:
    size = r["params"]["size"]
    stride = r["params"].get("stride")
    label = "mem.lat.rd size=%s" % (("%dk" % (size >> 10)) if size < 1 << 20 else ("%dm" % (size >> 20))) \
        if size >= 1024 else "mem.lat.rd size=%d" % size
    if lat_lines:
        mb, ns = min(lat_lines, key=lambda p: abs(math.log(p[0] * 1048576 / size)))
        row(label, r, "ns", "lat_mem_rd %g MB (min)" % mb, ns, flag=10, best=True)
    else:
        row(label, r, "ns", "lmbench: not compared" if not LMB else "lat_mem_rd: no output", None, flag=10)
if not LMB:
    notes.append("lmbench: not compared: give --lmbench-bin DIR holding bw_mem and lat_mem_rd "
                 "(no Debian package; build github.com/intel/lmbench outside this repo)")
    notes.append("lmbench-style expectations: bw_mem fcp counts a copy's bytes once, so fcp at sizes "
                 "beyond the caches is ~ half STREAM copy; lat_mem_rd steps up at each cache size "
                 "(L1, L2, LLC) and beyond the LLC shows DRAM plus what the stride prefetcher hides")
else:
    if bwm is None:
        notes.append("bw_mem: could not read its output: " + (text("bw_mem.txt") or "").strip()[-200:])
    if not lat_lines:
        notes.append("lat_mem_rd: could not read its output: " + (text("lat_mem_rd.txt") or "").strip()[-200:])

# Print the table.
hdr = ("benchmark", "perfguide", "cv", "reference", "ref figure", "diff", "target", "verdict", "best-vs-best")
w = [max(len(str(x[i])) for x in rows + [hdr]) for i in range(len(hdr))]
line = lambda x: "  ".join(str(c).ljust(w[i]) for i, c in enumerate(x)).rstrip()
print()
print("perfguide (%s, --runs %s) beside reference tools on this machine" % (PG, RUNS))
print("MB = 10^6 bytes everywhere; perfguide = median of its samples; "
      "diff = (perfguide - reference) / reference;")
print("best-vs-best: perfguide's best sample against a reference that reports a best-of-N figure")
print()
print(line(hdr))
print(line(tuple("-" * n for n in w)))
for x in rows:
    print(line(x))
print()
for n in notes:
    print("note: " + n)

# 4. Quick suite.
q = results("quick")
def load(a, b):
    """(wall seconds, CPUs' worth of time other processes used) between marks."""
    ma, mb = text("mark." + a), text("mark." + b)
    if not ma or not mb:
        return None, None
    pa, pb = ma.split(), mb.split()
    wall = float(pb[0]) - float(pa[0])
    if pa[1] == "-" or wall <= 0:
        return wall, None
    def own(name):
        # last line of `times`: user and system time of this script's children
        lines = (text("times." + name) or "").strip().splitlines()
        t = 0.0
        for m in re.finditer(r"(\d+)m([0-9.]+)s", lines[-1] if lines else ""):
            t += int(m.group(1)) * 60 + float(m.group(2))
        return t
    hz = float((text("clk_tck") or "100").strip() or 100)
    busy = (int(pb[1]) - int(pa[1])) / hz
    return wall, max(0.0, busy - (own(b) - own(a))) / wall

wall, other_q = load("quick0", "quick1")
print()
print("quick suite, memory part: perfguide run 'mem.*' --suite quick")
if not q:
    print("  no results: " + (text("quick.log") or "").strip()[-300:])
else:
    ok = wall is not None and wall < 30
    print("  wall time      %.1f s   (target < 30 s)   %s" % (wall, "PASS" if ok else "FAIL"))
    verdicts.append(("quick wall time", "PASS" if ok else "FAIL"))
    bw = [r for r in q if re.match(r"mem\.(bw|stream)\.", r.get("bench", "")) and r.get("cv") is not None]
    def size(v):
        if not isinstance(v, int):
            return str(v)   # a size parameter recorded as text
        if v == 0:
            return "auto"
        for shift, suffix in ((30, "g"), (20, "m"), (10, "k")):
            if v >= 1 << shift and v % (1 << shift) == 0:
                return "%d%s" % (v >> shift, suffix)
        return str(v)
    def name(r):
        p = r.get("params", {})
        s = " ".join("%s=%s" % (k, size(v) if k == "size" else v) for k, v in p.items())
        return "%s %s" % (r["bench"], s)
    if bw:
        top = max(bw, key=lambda r: r["cv"])
        ok = top["cv"] < 0.03
        print("  max cv         %.1f%%  (mem.bw.* and mem.stream.*, target < 3%%: %s)   %s"
              % (100 * top["cv"], name(top), "PASS" if ok else "FAIL"))
        verdicts.append(("quick max cv", "PASS" if ok else "FAIL"))
        noisy = [r for r in bw if r["cv"] > 0.03]
        print("  results with cv > 3%%: %d of %d" % (len(noisy), len(bw)))
        for r in sorted(noisy, key=lambda r: -r["cv"]):
            print("    %-40s cv %5.1f%%  median %.0f %s" % (name(r), 100 * r["cv"], r["median"], r.get("unit", "")))
    others = [r for r in q if r.get("status", "ok") != "ok"]
    for r in others:
        print("  %s: %s" % (name(r), r.get("status")))

print()
tc, other_c = load("start", "quick0")
ncpu = os.cpu_count() or 1
if other_c is not None and other_q is not None:
    print("machine: %d CPUs; other processes used on average %.2f CPUs during the comparisons "
          "(%.0f s) and %.2f during the quick suite (%.0f s)" % (ncpu, other_c, tc, other_q, wall))
    for what, o in (("comparisons", other_c), ("quick suite", other_q)):
        if o > 0.1:
            print("WARNING: something else was running during the %s: its figures are not "
                  "trustworthy; rerun on an idle machine" % what)
print("targets: " + ", ".join("%s %s" % v for v in verdicts))
PY
exit 0
