#!/bin/sh
# SPDX-License-Identifier: MIT
# The charts that say something, and only those (issue 38, item 9): two
# boards, a row only one of them has a figure for (no one-bar chart), a row
# where both have the same figure (no chart of a constant), a row whose
# figures are 200x apart (a bar chart on a log axis, saying so), a sweep
# only board A measured (a line chart whose legend names A alone), and a
# sweep flat at 100 on both boards (no chart).
. "$(dirname "$0")/lib.sh"
need_python
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
def run(board, rows):
    with open("%s/%s.jsonl" % (t, board), "w") as f:
        f.write(json.dumps({"type": "run", "schema": "perfguide/1", "id": "r-" + board, "board": board,
                            "started": "2026-12-01T00:00:00Z", "machine": {}, "build": {}, "config": {}}) + "\n")
        for bench, params, v, status in rows:
            r = {"type": "result", "bench": bench, "params": params, "metric": "rate", "unit": "op/s",
                 "better": "higher", "status": status}
            if status == "ok":
                r.update(samples=[v, v], median=v, min=v, max=v)
            else:
                r["reason"] = "not on this board"
            f.write(json.dumps(r) + "\n")
        f.write(json.dumps({"type": "end", "finished": "2026-12-01T00:01:00Z", "status": "complete"}) + "\n")
sweep = [4096, 8192, 16384, 32768]
a = [("t.alone", {}, 5.0, "ok"), ("t.same", {}, 100.0, "ok"), ("t.apart", {}, 10.0, "ok")]
a += [("t.sweep", {"size": s}, s / 100.0, "ok") for s in sweep]
a += [("t.flat", {"size": s}, 100.0, "ok") for s in sweep]
b = [("t.same", {}, 100.0, "ok"), ("t.apart", {}, 2000.0, "ok")]
b += [("t.sweep", {"size": s}, 0, "skipped") for s in sweep]
b += [("t.flat", {"size": s}, 100.0, "ok") for s in sweep]
run("boardA", a)
run("boardB", b)
PY
"$PG" report "$T/boardA.jsonl" "$T/boardB.jsonl" -o "$T/guide.md" 2>"$T/err" || fail "report: $(cat "$T/err")"
charts=$(sed -n 's/^!\[\(.*\)\](\(guide-[^)]*\.svg\))$/\1 \2/p' "$T/guide.md")
[ "$(echo "$charts" | grep -c .)" -eq 2 ] || fail "two charts, t.apart's and t.sweep's: $charts"
for no in t.alone t.same t.flat; do
	echo "$charts" | grep -q "^$no" && fail "a chart of $no: $charts"
done
apart=$(echo "$charts" | sed -n 's/^t\.apart.* \(guide-.*\.svg\)$/\1/p')
[ -n "$apart" ] || fail "no bar chart of t.apart: $charts"
grep -q 'log scale' "$T/$apart" || fail "figures 200x apart on a linear axis"
sweep=$(echo "$charts" | sed -n 's/^t\.sweep.* \(guide-.*\.svg\)$/\1/p')
[ -n "$sweep" ] || fail "no line chart of t.sweep: $charts"
grep -q '>boardA<' "$T/$sweep" || fail "boardA not in the sweep's legend"
grep -q 'boardB' "$T/$sweep" && fail "boardB, with no point, in the sweep's legend"
echo ok
