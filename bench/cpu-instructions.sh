#!/bin/sh
# SPDX-License-Identifier: MIT
# cpu-instructions.sh: count, with valgrind's callgrind, the instructions
# that perfguide's CPU benchmarks and the reference programs execute for one
# unit of the work they report (one Dhrystone, one Whetstone instruction,
# one LINPACK solve, one array sorted...), and print the two side by side.
#
# Why: on a shared or virtual machine the clock is noisy (here a chain of
# dependent adds alone varies by 5% between 20 ms windows, and by tens of
# percent between processes for branchy, memory-bound code), so a timed
# comparison cannot tell a benchmark that does other work from one that was
# unlucky. An instruction count is exact and the same on every run: when
# perfguide's count per unit is the reference's, both do the same work, and
# what remains between their timed figures is the machine.
#
# perfguide's side: `perfguide run ID --iterations N --runs 1` under
# callgrind, collecting only inside the benchmark's step function
# (--toggle-collect), which then ran 1 + N iterations (one warm-up).
# The reference's side is counted per benchmark, as its section says.
# The references are binaries you built yourself (this script never builds
# them: --help says how each must be built), with the compiler perfguide was
# built with and -O2, not stripped. Nothing is downloaded or kept: callgrind's
# files go to a temporary directory removed at the end. A benchmark script,
# not a test: it exits 0 after printing (2 on a usage error).

set -u

usage() {
	cat <<'EOF2'
usage: bench/cpu-instructions.sh [options]

  --perfguide PATH            perfguide binary (default: build/perfguide beside bench/)
  --dhrystone-bin PATH        Dhrystone 2.1 (dhry_1.c, dhry_2.c) built -O2 -fno-inline
                              (on today's libc also -std=gnu89 -DMSC_CLOCK
                              -DCLK_TCK=CLOCKS_PER_SEC); it reads its run count
                              from standard input
  --whetstone-bin PATH        netlib's whetstone.c (double precision, version 1.2)
                              built -O2 -DPRINTOUT; it takes LOOP as its argument
                              (this script runs LOOP = 10 and 10000)
  --whetstone-plain-bin PATH  optional: the same built without -DPRINTOUT
  --linpack-bin PATH          linpack.c (Menninger's "rolled and unrolled" C
                              version) built -O2, not stripped (its matgen calls
                              are counted by name)
  --nbench-bin PATH           nbench-byte's nbench built with its Makefile and
                              CFLAGS="-O2 -w" (replacing its own, which strip
                              the binary: StartStopWatch and StopStopWatch are
                              found by name); its NNET.DAT must sit beside
                              it (the script runs it in a temporary directory
                              with a link to that NNET.DAT)
  -h, --help                  this text

Build every reference with the compiler perfguide was built with, -O2, and
on x86 the jump-padding flag perfguide's build adds (perfguide info shows
its cflags). The script checks the symbols it needs (with nm, if installed)
and says what it could not check; how a binary was compiled cannot be
checked. Keep the references outside this repository.
Needs valgrind (Debian package valgrind) and python3.
EOF2
}

die_usage() {
	echo "cpu-instructions.sh: $*" >&2
	echo "(see bench/cpu-instructions.sh --help)" >&2
	exit 2
}

