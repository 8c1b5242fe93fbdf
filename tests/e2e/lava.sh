#!/bin/sh
# LAVA: lava/perfguide.yaml validates against LAVA's own test definition
# schema (lava_common), and what `run --lava` prints is parsed by the
# dispatcher's own lava-test-shell code (lava_dispatcher) into one case per
# result record: its name (bench id, parameters, metric), pass/skip/fail,
# the median as measurement with its unit, a test set per group. Then the
# same through LAVA's own lava-test-case and lava-test-set scripts on PATH,
# as inside a LAVA job, and the test definition's run step end to end.
. "$(dirname "$0")/lib.sh"
need_json
# Debian's LAVA packages are for Debian's python, not another one on PATH.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
LP="$PG_SOURCE_DIR/tests/e2e/lava_parse.py"
set +e
"$PY" "$LP" testdef "$PG_SOURCE_DIR/lava/perfguide.yaml" 2>"$T/err"
rc=$?
set -e
[ $rc -ne 77 ] || skip "$(cat "$T/err")"
[ $rc -eq 0 ] || fail "lava/perfguide.yaml does not validate: $(cat "$T/err")"
# The schema is LAVA's, and it does check: a definition without its format fails.
sed '/format: Lava-Test/d' "$PG_SOURCE_DIR/lava/perfguide.yaml" >"$T/bad.yaml"
"$PY" "$LP" testdef "$T/bad.yaml" 2>/dev/null && fail "a test definition without metadata.format validated"

# check_cases LOG RESULTS: LAVA's parse of LOG has exactly the cases the
# results file's records make, with their result, measurement, unit and set.
check_cases() {
	"$PY" "$LP" log "$1" >"$T/parsed" || fail "LAVA's parser failed on $1"
	"$PY" - "$T/parsed" "$2" <<'PY' || fail "LAVA's cases differ from the results file (parsed: $(cat "$T/parsed"))"
import json, sys
sent = [json.loads(l) for l in open(sys.argv[1])]
errors = [s for s in sent if "error" in s]
assert not errors, errors
cases = {s["case"]: s for s in sent if s.get("case") != "perfguide-run"}
recs = [json.loads(l) for l in open(sys.argv[2])]
recs = [r for r in recs if r["type"] == "result"]
expect = {
    ("mem.bw.rd", "bandwidth", 65536): "mem.bw.rd_size-64k_threads-1_bandwidth",
    ("mem.bw.rd", "bandwidth", 1048576): "mem.bw.rd_size-1m_threads-1_bandwidth",
    ("os.pipe.lat", "latency", None): "os.pipe.lat_msg-1_latency",
}
assert len(cases) == len(recs), (sorted(cases), len(recs))
status = {"ok": "pass", "skipped": "skip", "error": "fail"}
for r in recs:
    name = expect.get((r["bench"], r["metric"], r["params"].get("size")))
    if r["bench"].startswith("msg."):
        name = "msg.rpmsg.rr_remote-auto_channels-1_size-1_count-0_time-1_timeout-1000_messages"
    assert name in cases, (name, sorted(cases))
    c = cases[name]
    assert c["result"] == status[r["status"]], (c, r["status"])
    assert c["set"] == r["bench"].split(".")[0], c
    assert c["definition"] == "perfguide", c
    if r["status"] == "ok":
        assert abs(c["measurement"] - r["median"]) <= 1e-9 * abs(r["median"]), (c, r["median"])
        assert c["units"] == r["unit"], (c, r["unit"])
    else:
        assert "measurement" not in c, c
PY
}

SEL="mem.bw.rd os.pipe.lat msg.rpmsg.rr"
"$PG" run mem.bw.rd -p size=64k,1m $FAST --lava --no-db --out "$T/a.jsonl" >"$T/a.log" 2>&1 ||
	fail "run --lava failed: $(cat "$T/a.log")"
"$PG" run os.pipe.lat msg.rpmsg.rr $FAST --lava --no-db --out "$T/b.jsonl" >"$T/b.log" 2>&1 ||
	fail "run --lava failed: $(cat "$T/b.log")"
