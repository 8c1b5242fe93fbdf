#!/bin/sh
# SPDX-License-Identifier: MIT
# Crypto's CPU load as the seed prints it (issue 38, items 2 and 10): the
# seed boards give one CPU load per algorithm, over all its buffer sizes;
# beside the algorithm x buffer size table that was a column per board
# with one figure in six rows. It is a table of its own, a row per
# algorithm and a column per board, cell for cell the seed's (fixtures and
# `import --table` alike); a measured board's CPU load per buffer size
# stays beside its throughput.
. "$(dirname "$0")/lib.sh"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"

# A measured board: its CPU load at each buffer size.
python3 - "$F/seed-am68_sk-fs.jsonl" "$T/vm.jsonl" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
run = dict(json.loads(open(src).readline()), id="vm-1", board="vm", started="2026-12-01T00:00:00.000Z")
run["machine"] = {"board": "vm", "arch": "x86_64"}
recs = [run]
for alg in ("aes-128-cbc", "sha256"):
    for size in (16, 16384):
        v = 1000.0 + size
        p = {"backend": "openssl", "driver": "auto", "path": "sendmsg", "size": size, "threads": 1}
        if alg.startswith("aes"):
            p["op"] = "encrypt"
        recs.append({"type": "result", "bench": "crypto." + alg, "params": p, "metric": "throughput",
                     "unit": "KBytes/Sec", "better": "higher", "status": "ok", "samples": [v, v, v],
                     "median": v, "min": v, "max": v, "cv": 0.0, "stop": "ci",
                     "cpu": {"busy_pct": 40.0 + size / 1000.0}})
recs.append({"type": "end", "finished": "2026-12-01T00:10:00.000Z", "status": "complete"})
with open(out, "w") as f:
    for r in recs:
        f.write(json.dumps(r) + "\n")
PY
mkdir "$T/doc"
for f in guide.md doc/guide.rst guide.html; do
	"$PG" report "$F"/seed-*.jsonl "$T/vm.jsonl" --baseline j721e-idk-gw -o "$T/$f" 2>"$T/err" ||
		fail "report -o $f: $(cat "$T/err")"
done
# The seed's tables imported as they ship: the CPU load is crypto's "CPU (process)".
DB="$T/t.db"
if [ "${PG_HAVE_STORE:-ON}" = ON ]; then
	"$PG" import --db "$DB" --table "$F/seed-openssl.csv" --keys 2 --release 09.02 >/dev/null 2>&1 ||
		fail "import seed-openssl.csv"
	"$PG" import --db "$DB" --table "$F/seed-openssl-cpu.csv" --map "$PG_SOURCE_DIR/maps/openssl-cpu.csv" \
		--release 09.02 >/dev/null 2>&1 || fail "import seed-openssl-cpu.csv"
	"$PG" report --db "$DB" -o "$T/imported.md" 2>"$T/err" || fail "report --db: $(cat "$T/err")"
fi

python3 - "$T" "$F" <<'PY' || fail "crypto's CPU load"
import csv, os, re, sys
from pgcheck import md_tables
t, f = sys.argv[1], sys.argv[2]
cpu = list(csv.reader(open(f + "/seed-openssl-cpu.csv")))
boards = [h.split(" (")[0] for h in cpu[0][1:]]
want = {r[0]: r[1:] for r in cpu[1:]}

def rst_tables(text, title):
    sec = text.split("\n" + title + "\n" + "=" * len(title) + "\n", 1)[1]
    sec = re.split(r"\n[^\n]+\n=+\n", sec)[0]
    out = []
    for part in re.split(r"\n\.\. csv-table::[^\n]*", sec)[1:]:
        blocks = part.split("\n\n")
        hdr = next(csv.reader([blocks[0].split(":header: ", 1)[1]]))
        out.append([hdr, [next(csv.reader([l.strip()])) for l in blocks[1].splitlines() if l.strip()]])
    return out

def check(tables, fmt, shown):
    main = [x for x in tables if x[0][:2] == ["Algorithm", "Buffer Size (in bytes)"]]
    apart = [x for x in tables if x[0][0] == "Algorithm" and x[0][1] != "Buffer Size (in bytes)"]
    assert main and apart, (fmt, [x[0] for x in tables])
    # no seed board's CPU load beside its throughput: the measured one's only
    heads = sum([x[0] for x in main], [])
    loads = [h for h in heads if h.endswith("CPU load (system) %")]
    assert loads == ["vm: CPU load (system) %"], (fmt, loads)
    rows = sum([x[1] for x in apart], [])
    head = apart[0][0]
    assert head[1:] == ["%s: %s" % (b, shown) for b in boards], (fmt, head)
    got = {r[0]: r[1:] for r in rows}
    assert sorted(got) == sorted(want), (fmt, sorted(got))
    for alg, cells in want.items():
        exp = [("%.1f" % float(v) if v else "") for v in cells] if shown.startswith("CPU load") else cells
        assert got[alg] == exp, (fmt, alg, got[alg], exp)
    # a row per algorithm, in the order of the table above
    order = []
    for r in sum([x[1] for x in main], []):
        if r[0] not in order:
            order.append(r[0])
    assert [r[0] for r in rows] == [a for a in order if a in got], (fmt, [r[0] for r in rows], order)
    # the measured board's CPU load at each buffer size, beside its throughput
    m = main[-1]
    at = m[0].index("vm: CPU load (system) %")
    vm = {(r[0], r[1]): r[at] for r in m[1] if r[at]}
    assert vm == {("aes-128-cbc", "16"): "40.0", ("aes-128-cbc", "16384"): "56.4",
                  ("sha256", "16"): "40.0", ("sha256", "16384"): "56.4"}, (fmt, vm)

check(md_tables(open(t + "/guide.md").read(), "Crypto"), "md", "CPU load (system) %")
check(rst_tables(open(t + "/doc/guide.rst").read(), "Crypto"), "rst", "CPU load (system) %")
html = open(t + "/guide.html").read()
assert ">am68_sk-fs: CPU load (system) %<" in html.replace("</span>", ""), "html: no CPU load table"
if os.path.exists(t + "/imported.md"):
    tables = md_tables(open(t + "/imported.md").read(), "Crypto")
    apart = [x for x in tables if x[0][0] == "Algorithm" and x[0][1] != "Buffer Size (in bytes)"]
    assert apart, [x[0] for x in tables]
    assert apart[0][0][1:] == ["%s: CPU (process) (%%)" % b for b in boards], apart[0][0]
    got = {r[0]: r[1:] for r in apart[0][1]}
    for alg, cells in want.items():
        assert got[alg] == cells, (alg, got[alg], cells)
    heads = sum([x[0] for x in tables if x[0][:2] == ["Algorithm", "Buffer Size (in bytes)"]], [])
    assert not [h for h in heads if "CPU" in h], heads
PY
echo ok
