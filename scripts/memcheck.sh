#!/bin/sh
# SPDX-License-Identifier: MIT
# The memcheck pass of `make check`: the unit tests and a set of end-to-end
# commands under valgrind's memcheck, with a build without sanitizers
# (valgrind and AddressSanitizer do not mix). It is there for what the
# sanitizer build cannot see: a read of memory never written (issue 26,
# defect 12: a storage label read from an uninitialised mount record).
#
# The set, chosen to take about a minute and a half of a 2-core machine
# (76 s with a load average of 4 to 7 beside it, issue 26):
#   - every unit test but test_report_hardening (its stress cases, 12000
#     runs and ten parallel imports, take minutes under valgrind),
#     test_net_client (its rate cap check bounds the bytes a peer sends in
#     0.2 s, which a peer slowed down 30 times by valgrind overshoots) and
#     test_gate (thousands of simulated comparisons: 15 s natively, 174 s
#     under valgrind, the longest part of the pass and a third of make
#     check's time past the 10 minutes' margin; test_compare and the
#     compare commands below run the same gate code on hand-made and real
#     rows); the sanitizer build runs all three, and the quick suite below
#     runs the client;
#   - `run --suite quick` (every group's quick suite, what this machine
#     has) with one iteration per sample, in perfguide's own process, into
#     a store and a results file; four benchmarks in two forked processes
#     each (run --processes 2);
#   - import of that file and the seed fixtures; report in every format,
#     with a baseline, with --trend; runs; history; compare of two runs (md
#     and json); ab of one benchmark for 10 s; the results and peer-frame
#     fuzz corpora replayed.
# Each process's valgrind log is kept; any error fails the pass with the
# logs that have one. MEMCHECK_ORIGINS=yes adds where uninitialised values
# came from (twice as slow).
#
# usage: scripts/memcheck.sh BUILD_DIR [JOBS]
set -eu

B=$(cd "$1" && pwd)
JOBS=${2:-2}
top=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
	# skipped, saying why, when scripts/deps.sh could not install it
	why=$(awk -F '\t' '$1 == "valgrind" { print $2; exit }' "${PG_DEPS_MISSING:-/dev/null}" 2>/dev/null || true)
	if [ -n "$why" ]; then
		echo "memcheck: SKIP: scripts/deps.sh could not install valgrind ($why)" >&2
		exit 0
	fi
	echo "memcheck: valgrind is not installed (scripts/deps.sh check installs it)" >&2
	exit 1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/pg-memcheck.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir "$W/logs" "$W/out"
export XDG_DATA_HOME="$W/xdg"
# Never wait for a quiet machine (--wait-quiet): the unit tests run beside
# the commands, and the run's figures under valgrind mean nothing anyway.
# Waiting was most of the pass's time (the quick suite: 171 s, 43 s without).
export PERFGUIDE_WAIT_QUIET=0
# Signal handlers that resume after a fault (os.sig.prot) need the
# registers exact at every memory access.
VG="valgrind --tool=memcheck --error-exitcode=99 --leak-check=no --track-origins=${MEMCHECK_ORIGINS:-no}
    --vex-iropt-register-updates=allregs-at-mem-access --log-file=$W/logs/%p.log"
PG=$B/perfguide
start=$(date +%s)

# mc NAME OK_STATUSES CMD...: CMD under valgrind; its exit status must be
# one of OK_STATUSES ("0", "0 1").
mc() {
	name=$1 ok=$2
	shift 2
	set +e
	# shellcheck disable=SC2086
	$VG "$@" >"$W/out/$name.out" 2>"$W/out/$name.err"
	rc=$?
	set -e
	case " $ok " in
	*" $rc "*) ;;
	*) echo "memcheck: $name: exit $rc (expected $ok): $(tail -n 3 "$W/out/$name.err")" >>"$W/failed" ;;
	esac
}

