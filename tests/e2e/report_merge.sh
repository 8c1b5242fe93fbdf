#!/bin/sh
# SPDX-License-Identifier: MIT
# report: repeated runs of one board merge into one column (median of the
# medians, min of the mins, max of the maxes); the latest run by default;
# a skipped result shows why in a footnote; every row has every column.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
DB="$T/s.db"
# run FILE ID BOARD DAY MEDIAN MIN MAX
run() {
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"%s","started":"2026-01-%sT00:00:00Z","machine":{"cpus_online":4,"kernel_release":"6.1.0-test","mem_total":2147483648,"cpus":[{"id":0,"model":"Cortex-A53"}]},"build":{"version":"9.9","compiler":"GNU 12"},"config":{}}\n' "$2" "$3" "$4" >"$1"
	printf '{"type":"result","bench":"mem.bw.rd","params":{"size":1048576,"threads":1},"metric":"bandwidth","unit":"MB/s","better":"higher","samples":[%s,%s,%s],"median":%s,"min":%s,"max":%s,"cpu":{"busy_pct":40},"label":"bw_mem-rd-1mb","status":"ok"}\n' "$6" "$5" "$7" "$5" "$6" "$7" >>"$1"
	printf '{"type":"end","finished":"2026-01-%sT00:01:00Z","status":"complete"}\n' "$4" >>"$1"
}
run "$T/a1.jsonl" a1 boardA 01 100 90 110
run "$T/a2.jsonl" a2 boardA 02 200 150 210
run "$T/a3.jsonl" a3 boardA 03 120 119 300
run "$T/b1.jsonl" b1 boardB 02 50 50 50
printf '{"type":"result","bench":"crypto.sm4","params":{"size":16},"metric":"throughput","unit":"KB/s","status":"skipped","reason":"no sm4 in this libcrypto: build OpenSSL with sm4"}\n' >"$T/skip.line"
sed -i "\$i $(sed 's/[\/&]/\\&/g' "$T/skip.line")" "$T/b1.jsonl"
printf '{"type":"result","bench":"crypto.zuc","params":{},"metric":"throughput","unit":"KB/s","samples":[7],"median":7,"min":7,"max":7,"status":"ok"}\n' >"$T/ok.line"
sed -i "\$i $(sed 's/[\/&]/\\&/g' "$T/ok.line")" "$T/a3.jsonl"
"$PG" import --db "$DB" "$T"/a1.jsonl "$T"/a2.jsonl "$T"/a3.jsonl "$T"/b1.jsonl >/dev/null || fail "import"

"$PG" report --db "$DB" >"$T/latest.md" || fail "report"
grep -q '^| bw_mem-rd-1mb (MB/s) | 120.00 (min 119.00, max 300.00) | 50.00 |$' "$T/latest.md" ||
	fail "latest run of each board: $(grep bw_mem "$T/latest.md")"
"$PG" report --db "$DB" --board boardA --board boardB --all-runs >"$T/all.md" || fail "report --all-runs"
# median of 100, 200, 120 is 120; min 90; max 300.
grep -q '^| bw_mem-rd-1mb (MB/s) | 120.00 (min 90.00, max 300.00) |' "$T/all.md" || fail "merged: $(grep bw_mem "$T/all.md")"
grep -q '| Runs | 3 runs merged, latest a3 | b1 |' "$T/all.md" || fail "machine table: $(grep Runs "$T/all.md")"
grep -q '| CPU | Cortex-A53 | Cortex-A53 |' "$T/all.md" || fail "machine table CPU"
grep -q '| Memory | 2048 MiB | 2048 MiB |' "$T/all.md" || fail "machine table memory"
grep -q '^| Frequency' "$T/all.md" && fail "an empty machine row"
"$PG" report --db "$DB" --run a2 >"$T/a2.md" || fail "report --run"
grep -q '| 200.00 (min 150.00, max 210.00) |' "$T/a2.md" || fail "--run a2: $(grep bw_mem "$T/a2.md")"
# A plain cell: min and max print as the median.
grep -q '| 50.00 |' "$T/latest.md" || fail "equal min and max keep the bracket"

# Skipped: the cell says so, a footnote says why; boardA's cell is empty.
# (Only crypto.sm4 ran, at one size: the row needs no parameter to name it.)
grep -q "^| crypto.sm4 throughput (KB/s) |  | skipped \\[1\\] |\$" "$T/latest.md" ||
	fail "skipped row: $(grep sm4 "$T/latest.md")"
grep -q '^- \[1\] no sm4 in this libcrypto' "$T/latest.md" || fail "footnote: $(grep '\[1\]' "$T/latest.md")"
# A section with no figure at all is one line at the end, saying why.
"$PG" report --db "$DB" --board boardB >"$T/b.md" 2>/dev/null || fail "report --board boardB"
grep -q '^- Other benchmarks: no sm4 in this libcrypto: build OpenSSL with sm4$' "$T/b.md" ||
	fail "an all-skipped section: $(sed -n '/Not measured/,$p' "$T/b.md")"
grep -q '^## Other benchmarks' "$T/b.md" && fail "an all-skipped section has a table"

# A later run of one other benchmark hides none of the earlier full run:
# per benchmark the latest result, and the guide says which runs it took.
run "$T/a4.jsonl" a4 boardA 04 1 1 1
sed -i 's/"bench":"mem.bw.rd","params":{"size":1048576,"threads":1}/"bench":"os.syscall.null","params":{}/' "$T/a4.jsonl"
"$PG" import --db "$DB" "$T/a4.jsonl" >/dev/null || fail "import a4"
"$PG" report --db "$DB" >"$T/partial.md" 2>"$T/partial.err" || fail "report after a partial run"
grep -q '^| bw_mem-rd-1mb (MB/s) | 120.00 (min 119.00, max 300.00) | 50.00 |$' "$T/partial.md" ||
	fail "a partial run hid an earlier full one: $(grep bw_mem "$T/partial.md")"
grep -q '| Runs | latest of each benchmark, from a4 (1 results), a3 (2 results) | b1 |' "$T/partial.md" ||
	fail "which runs: $(grep Runs "$T/partial.md")"
grep -q '^perfguide: report: boardA: 4 runs, the latest result of each benchmark, from 2 of them' "$T/partial.err" ||
	fail "no word of the runs in one column: $(cat "$T/partial.err")"
# --columns-by run: a column each
"$PG" report --db "$DB" --board boardA --columns-by run >"$T/each.md" 2>/dev/null || fail "--columns-by run"
grep -q '^| bw_mem-rd-1mb (MB/s) | 100.00 (min 90.00, max 110.00) | 200.00 (min 150.00, max 210.00) | 120.00 (min 119.00, max 300.00) |  |$' \
	"$T/each.md" || fail "--columns-by run: $(grep 'bw_mem\|Benchmarks' "$T/each.md")"
grep -q '^| Benchmarks | boardA (a1) | boardA (a2) | boardA (a3) | boardA (a4) |$' "$T/each.md" ||
	fail "--columns-by run headings: $(grep Benchmarks "$T/each.md")"
# Every table row has as many cells as its header.
awk -F'|' '/^\| /{ if (hdr == "") hdr = NF; else if (NF != hdr) { print "ragged: " $0; exit 1 } } /^$/{ hdr = "" }' \
	"$T/latest.md" "$T/all.md" || fail "a row without a cell for every column"
expect_usage_error "--all-runs without --board" report --db "$DB" --all-runs
expect_usage_error "bad format" report --db "$DB" --format pdf
expect_usage_error "bad --columns-by" report --db "$DB" --columns-by disk
echo ok
