#!/bin/sh
# SPDX-License-Identifier: MIT
# os-vs-peers.sh: run perfguide's operating-system benchmarks beside the
# closest tools Debian ships, on this machine, and print side by side:
#
#   os.syscall.null        vs  perf bench syscall basic (getppid, usecs/op)
#   os.pipe.lat            vs  perf bench sched pipe (round trip, usecs/op)
#   os.ctx procs=2 size=0  vs  perf bench sched pipe pinned to one CPU, halved
#                              (two switches per round trip; pipe cost included)
#   os.tcp.bw              vs  iperf3 over 127.0.0.1 (one stream, MB/s received)
#   os.file.rd.io          vs  sysbench fileio seqrd, one cached 1 MiB file,
#                              64 KiB blocks (MiB/s converted to MB/s)
#   os.syscall.null, os.pipe.lat, os.sem, os.sig.catch, os.proc.fork, os.ctx
#                          vs  LMBench's own programs, with --lmbench-bin DIR
#   hackbench (rt-tests) and stress-ng, when installed, are run and reported
#   for context (their workloads have no perfguide twin).
#
# Then, with --table, a table of every LMBench seed row name against
# perfguide's figure on this machine, from a standard-suite run (about ten
# minutes) or from a results file given with --results.
#
# A benchmark script, not a test: it prints what it measured and exits 0
# (2 on a usage error). Nothing is downloaded. Peers that are missing are
# named with the package that has them.

set -u

usage() {
	cat <<'EOF'
usage: bench/os-vs-peers.sh [options]

  --perfguide PATH    perfguide binary (default ./build/perfguide)
  --runs N            samples per perfguide result (default 10)
  --lmbench-bin DIR   directory holding LMBench's lat_syscall, lat_pipe, lat_ctx,
                      lat_sem, lat_proc, lat_sig, lat_fs (bring your own build:
                      LMBench has no Debian package)
  --table             also print every seed row against perfguide's figure
                      (runs the os and cpu.ops groups' standard suite)
  --results FILE      take the --table figures from this perfguide results file
  -h, --help          this text

Peers: perf (linux-perf), iperf3, sysbench; optional rt-tests (hackbench)
and stress-ng.
EOF
}

die_usage() {
	echo "os-vs-peers.sh: $*" >&2
	echo "(see bench/os-vs-peers.sh --help)" >&2
	exit 2
}

PG=./build/perfguide
RUNS=10
LMB=
TABLE=0
RESULTS=
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--runs) [ $# -ge 2 ] || die_usage "--runs needs a number"; RUNS=$2; shift 2 ;;
	--lmbench-bin) [ $# -ge 2 ] || die_usage "--lmbench-bin needs a directory"; LMB=$2; shift 2 ;;
	--table) TABLE=1; shift ;;
	--results) [ $# -ge 2 ] || die_usage "--results needs a file"; RESULTS=$2; TABLE=1; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown argument '$1'" ;;
	esac
done
case "$RUNS" in ''|*[!0-9]*) die_usage "--runs '$RUNS': give a whole number" ;; esac
[ -x "$PG" ] || die_usage "perfguide binary '$PG' not found (build it, or give --perfguide PATH)"
[ -z "$LMB" ] || [ -x "$LMB/lat_syscall" ] || die_usage "--lmbench-bin: no $LMB/lat_syscall"
[ -z "$RESULTS" ] || [ -r "$RESULTS" ] || die_usage "--results '$RESULTS': cannot read it"
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed to read perfguide's results"

T=$(mktemp -d "${TMPDIR:-/tmp}/os-vs-peers.XXXXXX") || exit 1
IPERF_PID=
cleanup() {
	[ -n "$IPERF_PID" ] && kill "$IPERF_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { echo ">> $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }

# pg NAME ARGS...: the median of perfguide's first result, or "-".
pg() {
	name=$1; shift
	"$PG" run "$@" --runs "$RUNS" --no-db --out "$T/$name.jsonl" >"$T/$name.log" 2>&1 \
		|| { say "perfguide run $* failed: $(tail -n 2 "$T/$name.log")"; echo -; return; }
	python3 - "$T/$name.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "result":
        print("%.4g" % r["median"] if r["status"] == "ok" else "-")
        break
PY
}

