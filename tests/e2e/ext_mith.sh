# SPDX-License-Identifier: MIT
# ext.coremark-pro, ext.coremark-pro.mark and ext.multibench end to end,
# on stand-ins for the suites' workload programs: small shell scripts,
# written here, that print MITH's report (the format of the recorded outputs
# in tests/fixtures/ext/) with made-up times. None of EEMBC's code is used.
# One iteration of a stand-in "takes" a fixed number of milliseconds on one
# context and N times less on N contexts (or workers), so every figure is
# known: the single and multi rates, the scaling, the score, the iteration
# counts perfguide picks so that each run lasts at least 1 s, the -v1 run
# before them, the counts MITH runs when given fewer iterations than
# contexts; and what it does with output cut short, errors, a program
# that hangs, and no suite at all.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

# stand_in DIR WORKLOAD UID MS [MODE [ITEMS]]: MODE cut stops before the
# Done line, errors reports an item's failure in the -v1 run, hang sleeps,
# more runs one iteration more than MITH would on more than one context.
# ITEMS (1) is the items of an iteration: as MITH's workload mains do, the
# stand-in raises -i until iterations x ITEMS covers the contexts (-i1 -c2:
# 2 iterations, or 1 of a workload of 7 items, cjpeg-rose7-preset's).
stand_in() {
	mkdir -p "$1"
	cat >"$1/$2.exe" <<EOF
#!/bin/sh
v=1 c=1 w= i=
for a in "\$@"; do
	case \$a in -v*) v=\${a#-v} ;; -c*) c=\${a#-c} ;; -w*) w=\${a#-w} ;; -i*) i=\${a#-i} ;; esac
done
[ "${5:-}" = hang ] && [ \$v = 0 ] && exec sleep 30
it=\${i:-1}
while [ \$c -gt \$((it * ${6:-1})) ]; do it=\$((it + 1)); done
[ "${5:-}" = more ] && [ \$c -gt 1 ] && it=\$((it + 1))
[ \$v = 1 ] && it=1
ms=\$(( it * $4 / (c * \${w:-1}) ))
echo "-  Info: Starting Run..."
echo "-- Workload:$2=$3"
echo "-- $2:time(ns)=\$ms"
echo "-- $2:contexts=\$c"
[ -n "\$w" ] && echo "-- $2:workers=\$w"
echo "-- $2:iterations=\$it"
awk -v ms=\$ms -v it=\$it 'BEGIN {
	printf "-- $2:time(secs)=%8g\n-- $2:secs/workload=%8g\n-- $2:workloads/sec=%8g\n",
	       ms / 1000, ms / 1000 / it, it / (ms / 1000) }'
if [ \$v = 1 ]; then
	echo "Info: This run was executed with verification turned on! For performance results, use -v0."
	echo "-- item:UID=10000"
	if [ "${5:-}" = errors ]; then echo "-- item:fails=1"; else echo "-- item:fails=0"; fi
fi
[ "${5:-}" = cut ] && exit 0
echo "-- Done:$2=$3"
EOF
	chmod +x "$1/$2.exe"
}

# The nine CoreMark-PRO workloads, 100 to 900 ms an iteration, in a built
# tree's layout.
bin=cmp/builds/linux64/gcc64/bin
ms=100
for w in cjpeg-rose7-preset core linear_alg-mid-100x100-sp loops-all-mid-10k-sp nnet_test \
	parser-125k radix2-big-64k sha-test zip-test; do
	items=1
	[ $w = cjpeg-rose7-preset ] && items=7
	stand_in $bin $w $((1000 + ms)) $ms "" $items
	ms=$((ms + 100))
done
stand_in bad core 490760323 250 errors
stand_in cut core 490760323 250 cut
stand_in hang core 490760323 250 hang
stand_in more core 490760323 250 more
stand_in mb iDCT-4M 1630548512 40
stand_in mb 4M-check 2075716385 2

run() { "$PG" run "$@" --runs 2 --no-db >>"$T/table" 2>>"$T/err" || true; }
run ext.coremark-pro -p workload=core,zip-test -p path=cmp -p contexts=2 --out ok.jsonl
run ext.coremark-pro.mark -p path="$T/$bin" -p contexts=2 --out mark.jsonl
run ext.coremark-pro -p workload=core -p path=cmp -p contexts=2 -p iterations=3 --out fixed.jsonl
run ext.multibench -p workload=iDCT-4M,4M-check -p path=mb -p contexts=2 --out mb.jsonl
# Fewer iterations than contexts: what MITH runs, as it logs it.
run ext.coremark-pro -p workload=core,cjpeg-rose7-preset -p path=cmp -p contexts=2,4 -p iterations=1 \
	--out few.jsonl
