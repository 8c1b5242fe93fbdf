#!/bin/sh
# SPDX-License-Identifier: MIT
# cpu-vs-reference.sh: run perfguide's CPU benchmarks beside the reference
# programs, binaries you built yourself from their public sources (this
# script never builds them: see --help for the settings each must be built
# with), and print both figures with pass/fail against the targets: within
# 5% of the reference, CV under 2%.
# It is a benchmark script, not a test: it exits 0 after printing (2 only on
# a usage error). Nothing is downloaded; what it writes goes to a temporary
# directory that is removed at the end.
#
#   cpu.dhrystone  vs Dhrystone 2.1, built -O2 -fno-inline (Dhrystone's rules
#                  forbid inlining; a plain -O2 build is shown too if given)
#   cpu.whetstone  vs netlib whetstone.c (C translation 1.2), built -O2 -DPRINTOUT
#                  so the compiler cannot delete modules whose results are not
#                  printed (a plain build is shown too if given); timed by wall
#                  clock, not time(); both run LOOP = 100000 (the reference's
#                  argument, perfguide's -p loop=100000)
#   cpu.linpack    vs linpack.c (Menninger's C version, array size 200: n = 100,
#                  lda = 200, rolled and unrolled averaged as it does)
#   cpu.nbench.*   vs nbench-byte (BYTEmark 2 Linux/Unix port), run once per
#                  workload on a command file selecting it; by the wall clock,
#                  and by CPU time when its misc.c was built -DDEBUG
#   perfguide run <this group's benchmarks> --suite quick: wall time under 30 s
#   (the selector "cpu" also takes cpu.ops.* and cpu.proccall, another group)
#
# perfguide and the references take turns in rounds (--runs of them), each
# run in its own process, so that load from other work hits both and the
# spread between processes (the CV shown for each side) is seen; on a
# virtual machine it is far larger than the spread within one process.
# Every reference is timed by the wall clock, as perfguide is.
# bench/cpu-instructions.sh compares the work itself, in instructions.

set -u

usage() {
	cat <<'EOF2'
usage: bench/cpu-vs-reference.sh [options]

  --perfguide PATH            perfguide binary (default: build/perfguide beside bench/)
  --dhrystone-bin PATH        Dhrystone 2.1 (dhry_1.c, dhry_2.c) built -O2 -fno-inline
                              (on today's libc also -std=gnu89 -DMSC_CLOCK
                              -DCLK_TCK=CLOCKS_PER_SEC); it reads its run count
                              from standard input
  --dhrystone-inline-bin PATH optional: the same built plain -O2, shown beside it
  --whetstone-bin PATH        netlib's whetstone.c (double precision, version 1.2)
                              built -O2 -DPRINTOUT; it takes LOOP as its argument
                              (this script passes 100000)
  --whetstone-plain-bin PATH  optional: the same built without -DPRINTOUT
  --linpack-bin PATH          linpack.c (Bonnie Toy's translation as modified by
                              Will Menninger: "Averages ROLLed and UNROLLed
                              performance") built -O2
  --nbench-bin PATH           nbench-byte's nbench, built with its Makefile and
                              CFLAGS=-O2, misc.c compiled -DDEBUG (then it prints
                              its CPU-time rate, "cpurate"; without it the rows by
                              CPU time are n/a); its NNET.DAT must sit beside
                              it (the script runs it in a temporary directory
                              with a link to that NNET.DAT)
  --runs N                    rounds: runs of each program, taking turns (default 5)
  -h, --help                  this text

Build every reference with the compiler perfguide was built with, -O2, and
on x86 the jump-padding flag perfguide's build adds (perfguide info shows
its cflags; this script prints the flag to add). The script checks what it
can from the binaries' output and says what it could not check. Keep the
references' sources and binaries outside this repository (they are public:
Weicker's Dhrystone 2.1 postings, netlib's benchmark/whetstone.c and
linpack, nbench-byte).
EOF2
}

