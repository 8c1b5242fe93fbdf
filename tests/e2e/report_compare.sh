#!/bin/sh
# compare: a known 10% shift with tight samples is a regression; the same
# medians with wide, overlapping samples are within noise; bad input exits 2.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"

# run FILE ID BENCH SAMPLES(comma list) MEDIAN MIN MAX [BETTER]
run() {
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"b-%s","started":"2026-01-01T00:00:00Z","machine":{},"build":{"version":"t"},"config":{}}\n' "$2" "$2" >"$1"
	printf '{"type":"result","bench":"%s","params":{"size":1024},"metric":"bandwidth","unit":"MB/s","better":"%s","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
		"$3" "${8:-higher}" "$4" "$5" "$6" "$7" >>"$1"
	printf '{"type":"end","finished":"2026-01-01T00:01:00Z","status":"complete"}\n' >>"$1"
}
run "$T/base.jsonl" base t.bw "100,101,99,100.5,99.5,100.2,99.8,100.1,99.9,100" 100 99 101
run "$T/slow.jsonl" slow t.bw "90,91,89,90.5,89.5,90.2,89.8,90.1,89.9,90" 90 89 91
run "$T/fast.jsonl" fast t.bw "110,111,109,110.5,109.5,110.2,109.8,110.1,109.9,110" 110 109 111
run "$T/wide.jsonl" wide t.bw "60,140,70,130,80,120,90,110,100,100" 100 60 140
run "$T/wide2.jsonl" wide2 t.bw "65,135,75,125,85,115,95,105,100,100" 100 65 135
run "$T/other.jsonl" other t.other "1,2,3" 2 1 3

set +e
"$PG" compare "$T/base.jsonl" "$T/slow.jsonl" >"$T/out" 2>"$T/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "10% slower: exit $rc, expected 1: $(cat "$T/out" "$T/err")"
grep -q '| 100.00 | 90.00 | -10.0% | .* | regressed |' "$T/out" || fail "10% slower: $(cat "$T/out")"

"$PG" compare "$T/base.jsonl" "$T/fast.jsonl" >"$T/out" || fail "10% faster exits non-zero"
grep -q 'improved |' "$T/out" || fail "10% faster: $(cat "$T/out")"

"$PG" compare "$T/wide.jsonl" "$T/wide2.jsonl" --format json >"$T/out" || fail "wide samples exit non-zero"
grep -q '"verdict": "within noise"' "$T/out" || fail "wide samples: $(cat "$T/out")"

# Lower is better: a 10% rise in latency is a regression.
run "$T/lat1.jsonl" lat1 t.lat "10,10.1,9.9,10.05,9.95" 10 9.9 10.1 lower
run "$T/lat2.jsonl" lat2 t.lat "11,11.1,10.9,11.05,10.95" 11 10.9 11.1 lower
set +e
"$PG" compare "$T/lat1.jsonl" "$T/lat2.jsonl" >"$T/out"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'regressed' "$T/out" || fail "latency up 10%: exit $rc $(cat "$T/out")"
# A 3% change is under the 5% threshold even when significant; --threshold 2 counts it.
run "$T/small.jsonl" small t.bw "97,98,96,97.5,96.5,97.2,96.8,97.1,96.9,97" 97 96 98
"$PG" compare "$T/base.jsonl" "$T/small.jsonl" >/dev/null || fail "3% counted at threshold 5"
set +e
"$PG" compare "$T/base.jsonl" "$T/small.jsonl" --threshold 2 >/dev/null; rc=$?
set -e
[ $rc -eq 1 ] || fail "3% not counted at threshold 2"

# Through the store: run ids and board names.
DB="$T/s.db"
"$PG" import --db "$DB" "$T/base.jsonl" "$T/slow.jsonl" "$T/other.jsonl" >/dev/null
set +e
"$PG" compare --db "$DB" base b-slow >/dev/null; rc=$?
set -e
[ $rc -eq 1 ] || fail "compare by run id and board: exit $rc"

before=$(cksum <"$DB")
expect_usage_error "no common benchmark" compare --db "$DB" base other
grep -q 'no benchmark in common' "$T/err" || fail "no common: $(cat "$T/err")"
expect_usage_error "unknown run" compare --db "$DB" base nosuchrun
expect_usage_error "missing file" compare --db "$DB" "$T/none.jsonl" base
expect_usage_error "one argument" compare --db "$DB" base
expect_usage_error "bad threshold" compare --db "$DB" base base --threshold lots
printf '{"type":"run"\n' >"$T/corrupt.jsonl"
expect_usage_error "corrupt file" compare --db "$DB" "$T/corrupt.jsonl" base
[ "$(cksum <"$DB")" = "$before" ] || fail "compare changed the store"
echo ok