run ext.multibench -p workload=4M-check -p path=mb -p contexts=2 -p iterations=1 --out mbfew.jsonl
run ext.coremark-pro -p workload=core -p path=more -p contexts=2 -p iterations=1 --out more.jsonl
run ext.coremark-pro -p workload=core -p path=bad --out bad.jsonl
run ext.coremark-pro -p workload=core -p path=cut --out cut.jsonl
run ext.coremark-pro -p workload=core -p path=hang -p timeout=1 --out hang.jsonl
run ext.coremark-pro -p workload=core -p path=nowhere --out none.jsonl
run ext.coremark-pro -p workload=zip-test -p path=bad --out nozip.jsonl

python3 - <<'PY' || fail "$(cat "$T/err")"
import math, os, re, sys
from pgcheck import check, results

def metric(rs, workload, name):
    for r in rs:
        if r["params"].get("workload") == workload and r["metric"] == name:
            return r
    sys.exit("FAIL: no %s %s" % (workload, name))

def raw(r):
    m = re.search(r"raw output: ([^;\s]+)", r.get("note") or r.get("reason", ""))
    check(m and os.path.exists(m.group(1)), "raw output kept: %s" % (r.get("note") or r.get("reason")))
    return open(m.group(1)).read()

def its(ms, contexts):
    """The -i perfguide gives: the stand-in's own count (1, raised to one per
    context) runs own x ms / contexts milliseconds, under the run rules' 1 s:
    raised to 1.1 s worth."""
    own = max(1, contexts)
    return math.ceil(own * 1.0 * 1.1 / (own * ms // contexts / 1000))

# core takes 200 ms an iteration, zip-test 900: 5 and 1.11 iter/s on one
# context, twice that on two.
ok = results("ok.jsonl", end="any")
for w, ms in (("core", 200), ("zip-test", 900)):
    s, m, x = (metric(ok, w, n) for n in ("single", "multi", "scaling"))
    check(s["unit"] == "iter/s" and len(s["samples"]) == 2, "%s: two samples" % w)
    check(all(abs(v - 1000 / ms) < 1e-9 for v in s["samples"]), "%s single %s" % (w, s["samples"]))
    check(all(abs(v - 2000 / ms) < 1e-9 for v in m["samples"]), "%s multi %s" % (w, m["samples"]))
    check(abs(x["median"] - 2) < 1e-9, "%s scaling %g" % (w, x["median"]))
    check(s.get("label") == w and not m.get("label"), "the seed's row name is on the single-core figure")
    cmds = re.findall(r"^\$ (.*)$", raw(s), re.M)
    exe = os.path.abspath("cmp/builds/linux64/gcc64/bin/%s.exe" % w)
    want = ["%s -v1 -c1 -w1" % exe, "%s -v0 -c1 -w1" % exe, "%s -v0 -c2" % exe]
    want += ["%s -v0 -c1 -w1 -i%d" % (exe, its(ms, 1)), "%s -v0 -c2 -i%d" % (exe, its(ms, 2))] * 2
    check(cmds == want, "%s: the runs made: %s, not %s" % (w, cmds, want))
    check("-v1 verified" in s["note"] and "uid %d" % (1000 + ms) in s["note"], "note: " + s["note"])

fixed = results("fixed.jsonl", end="any")
check(all(c.endswith(" -i3") for c in re.findall(r"^\$ .*-v0.*$", raw(metric(fixed, "core", "single")), re.M)),
      "iterations=3 gives -i3 to every timed run")
check(abs(metric(fixed, "core", "multi")["median"] - 10) < 1e-9, "iterations=3: core multi 10/s")

# The score: 1000 x geomean(rate x scale) over the nine, on each side.
scale = {"cjpeg-rose7-preset": 1 / 40.3438, "core": 10000 / 2855, "linear_alg-mid-100x100-sp": 1 / 38.5624,
         "loops-all-mid-10k-sp": 1 / 0.87959, "nnet_test": 1 / 1.45853, "parser-125k": 1 / 4.81116,
         "radix2-big-64k": 1 / 99.6587, "sha-test": 1 / 48.5201, "zip-test": 1 / 21.3618}
order = ["cjpeg-rose7-preset", "core", "linear_alg-mid-100x100-sp", "loops-all-mid-10k-sp", "nnet_test",
         "parser-125k", "radix2-big-64k", "sha-test", "zip-test"]
def mark(k):
    return 1000 * math.exp(sum(math.log(k * 1000 / ((i + 1) * 100) * scale[w])
                               for i, w in enumerate(order)) / 9)
mk = results("mark.jsonl", end="any")
s, m, x = (metric(mk, "coremark-pro", n) for n in ("single", "multi", "scaling"))
check(s["unit"] == "score" and s["label"] == "coremark-pro", "score row")
check(abs(s["median"] - mark(1)) < 1e-6 * mark(1), "single score %g, want %g" % (s["median"], mark(1)))
check(abs(m["median"] - mark(2)) < 1e-6 * mark(2), "multi score %g, want %g" % (m["median"], mark(2)))
check(abs(x["median"] - 2) < 1e-9, "score scaling")
check(len(re.findall(r"^\$ .* -v1 ", raw(s), re.M)) == 9, "each of the nine verified once")

# MultiBench: iDCT-4M is a workers workload (-c1 -w2), 4M-check a contexts one.
mb = results("mb.jsonl", end="any")
text = raw(metric(mb, "iDCT-4M", "single"))
check(re.search(r"iDCT-4M.exe -v0 -c1 -w2 -i\d+$", text, re.M), "iDCT-4M's multi run is -c1 -w2")
check(abs(metric(mb, "iDCT-4M", "multi")["median"] - 50) < 1e-9, "iDCT-4M multi 50/s")
check(metric(mb, "iDCT-4M", "multi")["label"] == "idct-4m", "MultiBench's row name on the multi figure")
check(abs(metric(mb, "4M-check", "single")["median"] - 500) < 1e-9, "4M-check single 500/s")
check(re.search(r"4M-check.exe -v0 -c2 -i\d+$", raw(metric(mb, "4M-check", "single")), re.M),
      "4M-check's multi run is -c2")

def logged(r):
    """Each timed multi run's logged (contexts, iterations, time(secs)), from
    the raw output."""
    runs = re.split(r"^\$ ", raw(r), flags=re.M)[1:]
    out = []
    for run in runs:
        cmd = run.splitlines()[0]
        if " -v1 " in cmd or " -c1 -w1" in cmd:
            continue
        f = dict(re.findall(r"^-- [^:]+:(contexts|iterations|time\(secs\))=\s*(\S+)$", run, re.M))
        out.append((int(f["contexts"]), int(f["iterations"]), float(f["time(secs)"])))
    return out

# -i1 below the contexts: core (one item) runs one iteration a context,
# cjpeg-rose7-preset (7 items) one; the figure is what the output says.
few = results("few.jsonl", end="any")
for w, items, ms in (("core", 1, 200), ("cjpeg-rose7-preset", 7, 100)):
    for c in (2, 4):
        rs = [r for r in few if r["params"]["workload"] == w and r["params"]["contexts"] == c]
        m = [r for r in rs if r["metric"] == "multi"]
        check(len(m) == 1 and m[0]["status"] == "ok", "%s -i1 -c%d: %s" % (w, c, rs))
        m = m[0]
        ran = max(1, -(-c // items))
        runs = logged(m)
        check([(rc, ri) for rc, ri, _ in runs] == [(c, ran)] * 2,
              "%s -i1 -c%d: MITH logged %s, want contexts=%d iterations=%d twice" % (w, c, runs, c, ran))
        check(all(abs(v - ri / secs) < 1e-9 * v for v, (_, ri, secs) in zip(m["samples"], runs)),
              "%s -i1 -c%d: samples %s are not the logged iterations / time(secs) %s" % (w, c, m["samples"], runs))
        check(abs(m["median"] - c * 1000 / ms) < 1e-9, "%s -i1 -c%d: multi %g" % (w, c, m["median"]))
        said = "MITH ran %d iterations on %d contexts" % (ran, c)
        check((said in m["note"]) == (ran > 1), "%s -i1 -c%d: note %s" % (w, c, m["note"]))
        check(re.search(r"^\$ .*%s.exe -v0 -c%d -i1$" % (w, c), raw(m), re.M), "-i1 given as asked")
mbf = results("mbfew.jsonl", end="any")
m = metric(mbf, "4M-check", "multi")
check(m["status"] == "ok" and logged(m) == [(2, 2, 0.002)] * 2 and abs(m["median"] - 1000) < 1e-9,
      "MultiBench 4M-check -i1 -c2: %s %s" % (m.get("reason"), m.get("samples")))

def one(path):
    rs = results(path, end="any")
    check(len(rs) == 1, path + ": one record")
    return rs[0]

r = one("bad.jsonl")
check(r["status"] == "error" and "core.exe -v1: the workload reported 1 error" in r["reason"], r["reason"])
r = one("cut.jsonl")
check(r["status"] == "error" and "no '-- Done:core=490760323' line" in r["reason"], r["reason"])
raw(r)
r = one("hang.jsonl")
check(r["status"] == "error" and "timed out after 1 s" in r["reason"], r["reason"])
r = one("none.jsonl")
check(r["status"] == "skipped" and r["reason"].startswith("CoreMark-PRO not found: no directory nowhere")
      and "-p path=DIR" in r["reason"], r["reason"])
r = one("more.jsonl")
check(r["status"] == "error" and "core.exe (multi): '-- core:iterations=2' expected (MITH raises -i until "
      "every context has work), got 3" in r["reason"], r["reason"])
r = one("nozip.jsonl")
check(r["status"] == "skipped" and "no zip-test.exe in bad, bad/bin or a build" in r["reason"], r["reason"])
print("ok")
PY
