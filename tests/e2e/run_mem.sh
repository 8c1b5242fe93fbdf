# The memory benchmarks end to end: records as DESIGN.md says, with counts
# that match the work done (bytes per pass times passes over the time).
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run 'mem.bw.*' mem.lat.rd -p size=64k,1m -p threads=1 $FAST --board test-board \
	--out "$T/r.jsonl" >"$T/table" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
"$PG" run 'mem.stream.*' -p size=2m -p threads=2 $FAST --out "$T/s.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "stream run failed: $(cat "$T/err")"
"$PG" run mem.lat.rand -p size=64k,1m -p pages=normal $FAST --out "$T/l.jsonl" >>"$T/table" 2>>"$T/err" \
	|| fail "lat.rand run failed: $(cat "$T/err")"
grep -q 'mem.bw.fcp' "$T/table" || fail "no table line for mem.bw.fcp"

python3 - "$T/r.jsonl" "$T/s.jsonl" "$T/l.jsonl" <<'PY'
import json, sys

def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f]

def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)

recs = load(sys.argv[1])
check(recs[0]["type"] == "run" and recs[0]["schema"] == "perfguide/1", "run record first")
check(recs[0]["board"] == "test-board", "--board names the run")
for k in ("id", "started", "machine", "build", "config"):
    check(k in recs[0], "run record has " + k)
check(recs[-1] == {**recs[-1], "type": "end", "status": "complete"}, "end record says complete")
results = [r for r in recs if r["type"] == "result"]
ops = ["rd", "wr", "rdwr", "cp", "frd", "fwr", "fcp", "bzero", "bcopy"]
check(len(results) == 2 * len(ops) + 2, "one result per benchmark and size, got %d" % len(results))
for r in results:
    check(r["status"] == "ok", "%s ok: %s" % (r["bench"], r.get("reason")))
    for k in ("median", "min", "max", "mean", "stddev", "cv", "samples", "cpu", "label", "unit", "better"):
        check(k in r, "%s has %s" % (r["bench"], k))
    check(len(r["samples"]) == 2, "two samples")
    check(r["min"] <= r["median"] <= r["max"], "min <= median <= max")
    check(0 <= r["cpu"].get("busy_pct", 0) <= 100, "busy_pct is a share")
    size = r["params"]["size"]
    if r["bench"].startswith("mem.bw."):
        op = r["bench"].split(".")[-1]
        check(r["unit"] == "MB/s" and r["better"] == "higher", "bandwidth unit")
        check(r["label"] == "bw_mem-%s-%s" % (op, {65536: "64kb", 1048576: "1mb"}[size]), "label " + r["label"])
        # bw_mem counts the buffer size once per pass, whatever the op.
        for v, t in zip(r["samples"], r["sample_s"]):
            counted = r["iterations"] * size / t / 1e6
            check(abs(v - counted) <= 1e-6 * counted, "%s counts size bytes per pass" % r["bench"])
        # a floor far below any machine: an ASan build at load average 18 read 9 MB/s
        check(1 < r["median"] < 1e7, "%s %g MB/s is plausible" % (r["bench"], r["median"]))
    else:
        check(r["unit"] == "ns" and r["better"] == "lower", "latency unit")
        check(r["label"] == {65536: "lat_mem_rd-stride128-sz62k", 1048576: "lat_mem_rd-stride128-sz1000k"}[size], r["label"])
        # 1024 dependent loads per iteration
        for v, t in zip(r["samples"], r["sample_s"]):
            check(abs(v - t / (r["iterations"] * 1024) * 1e9) <= 1e-6 * v, "ns per load")
        check(0.1 < r["median"] < 10000, "latency %g ns is plausible" % r["median"])

recs = load(sys.argv[2])
results = [r for r in recs if r["type"] == "result"]
check([r["bench"] for r in results] == ["mem.stream." + k for k in ("copy", "scale", "add", "triad")], "four kernels")
per_elem = {"copy": 16, "scale": 16, "add": 24, "triad": 24}
for r in results:
    k = r["bench"].split(".")[-1]
    check(r["status"] == "ok" and r["label"] == k, "stream %s ok and labelled" % k)
    check(r["copies"] == 2, "two threads")
    n = int(r["note"].split()[2])
    check(n == 2 * 1048576 // 8, "arrays of 2 MiB: %d doubles" % n)
    for v, t in zip(r["samples"], r["sample_s"]):
        # STREAM counts every byte read and written; both threads' halves add up.
        counted = r["iterations"] * n * per_elem[k] / t / 1e6
        check(abs(v - counted) <= 1e-6 * counted, "stream %s counts %d bytes per element" % (k, per_elem[k]))

recs = load(sys.argv[3])
results = [r for r in recs if r["type"] == "result"]
check(len(results) == 2 and all(r["status"] == "ok" for r in results), "lat.rand ran")
print("ok")
PY