HERE=$(cd "$(dirname "$0")/.." && pwd)
PG=$HERE/build/perfguide
DHRY= WHET= WHET_PLAIN= LINPACK= NBENCH=
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--dhrystone-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; DHRY=$2; shift 2 ;;
	--whetstone-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; WHET=$2; shift 2 ;;
	--whetstone-plain-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; WHET_PLAIN=$2; shift 2 ;;
	--linpack-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; LINPACK=$2; shift 2 ;;
	--nbench-bin) [ $# -ge 2 ] || die_usage "$1 needs a path"; NBENCH=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
done
[ -x "$PG" ] || die_usage "no perfguide binary at $PG (build it, or give --perfguide)"
for b in "$DHRY" "$WHET" "$WHET_PLAIN" "$LINPACK" "$NBENCH"; do
	[ -z "$b" ] || { [ -f "$b" ] && [ -x "$b" ]; } || die_usage "no executable file $b"
done
[ -z "$WHET_PLAIN" ] || [ -n "$WHET" ] || die_usage "--whetstone-plain-bin goes with --whetstone-bin"
if [ -n "$NBENCH" ]; then
	NBDIR=$(cd "$(dirname "$NBENCH")" && pwd) NBEXE=$NBDIR/$(basename "$NBENCH")
	[ -f "$NBDIR/NNET.DAT" ] || die_usage "no NNET.DAT beside $NBENCH (nbench reads it from its working directory)"
fi
command -v valgrind >/dev/null 2>&1 || die_usage "valgrind is needed (apt-get install valgrind)"
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed"

# need_syms BIN NAME...: refuse a binary without the functions this script
# finds by name; without nm, say that it was not checked
need_syms() {
	bin=$1
	shift
	if ! command -v nm >/dev/null 2>&1; then
		echo "  ($bin: symbols not checked, nm is not installed (binutils))"
		return
	fi
	for f in "$@"; do
		nm "$bin" 2>/dev/null | grep -q " $f\$" ||
			die_usage "$bin has no symbol $f: build it without -s and without stripping"
	done
}
[ -z "$LINPACK" ] || need_syms "$LINPACK" matgen
[ -z "$NBENCH" ] || need_syms "$NBEXE" StartStopWatch StopStopWatch

W=$(mktemp -d "${TMPDIR:-/tmp}/pg-cpuinstr.XXXXXX")
trap 'rm -rf "$W"' EXIT
echo "perfguide: $("$PG" info 2>/dev/null | grep -i -m1 'flags' || echo '?')"
echo "references: binaries given; built with perfguide's compiler and -O2? (a binary does not say: not checked)"
echo

# cg_total FILE: the instructions a callgrind output file holds
cg_total() { sed -n 's/^totals: *//p; s/^summary: *//p' "$1" | head -1 | awk '{print $1}'; }

# pg_per_iter ID STEPFN N [-p ...]: instructions per iteration of perfguide's
# benchmark ID, counted inside STEPFN over 1 + N iterations.
pg_per_iter() {
	id=$1 fn=$2 n=$3; shift 3
	valgrind --tool=callgrind --callgrind-out-file="$W/pg.cg" --toggle-collect="$fn" \
		"$PG" run "$id" "$@" --iterations "$n" --runs 1 --no-db --out "$W/pg.jsonl" \
		>/dev/null 2>"$W/pg.err" || { echo nan; return; }
	echo "$(cg_total "$W/pg.cg") $n" | awk '{print $1 / ($2 + 1)}'
}

# pg_cost REGEX: the instructions the last pg_per_iter's run spent in the
# functions whose names match REGEX (inclusive)
pg_cost() {
	callgrind_annotate --inclusive=yes --threshold=100 "$W/pg.cg" 2>/dev/null |
		awk -v re=":($1)" '$0 ~ re {gsub(",", "", $1); s += $1} END {print s + 0}'
}

# row NAME PG REF UNIT: one line of the table
row() {
	python3 - "$@" <<'PY'
import sys
name, pg, ref, unit = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
if ref != ref or pg != pg:
    print("%-34s %14s %14s %8s  %s" % (name, pg, ref, "", unit)); sys.exit()
d = 100 * (pg - ref) / ref
print("%-34s %14.0f %14.0f %+7.1f%%  %s%s" % (name, pg, ref, d, unit, "" if abs(d) <= 5 else "  (over 5%)"))
PY
}

printf '%-34s %14s %14s %8s  %s\n' "benchmark" "perfguide" "reference" "diff" "instructions per"

# --- Dhrystone, Whetstone, LINPACK ---

# ref_total NAME CMD...: the instructions of a whole reference run
ref_total() {
	out=$1
	shift
	rm -f "$W/$out.cg"
	# old mains return no status: only a missing profile is a failure
	valgrind --tool=callgrind --callgrind-out-file="$W/$out.cg" "$@" >"$W/$out.out" 2>"$W/$out.err"
	[ -s "$W/$out.cg" ] && cg_total "$W/$out.cg" || echo nan
}

if [ -n "$DHRY" ]; then
	# Dhrystone's rules forbid inlining; perfguide's procedures are kept
	# apart the same way (separate units, noinline). The reference reads
	# its run count: the difference between two counts is what one more
	# million passes through the loop cost.
	echo "  (cpu.dhrystone: the reference must be built -fno-inline; not checked)"
	i1=$(echo 100000 | ref_total d1 "$DHRY")
	i2=$(echo 1100000 | ref_total d2 "$DHRY")
	ref=$(echo "$i1 $i2" | awk '{print ($2 - $1) / 1e6}')
	row cpu.dhrystone "$(pg_per_iter cpu.dhrystone dhry_step 1000000)" "$ref" "Dhrystone"
fi

# whet_ref BIN: the reference's instructions per million Whetstone ones
whet_ref() {
	[ -x "$1" ] || { echo nan; return; }
	i1=$(ref_total w1 "$1" 10) i2=$(ref_total w2 "$1" "$L")
	echo "$i1 $i2" | awk -v l="$L" '{print ($2 - $1) / (l / 10 - 1)}'
}

if [ -n "$WHET" ]; then
	# Which values the modules see depends on LOOP (the arguments of
	# libm's functions drift with it), so both count one major loop of the
	# same LOOP; the reference's run of LOOP = 10 is its start-up and
	# printing, taken off. LOOP / 10 is millions of Whetstone instructions.
	L=10000
	ref_printout=$(whet_ref "$WHET")
	# -DPRINTOUT makes it print each module's results in e-notation
	# (%12.4e); a plain build prints none
	if [ "$(grep -c '[0-9]\.[0-9]*e[-+][0-9]' "$W/w1.out")" -lt 6 ]; then
		echo "  (cpu.whetstone: $WHET printed no module results: it looks built without -DPRINTOUT)"
		label="ref plain?"
	else
		label="ref -DPRINTOUT"
	fi
	pg=$(pg_per_iter cpu.whetstone whet_step 1 -p loop=$L | awk '{print $1 / ('$L' / 10)}')
	row "cpu.whetstone ($label)" "$pg" "$ref_printout" "million Whetstone instr."
	[ -z "$WHET_PLAIN" ] ||
		row "cpu.whetstone (ref plain)" "$pg" "$(whet_ref "$WHET_PLAIN")" "million Whetstone instr."
fi

if [ -n "$LINPACK" ]; then
	# The reference times DGEFA and DGESL and calls MATGEN before every
	# solve, rolled and unrolled alike (it grows nreps by the clock, so
	# the count of solves is read from callgrind: MATGEN's calls). One
	# solve: everything the run executed but MATGEN's instructions, over
	# MATGEN's calls; start-up and printing are under 0.1% of it.
	if ref_total lp "$LINPACK" </dev/null >/dev/null; then
		ref=$(python3 - "$W/lp.cg" <<'PY'
import re, sys
names, total, incl, calls = {}, 0, 0, 0
cur_cfn, pending = None, None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3)
        if m.group(1) == "cfn":
            cur_cfn = names.get(m.group(2), "")
        continue
    if line.startswith("calls="):
        pending = cur_cfn
        if cur_cfn == "matgen":
            calls += int(line.split()[0][6:])
        continue
    if line.startswith(("summary:", "totals:")):
        total = int(line.split()[1])
        continue
    if pending is not None and re.match(r"^[+\-*0-9]", line):
        # the line after calls= is the cost inclusive of that call
        if pending == "matgen":
            incl += int(line.split()[1])
        pending = None
print((total - incl) / calls if calls else "nan")
PY
)
	else
		ref=nan
	fi
	# The reference averages its rolled and unrolled solves; so does this.
	# perfguide's step also copies the pristine matrix in and checks the
	# residual, which the reference leaves out of its time: the second row
	# takes them off (the inclusive cost of memcpy and the residual).
	r=$(pg_per_iter cpu.linpack lp_step 50 -p blas=rolled)
	rx=$(pg_cost '__memcpy|memcpy|pg_linpack_residual' | awk '{print $1 / 51}')
	u=$(pg_per_iter cpu.linpack lp_step 50 -p blas=unrolled)
	ux=$(pg_cost '__memcpy|memcpy|pg_linpack_residual' | awk '{print $1 / 51}')
	row "cpu.linpack (rolled+unrolled)" "$(echo "$r $u" | awk '{print ($1 + $2) / 2}')" "$ref" "solve, n = 100"
	row "  without copy-in and check" "$(echo "$r $u $rx $ux" | awk '{print ($1 + $2 - $3 - $4) / 2}')" \
		"$ref" "solve, n = 100"