cat "$T/a.log" "$T/b.log" >"$T/ab.log"
grep -h '"type":"result"' "$T/a.jsonl" "$T/b.jsonl" | sed '1i {"type":"run"}' >"$T/ab.jsonl"
check_cases "$T/ab.log" "$T/ab.jsonl"
grep -q '^<LAVA_SIGNAL_TESTSET START mem>$' "$T/a.log" || fail "no test set for the mem group: $(cat "$T/a.log")"
[ "$(grep -c '^<LAVA_SIGNAL_TESTSET STOP>$' "$T/b.log")" -eq 2 ] || fail "test sets not closed: $(cat "$T/b.log")"
# Case names in LAVA's alphabet, and the same in the next run.
sed -n 's/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=\([^ ]*\) .*/\1/p' "$T/ab.log" >"$T/names1"
grep -qv '^[A-Za-z0-9._-]*$' "$T/names1" && fail "a case name outside [A-Za-z0-9._-]: $(cat "$T/names1")"
"$PG" run mem.bw.rd -p size=64k,1m $FAST --lava --no-db --out "$T/c.jsonl" 2>/dev/null |
	sed -n 's/^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=\([^ ]*\) .*/\1/p' >"$T/names2"
head -n 2 "$T/names1" | cmp -s - "$T/names2" || fail "case names changed between runs: $(cat "$T/names1" "$T/names2")"

# Inside a LAVA job: LAVA's own helpers on PATH (the dispatcher puts its
# interpreter line on them when it deploys them), results under LAVA_RESULT_DIR.
LTS=/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell
[ -f "$LTS/lava-test-case" ] || skip "LAVA's lava-test-case script is not installed (lava-dispatcher)"
mkdir -p "$T/bin" "$T/lrd"
for t in lava-test-case lava-test-set lava-test-reference; do
	{ echo '#!/bin/sh'; cat "$LTS/$t"; } >"$T/bin/$t"
	chmod +x "$T/bin/$t"
done
cp "$LTS/lava-common-functions" "$T/bin/"
export LAVA_RESULT_DIR="$T/lrd"
PATH="$T/bin:$PATH" "$PG" run $SEL -p threads=1 $FAST --lava --no-db --out "$T/d.jsonl" >"$T/d.log" 2>&1 ||
	fail "run --lava with LAVA's helpers failed: $(cat "$T/d.log")"
PATH="$T/bin:$PATH" "$PG" run mem.bw.rd -p size=64k,1m $FAST --lava --no-db --out "$T/e.jsonl" >>"$T/d.log" 2>&1
grep -h '"type":"result"' "$T/d.jsonl" "$T/e.jsonl" | grep -v 'size":8388608' | sed '1i {"type":"run"}' >"$T/de.jsonl"
grep -v 'size-8m' "$T/d.log" >"$T/de.log"
check_cases "$T/de.log" "$T/de.jsonl"
m="$T/lrd/results/os.pipe.lat_msg-1_latency"
[ "$(cat "$m/result")" = pass ] && [ "$(cat "$m/units")" = us ] && [ -s "$m/measurement" ] ||
	fail "lava-test-case did not record os.pipe.lat: $(ls -R "$T/lrd")"

# The test definition's run steps, as LAVA runs them: a script of the
# parameters as plain (not exported) shell variables, the definition's
# defaults overridden by the job's, then the steps.
cd "$T"
mkdir -p lava
cp "$PG_SOURCE_DIR/lava/perfguide-run.sh" lava/
"$PY" - "$PG_SOURCE_DIR/lava/perfguide.yaml" "$PG" >"$T/run.sh" <<'PY' || fail "cannot read the test definition"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
params = dict(d["params"])
params.update({"PERFGUIDE": sys.argv[2], "GROUPS": "mem.bw.rd", "EXTRA": "-p size=64k --runs 2 --min-time 0.01",
               "RELEASE": "09.02", "BOARD": "lava-board"})
for k, v in params.items():
    print("%s='%s'" % (k, v))
for step in d["run"]["steps"]:
    print(step)
PY
PATH="$T/bin:$PATH" sh "$T/run.sh" >"$T/step.log" 2>&1 || fail "the run steps failed: $(cat "$T/step.log")"
grep -q 'mem.bw.rd .*size=64k' "$T/step.log" && ! grep -q 'size=8m' "$T/step.log" ||
	fail "the parameters did not reach perfguide: $(head -c 600 "$T/step.log")"
"$PY" "$LP" log "$T/step.log" >"$T/parsed"
grep -q '"case": "perfguide-run", .*"result": "pass"' "$T/parsed" || fail "no perfguide-run case: $(cat "$T/parsed")"
grep -q '"case": "mem.bw.rd_size-64k_threads-1_bandwidth"' "$T/parsed" || fail "no case from the run step: $(cat "$T/parsed")"
sed -n '/^--- perfguide results file/,/^--- end of perfguide results file/p' "$T/step.log" | sed '1d;$d' >"$T/art.jsonl"
grep -q '"labels":{"release":"09.02"}' "$T/art.jsonl" || fail "the results file is not in the log, or without its release label"
"$PG" import --db "$T/art.db" "$T/art.jsonl" >/dev/null || fail "the results file from the log does not import"
echo ok