die_usage() {
	echo "cpu-vs-reference.sh: $*" >&2
	echo "(see bench/cpu-vs-reference.sh --help)" >&2
	exit 2
}

HERE=$(cd "$(dirname "$0")/.." && pwd)
PG=$HERE/build/perfguide
DHRY= DHRY_INLINE= WHET= WHET_PLAIN= LINPACK= NBENCH= RUNS=5
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--dhrystone-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; DHRY=$2; shift 2 ;;
	--dhrystone-inline-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; DHRY_INLINE=$2; shift 2 ;;
	--whetstone-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; WHET=$2; shift 2 ;;
	--whetstone-plain-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; WHET_PLAIN=$2; shift 2 ;;
	--linpack-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; LINPACK=$2; shift 2 ;;
	--nbench-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; NBENCH=$2; shift 2 ;;
	--runs) [ $# -ge 2 ] || die_usage "--runs needs a number"; RUNS=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
done
case "$RUNS" in ''|*[!0-9]*|0) die_usage "--runs must be a positive number" ;; esac
[ -x "$PG" ] || die_usage "no perfguide binary at $PG (build it, or give --perfguide)"
for b in "$DHRY" "$DHRY_INLINE" "$WHET" "$WHET_PLAIN" "$LINPACK" "$NBENCH"; do
	[ -z "$b" ] || { [ -f "$b" ] && [ -x "$b" ]; } || die_usage "no executable file $b"
done
[ -z "$DHRY_INLINE" ] || [ -n "$DHRY" ] || die_usage "--dhrystone-inline-bin goes with --dhrystone-bin"
[ -z "$WHET_PLAIN" ] || [ -n "$WHET" ] || die_usage "--whetstone-plain-bin goes with --whetstone-bin"
if [ -n "$NBENCH" ]; then
	NBDIR=$(cd "$(dirname "$NBENCH")" && pwd) NBEXE=$NBDIR/$(basename "$NBENCH")
	[ -f "$NBDIR/NNET.DAT" ] || die_usage "no NNET.DAT beside $NBENCH (nbench reads it from its working directory)"
fi
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed to read results"

# The references should be built as perfguide was: -O2, plus the
# code-placement flag perfguide's x86 build adds (jumps kept off 32-byte
# boundaries, for Intel's JCC erratum), so that neither side's speed is
# where its loops fell. A binary does not say how it was built: that
# cannot be checked here.
PAD=$("$PG" info 2>/dev/null | sed -n 's/^cflags *//p' | tr ' ' '\n' | grep -- 'branches-within-32B' | head -1)
W=$(mktemp -d "${TMPDIR:-/tmp}/pg-cpuref.XXXXXX")
trap 'rm -rf "$W"' EXIT
echo "perfguide: $("$PG" info 2>/dev/null | grep -i -m1 'flags' || echo '?')"
echo "references: binaries given; build them -O2${PAD:+ $PAD} with perfguide's compiler (not checked here)"
echo "machine: $(nproc) CPUs; other work on it makes figures noisy: look at the CV column"
echo

# pg_run ID METRIC [-p ...]: median and CV of one perfguide result.
pg_run() {
	id=$1 metric=$2; shift 2
	"$PG" run "$id" "$@" --runs "$RUNS" --min-time 0.5 --no-db --out "$W/pg.jsonl" >/dev/null 2>"$W/pg.err" ||
		{ echo "nan nan"; return; }
	python3 - "$W/pg.jsonl" "$metric" <<'PY'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
r = [r for r in rs if r.get("type") == "result" and r.get("metric") == sys.argv[2]][-1]
print(r["median"], 100 * r["cv"])
PY
}

