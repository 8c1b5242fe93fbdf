# SPDX-License-Identifier: MIT
# The CPU group's composites: cpu.scaling runs a benchmark with one copy and
# with N and reports what they say; cpu.nbench.index combines the ten
# BYTEmark workloads' medians against the K6/233 baseline. Nothing timed is
# asserted: the figures must follow from the figures in the notes, and so
# must the interval each composite states for its one figure (the standard
# errors of its parts' medians' logs, from their samples).
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run cpu.scaling -p bench=cpu.nbench.idea -p copies=2 $FAST --out "$T/s.jsonl" >"$T/table" 2>"$T/err" \
	|| fail "scaling run failed: $(cat "$T/err")"
"$PG" run cpu.scaling -p copies=1 $FAST --out "$T/one.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "scaling run with one copy failed: $(cat "$T/err")"
expect_usage_error "scaling a benchmark that takes no copies" run cpu.scaling -p bench=os.ctx
"$PG" run cpu.nbench.index $FAST --out "$T/i.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "index run failed: $(cat "$T/err")"

# the console shows the stated interval, and no cv of one sample
line=$(grep '^cpu.scaling .*efficiency' "$T/table") || fail "no scaling line: $(cat "$T/table")"
case "$line" in
*"+/-"*"(from its parts)"*) ;;
*) fail "the scaling line shows no stated interval: $line" ;;
esac
case "$line" in *" cv "*) fail "one figure shows a cv: $line" ;; esac

python3 - "$T/s.jsonl" "$T/one.jsonl" "$T/i.jsonl" <<'PY'
import math, re, sys
from pgcheck import check, results

def by_metric(path):
    """The results by metric; one that is not ok by its status."""
    return {r["metric"] if r.get("status") == "ok" else r["status"]: r for r in results(path)}

s = by_metric(sys.argv[1])
eff, sp = s["efficiency"], s["speedup"]
check(eff["params"] == {"bench": "cpu.nbench.idea", "copies": 2}, "params recorded: %s" % eff["params"])
m = re.search(r"1 copy ([0-9.e+]+) .*, 2 copies ([0-9.e+]+) ", eff["note"])
check(m, "the note gives both figures: " + eff["note"])
one, two = float(m.group(1)), float(m.group(2))
check(abs(sp["median"] - two / one) <= 1e-4 * sp["median"], "speedup = N copies / one copy")
check(abs(eff["median"] - sp["median"] / 2 * 100) <= 1e-9 * eff["median"], "efficiency = speedup / N")

# the interval: 1.2533 sd / sqrt(n) of each part's log samples (the note's
# cv, rounded to 0.1%, is their sd to within a few % at these spreads),
# added in quadrature, times Student's t at 97.5% for Welch's degrees of
# freedom, which lie between the fewest samples' and the sum's
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
def t975(df):
    return T975[df - 1] if df <= len(T975) else 1.96
m = re.search(r"1 copy .*\(cv ([0-9.]+)%, ([0-9]+) samples\), 2 copies .*\(cv ([0-9.]+)%, ([0-9]+) samples\)",
              eff["note"])
check(m, "the note gives both cvs and sample counts: " + eff["note"])
cv1, n1, cv2, n2 = float(m.group(1)), int(m.group(2)), float(m.group(3)), int(m.group(4))
def se(d):
    return 1.2533 * math.sqrt(max(cv1 + d, 0) ** 2 / n1 + max(cv2 + d, 0) ** 2 / n2) / 100
lo = 0.9 * t975(n1 + n2 - 2) * se(-0.05)
hi = 1.1 * t975(min(n1, n2) - 1) * se(0.05)
for r in (eff, sp):
    check(r["ci_level"] == 0.95, "%s states a 95%% interval: %s" % (r["metric"], r["ci_level"]))
    half = math.log(r["ci_hi"] / r["ci_lo"]) / 2
    check(abs(math.log(r["ci_hi"] / r["median"]) - half) < 1e-9, "symmetric on the log scale")
    check(lo <= half <= hi, "%s interval +/-%.4g (log) from the note's cvs %.1f%%, %.1f%% over %d, %d samples: "
          "%.4g to %.4g" % (r["metric"], half, cv1, cv2, n1, n2, lo, hi))
check(abs(eff["ci_rel"] - sp["ci_rel"]) < 1e-12, "efficiency and speedup share the interval")

o = by_metric(sys.argv[2])
check("skipped" in o and "nothing to scale" in o["skipped"]["reason"], "one copy skips with a reason")

i = by_metric(sys.argv[3])
rates = dict((k, float(v)) for k, v in re.findall(r"(\w+) ([0-9.e+]+)", i["mem_index"]["note"]))
base = {"numsort": 118.73, "strsort": 14.459, "bitfield": 27910000, "fpemu": 9.0314,
        "fourier": 1565.5, "assign": 1.0132, "idea": 220.21, "huffman": 112.93,
        "nnet": 1.4799, "lu": 26.732}
def geo(names):
    return math.exp(sum(math.log(rates[n] / base[n]) for n in names) / len(names))
for metric, names in (("mem_index", ("strsort", "bitfield", "assign")),
                      ("int_index", ("numsort", "fpemu", "idea", "huffman")),
                      ("fp_index", ("fourier", "nnet", "lu"))):
    want = geo(names)
    # the note rounds the medians to four digits
    check(abs(i[metric]["median"] - want) <= 2e-3 * want, "%s %g from the note's medians %g"
          % (metric, i[metric]["median"], want))
    x = i[metric]
    check(x["ci_level"] == 0.95 and x["ci_lo"] < x["median"] < x["ci_hi"],
          "%s states its interval: %s %s %s" % (metric, x["ci_lo"], x["ci_level"], x["ci_hi"]))
print("ok")
PY
