# SPDX-License-Identifier: MIT
# The noise-aware runner end to end: without --runs each result samples
# until the median's 95% interval is narrow or its time is up, and says
# which; --budget shares a time among the results; --runs stays exact.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run mem.bw.rd mem.bw.wr mem.lat.rd -p size=64k --suite quick --budget 1.5 --no-db \
	--out "$T/b.jsonl" >"$T/out" 2>"$T/err.b" || fail "budget run failed: $(cat "$T/err.b")"
grep -Eq '^perfguide: [0-3] of 3 results reached their interval target' "$T/err.b" ||
	fail "no interval summary: $(cat "$T/err.b")"
"$PG" run mem.bw.rd -p size=64k --runs 4 --min-time 0.01 --no-db --out "$T/r.jsonl" \
	>/dev/null 2>"$T/err" || fail "--runs run failed: $(cat "$T/err")"
# The standard suite's default budget, and none when asked.
"$PG" run mem.bw.rd -p size=64k --suite standard --min-time 0.01 --no-db --out "$T/s.jsonl" \
	>/dev/null 2>"$T/err" || fail "standard run failed: $(cat "$T/err")"
"$PG" run mem.bw.rd -p size=64k --suite standard --budget none --min-time 0.01 --no-db \
	--out "$T/n.jsonl" >/dev/null 2>"$T/err" || fail "--budget none run failed: $(cat "$T/err")"

grep -Eq '^perfguide: the run took [0-9.ms]+(,| of its) .*1.5s budget$' "$T/err.b" ||
	fail "no time against the budget in the summary: $(cat "$T/err.b")"
grep -q 'cannot be met' "$T/err.b" && fail "1.5 s holds the floors of 3 results: $(cat "$T/err.b")"

# What no share can shorten is known before the run: --dry-run prints it
# (quick: samples of 0.05 s, a calibration step and 3 samples each), runs
# nothing and writes nothing.
"$PG" run mem.bw.rd -p size=64k,1m --suite quick --budget 1 --dry-run --no-db --out "$T/d.jsonl" \
	>"$T/dry" 2>"$T/err" || fail "--dry-run failed: $(cat "$T/err")"
[ ! -e "$T/d.jsonl" ] || fail "--dry-run wrote a results file"
[ "$(grep -c '^mem.bw.rd .*size=.* floor 0.2s$' "$T/dry")" = 2 ] || fail "no floor per result: $(cat "$T/dry")"
grep -qx '2 results, floors 0.4s of the 1.0s budget' "$T/dry" || fail "no sum of the floors: $(cat "$T/dry")"
# Floors beyond the budget: said before the run, which goes on at the floors.
"$PG" run mem.bw.rd -p size=64k,1m --suite quick --budget 0.1 --no-db --out "$T/f.jsonl" \
	>/dev/null 2>"$T/err" || fail "a run past its budget failed: $(cat "$T/err")"
grep -qx 'perfguide: the 0.1s budget cannot be met: .* takes 0.4s, 0.3s over; most of it mem.bw.rd (2 results, 0.4s); running anyway, each result at its floor' \
	"$T/err" || fail "no warning of the floors: $(cat "$T/err")"
grep -Eq '^perfguide: the run took [0-9.]+s, [0-9.]+s over its 0.1s budget$' "$T/err" ||
	fail "the summary does not say the run went over: $(cat "$T/err")"
[ "$(grep -c '"type":"result"' "$T/f.jsonl")" = 2 ] || fail "the run past its budget did not run everything"

python3 - "$T/b.jsonl" "$T/r.jsonl" "$T/s.jsonl" "$T/n.jsonl" <<'PY'
import json, sys
from pgcheck import check, records

recs = records(sys.argv[1])
cfg = recs[0]["config"]
check(cfg["runs"] == 0 and cfg["budget_s"] == 1.5 and cfg["min_runs"] == 6 and cfg["ci_target"] == 0.02,
      "the run records the runner's settings: %r" % cfg)
res = [r for r in recs if r["type"] == "result"]
check(len(res) == 3 and all(r["status"] == "ok" for r in res), "three results")
for r in res:
    n = len(r["samples"])
    check(r["stop"] in ("interval", "max_runs", "time", "budget"), "stop: %r" % r["stop"])
    check(n >= 3, "at least three samples, got %d" % n)
    check(0 < r["cap_s"] <= 1, "each result's time is within the budget and the cap: %r" % r["cap_s"])
    if r["stop"] == "interval":
        check(n >= 6 and r["ci_level"] >= 0.95 and r["ci_rel"] <= 0.02, "interval reached: %r" % r)
    elif r["stop"] == "max_runs":
        # the quick suite's 10 samples, or the most processes a result may
        # take (run --max-processes) without their samples reaching it
        check(n == 10 or len(r.get("processes", [])) == cfg.get("max_processes"),
              "the quick suite's 10 samples, or all its processes: %r" % r)
    check(r["ci_lo"] <= r["median"] <= r["ci_hi"], "the median is inside its interval")
    s = sorted(r["samples"])
    check(r["ci_lo"] in s and r["ci_hi"] in s, "the interval's ends are samples")
    if n < 6:
        check(r["ci_level"] < 0.95 and r["ci_lo"] == s[0] and r["ci_hi"] == s[-1],
              "fewer than 6 samples: the range, below 95%")
# each result's time is its share: what was left over the results left
check(abs(res[0]["cap_s"] - 0.5) < 0.02, "the first result's share is a third of 1.5 s: %r" % res[0]["cap_s"])

recs = records(sys.argv[2])
r = [x for x in recs if x["type"] == "result"][0]
check(len(r["samples"]) == 4 and r["stop"] == "runs" and "cap_s" not in r, "--runs 4 is exactly 4: %r" % r["stop"])
check(recs[0]["config"]["runs"] == 4 and "min_runs" not in recs[0]["config"], "a fixed run's config")
cfg = json.loads(open(sys.argv[3]).readline())["config"]
check(cfg["budget_s"] == 780 and cfg["max_time"] == 3, "standard: 13 minutes at most: %r" % cfg)
cfg = json.loads(open(sys.argv[4]).readline())["config"]
check("budget_s" not in cfg, "--budget none: no budget: %r" % cfg)
print("ok")
PY
# The table gives the interval, or why the samples stopped short of it.
grep -q '^mem.bw.rd .*cv .*[0-9]%' "$T/out" || fail "no table line: $(cat "$T/out")"
grep -Eq '\+/-[0-9.]+%|samples, (time|budget|max_runs)' "$T/out" || fail "no interval in the table: $(cat "$T/out")"
