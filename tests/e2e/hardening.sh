#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 13 at the command line: results files, the store and the report as
# untrusted input (the library's side is tests/unit/test_report_hardening.c).
# Each check failed before its fix; the defect's number is in its message.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
python3 -c 'import sqlite3' 2>/dev/null || skip "python3's sqlite3 module is needed to make damaged stores"
C="$PG_SOURCE_DIR/fuzz/corpus/results"
ESC=$(printf '\033')

run_line() { # id board
	printf '{"type":"run","schema":"perfguide/1","id":"%s","board":"%s","started":"2026-01-01T00:00:00Z"}\n' "$1" "$2"
}
result_line() { # bench median
	printf '{"type":"result","bench":"%s","params":{},"metric":"m","samples":[%s],"median":%s,"min":%s,"max":%s,"status":"ok"}\n' \
		"$1" "$2" "$2" "$2" "$2"
}
end_line() { echo '{"type":"end","finished":"f","status":"complete"}'; }
sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }

# 3: a median of 1.7e308 on a chart: the axis is clipped, the guide small.
timeout 120 "$PG" report "$C/huge-values.jsonl" --format html -o "$T/huge.html" 2>/dev/null ||
	fail "3: report of 1.7e308 did not end or failed"
[ "$(wc -c <"$T/huge.html")" -lt 200000 ] || fail "3: the html of 1.7e308 is $(wc -c <"$T/huge.html") bytes"

# 4: markup rendered by docutils (where it is installed) stays text.
"$PG" report "$C/markup.jsonl" --format rst -o "$T/m.rst" 2>/dev/null || fail "4: report --format rst failed"
if python3 -c 'import docutils' 2>/dev/null; then
	python3 - "$T/m.rst" <<'PY' || fail "4: the rst renders markup from the results"
import re, sys, docutils.core
html = docutils.core.publish_string(open(sys.argv[1]).read(), writer_name="html",
                                    settings_overrides={"report_level": 5}).decode()
assert "<script" not in html, "a script"
assert not re.search(r'href="javascript', html), "a javascript: link"
PY
fi

# 6: a schema version below 1: one line, exit 2, for every command.
"$PG" import --db "$T/v.db" "$C/seed-j7200-cut.jsonl" >/dev/null || fail "import failed"
sql "$T/v.db" "UPDATE perfguide_schema SET version = -3"
expect_usage_error "6: runs on schema -3" runs --db "$T/v.db"
grep -q 'schema version -3 is not one perfguide writes' "$T/err" || fail "6: $(cat "$T/err")"
expect_usage_error "6: report on schema -3" report --db "$T/v.db"
expect_usage_error "6: import into schema -3" import --db "$T/v.db" "$C/mem-bw-rd.jsonl"
# A newer store: read by runs and report, not written by import.
sql "$T/v.db" "UPDATE perfguide_schema SET version = 9"
"$PG" runs --db "$T/v.db" | grep -q j7200 || fail "newer store: runs does not read it"
"$PG" report --db "$T/v.db" >"$T/newer.md" 2>/dev/null && grep -q '^## ' "$T/newer.md" || fail "newer store: report"
expect_usage_error "newer store: import" import --db "$T/v.db" "$C/mem-bw-rd.jsonl"
grep -q 'knows schema 9' "$T/err" || fail "newer store: import says no version: $(cat "$T/err")"

# 7: ten imports at once into a new store: all land.
i=0
while [ $i -lt 10 ]; do
	{ run_line "p$i" "b$i"; result_line x.y $((i + 1)); end_line; } >"$T/p$i.jsonl"
	i=$((i + 1))
done
i=0
while [ $i -lt 10 ]; do
	( "$PG" import --db "$T/par.db" "$T/p$i.jsonl" >/dev/null 2>"$T/p$i.err"; echo $? >"$T/p$i.rc" ) &
	i=$((i + 1))
done
wait
[ "$(cat "$T"/p*.rc | sort -u)" = 0 ] || fail "7: parallel imports failed: $(cat "$T"/p*.err)"
[ "$("$PG" runs --db "$T/par.db" --json | grep -c '"id"')" -eq 10 ] || fail "7: not every import landed"

# 8: results to a device or a FIFO: one line, exit 2; a full disk: never
# "wrote results", the file said incomplete, exit 1.
# a character device of the test's own where it may make one, else the
# machine's /dev/full only when it is one (issue 26, defect 13)
dev=/dev/full
[ "$(id -u)" -ne 0 ] || ! mknod "$T/full" c 1 7 2>/dev/null || dev="$T/full"
if [ -c "$dev" ]; then
	expect_usage_error "8: --out $dev" run mem.bw.rd -p size=4k $FAST --out "$dev" --db "$T/r.db"
	grep -q 'not a regular file' "$T/err" || fail "8: $(cat "$T/err")"