ROWS=$T/rows
: >"$ROWS"
row() { printf '%-26s %12s  %-34s %12s  %s\n' "$1" "$2" "$3" "$4" "$5" >>"$ROWS"; }

say "syscall: perfguide os.syscall.null, perf bench syscall basic"
P=$(pg null os.syscall.null)
if have perf; then
	Q=$(perf bench syscall basic -l 1000000 2>/dev/null | awk '/usecs\/op/{print $1}')
	row os.syscall.null "$P" "perf bench syscall basic" "${Q:--}" "us per getppid()"
else
	row os.syscall.null "$P" "perf bench syscall basic" "-" "not installed: apt-get install linux-perf"
fi

say "pipe round trip: os.pipe.lat, perf bench sched pipe"
P=$(pg pipe os.pipe.lat -p msg=4)
P2=$(pg ctx os.ctx -p procs=2 -p size=0 -p cpu=0)
if have perf; then
	Q=$(perf bench sched pipe -l 200000 2>/dev/null | awk '/usecs\/op/{print $1}')
	row os.pipe.lat "$P" "perf bench sched pipe" "${Q:--}" "us per round trip, unpinned"
	if have taskset; then
		Q=$(taskset -c 0 perf bench sched pipe -l 200000 2>/dev/null | awk '/usecs\/op/{print $1 / 2}')
		row "os.ctx procs=2 size=0" "$P2" "taskset -c 0 perf bench sched pipe /2" "${Q:--}" \
			"us; perf's figure includes the pipe write+read perfguide subtracts"
	fi
else
	row os.pipe.lat "$P" "perf bench sched pipe" "-" "not installed: apt-get install linux-perf"
fi

say "TCP over loopback: os.tcp.bw, iperf3"
P=$(pg tcp os.tcp.bw)
if have iperf3; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	iperf3 -s -1 -B 127.0.0.1 -p "$port" >/dev/null 2>&1 &
	IPERF_PID=$!
	sleep 0.5
	Q=$(iperf3 -c 127.0.0.1 -p "$port" -t 3 -J 2>/dev/null | python3 -c '
import json, sys
try:
    print("%.4g" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 8e6))
except Exception:
    print("-")')
	wait "$IPERF_PID" 2>/dev/null
	IPERF_PID=
	row os.tcp.bw "$P" "iperf3 -c 127.0.0.1 -t 3" "$Q" "MB/s, one stream"
else
	row os.tcp.bw "$P" "iperf3" "-" "not installed: apt-get install iperf3"
fi

say "cached file read: os.file.rd.io, sysbench fileio"
P=$(pg file os.file.rd.io)
if have sysbench; then
	mkdir "$T/sb"
	(cd "$T/sb" && sysbench fileio --file-num=1 --file-total-size=1M prepare >/dev/null 2>&1 &&
		sysbench fileio --file-num=1 --file-total-size=1M --file-test-mode=seqrd \
			--file-block-size=65536 --time=3 run 2>/dev/null) >"$T/sb.out"
	Q=$(awk '/read, MiB\/s/{printf "%.4g", $3 * 1.048576}' "$T/sb.out")
	row os.file.rd.io "$P" "sysbench fileio seqrd 1M 64k" "${Q:--}" "MB/s; sysbench adds its own per-request bookkeeping"
else
	row os.file.rd.io "$P" "sysbench fileio" "-" "not installed: apt-get install sysbench"
fi

if [ -n "$LMB" ]; then
	say "LMBench from $LMB"
	lm() { "$@" 2>&1 | tail -n 1 | awk '{print $(NF-1)}'; }
	row os.syscall.null "$(pg n2 os.syscall.null)" "lat_syscall null" "$(lm "$LMB/lat_syscall" null)" us
	row os.pipe.lat "$(pg p2 os.pipe.lat)" "lat_pipe" "$(lm "$LMB/lat_pipe")" us
	row os.sem "$(pg sem os.sem)" "lat_sem" "$(lm "$LMB/lat_sem")" us
	row os.sig.catch "$(pg sig os.sig.catch)" "lat_sig catch" "$(lm "$LMB/lat_sig" catch)" us
	row os.proc.fork "$(pg fork os.proc.fork)" "lat_proc fork" "$(lm "$LMB/lat_proc" fork)" us
	Q=$(taskset -c 0 "$LMB/lat_ctx" -s 0 2 2>&1 | awk 'NF == 2 && $1 == 2 {print $2}')
	row "os.ctx procs=2 size=0" "$P2" "taskset -c 0 lat_ctx -s 0 2" "${Q:--}" us
