# SPDX-License-Identifier: MIT
# ext.glmark2 for real: Debian's glmark2-es2 (glmark2-es2-x11) under Xvfb
# with Mesa's software renderer, two short scenes. The score must be the one
# glmark2 printed, and follow from the scenes' FPS in the raw output kept
# beside the results file. Skipped with the reason where it cannot run.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

expect_usage_error "a size that is not WIDTHxHEIGHT" run ext.glmark2 -p size=big

# What a machine without glmark2 gets, whatever else it has.
"$PG" run ext.glmark2 -p bin=no-such-glmark2 --no-db --out none.jsonl >/dev/null 2>"$T/err" \
	|| fail "a missing glmark2 is not a failure: $(cat "$T/err")"
grep -q '"status":"skipped","reason":"no-such-glmark2 not found on PATH (Debian' none.jsonl \
	|| fail "no skip saying how to get glmark2: $(cat none.jsonl)"
need_cmd glmark2-es2 glmark2-es2-x11
need_cmd xvfb-run xvfb

env -u DISPLAY "$PG" run ext.glmark2 -p bin=glmark2-es2 --no-db --out nodisplay.jsonl >/dev/null 2>"$T/err" \
	|| fail "no display is not a failure: $(cat "$T/err")"
grep -q '"status":"skipped","reason":"glmark2-es2 draws on X11 and DISPLAY is not set' nodisplay.jsonl \
	|| fail "no skip saying DISPLAY is missing: $(cat nodisplay.jsonl)"

# The software renderer, whatever GPU the machine has: the same figures'
# kind everywhere this test runs.
LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 640x480x24" \
	"$PG" run ext.glmark2 -p bin=glmark2-es2 -p scenes=build:use-vbo=true+texture \
	-p duration=1 -p size=320x240 --no-db --out g.jsonl >"$T/table" 2>"$T/err" \
	|| fail "glmark2 run failed: $(cat "$T/err") $(cat "$T/table")"

python3 - g.jsonl <<'PY'
import json, math, os, re, sys
from pgcheck import check, results

res = results(sys.argv[1], end=None)
check(len(res) == 1, "one result: %s" % res)
r = res[0]
if r["status"] == "skipped":
    print("SKIP: " + r["reason"], file=sys.stderr)
    sys.exit(77)
check(r["status"] == "ok", "status ok: %s" % r.get("reason"))
check(r["metric"] == "score" and r["unit"] == "score" and len(r["samples"]) == 1, "one score")
m = re.match(r"raw output: ([^;]+); glmark2 (\S+), ([^;]+); glmark2-es2 --off-screen -s 320x240 "
             r"-b :duration=1 -b build:use-vbo=true -b texture; FPS: build:use-vbo=true (\d+), texture (\d+)$",
             r["note"])
check(m, "note: " + r["note"])
raw = open(m.group(1)).read()
check(raw.startswith("$ ") and "/glmark2-es2 --off-screen -s 320x240" in raw.splitlines()[0], "command kept")
check(raw.splitlines()[-1].startswith("# exit status 0, "), "exit status kept")
fps = [int(x) for x in re.findall(r"^\[\w+\] .*: FPS: (\d+) FrameTime: [0-9.]+ ms$", raw, re.M)]
check(fps == [int(m.group(4)), int(m.group(5))], "the note's FPS are the raw output's: %s" % fps)
score = int(re.search(r"glmark2 Score: (\d+)", raw).group(1))
check(r["median"] == score, "the result is glmark2's score %d" % score)
mean = sum(fps) // len(fps)
check(mean - 2 <= score <= mean, "score %d from the scenes' FPS %s" % (score, fps))
check(score > 0, "a score above zero")
print("glmark2 %s on %s: score %d, FPS %s" % (m.group(2), m.group(3), score, fps))
PY
