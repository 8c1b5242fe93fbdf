# The CPU group's composites: cpu.scaling runs a benchmark with one copy and
# with N and reports what they say; cpu.nbench.index combines the ten
# BYTEmark workloads' medians against the K6/233 baseline. Nothing timed is
# asserted: the figures must follow from the figures in the notes.
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
print("ok")
PY