fi

# --- nbench ---

# nbench-byte is built with its own Makefile and CFLAGS="-O2 -w" (its own
# CFLAGS add -O3 -funroll-loops -static -s). Each workload runs alone from a
# command file (nbench upper-cases the name) that fixes its size, so there
# is no self-adjustment, and sets its minimum time to 0: every pass of the
# reference's loop is one timed stretch of the same, known work (the
# reference still repeats the test 5 to 30 times for its confidence
# interval). callgrind dumps its counters on leaving StartStopWatch and on
# entering StopStopWatch; the dumps made before StopStopWatch hold exactly
# what the reference's stopwatch times, the refills and set-up between
# stretches fall in the others. Their sum, over their number and the units
# of one stretch, is the reference's count per unit. (A build with -g, to
# read the counts per line with callgrind_annotate, counts the same to
# within 0.001%.)
#
# perfguide's side: runs of 1 and 1 + K iterations per sample, the
# difference over K: what one more iteration costs, as in a long sample
# (the check and the resets a step does once, whatever its iteration
# count, cancel out), divided by the units one iteration counts (read from
# the run's results: bit operations for bitfield, 199 per pass for
# fourier, passes / 780 for nnet, 1 for the others).

# nb_timed PREFIX [FN]: over the reference's timed dumps PREFIX.N: their
# number, their instructions, and the calls they made to FN
nb_timed() {
	python3 - "$@" <<'PY'
import glob, sys
prefix, fn = sys.argv[1], (sys.argv[2:] or [None])[0]
n = ir = calls = 0
for path in glob.glob(prefix + ".*"):
    cfn = None
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                if "dump-before=StopStopWatch" not in line:
                    break
            elif line.startswith("summary:"):
                n += 1
                ir += int(line.split()[1])
            elif line.startswith("cfn="):
                cfn = line[4:].strip().split("@")[0]   # exp@@GLIBC_2.29
            elif line.startswith("calls=") and cfn == fn:
                calls += int(line[6:].split()[0])
print(n, ir, calls)
PY
}

