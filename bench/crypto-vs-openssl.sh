#!/bin/sh
# SPDX-License-Identifier: MIT
# crypto-vs-openssl.sh: perfguide's crypto group (openssl backend) beside
# `openssl speed -elapsed -evp ALG` on this machine, in one go, algorithm by
# algorithm (the two take turns, so a change in the machine's load hits both),
# and a side-by-side table with the difference at every size.
#
#   perfguide run crypto.ALG -p backend=openssl -p size=16,64,...  (KBytes/Sec, median)
#   time -v openssl speed -mr -elapsed -seconds S -evp ALG           (1000s of bytes/s)
#
# in --rounds (each side's figure the median of its rounds), or, with
# --callgrind, the instructions per buffer of both (valgrind), which a busy
# machine cannot disturb.
#
# Target: within 2% at every size, perfguide's CV under 2%. The same library
# does the work, so a larger difference is perfguide's overhead or a
# counting error -- or a busy machine: the load average is printed before and
# after; rerun the worst rows with --algs and --sizes. CPU load is shown both
# ways: perfguide's cpu_load (process CPU time over elapsed, per size) and
# the "Percent of CPU" GNU time -v prints for each openssl speed run (the
# TI guide's method). It is a benchmark script, not a test: it exits 0 after
# printing the table (2 on a usage error). Needs the Debian packages openssl
# and time (for -v; without it the CPU column is empty).
set -u

ALL_ALGS="aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ecb aes-192-ecb aes-256-ecb des3 sha1 sha256 sha512 aes-128-gcm aes-256-gcm aes-128-ctr chacha20-poly1305 hmac-sha256"
SEED_ALGS="aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ecb aes-192-ecb aes-256-ecb des3 sha1 sha256 sha512"
ALL_SIZES="16 64 256 1024 8192 16384"

usage() {
	cat <<EOF
usage: bench/crypto-vs-openssl.sh [options]

  --perfguide PATH   perfguide binary (default: build/perfguide beside bench/)
  --openssl PATH     the openssl command (default: openssl)
  --algs "A B ..."   algorithms (default: the TI guide's ten; "all" for all 15)
  --sizes "N ..."    buffer sizes in bytes (default: $ALL_SIZES)
  --seconds S        openssl speed -seconds per size (default 1)
  --runs N           perfguide samples per size (default 5)
  --min-time T       perfguide seconds per sample (default 0.2: runs x min-time = S)
  --rounds N         times the pair runs, alternating (default 3); each side's
                     figure is the median of its rounds
  --wait-idle SEC    before each pair, wait up to SEC s (default 5) for the
                     machine to be 90% idle; pairs that ran on a busy machine
                     are marked "busy" in the table
  --callgrind        instead of timing: instructions per buffer of both, under
                     valgrind's callgrind (exact on a busy machine; -seconds 1)
  --out DIR          keep the raw outputs there (default: a temp dir, removed)
  -h, --help         this text
EOF
}

die_usage() {
	echo "crypto-vs-openssl.sh: $*" >&2
	echo "(see bench/crypto-vs-openssl.sh --help)" >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
PG=$here/../build/perfguide
OSSL=openssl
ALGS=$SEED_ALGS
SIZES=$ALL_SIZES
SECS=1
RUNS=5
MINT=0.2
ROUNDS=3
WAIT=5
CG=0
OUT=
while [ $# -gt 0 ]; do
	case "$1" in
	--perfguide|--openssl|--algs|--sizes|--seconds|--runs|--min-time|--rounds|--wait-idle|--out)
		[ $# -ge 2 ] || die_usage "$1 needs a value"
		case "$1" in
		--perfguide) PG=$2 ;;
		--openssl) OSSL=$2 ;;
		--algs) ALGS=$2 ;;
		--sizes) SIZES=$2 ;;
		--seconds) SECS=$2 ;;
		--runs) RUNS=$2 ;;
		--min-time) MINT=$2 ;;
		--rounds) ROUNDS=$2 ;;
		--wait-idle) WAIT=$2 ;;
		--out) OUT=$2 ;;
		esac
		shift 2 ;;
	--callgrind) CG=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) die_usage "unknown argument '$1'" ;;
	esac