# pg_once ID METRIC [-p ...]: one sample of at least a second, in its own
# process: its value, and the same count over the process's CPU time.
pg_once() {
	id=$1 metric=$2; shift 2
	rm -f "$W/one.jsonl"
	"$PG" run "$id" "$@" --runs 1 --min-time 1 --no-db --out "$W/one.jsonl" >/dev/null 2>&1 ||
		{ echo nan nan; return; }
	python3 - "$W/one.jsonl" "$metric" <<'PY'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
r = [r for r in rs if r.get("type") == "result" and r.get("metric") == sys.argv[2]][-1]
cpu = r["cpu"]["self_user_s"] + r["cpu"]["self_sys_s"]
bycpu = r["median"] * r["sample_s"][0] / cpu if cpu > 0 else float("nan")
print(r["median"], bycpu)
PY
}

# wall SECONDS-START SECONDS-END COUNT: COUNT per wall-clock second
wall_rate() { echo "$1 $2 $3" | awk '{print $3 / ($2 - $1)}'; }

# cv of numbers on stdin, in percent (nan for none: a "nan" line reads as 0)
cv() { awk '{s += $1; q += $1 * $1; n++} END {if (n == 0 || s == 0) {print "nan"; exit} m = s / n; v = n > 1 ? (q - n * m * m) / (n - 1) : 0; if (v < 0) v = 0; print 100 * sqrt(v) / m}'; }

# median of numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# row NAME PG CV REF [REFCV]: one line of the table, with the verdict. The
# CVs are across processes (rounds), the spread that matters when two
# programs are compared; REFCV shows how repeatable the reference itself was.
row() {
	python3 - "$@" <<'PY'
import sys
name, pg, cv, ref = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
refcv = float(sys.argv[5]) if len(sys.argv) > 5 else float("nan")
if ref != ref or pg != pg:
    print("%-34s %14s %14s %8s  %s" % (name, pg, ref, "", "n/a")); sys.exit()
d = 100 * (pg - ref) / ref
ok = abs(d) <= 5 and cv < 2
rc = "" if refcv != refcv else "  ref cv %.1f%%" % refcv
print("%-34s %14.2f %14.2f %+7.1f%%  cv %.1f%%%s  %s" % (name, pg, ref, d, cv, rc, "PASS" if ok else "FAIL"))
PY
}

# rounds NAME PGFILE REFFILE: a row from each side's figures, one per round
rounds() { row "$1" "$(median <"$2")" "$(cv <"$2")" "$(median <"$3")" "$(cv <"$3")"; }

printf '%-34s %14s %14s %8s\n' "result" "perfguide" "reference" "diff"