# nb_ref NAME UNITS KEY=VALUE...: the reference's instructions per unit,
# its command file being the KEY=VALUE lines; UNITS: units per stretch
nb_ref() {
	name=$1 units=$2
	shift 2
	{ echo CUSTOMRUN=T; for kv in "$@"; do echo "$kv"; done; } >"$W/nb/$name.CMD"
	# LD_BIND_NOW: libm's symbols bound at start, not in the first stretch
	(cd "$W/nb" && LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file="$W/nb-$name.cg" \
		--dump-after=StartStopWatch --dump-before=StopStopWatch --compress-strings=no \
		"$NBEXE" "-c$name.CMD") >"$W/nb-$name.out" 2>"$W/nb-$name.err" || { echo nan; return; }
	nb_timed "$W/nb-$name.cg" |
		awk -v u="$units" '$1 > 0 {printf "%.3f\n", $2 / $1 / u; next} {print "nan"}'
}

# nb_units: units per iteration of the last pg_per_iter's run (the last
# result in its results file, which each run appends to)
nb_units() {
	python3 - "$W/pg.jsonl" <<'PY'
import json, sys
u = None
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "result":
        u = r["samples"][0] * r["sample_s"][0] / r["iterations"]
print(u)
PY
}

# nb_pg ID STEPFN K SCALE: perfguide's instructions per unit times SCALE,
# from one more iteration's cost: all of it, and without what memcpy did
# (the pristine input copied in)
nb_pg() {
	a=$(pg_per_iter "$1" "$2" 1) i1=$(cg_total "$W/pg.cg") c1=$(pg_cost '_*mem(cpy|move)')
	b=$(pg_per_iter "$1" "$2" $((1 + $3))) i2=$(cg_total "$W/pg.cg") c2=$(pg_cost '_*mem(cpy|move)')
	u=$(nb_units 2>/dev/null)
	if [ "$a" = nan ] || [ "$b" = nan ] || [ "${u:-None}" = None ]; then
		echo nan nan
		return
	fi
	echo "$i1 $i2 $c1 $c2 $3 $u $4" |
		awk '{printf "%.3f %.3f\n", ($2 - $1) / $5 / $6 * $7, ($2 - $1 - $4 + $3) / $5 / $6 * $7}'
}

# nb_row NAME STEPFN K REF UNIT [SCALE]: cpu.nbench.NAME's row, and one
# without the copy-in for the steps that copy their input in with memcpy
# and whose kernels never call memcpy or memmove (strsort's moves strings
# with memmove; its copy-in, 8111 bytes and the offsets, is kept in)
nb_row() {
	p=$(nb_pg "cpu.nbench.$1" "$2" "$3" "${6:-1}")
	row "cpu.nbench.$1" "${p% *}" "$4" "$5"
	case $1 in
	numsort|assign|lu) row "  without the copy-in" "${p#* }" "$4" "$5" ;;
	esac
}

# nb_bitops N: bits the reference's first N bitfield runs touch (offset
# below 262140, length below 262140 - offset, from its generator restarted,
# which draws one number first)
nb_bitops() {
	python3 - "$1" <<'PY'
import sys
def cmod(a, b):
    return abs(a) % b * (1 if a >= 0 else -1)
w0, w1 = 13, 117
def rnd():
    global w0, w1
    t = (w0 * 254754 + w1 * 529562) & 0xffffffff
    v = cmod(t - (1 << 32) if t >> 31 else t, 999563)
    w0, w1 = v, w0
    return v
rnd()
bits = 0
for _ in range(int(sys.argv[1])):
    off = abs(cmod(rnd(), 262140))
    bits += abs(cmod(rnd(), 262140 - off))
print(bits)
PY
}

