# SPDX-License-Identifier: MIT
# cpu.work.*: every workload runs, checks its answer and counts one
# iteration per run; the score is the geometric mean of the workloads'
# medians (those its note lists). Nothing timed is asserted.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run 'cpu.work.*' --suite quick $FAST --out "$T/w.jsonl" >"$T/table" 2>"$T/err" \
	|| fail "run failed: $(cat "$T/err")"
"$PG" run cpu.work.score $FAST -p copies=2 --out "$T/s.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "score run failed: $(cat "$T/err")"

python3 - "$T/w.jsonl" "$T/s.jsonl" <<'PY'
import math, re, sys
from pgcheck import check, results

names = {"listmat", "state", "dct", "sha256", "lz", "parse", "fft", "nnet", "linalg"}
res = results(sys.argv[1])
check({r["bench"].split(".")[-1] for r in res} == names, "the quick suite runs the nine "
      "workloads and not the score: %s" % [r["bench"] for r in res])
for r in res:
    check(r["status"] == "ok", "%s ok: %s" % (r["bench"], r.get("reason")))
    for v, t in zip(r["samples"], r["sample_s"]):
        check(abs(v - r["iterations"] / t) <= 1e-6 * v, "%s: one per iteration" % r["bench"])
    for bad in ("coremark", "multibench", "eembc"):
        check(bad not in (r["bench"] + r.get("title", "") + r.get("label", "")).lower(),
              "no trademark in names")

s = results(sys.argv[2])
check(len(s) == 1 and s[0]["status"] == "ok", "one score result: %s" % s)
s = s[0]
check(s["params"]["copies"] == 2, "copies recorded")
rates = [float(x) for x in re.findall(r"\w+ ([0-9.e+]+)", s["note"].split(")", 1)[1])]
check(len(rates) == 9, "the note lists nine medians: " + s["note"])
want = math.exp(sum(math.log(x) for x in rates) / 9)
check(abs(s["median"] - want) <= 2e-3 * want, "score %g is the geometric mean %g" % (s["median"], want))
print("ok")
PY