done
[ "$ALGS" = all ] && ALGS=$ALL_ALGS
[ -x "$PG" ] || die_usage "no perfguide at $PG (build it, or give --perfguide)"
command -v "$OSSL" >/dev/null 2>&1 || die_usage "no openssl command (apt-get install openssl)"
command -v python3 >/dev/null 2>&1 || die_usage "python3 is needed to read the results"
for s in $SIZES; do
	case " $ALL_SIZES " in *" $s "*) ;; *) die_usage "size $s: openssl speed knows only $ALL_SIZES" ;; esac
done
TIMEV=
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 && TIMEV="/usr/bin/time -v"

if [ -n "$OUT" ]; then
	mkdir -p "$OUT" || die_usage "cannot make $OUT"
	W=$OUT
else
	W=$(mktemp -d "${TMPDIR:-/tmp}/crypto-vs-openssl.XXXXXX")
	trap 'rm -rf "$W"' EXIT
fi
export XDG_DATA_HOME="$W/xdg"

# openssl speed's own names for perfguide's algorithms.
speed_args() {
	case "$1" in
	des3) echo "-evp des-ede3-cbc" ;;
	hmac-sha256) echo "-hmac sha256" ;;
	*) echo "-evp $1" ;;
	esac
}

echo "crypto-vs-openssl: $($OSSL version), perfguide $("$PG" --version 2>/dev/null | head -n 1)"
echo "crypto-vs-openssl: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
t0=$(date +%s)

if [ $CG -eq 1 ]; then
	# Instructions per buffer: the library call's inclusive count plus the
	# calling loop's own, for perfguide's step and for speed's loop (found
	# as the caller of the library call with the most calls).
	command -v valgrind >/dev/null 2>&1 || die_usage "--callgrind needs valgrind (apt-get install valgrind)"
	for a in $ALGS; do
		for s in $SIZES; do
			valgrind --tool=callgrind --callgrind-out-file="$W/cg-pg-$a-$s.out" "$PG" run "crypto.$a" \
				-p backend=openssl -p "size=$s" --runs 1 --min-time 0.5 --no-db --out "$W/cg-$a-$s.jsonl" \
				>/dev/null 2>&1 || echo "crypto-vs-openssl: perfguide under valgrind failed on $a $s" >&2
			# shellcheck disable=SC2046
			valgrind --tool=callgrind --callgrind-out-file="$W/cg-os-$a-$s.out" "$OSSL" speed -elapsed \
				-seconds 1 -bytes "$s" $(speed_args "$a") >/dev/null 2>&1 ||
				echo "crypto-vs-openssl: openssl speed under valgrind failed on $a $s" >&2
		done
	done
	echo "crypto-vs-openssl: $(($(date +%s) - t0)) s in all"
	python3 - "$W" "$SIZES" $ALGS <<'PY'
import os, re, sys
w, sizes, algs = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
CALLS = {"EVP_EncryptUpdate", "EVP_DecryptUpdate", "EVP_Digest", "EVP_MAC_update"}

def per_buffer(path):
    """(library call, calls, instructions per buffer) for the busiest caller."""
    names, fn, cfn, pending, res, own, allcalls = {}, None, None, None, {}, {}, {}
    def name(tok):
        m = re.match(r"\((\d+)\)(?: (.*))?", tok)
        if not m:
            return tok
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "?")
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("fn="):
            fn = name(line[3:])
        elif line.startswith("cfn="):
            cfn = name(line[4:])
        elif line.startswith("calls="):
            pending = int(line[6:].split()[0])
        elif line[:1].isdigit() or line[:1] in ("+", "-", "*"):
            parts = line.split()
            if pending is not None:
                cc, ii = allcalls.get((fn, cfn), (0, 0))
                allcalls[(fn, cfn)] = (cc + pending, ii + int(parts[1]))
                if cfn in CALLS:
                    c, i = res.get((fn, cfn), (0, 0))
                    res[(fn, cfn)] = (c + pending, i + int(parts[1]))
                pending = None
            elif len(parts) > 1:
                own[fn] = own.get(fn, 0) + int(parts[1])
    if not res:
        return None
    (f, t), (c, i) = max(res.items(), key=lambda kv: kv[1][0])
    # Everything that loop calls counts (a MAC's init and final, an AE
    # mode's IV and key set-up), spread over its buffers.
    every = sum(ii for (ff, tt), (cc, ii) in allcalls.items() if ff == f)
    return t, c, (every + own.get(f, 0)) / c

