# SPDX-License-Identifier: MIT
# The CPU group end to end: every benchmark runs, carries the seed's row
# names, and its figures are what it counted (iterations over the time).
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run cpu.dhrystone cpu.whetstone cpu.linpack $FAST --out "$T/r.jsonl" >"$T/table" 2>"$T/err" \
	|| fail "run failed: $(cat "$T/err")"
"$PG" run cpu.dhrystone cpu.linpack -p copies=2 -p blas=rolled $FAST --cpu 0 --out "$T/c.jsonl" \
	>>"$T/table" 2>>"$T/err" || fail "copies=2 run failed: $(cat "$T/err")"
"$PG" run 'cpu.nbench.*' --suite quick $FAST --out "$T/n.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "nbench run failed: $(cat "$T/err")"
# --iterations fixes the work: the results say so, and the figure is still
# the iterations counted over the time measured.
"$PG" run cpu.nbench.numsort --iterations 3 --runs 2 --out "$T/i.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "--iterations run failed: $(cat "$T/err")"
python3 - "$T/i.jsonl" <<'PY' || fail "--iterations: wrong record"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run = recs[0]
assert run["config"]["iterations"] == 3, run["config"]
r = [r for r in recs if r["type"] == "result"][0]
# 2 samples in each of the 2 processes (run --processes)
assert r["iterations"] == 3 and len(r["sample_s"]) == 4, r
for v, s in zip(r["samples"], r["sample_s"]):
    assert abs(v - 3 / s) <= 1e-6 * v, (v, s)
PY
grep -q 'cpu.dhrystone' "$T/table" || fail "no table line for cpu.dhrystone"

python3 - "$T/r.jsonl" "$T/c.jsonl" "$T/n.jsonl" <<'PY'
import sys
from pgcheck import check, close, results

OPS = 2.0 * 100 ** 3 / 3 + 2.0 * 100 ** 2
for path, copies in ((sys.argv[1], 1), (sys.argv[2], 2)):
    res = results(path)
    for r in res:
        check(r["status"] == "ok", "%s %s ok: %s" % (r["bench"], r.get("metric"), r.get("reason")))
        check(r["copies"] == copies, "%s runs %d copies" % (r["bench"], copies))
    by = {(r["bench"], r["metric"]): r for r in res}
    d = by[("cpu.dhrystone", "dhrystones")]
    check(d["label"] == "dhrystone_per_second (DhrystoneP)", "dhrystone label " + d["label"])
    check("MHz" in d["note"], "the note says where the clock came from: " + d["note"])
    for v, t in zip(d["samples"], d["sample_s"]):
        check(close(v, copies * d["iterations"] / t), "one Dhrystone per iteration per copy")
    mhz = by[("cpu.dhrystone", "cpu_clock")]
    check(mhz["label"] == "cpu_clock (MHz)" and mhz["unit"] == "MHz", "clock row")
    check(10 < mhz["median"] < 10000, "clock %g MHz is plausible" % mhz["median"])
    dm = by[("cpu.dhrystone", "dmips")]
    for a, b in zip(dm["samples"], d["samples"]):
        check(close(a, b / 1757), "DMIPS = Dhrystones/s / 1757")
    pm = by[("cpu.dhrystone", "dmips_per_mhz")]
    check(pm["label"] == "dhrystone_per_mhz (DMIPS/MHz)", "per-MHz label")
    if copies == 1:
        for a, b, c in zip(pm["samples"], dm["samples"], mhz["samples"]):
            check(close(a, b / c), "DMIPS/MHz = DMIPS / clock")
    l = by[("cpu.linpack", "kflops")]
    check(l["label"] == "linpack (Kflops)" and l["unit"] == "KFLOPS", "linpack row")
    check("last checked" in l["note"], "linpack says it checked its solves: " + l["note"])
    for v, t in zip(l["samples"], l["sample_s"]):
        check(close(v, copies * l["iterations"] * OPS / t / 1000), "2n^3/3 + 2n^2 per solve")
    if copies == 1:
        w = by[("cpu.whetstone", "mwips")]
        check(w["label"] == "whetstone (MIPS)" and w["unit"] == "MWIPS", "whetstone row")
        for v, t in zip(w["samples"], w["sample_s"]):
            check(close(v, w["iterations"] / t), "one million Whetstone instructions per iteration")
        check(l["params"]["blas"] == "unrolled" and l["params"]["n"] == 100, "linpack defaults")
    else:
        check(l["params"]["blas"] == "rolled", "blas=rolled is recorded")
# BYTEmark: iterations as the reference counts them, per pass (the quick
# suite leaves out cpu.nbench.index, which cpu_scaling.sh covers)
per_pass = {"numsort": (1, "numeric_sort (Iterations)"), "fourier": (199, "fourier (Iterations)"),
            "idea": (1, "idea (Iterations)"), "lu": (1, "lu_decomposition (Iterations)"),
            "bitfield": (None, ""), "huffman": (1, "huffman (Iterations)"),
            "strsort": (1, "string_sort (Iterations)"), "assign": (1, "assignment (Iterations)"),
            "fpemu": (1, "fp_emulation (Iterations)"), "nnet": (None, "neural_net (Iterations)")}
res = results(sys.argv[3])
check(len(res) == len(per_pass), "one result per BYTEmark workload, got %d" % len(res))
for r in res:
    name = r["bench"].split(".")[-1]
    n, label = per_pass[name]
    check(r["status"] == "ok", "%s ok: %s" % (r["bench"], r.get("reason")))
    check(r.get("label", "") == label, "%s label %s" % (name, r.get("label")))
    if name == "nnet":   # a learning cycle of P passes counts P / 780 reference cycles
        p = int(r["note"].split("learns in ")[1].split()[0])
        n = p / 780.0
    elif n is None:   # bitfield counts bits touched: thousands per pass
        check(all(v > 1000 * r["iterations"] / t for v, t in zip(r["samples"], r["sample_s"])),
              "bitfield counts bits")
        continue
    for v, t in zip(r["samples"], r["sample_s"]):
        check(close(v, r["iterations"] * n / t), "%s counts %d per pass" % (name, n))
print("ok")
PY