else
	echo "note: 8: no character device to write to here; the FIFO below is checked" >&2
fi
mkfifo "$T/fifo"
set +e
timeout 60 "$PG" run mem.bw.rd -p size=4k $FAST --out "$T/fifo" --db "$T/r.db" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'not a regular file' "$T/err" || fail "8: --out FIFO: exit $rc $(cat "$T/err")"
set +e
sh -c "trap '' XFSZ; ulimit -f 4; exec \"\$0\" run mem.bw.rd -p size=4k,8k $FAST --out \"\$1\" --no-db" \
	"$PG" "$T/full.jsonl" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "8: a full file: exit $rc: $(cat "$T/err")"
grep -q 'incomplete: writing failed' "$T/err" || fail "8: a full file is not said incomplete: $(cat "$T/err")"
grep -q 'wrote results' "$T/err" && fail "8: 'wrote results' after a failed write"

# 9: a file of 12000 runs with a 40 kB stack (the import kept an int per run
# on the stack); more records than the limit: one line.
python3 - "$T/many.jsonl" "$T/toomany.jsonl" <<'PY'
import sys
run = '{"type":"run","schema":"perfguide/1","id":"r%d","board":"b"}\n'
open(sys.argv[1], "w").write("".join(run % i for i in range(12000)))
open(sys.argv[2], "w").write("".join(run % i for i in range(100001)))
PY
sh -c 'ulimit -s 40; exec "$0" import --db "$1" "$2"' "$PG" "$T/many.db" "$T/many.jsonl" >/dev/null ||
	fail "9: import of 12000 runs with a small stack failed"
expect_usage_error "9: over the record limit" import --db "$T/many.db" "$T/toomany.jsonl"
grep -q 'more than 100000 records' "$T/err" || fail "9: $(cat "$T/err")"

# 10: an id over 159 bytes refused at import with the limit; a store that
# holds one anyway (written by something else) still gives its report.
long=$(python3 -c 'print("i" * 160)')
{ run_line "$long" b; end_line; } >"$T/long.jsonl"
expect_usage_error "10: a long id" import --db "$T/l.db" "$T/long.jsonl"
grep -q 'longer than 159 bytes' "$T/err" || fail "10: $(cat "$T/err")"
"$PG" import --db "$T/l.db" "$C/seed-j7200-cut.jsonl" >/dev/null
sql "$T/l.db" "INSERT INTO runs(id, board) VALUES ('$long$long', 'x')"
"$PG" report --db "$T/l.db" >/dev/null 2>"$T/err" || fail "10: report fails for the whole store: $(cat "$T/err")"

# 11: report -o does not write through a link planted at FILE.tmp.
echo precious >"$T/victim"
ln -s "$T/victim" "$T/g.md.tmp"
(umask 022; "$PG" report "$C/mem-bw-rd.jsonl" -o "$T/g.md" 2>/dev/null) || fail "11: report -o failed"
[ "$(cat "$T/victim")" = precious ] || fail "11: report -o wrote through a planted link"
[ "$(stat -c %a "$T/g.md")" = 644 ] || fail "11: the guide's mode is $(stat -c %a "$T/g.md")"
[ -z "$(ls "$T" | grep '^g\.md\.')" ] || [ "$(ls "$T" | grep '^g\.md\.')" = g.md.tmp ] || fail "11: a temporary left"

# 12: control characters never reach the terminal raw; NUL refused.
printf '{"type":"run","schema":"perfguide/1","id":"x\\u001b]0;pwned\\u0007","board":"b"}\n' >"$T/esc.jsonl"
expect_usage_error "12: an id with ESC" import --db "$T/e.db" "$T/esc.jsonl"
grep -q "$ESC" "$T/err" && fail "12: ESC on the terminal"
"$PG" import --db "$T/e.db" "$C/seed-j7200-cut.jsonl" >/dev/null
sql "$T/e.db" "UPDATE runs SET board = 'b' || char(27) || '[2J' || char(10) || 'x'"
"$PG" runs --db "$T/e.db" >"$T/out" || fail "12: runs failed"
grep -q "$ESC" "$T/out" && fail "12: runs printed ESC"
grep -q 'b\\x1b\[2J\\x0ax' "$T/out" || fail "12: runs: $(cat "$T/out")"
"$PG" report --db "$T/e.db" >"$T/out" 2>&1 || fail "12: report failed"
grep -q "$ESC" "$T/out" && fail "12: report printed ESC"
{ run_line r b; printf '{"type":"end"}\000{"x":1}\n'; } >"$T/nul.jsonl"
expect_usage_error "12: a NUL byte" import --db "$T/e.db" "$T/nul.jsonl"
grep -q 'line 2: a NUL byte' "$T/err" || fail "12: $(cat "$T/err")"
echo ok
