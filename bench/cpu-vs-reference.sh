#!/bin/sh
# cpu-vs-reference.sh: run perfguide's CPU benchmarks beside the reference
# programs, built here from sources you bring, with the same compiler and
# flags (cc -O2, as perfguide's Release build), and print both figures with
# pass/fail against the targets: within 5% of the reference, CV under 2%.
# It is a benchmark script, not a test: it exits 0 after printing (2 only on
# a usage error). Nothing is downloaded, nothing is kept: references are
# built in a temporary directory that is removed at the end.
#
#   cpu.dhrystone  vs Dhrystone 2.1 (dhry.h dhry_1.c dhry_2.c), built -O2 -fno-inline
#                  (Dhrystone's rules forbid inlining; the plain -O2 build is shown too)
#   cpu.whetstone  vs netlib whetstone.c (C translation 1.2), built -O2 -DPRINTOUT so
#                  the compiler cannot delete modules whose results are not printed
#                  (the plain build is shown too); timed by wall clock, not time();
#                  both run LOOP = 100000 (perfguide -p loop=100000)
#   cpu.linpack    vs linpack.c (Menninger's C version, array size 200: n = 100,
#                  lda = 200, rolled and unrolled averaged as it does)
#   cpu.nbench.*   vs nbench-byte (BYTEmark 2 Linux/Unix port), built with make CFLAGS=-O2,
#                  run once on a command file selecting the workloads perfguide has
#   perfguide run cpu --suite quick: wall time under 30 s

set -u

usage() {
	cat <<'EOF2'
usage: bench/cpu-vs-reference.sh [options]

  --perfguide PATH   perfguide binary (default: build/perfguide beside bench/)
  --dhrystone DIR    directory with Dhrystone 2.1's dhry.h, dhry_1.c, dhry_2.c
  --whetstone FILE   netlib's whetstone.c (double precision, version 1.2)
  --linpack FILE     linpack.c (Bonnie Toy's translation as modified by
                     Will Menninger: "Averages ROLLed and UNROLLed performance")
  --nbench DIR       nbench-byte's source directory (Makefile, nbench0.c, ...);
                     copied and built here
  --runs N           samples per perfguide result and runs per reference (default 5)
  --cc CC            compiler for the references (default cc); use the one
                     perfguide was built with
  -h, --help         this text

The references are public (Weicker's Dhrystone 2.1 postings, netlib's
benchmark/whetstone.c and linpack). Keep them outside this repository.
EOF2
}

die_usage() {
	echo "cpu-vs-reference.sh: $*" >&2
	echo "(see bench/cpu-vs-reference.sh --help)" >&2
	exit 2
}

HERE=$(cd "$(dirname "$0")/.." && pwd)
PG=$HERE/build/perfguide
DHRY= WHET= LINPACK= NBENCH= RUNS=5 CC=${CC:-cc}
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide) [ $# -ge 2 ] || die_usage "--perfguide needs a path"; PG=$2; shift 2 ;;
	--dhrystone) [ $# -ge 2 ] || die_usage "--dhrystone needs a directory"; DHRY=$2; shift 2 ;;
	--whetstone) [ $# -ge 2 ] || die_usage "--whetstone needs a file"; WHET=$2; shift 2 ;;
	--linpack) [ $# -ge 2 ] || die_usage "--linpack needs a file"; LINPACK=$2; shift 2 ;;
	--nbench) [ $# -ge 2 ] || die_usage "--nbench needs a directory"; NBENCH=$2; shift 2 ;;
	--runs) [ $# -ge 2 ] || die_usage "--runs needs a number"; RUNS=$2; shift 2 ;;
	--cc) [ $# -ge 2 ] || die_usage "--cc needs a compiler"; CC=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown option: $1" ;;
	esac
done
case "$RUNS" in ''|*[!0-9]*|0) die_usage "--runs must be a positive number" ;; esac
[ -x "$PG" ] || die_usage "no perfguide binary at $PG (build it, or give --perfguide)"
[ -z "$DHRY" ] || [ -f "$DHRY/dhry_1.c" ] || die_usage "no dhry_1.c in $DHRY"
[ -z "$WHET" ] || [ -f "$WHET" ] || die_usage "no file $WHET"
[ -z "$LINPACK" ] || [ -f "$LINPACK" ] || die_usage "no file $LINPACK"
[ -z "$NBENCH" ] || [ -f "$NBENCH/nbench1.h" ] || die_usage "no nbench1.h in $NBENCH"
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed to read results"

