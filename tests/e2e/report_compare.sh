#!/bin/sh
# SPDX-License-Identifier: MIT
# compare: three runs a side 10% apart is a regression; one run a side of
# the same is undecided (each run is allowed a spread of its own), 5x is
# judged; wide samples are undecided, never within noise; a lost benchmark
# fails; a run against itself is unlike; labels and --history from a
# store; bad input exits 2. (compare_profile.sh: a board's history.)
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"

# run FILE ID BENCH SAMPLES(comma list) MEDIAN MIN MAX [BETTER [LABEL [STARTED]]]: appends a run to FILE
run() {
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"b-%s","started":"%s","machine":{},"build":{"version":"t"},"config":{}%s}\n' \
		"$2" "${2%%[0-9]}" "${10:-2026-01-01T00:00:00Z}" "${9:+,\"labels\":{\"release\":\"$9\"\}}" >>"$1"
	printf '{"type":"result","bench":"%s","params":{"size":1024},"metric":"bandwidth","unit":"MB/s","better":"%s","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
		"$3" "${8:-higher}" "$4" "$5" "$6" "$7" >>"$1"
	printf '{"type":"end","finished":"2026-01-01T00:01:00Z","status":"complete"}\n' >>"$1"
}
# around C: ten tight samples
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
tight() { awk -v c="$1" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.3f", i ? "," : "", c * (1 + (i - 4.5) / 1000) }'; }
expect() { # expect RC what args...
	want=$1 what=$2
	shift 2
	set +e
	"$PG" compare "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ $rc -eq "$want" ] || fail "$what: exit $rc, expected $want: $(cat "$T/out" "$T/err")"
}

for i in 1 2 3; do
	c=$(calc "100 + $i / 2")
	run "$T/base.jsonl" "base$i" t.bw "$(tight "$c")" "$c" "$c" "$c"
	c=$(calc "(100 + $i / 2) * 0.9")
	run "$T/slow.jsonl" "slow$i" t.bw "$(tight "$c")" "$c" "$c" "$c"
	c=$(calc "(100 + $i / 2) * 1.1")
	run "$T/fast.jsonl" "fast$i" t.bw "$(tight "$c")" "$c" "$c" "$c"
done
run "$T/b1.jsonl" one t.bw "$(tight 100)" 100 100 100
run "$T/s1.jsonl" two t.bw "$(tight 90)" 90 90 90
run "$T/s5.jsonl" five t.bw "20,20.1,19.9" 20 19.9 20.1
run "$T/wide.jsonl" wide t.bw "60,140,70,130,80,120,90,110,100,100" 100 60 140
run "$T/wide2.jsonl" wide2 t.bw "65,135,75,125,85,115,95,105,100,100" 100 65 135
run "$T/other.jsonl" other t.other "1,2,3" 2 1 3

# three runs a side (one results file each)
expect 1 "10% slower, 3 runs" "$T/base.jsonl" "$T/slow.jsonl"
grep -q '| 101.00 | 90.90 | -10.0% | .* | regressed |' "$T/out" || fail "10% slower: $(cat "$T/out")"
grep -q 'and 2 more runs' "$T/out" || fail "3 runs a side not said: $(cat "$T/out")"
expect 0 "10% faster, 3 runs" "$T/base.jsonl" "$T/fast.jsonl"
grep -q 'improved |' "$T/out" || fail "10% faster: $(cat "$T/out")"
# the same runs named one by one, with vs between the sides
expect 1 "vs" "$T/b1.jsonl" "$T/base.jsonl" vs "$T/s1.jsonl" "$T/slow.jsonl"
grep -q 'and 3 more runs' "$T/out" || fail "vs: $(cat "$T/out")"
# one run a side: 10% is within what runs differ by; 5x is not
expect 3 "10% slower, one run a side" "$T/b1.jsonl" "$T/s1.jsonl"
grep -q '| -10.0% | -2[0-9]% .. +[0-9.]*% | .* | 5.4% allowed | undecided: between' "$T/out" ||
	fail "one run a side: $(cat "$T/out")"
expect 1 "5x slower, 3 samples" "$T/b1.jsonl" "$T/s5.jsonl"
grep -q '| -80.0% | .* | regressed |' "$T/out" || fail "5x: $(cat "$T/out")"
expect 3 "wide samples" "$T/wide.jsonl" "$T/wide2.jsonl" --format json
grep -q '"verdict": "undecided"' "$T/out" || fail "wide samples: $(cat "$T/out")"
grep -q '"interval_pct": \[' "$T/out" && grep -q '"more_of": "runs a side"' "$T/out" ||
	fail "wide samples, the interval or how many more: $(cat "$T/out")"
# Lower is better: a 10% rise in latency is a regression.
for i in 1 2 3; do
	run "$T/lat1.jsonl" "lat1$i" t.lat "$(tight 10.$i)" 10.$i 10 11 lower
	run "$T/lat2.jsonl" "lat2$i" t.lat "$(tight 11.$i)" 11.$i 11 12 lower
done
expect 1 "latency up 10%" "$T/lat1.jsonl" "$T/lat2.jsonl"
grep -q 'regressed' "$T/out" || fail "latency up 10%: $(cat "$T/out")"
# A 3% change is under the 5% threshold even when significant; --threshold 2 counts it.
for i in 1 2 3; do
	c=$(calc "(100 + $i / 2) * 0.97")
	run "$T/small.jsonl" "small$i" t.bw "$(tight "$c")" "$c" "$c" "$c"
done
expect 0 "3% at threshold 5" "$T/base.jsonl" "$T/small.jsonl"
expect 1 "3% at threshold 2" "$T/base.jsonl" "$T/small.jsonl" --threshold 2

# a run against itself
expect 3 "self" "$T/b1.jsonl" "$T/b1.jsonl"
grep -q 'compared with itself' "$T/out" || fail "self: $(cat "$T/out")"
expect 0 "self, forced" "$T/base.jsonl" "$T/base.jsonl" --force

# a benchmark NEW lost: named, exit 1; --allow-missing
cp "$T/b1.jsonl" "$T/both.jsonl"
sed 's/"id":"one"/"id":"onex"/; s/"t.bw"/"t.extra"/' "$T/b1.jsonl" | sed -n 2p >"$T/x"
sed -i "2r $T/x" "$T/both.jsonl"
expect 1 "lost benchmark" "$T/both.jsonl" "$T/s5.jsonl"
grep -q '^- t.extra size=1k: missing in run five' "$T/out" || fail "lost: $(cat "$T/out")"
expect 1 "lost, allowed, still regressed" "$T/both.jsonl" "$T/s5.jsonl" --allow-missing
sed 's/"t.bw"/"t.extra"/' "$T/s5.jsonl" | sed -n 2p >"$T/x"
cp "$T/s5.jsonl" "$T/s5x.jsonl"
sed -i '2s/.*/{"type":"result","bench":"t.extra","params":{"size":1024},"metric":"bandwidth","status":"error","reason":"it broke"}/' "$T/s5x.jsonl"
printf '{"type":"result","bench":"t.bw","params":{"size":1024},"metric":"bandwidth","unit":"MB/s","samples":[100,100.1,99.9],"median":100,"min":99.9,"max":100.1,"status":"ok"}\n' >"$T/x"
sed -i "1r $T/x" "$T/s5x.jsonl"
expect 1 "failed benchmark" "$T/both.jsonl" "$T/s5x.jsonl"
grep -q '^- t.extra size=1k: failed in run five: it broke' "$T/out" || fail "failed: $(cat "$T/out")"
# allowed: what is left, t.bw one run a side, is undecided
expect 3 "failed benchmark allowed" "$T/both.jsonl" "$T/s5x.jsonl" --allow-missing

# Through the store: run ids, board names, labels, --history.
DB="$T/s.db"
run "$T/r1.jsonl" rel1 t.bw "$(tight 100)" 100 100 100 higher 1 2026-01-01T00:00:01Z
run "$T/r1.jsonl" rel2 t.bw "$(tight 101)" 101 101 101 higher 1 2026-01-01T00:00:02Z
run "$T/r2.jsonl" rel3 t.bw "$(tight 80)" 80 80 80 higher 2 2026-01-01T00:00:03Z
run "$T/r2.jsonl" rel4 t.bw "$(tight 80.5)" 80.5 80.5 80.5 higher 2 2026-01-01T00:00:04Z
"$PG" import --db "$DB" "$T/base.jsonl" "$T/slow.jsonl" "$T/other.jsonl" "$T/r1.jsonl" "$T/r2.jsonl" >/dev/null
expect 3 "by run id and board, one run a side" --db "$DB" base1 b-slow
expect 1 "labels" --db "$DB" release=1 release=2
grep -q 'regressed' "$T/out" || fail "labels: $(cat "$T/out")"
expect 1 "history" --db "$DB" rel3 --history 5
grep -q 'BASE rel1 (b-rel) and 1 more run' "$T/out" && grep -q 'regressed' "$T/out" || fail "history: $(cat "$T/out")"

# One figure a run (a composite's: cpu.scaling's speedup) whose benchmark
# stated its interval (the standard error of its log, here 1% or 20%, as
# a 95% interval): tested as one run a side, not "too few samples"; one
# with no interval (ci_level 0) still cannot be tested. Also through the
# store, which keeps the interval.
# fig FILE ID MEDIAN SE: appends a run of one figure to FILE (SE 0: none)
fig() {
	awk -v id="$2" -v m="$3" -v se="$4" 'BEGIN {
		lo = m * exp(-1.959964 * se); hi = m * exp(1.959964 * se); lv = 0.95
		if (se == 0) { lo = m; hi = m; lv = 0 }
		printf "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"%s\",\"board\":\"b-fig\",\"started\":\"2026-01-02T00:00:00Z\",\"machine\":{},\"build\":{\"version\":\"t\"},\"config\":{}}\n", id
		printf "{\"type\":\"result\",\"bench\":\"t.ratio\",\"params\":{},\"metric\":\"speedup\",\"unit\":\"x\",\"samples\":[%s],\"median\":%s,\"min\":%s,\"max\":%s,\"ci_lo\":%.9g,\"ci_hi\":%.9g,\"ci_level\":%s,\"ci_rel\":%.9g,\"stop\":\"once\",\"status\":\"ok\"}\n", m, m, m, m, lo, hi, lv, hi / m - 1
		printf "{\"type\":\"end\",\"finished\":\"2026-01-02T00:01:00Z\",\"status\":\"complete\"}\n"
	}' >>"$1"
}
fig "$T/f100.jsonl" f100 1.8 0.01
fig "$T/f90.jsonl" f90 1.62 0.01
fig "$T/f20.jsonl" f20 0.36 0.01
fig "$T/w100.jsonl" w100 1.8 0.2
fig "$T/w90.jsonl" w90 1.62 0.2
fig "$T/n100.jsonl" n100 1.8 0
fig "$T/n90.jsonl" n90 1.62 0
expect 3 "one figure 10% down at 1% se" "$T/f100.jsonl" "$T/f90.jsonl"
grep -q '| -10.0% | .* | [0-9.e-]* | 5.4% allowed | undecided: between' "$T/out" || fail "stated 1%: $(cat "$T/out")"
expect 3 "one figure 10% down at 20% se" "$T/w100.jsonl" "$T/w90.jsonl"
grep -q '| -10.0% | .* | 0\.[0-9]* | 5.4% allowed | undecided: between' "$T/out" || fail "stated 20%: $(cat "$T/out")"
expect 1 "one figure 5x down at 1% se" "$T/f100.jsonl" "$T/f20.jsonl"
grep -q '| -80.0% | .* | regressed |' "$T/out" || fail "stated 5x: $(cat "$T/out")"
expect 3 "one figure 10% down, no interval" "$T/n100.jsonl" "$T/n90.jsonl"
grep -q 'undecided: one figure a side and no spread' "$T/out" || fail "no interval: $(cat "$T/out")"
"$PG" import --db "$DB" "$T/f100.jsonl" "$T/f20.jsonl" >/dev/null
expect 1 "one figure 5x down, from the store" --db "$DB" f100 f20
grep -q '| -80.0% | .* | regressed |' "$T/out" || fail "stated 5x, store: $(cat "$T/out")"

before=$(cksum <"$DB")
expect_usage_error "no common benchmark" compare --db "$DB" base1 other
grep -q 'no benchmark in common' "$T/err" || fail "no common: $(cat "$T/err")"
expect_usage_error "unknown run" compare --db "$DB" base1 nosuchrun
expect_usage_error "missing file" compare --db "$DB" "$T/none.jsonl" base1
expect_usage_error "one argument" compare --db "$DB" base1
expect_usage_error "three without vs" compare --db "$DB" base1 base2 base3
expect_usage_error "nothing after vs" compare --db "$DB" base1 vs
expect_usage_error "bad threshold" compare --db "$DB" base1 base1 --threshold lots
expect_usage_error "no such label" compare --db "$DB" release=7 release=2
expect_usage_error "short history" compare --db "$DB" rel1 --history 3
expect_usage_error "bad history" compare --db "$DB" rel1 --history 1
printf '{"type":"run"\n' >"$T/corrupt.jsonl"
expect_usage_error "corrupt file" compare --db "$DB" "$T/corrupt.jsonl" base1
[ "$(cksum <"$DB")" = "$before" ] || fail "compare changed the store"
echo ok
