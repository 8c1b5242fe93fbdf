# SPDX-License-Identifier: MIT
# What a run prints: a table of results as they finish, clean text when not
# on a terminal, JSON Lines on stdout with --json (the table moves to stderr),
# and a skipped benchmark that says why.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run mem.bw.rd mem.lat.rd -p size=64k $FAST >"$T/out" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
grep -q '^mem.bw.rd .*bandwidth .*MB/s.*(min .*, max .*).*cv' "$T/out" || fail "no table line: $(cat "$T/out")"
grep -q '^mem.lat.rd .*latency .*ns' "$T/out" || fail "no latency line"
if LC_ALL=C grep -q "$(printf '[\r\033]')" "$T/out" "$T/err"; then
	fail "control characters in output sent to a file"
fi
# The default results file, under perfguide-results/, is named on stderr.
f=$(sed -n 's/^perfguide: wrote results in //p' "$T/err")
[ -n "$f" ] && [ -s "$f" ] || fail "results file not reported or empty: $(cat "$T/err")"
case "$f" in perfguide-results/*.jsonl) ;; *) fail "default results path is $f" ;; esac

"$PG" run mem.bw.rd -p size=64k $FAST --json --out "$T/j.jsonl" >"$T/json" 2>"$T/err2" \
	|| fail "--json run failed"
python3 - "$T/json" "$T/j.jsonl" <<'PY'
import json, sys
out = [json.loads(l) for l in open(sys.argv[1])]
file = [json.loads(l) for l in open(sys.argv[2])]
if [r["type"] for r in out] != ["run", "result", "end"]:
    sys.exit("FAIL: stdout is not the run's records: %r" % [r["type"] for r in out])
if out != file:
    sys.exit("FAIL: stdout and the results file differ")
PY
grep -q '^mem.bw.rd' "$T/err2" || fail "with --json the table belongs on stderr"

# --cpu pins the copies and is recorded in the run's config.
"$PG" run mem.bw.rd -p size=64k -p threads=2 --cpu 0 $FAST --out "$T/c.jsonl" >/dev/null 2>&1 || fail "--cpu run failed"
python3 - "$T/c.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["config"]["cpus"] == [0], recs[0]["config"]
assert recs[1]["status"] == "ok" and recs[1]["copies"] == 2, recs[1]
PY

# Huge pages are there or not; either way the result says so honestly.
"$PG" run mem.lat.rand -p size=4m -p pages=huge $FAST --out "$T/h.jsonl" >"$T/h" 2>&1 || fail "huge run failed"
python3 - "$T/h.jsonl" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][1]
if r["status"] == "skipped":
    assert "huge" in r["reason"], r
elif r["status"] == "ok":
    assert "huge pages" in r["note"], r
else:
    sys.exit("FAIL: %r" % r)
PY
echo "ok"