W=$(mktemp -d "${TMPDIR:-/tmp}/pg-cpuref.XXXXXX")
trap 'rm -rf "$W"' EXIT
echo "compiler: $($CC --version | head -1); perfguide: $("$PG" info 2>/dev/null | grep -i -m1 'flags' || echo '?')"
echo "machine: $(nproc) CPUs; other work on it makes figures noisy: look at the CV column"
echo

# pg_run ID METRIC [-p ...]: median and CV of one perfguide result.
pg_run() {
	id=$1 metric=$2; shift 2
	"$PG" run "$id" "$@" --runs "$RUNS" --min-time 0.5 --out "$W/pg.jsonl" >/dev/null 2>"$W/pg.err" ||
		{ echo "nan nan"; return; }
	python3 - "$W/pg.jsonl" "$metric" <<'PY'
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
r = [r for r in rs if r.get("type") == "result" and r.get("metric") == sys.argv[2]][-1]
print(r["median"], 100 * r["cv"])
PY
}

# median of numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# row NAME PG CV REF: one line of the table, with the verdict
row() {
	python3 - "$@" <<'PY'
import sys
name, pg, cv, ref = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
if ref != ref or pg != pg:
    print("%-34s %14s %14s %8s  %s" % (name, pg, ref, "", "n/a")); sys.exit()
d = 100 * (pg - ref) / ref
ok = abs(d) <= 5 and cv < 2
print("%-34s %14.2f %14.2f %+7.1f%%  cv %.1f%%  %s" % (name, pg, ref, d, cv, "PASS" if ok else "FAIL"))
PY
}

printf '%-34s %14s %14s %8s\n' "result" "perfguide" "reference" "diff"

if [ -n "$DHRY" ]; then
	cp "$DHRY"/dhry.h "$DHRY"/dhry_1.c "$DHRY"/dhry_2.c "$W"/
	# The original declares times()/time() old-style; clock() with CLK_TCK is
	# the variant that builds on today's libc with a fine clock.
	DF="-std=gnu89 -w -DMSC_CLOCK -DCLK_TCK=CLOCKS_PER_SEC"
	$CC -O2 -fno-inline $DF "$W/dhry_1.c" "$W/dhry_2.c" -o "$W/dhry-noinline" &&
		$CC -O2 $DF "$W/dhry_1.c" "$W/dhry_2.c" -o "$W/dhry-inline" || echo "dhrystone: build failed"
	set -- $(pg_run cpu.dhrystone dhrystones)
	pgv=$1 pgcv=$2
	for b in noinline inline; do
		ref=$(i=0; while [ $i -lt "$RUNS" ]; do
			echo 60000000 | "$W/dhry-$b" | awk -F: '/Dhrystones per Second/ {print $2+0}'
			i=$((i + 1)); done | median)
		row "cpu.dhrystone (ref -O2 $b)" "$pgv" "$pgcv" "$ref"
	done
fi

