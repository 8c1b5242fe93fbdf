# SPDX-License-Identifier: MIT
# Ctrl-C ends a run with an "interrupted" end record and keeps every finished
# result; a second Ctrl-C exits at once. SIGTERM behaves like the first.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

wait_results() {	# file count: wait until the file holds count results
	i=0
	while [ "$(cat "$1" 2>/dev/null | grep -c '"type":"result"')" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "no results after 60 s"
		sleep 0.1
	done
}

valid_lines() {
	python3 - "$1" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1]), 1):
    if not line.endswith("\n"):
        sys.exit("FAIL: line %d is cut short" % n)
    json.loads(line)
PY
}

for sig in INT TERM; do
	"$PG" run 'mem.bw.*' --suite standard --runs 3 --min-time 0.2 --out "$T/$sig.jsonl" \
		>"$T/$sig.out" 2>"$T/$sig.err" &
	pid=$!
	wait_results "$T/$sig.jsonl" 2
	kill -"$sig" $pid
	set +e
	wait $pid
	rc=$?
	set -e
	[ $rc -eq 130 ] || fail "SIG$sig: exit $rc, expected 130"
	valid_lines "$T/$sig.jsonl" || fail "SIG$sig: a line is not JSON"
	tail -n 1 "$T/$sig.jsonl" | grep -q '"type":"end".*"status":"interrupted"' \
		|| fail "SIG$sig: last record is not an interrupted end: $(tail -n 1 "$T/$sig.jsonl")"
	n=$(grep -c '"type":"result"' "$T/$sig.jsonl")
	[ "$n" -ge 2 ] || fail "SIG$sig: finished results were lost"
	[ "$n" -lt 45 ] || fail "SIG$sig: the run did not stop"
	grep -q 'interrupted' "$T/$sig.err" || fail "SIG$sig: no word of the interruption"
	kill -0 $pid 2>/dev/null && fail "SIG$sig: perfguide still running"
done

# Twice: out at once, finished results still whole.
"$PG" run 'mem.bw.*' --suite standard --runs 3 --min-time 0.5 --out "$T/twice.jsonl" \
	>"$T/twice.out" 2>"$T/twice.err" &
pid=$!
wait_results "$T/twice.jsonl" 1
kill -INT $pid
sleep 0.05
# The first Ctrl-C may already have ended the run at a sample boundary.
kill -INT $pid 2>/dev/null || true
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || fail "second Ctrl-C: exit $rc, expected 130"
valid_lines "$T/twice.jsonl" || fail "second Ctrl-C: a line is not JSON"
grep -q '"type":"result"' "$T/twice.jsonl" || fail "second Ctrl-C lost finished results"
echo "ok"