if [ -n "$NBENCH" ]; then
	# nbench reads NNET.DAT from its working directory and upper-cases its
	# command file's name: it runs in a directory of this script's holding
	# the command files and a link to the binary's NNET.DAT
	mkdir "$W/nb" && ln -s "$NBDIR/NNET.DAT" "$W/nb/NNET.DAT"
	# One heapsort of 8111 longs (NumHeapSort, inlined in
	# DoNumSortIteration): 1 array a stretch. The array is refilled
	# before StartStopWatch; perfguide copies it in inside its step.
	nb_row numsort numsort_step 3 \
		"$(nb_ref NUMSORT 1 DONUMSORT=T NUMNUMARRAYS=1 NUMMINSECONDS=0)" "array sorted"
	# One heapsort of the 8111-byte array of strings (StrHeapSort); the
	# array is rebuilt before StartStopWatch, copied in by perfguide.
	nb_row strsort strsort_step 2 \
		"$(nb_ref STRSORT 1 DOSTRINGSORT=T NUMSTRARRAYS=1 STRMINSECONDS=0)" "array sorted"
	# The 48 runs of bits perfguide's iteration does, the reference's
	# first 48 (NUMBITOPS=48): the unit, a bit operation, is one bit of a
	# run, shown per 1000. The bitmap reset and the run list are made
	# before the stopwatch.
	nb_row bitfield bitfield_step 2 \
		"$(nb_ref BITFIELD "$(nb_bitops 48 | awk '{print $1 / 1000}')" \
			DOBITFIELD=T NUMBITOPS=48 BITMINSECONDS=0)" "1000 bit operations" 1000
	# One pass over the 3000-number arrays (EMFLOOPS=1): 1 loop a stretch.
	nb_row fpemu fpemu_step 2 "$(nb_ref EMF 1 DOEMF=T EMFLOOPS=1 EMFMINSECONDS=0)" "loop"
	# 100 coefficient pairs (FOURASIZE=100), counted 2 x 100 - 1 = 199.
	nb_row fourier fourier_step 1 \
		"$(nb_ref FOUR 199 DOFOUR=T FOURASIZE=100 FOURMINSECONDS=0)" "iteration (1/199 pass)"
	# One 101 x 101 problem solved (Assignment): ASSIGNARRAYS=1, which
	# this machine's self-adjustment picks too (this nbench counts one
	# iteration per stretch whatever the number of arrays). The table is
	# loaded before the stopwatch; perfguide copies it in.
	nb_row assign assign_step 2 \
		"$(nb_ref ASSIGN 1 DOASSIGN=T ASSIGNARRAYS=1 ASSIGNMINSECONDS=0)" "problem solved"
	# One encryption and decryption of 4000 bytes (IDEALOOPS=1).
	nb_row idea idea_step 5 "$(nb_ref IDEA 1 DOIDEA=T IDEALOOPS=1 IDEAMINSECONDS=0)" "loop"
	# One compression and decompression of 5000 bytes (HUFFLOOPS=1).
	nb_row huffman huffman_step 5 "$(nb_ref HUFF 1 DOHUFF=T HUFFLOOPS=1 HUFFMINSECONDS=0)" "loop"
	# One learning cycle (NNETLOOPS=1): weights reset, then passes over
	# the patterns until learned. perfguide counts its own cycle as
	# passes / 780 cycles; the reference's passes are counted here from
	# its calls to exp (10 patterns x 16 neurodes a pass).
	ref=$(nb_ref NNET 1 DONNET=T NNETLOOPS=1 NNETMINSECONDS=0)
	passes=$(nb_timed "$W/nb-NNET.cg" exp | awk '$1 > 0 {print $3 / $1 / 160; next} {print "?"}')
	nb_row nnet nnet_step 1 "$ref" "learning cycle"
	echo "  (nbench-byte's net learns in $passes passes, perfguide's in" \
		"$(nb_units | awk '{printf "%.0f", $1 * 780}'): compared per 780 passes)"
	# One 101 x 101 system solved (LUNUMARRAYS=1): lusolve; the matrix is
	# copied in before the stopwatch, by perfguide inside its step.
	nb_row lu lu_step 5 "$(nb_ref LU 1 DOLU=T LUNUMARRAYS=1 LUMINSECONDS=0)" "system solved"
fi
