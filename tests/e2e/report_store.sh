#!/bin/sh
# SPDX-License-Identifier: MIT
# The results store: import (one transaction per file, refusing corrupt
# files whole, idempotent), runs, and `run` adding to the store.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
F="$PG_SOURCE_DIR/tests/fixtures"
DB="$T/s.db"

"$PG" import --db "$DB" "$F"/seed-*.jsonl >"$T/out" || fail "import of the seed fixtures failed"
[ "$(grep -c ' imported$' "$T/out")" -eq 7 ] || fail "expected 7 runs imported: $(cat "$T/out")"
"$PG" import --db "$DB" "$F/seed-j7200-evm.jsonl" >"$T/out" || fail "re-import failed"
grep -q 'already in the store' "$T/out" || fail "re-import is not a no-op: $(cat "$T/out")"
"$PG" runs --db "$DB" >"$T/runs" || fail "runs failed"
[ "$(grep -c '^seed-' "$T/runs")" -eq 7 ] || fail "runs lists $(grep -c '^seed-' "$T/runs") runs, expected 7"
grep -q '^seed-j7200-evm .* j7200-evm .* 115 .*complete' "$T/runs" || fail "runs line: $(cat "$T/runs")"
"$PG" runs --db "$DB" --json >"$T/runs.json"
grep -q '"id": "seed-am68_sk-fs"' "$T/runs.json" || fail "runs --json: $(head -c 300 "$T/runs.json")"

sum() { cksum <"$DB"; }
before=$(sum)
# A corrupt line: refused with its number, nothing of the file added.
head -n 5 "$F/seed-am68_sk-fs.jsonl" | sed 's/seed-am68_sk-fs/bad-run/' >"$T/bad.jsonl"
echo '{"type":"result","bench":' >>"$T/bad.jsonl"
expect_usage_error "corrupt line" import --db "$DB" "$T/bad.jsonl"
grep -q 'line 6: not JSON' "$T/err" || fail "corrupt line: $(cat "$T/err")"
# Truncated: the last line does not end.
head -n 5 "$F/seed-am68_sk-fs.jsonl" | sed 's/seed-am68_sk-fs/bad-run/' >"$T/trunc.jsonl"
printf '{"type":"end"' >>"$T/trunc.jsonl"
expect_usage_error "truncated" import --db "$DB" "$T/trunc.jsonl"
grep -q 'line 6: truncated' "$T/err" || fail "truncated: $(cat "$T/err")"
# A good file beside a bad one: nothing imported.
head -n 5 "$F/seed-am68_sk-fs.jsonl" | sed 's/seed-am68_sk-fs/good-run/' >"$T/good.jsonl"
expect_usage_error "good and bad" import --db "$DB" "$T/good.jsonl" "$T/bad.jsonl"
expect_usage_error "missing file" import --db "$DB" "$T/nonexistent.jsonl"
expect_usage_error "not a results file" import --db "$DB" "$PG_SOURCE_DIR/CMakeLists.txt"
expect_usage_error "unknown run" report --db "$DB" --run no-such-run
expect_usage_error "unknown board" report --db "$DB" --board no-such-board
[ "$(sum)" = "$before" ] || fail "the store changed on bad input"
"$PG" runs --db "$DB" | grep -q 'bad-run\|good-run' && fail "half-imported run"

# Not a perfguide store: an SQLite database of something else, and a text file.
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$T/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
	o=$(cksum <"$T/other.db")
	expect_usage_error "foreign sqlite" import --db "$T/other.db" "$F/seed-j7200-evm.jsonl"
	grep -q 'not a perfguide store' "$T/err" || fail "foreign store: $(cat "$T/err")"
	[ "$(cksum <"$T/other.db")" = "$o" ] || fail "a foreign database was changed"
fi
echo "just text" >"$T/text.db"
expect_usage_error "text store" runs --db "$T/text.db"
grep -q 'not a perfguide store' "$T/err" || fail "text store: $(cat "$T/err")"
expect_usage_error "no store" runs --db "$T/none.db"

# `run` adds to the store as it writes the results file; --no-db does not.
"$PG" run mem.bw.rd -p size=64k $FAST --board e2e-board --out "$T/r.jsonl" --db "$T/run.db" 2>/dev/null ||
	fail "run --db failed"
"$PG" runs --db "$T/run.db" | grep -q 'e2e-board .* 1 .*complete' || fail "run did not reach the store: $("$PG" runs --db "$T/run.db")"
"$PG" import --db "$T/run.db" "$T/r.jsonl" | grep -q 'already in the store' || fail "run + import duplicated"
"$PG" run mem.bw.rd -p size=64k $FAST --out "$T/r2.jsonl" --no-db 2>/dev/null || fail "run --no-db failed"
[ ! -e "$XDG_DATA_HOME/perfguide/results.db" ] || fail "--no-db wrote the default store"
"$PG" run mem.bw.rd -p size=64k $FAST --out "$T/r3.jsonl" 2>/dev/null || fail "run failed"
"$PG" runs | grep -q ' 1 .*complete' || fail "run did not reach the default store"
# A store that cannot be written never costs the results file.
expect_usage_error "bad --db" run mem.bw.rd $FAST --out "$T/r4.jsonl" --db "$T/text.db"
XDG_DATA_HOME=/proc/no-such-dir "$PG" run mem.bw.rd -p size=64k $FAST --out "$T/r5.jsonl" 2>"$T/err5" ||
	fail "run with an unwritable default store failed: $(cat "$T/err5")"
grep -q '"type":"end"' "$T/r5.jsonl" || fail "results file incomplete when the store failed"
echo ok
