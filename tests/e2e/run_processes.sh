#!/bin/sh
# SPDX-License-Identifier: MIT
# run --processes: a CPU result measured in several fresh processes records
# each one's median and sample count (the samples theirs in order), one
# process records none, a process killed by a signal is an error naming it
# (PERFGUIDE_TEST_KILL_PROCESS, a test-only variable), and a result whose
# processes disagree is marked bimodal in the guide and in compare.
. "$(dirname "$0")/lib.sh"
need_json
need_python

"$PG" run --help | grep -q -- '--processes N' || fail "run --help does not list --processes"
expect_usage_error "--processes 0" run cpu.dhrystone --processes 0
expect_usage_error "--processes 65" run cpu.dhrystone --processes 65

"$PG" run cpu.dhrystone --runs 4 --processes 2 --min-time 0.01 --no-db --out "$T/p.jsonl" >"$T/out" 2>&1 ||
	fail "run --processes 2: $(cat "$T/out")"
python3 - "$T/p.jsonl" <<'PY' || fail "--processes 2: $(cat "$T/p.jsonl")"
import json, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["config"]["processes"] == 2, recs[0]["config"]
ok = [r for r in recs if r["type"] == "result" and r["status"] == "ok"]
assert ok
for r in ok:
    p = r["processes"]
    assert [x["n"] for x in p] == [2, 2], p
    assert len(r["samples"]) == 4 and len(r["sample_s"]) == 4, r
    # each process's median is the median of its own samples, in order
    for k, x in enumerate(p):
        mine = r["samples"][2 * k:2 * k + 2]
        assert abs(x["median"] - statistics.median(mine)) <= 1e-9 * abs(x["median"]), (x, mine)
    assert abs(r["median"] - statistics.median(r["samples"])) <= 1e-9 * abs(r["median"]), r
    assert isinstance(r["processes_bimodal"], bool), r
    assert r["processes_bimodal"] == ("bimodal_why" in r), r
    assert r["env"]["samples"] == 4, r["env"]
PY

"$PG" run cpu.dhrystone --runs 3 --processes 1 --min-time 0.01 --no-db --out "$T/one.jsonl" >"$T/out" 2>&1 ||
	fail "run --processes 1: $(cat "$T/out")"
python3 - "$T/one.jsonl" <<'PY' || fail "--processes 1: $(cat "$T/one.jsonl")"
import json, sys
from pgcheck import results
ok = [r for r in results(sys.argv[1], end=None) if r["status"] == "ok"]
assert ok
for r in ok:
    assert "processes" not in r and "processes_bimodal" not in r, r
    assert len(r["samples"]) == 3, r
PY

# a process that dies: an error result naming the signal, never a hang
set +e
PERFGUIDE_TEST_KILL_PROCESS=2 "$PG" run cpu.dhrystone --runs 4 --min-time 0.01 --no-db --out "$T/k.jsonl" \
	>"$T/out" 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || fail "a killed process: exit $rc, expected 1: $(cat "$T/out")"
python3 - "$T/k.jsonl" <<'PY' || fail "a killed process: $(cat "$T/k.jsonl")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
res = [r for r in recs if r["type"] == "result"]
assert len(res) == 1 and res[0]["status"] == "error", res
assert "process 2 of 2 was killed by signal 9" in res[0]["reason"], res[0]["reason"]
assert recs[-1]["type"] == "end" and recs[-1]["status"] == "complete", recs[-1]
PY
grep -q 'killed by signal 9' "$T/out" || fail "the summary does not name the signal: $(cat "$T/out")"

# a SIGTERM to perfguide alone (a CI's timeout) stops the process that is
# measuring too: the run ends interrupted with no process left, where
# before the parent waited for the child's whole result (here, 100000
# samples: 17 minutes)
"$PG" run cpu.dhrystone --runs 100000 --min-time 0.01 --wait-quiet 0 --no-db --out "$T/t.jsonl" >"$T/out" 2>&1 &
pid=$!
i=0
until [ "$(pgrep -P $pid | wc -l)" -ge 1 ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
[ $i -lt 300 ] || fail "no measuring process started: $(cat "$T/out")"
kid=$(pgrep -P $pid | head -n 1)
kill -TERM $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $pid 2>/dev/null && { kill -KILL $pid $kid; fail "SIGTERM did not stop the run within a minute"; }
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || fail "SIGTERM: exit $rc, expected 130: $(cat "$T/out")"
kill -0 "$kid" 2>/dev/null && { kill -KILL "$kid"; fail "the measuring process outlived perfguide"; }
grep -q 'interrupted' "$T/out" || fail "SIGTERM: the summary does not say interrupted: $(cat "$T/out")"

# processes that disagree: the guide's dagger with their medians, compare
# says so
# (BASE's disturbed and bimodal marks taken off: tests run beside each
# other, and the machine may have made them)
python3 - "$T/p.jsonl" "$T/a.jsonl" "$T/b.jsonl" <<'PY' || fail "making a bimodal results file"
import json, sys
base, out = open(sys.argv[2], "w"), open(sys.argv[3], "w")
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "result" and r["status"] == "ok":
        r["disturbed"] = False
        r.pop("disturbed_why", None)
        r["processes_bimodal"] = False
        r.pop("bimodal_why", None)
    base.write(json.dumps(r) + "\n")
    if r["type"] == "run":
        r["id"] += "-b"
    if r["type"] == "result" and r["status"] == "ok" and r["metric"] == "dhrystones":
        lo = r["samples"][0]
        r["samples"] = [lo, lo * 1.001, lo * 1.6, lo * 1.6 * 1.001]
        r["processes"] = [{"median": lo * 1.0005, "n": 2}, {"median": lo * 1.6008, "n": 2}]
        r["processes_bimodal"] = True
        r["bimodal_why"] = "its 2 processes disagree: process 1 measured 61.2 and process 2 98.7"
    out.write(json.dumps(r) + "\n")
PY
"$PG" report "$T/b.jsonl" --format md -o "$T/guide.md" >"$T/out" 2>&1 || [ $? -eq 3 ] ||
	fail "report: $(cat "$T/out")"
grep -q '†' "$T/guide.md" || fail "no dagger in the guide: $(cat "$T/guide.md")"
grep -q 'bimodal: its 2 processes disagree: process 1 measured 61.2 and process 2 98.7' "$T/guide.md" ||
	fail "the guide's note does not give the processes' medians: $(cat "$T/guide.md")"
grep -q 'measure it in more processes' "$T/guide.md" || fail "no advice for bimodal figures: $(cat "$T/guide.md")"
set +e
"$PG" compare "$T/a.jsonl" "$T/b.jsonl" --force >"$T/cmp" 2>&1
set -e
grep -q 'bimodal in NEW: its 2 processes disagree' "$T/cmp" || fail "compare does not say bimodal: $(cat "$T/cmp")"
"$PG" compare "$T/a.jsonl" "$T/b.jsonl" --force --format json >"$T/cmp.json" 2>/dev/null || true
python3 - "$T/cmp.json" <<'PY' || fail "compare --format json: $(cat "$T/cmp.json")"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
row = [r for r in rows if r["metric"] == "dhrystones"][0]
assert row["bimodal"] == "NEW" and row["base_replicates"] == 2 and row["new_replicates"] == 2, row
assert row["test"] == "runs", row
PY
exit 0
