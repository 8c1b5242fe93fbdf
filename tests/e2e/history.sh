#!/bin/sh
# SPDX-License-Identifier: MIT
# history: a store with 30 runs of a board where one benchmark's figure
# drops 10% from run 18 on (the others flat, about 1% noise): the change
# point at run 18 and none in the other rows, in md, json, svg and html;
# the runs of the board only, its labels, selectors; -o by extension,
# written through a device, never over a directory; text from the store
# escaped in every format; bad input exits 2.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
DB="$T/h.db"
# A board name and a label with markup in each format.
B='bd<i>|*x&_1'

# figures N BOARD RELEASE: run N's results file, its noise from one fixed
# sequence (Park and Miller's generator, exact in any awk's doubles), six
# numbers a run.
figures() {
	awk -v n="$1" -v board="$2" -v rel="$3" 'BEGIN {
		x = 12345
		for (k = 0; k < 6 * n; k++) x = (x * 16807) % 2147483647
		printf "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"%s-r%02d\",\"board\":\"%s\",", board == "other" ? "o" : "h", n, board
		printf "\"started\":\"2026-02-%02dT10:00:00Z\",\"machine\":{},\"build\":{\"version\":\"t\"},\"config\":{},", n <= 28 ? n : 28
		printf "\"labels\":{\"release\":\"%s\"}}\n", rel
		split("t.bw bandwidth MB/s higher 100|t.lat latency us lower 10|t.ops rate ops/s higher 5000", rows, "|")
		for (r = 1; r <= 3; r++) {
			split(rows[r], f, " ")
			x = (x * 16807) % 2147483647; u = x / 2147483647
			x = (x * 16807) % 2147483647; u += x / 2147483647
			v = f[5] * (1 + 0.02 * (u - 1))
			if (r == 1 && n >= 18) v *= 0.9
			printf "{\"type\":\"result\",\"bench\":\"%s\",\"params\":{\"size\":1024},\"metric\":\"%s\",\"unit\":\"%s\",", f[1], f[2], f[3]
			printf "\"better\":\"%s\",\"samples\":[%.4f],\"median\":%.4f,\"min\":%.4f,\"max\":%.4f,\"status\":\"ok\"}\n", f[4], v, v, v, v
		}
		printf "{\"type\":\"end\",\"finished\":\"2026-02-01T10:01:00Z\",\"status\":\"complete\"}\n"
	}'
}
i=1
while [ $i -le 30 ]; do
	rel="09.0<$((i / 10))>"
	figures $i "$B" "$rel" >"$T/h$i.jsonl"
	i=$((i + 1))
done
# Another board's runs: none of the history.
for i in 1 2 3 4 5 6 7 8; do
	figures $((i + 20)) other x >"$T/o$i.jsonl"
done
"$PG" import --db "$DB" "$T"/h*.jsonl "$T"/o*.jsonl >/dev/null || fail "import failed"

hist() { "$PG" history --db "$DB" --board "$B" "$@"; }

# md: the change point at run 18 of t.bw, none elsewhere.
hist >"$T/h.md" 2>"$T/err" || fail "history md: $(cat "$T/err")"
grep -q '^30 runs, 3 rows, 1 change point\.' "$T/h.md" || fail "md head: $(head -5 "$T/h.md")"
grep -q '^| t.bw size=1k bandwidth | MB/s | 18 | h-r18 |.* -1[01]\.[0-9]% (worse) |' "$T/h.md" ||
	fail "md: no change at run 18: $(cat "$T/h.md")"
[ "$(grep -c '(worse)\|(better)' "$T/h.md")" -eq 1 ] || fail "md: other change points: $(cat "$T/h.md")"
grep -q '^2 of 3 rows have no change point' "$T/h.md" || fail "md: rows without: $(cat "$T/h.md")"
grep -q '^| t.bw size=1k bandwidth | MB/s |.*| \*\*[0-9.]*\*\* |' "$T/h.md" || fail "md: run 18 not bold"
grep -qF '# History of bd&lt;i\>\|\*x\&\_1' "$T/h.md" || fail "md: board not escaped: $(head -1 "$T/h.md")"
grep -q '<i>' "$T/h.md" && fail "md: raw markup from the store: $(grep '<i>' "$T/h.md" | head -3)"
grep -qF '| 30 | h-r30 | 2026-02-28T10:00:00Z | release=09.0&lt;3\> |' "$T/h.md" || fail "md: runs table"

# json: the same, for programs.
hist --format json >"$T/h.json" || fail "history json"
python3 - "$T/h.json" "$B" <<'EOF' || fail "json: $(head -c 600 "$T/h.json")"
import json, sys
h = json.load(open(sys.argv[1]))
assert h["board"] == sys.argv[2], h["board"]
assert len(h["runs"]) == 30 and h["runs"][17]["id"] == "h-r18", h["runs"][17]
assert h["runs"][0]["labels"] == {"release": "09.0<0>"}, h["runs"][0]
assert h["method"]["name"] == "e-divisive means" and h["method"]["seed"] == 1
rows = {r["bench"]: r for r in h["rows"]}
assert set(rows) == {"t.bw", "t.lat", "t.ops"}, rows.keys()
cp = rows["t.bw"]["change_points"]
assert [c["run"] for c in cp] == [18] and cp[0]["id"] == "h-r18" and cp[0]["way"] == "worse", cp
assert -11 < cp[0]["change_pct"] < -9 and cp[0]["p"] <= 0.01, cp
assert rows["t.lat"]["change_points"] == [] and rows["t.ops"]["change_points"] == []
assert len(rows["t.bw"]["series"]) == 30 and rows["t.bw"]["params"] == {"size": 1024}
assert h["change_points"] == 1 and h["rows_changed"] == 1
EOF