print()
print("%-18s %6s %16s %16s %8s" % ("algorithm", "bytes", "perfguide Ir/buf", "openssl Ir/buf", "diff%"))
for a in algs:
    for s in sizes:
        try:
            p = per_buffer(os.path.join(w, "cg-pg-%s-%s.out" % (a, s)))
            o = per_buffer(os.path.join(w, "cg-os-%s-%s.out" % (a, s)))
        except OSError:
            p = o = None
        if not p or not o:
            print("%-18s %6s missing" % (a, s))
            continue
        print("%-18s %6s %16.1f %16.1f %+8.2f   (%s)" % (a, s, p[2], o[2], (p[2] - o[2]) / o[2] * 100, p[0]))
PY
	exit 0
fi

# The system-wide busy percent over one second, from /proc/stat.
busy_pct() {
	a=$(head -n 1 /proc/stat)
	sleep 1
	b=$(head -n 1 /proc/stat)
	echo "$a
$b" | awk '{ t = 0; for (i = 2; i <= NF; i++) t += $i; idle = $5 + $6
		if (NR == 1) { t0 = t; i0 = idle } else { d = t - t0; printf "%d\n", (d > 0 ? 100 - (idle - i0) * 100 / d : 0) } }'
}

# Waits up to WAIT seconds for a machine 90% idle; prints the last busy %.
wait_idle() {
	n=0
	while :; do
		b=$(busy_pct)
		[ "$b" -le 10 ] || [ "$n" -ge "$WAIT" ] && { echo "$b"; return; }
		n=$((n + 1))
	done
}

# Pairs, size by size: the two runs of a pair are seconds apart, so a
# neighbour's load changes both alike.
r=1
while [ $r -le "$ROUNDS" ]; do
	for a in $ALGS; do
		for s in $SIZES; do
			echo "$a $s $(wait_idle)" >>"$W/busy-$r.txt"
			"$PG" run "crypto.$a" -p backend=openssl -p "size=$s" --runs "$RUNS" --min-time "$MINT" \
				--no-db --out "$W/pg-$a-$r.jsonl" >>"$W/pg-$a-$r.txt" 2>&1 ||
				echo "crypto-vs-openssl: perfguide failed on $a $s (see $W/pg-$a-$r.txt)" >&2
			# shellcheck disable=SC2046
			$TIMEV "$OSSL" speed -mr -elapsed -seconds "$SECS" -bytes "$s" $(speed_args "$a") \
				>>"$W/os-$a-$r.txt" 2>>"$W/os-$a-$r.err" ||
				echo "crypto-vs-openssl: openssl speed failed on $a $s (see $W/os-$a-$r.err)" >&2
		done
	done
	r=$((r + 1))
done
echo "crypto-vs-openssl: load average after:  $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - t0)) s in all"

python3 - "$W" "$SIZES" "$ROUNDS" $ALGS <<'PY'
import json, os, re, sys
w, sizes, rounds, algs = sys.argv[1], [int(s) for s in sys.argv[2].split()], int(sys.argv[3]), sys.argv[4:]