if [ -n "$WHET" ]; then
	cp "$WHET" "$W/whetstone.c"
	$CC -O2 -w -DPRINTOUT "$W/whetstone.c" -o "$W/whet-printout" -lm &&
		$CC -O2 -w "$W/whetstone.c" -o "$W/whet-plain" -lm || echo "whetstone: build failed"
	# The same work as the reference's one pass of LOOP = 100000; the
	# default loop=10 (the original design) is shown too.
	LOOPS=100000
	set -- $(pg_run cpu.whetstone mwips -p loop=10)
	echo "  (perfguide cpu.whetstone loop=10: $1 MWIPS, cv $2%)"
	set -- $(pg_run cpu.whetstone mwips -p loop=$LOOPS)
	pgv=$1 pgcv=$2
	for b in printout plain; do
		ref=$(i=0; while [ $i -lt "$RUNS" ]; do
			s=$(date +%s.%N); "$W/whet-$b" $LOOPS >/dev/null; e=$(date +%s.%N)
			# LOOP = 10 is one million Whetstone instructions
			echo "$LOOPS $s $e" | awk '{print $1 / 10 / ($3 - $2)}'
			i=$((i + 1)); done | median)
		row "cpu.whetstone (ref $b)" "$pgv" "$pgcv" "$ref"
	done
fi

if [ -n "$LINPACK" ]; then
	cp "$LINPACK" "$W/linpack.c"
	$CC -O2 -w "$W/linpack.c" -o "$W/linpack" -lm || echo "linpack: build failed"
	set -- $(pg_run cpu.linpack kflops -p blas=unrolled)
	u=$1 ucv=$2
	set -- $(pg_run cpu.linpack kflops -p blas=rolled)
	r=$1 rcv=$2
	# The reference times rolled and unrolled solves together: the rate of
	# the two together is the harmonic mean of the two rates.
	avg=$(echo "$u $r" | awk '{print 2 / (1 / $1 + 1 / $2)}')
	cv=$(echo "$ucv $rcv" | awk '{print ($1 > $2) ? $1 : $2}')
	# each reference run lasts 20 s or more: three are enough
	ref=$(i=0; while [ $i -lt 3 ]; do
		"$W/linpack" 200 </dev/null | awk 'NF == 6 && $1 ~ /^[0-9]+$/ {k = $6} END {print k}'
		i=$((i + 1)); done | median)
	row "cpu.linpack (rolled+unrolled)" "$avg" "$cv" "$ref"
	echo "  (perfguide unrolled $u KFLOPS cv $ucv%, rolled $r KFLOPS cv $rcv%)"
fi

if [ -n "$NBENCH" ]; then
	cp -r "$NBENCH" "$W/nbench"
	if make -C "$W/nbench" CFLAGS="-O2 -w" >"$W/nbench.log" 2>&1; then
		# One reference run over the workloads perfguide has; it prints
		# iterations per second per test.
		printf 'CUSTOMRUN=T\nDONUMSORT=T\nDOSTRINGSORT=T\nDOBITFIELD=T\nDOFOUR=T\nDOIDEA=T\nDOHUFF=T\nDOLU=T\n' \
			>"$W/nbench/CMD.DAT"
		(cd "$W/nbench" && ./nbench -cCMD.DAT >"$W/nbench.out" 2>&1)
		for t in "numsort:NUMERIC SORT" "strsort:STRING SORT" "bitfield:BITFIELD" "fourier:FOURIER" "idea:IDEA" \
			"lu:LU DECOMPOSITION"; do
			id=${t%%:*} name=${t#*:}
			ref=$(python3 - "$W/nbench.out" "$name" <<'PY'
import sys
cur = None
for line in open(sys.argv[1]):
    head, _, rest = line.partition(":")
    if head.strip():
        cur = head.strip()
    if cur == sys.argv[2] and rest.strip():
        try:
            print(float(rest.split(":")[0])); break
        except ValueError:
            pass
else:
    print("nan")
PY
)
			set -- $(pg_run "cpu.nbench.$id" iterations)
			row "cpu.nbench.$id" "$1" "$2" "$ref"
		done
	else
		echo "nbench: build failed (see make output)"
	fi
fi

s=$(date +%s.%N)
"$PG" run cpu --suite quick --out "$W/quick.jsonl" >/dev/null 2>&1
e=$(date +%s.%N)
echo
echo "$s $e" | awk '{t = $2 - $1; printf "perfguide run cpu --suite quick: %.1f s (target < 30 s) %s\n", t, t < 30 ? "PASS" : "FAIL"}'
