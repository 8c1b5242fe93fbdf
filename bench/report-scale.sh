#!/bin/sh
# SPDX-License-Identifier: MIT
# report-scale.sh: `perfguide report` of a results file as large as the
# reader takes (issue 40, defect 6: report was quadratic in rows times
# shared parameters; 100,000 records did not finish in 300 s). Generates
# RECORDS records (tests/e2e/report_scale_gen.py: BOARDS boards x RUNS runs,
# plain, Crypto and Storage rows, parameters every row of a benchmark
# shares), then times report in each format: csv, json, html, md and rst
# to -o FILE (md and rst write their charts beside it), and md on standard
# output (no charts). A format slower than LIMIT seconds fails. With
# --own-sections 1 every result key is a section of its own (per-section
# work that passes over all rows or all anchors is quadratic then:
# 100,000 sections took 52 s): bench/report-scale.sh --boards 1 --runs 1
# --own-sections 1 times 99,998 sections.
# A benchmark script, not a test (e2e.report_scale checks the guide's
# content at 5,000 records, with no time limit): it prints the times and
# exits 0, 1 when a report failed or took longer than LIMIT, 2 on a usage
# error.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<'USAGE'
usage: bench/report-scale.sh [options]

  --perfguide PATH   perfguide binary (default ./build/perfguide, a release build)
  --records N        records in the results file, at most 100000 (default 100000)
  --boards N         boards (default 4); --boards 1 --runs 1: every record a row
  --runs N           runs per board (default 2)
  --own-sections 0|1 1: every result key a section of its own (default 0)
  --limit SECONDS    the longest a format may take (default 30)
  --keep DIR         generate into DIR and keep it (default: a temporary directory)
  -h, --help         this text
USAGE
}

PGB=./build/perfguide
RECORDS=100000
BOARDS=4
RUNS=2
OWN=0
LIMIT=30
KEEP=""
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || case $1 in -h | --help) ;; *) usage >&2; exit 2 ;; esac
	case $1 in
	--perfguide) PGB=$2; shift 2 ;;
	--records) RECORDS=$2; shift 2 ;;
	--boards) BOARDS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--own-sections) OWN=$2; shift 2 ;;
	--limit) LIMIT=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ -x "$PGB" ] || { echo "report-scale.sh: no perfguide at $PGB (--perfguide PATH)" >&2; exit 2; }
case "$RECORDS$BOARDS$RUNS$OWN$LIMIT" in *[!0-9]*) usage >&2; exit 2 ;; esac

if [ -n "$KEEP" ]; then
	D=$KEEP
	mkdir -p "$D"
else
	D=$(mktemp -d "${TMPDIR:-/tmp}/report-scale.XXXXXX")
	trap 'rm -rf "$D"' EXIT
fi

rows=$(python3 "$top/tests/e2e/report_scale_gen.py" "$D/scale.jsonl" --records "$RECORDS" \
	--boards "$BOARDS" --runs "$RUNS" --own-sections "$OWN") || exit 2
what="${rows#rows } rows"
[ "$OWN" = 0 ] || what="$what, each its own section"
echo "$RECORDS records, $BOARDS boards x $RUNS runs, $what; load average $(cut -d' ' -f1-3 /proc/loadavg)"

rc=0
printf '%-22s %9s %12s\n' "format" "seconds" "bytes"
for how in csv json html md rst md-stdout; do
	rm -rf "$D/out"
	mkdir "$D/out"
	case $how in
	md-stdout) set -- --format md -o - ;;
	*) set -- -o "$D/out/guide.$how" ;;
	esac
	s=$(date +%s.%N)
	"$PGB" report "$D/scale.jsonl" "$@" >"$D/out/stdout" 2>"$D/err"
	st=$?
	e=$(date +%s.%N)
	secs=$(echo "$e - $s" | bc)
	bytes=$(cat "$D/out"/* | wc -c)
	charts=$(ls "$D/out" | grep -c '\.svg$')
	what=$how
	[ "$charts" -eq 0 ] || what="$how ($charts charts)"
	printf '%-22s %9.2f %12d\n' "$what" "$secs" "$bytes"
	if [ $st -ne 0 ]; then
		echo "report-scale.sh: report $* failed (exit $st): $(tail -n 1 "$D/err")" >&2
		rc=1
	elif [ "$(echo "$secs > $LIMIT" | bc)" -eq 1 ]; then
		echo "report-scale.sh: $how took ${secs} s, more than $LIMIT s" >&2
		rc=1
	fi
done
exit $rc