fi

if have hackbench; then
	say "hackbench (context only)"
	Q=$(hackbench -p -l 200 2>&1 | awk '/Time:/{print $2}')
	row "(none)" - "hackbench -p -l 200" "${Q:--}" "s; messaging workload, no perfguide twin"
fi
if have stress-ng; then
	say "stress-ng --switch (context only)"
	Q=$(stress-ng --switch 1 --timeout 3 --metrics-brief 2>&1 | awk '/switch/ && $5 ~ /[0-9]/ {print $9; exit}')
	row "(none)" - "stress-ng --switch 1 (bogo ops/s)" "${Q:--}" "context switches by pipe ping-pong"
fi

echo
printf '%-26s %12s  %-34s %12s  %s\n' "perfguide" "value" "peer" "value" "note"
cat "$ROWS"
echo
echo "CPU load while measuring: $(uptime | sed 's/.*load/load/')"

[ $TABLE -eq 1 ] || exit 0

if [ -z "$RESULTS" ]; then
	say "standard suite of os and cpu.ops (about ten minutes)"
	RESULTS=$T/standard.jsonl
	"$PG" run os cpu.ops.int cpu.ops.int64 cpu.ops.float cpu.ops.double cpu.proccall \
		--suite standard --no-db --out "$RESULTS" >"$T/standard.log" 2>&1 \
		|| say "standard run failed: $(tail -n 2 "$T/standard.log")"
fi
echo
python3 - "$RESULTS" <<'PY'
import json, sys
# The seed's LMBench rows outside bw_mem/lat_mem_rd/STREAM, with aliases.
ALIAS = {
    "af_unix_sock_stream_latency": "lat_unix", "af_unix_socket_stream_bandwidth": "bw_unix",
    "pipe_bandwidth": "bw_pipe", "pipe_latency": "lat_pipe", "procedure_call": "lat_proc-proccall",
    "select_on_200_tcp_fds": "lat_select", "semaphore_latency": "lat_sem",
    "signal_handler_latency": "lat_sig-install", "signal_handler_overhead": "lat_sig-catch",
    "tcp_ip_connection_cost_to_localhost": "lat_connect",
    "tcp_latency_using_localhost": "lat_tcp",
}
ROWS = ["bw_file_rd-io-1mb", "bw_file_rd-o2c-1mb", "bw_mmap_rd-mo-1mb", "bw_mmap_rd-o2c-1mb",
        "bw_pipe", "bw_unix", "lat_connect", "lat_ctx-2-128k", "lat_ctx-2-256k",
        "lat_ctx-4-128k", "lat_ctx-4-256k", "lat_fs-0k", "lat_fs-10k", "lat_fs-1k", "lat_fs-4k",
        "lat_mmap-1m"] + ["lat_ops-%s-%s" % (t, o) for t in ("double", "float")
                          for o in ("add", "div", "mul")] + \
       ["lat_ops-%s-%s" % (t, o) for t in ("int", "int64")
        for o in ("add", "bit", "div", "mod", "mul")] + \
       ["lat_pagefault", "lat_pipe", "lat_proc-exec", "lat_proc-fork", "lat_proc-proccall",
        "lat_select", "lat_sem", "lat_sig-catch", "lat_sig-install", "lat_sig-prot",
        "lat_syscall-fstat", "lat_syscall-null", "lat_syscall-open", "lat_syscall-read",
        "lat_syscall-stat", "lat_syscall-write", "lat_tcp", "lat_unix"] + sorted(ALIAS)
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "result" and r.get("label"):
        by[r["label"]] = r
print("%-38s %-16s %12s %-8s %6s" % ("seed row", "perfguide", "median", "unit", "cv%"))
for row in ROWS:
    r = by.get(ALIAS.get(row, row))
    if not r:
        print("%-38s %-16s %12s" % (row, "-", "not run"))
    elif r["status"] != "ok":
        print("%-38s %-16s %12s %s" % (row, r["bench"], r["status"], r.get("reason", "")))
    else:
        print("%-38s %-16s %12.4g %-8s %6.1f" % (row, r["bench"], r["median"], r["unit"],
                                                100 * r["cv"]))
PY
exit 0