def median(v):
    v = sorted(v)
    n = len(v)
    return (v[n // 2] + v[(n - 1) // 2]) / 2 if n else None

def perfguide(alg, r):
    got = {}
    try:
        for l in open(os.path.join(w, "pg-%s-%d.jsonl" % (alg, r))):
            x = json.loads(l)
            if x.get("type") == "result" and x.get("status") == "ok":
                got.setdefault(x["params"]["size"], {})[x["metric"]] = x
    except OSError:
        pass
    return got

def speed(alg, r):
    """Rates by size (one speed run per size, appended) and time -v's CPU %."""
    rates, cpu, hdr = {}, [], []
    try:
        for l in open(os.path.join(w, "os-%s-%d.txt" % (alg, r))):
            if l.startswith("+H:"):
                hdr = [int(x) for x in l.strip().split(":")[1:]]
            if l.startswith("+F:"):
                rates.update(zip(hdr, (float(x) / 1000 for x in l.strip().split(":")[3:])))
        for l in open(os.path.join(w, "os-%s-%d.err" % (alg, r))):
            m = re.search(r"Percent of CPU this job got: (\d+)%", l)
            if m:
                cpu.append(int(m.group(1)))
    except OSError:
        pass
    return rates, median(cpu) if cpu else None

print()
print("%-18s %6s %14s %6s %14s %8s  %-9s %s" % ("algorithm", "bytes", "perfguide KB/s", "cv%", "openssl KB/s",
                                                "diff%", "verdict", "rounds: perfguide / openssl spread%"))
busy = {}
for r in range(1, rounds + 1):
    try:
        for l in open(os.path.join(w, "busy-%d.txt" % r)):
            a, s, b = l.split()
            busy.setdefault((a, int(s)), []).append(int(b))
    except OSError:
        pass
worst, npass, nrows, cvs, cpu_rows, nbusy = [], 0, 0, [], [], 0
for a in algs:
    pgs = [perfguide(a, r) for r in range(1, rounds + 1)]
    oss = [speed(a, r) for r in range(1, rounds + 1)]
    loads = []
    for s in sizes:
        pv = [p[s]["throughput"]["median"] for p in pgs if s in p and "throughput" in p[s]]
        pc = [p[s]["throughput"]["cv"] * 100 for p in pgs if s in p and "throughput" in p[s]]
        ov = [o[0][s] for o in oss if s in o[0]]
        loads += [p[s]["cpu_load"]["median"] for p in pgs if s in p and "cpu_load" in p[s]]
        if not pv or not ov:
            print("%-18s %6d missing" % (a, s))
            continue
        pm, om, cv = median(pv), median(ov), median(pc)
        d = (pm - om) / om * 100
        good = abs(d) <= 2 and cv < 2
        nrows += 1
        npass += good
        cvs.append(cv)
        worst.append((abs(d), a, s, d))
        spread = lambda v: (max(v) - min(v)) / median(v) * 100
        b = busy.get((a, s), [])
        hot = sum(x > 10 for x in b)
        nbusy += hot > 0
        print("%-18s %6d %14.2f %6.2f %14.2f %+8.2f  %-9s %5.1f / %5.1f%s" % (
            a, s, pm, cv, om, d, "ok" if good else ("FAIL diff" if abs(d) > 2 else "FAIL cv"),
            spread(pv), spread(ov), "  busy %d/%d (max %d%%)" % (hot, len(b), max(b)) if hot else ""))
    tv = [o[1] for o in oss if o[1] is not None]
    cpu_rows.append((a, median(loads), median(tv)))
print()
print("CPU load (TI's openssl-cpu table): perfguide cpu_load (median over sizes and rounds) vs GNU time -v on openssl speed")
for a, p, c in cpu_rows:
    print("  %-18s perfguide %7s   time -v %5s" % (a, "%.1f%%" % p if p is not None else "-",
                                                    "%.0f%%" % c if c is not None else "-"))
print()
if nrows:
    worst.sort(reverse=True)
    print("%d of %d rows within 2%% with CV < 2%%; %d rows had a pair start on a busy machine; "
          "median CV %.2f%%; worst: %s" % (npass, nrows, nbusy, median(cvs), ", ".join("%s %d %+.2f%%" % (a, s, d) for _, a, s, d in worst[:5])))
    print("rerun the worst rows: bench/crypto-vs-openssl.sh --algs \"%s\" --sizes \"%s\"" % (
        " ".join(sorted({a for _, a, _, _ in worst[:5]})),
        " ".join(str(s) for s in sorted({s for _, _, s, _ in worst[:5]}))))
PY
exit 0
