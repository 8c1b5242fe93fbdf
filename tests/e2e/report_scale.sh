#!/bin/sh
# SPDX-License-Identifier: MIT
# The report of a large results file (issue 40, defect 6: report was
# quadratic in rows times shared parameters) has what the file holds, in
# every format: 5,000 records of 4 boards x 2 runs from the generator
# bench/report-scale.sh times at 100,000 (report_scale_gen.py), a row per
# result key, rows named by the parameters that vary among their
# benchmark's rows only (align, copies, mode... are the same in all of
# them; storage's path is the place), a label several rows carry followed
# by those parameters, a cell from each board's latest run. No timing
# here: bench/report-scale.sh holds the thresholds.
. "$(dirname "$0")/lib.sh"
need_python
need_json
G="$(dirname "$0")/report_scale_gen.py"
rows=$(python3 "$G" "$T/scale.jsonl" --records 5000 | sed -n 's/^rows //p')
[ "$(wc -l <"$T/scale.jsonl")" -eq 5000 ] || fail "the generator wrote $(wc -l <"$T/scale.jsonl") records, not 5000"
[ "$rows" -eq 1556 ] || fail "the generator says $rows rows, expected 1556"

# Key 311 is the first of board-01 and the 312th of board-00: on both
# boards, from run r1 (the latest) of each. Its benchmark's rows carry the
# label "scale b0005".
name='scale b0005 size=128k threads=2 (us)'
b0='1165.50 (min 1164.50, max 1166.50)'
b1='1265.50 (min 1264.50, max 1266.50)'

"$PG" report "$T/scale.jsonl" --format csv -o "$T/g.csv" 2>"$T/err" || fail "report csv: $(cat "$T/err")"
[ "$(wc -l <"$T/g.csv")" -eq $((rows + 1)) ] || fail "csv: $(wc -l <"$T/g.csv") lines, expected $((rows + 1))"
grep -qFx "\"Scale\",\"$name\",\"$b0\",\"50.0\",\"$b1\",\"50.0\",\"\",\"\",\"\",\"\"" "$T/g.csv" ||
	fail "csv: no row '$name' with board-00 $b0 and board-01 $b1: $(grep -F "$name" "$T/g.csv")"
for want in '"Scale","scale.b0004 size=4k threads=1 bandwidth (MB/s)",' \
	'"Storage","storage.read bs=512 depth=1 bandwidth (MB/s)",' \
	'"Crypto","crypto.aes-128-cbc size=16 throughput (KBytes/Sec)",'; do
	grep -qF "$want" "$T/g.csv" || fail "csv: no row starting $want"
done
grep -q 'align=\|copies=\|mode=\|pattern=\|path=\|engine=' "$T/g.csv" &&
	fail "csv: a row named by a parameter all its benchmark's rows share: $(grep -m1 'align=\|copies=\|path=' "$T/g.csv")"
# 12 blocks of 128 keys (64 Scale, 32 Crypto, 32 Storage) and 20 Scale keys
[ "$(grep -c '^"Scale"' "$T/g.csv")" -eq 788 ] || fail "csv: $(grep -c '^"Scale"' "$T/g.csv") Scale rows, expected 788"

"$PG" report "$T/scale.jsonl" --format json -o "$T/g.json" 2>"$T/err" || fail "report json: $(cat "$T/err")"
python3 - "$T/g.json" "$rows" "$name" "$b0" "$b1" <<'PY' || fail "json: see above"
import json, sys
g = json.load(open(sys.argv[1]))
rows = [r for s in g["sections"] for r in s["rows"]]
want = int(sys.argv[2])
if len(rows) != want:
    sys.exit("json: %d rows, expected %d" % (len(rows), want))
r = [r for r in rows if r["name"] == sys.argv[3]]
if len(r) != 1:
    sys.exit("json: %d rows named %s" % (len(r), sys.argv[3]))
cells = {c["board"]: c for c in r[0]["cells"]}
for board, text, run in (("board-00", sys.argv[4], "board-00-r1"), ("board-01", sys.argv[5], "board-01-r1")):
    c = cells[board]
    if c.get("text") != text or c.get("run") != run:
        sys.exit("json: %s's cell is %s from %s, expected %s from %s" % (board, c.get("text"), c.get("run"), text, run))
if cells["board-02"]["status"] is not None:
    sys.exit("json: board-02 has a figure for a key it did not measure")
PY

# md and rst beside their charts (-o writes them), html and md on stdout.
mkdir "$T/md" "$T/rst"
"$PG" report "$T/scale.jsonl" -o "$T/md/guide.md" 2>"$T/err" || fail "report md: $(cat "$T/err")"
"$PG" report "$T/scale.jsonl" -o "$T/rst/guide.rst" 2>"$T/err" || fail "report rst: $(cat "$T/err")"
"$PG" report "$T/scale.jsonl" -o "$T/g.html" 2>"$T/err" || fail "report html: $(cat "$T/err")"
"$PG" report "$T/scale.jsonl" >"$T/stdout.md" 2>"$T/err" || fail "report to stdout: $(cat "$T/err")"
grep -qFx "| $name | $b0 | $b1 |  |  |" "$T/md/guide.md" || fail "md: no row '$name' with its two cells"
grep -qF "$name" "$T/rst/guide.rst" || fail "rst: no row '$name'"
grep -qF "$b1" "$T/g.html" || fail "html: no cell $b1"
grep -qFx "| $name | $b0 | $b1 |  |  |" "$T/stdout.md" || fail "md on stdout: no row '$name'"
# every chart the guide names is there, and nothing else
for d in md rst; do
	grep -o 'guide-[a-z0-9-]*\.svg' "$T/$d/guide.$d" | sort -u >"$T/named"
	(cd "$T/$d" && ls guide-*.svg) | sort >"$T/written"
	[ -s "$T/named" ] || fail "$d: no charts"
	cmp -s "$T/named" "$T/written" || fail "$d: the charts named and those written differ: $(diff "$T/named" "$T/written" | head -5)"
done
echo "ok: $rows rows in every format"