if [ -n "$DHRY" ]; then
	# perfguide and the reference take turns, so load from other work on
	# the machine hits both alike; the reference is timed by the wall clock
	# as perfguide is (its own clock() counts CPU time only).
	echo "  (cpu.dhrystone: the reference must be built -fno-inline; a binary cannot show that, not checked)"
	RUNS_D=60000000
	set -- noinline "$DHRY"
	[ -z "$DHRY_INLINE" ] || set -- "$@" inline "$DHRY_INLINE"
	: >"$W/d.pg"; : >"$W/d.noinline"; : >"$W/d.inline"
	i=0
	while [ $i -lt "$RUNS" ]; do
		pg_once cpu.dhrystone dhrystones | cut -d' ' -f1 >>"$W/d.pg"
		k=1
		while [ $k -lt $# ]; do
			eval "b=\${$k} bin=\${$((k + 1))}"
			s0=$(date +%s.%N); echo $RUNS_D | "$bin" >/dev/null; s1=$(date +%s.%N)
			wall_rate "$s0" "$s1" $RUNS_D >>"$W/d.$b"
			k=$((k + 2))
		done
		i=$((i + 1))
	done
	rounds "cpu.dhrystone (ref -O2 noinline)" "$W/d.pg" "$W/d.noinline"
	[ -z "$DHRY_INLINE" ] || rounds "cpu.dhrystone (ref -O2 inline)" "$W/d.pg" "$W/d.inline"
fi

if [ -n "$WHET" ]; then
	# -DPRINTOUT makes the reference print one line per module, each with
	# the module's results in e-notation (%12.4e); a plain build prints none.
	# Six or more such lines from a short run (LOOP = 10) are taken as the
	# sign of a PRINTOUT build.
	nmod=$("$WHET" 10 2>/dev/null | grep -c '[0-9]\.[0-9]*e[-+][0-9]')
	if [ "$nmod" -lt 6 ]; then
		echo "  (cpu.whetstone: $WHET printed no module results: it looks built without -DPRINTOUT; its row is labelled so)"
		WHET_LABEL=plain?
	else
		WHET_LABEL=printout
	fi
	# The same work as the reference's one pass of LOOP = 100000, taking
	# turns with it; the default loop=10 (the original design) is shown too.
	LOOPS=100000
	set -- $(pg_run cpu.whetstone mwips -p loop=10)
	echo "  (perfguide cpu.whetstone loop=10: $1 MWIPS, cv $2%)"
	set -- printout "$WHET"
	[ -z "$WHET_PLAIN" ] || set -- "$@" plain "$WHET_PLAIN"
	: >"$W/w.pg"; : >"$W/w.printout"; : >"$W/w.plain"
	i=0
	while [ $i -lt "$RUNS" ]; do
		pg_once cpu.whetstone mwips -p loop=$LOOPS | cut -d' ' -f1 >>"$W/w.pg"
		k=1
		while [ $k -lt $# ]; do
			eval "b=\${$k} bin=\${$((k + 1))}"
			s0=$(date +%s.%N); "$bin" $LOOPS >/dev/null; s1=$(date +%s.%N)
			# LOOP = 10 is one million Whetstone instructions
			wall_rate "$s0" "$s1" $((LOOPS / 10)) >>"$W/w.$b"
			k=$((k + 2))
		done
		i=$((i + 1))
	done
	rounds "cpu.whetstone (ref $WHET_LABEL)" "$W/w.pg" "$W/w.printout"
	[ -z "$WHET_PLAIN" ] || rounds "cpu.whetstone (ref plain)" "$W/w.pg" "$W/w.plain"
fi

if [ -n "$LINPACK" ]; then
	# Rounds: perfguide unrolled, rolled, then the reference (20 s or more
	# a run), each in its own process. The reference averages its rolled
	# and unrolled solves, timing both together: the rate of the two
	# together is the harmonic mean of the two rates. It times itself with
	# clock(), CPU time: perfguide's figure by CPU time is shown too.
	: >"$W/l.pg"; : >"$W/l.pgcpu"; : >"$W/l.ref"
	i=0
	while [ $i -lt "$RUNS" ]; do
		set -- $(pg_once cpu.linpack kflops -p blas=unrolled) $(pg_once cpu.linpack kflops -p blas=rolled)
		echo "$1 $3" | awk '{print 2 / (1 / $1 + 1 / $2)}' >>"$W/l.pg"
		echo "$2 $4" | awk '{print 2 / (1 / $1 + 1 / $2)}' >>"$W/l.pgcpu"
		"$LINPACK" 200 </dev/null | awk 'NF == 6 && $1 ~ /^[0-9]+$/ {k = $6} END {print k}' >>"$W/l.ref"
		i=$((i + 1))
	done
	rounds "cpu.linpack (rolled+unrolled)" "$W/l.pg" "$W/l.ref"
	rounds "cpu.linpack (by CPU time)" "$W/l.pgcpu" "$W/l.ref"
fi

if [ -n "$NBENCH" ]; then
	# One workload at a time, in rounds: the reference, then perfguide,
	# each in its own process, so both see about the same load and the
	# spread across processes shows for both. nbench prints iterations
	# per second by the wall clock, and, with misc.c built -DDEBUG, its
	# iterations over the thread CPU time its own stopwatch measured
	# ("cpurate"): on a machine others load, CPU time is the fairer clock.
	# It reads NNET.DAT from its working directory and upper-cases its
	# command file's name: it runs in a directory of this script's, which
	# holds the command file and a link to the binary's NNET.DAT.
	mkdir "$W/nb" && ln -s "$NBDIR/NNET.DAT" "$W/nb/NNET.DAT"
	nocpurate=
	for t in "numsort:DONUMSORT:NUMERIC SORT" "strsort:DOSTRINGSORT:STRING SORT" \
		"bitfield:DOBITFIELD:BITFIELD" "fpemu:DOEMF:FP EMULATION" "fourier:DOFOUR:FOURIER" \
		"assign:DOASSIGN:ASSIGNMENT" "idea:DOIDEA:IDEA" "huffman:DOHUFF:HUFFMAN" \
		"nnet:DONNET:NEURAL NET" "lu:DOLU:LU DECOMPOSITION"; do
		id=${t%%:*} rest=${t#*:}
		flag=${rest%%:*} name=${rest#*:}
		# MINSECONDS=1: each of the reference's runs lasts a second, as
		# perfguide's sample does (it still repeats until its figures
		# agree, at least five runs)
		printf 'CUSTOMRUN=T\nMINSECONDS=1\n%s=T\n' "$flag" >"$W/nb/CMD.DAT"
		: >"$W/n.ref"; : >"$W/n.refcpu"; : >"$W/n.pg"; : >"$W/n.pgcpu"
		i=0
		while [ $i -lt "$RUNS" ]; do
			(cd "$W/nb" && "$NBEXE" -cCMD.DAT >"$W/nbench.out" 2>&1)
			python3 - "$W/nbench.out" "$name" >>"$W/n.ref" <<'PY'
import re, sys
# "NAME : mean : index : index", where the reference's cpurate lines
# (iterations=...) may sit between the name and its figures
text = open(sys.argv[1]).read()
text = re.sub(r"iterations=[^\n]*\n?", "", text)
m = re.search(r"^" + re.escape(sys.argv[2]) + r"\s*:\s*(?:\*\*[^\n]*\n[^\n]*\n[^:\n]*:)?\s*([0-9.e+]+)\s*:",
              text, re.M)
print(float(m.group(1)) if m else "nan")
PY
			grep -q 'cpurate=' "$W/nbench.out" || nocpurate=1
			grep -o 'cpurate=[0-9.e+]*' "$W/nbench.out" | cut -d= -f2 | median >>"$W/n.refcpu"
			set -- $(pg_once "cpu.nbench.$id" iterations)
			echo "$1" >>"$W/n.pg"; echo "$2" >>"$W/n.pgcpu"
			i=$((i + 1))
		done
		rounds "cpu.nbench.$id" "$W/n.pg" "$W/n.ref"
		rounds "cpu.nbench.$id (by CPU time)" "$W/n.pgcpu" "$W/n.refcpu"
	done
	[ -z "$nocpurate" ] || echo "  (nbench printed no cpurate lines: its misc.c was not built -DDEBUG, so the rows by CPU time are n/a)"
fi

s=$(date +%s.%N)
"$PG" run cpu.dhrystone cpu.whetstone cpu.linpack 'cpu.nbench.*' 'cpu.work.*' cpu.scaling \
	--suite quick --out "$W/quick.jsonl" >/dev/null 2>&1
e=$(date +%s.%N)
"$PG" run 'cpu.*' --suite quick --out "$W/quick2.jsonl" >/dev/null 2>&1
e2=$(date +%s.%N)
echo
echo "$s $e" | awk '{t = $2 - $1; printf "perfguide run (this group) --suite quick: %.1f s (target < 30 s) %s\n", t, t < 30 ? "PASS" : "FAIL"}'
echo "$e $e2" | awk '{t = $2 - $1; printf "perfguide run '"'"'cpu.*'"'"' --suite quick (with cpu.ops.*, cpu.proccall): %.1f s\n", t}'
