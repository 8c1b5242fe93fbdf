#!/bin/sh
# SPDX-License-Identifier: MIT
# LAVA: lava/perfguide.yaml validates against LAVA's own test definition
# schema (lava_common), and what `run --lava` prints is parsed by the
# dispatcher's own lava-test-shell code (lava_dispatcher) into one case per
# result record: its name (bench id, the parameters not at their defaults,
# the metric unless the first), pass/unknown (noisy)/skip/fail, the median
# as measurement with its unit, a test set per group. Then the same through
# LAVA's own lava-test-case and lava-test-set scripts on PATH, as inside a
# LAVA job, and the test definition's run step end to end under dash and
# bash, its job log (LAVA's YAML) read back by import --from-lava-log.
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
    ("mem.bw.rd", "bandwidth", 65536): "mem.bw.rd_size-64k",
    ("mem.bw.rd", "bandwidth", 1048576): "mem.bw.rd_size-1m",
    ("os.pipe.lat", "latency", None): "os.pipe.lat",
    ("msg.rpmsg.rr", "messages", 1): "msg.rpmsg.rr",
}
assert len(cases) == len(recs), (sorted(cases), len(recs))
status = {"ok": "pass", "skipped": "skip", "error": "fail"}
for r in recs:
    name = expect.get((r["bench"], r["metric"], r["params"].get("size")))
    assert name in cases, (name, sorted(cases))
    c = cases[name]
    # a noisy or disturbed figure is measured but not a clean pass
    want = "unknown" if r["status"] == "ok" and (r.get("noisy") or r.get("disturbed")) else status[r["status"]]
    assert c["result"] == want, (c, r["status"], r.get("noisy"))
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
grep -v '=mem.bw.rd ' "$T/d.log" >"$T/de.log"
check_cases "$T/de.log" "$T/de.jsonl"
m="$T/lrd/results/os.pipe.lat"
grep -qx 'pass\|unknown' "$m/result" && [ "$(cat "$m/units")" = us ] && [ -s "$m/measurement" ] ||
	fail "lava-test-case did not record os.pipe.lat: $(ls -R "$T/lrd")"

# The test definition's run steps, as LAVA runs them: a script of the
# parameters as plain (not exported) shell variables, the definition's
# defaults overridden by the job's, then the steps; under dash (Debian's
# /bin/sh, OE's) and under bash (lava-dispatcher's shell on Debian, Fedora,
# CentOS, Arch: GROUPS is its own there, which is why the selectors are
# BENCHMARKS).
cd "$T"
mkdir -p lava
cp "$PG_SOURCE_DIR/lava/perfguide-run.sh" lava/
# run_script FILE NAME=VALUE...: the run script LAVA would write
run_script() {
	f=$1
	shift
	"$PY" - "$PG_SOURCE_DIR/lava/perfguide.yaml" "$PG" "$@" >"$f" <<'PY' || fail "cannot read the test definition"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
params = dict(d["params"])
params.update({"PERFGUIDE": sys.argv[2], "EXTRA": "-p size=64k --runs 2 --min-time 0.01",
               "RELEASE": "09.02", "BOARD": "lava-board"})
params.update(a.split("=", 1) for a in sys.argv[3:])
for k, v in params.items():
    print("%s='%s'" % (k, v))
for step in d["run"]["steps"]:
    print(step)
PY
}
run_script "$T/run.sh" "BENCHMARKS=mem.bw.rd os.pipe.lat"
for shell in sh bash; do
	command -v $shell >/dev/null 2>&1 || { echo "no $shell: the run step is not tried with it"; continue; }
	rm -rf "$T/perfguide-results"
	PATH="$T/bin:$PATH" $shell "$T/run.sh" >"$T/step-$shell.log" 2>&1 ||
		fail "the run steps failed under $shell: $(cat "$T/step-$shell.log")"
	grep -q 'mem.bw.rd .*size=64k' "$T/step-$shell.log" && grep -q '^os.pipe.lat ' "$T/step-$shell.log" &&
		! grep -q 'size=8m\|^os.ctx' "$T/step-$shell.log" ||
		fail "under $shell the selectors did not reach perfguide: $(head -c 800 "$T/step-$shell.log")"
	"$PY" "$LP" log "$T/step-$shell.log" >"$T/parsed"
	grep -q '"case": "perfguide-run", .*"result": "pass"' "$T/parsed" ||
		fail "$shell: no perfguide-run case: $(cat "$T/parsed")"
	grep -q '"case": "mem.bw.rd_size-64k"' "$T/parsed" || fail "$shell: no case from the run step: $(cat "$T/parsed")"
done
# An empty selector is a mistake, not "all": refused, under both shells.
run_script "$T/empty.sh" "BENCHMARKS="
for shell in sh bash; do
	command -v $shell >/dev/null 2>&1 || continue
	set +e
	PATH="$T/bin:$PATH" $shell "$T/empty.sh" >"$T/empty.log" 2>&1
	rc=$?
	set -e
	[ $rc -ne 0 ] && grep -q 'BENCHMARKS is empty' "$T/empty.log" && ! grep -q '^mem\.' "$T/empty.log" ||
		fail "$shell: an empty BENCHMARKS was not refused (exit $rc): $(head -c 600 "$T/empty.log")"
	"$PY" "$LP" log "$T/empty.log" | grep -q '"case": "perfguide-run", .*"result": "fail"' ||
		fail "$shell: an empty BENCHMARKS did not fail the perfguide-run case"
done

# The job log LAVA keeps of that console (its YAML, the board's lines among
# the dispatcher's own), and the results file taken back out of it.
"$PY" "$LP" joblog "$T/step-sh.log" "$T/output.yaml" || fail "cannot make LAVA's job log"
grep -q '"lvl": "target", "msg": "perfguide-results-begin ' "$T/output.yaml" ||
	fail "the results file is not in the job log: $(grep -c . "$T/output.yaml") lines"
! grep -q '"msg": "{\\"type' "$T/output.yaml" || fail "a raw results record is in the job log"
"$PG" import --db "$T/art.db" --from-lava-log "$T/output.yaml" >"$T/imp" 2>&1 ||
	fail "import --from-lava-log of LAVA's job log failed: $(cat "$T/imp")"
grep -q '(lava-.*\.jsonl): run .*(lava-board, 2 results) imported' "$T/imp" || fail "import said: $(cat "$T/imp")"
"$PG" runs --db "$T/art.db" --json | grep -q '"release": "09.02"' || fail "the imported run lost its release label"
# The console as text works too, and a log cut inside the file is refused.
"$PG" import --db "$T/art2.db" --from-lava-log "$T/step-bash.log" >/dev/null 2>&1 ||
	fail "import --from-lava-log of the console failed"
sed '/perfguide-results-end/d' "$T/step-sh.log" | head -n -3 >"$T/cut.log"
expect_usage_error "a log cut inside the results file" import --db "$T/art3.db" --from-lava-log "$T/cut.log"
[ ! -e "$T/art3.db" ] || ! "$PG" runs --db "$T/art3.db" | grep -q lava-board || fail "a cut log imported something"
echo ok
