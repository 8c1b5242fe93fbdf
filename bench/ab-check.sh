#!/bin/sh
# SPDX-License-Identifier: MIT
# perfguide ab measured on this machine (issue 37's "done when"):
#
#   bench/ab-check.sh [PERFGUIDE] MODE [DIR]
#
#   aa        the issue's 11 benchmarks, both sides the same: expect nothing
#             regressed or improved, most gated rows within noise, exit 0
#             or 3, under 20 minutes
#   syscalls  the same with B's system calls about 0.05 us slower
#             (bench/slow-syscalls.py): expect the system-call rows
#             regressed, os.pipe.lat regressed or undecided, no memory row
#             changed, exit 1
#
# One ab per call (each takes up to its 20-minute budget: run each under
# /work/tools/quiet on the project's VM). PERFGUIDE defaults to
# build/perfguide; DIR (default a new one under /tmp) keeps both sides'
# results files, their logs and the verdicts (ab.md, ab.json). Prints the
# verdict counts, the rows called, the rounds, the time and the exit status.
set -u
pg=build/perfguide
case "${1:-}" in */*) pg=$1; shift ;; esac
[ -x "$pg" ] || { echo "ab-check: no perfguide binary at $pg" >&2; exit 2; }
[ $# -ge 1 ] || { sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
command -v python3 >/dev/null || { echo "ab-check: python3 is needed" >&2; exit 2; }
mode=$1
w=${2:-$(mktemp -d /tmp/ab-check.XXXXXX)/ab}
ELEVEN="cpu.dhrystone cpu.whetstone mem.bw.rd mem.bw.wr mem.lat.rd os.syscall.null os.syscall.read os.syscall.write
os.pipe.lat os.sig.install crypto.sha256"
case $mode in
aa) prefix="" ;;
syscalls) prefix="python3 $(cd "$(dirname "$0")" && pwd)/slow-syscalls.py" ;;
*) echo "ab-check: unknown mode $mode" >&2; exit 2 ;;
esac

echo "ab-check $mode: load $(cut -d' ' -f1-3 /proc/loadavg), results in $w"
t0=$(date +%s)
# shellcheck disable=SC2086
if [ -n "$prefix" ]; then
	"$pg" ab $ELEVEN --out "$w" --b-prefix "$prefix" >/dev/null 2>"$w.err"
else
	"$pg" ab $ELEVEN --out "$w" >/dev/null 2>"$w.err"
fi
rc=$?
t1=$(date +%s)
echo "  exit $rc after $((t1 - t0)) s (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
grep '^ab: look' "$w.err" | sed 's/^/  /'
grep '^perfguide:' "$w.err" | sed 's/^/  /'
python3 - "$w/ab.json" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
rows = d["results"]
gated = [r for r in rows if r["gated"]]
c = collections.Counter(r["verdict"] for r in gated)
print("  %d rounds (looks after %s), %d rows, %d gated: %s; %d not gated; lost %d" % (
    len(d["rounds"]), d["looks_after_rounds"], len(rows), len(gated),
    ", ".join("%s %d" % kv for kv in sorted(c.items())), len(rows) - len(gated), len(d["lost"])))
if gated:
    print("  within noise: %.0f%% of the gated rows" % (100.0 * c["within noise"] / len(gated)))
for r in rows:
    lo, hi = r.get("interval_lo_pct"), r.get("interval_hi_pct")
    iv = "%+.1f%% to %+.1f%%" % (lo, hi) if lo is not None and hi is not None else "-"
    print("  %-16s %-12s %+7.1f%%  [%s]  %2d rounds  %s%s" % (r["bench"], r["metric"], r.get("change_pct") or 0, iv,
          r.get("rounds", 0), r["verdict"], (": " + r["why"][:70]) if r.get("why") else ""))
PY