# svg (by -o's extension): well-formed, the change marked at run 18.
hist -o "$T/h.svg" 2>"$T/err" || fail "history svg: $(cat "$T/err")"
grep -q 'wrote history in' "$T/err" || fail "svg: not said: $(cat "$T/err")"
python3 - "$T/h.svg" <<'EOF' || fail "svg: $(head -c 600 "$T/h.svg")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
assert "run 18" in texts, texts[:40]
assert sum(1 for t in texts if t.startswith("run ") and t[4:].isdigit()) == 2, texts  # the marks on both charts
assert any("t.bw size=1k bandwidth: from run 18 -1" in t for t in texts), texts
assert any("2 rows without a change point" in t for t in texts), texts
assert any(t.startswith("bd<i>|*x&_1:") for t in texts), texts
EOF
# One row: its chart alone, in its unit.
hist t.bw --format svg >"$T/bw.svg" || fail "history t.bw svg"
grep -q '>bandwidth (MB/s)</text>' "$T/bw.svg" || fail "one row's chart: $(head -c 600 "$T/bw.svg")"
[ "$(grep -c '<svg' "$T/bw.svg")" -eq 1 ] || fail "one row: several charts"

# html: the tables and the charts, escaped.
hist -o "$T/h.html" 2>/dev/null || fail "history html"
python3 - "$T/h.html" <<'EOF' || fail "html"
import sys
from html.parser import HTMLParser
s = open(sys.argv[1]).read()
assert "<i>" not in s, "raw markup"
assert "<title>History of bd&lt;i&gt;|*x&amp;_1</title>" in s, s[:400]
assert s.count("<svg") == 2 and ">run 18</text>" in s
assert "<td>18</td><td class=\"t\">h-r18</td>" in s
assert "release=09.0&lt;1&gt;" in s
class P(HTMLParser):
    pass
P().feed(s)
EOF

# Selectors, labels, the latest N runs.
hist t.lat t.ops --format json >"$T/sel.json" || fail "selectors"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1])); assert [r["bench"] for r in h["rows"]] == ["t.lat", "t.ops"] and h["change_points"] == 0' "$T/sel.json" ||
	fail "selectors: $(cat "$T/sel.json" | head -c 300)"
hist 't.*' --label 'release=09.0<1>' >"$T/lab.md" || fail "labels"
grep -q '^10 runs, 3 rows, 0 change points' "$T/lab.md" || fail "labels: $(head -3 "$T/lab.md")"
hist --last 12 >"$T/last.md" || fail "--last"
grep -q '^12 runs (the latest; 18 older left out), 3 rows, 0 change points' "$T/last.md" || fail "--last: $(head -3 "$T/last.md")"
"$PG" history --db "$DB" --board other >"$T/other.md" || fail "other board"
grep -q '^8 runs, 3 rows' "$T/other.md" || fail "other board: $(head -3 "$T/other.md")"

# report --trend: each board's chart beside the section's table (html
# inline, md as a file beside it); a board of a results file only, none.
"$PG" report --db "$DB" --trend -o "$T/g.html" 2>/dev/null || fail "report --trend"
grep -q '>run 18</text>' "$T/g.html" || fail "report --trend html: no change marked"
grep -q 'bd&lt;i&gt;|\*x&amp;_1: Other benchmarks, 3 rows, 30 runs' "$T/g.html" || fail "report --trend: no chart of the board"
"$PG" report --db "$DB" --trend --board "$B" -o "$T/g.md" 2>/dev/null || fail "report --trend md"
grep -l '>run 18</text>' "$T"/g-other-benchmarks-*.svg >/dev/null || fail "report --trend md: no chart file marks run 18"
sed 's/"board":"other"/"board":"elsewhere"/; s/"id":"o-/"id":"e-/' "$T/o1.jsonl" >"$T/e1.jsonl"
"$PG" report --db "$DB" --trend "$T/e1.jsonl" -o "$T/e.html" 2>"$T/err" || fail "report --trend of a file's board"
grep -q "no runs of board 'elsewhere'.*no trend chart of it" "$T/err" || fail "report --trend: not said: $(cat "$T/err")"

# Output files: a device written through, not replaced; a directory refused.
hist -o /dev/null --format md || fail "-o /dev/null"
[ -c /dev/null ] || fail "/dev/null replaced"
mkdir "$T/dir"
expect_usage_error "-o a directory" history --db "$DB" --board "$B" -o "$T/dir"
expect_usage_error "-o unknown extension" history --db "$DB" --board "$B" -o "$T/h.pdf"
expect_usage_error "no --board" history --db "$DB"
expect_usage_error "unknown board" history --db "$DB" --board nope
expect_usage_error "unknown selector" history --db "$DB" --board "$B" no.such
expect_usage_error "bad --format" history --db "$DB" --board "$B" --format pdf
expect_usage_error "bad --last" history --db "$DB" --board "$B" --last 0
expect_usage_error "bad --label" history --db "$DB" --board "$B" --label x
expect_usage_error "label nobody has" history --db "$DB" --board "$B" --label release=none
expect_usage_error "no store" history --db "$T/none.db" --board "$B"
echo "history: ok"
