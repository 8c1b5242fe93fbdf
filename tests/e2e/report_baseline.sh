#!/bin/sh
# SPDX-License-Identifier: MIT
# report --baseline on the seed fixtures: each board's ratio to the baseline
# per row (above 1 is better whichever way the metric goes), the geometric
# mean per section, and the mark where two boards' min..max overlap. The
# Crypto section is checked against values computed here from the seed's
# own OpenSSL table, and two of them against figures worked out by hand.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"
for fmt in md json csv html; do
	"$PG" report "$F"/seed-*.jsonl --baseline j721e-idk-gw --format $fmt -o "$T/b.$fmt" 2>/dev/null ||
		fail "report --baseline --format $fmt failed"
done
expect_usage_error "unknown baseline" report "$F"/seed-*.jsonl --baseline no-such-board

python3 - "$T" "$F" <<'PY' || fail "the ratios or their geometric means are wrong"
import csv, json, math, sys
t, f = sys.argv[1], sys.argv[2]
BASE = "j721e-idk-gw"
ossl = list(csv.reader(open(f + "/seed-openssl.csv")))
boards = [h.split(" (")[0] for h in ossl[0][2:]]
want = {}
for b in boards:
    if b == BASE:
        continue
    logs = [math.log(float(r[2 + boards.index(b)]) / float(r[2 + boards.index(BASE)]))
            for r in ossl[1:] if r[2 + boards.index(b)].strip() and r[2 + boards.index(BASE)].strip()]
    want[b] = (math.exp(sum(logs) / len(logs)), len(logs))
# By hand: am68_sk-fs has all 60 OpenSSL rows; j784s4-evm 48.
assert want["am68_sk-fs"][1] == 60 and want["j784s4-evm"][1] == 48, want
assert abs(want["am68_sk-fs"][0] - 0.96648) < 1e-5 and abs(want["j722s_evm-fs"][0] - 0.56836) < 1e-5, want

g = json.load(open(t + "/b.json"))
assert g["baseline"] == BASE
crypto = [s for s in g["summary"] if s["section"] == "Crypto"][0]
for e in crypto["boards"]:
    if e["board"] == "j7200-evm":		# no OpenSSL figures in the seed
        assert e["geomean"] is None and e["rows"] == 0, e
        continue
    gm, n = want[e["board"]]
    assert e["rows"] == n and abs(e["geomean"] - gm) < 1e-9 * gm, (e, gm, n)

# A row, higher is better: 46219.61 / 49408.00 = 0.93547.
rows = {r["name"]: r for s in g["sections"] for r in s["rows"]}
cell = {c["board"]: c for c in rows["aes-128-cbc 1024 (KBytes/Sec)"]["cells"]}
assert abs(cell["am68_sk-fs"]["ratio"] - 46219.61 / 49408.00) < 1e-9 and not cell["am68_sk-fs"]["overlap"]
# Lower is better: j722s_evm-fs takes 0.52 us to the baseline's 0.37: 0.37 / 0.52 = 0.71154.
cell = {c["board"]: c for c in rows["lat_syscall-null (us)"]["cells"]}
assert abs(cell["j722s_evm-fs"]["ratio"] - 0.37 / 0.52) < 1e-9, cell["j722s_evm-fs"]
assert cell[BASE]["ratio"] == 1

# md: the summary's cells, and the overlap mark.
md = open(t + "/b.md").read()
summary = md.split("\n## Against " + BASE + "\n", 1)[1].split("\n## ", 1)[0]
line = [l for l in summary.splitlines() if l.startswith("| Crypto |")][0]
cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
others = [b for b in ["am68_sk-fs", "am69_sk-fs", "j7200-evm", "j721s2-evm", "j722s_evm-fs", "j784s4-evm"]]
for b, c in zip(others, cells[1:]):
    assert c == ("%.2f (%d row%s)" % (want[b] + ("" if want[b][1] == 1 else "s",)) if b in want else "- (0 rows)"), (b, c)
lm = md.split("\n## LMBench\n", 1)[1].split("\n## ", 1)[0]
head = [c.strip() for c in [l for l in lm.splitlines() if l.startswith("| Benchmarks")][0].strip().strip("|").split(" | ")]
row = lambda name: [c.strip() for c in [l for l in lm.splitlines() if l.startswith("| " + name + " ")][0].strip().strip("|").split(" | ")]
# 4779.41..13270.31 overlaps the baseline's 4759.29..12522.36: marked;
# j7200-evm's 2521.61..2911.21 is below 3958.26..12123.44: a real difference.
assert row("bw_mem-bzero-1mb (MB/s)")[head.index("am68_sk-fs / " + BASE)] == "\u22481.04"
assert row("bw_mem-bzero-2mb (MB/s)")[head.index("j7200-evm / " + BASE)] == "0.34"
assert "\u2248: the two boards' min..max overlap" in lm

html = open(t + "/b.html").read()
assert "<title>Geometric mean of the ratios to " + BASE + " (above 1: better)</title>" in html
csvrows = list(csv.reader(open(t + "/b.csv")))
assert "am68_sk-fs / " + BASE in csvrows[0]
PY
echo ok
