#!/bin/sh
# SPDX-License-Identifier: MIT
# The release gate measured on this machine (issue 25's "done when"):
#
#   bench/gate-check.sh [PERFGUIDE] MODE...
#
#   aa        the quick suite of every group twice back to back, one run a
#             side: expect exit 0 and nothing regressed or improved (exit 3
#             where one run a side cannot judge a row: said per row)
#   aa3       the same with three runs a side, in alternating rounds
#             (A B A B A B), so that load hits both sides alike: expect 0
#   eleven    the 11 benchmarks of the issue at their standard settings,
#             one run a side and three a side alternating: expect 0
#   load      BASE quiet, NEW beside two busy loops of another process:
#             expect NEW disturbed, exit 3, nothing regressed or improved
#   syscalls  NEW with every system call made slower (a stack of seccomp
#             filters that inspect each call's first argument, installed by
#             python3's ctypes before exec: the kernel runs them on every
#             system call, and nothing else), three runs a side
#             alternating: expect exit 1, the os rows regressed, the memory
#             and CPU rows not
#   five      3 samples a side, NEW's system calls slowed past 5x
#             (os.syscall.null): expect regressed, never within noise
#   missing   a benchmark missing from NEW: expect it named, exit 1
#   all       every mode above
#
# PERFGUIDE defaults to build/perfguide. Each mode prints the load average
# before and after, the verdicts and compare's exit status; the results
# files stay in the directory it names. SLOW_FILTERS (default 16) sets how
# many filters slow the system calls.
set -u
pg=build/perfguide
case "${1:-}" in */*) pg=$1; shift ;; esac
[ -x "$pg" ] || { echo "gate-check: no perfguide binary at $pg" >&2; exit 2; }
[ $# -gt 0 ] || { sed -n '3,/^$/p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
command -v python3 >/dev/null || { echo "gate-check: python3 is needed" >&2; exit 2; }
w=$(mktemp -d /tmp/gate-check.XXXXXX)
echo "gate-check: files in $w"
ELEVEN="cpu.dhrystone cpu.whetstone mem.bw.rd mem.bw.wr mem.lat.rd os.syscall.null os.syscall.read os.syscall.write
os.pipe.lat os.sig.install crypto.sha256"
SLOWSET="os.syscall.null os.syscall.read os.syscall.write os.pipe.lat os.sig.install mem.bw.rd mem.bw.wr mem.lat.rd
cpu.dhrystone"

# python3 slow-syscalls.py PROGRAM ARGS...: PROGRAM with every system call
# made slower and nothing else (bench/slow-syscalls.py), grossly here.
slow="python3 $(dirname "$0")/slow-syscalls.py"
export SLOW_FILTERS="${SLOW_FILTERS:-16}" SLOW_INSNS="${SLOW_INSNS:-400}"

# summary.py CMP.json EXPECTED_EXIT RC: verdict counts, the rows called, what was lost
cat >"$w/summary.py" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
rows = d.get("results", [])
c = collections.Counter(r["verdict"] for r in rows)
print("  %d rows: %s; lost %d; exit %s (expected %s)" % (len(rows), ", ".join("%s %d" % kv for kv in sorted(c.items())),
      len(d.get("lost", [])), sys.argv[3], sys.argv[2]))
for u in d.get("unlike", []):
    print("  unlike: " + u)
for r in rows:
    if r["verdict"] in ("regressed", "improved") or (r["verdict"] == "inconclusive" and "--show-inconclusive" in sys.argv):
        print("  %-12s %-18s %-40s %-12s %+8.1f%%  %s" % (r["verdict"], r["bench"], json.dumps(r["params"], sort_keys=True)[:40],
              r["metric"], r.get("change_pct") or 0, r.get("why", "")[:90]))
why = collections.Counter(r.get("why", "").split(":")[0].split(" (")[0] for r in rows if r["verdict"] == "inconclusive")
for k, v in why.most_common():
    print("  inconclusive %d: %s" % (v, k))
for l in d.get("lost", []):
    print("  lost: %s %s %s in %s %s" % (l["bench"], json.dumps(l["params"]), l["what"], l["run"], l.get("reason", "")))
PY

load() { cut -d' ' -f1-3 /proc/loadavg; }
run() { "$pg" run --no-db --wait-quiet 0 "$@"; }
# cmp NAME EXPECTED BASE NEW [compare args]
cmp() {
	name=$1 want=$2
	shift 2
	"$pg" compare "$@" --format json >"$w/$name.cmp.json" 2>"$w/$name.cmp.err"
	rc=$?
	python3 "$w/summary.py" "$w/$name.cmp.json" "$want" "$rc" ${SHOW_INCONCLUSIVE:+--show-inconclusive} ||
		cat "$w/$name.cmp.err"
}
# disturbed FILE: how many results the runs in FILE say were disturbed
disturbed() {
	python3 - "$1" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if '"type":"result"' in l]
ok = [x for x in r if x.get("status") == "ok"]
d = [x for x in ok if x.get("disturbed")]
others = [x["env"].get("others_pct", 0) for x in d if "env" in x]
print("  %s: %d of %d ok results disturbed%s" % (sys.argv[1].rsplit("/", 1)[-1], len(d), len(ok),
      ", others %.0f-%.0f%% of the CPUs" % (min(others), max(others)) if others else ""))
PY
}
# rounds NAME N ARGS...: N rounds of A then B (B with $SLOW before it, if set)
rounds() {
	name=$1 n=$2
	shift 2
	for i in $(seq 1 "$n"); do
		run "$@" --out "$w/$name-a.jsonl" >>"$w/$name-a.log" 2>&1
		$SLOW "$pg" run --no-db --wait-quiet 0 "$@" --out "$w/$name-b.jsonl" >>"$w/$name-b.log" 2>&1
	done
}

mode_aa() {
	echo "aa: the quick suite twice, one run a side (load $(load))"
	run --suite quick --out "$w/aa-a.jsonl" >"$w/aa-a.log" 2>&1
	run --suite quick --out "$w/aa-b.jsonl" >"$w/aa-b.log" 2>&1
	echo "  load after: $(load)"
	disturbed "$w/aa-a.jsonl"
	disturbed "$w/aa-b.jsonl"
	cmp aa 0 "$w/aa-a.jsonl" "$w/aa-b.jsonl"
}

mode_aa3() {
	echo "aa3: the quick suite, three runs a side alternating (load $(load))"
	SLOW="" rounds aa3 3 --suite quick
	echo "  load after: $(load)"
	disturbed "$w/aa3-a.jsonl"
	disturbed "$w/aa3-b.jsonl"
	cmp aa3 0 "$w/aa3-a.jsonl" "$w/aa3-b.jsonl"
}

mode_eleven() {
	echo "eleven: the issue's 11 benchmarks, standard settings (load $(load))"
	# shellcheck disable=SC2086
	SLOW="" rounds eleven 3 $ELEVEN
	echo "  load after: $(load)"
	disturbed "$w/eleven-a.jsonl"
	disturbed "$w/eleven-b.jsonl"
	python3 - "$w" <<'PY'
import sys
w = sys.argv[1]
for side in "ab":
    lines = open("%s/eleven-%s.jsonl" % (w, side)).read().splitlines()
    runs, cur = [], []
    for l in lines:
        if '"type":"run"' in l and cur:
            runs.append(cur); cur = []
        cur.append(l)
    runs.append(cur)
    open("%s/eleven1-%s.jsonl" % (w, side), "w").write("\n".join(runs[0]) + "\n")
PY
	echo "  one run a side (the first of each):"
	cmp eleven1 0 "$w/eleven1-a.jsonl" "$w/eleven1-b.jsonl"
	echo "  three runs a side:"
	cmp eleven 0 "$w/eleven-a.jsonl" "$w/eleven-b.jsonl"
}

mode_load() {
	echo "load: BASE quiet, NEW beside two busy loops (load $(load))"
	# shellcheck disable=SC2086
	run $ELEVEN --out "$w/load-a.jsonl" >"$w/load-a.log" 2>&1
	sh -c 'while :; do :; done' &
	l1=$!
	sh -c 'while :; do :; done' &
	l2=$!
	# shellcheck disable=SC2086
	"$pg" run --no-db $ELEVEN --out "$w/load-b.jsonl" >"$w/load-b.log" 2>&1
	kill $l1 $l2
	echo "  load after: $(load)"
	grep '^perfguide: .*\(disturbed\|waiting\|still busy\)' "$w/load-b.log" | sed 's/^/  /'
	disturbed "$w/load-a.jsonl"
	disturbed "$w/load-b.jsonl"
	cmp load 3 "$w/load-a.jsonl" "$w/load-b.jsonl"
}

mode_syscalls() {
	echo "syscalls: NEW with every system call slowed, three runs a side alternating (load $(load))"
	# shellcheck disable=SC2086
	SLOW="$slow" rounds sys 3 $SLOWSET
	echo "  load after: $(load)"
	disturbed "$w/sys-a.jsonl"
	disturbed "$w/sys-b.jsonl"
	SHOW_INCONCLUSIVE=1 cmp sys 1 "$w/sys-a.jsonl" "$w/sys-b.jsonl"
}

mode_five() {
	echo "five: 3 samples a side, NEW's system calls 5x slower or more (load $(load))"
	run os.syscall.null --runs 3 --out "$w/five-a.jsonl" >"$w/five-a.log" 2>&1
	$slow "$pg" run --no-db --wait-quiet 0 os.syscall.null --runs 3 --out "$w/five-b.jsonl" \
		>"$w/five-b.log" 2>&1
	SHOW_INCONCLUSIVE=1 cmp five 1 "$w/five-a.jsonl" "$w/five-b.jsonl"
}

mode_missing() {
	echo "missing: mem.bw.rd missing from NEW (load $(load))"
	run cpu.dhrystone mem.bw.rd --runs 3 --out "$w/miss-a.jsonl" >"$w/miss-a.log" 2>&1
	run cpu.dhrystone --runs 3 --out "$w/miss-b.jsonl" >"$w/miss-b.log" 2>&1
	cmp miss 1 "$w/miss-a.jsonl" "$w/miss-b.jsonl"
}

for m in "$@"; do
	case $m in
	all) for x in missing five load syscalls eleven aa aa3; do "mode_$x"; done ;;
	aa | aa3 | eleven | load | syscalls | five | missing) "mode_$m" ;;
	*) echo "gate-check: unknown mode $m" >&2; exit 2 ;;
	esac
done