# The end-to-end commands, one after the other, beside the unit tests.
e2e() {
	F=$top/tests/fixtures
	cd "$W"
	mc run-quick "0 1" "$PG" run --suite quick --iterations 1 --runs 1 --processes 1 --db "$W/run.db" \
		--out "$W/quick.jsonl"
	# a result in two forked processes (run --processes, at least 2
	# samples each: the quick suite so would take 4 times as long here),
	# and STREAM's add from copy's processes' passes (the siblings' lines)
	mc run-procs "0" "$PG" run cpu.dhrystone mem.bw.rd os.syscall.null crypto.sha256 mem.stream.copy \
		mem.stream.add -p size=64k --iterations 1 --runs 2 --processes 2 --no-db --out "$W/procs.jsonl"
	mc import "0" "$PG" import --db "$W/s.db" "$F"/seed-*.jsonl "$W/quick.jsonl"
	for f in md rst csv json html; do
		mc "report-$f" "0" "$PG" report --db "$W/s.db" --format $f -o "$W/guide.$f"
	done
	mc report-baseline "0" "$PG" report --db "$W/s.db" --board j7200-evm --board am68_sk-fs --baseline j7200-evm
	mc report-files "0" "$PG" report "$W/quick.jsonl" "$F/seed-j784s4-evm.jsonl" --format html -o "$W/files.html"
	mc runs "0" "$PG" runs --db "$W/run.db" --json
	# a board's history (its runs without samples, every format's writer)
	# and the guide's trend charts; test_history runs the change points
	for f in md json html; do
		mc "history-$f" "0" "$PG" history --db "$W/s.db" --board j7200-evm --format $f -o "$W/history.$f"
	done
	mc report-trend "0" "$PG" report --db "$W/s.db" --trend -o "$W/trend.html"
	# two boards (unlike machines) whose seed figures are one sample each:
	# compare exits 3 for that (issue 25); what is checked is the memory
	mc compare "0 1 3" "$PG" compare --db "$W/s.db" j7200-evm j721e-idk-gw
	mc compare-json "0 1 3" "$PG" compare --db "$W/s.db" j784s4-evm j721s2-evm --format json
	# ab's rounds, rows and looks (its runs are children, not under valgrind)
	mc ab "0 1 3" "$PG" ab cpu.whetstone --iterations 1 --runs 2 --processes 1 --budget 10s --out "$W/ab" \
		--format json
	# the input paths since (issue 40, defect 8n): a LAVA job's log with a
	# results file in it, published tables (the charts beside guide.md and
	# rst, history and the trend charts are above)
	{
		echo "perfguide-results-begin quick.jsonl $(wc -c <"$W/quick.jsonl") base64"
		base64 <"$W/quick.jsonl"
		echo "perfguide-results-end complete"
	} >"$W/job.log"
	mc import-lava-log "0" "$PG" import --db "$W/lava.db" --from-lava-log "$W/job.log"
	mc import-table "0" "$PG" import --db "$W/table.db" --table "$F/seed-lmbench.csv" --map "$top/maps/lmbench.csv" \
		--release 09.02 --date 2024-06-01
	mc import-table-openssl "0" "$PG" import --db "$W/table.db" --table "$F/seed-openssl.csv" --keys 2
	mc replay-results "0" "$B/fuzz/replay_results" "$top/fuzz/corpus/results"
	mc replay-frames "0" "$B/fuzz/replay_net_frame" "$top/fuzz/corpus/net_frame"
	[ ! -x "$B/fuzz/replay_store" ] || mc replay-store "0" "$B/fuzz/replay_store" "$top/fuzz/corpus/store"
	[ ! -x "$B/fuzz/replay_lava_log" ] || mc replay-lava-log "0" "$B/fuzz/replay_lava_log" "$top/fuzz/corpus/lava_log"
	[ ! -x "$B/fuzz/replay_table" ] || mc replay-table "0" "$B/fuzz/replay_table" "$top/fuzz/corpus/table"
}
e2e &
e2e_pid=$!

# The unit tests, as many at once as JOBS leaves beside the commands above.
ls "$B"/tests/test_* 2>/dev/null | grep -v '/test_\(report_hardening\|net_client\|gate\)$' >"$W/units" || true
n=$(($(printf '%s' "$JOBS" | tr -cd 0-9) - 1))
[ "$n" -ge 1 ] || n=1
export VG W
xargs -P "$n" -I{} sh -c '
	name=$(basename "$1")
	cd "$(dirname "$1")"
	if ! $VG "$1" >"$W/out/$name.out" 2>&1; then
		echo "memcheck: $name failed under valgrind: $(tail -n 3 "$W/out/$name.out")" >>"$W/failed"
	fi' sh {} <"$W/units"
wait $e2e_pid

# A process that forked and then ran another program (a benchmark's shell,
# an external suite) ends its log without a summary: an error is what a
# log says it is.
bad=$(grep -l -E 'ERROR SUMMARY: [1-9]|== (Invalid (read|write|free)|Mismatched free|Conditional jump|Use of uninitialised|Syscall param|Source and destination overlap|Argument .* of function|Invalid alignment)' \
	"$W"/logs/*.log || true)
secs=$(($(date +%s) - start))
units=$(wc -l <"$W/units")
procs=$(ls "$W"/logs | wc -l)
if [ -n "$bad" ] || [ -s "$W/failed" ]; then
	for l in $bad; do
		echo "memcheck: errors in $(sed -n 's/^==[0-9]*== Command: //p' "$l" | head -n 1):" >&2
		grep -v '^==[0-9]*== \(Memcheck\|Copyright\|Using Valgrind\|Command\|Parent PID\|$\)' "$l" | head -n 60 >&2
	done
	[ ! -s "$W/failed" ] || cat "$W/failed" >&2
	echo "memcheck: FAILED ($units unit tests and the end-to-end set, $procs processes, ${secs} s)" >&2
	exit 1
fi
echo "memcheck: no errors in $units unit tests and the end-to-end set ($procs processes under valgrind, ${secs} s)"
